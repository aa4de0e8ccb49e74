"""Files stay small enough to read: no theory module over 600 lines, no test file over 800, no docs hook over 400
and the docs hooks together at most 1,000.  The counter is checked on planted texts (the controls)."""

from __future__ import annotations

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
BOUNDS = {"theory": 600, "tests": 800, "docs/hooks": 400}
HOOKS_TOTAL = 1_000


def line_count(text: str) -> int:
    """Lines as `wc -l` counts them for a file that ends in a newline (a last line without one still counts)."""
    return len(text.splitlines())


def too_long(folder: str) -> dict[str, int]:
    """The Python files of ``folder`` (not below it) over its bound, with their line counts."""
    sizes = {p.name: line_count(p.read_text(encoding="utf-8")) for p in sorted((ROOT / folder).glob("*.py"))}
    return {name: n for name, n in sizes.items() if n > BOUNDS[folder]}


@pytest.mark.parametrize("folder", sorted(BOUNDS))
def test_no_file_over_its_bound(folder):
    assert list((ROOT / folder).glob("*.py")), folder
    assert too_long(folder) == {}


def test_the_docs_hooks_together_stay_within_their_total():
    total = sum(line_count(p.read_text(encoding="utf-8")) for p in (ROOT / "docs" / "hooks").glob("*.py"))
    assert total <= HOOKS_TOTAL, f"docs/hooks/*.py: {total} lines"


@pytest.mark.parametrize("text,lines", [("", 0), ("a\n", 1), ("a\nb", 2), ("a\n\n", 2), ("x\n" * 601, 601)])
def test_control_the_counter_counts_like_wc(text, lines):
    assert line_count(text) == lines


def test_control_a_planted_long_module_is_reported(tmp_path, monkeypatch):
    folder = tmp_path / "theory"
    folder.mkdir()
    (folder / "short.py").write_text("x = 1\n" * 600)
    (folder / "long.py").write_text("x = 1\n" * 601)
    monkeypatch.setitem(globals(), "ROOT", tmp_path)
    assert too_long("theory") == {"long.py": 601}
