"""Selection in another geometry: θ*_q = argmin ‖θ‖_q subject to Zθ ≥ 1, for q ∈ {2, ∞, 1}.

Main definitions and results (docs, Definitions page, ``#geometry``):

* :class:`Geometry` (``l2``, ``linf``, ``l1``) and :func:`parse_geometry`;
* :func:`norm_program` — for q ∈ {∞, 1} the selection is the linear program
  ``min cᵀx s.t. A x ≥ b`` (x free) with dual ``max bᵀy s.t. Aᵀy = c, y ≥ 0``:
  ℓ∞: x = (θ, t), rows Zθ ≥ 1, t - θ_c ≥ 0, t + θ_c ≥ 0, objective t;
  ℓ1: x = (θ, s), rows Zθ ≥ 1, s_c - θ_c ≥ 0, s_c + θ_c ≥ 0, objective Σ s_c;
  solved with HiGHS (scipy ``linprog(method="highs")``), Z the training differences of
  :mod:`posreal.theory.selection`.  In float mode θ*_∞ is first solved in its bounded form
  (max s s.t. Zφ ≥ s, |φ_c| ≤ B; :func:`_solve_linf`, 4-10x faster), whose answer is kept when the
  optimal face is a point or its dual support is the same at HiGHS' default tolerances and at 1e-10;
  otherwise, and in exact mode, the LP above is solved directly.  On a face that is not a point the
  representative θ is the vertex the solver used ends at (not a canonical point of the face: the
  α interval does not depend on it, the experiment's witness cosines do);
* :func:`select_in_geometry` — the :class:`GeometrySelection` of a cell: the optimal value, a
  representative optimal θ, the status (that of the ℓ2 selection: Zθ ≥ 1 is feasible or not
  whatever the norm, so realizability at L0 does not depend on q), and for rational PEs an exact
  certificate (:class:`LPCertificate`, checked by :func:`verify_lp_exact`: primal and dual
  feasibility, equal objective values, complementary slackness, all in ℚ);
* :class:`Face` — the optimal face F_q, in reduced coordinates θ = θ₀ + N w (see below), and
  :func:`interval_outcomes`: for every row of R_L whether *every* θ ∈ F_q realizes it and whether
  *some* θ ∈ F_q does (per row: "some" is the union over rows, not one θ for all rows at once).

Why the face is {x : Ax ≥ b, A_S x = b_S} with S the support of any optimal dual y: by
complementary slackness an optimal x is exactly a feasible x with y_k (A_k x - b_k) = 0 for all k.
Its points therefore lie in x₀ + null(A_S), parametrized by w (orthonormal columns N).  If that
null space is {0} the face is a point (in exact mode: rank A_S = number of variables, in ℚ —
then α^lo = α^hi exactly).  Otherwise, for a row i with rivals j the margin of θ₀ + N w on
rival j is affine in w: g_j(w) = g_j(0) + a_jᵀ w.
  - every θ ∈ F realizes row i  iff  for each rival j, min over F of g_j > 0
    (a row's realizing set is an intersection of open half-spaces, hence convex: checking
    each rival separately is exact);
  - some θ ∈ F realizes row i  iff  max over F of min_j g_j > 0 (one LP in (w, s)).
Cheap arguments decide most rows and rivals without an LP (:class:`_Block`): points of F already
known — θ₀, the box vertices and the optimum of every LP solved so far — (a row realized at one is
realized by some θ, a row lost at one is not realized by every θ); a box [lo, hi] ⊇ F in
w-coordinates (2d small LPs, for d ≤ :data:`MAX_BOX_DIRECTIONS`), which gives
g_j(w) ≥ g_j(0) + Σ_c min(a_jc lo_c, a_jc hi_c) and the matching upper bound; rivals whose
direction is a training difference z_k (margin ≥ 1 on F up to ‖v - z_k‖_q* ‖θ‖_q, see
:class:`_TrainingBound`); and the duals of earlier LPs.  The remaining (row, rival) LPs are solved
on one HiGHS model of F whose objective alone changes (:class:`DualFaceLP`: the LP dual, re-solved
warm by dual simplex; the max-min LPs use the primal model :class:`FaceLP`), the rival closest to
losing at the known points first, so that a row that some optimal θ loses is usually refuted by
its first LP and that LP's optimum refutes other rows.  For "some", a rival whose margin is
negative on the whole of F (its maximum: one warm LP) refutes the row before the row's own max-min
LP is tried.  A box skipped for a large d (above :data:`SMALL_BOX_DIRECTIONS`
when two LPs show F is not a point, or above :data:`MAX_BOX_DIRECTIONS`) is computed later if many
rivals turn out to need an LP to be proved positive (:meth:`Face.ensure_box`).
Rows whose extreme margin over the face lies within :data:`LP_TOL` (HiGHS's default
feasibility tolerance) of 0 are *undecided*, never silently counted; so are the rows left when
the LP budget :data:`MAX_FACE_LPS` is spent.  The reported α^lo and α^hi count only rows *proved*
realized by every / by some optimal θ: with u undecided rows out of |R_L| the true values lie in
[α^lo, α^lo + u/|R_L|] and [α^hi, α^hi + u/|R_L|].

References: Gunasekar, Lee, Soudry & Srebro (ICML 2018) for steepest descent in a norm;
Zhang, Zou & Cao (NeurIPS 2024) and Baek, Song & Yun (2025) for Adam and Signum (ℓ∞);
Mangasarian (1979) for uniqueness of LP solutions.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from fractions import Fraction

import numpy as np
from posreal.theory.encodings import Encoding, is_profile
from posreal.theory.pe_specs import parse_pe
from posreal.theory.errors import PosrealError, SpecError
from posreal.theory.arithmetic import Mode
from posreal.theory.transfer import exact_transfer, transfer
from posreal.theory.rational import integer_form, pivot_rows, rank, solve
from posreal.theory.realization import (FAILED, REALIZED, UNDECIDED, classify_exact, exact_margins, float_margins,
                                        structural_ties)
from posreal.theory.kernels import target_keys
from posreal.theory.selection import Selection, select
from posreal.theory.tasks import Task, parse_task
from scipy.optimize import linprog

BOUNDED_TOL = 1e-10     # HiGHS' feasibility tolerances on θ*_∞'s bounded form (see _solve_linf), tighter than its
#                         default: the optimal face is read off the dual support, and duals of 1e-9 are real there
LP_TOL = 1e-7           # HiGHS's default primal/dual feasibility tolerance: margins within it are undecided
TIGHT_TOL = 1e-7        # a constraint is active at the LP solution if its slack is below this (relative)
DUAL_TOL = 1e-9         # a dual value above this (relative to max y) is in the dual support
NULL_TOL = 1e-9         # singular values below this (relative) span the face's directions
MAX_FACE_LPS = 20_000   # LP budget of one interval computation (warm-started LPs, about 1-3 ms each); rows left
#                         over are reported undecided
COLD_FACE_LPS = 500     # the same without HiGHS' Python API (each LP a linprog from scratch, about 50-200 ms)
MAX_BOX_DIRECTIONS = 64  # faces of higher dimension get no bounding box (its 2d LPs would cost more than they save)
SMALL_BOX_DIRECTIONS = 16  # ... and above this dimension only when two LPs along one direction cannot show F wider than
#                            a point (the box's other use); see optimal_face
DUAL_POOL = 64          # how many earlier LP duals are reused as bounds
SINGLE_RIVALS = 2       # rivals tried alone (max over F of one margin) before a row's max-min LP
SUSPECTS = 3            # rivals of a row tried in order of least margin seen before the rest in key order
BOX_AFTER = 4           # a skipped box is computed once BOX_AFTER·d rivals needed an LP to be proved positive
MAX_PROBES = 128        # points of the face kept as cheap witnesses (box vertices, then the latest LP optima)
ROW_BLOCK_ENTRIES = 2 ** 21   # memory bound of one block of rival directions: rows × keys × directions


class Geometry(StrEnum):
    """The norm of the selection: ℓ2 (gradient descent), ℓ∞ (sign descent, Adam), ℓ1 (coordinate descent)."""

    L2 = "l2"
    LINF = "linf"
    L1 = "l1"

    def __str__(self) -> str:
        return self.value


GEOMETRY_FORMS = ", ".join(g.value for g in Geometry)


def parse_geometry(text: str | Geometry) -> Geometry:
    """``"l2"`` / ``"linf"`` / ``"l1"`` -> :class:`Geometry`; one-line :class:`SpecError` otherwise."""
    if isinstance(text, Geometry):
        return text
    if isinstance(text, str):
        for g in Geometry:
            if text.strip().lower() == g.value:
                return g
    shown = repr(text)
    shown = shown if len(shown) <= 80 else shown[:77] + "..."
    raise SpecError(f"invalid geometry {shown}; accepted: {GEOMETRY_FORMS}")


# --------------------------------------------------------------------------- the linear programs
@dataclass(frozen=True)
class LinearProgram:
    """min cᵀx s.t. A x ≥ b, x free (float); θ is x[:p].  Dual: max bᵀy s.t. Aᵀy = c, y ≥ 0."""

    geometry: Geometry
    A: np.ndarray   # (M, n), M = m + 2p, n = p + 1 (ℓ∞) or 2p (ℓ1)
    b: np.ndarray   # (M,)
    c: np.ndarray   # (n,)
    p: int


def _blocks(geometry: Geometry, m: int, p: int) -> tuple[int, list[tuple[int, int, int]]]:
    """Number of variables n and the sparse entries (row, col, ±1) of the norm rows of A
    (rows m..m+2p-1): 'upper' rows t - θ_c (or s_c - θ_c), then 'lower' rows t + θ_c (or s_c + θ_c)."""
    n = p + 1 if geometry is Geometry.LINF else 2 * p
    entries = []
    for c in range(p):
        aux = p if geometry is Geometry.LINF else p + c
        entries += [(m + c, c, -1), (m + c, aux, 1), (m + p + c, c, 1), (m + p + c, aux, 1)]
    return n, entries


def norm_program(z: np.ndarray, geometry: Geometry) -> LinearProgram:
    """The LP of θ*_q for q = ∞ or 1 over the training differences z: (m, p)."""
    if geometry is Geometry.L2:
        raise PosrealError("the ℓ2 selection is a quadratic program (posreal.theory.selection.select)")
    m, p = z.shape
    n, entries = _blocks(geometry, m, p)
    A = np.zeros((m + 2 * p, n))                 # (M, n)
    A[:m, :p] = z
    for r, col, v in entries:
        A[r, col] = v
    b = np.concatenate([np.ones(m), np.zeros(2 * p)])   # (M,)
    c = np.zeros(n)
    c[p:] = 1.0
    return LinearProgram(geometry, A, b, c, p)


@dataclass(frozen=True)
class ExactProgram:
    """The same LP in ℚ (rational PEs): rows of A as tuples of Fractions."""

    geometry: Geometry
    A: tuple[tuple[Fraction, ...], ...]   # (M, n)
    b: tuple[Fraction, ...]               # (M,)
    c: tuple[Fraction, ...]               # (n,)
    p: int


def exact_norm_program(zq: Sequence[Sequence[Fraction]], p: int, geometry: Geometry) -> ExactProgram:
    m = len(zq)
    n, entries = _blocks(geometry, m, p)
    rows = [list(r) + [Fraction(0)] * (n - p) for r in zq] + [[Fraction(0)] * n for _ in range(2 * p)]
    for r, col, v in entries:
        rows[r][col] = Fraction(v)
    b = tuple([Fraction(1)] * m + [Fraction(0)] * (2 * p))
    c = tuple([Fraction(0)] * p + [Fraction(1)] * (n - p))
    return ExactProgram(geometry, tuple(tuple(r) for r in rows), b, c, p)


@dataclass
class LPCertificate:
    """An exact optimality certificate: primal x, dual y (on its support) and the common value."""

    primal: list[Fraction]          # (n,) x = (θ, t) or (θ, s)
    dual: dict[int, Fraction]       # row index of A -> y_k > 0
    value: Fraction

    def to_json(self) -> dict:
        return {"format": "posreal-lp-optimality", "version": 1,
                "primal": [f"{x.numerator}/{x.denominator}" for x in self.primal],
                "dual": {str(k): f"{v.numerator}/{v.denominator}" for k, v in sorted(self.dual.items())},
                "value": f"{self.value.numerator}/{self.value.denominator}"}


def _products(rows: Sequence[Sequence[Fraction]], x: Sequence[Fraction]) -> list[Fraction]:
    """A x in ℚ by integer arithmetic on common denominators: (M, n) · (n,) -> (M,)."""
    if not rows:
        return []
    N, D = integer_form(rows, len(x))            # A = N / D: (M, n)
    den = 1
    for v in x:
        den = den * v.denominator // np.gcd(den, v.denominator)
    a = np.array([v.numerator * (den // v.denominator) for v in x], dtype=object)  # x = a / den
    return [Fraction(int(s), D * den) for s in N.dot(a)]


def verify_lp_exact(program: ExactProgram, cert: LPCertificate) -> bool:
    """Re-derive optimality in ℚ from the data alone: A x ≥ b, y ≥ 0, Aᵀy = c, cᵀx = bᵀy = value,
    and y_k (A_k x - b_k) = 0 (implied by the equal values, checked anyway)."""
    A, b, c, x, y = program.A, program.b, program.c, cert.primal, cert.dual
    n = len(c)
    if len(x) != n or any(k < 0 or k >= len(A) for k in y) or any(v < 0 for v in y.values()):
        return False
    ax = _products(A, x)
    if any(s < bk for s, bk in zip(ax, b)):
        return False
    aty = [sum((v * A[k][col] for k, v in y.items()), Fraction(0)) for col in range(n)]
    if aty != list(c):
        return False
    primal_value = sum((ci * xi for ci, xi in zip(c, x)), Fraction(0))
    dual_value = sum((v * b[k] for k, v in y.items()), Fraction(0))
    if not primal_value == dual_value == cert.value:
        return False
    return all(v * (ax[k] - b[k]) == 0 for k, v in y.items())


def solve_program(lp: LinearProgram) -> tuple[np.ndarray, np.ndarray, float]:
    """HiGHS on the LP: (x (n,), y (M,) ≥ 0, value).  Raises PosrealError if HiGHS fails."""
    res = linprog(lp.c, A_ub=-lp.A, b_ub=-lp.b, bounds=(None, None), method="highs")
    if res.status != 0:
        raise PosrealError(f"HiGHS did not solve the {lp.geometry.value} selection: {res.message}")
    y = np.maximum(-np.asarray(res.ineqlin.marginals, dtype=float), 0.0)   # (M,)
    return np.asarray(res.x, dtype=float), y, float(res.fun)


def _solve_linf(lp: LinearProgram, bound: float) -> tuple[np.ndarray, np.ndarray, float, bool] | None:
    """θ*_∞'s LP through its bounded form (Charnes-Cooper): with B > 0,

        max s  s.t.  Zφ ≥ s·1,  -B ≤ φ_c ≤ B,

    whose feasible points (φ, s > 0) are the images of the feasible (θ, t) of ``lp`` under φ = Bθ/t,
    s = B/t (a bijection of the two polyhedra, faces to faces), so θ*_∞ = φ/s and t* = B/s.  Dual
    simplex without presolve on this form is 4-10x faster than on ``lp`` (box bounds instead of 2p
    norm rows).  HiGHS' duals map to an optimal dual of ``lp``: y_Z = t*·λ (row duals λ, 1ᵀλ = 1), and
    the reduced cost ρ_c of φ_c at its bound ±B (Σ|ρ_c| = s*/B) gives y = t*·|ρ_c| on the norm row
    t ∓ θ_c ≥ 0 that is tight there; duals are taken only where the basis puts them (a nonbasic row or
    bound) and with their sign, as HiGHS leaves noise within its dual tolerance elsewhere.  B is a
    feasible θ's ‖θ‖_∞ (the ℓ2 selection's): then s* ≥ 1, and HiGHS' absolute feasibility tolerance on
    Zφ ≥ s is no looser, relative to Zθ ≥ 1, than on ``lp`` itself.

    Solved twice on one model: at HiGHS' default tolerances, then warm from that basis at
    :data:`BOUNDED_TOL`.  Returns (x (n,), y (M,) ≥ 0, t*, stable) for ``lp`` from the second solve,
    ``stable`` saying whether both solves have the same dual support (the optimal face is then read
    off a support that does not move with the tolerance), or None without HiGHS' Python API or an
    optimum (the caller then solves ``lp`` itself).  On a face that is not a point the vertex returned
    is in general not the one HiGHS returns on ``lp`` (see :func:`select_in_geometry`)."""
    api = _highs_api()
    m, p = lp.A.shape[0] - 2 * lp.p, lp.p
    if not api or not m or not p or not np.isfinite(bound) or bound <= 0:
        return None
    z = lp.A[:m, :p]                                               # (m, p)
    try:
        h = api._Highs()
        h.setOptionValue("output_flag", False)
        h.setOptionValue("presolve", "off")
        h.setOptionValue("simplex_strategy", 1)                    # dual simplex
        model = api.HighsLp()
        model.num_col_, model.num_row_ = p + 1, m
        model.col_cost_ = np.concatenate([np.zeros(p), [-1.0]])    # min -s
        model.col_lower_ = np.concatenate([np.full(p, -bound), [-api.kHighsInf]])
        model.col_upper_ = np.concatenate([np.full(p, bound), [api.kHighsInf]])
        model.row_lower_ = np.zeros(m)
        model.row_upper_ = np.full(m, api.kHighsInf)
        A = np.hstack([z, -np.ones((m, 1))])                       # (m, p + 1)
        nz = A != 0
        model.a_matrix_.format_ = api.MatrixFormat.kRowwise
        model.a_matrix_.start_ = np.concatenate([[0], np.cumsum(nz.sum(axis=1))]).astype(np.int32)
        model.a_matrix_.index_ = np.nonzero(nz)[1].astype(np.int32)
        model.a_matrix_.value_ = A[nz]
        model.a_matrix_.num_col_, model.a_matrix_.num_row_ = p + 1, m
        if h.passModel(model) == api.HighsStatus.kError:
            return None
        solutions: list[tuple[np.ndarray, np.ndarray, float] | None] = []
        for tol in (None, BOUNDED_TOL):
            if tol is not None:
                for name in ("primal_feasibility_tolerance", "dual_feasibility_tolerance"):
                    h.setOptionValue(name, tol)
            h.run()
            if h.getModelStatus() != api.HighsModelStatus.kOptimal:
                return None
            solutions.append(_bounded_solution(api, h, p, bound))
    except Exception:          # any refusal of the solver's API: the caller solves lp itself, never guess
        return None
    first, last = solutions
    if first is None or last is None:
        return None
    (_, y0, _), (x, y, t) = first, last
    stable = bool(np.array_equal(y0 > DUAL_TOL * max(1.0, float(y0.max(initial=0.0))),
                                 y > DUAL_TOL * max(1.0, float(y.max(initial=0.0)))))
    return x, y, t, stable


def _bounded_solution(api, h, p: int, bound: float) -> tuple[np.ndarray, np.ndarray, float] | None:
    """(x, y, t*) of θ*_∞'s LP from the current optimum of its bounded form (see :func:`_solve_linf`)."""
    sol, basis = h.getSolution(), h.getBasis()
    col = np.array(sol.col_value, dtype=float)                     # (p + 1,) (φ, s)
    status = api.HighsBasisStatus
    at_row = np.array([st == status.kLower for st in basis.row_status])                 # (m,)
    at_upper = np.array([st == status.kUpper for st in basis.col_status[:p]])           # (p,)
    at_lower = np.array([st == status.kLower for st in basis.col_status[:p]])           # (p,)
    lam = np.where(at_row, np.maximum(np.array(sol.row_dual, dtype=float), 0.0), 0.0)   # (m,)
    rho = np.array(sol.col_dual, dtype=float)[:p]                  # (p,)
    s = float(col[-1])
    if not np.isfinite(s) or s <= 0:
        return None
    t = bound / s
    x = np.concatenate([col[:p] / s, [t]])                         # (p + 1,) (θ, t)
    y = np.concatenate([t * lam, t * np.where(at_upper, np.maximum(-rho, 0.0), 0.0),
                        t * np.where(at_lower, np.maximum(rho, 0.0), 0.0)])              # (m + 2p,)
    return x, y, t


