"""Contract tests of ``theory/resources.py``: the observable behaviour of every function, message by message.

Pinned here:

* the documented limits (docs/cli.md, "Limits") are the module's constants;
* ``bad``, ``parse_int``, ``parse_number``, ``check_spec``, ``dual_depth``, ``strip_duals``, ``parse_size``:
  the complete one-line message of every refusal (what, the quoted value, "accepted: ..."), and both sides
  of every boundary (range ends, open/closed lower ends, digit counts, text lengths, size units, 2**50 bytes,
  nested ``dual:`` prefixes);
* ``budget``, ``configure``, ``max_work``: the order ``--max-memory`` > ``POSREAL_MAX_MEMORY`` > default, the
  ``POSREAL_MAX_WORK`` range, and errors naming the environment variable;
* ``human``, ``require``: unit thresholds and figures; the budget is inclusive, the work check comes first,
  and both refusals say what is needed, the budget, its source and how to raise it;
* ``training_pairs``, ``cell_estimate``, ``learned_estimate``, ``ceiling_estimate``: memory, work and the
  description, computed in the tests from the formulas of the docstrings and comments, two inputs or more each;
* ``_path_problem``, ``_probe_directory``, ``check_output_file``, ``check_output_directory``: empty, NUL,
  4096-byte and 255-byte-component boundaries, suffix rules, directories, FIFOs, dangling links, unwritable
  files and directories, missing parents; the probe leaves nothing behind and nothing is created;
* ``regular_file``, ``read_text``: missing files, NUL in a path, directories, FIFOs, the size limit on both
  sides (also the default 64 MiB, with sparse files), a file replaced or grown after the check, non-UTF-8;
* ``json_depth``, ``load_json``: nesting with mixed brackets and brackets or escapes inside strings, the depth
  limit on both sides (checked before parsing), the 400-digit integer limit, NaN/Infinity, syntax errors
  (with their line) and recursion errors.

Expected values and messages are derived in the tests from the documented formulas and message forms.
"""

from __future__ import annotations

import errno
import json
import os
import re

import numpy as np
import pytest
from posreal.theory import resources
from posreal.theory.errors import SpecError, quote
from posreal.theory.resources import (
    Budget,
    Estimate,
    ResourceError,
    bad,
    budget,
    ceiling_estimate,
    cell_estimate,
    check_output_directory,
    check_output_file,
    check_spec,
    configure,
    dual_depth,
    human,
    json_depth,
    learned_estimate,
    load_json,
    max_work,
    parse_int,
    parse_number,
    parse_size,
    read_text,
    regular_file,
    require,
    strip_duals,
    training_pairs,
)
from certificate_edits import message as _message

KIB, MIB, GIB, TIB = 2 ** 10, 2 ** 20, 2 ** 30, 2 ** 40
SIZE_ACCEPTED = "a size such as 512M, 4G or 2GiB (bytes if no unit), at most 1024T"
FILE_ACCEPTED = "a writable file path in an existing directory"
DIR_ACCEPTED = "a writable directory (created if missing)"
JSON_ACCEPTED = "a JSON file written by posreal"


@pytest.fixture(autouse=True)
def _clean_budget(monkeypatch):
    """No --max-memory and no budget variables, whatever the calling environment sets."""
    monkeypatch.setattr(resources, "_configured", None)
    monkeypatch.delenv("POSREAL_MAX_MEMORY", raising=False)
    monkeypatch.delenv("POSREAL_MAX_WORK", raising=False)


def _quoted(value: object) -> str:
    """How messages quote a value: its repr, a longer str cut to 80 characters with its length named."""
    if isinstance(value, str) and len(value) > 80:
        return repr(value[:80]) + f"… ({len(value)} characters)"
    return repr(value)


def _raises(exc: type[Exception], message: str, fn, *args, **kwargs) -> None:
    """``fn(*args, **kwargs)`` raises exactly ``exc`` with exactly ``message`` (one line)."""
    assert "\n" not in message
    with pytest.raises(exc, match=r"^" + re.escape(message) + r"$") as info:
        fn(*args, **kwargs)
    assert type(info.value) is exc


