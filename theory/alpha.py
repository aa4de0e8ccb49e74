"""The transfer coefficient α_L(Φ, τ; L0), read off before any training (module ``posreal.theory.alpha``).

Main definitions (definitions.md#transfer-coefficient):

* α_L = |{i ∈ R_L : T_L θ* realizes row i}| / |R_L| ∈ [0, 1], with θ* the selected parameters at
  L0 (:mod:`posreal.theory.selection`) and T_L a transfer operator (:mod:`posreal.theory.transfer_operator`);
* the four axes of an answer, each one object built once: the cell (:class:`~posreal.theory.cell.Cell`),
  the arithmetic (:mod:`posreal.theory.arithmetic`: float, exact, certified), the geometry of the
  selection (:mod:`posreal.theory.geometry`: ℓ2, ℓ∞, ℓ1) and the transfer;
* geometry (definitions.md#geometry): with ``geometry="linf"`` or ``"l1"`` the prediction is the optimal
  face F_q of θ*_q and α_L is the interval [rows realized by every θ ∈ F_q, rows realized by some
  θ ∈ F_q] / |R_L| (:class:`IntervalAlphaResult`); for ℓ2 (the default) it is one number
  (:class:`AlphaResult`).  The geometry's selection program says which (:data:`_FILL`); the geometry
  itself states which combinations it allows (``limit``, ``fine_tune_length``);
* ``limit=True``: α♯_L as well, the interval that predicts lim acc_L(θ_k) for gradient descent (ℓ2
  only; :mod:`posreal.theory.limit`);
* the all-lengths sweep (:func:`alpha_sweep`): for tasks whose rows do not depend on n (offset,
  position, half), a causal row's outcome does not depend on L, so one pass on the L_max-grid gives
  α_L for every L ≤ L_max by cumulative counts.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

import numpy as np

from posreal.theory.arithmetic import Arithmetic, Mode, arithmetic
from posreal.theory.cell import Cell
from posreal.theory.defaults import LENGTHS as DEFAULT_LENGTHS
from posreal.theory.defaults import TRAIN_LENGTH as DEFAULT_TRAIN_LENGTH
from posreal.theory.encodings import Encoding
from posreal.theory.errors import SpecError, bad_value
from posreal.theory.face_rows import IntervalOutcomes, interval_outcomes
from posreal.theory.faces import GeometrySelection, in_geometry
from posreal.theory.geometry import Geometry, Program, SelectionGeometry, Use, allowing_labels
from posreal.theory.limit import LimitInterval
from posreal.theory.realization import DEFAULT_TOL, REALIZED, UNDECIDED, RowOutcomes
from posreal.runtime.resources import require
from posreal.theory.diagnostics import DEFAULT_ROWS, RowDiagnosis, diagnose
from posreal.theory.selection import Selection, select
from posreal.theory.tasks import Task
from posreal.theory.extension import parse_extension
from posreal.theory.transfer_operator import REEVALUATION, Transfer, check_theta_width

MAX_LIMIT_LENGTH = 4096      # α♯ classifies every tied row key by key (O(L) per row)


def _decide(cell: Cell, arith: Arithmetic, theta: Any, length: int, transfer: Transfer) -> RowOutcomes:
    """Rows of R_length under T_length^σ θ, decided by ``arith`` (the cell and length already validated)."""
    pe_at_length = transfer.at_length(cell.pe, length, cell.train_length)
    return arith.decide(pe_at_length, cell.task, theta, length, cell.train_length)


def row_outcomes(pe: str | Encoding, task: str | Task, theta: np.ndarray | Sequence[float] | Sequence[Fraction],
                 length: int, train_length: int, mode: str | Mode = Mode.FLOAT, tol: float = DEFAULT_TOL,
                 extension: str | Transfer = REEVALUATION) -> RowOutcomes:
    """Outcome of every row of R_L under T_L^σ θ (σ: ``extension``, plain re-evaluation by default).
    ``theta``: (p,) floats, or Fractions in exact mode.  ``pe`` and ``task`` are objects or spec strings."""
    cell = Cell.parse(pe, task, train_length)
    arith = arithmetic(mode, tol)
    arith.accept(cell.pe)
    op = parse_extension(extension)
    op.accept(cell.pe, cell.train_length)
    cell.pe.check_length(length, cell.train_length)
    check_theta_width(cell.pe, len(theta), cell.train_length)
    return _decide(cell, arith, theta, length, op)


@dataclass
class AlphaResult:
    """α_L of one cell at several lengths (ℓ2 geometry: θ*), with the row counts behind each value."""

    cell: Cell
    mode: Mode                                  # the arithmetic asked for (never rewritten)
    selection: Selection
    lengths: tuple[int, ...] = ()               # the requested lengths, sorted
    transfer: Transfer = REEVALUATION
    outcomes: dict[int, RowOutcomes] = field(default_factory=dict)     # rows under θ* (ℓ∞/ℓ1: θ*_q)
    limits: dict[int, LimitInterval] | None = None                      # α♯_L, when asked for
    fine_tune_length: int | None = None         # θ* selected at L1 with the extended features (fine-tuning)

    geometry = Geometry.L2

    @property
    def pe(self) -> Encoding:
        return self.cell.pe

    @property
    def task(self) -> Task:
        return self.cell.task

    @property
    def train_length(self) -> int:
        return self.cell.train_length

    @property
    def realizable(self) -> bool:
        return self.selection.realizable

    def alpha(self, length: int) -> float | None:
        """α_L; None when the cell is not realizable (or undecided) at L0, or R_L is empty."""
        if not self.realizable or self.outcomes[length].status.size == 0:
            return None
        return self.outcomes[length].alpha

    @property
    def alpha_interval(self) -> dict[int, tuple[float, float]]:
        """(lo, hi) per length where α_L is defined (ℓ2: lo = hi = α_L)."""
        return {L: (a, a) for L in self.lengths if (a := self.alpha(L)) is not None}

    def decided_in(self, length: int) -> Mode:
        """The arithmetic the rows of R_length were actually decided in."""
        return self.outcomes[length].mode

    def failing_rows(self, length: int, max_rows: int | None = DEFAULT_ROWS) -> list[RowDiagnosis]:
        """Why rows fail at this length.

        The failed and undecided rows (at most ``max_rows``; None: all), each with its target key, winning key,
        margin and per-frequency shares (:mod:`posreal.theory.diagnostics`)."""
        return diagnose(self.outcomes.get(length), self.selection, self.cell, self.transfer, length, max_rows)

    def __repr__(self) -> str:
        """One short line (the cell, the geometry, realizability and α per length), not a dataclass dump."""
        interval = self.alpha_interval

        def shown(L: int) -> str:
            if L not in interval:
                return "—"
            lo, hi = interval[L]
            return f"{lo:.4g}" if lo == hi else f"[{lo:.4g}, {hi:.4g}]"
        alphas = ", ".join(f"{L}: {shown(L)}" for L in self.lengths)
        extra = "" if self.transfer is REEVALUATION else f", transfer={self.transfer}"
        return (f"{type(self).__name__}({self.pe} · {self.task}, L0={self.train_length}, {self.geometry.value}, "
                f"{self.selection.status.value}{extra}, alpha={{{alphas}}})")

    def to_records(self) -> list[dict[str, Any]]:
        """One flat dict per length, for a notebook or a CSV.

        Each holds the cell, the geometry, the arithmetic, α_L with its interval ends (equal in ℓ2), the
        row counts behind it and, when α♯ was asked for, its interval ends (exact Fractions).  Every record
        of one result has the same keys; α and the counts are None where the cell is not realizable at L0."""
        interval = self.alpha_interval
        out: list[dict[str, Any]] = []
        for L in self.lengths:
            low, high = interval.get(L, (None, None))
            counts: dict[str, Any] = (dict(self._rows(L)) if self.realizable else
                                      {"realized": None, "failed": None, "undecided": None, "total": None})
            record: dict[str, Any] = {
                "pe": str(self.pe), "task": str(self.task), "train_length": self.train_length,
                "geometry": self.geometry.value, "extension": str(self.transfer), "mode": self.mode.value,
                "realizable": None if self.selection.undecided else self.realizable, "length": L,
                "alpha": self.alpha(L), "alpha_low": low, "alpha_high": high, **counts}
            if self.limits is not None:
                limit = self.limits.get(L)
                record["limit_low"] = None if limit is None else limit.low
                record["limit_high"] = None if limit is None else limit.high
            out.append(record)
        return out

    def to_frame(self) -> Any:
        """:meth:`to_records` as a ``pandas.DataFrame`` (one row per length).

        pandas is not a dependency of posreal: without it this raises :class:`ImportError` in one line saying so."""
        import importlib
        try:
            pandas = importlib.import_module("pandas")   # optional: never a dependency, so no stubs either
        except ImportError:
            raise ImportError("AlphaResult.to_frame() needs pandas, which posreal does not install; "
                              "run `pip install pandas`, or use to_records() (a list of dicts)") from None
        return pandas.DataFrame.from_records(self.to_records())

    def _selected(self) -> dict:
        return self.selection.summary()

    def _rows(self, length: int) -> dict[str, int]:
        return self.outcomes[length].counts()

    def _exact(self) -> dict:
        return {"alpha_exact": {str(L): str(self.outcomes[L].exact_alpha) for L in self.lengths}}

    def to_json(self) -> dict:
        """The JSON document; ``alpha_interval`` gives [lo, hi] per length (null where ``alpha`` is null).
        ``decided_in`` appears when some length's rows were decided in another arithmetic than ``mode``."""
        lengths = self.lengths
        interval = self.alpha_interval
        out: dict[str, Any] = {
            "pe": str(self.pe),
            "task": str(self.task),
            "train_length": self.train_length,
            "mode": self.mode.value,
            "realizable": None if self.selection.undecided else self.realizable,
            "alpha": {str(L): self.alpha(L) for L in lengths},
            "rows": {str(L): self._rows(L) for L in lengths} if self.realizable else {},
            "selected": self._selected(),
            "geometry": self.geometry.value,
            "alpha_interval": {str(L): list(interval[L]) if L in interval else None for L in lengths},
        }
        if self.transfer is not REEVALUATION:
            out["extension"] = str(self.transfer)
            details = getattr(self.transfer, "to_json", None)
            if details is not None:
                out["rope_scaling"] = details(self.train_length)
        if self.fine_tune_length is not None:
            out["fine_tune_length"] = self.fine_tune_length
        if self.realizable and self.outcomes:
            decided = {L: self.decided_in(L) for L in lengths}
            if self.mode is Mode.EXACT and all(m is Mode.EXACT for m in decided.values()):
                out.update(self._exact())
            if any(m is not self.mode for m in decided.values()):
                out["decided_in"] = {str(L): m.value for L, m in decided.items()}
        if self.limits is not None:
            limits = self.limits
            out["limit_interval"] = {str(L): limits[L].to_json()["interval"] if L in limits else None
                                     for L in lengths}
            out["limit"] = {str(L): limits[L].to_json() if L in limits else None for L in lengths}
        return out


