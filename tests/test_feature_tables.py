"""Feature tables from files (``table:PATH``): loading, exact entries, and one-line refusals.

Checks :mod:`posreal.theory.tables`: each kind (relative, column, general) loads into an encoding
whose exact features are the file's entries; entries are ints, rational strings or finite floats;
every malformed file is refused with ``invalid feature table file PATH: PROBLEM; accepted: ...``.
"""

from __future__ import annotations

import json
import os
from fractions import Fraction as F
from pathlib import Path
from typing import Any

import pytest
from posreal.theory.pe_specs import parse_pe
from posreal.theory.errors import SpecError
from posreal.theory.tables import (
    FORM,
    load_table,
    parse_document,
    parse_entry,
    table_document,
)


def _write(tmp_path: Path, document, name: str = "table.json") -> str:
    path = tmp_path / name
    path.write_text(document if isinstance(document, str) else json.dumps(document), encoding="utf-8")
    return str(path)


def _features(pe, i: int, j: int, train_length: int = 3) -> tuple:
    return tuple(pe.exact_index_features([i], [pe.key_index(i, j)], train_length)[0])


def test_relative_table_features_are_the_rows_at_each_offset(tmp_path):
    path = _write(tmp_path, {"kind": "relative", "rows": [[0, 0], [-1, "1/2"], ["-2/3", 7]]})
    pe = load_table(path)
    assert str(pe) == f"table:{path}" and pe.rational and pe.kind == "relative"
    assert _features(pe, 2, 2) == (F(0), F(0))           # offset 0
    assert _features(pe, 2, 1) == (F(-1), F(1, 2))       # offset 1
    assert _features(pe, 2, 0) == (F(-2, 3), F(7))       # offset 2
    assert parse_pe(f"table:{path}") == pe


def test_column_table_features_are_the_rows_at_each_key(tmp_path):
    pe = load_table(_write(tmp_path, {"kind": "column", "rows": [[1], [2], [3]]}))
    assert [_features(pe, 2, j) for j in range(3)] == [(F(1),), (F(2),), (F(3),)]


def test_general_table_reads_the_causal_triangle(tmp_path):
    # rows[i][j] = ψ(i, j) for j ≤ i; entries with j > i may be omitted
    rows = [[[1]], [[2], [3]], [[4], [5], [6]]]
    pe = load_table(_write(tmp_path, {"kind": "general", "rows": rows}))
    assert [[_features(pe, i, j) for j in range(i + 1)] for i in range(3)] == \
        [[(F(1),)], [(F(2),), (F(3),)], [(F(4),), (F(5),), (F(6),)]]


def test_float_entries_make_a_float_table(tmp_path):
    pe = load_table(_write(tmp_path, {"kind": "relative", "rows": [[0.0], [0.25]]}))
    assert not pe.rational


def test_tables_compare_by_their_spec(tmp_path):
    doc = {"kind": "relative", "rows": [[0], [1]]}
    a, b = _write(tmp_path, doc, "a.json"), _write(tmp_path, doc, "b.json")
    assert load_table(a) == load_table(a)
    assert load_table(a) != load_table(b)                # same entries, different spec


@pytest.mark.parametrize("value, expected", [(3, F(3)), (-2, F(-2)), ("-1/3", F(-1, 3)), ("4", F(4)),
                                             ("0/5", F(0)), (0.5, 0.5)])
def test_parse_entry_accepts(value, expected):
    out = parse_entry(value, "rows[0][0]", "t.json")
    assert out == expected and type(out) is type(expected)


@pytest.mark.parametrize("value, problem", [
    (True, "entry rows[0][0] is True"),
    (float("nan"), "entry rows[0][0] is not finite"),
    (float("inf"), "entry rows[0][0] is not finite"),
    (float("-inf"), "entry rows[0][0] is not finite"),
    ("1/0", "entry rows[0][0] is '1/0'"),
    ("--1", "entry rows[0][0] is '--1'"),
    ("1/-3", "entry rows[0][0] is '1/-3'"),
    ("1.5", "entry rows[0][0] is '1.5'"),
    ("", "entry rows[0][0] is ''"),
    (None, "entry rows[0][0] is None"),
])
def test_parse_entry_refuses(value, problem):
    with pytest.raises(SpecError) as err:
        parse_entry(value, "rows[0][0]", "t.json")
    assert str(err.value) == f"invalid feature table file 't.json': {problem}; accepted: {FORM}"


