"""The Markdown sources of the docs and the README hold no control characters (a TeX macro such as ``\\alpha``
written through an unescaped Python string becomes a BEL character and vanishes from the rendered page)."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")


def _control_characters(text: str) -> list[int]:
    """Line numbers (1-based) holding a control character other than newline and carriage return."""
    return [n for n, line in enumerate(text.splitlines(), 1) if CONTROL.search(line)]


def test_no_markdown_source_holds_a_control_character():
    pages = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
    bad = {str(p.relative_to(ROOT)): lines for p in pages
           if (lines := _control_characters(p.read_text(encoding="utf-8")))}
    assert not bad


def test_the_scan_finds_a_swallowed_macro():
    assert _control_characters("ok\n$\alpha$ and\ttab\n") == [2]          # the control: "\a" is BEL, "\t" is TAB
    assert _control_characters("$\\alpha$\n") == []
