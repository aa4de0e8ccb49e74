"""User feature tables: a researcher's own PE, from Python (:func:`register_pe`) or a file (``table:PATH``).

:class:`TableEncoding` holds a table of features (relative, column or general); :func:`build_table`
validates one, :func:`register_pe` stores it under a name that spec strings then accept.

A table file is one JSON object, the same form the shipped certificates store under
``instance.tables``::

    {"kind": "relative" | "column" | "general", "rows": ...}

* ``relative``: ``rows[k]`` is ψ at offset k (a list of p entries);
* ``column``: ``rows[k]`` is ψ at key k;
* ``general``: ``rows[i][j]`` is ψ(i, j) for j ≤ i (entries with j > i may be omitted or are ignored).

Entries are JSON numbers, or exact rationals written as strings (``"-1/3"``, ``"2"``).  A table
whose entries are all integers or rational strings is rational, so ``--exact`` decides it in ℚ.
Main functions: :func:`load_table` (file -> encoding), :func:`table_document` (encoding -> the
same JSON form), :func:`parse_entry`; :func:`register_pe` also takes a function
(``psi=f, kind=..., width=p``, :mod:`posreal.theory.function_pe`).  Definitions page: definitions.md#feature-tables.
"""

from __future__ import annotations

import os
import re
import stat
from fractions import Fraction
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from posreal.runtime import resources
from posreal.theory.encodings import (COLUMN, GENERAL, OFFSET, POSITION, RELATIVE, Encoding, PEKind,
                                      ProfileEncoding)
from posreal.theory.declarations import PEFamily, declare_pe
from posreal.theory.errors import SpecError, bad_value, quote
from posreal.theory.pe_catalogue import CatalogueEntry, Parameter

MAX_TABLE_BYTES = 16 * 2 ** 20        # a table file larger than this is refused
MAX_TABLE_ENTRIES = 2 ** 20           # entries (rows × width, or rows² × width for general tables)
TABLE_BYTES_PER_FILE_BYTE = 96        # memory of a parsed, validated table per byte of its file (measured: a
                                      # 5 MB file of 10^6 one-entry rows peaked at 444 MiB, 80 MiB of it Python)
MAX_ENTRY_CHARS = 64                  # digits of one numerator or denominator string
TABLE_KINDS = ("relative", "column", "general")
_RATIONAL = re.compile(rf"(-?[0-9]{{1,{MAX_ENTRY_CHARS}}})(?:/([0-9]{{1,{MAX_ENTRY_CHARS}}}))?", re.ASCII)
FORM = ('a JSON object {"kind": "relative" | "column" | "general", "rows": [...]} whose entries are '
        'numbers or rational strings such as "-1/3"')


def _short(value: object, max_chars: int = 80) -> str:
    text = repr(value)
    return text if len(text) <= max_chars else text[:max_chars - 1] + "…"


def _fail(path: str, problem: str) -> SpecError:
    return SpecError(f"invalid feature table file {_short(path)}: {problem}; accepted: {FORM}")


def read_text(path: str) -> str:
    """The file's text: a regular file of at most MAX_TABLE_BYTES, UTF-8."""
    try:
        info = os.stat(path)
    except OSError as err:
        raise _fail(path, f"cannot be read ({err.strerror})") from None
    if not stat.S_ISREG(info.st_mode):
        raise _fail(path, "not a regular file")
    if info.st_size > MAX_TABLE_BYTES:
        raise _fail(path, f"{info.st_size} bytes is more than the limit of {MAX_TABLE_BYTES}")
    try:
        with open(path, "rb") as handle:
            data = handle.read(MAX_TABLE_BYTES + 1)
        if len(data) > MAX_TABLE_BYTES:      # larger when read than its size said: it grew in between
            raise _fail(path, f"it grew past the limit of {MAX_TABLE_BYTES} bytes while being read")
        return data.decode("utf-8")
    except OSError as err:
        raise _fail(path, f"cannot be read ({err.strerror})") from None
    except UnicodeDecodeError:
        raise _fail(path, "not UTF-8 text") from None


