"""Forged certificates, re-sealed with a correct digest, are refused by ``posreal verify`` (exit 2).

The corpus is generated here, at test time, from the shipped certificates
(counterexamples/certificates), in three kinds:

* F1 — an embedded table renamed to a registry PE's name (and ``pe`` with it): the table would
  stand in for ``alibi``, ``rope:16``, ``t5``, ... and claim an α that PE does not have;
* F2 — a key repeated in one JSON object (a first ``"alpha": "1/1"`` ahead of the real value, a
  second top-level ``"kind"``, a repeated key in a bundle): a reader would see a claim nobody checked;
* F3 — an edited bundle envelope (another version, a string version, none, an extra field).

Every forgery must exit 2 (malformed); each kind has its control: the same construction without
the forgery (a fresh table name, no repeated key, the untouched envelope) verifies, exit 0.  The
verifier's own list of registry names (:data:`~posreal.counterexamples.verifier.exact_model.RESERVED_NAMES`,
standard library only) is checked against the theory's parser and catalogue so the two cannot drift.
"""

from __future__ import annotations

import copy
import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from posreal.cli import main
from posreal.counterexamples.certificate_writer import bundle
from posreal.counterexamples.verifier import exact_model as em
from posreal.counterexamples.verifier.certificate import digest
from posreal.theory.declarations import never_rational_names, reserved_pe_names
from posreal.theory.errors import PosrealError
from posreal.theory.pe_catalogue import catalogue
from posreal.theory.pe_specs import parse_learned, parse_pe

ROOT = Path(__file__).resolve().parents[1]
SHIPPED = sorted((ROOT / "counterexamples" / "certificates").glob("*.json"))
WITH_TABLES = [p for p in SHIPPED if json.loads(p.read_text(encoding="utf-8"))["instance"].get("tables")]
ISSUE_NAMES = ("alibi", "rope:16", "xpos:16", "learned:8", "t5", "clipped", "nope")   # the names the attack used


def _head(form: str) -> str:
    """The name a catalogue form starts with: ``t5[:B[:M]]`` -> ``t5``."""
    return form.split("[", 1)[0].split(":", 1)[0]


def _theory_names() -> set[str]:
    """Every name the theory's PE registry gives a meaning: catalogue forms, their aliases, prefixes."""
    heads = {_head(e.form) for e in catalogue()} | {_head(a) for e in catalogue() for a in e.aliases}
    return heads | set(reserved_pe_names())


def _registry_specs() -> list[str]:
    """Registry PE specs to forge: the attack's names, every catalogue example and reserved name."""
    examples = [e.example for e in catalogue() if e.example is not None]
    return list(dict.fromkeys([*ISSUE_NAMES, *examples, *em.RESERVED_NAMES]))


def _verify(tmp_path: Path, text: str, name: str = "forged.json") -> int:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return main(["verify", str(path)])


def _sealed(document: dict) -> dict:
    document = copy.deepcopy(document)
    document["digest"] = digest(document)
    return document


def _renamed(path: Path, new: str) -> dict:
    """The certificate at ``path`` with its embedded table (and ``pe``) renamed to ``new``, re-sealed."""
    document = json.loads(path.read_text(encoding="utf-8"))
    instance = document["instance"]
    (old,) = instance["tables"]
    instance["tables"] = {new: instance["tables"][old]}
    prefix = instance["pe"].removesuffix(old)           # "" or "dual:"
    assert prefix in ("", "dual:")
    instance["pe"] = prefix + new
    return _sealed(document)


# ----------------------------------------------------------------------------- F1
def test_the_verifiers_reserved_names_are_exactly_the_theorys_pe_names() -> None:
    assert set(em.RESERVED_NAMES) == _theory_names()
    assert set(em.IRRATIONAL_NAMES) <= set(em.RESERVED_NAMES)
    assert set(em.IRRATIONAL_NAMES) == never_rational_names()        # the declarations' never-rational families
    assert len(em.RESERVED_NAMES) == len(set(em.RESERVED_NAMES))


@pytest.mark.parametrize("spec", sorted(set(_registry_specs()) | {"dual", "table", "py", "slope", "relbias"}))
def test_no_spec_the_theory_accepts_is_a_table_name_the_verifier_accepts(spec: str) -> None:
    with pytest.raises(PosrealError):
        em.check_table_name(spec)


def _theory_accepts(name: str) -> bool:
    try:
        parse_learned(name) if name.startswith("learned") else parse_pe(name)
    except PosrealError:
        return False
    return True


