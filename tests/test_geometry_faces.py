"""The α interval over a non-point optimal face (ℓ∞, ℓ1): the fast decision procedure of
posreal.theory.faces and face_rows against (1) the outcomes of the previous implementation, stored once, and
(2) the definition itself, one LP per row and per (row, rival) in θ-space; plus its parts: the optimal
face read off a dual solution (its support and rank thresholds), its box and the rows the box implies,
blocks of rows and the bounds that decide them, the rows of R_L over a face and at a point, the
warm-started LPs with and without HiGHS' Python API, and the training-difference bound."""

from __future__ import annotations

import itertools
import json
import math
import sys
import types
from pathlib import Path
from types import SimpleNamespace

import numpy as np
import pytest
from posreal.theory import face_rows, faces, norm_programs, warm_lp
from posreal.theory.defaults import LENGTHS
from posreal.theory.errors import PosrealError
from posreal.theory.norm_programs import DUAL_TOL, Geometry, LinearProgram, norm_program, solve_program
from posreal.theory.warm_lp import DualFaceLP, FaceLP, LP_TOL
from posreal.theory.faces import Face, GeometrySelection, NULL_TOL, _prune, optimal_face, select_in_geometry
from posreal.theory.face_rows import (_Block, _TrainingBound, _face_rows, _max_min_over_face, _point_rows,
                                      interval_outcomes)
from posreal.theory.realization import FAILED, REALIZED, UNDECIDED, structural_ties
from posreal.theory.kernels import target_keys
from posreal.theory.selection import Selection
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


# the cells whose face LPs take seconds each (measured under load: 8 to 290 s; the rest well under 8 s); pytest -m slow
SLOW_CELLS = {("abssin:16", "position:1", 16, "linf"), ("abssin:16", "position:1", 32, "linf"),
              ("abssin:16", "position:1", 64, "linf"), ("abssin:16", "middle", 16, "linf"),
              ("abssin:16", "middle", 32, "linf"), ("abssin:16", "middle", 64, "linf"),
              ("abssin:16", "position:0", 16, "linf"), ("abssin:16", "position:0", 32, "linf"),
              ("abssin:16", "position:0", 64, "linf"), ("abssin:16", "offset:1", 32, "linf"),
              ("abssin:16", "offset:1", 64, "linf")}


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
    monkeypatch.setattr(warm_lp, "_HIGHS", False)
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


def test_the_dual_cell_of_abssin_in_linf_equals_the_cell_itself():
    """Proposition 4 in the ℓ∞ geometry: dual:abssin:16 · dual:offset:1 has the rows of abssin:16 · offset:1
    (a case whose face LP needs the cold fallback under some BLAS thread counts)."""
    from posreal.theory import compute_alpha
    plain = compute_alpha("abssin:16", "offset:1", geometry="linf")
    dual = compute_alpha("dual:abssin:16", "dual:offset:1", geometry="linf")
    assert plain.to_json()["alpha"] == dual.to_json()["alpha"]


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


def test_training_difference_bound_is_one_on_training_rivals_and_absent_elsewhere():
    gsel = select_in_geometry("abssin:16", "position:0", 16, Geometry.LINF, exact=False)
    bound = face_rows._TrainingBound(gsel)
    i, t, j = gsel.selection.pairs[:5].T
    keys_t, keys_j = target_keys("position", i, t), target_keys("position", i, j)
    assert np.all(bound.lower_bounds(i, keys_t, keys_j) >= 1 - 1e-6)
    # rows beyond L0 are not training rows: no bound
    far = np.array([40, 41, 42])
    assert np.all(np.isneginf(bound.lower_bounds(far, np.zeros(3, dtype=np.int64), np.array([3, 4, 5]))))
    # negative control: the reversed direction is not a training difference either
    assert np.all(np.isneginf(bound.lower_bounds(i, keys_j, keys_t)))


def _vertex_minima(A: np.ndarray, lo: np.ndarray, hi: np.ndarray) -> np.ndarray:
    """min over the vertices of the box [lo, hi] of each row's A_k w (a linear function's minimum over a box
    is attained at a vertex), by enumerating the 2^d vertices."""
    vertices = np.array(list(itertools.product(*zip(lo.tolist(), hi.tolist(), strict=True))))   # (2^d, d)
    return np.array([min(float(row @ v) for v in vertices) for row in A])


def _segment_face(probes: np.ndarray) -> Face:
    """A boxed face with one direction, w ∈ [-1, 1], and the given known points (P, 1)."""
    return Face(np.zeros(1), np.ones((1, 1)), np.zeros((0, 1)), np.zeros(0), np.array([-1.0]), np.array([1.0]),
                False, probes=probes)


def _block(face: Face, g0, a, scale) -> _Block:
    """One block of rows whose target is key 0 and whose one rival is key 1 (L = 2 keys), no structural
    ties; ``scale`` is the rows' tolerance (one number for every row, or one per row)."""
    g0, a = np.asarray(g0, dtype=float), np.asarray(a, dtype=float)
    b = g0.shape[0]
    scale = np.broadcast_to(np.asarray(scale, dtype=float), (b,)).copy()
    rival = np.tile([False, True], (b, 1))
    return _Block(None, face, None, np.ones(b, dtype=int), np.zeros(b, dtype=int), g0, a, rival, scale,
                  np.zeros(b, dtype=bool), np.zeros(b, dtype=np.int8), np.zeros(b, dtype=np.int8))


def _segment() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """0 <= w <= 2 as rows A w >= r, with infinite column bounds."""
    return np.array([[1.0], [-1.0]]), np.array([0.0, -2.0]), np.full(1, np.inf)


class _CountingModel(DualFaceLP):
    """The face's warm-started model, counting the LPs solved on it."""

    def __init__(self, *args):
        super().__init__(*args)
        self.calls = 0

    def minimize(self, c):
        self.calls += 1
        return super().minimize(c)


def _wide_face() -> Face:
    """The optimal ℓ∞ face of abssin:8 · position:0 at L0 = 8: 12-dimensional, its box computed."""
    gsel = select_in_geometry("abssin:8", "position:0", 8, Geometry.LINF, exact=False)
    assert gsel.face is not None and not gsel.face.point and gsel.face.directions.shape[1] == 12
    return gsel.face