@dataclass(repr=False)          # AlphaResult's one-line repr, not a dataclass dump of the face
class IntervalAlphaResult(AlphaResult):
    """α_L of one cell in the ℓ∞ or ℓ1 geometry: an interval over the optimal face F_q per length."""

    geometry: Geometry = Geometry.LINF
    geometry_selection: GeometrySelection | None = None    # θ*_q and its face
    intervals: dict[int, IntervalOutcomes] = field(default_factory=dict)   # every/some per row

    def alpha(self, length: int) -> float | None:
        """The low end of the α interval."""
        if not self.realizable or self.outcomes[length].status.size == 0:
            return None
        return self.intervals[length].interval[0]

    @property
    def alpha_interval(self) -> dict[int, tuple[float, float]]:
        return {L: self.intervals[L].interval for L in self.lengths if self.alpha(L) is not None}

    def decided_in(self, length: int) -> Mode:
        return self.intervals[length].decided_in

    def _selected(self) -> dict:
        return self.selection.summary() if self.geometry_selection is None else self.geometry_selection.summary()

    def _rows(self, length: int) -> dict[str, int]:
        return self.intervals[length].counts()

    def _exact(self) -> dict:
        return {"alpha_exact": {str(L): str(self.intervals[L].exact_interval[0]) for L in self.lengths},
                "alpha_interval_exact": {str(L): [str(v) for v in self.intervals[L].exact_interval]
                                         for L in self.lengths}}


