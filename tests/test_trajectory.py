"""Trajectory evidence (theory/trajectory.py and theory/flow.py): the flow in h = θ - θ* τ and σ = log τ
against exact solutions and finite differences, gradient descent against the trainer, the verdict rules."""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pytest
import scipy.integrate
from scipy.optimize import brentq

from posreal.counterexamples.designed import LOG2_TIE
from posreal.theory import parse_pe, parse_task, select
from posreal.theory.flow import Agreement, compare, row_verdict, tie_flow
from posreal.theory.limit import LimitVerdict
from posreal.theory.random_instances import registered
from posreal.theory.training import gradient_descent
from posreal.theory.trajectory import (DRIFT_TOL, SAMPLES, SIGMA_MAX, SLOPE_TOL, STRETCH, WINDOW, ShiftedField,
                                       TrajectoryEvidence, descend, follow, judge, pair_data, tie_trajectory)


def _data(pe: str, task: str, L0: int, exact: bool = True):
    p, t = parse_pe(pe), parse_task(task)
    sel = select(p, t, L0, mode="exact" if exact else "float")
    theta = list(sel.exact_theta) if exact else [float(x) for x in sel.theta]
    return pair_data(p, t, L0, theta)


def test_flow_follows_the_exact_two_key_flow():
    """alibi·position:0 at L0 = 2: ℓ(θ) = log(1 + e^θ), θ* = -1; with u = -θ, (1 + e^u) du = dt, so
    u + e^u = e^τ + 1, and h = θ - θ* τ = τ - u.  The recorded path is within 1e-7 of it."""
    data = _data("alibi", "position:0", 2)
    assert data.theta.tolist() == [-1.0] and data.gap.tolist() == [0.0]
    path = follow(data, 0, math.log(10.0))
    assert path.success and path.sigmas[-1] == pytest.approx(math.log(10.0))
    for sigma, h in zip(path.sigmas, path.hs):
        tau = math.exp(sigma)
        u = brentq(lambda v, tau=tau: v + np.exp(v) - np.exp(tau) - 1.0, 0.0, tau + 1.0, xtol=1e-14, rtol=1e-15)
        assert abs(h[0] - (tau - u)) < 1e-7, (tau, h, u)


def test_flow_reaches_log_two_on_the_designed_tie():
    with registered(LOG2_TIE):
        pe, task = parse_pe(LOG2_TIE.pe), parse_task(LOG2_TIE.task)
        (ev,) = tie_flow(pe, task, 3, [[1.0, -1.0, 1.0]])
    assert ev.verdict is LimitVerdict.WON and ev.basis == "settled" and abs(ev.value - math.log(2)) < 1e-10
    assert ev.sigma == pytest.approx(24.0)


def _assert_jacobian(fun, jac, t: float, h: np.ndarray) -> None:
    """``jac(t, h)`` equals the central differences of ``fun(t, ·)`` at h (step 1e-6; the field must bend there)."""
    step = 1e-6
    numeric = np.column_stack([(fun(t, h + step * e) - fun(t, h - step * e)) / (2 * step)
                               for e in np.eye(h.size)])                 # (p, p): column q = ∂fun/∂h_q
    scale = np.abs(numeric).max()
    assert scale > 1e-3
    np.testing.assert_allclose(jac(t, h), numeric, rtol=0, atol=1e-6 * scale)


@pytest.mark.parametrize("pe, task, tau", [("relbias", "position:0", 0.0), ("relbias", "offset:1", 1.5),
                                           ("colbias", "position:1", 7.0)])
def test_shifted_field_jacobian_is_the_derivative_of_the_field(pe: str, task: str, tau: float) -> None:
    field = ShiftedField(_data(pe, task, 6))
    h0 = np.random.default_rng(3).normal(size=field.d.z.shape[1])   # (p,)
    _assert_jacobian(field.rhs, field.jac, tau, h0)


# Exists because a mutant survived: the σ-phase Jacobian was never compared with its field.
@pytest.mark.parametrize("pe, task, sigma", [("relbias", "offset:1", 0.0), ("colbias", "position:1", 1.5),
                                             ("relbias", "position:0", 3.0)])
def test_sigma_jacobian_is_the_derivative_of_the_sigma_field(pe: str, task: str, sigma: float) -> None:
    """dh/dσ = τ (Σ W z - θ*) with τ = e^σ: ``sigma_jac`` against central differences of ``sigma_rhs``."""
    field = ShiftedField(_data(pe, task, 6))
    h0 = np.random.default_rng(4).normal(size=field.d.z.shape[1])   # (p,)
    _assert_jacobian(field.sigma_rhs, field.sigma_jac, sigma, h0)