def _block_sizes(monkeypatch: pytest.MonkeyPatch, entries: int, length: int) -> tuple[list[int], list[int], list[int]]:
    """Row counts of the blocks ``_face_rows`` builds at ``length`` for the 12-dimensional optimal ℓ∞ face of
    abssin:8 · position:0 at L0 = 8 with ``ROW_BLOCK_ENTRIES = entries``, and the every/some outcomes."""
    sizes: list[int] = []
    block = face_rows._Block

    class Recorded(block):  # type: ignore[misc, valid-type]
        def __init__(self, *args: object) -> None:
            sizes.append(int(np.asarray(args[3]).size))      # r: the block's rows
            super().__init__(*args)

    gsel = select_in_geometry("abssin:8", "position:0", 8, Geometry.LINF, exact=False)
    assert gsel.face is not None and not gsel.face.point and gsel.face.directions.shape[1] == 12
    with monkeypatch.context() as patch:
        patch.setattr(face_rows, "ROW_BLOCK_ENTRIES", entries)
        patch.setattr(face_rows, "_Block", Recorded)
        out = _face_rows(gsel, length, LP_TOL)
    return sizes, out.every.tolist(), out.some.tolist()


# ------------------------------------------------------------------------ the optimal face read off the dual
# Exists because a mutant survived: a face whose box has width 0 could be left a non-point.
def test_a_face_the_box_shows_to_be_a_point_is_a_point():
    """z = [(1, 0), (1, 1), (1, -1)]: θ* = (1, 0), t* = 1 (θ1 ≥ 1, and θ1 ± θ2 ≥ 1 with |θ| ≤ 1 force θ2 = 0).
    y = e_0 + e_{upper 0} is an optimal dual (a0 + (t - θ1 row) = (0, 0, 1) = c, bᵀy = 1) of rank 2 < 3, so
    the face read off its support has one direction (θ2); the box over it has width 0: a point."""
    lp = norm_programs.norm_program(np.array([[1.0, 0.0], [1.0, 1.0], [1.0, -1.0]]), norm_programs.Geometry.LINF)
    y = np.array([1.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0])     # rows: z (3), upper (2), lower (2)
    assert lp.A.T @ y == pytest.approx(lp.c) and float(lp.b @ y) == 1.0
    face = faces.optimal_face(lp, np.array([1.0, 0.0, 1.0]), y)
    assert face.directions.shape == (2, 1)
    assert face.point is True and face.dimension == 0


# Exists because a mutant survived: a face of more than 16 directions was never boxed later.
def test_a_wide_face_of_many_directions_keeps_its_box_for_later():
    """z = [e_1] in p = 20: θ1 = t = 1 and θ2..θ20 ∈ [-1, 1], a face of 19 > 16 directions, wide along
    any direction: the 2d box LPs are skipped (``boxed`` False), and ``ensure_box`` computes them later."""
    p = 20
    z = np.zeros((1, p))
    z[0, 0] = 1.0
    lp = norm_programs.norm_program(z, norm_programs.Geometry.LINF)
    x, y, value = norm_programs.solve_program(lp)
    assert value == pytest.approx(1.0)
    face = faces.optimal_face(lp, x, y)
    assert face.directions.shape == (p, p - 1)
    assert face.boxed is False and not face.point
    assert np.all(np.isinf(face.lo)) and np.all(np.isinf(face.hi))
    assert face.ensure_box() is True
    assert face.boxed and np.all(np.isfinite(face.lo)) and np.all(np.isfinite(face.hi))
    assert np.all(face.hi - face.lo > 1.0)


# Exists because a mutant survived: a face of more than 16 directions that is a point was never read off a dual.
def test_a_point_read_off_a_low_rank_dual_with_many_directions_is_a_point() -> None:
    """p = 20, Z = e_1 and e_1 ± e_j (j = 2..20): θ*_∞ = e_1 with t* = 1 is the only optimum (θ_1 ≤ t = 1 and
    θ_1 ± θ_j ≥ 1 force θ_j = 0).  The optimal dual y = (row e_1) + (row t - θ_1) has rank 2 in 21 variables, so
    the face read off it has 19 > 16 directions; the two LPs along one direction find no width, the box is
    computed (2 · 19 LPs) and has width 0: the face is a point (not a wide face with its box skipped)."""
    p = 20
    eye = np.eye(p)
    z = np.array([eye[0]] + [eye[0] + s * eye[j] for j in range(1, p) for s in (1.0, -1.0)])
    lp = norm_programs.norm_program(z, norm_programs.Geometry.LINF)
    m = z.shape[0]
    y = np.zeros(lp.A.shape[0])
    y[0] = y[m] = 1.0                                               # rows: z (m), then t - θ_1 ≥ 0
    x = np.concatenate([eye[0], [1.0]])
    assert lp.A.T @ y == pytest.approx(lp.c) and float(lp.b @ y) == 1.0 and np.all(lp.A @ x >= lp.b)
    face = faces.optimal_face(lp, x, y)
    assert face.directions.shape == (p, p - 1) and p - 1 > faces.SMALL_BOX_DIRECTIONS
    assert face.point is True and face.dimension == 0 and face.boxed
    assert face.lp_count == 2 * (p - 1)
    assert np.abs(face.hi - face.lo).max() <= LP_TOL


# Exists because a mutant survived: the empty data of an exact point face were unchecked.
def test_an_exact_point_face_has_no_rows():
    """A face proved a point in ℚ is θ₀ alone: no directions (p, 0), no rows (A_red (0, 0), r (0,)), an empty box."""
    lp = norm_programs.norm_program(np.array([[1.0]]), norm_programs.Geometry.LINF)
    face = faces.optimal_face(lp, np.array([1.0, 1.0]), np.array([1.0, 1.0, 0.0]), exact_point=True)
    assert face.theta0.tolist() == [1.0]
    assert face.directions.shape == (1, 0) and face.A_red.shape == (0, 0)
    assert isinstance(face.r, np.ndarray) and face.r.shape == (0,)
    assert face.lo.shape == face.hi.shape == (0,) and face.bounds == []
    assert face.point and face.exact_point and face.dimension == 0


# Exists because a mutant survived: optimal_face was never run with p = 0.
def test_optimal_face_with_no_theta_coordinates():
    """p = 0 (only the ℓ∞ bound t, min t s.t. t >= 0), no dual support: the face is {t = 0}, θ₀ is
    empty and the scale of an empty θ is 1 (max with initial=0)."""
    from posreal.theory.norm_programs import Geometry, LinearProgram
    from posreal.theory.faces import optimal_face

    lp = LinearProgram(Geometry.LINF, np.array([[1.0]]), np.array([0.0]), np.array([1.0]), 0)
    face = optimal_face(lp, np.array([0.0]), np.array([0.0]))
    assert face.theta0.shape == (0,) and face.directions.shape == (0, 1)


