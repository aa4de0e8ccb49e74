"""Contract of the spec parsers and feature tables: complete error messages, limits, rows and dims.

Pinned here (every expected message is written out in full, ``^...$``, from the format the
errors module documents: ``invalid WHAT REPR; accepted: FORMS``):

* :func:`posreal.theory.encodings.parse_pe` — every refusal (non-string, ``learned:d``,
  ``dual:learned:d``, unknown names, bad integers, odd widths, bad bases, spec length, shear
  depth) and its limits: integer parameters 0..10⁹ (``rope``/``abscol``/``abssin`` from 2),
  at most 12 digits, specs of at most 512 characters, at most 64 nested ``dual:`` prefixes,
  base > 1 (docs/cli.md, section "Bounds");
* :func:`~posreal.theory.encodings.parse_learned` (d from 1 to 10⁹) and
  :func:`~posreal.theory.encodings.build_table` / ``register_pe`` (kind, shape, entries,
  finiteness, reserved names);
* the encodings' ``dim`` for every registry PE at two train lengths, a few feature values,
  ``check_length`` (limit accepted, one beyond refused, with the reason) and the irrational
  exact-mode refusal;
* :func:`posreal.theory.tasks.parse_task` — every refusal and the integer limits — and
  ``rows_and_targets`` of every task kind (and a shear) at two lengths
  (definitions.md#positional-task);
* :mod:`posreal.theory.tables` (definitions.md#feature-tables) — ``parse_document`` /
  ``parse_entry`` messages, the entry-count limit (at the limit and one beyond), the 64-digit
  numerator/denominator limit, and ``load_table``'s file refusals.
"""

from __future__ import annotations

import json
import re
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest
from posreal.theory import tables
from posreal.theory.pe_specs import LEARNED_API, LearnedAbsolute, PE_FORMS, parse_learned, parse_pe
from posreal.theory.encodings import MAX_BLOCKED_LENGTH, MAX_PROFILE_LENGTH
from posreal.theory.tables import build_table, register_pe, unregister_pe
from posreal.theory.errors import SpecError
from posreal.theory.tables import parse_document
from posreal.theory.tasks import TASK_FORMS, parse_task
from certificate_edits import message as _message

BILLION = 10 ** 9
FORM = ('a JSON object {"kind": "relative" | "column" | "general", "rows": [...]} whose entries are '
        'numbers or rational strings such as "-1/3"')


def refused(call, message: str) -> None:
    """``call()`` raises SpecError whose message is exactly ``message``."""
    with pytest.raises(SpecError, match=r"^" + re.escape(message) + r"$"):
        call()


def pe_msg(spec: object, accepted: str) -> str:
    return f"invalid PE {spec!r}; accepted: {accepted}"


def long_repr(text: str) -> str:
    """The documented quote of a long value: repr of its first 80 characters, then its size."""
    return repr(text[:80]) + f"… ({len(text)} characters)"


# --------------------------------------------------------------------------- parse_pe refusals
@pytest.mark.parametrize("spec", ["foo", "nope:1", "alibi:2", "relbias:1:2", "colbias:3:4", "rope",
                                  "abscol", "abssin:4:10:2", "rope:4:abc", "rope:4:1_0", "abscol:4:" + "1" * 41,
                                  "dual:foo", ""])
def test_parse_pe_unknown_forms(spec):
    refused(lambda: parse_pe(spec), pe_msg(spec, PE_FORMS))


def test_parse_pe_not_a_string():
    refused(lambda: parse_pe(5), pe_msg(5, PE_FORMS))  # type: ignore[arg-type]
    refused(lambda: parse_pe(None), pe_msg(None, PE_FORMS))  # type: ignore[arg-type]


@pytest.mark.parametrize("spec", ["learned:4", " learned:4 ", LearnedAbsolute(4)])
def test_parse_pe_refuses_learned(spec):
    shown = spec if isinstance(spec, str) else "learned:4"
    accepted = f"a linear PE here; learned:d is not linear (its α_L is an interval): use {LEARNED_API}"
    refused(lambda: parse_pe(spec), pe_msg(shown, accepted))  # type: ignore[arg-type]


def test_parse_pe_refuses_dual_of_learned():
    refused(lambda: parse_pe("dual:dual:learned:3"),
            pe_msg("dual:dual:learned:3", "the shear dual:P of a linear PE P (learned:d is not linear)"))


@pytest.mark.parametrize("spec", ["relbias:x", "colbias:-1", "relbias:1.0", "rope:٤", "abscol:+4",
                                  "relbias:" + "1" * 13, "rope:" + "0" * 12 + "4"])
def test_parse_pe_integer_not_ascii_digits(spec):
    refused(lambda: parse_pe(spec), pe_msg(spec, f"{PE_FORMS}; integer parameters in ASCII digits"))


