"""The renamed registry PEs: ``clipped`` (older name ``relbias``) and ``slope`` (older name ``alibi``).

An older name parses to the same encoding as the new one, prints as it was written (so stored results,
golden outputs and certificates keep their spelling), gives the same α_L in every arithmetic, and is
accepted by the certificate verifier's own exact model; the shipped certificate that stores ``alibi``
verifies, and so does the same certificate re-sealed with ``slope``.  ``posreal pes`` lists every PE with
its formula, kind, parameters and reference, and every example it shows parses to what it says.
"""

from __future__ import annotations

import json

import pytest
from certificate_edits import certificate, resealed

from posreal.cli import main
from posreal.counterexamples.verifier import exact_model as em
from posreal.counterexamples.verifier.verify import VERIFIED, verify_document
from posreal.theory.alpha import compute_alpha
from posreal.theory.defaults import REGISTRY_TASKS
from posreal.theory.errors import SpecError
from posreal.theory.pe_catalogue import catalogue
from posreal.theory.pe_specs import parse_pe

PAIRS = [("relbias", "clipped"), ("relbias:3", "clipped:3"), ("alibi", "slope"), ("dual:relbias", "dual:clipped"),
         ("dual:alibi", "dual:slope"), ("dual:dual:relbias:0", "clipped:0")]


@pytest.mark.parametrize("old,new", PAIRS)
def test_an_old_name_is_the_same_pe_and_prints_as_written(old, new):
    a, b = parse_pe(old), parse_pe(new)
    assert a == b and hash(a) == hash(b)
    assert str(a) == old.replace("dual:dual:", "") and str(b) == new
    assert str(parse_pe(str(a))) == str(a)


@pytest.mark.parametrize("old,new", [("relbias", "clipped"), ("alibi", "slope"), ("dual:relbias", "dual:clipped")])
@pytest.mark.parametrize("mode", ["float", "exact"])
def test_an_old_name_gives_the_same_answer(old, new, mode):
    for task in REGISTRY_TASKS:
        a = compute_alpha(old, task, 16, [32, 256], mode).to_json()
        b = compute_alpha(new, task, 16, [32, 256], mode).to_json()
        assert a.pop("pe") == old and b.pop("pe") == new
        assert a == b, task


def test_colbias_keeps_its_name():
    assert str(parse_pe("colbias:4")) == "colbias:4" and parse_pe("colbias").kind == "column"


@pytest.mark.parametrize("old,new", [("relbias", "clipped"), ("relbias:2", "clipped:2"), ("alibi", "slope"),
                                     ("dual:alibi", "dual:slope"), ("dual:relbias:1", "dual:clipped:1")])
def test_the_verifier_model_reads_both_names(old, new):
    for i in range(6):
        for j in range(i + 1):
            assert em.feature(old, i, j, 4) == em.feature(new, i, j, 4)
    assert em.dimension(old, 4) == em.dimension(new, 4)


@pytest.mark.parametrize("spec", ["clipped:", "slope:1", "alibis", "t5"])
def test_the_verifier_model_still_refuses_other_names(spec):
    with pytest.raises(em.CertificateError):
        em.feature(spec, 2, 1, 4)


def test_the_shipped_alibi_certificate_verifies_under_either_name():
    doc = certificate("static_alibi_position_0.json")
    assert doc["instance"]["pe"] == "alibi"                   # stored with the old name
    assert [r.verdict for r in verify_document(doc)] == [VERIFIED]
    renamed = json.loads(json.dumps(doc))
    renamed["instance"]["pe"] = "slope"
    assert [r.verdict for r in verify_document(resealed(renamed))] == [VERIFIED]
    broken = json.loads(json.dumps(doc))
    broken["instance"]["pe"] = "slopes"                        # control: an unknown name is not accepted
    with pytest.raises(em.CertificateError, match="invalid PE 'slopes'"):
        verify_document(resealed(broken))


# --------------------------------------------------------------------------- posreal pes
def test_every_catalogue_example_parses_to_what_the_entry_says():
    seen = set()
    for entry in catalogue():
        if entry.example is None:
            continue
        pe = parse_pe(entry.example)
        seen.add(entry.form)
        assert str(pe) == entry.example
        if "shear" not in entry.kind:
            assert pe.kind == entry.kind, entry.form
        if entry.exact in ("yes", "no (certified mode)"):
            assert pe.rational == (entry.exact == "yes"), entry.form
        if entry.theta != "as PE":
            assert pe.positive_scale == entry.theta.startswith("c > 0"), entry.form
        for alias in entry.aliases:
            assert parse_pe(alias.split("[")[0]) == pe
    assert {"t5[:B[:M]]", "alibi-fixed[:H[:h]]", "xpos:d[:base[:scale]]", "kerple-log[:r]", "fire[:K[:T]]",
            "clipped[:D]", "slope"} <= seen


def test_pes_command_text_and_json(capsys):
    assert main(["pes"]) == 0
    text = capsys.readouterr().out
    for entry in catalogue():
        assert entry.form in text and entry.reference in text
    assert "(also: relbias[:D])" in text and "(also: alibi)" in text
    assert main(["pes", "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    forms = [e["form"] for e in doc["pes"]]
    assert forms == [e.form for e in catalogue()] and "versions" in doc
    t5 = doc["pes"][forms.index("t5[:B[:M]]")]
    assert t5["kind"] == "relative" and [p["default"] for p in t5["parameters"]] == ["32", "128"]
    assert "Raffel" in t5["reference"]


def test_unknown_names_list_the_new_forms():
    with pytest.raises(SpecError) as err:
        parse_pe("t6")
    for form in ("clipped[:D] (or relbias)", "slope (or alibi)", "t5[:B[:M]]", "alibi-fixed", "xpos:d",
                 "kerple-log", "fire[:K[:T]]", "py:MODULE:FUNCTION", "'posreal pes'"):
        assert form in str(err.value)
