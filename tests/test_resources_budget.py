"""Contract tests of ``posreal/runtime/resources.py``, message by message:
the budget and estimates: budget, configure, max_work, human, require, and every estimate by its formula.

Expected values and messages are derived in the tests from the documented formulas and message forms
(tests/resources_cases.py holds the shared helpers)."""

from __future__ import annotations


import numpy as np
import pytest
from posreal.theory.errors import SpecError
from posreal.runtime.resources import (
    Budget,
    Estimate,
    ResourceError,
    budget,
    ceiling_estimate,
    cell_estimate,
    configure,
    human,
    learned_estimate,
    max_work,
    require,
    training_pairs,
)
from resources_cases import _clean_budget  # noqa: F401  (autouse: no budget from the environment)
from resources_cases import (GIB, KIB, MIB, SIZE_ACCEPTED, TIB, _raises)


# --------------------------------------------------------------------------- budget, configure, max_work
def test_budget_default():
    assert budget() == Budget(4 * GIB, "the default")


def test_budget_from_environment(monkeypatch):
    monkeypatch.setenv("POSREAL_MAX_MEMORY", "16G")
    assert budget() == Budget(16 * GIB, "POSREAL_MAX_MEMORY")
    monkeypatch.setenv("POSREAL_MAX_MEMORY", "")                    # set but empty: the default
    assert budget() == Budget(4 * GIB, "the default")


def test_budget_environment_error_names_the_variable(monkeypatch):
    monkeypatch.setenv("POSREAL_MAX_MEMORY", "16X")
    _raises(SpecError, f"invalid environment variable POSREAL_MAX_MEMORY '16X'; accepted: {SIZE_ACCEPTED}", budget)


def test_configure_overrides_environment_and_none_restores(monkeypatch):
    monkeypatch.setenv("POSREAL_MAX_MEMORY", "1K")
    configure(123)
    assert budget() == Budget(123, "--max-memory")
    configure(None)
    assert budget() == Budget(KIB, "POSREAL_MAX_MEMORY")


def test_max_work_default_and_environment(monkeypatch):
    assert max_work() == 10 ** 13
    monkeypatch.setenv("POSREAL_MAX_WORK", "")
    assert max_work() == 10 ** 13
    monkeypatch.setenv("POSREAL_MAX_WORK", "1e18")                  # the upper end is accepted
    assert max_work() == 10 ** 18
    monkeypatch.setenv("POSREAL_MAX_WORK", "2.9")                   # floating-point operations: truncated
    assert max_work() == 2
    monkeypatch.setenv("POSREAL_MAX_WORK", "1")                     # the lower end is accepted
    assert max_work() == 1


@pytest.mark.parametrize("text", ["0", "0.5", "0.999", "1.5e18", "-5", "lots", "nan"])
def test_max_work_environment_error_names_the_variable(monkeypatch, text):
    """Below one operation is refused: 0.5 passed before and truncated to a budget of 0, which refuses all work."""
    monkeypatch.setenv("POSREAL_MAX_WORK", text)
    _raises(SpecError, f"invalid environment variable POSREAL_MAX_WORK {text!r}; accepted: a number >= 1 and <= 1e+18",
            max_work)