def test_parse_pe_integer_bounds():
    # D from 0 to 10^9, 12 digits at most
    assert parse_pe("relbias:0").dim(5) == 1
    assert parse_pe("colbias:" + "0" * 11 + "7").dim(5) == 8        # 12 digits: accepted
    assert parse_pe(f"relbias:{BILLION}").dim(5) == BILLION + 1
    spec = f"relbias:{BILLION + 1}"
    refused(lambda: parse_pe(spec), pe_msg(spec, f"{PE_FORMS}; integer parameters from 0 to {BILLION}"))
    # widths from 2 (even) to 10^9
    assert parse_pe("rope:2").dim(3) == 2
    assert parse_pe(f"abscol:{BILLION}").dim(3) == BILLION
    for spec in ("rope:0", "abssin:1", f"abscol:{BILLION + 2}"):
        refused(lambda spec=spec: parse_pe(spec), pe_msg(spec, f"{PE_FORMS}; integer parameters from 2 to {BILLION}"))


@pytest.mark.parametrize("spec,d", [("rope:3", 3), ("abscol:5", 5), ("abssin:999999999", 999999999)])
def test_parse_pe_odd_width(spec, d):
    refused(lambda: parse_pe(spec), f"invalid PE {spec!r}: width d={d} is odd; accepted: an even width d >= 2")


@pytest.mark.parametrize("spec,base", [("rope:4:1", "1"), ("abscol:2:1.0", "1.0"), ("abssin:2:0.5", "0.5"),
                                       ("rope:2:-3", "-3"), ("rope:2:inf", "inf"), ("rope:2:nan", "nan")])
def test_parse_pe_base_not_above_one(spec, base):
    refused(lambda: parse_pe(spec), f"invalid PE {spec!r}: base {base!r} must be a number > 1")


def test_parse_pe_base_just_above_one_accepted():
    pe = parse_pe("rope:2:1.0001")
    assert pe.base == 1.0001 and str(pe) == "rope:2:1.0001"  # type: ignore[attr-defined]
    long_base = "1" * 40                   # a base of at most 40 characters (41 refused above)
    assert parse_pe(f"abscol:2:{long_base}").base == float(long_base)  # type: ignore[attr-defined]


def test_spec_length_bound():
    at = "nope" + " " * 508               # 512 characters: accepted (stripped after the length check)
    assert len(at) == 512 and str(parse_pe(at)) == "nope"
    beyond = at + " "
    refused(lambda: parse_pe(beyond), f"invalid PE {long_repr(beyond)}; accepted: {PE_FORMS} (at most 512 characters)")
    task_at = "half" + " " * 508
    assert str(parse_task(task_at)) == "half"
    task_beyond = task_at + " "
    refused(lambda: parse_task(task_beyond),
            f"invalid task {long_repr(task_beyond)}; accepted: {TASK_FORMS} (at most 512 characters)")


def test_dual_depth_bound():
    at = "dual:" * 64 + "alibi"
    assert parse_pe(at) == parse_pe("alibi")            # an even number of shears is the identity
    beyond = "dual:" + at
    refused(lambda: parse_pe(beyond),
            f"invalid PE {long_repr(beyond)}; accepted: {PE_FORMS}, with at most 64 nested dual: prefixes")
    task_at = "dual:" * 64 + "copy"
    assert parse_task(task_at) == parse_task("copy")
    task_beyond = "dual:" + task_at
    refused(lambda: parse_task(task_beyond),
            f"invalid task {long_repr(task_beyond)}; accepted: {TASK_FORMS}, with at most 64 nested dual: prefixes")


# --------------------------------------------------------------------------- parse_learned
def test_parse_learned_bounds_and_messages():
    assert parse_learned("learned:1") == LearnedAbsolute(1)
    assert parse_learned(f"learned:{BILLION}").d == BILLION
    assert parse_learned("learned:" + "0" * 11 + "3").d == 3
    obj = LearnedAbsolute(2)
    assert parse_learned(obj) is obj
    range_msg = f"learned:d with d in ASCII digits, 1 <= d <= {BILLION}"
    for spec in ("learned:0", f"learned:{BILLION + 1}", "learned:" + "0" * 12 + "3", "learned:x", "learned:"):
        refused(lambda spec=spec: parse_learned(spec), f"invalid learned PE {spec!r}; accepted: {range_msg}")
    form_msg = "learned:d with an integer d >= 1 (linear PEs go through parse_pe)"
    for spec in ("learned", "rope:4", "learned:2:3"):
        refused(lambda spec=spec: parse_learned(spec), f"invalid learned PE {spec!r}; accepted: {form_msg}")
    refused(lambda: parse_learned(7),  # type: ignore[arg-type]
            "invalid learned PE 7; accepted: learned:d with an integer d >= 1")


# --------------------------------------------------------------------------- dims and features
@pytest.mark.parametrize("spec,dims", [
    # (spec, (dim at L0 = 4, dim at L0 = 9)); relbias/colbias: D = L0 - 1 buckets 0..D
    ("nope", (0, 0)), ("relbias", (4, 9)), ("colbias", (4, 9)), ("relbias:2", (3, 3)),
    ("alibi", (1, 1)), ("rope:16", (16, 16)), ("abscol:16", (16, 16)),
    ("abssin:16", (256, 256)),                # vec of a d×d matrix
    ("dual:colbias", (4, 9)), ("dual:abssin:4", (16, 16)),
])
def test_registry_dims(spec, dims):
    pe = parse_pe(spec)
    assert (pe.dim(4), pe.dim(9)) == dims


