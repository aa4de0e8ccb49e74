"""The transfer coefficient α_L(Φ, τ; L0), read off before any training (module ``posreal.theory.alpha``).

Main definitions (THEORY.md §1, "Transfer coefficient"):

* α_L = |{i ∈ R_L : T_L θ* realizes row i}| / |R_L| ∈ [0, 1], with θ* the selected
  parameters at L0 (:mod:`posreal.theory.selection`) and T_L the transfer operator (:mod:`posreal.theory.kernels`);
* three modes: ``float`` (tolerance rule, undecided rows reported), ``exact`` (ℚ, rational PEs),
  ``certified`` (float, with borderline rows re-decided by interval arithmetic);
* the all-lengths sweep: for tasks whose rows do not depend on n (offset, position, half), a
  causal row's outcome does not depend on L, so one pass on the L_max-grid gives α_L for
  every L ≤ L_max by cumulative counts.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from typing import Iterable

import numpy as np

from posreal.theory.encodings import AbsSin, DualOf, Encoding, is_profile, parse_pe
from posreal.theory.errors import SpecError, bad_value
from posreal.theory.kernels import exact_transfer, transfer
from posreal.theory.limits import Estimate, cell_estimate, require
from posreal.theory.realization import (DEFAULT_TOL, REALIZED, RowOutcomes, classify_exact, classify_float,
                                exact_margins, float_margins, structural_ties)
from posreal.theory.selection import Selection, select
from posreal.theory.tasks import Task, parse_task

MODES = ("float", "exact", "certified")
from posreal.theory.defaults import LENGTHS as DEFAULT_LENGTHS  # noqa: E402  (re-exported)
from posreal.theory.defaults import TRAIN_LENGTH as DEFAULT_TRAIN_LENGTH  # noqa: E402
MAX_EXACT_LENGTH = 2 ** 18   # exact mode keeps one Fraction per key index


def row_outcomes(pe: Encoding, task: Task, theta, length: int, train_length: int,
                 mode: str = "float", tol: float = DEFAULT_TOL) -> RowOutcomes:
    """Outcome of every row of R_L under T_L θ.  ``theta``: (p,) floats, or Fractions in exact mode."""
    rows, targets = task.rows_and_targets(length)
    ties = structural_ties(pe, rows, targets, length, train_length)
    if mode == "exact":
        kernel = exact_transfer(pe, theta, length, train_length)
        margins, _ = exact_margins(kernel, rows, targets)
        return RowOutcomes(length, mode, rows, targets, margins, classify_exact(margins, ties), ties, tol)
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
    outcomes: dict[int, RowOutcomes] = field(default_factory=dict)

    @property
    def realizable(self) -> bool:
        return self.selection.realizable

    def alpha(self, length: int) -> float | None:
        """α_L; None when the cell is not realizable (or undecided) at L0, or R_L is empty."""
        if not self.realizable or self.outcomes[length].status.size == 0:
            return None
        return self.outcomes[length].alpha

    def to_json(self) -> dict:
        lengths = list(self.lengths)
        out = {
            "pe": str(self.pe),
            "task": str(self.task),
            "train_length": self.train_length,
            "mode": self.mode,
            "realizable": None if self.selection.undecided else self.realizable,
            "alpha": {str(L): self.alpha(L) for L in lengths},
            "rows": {str(L): self.outcomes[L].counts() for L in lengths} if self.realizable else {},
            "selected": self.selection.summary(),
        }
        if self.mode == "exact" and self.realizable:
            out["alpha_exact"] = {str(L): str(self.outcomes[L].exact_alpha) for L in lengths}
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


def compute_alpha(pe, task, train_length: int = DEFAULT_TRAIN_LENGTH,
                  lengths: Iterable[int] = DEFAULT_LENGTHS, mode: str = "float",
                  tol: float = DEFAULT_TOL) -> AlphaResult:
    """α_L(Φ, τ; L0) at each length, from θ* alone (no training)."""
    pe, task = parse_pe(pe), parse_task(task)
    if not getattr(pe, "linear", False):
        raise SpecError(f"invalid PE {str(pe)!r} for α_L; accepted: a linear PE "
                        "(for learned:d use posreal.theory.underdetermination.learned_alpha_interval)")
    _check_mode(mode, pe)
    train_length = check_train_length(train_length)
    tol = check_tol(tol)
    lengths = check_lengths(lengths, train_length, pe, mode)
    require(estimate_cell(pe, task, train_length, lengths, mode == "exact"))   # before any allocation
    sel = select(pe, task, train_length, exact=(mode == "exact"))
    if mode == "exact" and sel.realizable and sel.exact_theta is None:
        mode = "float (exact certificate not found)"   # say so: rows are then decided in float
    result = AlphaResult(pe, task, train_length, mode, sel, tuple(lengths))
    if not sel.realizable:
        return result
    theta = sel.exact_theta if mode == "exact" else sel.theta
    row_mode = mode if mode in MODES else "float"
    for L in lengths:
        result.outcomes[L] = row_outcomes(pe, task, theta, L, train_length, row_mode, tol)
    return result


def estimate_cell(pe: Encoding, task: Task, train_length: int, lengths: list[int], exact: bool) -> Estimate:
    """The planned memory of :func:`compute_alpha` for one cell (:mod:`posreal.theory.limits`)."""
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


def alpha_sweep(pe, task, train_length: int = DEFAULT_TRAIN_LENGTH, max_length: int = 65536,
                mode: str = "float", tol: float = DEFAULT_TOL, selection: Selection | None = None) -> Sweep | None:
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
    if mode == "exact" and sel.exact_theta is None:
        raise SpecError(f"invalid mode 'exact' for the sweep of {pe}·{task}: no exact θ* was found; "
                        "accepted: float or certified")
    theta = sel.exact_theta if mode == "exact" else sel.theta
    out = row_outcomes(pe, task, theta, max_length, train_length, mode, tol)
    lengths = np.arange(train_length, max_length + 1)                     # (K,)
    ends = np.searchsorted(out.rows, lengths, side="left")                # rows < L
    realized = np.concatenate(([0], np.cumsum(out.status == REALIZED)))[ends]
    undecided = np.concatenate(([0], np.cumsum(out.status == 0)))[ends]
    return Sweep(lengths, realized, undecided, ends)
