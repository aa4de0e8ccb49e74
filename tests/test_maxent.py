"""Contract tests for theory/maxent.py: the certified minimum eigenvalue of an interval Hessian, exact log-linear
forms, and max-entropy residual enclosures against an independent float minimization (scipy)."""

from __future__ import annotations

import math
from fractions import Fraction as F

import numpy as np
import pytest
from mpmath import iv
from scipy.optimize import minimize

from posreal.theory import maxent
from posreal.theory.levels import level_span_decomposition, residual_levels
from posreal.theory.maxent import LogForm, ResidualError, Residuals, _certified_min_eig, enclose_residual


def _box(low: float, high: float):
    return iv.mpf([low, high])


# Exists because a mutant survived: the last (smallest) fraction of the estimate was never the one that certifies.
@pytest.mark.parametrize(("low", "high", "expected"),
                         [(0.6, 1.4, 0.5), (0.15, 1.85, 0.1), (0.1, 1.9, 0.01), (0.001, 1.999, None)],
                         ids=["half", "tenth", "hundredth", "none"])
def test_min_eig_tries_half_tenth_hundredth_of_the_estimate(low: float, high: float, expected: float | None) -> None:
    """1×1 interval Hessian [low, high] with midpoint 1 (the estimate): the first of ½, ⅒, 1/100 of it that stays
    strictly below ``low`` is certified; none is when even 1/100 does not."""
    m0 = _certified_min_eig([[_box(low, high)]], 1)
    if expected is None:
        assert m0 is None
    else:
        assert m0 is not None and float(m0) == pytest.approx(expected, rel=1e-12)
        assert float(m0) < low


def test_min_eig_of_a_point_matrix_is_below_its_smallest_eigenvalue() -> None:
    """[[2, 1], [1, 2]] has eigenvalues 1 and 3: half the estimate 1 is certified."""
    hess = [[_box(2, 2), _box(1, 1)], [_box(1, 1), _box(2, 2)]]
    m0 = _certified_min_eig(hess, 2)
    assert m0 is not None and float(m0) == pytest.approx(0.5, rel=1e-12)


def test_min_eig_refuses_an_indefinite_or_singular_matrix() -> None:
    assert _certified_min_eig([[_box(1, 1), _box(2, 2)], [_box(2, 2), _box(1, 1)]], 2) is None   # eigenvalue -1
    assert _certified_min_eig([[_box(0, 0)]], 1) is None


def test_min_eig_off_diagonal_interval_must_hold_for_every_member() -> None:
    """Diagonal 2, off-diagonal in [-1.9, 1.9]: the midpoint estimate is 2, but a member has eigenvalue 0.1;
    ½·2 and ⅒·2 are above that, 1/100·2 = 0.02 is certified."""
    hess = [[_box(2, 2), _box(-1.9, 1.9)], [_box(-1.9, 1.9), _box(2, 2)]]
    m0 = _certified_min_eig(hess, 2)
    assert m0 is not None and float(m0) == pytest.approx(0.02, rel=1e-12)


def test_log_form_arithmetic_and_exact_sign() -> None:
    """log 4 - 2 log 2 = 0 exactly; log 3 - log 2 > 0; ½ log 2 - log(3/2) < 0 (√2 < 1.5); log 1 vanishes."""
    assert (LogForm.log(4) - LogForm.log(2).scaled(F(2))).sign() == 0
    assert (LogForm.log(3) - LogForm.log(2)).sign() == 1
    form = LogForm.log(2).scaled(F(1, 2)) - LogForm.log(F(3, 2))
    assert form.sign() == -1 and float(form) == pytest.approx(0.5 * math.log(2) - math.log(1.5), rel=1e-14)
    assert LogForm.log(1).terms == {} and (LogForm.log(5) - LogForm.log(5)).terms == {}
    enclosure = form.interval()
    assert abs(float(enclosure.a) - float(form)) < 1e-15 and float(enclosure.b - enclosure.a) < 1e-30
    with pytest.raises(ValueError, match="non-positive"):
        LogForm.log(0)


