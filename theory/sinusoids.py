"""The sinusoidal PEs and their sinusoids: frequencies, features, and their interval enclosures.

Main definitions (definitions.md#linear-pe): ω_f = base^(-2f/d), f = 0..d/2-1 (Vaswani et al. 2017;
Su et al. 2021 for RoPE) (:func:`frequencies`); the features [sin ωx] ++ [cos ωx] or
[cos ωx] ++ [sin ωx] (:func:`sinusoid_at`); enclosures of both in mpmath's interval arithmetic for
certified mode (:func:`interval_frequencies`, :func:`interval_sinusoid`); the mixin
:class:`Rescalable` of the PEs whose frequencies a length extension rescales
(:mod:`posreal.theory.extension`); the registry classes ``rope:d[:base]``/``abscol:d[:base]``
(:class:`Sinusoidal`) and ``abssin:d[:base]`` (:class:`AbsSin`).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

import numpy as np

from posreal.theory.encodings import (BILINEAR, COLUMN, OFFSET, POSITION, RELATIVE, Encoding, KernelForm,
                                      ProfileEncoding, ties_from_ids)
from posreal.theory.kernels import BilinearKernel
from posreal.theory.pe_catalogue import FREQUENCY_BASE, WIDTH, CatalogueEntry
from posreal.theory.spec_args import split_args, width_and_base
from posreal.theory.declarations import PEFamily, declare_pe

if TYPE_CHECKING:
    from posreal.theory.rescaling import Rescaling

DEFAULT_BASE = 10000.0


def frequencies(d: int, base: float) -> np.ndarray:
    """ω_f = base^(-2f/d), f = 0..d/2-1: (d/2,)."""
    return np.power(float(base), -2.0 * np.arange(d // 2) / d)


def sinusoid_at(x: np.ndarray, omega: np.ndarray, sin_first: bool) -> np.ndarray:
    """[sin ω x] ++ [cos ω x] (sin_first) or [cos ω x] ++ [sin ω x]: (m,), (d/2,) -> (m, d)."""
    angles = np.asarray(x, dtype=float)[:, None] * omega[None, :]  # (m, d/2)
    parts = (np.sin(angles), np.cos(angles)) if sin_first else (np.cos(angles), np.sin(angles))
    return np.concatenate(parts, axis=1)


def sinusoid(x: np.ndarray, d: int, base: float, sin_first: bool) -> np.ndarray:
    """:func:`sinusoid_at` with the registry frequencies ω_f = base^(-2f/d): (m,) -> (m, d)."""
    return sinusoid_at(x, frequencies(d, base), sin_first)


def interval_frequencies(iv: Any, d: int, base: float) -> list:
    """Enclosures of ω_f = exp(-(2f/d) log base), f = 0..d/2-1: d/2 intervals."""
    log_base = iv.log(iv.mpf(float(base)))
    return [iv.exp(-(iv.mpf(2 * f) / d) * log_base) for f in range(d // 2)]


def interval_sinusoid(iv: Any, x: int, omega: list, sin_first: bool) -> list:
    """Enclosures of :func:`sinusoid_at` at one integer x from enclosures of ω: d intervals."""
    angles = [w * x for w in omega]
    sins = [iv.sin(a) for a in angles]
    coss = [iv.cos(a) for a in angles]
    return sins + coss if sin_first else coss + sins


class Rescalable:
    """Mixin of the sinusoidal PEs: frequencies ω_f = base^(-2f/d), or their images ω_f / λ_f under a
    length extension (``rescaling``)."""

    d: int
    base: float
    rescaling: Rescaling | None

    def omegas(self) -> np.ndarray:
        """The frequencies the features use: (d/2,)."""
        omega = frequencies(self.d, self.base)
        return omega if self.rescaling is None else self.rescaling.floats(omega)

    def interval_omegas(self, iv: Any) -> list:
        omega = interval_frequencies(iv, self.d, self.base)
        return omega if self.rescaling is None else self.rescaling.intervals(iv, omega)

    def extended(self, rescaling, train_length):
        rescaling = rescaling.bound(self.d, self.base)       # the rotary width and base some rescalings need
        rescaling.check_width(self.d // 2)
        return replace(self, rescaling=rescaling)   # type: ignore[type-var]


def format_base(base: float) -> str:
    return str(int(base)) if float(base).is_integer() else repr(float(base))


@dataclass(frozen=True)
class Sinusoidal(Rescalable, ProfileEncoding):
    """``rope:d`` (relative: [cos ωδ] ++ [sin ωδ]) or ``abscol:d`` (column: φ(j) = [sin ωj] ++ [cos ωj])."""

    name: str
    d: int
    base: float = DEFAULT_BASE
    base_given: bool = False
    rescaling: Rescaling | None = None   # a length extension's frequencies (None: the registry's)

    @property
    def kind(self):
        return RELATIVE if self.name == "rope" else COLUMN

    @property
    def index(self):
        return OFFSET if self.name == "rope" else POSITION

    def dim(self, train_length):
        return self.d

    def features(self, keys, train_length):
        return sinusoid_at(keys, self.omegas(), sin_first=self.name != "rope")

    def interval_index_features(self, row, keys, train_length, iv):
        omega = self.interval_omegas(iv)
        return [interval_sinusoid(iv, k, omega, sin_first=self.name != "rope") for k in keys]

    def __str__(self):
        return f"{self.name}:{self.d}" + (f":{format_base(self.base)}" if self.base_given else "")


# --------------------------------------------------------------------------- bilinear
@dataclass(frozen=True)
class AbsSin(Rescalable, Encoding):
    """``abssin:d``: ψ(i, j) = vec(φ(i) φ(k)ᵀ) with φ(x) = [sin ωx] ++ [cos ωx]; θ is the
    matrix W (d×d, row-major) and κ(i, j) = φ(i)ᵀ W φ(k).  k = j; the shear gives k = i - j."""

    d: int
    base: float = DEFAULT_BASE
    base_given: bool = False
    rescaling: Rescaling | None = None   # a length extension's frequencies (None: the registry's)
    kind = BILINEAR
    index = POSITION
    kernel_form = KernelForm.BILINEAR

    def dim(self, train_length):
        return self.d * self.d

    def phi(self, x: np.ndarray) -> np.ndarray:
        return sinusoid_at(x, self.omegas(), sin_first=True)  # (m, d)

    def index_features(self, rows, keys, train_length):
        left, right = self.phi(rows), self.phi(keys)  # (m, d), (m, d)
        return (left[:, :, None] * right[:, None, :]).reshape(len(left), self.d * self.d)  # (m, d*d)

    def feature_ids(self, length: int, train_length: int) -> np.ndarray:
        """Ids of the right factor φ(k) (ψ(i,k) = ψ(i,k') iff φ(k) = φ(k'), as φ(i) ≠ 0)."""
        _, ids = np.unique(self.phi(np.arange(length)), axis=0, return_inverse=True)
        return ids.reshape(-1).astype(np.int64)

    def kernel(self, theta, length, train_length):
        phi = self.phi(np.arange(length))   # (L, d)
        W = theta.reshape(self.d, self.d)   # (d, d)
        return BilinearKernel(length, self.index, phi @ W, phi)

    def structural_ties(self, rows, keys, length, train_length):
        return ties_from_ids(self.feature_ids(length, train_length), rows, keys)   # φ(i) ≠ 0: ids of φ(k) decide

    def max_abs_feature(self, length, train_length):
        return float(np.abs(self.phi(np.arange(length))).max(initial=0.0)) ** 2

    def interval_index_features(self, row, keys, train_length, iv):
        omega = self.interval_omegas(iv)
        left = interval_sinusoid(iv, row, omega, sin_first=True)
        out = []
        for k in keys:
            right = interval_sinusoid(iv, k, omega, sin_first=True)
            out.append([a * b for a in left for b in right])
        return out

    def __str__(self):
        return f"abssin:{self.d}" + (f":{format_base(self.base)}" if self.base_given else "")


# --------------------------------------------------------------------------- declarations (posreal pes)
# Parsers at module level (each line runs when a spec is parsed), declarations as module-level statements.
def _parse_sinusoidal(name: str, rest: str, spec: str) -> Encoding:
    d, base, given = width_and_base(split_args(rest), spec, DEFAULT_BASE)
    return Sinusoidal(name=name, d=d, base=base, base_given=given)


def _parse_abssin(name: str, rest: str, spec: str) -> Encoding:
    d, base, given = width_and_base(split_args(rest), spec, DEFAULT_BASE)
    return AbsSin(d=d, base=base, base_given=given)


declare_pe(PEFamily(CatalogueEntry(
    "rope:d[:base]", "relative", "ψ(i, j) = [cos ω_f n]_f ++ [sin ω_f n]_f", (WIDTH, FREQUENCY_BASE),
    "θ ∈ ℝ^d", "no (certified mode)", "Su et al. 2021, 'RoFormer' (RoPE), reduced to its positional part",
    "rope:16"), _parse_sinusoidal, rank=7, never_rational=True))
declare_pe(PEFamily(CatalogueEntry(
    "abscol:d[:base]", "column", "ψ(i, j) = φ(j), φ(x) = [sin ω_f x]_f ++ [cos ω_f x]_f", (WIDTH, FREQUENCY_BASE),
    "θ ∈ ℝ^d", "no (certified mode)", "Vaswani et al. 2017's sinusoids, read by a column kernel", "abscol:16"),
    _parse_sinusoidal, rank=9, never_rational=True))
declare_pe(PEFamily(CatalogueEntry(
    "abssin:d[:base]", "bilinear", "ψ(i, j) = vec(φ(i) φ(j)ᵀ): κ(i, j) = φ(i)ᵀ W φ(j)", (WIDTH, FREQUENCY_BASE),
    "θ = W ∈ ℝ^(d×d)", "no (certified mode)",
    "Vaswani et al. 2017's sinusoidal absolute PE in a positional-only head", "abssin:16"),
    _parse_abssin, rank=10, never_rational=True))
