"""The optimal face F_q (posreal.theory.faces): read off a dual solution (its support and rank thresholds),
its box and the rows the box implies, its dual bounds and probes, and the summary of a selection."""

from __future__ import annotations

import numpy as np
import pytest
from posreal.theory import faces, norm_programs
from posreal.theory.errors import PosrealError
from posreal.theory.norm_programs import DUAL_TOL, Geometry, LinearProgram, norm_program, solve_program
from posreal.theory.warm_lp import FaceLP, LP_TOL
from posreal.theory.faces import Face, GeometrySelection, NULL_TOL, _prune, optimal_face
from posreal.theory.selection import Selection
from scipy.optimize import linprog
from face_cases import CountingModel, segment, segment_face, vertex_minima, wide_face


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


# Exists because a mutant survived: _prune could keep rows that hold with equality at a box vertex.
def test_prune_drops_rows_that_hold_with_equality_on_the_box() -> None:
    """On the box [0, 1]², the rows w₁ ≥ 0, w₁ + w₂ ≥ 0 and -w₂ ≥ -1 hold on the whole box, each with
    equality at a vertex (least value = r); w₁ + w₂ ≥ 0.5 and w₂ ≥ 0.25 do not.  Only the last two are kept
    (the box, passed to HiGHS as bounds, already implies the others)."""
    A = np.array([[1.0, 0.0], [1.0, 1.0], [0.0, -1.0], [1.0, 1.0], [0.0, 1.0]])
    r = np.array([0.0, 0.0, -1.0, 0.5, 0.25])
    lo, hi = np.zeros(2), np.ones(2)
    implied = vertex_minima(A, lo, hi) >= r            # holds at every vertex, hence on the whole box
    assert implied.tolist() == [True, True, True, False, False]
    kept_A, kept_r = _prune(A, r, lo, hi)
    assert kept_A.tolist() == A[~implied].tolist()
    assert kept_r.tolist() == r[~implied].tolist()


# Exists because a mutant survived: a skipped box without a solver was never computed from the face's rows.
def test_skipped_box_is_computed_from_the_face_rows():
    A, r, inf = segment()
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
    model = CountingModel(A, r, -inf, inf)
    face = Face(np.zeros(1), np.ones((1, 1)), A, r, -inf, inf, False, probes=np.zeros((0, 1)), boxed=False,
                solver=model)
    assert face.ensure_box()
    assert model.calls == 2
    assert face.lp_count == 2 and face.boxed
    assert face.lo.tolist() == pytest.approx([-2.0]) and face.hi.tolist() == pytest.approx([3.0])


# Exists because a mutant survived: Face.minimize could drop its minimizer or its dual.
def test_minimize_keeps_its_minimizer_and_dual() -> None:
    """After one LP the minimizer is the newest probe and its dual joins the pool, so the dual bound of
    the same direction is the LP's minimum (the pool was empty before: -inf)."""
    face = wide_face()
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


def test_box_min_is_the_minimum_over_the_box_vertices() -> None:
    """box_min of random rows (zeros included) over a finite box equals the minimum over its 2^3 vertices."""
    rng = np.random.default_rng(11)
    A = np.round(rng.normal(size=(20, 3)), 1)
    A[::4, 1] = 0.0
    lo, hi = np.array([-1.0, 0.5, -3.0]), np.array([2.0, 0.5, -1.0])
    assert faces.box_min(A, lo, hi) == pytest.approx(vertex_minima(A, lo, hi), abs=1e-12)
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
    face = segment_face(np.zeros((0, 1)))
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


# Exists because a mutant survived: the ℓ2 selection's value ‖θ*‖₂ was never read.
def test_the_l2_selection_is_theta_star_with_its_euclidean_norm():
    """relbias:2 · offset:1 at L0 = 4: the training differences are z = (-1, 1, 0), (0, 1, -1).  By hand:
    min ‖θ‖₂ subject to θ1 - θ0 ≥ 1, θ1 - θ2 ≥ 1 is symmetric in θ0 ↔ θ2, so θ = (-a, 1 - a, -a) with both
    constraints tight; 2a² + (1 - a)² is least at a = 1/3: θ* = (-1/3, 2/3, -1/3), ‖θ*‖₂ = √(6/9) = √6 / 3."""
    from fractions import Fraction

    from posreal.theory.faces import select_in_geometry

    gsel = select_in_geometry("relbias:2", "offset:1", 4, faces.Geometry.L2)
    assert gsel.selection.constraints.tolist() == [[-1.0, 1.0, 0.0], [0.0, 1.0, -1.0]]
    assert gsel.exact_theta == [Fraction(-1, 3), Fraction(2, 3), Fraction(-1, 3)]
    assert gsel.theta.tolist() == pytest.approx([-1 / 3, 2 / 3, -1 / 3])
    assert gsel.value == pytest.approx(np.sqrt(6.0) / 3.0)
    assert gsel.face is None
