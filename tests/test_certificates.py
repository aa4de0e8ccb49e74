"""Certificates: every shipped certificate replays; edited, corrupted and malformed files are refused;
the fractions-only verifier and its exact model agree with ``theory`` and stay independent of it; certificate
files are read and written as UTF-8 JSON, with one-line errors for what cannot be read or written."""

from __future__ import annotations

import copy
import errno
import json
import locale
import os
import re
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from posreal.counterexamples.verifier import exact_model as em
from posreal.counterexamples.verifier import qla
from posreal.counterexamples.certificate_writer import check_output_directory, check_output_file, dumps, seal, write
from posreal.counterexamples.verifier.certificate import digest, load
from posreal.counterexamples.verifier.verify import NOT_CHECKABLE, REFUTED, VERIFIED, verify_document
from posreal.cli import main
from posreal.counterexamples.verifier.errors import CertificateError
from posreal.theory import parse_pe, parse_task, register_pe, unregister_pe
from posreal.theory.errors import SpecError
from posreal.theory.rational import rank as sympy_rank
from posreal.theory.defaults import REGISTRY_TASKS
from certificate_edits import certificate as _certificate, message as _message

ROOT = Path(__file__).resolve().parents[1]
CERT_DIR = ROOT / "counterexamples" / "certificates"
SHIPPED = sorted(CERT_DIR.glob("*.json"))


def _load(path: Path) -> dict:
    return json.loads(path.read_text(encoding="utf-8"))


def _by_kind(kind: str) -> list[Path]:
    return [p for p in SHIPPED if _load(p).get("kind") == kind]


# --------------------------------------------------------------------------- replay
def test_every_kind_is_shipped():
    kinds = {_load(p)["kind"] for p in SHIPPED}
    assert kinds == {"static-colspan", "dynamic-colspan", "open-tie", "residual-levels", "symmetric-tie"}


@pytest.mark.parametrize("path", SHIPPED, ids=[p.name for p in SHIPPED])
def test_shipped_certificate_replays(path):
    verdicts = verify_document(_load(path), path.name)
    assert [v.verdict for v in verdicts] == [VERIFIED], [v.failures for v in verdicts]
    assert all(len(v.checked) >= 5 for v in verdicts)


def test_shipped_certificates_are_canonical_json():
    for path in SHIPPED:
        doc = _load(path)
        assert path.read_text(encoding="utf-8") == dumps(doc), path.name  # sort_keys, as written
        assert doc["digest"] == digest(doc)
        assert {"format", "version", "versions", "explanation"} <= set(doc)


def test_cli_verifies_shipped_in_process(capsys):
    assert main(["verify", *map(str, SHIPPED)]) == 0
    assert capsys.readouterr().out.strip().endswith("verified")


