"""Contract tests for theory/levels.py: max-margin vectors, splits S+/S0 and whole level constructions checked
against independent brute force in ℚ (every subset of a small constraint set), and every failure text pinned
where it reaches the caller (``Levels.failure``, shown as a limit's detail)."""

from __future__ import annotations

import itertools
import random
from fractions import Fraction as F
from types import SimpleNamespace

import numpy as np
import pytest
import scipy.optimize

from posreal.theory import levels as lv
from posreal.theory.levels import (ActiveSplit, Levels, _check_interior, leading_level, level_span_decomposition,
                                   max_margin, project_out, projection, residual_levels, split_active)
from posreal.theory.rational import solve

Vec = tuple[F, ...]
TWO_LEVEL = [(F(1), F(0)), (F(1), F(1))]          # θ* = (1, 0); z_1 is active with a forced zero multiplier
THREE_LEVEL = [(F(1), F(0), F(0)), (F(1), F(1), F(0)), (F(1), F(1), F(1))]


def _dot(a: Vec, b: Vec) -> F:
    return sum((x * y for x, y in zip(a, b)), F(0))


def _brute_max_margin(rows: list[Vec]) -> Vec | None:
    """argmin ‖θ‖ s.t. Zθ ≥ 1 by trying every active set B: θ = Z_Bᵀ μ with Z_B Z_Bᵀ μ = 1, μ ≥ 0."""
    best: Vec | None = None
    for k in range(1, len(rows) + 1):
        for B in itertools.combinations(range(len(rows)), k):
            gram = [[_dot(rows[a], rows[b]) for b in B] for a in B]
            mu = solve(gram, [F(1)] * k)
            if mu is None or any(x < 0 for x in mu):
                continue
            theta = tuple(sum((m * rows[b][i] for m, b in zip(mu, B)), F(0)) for i in range(len(rows[0])))
            if all(_dot(r, theta) >= 1 for r in rows) and (best is None or _dot(theta, theta) < _dot(best, best)):
                best = theta
    return best


def _brute_positive(vectors: dict[int, Vec], theta: Vec) -> set[int]:
    """S+ = the union of the supports of Λ's vertices: subsets of the active set whose λ solves Σ λ u = θ, λ ≥ 0."""
    active = [s for s in sorted(vectors) if _dot(vectors[s], theta) == 1]
    out: set[int] = set()
    for k in range(1, len(active) + 1):
        for B in itertools.combinations(active, k):
            columns = [[vectors[s][i] for s in B] for i in range(len(theta))]
            lam = solve(columns, list(theta))
            if lam is not None and all(x >= 0 for x in lam):
                out |= {s for s, x in zip(B, lam) if x > 0}
    return out


def _random_rows(rng: random.Random, m: int, p: int) -> list[Vec]:
    return [tuple(F(rng.randint(-2, 3)) for _ in range(p)) for _ in range(m)]


CASES = [(seed, m, p) for seed in range(6) for m, p in ((3, 2), (4, 2), (4, 3))]


@pytest.mark.parametrize(("seed", "m", "p"), CASES, ids=[f"seed{s}-m{m}-p{p}" for s, m, p in CASES])
def test_max_margin_and_split_agree_with_brute_force(seed: int, m: int, p: int) -> None:
    """On small integer problems: θ from max_margin is the brute-force optimum, its multipliers are a KKT
    certificate (λ ≥ 0 on active rows, Σ λ z = θ), and split_active's S+ is the union of Λ's vertex supports."""
    rows = _random_rows(random.Random(seed), m, p)
    vectors = dict(enumerate(rows))
    expected = _brute_max_margin(rows) if all(any(r) for r in rows) else None
    found = max_margin(vectors, p)
    if expected is None:
        assert found is None
        return
    assert found is not None
    theta, lam = found
    assert theta == expected
    assert all(v >= 0 and _dot(rows[s], theta) == 1 for s, v in lam.items())
    assert tuple(sum((v * rows[s][i] for s, v in lam.items()), F(0)) for i in range(p)) == theta
    split = split_active(vectors, theta)
    assert isinstance(split, ActiveSplit)
    assert split.active == tuple(s for s in range(m) if _dot(rows[s], theta) == 1)
    assert set(split.positive) == _brute_positive(vectors, theta)
    assert split.zero == tuple(s for s in split.active if s not in split.positive)
    assert _check_interior(vectors, split, theta)