# --------------------------------------------------------------------------- constants
@pytest.mark.parametrize("name, value", [
    ("MAX_SPEC_CHARS", 512), ("MAX_DUAL_DEPTH", 64), ("MAX_SPEC_INT", 10 ** 9), ("MAX_LENGTH", 10 ** 7),
    ("MAX_LENGTHS", 256), ("MAX_STEPS", 10 ** 6), ("MAX_SAMPLES", 10 ** 5), ("MAX_INSTANCES", 10 ** 7),
    ("MAX_JOBS", 256), ("MAX_SEED", 2 ** 32 - 1), ("MAX_SECONDS", 10 ** 6), ("MAX_PATH_COMPONENT", 255),
    ("MAX_FILE_BYTES", 64 * MIB), ("MAX_RECORDS_BYTES", GIB), ("MAX_JSON_DEPTH", 64), ("MAX_JSON_INT_DIGITS", 400),
    ("DEFAULT_MAX_MEMORY", 4 * GIB), ("DEFAULT_MAX_WORK", 10 ** 13), ("MEMORY_ENV", "POSREAL_MAX_MEMORY"),
    ("WORK_ENV", "POSREAL_MAX_WORK"), ("FLOAT_BYTES", 8), ("FRACTION_BYTES", 160),
])
def test_documented_limits(name, value):
    """The figures of the docs' Limits section (and of the byte-size comments)."""
    assert getattr(resources, name) == value


# --------------------------------------------------------------------------- bad
def test_bad_builds_one_line_error_without_raising():
    err = bad("seed", "x1", "an integer")
    assert type(err) is SpecError and str(err) == "invalid seed 'x1'; accepted: an integer"
    long = "q" * 100
    assert str(bad("spec", long, "short ones")) == \
        "invalid spec '" + "q" * 80 + "'… (100 characters); accepted: short ones"
    assert issubclass(ResourceError, SpecError)


# --------------------------------------------------------------------------- parse_int
def test_parse_int_range_ends_are_inclusive():
    accepted = "an integer from 3 to 7 (ASCII digits)"
    assert parse_int("3", "n", 3, 7) == 3 and parse_int("7", "n", 3, 7) == 7
    _raises(SpecError, f"invalid n '2'; accepted: {accepted}", parse_int, "2", "n", 3, 7)
    _raises(SpecError, f"invalid n '8'; accepted: {accepted}", parse_int, "8", "n", 3, 7)


def test_parse_int_negative_range():
    assert parse_int("-5", "shift", -5, 5) == -5 and parse_int("-0", "shift", -5, 5) == 0
    _raises(SpecError, "invalid shift '-6'; accepted: an integer from -5 to 5 (ASCII digits)",
            parse_int, "-6", "shift", -5, 5)


def test_parse_int_default_range_is_zero_to_max_spec_int():
    top = 10 ** 9
    assert parse_int(str(top), "c") == top and parse_int("0", "c") == 0
    accepted = f"an integer from 0 to {top} (ASCII digits)"
    _raises(SpecError, f"invalid c '{top + 1}'; accepted: {accepted}", parse_int, str(top + 1), "c")
    _raises(SpecError, f"invalid c '-1'; accepted: {accepted}", parse_int, "-1", "c")


def test_parse_int_digit_count_limit_is_twelve():
    """12 digits pass whatever their value, 13 are refused even when the value is small."""
    hi = 10 ** 13
    assert parse_int("9" * 12, "n", 0, hi) == 10 ** 12 - 1
    assert parse_int("-" + "9" * 12, "n", -hi, hi) == -(10 ** 12 - 1)
    assert parse_int("0" * 11 + "1", "n", 0, hi) == 1
    accepted = f"an integer from 0 to {hi} (ASCII digits)"
    _raises(SpecError, f"invalid n '{'0' * 12 + '1'}'; accepted: {accepted}", parse_int, "0" * 12 + "1", "n", 0, hi)
    _raises(SpecError, f"invalid n '{'-' + '1' * 13}'; accepted: an integer from {-hi} to {hi} (ASCII digits)",
            parse_int, "-" + "1" * 13, "n", -hi, hi)


@pytest.mark.parametrize("text", ["", "-", "--5", "+5", " 5", "5 ", "1_0", "0x1", "1e3", "\u0663", "\uff15", "5\n"])
def test_parse_int_refuses_everything_but_ascii_digits(text):
    _raises(SpecError, f"invalid n {text!r}; accepted: an integer from 0 to 99 (ASCII digits)",
            parse_int, text, "n", 0, 99)


def test_parse_int_refuses_non_strings_in_range():
    _raises(SpecError, "invalid n 7; accepted: an integer from 0 to 9 (ASCII digits)", parse_int, 7, "n", 0, 9)
    _raises(SpecError, "invalid n None; accepted: an integer from 0 to 9 (ASCII digits)", parse_int, None, "n", 0, 9)


# --------------------------------------------------------------------------- parse_number
def test_parse_number_open_lower_end():
    _raises(SpecError, "invalid tau '0'; accepted: a number > 0 and <= 1", parse_number, "0", "tau", 0, 1)
    _raises(SpecError, "invalid tau '-0.0'; accepted: a number > 0 and <= 1", parse_number, "-0.0", "tau", 0, 1)
    assert parse_number("1e-300", "tau", 0, 1) == 1e-300


