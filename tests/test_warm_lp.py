"""Contracts of posreal.theory.warm_lp: the warm-started primal (FaceLP) and dual (DualFaceLP) models re-solved
with changing objectives give linprog's cold minima, points of the polytope and dual multipliers that certify
the minimum; extra rows last one solve; infeasible and unbounded programs give no answer."""

from __future__ import annotations

import numpy as np
import pytest
from posreal.theory import warm_lp
from posreal.theory.faces import box_min
from posreal.theory.warm_lp import DualFaceLP, FaceLP, _rowwise
from scipy.optimize import linprog

MODELS = [FaceLP, DualFaceLP]


def _pentagon() -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """w1 + w2 <= 3, w1 - w2 >= -2, 2 w1 + w2 >= -1 in the box [-2, 2] x [-1, inf)."""
    A = np.array([[-1.0, -1.0], [1.0, -1.0], [2.0, 1.0]])
    r = np.array([-3.0, -2.0, -1.0])
    return A, r, np.array([-2.0, -1.0]), np.array([2.0, np.inf])


def _half_plane() -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """w1 >= 0, no column bounds."""
    return np.array([[1.0, 0.0]]), np.array([0.0]), np.full(2, -np.inf), np.full(2, np.inf)


def _cold(A: np.ndarray, r: np.ndarray, lo: np.ndarray, hi: np.ndarray, c: np.ndarray) -> float:
    bounds = [(None if not np.isfinite(a) else a, None if not np.isfinite(b) else b) for a, b in zip(lo, hi)]
    res = linprog(c, A_ub=-A, b_ub=-r, bounds=bounds, method="highs")
    assert res.status == 0
    return float(res.fun)


@pytest.mark.parametrize("model", MODELS)
def test_warm_minima_match_cold_linprog_and_are_certified(model: type) -> None:
    """Twelve objectives in a row on one model: each minimum is linprog's, the minimizer is a point of the
    polytope attaining it, and the row duals μ >= 0 certify it by weak duality with the column bounds:
    μᵀr + min over the box of (c - Aᵀμ)ᵀw equals the minimum."""
    A, r, lo, hi = _pentagon()
    lp = model(A, r, lo, hi)
    assert lp.model is not None
    rng = np.random.default_rng(3)
    for _ in range(12):
        c = np.round(rng.normal(size=2), 3)
        c[1] = abs(c[1]) + 0.1                    # w2 unbounded above: keep the minimum finite
        value, w, mu = lp.minimize(c)
        want = _cold(A, r, lo, hi, c)
        assert value == pytest.approx(want, abs=1e-8)
        assert w is not None and mu is not None
        assert float(c @ w) == pytest.approx(want, abs=1e-8)
        assert np.all(A @ w >= r - 1e-9) and np.all(w >= lo - 1e-9) and np.all(w <= hi + 1e-9)
        assert mu.shape == (3,) and np.all(mu >= 0)
        certificate = float(mu @ r) + float(box_min(c - A.T @ mu, lo, hi))
        assert certificate == pytest.approx(want, abs=1e-8)


@pytest.mark.parametrize("model", MODELS)
def test_the_fallback_without_highs_api_gives_the_same_answers(model: type, monkeypatch: pytest.MonkeyPatch) -> None:
    """Without HiGHS' Python API each call is a cold linprog: same minima, certified duals."""
    monkeypatch.setattr(warm_lp, "_HIGHS", False)
    A, r, lo, hi = _pentagon()
    lp = model(A, r, lo, hi)
    assert lp.model is None
    for c in (np.array([1.0, 1.0]), np.array([-1.0, 0.5]), np.array([0.0, 1.0])):
        value, w, mu = lp.minimize(c)
        want = _cold(A, r, lo, hi, c)
        assert value == pytest.approx(want, abs=1e-8)
        assert w is not None and mu is not None and np.all(mu >= 0)
        assert float(mu @ r) + float(box_min(c - A.T @ mu, lo, hi)) == pytest.approx(want, abs=1e-8)


