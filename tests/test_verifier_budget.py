"""Contract of the certificate verifier (counterexamples/verifier):
the work budget: planned work by its formulas, not checkable one below a budget and verified at it.

Each case is derived by hand in the test, never pasted from a run (tests/verifier_cases.py holds the shared
edits and certificates)."""

from __future__ import annotations

import re
from fractions import Fraction as F

import pytest

from posreal.counterexamples.verifier import exact_model as em
from posreal.counterexamples.verifier import verify as verifier
from posreal.counterexamples.verifier.errors import CertificateError
from posreal.counterexamples.verifier.verify import (
    NOT_CHECKABLE,
    REFUTED,
    VERIFIED,
    planned_work,
)
from verifier_cases import (DYNAMIC, OPEN, STATIC, _edited, _one, _put, _sealed, _shipped)


# ===================================================================== the work budget
def _widths(**tables: int) -> dict:
    return {name: {"kind": "column", "rows": [], "width": width} for name, width in tables.items()}


@pytest.mark.parametrize("pe, task, train_length, length, tables, expected", [
    # column width p = 3, reverse: R_3 = {2} (pairs 2), R_4 = {2, 3} (keys 3 + 4): entries 2·3·9,
    # elimination 2·(2 + 2)·3·min(4, 3)
    ("t", "reverse", 3, 4, _widths(t=3), (2 * 3 * (2 + 7), 2 * 4 * 3 * 3)),
    # the sheared table has the same width; dual:reverse scores the same rows
    ("dual:t", "dual:reverse", 3, 4, _widths(t=3), (2 * 3 * (2 + 7), 2 * 4 * 3 * 3)),
    # relbias:9, p = 10, copy: R_2 = {1} (pairs 1), R_3 = {1, 2} (keys 2 + 3): min(pairs + 2, p) = 3
    ("relbias:9", "copy", 2, 3, {}, (2 * 10 * (1 + 5), 2 * 3 * 10 * 3)),
    # nope has p = 0, counted as 1; position:1: R_3 = {1, 2} (pairs 3), R_5 = {1, ..., 4} (keys 2 + 3 + 4 + 5)
    ("nope", "position:1", 3, 5, {}, (2 * 1 * (3 + 14), 2 * 5 * 1 * 1)),
    # a task scoring no row: no pairs, no keys, the elimination of the two extra rows only
    ("alibi", "offset:9", 3, 5, {}, (0, 2 * 2 * 1 * 1)),
])
def test_planned_work_by_hand(pe: str, task: str, train_length: int, length: int, tables: dict,
                              expected: tuple[int, int]) -> None:
    assert planned_work(pe, task, train_length, length, tables) == expected


def test_the_entry_budget_refuses_one_below_the_planned_work_and_passes_at_it(monkeypatch: pytest.MonkeyPatch) -> None:
    doc = _sealed(_shipped(DYNAMIC))
    entries, elimination = 2 * 3 * (2 + 7), 2 * 4 * 3 * 3          # as in test_planned_work_by_hand
    monkeypatch.setattr(verifier, "MAX_ENTRIES", entries - 1)
    verdict = _one(doc)
    assert (verdict.verdict, verdict.failures, verdict.checked) == (NOT_CHECKABLE, [], [])
    assert verdict.notes == [f"the instance needs about {entries} fraction entries and {elimination} elimination "
                             f"steps; the verifier's budget is {entries - 1} and 50000000"]
    monkeypatch.setattr(verifier, "MAX_ENTRIES", entries)
    assert _one(doc).verdict == VERIFIED


@pytest.mark.parametrize("pe", ["relbias:", "colbias:", "dual:relbias:"])
def test_a_bucket_pe_with_an_empty_parameter_is_refused_as_theory_parse_pe_does(pe: str) -> None:
    """``relbias:`` was read as ``relbias`` (default D) by the verifier while ``posreal`` refuses the spec."""
    from posreal.theory.pe_specs import parse_pe
    from posreal.theory.errors import SpecError

    with pytest.raises(SpecError):
        parse_pe(pe)
    base = pe.removeprefix("dual:")
    for build in (lambda: em.dimension(pe, 4), lambda: em.feature(pe, 2, 1, 4)):
        with pytest.raises(CertificateError, match=rf"^invalid PE {re.escape(repr(pe))}; accepted: "):
            build()
    assert em.dimension(base.rstrip(":"), 4) == 4                   # the spec without the colon: D = L0 - 1


def test_every_multiplicity_is_type_checked_even_after_a_wrong_count() -> None:
    """[3, "x"]: the first count is wrong (it is 2), and the second is no integer: the certificate is malformed
    (before, the check stopped at the first wrong count and the certificate came out refuted); control: [3, 1]
    is well typed and refuted by the count."""
    wrong_then_bad = _edited(OPEN, lambda d: d["claims"]["rivals"][0]["prediction"].update(multiplicities=[3, "x"]))
    with pytest.raises(CertificateError, match=r"multiplicities\[1\]"):
        _one(wrong_then_bad)
    wrong = _one(_edited(OPEN, lambda d: d["claims"]["rivals"][0]["prediction"].update(multiplicities=[3, 1])))
    assert wrong.verdict == REFUTED and any("multiplicities of the support differences are [2, 1]" in f
                                            for f in wrong.failures)


