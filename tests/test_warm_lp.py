"""The warm-started LPs over a face (posreal.theory.warm_lp): FaceLP and DualFaceLP against linprog, with
and without HiGHS' Python API, their silence on stdout, and their one cold linprog fallback."""

from __future__ import annotations

import math
import sys
import types

import numpy as np
import pytest
from posreal.theory import warm_lp
from posreal.theory.errors import PosrealError
from posreal.theory.warm_lp import DualFaceLP, FaceLP
from scipy.optimize import linprog
from face_cases import segment


@pytest.mark.parametrize("form", [FaceLP, DualFaceLP])
def test_the_warm_started_solver_prints_nothing(capfd, form):
    """HiGHS' banner or log on stdout would corrupt ``--json`` output: the face model is silent."""
    model = form(np.array([[1.0, 0.0], [0.0, 1.0]]), np.array([1.0, 1.0]), np.full(2, -5.0), np.full(2, 5.0))
    assert model.model is not None                          # the warm-started path, not the linprog fallback
    value, _, _ = model.minimize(np.array([1.0, 1.0]))
    assert value == pytest.approx(2.0)
    out, err = capfd.readouterr()
    assert out == "" and err == ""


@pytest.mark.parametrize("form", [FaceLP, DualFaceLP])
def test_a_failed_warm_solve_falls_back_to_one_cold_solve(form, monkeypatch):
    """When the warm model gives no answer (HiGHS without presolve stalled on dual:abssin:16 · dual:offset:1
    in ℓ∞ with two BLAS threads, not with one), minimize() answers from one cold linprog solve; control:
    without an optimum (an unbounded LP) the fallback still says no optimum."""
    A, r = np.array([[1.0, 0.0], [0.0, 1.0]]), np.array([1.0, 1.0])
    model = form(A, r, np.full(2, -5.0), np.full(2, 5.0))
    monkeypatch.setattr(model, "_run", lambda c: None)                   # the warm model fails
    value, w, mu = model.minimize(np.array([1.0, 2.0]))
    assert value == pytest.approx(3.0) and w == pytest.approx([1.0, 1.0]) and mu == pytest.approx([1.0, 2.0])
    open_box = form(A, r, np.full(2, -np.inf), np.full(2, np.inf))
    monkeypatch.setattr(open_box, "_run", lambda c: None)
    value, w, mu = open_box.minimize(np.array([-1.0, 0.0]))               # unbounded below: no optimum
    assert np.isnan(value) and w is None and mu is None


# Exists because a mutant survived: the check that highspy offers the API the warm models use was never run.
def test_the_warm_models_use_highspy_when_it_has_their_api(monkeypatch: pytest.MonkeyPatch) -> None:
    """With highspy installed (a dependency) the first use loads it and the face models are warm-started HiGHS
    models; a highspy without ``HighsLp`` (an incompatible version) is not used: every LP goes to linprog."""
    import highspy

    A, r, lo, hi = np.array([[1.0, 0.0], [0.0, 1.0]]), np.array([1.0, 1.0]), np.full(2, -5.0), np.full(2, 5.0)
    monkeypatch.setattr(warm_lp, "_HIGHS", None)
    assert warm_lp._highs_api() is highspy
    assert DualFaceLP(A, r, lo, hi).model is not None and FaceLP(A, r, lo, hi).model is not None
    monkeypatch.setattr(warm_lp, "_HIGHS", None)
    monkeypatch.setitem(sys.modules, "highspy", types.SimpleNamespace(_Highs=highspy._Highs,
                                                                      MatrixFormat=highspy.MatrixFormat))
    assert warm_lp._highs_api() is False
    model = DualFaceLP(A, r, lo, hi)
    assert model.model is None and model.minimize(np.array([1.0, 1.0]))[0] == pytest.approx(2.0)


@pytest.mark.parametrize("form", [FaceLP, DualFaceLP])
def test_warm_started_face_lp_matches_linprog(form):
    """Both forms of the warm-started model (primal; dual with the finite bounds as rows) give linprog's
    minima, a feasible minimizer, and duals μ ≥ 0 whose weak-duality bound is the minimum."""
    rng = np.random.default_rng(3)
    A = rng.normal(size=(40, 5))
    A[:, 0] = np.abs(A[:, 0])                              # +e0 is a recession direction: c0 < 0 is unbounded
    r = -np.abs(rng.normal(size=40)) - 0.1                 # w = 0 strictly feasible
    lo, hi = np.full(5, -2.0), np.array([np.inf, 3.0, np.inf, 1.5, np.inf])
    model = form(A, r, lo, hi)
    assert model.model is not None
    unbounded = 0
    for _ in range(40):
        c = rng.normal(size=5)
        value, w, mu = model.minimize(c)
        ref = linprog(c, A_ub=-A, b_ub=-r, bounds=list(zip([-2.0] * 5, [None, 3.0, None, 1.5, None])),
                      method="highs")
        if ref.status == 3:                                 # unbounded: no optimum, no value
            assert np.isnan(value) and w is None
            unbounded += 1
            continue
        assert ref.status == 0 and abs(value - ref.fun) <= 1e-7 * max(1.0, abs(ref.fun))
        assert w is not None and mu is not None and mu.shape == (40,)
        assert np.all(A @ w >= r - 1e-7) and np.all(w >= lo - 1e-9) and np.all(w <= hi + 1e-9) and np.all(mu >= 0)
        assert abs(float(c @ w) - value) <= 1e-7 * max(1.0, abs(value))
    assert 0 < unbounded < 40                               # both branches were exercised