def test_bucket_default_needs_a_train_length():
    assert parse_pe("relbias").dim(1) == 1
    for bad in (0, -2):
        refused(lambda bad=bad: parse_pe("colbias").dim(bad),
                f"invalid train length {bad!r}; accepted: an integer >= 1")
    assert parse_pe("relbias:3").dim(0) == 4          # an explicit D needs no train length


def test_feature_values():
    keys = np.array([0, 1, 2, 5])
    # one-hot of min(k, D), D = L0 - 1 = 2
    np.testing.assert_array_equal(parse_pe("relbias").index_features(keys, keys, 3),
                                  [[1, 0, 0], [0, 1, 0], [0, 0, 1], [0, 0, 1]])
    np.testing.assert_array_equal(parse_pe("alibi").index_features(keys, keys, 3), [[0], [-1], [-2], [-5]])
    # d = 2: one frequency ω_0 = 1; rope is [cos k, sin k], abscol [sin k, cos k]
    k = keys.astype(float)
    np.testing.assert_allclose(parse_pe("rope:2").index_features(keys, keys, 3), np.c_[np.cos(k), np.sin(k)])
    np.testing.assert_allclose(parse_pe("abscol:2").index_features(keys, keys, 3), np.c_[np.sin(k), np.cos(k)])
    # d = 4, base 100: ω = (1, 100^(-1/2))
    w = 0.1
    np.testing.assert_allclose(parse_pe("rope:4:100").index_features(keys, keys, 3),
                               np.c_[np.cos(k), np.cos(w * k), np.sin(k), np.sin(w * k)])
    # abssin:2: ψ(i, k) = vec(φ(i) φ(k)ᵀ), φ(x) = [sin x, cos x]
    i, j = np.array([3]), np.array([1])
    si, ci, sk, ck = np.sin(3.0), np.cos(3.0), np.sin(1.0), np.cos(1.0)
    np.testing.assert_allclose(parse_pe("abssin:2").pair_features(i, j, 4), [[si * sk, si * ck, ci * sk, ci * ck]])


def test_check_length_bounds():
    relbias, abssin = parse_pe("relbias"), parse_pe("dual:abssin:2")
    relbias.check_length(MAX_PROFILE_LENGTH, 4)
    refused(lambda: relbias.check_length(MAX_PROFILE_LENGTH + 1, 4),
            f"invalid length {MAX_PROFILE_LENGTH + 1} for PE 'relbias'; accepted: "
            f"lengths up to {MAX_PROFILE_LENGTH} (larger grids do not fit in memory/time)")
    abssin.check_length(MAX_BLOCKED_LENGTH, 4)
    refused(lambda: abssin.check_length(MAX_BLOCKED_LENGTH + 1, 4),
            f"invalid length {MAX_BLOCKED_LENGTH + 1} for PE 'dual:abssin:2'; accepted: "
            f"lengths up to {MAX_BLOCKED_LENGTH} (larger grids do not fit in memory/time)")
    assert MAX_PROFILE_LENGTH == 2 ** 24 and MAX_BLOCKED_LENGTH == 2 ** 15
    table = build_table("tab", [[1], [2], [3]])
    table.check_length(3, 2)
    refused(lambda: table.check_length(4, 2), "invalid length 4 for PE 'tab'; accepted: "
            "lengths up to 3 (the feature table defines ψ on 3 positions only)")


def test_exact_mode_refuses_irrational_features():
    msg = ("PE {!r} has irrational features; exact mode accepts "
           "relbias, colbias, alibi, nope, rational user tables and their duals")
    refused(lambda: parse_pe("rope:2").exact_index_features([1], [0], 2), msg.format("rope:2"))
    # the shear delegates to its base, whose features these are: the message names the base
    refused(lambda: parse_pe("dual:abssin:2").exact_index_features([1], [0], 2), msg.format("abssin:2"))
    refused(lambda: build_table("fl", [[0.5]]).exact_index_features([0], [0], 1), msg.format("fl"))
    assert parse_pe("alibi").exact_index_features([3], [2], 4) == [(Fraction(-2),)]


def test_exact_transfer_refuses_an_irrational_pe_naming_the_spec_given():
    """T_L θ and θ* in ℚ of a shear of an irrational PE are refused naming the shear, not its base."""
    from posreal.theory.transfer_operator import exact_transfer
    from posreal.theory.selection import select

    msg = ("PE {!r} has irrational features; exact mode accepts "
           "relbias, colbias, alibi, nope, rational user tables and their duals")
    for spec in ("abssin:2", "dual:abssin:2", "dual:rope:4"):
        pe = parse_pe(spec)
        refused(lambda pe=pe: exact_transfer(pe, [Fraction(0)] * pe.dim(4), 8, 4), msg.format(spec))
        refused(lambda pe=pe: select(pe, "copy", 4, mode="exact"), msg.format(spec))    # θ* in ℚ likewise
    assert exact_transfer("dual:alibi", [Fraction(1)], 3, 2).matrix()[2][0] == 0   # ψ_S(2, 0) = ψ(2, 2) = 0


