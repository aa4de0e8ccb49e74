"""The optimal face F_q of θ*_q for q ∈ {∞, 1}, and the selection of a cell in a geometry.

Main definitions and results (docs, Definitions page, definitions.md#geometry):

* :func:`select_in_geometry` (of a cell's specs) and :func:`in_geometry` (of its ℓ2 selection) — the
  :class:`GeometrySelection` of a cell in a geometry (:mod:`posreal.theory.geometry`): the optimal value, a
  representative optimal θ (the LP of :mod:`posreal.theory.norm_programs`), the status (that of the ℓ2
  selection: Zθ ≥ 1 is feasible or not whatever the norm, so realizability at L0 does not depend on q),
  and for rational PEs exact optimality data (:class:`posreal.theory.norm_programs.LPOptimality`);
* :class:`Face` — the optimal face F_q, in reduced coordinates θ = θ₀ + N w (see below), built by
  :func:`optimal_face`; it keeps a box [lo, hi] ⊇ F in w-coordinates, the points of F met so far
  (probes: the box vertices and LP optima), the duals of earlier LPs (weak-duality bounds,
  :meth:`Face.dual_bounds`) and its warm-started HiGHS model (:class:`posreal.theory.warm_lp.DualFaceLP`).

Why the face is {x : Ax ≥ b, A_S x = b_S} with S the support of any optimal dual y: by
complementary slackness an optimal x is exactly a feasible x with y_k (A_k x - b_k) = 0 for all k.
Its points therefore lie in x₀ + null(A_S), parametrized by w (orthonormal columns N).  If that
null space is {0} the face is a point (in exact mode: rank A_S = number of variables, in ℚ —
then α^lo = α^hi exactly).  The box takes 2d small LPs (:func:`_box`, for d ≤ :data:`MAX_BOX_DIRECTIONS`);
rows of A w ≥ r that hold on the whole box are dropped (:func:`_prune`), and a face whose box is
narrower than :data:`LP_TOL` is a point.  A box skipped for a large d (above :data:`SMALL_BOX_DIRECTIONS`
when two LPs show F is not a point, or above :data:`MAX_BOX_DIRECTIONS`) is computed later if many
rivals turn out to need an LP to be proved positive (:meth:`Face.ensure_box`, called by
:mod:`posreal.theory.face_rows`, which decides the rows of R_L over the face).

References: Mangasarian (1979) for uniqueness of LP solutions; Gunasekar, Lee, Soudry & Srebro
(ICML 2018), Zhang, Zou & Cao (NeurIPS 2024) and Baek, Song & Yun (2025) for why θ*_q.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from fractions import Fraction

import numpy as np
from posreal.theory.encodings import Encoding
from posreal.theory.modes import Mode
from posreal.theory.pe_specs import parse_pe
from posreal.theory.errors import PosrealError
from posreal.theory.geometry import Geometry, Program, SelectionGeometry
from posreal.theory.norm_programs import (
    DUAL_TOL,
    ExactProgram,
    LinearProgram,
    LPOptimality,
    _solve_linf,
    exact_lp_optimality,
    exact_norm_program,
    norm_program,
    solve_program,
)
from posreal.theory.rational import rank
from posreal.theory.selection import Selection, select
from posreal.theory.tasks import Task, parse_task
from posreal.theory.warm_lp import LP_TOL, DualFaceLP, FaceLP

NULL_TOL = 1e-9         # singular values below this (relative) span the face's directions
MAX_BOX_DIRECTIONS = 64  # faces of higher dimension get no bounding box (its 2d LPs would cost more than they save)
SMALL_BOX_DIRECTIONS = 16  # ... and above this dimension only when two LPs along one direction cannot show F wider than
#                            a point (the box's other use); see optimal_face
DUAL_POOL = 64          # how many earlier LP duals are reused as bounds
MAX_PROBES = 128        # points of the face kept as cheap witnesses (box vertices, then the latest LP optima)


# --------------------------------------------------------------------------- the optimal face
@dataclass
class Face:
    """F_q = {θ₀ + N w : A_red w ≥ r} in reduced coordinates, with a box [lo, hi] ⊇ F in w."""

    theta0: np.ndarray        # (p,)
    directions: np.ndarray    # (p, d) N_θ (the θ-rows of an orthonormal basis of null(A_S))
    A_red: np.ndarray         # (M', d)
    r: np.ndarray             # (M',)
    lo: np.ndarray            # (d,)
    hi: np.ndarray            # (d,)
    point: bool               # the face is one point (float test or exact rank)
    exact_point: bool = False  # ... proved in ℚ: the dual support has rank = number of variables
    lp_count: int = 0         # LPs solved so far for this face (box and rows)
    cache: dict = field(default_factory=dict)   # rival key -> min over F of its margin direction
    probes: np.ndarray = field(default_factory=lambda: np.zeros((0, 0)))   # (P, d) points of F (LP vertices)
    dual_rows: list = field(default_factory=list)     # A_redᵀμ (d,) of earlier rival LPs' optimal duals μ ≥ 0
    dual_values: list = field(default_factory=list)   # μᵀr of the same duals
    solver: DualFaceLP | None = field(default=None, repr=False)   # the warm-started model of F (first use)
    maxmin: FaceLP | None = field(default=None, repr=False)   # F × {s ≤ 1} in (w, s), for max-min LPs (first use)
    boxed: bool = True        # lo, hi come from LPs (False: infinite for now, see ensure_box)
    lp_budget: int = 0         # lp_count at which the current interval computation stops solving LPs

    def ensure_box(self) -> bool:
        """Compute the box now if it was skipped (2d warm-started LPs, not charged to the LP budget); True
        if it was computed by this call.  The box vertices become probes and the rows the box implies are
        dropped, as in :func:`optimal_face`."""
        if self.boxed or not self.directions.shape[1]:
            return False
        lo, hi, probes, count = _box(self.A_red, self.r, self.solver)
        self.lp_count += count
        self.lp_budget += count
        self.A_red, self.r = _prune(self.A_red, self.r, lo, hi)
        self.lo, self.hi, self.solver, self.maxmin, self.boxed = lo, hi, None, None, True
        for w in probes:
            self.add_probe(w)
        return True

    def add_dual(self, mu: np.ndarray) -> None:
        self.dual_rows.append(mu @ self.A_red)                          # (d,)
        self.dual_values.append(float(mu @ self.r))
        del self.dual_rows[:-DUAL_POOL], self.dual_values[:-DUAL_POOL]

    def add_probe(self, w: np.ndarray) -> None:
        self.probes = np.vstack([self.probes.reshape(-1, w.size), w[None, :]])[-MAX_PROBES:]

    def dual_bounds(self, a: np.ndarray) -> np.ndarray:
        """Lower bounds on min over F of aᵀw for each row of a (k, d), by weak duality with every stored
        μ ≥ 0:  aᵀw = μᵀA_red w + (a - A_redᵀμ)ᵀw ≥ μᵀr + min over the box of (a - A_redᵀμ)ᵀw."""
        if not self.dual_rows:
            return np.full(a.shape[0], -np.inf)
        reduced = a[:, None, :] - np.array(self.dual_rows)[None, :, :]  # (k, Q, d)
        box = box_min(reduced, self.lo, self.hi)                        # (k, Q)
        return (box + np.array(self.dual_values)[None, :]).max(axis=1)  # (k,)

    def minimize(self, a: np.ndarray) -> tuple[float, np.ndarray | None]:
        """min over F of aᵀw (one warm-started LP, counted): the value (NaN without an optimum) and a
        minimizer, which is kept as a probe; its dual joins the pool of bounds."""
        if self.solver is None:
            self.solver = DualFaceLP(self.A_red, self.r, self.lo, self.hi)
        value, w, mu = self.solver.minimize(a)
        self.lp_count += 1
        if w is not None and mu is not None:
            self.add_probe(w)
            self.add_dual(mu)
        return value, w

    @property
    def bounds(self) -> list[tuple[float | None, float | None]]:
        return [(None if not np.isfinite(a) else a, None if not np.isfinite(b) else b)
                for a, b in zip(self.lo.tolist(), self.hi.tolist())]

    @property
    def dimension(self) -> int:
        return 0 if self.point else int(self.directions.shape[1])


def box_min(a: np.ndarray, lo: np.ndarray, hi: np.ndarray) -> np.ndarray:
    """min over the box [lo, hi] of aᵀw along the last axis (infinite bounds allowed; a zero
    coefficient contributes 0): (..., d) -> (...)."""
    with np.errstate(invalid="ignore"):
        terms = np.where(a > 0, a * lo, np.where(a < 0, a * hi, 0.0))
    return terms.sum(axis=-1)


def _box(A_red: np.ndarray, r: np.ndarray, solver: DualFaceLP | None = None) -> tuple[np.ndarray, np.ndarray,
                                                                                np.ndarray, int]:
    """min and max of each w_c over {A_red w ≥ r}: lo (d,), hi (d,), the 2d optimal points
    (vertices of the face, used as probes) (2d, d), and the number of LPs solved (one warm-started model:
    ``solver``, a model of the same polytope without column bounds, or a new one)."""
    d = A_red.shape[1]
    lo, hi = np.zeros(d), np.zeros(d)
    probes = np.zeros((2 * d, d))
    inf = np.full(d, np.inf)
    solver = solver or DualFaceLP(A_red, r, -inf, inf)
    for c in range(d):
        for n, (sign, out) in enumerate(((1.0, lo), (-1.0, hi))):
            obj = np.zeros(d)
            obj[c] = sign
            _, w, _ = solver.minimize(obj)
            if w is None:
                raise PosrealError("HiGHS could not bound the optimal face")
            out[c] = w[c]
            probes[2 * c + n] = w
    return lo, hi, probes, 2 * d


def _prune(A_red: np.ndarray, r: np.ndarray, lo: np.ndarray, hi: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Drop the rows of A_red w ≥ r that hold on the whole box [lo, hi] (the box is then passed to
    HiGHS as variable bounds, so the polytope is unchanged): (M', d) -> (M'', d)."""
    worst = box_min(A_red, lo, hi)                                 # (M',) min over the box
    keep = worst < r
    return A_red[keep], r[keep]


