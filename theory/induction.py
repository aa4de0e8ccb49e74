"""The induction circuit's transfer coefficient α_L^ind(Φ, σ; L0) (result E3, definitions.md#what-escapes).

Main definitions and results:

* layer 1 is a positional-only head with θ₁ = θ*(Φ, offset:1; L0), the selection of the transfer
  coefficient, transferred to the L-grid by T_L^σ; its *route set* P(j) on row j is the set of keys
  that may be its maximizer: {j - 1} where α's machinery realizes ``offset:1`` on row j, {0} on row 0,
  and otherwise the maximizers of the row read off the same kernel (:class:`LayerOneRoutes`);
* layer 2 scores key j by β·[x_i = x_{route₁(j)}], β > 0.  On the ``induction`` layout (n = 2m + 1,
  BOS, distinct first half; :mod:`posreal.theory.token_tasks`) the only keys whose routed token equals
  x_i are those routed to s = i - m or to i itself (route₁(j) ≤ j ≤ i), so row i (target t = s + 1) is
  realized iff
  (a) route₁(t) = s, (b) route₁(i) ≠ i, (c) no other key j ∈ [s, i] has route₁(j) = s
  — for every choice of a tied row's route (:func:`circuit_rows`).  α_L^ind is the fraction of
  rows m+1..2m-1 so realized: a function of layer 1's row outcomes alone;
* α_L(Φ, offset:1) = 1 ⟹ α_L^ind = 1 at every length: then route₁(j) = j - 1 on every row j ≥ 1
  and route₁(0) = 0, so (a) holds, route₁(i) = i - 1 ≠ i, and route₁(j) = s forces j = s + 1 = t
  (s ≥ 1, so j = 0 never routes to s).  QED.  Checked for all m by SMT (``escape-induction``);
* row by row otherwise: (a) fails where ``offset:1`` fails on a first-half row t ∈ [2, m];
  (b) where row i routes to itself; (c) where another row routes to s.  Hence also
  α_L^ind ≤ (realized ``offset:1`` rows among 2..m)/(m - 1).

Arithmetic: the three modes of α (:mod:`posreal.theory.arithmetic`).  Exact mode decides every route in ℚ
(ties are decided ties).  Float mode: a key is a possible maximizer when its value is within
tol·max(1, |max|) of the row's maximum; a row with more than one such key is *undecided* (a tie or a
near-tie), and a circuit row whose verdict depends on it is undecided, never silently counted.
Certified mode re-decides those keys with interval arithmetic (:func:`posreal.theory.certified.interval_margin`);
an exact tie cannot be certified by intervals and stays undecided.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from enum import StrEnum
from fractions import Fraction
from typing import Any

import numpy as np

from posreal.theory.alpha import AlphaResult, compute_alpha
from posreal.theory.arithmetic import Mode
from posreal.theory.defaults import TRAIN_LENGTH as DEFAULT_TRAIN_LENGTH
from posreal.theory.errors import bad_value
from posreal.theory.kernels import KeyIndex
from posreal.theory.realization import DEFAULT_TOL, FAILED, REALIZED, UNDECIDED
from posreal.theory.token_tasks import induction_layout

INDUCTION_LENGTHS = (33, 65, 129, 257)
"""Odd lengths n = 2m + 1 next to the default lengths of α (the induction layout needs n = 2m + 1)."""


class Route(StrEnum):
    """How layer 1's route on one row is known."""

    UNIQUE = "unique"          # one maximizer, decided
    TIED = "tied"              # several maximizers, decided (exact mode)
    UNDECIDED = "undecided"    # several keys within the tolerance of the maximum (float), or not certified


class Condition(StrEnum):
    """The three conditions of the circuit's row i (s = i - m, t = s + 1)."""

    A = "a"   # route₁(t) = s
    B = "b"   # route₁(i) ≠ i
    C = "c"   # no other key j ∈ [s, i] routes to s


@dataclass
class LayerOneRoutes:
    """Route sets of layer 1 on every row of the L-grid: P(j) (positions) and how each is known."""

    length: int
    decided_in: Mode
    kinds: list[Route]                 # (L,)
    sets: list[tuple[int, ...]]        # (L,) possible routes of each row, ascending positions

    def routes_to(self) -> dict[int, list[int]]:
        """Key position p -> rows j with p ∈ P(j)."""
        out: dict[int, list[int]] = {}
        for j, keys in enumerate(self.sets):
            for p in keys:
                out.setdefault(p, []).append(j)
        return out


def _positions(index: KeyIndex, row: int, keys: Iterable[int]) -> tuple[int, ...]:
    """Key indices of row ``row`` as key positions, ascending."""
    return tuple(sorted(row - k if index == KeyIndex.OFFSET else k for k in keys))


