"""Linear positional encodings (PEs): the feature maps ψ(i, j) ∈ ℝ^p of definitions.md#linear-pe.

Main definitions:

* the registry ``nope``, ``relbias[:D]``, ``alibi``, ``rope:d[:base]`` (relative),
  ``abscol:d[:base]``, ``colbias[:D]`` (column), ``abssin:d[:base]`` (absolute bilinear),
  the shear ``dual:P`` (ψ_S(i, j) = ψ(i, i-j), Proposition 4) and user feature tables
  (:func:`register_pe`); :func:`parse_pe` returns a linear :class:`Encoding` only;
* ``learned:d`` is not linear: :func:`parse_learned` gives a :class:`LearnedAbsolute`, which
  only the Underdetermination result handles (:func:`is_learned` tells the two spec kinds apart);
* every encoding is read in *index form*: row i of the causal grid sees key index
  k ∈ {0..i}, where k = i - j for offset-indexed PEs (relative) and k = j for
  position-indexed ones (column, bilinear, tables).  The shear keeps the row values and flips
  the index (offset ↔ position), which is why α_L(SΦ, Sτ) = α_L(Φ, τ).

Frequencies of the sinusoidal PEs: ω_f = base^(-2f/d), f = 0..d/2-1, base 10000 by default
(Vaswani et al. 2017; Su et al. 2021 for RoPE).  ``relbias`` is the T5 clipped bucket
(Raffel et al. 2020) with D = L0 - 1 by default.  Spec strings are parsed only by
:func:`parse_pe` and round-trip through ``str()``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

import numpy as np

from posreal.theory.errors import SpecError, bad_value, quote
from posreal.theory.resources import MAX_INT_DIGITS, MAX_SPEC_INT, check_spec, strip_duals
from posreal.theory.tasks import shear_normal_form

OFFSET = "offset"      # key index k = i - j
POSITION = "position"  # key index k = j

RELATIVE = "relative"
COLUMN = "column"
BILINEAR = "bilinear"
GENERAL = "general"

PE_FORMS = ("nope, relbias[:D], alibi, rope:d[:base], abssin:d[:base], abscol:d[:base], "
            "colbias[:D] (d even >= 2, D >= 0, base > 1), dual:PE, learned:d, table:PATH (a JSON feature table), "
            "or a name registered with posreal.theory.register_pe")
from posreal.theory.defaults import REGISTRY_PES  # noqa: E402, F401  (re-exported)

MAX_PROFILE_LENGTH = 2 ** 24   # relative / column kernels: O(L) memory
MAX_BLOCKED_LENGTH = 2 ** 15   # bilinear kernels: O(L^2 d) time, row-blocked memory
DEFAULT_BASE = 10000.0

_FLIP = {OFFSET: POSITION, POSITION: OFFSET}
_DUAL_KIND = {RELATIVE: COLUMN, COLUMN: RELATIVE, BILINEAR: BILINEAR, GENERAL: GENERAL}


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
    """A linear PE.  ``kind`` is relative / column / bilinear / general; ``index`` says how
    key index k relates to (i, j); ``rational`` says whether features are exact rationals.
    Subclasses give the three as class attributes, dataclass fields or properties."""

    @property
    def kind(self) -> str:
        raise NotImplementedError

    @property
    def index(self) -> str:
        raise NotImplementedError

    @property
    def rational(self) -> bool:
        return False

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

    def length_limit_reason(self) -> str:
        """Why lengths above :meth:`max_length` are refused (one clause of the error message)."""
        return "larger grids do not fit in memory/time"

    def check_length(self, length: int, train_length: int) -> None:
        limit = self.max_length(train_length)
        if length > limit:
            raise SpecError(f"invalid length {length!r} for PE {str(self)!r}; accepted: "
                            f"lengths up to {limit} ({self.length_limit_reason()})")


# --------------------------------------------------------------------------- 1-D encodings
class ProfileEncoding(Encoding):
    """ψ depends on the key index k alone: relative (k = i-j) or column (k = j).  The kernel
    on a grid is one profile v(k) = ⟨θ, f(k)⟩, the same for every row."""

    def features(self, keys: np.ndarray, train_length: int) -> np.ndarray:
        """f(k): (m,) -> (m, p)."""
        raise NotImplementedError

    def exact_features(self, keys: Sequence[int], train_length: int) -> list[tuple[Fraction, ...]]:
        return Encoding.exact_index_features(self, [], keys, train_length)

    def feature_ids(self, length: int, train_length: int) -> np.ndarray:
        """Integer ids with id(k) == id(k') iff f(k) == f(k'), k < length: (length,)."""
        feats = self.features(np.arange(length), train_length)  # (L, p)
        if feats.shape[1] == 0:
            return np.zeros(length, dtype=np.int64)
        _, ids = np.unique(feats, axis=0, return_inverse=True)
        return ids.reshape(-1).astype(np.int64)

    def profile(self, theta: np.ndarray, length: int, train_length: int) -> np.ndarray:
        """v(k) = ⟨θ, f(k)⟩ for k < length: (p,) -> (length,), computed in chunks."""
        out = np.empty(length)
        step = max(1, 2 ** 22 // max(1, theta.size))
        for start in range(0, length, step):
            keys = np.arange(start, min(length, start + step))
            out[start:start + keys.size] = self.features(keys, train_length) @ theta  # (chunk,)
        return out

    def exact_profile(self, theta: Sequence[Fraction], length: int, train_length: int) -> list[Fraction]:
        feats = self.exact_features(range(length), train_length)
        return [sum((a * b for a, b in zip(theta, f)), Fraction(0)) for f in feats]

    def index_features(self, rows, keys, train_length):
        return self.features(np.asarray(keys, dtype=np.int64), train_length)

    def exact_index_features(self, rows, keys, train_length):
        return self.exact_features(list(keys), train_length)

    def max_length(self, train_length):
        return MAX_PROFILE_LENGTH


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


@dataclass(frozen=True)
class Bucket(ProfileEncoding):
    """One-hot of min(k, D): ``relbias`` (k = offset) or ``colbias`` (k = position).
    D = L0 - 1 when not given."""

    D: int | None = None
    index: str = OFFSET
    rational = True

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

    def features(self, keys, train_length):
        D = self.clip(train_length)
        out = np.zeros((len(keys), D + 1))  # (m, D+1)
        out[np.arange(len(keys)), np.minimum(np.asarray(keys), D)] = 1.0
        return out

    def exact_features(self, keys, train_length):
        D = self.clip(train_length)
        one, zero = Fraction(1), Fraction(0)
        return [tuple(one if b == min(k, D) else zero for b in range(D + 1)) for k in keys]

    def feature_ids(self, length, train_length):
        return np.minimum(np.arange(length), self.clip(train_length))

    def profile(self, theta, length, train_length):
        return np.asarray(theta, dtype=float)[np.minimum(np.arange(length), self.clip(train_length))]

    def exact_profile(self, theta, length, train_length):
        D = self.clip(train_length)
        return [theta[min(k, D)] for k in range(length)]

    def __str__(self):
        name = "relbias" if self.index == OFFSET else "colbias"
        return name if self.D is None else f"{name}:{self.D}"


@dataclass(frozen=True)
class ALiBi(ProfileEncoding):
    """ψ(δ) = [-δ]: one learned slope of either sign (Press et al. 2022, with a free slope)."""

    kind = RELATIVE
    index = OFFSET
    rational = True

    def dim(self, train_length):
        return 1

    def features(self, keys, train_length):
        return -np.asarray(keys, dtype=float)[:, None]  # (m, 1)

    def exact_features(self, keys, train_length):
        return [(Fraction(-k),) for k in keys]

    def feature_ids(self, length, train_length):
        return np.arange(length)

    def profile(self, theta, length, train_length):
        return -float(theta[0]) * np.arange(length, dtype=float)

    def __str__(self):
        return "alibi"


def frequencies(d: int, base: float) -> np.ndarray:
    """ω_f = base^(-2f/d), f = 0..d/2-1: (d/2,)."""
    return np.power(float(base), -2.0 * np.arange(d // 2) / d)


def sinusoid(x: np.ndarray, d: int, base: float, sin_first: bool) -> np.ndarray:
    """[sin ω x] ++ [cos ω x] (sin_first) or [cos ω x] ++ [sin ω x]: (m,) -> (m, d)."""
    angles = np.asarray(x, dtype=float)[:, None] * frequencies(d, base)[None, :]  # (m, d/2)
    parts = (np.sin(angles), np.cos(angles)) if sin_first else (np.cos(angles), np.sin(angles))
    return np.concatenate(parts, axis=1)


def _format_base(base: float) -> str:
    return str(int(base)) if float(base).is_integer() else repr(float(base))


@dataclass(frozen=True)
class Sinusoidal(ProfileEncoding):
    """``rope:d`` (relative: [cos ωδ] ++ [sin ωδ]) or ``abscol:d`` (column: φ(j) = [sin ωj] ++ [cos ωj])."""

    name: str
    d: int
    base: float = DEFAULT_BASE
    base_given: bool = False

    @property
    def kind(self):
        return RELATIVE if self.name == "rope" else COLUMN

    @property
    def index(self):
        return OFFSET if self.name == "rope" else POSITION

    def dim(self, train_length):
        return self.d

    def features(self, keys, train_length):
        return sinusoid(keys, self.d, self.base, sin_first=self.name != "rope")

    def __str__(self):
        return f"{self.name}:{self.d}" + (f":{_format_base(self.base)}" if self.base_given else "")


# --------------------------------------------------------------------------- bilinear
@dataclass(frozen=True)
class AbsSin(Encoding):
    """``abssin:d``: ψ(i, j) = vec(φ(i) φ(k)ᵀ) with φ(x) = [sin ωx] ++ [cos ωx]; θ is the
    matrix W (d×d, row-major) and κ(i, j) = φ(i)ᵀ W φ(k).  k = j; the shear gives k = i - j."""

    d: int
    base: float = DEFAULT_BASE
    base_given: bool = False
    kind = BILINEAR
    index = POSITION

    def dim(self, train_length):
        return self.d * self.d

    def phi(self, x: np.ndarray) -> np.ndarray:
        return sinusoid(x, self.d, self.base, sin_first=True)  # (m, d)

    def index_features(self, rows, keys, train_length):
        left, right = self.phi(rows), self.phi(keys)  # (m, d), (m, d)
        return (left[:, :, None] * right[:, None, :]).reshape(len(left), self.d * self.d)  # (m, d*d)

    def feature_ids(self, length: int, train_length: int) -> np.ndarray:
        """Ids of the right factor φ(k) (ψ(i,k) = ψ(i,k') iff φ(k) = φ(k'), as φ(i) ≠ 0)."""
        _, ids = np.unique(self.phi(np.arange(length)), axis=0, return_inverse=True)
        return ids.reshape(-1).astype(np.int64)

    def __str__(self):
        return f"abssin:{self.d}" + (f":{_format_base(self.base)}" if self.base_given else "")


# --------------------------------------------------------------------------- user tables
@dataclass(frozen=True, eq=False)
class TableEncoding(Encoding):
    """A user feature table.  ``kind`` relative (table[k] = f(δ)), column (table[k] = f(j)),
    or general (table[i][j] = ψ(i, j), j ≤ i).  Entries that are all int / Fraction make the
    encoding rational (exact mode).  Lengths up to the table's size."""

    name: str
    table_kind: str
    values: np.ndarray = field(repr=False)                 # (N, p) or (N, N, p) floats
    exact: tuple | None = field(repr=False, default=None)  # the same entries as Fractions (rational tables)

    @property
    def kind(self):
        return self.table_kind

    @property
    def index(self):
        return OFFSET if self.table_kind == RELATIVE else POSITION

    @property
    def rational(self):
        return self.exact is not None

    @property
    def size(self) -> int:
        return self.values.shape[0]

    def dim(self, train_length):
        return self.values.shape[-1]

    def max_length(self, train_length):
        return self.size

    def length_limit_reason(self) -> str:
        return f"the feature table defines ψ on {self.size} positions only"

    def _pair_index(self, rows, keys):
        """(row, key index) -> table coordinates (i, j) for a general table."""
        rows = np.asarray(rows, dtype=np.int64)
        keys = np.asarray(keys, dtype=np.int64)
        j = rows - keys if self.index == OFFSET else keys
        return rows, j

    def index_features(self, rows, keys, train_length):
        if self.table_kind == GENERAL:
            i, j = self._pair_index(rows, keys)
            return self.values[i, j]
        return self.values[np.asarray(keys, dtype=np.int64)]

    def exact_index_features(self, rows, keys, train_length):
        if self.exact is None:
            return Encoding.exact_index_features(self, rows, keys, train_length)
        if self.table_kind == GENERAL:
            i, j = self._pair_index(list(rows), list(keys))
            return [self.exact[a][b] for a, b in zip(i.tolist(), j.tolist())]
        return [self.exact[k] for k in keys]

    def __eq__(self, other):
        return isinstance(other, TableEncoding) and str(self) == str(other)

    def __hash__(self):
        return hash(str(self))

    def __str__(self):
        return self.name


