"""Contract tests of ``posreal/runtime/resources.py``, message by message:
the parsers and specs: bad, parse_int, parse_number, check_spec, dual prefixes, parse_size, their boundaries.

Expected values and messages are derived in the tests from the documented formulas and message forms
(tests/resources_cases.py holds the shared helpers)."""

from __future__ import annotations

import re

import pytest
from posreal.runtime import resources
from posreal.theory.errors import SpecError
from posreal.runtime.resources import (
    ResourceError,
    bad,
    check_spec,
    dual_depth,
    human,
    max_work,
    parse_int,
    parse_number,
    parse_size,
    strip_duals,
)
from resources_cases import _clean_budget  # noqa: F401  (autouse: no budget from the environment)
from resources_cases import (GIB, KIB, MIB, SIZE_ACCEPTED, TIB, _quoted, _raises)


# --------------------------------------------------------------------------- constants
@pytest.mark.parametrize("name, value", [
    ("MAX_SPEC_CHARS", 512), ("MAX_DUAL_DEPTH", 64), ("MAX_SPEC_INT", 10 ** 9), ("MAX_LENGTH", 10 ** 7),
    ("MAX_LENGTHS", 256), ("MAX_STEPS", 10 ** 6), ("MAX_SAMPLES", 10 ** 5), ("MAX_INSTANCES", 10 ** 7),
    ("MAX_JOBS", 256), ("MAX_SEED", 2 ** 32 - 1), ("MAX_SECONDS", 10 ** 6), ("MAX_PATH_COMPONENT", 255),
    ("MAX_FILE_BYTES", 64 * MIB), ("MAX_RECORDS_BYTES", GIB), ("MAX_JSON_DEPTH", 64), ("MAX_JSON_INT_DIGITS", 400),
    ("DEFAULT_MAX_MEMORY", 4 * GIB), ("DEFAULT_MAX_WORK", 10 ** 13), ("MEMORY_ENV", "POSREAL_MAX_MEMORY"),
    ("WORK_ENV", "POSREAL_MAX_WORK"), ("FLOAT_BYTES", 8), ("FRACTION_BYTES", 160),
])
def test_documented_bounds(name, value):
    """The figures of the docs' Bounds section (and of the byte-size comments)."""
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


def test_parse_int_digit_count_bound_is_twelve():
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


# -------------------------------------------------------- parsers and formatting: boundaries found unguarded
# Exists because a mutant survived: parse_int's refusals could drop what is accepted.
@pytest.mark.parametrize("text", [7, "1x", "9"])
def test_parse_int_error_says_what_is_accepted(text):
    """Each refusal (not a string, not digits, out of range) says which integers are accepted."""
    from posreal.runtime.resources import parse_int

    with pytest.raises(SpecError) as err:
        parse_int(text, "count", 0, 5)
    assert str(err.value).startswith("invalid count ")
    assert str(err.value).endswith("; accepted: an integer from 0 to 5 (ASCII digits)")


# Exists because a mutant survived: parse_number could drop the text it cannot read.
def test_parse_number_quotes_text_it_cannot_read():
    from posreal.runtime.resources import parse_number

    with pytest.raises(SpecError, match=r"^invalid tolerance 'abc'; accepted: a number > 0 and <= 1$"):
        parse_number("abc", "tolerance", 0, 1)


# Exists because a mutant survived: parse_number could accept '_' separators and non-ASCII digits.
@pytest.mark.parametrize("text", ["1_0", "\u0663"])     # float() reads both: 10.0, and the Arabic-Indic digit 3
def test_parse_number_refuses_separators_and_non_ascii_digits(text):
    from posreal.runtime.resources import parse_number

    assert 0 < float(text) <= 100
    with pytest.raises(SpecError, match=r"^invalid step size " + re.escape(repr(text))
                       + r"; accepted: a number > 0 and <= 100$"):
        parse_number(text, "step size", 0, 100)


# Exists because a mutant survived: parse_size at 1 byte and at 0 was unchecked.
def test_parse_size_accepts_one_byte_and_refuses_zero():
    """The documented range is (0, 2**50] bytes: 1 is its smallest size."""
    from posreal.runtime.resources import parse_size

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
    from posreal.runtime.resources import WORK_ENV

    monkeypatch.setenv(WORK_ENV, "2500")
    assert max_work() == 2500
    monkeypatch.setenv(WORK_ENV, "0")                                 # at least one operation
    with pytest.raises(SpecError, match=rf"^invalid environment variable {WORK_ENV} '0'; accepted: a number >= 1 "):
        max_work()