def compute_alpha(pe: str | Encoding, task: str | Task, train_length: int = DEFAULT_TRAIN_LENGTH,
                  lengths: Iterable[int] = DEFAULT_LENGTHS, mode: str | Mode = Mode.FLOAT,
                  tol: float = DEFAULT_TOL, geometry: str | Geometry | SelectionGeometry = Geometry.L2,
                  limit: bool = False, extension: str | Transfer = REEVALUATION,
                  fine_tune_length: int | None = None) -> AlphaResult:
    """α_L(Φ, τ; L0) at each length, from θ* alone (no training).

    ``geometry``: ``l2`` (θ*, the
    default), ``linf`` or ``l1`` (θ*_q and its optimal face: α_L becomes an interval).  With
    ``limit``, α♯_L too (ℓ2 only: the second-order term is derived for gradient descent).
    ``extension``: how θ meets the longer grid (``none``: plain re-evaluation; ``pi``, ``ntk``, ``yarn``,
    ``factors:FILE``, ``hf:PATH``: :mod:`posreal.theory.extension`).  ``fine_tune_length`` L1 > L0: θ* is selected
    at L1 with the extended features (extend, then fine-tune), then transferred to each L ≥ L1 the same way."""
    rule = SelectionGeometry.parse(geometry)
    if limit:
        rule.require(Use.LIMIT, "geometry with limit=True")
    cell = Cell.parse(pe, task, train_length)
    arith = arithmetic(mode, tol)
    arith.accept(cell.pe)
    op = parse_extension(extension)
    op.accept(cell.pe, cell.train_length)
    if limit and op is not REEVALUATION:
        raise bad_value("extension with limit=True", str(op),
                        "none (α♯ is derived for plain re-evaluation; under an extension use α_L)")
    lengths = cell.check_lengths(lengths, arith.mode)
    if limit and lengths[-1] > MAX_LIMIT_LENGTH:
        raise bad_value("length", lengths[-1], f"lengths up to {MAX_LIMIT_LENGTH} with the limit α♯")
    selected_on = _fine_tuned(cell, op, fine_tune_length, lengths, rule, limit)
    complete = limit or rule.complete
    require(selected_on.estimate(lengths, arith.mode, complete=complete))
    exact = arith.exact_selection or (limit and cell.pe.rational)           # α♯ needs θ* in ℚ where it can be
    sel = select(selected_on.pe, cell.task, selected_on.train_length, Mode.EXACT if exact else Mode.FLOAT,
                 complete=complete)
    return _FILL[rule.program](cell, arith, rule, sel, tuple(lengths), op, limit, fine_tune_length)


