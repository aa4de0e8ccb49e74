"""Your own PE as a Python function (definitions.md#function-pe): ψ is evaluated lazily, on the offsets or
pairs a computation needs, never tabulated.

Main definitions:

* a function PE is ``psi`` with a kind and a width p: ``relative`` — ψ(n) of integer offsets n = i - j,
  ``column`` — ψ(j) of key positions, ``general`` — ψ(i, j) of pairs j ≤ i; ``psi`` takes int64 arrays
  of shape (m,) and returns an (m, p) array (a nested list works too);
* :class:`FunctionProfile` (relative, column) is a profile encoding: the kernel on the L-grid costs
  O(L·p) memory and one call per chunk of offsets; :class:`FunctionGeneral` is a
  :class:`~posreal.theory.blocked.BlockedEncoding`: ψ is called on the pairs of a block of rows at a
  time, never on an (L, L, p) tensor;
* exact mode: a function whose values are Python ints, numpy integers or :class:`fractions.Fraction` s
  is rational (decided on a probe of a few offsets or pairs at registration), and every row is then
  decided in ℚ; a float returned where exact mode needs a rational is refused;
* every value is checked where it is used: the shape (m, p), finite real entries (complex ones are
  refused, never cut to their real part), and the user's code runs contained
  (:func:`posreal.runtime.user_code.contained`): an exception of any kind but Ctrl-C (``sys.exit``
  too), a write to standard output or a warning — each gives one
  :class:`~posreal.theory.errors.SpecError` line naming the PE and the inputs;
* :func:`register_function_pe` (behind :func:`posreal.theory.register_pe` with ``psi=``) and
  :func:`load_python_pe`, the spec ``py:MODULE:FUNCTION`` of the command line (``--pe-kind``,
  ``--pe-width``): MODULE is imported with the current directory on ``sys.path``, as ``python -m``
  does.
"""

from __future__ import annotations

import importlib
import os
import re
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import numpy as np

from posreal.theory.blocked import BlockedEncoding
from posreal.theory.encodings import (GENERAL, MAX_PROFILE_LENGTH, OFFSET, POSITION, RELATIVE, Encoding,
                                      PEKind, ProfileEncoding)
from posreal.theory.errors import SpecError, bad_value, quote
from posreal.runtime.user_code import contained

FUNCTION_KINDS = ("relative", "column", "general")
MAX_WIDTH = 10 ** 6
PY_FORM = "py:MODULE:FUNCTION, with MODULE importable from the current directory or PYTHONPATH"
_PY = re.compile(r"py:([A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*):([A-Za-z_][A-Za-z0-9_]*)", re.ASCII)
_PROBE = 4   # offsets (relative, column) or grid length (general) of the registration probe


def _inputs(args: Sequence[np.ndarray], kind: PEKind) -> str:
    """The inputs of one call, for an error message: 'offsets [0, 1, …]' or 'pairs (i, j) [(0, 0), …]'."""
    if kind is GENERAL:
        shown: list = list(zip(args[0][:3].tolist(), args[1][:3].tolist()))
        what = "pairs (i, j)"
    else:
        shown = args[0][:3].tolist()
        what = "offsets" if kind is RELATIVE else "key positions"
    return f"{what} {shown}{'…' if args[0].size > 3 else ''}"


def _form(kind: PEKind, width: int) -> str:
    arguments = "(i, j)" if kind is GENERAL else "(n)"
    return (f"a function psi{arguments} of int64 arrays of shape (m,) returning an (m, {width}) array of finite "
            "numbers")


def _complex(out: Any, max_items: int) -> bool:
    """Whether ``out`` holds complex numbers (a complex array, or complex entries in nested lists or object
    arrays): a float conversion would cut them to their real part.  A loop, never recursion, over at most
    ``max_items`` items (a list that holds itself ends too; the conversion then refuses it)."""
    pending = [out]
    while pending and max_items > 0:
        max_items -= 1
        x = pending.pop()
        if isinstance(x, np.ndarray):
            if x.dtype.kind == "c":
                return True
            if x.dtype == object:
                pending.extend(x.flat)
        elif isinstance(x, (list, tuple)):
            pending.extend(x)
        elif isinstance(x, (complex, np.complexfloating)):
            return True
    return False


def _converted(out: Any, dtype: type) -> tuple[Any, Exception | None]:
    """``(np.asarray(out, dtype), None)``, or ``(None, the error)`` when ``out`` is no array of that type."""
    try:
        return np.asarray(out, dtype=dtype), None
    except (TypeError, ValueError, OverflowError) as err:
        return None, err


def _entry(x: Any) -> Fraction | None:
    """An exact entry: int, numpy integer or Fraction (bool is not a number here)."""
    if isinstance(x, (bool, np.bool_)):
        return None
    if isinstance(x, (int, np.integer)):
        return Fraction(int(x))
    if isinstance(x, Fraction):
        return x
    return None


