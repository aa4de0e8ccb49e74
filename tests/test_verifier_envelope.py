"""Contract of the certificate verifier (counterexamples/verifier):
the top level: header fields, kind, bundles, overall outcome, stray errors, evidence notes, files.

Each case is derived by hand in the test, never pasted from a run (tests/verifier_cases.py holds the shared
edits and certificates)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from posreal.counterexamples.verifier import exact_model as em
from posreal.counterexamples.verifier import verify as verifier
from posreal.counterexamples.verifier.errors import CertificateError
from posreal.counterexamples.verifier.verify import (
    NOT_CHECKABLE,
    REFUTED,
    VERIFIED,
    CertificateReport,
    overall,
    verify_document,
    verify_file,
)
from verifier_cases import (CERT_DIR, DYNAMIC, EVIDENCE_NOTE, OPEN, PE_FORMS, STATIC, _edited, _one, _put, _refusal,
                            _sealed, _shipped)


# ===================================================================== top level, bundles, wrapping, notes
@pytest.mark.parametrize("field, value, message", [
    ("format", "posreal-certificate-bundle-x", "malformed certificate c: format 'posreal-certificate-bundle-x'; "
                                               "accepted: 'posreal-certificate'"),
    ("format", None, "malformed certificate c: format None; accepted: 'posreal-certificate'"),
    ("version", 1.0, "malformed certificate c: version 1.0; accepted: the integer 1"),
    ("version", True, "malformed certificate c: version True; accepted: the integer 1"),
    ("kind", "static", "malformed certificate c: kind 'static'; accepted: static-colspan, dynamic-colspan, open-tie, "
                       "residual-levels, symmetric-tie"),
    ("kind", ["open-tie"], "malformed certificate c: kind ['open-tie']; accepted: static-colspan, dynamic-colspan, "
                           "open-tie, residual-levels, symmetric-tie"),
    ("digest", 5, "malformed certificate: digest = 5; accepted: a string"),
])
def test_header_fields_are_refused_after_sealing(field: str, value: Any, message: str) -> None:
    doc = _sealed(_shipped(STATIC))
    doc[field] = value
    assert _refusal(doc) == message


def test_a_missing_kind_is_refused_before_the_schema() -> None:
    doc = _sealed(_shipped(STATIC))
    del doc["kind"], doc["claims"]
    assert _refusal(doc) == ("malformed certificate c: kind None; accepted: static-colspan, dynamic-colspan, open-tie, "
                             "residual-levels, symmetric-tie")


def test_a_kind_swapped_for_another_is_refused_by_the_schema_of_that_kind() -> None:
    doc = _shipped(STATIC)
    doc["kind"] = "open-tie"
    assert _refusal(_sealed(doc)) == "malformed certificate: claims lacks alpha, rivals"


def test_bundles_name_each_certificate_and_bound_their_size(monkeypatch: pytest.MonkeyPatch) -> None:
    good = _sealed(_shipped(STATIC))
    bundle = {"format": "posreal-certificate-bundle", "version": 1, "certificates": [good, good]}
    verdicts = verify_document(bundle, "b")
    assert [(v.verdict, v.name) for v in verdicts] == [(VERIFIED, "b#0"), (VERIFIED, "b#1")]
    monkeypatch.setattr(verifier, "MAX_BUNDLE", 2)
    assert len(verify_document(bundle, "b")) == 2                    # exactly at the limit
    monkeypatch.setattr(verifier, "MAX_BUNDLE", 1)
    assert _refusal(bundle, "b") == "malformed bundle b: 2 certificates; accepted: 1 to 1"
    assert _refusal({**bundle, "certificates": []}, "b") == "malformed bundle b: 0 certificates; accepted: 1 to 1"
    assert _refusal({**bundle, "certificates": [7]}, "b") == \
        "malformed certificate b#0: format None; accepted: 'posreal-certificate'"
    assert _refusal({"format": "posreal-certificate-bundle"}, "b") == \
        "malformed certificate: bundle b lacks certificates, version"
    assert _refusal({**bundle, "certificates": {}}, "b") == \
        "malformed certificate: bundle certificates = {}; accepted: a list"


def test_overall_outcome_ranks_refuted_over_not_checkable_over_verified() -> None:
    def verdicts(*outcomes: Any) -> list[CertificateReport]:
        return [CertificateReport(o, f"v{n}") for n, o in enumerate(outcomes)]

    assert overall([]) == VERIFIED
    assert overall(verdicts(VERIFIED, VERIFIED)) == VERIFIED
    assert overall(verdicts(VERIFIED, NOT_CHECKABLE)) == NOT_CHECKABLE
    assert overall(verdicts(NOT_CHECKABLE, REFUTED, VERIFIED)) == REFUTED
    assert verifier.EXIT_CODES == {VERIFIED: 0, REFUTED: 1, NOT_CHECKABLE: 3}
    assert CertificateReport(REFUTED, "n", ["f"], ["c"], ["x"]).to_json() == {
        "verdict": "refuted", "name": "n", "failures": ["f"], "checked": ["c"], "notes": ["x"]}


@pytest.mark.parametrize("error, message", [
    (KeyError("x"), "malformed certificate c: KeyError \"'x'\""),
    (IndexError("list index out of range"), "malformed certificate c: IndexError 'list index out of range'"),
    (TypeError("bad"), "malformed certificate c: TypeError 'bad'"),
    (ZeroDivisionError("division by zero"), "malformed certificate c: ZeroDivisionError 'division by zero'"),
    (CertificateError("its own message"), "its own message"),
])
def test_a_stray_error_in_the_checks_is_one_malformed_line(monkeypatch: pytest.MonkeyPatch, error: Exception,
                                                           message: str) -> None:
    def fail(*args: Any) -> None:
        raise error

    monkeypatch.setitem(verifier._KIND_CHECKS, "static-colspan", fail)
    assert _refusal(_sealed(_shipped(STATIC))) == message


def test_not_checkable_from_the_checks_is_a_verdict_with_the_note(monkeypatch: pytest.MonkeyPatch) -> None:
    def fail(*args: Any) -> None:
        raise em.NotCheckable("too much")

    monkeypatch.setitem(verifier._KIND_CHECKS, "open-tie", fail)
    verdict = _one(_sealed(_shipped(OPEN)))
    assert (verdict.verdict, verdict.name, verdict.failures, verdict.checked, verdict.notes) == \
        (NOT_CHECKABLE, "c", [], [], ["too much"])


def test_irrational_pe_is_not_checkable_with_its_note() -> None:
    verdict = _one(_edited(STATIC, _put("instance", "pe", "dual:rope:8")))
    assert verdict.verdict == NOT_CHECKABLE and verdict.failures == []
    assert verdict.notes == [f"PE 'dual:rope:8' has irrational features; the fractions-only verifier accepts "
                             f"{PE_FORMS}"]


@pytest.mark.parametrize("evidence, notes", [(None, []), ({}, []), ({"flow": []}, [EVIDENCE_NOTE])])
def test_the_evidence_note_is_attached_only_to_non_empty_evidence(evidence: Any, notes: list[str]) -> None:
    doc = _shipped(DYNAMIC)
    doc.pop("evidence")
    if evidence is not None:
        doc["evidence"] = evidence
    verdict = _one(_sealed(doc))
    assert (verdict.verdict, verdict.notes) == (VERIFIED, notes)


def test_verify_file_names_the_verdict_after_the_file(tmp_path: Path) -> None:
    path = tmp_path / "mine.json"
    path.write_text((CERT_DIR / OPEN).read_text(encoding="utf-8"), encoding="utf-8")
    (verdict,) = verify_file(path)
    assert (verdict.verdict, verdict.name) == (VERIFIED, "mine.json")
