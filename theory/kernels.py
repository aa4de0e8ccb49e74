"""Kernels on the L-grid in index form, and their margins (module ``posreal.theory.kernels``).

Main definitions (definitions.md#transfer-operator, definitions.md#realization-and-margin):

* a kernel κ(i, j) = ⟨θ, ψ(i, j)⟩ on the causal L-grid, stored in *index form*: row i has values
  v_i(k) over key indices k ∈ {0..i} (:class:`KeyIndex`: k = i - j for offset-indexed PEs, k = j
  for position-indexed ones);
* never an L×L×p tensor: a relative or column kernel is one profile v(k) (:class:`ProfileKernel`,
  O(L) memory); ``abssin`` is Φ_L W Φ_Lᵀ evaluated in row blocks (:class:`BilinearKernel`); user
  tables of kind ``general`` store their (L, L) values (:class:`DenseKernel`); general PEs given by a
  formula or a function are evaluated a block of rows at a time and never stored (:class:`RowBlockKernel`);
* the shear (Proposition 4) keeps the values and flips the index: (Sκ)(i, j) = κ(i, i - j)
  (:meth:`Kernel.flipped`);
* margins γ_i = κ(i, t) - max_{j ≠ t} κ(i, j) of scored rows, in float
  (:meth:`Kernel.float_margins`) or in ℚ (:meth:`Kernel.exact_margins`; ``None`` stands for +∞ on
  a row with one key).  A profile kernel gives all of them in O(L): with the prefix maximum M1(i),
  its first argmax A1(i) and the prefix maximum M2(i) of the values with A1(i) removed,
  γ_i = v(k_t) - M2(i) if k_t = A1(i), else v(k_t) - M1(i).

Which kernel a PE builds is the encoding's business (``Encoding.kernel`` in
:mod:`posreal.theory.encodings`); how θ meets the longer grid is the transfer's
(:mod:`posreal.theory.transfer_operator`).  This module imports neither.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from enum import StrEnum
from fractions import Fraction
from typing import Any

import numpy as np

BLOCK_ENTRIES = 2 ** 21  # entries of one row block: bounds the memory of blocked kernels


class KeyIndex(StrEnum):
    """How key index k relates to (row i, key j): ``offset`` k = i - j, ``position`` k = j."""

    OFFSET = "offset"
    POSITION = "position"

    @property
    def flipped(self) -> KeyIndex:
        """The other index: the shear S(i, j) = (i, i - j) exchanges them."""
        return KeyIndex.POSITION if self is KeyIndex.OFFSET else KeyIndex.OFFSET


def target_keys(index: str, rows: np.ndarray, targets: np.ndarray) -> np.ndarray:
    """Key index of each row's target: i - t (offset index) or t (position index): (m,) -> (m,)."""
    return rows - targets if index == KeyIndex.OFFSET else targets


def _first_argmax_prefix(values: np.ndarray) -> np.ndarray:
    """The first argmax of values[0..i] for every i: (L,) -> (L,) int64."""
    L = values.size
    running = np.maximum.accumulate(values)                     # (L,)
    new_max = np.empty(L, dtype=bool)
    if L:
        new_max[0] = True
        new_max[1:] = values[1:] > running[:-1]
    return np.maximum.accumulate(np.where(new_max, np.arange(L), 0))