# Exists because a mutant survived: a dual value exactly at DUAL_TOL could enter the support.
def test_optimal_face_support_is_strictly_above_the_dual_tolerance() -> None:
    """min ‖θ‖∞ s.t. θ1 ≥ 1 (p = 2) has the optimal face {(1, s) : |s| ≤ 1}, a segment; a dual value
    exactly DUAL_TOL · max(1, max y) on the norm row t + θ2 ≥ 0 (slack there unless s = -1) is not above
    the threshold, so it is not in the support and the face stays the segment (``>=`` would put that row
    in the support, fix θ2 and make the face a point)."""
    lp = norm_program(np.array([[1.0, 0.0]]), Geometry.LINF)
    x, y, value = solve_program(lp)
    assert value == pytest.approx(1.0)
    row = 4                              # rows: θ1 ≥ 1, then t - θ1, t - θ2, t + θ1, t + θ2 ≥ 0
    assert lp.A[row].tolist() == [0.0, 1.0, 1.0] and y[row] == 0.0
    noisy = y.copy()
    noisy[row] = DUAL_TOL * max(1.0, float(y.max(initial=0.0)))
    for dual in (y, noisy):
        face = optimal_face(lp, x, dual)
        assert not face.point and face.directions.shape == (2, 1)
        assert np.abs(face.directions[:, 0]).tolist() == pytest.approx([0.0, 1.0])
        ends = sorted(float(face.theta0[1] + face.directions[1, 0] * w) for w in (face.lo[0], face.hi[0]))
        assert ends == pytest.approx([-1.0, 1.0])          # θ2 ranges over [-1, 1] on the face
        assert face.theta0[0] == pytest.approx(1.0)


# Exists because a mutant survived: a singular value exactly at NULL_TOL could count in the rank.
def test_a_singular_value_at_the_threshold_spans_a_face_direction():
    """Dual support rows [NULL_TOL, 0] and [0, 1]: singular values 1 and NULL_TOL (= NULL_TOL · max(1, 1)),
    which is not above the threshold, so the rank is 1 and θ (column 0) is free on the face; the two
    inactive rows ±θ ≥ -1 bound it to [-1, 1]."""
    tol = faces.NULL_TOL
    A = np.array([[tol, 0.0], [0.0, 1.0], [1.0, 0.0], [-1.0, 0.0]])
    lp = norm_programs.LinearProgram(norm_programs.Geometry.LINF, A, np.array([0.0, 0.0, -1.0, -1.0]), np.zeros(2), 1)
    face = faces.optimal_face(lp, np.zeros(2), np.array([1.0, 1.0, 0.0, 0.0]))
    assert face.directions.shape == (1, 1) and abs(face.directions[0, 0]) == pytest.approx(1.0)
    assert face.point is False
    assert sorted([float(face.lo[0] * face.directions[0, 0]), float(face.hi[0] * face.directions[0, 0])]) \
        == pytest.approx([-1.0, 1.0])


# Exists because a mutant survived: the rank threshold could be divided instead of multiplied by σ_max.
def test_the_rank_of_the_dual_support_is_relative_to_its_largest_singular_value() -> None:
    """With the threshold ``NULL_TOL / max(1, σ_max)`` the nearly dependent support rows (10, 0) and
    (10, 10⁻⁹) would count as rank 2 and the face would be a point."""
    A = np.array([[10.0, 0.0], [10.0, 1e-9], [0.0, 1.0], [0.0, -1.0]])   # (M, n) = (4, 2), p = 1
    sv = np.linalg.svd(A[:2], compute_uv=False)                   # the support: the first two rows
    assert NULL_TOL / sv[0] < sv[1] < NULL_TOL * sv[0]            # the case the two thresholds decide apart
    lp = LinearProgram(Geometry.LINF, A, np.array([1.0, 1.0, -1.0, -1.0]), np.array([10.0, 0.0]), 1)
    face = optimal_face(lp, np.array([0.1, 0.0]), np.array([1.0, 1.0, 0.0, 0.0]))
    assert face.directions.shape == (1, 1)                        # one direction: rank A_S = 1 numerically
    assert not face.point                                         # |x₂| ≤ 1 along it: a segment, not a point
    assert not face.exact_point


# --------------------------------------------------------------------------- the box and the rows it implies
# Exists because a mutant survived: _prune could keep rows that hold with equality at a box vertex.
def test_prune_drops_rows_that_hold_with_equality_on_the_box() -> None:
    """On the box [0, 1]², the rows w₁ ≥ 0, w₁ + w₂ ≥ 0 and -w₂ ≥ -1 hold on the whole box, each with
    equality at a vertex (least value = r); w₁ + w₂ ≥ 0.5 and w₂ ≥ 0.25 do not.  Only the last two are kept
    (the box, passed to HiGHS as bounds, already implies the others)."""
    A = np.array([[1.0, 0.0], [1.0, 1.0], [0.0, -1.0], [1.0, 1.0], [0.0, 1.0]])
    r = np.array([0.0, 0.0, -1.0, 0.5, 0.25])
    lo, hi = np.zeros(2), np.ones(2)
    implied = _vertex_minima(A, lo, hi) >= r            # holds at every vertex, hence on the whole box
    assert implied.tolist() == [True, True, True, False, False]
    kept_A, kept_r = _prune(A, r, lo, hi)
    assert kept_A.tolist() == A[~implied].tolist()
    assert kept_r.tolist() == r[~implied].tolist()


# Exists because a mutant survived: a skipped box without a solver was never computed from the face's rows.
def test_skipped_box_is_computed_from_the_face_rows():
    A, r, inf = _segment()
    face = Face(np.zeros(1), np.ones((1, 1)), A, r, -inf, inf, False, probes=np.zeros((0, 1)), boxed=False)
    assert face.solver is None
    assert face.ensure_box()
    assert face.lo[0] == pytest.approx(0.0) and face.hi[0] == pytest.approx(2.0) and face.boxed
    assert face.lp_count == 2                                          # min and max of the one coordinate


# Exists because a mutant survived: a skipped box could be computed off the face's warm-started model.
def test_skipped_box_is_computed_on_the_faces_warm_model():
    """F = {w : w ≥ -2, -w ≥ -3} (d = 1), box skipped (bounds infinite).  ``ensure_box`` solves its 2d = 2 LPs
    on ``face.solver`` (the model the rival LPs warm-start), giving lo = -2, hi = 3 (read off the two rows)."""
    A, r = np.array([[1.0], [-1.0]]), np.array([-2.0, -3.0])
    inf = np.full(1, np.inf)
    model = _CountingModel(A, r, -inf, inf)
    face = Face(np.zeros(1), np.ones((1, 1)), A, r, -inf, inf, False, probes=np.zeros((0, 1)), boxed=False,
                solver=model)
    assert face.ensure_box()
    assert model.calls == 2
    assert face.lp_count == 2 and face.boxed
    assert face.lo.tolist() == pytest.approx([-2.0]) and face.hi.tolist() == pytest.approx([3.0])


