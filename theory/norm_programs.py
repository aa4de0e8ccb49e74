"""Norm programs: θ*_q = argmin ‖θ‖_q subject to Zθ ≥ 1 as a linear program for q ∈ {∞, 1}, and its
exact optimality data.

Main definitions and results (docs, Definitions page, definitions.md#geometry):

* :func:`norm_program` — for q ∈ {∞, 1} the selection is the linear program
  ``min cᵀx s.t. A x ≥ b`` (x free) with dual ``max bᵀy s.t. Aᵀy = c, y ≥ 0``:
  ℓ∞: x = (θ, t), rows Zθ ≥ 1, t - θ_c ≥ 0, t + θ_c ≥ 0, objective t;
  ℓ1: x = (θ, s), rows Zθ ≥ 1, s_c - θ_c ≥ 0, s_c + θ_c ≥ 0, objective Σ s_c
  (the auxiliary columns are the geometry's: :meth:`posreal.theory.geometry.SelectionGeometry.lp_columns`);
  solved with HiGHS (scipy ``linprog(method="highs")``; :func:`solve_program`), Z the training
  differences of :mod:`posreal.theory.selection`.  In float mode θ*_∞ is first solved in its bounded
  form (max s s.t. Zφ ≥ s, |φ_c| ≤ B; :func:`_solve_linf`, 4-10x faster), whose answer is kept when the
  optimal face is a point or its dual support is the same at HiGHS' default tolerances and at 1e-10;
  otherwise, and in exact mode, the LP above is solved directly (the choice is
  :func:`posreal.theory.faces.select_in_geometry`'s).  On a face that is not a point the representative
  θ is the vertex the solver used ends at (not a canonical point of the face: the α interval does not
  depend on it, the experiment's prediction cosines do);
* :func:`exact_norm_program` — the same LP in ℚ for rational PEs, and :func:`exact_lp_optimality`, which
  rounds HiGHS' solution to ℚ on its active set: exact optimality data (:class:`LPOptimality`, checked
  by :func:`verify_lp_exact`: primal and dual feasibility, equal objective values, complementary
  slackness, all in ℚ).

The optimal face F_q and the selection of a cell are in :mod:`posreal.theory.faces`, the rows of R_L
over the face in :mod:`posreal.theory.face_rows`, HiGHS' warm-started models in
:mod:`posreal.theory.warm_lp`.

References: Gunasekar, Lee, Soudry & Srebro (ICML 2018) for steepest descent in a norm;
Zhang, Zou & Cao (NeurIPS 2024) and Baek, Song & Yun (2025) for Adam and Signum (ℓ∞).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

import numpy as np
from posreal.theory.errors import PosrealError
from posreal.theory.geometry import GEOMETRY_FORMS, Geometry, SelectionGeometry, parse_geometry  # noqa: F401
#  (Geometry, GEOMETRY_FORMS and parse_geometry were defined here first: still importable from here)
from posreal.theory.rational import integer_form, pivot_rows, solve
from posreal.theory.warm_lp import _highs_api
from posreal.runtime.scipy_lazy import linprog   # scipy loads on the first solve

BOUNDED_TOL = 1e-10     # HiGHS' feasibility tolerances on θ*_∞'s bounded form (see _solve_linf), tighter than its
#                         default: the optimal face is read off the dual support, and duals of 1e-9 are real there
TIGHT_TOL = 1e-7        # a constraint is active at the LP solution if its slack is below this (relative)
DUAL_TOL = 1e-9         # a dual value above this (relative to max y) is in the dual support


# --------------------------------------------------------------------------- the linear programs
@dataclass(frozen=True)
class LinearProgram:
    """min cᵀx s.t. A x ≥ b, x free (float); θ is x[:p].  Dual: max bᵀy s.t. Aᵀy = c, y ≥ 0."""

    geometry: Geometry
    A: np.ndarray   # (M, n), M = m + 2p, n = p + 1 (ℓ∞) or 2p (ℓ1)
    b: np.ndarray   # (M,)
    c: np.ndarray   # (n,)
    p: int


def _blocks(geometry: SelectionGeometry, m: int, p: int) -> tuple[int, list[tuple[int, int, int]]]:
    """Number of variables n and the sparse entries (row, col, ±1) of the norm rows of A
    (rows m..m+2p-1): 'upper' rows t - θ_c (or s_c - θ_c), then 'lower' rows t + θ_c (or s_c + θ_c)."""
    n, aux = geometry.lp_columns(p)
    entries = []
    for c in range(p):
        entries += [(m + c, c, -1), (m + c, aux[c], 1), (m + p + c, c, 1), (m + p + c, aux[c], 1)]
    return n, entries


def norm_program(z: np.ndarray, geometry: str | Geometry | SelectionGeometry) -> LinearProgram:
    """The LP of θ*_q for q = ∞ or 1 over the training differences z: (m, p) (ℓ2: a PosrealError)."""
    rule = SelectionGeometry.parse(geometry)
    m, p = z.shape
    n, entries = _blocks(rule, m, p)
    A = np.zeros((m + 2 * p, n))                 # (M, n)
    A[:m, :p] = z
    for r, col, v in entries:
        A[r, col] = v
    b = np.concatenate([np.ones(m), np.zeros(2 * p)])   # (M,)
    c = np.zeros(n)
    c[p:] = 1.0
    return LinearProgram(rule.name, A, b, c, p)


@dataclass(frozen=True)
class ExactProgram:
    """The same LP in ℚ (rational PEs): rows of A as tuples of Fractions."""

    geometry: Geometry
    A: tuple[tuple[Fraction, ...], ...]   # (M, n)
    b: tuple[Fraction, ...]               # (M,)
    c: tuple[Fraction, ...]               # (n,)
    p: int


def exact_norm_program(zq: Sequence[Sequence[Fraction]], p: int,
                       geometry: str | Geometry | SelectionGeometry) -> ExactProgram:
    """The LP of :func:`norm_program` in ℚ over the exact training differences ``zq``: (m, p)."""
    rule = SelectionGeometry.parse(geometry)
    m = len(zq)
    n, entries = _blocks(rule, m, p)
    rows = [list(r) + [Fraction(0)] * (n - p) for r in zq] + [[Fraction(0)] * n for _ in range(2 * p)]
    for r, col, v in entries:
        rows[r][col] = Fraction(v)
    b = tuple([Fraction(1)] * m + [Fraction(0)] * (2 * p))
    c = tuple([Fraction(0)] * p + [Fraction(1)] * (n - p))
    return ExactProgram(rule.name, tuple(tuple(r) for r in rows), b, c, p)


@dataclass
class LPOptimality:
    """Exact optimality data: primal x, dual y (on its support) and the common value."""

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


def verify_lp_exact(program: ExactProgram, cert: LPOptimality) -> bool:
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
    is in general not the one HiGHS returns on ``lp`` (see :func:`posreal.theory.faces.select_in_geometry`)."""
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


def exact_lp_optimality(program: ExactProgram, lp: LinearProgram, x: np.ndarray,
                      y: np.ndarray) -> LPOptimality | None:
    """Round HiGHS' solution to ℚ on its active set and re-solve exactly.

    Basis: n independent active rows, dual support first; x_B solves A_B x = b_B and y_B solves
    A_Bᵀ y = c (unique: A_B is square and invertible, so no other dual lives on the basis).
    Returns the optimality data if :func:`verify_lp_exact` accepts it (y_B ≥ 0, x_B feasible, equal
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
    cert = LPOptimality(xq, {k: v for k, v in zip(basis, yb) if v != 0}, value)
    return cert if verify_lp_exact(program, cert) else None
