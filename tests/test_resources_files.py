"""Contract tests of ``posreal/runtime/resources.py``, message by message:
files and JSON: output paths, the probe, regular_file, read_text, json_depth and load_json.

Expected values and messages are derived in the tests from the documented formulas and message forms
(tests/resources_cases.py holds the shared helpers)."""

from __future__ import annotations

import errno
import json
import os
import re

import pytest
from posreal.runtime import resources
from posreal.theory.errors import SpecError, quote
from posreal.runtime.resources import (
    check_output_directory,
    check_output_file,
    json_depth,
    load_json,
    read_text,
    regular_file,
)
from certificate_edits import message as _message
from resources_cases import _clean_budget  # noqa: F401  (autouse: no budget from the environment)
from resources_cases import (DIR_ACCEPTED, FILE_ACCEPTED, JSON_ACCEPTED, KIB, MIB, _quoted, _raises)


# --------------------------------------------------------------------------- paths
@pytest.mark.parametrize("text, problem", [
    ("", "it is empty"),
    ("a\0b", "it contains a NUL character"),
    ("\0" + "a" * 5000, "it contains a NUL character"),
    ("a/" * 2048, None),
    ("a/" * 2048 + "a", "it is 4097 bytes long (at most 4096)"),
    ("é" * 2049, "it is 4098 bytes long (at most 4096)"),
    ("a" * 255, None),
    ("d/" + "a" * 256, "a component is longer than 255 bytes"),
    ("é" * 127 + "a", None),
    ("é" * 128, "a component is longer than 255 bytes"),
])
def test_path_problem(text, problem):
    assert resources._path_problem(text) == problem


@pytest.fixture
def in_tmp(tmp_path, monkeypatch):
    """Work in tmp_path so that messages quote short relative paths."""
    monkeypatch.chdir(tmp_path)
    return tmp_path


def test_check_output_file_accepts_new_and_existing_files(in_tmp):
    assert check_output_file("out.json") == "out.json"
    os.mkdir("sub")
    assert check_output_file("sub/out.json") == "sub/out.json"
    with open("old.txt", "w") as fh:
        fh.write("keep")
    assert check_output_file("old.txt") == "old.txt"
    assert check_output_file("a" * 255) == "a" * 255
    assert sorted(os.listdir(".")) == ["old.txt", "sub"] and os.listdir("sub") == []   # probes removed
    with open("old.txt") as fh:
        assert fh.read() == "keep"


@pytest.mark.parametrize("text, problem", [
    ("", "it is empty"),
    ("a\0b", "it contains a NUL character"),
    ("a" * 256, "a component is longer than 255 bytes"),
    ("a/" * 2048 + "a", "it is 4097 bytes long (at most 4096)"),
    ("missing/out.json", "directory 'missing' does not exist"),
])
def test_check_output_file_path_problems(in_tmp, text, problem):
    _raises(SpecError, f"invalid output file {_quoted(text)}: {problem}; accepted: {FILE_ACCEPTED}",
            check_output_file, text)


def test_check_output_file_refuses_a_directory(in_tmp):
    os.mkdir("d.png")
    _raises(SpecError, f"invalid output file 'd.png': it is a directory; accepted: {FILE_ACCEPTED}",
            check_output_file, "d.png")
    _raises(SpecError, f"invalid plot 'd.png': it is a directory; accepted: {FILE_ACCEPTED}, ending in .png",
            check_output_file, "d.png", "plot", ".png")


def test_check_output_file_refuses_fifos_and_dangling_links(in_tmp):
    os.mkfifo("fifo")
    os.symlink("nowhere", "link")
    for name in ("fifo", "link"):
        _raises(SpecError, f"invalid output file '{name}': it exists and is not a regular file; accepted: "
                f"{FILE_ACCEPTED}", check_output_file, name)