def test_parse_number_closed_lower_end():
    assert parse_number("0", "tau", 0, 1, low_open=False) == 0.0
    assert parse_number("0.5", "tau", 0.5, 1, low_open=False) == 0.5
    _raises(SpecError, "invalid tau '0.4999'; accepted: a number >= 0.5 and <= 1",
            parse_number, "0.4999", "tau", 0.5, 1, low_open=False)


def test_parse_number_upper_end_is_closed():
    assert parse_number("1", "tau", 0, 1) == 1.0 and parse_number("2.5e-1", "tau", 0, 1) == 0.25
    _raises(SpecError, "invalid tau '1.000001'; accepted: a number > 0 and <= 1", parse_number, "1.000001", "tau", 0, 1)
    _raises(SpecError, "invalid x '1.1e18'; accepted: a number > 0.5 and <= 1e+18",
            parse_number, "1.1e18", "x", 0.5, 1e18)


def test_parse_number_at_most_forty_characters():
    forty = "0." + "0" * 37 + "1"
    assert len(forty) == 40 and parse_number(forty, "eps", 0, 1) == 1e-38
    longer = "0." + "0" * 38 + "1"
    _raises(SpecError, f"invalid eps '{longer}'; accepted: a number > 0 and <= 1", parse_number, longer, "eps", 0, 1)


@pytest.mark.parametrize("text", ["abc", "", "nan", "inf", "-inf", "1_0", "\uff15", "\u0663", "1,5"])
def test_parse_number_refuses_non_finite_or_non_ascii(text):
    _raises(SpecError, f"invalid t {text!r}; accepted: a number > 0 and <= 10", parse_number, text, "t", 0, 10)


def test_parse_number_refuses_non_strings():
    _raises(SpecError, "invalid t 5; accepted: a number >= 0 and <= 10", parse_number, 5, "t", 0, 10, low_open=False)


# --------------------------------------------------------------------------- dual prefixes and specs
@pytest.mark.parametrize("spec, depth", [
    ("relbias", 0), ("dual:relbias", 1), ("dual:dual:rope:4", 2), ("dual:", 1), ("dual:dual:", 2),
    ("dualx:relbias", 0), (" dual:relbias", 0), ("dual:" * 70 + "x", 70), ("", 0),
])
def test_dual_depth_counts_leading_prefixes(spec, depth):
    assert dual_depth(spec) == depth


def test_strip_duals_boundary():
    assert strip_duals("relbias") == (0, "relbias")
    assert strip_duals("dual:dual:abssin:4") == (2, "abssin:4")
    assert strip_duals("dual:" * 64 + "relbias") == (64, "relbias")
    deep = "dual:" * 65 + "relbias"
    _raises(SpecError, f"invalid spec {_quoted(deep)}; accepted: at most 64 nested dual: prefixes", strip_duals, deep)


def test_check_spec_length_boundary():
    assert check_spec("  relbias \n", "PE", "forms") == "relbias"
    assert check_spec("a" * 512, "PE", "forms") == "a" * 512
    long = "a" * 513
    _raises(SpecError, f"invalid PE {_quoted(long)}; accepted: forms (at most 512 characters)",
            check_spec, long, "PE", "forms")
    padded = " " * 500 + "x" * 13                                  # length counted before stripping
    _raises(SpecError, f"invalid PE {_quoted(padded)}; accepted: forms (at most 512 characters)",
            check_spec, padded, "PE", "forms")


def test_check_spec_refuses_non_strings():
    _raises(SpecError, "invalid task 5; accepted: offset:c (at most 512 characters)", check_spec, 5, "task", "offset:c")


def test_check_spec_dual_depth_boundary():
    assert check_spec("dual:" * 64 + "x", "PE", "forms") == "dual:" * 64 + "x"
    deep = " " + "dual:" * 65 + "x"                                # depth counted after stripping
    _raises(SpecError, f"invalid PE {_quoted(deep)}; accepted: forms, with at most 64 nested dual: prefixes",
            check_spec, deep, "PE", "forms")