def _fine_tuned(cell: Cell, op: Transfer, fine_tune_length: int | None, lengths: list[int],
                geometry: SelectionGeometry, limit: bool) -> Cell:
    """The cell θ* is selected on: the cell itself, or (fine-tuning) the extended PE at L1 on the L1-grid."""
    if fine_tune_length is None:
        return cell
    L1 = fine_tune_length
    if isinstance(L1, bool) or not isinstance(L1, (int, np.integer)) or L1 <= cell.train_length:
        raise bad_value("fine-tune length", L1, f"an integer > the train length {cell.train_length}")
    if op is REEVALUATION or not geometry.allows(Use.FINE_TUNE) or limit:
        raise bad_value("fine-tune length with extension", str(op), "a length extension (not none), in the "
                        f"{allowing_labels(Use.FINE_TUNE)} geometry without the limit α♯: fine-tuning selects θ* on "
                        "the extended features")
    if lengths[0] < L1:
        raise bad_value("length", lengths[0], f"lengths >= the fine-tune length {L1}")
    cell.pe.check_length(int(L1), cell.train_length)
    return Cell(op.at_length(cell.pe, int(L1), cell.train_length), cell.task, int(L1))


def _point_alpha(cell: Cell, arith: Arithmetic, geometry: SelectionGeometry, sel: Selection, lengths: tuple[int, ...],
                 op: Transfer, limit: bool, fine_tune_length: int | None) -> AlphaResult:
    """A geometry with one optimal θ (ℓ2: θ*): the rows under it, and α♯_L when asked for."""
    result = AlphaResult(cell, arith.mode, sel, lengths, op, limits={} if limit else None,
                         fine_tune_length=fine_tune_length)
    if not sel.realizable:
        return result
    decider, theta = arith.parameters(sel.theta, sel.exact_theta)
    result.outcomes = {L: _decide(cell, decider, theta, L, op) for L in lengths}
    if limit:
        from posreal.theory.limit import limit_interval, prediction_context
        ctx = prediction_context(cell.pe, cell.task, sel)
        result.limits = {L: limit_interval(cell.pe, cell.task, sel, L, ctx) for L in lengths}
    return result