def parse_entry(value: Any, where: str, path: str) -> Fraction | float:
    """One entry: an int or a rational string -> Fraction; a finite float -> float."""
    if isinstance(value, bool):
        raise _fail(path, f"entry {where} is {_short(value)}")
    if isinstance(value, int):
        return Fraction(value)
    if isinstance(value, float):
        if value != value or value in (float("inf"), float("-inf")):
            raise _fail(path, f"entry {where} is not finite")
        return value
    if isinstance(value, str):
        match = _RATIONAL.fullmatch(value)
        if match and int(match.group(2) or 1) != 0:
            return Fraction(int(match.group(1)), int(match.group(2) or 1))
    raise _fail(path, f"entry {where} is {_short(value)}")


def _vector(row: Any, where: str, path: str, width: int | None) -> list:
    if not isinstance(row, list) or not row:
        raise _fail(path, f"{where} is {_short(row)}, not a non-empty list of entries")
    if width is not None and len(row) != width:
        raise _fail(path, f"{where} has {len(row)} entries where the first row has {width}")
    return [parse_entry(x, f"{where}[{n}]", path) for n, x in enumerate(row)]


def parse_document(document: Any, path: str) -> tuple[str, list]:
    """(kind, rows of Fraction/float entries) from a table document, validated."""
    if not isinstance(document, dict) or set(document) != {"kind", "rows"}:
        keys = sorted(document) if isinstance(document, dict) else type(document).__name__
        raise _fail(path, f"found {_short(keys)}, expected exactly the keys kind and rows")
    kind, rows = document["kind"], document["rows"]
    if kind not in TABLE_KINDS:
        raise _fail(path, f"kind {_short(kind)} is not one of {', '.join(TABLE_KINDS)}")
    if not isinstance(rows, list) or not rows:
        raise _fail(path, "rows is not a non-empty list")
    width: int | None = None
    out: list = []
    count = 0
    if kind == "general":
        for i, row in enumerate(rows):
            if not isinstance(row, list) or len(row) < i + 1:
                raise _fail(path, f"rows[{i}] must list ψ({i}, j) for j = 0..{i}")
            cells = []
            for j, cell in enumerate(row[:i + 1]):
                vec = _vector(cell, f"rows[{i}][{j}]", path, width)
                width = len(vec)
                count += width
                cells.append(vec)
            out.append(cells)
            if count > MAX_TABLE_ENTRIES:
                raise _fail(path, f"more than {MAX_TABLE_ENTRIES} entries")
    else:
        for k, row in enumerate(rows):
            vec = _vector(row, f"rows[{k}]", path, width)
            width = len(vec)
            count += width
            if count > MAX_TABLE_ENTRIES:
                raise _fail(path, f"more than {MAX_TABLE_ENTRIES} entries")
            out.append(vec)
    return kind, out


# --------------------------------------------------------------------------- the encoding
@dataclass(frozen=True, eq=False)
class TableEncoding(Encoding):
    """A user feature table.  ``kind`` relative (table[k] = f(δ)), column (table[k] = f(j)),
    or general (table[i][j] = ψ(i, j), j ≤ i).  Entries that are all int / Fraction make the
    encoding rational (exact mode).  Lengths up to the table's size."""

    name: str
    table_kind: PEKind
    values: np.ndarray = field(repr=False)                 # (N, p) or (N, N, p) floats
    exact: tuple | None = field(repr=False, default=None)  # the same entries as Fractions (rational tables)
    scale: Fraction = field(repr=False, default=Fraction(1))   # 2^-k when the given entries exceed float range

    @property
    def feature_scale(self) -> Fraction:
        return self.scale

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

    def length_bound_reason(self) -> str:
        return f"the feature table defines ψ on {self.size} positions only"

    def max_abs_feature(self, length, train_length):
        return float(np.abs(self.values[:length] if self.table_kind != GENERAL
                            else self.values[:length, :length]).max(initial=0.0))

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


_REGISTERED: dict[str, Encoding] = {}   # name -> the PE registered under it (tables and functions)


def registered_pe(name: str) -> Encoding | None:
    """The PE registered under ``name`` with :func:`register_pe` (or a loaded ``py:`` spec), or None."""
    return _REGISTERED.get(name)


def registered_pes() -> dict[str, Encoding]:
    """Every PE registered in this process, by name (e.g. to re-register them in worker processes)."""
    return dict(_REGISTERED)


def restore_registered(pes: dict[str, Encoding]) -> None:
    """Register PEs by name again (a spawned worker process starts with none)."""
    _REGISTERED.update(pes)