def test_shifted_field_at_tau_zero_is_minus_the_gradient():
    """At τ = 0, h = θ and Σ W z = -∇ℓ(θ): compared with the trainer's gradient."""
    pe, task = parse_pe("colbias"), parse_task("position:1")
    data = _data("colbias", "position:1", 5)
    from posreal.theory.training import training_grid
    grid = training_grid(pe, task, 5, 5)
    theta = np.random.default_rng(0).normal(size=data.z.shape[1])
    _, grad = grid.loss_and_grad(theta)
    np.testing.assert_allclose(ShiftedField(data).rhs(0.0, theta) + data.theta, -grad, atol=1e-12)


def test_descent_is_the_trainers_gradient_descent():
    """descend(K) reproduces posreal.theory.training.gradient_descent at the same step 1/β."""
    data = _data("relbias", "offset:1", 5)
    traj = gradient_descent("relbias", "offset:1", 5, steps=300)
    assert traj.step_size == pytest.approx(data.step, rel=1e-12)
    np.testing.assert_allclose(descend(data, 300), traj.final, atol=1e-10)


def test_descent_evidence_reports_its_gap_and_it_shrinks_with_more_steps():
    with registered(LOG2_TIE):
        pe, task = parse_pe(LOG2_TIE.pe), parse_task(LOG2_TIE.task)
        sel = select(pe, task, 3)
        data = pair_data(pe, task, 3, list(sel.exact_theta))
    few, many = (tie_trajectory(data, [[1.0, -1.0, 1.0]], k)[0] for k in (2000, 20000))
    assert few.method == many.method == "gradient descent" and many.steps == 20000
    assert 0 < many.gap < few.gap
    assert many.verdict is LimitVerdict.WON and abs(many.value - math.log(2)) < 0.05   # GD's limit differs by O(η)


# Exists because a mutant survived: the evidence's JSON could lose the descent-to-flow gap it reports.
def test_evidence_json_reports_the_descent_to_flow_gap():
    """The gap bound (definitions.md#trajectory-evidence: "estimated along the way and reported") is in the
    JSON record: positive after K descent steps, smaller after more steps, 0 for the flow itself."""
    with registered(LOG2_TIE):
        pe, task = parse_pe(LOG2_TIE.pe), parse_task(LOG2_TIE.task)
        sel = select(pe, task, 3)
        data = pair_data(pe, task, 3, list(sel.exact_theta))
    few, many, flow = (tie_trajectory(data, [[1.0, -1.0, 1.0]], k)[0].to_json() for k in (200, 2000, 0))
    assert (few["method"], flow["method"]) == ("gradient descent", "gradient flow")
    assert few["gap"] > many["gap"] > 0 and flow["gap"] == 0.0
    assert few["verdict"] == "won" and abs(few["value"]) > few["gap"]


def test_relbias_without_d_is_relbias_l0_minus_1():
    a, b = _data("relbias", "position:0", 3), _data("relbias:2", "position:0", 3)
    np.testing.assert_array_equal(a.z, b.z)
    pa, pb = follow(a, 0, 1.0), follow(b, 0, 1.0)
    np.testing.assert_array_equal(pa.hs, pb.hs)


def test_every_segment_is_integrated_with_lsoda(monkeypatch):
    methods = []
    real = scipy.integrate.solve_ivp

    def spy(*args, **kwargs):
        methods.append(kwargs.get("method", "RK45"))
        return real(*args, **kwargs)

    monkeypatch.setattr(scipy.integrate, "solve_ivp", spy)
    path = follow(_data("alibi", "position:0", 2), 0, 2.0)
    assert path.success and len(methods) == 3 and set(methods) == {"LSODA"}


# Exists because a mutant survived: a segment integrated without its Jacobian gave the same path within tolerance.
def test_every_segment_gets_the_exact_jacobian_of_its_field(monkeypatch):
    """The σ phase is stiff (module docstring: "LSODA with its exact Jacobian"): without it LSODA falls back on
    finite-difference Jacobians and the flow to σ = 24 on the designed tie takes minutes instead of milliseconds
    (the path agrees within the solver's tolerance).  Each of the three segments (t ≤ 1, τ ≤ 1, σ) is handed a
    Jacobian, and it is the derivative of that segment's right-hand side (central differences at its start)."""
    real = scipy.integrate.solve_ivp
    calls = []

    def spy(fun, span, y0, **kwargs):
        calls.append((fun, span, np.array(y0, dtype=float), kwargs.get("jac")))
        return real(fun, span, y0, **kwargs)

    monkeypatch.setattr(scipy.integrate, "solve_ivp", spy)
    path = follow(_data("relbias", "offset:1", 5), 0, 2.0)
    assert path.success and len(calls) == 3
    for fun, (t0, _), y0, jac in calls:
        assert callable(jac), t0
        y = y0 + np.random.default_rng(5).normal(scale=0.5, size=y0.size)   # (p,) off the start, where it bends
        _assert_jacobian(fun, jac, t0, y)