def _float_residual(rows: list[tuple[float, ...]], theta: tuple[float, ...], weights: list[float]) -> np.ndarray:
    """argmin_w Σ n_s e^{-⟨w, z_s⟩} + ⟨θ, w⟩ (all rows positive at the level, so w lives in their span)."""
    Z = np.array(rows)
    n = np.array(weights)

    def f(w: np.ndarray) -> tuple[float, np.ndarray]:
        e = n * np.exp(-Z @ w)
        return float(e.sum() + theta @ w), np.asarray(theta) - Z.T @ e

    res = minimize(f, np.zeros(len(theta)), jac=True, method="BFGS", options={"gtol": 1e-13})
    return res.x


DEPENDENT = [(F(2), F(0)), (F(0), F(2)), (F(1), F(1))]     # θ* = (½, ½): all active, S+ dependent


@pytest.mark.parametrize("weights", [[1, 1, 1], [1, 2, 3], [5, 1, 1]], ids=["equal", "rising", "first-heavy"])
def test_dependent_level_enclosure_contains_the_float_minimizer(weights: list[int]) -> None:
    """The enclosures of ⟨w̃, u_b⟩ contain scipy's minimizer's values, are narrow, and the limit of a direction
    (its decomposition on the basis) has a certified sign and a half-width that covers the float value."""
    levels = residual_levels(DEPENDENT, (F(1, 2), F(1, 2)), weights)
    assert levels.complete and not levels.levels[0].independent
    w = _float_residual([(2.0, 0.0), (0.0, 2.0), (1.0, 1.0)], (0.5, 0.5), [float(x) for x in weights])
    inner = Residuals(levels).interval_inner(1)
    for b in levels.levels[0].basis:
        expected = float(np.dot(w, [float(x) for x in DEPENDENT[b]]))
        assert float(inner[b].a) - 1e-9 <= expected <= float(inner[b].b) + 1e-9
        assert float(inner[b].b - inner[b].a) < 1e-15
    v = (F(1), F(-3))                      # ⟨w̃, v⟩ = ½ ⟨w̃, u_0⟩ - 3/2 ⟨w̃, u_1⟩
    coefficients = level_span_decomposition(levels, v)
    value = Residuals(levels).value(coefficients)
    expected = float(w[0] - 3 * w[1])
    assert not value.exact and value.form is None
    assert abs(value.value - expected) <= value.bound + 1e-9
    assert value.sign == (1 if expected > 0 else -1)


# Exists because a mutant survived: a positive limit known only as an enclosure never had its sign read.
def test_enclosed_positive_limit_has_sign_plus_one() -> None:
    """DEPENDENT with equal weights: by symmetry w̃ = (a, a), and the residual 3e^{-2a} + a is least at
    6e^{-2a} = 1, a = ½ log 6.  So ⟨w̃, (-1, 3)⟩ = 2a = log 6 > 0, and only an enclosure decides it (S+ dependent)."""
    levels = residual_levels(DEPENDENT, (F(1, 2), F(1, 2)), [1, 1, 1])
    value = Residuals(levels).value(level_span_decomposition(levels, (F(-1), F(3))))
    assert not value.exact and value.form is None
    assert value.sign == 1
    assert value.value == pytest.approx(math.log(6), rel=1e-12) and value.bound < 1e-12


def test_exact_value_of_an_independent_level() -> None:
    """Z = {e1, e2}, θ* = (1, 1), n = (2, 3): λ = (1, 1), ⟨w̃, z_s⟩ = log n_s, so ⟨w̃, (1, -1)⟩ = log(2/3), exact."""
    levels = residual_levels([(F(1), F(0)), (F(0), F(1))], (F(1), F(1)), [2, 3])
    value = Residuals(levels).value(level_span_decomposition(levels, (F(1), F(-1))))
    assert value.exact and value.sign == -1 and value.bound == 0.0
    assert value.value == pytest.approx(math.log(2 / 3), rel=1e-14)
    assert value.form is not None and (value.form - LogForm.log(F(2, 3))).sign() == 0
    zero = Residuals(levels).value([[F(0), F(0)]])
    assert zero.exact and zero.sign == 0 and zero.value == 0.0


