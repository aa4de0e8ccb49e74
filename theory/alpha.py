"""The transfer coefficient α_L(Φ, τ; L0), read off before any training (module ``posreal.theory.alpha``).

Main definitions (definitions.md#transfer-coefficient):

* α_L = |{i ∈ R_L : T_L θ* realizes row i}| / |R_L| ∈ [0, 1], with θ* the selected
  parameters at L0 (:mod:`posreal.theory.selection`) and T_L the transfer operator (:mod:`posreal.theory.kernels`);
* three modes: ``float`` (tolerance rule, undecided rows reported), ``exact`` (ℚ, rational PEs),
  ``certified`` (float, with borderline rows re-decided by interval arithmetic);
* geometry (docs, Definitions page, ``#geometry``): with ``geometry="linf"`` or ``"l1"`` the witness is
  the optimal face F_q of θ*_q (:mod:`posreal.theory.faces`) and α_L is the interval
  [rows realized by every θ ∈ F_q, rows realized by some θ ∈ F_q] / |R_L| (``alpha_interval``,
  :mod:`posreal.theory.face_rows`);
  ``alpha`` is its low end.  For ℓ2 (the default) the interval is [α_L, α_L] and every other output
  is unchanged;
* ``limit=True``: α♯_L as well, the interval that predicts lim acc_L(θ_k) for gradient descent
  (ℓ2 geometry only; :mod:`posreal.theory.limit`);
* the all-lengths sweep: for tasks whose rows do not depend on n (offset, position, half), a
  causal row's outcome does not depend on L, so one pass on the L_max-grid gives α_L for
  every L ≤ L_max by cumulative counts.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction

import numpy as np

from posreal.theory.encodings import AbsSin, DualOf, Encoding, is_profile, parse_pe
from posreal.theory.errors import SpecError, bad_value
from posreal.theory.face_rows import IntervalOutcomes, interval_outcomes
from posreal.theory.faces import GeometrySelection
from posreal.theory.kernels import exact_transfer, transfer
from posreal.theory.limit import LimitInterval
from posreal.theory.norm_programs import Geometry, parse_geometry
from posreal.theory.resources import Estimate, cell_estimate, require
from posreal.theory.realization import (DEFAULT_TOL, REALIZED, RowOutcomes, classify_exact, classify_float,
                                exact_margins, float_margins, structural_ties)
from posreal.theory.selection import Selection, select
from posreal.theory.tasks import Task, parse_task

MODES = ("float", "exact", "certified")
from posreal.theory.defaults import LENGTHS as DEFAULT_LENGTHS  # noqa: E402  (re-exported)
from posreal.theory.defaults import TRAIN_LENGTH as DEFAULT_TRAIN_LENGTH  # noqa: E402
MAX_EXACT_LENGTH = 2 ** 18   # exact mode keeps one Fraction per key index
MAX_LIMIT_LENGTH = 4096      # α♯ classifies every tied row key by key (O(L) per row)


def row_outcomes(pe: str | Encoding, task: str | Task, theta: np.ndarray | Sequence[float] | Sequence[Fraction],
                 length: int, train_length: int, mode: str = "float", tol: float = DEFAULT_TOL) -> RowOutcomes:
    """Outcome of every row of R_L under T_L θ.  ``theta``: (p,) floats, or Fractions in exact mode.
    ``pe`` and ``task`` are objects or spec strings."""
    pe, task = parse_pe(pe), parse_task(task)
    if mode not in MODES:
        raise bad_value("mode", mode, ", ".join(MODES))
    rows, targets = task.rows_and_targets(length)
    ties = structural_ties(pe, rows, targets, length, train_length)
    if mode == "exact":
        exact_theta = [x if isinstance(x, Fraction) else Fraction(x) for x in theta]   # a float is a binary rational
        exact_kernel = exact_transfer(pe, exact_theta, length, train_length)
        exact, _ = exact_margins(exact_kernel, rows, targets)
        return RowOutcomes(length, mode, rows, targets, exact, classify_exact(exact, ties), ties, tol)
    kernel = transfer(pe, np.asarray(theta, dtype=float), length, train_length)
    margins, target_values = float_margins(kernel, rows, targets)
    status = classify_float(margins, target_values, ties, tol)
    outcomes = RowOutcomes(length, mode, rows, targets, margins, status, ties, tol)
    if mode == "certified":
        from posreal.theory.certified import certify_rows  # mpmath only when asked for
        certify_rows(pe, np.asarray(theta, dtype=float), outcomes, train_length)
    return outcomes


@dataclass
class AlphaResult:
    """α_L of one cell at several lengths, with the row counts behind each value."""

    pe: Encoding
    task: Task
    train_length: int
    mode: str
    selection: Selection
    lengths: tuple[int, ...] = ()                          # the requested lengths, sorted
    outcomes: dict[int, RowOutcomes] = field(default_factory=dict)   # ℓ∞/ℓ1: rows under the representative θ*_q
    geometry: Geometry = Geometry.L2
    geometry_selection: GeometrySelection | None = None    # θ*_q and its face (ℓ∞, ℓ1)
    intervals: dict[int, IntervalOutcomes] = field(default_factory=dict)   # ℓ∞, ℓ1: every/some per row
    limits: dict[int, LimitInterval] = field(default_factory=dict)    # α♯_L, with limit=True
    limit: bool = False                                                 # α♯ was asked for

    @property
    def realizable(self) -> bool:
        return self.selection.realizable

    def alpha(self, length: int) -> float | None:
        """α_L (ℓ∞, ℓ1: the low end of the interval); None when the cell is not realizable (or
        undecided) at L0, or R_L is empty."""
        if not self.realizable or self.outcomes[length].status.size == 0:
            return None
        if self.geometry is not Geometry.L2:
            return self.intervals[length].interval[0]
        return self.outcomes[length].alpha

    @property
    def alpha_interval(self) -> dict[int, tuple[float, float]]:
        """(lo, hi) per length where α_L is defined (ℓ2: lo = hi = α_L)."""
        out: dict[int, tuple[float, float]] = {}
        for L in self.lengths:
            lo = self.alpha(L)
            if lo is None:
                continue
            out[L] = self.intervals[L].interval if self.geometry is not Geometry.L2 else (lo, lo)
        return out

    def to_json(self) -> dict:
        """The JSON document; ``alpha_interval`` gives [lo, hi] per length (null where ``alpha`` is null)."""
        lengths = list(self.lengths)
        interval = self.alpha_interval
        l2 = self.geometry is Geometry.L2
        rows = self.outcomes if l2 else self.intervals
        out = {
            "pe": str(self.pe),
            "task": str(self.task),
            "train_length": self.train_length,
            "mode": self.mode,
            "realizable": None if self.selection.undecided else self.realizable,
            "alpha": {str(L): self.alpha(L) for L in lengths},
            "rows": {str(L): rows[L].counts() for L in lengths} if self.realizable else {},
            "selected": self.selection.summary() if l2 or self.geometry_selection is None
            else self.geometry_selection.summary(),
            "geometry": self.geometry.value,
            "alpha_interval": {str(L): list(interval[L]) if L in interval else None for L in lengths},
        }
        if self.mode == "exact" and self.realizable:
            if l2:
                out["alpha_exact"] = {str(L): str(self.outcomes[L].exact_alpha) for L in lengths}
            elif all(self.intervals[L].exact for L in lengths):
                out["alpha_exact"] = {str(L): str(self.intervals[L].exact_interval[0]) for L in lengths}
                out["alpha_interval_exact"] = {str(L): [str(v) for v in self.intervals[L].exact_interval]
                                               for L in lengths}
        if self.limit:
            out["limit_interval"] = {str(L): self.limits[L].to_json()["interval"] if L in self.limits else None
                                     for L in lengths}
            out["limit"] = {str(L): self.limits[L].to_json() if L in self.limits else None for L in lengths}
        return out


def check_train_length(train_length) -> int:
    if isinstance(train_length, bool) or not isinstance(train_length, (int, np.integer)) or train_length < 1:
        raise bad_value("train length", train_length, "an integer >= 1")
    return int(train_length)


def check_tol(tol) -> float:
    if isinstance(tol, bool) or not isinstance(tol, (int, float, np.floating)) or not 0 <= tol < np.inf:
        raise bad_value("tolerance", tol, "a finite number >= 0")
    return float(tol)


def check_lengths(lengths: Iterable[int], train_length: int, pe: Encoding, mode: str = "float") -> list[int]:
    """Validate lengths: a non-empty collection of integers ≥ L0 within the PE's limit; sorted, unique."""
    if isinstance(lengths, (str, bytes)) or not isinstance(lengths, Iterable):
        raise bad_value("lengths", lengths, "a non-empty list of integers >= the train length")
    out = []
    for L in lengths:
        if isinstance(L, bool) or not isinstance(L, (int, np.integer)) or L < train_length:
            raise bad_value("length", L, f"integers >= the train length {train_length}")
        pe.check_length(int(L), train_length)
        if mode == "exact" and L > MAX_EXACT_LENGTH:
            raise bad_value("length", L, f"lengths up to {MAX_EXACT_LENGTH} in exact mode (use float or --certified)")
        out.append(int(L))
    if not out:
        raise bad_value("lengths", lengths, "a non-empty list of integers >= the train length")
    return sorted(set(out))