# Exists because a mutant survived: the number of recorded points of the σ phase was unchecked.
def test_sigma_phase_records_every_point_the_judge_reads() -> None:
    """The σ phase records SAMPLES equally spaced points from σ = 0 to the horizon; at the horizon SIGMA_MAX = 24
    with 97 points that is every quarter of σ, so each value ``judge`` reads — at the end, end - STRETCH,
    end - WINDOW, end - 2·WINDOW, end/4 and end/2 — is a point the solver returned, not an interpolation."""
    data = _data("alibi", "position:0", 2)
    path = follow(data, 0)
    sigma_phase = path.sigmas[path.sigmas >= 0]
    assert path.success and sigma_phase.size == SAMPLES
    np.testing.assert_allclose(sigma_phase, np.linspace(0.0, SIGMA_MAX, SAMPLES), rtol=0, atol=1e-12)
    end = SIGMA_MAX
    for read in (end, end - STRETCH, end - WINDOW, end - 2 * WINDOW, end / 4, end / 2):
        assert np.min(np.abs(sigma_phase - read)) < 1e-12, read


def test_a_failed_segment_is_reported_not_hidden(monkeypatch):
    from types import SimpleNamespace
    real = scipy.integrate.solve_ivp
    calls = []

    def solver(*args, **kwargs):
        calls.append(args[1])
        if len(calls) == 1:
            return real(*args, **kwargs)
        return SimpleNamespace(success=False, t=np.array([0.0]), y=np.zeros((1, 1)))

    monkeypatch.setattr(scipy.integrate, "solve_ivp", solver)
    path = follow(_data("alibi", "position:0", 2), 0, 2.0)
    assert path.success is False
    (ev,) = tie_trajectory(_data("alibi", "position:0", 2), [[1.0]], 0, 2.0)
    assert ev.verdict is LimitVerdict.UNDECIDED and ev.basis == "horizon not reached"


# --------------------------------------------------------------------------- the verdict rules
SIGMAS = np.linspace(0.0, 24.0, 97)


def test_judge_reads_log_log_t_growth_as_a_slope_in_sigma():
    verdict, basis, _, slope, previous = judge(SIGMAS, -0.3 * SIGMAS + 2.0, 0.0, True)
    assert verdict is LimitVerdict.LOST and basis == "slope in log log t"
    assert slope == pytest.approx(-0.3) and previous == pytest.approx(-0.3)


def test_judge_reads_log_log_log_t_growth_as_a_slope_in_log_sigma():
    values = 0.5 * np.log(np.maximum(SIGMAS, 1e-9)) - 1.0
    verdict, basis, *_ = judge(SIGMAS, values, 0.0, True)
    assert verdict is LimitVerdict.WON and basis == "slope in log log log t"


def test_judge_settles_a_converged_value_and_refuses_small_or_moving_ones():
    assert judge(SIGMAS, 0.2 + 0 * SIGMAS, 0.0, True)[:2] == (LimitVerdict.WON, "settled")
    assert judge(SIGMAS, -0.2 + np.exp(-SIGMAS), 0.0, True)[:2] == (LimitVerdict.LOST, "settled")
    assert judge(SIGMAS, 0.5 * DRIFT_TOL + 0 * SIGMAS, 0.0, True)[0] is LimitVerdict.UNDECIDED
    assert judge(SIGMAS, 0.2 + 0 * SIGMAS, 0.5, True)[0] is LimitVerdict.UNDECIDED          # gap larger than value
    wobble = 0.2 + 0.01 * np.sin(3 * SIGMAS)
    assert judge(SIGMAS, wobble, 0.0, True)[0] is LimitVerdict.UNDECIDED
    assert judge(SIGMAS, 0.2 + 0 * SIGMAS, 0.0, False)[:2] == (LimitVerdict.UNDECIDED, "horizon not reached")