def build_table(name: str, table, kind: str = RELATIVE) -> TableEncoding:
    """A :class:`TableEncoding` from a feature table (see :func:`register_pe` for the shapes).

    Entries may be int / Fraction / rational strings ``"p/q"`` (exact mode) or floats."""
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
    scale = _exact_scale(flat) if exact is not None else Fraction(1)
    if scale != 1:   # a rational table beyond float range: rescaled by 2^-k in ℚ (α_L and the kernel unchanged)
        exact = _scaled(exact, scale)
        floats = np.array([float(f * scale) for f in flat if f is not None], dtype=float).reshape(shape)
    else:
        floats = _floats(values, name)
    if not np.all(np.isfinite(floats)):
        raise bad_value("feature table", name, "finite numbers")
    cls = TableEncoding if kind == GENERAL else ProfileTable
    return cls(name=name, table_kind=PEKind(kind), exact=exact, values=floats, scale=scale)


def _exact_scale(entries: list[Fraction | None]) -> Fraction:
    """1 when every entry is within :data:`MAX_ENTRY_MAGNITUDE`, else 2^-k with k the least power that brings the
    largest one within it (exact: a power of two)."""
    largest = max((abs(f) for f in entries if f is not None), default=Fraction(0))
    largest_allowed = Fraction(MAX_ENTRY_MAGNITUDE)
    k = 0
    while largest / 2 ** k > largest_allowed:
        k += max(1, (largest / 2 ** k / largest_allowed).__ceil__().bit_length() - 1)
    return Fraction(1, 2 ** k)


def _scaled(exact: Any, scale: Fraction) -> Any:
    """The exact rows (tuples of Fractions, nested one level deeper for general tables) times ``scale``."""
    if exact and exact[0] and isinstance(exact[0][0], tuple):
        return tuple(tuple(tuple(x * scale for x in cell) for cell in row) for row in exact)
    return tuple(tuple(x * scale for x in row) for row in exact)


MAX_ENTRY_MAGNITUDE = float(np.finfo(float).max) / 2   # differences ψ(i,t) - ψ(i,j) of entries stay finite


def _floats(values: np.ndarray, name: str) -> np.ndarray:
    """The entries as floats, refused in one line (before any work) when one is beyond
    :data:`MAX_ENTRY_MAGNITUDE`: the float selection subtracts entries.  (A rational table beyond it never
    reaches here: it is rescaled exactly, :func:`_exact_scale`, and decided in exact mode.)"""
    flat = values.reshape(-1)                                                     # (n,) objects
    for k, x in enumerate(flat):
        try:
            big = MAX_ENTRY_MAGNITUDE < abs(float(x)) < float("inf")   # inf and NaN: refused as not finite
        except OverflowError:                                         # an int or Fraction beyond a double
            big = True
        if big:
            at = "".join(f"[{c}]" for c in np.unravel_index(k, values.shape))
            raise SpecError(f"invalid feature table {quote(name)}: entry {at} = {quote(str(x))} has a magnitude "
                            f"above {MAX_ENTRY_MAGNITUDE:.4g}, where differences of entries overflow; accepted: "
                            "entries of smaller magnitude (rescale the table: α_L does not change)")
    return flat.astype(float).reshape(values.shape)


def register_pe(name: str, table: Any = None, kind: str = RELATIVE, *, psi: Any = None,
                width: int | None = None) -> Encoding:
    """Register a PE so that spec ``name`` (and ``dual:name``) parses: a feature table, or a function.

    Table: ``kind='relative'``: table[δ] = f(δ), shape (N, p); ``'column'``: table[j] = f(j), (N, p);
    ``'general'``: table[i][j] = ψ(i, j), shape (N, N, p) (entries with j > i are ignored).
    Entries may be int / Fraction / rational strings ``"p/q"`` (exact mode) or floats — the
    entries of a ``table:PATH`` file (:mod:`posreal.theory.tables`).  Lengths up to N are supported.

    Function: ``register_pe(name, psi=f, kind=..., width=p)`` with ``f(n)`` (relative: offsets
    n = i - j), ``f(j)`` (column) or ``f(i, j)`` (general) taking int64 arrays of shape (m,) and returning
    an (m, p) array; evaluated lazily (:mod:`posreal.theory.function_pe`), ints / Fractions for exact mode."""
    from posreal.theory.declarations import reserved_pe_names
    if not isinstance(name, str) or not name.isidentifier() or name in reserved_pe_names():
        raise bad_value("PE name", name, "an identifier that is not a registry name")
    if (table is None) == (psi is None):
        raise bad_value("register_pe arguments", "table and psi" if psi is not None else "neither table nor psi",
                        "exactly one of a feature table (table=...) and a function (psi=..., width=p)")
    enc: Encoding
    if psi is not None:
        from posreal.theory.function_pe import function_pe
        enc = function_pe(name, psi, kind, width)
    else:
        if width is not None:
            raise bad_value("width for a feature table", width, "no width (the table gives it)")
        enc = build_table(name, table, kind)
    _REGISTERED[name] = enc
    return enc