def _check_mode(mode: str, pe: Encoding) -> None:
    if mode not in MODES:
        raise bad_value("mode", mode, ", ".join(MODES))
    if mode == "exact" and not pe.rational:
        raise SpecError(f"invalid mode 'exact' for PE {str(pe)!r}; accepted: --exact for rational PEs "
                        "(relbias, colbias, alibi, nope, rational tables, their duals), --certified otherwise")


def compute_alpha(pe: str | Encoding, task: str | Task, train_length: int = DEFAULT_TRAIN_LENGTH,
                  lengths: Iterable[int] = DEFAULT_LENGTHS, mode: str = "float",
                  tol: float = DEFAULT_TOL, geometry: str | Geometry = Geometry.L2,
                  limit: bool = False) -> AlphaResult:
    """α_L(Φ, τ; L0) at each length, from θ* alone (no training).  ``geometry``: ``l2`` (θ*, the
    default), ``linf`` or ``l1`` (θ*_q and its optimal face: α_L becomes an interval).  With
    ``limit``, α♯_L too (ℓ2 only: the second-order term is derived for gradient descent)."""
    geometry = parse_geometry(geometry)
    if limit and geometry is not Geometry.L2:
        raise bad_value("geometry with limit=True", geometry.value,
                        "l2 (α♯ needs the second-order term of gradient descent, derived for ℓ2 only)")
    pe, task = parse_pe(pe), parse_task(task)
    _check_mode(mode, pe)
    train_length = check_train_length(train_length)
    tol = check_tol(tol)
    lengths = check_lengths(lengths, train_length, pe, mode)
    if limit and lengths[-1] > MAX_LIMIT_LENGTH:
        raise bad_value("length", lengths[-1], f"lengths up to {MAX_LIMIT_LENGTH} with the limit α♯")
    require(estimate_cell(pe, task, train_length, lengths, mode == "exact"))   # before any allocation
    sel = select(pe, task, train_length, exact=(mode == "exact") or (limit and pe.rational))
    if mode == "exact" and sel.realizable and sel.exact_theta is None:
        mode = "float (exact certificate not found)"   # say so: rows are then decided in float
    result = AlphaResult(pe, task, train_length, mode, sel, tuple(lengths), limit=limit, geometry=geometry)
    if not sel.realizable:   # the asked geometry is reported even then (realizability does not depend on it)
        return result
    if geometry is not Geometry.L2:
        return _geometry_alpha(result, geometry, mode, tol)
    exact_theta = sel.exact_theta
    theta = exact_theta if mode == "exact" and exact_theta is not None else sel.theta
    row_mode = mode if mode in MODES else "float"
    for L in lengths:
        result.outcomes[L] = row_outcomes(pe, task, theta, L, train_length, row_mode, tol)
    if limit:
        from posreal.theory.limit import limit_interval, prediction_context
        ctx = prediction_context(pe, task, sel)
        result.limits = {L: limit_interval(pe, task, sel, L, ctx) for L in lengths}
    return result