def test_max_margin_refuses_an_infeasible_or_empty_problem() -> None:
    """u and -u cannot both have margin 1; no vectors at all is refused too."""
    assert max_margin({0: (F(1), F(1)), 1: (F(-1), F(-1))}, 2) is None
    assert max_margin({}, 2) is None


def test_max_margin_keeps_the_callers_keys() -> None:
    """Multipliers are keyed by the caller's constraint ids, not by position: θ = (1, 1) = e1 + e2."""
    theta, lam = max_margin({7: (F(1), F(0)), 3: (F(0), F(1)), 5: (F(2), F(2))}, 2)
    assert theta == (F(1), F(1))
    assert lam == {7: F(1), 3: F(1)}


def test_three_levels_follow_the_hand_computation() -> None:
    """Z = e1, e1+e2, e1+e2+e3, θ* = e1: each level forces the next vector's multiplier to zero, so
    θ_2 = e2, θ_3 = e3, and the construction is complete at depth 3."""
    levels = residual_levels(THREE_LEVEL, (F(1), F(0), F(0)), [1, 1, 1])
    assert levels.complete and levels.failure == "" and levels.depth == 3
    assert [lv_.theta for lv_ in levels.levels] == [(F(1), F(0), F(0)), (F(0), F(1), F(0)), (F(0), F(0), F(1))]
    assert [lv_.depth for lv_ in levels.levels] == [1, 2, 3]
    assert [lv_.split.zero for lv_ in levels.levels] == [(1, 2), (2,), ()]
    assert [lv_.basis for lv_ in levels.levels] == [(0,), (1,), (2,)]
    assert levels.levels[2].vectors == {2: (F(0), F(0), F(1))}
    assert leading_level(levels, (F(0), F(0), F(-2))) == (3, -1)
    assert level_span_decomposition(levels, (F(2), F(3), F(4))) == [[F(2)], [F(3)], [F(4)]]


@pytest.mark.parametrize("max_depth", [1, 2])
def test_depth_cap_is_reported_exactly(max_depth: int) -> None:
    """One level short of completion the construction stops with the cap in its failure text."""
    levels = residual_levels(THREE_LEVEL, (F(1), F(0), F(0)), [1, 1, 1], max_depth=max_depth)
    assert not levels.complete and levels.depth == max_depth
    assert levels.failure == f"more than {max_depth} levels"


def test_depth_cap_at_the_needed_depth_completes() -> None:
    levels = residual_levels(THREE_LEVEL, (F(1), F(0), F(0)), [1, 1, 1], max_depth=3)
    assert levels.complete and levels.depth == 3 and levels.failure == ""


def test_unprojected_control_keeps_the_raw_vectors() -> None:
    """project=False builds level 2 from z_1 itself: θ_2 is z_1's own max-margin vector (½, ½)."""
    levels = residual_levels(TWO_LEVEL, (F(1), F(0)), [1, 1], project=False)
    second = levels.levels[1]
    assert second.vectors == {1: (F(1), F(1))} and second.theta == (F(1, 2), F(1, 2))


def test_level_one_failure_is_prefixed_with_its_depth() -> None:
    levels = residual_levels([(F(2), F(0))], (F(1), F(0)), [1])
    assert levels.depth == 0 and not levels.complete
    assert levels.failure == "level 1: no active constraint (⟨θ, u⟩ = 1 nowhere)"


