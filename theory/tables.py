"""Feature tables from files: the ``table:PATH`` PE spec (a researcher's own PE on the command line).

A table file is one JSON object, the same form the shipped certificates store under
``instance.tables``::

    {"kind": "relative" | "column" | "general", "rows": ...}

* ``relative``: ``rows[k]`` is ψ at offset k (a list of p entries);
* ``column``: ``rows[k]`` is ψ at key k;
* ``general``: ``rows[i][j]`` is ψ(i, j) for j ≤ i (entries with j > i may be omitted or are ignored).

Entries are JSON numbers, or exact rationals written as strings (``"-1/3"``, ``"2"``).  A table
whose entries are all integers or rational strings is rational, so ``--exact`` decides it in ℚ.
Main functions: :func:`load_table` (file -> encoding), :func:`table_document` (encoding -> the
same JSON form), :func:`parse_entry`.  Definitions page: definitions.md#feature-tables.
"""

from __future__ import annotations

import os
import re
import stat
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from posreal.theory import resources
from posreal.theory.errors import SpecError

if TYPE_CHECKING:
    from posreal.theory.encodings import TableEncoding

MAX_TABLE_BYTES = 16 * 2 ** 20        # a table file larger than this is refused
MAX_TABLE_ENTRIES = 2 ** 20           # entries (rows × width, or rows² × width for general tables)
MAX_ENTRY_CHARS = 64                  # digits of one numerator or denominator string
TABLE_KINDS = ("relative", "column", "general")
_RATIONAL = re.compile(rf"(-?[0-9]{{1,{MAX_ENTRY_CHARS}}})(?:/([0-9]{{1,{MAX_ENTRY_CHARS}}}))?", re.ASCII)
FORM = ('a JSON object {"kind": "relative" | "column" | "general", "rows": [...]} whose entries are '
        'numbers or rational strings such as "-1/3"')


def _short(value: object, limit: int = 80) -> str:
    text = repr(value)
    return text if len(text) <= limit else text[:limit - 1] + "…"


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


def load_table(path: str) -> TableEncoding:
    """The encoding of spec ``table:PATH``: read, validate and build a :class:`TableEncoding`
    whose ``str()`` is ``table:PATH`` (so the spec round-trips)."""
    from posreal.theory.encodings import build_table

    text = read_text(path)
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