# --------------------------------------------------------------------------- human, require
@pytest.mark.parametrize("size, text", [
    (0, "0 B"), (1, "1 B"), (KIB - 1, "1023 B"), (KIB - 0.5, "1023 B"), (KIB, "1 KiB"), (KIB + KIB // 2, "1.5 KiB"),
    (MIB, "1 MiB"), (3.5 * MIB, "3.5 MiB"), (MIB + MIB // 8, "1.12 MiB"), (5 * GIB, "5 GiB"),
    (2.25 * GIB, "2.25 GiB"), (TIB, "1 TiB"), (7 * TIB, "7 TiB"), (int(12.5 * TIB), "12.5 TiB"),
    # from 100 of a unit on, whole numbers (never an exponent such as 1e+03 or 1.02e+03)
    (99.5 * MIB, "99.5 MiB"), (100 * MIB, "100 MiB"), (1000 * MIB, "1000 MiB"), (KIB * KIB - 1, "1024 KiB"),
    (3072 * TIB, "3072 TiB"),
])
def test_human_units_and_three_significant_digits(size, text):
    assert human(size) == text


def test_require_memory_budget_is_inclusive():
    configure(1000)
    require(Estimate(1000, "cell X"))
    _raises(ResourceError, "refused: cell X would need about 1001 B of memory, above the budget of 1000 B "
            "(--max-memory); accepted: smaller arguments, or raise the budget with 'posreal --max-memory SIZE ...' "
            "or POSREAL_MAX_MEMORY=SIZE", require, Estimate(1001, "cell X"))


def test_require_names_the_default_budget():
    require(Estimate(4 * GIB, "big"))
    _raises(ResourceError, "refused: big would need about 5 GiB of memory, above the budget of 4 GiB (the default); "
            "accepted: smaller arguments, or raise the budget with 'posreal --max-memory SIZE ...' or "
            "POSREAL_MAX_MEMORY=SIZE", require, Estimate(5 * GIB, "big"))


def test_require_names_the_environment_budget(monkeypatch):
    monkeypatch.setenv("POSREAL_MAX_MEMORY", "1K")
    _raises(ResourceError, "refused: t would need about 1.5 KiB of memory, above the budget of 1 KiB "
            "(POSREAL_MAX_MEMORY); accepted: smaller arguments, or raise the budget with "
            "'posreal --max-memory SIZE ...' or POSREAL_MAX_MEMORY=SIZE", require, Estimate(KIB + KIB // 2, "t"))


def test_require_work_budget_is_inclusive(monkeypatch):
    monkeypatch.setenv("POSREAL_MAX_WORK", "2000")
    require(Estimate(0, "w", 2000))
    _raises(ResourceError, "refused: w would need about 2.5e+03 floating-point operations, above the budget of "
            "2e+03; accepted: smaller arguments, or raise the budget with POSREAL_MAX_WORK=N",
            require, Estimate(0, "w", 2500))


def test_require_checks_work_before_memory():
    require(Estimate(0, "w", 10 ** 13))
    _raises(ResourceError, "refused: both would need about 3e+13 floating-point operations, above the budget of "
            "1e+13; accepted: smaller arguments, or raise the budget with POSREAL_MAX_WORK=N",
            require, Estimate(5 * GIB, "both", 3 * 10 ** 13))


def test_estimate_work_defaults_to_zero():
    assert Estimate(5, "x").work == 0


# --------------------------------------------------------------------------- estimates
@pytest.mark.parametrize("rows", [[(1, 0), (2, 0), (3, 1)], [(7, 3)], [(4, 4), (9, 0), (2, 1)], []])
def test_training_pairs_counts_j_le_i_except_the_target(rows):
    """Row i, target t ≤ i: one difference per key j ∈ {0..i}, j ≠ t."""
    assert training_pairs(rows) == sum(len([j for j in range(i + 1) if j != t]) for i, t in rows)


def _sel(label, pairs, dim):
    return f"{label}: the selection's {pairs} training differences × p = {dim}"


def _tr(label, length):
    return f"{label}: the transfer to L = {length}"


@pytest.mark.parametrize("args, memory, what", [
    # profile: selection 4·pairs·p·scalar, transfer L·(p + 16)·scalar at the largest L
    (("a", 3, "profile", 7, [5, 40, 12]), 4 * 7 * 3 * 8 + 40 * (3 + 16) * 8, _tr("a", 40)),
    (("b", 2, "profile", 100, [9], "exact"), 4 * 100 * 2 * 160 + 9 * (2 + 16) * 160, _sel("b", 100, 2)),
    (("c", 0, "profile", 2, [3]), 4 * 2 * 1 * 8 + 3 * (1 + 16) * 8, _tr("c", 3)),              # p counted as 1
    (("d", 3, "anything", 7, [40]), 4 * 7 * 3 * 8 + 40 * (3 + 16) * 8, _tr("d", 40)),          # the default kernel
    # bilinear: width ⌊√p⌋ (at least 1): 4·L·width·8 + 256·L·3·8, float whatever the scalar
    (("e", 15, "bilinear", 2, [10]), 4 * 2 * 15 * 8 + 4 * 10 * 3 * 8 + 256 * 10 * 3 * 8, _tr("e", 10)),
    (("f", 16, "bilinear", 1, [3, 2]), 4 * 1 * 16 * 8 + 4 * 3 * 4 * 8 + 256 * 3 * 3 * 8, _tr("f", 3)),
    (("g", 9, "bilinear", 50, [2], "exact"), 4 * 50 * 9 * 160 + 4 * 2 * 3 * 8 + 256 * 2 * 3 * 8, _sel("g", 50, 9)),
    (("h", 0, "bilinear", 1, [5]), 4 * 1 * 1 * 8 + 4 * 5 * 1 * 8 + 256 * 5 * 3 * 8, _tr("h", 5)),
    # dense: L²·(scalar + 2·8)
    (("i", 2, "dense", 3, [7, 11]), 4 * 3 * 2 * 8 + 11 * 11 * (8 + 16), _tr("i", 11)),
    (("j", 5, "dense", 1, [4], "exact"), 4 * 1 * 5 * 160 + 4 * 4 * (160 + 16), _sel("j", 1, 5)),
    (("k", 1, "dense", 2, [30], "exact"), 4 * 2 * 1 * 160 + 30 * 30 * (160 + 16), _tr("k", 30)),
    # no lengths: no transfer
    (("l", 3, "dense", 5, []), 4 * 5 * 3 * 8, _sel("l", 5, 3)),
    (("m", 4, "bilinear", 5, []), 4 * 5 * 4 * 8, _sel("m", 5, 4)),
    (("n", 4, "profile", 5, []), 4 * 5 * 4 * 8, _sel("n", 5, 4)),
])
def test_cell_estimate_formulas(args, memory, what):
    assert cell_estimate(*args) == Estimate(memory, what, 0)



# Exists because a mutant survived: the blocked kernel's memory (a block of ψ rows) was never estimated in a test.
def test_cell_estimate_of_a_blocked_kernel():
    """blocked: 4 · 2²⁰ floats for one block of ψ rows, plus L · (p + 16) scalars — not the profile formula."""
    block = 4 * 2 ** 20 * 8
    assert cell_estimate("fire", 3, "blocked", 7, [5, 40]) == Estimate(4 * 7 * 3 * 8 + block + 40 * 19 * 8,
                                                                       _tr("fire", 40), 0)
    assert cell_estimate("q", 2, "blocked", 9, [6], "exact") == Estimate(4 * 9 * 2 * 160 + block + 6 * 18 * 160,
                                                                      _tr("q", 6), 0)


def test_cell_estimate_tie_is_described_as_the_selection():
    """profile, p = 4, float: selection 4·5·4·8 = 640 = transfer 4·(4 + 16)·8; one more pair or length tips it."""
    assert cell_estimate("t", 4, "profile", 5, [4]) == Estimate(640 + 640, _sel("t", 5, 4))
    assert cell_estimate("t", 4, "profile", 4, [4]).what == _tr("t", 4)
    assert cell_estimate("t", 4, "profile", 5, [5]).what == _tr("t", 5)


@pytest.mark.parametrize("d, L0, lengths, steps, samples", [
    (3, 5, [10, 20], 7, 2),
    (1, 50, [4], 0, 1),                       # the train length is the largest L
    (4, 8, [8, 16, 12], 10, 0),
])
def test_learned_estimate_memory_and_work(d, L0, lengths, steps, samples):
    """memory 8·(4d² + 4Ld + 3L²) at the largest L (train length included);
    work 6·steps·(L0 d² + L0² d) + 2·samples·Σ_L (L d² + L² d)."""
    largest = max([L0, *lengths])
    memory = 8 * (4 * d ** 2 + 4 * largest * d + 3 * largest ** 2)
    work = 6 * steps * (L0 * d ** 2 + L0 ** 2 * d)
    for L in lengths:
        work += 2 * samples * (L * d ** 2 + L ** 2 * d)
    what = (f"cell: the (d, d) block with d = {d}, {steps} training steps, {samples} samples "
            f"and (L, L) kernels up to L = {largest}")
    assert learned_estimate("cell", d, L0, lengths, steps, samples) == Estimate(memory, what, work)


def test_learned_estimate_figures_by_hand():
    """d = 3, L0 = 5, L ∈ {10, 20}, 7 steps, 2 samples: 8·(36 + 240 + 1200) bytes;
    6·7·(45 + 75) + 2·2·((90 + 300) + (180 + 1200)) operations."""
    est = learned_estimate("x", 3, 5, [10, 20], 7, 2)
    assert (est.memory, est.work) == (11808, 5040 + 7080)


@pytest.mark.parametrize("dim, n", [(3, 4), (0, 5), (7, 1), (2, 10)])
def test_ceiling_estimate_one_kilobyte_per_term(dim, n):
    """One z3 term per (key, feature): row i of the n-grid has i keys (i = 1..n), p features (at least 1)."""
    terms = max(dim, 1) * sum(range(1, n + 1))
    expected = Estimate(terms * 1000, f"c: {terms} z3 terms (p = {dim} features on the n = {n} grid)", 0)
    assert ceiling_estimate("c", dim, n) == expected


# --------------------------------------------------------------------------- estimates by hand
# Exists because a mutant survived: cell_estimate's formulas were unchecked.
def test_cell_estimate_formulas_by_hand():
    from posreal.runtime.resources import cell_estimate

    # dense, float: selection 4·pairs·p·8 = 4·5·3·8 = 480; transfer L²(8 + 2·8) = 400·24 = 9600
    est = cell_estimate("c", 3, "dense", 5, [10, 20])
    assert est.memory == 480 + 9600 and est.what == "c: the transfer to L = 20"
    # dense, exact: a Fraction is 160 bytes: 4·5·3·160 = 9600; 400·(160 + 16) = 70400
    assert cell_estimate("c", 3, "dense", 5, [20], mode="exact").memory == 9600 + 70400
    # bilinear, p = 16 (width 4): 4·L·4·8 + 256·L·3·8 at L = 10, selection 4·5·16·8
    assert cell_estimate("c", 16, "bilinear", 5, [10]).memory == 2560 + 1280 + 61440
    # profile, p = 1: L·(1 + 16)·8 = 1360 at L = 10; selection 4·5·1·8 = 160
    assert cell_estimate("c", 1, "profile", 5, [10]).memory == 160 + 1360
    # no lengths: no transfer, the selection is the largest part
    est = cell_estimate("c", 3, "dense", 5, [])
    assert est.memory == 480 and est.what == "c: the selection's 5 training differences × p = 3"


# Exists because a mutant survived: learned_estimate's work formula was unchecked.
def test_learned_estimate_work_by_hand():
    """work = 6·steps·(L0 d² + L0² d) + 2·samples·Σ_L (L d² + L² d)."""
    from posreal.runtime.resources import learned_estimate

    # d = 2, L0 = 4, steps = 1: 6·(16 + 32) = 288; samples = 3, L = 8: 2·3·(32 + 128) = 960
    assert learned_estimate("x", 2, 4, [8], 1, 3).work == 288 + 960


# Exists because a mutant survived: learned_estimate's memory formula was unchecked.
def test_learned_estimate_memory_follows_its_formula():
    """d = 2, L0 = 4, lengths (8,): largest L = 8; W-sized (d, d) ×4, (L, d) ×4 and (L, L) ×3 float64 arrays:
    8 · (4·4 + 4·8·2 + 3·64) = 8 · 272 = 2176 bytes — at least the three (L, L) kernels' real size."""
    from posreal.runtime.resources import learned_estimate

    est = learned_estimate("cell", 2, 4, [8], 1, 1)
    assert est.memory == 2176
    assert est.memory >= 3 * np.zeros((8, 8)).nbytes