@pytest.mark.parametrize("document, problem", [
    ({"kind": "relative"}, "found ['kind'], expected exactly the keys kind and rows"),
    ([1, 2], "found 'list', expected exactly the keys kind and rows"),
    ({"kind": "diagonal", "rows": [[1]]}, "kind 'diagonal' is not one of relative, column, general"),
    ({"kind": "relative", "rows": []}, "rows is not a non-empty list"),
    ({"kind": "relative", "rows": [5]}, "rows[0] is 5, not a non-empty list of entries"),
    ({"kind": "relative", "rows": [[1, 2], [3]]}, "rows[1] has 1 entries where the first row has 2"),
    ({"kind": "general", "rows": [[[1]], [[2]]]}, "rows[1] must list ψ(1, j) for j = 0..1"),
    ({"kind": "general", "rows": [[[1]], [[2], [3, 4]]]}, "rows[1][1] has 2 entries where the first row has 1"),
])
def test_parse_document_refuses(document, problem):
    with pytest.raises(SpecError) as err:
        parse_document(document, "t.json")
    assert str(err.value) == f"invalid feature table file 't.json': {problem}; accepted: {FORM}"


def test_unreadable_and_malformed_files_are_refused(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)   # relative names: the messages shorten long paths (pytest-xdist's tmp_path is long)
    missing = "missing.json"
    with pytest.raises(SpecError, match=r"^invalid feature table file '.*missing\.json': cannot be read \("):
        load_table(missing)
    with pytest.raises(SpecError, match=r": not a regular file;"):
        load_table(str(tmp_path))
    binary = tmp_path / "binary.json"
    binary.write_bytes(b"\xff\xfe\x00")
    with pytest.raises(SpecError, match=r": not UTF-8 text;"):
        load_table(str(binary))
    with pytest.raises(SpecError, match=r"^malformed feature table file .*: not JSON \("):
        load_table(_write(tmp_path, "{ nope", "bad.json"))
    with pytest.raises(SpecError, match=r": found \['rows'\], expected exactly the keys kind and rows;"):
        load_table(_write(tmp_path, {"rows": [[1]]}, "keys.json"))


def test_table_document_writes_rationals_as_strings():
    assert table_document("relative", [[1, F(-1, 3)], [0.5, 2]]) == \
        {"kind": "relative", "rows": [["1/1", "-1/3"], [0.5, "2/1"]]}


# --------------------------------------------------------------------------- table files that cannot be read
# Exists because a mutant survived: a table file nested too deeply was never refused.
def test_table_file_nested_too_deeply_says_so(tmp_path, monkeypatch):
    """A table file whose JSON nests deeper than any input file may (64) is refused with its depth."""
    from posreal.theory.tables import load_table

    monkeypatch.chdir(tmp_path)   # a short relative name: the message shortens long paths
    path = Path("deep.json")
    path.write_text("[" * 200_000 + "]" * 200_000, encoding="utf-8")
    with pytest.raises(SpecError) as err:
        load_table(str(path))
    assert str(err.value) == (f"malformed feature table file {str(path)!r}: JSON nested 200000 levels deep; "
                              "accepted: at most 64")


# Exists because a mutant survived: a table file that is not JSON could lose the parser's message.
def test_a_file_that_is_not_json_is_refused_with_the_parser_message(tmp_path):
    path = tmp_path / "t.json"
    path.write_text('{"kind": "relative", "rows": [[0], [1]')
    with pytest.raises(json.JSONDecodeError) as parsed:
        json.loads(path.read_text())
    with pytest.raises(SpecError) as err:
        load_table(str(path))
    assert f": not JSON ({parsed.value.msg} at line {parsed.value.lineno}); accepted: " in str(err.value)
    assert parsed.value.msg in str(err.value)


# Exists because a mutant survived: a table file grown after its size check could be cut and read.
def test_table_file_grown_past_the_bound_after_its_size_was_checked_is_refused(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """tables.read_text reads one byte beyond the limit to see a file that is larger when read than its
    size said (it grew in between): such a file is refused, not cut to MAX_TABLE_BYTES + 1 bytes (a
    JSON table padded with blanks would otherwise be accepted above the limit)."""
    from posreal.theory import tables

    monkeypatch.chdir(tmp_path)   # a short relative name: the message shortens long paths
    path = Path("grows.json")
    body = json.dumps({"kind": "relative", "rows": [[1]]})
    path.write_text(body)
    real_stat = os.stat

    def stat_then_grow(name: Any, *args: Any, **kwargs: Any) -> os.stat_result:
        info = real_stat(name, *args, **kwargs)
        if isinstance(name, str) and name == str(path):
            with open(path, "a") as handle:
                handle.write(" " * (tables.MAX_TABLE_BYTES + 1 - len(body)))
        return info

    monkeypatch.setattr(tables.os, "stat", stat_then_grow)
    with pytest.raises(SpecError) as err:
        tables.read_text(str(path))
    assert str(err.value) == (f"invalid feature table file {str(path)!r}: it grew past the limit of "
                              f"{tables.MAX_TABLE_BYTES} bytes while being read; accepted: {tables.FORM}")
    assert path.stat().st_size == tables.MAX_TABLE_BYTES + 1
