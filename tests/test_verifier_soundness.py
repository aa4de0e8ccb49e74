"""Soundness of the certificate verifier against edited, re-sealed certificates.

The digest function is public, so anyone can edit a claim and re-seal.  The corpus here is every
single-leaf edit of the ``claims`` of every shipped certificate (counterexamples/certificates),
re-sealed with the real digest: each must be refused (refuted, malformed or not checkable) —
none verified, none crashing.  The unedited, re-sealed certificates verify (the control that
the refusals come from the edits).  Also: unknown fields, non-integer versions, bounded work.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from posreal.counterexamples.verifier import verify as verifier
from posreal.counterexamples.verifier.certificate import digest
from posreal.counterexamples.verifier.errors import CertificateError
from posreal.counterexamples.verifier.verify import (
    NOT_CHECKABLE,
    REFUTED,
    VERIFIED,
    verify_document,
)

ROOT = Path(__file__).resolve().parents[1]
SHIPPED = sorted((ROOT / "counterexamples" / "certificates").glob("*.json"))


def _reseal(document: dict) -> dict:
    document = copy.deepcopy(document)
    document["digest"] = digest(document)
    return document


def _leaves(node: Any, path: tuple = ()) -> Iterator[tuple[tuple, Any]]:
    if isinstance(node, dict):
        for key, value in node.items():
            yield from _leaves(value, path + (key,))
    elif isinstance(node, list):
        for n, value in enumerate(node):
            yield from _leaves(value, path + (n,))
    else:
        yield path, node


def _rational_edits(text: str) -> list[Any]:
    num, den = (int(x) for x in text.split("/"))
    out = [f"{num + 1}/{den}", f"{-num}/{den}", f"{num}/{den + 1}", f"{2 * num}/{2 * den}", f"{num}/{den} ",
           f"+{num}/{den}" if num >= 0 else f"{num}.0/{den}", f"{num}/{den}".replace("1", "١"), "0/1", "1/0",
           "0/5", num, float(num), None, [text], "1/1", "-1/1"]
    return [e for e in out if e != text]


def _edits(value: Any) -> list[Any]:
    """Every way the corpus edits one leaf."""
    if isinstance(value, bool):
        return [not value, int(value), None, str(value).lower()]
    if isinstance(value, int):
        return [value + 1, value - 1, -value - 1, True, float(value), str(value), None, [value], 10 ** 12]
    if isinstance(value, str) and value.count("/") == 1:
        return _rational_edits(value)
    return [value + "x", 0, None]


def _set(document: dict, path: tuple, value: Any) -> None:
    node = document
    for key in path[:-1]:
        node = node[key]
    node[path[-1]] = value


def _outcome(document: dict) -> str:
    try:
        verdicts = verify_document(document, "edited")
    except CertificateError:
        return "malformed"
    return verifier.overall(verdicts)


def _corpus(every_edit: bool = True) -> Iterator[tuple[str, tuple, Any, dict]]:
    """Every single-leaf edit of the shipped certificates' claims; ``every_edit=False``: one edit per leaf,
    rotating through the leaf's edits (every leaf is still edited)."""
    turn = 0
    for path in SHIPPED:
        original = json.loads(path.read_text(encoding="utf-8"))
        for leaf, value in _leaves(original["claims"]):
            edits = _edits(value)
            for edit in edits if every_edit else [edits[turn % len(edits)]]:
                document = copy.deepcopy(original)
                _set(document, ("claims",) + leaf, edit)
                yield path.name, leaf, edit, _reseal(document)
            turn += 1


def test_the_shipped_certificates_resealed_unedited_verify() -> None:
    assert len(SHIPPED) >= 13
    for path in SHIPPED:
        document = _reseal(json.loads(path.read_text(encoding="utf-8")))
        assert _outcome(document) == VERIFIED, path.name


def _refused(every_edit: bool) -> tuple[dict[str, int], int]:
    """Outcome tally and number of edited documents; fails on any edit that verifies or crashes the verifier."""
    tally: dict[str, int] = {}
    wrongly_verified, crashes = [], []
    for name, leaf, edit, document in _corpus(every_edit):
        try:
            outcome = _outcome(document)
        except Exception as err:  # noqa: BLE001 — a crash is a defect of the verifier, counted and shown
            crashes.append((name, leaf, repr(edit)[:40], repr(err)[:120]))
            continue
        tally[outcome] = tally.get(outcome, 0) + 1
        if outcome == VERIFIED:
            wrongly_verified.append((name, leaf, repr(edit)[:40]))
    assert not crashes, crashes[:5]
    assert not wrongly_verified, wrongly_verified[:10]
    assert tally.get(REFUTED, 0) > 0 and tally.get("malformed", 0) > 0
    return tally, sum(tally.values())


def test_one_edit_of_every_claim_leaf_is_refused() -> None:
    """The default run: every leaf of every shipped certificate edited once (the edits rotate)."""
    leaves = sum(1 for path in SHIPPED for _ in _leaves(json.loads(path.read_text(encoding="utf-8"))["claims"]))
    _, total = _refused(every_edit=False)
    assert total == leaves >= 100


@pytest.mark.slow
def test_every_single_leaf_edit_of_the_claims_is_refused() -> None:
    """The whole corpus (~30 s): every edit of every leaf."""
    tally, total = _refused(every_edit=True)
    assert total >= 1500, tally


