"""RoPE frequencies as practitioners configure them: the ``rope_scaling`` types of a transformers model config.

Main definitions (definitions.md#model-configs), re-derived from the published formulas; f_i = b^(-2i/d),
i = 0..d/2-1, for the rotary width d and base b (``rope_theta``); s is the config's fixed ``factor`` and L0 its
``original_max_position_embeddings``; L is the evaluated sequence length:

* ``default``: f_i;
* ``linear`` (position interpolation, Chen et al. 2023): f_i / s;
* ``dynamic`` (dynamic NTK; frequencies depend on L): for L > Lmax (``max_position_embeddings``) the base
  becomes b' = b·(s·L/Lmax − (s − 1))^(d/(d−2)); f_i otherwise;
* ``yarn`` (Peng et al., ICLR 2024, as transformers, vLLM and DeepSeek compute it):
  lo = ⌊d·ln(L0/(2π β_fast))/(2 ln b)⌋, hi = ⌈d·ln(L0/(2π β_slow))/(2 ln b)⌉ (no rounding when ``truncate`` is
  false), clipped to [0, d−1] (hi + 0.001 when equal); the ramp r_i = clip((i − lo)/(hi − lo), 0, 1) is linear in
  the *index* i; f'_i = (f_i/s)·r_i + f_i·(1 − r_i).  The paper's ramp (``--extension yarn``) is linear in the
  rotation count L0 f_i / 2π instead;
* ``longrope`` (Ding et al. 2024; Phi-3): f_i / long_factor[i] when L > L0, f_i / short_factor[i] otherwise;
* ``llama3`` (Llama 3.1): wavelength w_i = 2π/f_i; f_i if w_i < L0/high_freq_factor, f_i/s if w_i > L0/low_freq_factor,
  else (1 − κ)·f_i/s + κ·f_i with κ = (L0/w_i − low)/(high − low);
* ``proportional`` (transformers 5, Gemma 4): with head width h and k = ⌊prf·h/2⌋ rotated pairs, b^(−2i/h) for i < k
  (exponents over the whole head width) and 0 for the other pairs, all divided by s.  Here the k rotated pairs are the
  PE (a zero frequency is a constant feature: it adds the same value to every key of a row) and the division by s is
  the transfer.

The attention factor of ``yarn`` (0.1·ln s + 1, or the ratio of the mscale terms, or ``attention_factor``) and of
``longrope`` (√(1 + ln s / ln L0)) multiplies the logits by a positive constant: it changes no realized row and is only
reported.  The project computes every frequency in float64; transformers computes them in float32 (the test fixture
``tests/data/hf_rope`` holds its values).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from enum import StrEnum

import numpy as np


class RopeType(StrEnum):
    """The ``rope_type`` values of a transformers config (the legacy key ``type`` takes the same values)."""

    DEFAULT = "default"
    LINEAR = "linear"
    DYNAMIC = "dynamic"
    YARN = "yarn"
    LONGROPE = "longrope"
    LLAMA3 = "llama3"
    PROPORTIONAL = "proportional"


@dataclass(frozen=True)
class RopeTypeInfo:
    """One type's catalogue entry: its formula, reference and the ``rope_scaling`` keys it reads."""

    formula: str
    reference: str
    keys: tuple[str, ...]


ROPE_TYPES: dict[RopeType, RopeTypeInfo] = {
    RopeType.DEFAULT: RopeTypeInfo("f_i = b^(-2i/d)", "Su et al. 2021 (RoPE)", ()),
    RopeType.LINEAR: RopeTypeInfo("f_i / s", "Chen, Wong, Chen & Tian 2023 (position interpolation)", ("factor",)),
    RopeType.DYNAMIC: RopeTypeInfo("base b·(s·L/Lmax - (s-1))^(d/(d-2)) when L > Lmax", "dynamic NTK scaling "
                                   "(transformers' 'dynamic' type)", ("factor",)),
    RopeType.YARN: RopeTypeInfo("(f_i/s)·r_i + f_i·(1-r_i), r_i a ramp linear in the index i between the floored and "
                                "ceiled correction dimensions of beta_fast and beta_slow",
                                "Peng, Quesnelle, Fan & Shippole, ICLR 2024 (YaRN), as transformers computes it",
                                ("factor", "original_max_position_embeddings", "beta_fast", "beta_slow", "truncate",
                                 "attention_factor", "mscale", "mscale_all_dim")),
    RopeType.LONGROPE: RopeTypeInfo("f_i / long_factor[i] when L > L0, f_i / short_factor[i] otherwise",
                                    "Ding et al. 2024 (LongRoPE); Phi-3", ("long_factor", "short_factor", "factor",
                                                                          "original_max_position_embeddings",
                                                                          "attention_factor")),
    RopeType.LLAMA3: RopeTypeInfo("f_i (w_i < L0/high), f_i/s (w_i > L0/low), else (1-k)·f_i/s + k·f_i, "
                                  "k = (L0/w_i - low)/(high - low), w_i = 2π/f_i", "Llama 3.1 (Meta 2024)",
                                  ("factor", "low_freq_factor", "high_freq_factor",
                                   "original_max_position_embeddings")),
    RopeType.PROPORTIONAL: RopeTypeInfo("b^(-2i/h) on the first floor(prf·h/2) pairs, 0 on the rest, all / s",
                                        "transformers 5 (Gemma 4)", ("factor", "partial_rotary_factor")),
}