# --------------------------------------------------------------------------- blocks of rows over a face
# Exists because a mutant survived: a block could skip the first known point of the face.
def test_block_sees_the_first_known_point_of_the_face() -> None:
    """Known points w = 0.75 (first) and w = -0.5; the rival's margin is -0.5 + w, so 0.25 at the first
    point only.  The best row margin seen is 0.25 and the row is realized by some θ (and, from θ₀ and
    w = -0.5, lost by some); skipping the first point would show no positive margin."""
    probes = np.array([[0.75], [-0.5]])
    g0, slope = -0.5, 1.0
    margins = [g0] + [g0 + slope * float(w[0]) for w in probes]     # at θ₀ (w = 0), then at each point
    blk = _block(_segment_face(probes), [[0.0, g0]], [[[0.0], [slope]]], 1e-7)
    assert blk.best.tolist() == [max(margins)] == [0.25]
    assert blk.low[0, 1] == min(margins) and blk.high[0, 1] == max(margins)
    blk.refresh()
    assert blk.some.tolist() == [REALIZED] and blk.every.tolist() == [FAILED]


# Exists because a mutant survived: a block could miss the known points past the first 16.
def test_block_sees_every_known_point_of_the_face():
    """17 known points (more than one chunk of 16): w = 0 sixteen times, then w = 5.  The rival's margin is
    -1 + w: -1 at the first 16 points, 4 at the 17th, so the best margin seen is 4 and some θ realizes the row
    (while the points w = 0 show it lost by every θ)."""
    probes = np.vstack([np.zeros((16, 1)), [[5.0]]])
    blk = _block(_segment_face(probes), [[0.0, -1.0]], [[[0.0], [1.0]]], [1e-7])
    assert blk.best.tolist() == [4.0]
    blk.refresh()
    assert blk.some.tolist() == [REALIZED] and blk.every.tolist() == [FAILED]


def _rows_one_rival(face: Face, g0: float, slopes: list[float]) -> _Block:
    """One row per slope (rows 1, 2, ...: distinct cache keys), target key 0 and one rival, key 1, whose margin
    over the face is g0 + slope · w (d = 1), tolerance 1e-7; a general PE (rival keys (row, target, key))."""
    b = len(slopes)
    a = np.zeros((b, 2, 1))
    a[:, 1, 0] = slopes
    gsel = SimpleNamespace(pe=SimpleNamespace(kernel_form=None))
    return _Block(gsel, face, None, np.arange(1, b + 1), np.zeros(b, dtype=int), np.tile([0.0, g0], (b, 1)), a,
                  np.tile([False, True], (b, 1)), np.full(b, 1e-7), np.zeros(b, dtype=bool),
                  np.zeros(b, dtype=np.int8), np.zeros(b, dtype=np.int8))


def _decide_within(blk: _Block, monkeypatch: pytest.MonkeyPatch, rounds: int = 50) -> None:
    """``blk.decide()``, failing (instead of running on) if it looks at new points more than ``rounds`` times."""
    see, calls = blk.see, []

    def counted(points: np.ndarray) -> None:
        calls.append(len(points))
        assert len(calls) <= rounds, "decide() does not end"
        see(points)

    monkeypatch.setattr(blk, "see", counted)
    blk.decide()


# Exists because a mutant survived: the skipped box was computed later than once BOX_AFTER·d rivals needed an LP.
def test_a_skipped_box_is_computed_once_box_after_d_rivals_needed_an_lp(monkeypatch: pytest.MonkeyPatch) -> None:
    """F = [0, 2] (d = 1) with its box skipped; seven rows whose one rival margin is 1 + s w, s = 1..7: positive
    on F (least value 1 at w = 0), which an LP per rival proves (distinct slopes: no earlier dual bounds the next
    one through an infinite box).  The LP budget is 4: once BOX_AFTER·d = 4 rivals needed an LP and more than
    2d wait, the box (2 LPs, not charged to the budget) is computed and proves the other three on the box [0, 2].
    Computing it one LP later would find the budget spent: three rows left undecided."""
    A, r = np.array([[1.0], [-1.0]]), np.array([0.0, -2.0])
    inf = np.full(1, np.inf)
    face = Face(np.zeros(1), np.ones((1, 1)), A, r, -inf, inf, False, probes=np.zeros((0, 1)), boxed=False)
    face.lp_budget = 4
    assert face_rows.BOX_AFTER * 1 == 4
    blk = _rows_one_rival(face, 1.0, [1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0])
    _decide_within(blk, monkeypatch)
    assert blk.every.tolist() == [REALIZED] * 7
    assert face.boxed and face.lo.tolist() == pytest.approx([0.0]) and face.hi.tolist() == pytest.approx([2.0])
    assert face.lp_count == 4 + 2 == face.lp_budget                   # four rival LPs and the box's two


# Exists because a mutant survived: decide() on a face whose box is in place was never run past BOX_AFTER·d LPs.
def test_many_rivals_proved_by_lps_on_a_boxed_face_end_the_decision(monkeypatch: pytest.MonkeyPatch) -> None:
    """F = [0, 2] inside a looser box [-1, 3] (a box need only contain F); rival margins 0.5 + s w, s = 1..7, are
    at least 0.5 on F but negative at the box's end -1, so each rival needs its LP (no box bound, and no earlier
    dual bounds the next one: 0.5 - (s - s') < 0 on the box).  Past BOX_AFTER·d = 4 proved rivals the box is
    already there (``ensure_box`` computes nothing): the decision goes on with LPs and ends, every row realized."""
    A, r = np.array([[1.0], [-1.0]]), np.array([0.0, -2.0])
    face = Face(np.zeros(1), np.ones((1, 1)), A, r, np.array([-1.0]), np.array([3.0]), False,
                probes=np.zeros((0, 1)))
    face.lp_budget = 100
    blk = _rows_one_rival(face, 0.5, [1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0])
    assert not blk.box_bounds().any()                                 # the box proves no rival
    _decide_within(blk, monkeypatch)
    assert blk.every.tolist() == [REALIZED] * 7
    assert face.lp_count == 7                                          # one LP per rival, no box LP


# Exists because a mutant survived: box_bounds could refute rows with the least bound over all rows.
def test_box_refutes_each_row_from_its_own_rivals() -> None:
    """On the box w ∈ [-1, 1], row 0's rival margin -2 + 0.5 w is at most -1.5 (lost by every θ of F);
    row 1's rival margin 1 + 0.5 w is at least 0.5 (realized on the whole face).  Row 0 is refuted, row 1
    realized; the least upper bound over *all* rows would refute row 1 too."""
    g0, a = [[0.0, -2.0], [0.0, 1.0]], [[[0.0], [0.5]], [[0.0], [0.5]]]
    blk = _block(_segment_face(np.zeros((0, 1))), g0, a, 1e-7)
    assert blk.some.tolist() == [UNDECIDED, UNDECIDED]    # nothing decided before refresh / the box
    ends = (-1.0, 1.0)
    upper = [max(g0[n][1] + a[n][1][0] * w for w in ends) for n in range(2)]
    lower = [min(g0[n][1] + a[n][1][0] * w for w in ends) for n in range(2)]
    assert upper == [-1.5, 1.5] and lower == [-2.5, 0.5]
    proved = blk.box_bounds()
    assert blk.some.tolist() == [FAILED, REALIZED]
    assert blk.every.tolist() == [FAILED, UNDECIDED]
    assert proved.tolist() == [[False, False], [False, True]]     # only row 1's rival is positive on the box