def test_uncertified_hessian_is_reported_with_its_level(monkeypatch: pytest.MonkeyPatch) -> None:
    levels = residual_levels(DEPENDENT, (F(1, 2), F(1, 2)), [1, 1, 1])
    monkeypatch.setattr(maxent, "_certified_min_eig", lambda hess, d: None)
    with pytest.raises(ResidualError) as err:
        enclose_residual(levels.levels[0], {s: iv.mpf(1) for s in (0, 1, 2)})
    assert str(err.value) == "level 1: the Hessian of the residual problem is not certified positive"


# Exists because a mutant survived: the text of a Newton iteration that does not converge was never read.
def test_newton_without_enough_steps_is_reported(monkeypatch: pytest.MonkeyPatch) -> None:
    """One damped Newton step from 0 does not reach the 1e-32 gradient: a ResidualError with its text."""
    levels = residual_levels(DEPENDENT, (F(1, 2), F(1, 2)), [1, 2, 3])
    monkeypatch.setattr(maxent, "NEWTON_STEPS", 1)
    with pytest.raises(ResidualError) as err:
        enclose_residual(levels.levels[0], {s: iv.mpf(w) for s, w in zip((0, 1, 2), (1, 2, 3))})
    assert str(err.value) == "the max-entropy residual's Newton iteration did not converge"
    monkeypatch.setattr(maxent, "NEWTON_STEPS", 200)
    assert set(enclose_residual(levels.levels[0], {s: iv.mpf(w) for s, w in zip((0, 1, 2), (1, 2, 3))})) == {0, 1}


def test_enclosure_that_does_not_close_is_reported() -> None:
    """Weights known only within [½, 2]: the gradient bound g is of order 1, so the ball's radius ρ ≈ (r/2)e^{rR}
    exceeds r = 4g/m0 — refused, naming the level and ρ.  Point weights close it."""
    levels = residual_levels(DEPENDENT, (F(1, 2), F(1, 2)), [1, 2, 3])
    with pytest.raises(ResidualError,
                       match=r"^level 1: the residual's enclosure did not close \(ρ = [0-9.]+(e[+-]?[0-9]+)?\)$"):
        enclose_residual(levels.levels[0], {s: iv.mpf([0.5, 2]) for s in (0, 1, 2)})
    assert set(enclose_residual(levels.levels[0], {s: iv.mpf(1) for s in (0, 1, 2)})) == {0, 1}


# Exists because a mutant survived: a second level's weights after a dependent first level were never enclosed.
def test_second_level_after_a_dependent_level_is_enclosed() -> None:
    """Z = 2e1, 2e2, e1 + e2, (2, 0, 1), θ* = (½, ½, 0): level 1 is dependent, z_3 is active with λ_3 = 0 and
    projects to u_{2,3} = e3 = θ_2 (λ = 1).  So ⟨w̃_2, e3⟩ = log n_3 - ⟨w̃_1, (2, 0, 0)⟩, with w̃_1 from scipy."""
    rows = [(F(2), F(0), F(0)), (F(0), F(2), F(0)), (F(1), F(1), F(0)), (F(2), F(0), F(1))]
    weights = [1, 2, 3, 5]
    levels = residual_levels(rows, (F(1, 2), F(1, 2), F(0)), weights)
    assert levels.complete and levels.depth == 2 and not levels.levels[0].independent
    assert levels.levels[1].vectors == {3: (F(0), F(0), F(1))}
    w = _float_residual([(2.0, 0.0), (0.0, 2.0), (1.0, 1.0)], (0.5, 0.5), [1.0, 2.0, 3.0])
    expected = math.log(5.0) - 2.0 * float(w[0])
    res = Residuals(levels)
    assert res.exact_inner(2) is None
    enclosed = res.interval_inner(2)[3]
    assert float(enclosed.a) - 1e-9 <= expected <= float(enclosed.b) + 1e-9
    assert float(enclosed.b - enclosed.a) < 1e-15