def exact_certificate(program: ExactProgram, lp: LinearProgram, x: np.ndarray,
                      y: np.ndarray) -> LPCertificate | None:
    """Round HiGHS' solution to ℚ on its active set and re-solve exactly.

    Basis: n independent active rows, dual support first; x_B solves A_B x = b_B and y_B solves
    A_Bᵀ y = c (unique: A_B is square and invertible, so no other dual lives on the basis).
    Returns the certificate if :func:`verify_lp_exact` accepts it (y_B ≥ 0, x_B feasible, equal
    objectives), else None."""
    n = lp.A.shape[1]
    slack = lp.A @ x - lp.b                                         # (M,)
    tight = np.flatnonzero(slack <= TIGHT_TOL * np.maximum(1.0, np.abs(lp.b)))
    support = [int(k) for k in np.argsort(-y) if y[k] > DUAL_TOL * max(1.0, float(y.max(initial=0.0)))]
    order = support + [int(k) for k in tight[np.argsort(slack[tight])] if int(k) not in set(support)]
    chosen = pivot_rows([program.A[k] for k in order], n)
    basis = [order[r] for r in chosen]
    if len(basis) < n:
        return None
    xq = solve([program.A[k] for k in basis], [program.b[k] for k in basis])
    if xq is None:
        return None
    yb = solve([list(col) for col in zip(*[program.A[k] for k in basis])], list(program.c))
    if yb is None:
        return None
    value = sum((ci * xi for ci, xi in zip(program.c, xq)), Fraction(0))
    cert = LPCertificate(xq, {k: v for k, v in zip(basis, yb) if v != 0}, value)
    return cert if verify_lp_exact(program, cert) else None