def test_check_output_file_refuses_an_unwritable_file(in_tmp, monkeypatch):
    with open("ro.json", "w"):
        pass
    monkeypatch.setattr(resources.os, "access", lambda path, mode: mode != os.W_OK)
    _raises(SpecError, f"invalid output file 'ro.json': it is not writable; accepted: {FILE_ACCEPTED}",
            check_output_file, "ro.json")


@pytest.mark.parametrize("name", ["x.png", "A.PNG", "dir/b.Png", "..png"])
def test_check_output_file_suffix_accepted(in_tmp, name):
    os.makedirs("dir", exist_ok=True)
    assert check_output_file(name, "plot", ".png") == name


@pytest.mark.parametrize("name", [".png", "x.txt", "png", "dir/.png", "x.png.txt", "xpng"])
def test_check_output_file_suffix_refused(in_tmp, name):
    os.makedirs("dir", exist_ok=True)
    _raises(SpecError, f"invalid plot {name!r}: the file name must be a non-empty name followed by .png; "
            f"accepted: {FILE_ACCEPTED}, ending in .png", check_output_file, name, "plot", ".png")


def test_probe_directory(in_tmp):
    assert resources._probe_directory(".") is None and os.listdir(".") == []
    assert resources._probe_directory("nope") == "directory 'nope' does not exist"
    with open("file", "w"):
        pass
    assert resources._probe_directory("file") == "directory 'file' does not exist"


def test_unwritable_directory_is_refused_with_the_reason(in_tmp, monkeypatch):
    def denied(**kwargs):
        raise PermissionError(errno.EACCES, "Permission denied")

    monkeypatch.setattr(resources.tempfile, "mkstemp", denied)
    os.mkdir("ro")
    assert resources._probe_directory("ro") == "directory 'ro' is not writable (Permission denied)"
    _raises(SpecError, f"invalid output file 'ro/x.json': directory 'ro' is not writable (Permission denied); "
            f"accepted: {FILE_ACCEPTED}", check_output_file, "ro/x.json")
    where = os.path.abspath("ro")
    _raises(SpecError, f"invalid output directory 'ro/new': directory {_quoted(where)} is not writable "
            f"(Permission denied); accepted: {DIR_ACCEPTED}", check_output_directory, "ro/new")


def test_probe_error_without_strerror_is_quoted_as_text(in_tmp, monkeypatch):
    def full(**kwargs):
        raise OSError("disk full")

    monkeypatch.setattr(resources.tempfile, "mkstemp", full)
    assert resources._probe_directory(".") == "directory '.' is not writable (disk full)"


def test_check_output_directory_accepts_existing_and_creatable(in_tmp):
    os.mkdir("there")
    assert check_output_directory("there") == "there"
    assert check_output_directory(".") == "."
    assert check_output_directory("new/deeper") == "new/deeper"
    assert sorted(os.listdir(".")) == ["there"] and os.listdir("there") == []   # nothing created or left


@pytest.mark.parametrize("text, problem", [
    ("", "it is empty"),
    ("a\0b", "it contains a NUL character"),
    ("a" * 256, "a component is longer than 255 bytes"),
])
def test_check_output_directory_path_problems(in_tmp, text, problem):
    _raises(SpecError, f"invalid output directory {_quoted(text)}: {problem}; accepted: {DIR_ACCEPTED}",
            check_output_directory, text)


def test_check_output_directory_refuses_files_and_links(in_tmp):
    with open("f", "w"):
        pass
    os.mkfifo("fifo")
    os.symlink("nowhere", "link")
    for name in ("f", "fifo", "link"):
        _raises(SpecError, f"invalid run directory '{name}': it exists and is not a directory; accepted: "
                f"{DIR_ACCEPTED}", check_output_directory, name, "run directory")


def test_check_output_directory_under_a_file_names_the_file(in_tmp):
    with open("f", "w"):
        pass
    where = os.path.abspath("f")
    _raises(SpecError, f"invalid output directory 'f/sub/x': {_quoted(where)} is not a directory; accepted: "
            f"{DIR_ACCEPTED}", check_output_directory, "f/sub/x")