def optimal_face(lp: LinearProgram, x: np.ndarray, y: np.ndarray, exact_point: bool = False) -> Face:
    """The optimal face through x, from the dual support of y (see the module docstring)."""
    p, n = lp.p, lp.A.shape[1]
    if exact_point:
        return Face(x[:p].copy(), np.zeros((p, 0)), np.zeros((0, 0)), np.zeros(0), np.zeros(0), np.zeros(0), True,
                    exact_point=True)
    support = y > DUAL_TOL * max(1.0, float(y.max(initial=0.0)))
    A_S = lp.A[support]                                            # (|S|, n)
    if A_S.shape[0]:
        _, sv, vt = np.linalg.svd(A_S, full_matrices=True)
        rank_s = int(np.sum(sv > NULL_TOL * max(1.0, float(sv.max(initial=0.0)))))
        N = vt[rank_s:].T                                          # (n, d)
    else:
        N = np.eye(n)
    if N.shape[1] == 0:
        return Face(x[:p].copy(), np.zeros((p, 0)), np.zeros((0, 0)), np.zeros(0), np.zeros(0), np.zeros(0), True)
    A_red = lp.A @ N                                               # (M, d)
    r = np.minimum(lp.b - lp.A @ x, 0.0)                           # (M,) w = 0 (x itself) is feasible
    # the objective may not grow along the face (it is constant there up to rounding)
    A_red = np.vstack([A_red, -(lp.c @ N)[None, :]])               # (M+1, d)
    r = np.concatenate([r, [0.0]])
    keep = np.abs(A_red).max(axis=1) > NULL_TOL
    A_red, r = A_red[keep], r[keep]
    d = A_red.shape[1]
    inf = np.full(d, np.inf)
    scale = max(1.0, float(np.abs(x[:p]).max(initial=0.0)))
    if d > MAX_BOX_DIRECTIONS:            # no box for now: bounds are infinite, θ₀ is the only probe
        return Face(x[:p].copy(), N[:p], A_red, r, -inf, inf, False, probes=np.zeros((0, d)), boxed=False)
    if d > SMALL_BOX_DIRECTIONS:
        # one direction u first: if F is wider than √d LP_TOL along u, some coordinate of the box is wider
        # than LP_TOL, so the box would not call F a point either; its 2d LPs are then skipped (bounds infinite)
        solver = DualFaceLP(A_red, r, -inf, inf)
        u = np.random.default_rng(0).normal(size=d)
        u /= np.linalg.norm(u)
        low, w_low, _ = solver.minimize(u)
        high, w_high, _ = solver.minimize(-u)
        if w_low is not None and w_high is not None and -high - low > np.sqrt(d) * LP_TOL * scale:
            return Face(x[:p].copy(), N[:p], A_red, r, -inf, inf, False, lp_count=2,
                        probes=np.vstack([w_low, w_high]), solver=solver, boxed=False)
    lo, hi, probes, count = _box(A_red, r)
    width = float(np.max(hi - lo, initial=0.0))
    point = width <= LP_TOL * scale
    A_red, r = _prune(A_red, r, lo, hi)
    return Face(x[:p].copy(), N[:p], A_red, r, lo, hi, point, lp_count=count, probes=probes)