class ProfileTable(TableEncoding, ProfileEncoding):
    """A relative or column user table: a 1-D profile encoding."""

    def features(self, keys, train_length):
        return self.values[np.asarray(keys, dtype=np.int64)]

    def exact_features(self, keys, train_length):
        return self.exact_index_features([], keys, train_length)

    def max_length(self, train_length):
        return self.size


def _to_fraction(x) -> Fraction | None:
    if isinstance(x, (bool, np.bool_)):
        return None
    if isinstance(x, (int, np.integer)):
        return Fraction(int(x))
    if isinstance(x, Fraction):
        return x
    return None


_USER_TABLES: dict[str, TableEncoding] = {}


def build_table(name: str, table, kind: str = RELATIVE) -> TableEncoding:
    """A :class:`TableEncoding` from a feature table (see :func:`register_pe` for the shapes).

    Entries may be int / Fraction / rational strings ``"p/q"`` (exact mode) or floats."""
    from posreal.theory.tables import parse_entry

    if kind not in (RELATIVE, COLUMN, GENERAL):
        raise bad_value("table kind", kind, "relative, column, general")
    values: np.ndarray
    try:
        values = np.asarray(table, dtype=object)
    except ValueError:
        values = np.empty(0, dtype=object)   # ragged: reported as a shape error below
    want = 2 if kind != GENERAL else 3
    if (values.ndim != want or values.shape[0] < 1 or values.shape[-1] < 1
            or (kind == GENERAL and values.shape[1] != values.shape[0])):
        raise bad_value("feature table shape", values.shape,
                        "(N, p) for relative/column tables, (N, N, p) for general ones, N >= 1, p >= 1")
    parsed: list[object] = []
    entry_forms = "int, Fraction, float numbers or rational strings 'p/q'"
    for pos, x in zip(np.ndindex(values.shape), values.reshape(-1)):
        at = "".join(f"[{k}]" for k in pos)                 # the entry's position, e.g. [2][0]
        if isinstance(x, str):
            try:
                parsed.append(parse_entry(x, at, name))
            except SpecError:
                raise bad_value(f"feature table entry {at}", x, entry_forms) from None
        elif isinstance(x, (bool, np.bool_)) or not isinstance(x, (int, float, Fraction, np.integer, np.floating)):
            raise bad_value(f"feature table entry {at}", x, entry_forms)
        else:
            parsed.append(x)
    shape: tuple[int, ...] = tuple(values.shape)
    values = np.asarray(parsed, dtype=object).reshape(shape)
    flat = [_to_fraction(x) for x in values.reshape(-1)]
    exact = None
    if all(f is not None for f in flat):
        exact_arr = np.empty(shape[:-1], dtype=object)
        width = shape[-1]
        for pos, start in zip(np.ndindex(shape[:-1]), range(0, len(flat), max(width, 1))):
            exact_arr[pos] = tuple(flat[start:start + width])
        exact = tuple(map(tuple, exact_arr.tolist())) if kind == GENERAL else tuple(exact_arr.tolist())
    floats = values.astype(float)
    if not np.all(np.isfinite(floats)):
        raise bad_value("feature table", name, "finite numbers")
    cls = TableEncoding if kind == GENERAL else ProfileTable
    return cls(name=name, table_kind=kind, exact=exact, values=floats)


