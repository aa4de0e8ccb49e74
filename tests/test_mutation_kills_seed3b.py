"""Tests for survivors of the seed-3 mutation sample (``benchmarks/mutation-report-seed3.md``), second part.

Each pins a behaviour the suite did not check:

* realization and ties: the exact margins of a profile kernel report the target's own value; an exact
  tie's rival direction ψ(i, t) - ψ(i, j) is built with the cell's L0 (``relbias`` buckets depend on it);
* selection: the exact active-set refinement enters the first most violated constraint, so it never
  stops at a θ that leaves a constraint below the margin 1;
* resources: the JSON nesting scan steps back one level per closing bracket; the learned interval's
  memory is the documented 8 · (4d² + 4Ld + 3L²) bytes; ``POSREAL_MAX_WORK`` is read (and named
  when bad); ``parse_number`` quotes the text it could not read; ``parse_size`` accepts exactly 1 byte
  and refuses 0; ``read_text`` passes its size limit on to the file check, whose message names both sizes;
* tables: relative/column tables count all their entries against ``MAX_TABLE_ENTRIES``;
* documents and errors: a statement's JSON keys; the argument named by ``construct_block``'s refusal.

Expected values are derived in the tests (by hand or from a documented identity), not copied from output.
"""

from __future__ import annotations

from fractions import Fraction as F

import numpy as np
import pytest
from posreal.theory.errors import SpecError


# --------------------------------------------------------------------------- realization, ties
def test_exact_profile_margins_report_the_target_values():
    """v = (2, 5, 1, 5) on every row (position index: key = target).  Targets (0, 1, 1, 3):
    row 0 has one key (margin None); row 1: 5 - 2 = 3; row 2: 5 - max(2, 1) = 3; row 3: 5 - max(2, 5, 1) = 0;
    the target values are v[t] = 2, 5, 5, 5."""
    from posreal.theory.kernels import ProfileKernel
    from posreal.theory.realization import exact_margins

    v = [F(2), F(5), F(1), F(5)]
    margins, values = exact_margins(ProfileKernel(4, "position", v), np.arange(4), np.array([0, 1, 1, 3]))
    assert margins == [None, F(3), F(3), F(0)]
    assert values == [F(2), F(5), F(5), F(5)]


def test_exact_tie_direction_uses_the_cells_train_length():
    """relbias at L0 = 4 (ψ(i, j) = e_min(i - j, 3), p = 4) with θ* = (1, 1, 0, 0), task offset:0 at L = 4:
    row i's target has offset 0 (value 1) and its rival at offset 1 (key j = i - 1) ties with it, in another
    bucket (no structural tie); the direction is e_0 - e_1, and the one constraint z = ψ(2, 2) - ψ(2, 0) =
    (1, 0, -1, 0) has z·v = 1 ≠ 0: open ties.
    Row 0 has one key (realized)."""
    from posreal.theory.pe_specs import parse_pe
    from posreal.theory.selection import Optimum, Selection
    from posreal.theory.tasks import parse_task
    from posreal.theory.ties import classify

    pe, task = parse_pe("relbias"), parse_task("offset:0")
    z = (F(1), F(0), F(-1), F(0))
    sel = Selection(pe, task, 4, np.array([[1.0, 0.0, -1.0, 0.0]]), np.array([[2, 2, 0]]), exact_constraints=[z])
    sel.realize(Optimum(np.array([1.0, 1.0, 0.0, 0.0]), np.array([0.0]), [F(1), F(1), F(0), F(0)], {}))
    cls = classify(pe, task, sel, 4)
    assert cls.exact and (cls.total, cls.realized) == (4, 1)
    assert [(r.row, r.target, r.cls, r.margin) for r in cls.failing] == [(i, i, "open_tie", 0) for i in (1, 2, 3)]
    for r in cls.failing:
        ((rival, direction, orthogonal),) = [(t.rival, t.direction, t.orthogonal) for t in r.rivals]
        assert (rival, direction, orthogonal) == (r.row - 1, (1, -1, 0, 0), False)


# --------------------------------------------------------------------------- selection
def test_exact_kkt_enters_the_most_violated_constraint():
    """Z = I (2×2) with the float support {0}: on B = {0}, λ = 1 and θ = (1, 0), so z_0·θ = 1 but z_1·θ = 0 < 1;
    constraint 1 must enter, and on B = {0, 1}: λ = (1, 1), θ = (1, 1) with Zθ = (1, 1) ≥ 1 (KKT)."""
    from posreal.theory.selection import _exact_kkt

    zq = [(F(1), F(0)), (F(0), F(1))]
    out = _exact_kkt(zq, np.array([1.0, 0.0]), 2)
    assert out is not None
    theta, lam = out
    assert theta == [1, 1] and lam == {0: 1, 1: 1}
    assert all(a * x + b * y >= 1 for a, b in zq for x, y in [theta])