# Exists because a mutant survived: a row lost on the whole box was never refuted.
def test_box_shows_a_row_lost_by_every_theta():
    """Rival margin -5 + w on the box w ∈ [-1, 1]: at most -4 < -tol, so no θ of F realizes the row."""
    blk = _block(_segment_face(np.zeros((0, 1))), [[0.0, -5.0]], [[[0.0], [1.0]]], [1e-7])
    assert blk.some.tolist() == [UNDECIDED]          # no known point decides it before the box
    proved = blk.box_bounds()
    assert not proved.any()                          # the box proves no rival positive: -5 - 1 < tol
    assert blk.some.tolist() == [FAILED] and blk.every.tolist() == [FAILED]


# Exists because a mutant survived: finish_some could refute a row whose dual bound is within the tolerance of 0.
@pytest.mark.parametrize("g0, some", [(-0.1, UNDECIDED), (-0.5, FAILED)])
def test_a_dual_bound_refutes_a_row_only_below_minus_the_tolerance(g0, some):
    """Rival margin g0 + 0.05 w on w ∈ [-1, 1], tolerance 0.2, no LP budget; one stored dual (μ = 0, A_red has no
    rows) bounds max_F of the margin by g0 + 0.05 through the box.  g0 = -0.1: the bound -0.05 lies within the
    tolerance of 0, which refutes nothing (the row stays undecided; comparing with +tolerance would call it lost);
    g0 = -0.5: the bound -0.45 < -0.2 refutes the row for every θ."""
    face = _segment_face(np.zeros((0, 1)))
    face.add_dual(np.zeros(0))
    blk = _block(face, [[0.0, g0]], [[[0.0], [0.05]]], [0.2])
    blk.finish_some()
    assert face.lp_count == 0                          # decided (or left) without an LP: the budget is 0
    assert blk.some.tolist() == [some]


# Exists because a mutant survived: a best margin exactly at the tolerance could count as realized.
def test_margin_equal_to_the_tolerance_is_undecided():
    """Row 0's best margin seen is exactly its tolerance 0.5 (within it: undecided, as ``_classify``
    decides an LP's value); row 1's is 0.625 > 0.5: realized.  No direction moves the margins (a = 0)."""
    blk = _block(_segment_face(np.zeros((0, 1))), [[0.0, 0.5], [0.0, 0.625]], np.zeros((2, 2, 1)), [0.5, 0.5])
    blk.refresh()
    assert blk.some.tolist() == [UNDECIDED, REALIZED]
    assert blk.every.tolist() == [UNDECIDED, UNDECIDED]


# Exists because a mutant survived: the training bound's radius for near training differences was unchecked.
def test_training_bound_is_sound_for_a_near_training_difference():
    """ℓ∞ geometry, one training difference z = (1/4, 0): θ*_∞ = (4, 0), value 4, and the optimal face is
    F = {(4, t) : |t| ≤ 4}.  A rival direction v = (1/4, 1e-12) rounds to z; on F, ⟨v, θ⟩ = 1 + 1e-12 t ≥
    1 - 4e-12.  The bound min(1, ⟨z, θ₀⟩) - ‖v - z‖₁ · radius must not exceed that minimum: radius ≥ 4."""
    features = {0: (0.25, 1e-12), 1: (0.0, 0.0)}          # ψ(i, key) of the one row used, keys 0 and 1
    pe = SimpleNamespace(index_features=lambda rows, keys, L0: np.array([features[int(k)] for k in keys]))
    sel = Selection(pe, None, 2, np.array([[0.25, 0.0]]), np.array([[1, 0, 1]]))
    gsel = GeometrySelection(Geometry.LINF, sel, np.array([4.0, 0.0]), value=4.0)
    bound = _TrainingBound(gsel).lower_bounds(np.array([1]), np.array([0]), np.array([1]))
    assert bound.shape == (1,) and np.isfinite(bound[0])           # v was matched to z
    assert bound[0] <= 1.0 - 4e-12                                 # sound: below the minimum over F
    assert bound[0] > 1.0 - 1e-9                                   # and still a useful bound


# ---------------------------------------------------------------- the rows of R_L over a face and at a point
# Exists because a mutant survived: _face_rows could leave training rivals to LPs instead of the training bound.
def test_face_rows_settle_training_rivals_without_lps():
    """With no LP budget, the rows of R_L0 are realized on the whole optimal face because every rival
    there is a training difference (margin >= 1 on the face), which the training bound proves; without it
    (training=None) such rows stay undecided."""
    from posreal.theory.norm_programs import Geometry
    from posreal.theory.face_rows import interval_outcomes
    from posreal.theory.faces import select_in_geometry
    from posreal.theory.realization import REALIZED

    gsel = select_in_geometry("abssin:8", "position:0", 8, Geometry.LINF, exact=False)
    assert gsel.face is not None and not gsel.face.point
    out = interval_outcomes(gsel, [8], max_lps=0)[8]
    assert out.every.tolist() == [REALIZED] * out.rows.size


# Exists because a mutant survived: _face_rows was never run on a face without directions.
def test_face_rows_on_a_point_face_agree_with_the_point() -> None:
    """With no face directions (d = 0) the rival directions are an empty (b, L, 0) array, and the face
    computation reduces to the margins at θ₀ itself, i.e. to ``_point_rows`` (abssin:4 · position:0 at
    L = 16: 13 rows realized, 3 lost)."""
    gsel: GeometrySelection = select_in_geometry("abssin:4", "position:0", 8, Geometry.LINF, exact=False)
    assert gsel.face is not None and gsel.face.point and gsel.face.directions.shape == (16, 0)
    face = _face_rows(gsel, 16, LP_TOL)
    point = _point_rows(gsel, 16, LP_TOL)
    assert face.every.tolist() == point.every.tolist() and face.some.tolist() == point.some.tolist()
    assert face.counts() == point.counts()
    assert 0 < face.counts()["realized"] < face.counts()["total"]       # both outcomes occur