def layer_one_routes(result: AlphaResult, length: int) -> LayerOneRoutes:
    """P(j) for every row of the ``length``-grid from an ``offset:1`` α result at that length (its θ*, transfer
    and arithmetic): the realized rows route to j - 1; the others are read off the same kernel."""
    cell, outcomes = result.cell, result.outcomes[length]
    kinds: list[Route] = [Route.UNIQUE] * length
    sets: list[tuple[int, ...]] = [(max(j - 1, 0),) for j in range(length)]
    status = {int(r): int(s) for r, s in zip(outcomes.rows, outcomes.status)}
    open_rows = [j for j in range(1, length) if status[j] != REALIZED]
    if not open_rows:
        return LayerOneRoutes(length, outcomes.mode, kinds, sets)
    pe_l = result.transfer.at_length(cell.pe, length, cell.train_length)
    exact = outcomes.mode is Mode.EXACT
    if exact:
        optimum = result.selection.optimum
        assert optimum is not None and optimum.exact_theta is not None     # exact outcomes come from an exact θ*
        theta = [x if isinstance(x, Fraction) else Fraction(x) for x in optimum.exact_theta]
        kernel = pe_l.exact_kernel(theta, length, cell.train_length)
        for j in open_rows:
            row = kernel.row(j)                                   # j + 1 Fractions
            top = max(row)
            keys = [k for k, v in enumerate(row) if v == top]
            sets[j] = _positions(kernel.index, j, keys)
            kinds[j] = Route.UNIQUE if len(keys) == 1 else Route.TIED
        return LayerOneRoutes(length, outcomes.mode, kinds, sets)
    theta_f = np.asarray(result.selection.theta, dtype=float)      # (p,)
    kernel = pe_l.kernel(theta_f, length, cell.train_length)
    rows = np.array(open_rows, dtype=np.int64)                    # (F,)
    cols = np.arange(length)                                      # (L,)
    band_of = _certified_band(pe_l, theta_f, length, cell.train_length) if outcomes.mode is Mode.CERTIFIED else None
    tol = outcomes.tol
    block = kernel.block_rows()
    for start in range(0, rows.size, block):
        r = rows[start:start + block]                             # (b,)
        vals = np.array(kernel.row_values(r), dtype=float)        # (b, L) index form
        vals[cols[None, :] > r[:, None]] = -np.inf                # causal mask
        top = vals.max(axis=1)                                    # (b,)
        width = tol * np.maximum(1.0, np.abs(top)) if band_of is None else np.full(r.size, band_of)
        inside = vals >= (top - width)[:, None]                   # (b, L) possible maximizers
        for n, j in enumerate(r.tolist()):
            keys = np.flatnonzero(inside[n]).tolist()
            if band_of is not None and len(keys) > 1:
                keys, kind = _certify_keys(pe_l, theta_f, j, keys, cell.train_length)
            else:
                kind = Route.UNIQUE if len(keys) == 1 else Route.UNDECIDED
            sets[j], kinds[j] = _positions(kernel.index, j, keys), kind
    return LayerOneRoutes(length, outcomes.mode, kinds, sets)


def _certified_band(pe, theta: np.ndarray, length: int, train_length: int) -> float:
    """Half-width of the band of keys re-decided by intervals: the certified mode's borderline band."""
    from posreal.theory.certified import BAND_FACTOR, float_error_bound
    return BAND_FACTOR * float_error_bound(theta, theta.size, length, pe.max_abs_feature(length, train_length))


def _certify_keys(pe, theta: np.ndarray, row: int, keys: list[int], train_length: int) -> tuple[list[int], Route]:
    """Interval enclosures of each candidate key's margin: a key with a positive margin is the unique route;
    keys with a negative one are dropped; two or more left stay undecided."""
    from mpmath import iv

    from posreal.theory.certified import DIGITS, interval_margin
    iv.dps = DIGITS
    left = []
    for k in keys:
        enclosure = interval_margin(pe, theta, row, k, train_length)
        if enclosure.a > 0:
            return [k], Route.UNIQUE
        if not enclosure.b < 0:
            left.append(k)
    return left, (Route.UNIQUE if len(left) == 1 else Route.UNDECIDED)


@dataclass
class CircuitRows:
    """The circuit's outcome on every row of ``induction`` at one length, with the failed conditions."""

    length: int
    mode: Mode
    rows: np.ndarray                        # (m - 1,)
    targets: np.ndarray                     # (m - 1,)
    status: np.ndarray                      # (m - 1,) int8: 1 realized, 0 undecided, -1 failed
    failed: dict[int, tuple[Condition, ...]] = field(default_factory=dict)   # row -> conditions it fails
    undecided: dict[int, tuple[Condition, ...]] = field(default_factory=dict)

    @property
    def alpha(self) -> float:
        return float(np.sum(self.status == REALIZED)) / self.status.size

    @property
    def exact_alpha(self) -> Fraction:
        return Fraction(int(np.sum(self.status == REALIZED)), int(self.status.size))

    def counts(self) -> dict[str, int]:
        by = {c.value: sum(c in cs for cs in self.failed.values()) for c in Condition}
        return {"realized": int(np.sum(self.status == REALIZED)), "failed": int(np.sum(self.status == FAILED)),
                "undecided": int(np.sum(self.status == UNDECIDED)), "total": int(self.status.size),
                **{f"failed_{k}": v for k, v in by.items()}}


def _verdict(known: bool, holds: bool) -> int:
    """1 holds, -1 fails, 0 unknown."""
    return (1 if holds else -1) if known else 0


