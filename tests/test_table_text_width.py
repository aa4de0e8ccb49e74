"""``posreal table``'s text output fits a 100-column terminal: every line of the default text of ``table``,
``table --extension all`` (one table per method when side by side is too wide), ``--extension METHOD``,
``--long``, an interval geometry, ``--limit`` and many lengths is at most 100 characters.  The cutting
(``fitted_table``) keeps every cell, in order, with the cell's naming columns repeated in each block.
Controls: the old side-by-side layout and the old one-line note of the same run are wider than 100, and a
planted wide table is cut."""

from __future__ import annotations

import json

import pytest

from posreal.cli import main
from posreal.commands._common import format_table
from posreal.commands.table import CELL_COLUMNS, TEXT_WIDTH, _side_by_side, fitted_table

MANY = ",".join(str(L) for L in (32, 40, 48, 56, 64, 72, 80, 96, 112, 128, 256, 512, 1024))
VARIANTS = {
    "table": [],
    "table --extension all": ["--extension", "all"],
    "table --extension pi": ["--extension", "pi"],
    "table --extension all --long": ["--extension", "all", "--long"],
    "table --geometry linf": ["--geometry", "linf", "--pes", "relbias,rope:16,abscol:16,t5"],
    "table --limit": ["--limit", "--pes", "relbias,rope:16,colbias"],
    "table, 13 lengths": ["--pes", "rope:16,relbias", "--lengths", MANY],
}


def _out(capsys, argv: list[str]) -> str:
    capsys.readouterr()
    assert main(["table", *argv]) == 0
    return capsys.readouterr().out


def _too_wide(text: str) -> list[str]:
    return [line for line in text.splitlines() if len(line) > TEXT_WIDTH]


@pytest.mark.parametrize("name", sorted(VARIANTS))
def test_every_line_of_the_text_output_fits_100_columns(name: str, capsys) -> None:
    out = _out(capsys, VARIANTS[name])
    assert out.count("\n") > 5
    assert _too_wide(out) == []


def test_the_old_side_by_side_layout_of_the_same_run_is_caught(capsys) -> None:
    """Control: from the same cells (the JSON of the default ``--extension all`` run), the side-by-side table
    and the n/a note on one line, as the text output printed them before, are wider than 100 columns."""
    doc = json.loads(_out(capsys, ["--extension", "all", "--json"]))
    by_method: dict[str, list[dict]] = {}
    for cell in doc["cells"]:
        by_method.setdefault(cell["extension"], []).append(cell)
    header, rows = _side_by_side(by_method, doc["lengths"], per_length=False)
    assert _too_wide(format_table(header, rows))
    text = _out(capsys, ["--extension", "all"])
    note = text[text.index("n/a: the method"):].replace("\n", " ").strip()
    assert len(note) > TEXT_WIDTH and _too_wide(note)                    # one line, as before: caught
    assert "extension none:" in text and "relbias (pi, ntk, yarn)" in note


def test_fitted_table_cuts_a_wide_table_into_blocks_that_keep_every_cell() -> None:
    keys = ["pe", "task"]
    header = keys + [f"α_{L}" for L in range(32, 32 + 24)]
    rows = [[f"pe{r}", f"task{r}", *[f"{r}.{c:03d}" for c in range(24)]] for r in range(3)]
    whole = format_table(header, rows)
    assert _too_wide(whole)                                              # control: the uncut table is too wide
    fitted = fitted_table(header, rows, keys=2)
    assert _too_wide(fitted) == []
    blocks = [block.splitlines() for block in fitted.split("\n\n")]
    assert len(blocks) > 1
    for block in blocks:
        assert block[0].split()[:2] == keys and set(block[1]) <= {"-", " "}
    assert [h for block in blocks for h in block[0].split()[2:]] == header[2:]
    for r, row in enumerate(rows):                                       # each row's cells, in order, over blocks
        cells = [block[2 + r].split() for block in blocks]
        assert all(c[:2] == row[:2] for c in cells)
        assert [v for c in cells for v in c[2:]] == row[2:]
    narrow = fitted_table(header[:5], [r[:5] for r in rows], keys=2)
    assert narrow == format_table(header[:5], [r[:5] for r in rows])    # a table that fits is left whole
    assert CELL_COLUMNS == len(["pe", "kind", "task", "class", "realizable at L0"])