# --------------------------------------------------------------------------- parse_size
@pytest.mark.parametrize("text, size", [
    ("512", 512), ("1", 1), ("1B", 1), ("7b", 7), ("1K", KIB), ("1k", KIB), ("2KiB", 2 * KIB), ("2KB", 2 * KIB),
    ("3M", 3 * MIB), ("3mib", 3 * MIB), ("4G", 4 * GIB), ("2GiB", 2 * GIB), (" 4 G ", 4 * GIB), ("1T", TIB),
    ("1.5K", KIB + KIB // 2), ("0.5M", MIB // 2), ("2.5", 2),
])
def test_parse_size_units(text, size):
    assert parse_size(text) == size


def test_parse_size_upper_bound_is_one_pebibyte():
    assert parse_size("1024T") == 2 ** 50 and parse_size(str(2 ** 50)) == 2 ** 50
    for text in ("1025T", str(2 ** 50 + 1), "1P"):
        _raises(SpecError, f"invalid memory size {text!r}; accepted: {SIZE_ACCEPTED}", parse_size, text)
    # the accepted text names the largest size in a unit that parses (it said "1P", which has no unit)
    top = SIZE_ACCEPTED.rsplit("at most ", 1)[1]
    assert parse_size(top) == 2 ** 50


@pytest.mark.parametrize("text", ["0", "0.5", "0.99", "0K"])
def test_parse_size_refuses_less_than_one_byte(text):
    _raises(SpecError, f"invalid memory size {text!r}; accepted: {SIZE_ACCEPTED}", parse_size, text)


def test_parse_size_text_length_boundary():
    assert parse_size(" " * 31 + "1") == 1                          # 32 characters, counted before stripping
    text = " " * 32 + "1"
    _raises(SpecError, f"invalid memory size {text!r}; accepted: {SIZE_ACCEPTED}", parse_size, text)


@pytest.mark.parametrize("text", ["", "G", "-1", "4 GG", "1e3", "4,5G", "4X", "\uff14G"])
def test_parse_size_refuses_other_forms(text):
    _raises(SpecError, f"invalid cache size {text!r}; accepted: {SIZE_ACCEPTED}", parse_size, text, "cache size")


def test_parse_size_refuses_non_strings():
    _raises(SpecError, f"invalid memory size 4096; accepted: {SIZE_ACCEPTED}", parse_size, 4096)


# --------------------------------------------------------------------------- budget, configure, max_work
def test_budget_default():
    assert budget() == Budget(4 * GIB, "the default")


def test_budget_from_environment(monkeypatch):
    monkeypatch.setenv("POSREAL_MAX_MEMORY", "16G")
    assert budget() == Budget(16 * GIB, "POSREAL_MAX_MEMORY")
    monkeypatch.setenv("POSREAL_MAX_MEMORY", "")                    # set but empty: the default
    assert budget() == Budget(4 * GIB, "the default")


def test_budget_environment_error_names_the_variable(monkeypatch):
    monkeypatch.setenv("POSREAL_MAX_MEMORY", "16X")
    _raises(SpecError, f"invalid environment variable POSREAL_MAX_MEMORY '16X'; accepted: {SIZE_ACCEPTED}", budget)


def test_configure_overrides_environment_and_none_restores(monkeypatch):
    monkeypatch.setenv("POSREAL_MAX_MEMORY", "1K")
    configure(123)
    assert budget() == Budget(123, "--max-memory")
    configure(None)
    assert budget() == Budget(KIB, "POSREAL_MAX_MEMORY")


def test_max_work_default_and_environment(monkeypatch):
    assert max_work() == 10 ** 13
    monkeypatch.setenv("POSREAL_MAX_WORK", "")
    assert max_work() == 10 ** 13
    monkeypatch.setenv("POSREAL_MAX_WORK", "1e18")                  # the upper end is accepted
    assert max_work() == 10 ** 18
    monkeypatch.setenv("POSREAL_MAX_WORK", "2.9")                   # floating-point operations: truncated
    assert max_work() == 2
    monkeypatch.setenv("POSREAL_MAX_WORK", "1")                     # the lower end is accepted
    assert max_work() == 1


@pytest.mark.parametrize("text", ["0", "0.5", "0.999", "1.5e18", "-5", "lots", "nan"])
def test_max_work_environment_error_names_the_variable(monkeypatch, text):
    """Below one operation is refused: 0.5 passed before and truncated to a budget of 0, which refuses all work."""
    monkeypatch.setenv("POSREAL_MAX_WORK", text)
    _raises(SpecError, f"invalid environment variable POSREAL_MAX_WORK {text!r}; accepted: a number >= 1 and <= 1e+18",
            max_work)


# --------------------------------------------------------------------------- human, require
@pytest.mark.parametrize("size, text", [
    (0, "0 B"), (1, "1 B"), (KIB - 1, "1023 B"), (KIB - 0.5, "1023 B"), (KIB, "1 KiB"), (KIB + KIB // 2, "1.5 KiB"),
    (MIB, "1 MiB"), (3.5 * MIB, "3.5 MiB"), (MIB + MIB // 8, "1.12 MiB"), (5 * GIB, "5 GiB"),
    (2.25 * GIB, "2.25 GiB"), (TIB, "1 TiB"), (7 * TIB, "7 TiB"), (int(12.5 * TIB), "12.5 TiB"),
    # from 100 of a unit on, whole numbers (never an exponent such as 1e+03 or 1.02e+03)
    (99.5 * MIB, "99.5 MiB"), (100 * MIB, "100 MiB"), (1000 * MIB, "1000 MiB"), (KIB * KIB - 1, "1024 KiB"),
    (3072 * TIB, "3072 TiB"),
])
def test_human_units_and_three_significant_digits(size, text):
    assert human(size) == text


def test_require_memory_limit_is_inclusive():
    configure(1000)
    require(Estimate(1000, "cell X"))
    _raises(ResourceError, "refused: cell X would need about 1001 B of memory, above the budget of 1000 B "
            "(--max-memory); accepted: smaller arguments, or raise the budget with 'posreal --max-memory SIZE ...' "
            "or POSREAL_MAX_MEMORY=SIZE", require, Estimate(1001, "cell X"))


def test_require_names_the_default_budget():
    require(Estimate(4 * GIB, "big"))
    _raises(ResourceError, "refused: big would need about 5 GiB of memory, above the budget of 4 GiB (the default); "
            "accepted: smaller arguments, or raise the budget with 'posreal --max-memory SIZE ...' or "
            "POSREAL_MAX_MEMORY=SIZE", require, Estimate(5 * GIB, "big"))


def test_require_names_the_environment_budget(monkeypatch):
    monkeypatch.setenv("POSREAL_MAX_MEMORY", "1K")
    _raises(ResourceError, "refused: t would need about 1.5 KiB of memory, above the budget of 1 KiB "
            "(POSREAL_MAX_MEMORY); accepted: smaller arguments, or raise the budget with "
            "'posreal --max-memory SIZE ...' or POSREAL_MAX_MEMORY=SIZE", require, Estimate(KIB + KIB // 2, "t"))


def test_require_work_limit_is_inclusive(monkeypatch):
    monkeypatch.setenv("POSREAL_MAX_WORK", "2000")
    require(Estimate(0, "w", 2000))
    _raises(ResourceError, "refused: w would need about 2.5e+03 floating-point operations, above the budget of "
            "2e+03; accepted: smaller arguments, or raise the budget with POSREAL_MAX_WORK=N",
            require, Estimate(0, "w", 2500))


def test_require_checks_work_before_memory():
    require(Estimate(0, "w", 10 ** 13))
    _raises(ResourceError, "refused: both would need about 3e+13 floating-point operations, above the budget of "
            "1e+13; accepted: smaller arguments, or raise the budget with POSREAL_MAX_WORK=N",
            require, Estimate(5 * GIB, "both", 3 * 10 ** 13))


def test_estimate_work_defaults_to_zero():
    assert Estimate(5, "x").work == 0


# --------------------------------------------------------------------------- estimates
@pytest.mark.parametrize("rows", [[(1, 0), (2, 0), (3, 1)], [(7, 3)], [(4, 4), (9, 0), (2, 1)], []])
def test_training_pairs_counts_j_le_i_except_the_target(rows):
    """Row i, target t ≤ i: one difference per key j ∈ {0..i}, j ≠ t."""
    assert training_pairs(rows) == sum(len([j for j in range(i + 1) if j != t]) for i, t in rows)


def _sel(label, pairs, dim):
    return f"{label}: the selection's {pairs} training differences × p = {dim}"


def _tr(label, length):
    return f"{label}: the transfer to L = {length}"


@pytest.mark.parametrize("args, memory, what", [
    # profile: selection 4·pairs·p·scalar, transfer L·(p + 16)·scalar at the largest L
    (("a", 3, "profile", 7, [5, 40, 12]), 4 * 7 * 3 * 8 + 40 * (3 + 16) * 8, _tr("a", 40)),
    (("b", 2, "profile", 100, [9], True), 4 * 100 * 2 * 160 + 9 * (2 + 16) * 160, _sel("b", 100, 2)),
    (("c", 0, "profile", 2, [3]), 4 * 2 * 1 * 8 + 3 * (1 + 16) * 8, _tr("c", 3)),              # p counted as 1
    (("d", 3, "anything", 7, [40]), 4 * 7 * 3 * 8 + 40 * (3 + 16) * 8, _tr("d", 40)),          # the default kernel
    # bilinear: width ⌊√p⌋ (at least 1): 4·L·width·8 + 256·L·3·8, float whatever the scalar
    (("e", 15, "bilinear", 2, [10]), 4 * 2 * 15 * 8 + 4 * 10 * 3 * 8 + 256 * 10 * 3 * 8, _tr("e", 10)),
    (("f", 16, "bilinear", 1, [3, 2]), 4 * 1 * 16 * 8 + 4 * 3 * 4 * 8 + 256 * 3 * 3 * 8, _tr("f", 3)),
    (("g", 9, "bilinear", 50, [2], True), 4 * 50 * 9 * 160 + 4 * 2 * 3 * 8 + 256 * 2 * 3 * 8, _sel("g", 50, 9)),
    (("h", 0, "bilinear", 1, [5]), 4 * 1 * 1 * 8 + 4 * 5 * 1 * 8 + 256 * 5 * 3 * 8, _tr("h", 5)),
    # dense: L²·(scalar + 2·8)
    (("i", 2, "dense", 3, [7, 11]), 4 * 3 * 2 * 8 + 11 * 11 * (8 + 16), _tr("i", 11)),
    (("j", 5, "dense", 1, [4], True), 4 * 1 * 5 * 160 + 4 * 4 * (160 + 16), _sel("j", 1, 5)),
    (("k", 1, "dense", 2, [30], True), 4 * 2 * 1 * 160 + 30 * 30 * (160 + 16), _tr("k", 30)),
    # no lengths: no transfer
    (("l", 3, "dense", 5, []), 4 * 5 * 3 * 8, _sel("l", 5, 3)),
    (("m", 4, "bilinear", 5, []), 4 * 5 * 4 * 8, _sel("m", 5, 4)),
    (("n", 4, "profile", 5, []), 4 * 5 * 4 * 8, _sel("n", 5, 4)),
])
def test_cell_estimate_formulas(args, memory, what):
    assert cell_estimate(*args) == Estimate(memory, what, 0)



# Exists because a mutant survived: the blocked kernel's memory (a block of ψ rows) was never estimated in a test.
def test_cell_estimate_of_a_blocked_kernel():
    """blocked: 4 · 2²⁰ floats for one block of ψ rows, plus L · (p + 16) scalars — not the profile formula."""
    block = 4 * 2 ** 20 * 8
    assert cell_estimate("fire", 3, "blocked", 7, [5, 40]) == Estimate(4 * 7 * 3 * 8 + block + 40 * 19 * 8,
                                                                       _tr("fire", 40), 0)
    assert cell_estimate("q", 2, "blocked", 9, [6], True) == Estimate(4 * 9 * 2 * 160 + block + 6 * 18 * 160,
                                                                      _tr("q", 6), 0)


def test_cell_estimate_tie_is_described_as_the_selection():
    """profile, p = 4, float: selection 4·5·4·8 = 640 = transfer 4·(4 + 16)·8; one more pair or length tips it."""
    assert cell_estimate("t", 4, "profile", 5, [4]) == Estimate(640 + 640, _sel("t", 5, 4))
    assert cell_estimate("t", 4, "profile", 4, [4]).what == _tr("t", 4)
    assert cell_estimate("t", 4, "profile", 5, [5]).what == _tr("t", 5)


@pytest.mark.parametrize("d, L0, lengths, steps, samples", [
    (3, 5, [10, 20], 7, 2),
    (1, 50, [4], 0, 1),                       # the train length is the largest L
    (4, 8, [8, 16, 12], 10, 0),
])
def test_learned_estimate_memory_and_work(d, L0, lengths, steps, samples):
    """memory 8·(4d² + 4Ld + 3L²) at the largest L (train length included);
    work 6·steps·(L0 d² + L0² d) + 2·samples·Σ_L (L d² + L² d)."""
    largest = max([L0, *lengths])
    memory = 8 * (4 * d ** 2 + 4 * largest * d + 3 * largest ** 2)
    work = 6 * steps * (L0 * d ** 2 + L0 ** 2 * d)
    for L in lengths:
        work += 2 * samples * (L * d ** 2 + L ** 2 * d)
    what = (f"cell: the (d, d) block with d = {d}, {steps} training steps, {samples} samples "
            f"and (L, L) kernels up to L = {largest}")
    assert learned_estimate("cell", d, L0, lengths, steps, samples) == Estimate(memory, what, work)


def test_learned_estimate_figures_by_hand():
    """d = 3, L0 = 5, L ∈ {10, 20}, 7 steps, 2 samples: 8·(36 + 240 + 1200) bytes;
    6·7·(45 + 75) + 2·2·((90 + 300) + (180 + 1200)) operations."""
    est = learned_estimate("x", 3, 5, [10, 20], 7, 2)
    assert (est.memory, est.work) == (11808, 5040 + 7080)


@pytest.mark.parametrize("dim, n", [(3, 4), (0, 5), (7, 1), (2, 10)])
def test_ceiling_estimate_one_kilobyte_per_term(dim, n):
    """One z3 term per (key, feature): row i of the n-grid has i keys (i = 1..n), p features (at least 1)."""
    terms = max(dim, 1) * sum(range(1, n + 1))
    expected = Estimate(terms * 1000, f"c: {terms} z3 terms (p = {dim} features on the n = {n} grid)", 0)
    assert ceiling_estimate("c", dim, n) == expected


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


def test_regular_file_size_limit_both_sides(in_tmp):
    with open("f", "wb") as fh:
        fh.write(b"x" * 10)
    assert regular_file("f", "input", 10) == 10
    _raises(SpecError, "invalid input 'f': 10 B; accepted: a file of at most 9 B", regular_file, "f", "input", 9)
    with open("k", "wb") as fh:
        fh.write(b"x" * 2 * KIB)
    assert regular_file("k", "input", 2 * KIB) == 2 * KIB
    _raises(SpecError, "invalid input 'k': 2 KiB; accepted: a file of at most 1 KiB", regular_file, "k", "input", KIB)


def test_regular_file_default_limit_is_64_mib(in_tmp):
    """Sparse files: only their size is looked at."""
    with open("at", "wb") as fh:
        fh.truncate(64 * MIB)
    with open("over", "wb") as fh:
        fh.truncate(64 * MIB + 1)
    assert regular_file("at", "input") == 64 * MIB
    _raises(SpecError, "invalid input 'over': 64 MiB; accepted: a file of at most 64 MiB",
            regular_file, "over", "input")
    _raises(SpecError, "invalid table 'over': 64 MiB; accepted: a file of at most 64 MiB", read_text, "over", "table")


def test_read_text_reads_utf8_up_to_the_limit(in_tmp):
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


def test_load_json_default_depth_limit_both_sides():
    at = "[" * 64 + "]" * 64
    value = load_json(at, "doc")
    for _ in range(63):
        value = value[0]
    assert value == []
    over = "[" * 65 + "]" * 65
    _raises(SpecError, "malformed doc: JSON nested 65 levels deep; accepted: at most 64", load_json, over, "doc")


def test_load_json_given_depth_limit_both_sides():
    assert load_json('{"a": [1]}', "table", max_depth=2) == {"a": [1]}
    _raises(SpecError, "malformed table: JSON nested 3 levels deep; accepted: at most 2",
            load_json, '{"a": [{}]}', "table", max_depth=2)
    _raises(SpecError, "malformed table: JSON nested 1 levels deep; accepted: at most 0", load_json, "[]", "table", 0)


def test_load_json_depth_is_checked_before_parsing():
    _raises(SpecError, "malformed doc: JSON nested 70 levels deep; accepted: at most 64", load_json, "[" * 70, "doc")


def test_load_json_integer_digit_limit():
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


# -------------------------------------------------------- parsers and formatting: boundaries found unguarded
# Exists because a mutant survived: parse_int's refusals could drop what is accepted.
@pytest.mark.parametrize("text", [7, "1x", "9"])
def test_parse_int_error_says_what_is_accepted(text):
    """Each refusal (not a string, not digits, out of range) says which integers are accepted."""
    from posreal.theory.resources import parse_int

    with pytest.raises(SpecError) as err:
        parse_int(text, "count", 0, 5)
    assert str(err.value).startswith("invalid count ")
    assert str(err.value).endswith("; accepted: an integer from 0 to 5 (ASCII digits)")


# Exists because a mutant survived: parse_number could drop the text it cannot read.
def test_parse_number_quotes_text_it_cannot_read():
    from posreal.theory.resources import parse_number

    with pytest.raises(SpecError, match=r"^invalid tolerance 'abc'; accepted: a number > 0 and <= 1$"):
        parse_number("abc", "tolerance", 0, 1)


# Exists because a mutant survived: parse_number could accept '_' separators and non-ASCII digits.
@pytest.mark.parametrize("text", ["1_0", "\u0663"])     # float() reads both: 10.0, and the Arabic-Indic digit 3
def test_parse_number_refuses_separators_and_non_ascii_digits(text):
    from posreal.theory.resources import parse_number

    assert 0 < float(text) <= 100
    with pytest.raises(SpecError, match=r"^invalid step size " + re.escape(repr(text))
                       + r"; accepted: a number > 0 and <= 100$"):
        parse_number(text, "step size", 0, 100)


# Exists because a mutant survived: parse_size at 1 byte and at 0 was unchecked.
def test_parse_size_accepts_one_byte_and_refuses_zero():
    """The documented range is (0, 2**50] bytes: 1 is its smallest size."""
    from posreal.theory.resources import parse_size

    assert parse_size("1") == 1
    assert parse_size("1B") == 1
    with pytest.raises(SpecError, match=r"^invalid memory size '0'; accepted: a size such as"):
        parse_size("0")


# Exists because a mutant survived: the unit written for sizes in KiB was unchecked.
def test_human_names_kibibytes():
    """2048 B = 2 · 2¹⁰ B and 1536 B = 1.5 · 2¹⁰ B, below 2²⁰: written in KiB."""
    assert human(2048) == "2 KiB"
    assert human(1536) == "1.5 KiB"


# Exists because a mutant survived: max_work could ignore POSREAL_MAX_WORK or drop its name.
def test_max_work_reads_its_environment_variable(monkeypatch):
    from posreal.theory.resources import WORK_ENV, max_work

    monkeypatch.setenv(WORK_ENV, "2500")
    assert max_work() == 2500
    monkeypatch.setenv(WORK_ENV, "0")                                 # at least one operation
    with pytest.raises(SpecError, match=rf"^invalid environment variable {WORK_ENV} '0'; accepted: a number >= 1 "):
        max_work()


# --------------------------------------------------------------------------- estimates by hand
# Exists because a mutant survived: cell_estimate's formulas were unchecked.
def test_cell_estimate_formulas_by_hand():
    from posreal.theory.resources import cell_estimate

    # dense, float: selection 4·pairs·p·8 = 4·5·3·8 = 480; transfer L²(8 + 2·8) = 400·24 = 9600
    est = cell_estimate("c", 3, "dense", 5, [10, 20])
    assert est.memory == 480 + 9600 and est.what == "c: the transfer to L = 20"
    # dense, exact: a Fraction is 160 bytes: 4·5·3·160 = 9600; 400·(160 + 16) = 70400
    assert cell_estimate("c", 3, "dense", 5, [20], exact=True).memory == 9600 + 70400
    # bilinear, p = 16 (width 4): 4·L·4·8 + 256·L·3·8 at L = 10, selection 4·5·16·8
    assert cell_estimate("c", 16, "bilinear", 5, [10]).memory == 2560 + 1280 + 61440
    # profile, p = 1: L·(1 + 16)·8 = 1360 at L = 10; selection 4·5·1·8 = 160
    assert cell_estimate("c", 1, "profile", 5, [10]).memory == 160 + 1360
    # no lengths: no transfer, the selection is the largest part
    est = cell_estimate("c", 3, "dense", 5, [])
    assert est.memory == 480 and est.what == "c: the selection's 5 training differences × p = 3"


# Exists because a mutant survived: learned_estimate's work formula was unchecked.
def test_learned_estimate_work_by_hand():
    """work = 6·steps·(L0 d² + L0² d) + 2·samples·Σ_L (L d² + L² d)."""
    from posreal.theory.resources import learned_estimate

    # d = 2, L0 = 4, steps = 1: 6·(16 + 32) = 288; samples = 3, L = 8: 2·3·(32 + 128) = 960
    assert learned_estimate("x", 2, 4, [8], 1, 3).work == 288 + 960


# Exists because a mutant survived: learned_estimate's memory formula was unchecked.
def test_learned_estimate_memory_follows_its_formula():
    """d = 2, L0 = 4, lengths (8,): largest L = 8; W-sized (d, d) ×4, (L, d) ×4 and (L, L) ×3 float64 arrays:
    8 · (4·4 + 4·8·2 + 3·64) = 8 · 272 = 2176 bytes — at least the three (L, L) kernels' real size."""
    from posreal.theory.resources import learned_estimate

    est = learned_estimate("cell", 2, 4, [8], 1, 1)
    assert est.memory == 2176
    assert est.memory >= 3 * np.zeros((8, 8)).nbytes


# --------------------------------------------------------------------------- files and JSON
# Exists because a mutant survived: check_output_file could mention a suffix when none is required.
def test_output_file_errors_say_the_suffix_only_when_there_is_one(tmp_path):
    from posreal.theory.resources import check_output_file

    assert _message(lambda: check_output_file(str(tmp_path))).endswith(
        ": it is a directory; accepted: a writable file path in an existing directory")
    assert _message(lambda: check_output_file(str(tmp_path / "x.txt"), "plot", ".png")).endswith(
        "; accepted: a writable file path in an existing directory, ending in .png")


# Exists because a mutant survived: check_output_directory could name another path than the blocking file.
def test_output_directory_under_a_file_names_the_file(tmp_path):
    """out/sub with ``out`` a regular file: the nearest existing ancestor is ``out``, not a directory."""
    from posreal.theory.resources import check_output_directory

    blocker = tmp_path / "out"
    blocker.write_text("")
    text = str(blocker / "sub")
    message = (f"invalid output directory {quote(text)}: {quote(str(blocker))} is not a directory; "
               "accepted: a writable directory (created if missing)")
    with pytest.raises(SpecError, match=r"^" + re.escape(message) + r"$"):
        check_output_directory(text)


# Exists because a mutant survived: read_text could check another size limit than the one given.
def test_read_text_checks_the_size_limit_it_is_given(tmp_path):
    """A 20-byte file with max_bytes = 10 is refused by the file check, which names its size and the limit."""
    from posreal.theory.resources import read_text

    path = tmp_path / "doc.json"
    path.write_bytes(b"x" * 20)
    assert read_text(str(path), "input", 20) == "x" * 20
    with pytest.raises(SpecError, match=r": 20 B; accepted: a file of at most 10 B$"):
        read_text(str(path), "input", 10)


# Exists because a mutant survived: json_depth could miscount closing brackets.
def test_json_depth_steps_back_one_level_per_closing_bracket():
    """[ [ [ ] , [ [ ] ] ] ]: depths 1, 2, 3, back to 2, then 3, 4: the deepest level is 4."""
    from posreal.theory.resources import json_depth, load_json

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
