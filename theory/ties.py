"""Classify every failing row of T_L θ* — which ones the Conjecture already decides, which are open.

Main definitions (definitions.md#conjecture, "Known" / "Open"; used by α♯ in
:mod:`posreal.theory.limit`); for a row i ∈ R_L with target t:

* ``strict_misrank`` — γ_i(T_L θ*) < 0: some rival beats the target under θ*, so (Theorem 1)
  it beats it along any trajectory converging in direction to θ*;
* ``structural_tie`` — ψ(i, t) = ψ(i, j) for some j ≠ t: no θ realizes the row;
* ``orthogonal_tie`` — γ_i = 0 and some tied rival j (⟨θ*, v_j⟩ = 0, v_j = ψ(i,t) - ψ(i,j) ≠ 0)
  has Z v_j = 0, i.e. v_j ⊥ col Zᵀ: gradient descent from 0 never leaves col Zᵀ, so
  ⟨θ_k, v_j⟩ = 0 for every k and the row fails forever (proven);
* ``open_tie`` — γ_i = 0 and every tied rival has Z v_j ≠ 0: the Conjecture's open case;
* ``undecided`` — float mode only (irrational features): |γ_i| within the tolerance rule.  Its
  near-tied rivals (|κ(i,j) - κ(i,t)| within the same tolerance) are attached with float
  directions, and ``orthogonal`` then means ‖Z v‖ within tolerance — not a proof: a float tie
  may be a coincidence, and an exact tie needs its own argument.

Exact mode (rational PEs with exact KKT evidence for θ*) decides every class in ℚ.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction

import numpy as np

from posreal.theory.encodings import Encoding
from posreal.theory.errors import SpecError
from posreal.theory.kernels import Kernel
from posreal.theory.transfer_operator import exact_transfer, transfer
from posreal.theory.realization import (DEFAULT_TOL, FAILED, REALIZED, classify_exact, classify_float, exact_margins,
                                        float_margins, structural_ties)
from posreal.theory.kernels import target_keys
from posreal.theory.rational import dot
from posreal.theory.selection import Selection
from posreal.theory.tasks import Task

CLASSES = ("strict_misrank", "structural_tie", "orthogonal_tie", "open_tie", "undecided")


@dataclass
class TieRival:
    """One tied rival key j of a margin-0 row: v = ψ(i,t) - ψ(i,j), ⟨θ*, v⟩ = 0."""

    rival: int
    direction: tuple  # Fractions (exact mode) or floats (undecided float rows)
    orthogonal: bool  # Z v = 0 (exact), ‖Z v‖ within tolerance (float)


@dataclass
class FailingRow:
    row: int
    target: int
    cls: str
    margin: Fraction | float
    rivals: list[TieRival] = field(default_factory=list)


@dataclass
class Classification:
    """Outcome of one instance (PE, task, L0, L) under T_L θ*."""

    length: int
    exact: bool
    total: int
    realized: int
    failing: list[FailingRow]

    def counts(self) -> dict[str, int]:
        out = {c: 0 for c in CLASSES}
        for row in self.failing:
            out[row.cls] += 1
        return out

    @property
    def alpha(self) -> Fraction:
        return Fraction(self.realized, self.total) if self.total else Fraction(1)

    @property
    def open_rows(self) -> list[FailingRow]:
        return [r for r in self.failing if r.cls == "open_tie"]


def key_of(pe: Encoding, i: int, k: int) -> int:
    """Key j ≤ i from the key index k of row i (k = i - j for offset-indexed PEs)."""
    return i - k if pe.index == "offset" else k


def exact_feature(pe: Encoding, i: int, j: int, train_length: int) -> tuple[Fraction, ...]:
    """ψ(i, j) in ℚ."""
    return tuple(pe.exact_index_features([i], [pe.key_index(i, j)], train_length)[0])


def _row_values(kernel: Kernel, i: int) -> list:
    return kernel.index_row(i)


def classify(pe: Encoding, task: Task, selection: Selection, length: int,
             tol: float = DEFAULT_TOL) -> Classification:
    """Classify every failing row of R_L under T_L θ* (exact when θ* is exact)."""
    if not selection.realizable:
        raise SpecError(f"invalid cell {str(pe)!r} · {str(task)!r} for classification: not realizable at "
                        f"L0 = {selection.train_length}; accepted: a realizable cell")
    L0 = selection.train_length
    rows, targets = task.rows_and_targets(length)              # (m,), (m,)
    ties = structural_ties(pe, rows, targets, length, L0)      # (m,) bool
    if selection.exact_theta is not None:
        return _classify_exact(pe, selection, length, rows, targets, ties)
    kernel = transfer(pe, selection.theta, length, L0)
    margins, target_values = float_margins(kernel, rows, targets)   # (m,), (m,)
    status = classify_float(margins, target_values, ties, tol)
    failing = []
    for n in np.flatnonzero(status != REALIZED).tolist():
        cls = "structural_tie" if ties[n] else ("strict_misrank" if status[n] == FAILED else "undecided")
        row = FailingRow(int(rows[n]), int(targets[n]), cls, float(margins[n]))
        if cls == "undecided":
            row.rivals = _near_rivals(pe, selection, kernel, row.row, row.target, tol)
        failing.append(row)
    return Classification(length, False, int(rows.size), int(np.sum(status == REALIZED)), failing)


def _near_rivals(pe, selection, kernel, i: int, t: int, tol: float) -> list[TieRival]:
    """Rivals j of an undecided float row with κ(i,j) within tolerance of κ(i,t)."""
    values = np.asarray(kernel.row_values(np.array([i])), dtype=float)[0, : i + 1]   # (i+1,)
    kt = int(pe.key_index(i, t))
    scale = tol * max(1.0, abs(values[kt]))
    L0 = selection.train_length
    z = np.asarray(selection.constraints, dtype=float)                               # (m, p)
    out = []
    for k in np.flatnonzero(np.abs(values - values[kt]) <= scale).tolist():
        if k == kt:
            continue
        j = key_of(pe, i, k)
        v = (pe.pair_features(np.array([i]), np.array([t]), L0)
             - pe.pair_features(np.array([i]), np.array([j]), L0))[0]                # (p,)
        zv = float(np.abs(z @ v).max(initial=0.0))
        out.append(TieRival(j, tuple(float(x) for x in v), zv <= tol * max(1.0, float(np.abs(z).max(initial=0.0)))))
    return sorted(out, key=lambda r: r.rival)


def _classify_exact(pe, selection, length, rows, targets, ties) -> Classification:
    L0 = selection.train_length
    theta = selection.exact_theta
    kernel = exact_transfer(pe, theta, length, L0)
    margins, _ = exact_margins(kernel, rows, targets)
    status = classify_exact(margins, ties)
    zq = selection.exact_constraints or []
    keys = target_keys(pe.index, rows, targets)
    failing = []
    for n in np.flatnonzero(status != REALIZED).tolist():
        i, t, g = int(rows[n]), int(targets[n]), margins[n]
        if ties[n]:
            failing.append(FailingRow(i, t, "structural_tie", g))
            continue
        if g < 0:
            failing.append(FailingRow(i, t, "strict_misrank", g))
            continue
        values = _row_values(kernel, i)
        kt = int(keys[n])
        psi_t = exact_feature(pe, i, t, L0)
        rivals = []
        for k, x in enumerate(values):
            if k == kt or x != values[kt]:
                continue
            j = key_of(pe, i, k)
            v = tuple(a - b for a, b in zip(psi_t, exact_feature(pe, i, j, L0)))
            orthogonal = all(dot(z, v) == 0 for z in zq)
            rivals.append(TieRival(j, v, orthogonal))
        rivals.sort(key=lambda r: r.rival)
        cls = "orthogonal_tie" if any(r.orthogonal for r in rivals) else "open_tie"
        failing.append(FailingRow(i, t, cls, g, rivals))
    realized = int(np.sum(status == REALIZED))
    return Classification(length, True, int(rows.size), realized, failing)