def circuit_rows(routes: LayerOneRoutes) -> CircuitRows:
    """Row i of ``induction`` is realized iff (a), (b), (c) hold for every choice of a tied row's route."""
    layout = induction_layout(routes.length)
    to = routes.routes_to()
    status = np.zeros(layout.rows.size, dtype=np.int8)           # (m - 1,)
    failed: dict[int, tuple[Condition, ...]] = {}
    undecided: dict[int, tuple[Condition, ...]] = {}
    decided = lambda j: routes.kinds[j] is not Route.UNDECIDED
    for n, (i, t) in enumerate(zip(layout.rows.tolist(), layout.targets.tolist())):
        s = t - 1
        pt = routes.sets[t]
        a = 1 if pt == (s,) and routes.kinds[t] is Route.UNIQUE else _verdict(decided(t) or s not in pt, False)
        b = _verdict(decided(i) or i not in routes.sets[i], i not in routes.sets[i])
        others = [j for j in to.get(s, []) if s <= j <= i and j != t]
        c = 1 if not others else (-1 if any(decided(j) for j in others) else 0)
        verdicts = {Condition.A: a, Condition.B: b, Condition.C: c}
        bad = tuple(k for k, v in verdicts.items() if v == -1)
        unknown = tuple(k for k, v in verdicts.items() if v == 0)
        if bad:
            status[n], failed[i] = FAILED, bad
        elif unknown:
            status[n], undecided[i] = UNDECIDED, unknown
        else:
            status[n] = REALIZED
    return CircuitRows(routes.length, routes.decided_in, layout.rows, layout.targets, status, failed, undecided)


def check_induction_lengths(lengths: Iterable[int]) -> list[int]:
    """Every requested length must fit the layout n = 2m + 1, m >= 2 (one-line SpecError otherwise)."""
    if isinstance(lengths, (str, bytes)) or not isinstance(lengths, Iterable):
        raise bad_value("lengths", lengths, "a non-empty list of odd lengths n = 2m + 1 >= the train length")
    out = [induction_layout(L).length for L in lengths]
    if not out:
        raise bad_value("lengths", lengths, "a non-empty list of odd lengths n = 2m + 1 >= the train length")
    return sorted(set(out))


@dataclass
class InductionResult:
    """α_L^ind of one (PE, extension, L0) beside α_L(copy) and α_L(offset:1) at the same lengths."""

    offset1: AlphaResult
    copy: AlphaResult
    circuits: dict[int, CircuitRows]

    @property
    def lengths(self) -> tuple[int, ...]:
        return self.offset1.lengths

    @property
    def realizable(self) -> bool:
        return self.offset1.realizable

    def alpha(self, length: int) -> float | None:
        """α_L^ind; None when layer 1 (offset:1) is not realizable at L0."""
        return self.circuits[length].alpha if self.realizable else None

    def to_json(self) -> dict:
        off, lengths = self.offset1, self.lengths
        out: dict[str, Any] = {
            "pe": str(off.pe), "task": "induction", "train_length": off.train_length, "mode": off.mode.value,
            "extension": str(off.transfer), "layer1": "offset:1",
            "realizable": None if off.selection.undecided else off.realizable,
            "alpha": {str(L): self.alpha(L) for L in lengths},
            "alpha_copy": {str(L): self.copy.alpha(L) for L in lengths},
            "alpha_offset1": {str(L): off.alpha(L) for L in lengths},
            "rows": {str(L): c.counts() for L, c in self.circuits.items()},
            "failed_rows": {str(L): {str(i): [c.value for c in cs] for i, cs in c.failed.items()}
                            for L, c in self.circuits.items()},
            "undecided_rows": {str(L): {str(i): [c.value for c in cs] for i, cs in c.undecided.items()}
                               for L, c in self.circuits.items()},
            "selected": off.selection.summary(),
        }
        if self.circuits and all(c.mode is Mode.EXACT for c in self.circuits.values()):
            out["alpha_exact"] = {str(L): str(c.exact_alpha) for L, c in self.circuits.items()}
        decided = {str(L): c.mode.value for L, c in self.circuits.items()}
        if any(v != off.mode.value for v in decided.values()):
            out["decided_in"] = decided
        return out


def induction_alpha(pe: Any, train_length: int = DEFAULT_TRAIN_LENGTH, lengths: Iterable[int] = INDUCTION_LENGTHS,
                    mode: str | Mode = Mode.FLOAT, tol: float = DEFAULT_TOL,
                    extension: Any = "none") -> InductionResult:
    """α_L^ind(Φ, σ; L0) at each odd length, with α_L(copy) and α_L(offset:1) (the same θ*, transfer, mode)."""
    lengths = check_induction_lengths(lengths)
    offset1 = compute_alpha(pe, "offset:1", train_length, lengths, mode, tol, extension=extension)
    copy = compute_alpha(pe, "copy", train_length, lengths, mode, tol, extension=extension)
    circuits = {L: circuit_rows(layer_one_routes(offset1, L)) for L in lengths} if offset1.realizable else {}
    return InductionResult(offset1, copy, circuits)