def _interval_alpha(cell: Cell, arith: Arithmetic, geometry: SelectionGeometry, sel: Selection,
                    lengths: tuple[int, ...], op: Transfer, limit: bool,
                    fine_tune_length: int | None) -> IntervalAlphaResult:
    """A geometry with an optimal face (ℓ∞, ℓ1): θ*_q, its face, the rows under θ*_q and the every/some interval.

    Certified mode certifies the interval's rows where the face is one point (every = some = the rows of
    θ*_q, decided by interval arithmetic); on a larger face the every/some decisions are LPs in float,
    and ``decided_in`` says so."""
    result = IntervalAlphaResult(cell, arith.mode, sel, lengths, op, geometry=geometry.name)
    if not result.realizable:   # the asked geometry is reported even then (realizability does not depend on it)
        return result
    gsel = in_geometry(sel, geometry)
    result.geometry_selection = gsel
    if gsel.theta is None:
        return result
    decider, theta = arith.parameters(gsel.theta, gsel.exact_theta)
    result.outcomes = {L: _decide(cell, decider, theta, L, result.transfer) for L in result.lengths}
    result.intervals = interval_outcomes(gsel, result.lengths, arith.tol, op=result.transfer)
    if decider.mode is Mode.CERTIFIED and gsel.point:
        for L, rows in result.intervals.items():
            certified = result.outcomes[L].status                                  # (m,)
            rows.every, rows.some, rows.certified = certified.copy(), certified.copy(), True
    return result


_FILL: dict[Program, Callable[..., AlphaResult]] = {Program.QUADRATIC: _point_alpha, Program.LINEAR: _interval_alpha}
"""How α_L is read off each kind of selection program (the geometry says which it has)."""


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
                max_length: int = 65536, mode: str | Mode = Mode.FLOAT, tol: float = DEFAULT_TOL,
                selection: Selection | None = None) -> Sweep | None:
    """α_L for all L0 ≤ L ≤ max_length in one call (tasks whose rows do not depend on n).
    Returns None when the cell is not realizable at L0."""
    cell = Cell.parse(pe, task, train_length)
    if cell.task.rows_depend_on_length:
        raise SpecError(f"invalid task {str(cell.task)!r} for the all-lengths sweep; accepted: tasks whose "
                        "rows do not depend on n (offset:c, position:p, half and their duals)")
    arith = arithmetic(mode, tol)
    arith.accept(cell.pe)
    cell.check_lengths([max_length], arith.mode)
    sel = selection or select(cell.pe, cell.task, cell.train_length, arith.mode)
    if (sel.pe, sel.task, sel.train_length) != (cell.pe, cell.task, cell.train_length):
        raise SpecError(f"invalid selection for the sweep: it was computed for {sel.pe}·{sel.task} at L0 = "
                        f"{sel.train_length}; accepted: the selection of {cell.pe}·{cell.task} at L0 = "
                        f"{cell.train_length}")
    if not sel.realizable:
        return None
    if arith.exact_selection and sel.exact_theta is None:
        raise SpecError(f"invalid mode 'exact' for the sweep of {cell}: no exact θ* was found; "
                        "accepted: float or certified")
    decider, theta = arith.parameters(sel.theta, sel.exact_theta)
    out = _decide(cell, decider, theta, max_length, REEVALUATION)
    lengths = np.arange(cell.train_length, max_length + 1)                # (K,)
    ends = np.searchsorted(out.rows, lengths, side="left")                # rows < L
    realized = np.concatenate(([0], np.cumsum(out.status == REALIZED)))[ends]
    undecided = np.concatenate(([0], np.cumsum(out.status == UNDECIDED)))[ends]
    return Sweep(lengths, realized, undecided, ends)