# --------------------------------------------------------------------------- build_table / register_pe
def test_build_table_kind_and_shape():
    refused(lambda: build_table("t", [[1]], "diagonal"),
            "invalid table kind 'diagonal'; accepted: relative, column, general")
    shape_form = "(N, p) for relative/column tables, (N, N, p) for general ones, N >= 1, p >= 1"
    for table, kind, shape in [([], "relative", (0,)), ([[]], "column", (1, 0)), ([1, 2], "relative", (2,)),
                               ([[1], [2, 3]], "relative", (2,)), ([[[1]], [[2]]], "general", (2, 1, 1)),
                               ([[1]], "general", (1, 1)), ([[[1]]], "relative", (1, 1, 1))]:
        refused(lambda table=table, kind=kind: build_table("t", table, kind),
                f"invalid feature table shape {shape!r}; accepted: {shape_form}")
    assert build_table("t", [[[1]]], "general").dim(1) == 1     # N = p = 1: the smallest table


def test_build_table_entries():
    entry_form = "int, Fraction, float numbers or rational strings 'p/q'"
    for bad in (True, None, [1], 1j):
        refused(lambda bad=bad: build_table("t", [[0, bad]]),
                f"invalid feature table entry [0][1] {bad!r}; accepted: {entry_form}")
    for bad in (float("inf"), float("nan")):
        refused(lambda bad=bad: build_table("my_tab", [[0], [bad]]),
                "invalid feature table 'my_tab'; accepted: finite numbers")
    # a bad string is named with its position, as any other bad entry (not as a table file's entry)
    refused(lambda: build_table("t", [[1], ["1/0"]]),
            f"invalid feature table entry [1][0] '1/0'; accepted: {entry_form}")
    refused(lambda: build_table("t", [[[1, 2], ["1/3", "1/-2"]]] * 2, "general"),
            f"invalid feature table entry [0][1][1] '1/-2'; accepted: {entry_form}")
    enc = build_table("t", [["1/3", 2], [Fraction(1, 2), -1]], "column")
    assert enc.rational and enc.exact_index_features([1, 1], [0, 1], 2) == [
        (Fraction(1, 3), Fraction(2)), (Fraction(1, 2), Fraction(-1))]
    assert not build_table("t", [[0.25]]).rational


def test_register_pe_reserved_names():
    for name in ("nope", "table", "dual", "learned", "not-an-identifier", 3):
        refused(lambda name=name: register_pe(name, [[1]]),  # type: ignore[arg-type]
                f"invalid PE name {name!r}; accepted: an identifier that is not a registry name")
    try:
        register_pe("contract_tab", [[1], [0]])
        assert parse_pe("dual:contract_tab").dim(7) == 1
        refused(lambda: parse_pe("contract_tab:1"), pe_msg("contract_tab:1", PE_FORMS))
    finally:
        unregister_pe("contract_tab")


# --------------------------------------------------------------------------- parse_task
@pytest.mark.parametrize("spec", ["foo", "offset", "offset:", "position:", "copy:1", "dual:", "half:2", "Offset:1"])
def test_parse_task_unknown_forms(spec):
    refused(lambda: parse_task(spec), f"invalid task {spec!r}; accepted: {TASK_FORMS}")


def test_parse_task_not_a_string():
    refused(lambda: parse_task(1.5), f"invalid task 1.5; accepted: {TASK_FORMS}")  # type: ignore[arg-type]


def test_parse_task_integer_bounds():
    assert str(parse_task(f"offset:{BILLION}")) == f"offset:{BILLION}"
    assert str(parse_task("position:" + "0" * 11 + "9")) == "position:9"   # 12 digits
    assert str(parse_task("offset:0")) == "offset:0"
    accepted = f"{TASK_FORMS}; c, p in ASCII digits, at most {BILLION}"
    for spec in (f"offset:{BILLION + 1}", "position:" + "0" * 12 + "9", "offset:-1", "position:x", "offset:٣",
                 "offset:1:2"):
        refused(lambda spec=spec: parse_task(spec), f"invalid task {spec!r}; accepted: {accepted}")


@pytest.mark.parametrize("spec,length,rows,targets", [
    # offset:c — rows c..n-1, target i - c
    ("offset:2", 5, [2, 3, 4], [0, 1, 2]), ("offset:2", 2, [], []),
    # position:p — rows p..n-1, target p
    ("position:1", 4, [1, 2, 3], [1, 1, 1]), ("position:3", 3, [], []),
    # copy — h = n // 2, rows h..n-1, target i - h
    ("copy", 5, [2, 3, 4], [0, 1, 2]), ("copy", 4, [2, 3], [0, 1]),
    # middle — rows h..n-1, target h
    ("middle", 5, [2, 3, 4], [2, 2, 2]), ("middle", 2, [1], [1]),
    # reverse — rows ceil(n/2)..n-1, target n - 1 - i
    ("reverse", 5, [3, 4], [1, 0]), ("reverse", 4, [2, 3], [1, 0]),
    # half — every row, target floor(i/2)
    ("half", 5, [0, 1, 2, 3, 4], [0, 0, 1, 1, 2]), ("half", 2, [0, 1], [0, 0]),
    # dual:T — same rows, target i - t(i)
    ("dual:copy", 5, [2, 3, 4], [2, 2, 2]), ("dual:offset:1", 3, [1, 2], [1, 1]),
    ("dual:dual:reverse", 4, [2, 3], [1, 0]), ("dual:position:0", 3, [0, 1, 2], [0, 1, 2]),
])
def test_rows_and_targets(spec, length, rows, targets):
    got_rows, got_targets = parse_task(spec).rows_and_targets(length)
    assert got_rows.dtype == np.int64 and got_targets.dtype == np.int64
    assert got_rows.tolist() == rows and got_targets.tolist() == targets