# --------------------------------------------------------------------------- resources
def test_json_depth_steps_back_one_level_per_closing_bracket():
    """[ [ [ ] , [ [ ] ] ] ]: depths 1, 2, 3, back to 2, then 3, 4: the deepest level is 4."""
    from posreal.theory.resources import json_depth, load_json

    text = "[[[],[[]]]]"
    assert json_depth(text) == 4
    assert load_json(text, "doc", max_depth=4) == [[[], [[]]]]
    with pytest.raises(SpecError, match=r"JSON nested 4 levels deep; accepted: at most 3$"):
        load_json(text, "doc", max_depth=3)


def test_learned_estimate_memory_follows_its_formula():
    """d = 2, L0 = 4, lengths (8,): largest L = 8; W-sized (d, d) ×4, (L, d) ×4 and (L, L) ×3 float64 arrays:
    8 · (4·4 + 4·8·2 + 3·64) = 8 · 272 = 2176 bytes — at least the three (L, L) kernels' real size."""
    from posreal.theory.resources import learned_estimate

    est = learned_estimate("cell", 2, 4, [8], 1, 1)
    assert est.memory == 2176
    assert est.memory >= 3 * np.zeros((8, 8)).nbytes


def test_max_work_reads_its_environment_variable(monkeypatch):
    from posreal.theory.resources import WORK_ENV, max_work

    monkeypatch.setenv(WORK_ENV, "2500")
    assert max_work() == 2500
    monkeypatch.setenv(WORK_ENV, "0")                                 # at least one operation
    with pytest.raises(SpecError, match=rf"^invalid environment variable {WORK_ENV} '0'; accepted: a number >= 1 "):
        max_work()


def test_parse_number_quotes_text_it_cannot_read():
    from posreal.theory.resources import parse_number

    with pytest.raises(SpecError, match=r"^invalid tolerance 'abc'; accepted: a number > 0 and <= 1$"):
        parse_number("abc", "tolerance", 0, 1)


def test_parse_size_accepts_one_byte_and_refuses_zero():
    """The documented range is (0, 2**50] bytes: 1 is its smallest size."""
    from posreal.theory.resources import parse_size

    assert parse_size("1") == 1
    assert parse_size("1B") == 1
    with pytest.raises(SpecError, match=r"^invalid memory size '0'; accepted: a size such as"):
        parse_size("0")


def test_read_text_checks_the_size_limit_it_is_given(tmp_path):
    """A 20-byte file with max_bytes = 10 is refused by the file check, which names its size and the limit."""
    from posreal.theory.resources import read_text

    path = tmp_path / "doc.json"
    path.write_bytes(b"x" * 20)
    assert read_text(str(path), "input", 20) == "x" * 20
    with pytest.raises(SpecError, match=r": 20 B; accepted: a file of at most 10 B$"):
        read_text(str(path), "input", 10)


# --------------------------------------------------------------------------- tables
def test_relative_table_counts_every_entry(monkeypatch):
    """With the limit at 4 entries: two rows of width 2 (4 entries) pass, a third row (6) is refused."""
    from posreal.theory import tables

    monkeypatch.setattr(tables, "MAX_TABLE_ENTRIES", 4)
    assert tables.parse_document({"kind": "relative", "rows": [[1, 2], [3, 4]]}, "t.json") == \
        ("relative", [[1, 2], [3, 4]])
    with pytest.raises(SpecError, match=r"^invalid feature table file 't.json': more than 4 entries; "):
        tables.parse_document({"kind": "column", "rows": [[1, 2], [3, 4], [5, 6]]}, "t.json")


# --------------------------------------------------------------------------- documents and errors
def test_statement_json_keys():
    from posreal.theory.statements import Statement

    s = Statement("t9", "Name", "theorem", "definitions.md#geometry", ("h1",), "c", (("θ", "parameters"),),
                  ("smt",), "n")
    assert s.to_json() == {"id": "t9", "name": "Name", "status": "theorem", "section": "definitions.md#geometry",
                           "hypotheses": ["h1"], "conclusion": "c", "symbols": {"θ": "parameters"},
                           "checks": ["smt"], "notes": "n"}


def test_construct_block_names_the_width():
    from posreal.theory.underdetermination import construct_block

    with pytest.raises(SpecError, match=r"^invalid width d 3; accepted: d >= the train length 4 for the construction$"):
        construct_block("copy", 3, 4)
