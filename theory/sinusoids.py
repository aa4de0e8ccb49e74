"""Sinusoids of the RoPE family: frequencies, features, and their interval enclosures.

Main definitions (definitions.md#linear-pe): ω_f = base^(-2f/d), f = 0..d/2-1 (Vaswani et al. 2017;
Su et al. 2021 for RoPE) (:func:`frequencies`); the features [sin ωx] ++ [cos ωx] or
[cos ωx] ++ [sin ωx] (:func:`sinusoid_at`); enclosures of both in mpmath's interval arithmetic for
certified mode (:func:`interval_frequencies`, :func:`interval_sinusoid`); the mixin
:class:`Rescalable` of the PEs whose frequencies a length extension rescales
(:mod:`posreal.theory.extension`).
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, Any

import numpy as np

if TYPE_CHECKING:
    from posreal.theory.extension import FrequencyRescaling

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
    rescaling: FrequencyRescaling | None

    def omegas(self) -> np.ndarray:
        """The frequencies the features use: (d/2,)."""
        omega = frequencies(self.d, self.base)
        return omega if self.rescaling is None else self.rescaling.floats(omega)

    def interval_omegas(self, iv: Any) -> list:
        omega = interval_frequencies(iv, self.d, self.base)
        return omega if self.rescaling is None else self.rescaling.intervals(iv, omega)

    def extended(self, rescaling, train_length):
        rescaling.check_width(self.d // 2)
        return replace(self, rescaling=rescaling)   # type: ignore[type-var]


def format_base(base: float) -> str:
    return str(int(base)) if float(base).is_integer() else repr(float(base))