def register_pe(name: str, table, kind: str = RELATIVE) -> TableEncoding:
    """Register a PE from a feature table so that spec ``name`` (and ``dual:name``) parses.

    ``kind='relative'``: table[δ] = f(δ), shape (N, p); ``'column'``: table[j] = f(j), (N, p);
    ``'general'``: table[i][j] = ψ(i, j), shape (N, N, p) (entries with j > i are ignored).
    Entries may be int / Fraction / rational strings ``"p/q"`` (exact mode) or floats — the
    entries of a ``table:PATH`` file (:mod:`posreal.theory.tables`).  Lengths up to N are supported."""
    if not isinstance(name, str) or not name.isidentifier() or name in _RESERVED:
        raise bad_value("PE name", name, "an identifier that is not a registry name")
    enc = build_table(name, table, kind)
    _USER_TABLES[name] = enc
    return enc


def unregister_pe(name: str) -> None:
    _USER_TABLES.pop(name, None)


# --------------------------------------------------------------------------- learned (non-linear)
@dataclass(frozen=True)
class LearnedAbsolute:
    """``learned:d``: κ(i, j) = E_iᵀ W E_j with a learned table E.  Not linear in one θ, so
    α_L is not a function of (Φ, τ) (Underdetermination): handled only by that result."""

    d: int
    kind = "learned"

    def __str__(self) -> str:
        return f"learned:{self.d}"