def profile_rivals(values: np.ndarray, rows: np.ndarray, keys: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Margins of a profile kernel and each row's rival: the first key index k ≠ k_t of the row with the
    largest value (the key that beats or comes nearest the target), all rows in O(L).

    values (L,), rows/keys (m,) -> margins (m,), rival key indices (m,) (-1 on a row with one key).
    With A1(i) the first argmax of v[0..i], the rival is A1(i) unless the target is A1(i); then it is the first
    argmax of v[0..i] with A1(i) removed: the best of v[0..A1(i)-1] and of the later keys."""
    v = np.asarray(values, dtype=float)                         # (L,)
    a1 = _first_argmax_prefix(v)                                # (L,)
    m1 = v[a1]                                                  # (L,) prefix max
    before_arg = np.concatenate(([0], a1[:-1]))[a1]             # first argmax of v[0..A1(i)-1]
    before = np.where(a1 > 0, v[before_arg], -np.inf)           # (L,) its value (-inf when A1(i) = 0)
    is_new = np.zeros(v.size, dtype=bool)
    is_new[np.unique(a1)] = True                                # keys that were a prefix argmax once
    u = np.where(is_new, -np.inf, v)                            # (L,) keys never a prefix argmax
    after_arg = _first_argmax_prefix(u)
    after = u[after_arg]                                        # (L,) best of them up to i
    second_arg = np.where(before >= after, before_arg, after_arg)
    second = np.maximum(before, after)                          # (L,) prefix max without A1(i)
    on_top = keys == a1[rows]
    rival = np.where(on_top, second_arg[rows], a1[rows])
    rival_value = np.where(on_top, second[rows], m1[rows])
    with np.errstate(invalid="ignore"):
        margins = v[keys] - rival_value
    rival = np.where(np.isneginf(rival_value), -1, rival)
    return margins, rival


def profile_margins(values: np.ndarray, rows: np.ndarray, keys: np.ndarray) -> np.ndarray:
    """Margins of a profile kernel for all rows in O(L): values (L,), rows/keys (m,) -> (m,)."""
    return profile_rivals(values, rows, keys)[0]


@dataclass
class Kernel:
    """T_L θ in index form.  Every kernel answers ``row_values(rows)`` -> (b, L) floats, v_i(k) for
    k < L (k > i unused), ``index_row(i)`` -> the i + 1 values v_i(0..i) as stored (Fractions for an
    exact kernel), ``row(i)`` -> κ(i, j) for j = 0..i (by key, for every PE); ``flipped()`` is the shear."""

    length: int
    index: KeyIndex

    def __post_init__(self) -> None:
        self.index = KeyIndex(self.index)   # a plain "offset" / "position" is accepted and typed

    def row_values(self, rows: np.ndarray) -> np.ndarray:
        raise NotImplementedError

    def index_row(self, i: int) -> list[Any]:
        """The index form of row i: v_i(k) for key indices k ≤ i, as stored (floats, or Fractions for an exact
        kernel): i + 1 values.  For a relative PE k is the offset i - j (the profile r(δ)); else the key j."""
        return self.row_values(np.array([i]))[0, : i + 1].tolist()

    def row(self, i: int) -> list[Any]:
        """Row i by key: κ(i, j) for j = 0..i, whatever the PE (:meth:`index_row` gives the index form)."""
        values = self.index_row(i)
        return values[::-1] if self.index == KeyIndex.OFFSET else values

    def flipped(self) -> Kernel:
        raise NotImplementedError

    def block_rows(self) -> int:
        """Rows per block of :meth:`float_margins` (a (block, L) array of values at a time)."""
        return max(1, BLOCK_ENTRIES // max(self.length, 1))

    def float_margins(self, rows: np.ndarray, keys: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Margins γ_i and target values v_i(k_t), evaluated in row blocks: (m,), (m,) -> (m,), (m,)."""
        L = self.length
        margins = np.empty(rows.size)
        target_values = np.empty(rows.size)
        block = self.block_rows()
        cols = np.arange(L)
        for start in range(0, rows.size, block):
            r = rows[start:start + block]
            k = keys[start:start + block]
            vals = np.array(self.row_values(r), dtype=float)              # (b, L)
            vals[cols[None, :] > r[:, None]] = -np.inf                    # causal mask
            idx = np.arange(r.size)
            tv = vals[idx, k].copy()                                      # (b,)
            vals[idx, k] = -np.inf
            with np.errstate(invalid="ignore"):
                margins[start:start + r.size] = tv - vals.max(axis=1)
            target_values[start:start + r.size] = tv
        return margins, target_values

    def exact_margins(self, rows: np.ndarray, keys: np.ndarray) -> tuple[list, list]:
        """Margins as stored (None for +∞ on one-key rows) and target values, row by row: (m,) lists."""
        margins: list[Any] = []
        target_values: list[Any] = []
        for i, k in zip(rows.tolist(), keys.tolist()):
            row = self.index_row(i)
            others = [row[c] for c in range(i + 1) if c != k]
            margins.append(None if not others else row[k] - max(others))
            target_values.append(row[k])
        return margins, target_values

    def matrix(self) -> np.ndarray:
        """Dense κ(i, j) with -inf above the diagonal: (L, L).  For small L only."""
        L = self.length
        rows = np.arange(L)
        values = self.row_values(rows)  # (L, L) in index form
        i, j = np.meshgrid(rows, rows, indexing="ij")
        k = i - j if self.index == KeyIndex.OFFSET else j
        out = np.full((L, L), -np.inf)
        mask = j <= i
        out[mask] = values[i[mask], np.clip(k, 0, L - 1)[mask]]
        return out


@dataclass
class ProfileKernel(Kernel):
    """The same values v(k) on every row (relative or column PE): (L,)."""

    values: np.ndarray | list[Fraction]   # (L,) floats, or L Fractions (exact)

    def row_values(self, rows: np.ndarray) -> np.ndarray:
        return np.broadcast_to(np.asarray(self.values, dtype=float), (len(rows), self.length))

    def index_row(self, i: int) -> list[Any]:
        return list(self.values[: i + 1])

    def flipped(self):
        return ProfileKernel(self.length, self.index.flipped, self.values)

    def float_margins(self, rows, keys):
        values = np.asarray(self.values, dtype=float)              # (L,)
        return profile_margins(values, rows, keys), values[keys]

    def exact_margins(self, rows, keys):
        v = self.values
        best, arg, second = None, -1, None   # prefix max, its first argmax, max without it
        prefix = []
        for k, x in enumerate(v):
            if best is None or x > best:
                second, best, arg = best, x, k   # the old maximum is now the largest other value
            elif second is None or x > second:
                second = x
            prefix.append((best, arg, second))
        margins: list[Any] = []
        target_values: list[Any] = []
        for i, k in zip(rows.tolist(), keys.tolist()):
            best, arg, second = prefix[i]
            rival = second if k == arg else best
            margins.append(None if rival is None else v[k] - rival)
            target_values.append(v[k])
        return margins, target_values


@dataclass
class BilinearKernel(Kernel):
    """v_i(k) = (φ(i)ᵀ W) φ(k): ``left`` = Φ_L W (L, d), ``right`` = Φ_L (L, d)."""

    left: np.ndarray
    right: np.ndarray

    def row_values(self, rows: np.ndarray) -> np.ndarray:
        return self.left[rows] @ self.right.T  # (b, d) @ (d, L) -> (b, L)

    def flipped(self):
        return BilinearKernel(self.length, self.index.flipped, self.left, self.right)


@dataclass
class DenseKernel(Kernel):
    """Values stored in full (general user tables): (L, L) in index form, float or Fraction objects."""

    values: np.ndarray   # (L, L) floats or Fraction objects

    def row_values(self, rows: np.ndarray) -> np.ndarray:
        return np.asarray(self.values[rows], dtype=float)

    def index_row(self, i: int) -> list[Any]:
        return list(self.values[i][: i + 1])

    def flipped(self):
        return DenseKernel(self.length, self.index.flipped, self.values)


@dataclass
class RowBlockKernel(Kernel):
    """Values computed when asked, a block of rows at a time, and never stored (general PEs given by a
    formula or a function): ``evaluate(rows)`` -> (b, L) floats v_i(k) (k > i unused), ``exact_row(i)``
    -> the i + 1 values v_i(0..i) in ℚ (exact kernels), ``rows_per_block`` bounds one evaluation."""

    evaluate: Callable[[np.ndarray], np.ndarray]
    rows_per_block: int = 1
    exact_row: Callable[[int], list] | None = None

    def row_values(self, rows: np.ndarray) -> np.ndarray:
        return self.evaluate(np.asarray(rows, dtype=np.int64))

    def index_row(self, i: int) -> list[Any]:
        if self.exact_row is not None:
            return self.exact_row(i)
        return super().index_row(i)

    def block_rows(self) -> int:
        return self.rows_per_block

    def flipped(self):
        return RowBlockKernel(self.length, self.index.flipped, self.evaluate, self.rows_per_block, self.exact_row)


def dot(theta: Sequence[Fraction], features: Sequence[Fraction]) -> Fraction:
    """⟨θ, f⟩ in ℚ (an empty θ gives 0)."""
    return sum((a * b for a, b in zip(theta, features)), Fraction(0))