# --------------------------------------------------------------------------- regular_file, read_text
@pytest.mark.parametrize("path", ["", None, 3])
def test_regular_file_refuses_non_paths(path):
    _raises(SpecError, f"invalid input {path!r}; accepted: a path to a regular file", regular_file, path, "input")


def test_regular_file_missing_and_nul(in_tmp):
    _raises(SpecError, f"unreadable input 'nope.json': {os.strerror(errno.ENOENT)}; accepted: a path to a regular "
            "file", regular_file, "nope.json", "input")
    _raises(SpecError, "unreadable input 'a\\x00b': embedded null byte; accepted: a path to a regular file",
            regular_file, "a\0b", "input")


def test_regular_file_refuses_directories_and_fifos(in_tmp):
    os.mkdir("d")
    os.mkfifo("fifo")
    _raises(SpecError, "invalid certificate 'd': a directory; accepted: a regular file",
            regular_file, "d", "certificate")
    _raises(SpecError, "invalid certificate 'fifo': not a regular file; accepted: a regular file",
            regular_file, "fifo", "certificate")


def test_regular_file_size_bound_both_sides(in_tmp):
    with open("f", "wb") as fh:
        fh.write(b"x" * 10)
    assert regular_file("f", "input", 10) == 10
    _raises(SpecError, "invalid input 'f': 10 B; accepted: a file of at most 9 B", regular_file, "f", "input", 9)
    with open("k", "wb") as fh:
        fh.write(b"x" * 2 * KIB)
    assert regular_file("k", "input", 2 * KIB) == 2 * KIB
    _raises(SpecError, "invalid input 'k': 2 KiB; accepted: a file of at most 1 KiB", regular_file, "k", "input", KIB)


def test_regular_file_default_bound_is_64_mib(in_tmp):
    """Sparse files: only their size is looked at."""
    with open("at", "wb") as fh:
        fh.truncate(64 * MIB)
    with open("over", "wb") as fh:
        fh.truncate(64 * MIB + 1)
    assert regular_file("at", "input") == 64 * MIB
    _raises(SpecError, "invalid input 'over': 64 MiB; accepted: a file of at most 64 MiB",
            regular_file, "over", "input")
    _raises(SpecError, "invalid table 'over': 64 MiB; accepted: a file of at most 64 MiB", read_text, "over", "table")


def test_read_text_reads_utf8_up_to_the_bound(in_tmp):
    with open("f", "wb") as fh:
        fh.write("é{}".encode())                                  # 4 bytes
    assert read_text("f", "input") == "é{}"
    assert read_text("f", "input", 4) == "é{}"
    _raises(SpecError, "invalid input 'f': 4 B; accepted: a file of at most 3 B", read_text, "f", "input", 3)


def test_read_text_refuses_non_utf8(in_tmp):
    with open("f", "wb") as fh:
        fh.write(b"ab\xffcd")
    _raises(SpecError, "unreadable run file 'f': not UTF-8 text (byte 2); accepted: UTF-8 text",
            read_text, "f", "run file")


def test_read_text_refuses_what_the_file_check_refuses(in_tmp):
    os.mkfifo("fifo")
    _raises(SpecError, "invalid input 'fifo': not a regular file; accepted: a regular file", read_text, "fifo", "input")
    _raises(SpecError, f"unreadable input 'gone': {os.strerror(errno.ENOENT)}; accepted: a path to a regular file",
            read_text, "gone", "input")


def test_read_text_rechecks_after_the_file_check(in_tmp, monkeypatch):
    """A file replaced by a FIFO, grown, or removed after the file check (simulated by skipping the check)."""
    monkeypatch.setattr(resources, "regular_file", lambda *args, **kwargs: 0)
    os.mkfifo("fifo")
    _raises(SpecError, "invalid input 'fifo': not a regular file; accepted: a regular file", read_text, "fifo", "input")
    with open("grown", "wb") as fh:
        fh.write(b"x" * 11)
    _raises(SpecError, "invalid input 'grown': larger than 10 B", read_text, "grown", "input", 10)
    assert read_text("grown", "input", 11) == "x" * 11
    _raises(SpecError, f"unreadable input 'gone': {os.strerror(errno.ENOENT)}; accepted: a readable regular file",
            read_text, "gone", "input")