def test_names_the_verifier_accepts_for_tables_are_refused_by_the_theorys_parser() -> None:
    """The converse direction: a table name the verifier accepts is no spec of the registry."""
    candidates = ["logtwo", "cxg1x878", "userpe", "nope2", "alibi_", "T5", "Rope", "fire_table", "_slope"]
    for name in candidates:
        assert em.check_table_name(name) == name
        assert not _theory_accepts(name), name
    assert _theory_accepts("t5") and _theory_accepts("learned:8")   # control: the parser does accept specs


def _f1_refused(tmp_path: Path, capsys: pytest.CaptureFixture, pairs: list[tuple[Path, str]]) -> int:
    """Each (certificate, registry spec): the certificate's table renamed to the spec is refused with exit 2."""
    for path, spec in pairs:
        code = _verify(tmp_path, json.dumps(_renamed(path, spec)))
        err = capsys.readouterr().err
        assert code == 2, (path.name, spec, err)
        assert err.count("\n") == 1 and "table name" in err, err
    return len(pairs)


def test_f1_every_registry_name_and_every_table_renamed_is_refused_with_exit_2(
        tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    """The default run: every registry spec as the new name, and every certificate with a table renamed,
    paired in rotation (the whole product is the slow test below)."""
    specs = _registry_specs()
    assert len(WITH_TABLES) >= 10
    pairs = [(WITH_TABLES[k % len(WITH_TABLES)], specs[k % len(specs)])
             for k in range(max(len(WITH_TABLES), len(specs)))]
    assert {p for p, _ in pairs} == set(WITH_TABLES) and {s for _, s in pairs} == set(specs)
    _f1_refused(tmp_path, capsys, pairs)


@pytest.mark.slow
def test_f1_every_table_renamed_to_a_registry_pe_is_refused_with_exit_2(tmp_path: Path,
                                                                         capsys: pytest.CaptureFixture) -> None:
    assert len(WITH_TABLES) >= 10
    forged = _f1_refused(tmp_path, capsys, [(path, spec) for path in WITH_TABLES for spec in _registry_specs()])
    assert forged >= len(WITH_TABLES) * len(ISSUE_NAMES)


def test_f1_control_a_fresh_table_name_verifies(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    for path in WITH_TABLES:
        assert _verify(tmp_path, json.dumps(_renamed(path, "fresh_user_table"))) == 0, path.name
    capsys.readouterr()


def test_f1_without_the_name_rule_the_issues_forgery_verifies(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                              capsys: pytest.CaptureFixture) -> None:
    """The refusal comes from the name rule: with no reserved names, ``alibi`` as a table verifies."""
    monkeypatch.setattr(em, "RESERVED_NAMES", ())
    document = _renamed(ROOT / "counterexamples" / "certificates" / "open_tie_designed_log2.json", "alibi")
    assert _verify(tmp_path, json.dumps(document)) == 0
    capsys.readouterr()


# ----------------------------------------------------------------------------- F2
def _dumps(node: Any, extra: dict[tuple, list[tuple[str, Any]]], path: tuple = ()) -> str:
    """JSON text of ``node`` with the pairs ``extra[path]`` written first in the object at ``path``."""
    if isinstance(node, dict):
        pairs = [*extra.get(path, []), *node.items()]
        return "{" + ",".join(json.dumps(k) + ":" + _dumps(v, extra, path + (k,)) for k, v in pairs) + "}"
    if isinstance(node, list):
        return "[" + ",".join(_dumps(v, extra, path + (n,)) for n, v in enumerate(node)) + "]"
    return json.dumps(node)


def _duplicates() -> Iterator[tuple[str, str, dict, dict]]:
    """(certificate, label, document, extra pairs): a repeated key at the top, in the instance, in the claims."""
    for path in SHIPPED:
        document = json.loads(path.read_text(encoding="utf-8"))
        yield path.name, "kind", document, {(): [("kind", "static-colspan")]}
        yield path.name, "instance.pe", document, {("instance",): [("pe", "alibi")]}
        yield path.name, "claims.margin", document, {("claims",): [("margin", "1/1")]}
        yield path.name, "digest", document, {(): [("digest", "sha256:" + "0" * 64)]}
        if "alpha" in document["claims"]:
            yield path.name, "claims.alpha", document, {("claims",): [("alpha", "1/1")]}


def test_f2_a_repeated_key_anywhere_is_refused_with_exit_2(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    count = 0
    for name, label, document, extra in _duplicates():
        code = _verify(tmp_path, _dumps(document, extra))
        err = capsys.readouterr().err
        assert code == 2, (name, label, err)
        assert err.count("\n") == 1 and "appears twice" in err, err
        count += 1
    assert count >= 4 * len(SHIPPED)


def test_f2_repeated_keys_in_a_bundle_envelope_and_inside_its_certificates_are_refused(
        tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    certificates = [json.loads(p.read_text(encoding="utf-8")) for p in SHIPPED[:3]]
    document = bundle(certificates)
    for extra in ({(): [("version", 1)]}, {(): [("certificates", [])]}, {("certificates", 1): [("kind", "x")]},
                  {("certificates", 2, "claims"): [("margin", "0/1")]}):
        assert _verify(tmp_path, _dumps(document, extra)) == 2, extra
        assert "appears twice" in capsys.readouterr().err


def test_f2_control_the_same_writer_without_repeated_keys_verifies(tmp_path: Path,
                                                                  capsys: pytest.CaptureFixture) -> None:
    for path in SHIPPED:
        assert _verify(tmp_path, _dumps(json.loads(path.read_text(encoding="utf-8")), {})) == 0, path.name
    assert _verify(tmp_path, _dumps(bundle([json.loads(p.read_text(encoding="utf-8")) for p in SHIPPED]), {})) == 0
    capsys.readouterr()


def test_f2_the_issues_forgery_the_last_alpha_is_the_real_one(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    """A first ``"alpha": "1/1"`` ahead of the real ``"3/4"``: the real one alone verifies, the pair is refused."""
    document = json.loads((ROOT / "counterexamples" / "certificates" / "open_tie_designed_log2.json").read_text())
    assert document["claims"]["alpha"] == "3/4"
    assert _verify(tmp_path, _dumps(document, {})) == 0
    assert _verify(tmp_path, _dumps(document, {("claims",): [("alpha", "1/1")]})) == 2
    capsys.readouterr()


# ----------------------------------------------------------------------------- F3
ENVELOPE_EDITS: list[tuple[str, Any]] = [
    ("version", 2), ("version", "x"), ("version", True), ("version", 1.0), ("version", None), ("version", "1"),
    ("claim", "all theorems proved"), ("certificates", {}), ("name", 5), ("digest", "sha256:" + "0" * 64)]
ENVELOPE_REMOVALS = ["version", "certificates"]


def _bundle() -> dict:
    return bundle([json.loads(p.read_text(encoding="utf-8")) for p in SHIPPED])


@pytest.mark.parametrize(("field", "value"), ENVELOPE_EDITS)
def test_f3_an_edited_bundle_envelope_is_refused_with_exit_2(tmp_path: Path, capsys: pytest.CaptureFixture,
                                                            field: str, value: Any) -> None:
    document = _bundle()
    document[field] = value
    code = _verify(tmp_path, json.dumps(document))
    err = capsys.readouterr().err
    assert code == 2, err
    assert err.count("\n") == 1 and "malformed" in err, err


@pytest.mark.parametrize("field", ENVELOPE_REMOVALS)
def test_f3_a_bundle_envelope_without_a_required_field_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture,
                                                                 field: str) -> None:
    document = _bundle()
    del document[field]
    assert _verify(tmp_path, json.dumps(document)) == 2
    assert "lacks" in capsys.readouterr().err


def test_f3_control_the_envelope_the_writer_makes_verifies(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    assert _verify(tmp_path, json.dumps(_bundle())) == 0
    assert _verify(tmp_path, json.dumps(bundle(_bundle()["certificates"], name="reproductions"))) == 0
    capsys.readouterr()


# ----------------------------------------------------------------------------- once as a subprocess
@pytest.mark.subprocess
def test_one_forgery_of_each_kind_is_refused_by_the_console_script(tmp_path: Path) -> None:
    log2 = ROOT / "counterexamples" / "certificates" / "open_tie_designed_log2.json"
    envelope = _bundle()
    envelope["claim"] = "all theorems proved"
    files = {"f1.json": json.dumps(_renamed(log2, "alibi")),
             "f2.json": _dumps(json.loads(log2.read_text()), {("claims",): [("alpha", "1/1")]}),
             "f3.json": json.dumps(envelope)}
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    for name, text in files.items():
        (tmp_path / name).write_text(text, encoding="utf-8")
        done = subprocess.run([sys.executable, "-m", "posreal", "verify", str(tmp_path / name)], capture_output=True,
                              text=True, env=env, cwd=ROOT, timeout=120)
        assert done.returncode == 2, (name, done.stderr)
        assert done.stdout == "" and done.stderr.count("\n") == 1 and "Traceback" not in done.stderr
