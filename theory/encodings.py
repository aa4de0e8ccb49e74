"""Linear positional encodings (PEs): the feature maps ψ(i, j) ∈ ℝ^p of definitions.md#linear-pe.

Main definitions:

* the base classes :class:`Encoding` (any ψ(i, j)), :class:`ProfileEncoding` (ψ of the key index
  alone) and :class:`OneHot` (one-hot of a bucket of the key index);
* the registry classes ``nope`` (:class:`NoPE`), ``clipped[:D]``/``colbias[:D]`` (:class:`Bucket`; the
  older name ``relbias``), ``slope`` (:class:`Slope`; the older name ``alibi``) and the shear ``dual:P``
  (:class:`DualOf`, ψ_S(i, j) = ψ(i, i-j), Proposition 4).  The sinusoidal PEs are in
  :mod:`posreal.theory.sinusoids`, the published encodings (T5, fixed ALiBi, Kerple, xPos, FIRE) in
  :mod:`posreal.theory.published`, user feature tables in :mod:`posreal.theory.tables`, user functions in
  :mod:`posreal.theory.function_pe`; spec strings are parsed, once, by :mod:`posreal.theory.pe_specs`;
* every encoding is read in *index form*: row i of the causal grid sees key index
  k ∈ {0..i}, where k = i - j for offset-indexed PEs (relative) and k = j for
  position-indexed ones (column, bilinear, tables).  The shear keeps the row values and flips
  the index (offset ↔ position), which is why α_L(SΦ, Sτ) = α_L(Φ, τ);
* what differs between kinds of PE is a method of the encoding, so no caller branches on its
  class: the kernel of θ on the L-grid (:meth:`Encoding.kernel`, :meth:`Encoding.exact_kernel`),
  the structural ties (:meth:`Encoding.structural_ties`), the interval enclosures and the feature
  bound of certified mode (:meth:`Encoding.interval_index_features`, :meth:`Encoding.max_abs_feature`),
  the shape of its kernel for memory planning (:attr:`Encoding.kernel_form`) and the shear
  (:meth:`Encoding.dual`).

``clipped`` is the one-hot bucket min(i - j, D) with D = L0 - 1 by default (an idealization of T5's
buckets, Raffel et al. 2020; T5's own buckets are ``t5``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from enum import StrEnum
from fractions import Fraction
from typing import TYPE_CHECKING, Any

import numpy as np

from posreal.theory.declarations import PEFamily, declare_pe
from posreal.theory.errors import SpecError, bad_value, quote
from posreal.theory.feature_ids import row_ids, ties_from_ids
from posreal.theory.rational import point_interval
from posreal.theory.kernels import DenseKernel, Kernel, KeyIndex, ProfileKernel, dot
from posreal.theory.pe_catalogue import CatalogueEntry, Parameter
from posreal.theory.spec_args import at_most, int_arg, no_args, split_args

if TYPE_CHECKING:
    from posreal.theory.rescaling import Rescaling

OFFSET = KeyIndex.OFFSET      # key index k = i - j
POSITION = KeyIndex.POSITION  # key index k = j


class PEKind(StrEnum):
    """What ψ depends on: i - j (relative), j (column), both through φ(i)ᵀWφ(k) (bilinear), or any (general)."""

    RELATIVE = "relative"
    COLUMN = "column"
    BILINEAR = "bilinear"
    GENERAL = "general"

    @property
    def dual(self) -> PEKind:
        """The kind of the shear: relative ↔ column, bilinear and general stay."""
        return {PEKind.RELATIVE: PEKind.COLUMN, PEKind.COLUMN: PEKind.RELATIVE}.get(self, self)


RELATIVE, COLUMN, BILINEAR, GENERAL = PEKind.RELATIVE, PEKind.COLUMN, PEKind.BILINEAR, PEKind.GENERAL


class KernelForm(StrEnum):
    """How a PE's kernel is held on the L-grid (memory planning, :mod:`posreal.runtime.resources`)."""

    PROFILE = "profile"     # one (L,) profile: relative and column PEs
    BILINEAR = "bilinear"   # Φ_L W Φ_Lᵀ, row-blocked
    DENSE = "dense"         # (L, L) values: general tables
    BLOCKED = "blocked"     # ψ evaluated a block of rows at a time, never stored: general PEs given by a formula


