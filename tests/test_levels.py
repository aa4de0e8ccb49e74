"""The residual levels (theory/levels.py), their max-entropy residuals (theory/maxent.py) and symmetric ties
(theory/symmetry.py): expected values derived by hand or from the mathematics, never pasted."""

from __future__ import annotations

import math
from collections import Counter
from fractions import Fraction as F

import numpy as np
import pytest

from posreal.checks.level_checks import LEVEL2_TIE, MAXENT_TIE, SYMMETRIC_CONTROL, SYMMETRIC_TIE, registered_table
from posreal.theory.levels import (SUPPORT_TOL, ActiveSplit, _check_farkas, _exact_vertex, leading_level,
                                   level_span_decomposition, max_margin, residual_levels, split_active)
from posreal.theory import maxent
from posreal.theory.maxent import LogForm, Residuals
from posreal.theory.symmetry import SignedPermutation, find_symmetry, preserves
from posreal.theory.trajectory import follow, pair_data

WORKED = [(F(-3), F(2)), (F(1), F(2)), (F(-1), F(2))]      # the worked example of the issue: n = 1, θ* = (0, ½)


def _hand_max_entropy() -> float:
    """3x⁴ + x² - 1 = 0 for x = e^{w_1} (stationarity of Σ e^{-⟨w, z⟩} + ⟨θ*, w⟩), value 4 w_1 = 2 log x²."""
    x2 = (math.sqrt(13.0) - 1.0) / 6.0          # the positive root in x²
    return 2.0 * math.log(x2)


def test_worked_example_split_is_all_positive_and_dependent():
    levels = residual_levels(WORKED, (F(0), F(1, 2)), [1, 1, 1])
    assert levels.complete and levels.depth == 1
    (level,) = levels.levels
    assert level.split.positive == (0, 1, 2) and level.split.zero == ()
    assert not level.independent
    lam = level.split.interior                      # the interior certificate, re-checked here by hand
    assert all(v > 0 for v in lam.values())
    assert tuple(sum(lam[s] * WORKED[s][i] for s in lam) for i in range(2)) == (F(0), F(1, 2))


def test_worked_example_max_entropy_value_is_enclosed():
    levels = residual_levels(WORKED, (F(0), F(1, 2)), [1, 1, 1])
    coefficients = level_span_decomposition(levels, (F(4), F(0)))
    assert coefficients is not None
    value = Residuals(levels).value(coefficients)
    assert not value.exact and value.sign == -1 and value.bound < 1e-20
    assert abs(value.value - _hand_max_entropy()) <= value.bound + 1e-15
    # the two vertex formulas of Λ are not the limit: -log 3 (vertex (1/16, 3/16, 0)) and 0
    for vertex_value in (-math.log(3.0), 0.0):
        assert abs(value.value - vertex_value) > 0.5


# Exists because a mutant survived: the certified half-width was never compared with the enclosure it reports.
def test_certified_value_and_bound_cover_the_whole_enclosure(monkeypatch: pytest.MonkeyPatch) -> None:
    """At a working precision of 15 digits the enclosure of the worked example's limit is about 2e-7 wide (at 40
    digits it is far below a float's resolution).  The limit is -⟨w̃, u_0⟩ + ⟨w̃, u_1⟩ (its decomposition); with
    the level's enclosures [a_b, b_b] of ⟨w̃, u_b⟩ it lies in [a_1 - b_0, b_1 - a_0], and value ± bound must be
    that interval (midpoint and half-width), so it contains the limit by hand as well."""
    from mpmath import iv, mp

    saved = mp.dps, iv.dps
    monkeypatch.setattr(maxent, "DIGITS", 15)
    try:
        levels = residual_levels(WORKED, (F(0), F(1, 2)), [1, 1, 1])
        coefficients = level_span_decomposition(levels, (F(4), F(0)))
        assert coefficients == [[F(-1), F(1)]]
        residuals = Residuals(levels)
        value = residuals.value(coefficients)
        inner = residuals.interval_inner(1)
        low = float(mp.mpf(inner[1].a) - mp.mpf(inner[0].b))
        high = float(mp.mpf(inner[1].b) - mp.mpf(inner[0].a))
    finally:
        mp.dps, iv.dps = saved
    assert not value.exact and value.sign == -1
    assert 1e-8 < (high - low) / 2 < 1e-5                            # wide enough to tell a half-width from a third
    assert value.value == pytest.approx((low + high) / 2, abs=1e-15)
    assert value.bound == pytest.approx((high - low) / 2, rel=1e-9)
    assert value.value - value.bound <= _hand_max_entropy() <= value.value + value.bound