# --------------------------------------------------------------------------- the selection
@dataclass
class GeometrySelection:
    """θ*_q of one cell.  For ℓ2 it wraps :func:`posreal.theory.selection.select` (θ* unchanged).
    ``geometry`` is the name; the object (:meth:`~posreal.theory.geometry.SelectionGeometry.parse`) knows the rest."""

    geometry: Geometry
    selection: Selection                       # the ℓ2 selection: status, Z, pairs
    theta: np.ndarray | None                   # (p,) a representative optimal θ
    value: float | None = None                 # ‖θ*_q‖_q, the LP optimum (ℓ2: ‖θ*‖₂)
    exact_theta: list[Fraction] | None = None  # (p,) in ℚ when certified
    optimality: LPOptimality | None = None    # verified exact LP optimality data (rational PEs)
    program: ExactProgram | None = None        # the exact LP the optimality data are for
    face: Face | None = None                   # the optimal face (ℓ∞, ℓ1)
    reason: str = ""

    @property
    def pe(self) -> Encoding:
        return self.selection.pe

    @property
    def task(self) -> Task:
        return self.selection.task

    @property
    def train_length(self) -> int:
        return self.selection.train_length

    @property
    def realizable(self) -> bool:
        """Whether Zθ ≥ 1 is feasible: the same for every norm (the ℓ2 selection decides it)."""
        return self.selection.realizable

    @property
    def status(self) -> str:
        return self.selection.status

    @property
    def exact(self) -> bool:
        return self.optimality is not None

    @property
    def point(self) -> bool:
        """Whether the optimal set is one point (ℓ2's θ*, or a face that is a point)."""
        return self.face is None or self.face.point

    def summary(self) -> dict:
        """The ``selected`` block of the JSON document, in the geometry's shape."""
        return SelectionGeometry.parse(self.geometry).selected_summary(self)