TIE_SCREEN = 1e-6              # rows with γ above this (relative) cannot be structural ties (γ ≤ 0 there)
MAX_PROFILE_LENGTH = 2 ** 24   # relative / column kernels: O(L) memory
MAX_BLOCKED_LENGTH = 2 ** 15   # bilinear kernels: O(L^2 d) time, row-blocked memory


def irrational(pe: object) -> SpecError:
    """The refusal of exact (ℚ) work on a PE without rational features, naming the spec as given."""
    return SpecError(f"PE {str(pe)!r} has irrational features; exact mode accepts "
                     "relbias, colbias, alibi, nope, rational user tables and their duals")


def integer_positions(values: Any, role: str) -> np.ndarray:
    """Grid positions as int64, refusing any that are not whole numbers: (m,) -> (m,).

    Integer arrays pass unchanged; floats and Python ints are accepted when integral (1.0 is
    position 1), but 1.5 or NaN is an error rather than a silent truncation."""
    arr = np.asarray(values)
    if arr.dtype.kind in "iu":
        return arr.astype(np.int64, copy=False)
    if arr.dtype.kind in "fO":
        try:
            with np.errstate(invalid="ignore"):
                as_int = arr.astype(np.int64)
                whole = bool(np.all(as_int == arr))
        except (TypeError, ValueError, OverflowError):
            whole = False
        if whole:
            return as_int
    shown = arr.ravel()[:8].tolist()
    raise SpecError(f"invalid {role} positions {quote(shown)}{'…' if arr.size > 8 else ''}: "
                    "not all whole numbers; accepted: integer grid positions")