def _geometry_alpha(result: AlphaResult, geometry: Geometry, mode: str, tol: float) -> AlphaResult:
    """Fill an ℓ∞ / ℓ1 result: θ*_q, its face, the rows under θ*_q and the every/some interval."""
    from posreal.theory.faces import select_in_geometry
    gsel = select_in_geometry(result.pe, result.task, result.train_length, geometry, exact=(mode == "exact"))
    result.geometry, result.geometry_selection = geometry, gsel
    if gsel.theta is None:
        return result
    exact_rows = mode == "exact" and gsel.exact_theta is not None
    if mode == "exact" and not exact_rows:
        result.mode = "float (exact certificate not found)"
    theta = gsel.exact_theta if exact_rows else gsel.theta
    assert theta is not None   # checked above: a realizable cell has θ*_q
    for L in result.lengths:
        result.outcomes[L] = row_outcomes(result.pe, result.task, theta, L, result.train_length,
                                          "exact" if exact_rows else ("certified" if mode == "certified" else "float"),
                                          tol)
    result.intervals = interval_outcomes(gsel, result.lengths, tol)
    return result


def estimate_cell(pe: Encoding, task: Task, train_length: int, lengths: list[int], exact: bool) -> Estimate:
    """The planned memory of :func:`compute_alpha` for one cell (:mod:`posreal.theory.resources`)."""
    base = pe.base if isinstance(pe, DualOf) else pe
    kernel = "profile" if is_profile(pe) else "bilinear" if isinstance(base, AbsSin) else "dense"
    rows, _ = task.rows_and_targets(train_length)                        # (m,)
    return cell_estimate(f"{pe} · {task}", pe.dim(train_length), kernel, int(rows.sum()), lengths, exact)