def register_loaded(enc: Encoding) -> Encoding:
    """Register a PE under its own ``str()`` (a ``py:MODULE:FUNCTION`` spec loaded by the command line)."""
    _REGISTERED[str(enc)] = enc
    return enc


def unregister_pe(name: str) -> None:
    """Remove a PE registered by :func:`register_pe`; spec ``name`` no longer parses afterwards.

    A name that is not registered is ignored, so a test or notebook can always clean up."""
    _REGISTERED.pop(name, None)


# --------------------------------------------------------------------------- files
def load_table(path: str) -> TableEncoding:
    """The encoding of spec ``table:PATH``, read from the file and validated.

    A :class:`TableEncoding` whose ``str()`` is ``table:PATH`` (so the spec round-trips)."""
    text = read_text(path)
    resources.require(resources.Estimate(   # the whole file is parsed into Python objects: refused by size first
        TABLE_BYTES_PER_FILE_BYTE * len(text), f"reading feature table file {_short(path)} ({len(text)} bytes)"))
    document = resources.load_json(text, f"feature table file {_short(path)}", accepted=FORM)  # input-file limits
    kind, rows = parse_document(document, path)
    if kind == "general":
        n = len(rows)
        width = len(rows[0][0])
        full = [[rows[i][j] if j <= i else [Fraction(0)] * width for j in range(n)] for i in range(n)]
        return build_table(f"table:{path}", full, kind)
    return build_table(f"table:{path}", rows, kind)


def table_document(kind: str, rows: Any) -> dict:
    """The JSON form of a table (rationals as ``"p/q"`` strings, floats as numbers)."""
    def entry(x: Any) -> Any:
        if isinstance(x, (int, Fraction)) and not isinstance(x, bool):
            f = Fraction(x)
            return f"{f.numerator}/{f.denominator}"
        return float(x)

    def walk(x: Any) -> Any:
        return [walk(y) for y in x] if isinstance(x, (list, tuple)) else entry(x)

    return {"kind": kind, "rows": walk(rows)}


# --------------------------------------------------------------------------- declarations (posreal pes)
# Parsers at module level (each line runs when a spec is parsed), declarations as module-level statements.
def _parse_table(name: str, rest: str, spec: str) -> Encoding:
    return load_table(rest[1:])


def _parse_py(name: str, rest: str, spec: str) -> Encoding:
    loaded = registered_pe(f"py{rest}")
    if loaded is None:
        raise SpecError(f"invalid PE {quote(spec)}: a py:MODULE:FUNCTION PE is not loaded; accepted: on the "
                        "command line with --pe-kind and --pe-width, from Python through "
                        "posreal.theory.register_pe(name, psi=f, kind=..., width=p)")
    return loaded


declare_pe(PEFamily(CatalogueEntry(
    "table:PATH", "relative, column or general (the file's kind)",
    "ψ(i, j) = rows[n], rows[j] or rows[i][j] of a JSON feature table",
    (Parameter("PATH", "a JSON table file", "—"),),
    "θ ∈ ℝ^p", "when every entry is an integer or a rational string", "your own PE as a table", None),
    _parse_table, rank=13))
declare_pe(PEFamily(CatalogueEntry(
    "py:MODULE:FUNCTION", "--pe-kind: relative, column or general",
    "ψ(i, j) = FUNCTION(n), FUNCTION(j) or FUNCTION(i, j), called on int64 arrays of shape (m,), returning "
    "(m, p)",
    (Parameter("--pe-kind", "relative, column or general", "—"), Parameter("--pe-width", "p", "—")),
    "θ ∈ ℝ^p", "when the function returns ints or Fractions", "your own PE as a Python function "
    "(register_pe(name, psi=f, kind=..., width=p) from Python)", None), _parse_py, rank=14))