# Exists because a mutant survived: a block could hold two rows when one row exceeds ROW_BLOCK_ENTRIES.
def test_face_rows_blocks_hold_one_row_when_one_row_exceeds_the_memory_bound(monkeypatch: pytest.MonkeyPatch) -> None:
    """A block holds ROW_BLOCK_ENTRIES // (L·d) rows, and at least one; when one row's L·d rival
    directions already exceed the bound, each block is a single row (``max(2, ·)`` would put two rows,
    twice the bound, in each).  The blocking changes only the order of work, never the outcomes: one row
    per block, blocks of three and a single block agree."""
    length = 8
    d = 12
    one, every1, some1 = _block_sizes(monkeypatch, 1, length)
    assert one == [1] * length
    three, every3, some3 = _block_sizes(monkeypatch, 3 * length * d, length)
    assert three == [3, 3, 2]
    whole, every, some = _block_sizes(monkeypatch, 2 ** 21, length)
    assert whole == [length]
    assert every1 == every3 == every and some1 == some3 == some


# Exists because a mutant survived: _point_rows was never given a row of margin 0 at a float θ.
def test_point_rows_leave_a_zero_margin_undecided():
    """alibi at θ = 0 gives every key the same logit, so each row's float margin is 0 (within
    tolerance) and no key ties structurally: undecided, not a crash."""
    from posreal.theory.pe_specs import parse_pe
    from posreal.theory.face_rows import _point_rows
    from posreal.theory.realization import UNDECIDED
    from posreal.theory.tasks import parse_task

    gsel = SimpleNamespace(pe=parse_pe("alibi"), task=parse_task("copy"), train_length=4, exact_theta=None,
                           face=None, theta=np.zeros(1))
    out = _point_rows(gsel, 4, 1e-9)  # type: ignore[arg-type]
    assert not out.ties.any()
    assert out.every.tolist() == [UNDECIDED] * out.rows.size


# Exists because a mutant survived: a max-min LP could reset the face's LP count.
def test_max_min_over_face_counts_every_lp() -> None:
    """Each max-min LP adds one to ``lp_count`` (the count the LP budget of ``interval_outcomes`` is
    checked against); ``= 1`` would reset it."""
    face = _wide_face()
    d = face.directions.shape[1]
    before = face.lp_count
    assert before > 0                                   # the box's LPs are already counted
    u = np.random.default_rng(1).normal(size=(2, d))
    for n in range(3):
        _max_min_over_face(face, np.zeros(2), u * (n + 1))
    assert face.lp_count == before + 3


# Exists because a mutant survived: Face.minimize could drop its minimizer or its dual.
def test_minimize_keeps_its_minimizer_and_dual() -> None:
    """After one LP the minimizer is the newest probe and its dual joins the pool, so the dual bound of
    the same direction is the LP's minimum (the pool was empty before: -inf)."""
    face = _wide_face()
    a = np.asarray(np.random.default_rng(2).normal(size=face.directions.shape[1]), dtype=float)
    assert face.dual_bounds(a[None, :])[0] == -np.inf
    probes, lps = face.probes.shape[0], face.lp_count
    value, w = face.minimize(a)
    assert w is not None and np.isfinite(value)
    assert face.lp_count == lps + 1
    assert face.probes.shape[0] == probes + 1 and face.probes[-1].tolist() == w.tolist()
    assert len(face.dual_rows) == len(face.dual_values) == 1
    assert float(face.dual_bounds(a[None, :])[0]) == pytest.approx(value, abs=1e-7)
    assert float(a @ w) == pytest.approx(value, abs=1e-9)


# ------------------------------------------------------ the warm-started face LPs and their linprog fallback
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
    A, r, inf = _segment()
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
    A, r, inf = _segment()
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
    A, r, inf = _segment()
    solver = DualFaceLP(A, r, -inf, inf)
    assert solver.model is not None
    value, w, _ = solver.minimize([-1.0])                              # max w over [0, 2]
    assert value == pytest.approx(-2.0) and w is not None and w[0] == pytest.approx(2.0)
    with pytest.raises(TypeError):
        solver.minimize([-1.0 + 1.0j])                                 # a complex cost is not a cost


# Exists because a mutant survived: the max-min LP's value and maximizer were never checked.
def test_max_min_over_face_returns_the_maximum_and_its_point() -> None:
    """The value is min_j (g0_j + a_jᵀ w) at the returned w, at most 1, and no known point of F (the face's
    probes) does better."""
    face = _wide_face()
    d = face.directions.shape[1]
    u = np.random.default_rng(1).normal(size=(2, d))
    g0 = np.array([0.25, -0.5])
    probes = face.probes.copy()
    value, w = _max_min_over_face(face, g0, u)
    assert w is not None and np.isfinite(value) and value <= 1.0
    assert value == pytest.approx(float((g0 + u @ w).min()), abs=1e-7)
    assert all(float((g0 + u @ p).min()) <= value + 1e-7 for p in probes)


# Exists because a mutant survived: the refusal of an α interval for an ℓ2 selection could lose its message.
def test_interval_outcomes_refuses_an_l2_selection_by_name() -> None:
    gsel = select_in_geometry("relbias", "offset:1", 8, Geometry.L2, exact=False)
    with pytest.raises(PosrealError) as err:
        interval_outcomes(gsel, [8])
    assert str(err.value) == "invalid selection for the α interval; accepted: a realizable linf or l1 selection"


# Exists because a mutant survived: the point test's scale floor of 1 (for a small θ) was unchecked.
def test_a_face_a_little_wider_than_lp_tol_is_not_a_point() -> None:
    """The face of the previous test cut to θ ∈ [-0.7 LP_TOL, 0.7 LP_TOL]: its width 1.4 LP_TOL exceeds
    LP_TOL · max(1, |θ₀|) = LP_TOL at θ₀ = 0, so it is a segment (a floor of 2 would call it a point)."""
    tol, half = faces.NULL_TOL, 0.7 * LP_TOL
    A = np.array([[tol, 0.0], [0.0, 1.0], [1.0, 0.0], [-1.0, 0.0]])
    lp = norm_programs.LinearProgram(norm_programs.Geometry.LINF, A, np.array([0.0, 0.0, -half, -half]),
                                     np.zeros(2), 1)
    face = faces.optimal_face(lp, np.zeros(2), np.array([1.0, 1.0, 0.0, 0.0]))
    assert face.directions.shape == (1, 1)
    assert float(face.hi[0] - face.lo[0]) == pytest.approx(2 * half, rel=1e-6)
    assert face.point is False


# ------------------------------------------------------------------ contracts of the face's parts, by brute force
def test_box_min_is_the_minimum_over_the_box_vertices() -> None:
    """box_min of random rows (zeros included) over a finite box equals the minimum over its 2^3 vertices."""
    rng = np.random.default_rng(11)
    A = np.round(rng.normal(size=(20, 3)), 1)
    A[::4, 1] = 0.0
    lo, hi = np.array([-1.0, 0.5, -3.0]), np.array([2.0, 0.5, -1.0])
    assert faces.box_min(A, lo, hi) == pytest.approx(_vertex_minima(A, lo, hi), abs=1e-12)
    assert faces.box_min(A[None, :, :], lo, hi).shape == (1, 20)