# --------------------------------------------------------------------------- the shear and parsing
def dual_pe(pe: str | Encoding) -> Encoding:
    """The shear ψ_S(i, j) = ψ(i, i - j): same row values, flipped key index.  Involution."""
    pe = parse_pe(pe)
    if isinstance(pe, DualOf):
        return pe.base
    return DualOf(pe)


class DualOf(Encoding):
    """Wrapper for ``dual:P``: delegates features with the key index flipped."""

    def __init__(self, base: Encoding):
        self.base = base

    @property
    def kind(self) -> str:
        return _DUAL_KIND[self.base.kind]

    @property
    def index(self) -> str:
        return _FLIP[self.base.index]

    @property
    def rational(self) -> bool:
        return self.base.rational

    def dim(self, train_length):
        return self.base.dim(train_length)

    def index_features(self, rows, keys, train_length):
        return self.base.index_features(rows, keys, train_length)

    def exact_index_features(self, rows, keys, train_length):
        return self.base.exact_index_features(rows, keys, train_length)

    def max_length(self, train_length):
        return self.base.max_length(train_length)

    def length_limit_reason(self) -> str:
        return self.base.length_limit_reason()

    def __getattr__(self, name):
        # profile / bilinear helpers (features, profile, feature_ids, phi, ...) are index-free
        if name in ("base",):
            raise AttributeError(name)
        return getattr(self.base, name)

    def __eq__(self, other):
        return shear_normal_form(self, DualOf) == shear_normal_form(other, DualOf)

    def __hash__(self):
        parity, inner = shear_normal_form(self, DualOf)
        return hash(("dual", inner)) if parity else hash(inner)   # equal objects, equal hashes

    def __str__(self):
        return f"dual:{self.base}"

    def __repr__(self):
        return f"DualOf({self.base!r})"


