"""Positional encodings as their papers define them, reduced to a positional-only head
(definitions.md#published-pe).

Main definitions (n = i - j ≥ 0 on the causal grid):

* ``t5[:B[:M]]`` (:class:`T5Buckets`) — the one-hot of T5's unidirectional relative-position bucket
  (Raffel et al. 2020, JMLR): with e = ⌊B/2⌋, bucket(n) = n for n < e, else
  min(B - 1, e + ⌊(B - e) · log(n/e) / log(M/e)⌋); defaults B = 32, M = 128.  The floor is taken
  exactly: the bucket changes at the integer thresholds n_k = min{n : n^(B-e) e^k ≥ M^k e^(B-e)};
* ``alibi-fixed[:H[:h]]`` (:class:`FixedALiBi`) — ALiBi's fixed bias -m_h · n with the slope
  m_h = 2^(-8h/H) of head h of H (Press, Smith & Lewis 2022); defaults H = 8, h = 1 (m = 1/2).  A
  positional-only head has no free positional parameter here: its one parameter is a positive scale
  c > 0 on the fixed bias (``positive_scale``), so a row is realized iff the fixed bias realizes it;
* ``kerple-log[:r]`` (:class:`KerpleLog`) — Kerple's logarithmic bias -r₁ log(1 + r₂ n) (Chi, Fan,
  Ramadge & Rudnicky 2022) with the inner scale r₂ = r fixed (default 1) and r₁ > 0 learned: linear in
  the positive scale r₁;
* ``xpos:d[:base[:scale]]`` (:class:`XPos`) — RoPE with xPos's per-frequency decay (Sun et al. 2023):
  ψ(n) = [ζ_f^(n/γ) cos ω_f n]_f ++ [ζ_f^(n/γ) sin ω_f n]_f, ζ_f = (2f + 0.4 d)/(1.4 d), γ = 512 by
  default.  The query carries ζ^(i/γ) and the key ζ^(-j/γ), so their product ζ^((i-j)/γ) depends on
  n alone: relative and linear in θ; on the causal grid n ≥ 0 and ζ_f < 1 make it a decay;
* ``fire[:K[:T]]`` (:class:`Fire`) — FIRE's bias f(ψ(i - j) / ψ(max(T, i))), ψ(x) = log(1 + x) (Li et al.
  2024, with c = 1), where f is a continuous piecewise-linear function with K equally spaced knots on
  [0, 1] — the span of a one-hidden-layer ReLU network whose hidden layer is fixed — written in the
  hat basis; threshold T = L0 by default.  Linear in θ, general (it depends on i through the
  normalization).

Each is an :class:`~posreal.theory.encodings.Encoding` with the methods every PE has; spec strings are
parsed by :mod:`posreal.theory.pe_specs`.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field
from fractions import Fraction
from typing import TYPE_CHECKING, Any

import numpy as np

from posreal.theory.blocked import BlockedEncoding
from posreal.theory.declarations import PEFamily, declare_pe
from posreal.theory.encodings import GENERAL, OFFSET, RELATIVE, Encoding, OneHot, ProfileEncoding, Slope
from posreal.theory.errors import SpecError, quote
from posreal.theory.pe_catalogue import FREQUENCY_BASE, WIDTH, CatalogueEntry, Parameter
from posreal.theory.rational import point_interval
from posreal.theory.sinusoids import DEFAULT_BASE, Rescalable, format_base
from posreal.theory.spec_args import at_most, int_arg, number_arg, split_args, width_and_base

if TYPE_CHECKING:
    from posreal.theory.rescaling import Rescaling

T5_BUCKETS, T5_MAX_DISTANCE = 32, 128
MAX_T5_BUCKETS = 1024
ALIBI_HEADS, ALIBI_HEAD = 8, 1
KERPLE_SCALE = 1.0
XPOS_SCALE = 512.0
XPOS_GAMMA = Fraction(2, 5)   # ζ_f = (f/(d/2) + 0.4) / 1.4
FIRE_KNOTS = 8
MAX_FIRE_KNOTS = 1024


def _given(values: tuple, count: int) -> str:
    """The spec arguments as given (the first ``count`` of ``values``), each printed as parsed."""
    return "".join(f":{format_base(v) if isinstance(v, float) else v}" for v in values[:count])


# --------------------------------------------------------------------------- T5
@functools.lru_cache(maxsize=64)
def t5_thresholds(buckets: int, max_distance: int) -> tuple[int, ...]:
    """n_k for k = 1 .. B - e - 1: the smallest n with n^(B-e) e^k ≥ M^k e^(B-e), i.e. with
    (B - e) log(n/e) / log(M/e) ≥ k (integers only, so the floor is exact)."""
    e, rest = buckets // 2, buckets - buckets // 2
    out = []
    for k in range(1, rest):
        need = max_distance ** k * e ** rest
        n = max(e, int(e * (max_distance / e) ** (k / rest)) - 2)      # a float guess, then exact steps
        while n ** rest * e ** k < need:
            n += 1
        while n > e and (n - 1) ** rest * e ** k >= need:
            n -= 1
        out.append(n)
    return tuple(out)


@dataclass(frozen=True)
class T5Buckets(OneHot):
    """``t5[:B[:M]]``: one-hot of T5's unidirectional bucket of n = i - j (Raffel et al. 2020)."""

    buckets_count: int = T5_BUCKETS
    max_distance: int = T5_MAX_DISTANCE
    given: int = field(default=0, compare=False)   # how many spec arguments were written (str round trip)
    kind = RELATIVE
    index = OFFSET

    def dim(self, train_length):
        return self.buckets_count

    def buckets(self, keys, train_length):
        keys = np.asarray(keys, dtype=np.int64)
        e = self.buckets_count // 2
        far = e + np.searchsorted(np.array(t5_thresholds(self.buckets_count, self.max_distance), dtype=np.int64),
                                  keys, side="right")
        return np.where(keys < e, keys, far).astype(np.int64)

    def __str__(self):
        return "t5" + _given((self.buckets_count, self.max_distance), self.given)