def test_box_min_with_infinite_bounds() -> None:
    """A zero coefficient on an infinite side contributes 0 (not NaN); a coefficient towards an infinite side
    gives -inf; a coefficient towards a finite side its product."""
    lo, hi = np.array([-np.inf, 0.0]), np.array([1.0, np.inf])
    out = faces.box_min(np.array([[0.0, 2.0], [-1.0, 0.0], [1.0, 0.0], [0.0, -1.0]]), lo, hi)
    assert out[0] == 0.0 and out[1] == -1.0 and out[2] == -np.inf and out[3] == -np.inf


def test_box_of_a_polytope_is_its_coordinate_extremes() -> None:
    """The box of {w1 >= -1, w2 >= -1, w1 + w2 <= 1, w1 - w2 <= 1.5} is [min, max] of each coordinate (linprog),
    its 2d probes are points of the polytope at those extremes, and 2d LPs are counted."""
    A = np.array([[1.0, 0.0], [0.0, 1.0], [-1.0, -1.0], [-1.0, 1.0]])
    r = np.array([-1.0, -1.0, -1.0, -1.5])
    lo, hi, probes, count = faces._box(A, r)
    for c in range(2):
        e = np.zeros(2)
        e[c] = 1.0
        low = linprog(e, A_ub=-A, b_ub=-r, bounds=[(None, None)] * 2, method="highs").fun
        high = -linprog(-e, A_ub=-A, b_ub=-r, bounds=[(None, None)] * 2, method="highs").fun
        assert lo[c] == pytest.approx(low, abs=1e-9) and hi[c] == pytest.approx(high, abs=1e-9)
        assert probes[2 * c, c] == pytest.approx(low, abs=1e-9)
        assert probes[2 * c + 1, c] == pytest.approx(high, abs=1e-9)
    assert lo.tolist() == pytest.approx([-1.0, -1.0]) and hi.tolist() == pytest.approx([1.25, 2.0])
    assert np.all(A @ probes.T >= r[:, None] - 1e-9)
    assert count == 4 and probes.shape == (4, 2)


def test_box_of_an_unbounded_polytope_is_refused() -> None:
    """A polytope unbounded along w1 has no box: HiGHS cannot bound it, said by name."""
    with pytest.raises(PosrealError, match="could not bound the optimal face"):
        faces._box(np.array([[1.0, 0.0], [0.0, 1.0], [0.0, -1.0]]), np.array([0.0, 0.0, -1.0]))


def test_prune_keeps_exactly_the_rows_the_box_does_not_imply() -> None:
    """On the box [0, 1]^2: w1 + w2 >= -0.5 and w1 >= 0 hold on the whole box (dropped), w1 + w2 >= 0.5 and
    w1 - w2 >= -0.5 do not (kept, in order)."""
    A = np.array([[1.0, 1.0], [1.0, 1.0], [1.0, 0.0], [1.0, -1.0]])
    r = np.array([-0.5, 0.5, 0.0, -0.5])
    A2, r2 = _prune(A, r, np.zeros(2), np.ones(2))
    assert A2.tolist() == [[1.0, 1.0], [1.0, -1.0]] and r2.tolist() == [0.5, -0.5]


def test_dual_bounds_are_sound_and_tight_for_the_optimal_dual() -> None:
    """After the LP of direction a on a triangle, the dual bound of a is its minimum; the bound of other
    directions never exceeds their minimum (weak duality), and the pool's best bound is taken."""
    A = np.array([[1.0, 0.0], [0.0, 1.0], [-1.0, -1.0]])
    r = np.array([-1.0, -1.0, -1.0])
    lo, hi, probes, count = faces._box(A, r)
    face = Face(np.zeros(2), np.eye(2), A, r, lo, hi, False, lp_count=count, probes=probes)
    rng = np.random.default_rng(5)
    dirs = rng.normal(size=(6, 2))
    minima = []
    for a in dirs:
        value, w = face.minimize(a)
        assert value == pytest.approx(linprog(a, A_ub=-A, b_ub=-r, bounds=[(None, None)] * 2, method="highs").fun,
                                      abs=1e-9)
        minima.append(value)
    assert face.lp_count == count + 6 and len(face.dual_rows) == 6
    bounds = face.dual_bounds(dirs)
    assert bounds == pytest.approx(minima, abs=1e-8)
    others = rng.normal(size=(20, 2))
    true = [linprog(a, A_ub=-A, b_ub=-r, bounds=[(None, None)] * 2, method="highs").fun for a in others]
    assert np.all(face.dual_bounds(others) <= np.array(true) + 1e-9)


def test_the_dual_pool_and_the_probes_keep_the_latest() -> None:
    """At most DUAL_POOL duals and MAX_PROBES probes are kept, the latest ones, in order."""
    face = _segment_face(np.zeros((0, 1)))
    for n in range(faces.DUAL_POOL + 3):
        face.A_red, face.r = np.array([[1.0]]), np.array([float(n)])
        face.add_dual(np.array([1.0]))
    assert len(face.dual_rows) == len(face.dual_values) == faces.DUAL_POOL
    assert face.dual_values[0] == 3.0 and face.dual_values[-1] == float(faces.DUAL_POOL + 2)
    for n in range(faces.MAX_PROBES + 2):
        face.add_probe(np.array([float(n)]))
    assert face.probes.shape == (faces.MAX_PROBES, 1)
    assert face.probes[0, 0] == 2.0 and face.probes[-1, 0] == float(faces.MAX_PROBES + 1)


def test_face_bounds_and_dimension() -> None:
    """bounds: None for an infinite side; dimension: the number of directions, 0 for a point."""
    face = Face(np.zeros(2), np.eye(2), np.zeros((0, 2)), np.zeros(0), np.array([-np.inf, 0.0]),
                np.array([1.0, np.inf]), False)
    assert face.bounds == [(None, 1.0), (0.0, None)] and face.dimension == 2
    face.point = True
    assert face.dimension == 0


def test_optimal_face_of_a_linf_program_with_a_segment_of_optima() -> None:
    """z = (1, 0): min ‖θ‖∞ s.t. θ1 >= 1 has optima {(1, t) : |t| <= 1}, a segment.  The face read off an
    optimal dual has one direction, its box spans the segment (width 2 along θ2), and w = 0 is θ₀."""
    lp = norm_program(np.array([[1.0, 0.0]]), Geometry.LINF)
    x, y, value = solve_program(lp)
    assert value == pytest.approx(1.0)
    face = optimal_face(lp, x, y)
    assert not face.point and face.dimension == 1 and face.directions.shape == (2, 1)
    ends = [face.theta0 + face.directions[:, 0] * t for t in (face.lo[0], face.hi[0])]
    assert sorted(float(e[1]) for e in ends) == pytest.approx([-1.0, 1.0], abs=1e-9)
    assert all(float(e[0]) == pytest.approx(1.0, abs=1e-9) for e in ends)
    assert face.probes.shape == (2, 1) and face.lp_count == 2