@dataclass(frozen=True, eq=False)
class FunctionFeatures:
    """The user's ψ with its kind and width: every call validated (shape, finite values, no exception)."""

    name: str
    psi: Callable[..., Any]
    table_kind: PEKind
    width: int
    exact_values: bool = False      # the probe found only ints / Fractions: exact mode decides in ℚ

    def _contained(self, call: Callable[[], Any], args: Sequence[np.ndarray], action: str = "its function") -> Any:
        """``call()`` of the user's code (:func:`posreal.runtime.user_code.contained`): an exception of any
        kind but Ctrl-C, output on stdout or a warning is one SpecError line naming the PE and the inputs."""
        return contained(call, self.name, _inputs(args, self.table_kind), _form(self.table_kind, self.width),
                         action=action)

    def _call(self, args: Sequence[np.ndarray]) -> Any:
        m = args[0].size
        copies = [np.array(a, dtype=np.int64) for a in args]   # copies: ours stay intact

        def call() -> Any:
            with np.errstate(all="ignore"):
                return self.psi(*copies)
        out = self._contained(call, args)
        if _complex(out, 4 * m * self.width + 64):
            raise SpecError(f"invalid PE {self.name!r}: its function returned complex numbers on "
                            f"{_inputs(args, self.table_kind)}; accepted: {_form(self.table_kind, self.width)} "
                            "(real numbers only)")
        shape = out.shape if isinstance(out, np.ndarray) else None
        if shape is not None and shape != (m, self.width):
            raise self._shape_error(shape, args)
        return out

    def _shape_error(self, shape: object, args: Sequence[np.ndarray]) -> SpecError:
        return SpecError(f"invalid PE {self.name!r}: its function returned shape {shape} on {args[0].size} "
                         f"{_inputs(args, self.table_kind)}; accepted: {_form(self.table_kind, self.width)}")

    def floats(self, *args: np.ndarray) -> np.ndarray:
        """ψ as floats: (m,) arrays -> (m, p), every entry finite."""
        out = self._call(args)
        values, err = self._contained(lambda: _converted(out, float), args,   # its __array__ is user code too
                                      action=f"converting its {quote(type(out).__name__)} result to numbers")
        if err is not None:
            raise SpecError(f"invalid PE {self.name!r}: its function returned {quote(type(out).__name__)} that is "
                            f"not an array of numbers ({quote(str(err))}); accepted: "
                            f"{_form(self.table_kind, self.width)}")
        if values.shape != (args[0].size, self.width):
            raise self._shape_error(values.shape, args)
        bad = ~np.isfinite(values)
        if bad.any():
            row, col = (int(x) for x in np.argwhere(bad)[0])
            where = (f"pair (i, j) = ({int(args[0][row])}, {int(args[1][row])})" if self.table_kind is GENERAL
                     else f"{'offset' if self.table_kind is RELATIVE else 'key position'} {int(args[0][row])}")
            raise SpecError(f"invalid PE {self.name!r}: its function returned {float(values[row, col])!r} (not "
                            f"finite) at {where}, feature {col}; accepted: finite numbers")
        return values

    def fractions(self, *args: np.ndarray) -> list[tuple[Fraction, ...]]:
        """ψ in ℚ: (m,) arrays -> m tuples of p Fractions (the function must return ints or Fractions)."""
        out = self._call(args)
        values, err = self._contained(lambda: _converted(out, object), args,
                                      action=f"converting its {quote(type(out).__name__)} result to an array")
        if err is not None:
            raise SpecError(f"invalid PE {self.name!r}: its function returned values that are not an array "
                            f"({quote(str(err))}); accepted: {_form(self.table_kind, self.width)}")
        if values.shape != (args[0].size, self.width):
            raise self._shape_error(values.shape, args)
        rows: list[tuple[Fraction, ...]] = []
        for n, row in enumerate(values.tolist()):
            exact = [_entry(x) for x in row]
            for x, e in zip(row, exact):
                if e is None:
                    raise SpecError(f"invalid PE {self.name!r} in exact mode: its function returned {quote(x)} "
                                    f"({type(x).__name__}) on {_inputs([a[n:n + 1] for a in args], self.table_kind)}; "
                                    "accepted: ints or fractions.Fraction entries (or float or certified mode)")
            rows.append(tuple(e for e in exact if e is not None))
        return rows


class FunctionEncoding(Encoding):
    """What both function PEs share: the features object, its name as ``str()``, equality by name."""

    source: FunctionFeatures

    @property
    def kind(self):
        return self.source.table_kind

    @property
    def rational(self):
        return self.source.exact_values

    def dim(self, train_length):
        return self.source.width

    def __eq__(self, other):
        return isinstance(other, FunctionEncoding) and str(self) == str(other)

    def __hash__(self):
        return hash(("function", str(self)))

    def __str__(self):
        return self.source.name

    def __repr__(self):
        return f"{type(self).__name__}({self.source.name!r}, kind={self.kind.value!r}, width={self.source.width})"