class Encoding:
    """A linear PE.  ``kind`` (:class:`PEKind`), ``index`` (:class:`KeyIndex`: how key index k
    relates to (i, j)) and ``rational`` (features are exact rationals) are class attributes,
    dataclass fields or properties of the subclasses.  The defaults below work from
    :meth:`index_features` alone (general tables); 1-D and bilinear encodings override them."""

    kernel_form = KernelForm.DENSE
    positive_scale = False
    """True for a fixed bias with one learned scale (p = 1): θ ranges over (0, ∞) instead of ℝ
    (definitions.md#fixed-bias).  The selection, the class ceiling and the trainer honour it."""

    @property
    def kind(self) -> PEKind:
        raise NotImplementedError

    @property
    def index(self) -> KeyIndex:
        raise NotImplementedError

    @property
    def rational(self) -> bool:
        return False

    @property
    def feature_scale(self) -> Fraction:
        """The exact factor the features were rescaled by to fit float range (1: none; a rational table with
        entries beyond it is rescaled by 2^-k: α_L, the kernel values and every row outcome are unchanged, θ* is
        2^k times the given table's).  A rescaled PE is decided in exact mode only."""
        return Fraction(1)

    def dim(self, train_length: int) -> int:
        raise NotImplementedError

    def index_features(self, rows: np.ndarray, keys: np.ndarray, train_length: int) -> np.ndarray:
        """Features at (row i, key index k), float: (m,), (m,) -> (m, p)."""
        raise NotImplementedError

    def exact_index_features(self, rows: Sequence[int], keys: Sequence[int],
                             train_length: int) -> list[tuple[Fraction, ...]]:
        """Features at (row i, key index k) in ℚ; only for rational encodings."""
        raise irrational(self)

    def pair_features(self, i: np.ndarray, j: np.ndarray, train_length: int) -> np.ndarray:
        """ψ(i, j) for query i and key j, float: (m,), (m,) -> (m, p)."""
        i = integer_positions(i, "query")
        j = integer_positions(j, "key")
        return self.index_features(i, self.key_index(i, j), train_length)

    def key_index(self, i: Any, j: Any) -> Any:
        """Key index k of key j on row i (works on ints and arrays)."""
        return i - j if self.index == OFFSET else j

    def max_length(self, train_length: int) -> int:
        return MAX_BLOCKED_LENGTH

    def length_bound_reason(self) -> str:
        """Why lengths above :meth:`max_length` are refused (one clause of the error message)."""
        return "larger grids do not fit in memory/time"

    def check_length(self, length: int, train_length: int) -> None:
        longest = self.max_length(train_length)
        if length > longest:
            raise SpecError(f"invalid length {length!r} for PE {str(self)!r}; accepted: "
                            f"lengths up to {longest} ({self.length_bound_reason()})")

    def dual(self) -> Encoding:
        """The shear ψ_S(i, j) = ψ(i, i - j), in normal form (the shear of a shear is the PE)."""
        return DualOf(self)

    def extended(self, rescaling: Rescaling, train_length: int) -> Encoding:
        """The features a length extension evaluates on the longer grid (:mod:`posreal.theory.extension`)."""
        raise SpecError(f"invalid extension {rescaling.method.value!r} for PE {str(self)!r}; accepted: rope, "
                        "abscol, abssin, xpos and their duals (any extension), slope and alibi-fixed (pi); "
                        "bucketed, kerple, fire, table and function PEs have no frequencies or positions to rescale")

    # -- the kernel of θ on the L-grid (no validation here: callers validate at their boundary)
    def kernel(self, theta: np.ndarray, length: int, train_length: int) -> Kernel:
        """T_L θ in float: θ (p,) -> kernel on the ``length``-grid; values computed row by row."""
        out = np.zeros((length, length))                                   # (L, L) index form
        for i in range(length):
            keys = np.arange(i + 1)
            out[i, : i + 1] = self.index_features(np.full(i + 1, i), keys, train_length) @ theta
        return DenseKernel(length, self.index, out)

    def exact_kernel(self, theta: Sequence[Fraction], length: int, train_length: int) -> Kernel:
        """T_L θ in ℚ (rational encodings): values are Fractions."""
        out = np.zeros((length, length), dtype=object)                     # (L, L) Fractions
        for i in range(length):
            feats = self.exact_index_features([i] * (i + 1), list(range(i + 1)), train_length)
            out[i, : i + 1] = [dot(theta, f) for f in feats]
        return DenseKernel(length, self.index, out)

    def float_row_margins(self, theta: np.ndarray, rows: np.ndarray, keys: np.ndarray, length: int,
                          train_length: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Margins γ_i, target values κ(i, t) and structural ties of the scored rows (target key indices
        ``keys``) under T_L θ in float: (p,), (m,), (m,) -> (m,), (m,), (m,) bool."""
        ties = self.structural_ties(rows, keys, length, train_length)
        margins, values = self.kernel(theta, length, train_length).float_margins(rows, keys)
        return margins, values, ties

    def structural_ties(self, rows: np.ndarray, keys: np.ndarray, length: int, train_length: int) -> np.ndarray:
        """Rows whose target key index has the features of another key of the row: (m,), (m,) -> (m,) bool.
        Compared row by row (exactly for rational encodings)."""
        ties = np.zeros(rows.size, dtype=bool)
        for n, (i, k) in enumerate(zip(rows.tolist(), keys.tolist())):
            if self.rational:
                feats = self.exact_index_features([i] * (i + 1), list(range(i + 1)), train_length)
            else:
                feats = [tuple(f) for f in self.index_features(np.full(i + 1, i), np.arange(i + 1), train_length)]
            ties[n] = any(feats[c] == feats[k] for c in range(i + 1) if c != k)
        return ties

    # -- certified mode (interval arithmetic; ``iv`` is mpmath's interval context, passed in)
    def max_abs_feature(self, length: int, train_length: int) -> float:
        """max |ψ_f(i, k)| over the whole L-grid (the error bound must hold for every entry)."""
        return max((float(np.abs(self.index_features(np.full(i + 1, i), np.arange(i + 1), train_length))
                          .max(initial=0.0)) for i in range(length)), default=0.0)

    def interval_index_features(self, row: int, keys: list[int], train_length: int, iv: Any) -> list[list]:
        """Enclosures of ψ at (row, key index k) for each k: (len(keys), p) intervals.  Rational or
        float features are exact binary or rational numbers: their enclosures are points."""
        if self.rational:
            feats: list = self.exact_index_features([row] * len(keys), keys, train_length)
        else:
            feats = self.index_features(np.full(len(keys), row), np.array(keys), train_length).tolist()
        return [[point_interval(iv, x) for x in f] for f in feats]


# --------------------------------------------------------------------------- 1-D encodings
class ProfileEncoding(Encoding):
    """ψ depends on the key index k alone: relative (k = i-j) or column (k = j).  The kernel
    on a grid is one profile v(k) = ⟨θ, f(k)⟩, the same for every row."""

    kernel_form = KernelForm.PROFILE
    peak_copies = 4   # (L, p) float copies at the peak of feature_ids: the features, np.unique's two, its mask

    def features(self, keys: np.ndarray, train_length: int) -> np.ndarray:
        """f(k): (m,) -> (m, p)."""
        raise NotImplementedError

    def exact_features(self, keys: Sequence[int], train_length: int) -> list[tuple[Fraction, ...]]:
        return Encoding.exact_index_features(self, [], keys, train_length)

    def feature_ids(self, length: int, train_length: int) -> np.ndarray:
        """Integer ids with id(k) == id(k') iff f(k) == f(k'), k < length: (length,).  Rational features
        are compared in ℚ: keys whose float features recur are re-checked exactly (distinct rationals
        may share a float) and split where they differ."""
        feats = self.features(np.arange(length), train_length)  # (L, p)
        if feats.shape[1] == 0:
            return np.zeros(length, dtype=np.int64)
        ids = row_ids(feats)
        shared = np.flatnonzero(np.bincount(ids)[ids] > 1)              # keys whose float features recur
        if not self.rational or shared.size == 0:
            return ids
        out, fresh = ids.copy(), int(ids.max()) + 1
        kept: dict[int, tuple] = {}                  # float id -> the exact features that keep that id
        split: dict[tuple, int] = {}                 # (float id, exact features) -> a new id
        for k, f in zip(shared.tolist(), self.exact_features(shared.tolist(), train_length)):
            group = int(ids[k])
            if kept.setdefault(group, tuple(f)) != tuple(f):
                out[k] = split.setdefault((group, tuple(f)), fresh + len(split))
        return out

    def profile(self, theta: np.ndarray, length: int, train_length: int) -> np.ndarray:
        """v(k) = ⟨θ, f(k)⟩ for k < length: (p,) -> (length,), computed in chunks."""
        out = np.empty(length)
        step = max(1, 2 ** 22 // max(1, theta.size))
        for start in range(0, length, step):
            keys = np.arange(start, min(length, start + step))
            out[start:start + keys.size] = self.features(keys, train_length) @ theta  # (chunk,)
        return out

    def exact_profile(self, theta: Sequence[Fraction], length: int, train_length: int) -> list[Fraction]:
        return [dot(theta, f) for f in self.exact_features(range(length), train_length)]

    def index_features(self, rows, keys, train_length):
        return self.features(np.asarray(keys, dtype=np.int64), train_length)

    def exact_index_features(self, rows, keys, train_length):
        return self.exact_features(list(keys), train_length)

    def max_length(self, train_length):
        return MAX_PROFILE_LENGTH

    def kernel(self, theta, length, train_length):
        return ProfileKernel(length, self.index, self.profile(theta, length, train_length))

    def exact_kernel(self, theta, length, train_length):
        return ProfileKernel(length, self.index, self.exact_profile(list(theta), length, train_length))

    def structural_ties(self, rows, keys, length, train_length):
        return ties_from_ids(self.feature_ids(length, train_length), rows, keys)

    def float_row_margins(self, theta, rows, keys, length, train_length):
        """Margins in O(L), and structural ties looked for only on rows not clearly realized: a tied row's target
        shares its features, hence its float value, with another key, so its margin is at most 0.0; a row with a
        margin above 1e-6·max(1, |κ(i, t)|) has no tie (the O(L p log L) feature comparison runs only when needed)."""
        margins, values = self.kernel(theta, length, train_length).float_margins(rows, keys)
        ties = np.zeros(rows.size, dtype=bool)                                   # (m,)
        with np.errstate(invalid="ignore"):
            near = ~(margins > TIE_SCREEN * np.maximum(1.0, np.abs(values)))
        if near.any():
            ties[near] = self.structural_ties(rows[near], keys[near], length, train_length)
        return margins, values, ties

    def max_abs_feature(self, length, train_length):
        step = max(1, 2 ** 20 // max(1, self.dim(train_length)))
        return max((float(np.abs(self.features(np.arange(a, min(length, a + step)), train_length)).max(initial=0.0))
                    for a in range(0, length, step)), default=0.0)


@dataclass(frozen=True)
class NoPE(ProfileEncoding):
    """No positional information: p = 0, κ ≡ 0 (every row with two keys is a structural tie)."""

    kind = RELATIVE
    index = OFFSET
    rational = True

    def dim(self, train_length):
        return 0

    def features(self, keys, train_length):
        return np.zeros((len(keys), 0))

    def exact_features(self, keys, train_length):
        return [() for _ in keys]

    def __str__(self):
        return "nope"


class OneHot(ProfileEncoding):
    """One-hot of an integer bucket b(k) ∈ {0..p-1} of the key index: the features of every bucketed PE
    (``clipped``/``colbias`` here, ``t5`` in :mod:`posreal.theory.published`).  Subclasses give
    :meth:`buckets` and :meth:`dim`; two keys tie iff they share a bucket."""

    peak_copies = 1   # feature_ids from bucket ids or offsets, never np.unique on (L, p) features

    rational = True

    def buckets(self, keys: np.ndarray, train_length: int) -> np.ndarray:
        """b(k): (m,) int -> (m,) int64 in 0..p-1."""
        raise NotImplementedError

    def features(self, keys, train_length):
        keys = np.asarray(keys, dtype=np.int64)
        out = np.zeros((keys.size, self.dim(train_length)))  # (m, p)
        out[np.arange(keys.size), self.buckets(keys, train_length)] = 1.0
        return out

    def exact_features(self, keys, train_length):
        p = self.dim(train_length)
        one, zero = Fraction(1), Fraction(0)
        ids = self.buckets(np.asarray(list(keys), dtype=np.int64), train_length).tolist()
        return [tuple(one if b == c else zero for c in range(p)) for b in ids]

    def feature_ids(self, length, train_length):
        return self.buckets(np.arange(length), train_length)

    def profile(self, theta, length, train_length):
        return np.asarray(theta, dtype=float)[self.buckets(np.arange(length), train_length)]

    def exact_profile(self, theta, length, train_length):
        return [theta[b] for b in self.buckets(np.arange(length), train_length).tolist()]


@dataclass(frozen=True)
class Bucket(OneHot):
    """One-hot of min(k, D): ``clipped`` (k = i - j; alias ``relbias``) or ``colbias`` (k = j).
    D = L0 - 1 when not given."""

    D: int | None = None
    index: KeyIndex = OFFSET
    alias: str | None = field(default=None, compare=False)   # the old spelling ``relbias``, printed as given

    @property
    def kind(self):
        return RELATIVE if self.index == OFFSET else COLUMN

    def clip(self, train_length: int) -> int:
        if self.D is not None:
            return self.D
        if train_length < 1:
            raise bad_value("train length", train_length, "an integer >= 1")
        return train_length - 1

    def dim(self, train_length):
        return self.clip(train_length) + 1

    def buckets(self, keys, train_length):
        return np.minimum(np.asarray(keys, dtype=np.int64), self.clip(train_length))

    def __str__(self):
        name = self.alias or ("clipped" if self.index == OFFSET else "colbias")
        return name if self.D is None else f"{name}:{self.D}"


@dataclass(frozen=True)
class Slope(ProfileEncoding):
    """``slope`` (alias ``alibi``): ψ(δ) = [-δ·c], one learned slope of either sign (ALiBi's linear bias
    with a free slope; the published fixed slopes are ``alibi-fixed``).  c = 1, or the position scale 1/s
    of an interpolated grid (``pi``: a positive rescaling)."""

    peak_copies = 1   # feature_ids from bucket ids or offsets, never np.unique on (L, p) features

    position_scale: Fraction = Fraction(1)
    alias: str | None = field(default=None, compare=False)   # the old spelling ``alibi``, printed as given
    kind = RELATIVE
    index = OFFSET
    rational = True

    def dim(self, train_length):
        return 1

    def slope(self) -> Fraction | float:
        """The fixed factor of -δ (1 here; a head's slope m_h for ``alibi-fixed``), times the position scale."""
        return self.position_scale

    def features(self, keys, train_length):
        return -float(self.slope()) * np.asarray(keys, dtype=float)[:, None]  # (m, 1)

    def exact_features(self, keys, train_length):
        m = self.slope()
        if not isinstance(m, Fraction):
            raise irrational(self)
        return [(-m * k,) for k in keys]

    def feature_ids(self, length, train_length):
        return np.arange(length)

    def profile(self, theta, length, train_length):
        return -float(theta[0]) * float(self.slope()) * np.arange(length, dtype=float)

    def extended(self, rescaling, train_length):
        if rescaling.method.value != "pi":
            return Encoding.extended(self, rescaling, train_length)
        return replace(self, position_scale=self.position_scale / rescaling.scale)

    def __str__(self):
        return self.alias or "slope"


ALiBi = Slope   # the class's earlier name


# --------------------------------------------------------------------------- the shear
class DualOf(Encoding):
    """``dual:P``: the features of P with the key index flipped.  Always in shear normal form: the
    base is never itself a shear (build it with :meth:`Encoding.dual`)."""

    def __init__(self, base: Encoding):
        if isinstance(base, DualOf):
            raise TypeError("DualOf(DualOf(P)) is P: build shears with Encoding.dual()")
        self.base = base

    @property
    def kind(self) -> PEKind:
        return self.base.kind.dual

    @property
    def index(self) -> KeyIndex:
        return self.base.index.flipped

    @property
    def rational(self) -> bool:
        return self.base.rational

    @property
    def feature_scale(self) -> Fraction:
        return self.base.feature_scale

    @property
    def kernel_form(self) -> KernelForm:   # type: ignore[override]
        return self.base.kernel_form

    @property
    def positive_scale(self) -> bool:   # type: ignore[override]
        return self.base.positive_scale

    @property
    def peak_copies(self) -> int:
        return getattr(self.base, "peak_copies", 1)

    def dual(self) -> Encoding:
        return self.base

    def extended(self, rescaling, train_length):
        return DualOf(self.base.extended(rescaling, train_length))

    def dim(self, train_length):
        return self.base.dim(train_length)

    def index_features(self, rows, keys, train_length):
        return self.base.index_features(rows, keys, train_length)

    def exact_index_features(self, rows, keys, train_length):
        return self.base.exact_index_features(rows, keys, train_length)

    def features(self, keys: np.ndarray, train_length: int) -> np.ndarray:
        """f(k) of a profile base (index form keeps the base's values): (m,) -> (m, p)."""
        return self.base.features(keys, train_length)          # type: ignore[attr-defined]

    def feature_ids(self, length: int, train_length: int) -> np.ndarray:
        return self.base.feature_ids(length, train_length)     # type: ignore[attr-defined]

    def max_length(self, train_length):
        return self.base.max_length(train_length)

    def length_bound_reason(self) -> str:
        return self.base.length_bound_reason()

    def kernel(self, theta, length, train_length):
        return self.base.kernel(theta, length, train_length).flipped()

    def exact_kernel(self, theta, length, train_length):
        return self.base.exact_kernel(theta, length, train_length).flipped()

    def structural_ties(self, rows, keys, length, train_length):
        return self.base.structural_ties(rows, keys, length, train_length)   # index-form features are the base's

    def float_row_margins(self, theta, rows, keys, length, train_length):
        return self.base.float_row_margins(theta, rows, keys, length, train_length)   # index form: the same values

    def max_abs_feature(self, length, train_length):
        return self.base.max_abs_feature(length, train_length)

    def interval_index_features(self, row, keys, train_length, iv):
        return self.base.interval_index_features(row, keys, train_length, iv)

    def __eq__(self, other):
        return isinstance(other, DualOf) and self.base == other.base

    def __hash__(self):
        return hash(("dual", self.base))

    def __str__(self):
        return f"dual:{self.base}"

    def __repr__(self):
        return f"DualOf({self.base!r})"


def is_profile(pe: Encoding) -> bool:
    """True for 1-D encodings (relative or column), including their duals."""
    return pe.kernel_form is KernelForm.PROFILE


# --------------------------------------------------------------------------- declarations (posreal pes)
# Parsers at module level and declarations as module-level statements (as in extension.py): every line of a
# parser runs when a spec is parsed, not once at import.
def _parse_nope(name: str, rest: str, spec: str) -> Encoding:
    no_args(rest, spec)
    return NoPE()


def _parse_bucket(name: str, rest: str, spec: str) -> Encoding:
    args = at_most(split_args(rest), 1, spec)
    D = int_arg(args[0], spec, 0) if args else None
    return Bucket(D=D, index=POSITION if name == "colbias" else OFFSET,
                  alias="relbias" if name == "relbias" else None)   # the old name, printed as given


def _parse_slope(name: str, rest: str, spec: str) -> Encoding:
    no_args(rest, spec)
    return Slope(alias="alibi" if name == "alibi" else None)


declare_pe(PEFamily(CatalogueEntry(
    "nope", "relative", "ψ(i, j) = () (p = 0): κ ≡ 0", (), "—", "yes",
    "no positional encoding (as in Kazemnejad et al. 2023, NeurIPS)", "nope"), _parse_nope, rank=0))
declare_pe(PEFamily(CatalogueEntry(
    "clipped[:D]", "relative", "ψ(i, j) = one-hot of min(n, D)",
    (Parameter("D", "last bucket: offsets ≥ D share it", "L0 - 1"),), "θ ∈ ℝ^(D+1)", "yes",
    "the project's idealization of T5's buckets (Raffel et al. 2020): exact offsets, clipped at D",
    "clipped", ("relbias[:D]",)), _parse_bucket, rank=1))
declare_pe(PEFamily(CatalogueEntry(
    "colbias[:D]", "column", "ψ(i, j) = one-hot of min(j, D)",
    (Parameter("D", "last bucket: positions ≥ D share it", "L0 - 1"),), "θ ∈ ℝ^(D+1)", "yes",
    "the column mirror of clipped (Proposition 4)", "colbias"), _parse_bucket, rank=2))
declare_pe(PEFamily(CatalogueEntry(
    "slope", "relative", "ψ(i, j) = [-n]: κ = θ·(-n), one learned slope of either sign", (), "θ ∈ ℝ", "yes",
    "ALiBi's linear bias (Press, Smith & Lewis 2022) with a free slope; the paper's fixed slopes are "
    "alibi-fixed", "slope", ("alibi",)), _parse_slope, rank=3))