# Exists because a mutant survived: the failure text of an uncertified projected problem was never read.
def test_uncertified_next_level_names_its_depth_and_cause(monkeypatch: pytest.MonkeyPatch) -> None:
    """When the projected max-margin problem of S0_1 has no certified solution, the failure says so for level 2."""
    monkeypatch.setattr(lv, "max_margin", lambda vectors, p: None)
    levels = residual_levels(TWO_LEVEL, (F(1), F(0)), [1, 1])
    assert levels.depth == 1 and not levels.complete
    assert levels.failure == ("level 2: the projected max-margin problem of S0_1 is infeasible or not certified in ℚ "
                              "(the LP split is not confirmed)")


def test_a_wrong_next_theta_fails_the_farkas_check(monkeypatch: pytest.MonkeyPatch) -> None:
    """θ_2 = (1, 1) has ⟨θ*, θ_2⟩ ≠ 0: refused with the Farkas text of level 1."""
    monkeypatch.setattr(lv, "max_margin", lambda vectors, p: ((F(1), F(1)), {1: F(1)}))
    levels = residual_levels(TWO_LEVEL, (F(1), F(0)), [1, 1])
    assert levels.depth == 1 and levels.failure == "level 1: θ_2 is not a Farkas-type vector of S0 in ℚ"
    # the negative control skips that check and goes on to level 2, where no constraint is active
    control = residual_levels(TWO_LEVEL, (F(1), F(0)), [1, 1], project=False)
    assert control.failure == "level 2: no active constraint (⟨θ, u⟩ = 1 nowhere)"


def _fake_linprog(x: list[float], status: int = 0, message: str = "ok"):
    def fake(*args: object, **kwargs: object) -> SimpleNamespace:
        return SimpleNamespace(status=status, message=message, x=np.array(x))
    return fake


# Exists because a mutant survived: the text for an LP that confirms no vertex was never read.
def test_no_confirmed_vertex_is_named(monkeypatch: pytest.MonkeyPatch) -> None:
    """An LP that puts no weight anywhere proposes every active constraint for S0: no vertex, named as such."""
    monkeypatch.setattr(scipy.optimize, "linprog", _fake_linprog([0.0, 0.0]))
    assert split_active(dict(enumerate(TWO_LEVEL)), (F(1), F(0))) == "Λ has no vertex confirmed in ℚ"
    levels = residual_levels(TWO_LEVEL, (F(1), F(0)), [1, 1])
    assert levels.failure == "level 1: Λ has no vertex confirmed in ℚ"


