"""The α interval over a non-point optimal face (ℓ∞, ℓ1): the fast decision procedure of
posreal.theory.geometry against (1) the outcomes of the previous implementation, stored once, and
(2) the definition itself, one LP per row and per (row, rival) in θ-space; plus its parts (warm-started
LPs with and without HiGHS' Python API, the training-difference bound)."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from posreal.theory import geometry
from posreal.theory.defaults import LENGTHS
from posreal.theory.geometry import DualFaceLP, FaceLP, Geometry, interval_outcomes, select_in_geometry
from posreal.theory.realization import FAILED, REALIZED, UNDECIDED, structural_ties
from posreal.theory.kernels import target_keys
from scipy.optimize import linprog

ROOT = Path(__file__).resolve().parents[1]
PREVIOUS = ROOT / "tests" / "data" / "geometry_intervals_previous.json"
CODES = {"+": REALIZED, "-": FAILED, "?": UNDECIDED}


def _previous_cells() -> dict[tuple[str, str, int, str], dict[int, dict[str, str]]]:
    cells: dict = {}
    for key, value in json.loads(PREVIOUS.read_text()).items():
        pe, task, L0, geo, L = key.split("|")
        cells.setdefault((pe, task, int(L0), geo), {})[int(L)] = value
    return cells


PREVIOUS_CELLS = _previous_cells()


SLOW_CELLS = {("abssin:16", "position:1", 16, "linf"), ("abssin:16", "position:1", 32, "linf")}   # ~10 s each


@pytest.mark.parametrize("pe,task,L0,geo", [pytest.param(*cell, marks=pytest.mark.slow) if cell in SLOW_CELLS
                                            else cell for cell in sorted(PREVIOUS_CELLS)], ids=str)
def test_same_outcomes_as_the_previous_implementation_wherever_it_decided(pe, task, L0, geo):
    """Every row the previous implementation decided (every or some) gets the same verdict; the rows it
    left undecided (LP budget) are decided now."""
    stored = PREVIOUS_CELLS[(pe, task, L0, geo)]
    gsel = select_in_geometry(pe, task, L0, geo, exact=False)
    assert gsel.face is not None and not gsel.face.point
    now = interval_outcomes(gsel, sorted(stored))
    for L, old in stored.items():
        for name in ("every", "some"):
            before = np.array([CODES[c] for c in old[name]], dtype=np.int8)
            after = getattr(now[L], name)
            decided = before != UNDECIDED
            assert np.array_equal(after[decided], before[decided]), (L, name, np.flatnonzero(after != before))
            assert not np.any(after == UNDECIDED), (L, name, int(np.sum(after == UNDECIDED)))


def _naive_rows(gsel, length: int, tol: float = 1e-7):
    """From the definition, in θ-space over {Zθ ≥ 1, ‖θ‖_∞ ≤ value}: per row, the least over rivals of
    min ⟨v, θ⟩ (every) and max min_rival ⟨v, θ⟩ capped at 1 (some), with the margin scale of the code."""
    pe, task, L0 = gsel.pe, gsel.task, gsel.train_length
    z, value = gsel.selection.constraints, gsel.value
    p = z.shape[1]
    rows, targets = task.rows_and_targets(length)
    ties = structural_ties(pe, rows, targets, length, L0)
    keys = target_keys(pe.index, rows, targets)
    bounds = [(-value * (1 + 1e-9), value * (1 + 1e-9))] * p
    out = []
    for i, kt, tie in zip(rows.tolist(), keys.tolist(), ties.tolist()):
        rivals = [k for k in range(i + 1) if k != kt]
        if tie or not rivals:
            out.append(None)
            continue
        feats = pe.index_features(np.full(i + 1, i), np.arange(i + 1), L0)      # (i+1, p)
        v = feats[kt][None, :] - feats[rivals]                                   # (r, p)
        scale = tol * max(1.0, abs(float(feats[kt] @ gsel.theta)))
        A = np.vstack([np.hstack([-z, np.zeros((z.shape[0], 1))]), np.hstack([-v, np.ones((len(rivals), 1))])])
        b = np.concatenate([-np.ones(z.shape[0]), np.zeros(len(rivals))])
        c = np.zeros(p + 1)
        c[-1] = -1
        some = -linprog(c, A_ub=A, b_ub=b, bounds=bounds + [(None, 1.0)], method="highs").fun
        every = min(linprog(row, A_ub=-z, b_ub=-np.ones(z.shape[0]), bounds=bounds, method="highs").fun
                    for row in v)
        out.append((every, some, scale))
    return out


NAIVE_CELLS = [("abssin:4:50", "offset:1", 8), ("abssin:4:50", "position:0", 8), ("abssin:4:50", "copy", 8),
               ("abssin:6", "position:1", 8), ("abssin:6", "middle", 8), ("abssin:8", "position:0", 12)]


@pytest.mark.parametrize("pe,task,L0", NAIVE_CELLS)
def test_outcomes_agree_with_the_definition(pe, task, L0):
    """Rows whose naive extreme margin is clear of the tolerance (|value| > 1e-5) get the naive verdict."""
    gsel = select_in_geometry(pe, task, L0, Geometry.LINF, exact=False)
    assert gsel.realizable
    length = 2 * L0
    fast = interval_outcomes(gsel, [length])[length]
    checked = 0
    for n, naive in enumerate(_naive_rows(gsel, length)):
        if naive is None:
            continue
        every, some, scale = naive
        if abs(every) > 1e-5:
            assert fast.every[n] == (REALIZED if every > scale else FAILED), (n, every)
            checked += 1
        if abs(some) > 1e-5:
            assert fast.some[n] == (REALIZED if some > scale else FAILED), (n, some)
    assert checked


def test_without_highs_python_api_the_face_lps_go_through_linprog(monkeypatch):
    """Same outcomes when HiGHS' Python API (highspy) cannot be imported (each face LP is then one linprog)."""
    cell = ("abssin:16", "offset:1", 16, Geometry.LINF)
    warm = interval_outcomes(select_in_geometry(*cell, exact=False), LENGTHS)
    monkeypatch.setattr(geometry, "_HIGHS", False)
    gsel = select_in_geometry(*cell, exact=False)
    assert gsel.face is not None and not gsel.face.point
    cold = interval_outcomes(gsel, LENGTHS)
    assert gsel.face.solver is None or gsel.face.solver.model is None
    for L in LENGTHS:
        assert np.array_equal(warm[L].every, cold[L].every) and np.array_equal(warm[L].some, cold[L].some)


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


def test_training_difference_bound_is_one_on_training_rivals_and_absent_elsewhere():
    gsel = select_in_geometry("abssin:16", "position:0", 16, Geometry.LINF, exact=False)
    bound = geometry._TrainingBound(gsel)
    i, t, j = gsel.selection.pairs[:5].T
    keys_t, keys_j = target_keys("position", i, t), target_keys("position", i, j)
    assert np.all(bound.lower_bounds(i, keys_t, keys_j) >= 1 - 1e-6)
    # rows beyond L0 are not training rows: no bound
    far = np.array([40, 41, 42])
    assert np.all(np.isneginf(bound.lower_bounds(far, np.zeros(3, dtype=np.int64), np.array([3, 4, 5]))))
    # negative control: the reversed direction is not a training difference either
    assert np.all(np.isneginf(bound.lower_bounds(i, keys_j, keys_t)))
