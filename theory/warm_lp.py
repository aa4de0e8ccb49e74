"""Warm-started HiGHS models: min cᵀw over one polytope {A w ≥ r, lo ≤ w ≤ hi} for a sequence of
objectives c, each solve starting from the previous optimal basis — the LPs over the optimal face F_q
of θ*_q (docs, Definitions page, definitions.md#geometry).

Main definitions:

* :func:`_highs_api` — HiGHS' own Python API (the ``highspy`` package, the solver scipy's ``linprog``
  runs on), loaded on first use; without it every LP is one ``linprog`` from scratch;
* :class:`FaceLP` — the primal model: after a change of c the previous optimal basis is still primal
  feasible and primal simplex resumes from it; rows can be added for one solve (the max-min LPs of
  :mod:`posreal.theory.face_rows`);
* :class:`DualFaceLP` — the same minima through the LP dual: a new c only moves the bounds of d
  equality rows, so the previous basis stays dual feasible and dual simplex resumes from it, on a basis
  of d rows instead of the primal's M (about twice as fast on faces of high dimension,
  ``benchmarks/geometry-report.md``); a point it returns off the polytope by more than :data:`LP_TOL`
  is no answer.

:data:`LP_TOL` is HiGHS's default feasibility tolerance, the tolerance of every face LP: the optimal
face (:mod:`posreal.theory.faces`) and the α interval (:mod:`posreal.theory.face_rows`) leave margins
within it undecided.
"""

from __future__ import annotations

import numpy as np
from posreal.theory.errors import PosrealError
from posreal.runtime.scipy_lazy import linprog   # scipy loads on the first solve

LP_TOL = 1e-7           # HiGHS's default primal/dual feasibility tolerance: margins within it are undecided

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
            if out is not None:
                return out
            # the warm model failed twice (HiGHS without presolve can stall on an ill-scaled face, depending on
            # the last bits of A, e.g. on the number of BLAS threads): one cold solve with presolve decides
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