class FunctionProfile(FunctionEncoding, ProfileEncoding):
    """A relative (ψ of n = i - j) or column (ψ of j) function PE: a profile encoding, O(L·p)."""

    def __init__(self, source: FunctionFeatures):
        self.source = source

    @property
    def index(self):
        return OFFSET if self.source.table_kind is RELATIVE else POSITION

    def features(self, keys, train_length):
        return self.source.floats(np.asarray(keys, dtype=np.int64))

    def exact_features(self, keys, train_length):
        return self.source.fractions(np.asarray(list(keys), dtype=np.int64))

    def feature_ids(self, length, train_length):
        """Ids by float features; for rational features every group of equal floats is re-checked in ℚ
        (distinct rationals may share a float) and split where they differ."""
        ids = ProfileEncoding.feature_ids(self, length, train_length)   # (L,)
        if not self.rational or length == 0:
            return ids
        shared = np.flatnonzero(np.bincount(ids)[ids] > 1)              # keys whose float features recur
        if shared.size == 0:
            return ids
        out = ids.copy()
        kept: dict[int, tuple] = {}                  # float id -> the exact features that keep that id
        split: dict[tuple, int] = {}                 # (float id, exact features) -> a new id
        for k, f in zip(shared.tolist(), self.exact_features(shared.tolist(), train_length)):
            group = int(ids[k])
            if kept.setdefault(group, f) != f:
                out[k] = split.setdefault((group, f), int(ids.max()) + 1 + len(split))
        return out

    def max_length(self, train_length):
        return MAX_PROFILE_LENGTH


class FunctionGeneral(FunctionEncoding, BlockedEncoding):
    """A general function PE ψ(i, j): evaluated a block of rows at a time (key index k = j)."""

    index = POSITION

    def __init__(self, source: FunctionFeatures):
        self.source = source

    def index_features(self, rows, keys, train_length):
        return self.source.floats(np.asarray(rows, dtype=np.int64), np.asarray(keys, dtype=np.int64))

    def exact_index_features(self, rows, keys, train_length):
        return self.source.fractions(np.asarray(list(rows), dtype=np.int64), np.asarray(list(keys), dtype=np.int64))


def _probe(source: FunctionFeatures) -> bool:
    """Call ψ on a few offsets (or the pairs of a 4-grid): shapes and values checked; True when every entry is
    an int or a Fraction (the PE is then rational)."""
    if source.table_kind is GENERAL:
        i, j = np.tril_indices(_PROBE)
        args: tuple[np.ndarray, ...] = (i.astype(np.int64), j.astype(np.int64))
    else:
        args = (np.arange(_PROBE, dtype=np.int64),)
    source.floats(*args)
    try:
        source.fractions(*args)
    except SpecError:
        return False
    return True


def function_pe(name: str, psi: Any, kind: Any, width: Any) -> FunctionEncoding:
    """The encoding of ``psi`` (validated on a probe); ``name`` is its ``str()``."""
    if not callable(psi):
        raise bad_value("psi", psi, "a function of integer arrays returning an (m, p) array")
    if kind not in FUNCTION_KINDS:
        raise bad_value("PE kind", kind, ", ".join(FUNCTION_KINDS))
    if isinstance(width, bool) or not isinstance(width, (int, np.integer)) or not 1 <= width <= MAX_WIDTH:
        raise bad_value("PE width", width, f"an integer p from 1 to {MAX_WIDTH}")
    source = FunctionFeatures(name, psi, PEKind(kind), int(width))
    source = FunctionFeatures(name, psi, PEKind(kind), int(width), exact_values=_probe(source))
    return FunctionGeneral(source) if kind == GENERAL else FunctionProfile(source)


def parse_py_spec(spec: str) -> tuple[str, str]:
    """(MODULE, FUNCTION) of ``py:MODULE:FUNCTION``."""
    match = _PY.fullmatch(spec) if isinstance(spec, str) else None
    if match is None:
        raise bad_value("PE", spec, PY_FORM)
    return match.group(1), match.group(2)


def load_python_pe(spec: str, kind: Any, width: Any) -> FunctionEncoding:
    """The function PE of ``py:MODULE:FUNCTION`` (imported with the current directory on sys.path)."""
    module_name, function_name = parse_py_spec(spec)
    if os.getcwd() not in sys.path:
        sys.path.insert(0, os.getcwd())
    def load() -> tuple[Any, ModuleNotFoundError | None]:
        try:
            return importlib.import_module(module_name), None
        except ModuleNotFoundError as err:
            return None, err
    # the user's module runs while it is imported: an exception of any kind (sys.exit too) or output on
    # stdout is one line; its warnings pass as they would (third-party imports warn)
    module, missing = contained(load, spec, "", PY_FORM, warn=False, action=f"importing module {module_name!r}")
    if missing is not None:
        raise SpecError(f"invalid PE {quote(spec)}: module {module_name!r} cannot be imported ({quote(str(missing))}); "
                        f"accepted: {PY_FORM}")
    psi = getattr(module, function_name, None)
    if psi is None or not callable(psi):
        raise SpecError(f"invalid PE {quote(spec)}: module {module_name!r} has no function {function_name!r}; "
                        f"accepted: {PY_FORM}")
    return function_pe(spec, psi, kind, width)