# --------------------------------------------------------------------------- warm-started LPs over the face
_HIGHS: object = None      # HiGHS' Python API once loaded (False: not available; linprog per call then)


def _highs_api():
    """HiGHS' own Python API (the ``highspy`` package, a dependency; the solver scipy's linprog runs
    on).  Loaded on first use, so start-up stays light; False if it cannot be imported, and every face
    LP then goes through ``linprog``."""
    global _HIGHS
    if _HIGHS is None:
        try:
            import highspy
            _HIGHS = highspy if all(hasattr(highspy, n) for n in ("_Highs", "HighsLp", "MatrixFormat")) else False
        except ImportError:
            _HIGHS = False
    return _HIGHS


class _WarmLP:
    """min cᵀw over {A w ≥ r, lo ≤ w ≤ hi} (A: (M, d)) for a sequence of objectives c, on one HiGHS
    model that is re-solved warm from its previous optimal basis after each change of c.  The
    tolerances are HiGHS' defaults, as for ``linprog``.  Without HiGHS' Python API (see
    :func:`_highs_api`), or if the model refuses to solve, each call is one ``linprog``.
    Subclasses say how the model is written (:meth:`_build`) and solved for one c (:meth:`_run`)."""

    def __init__(self, A: np.ndarray, r: np.ndarray, lo: np.ndarray, hi: np.ndarray):
        self.A, self.r, self.lo, self.hi = A, r, lo, hi
        self.model = None
        api = _highs_api()
        if api and A.shape[1]:
            try:
                self.model = self._build(api)
            except Exception:      # any refusal of the solver's API: fall back to linprog, never guess
                self.model = None

    def _build(self, api):
        raise NotImplementedError

    def _run(self, c: np.ndarray) -> tuple[float, np.ndarray, np.ndarray] | None:
        raise NotImplementedError

    def _bounds(self) -> list[tuple[float | None, float | None]]:
        return [(None if not np.isfinite(a) else a, None if not np.isfinite(b) else b)
                for a, b in zip(self.lo.tolist(), self.hi.tolist())]

    def minimize(self, c: np.ndarray) -> tuple[float, np.ndarray | None, np.ndarray | None]:
        """(min value, a minimizer w (d,), row duals μ ≥ 0 (M,)); (NaN, None, None) without an optimum."""
        if self.model is not None:
            out = self._run(c)
            return out if out is not None else (float("nan"), None, None)
        res = linprog(c, A_ub=-self.A, b_ub=-self.r, bounds=self._bounds(), method="highs")
        if res.status != 0:
            return float("nan"), None, None
        return float(res.fun), np.asarray(res.x, dtype=float), np.maximum(-np.asarray(res.ineqlin.marginals,
                                                                                   dtype=float), 0.0)


