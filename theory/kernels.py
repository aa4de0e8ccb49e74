"""The simulation transfer operator T_L θ: the kernel of parameters θ on the L-grid.

Main definitions (definitions.md#transfer-operator):

* T_L θ = (⟨θ, ψ(i, j)⟩)_{j ≤ i < L}, stored in *index form*: row i has values v_i(k) over
  key indices k ∈ {0..i} (k = i - j for offset-indexed PEs, k = j otherwise);
* never an L×L×p tensor: a relative or column kernel is one profile v(k) = ⟨θ, f(k)⟩
  (O(Lp) time, O(L) memory); ``abssin`` is Φ_L W Φ_Lᵀ evaluated in row blocks; user tables
  are evaluated from the table they already store;
* the shear (Proposition 4) keeps the values and flips the index: (Sκ)(i, j) = κ(i, i - j).

:func:`transfer` gives floats, :func:`exact_transfer` Fractions (rational PEs),
:func:`naive_kernel_matrix` the dense reference that materializes the features (tests and
benchmarks only).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import numpy as np

from posreal.theory.encodings import _FLIP, OFFSET, AbsSin, DualOf, Encoding, ProfileEncoding, irrational, parse_pe
from posreal.theory.errors import SpecError

BLOCK_ENTRIES = 2 ** 21  # entries of one row block: bounds the memory of blocked kernels


@dataclass
class Kernel:
    """T_L θ in index form.  Every kernel answers ``row_values(rows)`` -> (b, L) floats, v_i(k) for
    k < L (k > i unused), and ``row(i)`` -> the i + 1 values v_i(0..i) as stored (Fractions for an
    exact kernel); ``flipped()`` is the shear."""

    length: int
    index: str

    def row_values(self, rows: np.ndarray) -> np.ndarray:
        raise NotImplementedError

    def row(self, i: int) -> list[Any]:
        """v_i(k) for k ≤ i, as stored (floats, or Fractions for an exact kernel): i + 1 values."""
        return self.row_values(np.array([i]))[0, : i + 1].tolist()

    def flipped(self) -> Kernel:
        raise NotImplementedError

    def matrix(self) -> np.ndarray:
        """Dense κ(i, j) with -inf above the diagonal: (L, L).  For small L only."""
        L = self.length
        rows = np.arange(L)
        values = self.row_values(rows)  # (L, L) in index form
        i, j = np.meshgrid(rows, rows, indexing="ij")
        k = i - j if self.index == OFFSET else j
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

    def row(self, i: int) -> list[Any]:
        return list(self.values[: i + 1])

    def flipped(self):
        return ProfileKernel(self.length, _FLIP[self.index], self.values)


@dataclass
class BilinearKernel(Kernel):
    """v_i(k) = (φ(i)ᵀ W) φ(k): ``left`` = Φ_L W (L, d), ``right`` = Φ_L (L, d)."""

    left: np.ndarray
    right: np.ndarray

    def row_values(self, rows: np.ndarray) -> np.ndarray:
        return self.left[rows] @ self.right.T  # (b, d) @ (d, L) -> (b, L)

    def flipped(self):
        return BilinearKernel(self.length, _FLIP[self.index], self.left, self.right)


@dataclass
class DenseKernel(Kernel):
    """Values stored in full (user tables): (L, L) in index form, float or Fraction objects."""

    values: np.ndarray   # (L, L) floats or Fraction objects

    def row_values(self, rows: np.ndarray) -> np.ndarray:
        return np.asarray(self.values[rows], dtype=float)

    def row(self, i: int) -> list[Any]:
        return list(self.values[i][: i + 1])

    def flipped(self):
        return DenseKernel(self.length, _FLIP[self.index], self.values)


def transfer(pe: str | Encoding, theta: np.ndarray | Sequence[float], length: int, train_length: int) -> Kernel:
    """T_L θ for a linear PE (an Encoding or its spec string), float: θ (p,) -> Kernel on the ``length``-grid."""
    pe = parse_pe(pe)
    pe.check_length(length, train_length)
    vec = np.asarray(theta, dtype=float)  # (p,)
    if vec.shape != (pe.dim(train_length),):
        raise SpecError(f"invalid θ of shape {vec.shape} for PE {str(pe)!r}; accepted: shape "
                        f"({pe.dim(train_length)},) at train length {train_length}")
    if isinstance(pe, DualOf):
        return transfer(pe.base, vec, length, train_length).flipped()
    if isinstance(pe, ProfileEncoding):
        return ProfileKernel(length, pe.index, pe.profile(vec, length, train_length))
    if isinstance(pe, AbsSin):
        phi = pe.phi(np.arange(length))  # (L, d)
        W = vec.reshape(pe.d, pe.d)       # (d, d)
        return BilinearKernel(length, pe.index, phi @ W, phi)
    return DenseKernel(length, pe.index, _table_values(pe, length, train_length, vec, exact=False))


def exact_transfer(pe: str | Encoding, theta: Sequence[Fraction], length: int, train_length: int) -> Kernel:
    """T_L θ in ℚ for a rational PE (an Encoding or its spec string): values are Fractions."""
    pe = parse_pe(pe)
    pe.check_length(length, train_length)
    theta = list(theta)
    if len(theta) != pe.dim(train_length):   # as transfer: a θ of another width is refused, never truncated
        raise SpecError(f"invalid θ of shape ({len(theta)},) for PE {str(pe)!r}; accepted: shape "
                        f"({pe.dim(train_length)},) at train length {train_length}")
    if not pe.rational:                       # refused here, naming the spec given (not a dual's base)
        raise irrational(pe)
    if isinstance(pe, DualOf):
        return exact_transfer(pe.base, theta, length, train_length).flipped()
    if isinstance(pe, ProfileEncoding):
        return ProfileKernel(length, pe.index, pe.exact_profile(list(theta), length, train_length))
    return DenseKernel(length, pe.index, _table_values(pe, length, train_length, theta, exact=True))


def _table_values(pe: Encoding, length: int, train_length: int, theta, exact: bool) -> np.ndarray:
    """Index-form values of a general PE, computed row by row from its features: (L, L)."""
    out = np.zeros((length, length), dtype=object if exact else float)
    for i in range(length):
        keys = np.arange(i + 1)
        if exact:
            feats = pe.exact_index_features([i] * (i + 1), keys.tolist(), train_length)
            out[i, : i + 1] = [sum((a * b for a, b in zip(theta, f)), Fraction(0)) for f in feats]
        else:
            out[i, : i + 1] = pe.index_features(np.full(i + 1, i), keys, train_length) @ theta
    return out


def naive_kernel_matrix(pe: str | Encoding, theta: np.ndarray | Sequence[float], length: int,
                        train_length: int) -> np.ndarray:
    """Reference T_L θ straight from the definition: materializes ψ(i, j) for all j ≤ i, i.e. an
    (L, L, p) feature tensor, then contracts with θ.  Dense κ with -inf above the diagonal."""
    pe = parse_pe(pe)
    i, j = np.tril_indices(length)
    feats = pe.pair_features(i, j, train_length)  # (L(L+1)/2, p)
    out = np.full((length, length), -np.inf)
    out[i, j] = feats @ np.asarray(theta, dtype=float)
    return out
