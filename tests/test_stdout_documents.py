"""Standard output holds only the requested document, for every command and output format; messages
(``wrote FILE``, certificate paths, progress) go to standard error.

Each command runs in-process on a small input, once per format it offers, and with the option that
writes a file where it has one.  What "only the document" means per format:

* ``--json``: the whole of stdout is one JSON document (``json.loads`` refuses trailing text);
* ``--csv``: every line is a CSV record as wide as the header (a stray ``wrote …`` line is one field);
* ``--markdown``: every line is a table row, blank, or the table's own legend (``—: …``);
* text: no line is a message about a written file, and no progress bar (``\\r``) is mixed in.

Where a file is written, its ``wrote`` message is looked for on stderr, so a message that vanished
altogether fails too.  The checker's negative controls feed it each format with a stray message line.
``posreal table --csv --plot X.png > t.csv`` is also run as a real process with a shell redirection.
"""

from __future__ import annotations

import csv
import io
import json
import re
import subprocess
import sys
from dataclasses import dataclass
from enum import Enum
from pathlib import Path

import pytest

from posreal.cli import main

ROOT = Path(__file__).resolve().parents[1]
CERTIFICATE = str(ROOT / "counterexamples" / "certificates" / "open_tie_designed_log2.json")
MESSAGE = re.compile(r"^(wrote |certificate: |records, summary and figures in )|\bwritten to\b")


class Format(Enum):
    TEXT = "text"
    JSON = "json"
    CSV = "csv"
    MARKDOWN = "markdown"


FLAG = {Format.TEXT: [], Format.JSON: ["--json"], Format.CSV: ["--csv"], Format.MARKDOWN: ["--markdown"]}


def stray_lines(out: str, fmt: Format) -> list[str]:
    """The lines of ``out`` that are not part of a document in ``fmt`` (empty: stdout is only the document)."""
    if fmt is Format.JSON:
        try:
            json.loads(out)
        except json.JSONDecodeError as err:
            return [f"not one JSON document: {err}"]
        return []
    lines = out.splitlines()
    if "\r" in out:
        return [line for line in out.split("\n") if "\r" in line]
    if fmt is Format.CSV:
        rows = list(csv.reader(io.StringIO(out)))
        if not rows:
            return ["no CSV at all"]
        return [",".join(r) for r in rows if len(r) != len(rows[0])]
    if fmt is Format.MARKDOWN:
        return [line for line in lines if line and not line.startswith("|") and not line.startswith("—: ")]
    return [line for line in lines if MESSAGE.search(line)]


@dataclass(frozen=True)
class Case:
    argv: tuple[str, ...]
    formats: tuple[Format, ...]
    writes: str | None = None        # the option that writes a file, when the command has one
    target: str = ""                 # the file (or directory) name it writes in tmp_path
    message: bool = True             # the command says "wrote TARGET" on stderr


TABLE = ("table", "--pes", "nope,rope:16", "--tasks", "offset:1,copy", "--train-length", "4", "--lengths", "8,16")
EXTENSIONS = ("table", "--pes", "rope:16,relbias", "--tasks", "copy", "--train-length", "4", "--lengths", "8,16",
              "--extension", "all")
ALL = (Format.TEXT, Format.JSON)
CASES = {
    "alpha": Case(("alpha", "--pe", "nope", "--task", "offset:0", "--train-length", "4", "--lengths", "8"), ALL),
    "table": Case(TABLE, tuple(Format), "--plot", "t.png"),
    "table-extension-all": Case(EXTENSIONS, tuple(Format), "--plot", "e.png"),
    "table-extension-all-long": Case((*EXTENSIONS, "--long"), (Format.TEXT, Format.CSV, Format.MARKDOWN), "--plot",
                                     "l.png"),
    "pes": Case(("pes",), ALL),
    "extensions": Case(("extensions",), ALL),
    "ceiling": Case(("ceiling", "--kernel", "relative", "--task", "position:1", "--length", "3"), ALL),
    "verify": Case(("verify", CERTIFICATE), ALL),
    "check-export": Case(("check", "proposition4"), ALL, "--export-smtlib", "smt"),
    "search-conjecture": Case(("search", "conjecture", "--seed", "3", "--budget", "2", "--families", "registry"), ALL,
                              "--out", "s.jsonl", message=False),
}
SLOW_CASES = {   # the same reading of the costly runs (pytest -m slow)
    "check": Case(("check", "proposition4"), ALL),
    "search-colspan": Case(("search", "colspan", "--evidence-steps", "10"), ALL, "--out", "bundle.json"),
    "experiment": Case(("experiment", "--quick"), ALL, "--out", "run"),
}


def _params(cases: dict[str, Case], *marks: pytest.MarkDecorator) -> list:
    """One run per command and format; a command that can write a file writes it in every run."""
    return [pytest.param(case, fmt, id=f"{name}-{fmt.value}", marks=marks)
            for name, case in cases.items() for fmt in case.formats]


@pytest.mark.parametrize(("case", "fmt"), _params(CASES) + _params(SLOW_CASES, pytest.mark.slow))
def test_stdout_holds_only_the_document(case: Case, fmt: Format, tmp_path: Path, capsys) -> None:
    argv = [*case.argv, *FLAG[fmt]]
    target = tmp_path / case.target
    if case.writes:
        argv += [case.writes, str(target)]
    code = main(argv)
    out, err = capsys.readouterr()
    assert code == 0, err
    assert out.strip(), "the command printed no document"
    assert stray_lines(out, fmt) == []
    if case.writes:
        assert target.exists()
        if case.message:
            assert re.search(rf"^wrote .*{re.escape(str(target))}", err, re.MULTILINE), err


# ----------------------------------------------------------------------------- negative controls
@pytest.mark.parametrize("fmt", list(Format))
def test_a_stray_message_is_found_in_every_format(fmt: Format, capsys) -> None:
    """The same check on real documents with one message line appended: it must find that line."""
    argv = [*TABLE, *FLAG[fmt]] if fmt is not Format.TEXT else list(TABLE)
    assert main(argv) == 0
    document = capsys.readouterr().out
    assert stray_lines(document, fmt) == []
    assert stray_lines(document + "wrote t.png\n", fmt) != []
    assert stray_lines(document + "cells: 50%|█████     | 2/4\r", fmt) != []


# ----------------------------------------------------------------------------- a real redirection
@pytest.mark.subprocess
def test_table_csv_with_plot_redirected_to_a_file_is_a_clean_csv(tmp_path: Path) -> None:
    """``posreal table --csv --plot X.png > t.csv`` in a shell: t.csv is the CSV alone, X.png a PNG, and the
    ``wrote`` message reaches the terminal (stderr)."""
    command = (f"{sys.executable} -m posreal {' '.join(TABLE)} --csv --plot {tmp_path / 'X.png'} "
               f"> {tmp_path / 't.csv'}")
    done = subprocess.run(command, shell=True, cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    text = (tmp_path / "t.csv").read_text(encoding="utf-8")
    rows = list(csv.reader(io.StringIO(text)))
    assert rows[0][:5] == ["pe", "kind", "task", "class", "realizable_at_L0"]
    assert len(rows) == 1 + 4 and stray_lines(text, Format.CSV) == []
    assert (tmp_path / "X.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert f"wrote {tmp_path / 'X.png'}" in done.stderr

