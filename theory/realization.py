"""Realization of scored rows by a kernel: margins, structural ties, row outcomes.

Main definitions (definitions.md#realization-and-margin):

* κ realizes row i (target t) iff κ(i, t) > κ(i, j) for every other key j ≤ i;
* margin γ_i = κ(i, t) - max_{j ≠ t} κ(i, j), +∞ on a row with one key;
* structural tie: ψ(i, t) = ψ(i, j) for some j ≠ t (no θ realizes the row);
* float mode: realized iff γ_i > tol·max(1, |κ(i, t)|), failed iff γ_i < -tol·max(1, |κ(i, t)|),
  *undecided* otherwise (never silently counted); exact mode decides every row in ℚ (γ_i = 0
  fails: the inequality is strict); certified mode re-decides borderline float rows with
  interval arithmetic (:mod:`posreal.theory.certified`).

Margins of a profile kernel (relative / column PE) for all rows at once in O(L): with the
prefix maximum M1(i), its first argmax A1(i) and the prefix maximum M2(i) of the values with
A1(i) removed, γ_i = v(k_t) - M2(i) if k_t = A1(i), else v(k_t) - M1(i).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction

import numpy as np

from posreal.theory.encodings import AbsSin, DualOf, Encoding, ProfileEncoding
from posreal.theory.kernels import BLOCK_ENTRIES, Kernel, ProfileKernel

REALIZED, UNDECIDED, FAILED = 1, 0, -1
DEFAULT_TOL = 1e-9


def target_keys(kernel_index: str, rows: np.ndarray, targets: np.ndarray) -> np.ndarray:
    """Key index of each row's target: i - t (offset index) or t (position index)."""
    return rows - targets if kernel_index == "offset" else targets


def profile_margins(values: np.ndarray, rows: np.ndarray, keys: np.ndarray) -> np.ndarray:
    """Margins of a profile kernel for all rows in O(L): values (L,), rows/keys (m,) -> (m,)."""
    v = np.asarray(values, dtype=float)                       # (L,)
    L = v.size
    pos = np.arange(L)
    m1 = np.maximum.accumulate(v)                              # (L,) prefix max
    new_max = np.empty(L, dtype=bool)
    new_max[0] = True
    new_max[1:] = v[1:] > m1[:-1]
    a1 = np.maximum.accumulate(np.where(new_max, pos, 0))      # (L,) first argmax of prefix
    before = np.concatenate(([-np.inf], m1[:-1]))[a1]          # max of v[0..a1-1]
    u = np.where(new_max, -np.inf, v)
    m2 = np.maximum(before, np.maximum.accumulate(u))          # (L,) prefix max without a1
    target = v[keys]
    rival = np.where(keys == a1[rows], m2[rows], m1[rows])
    with np.errstate(invalid="ignore"):
        return target - rival


def blocked_margins(kernel: Kernel, rows: np.ndarray, keys: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Margins and target values of any kernel, evaluated in row blocks: (m,) -> (m,), (m,)."""
    L = kernel.length
    margins = np.empty(rows.size)
    target_values = np.empty(rows.size)
    block = max(1, BLOCK_ENTRIES // max(L, 1))
    cols = np.arange(L)
    for start in range(0, rows.size, block):
        r = rows[start:start + block]
        k = keys[start:start + block]
        vals = np.array(kernel.row_values(r), dtype=float)            # (b, L)
        vals[cols[None, :] > r[:, None]] = -np.inf                    # causal mask
        idx = np.arange(r.size)
        tv = vals[idx, k].copy()                                      # (b,)
        vals[idx, k] = -np.inf
        with np.errstate(invalid="ignore"):
            margins[start:start + r.size] = tv - vals.max(axis=1)
        target_values[start:start + r.size] = tv
    return margins, target_values


def float_margins(kernel: Kernel, rows: np.ndarray, targets: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Margins γ_i and κ(i, t_i) of a float kernel on the given rows: (m,) -> (m,), (m,)."""
    keys = target_keys(kernel.index, rows, targets)
    if isinstance(kernel, ProfileKernel):
        values = np.asarray(kernel.values, dtype=float)
        return profile_margins(values, rows, keys), values[keys]
    return blocked_margins(kernel, rows, keys)


def exact_margins(kernel: Kernel, rows: np.ndarray, targets: np.ndarray) -> tuple[list, list]:
    """Margins in ℚ (None for +∞ on one-key rows) and exact target values."""
    keys = target_keys(kernel.index, rows, targets)
    margins: list[Fraction | None] = []
    target_values: list[Fraction] = []
    if isinstance(kernel, ProfileKernel):
        v = kernel.values
        best, arg, second = None, -1, None   # prefix max, its first argmax, max without it
        prefix = []
        for k, x in enumerate(v):
            if best is None or x > best:
                second, best, arg = best, x, k   # the old maximum is now the largest other value
            elif second is None or x > second:
                second = x
            prefix.append((best, arg, second))
        for i, k in zip(rows.tolist(), keys.tolist()):
            best, arg, second = prefix[i]
            rival = second if k == arg else best
            margins.append(None if rival is None else v[k] - rival)
            target_values.append(v[k])
        return margins, target_values
    for i, k in zip(rows.tolist(), keys.tolist()):
        row = kernel.row(i)
        others = [row[c] for c in range(i + 1) if c != k]
        margins.append(None if not others else row[k] - max(others))
        target_values.append(row[k])
    return margins, target_values


def structural_ties(pe: Encoding, rows: np.ndarray, targets: np.ndarray, length: int,
                    train_length: int) -> np.ndarray:
    """Rows where ψ(i, t) = ψ(i, j) for some key j ≠ t: (m,) bool.

    For profile and ``abssin``-type PEs, features at (i, k) are equal iff the ids of k are
    (abssin: φ(i) ≠ 0 always), so a row ties iff its target key is not the first key with its
    id, or the second key with that id is ≤ i.  Tables are compared row by row."""
    base = pe.base if isinstance(pe, DualOf) else pe
    keys = target_keys(pe.index, rows, targets)
    if isinstance(base, (ProfileEncoding, AbsSin)):
        ids = base.feature_ids(length, train_length)                    # (L,)
        n_ids = int(ids.max()) + 1 if ids.size else 0
        first = np.full(n_ids, length, dtype=np.int64)
        second = np.full(n_ids, length, dtype=np.int64)
        order = np.arange(length)
        np.minimum.at(first, ids, order)
        later = order != first[ids]
        np.minimum.at(second, ids[later], order[later])
        tid = ids[keys]
        return (keys != first[tid]) | (second[tid] <= rows)
    ties = np.zeros(rows.size, dtype=bool)
    for n, (i, k) in enumerate(zip(rows.tolist(), keys.tolist())):
        if pe.rational:
            feats = pe.exact_index_features([i] * (i + 1), list(range(i + 1)), train_length)
        else:
            feats = [tuple(f) for f in pe.index_features(np.full(i + 1, i), np.arange(i + 1), train_length)]
        ties[n] = any(feats[c] == feats[k] for c in range(i + 1) if c != k)
    return ties


@dataclass
class RowOutcomes:
    """Outcome of every scored row of one grid: status 1 realized, 0 undecided, -1 failed."""

    length: int
    mode: str
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
