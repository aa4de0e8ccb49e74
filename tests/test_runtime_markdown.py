"""The Markdown helpers every report writes with (posreal.runtime.markdown): an empty table is an error, a cell keeps
its pipes escaped on one line, and numbers are formatted as the pages show them."""

from __future__ import annotations

import pytest

from posreal.runtime.markdown import (ReportError, first_line, fmt_alpha, fmt_seconds, interval_text, md_escape,
                                      provenance, table)


def test_an_empty_table_is_an_error_naming_its_source():
    with pytest.raises(ReportError, match="from somewhere is empty"):
        table(["a", "b"], [], "somewhere")
    assert table(["a"], [[1]]).splitlines() == ["| a |", "|---|", "| 1 |"]   # control: one row is a table


def test_table_cells_keep_their_pipes_on_one_line():
    once = md_escape("a_t ≤ exp(-ρ(|γ| - 2εB))\nnext")
    assert once == md_escape(once) and "\n" not in once
    row = table(["check", "method"], [[once, "symbolic"]]).splitlines()[2]
    assert row.count(" | ") == 1, row
    assert table(["x"], [["a|b"]]).splitlines()[2] == "| a\\|b |"


def test_a_source_adds_the_provenance_line():
    text = table(["x"], [[1]], "posreal.theory.thing")
    assert text.endswith("\n" + provenance("posreal.theory.thing") + "\n")
    assert "posreal.theory.thing" not in table(["x"], [[1]])


def test_numbers_as_the_pages_show_them():
    assert (fmt_alpha(None), fmt_alpha(0.5), fmt_alpha(1)) == ("—", "0.500", "1.000")
    assert interval_text(None) == "—" and interval_text((0.25, 0.25)) == "0.250"
    assert interval_text((0.25, 0.5)) == "[0.250, 0.500]"
    assert (fmt_seconds(1.234), fmt_seconds("x"), fmt_seconds(None)) == ("1.23 s", "—", "—")
    assert first_line("See :func:`~posreal.theory.alpha.compute_alpha` and ``x``.\n\nMore.") == \
        "See `posreal.theory.alpha.compute_alpha` and `x`."