@dataclass
class Sweep:
    """α_L for every L in [L0, L_max] from one pass: arrays over ``lengths``."""

    lengths: np.ndarray   # (K,)
    realized: np.ndarray  # (K,) realized rows of R_L
    undecided: np.ndarray  # (K,)
    total: np.ndarray     # (K,) |R_L|

    @property
    def alpha(self) -> np.ndarray:
        return np.where(self.total > 0, self.realized / np.maximum(self.total, 1), 1.0)


def alpha_sweep(pe: str | Encoding, task: str | Task, train_length: int = DEFAULT_TRAIN_LENGTH,
                max_length: int = 65536, mode: str = "float", tol: float = DEFAULT_TOL,
                selection: Selection | None = None) -> Sweep | None:
    """α_L for all L0 ≤ L ≤ max_length in one call (tasks whose rows do not depend on n).
    Returns None when the cell is not realizable at L0."""
    pe, task = parse_pe(pe), parse_task(task)
    if task.rows_depend_on_length:
        raise SpecError(f"invalid task {str(task)!r} for the all-lengths sweep; accepted: tasks whose "
                        "rows do not depend on n (offset:c, position:p, half and their duals)")
    _check_mode(mode, pe)
    train_length = check_train_length(train_length)
    tol = check_tol(tol)
    check_lengths([max_length], train_length, pe, mode)
    sel = selection or select(pe, task, train_length, exact=(mode == "exact"))
    if (sel.pe, sel.task, sel.train_length) != (pe, task, train_length):
        raise SpecError(f"invalid selection for the sweep: it was computed for {sel.pe}·{sel.task} at L0 = "
                        f"{sel.train_length}; accepted: the selection of {pe}·{task} at L0 = {train_length}")
    if not sel.realizable:
        return None
    exact_theta = sel.exact_theta
    if mode == "exact" and exact_theta is None:
        raise SpecError(f"invalid mode 'exact' for the sweep of {pe}·{task}: no exact θ* was found; "
                        "accepted: float or certified")
    theta = exact_theta if mode == "exact" and exact_theta is not None else sel.theta
    out = row_outcomes(pe, task, theta, max_length, train_length, mode, tol)
    lengths = np.arange(train_length, max_length + 1)                     # (K,)
    ends = np.searchsorted(out.rows, lengths, side="left")                # rows < L
    realized = np.concatenate(([0], np.cumsum(out.status == REALIZED)))[ends]
    undecided = np.concatenate(([0], np.cumsum(out.status == 0)))[ends]
    return Sweep(lengths, realized, undecided, ends)