# --------------------------------------------------------------------------- fixed biases with a positive scale
def alibi_slope(heads: int, head: int) -> Fraction | float:
    """m_h = 2^(-8h/H): a Fraction when 8h/H is an integer, else the float nearest to it."""
    if (8 * head) % heads == 0:
        return Fraction(1, 2 ** (8 * head // heads))
    return 2.0 ** (-8.0 * head / heads)


@dataclass(frozen=True)
class FixedALiBi(Slope):
    """``alibi-fixed[:H[:h]]``: ALiBi's fixed bias -m_h (i - j), m_h = 2^(-8h/H), with a positive scale."""

    heads: int = ALIBI_HEADS
    head: int = ALIBI_HEAD
    given: int = field(default=0, compare=False)
    positive_scale = True

    @property
    def rational(self):   # type: ignore[override]
        return isinstance(alibi_slope(self.heads, self.head), Fraction)

    def slope(self):
        m = alibi_slope(self.heads, self.head)
        return m * self.position_scale if isinstance(m, Fraction) else m * float(self.position_scale)

    def interval_index_features(self, row, keys, train_length, iv):
        m = alibi_slope(self.heads, self.head)
        slope = (point_interval(iv, m) if isinstance(m, Fraction)
                 else iv.exp(-(iv.mpf(8 * self.head) / self.heads) * iv.log(2)))
        slope = slope * point_interval(iv, self.position_scale)
        return [[-slope * k] for k in keys]

    def __str__(self):
        return "alibi-fixed" + _given((self.heads, self.head), self.given)


@dataclass(frozen=True)
class KerpleLog(ProfileEncoding):
    """``kerple-log[:r]``: Kerple's logarithmic bias -r₁ log(1 + r (i - j)), r fixed, scale r₁ > 0 learned."""

    peak_copies = 1   # feature_ids from the offsets (log(1 + r n) is injective), never np.unique

    r: float = KERPLE_SCALE
    given: int = field(default=0, compare=False)
    kind = RELATIVE
    index = OFFSET
    positive_scale = True

    def dim(self, train_length):
        return 1

    def features(self, keys, train_length):
        return -np.log1p(self.r * np.asarray(keys, dtype=float))[:, None]   # (m, 1)

    def feature_ids(self, length, train_length):
        return np.arange(length)   # strictly decreasing in n: no two offsets share a feature

    def interval_index_features(self, row, keys, train_length, iv):
        r = iv.mpf(float(self.r))
        return [[-iv.log(1 + r * k)] for k in keys]

    def __str__(self):
        return "kerple-log" + _given((float(self.r),), self.given)


# --------------------------------------------------------------------------- xPos
def xpos_zeta(d: int) -> list[Fraction]:
    """ζ_f = (f/(d/2) + γ₀)/(1 + γ₀) = (2f + 0.4 d)/(1.4 d), f = 0..d/2-1, exactly."""
    return [(Fraction(2 * f, d) + XPOS_GAMMA) / (1 + XPOS_GAMMA) for f in range(d // 2)]


@dataclass(frozen=True)
class XPos(Rescalable, ProfileEncoding):
    """``xpos:d[:base[:scale]]``: RoPE with xPos's decay ζ_f^((i-j)/γ) on frequency f (Sun et al. 2023)."""

    d: int
    base: float = DEFAULT_BASE
    scale: float = XPOS_SCALE
    given: int = field(default=1, compare=False)
    rescaling: Rescaling | None = None   # a length extension's frequencies (None: the paper's)
    kind = RELATIVE
    index = OFFSET

    def dim(self, train_length):
        return self.d

    def features(self, keys, train_length):
        n = np.asarray(keys, dtype=float)[:, None]                                   # (m, 1)
        zeta = np.array([float(z) for z in xpos_zeta(self.d)])                       # (d/2,)
        decay = np.power(zeta[None, :], n / self.scale)                              # (m, d/2)
        angles = n * self.omegas()[None, :]                                          # (m, d/2)
        return np.concatenate([decay * np.cos(angles), decay * np.sin(angles)], axis=1)   # (m, d)

    def interval_index_features(self, row, keys, train_length, iv):
        omega = self.interval_omegas(iv)
        log_zeta = [iv.log(iv.mpf(z.numerator) / z.denominator) for z in xpos_zeta(self.d)]
        scale = iv.mpf(float(self.scale))
        out = []
        for k in keys:
            decay = [iv.exp(lz * k / scale) for lz in log_zeta]
            out.append([a * iv.cos(w * k) for a, w in zip(decay, omega)]
                       + [a * iv.sin(w * k) for a, w in zip(decay, omega)])
        return out

    def __str__(self):
        return "xpos" + _given((self.d, float(self.base), float(self.scale)), self.given)


# --------------------------------------------------------------------------- FIRE
def hats(u: np.ndarray, knots: int) -> np.ndarray:
    """The hat basis on [0, 1] with ``knots`` equally spaced knots: max(0, 1 - |(K-1)u - k|): (m,) -> (m, K)."""
    y = (knots - 1) * np.asarray(u, dtype=float)[:, None] - np.arange(knots)[None, :]   # (m, K)
    return np.maximum(0.0, 1.0 - np.abs(y))


def interval_hat(iv: Any, u: Any, k: int, knots: int) -> Any:
    """Enclosure of max(0, 1 - |(K-1)u - k|) over the interval u (mpmath's ``iv`` context)."""
    y = (knots - 1) * u - k
    if y.a >= 0:
        low, high = y.a, y.b               # |y| over the interval: its endpoints are exact numbers
    elif y.b <= 0:
        low, high = -y.b, -y.a
    else:
        low, high = iv.mpf(0), max(-y.a, y.b)
    z = 1 - iv.mpf([low, high])            # outward rounded
    return iv.mpf([max(z.a, 0), max(z.b, 0)])


@dataclass(frozen=True)
class Fire(BlockedEncoding):
    """``fire[:K[:T]]``: FIRE's bias f(log(1 + i - j) / log(1 + max(T, i))), f piecewise linear with K knots."""

    knots: int = FIRE_KNOTS
    threshold: int | None = None      # T; None: the training length L0
    given: int = field(default=0, compare=False)
    kind = GENERAL
    index = OFFSET

    def dim(self, train_length):
        return self.knots

    def cutoff(self, train_length: int) -> int:
        return train_length if self.threshold is None else self.threshold

    def ratio(self, rows: np.ndarray, keys: np.ndarray, train_length: int) -> np.ndarray:
        """u(i, j) = log(1 + (i - j)) / log(1 + max(T, i)) ∈ [0, 1]: (m,), (m,) -> (m,)."""
        rows = np.asarray(rows, dtype=np.int64)
        return np.log1p(np.asarray(keys, dtype=float)) / np.log1p(np.maximum(self.cutoff(train_length), rows))

    def index_features(self, rows, keys, train_length):
        return hats(self.ratio(rows, keys, train_length), self.knots)   # (m, K)

    def interval_index_features(self, row, keys, train_length, iv):
        scale = iv.log(1 + iv.mpf(max(self.cutoff(train_length), row)))
        out = []
        for k in keys:
            u = iv.log(1 + iv.mpf(k)) / scale
            out.append([interval_hat(iv, u, c, self.knots) for c in range(self.knots)])
        return out

    def __str__(self):
        args = (self.knots, self.threshold)
        return "fire" + _given(args, self.given)


PUBLISHED_CLASSES: tuple[type[Encoding], ...] = (T5Buckets, FixedALiBi, KerpleLog, XPos, Fire)


# --------------------------------------------------------------------------- declarations (posreal pes)
MAX_KERPLE_R = 1e12   # kerple-log's inner scale r: r·L <= 10^19 on the longest grid, so log(1 + r n) stays finite


# Parsers at module level (each line runs when a spec is parsed), declarations as module-level statements.
def _parse_t5(name: str, rest: str, spec: str) -> Encoding:
    args = at_most(split_args(rest), 2, spec)
    B = int_arg(args[0], spec, 2) if args else T5_BUCKETS
    M = int_arg(args[1], spec, 1) if len(args) > 1 else T5_MAX_DISTANCE
    if B > MAX_T5_BUCKETS or M <= B // 2:
        raise SpecError(f"invalid PE {quote(spec)}: t5 needs 2 <= B <= {MAX_T5_BUCKETS} buckets and a max "
                        f"distance M > B/2 (here B = {B}, M = {M}); accepted: t5[:B[:M]], e.g. t5, t5:32:128")
    return T5Buckets(B, M, given=len(args))


def _parse_alibi_fixed(name: str, rest: str, spec: str) -> Encoding:
    args = at_most(split_args(rest), 2, spec)
    H = int_arg(args[0], spec, 1) if args else ALIBI_HEADS
    h = int_arg(args[1], spec, 1) if len(args) > 1 else ALIBI_HEAD
    if h > H:
        raise SpecError(f"invalid PE {quote(spec)}: head h = {h} of H = {H} heads; accepted: "
                        "alibi-fixed[:H[:h]] with 1 <= h <= H (slope 2^(-8h/H))")
    return FixedALiBi(heads=H, head=h, given=len(args))


def _parse_kerple_log(name: str, rest: str, spec: str) -> Encoding:
    args = at_most(split_args(rest), 1, spec)
    if not args:
        return KerpleLog()
    return KerpleLog(number_arg(args[0], spec, "inner scale r", high=MAX_KERPLE_R), given=1)


def _parse_xpos(name: str, rest: str, spec: str) -> Encoding:
    args = at_most(split_args(rest), 3, spec)
    d, base, _ = width_and_base(args[:2], spec, DEFAULT_BASE)
    scale = number_arg(args[2], spec, "scale") if len(args) == 3 else XPOS_SCALE
    return XPos(d=d, base=base, scale=scale, given=len(args))


def _parse_fire(name: str, rest: str, spec: str) -> Encoding:
    args = at_most(split_args(rest), 2, spec)
    K = int_arg(args[0], spec, 2) if args else FIRE_KNOTS
    if K > MAX_FIRE_KNOTS:
        raise SpecError(f"invalid PE {quote(spec)}: K = {K} knots; accepted: fire[:K[:T]] with 2 <= K <= "
                        f"{MAX_FIRE_KNOTS}")
    T = int_arg(args[1], spec, 1) if len(args) > 1 else None
    return Fire(knots=K, threshold=T, given=len(args))


declare_pe(PEFamily(CatalogueEntry(
    "t5[:B[:M]]", "relative",
    "ψ(i, j) = one-hot of bucket(n): with e = ⌊B/2⌋, bucket(n) = n if n < e, else "
    "min(B - 1, e + ⌊(B - e) · log(n/e) / log(M/e)⌋) (the floor taken exactly)",
    (Parameter("B", "number of buckets (2..1024)", "32"),
     Parameter("M", "max distance: offsets ≥ M share the last bucket (M > B/2)", "128")),
    "θ ∈ ℝ^B", "yes",
    "Raffel et al. 2020, 'Exploring the Limits of Transfer Learning with a Unified Text-to-Text Transformer', "
    "JMLR 21: the unidirectional (causal) relative-position buckets", "t5"), _parse_t5, rank=4, published="t5"))
declare_pe(PEFamily(CatalogueEntry(
    "alibi-fixed[:H[:h]]", "relative",
    "ψ(i, j) = [-m_h n] with m_h = 2^(-8h/H) fixed: κ = c·(-m_h n), one positive scale c",
    (Parameter("H", "number of heads", "8"), Parameter("h", "the head (1..H)", "1")),
    "c > 0 (a fixed bias: a row is realized iff the bias realizes it)", "when 8h/H is an integer",
    "Press, Smith & Lewis 2022, 'Train Short, Test Long: Attention with Linear Biases Enables Input Length "
    "Extrapolation', ICLR", "alibi-fixed"), _parse_alibi_fixed, rank=5, published="alibi-fixed"))
declare_pe(PEFamily(CatalogueEntry(
    "kerple-log[:r]", "relative",
    "ψ(i, j) = [-log(1 + r n)], inner scale r fixed: κ = c·(-log(1 + r n)), c > 0 learned",
    (Parameter("r", "inner scale r₂ of the logarithmic kernel (> 0)", "1"),),
    "c > 0 (a fixed bias: a row is realized iff the bias realizes it)", "no (certified mode)",
    "Chi, Fan, Ramadge & Rudnicky 2022, 'KERPLE: Kernelized Relative Positional Embedding for Length "
    "Extrapolation', NeurIPS: the logarithmic variant -r₁ log(1 + r₂ n)", "kerple-log"),
    _parse_kerple_log, rank=6, never_rational=True, published="kerple-log"))
declare_pe(PEFamily(CatalogueEntry(
    "xpos:d[:base[:scale]]", "relative",
    "ψ(i, j) = [ζ_f^(n/γ) cos ω_f n]_f ++ [ζ_f^(n/γ) sin ω_f n]_f with ζ_f = (2f + 0.4 d)/(1.4 d), γ = scale",
    (WIDTH, FREQUENCY_BASE, Parameter("scale", "γ, the decay's scale base", "512")), "θ ∈ ℝ^d",
    "no (certified mode)",
    "Sun et al. 2023, 'A Length-Extrapolatable Transformer', ACL: RoPE with a per-frequency exponential "
    "decay (causal only: ζ_f < 1 and n ≥ 0)", "xpos:16"), _parse_xpos, rank=8, never_rational=True,
    published="xpos:16"))
declare_pe(PEFamily(CatalogueEntry(
    "fire[:K[:T]]", "general",
    "ψ(i, j) = [h_k(u)]_k with u = log(1 + n) / log(1 + max(T, i)) and h_k(u) = max(0, 1 - |(K - 1)u - k|), "
    "k = 0..K-1: f(u) = Σ θ_k h_k(u) is piecewise linear with K knots on [0, 1]",
    (Parameter("K", "knots of the piecewise-linear f (2..1024)", "8"),
     Parameter("T", "threshold of the progressive interpolation", "L0")),
    "θ ∈ ℝ^K", "no (certified mode)",
    "Li et al. 2024, 'Functional Interpolation for Relative Positions Improves Long Context Transformers', "
    "ICLR: f_θ(ψ(i - j)/ψ(max(L, i))), ψ(x) = log(cx + 1), with c = 1 and f in a fixed basis",
    "fire"), _parse_fire, rank=11, never_rational=True, published="fire"))
