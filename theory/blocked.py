"""General PEs evaluated a block of rows at a time: ψ(i, j) is computed when a computation needs it
and never stored as an (L, L, p) tensor (definitions.md#transfer-operator).

Main definitions:

* :func:`causal_pairs` — the (row, key index) pairs of a block of rows, k ≤ i: Σ (i + 1) of them;
* :class:`BlockedEncoding` — a general encoding whose features come from ``index_features``
  (FIRE in :mod:`posreal.theory.published`, function PEs in :mod:`posreal.theory.function_pe`).
  Its kernel T_L θ is a :class:`~posreal.theory.kernels.RowBlockKernel`: each block of rows holds at
  most :data:`FEATURE_BLOCK` feature entries, so memory is O(FEATURE_BLOCK + L) whatever L is, and
  time O(L² p); the structural ties and the feature bound of certified mode are computed the same
  way.  Exact kernels (rational features) are evaluated one row at a time, in ℚ.
"""

from __future__ import annotations

from collections.abc import Iterator
from fractions import Fraction

import numpy as np

from posreal.theory.encodings import Encoding, KernelForm
from posreal.theory.kernels import RowBlockKernel, dot

FEATURE_BLOCK = 2 ** 20   # feature entries (pairs × p) of one evaluation: 8 MiB of floats


def causal_pairs(rows: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Every (position in ``rows``, key index k ≤ i) of a block of rows: (b,) -> (P,), (P,), P = Σ (i + 1)."""
    rows = np.asarray(rows, dtype=np.int64)
    counts = rows + 1                                          # (b,)
    local = np.repeat(np.arange(rows.size), counts)           # (P,)
    starts = np.cumsum(counts) - counts                        # (b,)
    keys = np.arange(local.size, dtype=np.int64) - np.repeat(starts, counts)   # (P,) 0..i per row
    return local, keys


class BlockedEncoding(Encoding):
    """A general PE whose ψ is evaluated on the pairs of a block of rows (subclasses give
    ``index_features``, ``dim``, ``kind``, ``index``)."""

    kernel_form = KernelForm.BLOCKED

    def block_rows(self, length: int, train_length: int) -> int:
        """Rows per evaluation: at most FEATURE_BLOCK feature entries (a row has at most L pairs)."""
        return max(1, FEATURE_BLOCK // (max(length, 1) * max(self.dim(train_length), 1)))

    def _blocks(self, rows: np.ndarray, length: int, train_length: int) -> Iterator[np.ndarray]:
        step = self.block_rows(length, train_length)
        for start in range(0, rows.size, step):
            yield rows[start:start + step]

    def kernel(self, theta, length, train_length):
        vec = np.asarray(theta, dtype=float)                                    # (p,)

        def evaluate(rows: np.ndarray) -> np.ndarray:
            out = np.zeros((rows.size, length))                                 # (b, L) index form
            done = 0
            for block in self._blocks(rows, length, train_length):
                local, keys = causal_pairs(block)                              # (P,), (P,)
                if local.size:
                    values = self.index_features(block[local], keys, train_length) @ vec   # (P, p) @ (p,)
                    out[done + local, keys] = values
                done += block.size
            return out

        return RowBlockKernel(length, self.index, evaluate, self.block_rows(length, train_length))

    def exact_kernel(self, theta, length, train_length):
        exact_theta = list(theta)
        floats = self.kernel(np.array([float(x) for x in exact_theta]), length, train_length)

        def exact_row(i: int) -> list[Fraction]:
            feats = self.exact_index_features([i] * (i + 1), list(range(i + 1)), train_length)
            return [dot(exact_theta, f) for f in feats]

        assert isinstance(floats, RowBlockKernel)
        return RowBlockKernel(length, self.index, floats.evaluate, floats.rows_per_block, exact_row)

    def _scored_blocks(self, rows: np.ndarray, keys: np.ndarray, length: int,
                       train_length: int) -> Iterator[tuple[slice, np.ndarray, np.ndarray, np.ndarray, np.ndarray]]:
        """For each block of scored rows: (its slice of ``rows``, the pair's row position (P,), the pair's key
        index (P,), the position of each row's target among the pairs (b,)), and ψ on the pairs (P, p)."""
        step = self.block_rows(length, train_length)
        for start in range(0, rows.size, step):
            block, target = rows[start:start + step], keys[start:start + step]   # (b,), (b,)
            local, k = causal_pairs(block)                                       # (P,), (P,)
            first = np.cumsum(block + 1) - (block + 1)                           # (b,) where each row starts
            feats = self.index_features(block[local], k, train_length)           # (P, p)
            yield slice(start, start + block.size), local, k, first + target, feats

    def _float_ties(self, local: np.ndarray, k: np.ndarray, at_target: np.ndarray, feats: np.ndarray) -> np.ndarray:
        """Rows of a block whose target's features another key of the row shares, in float: (b,) bool."""
        same = np.all(feats == feats[at_target[local]], axis=1) & (k != k[at_target[local]])   # (P,)
        return np.bincount(local, weights=same, minlength=at_target.size) > 0

    def _exact_ties(self, rows: np.ndarray, keys: np.ndarray, ties: np.ndarray, train_length: int) -> np.ndarray:
        """Rational features: the float ties re-compared in ℚ (equal rationals have equal floats, so float
        comparison misses no tie; it can only merge distinct rationals)."""
        for n in np.flatnonzero(ties):
            i, kt = int(rows[n]), int(keys[n])
            feats_q = self.exact_index_features([i] * (i + 1), list(range(i + 1)), train_length)
            ties[n] = any(feats_q[c] == feats_q[kt] for c in range(i + 1) if c != kt)
        return ties

    def structural_ties(self, rows, keys, length, train_length):
        rows = np.asarray(rows, dtype=np.int64)
        keys = np.asarray(keys, dtype=np.int64)
        ties = np.zeros(rows.size, dtype=bool)
        for part, local, k, at_target, feats in self._scored_blocks(rows, keys, length, train_length):
            ties[part] = self._float_ties(local, k, at_target, feats)
        return self._exact_ties(rows, keys, ties, train_length) if self.rational else ties

    def float_row_margins(self, theta, rows, keys, length, train_length):
        """Margins, target values and structural ties from one evaluation of ψ per block of scored rows
        (the values of a row are never scattered into an (L,) array: a segmented maximum over its pairs)."""
        vec = np.asarray(theta, dtype=float)                                     # (p,)
        rows = np.asarray(rows, dtype=np.int64)
        keys = np.asarray(keys, dtype=np.int64)
        margins, values = np.empty(rows.size), np.empty(rows.size)
        ties = np.zeros(rows.size, dtype=bool)
        for part, local, k, at_target, feats in self._scored_blocks(rows, keys, length, train_length):
            v = feats @ vec                                                      # (P,) κ on the pairs
            target = v[at_target]                                                # (b,)
            v[at_target] = -np.inf
            starts = at_target - (keys[part])                                    # (b,) first pair of each row
            with np.errstate(invalid="ignore"):
                margins[part] = target - np.maximum.reduceat(v, starts)          # one key: target - (-inf) = +inf
            values[part] = target
            ties[part] = self._float_ties(local, k, at_target, feats)
        return margins, values, (self._exact_ties(rows, keys, ties, train_length) if self.rational else ties)

    def max_abs_feature(self, length, train_length):
        best = 0.0
        for block in self._blocks(np.arange(length), length, train_length):
            local, keys = causal_pairs(block)
            best = max(best, float(np.abs(self.index_features(block[local], keys, train_length)).max(initial=0.0)))
        return best