def test_a_failure_found_before_the_budget_stops_checking_refutes(monkeypatch: pytest.MonkeyPatch) -> None:
    """The digest is checked first: an edit after sealing refutes the certificate even when the budget then stops
    the other checks (it came out "not checkable" before, losing the failure); control: the unedited certificate
    under the same budget is "not checkable"."""
    entries, elimination = 2 * 3 * (2 + 7), 2 * 4 * 3 * 3          # as in test_planned_work_by_hand
    monkeypatch.setattr(verifier, "MAX_ENTRIES", entries - 1)
    edited = _sealed(_shipped(DYNAMIC))
    last = edited["digest"][-1]
    edited["digest"] = edited["digest"][:-1] + ("0" if last != "0" else "1")     # as if the content changed
    verdict = _one(edited)
    budget = (f"the instance needs about {entries} fraction entries and {elimination} elimination steps; "
              f"the verifier's budget is {entries - 1} and 50000000")
    assert verdict.verdict == REFUTED
    assert verdict.failures == ["digest matches the content (no edit after sealing)"]
    assert verdict.notes == [f"the remaining claims were not checked: {budget}"]
    assert _one(_sealed(_shipped(DYNAMIC))).verdict == NOT_CHECKABLE


def test_the_elimination_budget_refuses_one_below_the_planned_work_and_passes_at_it(
        monkeypatch: pytest.MonkeyPatch) -> None:
    doc = _sealed(_shipped(DYNAMIC))
    entries, elimination = 54, 72
    monkeypatch.setattr(verifier, "MAX_ELIMINATION", elimination - 1)
    verdict = _one(doc)
    assert verdict.verdict == NOT_CHECKABLE
    assert verdict.notes == [f"the instance needs about {entries} fraction entries and {elimination} elimination "
                             f"steps; the verifier's budget is 2000000 and {elimination - 1}"]
    monkeypatch.setattr(verifier, "MAX_ELIMINATION", elimination)
    assert _one(doc).verdict == VERIFIED


def test_the_maximum_length_is_accepted_then_budgeted() -> None:
    """L = 4096 passes the length check and is refused by the budget: alibi, position:0 at L0 = 4 needs
    2·(6 + 4096·4097/2) entries (L = 4097 is malformed, test above)."""
    verdict = _one(_edited(STATIC, _put("instance", "length", 4096)))
    entries = 2 * (6 + 4096 * 4097 // 2)
    assert verdict.verdict == NOT_CHECKABLE
    assert verdict.notes == [f"the instance needs about {entries} fraction entries and 16 elimination steps; the "
                             "verifier's budget is 2000000 and 50000000"]


def test_the_product_budget_refuses_one_bit_below_and_passes_at_it(monkeypatch: pytest.MonkeyPatch) -> None:
    """The designed prediction multiplies (2/1)^1 · (1/1)^-1: 1·(2 + 1) + 1·(1 + 1) = 5 bits."""
    doc = _sealed(_shipped(OPEN))
    monkeypatch.setattr(verifier, "MAX_PRODUCT_BITS", 4)
    verdict = _one(doc)
    assert (verdict.verdict, verdict.notes) == (NOT_CHECKABLE, [
        "the prediction's exact product needs about 5 bits; the verifier's budget is 4 (coefficients too large)"])
    monkeypatch.setattr(verifier, "MAX_PRODUCT_BITS", 5)
    assert _one(doc).verdict == VERIFIED


@pytest.mark.parametrize("factors, sign", [
    ([], 0), ([(F(2), 1)], 1), ([(F(1, 2), 1)], -1), ([(F(2), 1), (F(1, 2), 1)], 0),
    ([(F(3, 2), 2), (F(2), -1)], 1),                     # 9/4 / 2 = 9/8
    ([(F(2, 3), -1)], 1), ([(F(3, 2), -3), (F(4, 3), 1)], -1),  # 8/27 · 4/3 = 32/81
    ([(F(4, 9), 1), (F(3, 2), 2)], 0), ([(F(5), 0)], 0),
])
def test_product_sign_is_exact(factors: list[tuple[F, int]], sign: int) -> None:
    assert verifier._product_sign(factors) == sign


def test_product_sign_budget_counts_bits_of_numerators_and_denominators(monkeypatch: pytest.MonkeyPatch) -> None:
    factors = [(F(3, 2), 2), (F(1, 4), -1)]              # 2·(2 + 2) + 1·(1 + 3) = 12 bits
    monkeypatch.setattr(verifier, "MAX_PRODUCT_BITS", 12)
    assert verifier._product_sign(factors) == 1          # 9/4 · 4 = 9
    monkeypatch.setattr(verifier, "MAX_PRODUCT_BITS", 11)
    with pytest.raises(em.NotCheckable) as err:
        verifier._product_sign(factors)
    assert str(err.value) == ("the prediction's exact product needs about 12 bits; the verifier's budget is 11 "
                              "(coefficients too large)")


def test_margin_and_gcd_helpers() -> None:
    assert verifier._margin([F(1), F(3), F(2)], 1) == 1
    assert verifier._margin([F(1), F(3), F(3)], 2) == 0
    assert verifier._margin([F(0), F(-1)], 1) == -1
    assert verifier._margin([F(5)], 0) is None
    assert [verifier._gcd(12, 18), verifier._gcd(18, 12), verifier._gcd(5, 0), verifier._gcd(0, 7)] == [6, 6, 5, 7]