def test_max_entropy_weights_change_the_value():
    """n = (2, 1, 1): μ_s = n_s e^{-⟨w, z_s⟩}; the stationarity equation becomes 6x⁴ + x² - 1 = 0."""
    levels = residual_levels(WORKED, (F(0), F(1, 2)), [2, 1, 1])
    value = Residuals(levels).value(level_span_decomposition(levels, (F(4), F(0))))
    x2 = (-1.0 + math.sqrt(1.0 + 24.0)) / 12.0
    assert abs(value.value - 2.0 * math.log(x2)) <= value.bound + 1e-15


def test_forced_zero_multiplier_gives_a_second_level():
    """Z = {(1, 0), (1, 1)}, θ* = (1, 0): both active, λ_2 = 0 in Λ; θ_2 = P_U z_2 / ‖P_U z_2‖² = (0, 1)."""
    levels = residual_levels([(F(1), F(0)), (F(1), F(1))], (F(1), F(0)), [2, 1])
    assert levels.complete and levels.depth == 2
    first, second = levels.levels
    assert first.split.positive == (0,) and first.split.zero == (1,)
    assert second.theta == (F(0), F(1)) and second.vectors == {1: (F(0), F(1))}
    assert leading_level(levels, (F(0), F(1))) == (2, 1)
    assert leading_level(levels, (F(0), F(-3))) == (2, -1)
    assert leading_level(levels, (F(5), F(0))) is None


def test_second_level_weights_come_from_the_level_before():
    """n = (2, 1): ⟨w̃_1, z_1⟩ = log(2/1); z_2 projects on V_1 as z_1, so n_{2,2} = 1·e^{-log 2} = 1/2 and
    ⟨w̃_2, u_2⟩ = log(n_{2,2}/λ) = -log 2 (λ = 1): exactly, as a log-linear form."""
    levels = residual_levels([(F(1), F(0)), (F(1), F(1))], (F(1), F(0)), [2, 1])
    res = Residuals(levels)
    first, second = res.exact_inner(1), res.exact_inner(2)
    assert first is not None and second is not None
    assert (first[0] - LogForm.log(2)).sign() == 0
    assert (second[1] + LogForm.log(2)).sign() == 0


def test_second_level_residual_is_what_the_flow_reaches():
    """LEVEL2_TIE: ⟨θ, v⟩ = ⟨θ_2, v⟩ σ + ⟨w̃_2, v⟩ + o(1) with σ = log log t, ⟨θ_2, v⟩ = 1, ⟨w̃_2, v⟩ = -log 2."""
    with registered_table(LEVEL2_TIE) as tie:
        pe, task, sel, row, ctx = tie.open_row()
        path = follow(pair_data(pe, task, tie.train_length, list(sel.exact_theta)))
    v = np.array([float(x) for x in row.rivals[0].direction])
    margin = path.hs @ v
    assert path.success and abs(margin[-1] - path.sigmas[-1] + math.log(2.0)) < 1e-6


def test_split_with_an_inactive_constraint_ends_at_the_first_level():
    levels = residual_levels([(F(1), F(0)), (F(2), F(1))], (F(1), F(0)), [1, 1])
    assert levels.complete and levels.depth == 1 and levels.levels[0].split.active == (0,)
    # v = (0, 1) leaves V_1 = span{e_1} inside col Zᵀ = ℝ²: the limit depends on the path
    assert level_span_decomposition(levels, (F(0), F(1))) is None
    assert level_span_decomposition(levels, (F(3), F(0))) == [[F(3)]]


def test_the_farkas_check_rejects_a_vector_that_is_not_one():
    split = ActiveSplit((0, 1), (0,), (1,), {0: F(1)})
    vectors = {0: (F(1), F(0)), 1: (F(1), F(1))}
    assert _check_farkas(vectors, split, (F(1), F(0)), (F(0), F(1)))
    assert not _check_farkas(vectors, split, (F(1), F(0)), (F(1), F(1)))      # ⟨θ*, y⟩ ≠ 0
    assert not _check_farkas(vectors, split, (F(1), F(0)), (F(0), F(1, 2)))   # ⟨z_2, y⟩ < 1