def test_claims_the_old_verifier_never_rederived_are_now_refuted() -> None:
    dynamic = json.loads((ROOT / "counterexamples/certificates/dynamic_cxc0x130_reverse.json").read_text())
    dynamic["claims"]["theta_dot_v"] = "1/1"
    assert _outcome(_reseal(dynamic)) == REFUTED
    open_tie = json.loads((ROOT / "counterexamples/certificates/open_tie_designed_log2.json").read_text())
    open_tie["claims"]["rivals"][0]["prediction"]["multiplicities"] = [1, 2]
    assert _outcome(_reseal(open_tie)) == REFUTED


def test_a_claim_leaf_no_check_covers_refutes_the_certificate(monkeypatch: pytest.MonkeyPatch) -> None:
    """The safety net: drop the theta_dot_v comparison from the verifier; the certificate is then
    refuted because that claim leaf is not re-derived by any check (and verifies with the net off)."""
    path = ROOT / "counterexamples/certificates/dynamic_cxc0x130_reverse.json"
    document = _reseal(json.loads(path.read_text()))
    original = verifier._Check.__call__

    def skip_theta_dot_v(self, ok, what, *claims):
        return original(self, ok, what, *[c for c in claims if c != ("theta_dot_v",)])

    monkeypatch.setattr(verifier._Check, "__call__", skip_theta_dot_v)
    verdict = verify_document(document)[0]
    assert verdict.verdict == REFUTED
    assert any("theta_dot_v is not re-derived" in f for f in verdict.failures)
    monkeypatch.setattr(verifier._Check, "uncovered", lambda self, claims: [])
    assert verify_document(document)[0].verdict == VERIFIED


@pytest.mark.parametrize("version", [True, 1.0, "1", None, 2])
def test_a_version_other_than_the_integer_1_is_malformed(version: Any) -> None:
    document = json.loads(SHIPPED[0].read_text())
    document["version"] = version
    with pytest.raises(CertificateError, match="version"):
        verify_document(_reseal(document))


@pytest.mark.parametrize("where", [("claims",), ("claims", "selected"), ("instance",), ()])
def test_unknown_fields_are_malformed(where: tuple) -> None:
    document = json.loads(SHIPPED[0].read_text())
    node = document
    for key in where:
        node = node[key]
    node["extra_claim"] = "0/1"
    with pytest.raises(CertificateError, match="unknown field"):
        verify_document(_reseal(document))


def test_evidence_is_not_a_claim_but_must_be_an_object() -> None:
    document = json.loads((ROOT / "counterexamples/certificates/open_tie_designed_log2.json").read_text())
    flow = document["evidence"]["gradient_flow"][0]             # the log-time gradient flow's measurements
    flow.update(value=-5.0, verdict="loses")                     # floats are reported, not verified
    document["evidence"]["row_verdict"] = "loses"
    assert _outcome(_reseal(document)) == VERIFIED
    for evidence in ([1, 2], None, "wins", 3.5, True):
        document["evidence"] = evidence
        assert _outcome(_reseal(document)) == "malformed", evidence


def test_a_support_multiplier_of_zero_is_refuted_not_a_crash() -> None:
    document = json.loads((ROOT / "counterexamples/certificates/open_tie_designed_log2.json").read_text())
    document["claims"]["selected"]["support"][0]["lambda"] = "0/1"
    assert _outcome(_reseal(document)) == REFUTED


def test_a_huge_prediction_coefficient_is_not_checkable_quickly() -> None:
    document = json.loads((ROOT / "counterexamples/certificates/open_tie_designed_log2.json").read_text())
    document["claims"]["rivals"][0]["prediction"]["coefficients"][0] = f"{10 ** 12}/1"
    assert _outcome(_reseal(document)) in (NOT_CHECKABLE, REFUTED)
    document["claims"]["rivals"][0]["prediction"]["coefficients"] = [f"{10 ** 12}/1", f"{-10 ** 12}/1"]
    verdicts = verify_document(_reseal(document))
    assert verdicts[0].verdict in (NOT_CHECKABLE, REFUTED)


def test_relbias_copy_at_the_verifiers_maximum_length_is_not_checkable_quickly() -> None:
    document = json.loads(SHIPPED[-1].read_text())
    document["instance"].update(pe="relbias", task="copy", train_length=4096, length=4096, tables={})
    assert verify_document(_reseal(document))[0].verdict == NOT_CHECKABLE


def test_deeply_nested_shears_in_a_certificate_spec_are_malformed_without_recursion() -> None:
    document = json.loads(SHIPPED[-1].read_text())
    pe = document["instance"]["pe"]
    document["instance"]["pe"] = "dual:" * 1000 + "alibi"
    with pytest.raises(CertificateError, match=r"invalid PE .*… \(5005 characters\)"):
        verify_document(_reseal(document))
    document["instance"]["pe"] = "dual:" * 65 + "alibi"
    with pytest.raises(CertificateError, match="at most 64 nested dual"):
        verify_document(_reseal(document))
    document["instance"]["pe"] = "dual:" * 62 + pe        # S∘S = id: an even nesting is the same instance
    assert verify_document(_reseal(document))[0].verdict == VERIFIED