# --------------------------------------------------------------------------- table documents
def doc_refused(document, problem: str, path: str = "p.json") -> None:
    refused(lambda: tables.parse_document(document, path),
            f"invalid feature table file {path!r}: {problem}; accepted: {FORM}")


def test_parse_document_messages():
    doc_refused([], "found 'list', expected exactly the keys kind and rows")
    doc_refused({"kind": "column"}, "found ['kind'], expected exactly the keys kind and rows")
    doc_refused({"kind": "column", "rows": [[1]], "x": 1},
                "found ['kind', 'rows', 'x'], expected exactly the keys kind and rows")
    doc_refused({"kind": "diag", "rows": [[1]]}, "kind 'diag' is not one of relative, column, general")
    doc_refused({"kind": None, "rows": [[1]]}, "kind None is not one of relative, column, general")
    doc_refused({"kind": "relative", "rows": []}, "rows is not a non-empty list")
    doc_refused({"kind": "relative", "rows": {"0": [1]}}, "rows is not a non-empty list")
    doc_refused({"kind": "relative", "rows": [[1], []]}, "rows[1] is [], not a non-empty list of entries")
    doc_refused({"kind": "column", "rows": [[1, 2], [3]]}, "rows[1] has 1 entries where the first row has 2")
    doc_refused({"kind": "general", "rows": [[[1]], [[1]]]}, "rows[1] must list ψ(1, j) for j = 0..1")
    doc_refused({"kind": "general", "rows": [[[1]], 5]}, "rows[1] must list ψ(1, j) for j = 0..1")
    doc_refused({"kind": "general", "rows": [[[1]], [[1], 5]]}, "rows[1][1] is 5, not a non-empty list of entries")
    doc_refused({"kind": "general", "rows": [[[1, 2]], [[1, 2], [3]]]},
                "rows[1][1] has 1 entries where the first row has 2")
    doc_refused({"kind": "column", "rows": [[1, True]]}, "entry rows[0][1] is True")
    doc_refused({"kind": "general", "rows": [[[1]], [[2], ["x"]]]}, "entry rows[1][1][0] is 'x'")
    refused(lambda: tables.parse_document([], "q" * 78),               # repr of 80 characters: in full
            f"invalid feature table file {repr('q' * 78)}: found 'list', "
            f"expected exactly the keys kind and rows; accepted: {FORM}")
    refused(lambda: tables.parse_document([], "q" * 79),               # 81: cut to 79 and an ellipsis
            f"invalid feature table file {repr('q' * 79)[:79]}…: found 'list', "
            f"expected exactly the keys kind and rows; accepted: {FORM}")
    refused(lambda: tables.parse_document([], "q" * 100),              # a long path: its repr cut to 80 characters
            f"invalid feature table file {repr('q' * 100)[:79]}…: found 'list', "
            f"expected exactly the keys kind and rows; accepted: {FORM}")


def test_parse_document_general_ignores_upper_triangle():
    kind, rows = tables.parse_document({"kind": "general", "rows": [[[1], ["junk"]], [[2], ["1/2"], None]]}, "p")
    assert kind == "general" and rows == [[[Fraction(1)]], [[Fraction(2)], [Fraction(1, 2)]]]


def test_entry_count_bound(monkeypatch):
    assert tables.MAX_TABLE_ENTRIES == 2 ** 20
    monkeypatch.setattr(tables, "MAX_TABLE_ENTRIES", 6)
    too_many = "more than 6 entries"
    assert len(tables.parse_document({"kind": "relative", "rows": [[1, 2]] * 3}, "p")[1]) == 3      # 6 entries
    doc_refused({"kind": "relative", "rows": [[1, 2]] * 3 + [[3, 4]]}, too_many)                  # 8
    assert len(tables.parse_document({"kind": "column", "rows": [[1]] * 6}, "p")[1]) == 6
    doc_refused({"kind": "column", "rows": [[1]] * 7}, too_many)
    # general: row i holds i + 1 vectors, so 3 rows of width 1 are 1 + 2 + 3 = 6 entries
    general = [[[0]] * (i + 1) for i in range(3)]
    assert len(tables.parse_document({"kind": "general", "rows": general}, "p")[1]) == 3
    doc_refused({"kind": "general", "rows": general + [[[0]] * 4]}, too_many)


def test_parse_entry():
    assert tables.parse_entry(-3, "e", "p") == Fraction(-3)
    assert tables.parse_entry("-4/6", "e", "p") == Fraction(-2, 3)
    assert tables.parse_entry("7", "e", "p") == Fraction(7)
    assert tables.parse_entry(0.5, "e", "p") == 0.5 and isinstance(tables.parse_entry(0.5, "e", "p"), float)
    digits = "9" * 64
    assert tables.parse_entry(f"-{digits}/{digits}", "e", "p") == Fraction(-1)    # 64 digits each: accepted
    for bad in ("9" * 65, f"1/{'9' * 65}", "1/0", "-1/-2", "+1", "1/", "1.5", " 1", "٣", ""):
        refused(lambda bad=bad: tables.parse_entry(bad, "rows[0]", "p"),
                f"invalid feature table file 'p': entry rows[0] is {bad!r}; accepted: {FORM}")
    for bad in (True, None, [1], {"a": 1}):
        refused(lambda bad=bad: tables.parse_entry(bad, "rows[2][0]", "p"),
                f"invalid feature table file 'p': entry rows[2][0] is {bad!r}; accepted: {FORM}")
    for bad in (float("inf"), float("-inf"), float("nan")):
        refused(lambda bad=bad: tables.parse_entry(bad, "rows[1][3]", "p"),
                f"invalid feature table file 'p': entry rows[1][3] is not finite; accepted: {FORM}")