@pytest.mark.parametrize("model", MODELS)
@pytest.mark.parametrize("api", [True, False])
def test_unbounded_and_infeasible_programs_give_no_answer(model: type, api: bool,
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    """Minimizing -w2 over the half-plane w1 >= 0 and any objective over an empty polytope: (NaN, None, None)."""
    if not api:
        monkeypatch.setattr(warm_lp, "_HIGHS", False)
    value, w, mu = model(*_half_plane()).minimize(np.array([0.0, -1.0]))
    assert np.isnan(value) and w is None and mu is None
    empty = model(np.array([[1.0], [-1.0]]), np.array([1.0, 0.0]), np.array([-5.0]), np.array([5.0]))
    value, w, mu = empty.minimize(np.array([1.0]))
    assert np.isnan(value) and w is None and mu is None


@pytest.mark.parametrize("model", MODELS)
def test_a_bounded_answer_after_an_unbounded_one(model: type) -> None:
    """An unbounded objective does not spoil the model: the next bounded one is linprog's minimum."""
    A, r, lo, hi = _half_plane()
    lp = model(A, r, lo, hi)
    assert np.isnan(lp.minimize(np.array([0.0, -1.0]))[0])
    assert lp.minimize(np.array([2.0, 0.0]))[0] == pytest.approx(0.0, abs=1e-9)
    assert np.isnan(lp.minimize(np.array([-1.0, 0.0]))[0])


@pytest.mark.parametrize("api", [True, False])
def test_extra_rows_last_one_solve(api: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    """min -w1 - w2 with the extra row w1 <= 0.5 is linprog's with that row; the next solve without extra rows
    is linprog's without it (the rows were removed), and a second extra-row solve is again right."""
    if not api:
        monkeypatch.setattr(warm_lp, "_HIGHS", False)
    A, r, lo, hi = _pentagon()
    hi = np.array([2.0, 4.0])
    lp = FaceLP(A, r, lo, hi)
    c = np.array([-1.0, -2.0])
    B, rb = np.array([[-1.0, 0.0]]), np.array([-0.5])
    value, w = lp.minimize_with_rows(c, B, rb)
    assert value == pytest.approx(_cold(np.vstack([A, B]), np.concatenate([r, rb]), lo, hi, c), abs=1e-8)
    assert w is not None and w[0] <= 0.5 + 1e-9
    value, w, _ = lp.minimize(c)
    assert value == pytest.approx(_cold(A, r, lo, hi, c), abs=1e-8)
    B2, rb2 = np.array([[0.0, -1.0], [-1.0, -1.0]]), np.array([-1.0, -1.5])
    value, w = lp.minimize_with_rows(c, B2, rb2)
    assert value == pytest.approx(_cold(np.vstack([A, B2]), np.concatenate([r, rb2]), lo, hi, c), abs=1e-8)
    if api:
        assert lp.model is not None and lp.model.getNumRow() == 3


@pytest.mark.parametrize("api", [True, False])
def test_extra_rows_that_empty_the_polytope_give_no_answer(api: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    """Extra rows w1 >= 5 outside the box w1 <= 2: (NaN, None), and the model still answers afterwards."""
    if not api:
        monkeypatch.setattr(warm_lp, "_HIGHS", False)
    A, r, lo, hi = _pentagon()
    lp = FaceLP(A, r, lo, hi)
    value, w = lp.minimize_with_rows(np.array([1.0, 1.0]), np.array([[1.0, 0.0]]), np.array([5.0]))
    assert np.isnan(value) and w is None
    c = np.array([1.0, 1.0])
    assert lp.minimize(c)[0] == pytest.approx(_cold(A, r, lo, hi, c), abs=1e-8)


def test_rowwise_lists_the_nonzeros_row_by_row() -> None:
    """(start, index, value) of a matrix with an empty row and zeros inside rows."""
    start, index, value = _rowwise(np.array([[0.0, 2.0, 0.0], [0.0, 0.0, 0.0], [-1.0, 0.0, 3.0]]))
    assert start.tolist() == [0, 1, 1, 3] and index.tolist() == [1, 0, 2] and value.tolist() == [2.0, -1.0, 3.0]
    assert start.dtype == np.int32 and index.dtype == np.int32


@pytest.mark.parametrize("model", MODELS)
def test_a_model_without_columns_is_never_built(model: type) -> None:
    """A polytope in no variables has no HiGHS model (each call goes through linprog)."""
    assert model(np.zeros((0, 0)), np.zeros(0), np.zeros(0), np.zeros(0)).model is None


@pytest.mark.parametrize("model", MODELS)
def test_infinite_column_bounds_are_free(model: type) -> None:
    """Without column bounds the polytope alone bounds w: min w1 over 0 <= w1 <= 2 (as rows) is 0, max is 2."""
    lp = model(np.array([[1.0], [-1.0]]), np.array([0.0, -2.0]), np.array([-np.inf]), np.array([np.inf]))
    assert lp.minimize(np.array([1.0]))[0] == pytest.approx(0.0, abs=1e-9)
    assert lp.minimize(np.array([-1.0]))[0] == pytest.approx(-2.0, abs=1e-9)
    assert lp._bounds() == [(None, None)]


def _no_cold_solve(*args: object, **kwargs: object) -> None:
    raise AssertionError("a cold linprog was run")


@pytest.mark.parametrize("model", MODELS)
def test_the_warm_model_answers_without_a_cold_solve(model: type, monkeypatch: pytest.MonkeyPatch) -> None:
    """On a well-scaled polytope every answer comes from the warm HiGHS model itself (no linprog fallback),
    and it is linprog's minimum, attained at the returned point, with certifying duals."""
    A, r, lo, hi = _pentagon()
    want = {}
    cs = [np.array([1.0, 1.0]), np.array([-1.0, 0.5]), np.array([0.3, 2.0]), np.array([-2.0, 1.0])]
    for c in cs:
        want[tuple(c)] = _cold(A, r, lo, hi, c)
    monkeypatch.setattr(warm_lp, "linprog", _no_cold_solve)
    lp = model(A, r, lo, hi)
    for c in cs + cs[::-1]:
        value, w, mu = lp.minimize(c)
        assert value == pytest.approx(want[tuple(c)], abs=1e-8)
        assert w is not None and mu is not None and float(c @ w) == pytest.approx(value, abs=1e-8)
        assert float(mu @ r) + float(box_min(c - A.T @ mu, lo, hi)) == pytest.approx(value, abs=1e-8)


def test_extra_rows_are_solved_on_the_warm_model(monkeypatch: pytest.MonkeyPatch) -> None:
    """FaceLP.minimize_with_rows answers from the warm model (no cold linprog), with and without extra rows."""
    A, r, lo, hi = _pentagon()
    hi = np.array([2.0, 4.0])
    c = np.array([-1.0, -2.0])
    B, rb = np.array([[-1.0, 0.0], [0.0, -1.0]]), np.array([-0.5, -3.5])
    with_rows = _cold(np.vstack([A, B]), np.concatenate([r, rb]), lo, hi, c)
    without = _cold(A, r, lo, hi, c)
    monkeypatch.setattr(warm_lp, "linprog", _no_cold_solve)
    lp = FaceLP(A, r, lo, hi)
    for _ in range(2):
        value, w = lp.minimize_with_rows(c, B, rb)
        assert value == pytest.approx(with_rows, abs=1e-8)
        assert w is not None and np.all(B @ w >= rb - 1e-9) and np.all(A @ w >= r - 1e-9)
        assert lp.minimize(c)[0] == pytest.approx(without, abs=1e-8)