@pytest.mark.subprocess
def test_cli_verify_json_and_subprocess(capsys):
    path = str(_by_kind("static-colspan")[0])
    assert main(["verify", "--json", path]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["verdict"] == VERIFIED and "versions" in doc
    proc = subprocess.run([sys.executable, "-m", "posreal", "verify", path], capture_output=True, text=True,
                          cwd=ROOT, timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip().endswith("verified")


# --------------------------------------------------------------------------- edits are refused
def _plus(text: str) -> str:
    x = Fraction(int(text.split("/")[0]), int(text.split("/")[1])) + Fraction(1, 7)
    return f"{x.numerator}/{x.denominator}"


EDITS = {
    "static-colspan": [
        ("theta", lambda d: d["claims"]["selected"]["theta"].__setitem__(
            0, _plus(d["claims"]["selected"]["theta"][0]))),
        ("lambda", lambda d: d["claims"]["selected"]["support"][0].__setitem__(
            "lambda", _plus(d["claims"]["selected"]["support"][0]["lambda"]))),
        ("margin", lambda d: d["claims"].__setitem__("margin", _plus(d["claims"]["margin"]))),
        ("rank", lambda d: d["claims"].__setitem__("rank_augmented", d["claims"]["rank_augmented"] - 1)),
        ("row", lambda d: d["instance"].__setitem__("target", d["instance"]["target"] + 1)),
    ],
    "dynamic-colspan": [
        ("first step", lambda d: d["claims"].__setitem__("first_step_dot_v", _plus(d["claims"]["first_step_dot_v"]))),
        ("direction", lambda d: d["claims"]["tie_direction"].__setitem__(0, _plus(d["claims"]["tie_direction"][0]))),
        ("table", lambda d: _edit_table(d)),
        ("step", lambda d: d["claims"].__setitem__("step_size", _plus(d["claims"]["step_size"]))),
    ],
    "open-tie": [
        ("alpha", lambda d: d["claims"].__setitem__("alpha", _plus(d["claims"]["alpha"]))),
        ("direction", lambda d: d["claims"]["rivals"][0]["direction"].__setitem__(
            0, _plus(d["claims"]["rivals"][0]["direction"][0]))),
        ("sign", lambda d: d["claims"]["rivals"][0]["prediction"].__setitem__(
            "sign", -d["claims"]["rivals"][0]["prediction"]["sign"])),
    ],
}


def _edit_table(doc: dict) -> None:
    table = next(iter(doc["instance"]["tables"].values()))
    cell = table["rows"][-1]
    while isinstance(cell[0], list):
        cell = cell[-1]
    cell[0] = _plus(cell[0])


@pytest.mark.parametrize("kind,edit", [(k, e) for k, es in EDITS.items() for e in es],
                         ids=[f"{k}-{e[0]}" for k, es in EDITS.items() for e in es])
def test_one_changed_entry_is_refused_even_when_resealed(kind, edit):
    """The edit is caught by the mathematics, not only by the digest: the digest is recomputed."""
    original = _load(next(p for p in _by_kind(kind) if kind != "open-tie" or "designed" in p.name))
    doc = copy.deepcopy(original)
    edit[1](doc)
    assert doc != original
    plain = verify_document(doc)[0]
    assert plain.verdict == REFUTED
    body = {k: v for k, v in doc.items() if k not in ("format", "version", "digest")}
    resealed = verify_document(seal(body))[0]
    assert resealed.verdict == REFUTED, "the edited claim re-derived as if it were true"
    assert not any("digest" in f for f in resealed.failures)


def test_edited_explanation_is_refused_by_the_digest():
    doc = _load(_by_kind("static-colspan")[0])
    doc["explanation"] = doc["explanation"].replace("realized", "not realized")
    verdict = verify_document(doc)[0]
    assert verdict.verdict == REFUTED and verdict.failures == ["digest matches the content (no edit after sealing)"]


def test_edited_file_exits_1(tmp_path, capsys):
    doc = _load(_by_kind("dynamic-colspan")[0])
    doc["claims"]["first_step_dot_v"] = "0/1"
    path = tmp_path / "edited.json"
    path.write_text(json.dumps(doc, sort_keys=True))
    assert main(["verify", str(path)]) == 1
    assert "refuted" in capsys.readouterr().out


# --------------------------------------------------------------------------- malformed input
MALFORMED = {
    "not_json.json": "{ this is not json",
    "list.json": "[1, 2, 3]",
    "empty.json": "",
    "wrong_format.json": json.dumps({"format": "something-else", "version": 1}),
}


@pytest.mark.parametrize("name", sorted(MALFORMED))
def test_malformed_file_exits_2_with_one_line(tmp_path, capsys, name):
    path = tmp_path / name
    path.write_text(MALFORMED[name])
    assert main(["verify", str(path)]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("posreal verify: error:") and "\n" not in err and "Traceback" not in err


@pytest.mark.parametrize("mutation", ["missing claims", "bad rational", "bad version", "bad kind", "bad task",
                                      "wrong dimension", "unknown pe", "row off the grid", "table too short"])
def test_corrupted_certificate_exits_2(tmp_path, capsys, mutation):
    doc = _load(_by_kind("static-colspan")[0])
    if mutation == "missing claims":
        del doc["claims"]
    elif mutation == "bad rational":
        doc["claims"]["margin"] = "1.5"
    elif mutation == "bad version":
        doc["version"] = 99
    elif mutation == "bad kind":
        doc["kind"] = "proof-by-intimidation"
    elif mutation == "bad task":
        doc["instance"]["task"] = "sort"
    elif mutation == "unknown pe":
        doc["instance"]["pe"] = "relbais"
    elif mutation == "row off the grid":
        doc["instance"]["row"] = doc["instance"]["length"] + 3
    elif mutation == "table too short":
        doc = _load(_by_kind("dynamic-colspan")[0])
        table = next(iter(doc["instance"]["tables"].values()))
        del table["rows"][1:]
    else:
        doc["claims"]["selected"]["theta"].append("0/1")
    path = tmp_path / "corrupt.json"
    path.write_text(json.dumps(doc))
    assert main(["verify", str(path)]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("posreal verify: error:") and "\n" not in err


def test_missing_file_exits_2(tmp_path, capsys):
    assert main(["verify", str(tmp_path / "nope.json")]) == 2
    assert "unreadable" in capsys.readouterr().err


def test_irrational_pe_is_not_checkable():
    doc = _load(_by_kind("static-colspan")[0])
    doc["instance"]["pe"] = "rope:16"
    body = {k: v for k, v in doc.items() if k not in ("format", "version", "digest")}
    assert verify_document(seal(body))[0].verdict == NOT_CHECKABLE


# --------------------------------------------------------------------------- independence and agreement
HEAVY = ("numpy", "scipy", "sympy", "z3", "matplotlib")


@pytest.mark.subprocess
def test_verifier_imports_only_the_standard_library():
    """In a fresh interpreter: import the verifier, verify every shipped certificate (in-process and
    through the CLI's entry point), then no heavy module is loaded."""
    certs = sorted(str(p) for p in CERT_DIR.glob("*.json"))
    script = (
        "import sys, json\n"
        "import posreal.counterexamples.verifier.verify as v\n"
        "from posreal.cli import main\n"
        f"paths = {certs!r}\n"
        "verdicts = [r.verdict for p in paths for r in v.verify_file(p)]\n"
        "code = main(['verify', '--json', *paths])\n"
        f"heavy = sorted(m for m in sys.modules if m.split('.')[0] in {HEAVY!r})\n"
        "print(json.dumps({'verdicts': [str(x) for x in verdicts], 'code': code, 'heavy': heavy}))\n")
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True, cwd=ROOT)
    doc = json.loads(out.stdout.strip().splitlines()[-1])
    assert len(doc["verdicts"]) == len(certs) > 0
    assert doc["heavy"] == []


RATIONAL_PES = ["nope", "relbias", "relbias:2", "colbias", "colbias:3", "alibi", "dual:relbias", "dual:alibi",
                "dual:colbias:3"]


@pytest.mark.parametrize("spec", RATIONAL_PES)
def test_exact_model_features_agree_with_theory(spec):
    pe, L0 = parse_pe(spec), 5
    for i in range(9):
        for j in range(i + 1):
            expected = tuple(pe.exact_index_features([i], [pe.key_index(i, j)], L0)[0])
            assert em.feature(spec, i, j, L0) == expected


@pytest.mark.parametrize("kind", ["relative", "column", "general"])
def test_exact_model_tables_agree_with_theory(kind):
    rng = np.random.default_rng(3)
    shape = (6, 6, 2) if kind == "general" else (6, 2)
    table = rng.integers(-3, 4, size=shape).tolist()
    name = f"cert_model_{kind}"
    register_pe(name, table, kind)
    try:
        embedded = {name: {"kind": kind, "rows": table if kind != "general" else
                           [[tuple(map(Fraction, c)) for c in row] for row in table]}}
        if kind != "general":
            embedded[name]["rows"] = [tuple(map(Fraction, r)) for r in table]
        for spec in (name, f"dual:{name}"):
            pe = parse_pe(spec)
            for i in range(6):
                for j in range(i + 1):
                    expected = tuple(pe.exact_index_features([i], [pe.key_index(i, j)], 3)[0])
                    assert em.feature(spec, i, j, 3, embedded) == expected
    finally:
        unregister_pe(name)


@pytest.mark.parametrize("spec", list(REGISTRY_TASKS) + ["offset:0", "position:3"]
                         + [f"dual:{t}" for t in REGISTRY_TASKS])
def test_exact_model_tasks_agree_with_theory(spec):
    task = parse_task(spec)
    for n in range(1, 14):
        rows, targets = task.rows_and_targets(n)
        assert em.rows_and_targets(spec, n) == list(zip(rows.tolist(), targets.tolist()))


@given(st.lists(st.lists(st.integers(-3, 3), min_size=3, max_size=3), min_size=1, max_size=6))
def test_fraction_rank_agrees_with_sympy_rank(rows):
    fr = [[Fraction(x) for x in r] for r in rows]
    assert qla.rank(fr) == sympy_rank(fr, 3)
    v = [Fraction(1), Fraction(-2), Fraction(3)]
    assert (qla.rank(fr + [v]) == qla.rank(fr)) == (sympy_rank(fr + [v], 3) == sympy_rank(fr, 3))


# --------------------------------------------------------------------- reading and writing certificate files
# Exists because a mutant survived: load's error for a non-object top level was unchecked.
def test_load_refuses_a_non_object_top_level_naming_the_file_and_what_is_accepted(tmp_path, monkeypatch):
    """A certificate file whose top level is a JSON list is a one-line error naming the file, the
    type found and what is accepted."""
    monkeypatch.chdir(tmp_path)   # a short relative name: the message shortens long paths
    path = Path("list.json")
    path.write_text("[1, 2]", encoding="utf-8")
    message = _message(lambda: load(path), CertificateError)
    assert "list.json" in message and "top level is list;" in message
    assert "accepted: a JSON object" in message


# Exists because a mutant survived: certificate files could follow the locale.
def test_certificate_file_is_utf8_whatever_the_locale(tmp_path):
    document = {"explanation": "θ* · α_L — ψ(i, j)"}
    saved = locale.setlocale(locale.LC_CTYPE)
    try:
        locale.setlocale(locale.LC_CTYPE, "C")                 # an ASCII locale: the default encoding cannot write θ
        write(document, tmp_path / "c.json")
    finally:
        locale.setlocale(locale.LC_CTYPE, saved)
    assert json.loads((tmp_path / "c.json").read_bytes().decode("utf-8")) == document


# Exists because a mutant survived: writing into a missing directory was never refused.
def test_writing_a_certificate_into_a_missing_directory_is_a_one_line_error(tmp_path, monkeypatch):
    """The error names the path, the OS reason and what is accepted (a short relative path: messages shorten
    paths past 80 characters, and pytest-xdist's temporary directories are long)."""
    monkeypatch.chdir(tmp_path)
    path = Path("missing") / "c.json"
    expected = (f"cannot write certificate file {str(path)!r}: {os.strerror(errno.ENOENT)}; "
                "accepted: a writable file path in an existing directory")
    with pytest.raises(SpecError, match=f"^{re.escape(expected)}$"):   # a usage error (exit 2), not a full disk
        write(_certificate("static_alibi_position_0.json"), path)
    assert not path.parent.exists()


# Exists because a mutant survived: check_output_file could return another value than the path.
def test_check_output_file_returns_the_path_it_was_given(tmp_path):
    """A writable output file path is returned as that path (not the description of what it is)."""
    target = tmp_path / "verdicts.json"
    assert check_output_file(target) == target
    assert check_output_file(str(target), "verdict file") == target


# Exists because a mutant survived: check_output_directory could return another value than the path.
def test_output_directory_is_returned_as_given(tmp_path):
    new = tmp_path / "out" / "certs"
    assert check_output_directory(new) == new                  # a directory that can be created
    assert check_output_directory(str(tmp_path)) == tmp_path   # an existing one
    (tmp_path / "file").write_text("x")
    with pytest.raises(SpecError, match="it exists and is not a directory"):
        check_output_directory(tmp_path / "file")