# Exists because a mutant survived: FaceLP's extra rows were never solved, with or without HiGHS' Python API.
@pytest.mark.parametrize("highs", [True, False])
def test_face_lp_extra_rows_with_and_without_highs_python_api(monkeypatch, highs):
    """min w s.t. w ≥ 1, -10 ≤ w ≤ 10, with the extra row w ≥ 2: 2 at w = 2; the model alone: 1 at w = 1.
    Without highspy (the linprog fallback) the extra rows are solved the same way."""
    if not highs:
        monkeypatch.setattr(warm_lp, "_HIGHS", False)
    face_lp = warm_lp.FaceLP(np.array([[1.0]]), np.array([1.0]), np.array([-10.0]), np.array([10.0]))
    assert (face_lp.model is not None) == highs
    value, w = face_lp.minimize_with_rows(np.array([1.0]), np.array([[1.0]]), np.array([2.0]))
    assert value == pytest.approx(2.0) and w is not None and w.tolist() == pytest.approx([2.0])
    value, w, _ = face_lp.minimize(np.array([1.0]))
    assert value == pytest.approx(1.0) and w is not None and w.tolist() == pytest.approx([1.0])


# Exists because a mutant survived: the max-min LP with infeasible extra rows was never solved.
def test_max_min_with_infeasible_rows_is_nan():
    A, r, inf = segment()
    lp = FaceLP(A, r, -inf, inf)
    assert lp.model is not None
    value, w = lp.minimize_with_rows(np.array([1.0]), np.array([[1.0]]), np.array([5.0]))   # w >= 5 on [0, 2]
    assert math.isnan(value) and w is None
    value, w = lp.minimize_with_rows(np.array([1.0]), np.array([[1.0]]), np.array([1.0]))   # w >= 1: min is 1
    assert value == pytest.approx(1.0) and w is not None


# Exists because a mutant survived: the linprog fallback's row duals were unchecked.
@pytest.mark.parametrize("cls", ["FaceLP", "DualFaceLP"])
def test_linprog_fallback_returns_zero_duals_on_slack_rows(cls: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Without HiGHS' Python API each face LP is one ``linprog``, and its row duals must be the LP's:
    min w₁ + w₂ over w₁ ≥ 1, w₂ ≥ 2, w₁ + w₂ ≥ 0 in the box [-10, 10]² has its optimum (1, 2) with the
    first two rows tight and the third slack (3 > 0), so μ = (1, 1, 0) (c = Aᵀμ on the tight rows,
    complementary slackness on the slack one) — the same as the warm HiGHS model gives (a dual floored
    at 1 would not be)."""
    from posreal.theory import warm_lp

    A = np.array([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]])                 # (M, d) = (3, 2)
    r, lo, hi, c = np.array([1.0, 2.0, 0.0]), np.full(2, -10.0), np.full(2, 10.0), np.array([1.0, 1.0])
    warm = getattr(warm_lp, cls)(A, r, lo, hi)
    monkeypatch.setattr(warm_lp, "_highs_api", lambda: False)
    cold = getattr(warm_lp, cls)(A, r, lo, hi)
    assert warm.model is not None and cold.model is None             # the two paths under test
    value, w, mu = cold.minimize(c)
    assert value == 3.0 and w is not None and mu is not None
    np.testing.assert_allclose(w, [1.0, 2.0])
    slack = A @ w - r                                                  # (M,)
    assert slack[2] > 0 and np.allclose(slack[:2], 0)
    np.testing.assert_allclose(A[:2].T @ mu[:2], c)                    # stationarity on the tight rows
    assert mu[2] == 0.0                                                # complementary slackness
    np.testing.assert_allclose(mu, warm.minimize(c)[2])


# Exists because a mutant survived: the linprog fallback could make a free variable nonnegative.
@pytest.mark.parametrize("cls", [warm_lp.FaceLP, warm_lp.DualFaceLP])
def test_the_linprog_fallback_keeps_the_column_bounds(cls):
    """min w over -5 ≤ w ≤ 5 and the row w ≥ -3 is -3 (a negative minimizer: the bounds are not linprog's
    default w ≥ 0); min -w is -5 (the upper bound)."""
    solver = cls(np.array([[1.0]]), np.array([-3.0]), np.array([-5.0]), np.array([5.0]))
    solver.model = None        # the linprog path (as without HiGHS' Python API)
    value, w, _ = solver.minimize(np.array([1.0]))
    assert value == pytest.approx(-3.0) and w == pytest.approx([-3.0])
    value, w, _ = solver.minimize(np.array([-1.0]))
    assert value == pytest.approx(-5.0) and w == pytest.approx([5.0])


# Exists because a mutant survived: HiGHS refusing the face model was never seen.
def test_dual_face_model_refused_by_highs():
    A, r, inf = segment()
    solver = DualFaceLP(A, r, -inf, inf)
    real = warm_lp._highs_api()
    assert real and solver.model is not None
    refused = object()

    class FakeHighs:
        def setOptionValue(self, *args):
            pass

        def passModel(self, lp):
            return refused

    api = types.SimpleNamespace(_Highs=FakeHighs, HighsLp=real.HighsLp, kHighsInf=real.kHighsInf,
                                MatrixFormat=real.MatrixFormat, HighsStatus=types.SimpleNamespace(kError=refused))
    with pytest.raises(PosrealError) as err:
        solver._build(api)
    assert str(err.value) == "HiGHS refused the face model"


# Exists because a mutant survived: DualFaceLP.minimize was never given a complex cost.
def test_dual_face_model_refuses_a_complex_cost():
    A, r, inf = segment()
    solver = DualFaceLP(A, r, -inf, inf)
    assert solver.model is not None
    value, w, _ = solver.minimize([-1.0])                              # max w over [0, 2]
    assert value == pytest.approx(-2.0) and w is not None and w[0] == pytest.approx(2.0)
    with pytest.raises(TypeError):
        solver.minimize([-1.0 + 1.0j])                                 # a complex cost is not a cost