def is_profile(pe: Encoding) -> bool:
    """True for 1-D encodings (relative or column), including their duals."""
    return isinstance(pe.base if isinstance(pe, DualOf) else pe, ProfileEncoding)


_RESERVED = {"nope", "relbias", "alibi", "rope", "abssin", "abscol", "colbias", "dual", "learned", "table"}


def _int_arg(text: str, spec: str, minimum: int) -> int:
    if len(text) > MAX_INT_DIGITS or not text.isascii() or not text.isdigit():
        raise bad_value("PE", spec, f"{PE_FORMS}; integer parameters in ASCII digits")
    value = int(text, 10)
    if not minimum <= value <= MAX_SPEC_INT:
        raise bad_value("PE", spec, f"{PE_FORMS}; integer parameters from {minimum} to {MAX_SPEC_INT}")
    return value


def _sinusoid_args(args: list[str], spec: str) -> tuple[int, float, bool]:
    if not 1 <= len(args) <= 2:
        raise bad_value("PE", spec, PE_FORMS)
    d = _int_arg(args[0], spec, 2)
    if d % 2:
        raise SpecError(f"invalid PE {quote(spec)}: width d={d} is odd; accepted: an even width d >= 2")
    if len(args) == 1:
        return d, DEFAULT_BASE, False
    try:
        base = float(args[1]) if len(args[1]) <= 40 and args[1].isascii() and "_" not in args[1] else None
    except ValueError:
        base = None
    if base is None:
        raise bad_value("PE", spec, PE_FORMS)
    if not np.isfinite(base) or base <= 1.0:
        raise SpecError(f"invalid PE {quote(spec)}: base {quote(args[1])} must be a number > 1")
    return d, base, True


