"""Certificates of format version 2 (residual-levels, symmetric-tie): the shipped ones verify, every
tampered claim is refuted, and the version of each kind is enforced (version-1 kinds read as before)."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest

from posreal.cli import main
from posreal.counterexamples.certificate_writer import seal
from posreal.counterexamples.residual_certificates import levels_certificate, symmetric_certificate
from posreal.counterexamples.verifier.errors import CertificateError
from posreal.counterexamples.verifier.verify import REFUTED, VERIFIED, verify_document
from posreal.theory.sampling import instance

ROOT = Path(__file__).resolve().parents[1]
CERTS = ROOT / "counterexamples" / "certificates"
FAMILIES = ("relative", "column", "general")


def _load(name: str) -> dict:
    return json.loads((CERTS / name).read_text())


def _verdict(doc: dict):
    (report,) = verify_document(doc, "c")
    return report


@pytest.mark.parametrize("name", ["residual_levels_seed1_174_row3.json", "residual_levels_seed1_641_row3.json",
                                  "residual_levels_seed1_10091_row3.json", "symmetric_tie_seed1_878_row3.json"])
def test_shipped_version_two_certificates_verify(name):
    doc = _load(name)
    assert doc["version"] == 2
    report = _verdict(doc)
    assert report.verdict == VERIFIED, report.failures
    assert main(["verify", str(CERTS / name)]) == 0


def test_the_max_entropy_sign_is_evidence_and_said_so():
    doc = _load("residual_levels_seed1_10091_row3.json")
    assert "spans" in doc["claims"]["decision"]
    assert doc["evidence"]["limit"]["evidence"] == "certified" and doc["evidence"]["limit"]["value"] < 0
    assert any("needs exp and log" in n for n in _verdict(doc).notes)


def _tampered(doc: dict, edit) -> dict:
    body = copy.deepcopy({k: v for k, v in doc.items() if k not in ("format", "version", "digest")})
    edit(body["claims"])
    return seal(body)


LEVEL_EDITS = {
    "leading sign flipped": lambda c: c["decision"]["leading"].update(sign=-c["decision"]["leading"]["sign"]),
    "leading level moved": lambda c: c["decision"]["leading"].update(level=c["decision"]["leading"]["level"] - 1),
    "interior multiplier halved": lambda c: c["levels"][0]["interior"][0].update(
        **{"lambda": "1/2" if c["levels"][0]["interior"][0]["lambda"] != "1/2" else "1/3"}),
    "a zero constraint called positive": lambda c: c["levels"][0]["positive"].append(
        next(p for p in c["levels"][0]["active"] if p not in c["levels"][0]["positive"])),
    "second level's θ changed": lambda c: c["levels"][1].update(theta=["0/1"] * len(c["levels"][1]["theta"])),
    "complete flipped": lambda c: c.update(complete=not c["complete"]),
}


@pytest.mark.parametrize("edit", sorted(LEVEL_EDITS))
def test_a_tampered_levels_certificate_is_refuted(edit):
    doc = _load("residual_levels_seed1_641_row3.json")      # three levels, decided by ⟨θ_3, v⟩ > 0
    assert _verdict(doc).verdict == VERIFIED and doc["claims"]["decision"]["leading"]["level"] == 3
    report = _verdict(_tampered(doc, LEVEL_EDITS[edit]))
    assert report.verdict == REFUTED and report.failures


def test_a_tampered_span_decomposition_is_refuted():
    doc = _load("residual_levels_seed1_10091_row3.json")

    def edit(c):
        c["decision"]["spans"][0][0]["coefficient"] = "7/1"
    assert _verdict(_tampered(doc, edit)).verdict == REFUTED


SYMMETRY_EDITS = {
    "identity permutation": lambda c: c["symmetry"].update(perm=sorted(c["symmetry"]["perm"]),
                                                           signs=[1] * len(c["symmetry"]["signs"])),
    "a sign flipped": lambda c: c["symmetry"]["signs"].__setitem__(0, -c["symmetry"]["signs"][0]),
    "projection scaled": lambda c: c.update(projection=[x if x == "0/1" else "5/1" for x in c["projection"]]),
    "not a permutation": lambda c: c["symmetry"].update(perm=[0] * len(c["symmetry"]["perm"])),
}


@pytest.mark.parametrize("edit", sorted(SYMMETRY_EDITS))
def test_a_tampered_symmetry_certificate_is_refuted(edit):
    doc = _load("symmetric_tie_seed1_878_row3.json")
    report = _verdict(_tampered(doc, SYMMETRY_EDITS[edit]))
    assert report.verdict == REFUTED and report.failures


def test_each_kind_has_its_own_format_version():
    doc = copy.deepcopy(_load("symmetric_tie_seed1_878_row3.json"))
    doc["version"] = 1
    with pytest.raises(CertificateError, match=r"version 1; accepted: the integer 2 \(the format version of kind "
                                               r"symmetric-tie\)"):
        verify_document(doc, "c")
    old = copy.deepcopy(_load("open_tie_designed_log2.json"))
    assert old["version"] == 1 and _verdict(old).verdict == VERIFIED
    old["version"] = 2
    with pytest.raises(CertificateError, match="accepted: the integer 1$"):
        verify_document(old, "c")


def test_undecided_or_unsymmetric_rivals_get_no_certificate():
    with pytest.raises(CertificateError, match="not decided by the residual levels"):
        levels_certificate(instance(1, 5, FAMILIES), 3)
    with pytest.raises(CertificateError, match="no signed permutation"):
        symmetric_certificate(instance(1, 174, FAMILIES), 3)



# Exists because a mutant survived: a levels certificate whose decision is not an object was refused without its path.
def test_a_levels_certificate_whose_decision_is_not_an_object_is_refused_by_path():
    doc = _tampered(_load("residual_levels_seed1_641_row3.json"), lambda c: c.update(decision=["leading"]))
    with pytest.raises(CertificateError, match=r"^malformed certificate: claims\.decision "):
        _verdict(doc)