# Exists because a mutant survived: the previous slope reported with a settled verdict was never read.
def test_judge_reports_the_previous_window_slope_of_a_settled_value():
    """Margin 0.2 for σ ≥ 20, rising by 0.001 per unit of σ before: at σ = 24 the last window [20, 24] is flat
    (slope 0) and the one before, [16, 20], rises by 0.004 over Δσ = 4 (previous slope 0.001); the value settles."""
    values = 0.2 - 0.001 * np.maximum(20.0 - SIGMAS, 0.0)
    verdict, basis, drift, slope, previous = judge(SIGMAS, values, 0.0, True)
    assert (verdict, basis) == (LimitVerdict.WON, "settled")
    assert drift == pytest.approx(0.0, abs=1e-15) and slope == pytest.approx(0.0, abs=1e-15)
    assert previous == pytest.approx(0.001, rel=1e-9)


def test_judge_needs_a_stable_slope_above_its_tolerance():
    # a slope that halves from one window to the next is not a log log t term
    decaying = 1.0 + 5.0 * np.exp(-0.17 * SIGMAS)
    assert judge(SIGMAS, decaying, 0.0, True)[1] != "slope in log log t"
    assert judge(SIGMAS, 0.5 * SLOPE_TOL * SIGMAS, 0.0, True)[1] != "slope in log log t"


def test_row_verdicts_and_agreement():
    won, lost, und = LimitVerdict.WON, LimitVerdict.LOST, LimitVerdict.UNDECIDED
    assert row_verdict([won, lost]) is lost and row_verdict([won, und]) is und and row_verdict([won, won]) is won
    assert row_verdict([]) is und
    assert compare(won, lost) is Agreement.DISAGREES and compare(und, lost) is Agreement.UNDECIDED
    assert compare(lost, lost) is Agreement.AGREES
    assert LimitVerdict.parse("wins") is won and LimitVerdict.parse("loses") is lost


def test_evidence_reports_sigma_to_six_decimals_and_its_tau():
    doc = TrajectoryEvidence("gradient flow", 0, 1.23456789, 0.5, 1e-9, 0.0, 0.0, 0.0, LimitVerdict.WON,
                             "settled").to_json()
    assert doc["sigma"] == 1.234568 and doc["tau"] == pytest.approx(math.exp(1.23456789))
    assert doc["value"] == 0.5 and doc["verdict"] == "won"


def test_pair_weights_scale_only_the_named_differences():
    with registered(LOG2_TIE):
        pe, task = parse_pe(LOG2_TIE.pe), parse_task(LOG2_TIE.task)
        sel = select(pe, task, 3)
        key = (Fraction(0), Fraction(1), Fraction(0))
        data = pair_data(pe, task, 3, list(sel.exact_theta), {key: 100.0})
    hit = [np.allclose(z, [0, 1, 0]) for z in data.z]
    assert any(hit) and np.allclose(data.log_weight[hit], math.log(100.0))
    assert np.all(data.log_weight[~np.array(hit)] == 0)


# Exists because a mutant survived: a cell without training pairs was never turned into pair data.
def test_pair_data_of_a_task_without_training_pairs_is_empty_and_its_field_zero() -> None:
    """offset:5 has no row at L0 = 4: no differences, no row starts (an integer index array), and the
    shifted field (which indexes by the starts) is the zero vector."""
    pe = parse_pe("relbias")
    data = pair_data(pe, parse_task("offset:5"), 4, [0.0] * pe.dim(4))
    assert data.z.shape == (0, 4) and data.starts.size == 0 and data.starts.dtype.kind == "i"
    assert ShiftedField(data).rhs(0.5, np.ones(4)).tolist() == [0.0] * 4


# Exists because a mutant survived: a descent path cut to two points by a failing integrator lost its gap estimate.
def test_a_descent_path_of_two_points_still_reports_its_gap(monkeypatch: pytest.MonkeyPatch) -> None:
    """The τ-phase integration is made to stop after two recorded points τ > 0 (as a failing LSODA would): the
    path is those two points, not a success, and its descent-to-flow gap is the trapezoid of the gap rate
    over them — the same number as from the field directly, and not 0."""
    with registered(LOG2_TIE):
        pe, task = parse_pe(LOG2_TIE.pe), parse_task(LOG2_TIE.task)
        data = pair_data(pe, task, 3, list(select(pe, task, 3).exact_theta))
    real = scipy.integrate.solve_ivp

    def cut(*args, **kwargs):
        sol = real(*args, **kwargs)
        t_eval = kwargs.get("t_eval")
        if t_eval is not None and t_eval.size == 9:                 # the τ phase
            n = 2 + int(sol.t[0] <= 0)                              # two recorded points with τ > 0
            sol.t, sol.y, sol.success = sol.t[:n], sol.y[:, :n], False
        return sol
    monkeypatch.setattr(scipy.integrate, "solve_ivp", cut)
    path = follow(data, 5, 0.5)
    assert path.sigmas.size == 2 and not path.success and path.steps == 5
    field, taus = ShiftedField(data), np.exp(path.sigmas)
    rates = [field.gap_rate(t, h) for t, h in zip(taus, path.hs)]
    expected = 0.5 * data.step * float(np.trapezoid(rates, taus))
    assert expected != 0.0 and path.gap == pytest.approx(expected, rel=1e-12)