def _rowwise(A: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``A`` (M, d) as HiGHS' sparse row-wise matrix: (start, index, value)."""
    nz = A != 0
    return (np.concatenate([[0], np.cumsum(nz.sum(axis=1))]).astype(np.int32),
            np.nonzero(nz)[1].astype(np.int32), A[nz])


class FaceLP(_WarmLP):
    """The primal model: variables w, rows A w ≥ r, column bounds [lo, hi]; after a cost change the
    previous optimal basis is still primal feasible, so it is re-solved by primal simplex.  Extra rows
    can be added for one solve (:meth:`minimize_with_rows`, the max-min LPs)."""

    def _build(self, api):
        M, d = self.A.shape
        h = api._Highs()   # the solver itself; highspy.Highs adds callbacks and prints a banner to stdout
        h.setOptionValue("output_flag", False)
        h.setOptionValue("simplex_strategy", 4)           # primal simplex: warm starts after a cost change
        h.setOptionValue("presolve", "off")               # the model is small and re-solved warm: presolve only costs
        lp = api.HighsLp()
        lp.num_col_, lp.num_row_ = d, M
        lp.col_cost_ = np.zeros(d)
        lp.col_lower_ = np.where(np.isfinite(self.lo), self.lo, -api.kHighsInf)
        lp.col_upper_ = np.where(np.isfinite(self.hi), self.hi, api.kHighsInf)
        lp.row_lower_ = np.asarray(self.r, dtype=float)
        lp.row_upper_ = np.full(M, api.kHighsInf)
        lp.a_matrix_.format_ = api.MatrixFormat.kRowwise
        lp.a_matrix_.start_, lp.a_matrix_.index_, lp.a_matrix_.value_ = _rowwise(self.A)
        lp.a_matrix_.num_col_, lp.a_matrix_.num_row_ = d, M
        if h.passModel(lp) == api.HighsStatus.kError:       # a warning (tiny entries dropped) is linprog's too
            raise PosrealError("HiGHS refused the face model")
        self.api, self.columns = api, np.arange(d, dtype=np.int32)
        return h

    def _run(self, c: np.ndarray) -> tuple[float, np.ndarray, np.ndarray] | None:
        h, api = self.model, self.api
        assert h is not None           # only called with a built model (see minimize)
        h.changeColsCost(len(c), self.columns, np.asarray(c, dtype=float))
        for _attempt in range(2):
            h.run()
            if h.getModelStatus() == api.HighsModelStatus.kOptimal:
                sol = h.getSolution()
                w = np.array(sol.col_value, dtype=float)
                mu = np.maximum(np.array(sol.row_dual, dtype=float), 0.0)
                return float(h.getInfo().objective_function_value), w, mu
            h.clearSolver()        # a failed warm start: once more from scratch
        return None

    def minimize_with_rows(self, c: np.ndarray, B: np.ndarray, rb: np.ndarray) -> tuple[float, np.ndarray | None]:
        """min cᵀw over the model and the extra rows B w ≥ rb (B: (k, d)), which are added for this solve only
        (warm start from the previous basis); (NaN, None) without an optimum."""
        if self.model is None:
            res = linprog(c, A_ub=-np.vstack([self.A, B]), b_ub=-np.concatenate([self.r, rb]), bounds=self._bounds(),
                          method="highs")
            return (float(res.fun), np.asarray(res.x, dtype=float)) if res.status == 0 else (float("nan"), None)
        h, api = self.model, self.api
        M, k = self.A.shape[0], B.shape[0]
        start, index, value = _rowwise(B)
        h.addRows(k, np.asarray(rb, dtype=float), np.full(k, api.kHighsInf), len(value), start[:-1], index, value)
        try:
            out = self._run(c)
        finally:
            h.deleteRows(k, np.arange(M, M + k, dtype=np.int32))
        return (out[0], out[1]) if out is not None else (float("nan"), None)


class DualFaceLP(_WarmLP):
    """The same minima through the LP dual: with the finite column bounds written as rows,
    A' = [A; I_lo; -I_hi] (M', d) and r' = [r; lo; -hi], the dual of min cᵀw s.t. A'w ≥ r' is
    max r'ᵀμ s.t. A'ᵀμ = c, μ ≥ 0.  A new c only moves the d equality rows' bounds: the previous
    optimal basis stays dual feasible and dual simplex resumes from it, on a basis of d rows instead of
    the primal's M.  On the face LPs of high dimension (61 directions, 1786 rows) this is about twice as
    fast as the primal model (``benchmarks/geometry-report.md``).  w is read off the equality rows'
    duals and checked primal feasible up to HiGHS' tolerance; μ (M,) keeps the multipliers of A's rows."""

    def _build(self, api):
        M, d = self.A.shape
        finite_lo, finite_hi = np.flatnonzero(np.isfinite(self.lo)), np.flatnonzero(np.isfinite(self.hi))
        eye = np.eye(d)
        A2 = np.vstack([self.A, eye[finite_lo], -eye[finite_hi]])                          # (M', d)
        r2 = np.concatenate([self.r, self.lo[finite_lo], -self.hi[finite_hi]])            # (M',)
        h = api._Highs()
        h.setOptionValue("output_flag", False)
        h.setOptionValue("simplex_strategy", 1)           # dual simplex: warm starts after a bound change
        h.setOptionValue("presolve", "off")
        lp = api.HighsLp()
        lp.num_col_, lp.num_row_ = A2.shape[0], d
        lp.col_cost_ = -np.asarray(r2, dtype=float)       # minimize -r'ᵀμ
        lp.col_lower_ = np.zeros(A2.shape[0])
        lp.col_upper_ = np.full(A2.shape[0], api.kHighsInf)
        lp.row_lower_ = np.zeros(d)
        lp.row_upper_ = np.zeros(d)
        lp.a_matrix_.format_ = api.MatrixFormat.kColwise  # column q of A'ᵀ is row q of A'
        lp.a_matrix_.start_, lp.a_matrix_.index_, lp.a_matrix_.value_ = _rowwise(A2)
        lp.a_matrix_.num_col_, lp.a_matrix_.num_row_ = A2.shape[0], d
        if h.passModel(lp) == api.HighsStatus.kError:
            raise PosrealError("HiGHS refused the face model")
        self.api, self.rows, self.A2, self.r2 = api, np.arange(d, dtype=np.int32), A2, r2
        return h

    def _run(self, c: np.ndarray) -> tuple[float, np.ndarray, np.ndarray] | None:
        h, api = self.model, self.api
        assert h is not None           # only called with a built model (see minimize)
        c = np.asarray(c, dtype=float)
        h.changeRowsBounds(len(c), self.rows, c, c)
        for _attempt in range(2):
            h.run()
            if h.getModelStatus() == api.HighsModelStatus.kOptimal:
                sol = h.getSolution()
                mu = np.maximum(np.array(sol.col_value, dtype=float), 0.0)       # (M',)
                w = -np.array(sol.row_dual, dtype=float)                          # (d,) reduced cost -r' - A'y ≥ 0
                slack = self.A2 @ w - self.r2
                if float(slack.min(initial=0.0)) < -LP_TOL * max(1.0, float(np.abs(self.r2).max(initial=0.0))):
                    return None        # w is not a point of the face: no answer rather than a wrong one
                return -float(h.getInfo().objective_function_value), w, mu[:self.A.shape[0]]
            h.clearSolver()        # a failed warm start: once more from scratch
        return None


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
    lp_limit: int = 0         # lp_count at which the current interval computation stops solving LPs

    def ensure_box(self) -> bool:
        """Compute the box now if it was skipped (2d warm-started LPs, not charged to the LP budget); True
        if it was computed by this call.  The box vertices become probes and the rows the box implies are
        dropped, as in :func:`optimal_face`."""
        if self.boxed or not self.directions.shape[1]:
            return False
        lo, hi, probes, count = _box(self.A_red, self.r, self.solver)
        self.lp_count += count
        self.lp_limit += count
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
    """θ*_q of one cell.  For ℓ2 it wraps :func:`posreal.theory.selection.select` (θ* unchanged)."""

    geometry: Geometry
    selection: Selection                       # the ℓ2 selection: status, Z, pairs
    theta: np.ndarray | None                   # (p,) a representative optimal θ
    value: float | None = None                 # ‖θ*_q‖_q, the LP optimum (ℓ2: ‖θ*‖₂)
    exact_theta: list[Fraction] | None = None  # (p,) in ℚ when certified
    certificate: LPCertificate | None = None   # verified exact LP certificate (rational PEs)
    program: ExactProgram | None = None        # the exact LP the certificate is for
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
        return self.certificate is not None

    def summary(self) -> dict:
        """The ``selected`` block of the JSON document (ℓ2: the selection's own summary)."""
        if self.geometry is Geometry.L2:
            return self.selection.summary()
        return {"geometry": self.geometry.value, "value": self.value, "status": self.status,
                "constraints": int(self.selection.constraints.shape[0]), "exact": self.exact,
                "face": None if self.face is None else ("point" if self.face.point else "face"),
                "face_dimension": None if self.face is None else self.face.dimension,
                "reason": (self.reason or self.selection.reason) or None}


def select_in_geometry(pe, task, train_length: int = 16, geometry: str | Geometry = Geometry.L2,
                       exact: bool | None = None) -> GeometrySelection:
    """θ*_q for a cell.  ``exact`` (default: whether the PE is rational) certifies the LP in ℚ."""
    geometry = parse_geometry(geometry)
    pe, task = parse_pe(pe), parse_task(task)
    sel = select(pe, task, train_length, exact=exact)
    if geometry is Geometry.L2:
        if not sel.realizable:
            return GeometrySelection(geometry, sel, None)
        return GeometrySelection(geometry, sel, sel.theta, sel.norm, sel.exact_theta)
    out = GeometrySelection(geometry, sel, None)
    if not sel.realizable:
        return out
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
    if geometry is Geometry.LINF and sel.theta is not None and sel.exact_constraints is None:
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
        cert = exact_certificate(program, lp, x, y)
        if cert is not None:
            out.certificate, out.program = cert, program
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


# --------------------------------------------------------------------------- rows of R_L over the face
@dataclass
class IntervalOutcomes:
    """For each row of R_L: realized by every θ ∈ F_q (``every``) and by some θ ∈ F_q (``some``);
    1 yes, -1 no, 0 undecided (within tolerance).  α^lo counts ``every``, α^hi counts ``some``."""

    length: int
    rows: np.ndarray      # (m,)
    targets: np.ndarray   # (m,)
    every: np.ndarray     # (m,) int8
    some: np.ndarray      # (m,) int8
    ties: np.ndarray      # (m,) bool
    exact: bool = False   # decided in ℚ (exact point face)
    certified: bool = False   # every/some replaced by the rows of θ*_q decided by interval arithmetic (point face)

    @property
    def decided_in(self) -> Mode:
        """The arithmetic the every/some decisions were made in."""
        return Mode.EXACT if self.exact else Mode.CERTIFIED if self.certified else Mode.FLOAT

    def counts(self) -> dict[str, int]:
        return {"realized": int(np.sum(self.every == REALIZED)),
                "realized_by_some": int(np.sum(self.some == REALIZED)),
                "failed": int(np.sum(self.some == FAILED)),
                "undecided": int(np.sum((self.every == UNDECIDED) | (self.some == UNDECIDED))),
                "total": int(self.rows.size), "structural_ties": int(np.sum(self.ties))}

    @property
    def interval(self) -> tuple[float, float]:
        total = self.rows.size
        if not total:
            return (1.0, 1.0)
        return (float(np.sum(self.every == REALIZED)) / total, float(np.sum(self.some == REALIZED)) / total)

    @property
    def exact_interval(self) -> tuple[Fraction, Fraction]:
        total = self.rows.size
        if not total:
            return (Fraction(1), Fraction(1))
        return (Fraction(int(np.sum(self.every == REALIZED)), total),
                Fraction(int(np.sum(self.some == REALIZED)), total))

    def prefix(self, length: int) -> IntervalOutcomes:
        """The rows below ``length`` (tasks whose rows and outcomes do not depend on n)."""
        keep = self.rows < length
        return IntervalOutcomes(length, self.rows[keep], self.targets[keep], self.every[keep],
                                self.some[keep], self.ties[keep], self.exact)


def _classify(value: float, tol: float) -> int:
    """1 above tol, -1 below -tol, 0 within it (and for NaN: an LP without an answer)."""
    return REALIZED if value > tol else (FAILED if value < -tol else UNDECIDED)


def _rival_key(pe: Encoding, i: int, kt: int, k: int) -> tuple[int, ...]:
    return (kt, k) if is_profile(pe) else (i, kt, k)


def _max_min_over_face(face: Face, g0: np.ndarray, a: np.ndarray) -> tuple[float, np.ndarray | None]:
    """max over F of min_j (g0_j + a_jᵀ w), capped at 1: one LP in (w, s), max s s.t. a_jᵀw - s ≥ -g0_j,
    on one warm-started model of F × {s ≤ 1} whose rival rows are added for each LP.  g0 (k,), a (k, d).
    Returns the value (NaN without an optimum) and the maximizing w (a point of F)."""
    d = a.shape[1]
    if face.maxmin is None:
        face.maxmin = FaceLP(np.hstack([face.A_red, np.zeros((face.A_red.shape[0], 1))]), face.r,
                             np.concatenate([face.lo, [-np.inf]]), np.concatenate([face.hi, [1.0]]))
    obj = np.zeros(d + 1)
    obj[-1] = -1.0
    value, x = face.maxmin.minimize_with_rows(obj, np.hstack([a, -np.ones((a.shape[0], 1))]), -np.asarray(g0))
    face.lp_count += 1
    if x is None:
        return float("nan"), None           # HiGHS gave no answer: the row stays undecided
    return -float(value), np.asarray(x[:d], dtype=float)


class _TrainingBound:
    """Rival directions that are training differences: if v = ψ(i, t) - ψ(i, j) equals a row z_k of Z,
    then on F (where Zθ ≥ 1 and ‖θ‖_q ≤ T) ⟨v, θ⟩ = ⟨z_k, θ⟩ + ⟨v - z_k, θ⟩ ≥ min(1, ⟨z_k, θ₀⟩) -
    ‖v - z_k‖_q* T, q* the dual norm (ℓ1 for ℓ∞, ℓ∞ for ℓ1).  The min with ⟨z_k, θ₀⟩ covers the float
    slack of the face's description (F is written around θ₀, see :func:`optimal_face`).  Rows z_k are
    found by their rounded values; a wrong or missed match only costs a bound, never soundness, as the
    bound is computed from v itself."""

    def __init__(self, gsel: GeometrySelection):
        assert gsel.value is not None and gsel.theta is not None   # built for realizable selections only
        z = gsel.selection.constraints                               # (m, p)
        self.pe, self.L0, self.z = gsel.pe, gsel.train_length, z
        self.unit = max(1.0, float(np.abs(z).max(initial=0.0)))
        self.index: dict[bytes, int] = {}
        for k in range(z.shape[0] - 1, -1, -1):
            self.index[self._key(z[k])] = k
        self.floor = np.minimum(1.0, z @ gsel.theta)                # (m,)
        self.order = 1 if gsel.geometry is Geometry.LINF else np.inf
        # ‖θ‖_q ≤ value on F up to the LP's feasibility slack; a generous radius costs nothing, as it
        # multiplies ‖v - z_k‖ (rounding-sized for a true match)
        self.radius = 2.0 * max(float(gsel.value), float(np.linalg.norm(gsel.theta, ord=np.inf if self.order == 1
                                                                          else 1))) + 1.0

    def _key(self, v: np.ndarray) -> bytes:
        return (np.round(v / self.unit, 9) + 0.0).tobytes()      # + 0.0: one key for -0.0 and 0.0

    def lower_bounds(self, rows: np.ndarray, kt: np.ndarray, k: np.ndarray) -> np.ndarray:
        """Lower bounds on min over F of the margin of (row, target key, rival key) triples: (n,) each -> (n,)
        (-inf where the direction is not a training difference)."""
        v = self.pe.index_features(rows, kt, self.L0) - self.pe.index_features(rows, k, self.L0)   # (n, p)
        out = np.full(rows.size, -np.inf)
        for n in range(rows.size):
            c = self.index.get(self._key(v[n]))
            if c is not None:
                gap = float(np.linalg.norm(v[n] - self.z[c], ord=self.order))
                out[n] = float(self.floor[c]) - gap * self.radius
        return out


class _Block:
    """Every/some status of a block of rows over the face (float), decided in order of cost:
    structural ties and rows with one key; the points of F known so far (θ₀, box vertices, LP optima:
    a realized row is realized by some θ, a lost row is not realized by every θ); the box bounds;
    training differences (:class:`_TrainingBound`); earlier LP duals; and only then one warm-started
    LP per (row, rival), the rival most likely to lose first, each LP's optimum joining the points."""

    def __init__(self, gsel, face, training, r, kt, g0, a, rival, scale, ties, every, some):
        self.gsel, self.face, self.training = gsel, face, training
        self.r, self.kt, self.g0, self.a, self.rival, self.scale = r, kt, g0, a, rival, scale
        self.every, self.some = every, some
        has = rival.any(axis=1)
        every[ties] = some[ties] = FAILED
        every[~ties & ~has] = some[~ties & ~has] = REALIZED            # one key: realized (γ = +∞)
        self.live = ~ties & has
        self.low = np.where(rival, g0, np.inf)                         # (b, L) least margin seen at points of F
        self.high = np.where(rival, g0, -np.inf)                       # (b, L) largest margin seen at points of F
        self.best = np.where(has, self.low.min(axis=1), -np.inf)       # (b,) best row margin seen at points of F
        for start in range(0, face.probes.shape[0], 16):
            self.see(face.probes[start:start + 16])

    def see(self, points: np.ndarray) -> None:
        """Margins at points of F: points (P, d)."""
        if not points.size:
            return
        m = self.g0[:, :, None] + self.a @ points.T                        # (b, L, P)
        m = np.where(self.rival[:, :, None], m, np.inf)
        np.minimum(self.low, m.min(axis=2), out=self.low)
        np.maximum(self.high, np.where(self.rival[:, :, None], m, -np.inf).max(axis=2), out=self.high)
        np.maximum(self.best, m.min(axis=1).max(axis=1), out=self.best)

    def refresh(self) -> None:
        live, scale = self.live, self.scale
        self.some[live & (self.some == UNDECIDED) & (self.best > scale)] = REALIZED
        lost = (self.some == FAILED) | (self.low.min(axis=1) < -scale)
        self.every[live & (self.every == UNDECIDED) & lost] = FAILED

    def box_bounds(self) -> np.ndarray:
        """Apply the box: rows that it shows lost by every θ get some = FAILED; returns the rivals it shows
        positive on the whole face (b, L)."""
        face, g0, a, rival, scale, some = self.face, self.g0, self.a, self.rival, self.scale, self.some
        if not face.boxed:
            return np.zeros_like(rival)
        lower = g0 + box_min(a, face.lo, face.hi)                         # (b, L)
        upper = g0 - box_min(-a, face.lo, face.hi)                        # (b, L)
        upper_row = np.where(rival, upper, np.inf).min(axis=1)            # (b,)
        some[self.live & (some == UNDECIDED) & (upper_row < -scale)] = FAILED
        self.refresh()
        return rival & (lower > scale[:, None])

    def decide(self) -> None:
        face, g0, a, rival, scale = self.face, self.g0, self.a, self.rival, self.scale
        every, live = self.every, self.live
        # some θ ∈ F realizes the row?  A point of F does it, or the box shows none does
        self.refresh()
        # every θ ∈ F realizes the row?  Rival by rival (the realizing set of a row is convex)
        done = ~rival | self.box_bounds()      # (b, L) rivals settled: positive on the whole box ...
        doubt = np.zeros_like(rival)           # ... or left within tolerance / without an LP
        self._training(done)
        proved = 0                             # rivals proved positive by an LP in this block
        while True:
            open_rows = live & (every == UNDECIDED)
            pending = open_rows[:, None] & ~done
            settled = open_rows & ~pending.any(axis=1) & ~doubt.any(axis=1)
            every[settled] = REALIZED                          # every rival positive on the whole face
            if not pending.any():
                break
            if proved >= BOX_AFTER * a.shape[2] and int(pending.sum()) > 2 * a.shape[2] and face.ensure_box():
                # many rivals have needed an LP to be proved positive, and more wait: the box (2d LPs) pays now
                self.see(face.probes[-2 * a.shape[2]:])
                done |= self.box_bounds()
                continue
            # the row most likely lost (least margin seen on a pending rival), then all its pending rivals: first
            # the ones with the least margin seen (the LP optima of the row's earlier rivals included), then, once
            # SUSPECTS of them held, in key order (neighbouring keys: nearby LP optima, short warm starts)
            n = int(np.argmin(np.where(pending, self.low, np.inf).min(axis=1)))
            points, tries = [], 0
            while every[n] == UNDECIDED and pending[n].any():
                if tries < SUSPECTS:
                    k = int(np.argmin(np.where(pending[n], self.low[n], np.inf)))
                else:
                    k = int(np.argmax(pending[n]))
                tries += 1
                pending[n, k] = False
                done[n, k] = True
                key = _rival_key(self.gsel.pe, int(self.r[n]), int(self.kt[n]), k)
                if key not in face.cache:
                    if float(g0[n, k] + face.dual_bounds(a[n, k][None, :])[0]) > scale[n]:
                        continue              # an earlier LP's dual already proves this rival's margin positive
                    if face.lp_count >= face.lp_limit:
                        doubt[n, k] = True    # LP budget spent: say so, never guess
                        continue
                    face.cache[key], w = face.minimize(a[n, k])
                    if w is not None:
                        points.append(w)
                        at_w = np.where(rival[n], g0[n] + a[n] @ w, np.inf)     # (L,) the row's margins at w
                        np.minimum(self.low[n], at_w, out=self.low[n])
                        if float(at_w.min()) < -scale[n]:
                            every[n] = FAILED     # lost at this point of F by another rival
                status = _classify(float(g0[n, k]) + face.cache[key], scale[n])
                if status == FAILED:
                    every[n] = FAILED
                elif status == UNDECIDED:
                    doubt[n, k] = True
                else:
                    proved += 1
            if points:
                self.see(np.array(points))
            self.refresh()

    def _training(self, done: np.ndarray) -> None:
        """Settle the rivals that are training differences (margin ≥ about 1 on F).  Only rivals whose least
        margin seen so far is near 1 can be one, so only those are looked up."""
        if self.training is None:
            return
        near = (self.live & (self.every == UNDECIDED))[:, None] & ~done & (self.low >= 1.0 - 1e-4)
        n, k = np.nonzero(near)
        if not n.size:
            return
        bound = self.training.lower_bounds(self.r[n], self.kt[n], k)
        at0 = self.g0[n, k]                        # the same margin at θ₀ from the kernel: same rival?
        v_at0 = (self.training.pe.index_features(self.r[n], self.kt[n], self.training.L0)
                 - self.training.pe.index_features(self.r[n], k, self.training.L0)) @ self.gsel.theta
        same = np.abs(v_at0 - at0) <= self.scale[n]
        done[n[same & (bound > self.scale[n])], k[same & (bound > self.scale[n])]] = True

    def finish_some(self) -> None:
        """The rows no point of F has shown realized.  A rival whose margin is negative on the whole of F
        proves the row lost by every θ: first the rivals that no known point lets win, through earlier
        duals, then one warm-started LP (max over F of that margin); failing that, one LP for the row
        (max over F of its least margin)."""
        face, scale, g0, a = self.face, self.scale, self.g0, self.a
        for n in np.flatnonzero(self.live & (self.some == UNDECIDED)):
            if self.best[n] > scale[n]:
                self.some[n] = REALIZED
                continue
            mask = self.rival[n]
            for k in np.argsort(np.where(mask, self.high[n], np.inf))[:SINGLE_RIVALS]:
                if float(g0[n, k] - face.dual_bounds(-a[n, k][None, :])[0]) < -scale[n]:
                    self.some[n] = FAILED
                    break
                if face.lp_count >= face.lp_limit:
                    break
                value, w = face.minimize(-a[n, k])                     # -(max over F of a_kᵀw)
                if w is not None:
                    self.see(w[None, :])
                if float(g0[n, k]) - value < -scale[n]:
                    self.some[n] = FAILED
                    break
            if self.some[n] == UNDECIDED and self.best[n] > scale[n]:
                self.some[n] = REALIZED
            if self.some[n] == UNDECIDED and face.lp_count < face.lp_limit:
                value, w = _max_min_over_face(face, g0[n, mask], a[n, mask])
                self.some[n] = _classify(value, scale[n])
                if w is not None:
                    face.add_probe(w)
                    self.see(w[None, :])
            if self.some[n] == FAILED:
                self.every[n] = FAILED


def _face_rows(gsel: GeometrySelection, length: int, tol: float, budget: int = MAX_FACE_LPS) -> IntervalOutcomes:
    """Every/some status of each row of R_length over the face (float), with bounds first (see :class:`_Block`)."""
    pe, task, L0, face = gsel.pe, gsel.task, gsel.train_length, gsel.face
    assert face is not None and gsel.theta is not None
    rows, targets = task.rows_and_targets(length)
    ties = structural_ties(pe, rows, targets, length, L0)
    keys = target_keys(pe.index, rows, targets)                     # (m,)
    d = face.directions.shape[1]
    base = transfer(pe, gsel.theta, length, L0)
    dirs = [transfer(pe, face.directions[:, c], length, L0) for c in range(d)]
    every = np.zeros(rows.size, dtype=np.int8)
    some = np.zeros(rows.size, dtype=np.int8)
    block = max(1, ROW_BLOCK_ENTRIES // max(1, length * max(d, 1)))
    cols = np.arange(length)
    training = _TrainingBound(gsel) if gsel.selection.constraints.shape[0] else None
    face.lp_limit = max(face.lp_limit, budget)
    for start in range(0, rows.size, block):
        r, kt = rows[start:start + block], keys[start:start + block]   # (b,)
        idx = np.arange(r.size)
        v0 = np.asarray(base.row_values(r), dtype=float)                # (b, L)
        g0 = v0[idx, kt][:, None] - v0                                  # (b, L) margin on each rival
        a = np.stack([np.asarray(k.row_values(r), dtype=float) for k in dirs], axis=2) if d else \
            np.zeros((r.size, length, 0))                               # (b, L, d)
        a = a[idx, kt][:, None, :] - a                                  # (b, L, d)
        rival = (cols[None, :] <= r[:, None]) & (cols[None, :] != kt[:, None])   # (b, L)
        scale = tol * np.maximum(1.0, np.abs(v0[idx, kt]))              # (b,)
        part = slice(start, start + r.size)
        blk = _Block(gsel, face, training, r, kt, g0, a, rival, scale, ties[part], every[part], some[part])
        blk.decide()
        blk.finish_some()
    return IntervalOutcomes(length, rows, targets, every, some, ties)


def _point_rows(gsel: GeometrySelection, length: int, tol: float, budget: int = 0) -> IntervalOutcomes:
    """A point face: every = some = the outcome of θ*_q itself (exact in ℚ when certified)."""
    pe, task, L0 = gsel.pe, gsel.task, gsel.train_length
    rows, targets = task.rows_and_targets(length)
    ties = structural_ties(pe, rows, targets, length, L0)
    if gsel.exact_theta is not None and gsel.face is not None and gsel.face.exact_point:
        margins, _ = exact_margins(exact_transfer(pe, gsel.exact_theta, length, L0), rows, targets)
        exact_status = classify_exact(margins, ties)
        return IntervalOutcomes(length, rows, targets, exact_status, exact_status.copy(), ties, exact=True)
    assert gsel.theta is not None
    float_gaps, values = float_margins(transfer(pe, gsel.theta, length, L0), rows, targets)   # (|R_L|,)
    scale = tol * np.maximum(1.0, np.abs(values))
    status = np.where(float_gaps > scale, REALIZED, np.where(float_gaps < -scale, FAILED, UNDECIDED))
    status = np.where(ties, FAILED, status).astype(np.int8)
    return IntervalOutcomes(length, rows, targets, status, status.copy(), ties)


def interval_outcomes(gsel: GeometrySelection, lengths: Sequence[int], tol: float = LP_TOL,
                      max_lps: int | None = None) -> dict[int, IntervalOutcomes]:
    """Every/some row outcomes at each length for a realizable ℓ∞ / ℓ1 selection.  For tasks whose
    rows do not depend on n, one pass at the largest length serves every length (causal rows).
    At most ``max_lps`` row LPs are solved (default :data:`MAX_FACE_LPS` warm-started ones, or
    :data:`COLD_FACE_LPS` without HiGHS' Python API); rows that would need more are undecided."""
    if gsel.geometry is Geometry.L2 or not gsel.realizable or gsel.face is None:
        raise SpecError("invalid selection for the α interval; accepted: a realizable linf or l1 selection")
    tol = max(float(tol), LP_TOL)
    one = _point_rows if gsel.face.point else _face_rows
    lengths = sorted({int(L) for L in lengths})
    if not lengths:
        return {}
    if max_lps is None:
        max_lps = MAX_FACE_LPS if _highs_api() else COLD_FACE_LPS
    budget = gsel.face.lp_count + max_lps
    gsel.face.lp_limit = budget
    if not gsel.task.rows_depend_on_length:
        full = one(gsel, lengths[-1], tol, budget)
        return {L: full.prefix(L) for L in lengths}
    return {L: one(gsel, L, tol, budget) for L in lengths}