def select_in_geometry(pe, task, train_length: int = 16, geometry: str | Geometry | SelectionGeometry = Geometry.L2,
                       mode: Mode | str | None = None) -> GeometrySelection:
    """θ*_q for a cell given by specs or objects.  ``mode`` ``exact`` (the default for a rational PE) certifies in
    ℚ (the public form; a computation that has its arithmetic and ℓ2 selection already calls :func:`in_geometry`)."""
    rule = SelectionGeometry.parse(geometry)
    pe, task = parse_pe(pe), parse_task(task)
    return in_geometry(select(pe, task, train_length, mode=mode, complete=rule.complete), rule)


def in_geometry(sel: Selection, geometry: SelectionGeometry) -> GeometrySelection:
    """θ*_q of the cell of the ℓ2 selection ``sel``, from its training differences Z (realizability at L0 is
    the same in every geometry); certified in ℚ where ``sel`` has exact constraints.  The geometry's program
    decides how: :data:`_PROGRAMS`."""
    if not sel.realizable:
        return GeometrySelection(geometry.name, sel, None)
    return _PROGRAMS[geometry.program](sel, geometry)


def _quadratic(sel: Selection, geometry: SelectionGeometry) -> GeometrySelection:
    """θ* itself: the quadratic program's optimum is one point."""
    return GeometrySelection(geometry.name, sel, sel.theta, sel.norm, sel.exact_theta)