LEARNED_API = "posreal alpha --pe learned:d, or posreal.theory.learned_alpha_interval and parse_learned"


def is_learned(spec: object) -> bool:
    """True for a ``learned:…`` spec string or a :class:`LearnedAbsolute` (cheap: nothing is parsed)."""
    if isinstance(spec, LearnedAbsolute):
        return True
    return isinstance(spec, str) and spec.strip().split(":", 1)[0] == "learned"


def parse_learned(spec: str | LearnedAbsolute) -> LearnedAbsolute:
    """Parse ``learned:d`` (d >= 1), the one non-linear PE; a :class:`LearnedAbsolute` is returned as it is."""
    if isinstance(spec, LearnedAbsolute):
        return spec
    if not isinstance(spec, str):
        raise bad_value("learned PE", spec, "learned:d with an integer d >= 1")
    name, *args = spec.strip().split(":")
    if name != "learned" or len(args) != 1:
        raise bad_value("learned PE", spec, "learned:d with an integer d >= 1 (linear PEs go through parse_pe)")
    text = args[0]
    if len(text) > MAX_INT_DIGITS or not text.isascii() or not text.isdigit() or not 1 <= int(text, 10) <= MAX_SPEC_INT:
        raise bad_value("learned PE", spec, f"learned:d with d in ASCII digits, 1 <= d <= {MAX_SPEC_INT}")
    return LearnedAbsolute(int(text, 10))


def parse_pe(spec: str | Encoding) -> Encoding:
    """Parse a linear PE spec string (the only parser of linear PE specs); an Encoding is returned
    as it is.  ``learned:d`` is not linear: it is refused here (see :func:`parse_learned`)."""
    if isinstance(spec, Encoding):
        return spec
    if is_learned(spec):
        raise bad_value("PE", spec if isinstance(spec, str) else str(spec),
                        f"a linear PE here; learned:d is not linear (its α_L is an interval): use {LEARNED_API}")
    if not isinstance(spec, str):
        raise bad_value("PE", spec, PE_FORMS)
    depth, text = strip_duals(check_spec(spec, "PE", PE_FORMS))   # a loop, not recursion
    if is_learned(text):
        raise bad_value("PE", spec, "the shear dual:P of a linear PE P (learned:d is not linear)")
    inner = _parse_plain(text, spec)
    for _ in range(depth):
        inner = DualOf(inner)
    return inner


def _parse_plain(text: str, spec: str) -> Encoding:
    if text.startswith("table:"):
        from posreal.theory.tables import load_table
        return load_table(text[len("table:"):])
    name, *args = text.split(":")
    if name in _USER_TABLES and not args:
        return _USER_TABLES[name]
    if name == "nope" and not args:
        return NoPE()
    if name in ("relbias", "colbias") and len(args) <= 1:
        D = _int_arg(args[0], spec, 0) if args else None
        return Bucket(D=D, index=OFFSET if name == "relbias" else POSITION)
    if name == "alibi" and not args:
        return ALiBi()
    if name in ("rope", "abscol"):
        d, base, given = _sinusoid_args(args, spec)
        return Sinusoidal(name=name, d=d, base=base, base_given=given)
    if name == "abssin":
        d, base, given = _sinusoid_args(args, spec)
        return AbsSin(d=d, base=base, base_given=given)
    raise bad_value("PE", spec, PE_FORMS)