# --------------------------------------------------------------------------- json_depth, load_json
@pytest.mark.parametrize("text, depth", [
    ("", 0), ("1", 0), ('"[["', 0), ("[]", 1), ("{}", 1), ("[[]][[]]", 2), ("[[[],[[]]]]", 4),
    ('[{"a": [1, {"b": []}]}]', 5),
    ('["[[[", "]]]]]]", {"k": "{"}]', 2),                          # brackets inside strings
    ('["a\\"[[[", [1]]', 2),                                         # an escaped quote does not end the string
    ('["\\\\", [[1]]]', 3),                                          # an escaped backslash does not escape the quote
    ('["\\"[[[\\"", 1]', 1),                                         # escaped quotes around brackets
    ('{"[": {"]": []}}', 3),
    ("]]][[[[", 1),
])
def test_json_depth(text, depth):
    assert json_depth(text) == depth


def test_load_json_default_depth_bound_both_sides():
    at = "[" * 64 + "]" * 64
    value = load_json(at, "doc")
    for _ in range(63):
        value = value[0]
    assert value == []
    over = "[" * 65 + "]" * 65
    _raises(SpecError, "malformed doc: JSON nested 65 levels deep; accepted: at most 64", load_json, over, "doc")


def test_load_json_given_depth_bound_both_sides():
    assert load_json('{"a": [1]}', "table", max_depth=2) == {"a": [1]}
    _raises(SpecError, "malformed table: JSON nested 3 levels deep; accepted: at most 2",
            load_json, '{"a": [{}]}', "table", max_depth=2)
    _raises(SpecError, "malformed table: JSON nested 1 levels deep; accepted: at most 0", load_json, "[]", "table", 0)


def test_load_json_depth_is_checked_before_parsing():
    _raises(SpecError, "malformed doc: JSON nested 70 levels deep; accepted: at most 64", load_json, "[" * 70, "doc")


def test_load_json_integer_digit_bound():
    assert load_json("1" * 400, "doc") == int("1" * 400)
    assert load_json("[-" + "9" * 400 + "]", "doc") == [-(10 ** 400 - 1)]
    _raises(SpecError, f"malformed doc: 'an integer of 401 digits (at most 400)'; accepted: {JSON_ACCEPTED}",
            load_json, '{"a": [' + "1" * 401 + "]}", "doc")
    # the count is of digits: a minus sign is not one
    _raises(SpecError, f"malformed doc: 'an integer of 401 digits (at most 400)'; accepted: {JSON_ACCEPTED}",
            load_json, "-" + "1" * 401, "doc")


@pytest.mark.parametrize("text, name", [("NaN", "NaN"), ("[Infinity]", "Infinity"), ('{"a": -Infinity}', "-Infinity")])
def test_load_json_refuses_nan_and_infinity(text, name):
    _raises(SpecError, f"malformed doc: '{name} is not JSON'; accepted: {JSON_ACCEPTED}", load_json, text, "doc")


@pytest.mark.parametrize("number", ["1e999", "-1e999", "1" * 401 + ".0", "2e308"])
def test_load_json_refuses_numbers_beyond_the_float_range(number):
    """A number that parses to ±inf is Infinity by another spelling (it was accepted before)."""
    _raises(SpecError, f"malformed doc: 'the number {number[:24]} is beyond the floating-point range'; "
            f"accepted: {JSON_ACCEPTED}", load_json, f"[{number}]", "doc")
    assert load_json("[1.7976931348623157e308, -5e-324, 0.5]", "doc") == [1.7976931348623157e308, -5e-324, 0.5]