# Exists because a mutant survived: the support tolerance of a float vertex was never tried with entries above 1.
def test_exact_vertex_ignores_rounding_noise_relative_to_the_vertex() -> None:
    """θ = (2, 2) = 4 u_1 + 4 u_2 with u_1 = (0, ½), u_2 = (½, 0), and u_0 = (1, -½) also active (⟨u_0, θ⟩ = 1).
    The float vertex x = (1e-12, 4, 4) carries 1e-12 of rounding noise on u_0: below SUPPORT_TOL times the
    vertex's scale (4), so not in its support, and λ = (u_1: 4, u_2: 4) is confirmed in ℚ.  Taking the noise
    into the support would pair u_2 with u_0 first, where θ = 12 u_2 - 4 u_0 has a negative λ (no vertex)."""
    vectors = {0: (F(1), F(-1, 2)), 1: (F(0), F(1, 2)), 2: (F(1, 2), F(0))}
    theta = (F(2), F(2))
    assert all(sum(a * b for a, b in zip(u, theta)) == 1 for u in vectors.values())
    x = np.array([1e-12, 4.0, 4.0])
    assert SUPPORT_TOL / 4 < x[0] <= SUPPORT_TOL * 4
    assert _exact_vertex([0, 1, 2], vectors, theta, x, 2) == {1: F(4), 2: F(4)}


def test_split_active_names_a_missing_active_set():
    assert split_active({0: (F(2), F(0))}, (F(1), F(0))) == "no active constraint (⟨θ, u⟩ = 1 nowhere)"


def test_max_margin_is_refused_for_a_zero_vector():
    assert max_margin({0: (F(0), F(0))}, 2) is None
    theta, lam = max_margin({3: (F(0), F(2))}, 2)
    assert theta == (F(0), F(1, 2)) and lam == {3: F(1, 4)}


def test_log_form_signs_are_exact():
    assert (LogForm.log(2) - LogForm.log(3)).sign() == -1
    assert (LogForm.log(4).scaled(F(1, 2)) - LogForm.log(2)).sign() == 0
    assert (LogForm.log(F(9, 8)).scaled(F(7)) - LogForm.log(2)).sign() == 1      # (9/8)^7 ≈ 2.28 > 2
    assert (LogForm.log(F(9, 8)).scaled(F(5)) - LogForm.log(2)).sign() == -1     # (9/8)^5 ≈ 1.80 < 2
    assert LogForm.log(F(3, 2)).sign() == 1
    with pytest.raises(ValueError, match="non-positive"):
        LogForm.log(0)


def test_log_form_sign_gives_up_beyond_its_budget():
    huge = LogForm({F(3): F(1, 10 ** 6), F(2): F(-1, 10 ** 6 + 1)})
    assert huge.sign() is None
    enclosure = huge.interval()
    assert float(enclosure.a) > 0       # the interval still decides it: log 3 > log 2 per unit


def test_symmetric_tie_has_the_swap_and_its_control_none():
    with registered_table(SYMMETRIC_TIE) as tie:
        _, _, _, row, ctx = tie.open_row()
        w = ctx.column_projection(row.rivals[0].direction)
    q = find_symmetry(ctx.rows, w)
    assert isinstance(q, SignedPermutation) and q.apply(w) == tuple(-x for x in w) and preserves(q, ctx.rows)
    with registered_table(SYMMETRIC_CONTROL) as tie:
        _, _, _, row, ctx = tie.open_row()
        assert find_symmetry(ctx.rows, ctx.column_projection(row.rivals[0].direction)) is None


def test_symmetry_search_respects_row_structure_and_budget():
    """Differences {(1, 0)} and {(0, 1)} in separate rows are swapped by Q(a, b) = (b, a) as a multiset of
    rows; in one row with a third difference (1, 2) they are not."""
    rows = [Counter({(F(1), F(0)): 1}), Counter({(F(0), F(1)): 1})]
    assert isinstance(find_symmetry(rows, (F(1), F(-1))), SignedPermutation)
    rows = [Counter({(F(1), F(0)): 1, (F(0), F(1)): 1, (F(1), F(2)): 1})]
    assert find_symmetry(rows, (F(1), F(-1))) is None
    many = [Counter({tuple(F(1) if c == k else F(0) for c in range(6)): 1}) for k in range(6)]
    w = (F(1), F(-1), F(1), F(-1), F(1), F(-1))
    assert find_symmetry(many, w, budget=2) == "symmetry search stopped after 2 nodes"