def _linear(sel: Selection, geometry: SelectionGeometry) -> GeometrySelection:
    """θ*_q of a linear program: its optimum, optimal face and (exact constraints) its optimality data in ℚ."""
    out = GeometrySelection(geometry.name, sel, None)
    p = sel.constraints.shape[1]
    if sel.constraints.shape[0] == 0 or p == 0:        # no constraint: θ = 0 is optimal and unique
        out.theta, out.value = np.zeros(p), 0.0
        out.face = Face(np.zeros(p), np.zeros((p, 0)), np.zeros((0, 0)), np.zeros(0), np.zeros(0), np.zeros(0), True,
                        exact_point=sel.exact_constraints is not None)
        if sel.exact_constraints is not None:
            out.exact_theta = [Fraction(0)] * p
        return out
    lp = norm_program(sel.constraints, geometry)
    x = y = value = None
    if geometry.bounded_form and sel.theta is not None and sel.exact_constraints is None:
        # the bounded form first (4-10x faster, see _solve_linf).  Its optimal face is the LP's own when the face
        # is a point, or when the dual support does not move between HiGHS' default tolerances and 1e-10 (then
        # the face read off it is stable).  Where the support moves (abssin:16·middle at L0 = 16: 37- to
        # 41-dimensional faces, duals of 1e-9 relative) the direct solve of the LP decides, as before.
        # Representative θ*_∞ on a face that is not a point: the vertex HiGHS' dual simplex (no presolve) ends
        # at on the bounded form, mapped back; on the direct solve's fallback, the vertex of linprog's HiGHS.
        # Both are solver choices, not a canonical point of the face (the α interval does not depend on it).
        solved = _solve_linf(lp, float(np.abs(sel.theta).max(initial=0.0)))
        if solved is not None and (solved[3] or optimal_face(lp, solved[0], solved[1]).point):
            x, y, value = solved[:3]
    if x is None or y is None:
        x, y, value = solve_program(lp)
    out.theta, out.value = x[:p].copy(), value
    exact_point = False
    if sel.exact_constraints is not None:
        program = exact_norm_program(sel.exact_constraints, p, geometry)
        cert = exact_lp_optimality(program, lp, x, y)
        if cert is not None:
            out.optimality, out.program = cert, program
            out.exact_theta = cert.primal[:p]
            out.theta, out.value = np.array([float(v) for v in out.exact_theta]), float(cert.value)
            x = np.array([float(v) for v in cert.primal])
            y = np.zeros(lp.A.shape[0])
            for k, v in cert.dual.items():
                y[k] = float(v)
            exact_point = rank([program.A[k] for k in cert.dual], lp.A.shape[1]) == lp.A.shape[1]
        else:
            out.reason = "exact LP certificate not found (float answer)"
    out.face = optimal_face(lp, x, y, exact_point)
    return out


_PROGRAMS: dict[Program, Callable[[Selection, SelectionGeometry], GeometrySelection]] = {
    Program.QUADRATIC: _quadratic, Program.LINEAR: _linear}
"""How each kind of selection program gives θ*_q (the geometry says which it is)."""