def test_load_json_syntax_error_names_the_line():
    text = "{\n\n x}"
    with pytest.raises(json.JSONDecodeError) as info:
        json.loads(text)
    _raises(SpecError, f"malformed certificate: not JSON ({info.value.msg} at line 3); accepted: {JSON_ACCEPTED}",
            load_json, text, "certificate")
    _raises(SpecError, f"malformed doc: not JSON (Expecting value at line 1); accepted: {JSON_ACCEPTED}",
            load_json, "", "doc")


def test_load_json_recursion_error_is_one_line():
    with pytest.raises(SpecError, match=rf"^malformed doc: 'maximum recursion depth exceeded[^\n]*; "
                                        rf"accepted: {JSON_ACCEPTED}$"):
        load_json("[" * 200_000, "doc", max_depth=10 ** 6)


def test_load_json_values():
    assert load_json('{"a": [1, 2.5, "x]", null, true, false], "b": {}}', "doc") == \
        {"a": [1, 2.5, "x]", None, True, False], "b": {}}


# --------------------------------------------------------------------------- files and JSON
# Exists because a mutant survived: check_output_file could mention a suffix when none is required.
def test_output_file_errors_say_the_suffix_only_when_there_is_one(tmp_path):
    from posreal.runtime.resources import check_output_file

    assert _message(lambda: check_output_file(str(tmp_path))).endswith(
        ": it is a directory; accepted: a writable file path in an existing directory")
    assert _message(lambda: check_output_file(str(tmp_path / "x.txt"), "plot", ".png")).endswith(
        "; accepted: a writable file path in an existing directory, ending in .png")


# Exists because a mutant survived: check_output_directory could name another path than the blocking file.
def test_output_directory_under_a_file_names_the_file(tmp_path):
    """out/sub with ``out`` a regular file: the nearest existing ancestor is ``out``, not a directory."""
    from posreal.runtime.resources import check_output_directory

    blocker = tmp_path / "out"
    blocker.write_text("")
    text = str(blocker / "sub")
    message = (f"invalid output directory {quote(text)}: {quote(str(blocker))} is not a directory; "
               "accepted: a writable directory (created if missing)")
    with pytest.raises(SpecError, match=r"^" + re.escape(message) + r"$"):
        check_output_directory(text)


# Exists because a mutant survived: read_text could check another size limit than the one given.
def test_read_text_checks_the_size_bound_it_is_given(tmp_path):
    """A 20-byte file with max_bytes = 10 is refused by the file check, which names its size and the limit."""
    from posreal.runtime.resources import read_text

    path = tmp_path / "doc.json"
    path.write_bytes(b"x" * 20)
    assert read_text(str(path), "input", 20) == "x" * 20
    with pytest.raises(SpecError, match=r": 20 B; accepted: a file of at most 10 B$"):
        read_text(str(path), "input", 10)


# Exists because a mutant survived: json_depth could miscount closing brackets.
def test_json_depth_steps_back_one_level_per_closing_bracket():
    """[ [ [ ] , [ [ ] ] ] ]: depths 1, 2, 3, back to 2, then 3, 4: the deepest level is 4."""
    from posreal.runtime.resources import json_depth, load_json

    text = "[[[],[[]]]]"
    assert json_depth(text) == 4
    assert load_json(text, "doc", max_depth=4) == [[[], [[]]]]
    with pytest.raises(SpecError, match=r"JSON nested 4 levels deep; accepted: at most 3$"):
        load_json(text, "doc", max_depth=3)


# Exists because a mutant survived: the name of a probe file that cannot be removed was unchecked.
def test_a_probe_that_cannot_be_removed_is_left_hidden(in_tmp, monkeypatch):
    """If removing the write probe fails, the check still passes and the file left is a hidden .posreal-probe-*."""
    def refuse(path: str) -> None:
        raise PermissionError(errno.EACCES, "Permission denied", path)

    monkeypatch.setattr(resources.os, "unlink", refuse)
    assert check_output_file("out.json") == "out.json"
    left = os.listdir(in_tmp)
    assert len(left) == 1 and left[0].startswith(".posreal-probe-")