# Exists because a mutant survived: a horizon between tau = 1 and tau = 2 was never followed past tau = 1.
def test_flow_reaches_a_horizon_just_beyond_tau_one() -> None:
    """alibi·position:0 at L0 = 2 up to σ = 0.5 (τ ≈ 1.65): the path ends there, on the exact two-key flow."""
    data = _data("alibi", "position:0", 2)
    path = follow(data, 0, 0.5)
    assert path.success and path.sigmas[-1] == pytest.approx(0.5)
    tau = math.exp(0.5)
    u = brentq(lambda v: v + np.exp(v) - np.exp(tau) - 1.0, 0.0, tau + 1.0, xtol=1e-14, rtol=1e-15)
    assert abs(path.hs[-1][0] - (tau - u)) < 1e-7


# Exists because a mutant survived: the gap rate was only checked on cells of radius 1, or against itself.
def test_gap_rate_of_a_cell_with_radius_two():
    """alibi·position:0 at L0 = 3: rivals z = -1 (row 1), -1 and -2 (row 2), so R = 2.  At τ = 0, h = 0 (θ = 0)
    the attention is uniform: W = ½ on row 1's rival, ⅓ on each of row 2's.  Σ W = 7/6, |Σ W z| = ½ + ⅓ + ⅔ = 3/2,
    and the rate R² e^0 (7/6)(3/2) = 7.  At τ = 1, h = 0.5 (θ = h + θ*τ = -0.5) it is checked against a softmax."""
    data = _data("alibi", "position:0", 3)
    assert data.z.ravel().tolist() == [-1.0, -1.0, -2.0]
    field = ShiftedField(data)
    assert field.gap_rate(0.0, np.zeros(1)) == pytest.approx(7.0, rel=1e-12)
    tau, theta = 1.0, -0.5
    w, wz = 0.0, 0.0
    for i in (1, 2):
        kappa = np.array([theta * -(i - j) for j in range(i + 1)])        # keys 0..i, target 0
        p = np.exp(kappa) / np.exp(kappa).sum()
        for j in range(1, i + 1):
            w += math.exp(tau) * p[j]
            wz += math.exp(tau) * p[j] * (-(i - 0) + (i - j))           # z = ψ(i, 0) - ψ(i, j)
    expected = 4.0 * math.exp(-tau) * w * abs(wz)
    assert field.gap_rate(tau, np.array([0.5])) == pytest.approx(expected, rel=1e-12)


# Exists because a mutant survived: directions given in Q (as tie classifications give them) were never tried.
def test_tie_trajectory_reads_rational_directions_as_floats() -> None:
    """A direction of Fractions gives the same evidence as the same direction in floats."""
    data = _data("alibi", "position:0", 2)
    (exact,) = tie_trajectory(data, [[Fraction(-1, 2)]], 0, 1.0)
    (floats,) = tie_trajectory(data, [[-0.5]], 0, 1.0)
    assert exact == floats
    assert exact.value == pytest.approx(-0.5 * float(follow(data, 0, 1.0).hs[-1][0] - math.e))


# Exists because a mutant survived: a key of the trajectory evidence record could be renamed unseen.
def test_evidence_json_fields_and_the_tolerances_it_was_judged_with():
    """The record's fields, in order, and the drift and slope tolerances it reports are the module's own."""
    with registered(LOG2_TIE):
        pe, task = parse_pe(LOG2_TIE.pe), parse_task(LOG2_TIE.task)
        sel = select(pe, task, 3)
        data = pair_data(pe, task, 3, list(sel.exact_theta))
    doc = tie_trajectory(data, [[1.0, -1.0, 1.0]], 0)[0].to_json()
    assert list(doc) == ["method", "steps", "sigma", "tau", "value", "drift", "slope", "previous_slope", "gap",
                         "verdict", "basis", "stretch", "tolerance", "slope_tolerance"]
    assert (doc["tolerance"], doc["slope_tolerance"]) == (DRIFT_TOL, SLOPE_TOL)
    assert doc["tau"] == pytest.approx(math.exp(doc["sigma"]), rel=1e-5)