# Exists because a mutant survived: a coordinate whose first candidate image was taken ended the search there.
def test_symmetry_search_tries_a_later_image_when_the_first_is_taken():
    """One row {u, -u}, u = (-1, 1, -1), w = (1, 1, -1): Q = -I maps u ↔ -u (the row is kept) and Qw = -w.
    Every column holds the values {-1, 1} once each, so each coordinate may go to any of the three; the search
    gives coordinate 0 the image 0 first, and coordinate 1 must then skip the taken image 0 for 1."""
    u = (F(-1), F(1), F(-1))
    rows = [Counter({u: 1, tuple(-x for x in u): 1})]
    w = (F(1), F(1), F(-1))
    q = find_symmetry(rows, w)
    assert isinstance(q, SignedPermutation) and q.apply(w) == tuple(-x for x in w) and preserves(q, rows)
    # control: a third difference (1, 0, 0) with no partner -(1, 0, 0) leaves no Q with Qw = -w
    rows = [Counter({u: 1, tuple(-x for x in u): 1, (F(1), F(0), F(0)): 1})]
    assert find_symmetry(rows, w) is None


# Exists because a mutant survived: the rows' per-column value multisets were compared as sets of rows.
def test_a_column_matching_another_only_up_to_row_multiplicity_is_no_candidate():
    """Rows {(1, 0)}, {(1, 0)}, {(0, 1)}: column 0 is 1 in two rows and 0 in one, column 1 the reverse, so no
    coordinate may go to the other (nor to itself negated: ±1 ≠ ∓1); the search answers None before spending a
    single node — a set-of-rows comparison would accept the swap and run out of a 0-node budget instead."""
    a, b = (F(1), F(0)), (F(0), F(1))
    rows = [Counter({a: 1}), Counter({a: 1}), Counter({b: 1})]
    assert find_symmetry(rows, (F(1), F(-1)), budget=0) is None
    # control: with one row of each the swap exists, and a 0-node budget is reported as exhausted
    rows = [Counter({a: 1}), Counter({b: 1})]
    assert find_symmetry(rows, (F(1), F(-1)), budget=0) == "symmetry search stopped after 0 nodes"


# Exists because a mutant survived: a difference repeated within one row was counted once.
def test_row_multisets_count_a_difference_repeated_within_a_row():
    """relbias:1 (ψ(i, j) = e_min(i - j, 1)) with offset:0 at L0 = 4: row i's target is key i (offset 0, ψ = e0) and
    every other key j < i has offset ≥ 1 (ψ = e1), so row i has z = (1, -1) i times; row 0 has no rival."""
    from posreal.theory.pe_specs import parse_pe
    from posreal.theory.symmetry import row_multisets
    from posreal.theory.tasks import parse_task

    z = (F(1), F(-1))
    assert row_multisets(parse_pe("relbias:1"), parse_task("offset:0"), 4) == [Counter({z: n}) for n in (1, 2, 3)]


def test_designed_maxent_tie_is_the_worked_example():
    with registered_table(MAXENT_TIE) as tie:
        _, _, sel, row, ctx = tie.open_row()
    assert sorted(ctx.constraints) == sorted(WORKED) and tuple(sel.exact_theta) == (F(0), F(1, 2))
    assert row.rivals[0].direction == (F(4), F(0))


# Exists because the negative control (n_s → 1/n_s) crashed: interval weights from a rational multiplicity.
def test_rational_weights_are_enclosed_too():
    """n = (1/2, 1, 1): 3 n_1 x⁴ + x² - 1 = 0, so x² = (√7 - 1)/3."""
    levels = residual_levels(WORKED, (F(0), F(1, 2)), [F(1, 2), 1, 1])
    value = Residuals(levels).value(level_span_decomposition(levels, (F(4), F(0))))
    assert abs(value.value - 2.0 * math.log((math.sqrt(7.0) - 1.0) / 3.0)) <= value.bound + 1e-15