def test_load_table_file_refusals(tmp_path: Path, monkeypatch):
    monkeypatch.chdir(tmp_path)            # short relative paths: quoted in full
    missing = "none.json"
    refused(lambda: parse_pe(f"table:{missing}"),
            f"invalid feature table file {missing!r}: cannot be read (No such file or directory); accepted: {FORM}")
    (tmp_path / "d").mkdir()
    refused(lambda: parse_pe("table:d"),
            f"invalid feature table file 'd': not a regular file; accepted: {FORM}")
    bad_utf8 = Path("b.json")
    bad_utf8.write_bytes(b"\xff")
    refused(lambda: parse_pe(f"table:{bad_utf8}"),
            f"invalid feature table file {str(bad_utf8)!r}: not UTF-8 text; accepted: {FORM}")
    not_json = Path("n.json")
    not_json.write_text("{kind")
    try:
        json.loads("{kind")
    except json.JSONDecodeError as err:
        reason = f"{err.msg} at line {err.lineno}"                  # the JSON parser's reason and line
    refused(lambda: parse_pe(f"table:{not_json}"),
            f"malformed feature table file {str(not_json)!r}: not JSON ({reason}); accepted: {FORM}")
    good = Path("g.json")
    good.write_text(json.dumps({"kind": "general", "rows": [[[1]], [[2], [3]]]}))
    enc = parse_pe(f"dual:table:{good}")
    assert enc.dim(1) == 1 and str(enc) == f"dual:table:{good}"
    # the omitted upper triangle is filled with zeros; ψ(1, 0) = 2, ψ(1, 1) = 3 (position index)
    assert parse_pe(f"table:{good}").exact_index_features([1, 1], [0, 1], 2) == [(Fraction(2),), (Fraction(3),)]