def test_lp_failure_is_named_with_the_solvers_message(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(scipy.optimize, "linprog", _fake_linprog([0.0, 0.0], status=2, message="boom"))
    assert split_active(dict(enumerate(TWO_LEVEL)), (F(1), F(0))) == "the LP max λ_0 over Λ failed (boom)"


def test_unconfirmed_vertex_is_named(monkeypatch: pytest.MonkeyPatch) -> None:
    """A float 'vertex' on z_1 alone cannot give θ* = (1, 0) exactly: refused for constraint 1's LP."""
    monkeypatch.setattr(scipy.optimize, "linprog", _fake_linprog([0.0, 1.0]))
    assert split_active(dict(enumerate(TWO_LEVEL)), (F(1), F(0))) == "the LP vertex with λ_1 > 0 is not confirmed in ℚ"


@pytest.mark.parametrize(("weight", "zero"), [(2e-9, ()), (5e-10, (1,))], ids=["above-lp-zero", "below-lp-zero"])
def test_lp_zero_threshold_is_relative_to_the_vertex(monkeypatch: pytest.MonkeyPatch, weight: float,
                                                     zero: tuple[int, ...]) -> None:
    """With the true λ = (1, 0) the LP for constraint 1 reports λ_1 = weight: above LP_ZERO·max(1, Σx) the vertex
    is tried in ℚ (and refused), at or below it constraint 1 is proposed for S0."""
    def fake(cost: np.ndarray, **kwargs: object) -> SimpleNamespace:
        n = int(np.argmin(cost))
        return SimpleNamespace(status=0, message="ok", x=np.array([1.0, weight if n == 1 else 0.0]))
    monkeypatch.setattr(scipy.optimize, "linprog", fake)
    out = split_active(dict(enumerate(TWO_LEVEL)), (F(1), F(0)))
    if zero:
        assert isinstance(out, ActiveSplit) and out.zero == zero and out.interior == {0: F(1)}
    else:
        assert out == "the LP vertex with λ_1 > 0 is not confirmed in ℚ"


def test_interior_is_the_average_of_the_vertices() -> None:
    """Z = 2e1, 2e2, e1+e2 and θ = (½, ½): Λ's vertices (¼, ¼, 0) and (0, 0, ½) average to a positive λ."""
    vectors = {0: (F(2), F(0)), 1: (F(0), F(2)), 2: (F(1), F(1))}
    theta = (F(1, 2), F(1, 2))
    split = split_active(vectors, theta)
    assert isinstance(split, ActiveSplit) and split.positive == (0, 1, 2) and split.zero == ()
    assert _check_interior(vectors, split, theta)
    assert all(v > 0 for v in split.interior.values())


def test_check_interior_rejects_each_broken_witness() -> None:
    vectors = dict(enumerate(TWO_LEVEL))
    theta = (F(1), F(0))
    good = ActiveSplit((0, 1), (0,), (1,), {0: F(1)})
    assert _check_interior(vectors, good, theta)
    assert not _check_interior(vectors, ActiveSplit((0, 1), (0,), (1,), {0: F(2)}), theta)          # Σ λ u ≠ θ
    assert not _check_interior(vectors, ActiveSplit((0, 1), (0,), (1,), {0: F(1), 1: F(0)}), theta)  # extra key
    assert not _check_interior(vectors, ActiveSplit((0, 1), (0, 1), (), {0: F(1), 1: F(0)}), theta)  # λ = 0 on S+


def test_projection_is_exact_and_orthogonal() -> None:
    """P onto span{(1, 1, 0)} of (2, 0, 3) is (1, 1, 0) with coefficient 1; the rest is orthogonal."""
    c, px = projection([(F(1), F(1), F(0))], (F(2), F(0), F(3)))
    assert c == [F(1)] and px == (F(1), F(1), F(0))
    assert project_out([(F(1), F(1), F(0))], (F(2), F(0), F(3))) == (F(1), F(-1), F(3))
    assert projection([], (F(2), F(5))) == ([], (F(0), F(0)))
    with pytest.raises(ValueError, match="dependent basis"):
        projection([(F(1), F(0)), (F(2), F(0))], (F(1), F(1)))


def test_leading_level_skips_level_one_and_zero_levels() -> None:
    """Level 1 is never 'leading'; a direction orthogonal to θ_2 but not θ_3 leads at 3 with its sign."""
    levels = residual_levels(THREE_LEVEL, (F(1), F(0), F(0)), [1, 1, 1])
    assert leading_level(levels, (F(5), F(0), F(0))) is None
    assert leading_level(levels, (F(5), F(0), F(1, 3))) == (3, 1)
    assert leading_level(levels, (F(0), F(-1, 7), F(9))) == (2, -1)


def test_span_decomposition_refuses_a_direction_off_the_levels() -> None:
    levels = Levels([(F(1), F(0))], [1])
    assert level_span_decomposition(levels, (F(0), F(0))) == []
    assert level_span_decomposition(levels, (F(1), F(0))) is None


# Exists because a mutant survived: an empty float vertex (no active entry) was never passed.
def test_exact_vertex_of_an_empty_float_vertex_is_none() -> None:
    """No entries: no support, no basis, no λ (and no error from the empty maximum)."""
    assert lv._exact_vertex([], dict(enumerate(TWO_LEVEL)), (F(1), F(0)), np.zeros(0), 0) is None
