"""Why a row fails: the target key, the key that beats it, the margin, and each frequency's share of the margin.

Main definitions (definitions.md#diagnostics):

* for a scored row i of R_L with target t under T_L^σ θ, the *winner* is the first key w ≠ t of the row with the
  largest value κ(i, w) (the key that beats the target, or comes nearest), and γ_i = κ(i, t) - κ(i, w);
* for a sinusoidal PE with d/2 frequencies the margin splits over them:
  γ_i = Σ_f θ_f (ψ_f(i, t) − ψ_f(i, w)) + θ_{f+d/2} (ψ_{f+d/2}(i, t) − ψ_{f+d/2}(i, w)), one term per frequency ω_f;
  listed largest in magnitude first, they say which frequency realigns (rope:16, L0 = 16: on row 178 offset 177
  beats offset 1 because ω₀ = 1 comes back to within 1 rad of its phase at offset 1);
* :func:`diagnose` lists the failed and undecided rows of one length, at most ``max_rows`` of them (all with
  ``max_rows=None``), each a :class:`RowDiagnosis`.  Winners of a profile kernel come from one O(L) pass
  (:func:`~posreal.theory.kernels.profile_rivals`); other kernels are read row by row for the listed rows only.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

from posreal.theory.defaults import ROWS
from posreal.theory.kernels import ProfileKernel, profile_rivals, target_keys
from posreal.theory.realization import FAILED, UNDECIDED

if TYPE_CHECKING:
    from posreal.theory.cell import Cell
    from posreal.theory.realization import RowOutcomes
    from posreal.theory.selection import Selection
    from posreal.theory.transfer_operator import Transfer

DEFAULT_ROWS = ROWS   # rows listed per length unless ``--rows all``


@dataclass(frozen=True)
class RowDiagnosis:
    """One failed or undecided row: its target key, the winning key, the margin and the frequencies' shares."""

    row: int
    target: int
    winner: int | None                              # None on a row with one key
    margin: float
    status: str                                     # "failed", "undecided" or "structural tie"
    contributions: tuple[tuple[int, float], ...] = ()   # (frequency f, share of the margin), largest |share| first

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"row": self.row, "target": self.target, "winner": self.winner,
                               "margin": self.margin, "status": self.status}
        if self.contributions:
            out["frequencies"] = [{"f": f, "contribution": c} for f, c in self.contributions]
        return out


def _winners(kernel: Any, rows: np.ndarray, keys: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Margins and winning key indices of the given rows: (m,), (m,) -> (m,), (m,) (-1: a one-key row)."""
    if isinstance(kernel, ProfileKernel):
        return profile_rivals(np.asarray(kernel.values, dtype=float), rows, keys)
    margins, winners = np.empty(rows.size), np.full(rows.size, -1, dtype=np.int64)
    for n, (i, k) in enumerate(zip(rows.tolist(), keys.tolist())):
        values = np.asarray(kernel.index_row(i), dtype=float)                 # (i+1,) index form
        values[k] = -np.inf
        if i > 0:
            winners[n] = int(np.argmax(values))
            margins[n] = float(kernel.index_row(i)[k]) - values[winners[n]]
        else:
            margins[n] = np.inf
    return margins, winners


def frequency_shares(pe: Any, theta: np.ndarray, row: int, target: int, winner: int, train_length: int
                     ) -> tuple[tuple[int, float], ...]:
    """θ-weighted feature differences ψ(i, t) − ψ(i, w) summed per frequency, largest first (sinusoidal PEs whose
    d features are d/2 cosine-sine pairs; () for any other PE)."""
    half = getattr(pe, "d", 0) // 2
    if not half or pe.dim(train_length) != 2 * half or not hasattr(pe, "omegas"):
        return ()
    feats = pe.pair_features(np.array([row, row]), np.array([target, winner]), train_length)   # (2, d)
    share = theta * (feats[0] - feats[1])                                                      # (d,)
    per_frequency = share[:half] + share[half:]                                                # (d/2,)
    order = np.argsort(-np.abs(per_frequency), kind="stable")
    return tuple((int(f), float(per_frequency[f])) for f in order)


def diagnose(outcomes: RowOutcomes | None, selection: Selection, cell: Cell, transfer: Transfer, length: int,
             max_rows: int | None = DEFAULT_ROWS) -> list[RowDiagnosis]:
    """The failed and undecided rows of R_length (their ``outcomes``) under ``transfer`` of the selected θ*, first
    ``max_rows`` of them by row."""
    if outcomes is None or not selection.realizable:
        return []
    bad = np.flatnonzero((outcomes.status == FAILED) | (outcomes.status == UNDECIDED))
    if max_rows is not None:
        bad = bad[:max_rows]
    if bad.size == 0:
        return []
    pe = transfer.at_length(cell.pe, length, cell.train_length)
    theta = np.asarray(selection.theta, dtype=float)                          # (p,)
    kernel = pe.kernel(theta, length, cell.train_length)
    rows, targets = outcomes.rows[bad], outcomes.targets[bad]                  # (b,)
    keys = target_keys(kernel.index, rows, targets)
    margins, winners = _winners(kernel, rows, keys)
    out = []
    for n, (i, t) in enumerate(zip(rows.tolist(), targets.tolist())):
        k = int(winners[n])
        winner = None if k < 0 else int(pe.key_index(i, k))
        status = ("structural tie" if outcomes.ties[bad[n]] else
                  "failed" if outcomes.status[bad[n]] == FAILED else "undecided")
        shares = () if winner is None else frequency_shares(pe, theta, i, t, winner, cell.train_length)
        out.append(RowDiagnosis(i, t, winner, float(margins[n]), status, shares))
    return out