def test_table_byte_bound(tmp_path: Path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert tables.MAX_TABLE_BYTES == 16 * 2 ** 20
    body = json.dumps({"kind": "relative", "rows": [[1]]})
    at = Path("at.json")
    at.write_text(body + " " * (tables.MAX_TABLE_BYTES - len(body)))
    assert parse_pe(f"table:{at}").dim(1) == 1
    beyond = Path("beyond.json")
    beyond.write_text(body + " " * (tables.MAX_TABLE_BYTES + 1 - len(body)))
    refused(lambda: parse_pe(f"table:{beyond}"),
            f"invalid feature table file {str(beyond)!r}: {tables.MAX_TABLE_BYTES + 1} bytes is more than "
            f"the limit of {tables.MAX_TABLE_BYTES}; accepted: {FORM}")


# ------------------------------------------------------------------ PE specs: one-line errors and boundaries
# Exists because a mutant survived: PE spec errors could drop the spec they refuse.
def test_pe_spec_errors_quote_the_spec():
    from posreal.theory.pe_specs import PE_FORMS
    from posreal.theory.tables import register_pe
    from posreal.runtime.resources import MAX_SPEC_INT

    assert _message(lambda: parse_pe("relbias:x")) == \
        f"invalid PE 'relbias:x'; accepted: {PE_FORMS}; integer parameters in ASCII digits"
    assert _message(lambda: parse_pe("rope:0")) == \
        f"invalid PE 'rope:0'; accepted: {PE_FORMS}; integer parameters from 2 to {MAX_SPEC_INT}"
    assert _message(lambda: parse_pe("dual:learned:16")) == \
        "invalid PE 'dual:learned:16'; accepted: the shear dual:P of a linear PE P (learned:d is not linear)"
    assert _message(lambda: register_pe("relbias", [[0], [1]])) == \
        "invalid PE name 'relbias'; accepted: an identifier that is not a registry name"


# Exists because a mutant survived: a learned PE object could be named by its repr in parse_pe's error.
def test_learned_pe_object_is_named_by_its_spec():
    """A learned PE passed as an object to ``parse_pe`` is named by its spec string in the error."""
    from posreal.theory.pe_specs import parse_learned, parse_pe
    message = _message(lambda: parse_pe(parse_learned("learned:3")))
    assert message.startswith("invalid PE 'learned:3'; accepted: a linear PE here")


# Exists because a mutant survived: a sinusoid base of exactly 1 could be accepted.
def test_sinusoid_base_must_exceed_one():
    assert parse_pe("rope:4:1.5").dim(16) == 4
    assert _message(lambda: parse_pe("rope:4:1")) == "invalid PE 'rope:4:1': base '1' must be a number > 1"


# Exists because a mutant survived: bucket PEs at train length 1 and 0 were unchecked.
def test_bucket_pe_boundary_at_train_length_one():
    assert parse_pe("relbias").dim(1) == 1 and parse_pe("colbias").dim(1) == 1    # D = L0 - 1 = 0: one bucket
    assert _message(lambda: parse_pe("relbias").dim(0)) == "invalid train length 0; accepted: an integer >= 1"


# Exists because a mutant survived: check_length at the PE's limit was not checked on both sides.
def test_length_beyond_the_pe_bound_names_the_bound():
    pe = parse_pe("relbias")
    longest = pe.max_length(16)
    pe.check_length(longest, 16)
    assert _message(lambda: pe.check_length(longest + 1, 16)) == (
        f"invalid length {longest + 1} for PE 'relbias'; accepted: lengths up to {longest} "
        "(larger grids do not fit in memory/time)")


# Exists because a mutant survived: the error for a bad learned:d was unchecked.
def test_bad_learned_spec_message():
    with pytest.raises(SpecError) as err:
        parse_learned("learned:0")
    assert str(err.value).startswith("invalid learned PE 'learned:0'; accepted: learned:d with d in ASCII digits")


# Exists because a mutant survived: learned:1 could be refused.
def test_learned_one_is_a_valid_learned_pe():
    """d = 1 is the least accepted width (1 <= d)."""
    from posreal.theory.pe_specs import parse_learned

    assert parse_learned("learned:1").d == 1
    with pytest.raises(SpecError):
        parse_learned("learned:0")


# --------------------------------------------------------------------------- task specs
# Exists because a mutant survived: an unknown task's one-line error was unchecked.
@pytest.mark.parametrize("spec", ["shuffle", "dual:shuffle", "offset"])
def test_unknown_task_error(spec):
    with pytest.raises(SpecError) as err:
        parse_task(spec)
    assert str(err.value) == f"invalid task '{spec}'; accepted: {TASK_FORMS}"


# Exists because a mutant survived: a bad task parameter could be refused without naming the task.
def test_bad_task_parameter_names_the_task_argument():
    """A non-digit offset is refused as an invalid *task* (the argument is named)."""
    from posreal.theory.tasks import parse_task

    with pytest.raises(SpecError) as err:
        parse_task("offset:x")
    assert str(err.value).startswith("invalid task ") and "offset:x" in str(err.value)


# Exists because a mutant survived: a task spec that is not a string was never refused.
def test_a_task_that_is_not_a_string_is_refused_naming_the_task():
    with pytest.raises(SpecError) as err:
        parse_task(7)
    assert str(err.value) == f"invalid task 7; accepted: {TASK_FORMS}"


# ------------------------------------------------------------ feature tables: build_table and parse_document
# Exists because a mutant survived: build_table's error for a bad kind was unchecked.
def test_bad_table_kind_is_named():
    message = _message(lambda: build_table("t", [[1]], "diagonal"))
    assert message == "invalid table kind 'diagonal'; accepted: relative, column, general"


# Exists because a mutant survived: build_table's error for a bad shape could drop what is accepted.
def test_bad_table_shape_names_the_accepted_shapes():
    """A 1-D table has shape (2,), refused with the accepted shapes spelled out."""
    message = _message(lambda: build_table("t", [1, 2]))
    assert message == ("invalid feature table shape (2,); accepted: (N, p) for relative/column tables, "
                       "(N, N, p) for general ones, N >= 1, p >= 1")


# Exists because a mutant survived: the shape reported for blocks numpy cannot stack was unchecked.
def test_a_table_numpy_cannot_stack_is_refused_as_shape_zero() -> None:
    """Blocks numpy cannot stack into one array (np.asarray raises ValueError) are reported with the shape
    (0,) — no table at all — not (1,)."""
    from posreal.theory.tables import build_table
    from posreal.theory.errors import SpecError

    ragged = [np.zeros((2, 2)), np.zeros((2, 3))]
    with pytest.raises(SpecError) as err:
        build_table("t", ragged)
    assert str(err.value) == ("invalid feature table shape (0,); accepted: (N, p) for relative/column tables, "
                              "(N, N, p) for general ones, N >= 1, p >= 1")


# Exists because a mutant survived: build_table's error for a bad entry could drop what is accepted.
def test_bad_table_entry_names_the_accepted_entries():
    message = _message(lambda: build_table("t", [[1, None]]))
    assert message == ("invalid feature table entry [0][1] None; accepted: int, Fraction, float numbers or rational "
                       "strings 'p/q'")


# Exists because a mutant survived: relative and column tables could count fewer entries than they hold.
def test_relative_table_counts_every_entry(monkeypatch):
    """With the limit at 4 entries: two rows of width 2 (4 entries) pass, a third row (6) is refused."""
    from posreal.theory import tables

    monkeypatch.setattr(tables, "MAX_TABLE_ENTRIES", 4)
    assert tables.parse_document({"kind": "relative", "rows": [[1, 2], [3, 4]]}, "t.json") == \
        ("relative", [[1, 2], [3, 4]])
    with pytest.raises(SpecError, match=r"^invalid feature table file 't.json': more than 4 entries; "):
        tables.parse_document({"kind": "column", "rows": [[1, 2], [3, 4], [5, 6]]}, "t.json")


# Exists because a mutant survived: the length at which a table error cuts a quoted value was unchecked.
def test_table_error_cuts_a_quoted_value_at_80_characters():
    """repr of a 79-character kind has 81 characters: cut to its first 79 and "…" (80); a 78-character
    kind (repr of 80) is shown whole."""
    long, fits = "k" * 79, "k" * 78
    tail = "is not one of relative, column, general; accepted: " + FORM
    with pytest.raises(SpecError) as err:
        parse_document({"kind": long, "rows": [[1]]}, "t.json")
    assert str(err.value) == "invalid feature table file 't.json': kind '" + "k" * 78 + "… " + tail
    with pytest.raises(SpecError) as err:
        parse_document({"kind": fits, "rows": [[1]]}, "t.json")
    assert str(err.value) == "invalid feature table file 't.json': kind '" + fits + "' " + tail


# Exists because a mutant survived: alibi-fixed with a third parameter was never refused.
def test_alibi_fixed_takes_at_most_two_parameters() -> None:
    """``alibi-fixed:H:h`` parses; a third parameter is an unknown form."""
    assert str(parse_pe("alibi-fixed:8:1")) == "alibi-fixed:8:1"
    refused(lambda: parse_pe("alibi-fixed:8:1:3"), pe_msg("alibi-fixed:8:1:3", PE_FORMS))


# Exists because a mutant survived: the refusal of xpos without a width or with four parameters was unchecked.
@pytest.mark.parametrize("spec", ["xpos", "xpos:4:10000:2:9"])
def test_xpos_needs_one_to_three_parameters(spec: str) -> None:
    """``xpos:d[:base[:scale]]``: none or four parameters are an unknown form, quoting the spec."""
    refused(lambda: parse_pe(spec), pe_msg(spec, PE_FORMS))


# Exists because a mutant survived: the lower end of alibi-fixed's head count H was unchecked.
def test_alibi_fixed_takes_one_head_and_refuses_none() -> None:
    """``alibi-fixed:1`` is one head (H = 1); H = 0 is refused by the integer range 1..10^9."""
    assert str(parse_pe("alibi-fixed:1")) == "alibi-fixed:1"
    refused(lambda: parse_pe("alibi-fixed:0"),
            pe_msg("alibi-fixed:0", f"{PE_FORMS}; integer parameters from 1 to {BILLION}"))


# Exists because a mutant survived: the spec quoted in the refusal of FIRE's knot count was unchecked.
@pytest.mark.parametrize("spec, accepted", [("fire:1", f"integer parameters from 2 to {BILLION}"),
                                            ("fire:x", "integer parameters in ASCII digits")])
def test_fire_knot_count_refusals_quote_the_spec(spec: str, accepted: str) -> None:
    """``fire:K`` needs K >= 2 in ASCII digits; the refusal quotes the whole spec."""
    assert str(parse_pe("fire:2")) == "fire:2"
    refused(lambda: parse_pe(spec), pe_msg(spec, f"{PE_FORMS}; {accepted}"))


# Exists because a mutant survived: a learned spec with more than one parameter was not recognised as learned.
def test_a_learned_spec_with_extra_parameters_is_refused_as_not_linear() -> None:
    """``learned:4:2`` is a learned spec (not linear), refused by parse_pe with the learned:d advice."""
    from posreal.theory.pe_specs import is_learned
    assert is_learned("learned:4:2") and is_learned(" learned ") and not is_learned("learnedx:4")
    accepted = f"a linear PE here; learned:d is not linear (its α_L is an interval): use {LEARNED_API}"
    refused(lambda: parse_pe("learned:4:2"), pe_msg("learned:4:2", accepted))


# Exists because a mutant survived: the refusal of KERPLE's inner scale could lose the parameter's name.
@pytest.mark.parametrize("text", ["-1", "0", "inf"])
def test_kerple_log_refuses_a_scale_that_is_not_positive_by_name(text: str) -> None:
    with pytest.raises(SpecError) as err:
        parse_pe(f"kerple-log:{text}")
    assert str(err.value) == f"invalid PE 'kerple-log:{text}': inner scale r '{text}' must be a number > 0"


@pytest.mark.parametrize("spec", ["t5:32:128:1", "alibi-fixed:8:1:1", "fire:8:5:3", "clipped:3:4", "colbias:3:4",
                                  "kerple-log:1:2"])
def test_a_spec_with_one_parameter_too_many_is_refused_naming_it(spec):
    with pytest.raises(SpecError) as error:
        parse_pe(spec)
    assert spec in str(error.value)


@pytest.mark.parametrize("spec", ["t5:32:128", "alibi-fixed:8:1", "fire:8:5", "clipped:3", "colbias:3"])
def test_control_the_full_parameter_count_is_accepted_and_round_trips(spec):
    assert str(parse_pe(spec)) == spec


def test_fire_reads_its_threshold_and_refuses_zero():
    assert parse_pe("fire:8:5").threshold == 5
    assert parse_pe("fire:8").threshold is None
    with pytest.raises(SpecError, match="fire:8:0"):
        parse_pe("fire:8:0")


@pytest.mark.parametrize("given", ["relbias", "clipped", "alibi", "slope"])
def test_an_older_name_is_printed_as_given_and_only_then(given):
    assert str(parse_pe(given)) == given