def _mscale(scale: float, m: float = 1.0) -> float:
    return 1.0 if scale <= 1 else 0.1 * m * math.log(scale) + 1.0


@dataclass(frozen=True)
class RopeScaling:
    """A validated ``rope_scaling`` of one config, with the config values its formulas need.

    ``width`` is the rotary width d, ``base`` the config's b, ``original`` L0, ``max_positions`` Lmax."""

    type: RopeType
    width: int
    base: float
    original: int
    max_positions: int
    factor: float = 1.0
    beta_fast: float = 32.0
    beta_slow: float = 1.0
    truncate: bool = True
    low_freq_factor: float = 1.0
    high_freq_factor: float = 4.0
    long_factor: tuple[float, ...] = ()
    short_factor: tuple[float, ...] = ()
    attention_factor: float | None = None
    mscale: float | None = None
    mscale_all_dim: float | None = None

    def frequencies(self, omega: np.ndarray, length: int) -> np.ndarray:
        """The config's frequencies at sequence length L from the PE's own ω (= f_i, or the proportional layout):
        (d/2,) -> (d/2,)."""
        s = self.factor
        if self.type in (RopeType.DEFAULT,):
            return omega
        if self.type in (RopeType.LINEAR, RopeType.PROPORTIONAL):
            return omega / s
        if self.type is RopeType.DYNAMIC:
            if length <= self.max_positions:
                return omega
            d = self.width
            growth = s * length / self.max_positions - (s - 1)                   # b'/b = growth^(d/(d-2))
            i = np.arange(omega.size)
            return omega * np.power(growth, -2.0 * i / (d - 2)) if d > 2 else omega
        if self.type is RopeType.YARN:
            ramp = self.yarn_ramp(omega.size)
            return (omega / s) * ramp + omega * (1.0 - ramp)
        if self.type is RopeType.LONGROPE:
            table = self.long_factor if length > self.original else self.short_factor
            return omega / np.asarray(table, dtype=float)
        wavelength = 2.0 * np.pi / omega                                           # llama3
        low_wave, high_wave = self.original / self.low_freq_factor, self.original / self.high_freq_factor
        smooth = (self.original / wavelength - self.low_freq_factor) / (self.high_freq_factor - self.low_freq_factor)
        mixed = (1.0 - smooth) * omega / s + smooth * omega
        out = np.where(wavelength > low_wave, omega / s, omega)
        medium = (wavelength >= high_wave) & (wavelength <= low_wave)
        return np.where(medium, mixed, out)

    def yarn_ramp(self, half: int) -> np.ndarray:
        """r_i for i = 0..d/2-1 (1: interpolated, 0: kept): (d/2,)."""
        d, b = self.width, self.base

        def correction(rotations: float) -> float:
            return d * math.log(self.original / (rotations * 2 * math.pi)) / (2 * math.log(b))

        lo, hi = correction(self.beta_fast), correction(self.beta_slow)
        if self.truncate:
            lo, hi = math.floor(lo), math.ceil(hi)
        lo, hi = max(lo, 0), min(hi, d - 1)
        if lo == hi:
            hi += 0.001
        return np.clip((np.arange(half) - lo) / (hi - lo), 0.0, 1.0)

    def logit_scale(self, length: int) -> float:
        """The positive factor the logits are multiplied by: the attention factor a squared (transformers multiplies
        the cosines and sines of queries and keys by a); 1 except for ``yarn`` and ``longrope``."""
        return self.attention(length) ** 2

    def attention(self, length: int) -> float:
        """The attention factor a (transformers' ``attention_scaling``)."""
        if self.attention_factor is not None:
            return self.attention_factor
        if self.type is RopeType.YARN:
            if self.mscale and self.mscale_all_dim:
                return _mscale(self.factor, self.mscale) / _mscale(self.factor, self.mscale_all_dim)
            return _mscale(self.factor)
        if self.type is RopeType.LONGROPE:
            return 1.0 if self.factor <= 1 else math.sqrt(1 + math.log(self.factor) / math.log(self.original))
        return 1.0

    def to_json(self) -> dict:
        """The parameters that act, as a JSON object."""
        out: dict = {"rope_type": self.type.value, "factor": self.factor,
                     "original_max_position_embeddings": self.original}
        if self.type is RopeType.DYNAMIC:
            out["max_position_embeddings"] = self.max_positions
        if self.type is RopeType.YARN:
            out.update(beta_fast=self.beta_fast, beta_slow=self.beta_slow, truncate=self.truncate)
        if self.type is RopeType.LLAMA3:
            out.update(low_freq_factor=self.low_freq_factor, high_freq_factor=self.high_freq_factor)
        if self.type is RopeType.LONGROPE:
            out.update(long_factor=list(self.long_factor), short_factor=list(self.short_factor))
        return out
