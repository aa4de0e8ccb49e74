"""Realization of scored rows by a kernel: margins, structural ties, row outcomes.

Main definitions (definitions.md#realization-and-margin):

* κ realizes row i (target t) iff κ(i, t) > κ(i, j) for every other key j ≤ i;
* margin γ_i = κ(i, t) - max_{j ≠ t} κ(i, j), +∞ on a row with one key;
* structural tie: ψ(i, t) = ψ(i, j) for some j ≠ t (no θ realizes the row);
* float mode: realized iff γ_i > tol·max(1, |κ(i, t)|), failed iff γ_i < -tol·max(1, |κ(i, t)|),
  *undecided* otherwise (never silently counted); exact mode decides every row in ℚ (γ_i = 0
  fails: the inequality is strict); certified mode re-decides borderline float rows with
  interval arithmetic (:mod:`posreal.theory.certified`).

The margins themselves are computed by the kernel (:mod:`posreal.theory.kernels`, O(L) for a
profile kernel), the ties by the encoding (``Encoding.structural_ties``); which arithmetic decides
the rows is :mod:`posreal.theory.arithmetic`'s business.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from typing import TYPE_CHECKING

import numpy as np

from posreal.theory.encodings import Encoding
from posreal.theory.kernels import Kernel, profile_margins, target_keys  # noqa: F401  (re-exported)

REALIZED, UNDECIDED, FAILED = 1, 0, -1
DEFAULT_TOL = 1e-9

if TYPE_CHECKING:
    from posreal.theory.modes import Mode


def float_margins(kernel: Kernel, rows: np.ndarray, targets: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Margins γ_i and κ(i, t_i) of a float kernel on the given rows: (m,) -> (m,), (m,)."""
    return kernel.float_margins(rows, target_keys(kernel.index, rows, targets))


def exact_margins(kernel: Kernel, rows: np.ndarray, targets: np.ndarray) -> tuple[list, list]:
    """Margins in ℚ (None for +∞ on one-key rows) and exact target values."""
    return kernel.exact_margins(rows, target_keys(kernel.index, rows, targets))


def structural_ties(pe: Encoding, rows: np.ndarray, targets: np.ndarray, length: int,
                    train_length: int) -> np.ndarray:
    """Rows where ψ(i, t) = ψ(i, j) for some key j ≠ t: (m,) bool (``Encoding.structural_ties``)."""
    return pe.structural_ties(rows, target_keys(pe.index, rows, targets), length, train_length)


@dataclass
class RowOutcomes:
    """Outcome of every scored row of one grid: status 1 realized, 0 undecided, -1 failed."""

    length: int
    mode: Mode                  # the arithmetic the rows were decided in
    rows: np.ndarray            # (m,)
    targets: np.ndarray         # (m,)
    margins: list | np.ndarray  # (m,) float, or Fractions / None (= +∞) in exact mode
    status: np.ndarray          # (m,) int8
    ties: np.ndarray            # (m,) bool, structural ties (always failed)
    tol: float = DEFAULT_TOL
    certified_rows: int = 0     # rows re-decided by interval arithmetic
    notes: list[str] = field(default_factory=list)

    def counts(self) -> dict[str, int]:
        return {
            "realized": int(np.sum(self.status == REALIZED)),
            "failed": int(np.sum(self.status == FAILED)),
            "undecided": int(np.sum(self.status == UNDECIDED)),
            "total": int(self.status.size),
            "structural_ties": int(np.sum(self.ties)),
        }

    @property
    def alpha(self) -> float:
        total = self.status.size
        return float(np.sum(self.status == REALIZED)) / total if total else 1.0

    @property
    def exact_alpha(self) -> Fraction:
        total = self.status.size
        return Fraction(int(np.sum(self.status == REALIZED)), total) if total else Fraction(1)


def classify_float(margins: np.ndarray, target_values: np.ndarray, ties: np.ndarray,
                   tol: float = DEFAULT_TOL) -> np.ndarray:
    """Status of each row from float margins (the tolerance rule, definitions.md#tolerance): (m,) int8."""
    scale = tol * np.maximum(1.0, np.abs(target_values))
    status = np.where(margins > scale, REALIZED, np.where(margins < -scale, FAILED, UNDECIDED))
    status = np.where(ties, FAILED, status)
    return status.astype(np.int8)


def classify_exact(margins: list, ties: np.ndarray) -> np.ndarray:
    """Status from exact margins: > 0 realized, otherwise failed (strict inequality)."""
    status = np.array([REALIZED if (g is None or g > 0) else FAILED for g in margins], dtype=np.int8)
    return np.where(ties, FAILED, status).astype(np.int8)