@pytest.mark.parametrize("point", [True, False, None])
def test_summary_of_a_linf_selection(point: bool | None) -> None:
    """The ``selected`` block: geometry, value, status, constraint count, exactness, the face's kind and
    dimension (None without a face), and the selection's reason when the geometry gives none."""
    sel = Selection(None, None, 4, np.ones((3, 2)), np.zeros((3, 3), dtype=int), reason="from l2")
    face = None if point is None else Face(np.zeros(2), np.eye(2), np.zeros((0, 2)), np.zeros(0), -np.ones(2),
                                           np.ones(2), point)
    gsel = GeometrySelection(Geometry.LINF, sel, np.zeros(2), value=2.5, face=face)
    out = gsel.summary()
    assert out == {"geometry": "linf", "value": 2.5, "status": sel.status, "constraints": 3, "exact": False,
                   "face": None if point is None else ("point" if point else "face"),
                   "face_dimension": None if point is None else (0 if point else 2), "reason": "from l2"}
    gsel.reason = "own"
    assert gsel.summary()["reason"] == "own"
    sel.reason = ""
    gsel.reason = ""
    assert gsel.summary()["reason"] is None


def test_ensure_box_on_a_2d_polytope_boxes_prunes_and_probes_once() -> None:
    """An unboxed triangle {w1 >= -1, w2 >= -1, w1 + w2 <= 1} plus a row implied by it (w1 >= -5): ensure_box
    gives the box [-1, 2]^2, drops the implied rows, adds the 4 vertices as probes, charges 4 LPs to the count
    and to the budget alike, forgets the old models; a second call does nothing."""
    A = np.array([[1.0, 0.0], [0.0, 1.0], [-1.0, -1.0], [1.0, 0.0]])
    r = np.array([-1.0, -1.0, -1.0, -5.0])
    inf = np.full(2, np.inf)
    face = Face(np.zeros(2), np.eye(2), A, r, -inf, inf, False, probes=np.zeros((0, 2)), boxed=False, lp_budget=7,
                lp_count=3)
    face.minimize(np.array([1.0, 1.0]))
    face.maxmin = FaceLP(A, r, -inf, inf)
    assert face.lp_count == 4 and face.solver is not None
    assert face.ensure_box() is True
    assert face.lo.tolist() == pytest.approx([-1.0, -1.0]) and face.hi.tolist() == pytest.approx([2.0, 2.0])
    assert face.A_red.tolist() == [[-1.0, -1.0]] and face.r.tolist() == [-1.0]
    assert face.lp_count == 8 and face.lp_budget == 11
    assert face.probes.shape == (5, 2) and face.solver is None and face.maxmin is None and face.boxed
    assert face.ensure_box() is False and face.lp_count == 8
    value, _ = face.minimize(np.array([1.0, 1.0]))
    assert value == pytest.approx(-2.0)
    empty = Face(np.zeros(2), np.zeros((2, 0)), np.zeros((0, 0)), np.zeros(0), np.zeros(0), np.zeros(0), True,
                 boxed=False)
    assert empty.ensure_box() is False and empty.lp_count == 0          # no direction: nothing to box


def test_optimal_face_of_an_l1_program_spans_the_segment_of_optima() -> None:
    """z = (1, 1): min ‖θ‖₁ s.t. θ1 + θ2 >= 1 has optima {(t, 1 - t) : 0 <= t <= 1}.  Every probe of the face
    maps to an optimum (‖θ‖₁ = 1, θ1 + θ2 = 1, θ >= 0), and the probes reach both ends (1, 0) and (0, 1)."""
    lp = norm_program(np.array([[1.0, 1.0]]), Geometry.L1)
    x, y, value = solve_program(lp)
    assert value == pytest.approx(1.0)
    face = optimal_face(lp, x, y)
    assert not face.point and face.dimension >= 1
    thetas = face.theta0[None, :] + face.probes @ face.directions.T          # (P, 2)
    assert np.abs(thetas).sum(axis=1) == pytest.approx(np.ones(len(thetas)), abs=1e-9)
    assert thetas.sum(axis=1) == pytest.approx(np.ones(len(thetas)), abs=1e-9)
    assert float(thetas[:, 0].min()) == pytest.approx(0.0, abs=1e-9)
    assert float(thetas[:, 0].max()) == pytest.approx(1.0, abs=1e-9)


# Exists because a mutant survived: the block size of a face without directions was unchecked.
def test_face_rows_blocks_of_a_face_without_directions_use_the_whole_memory_bound(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """With d = 0 a row takes L entries (its keys), so a block holds ROW_BLOCK_ENTRIES // L rows: 2 rows per
    block for a bound of 2L (16 rows at L = 16: 8 blocks), with the same outcomes as one block."""
    gsel = select_in_geometry("abssin:4", "position:0", 8, Geometry.LINF, exact=False)
    assert gsel.face is not None and gsel.face.directions.shape == (16, 0)
    sizes: list[int] = []

    class Recorded(face_rows._Block):  # type: ignore[misc, valid-type]
        def __init__(self, *args: object) -> None:
            sizes.append(int(np.asarray(args[3]).size))
            super().__init__(*args)

    whole = _face_rows(gsel, 16, LP_TOL)
    with monkeypatch.context() as patch:
        patch.setattr(face_rows, "ROW_BLOCK_ENTRIES", 2 * 16)
        patch.setattr(face_rows, "_Block", Recorded)
        out = _face_rows(gsel, 16, LP_TOL)
    assert sizes == [2] * 8
    assert out.every.tolist() == whole.every.tolist() and out.some.tolist() == whole.some.tolist()


# Exists because a mutant survived: a face without directions could carry no box at all.
@pytest.mark.parametrize("z", [[[1.0, 1.0], [1.0, -1.0]], [[1.0]]], ids=["two-rows", "one-row"])
def test_a_face_without_directions_has_an_empty_box(z: list[list[float]]) -> None:
    """When the dual's support has full rank the face is θ* alone: no direction, and a box of width 0 in
    every one of its 0 coordinates (``bounds`` is empty and ``box_min`` over it is 0)."""
    lp = norm_programs.norm_program(np.array(z), norm_programs.Geometry.LINF)
    x, y, _ = norm_programs.solve_program(lp)
    face = faces.optimal_face(lp, x, y)
    assert face.directions.shape == (len(z[0]), 0) and face.point
    assert face.lo.shape == (0,) and face.hi.shape == (0,)
    assert face.bounds == []
    assert float(faces.box_min(np.zeros(0), face.lo, face.hi)) == 0.0
