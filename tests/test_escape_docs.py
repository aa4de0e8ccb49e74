"""The page "What escapes the theory": its generated α^ind table is what the code computes, and its markers
are known generators; the page and the result pages are in the nav."""

import importlib
import re
import sys
from pathlib import Path

from posreal.theory.induction import induction_alpha

ROOT = Path(__file__).resolve().parents[1]
HOOKS = ROOT / "docs" / "hooks"


def _gen():
    sys.path.insert(0, str(HOOKS))
    try:
        return importlib.import_module("posreal_docs_gen")
    finally:
        sys.path.remove(str(HOOKS))


def test_the_induction_table_is_the_computed_alpha():
    gen = _gen()
    text = gen.GENERATORS["induction-table"]("16", "33", "rope:16", "relbias", "abscol:16")
    rows = {line.split("|")[1].strip(): [c.strip() for c in line.split("|")[2:-1]]
            for line in text.splitlines() if line.startswith("| `")}
    for pe, cells in rows.items():
        for method, cell in zip(("none", "pi", "ntk", "yarn"), cells):
            if cell in ("n/a", "—"):
                continue
            res = induction_alpha(pe.strip("`"), 16, [33], extension=method)
            assert cell == f"{res.alpha(33):.3f} ({res.copy.alpha(33):.3f})", (pe, method, cell)
    assert rows["`abscol:16`"][0] == "—" and rows["`relbias`"][1] == "n/a"


def test_the_page_markers_are_generators_and_the_pages_are_in_the_nav():
    gen = _gen()
    page = (ROOT / "docs" / "escape.md").read_text(encoding="utf-8")
    markers = re.findall(r"<!-- posreal: (\S+)", page)
    assert markers.count("induction-table") == 2 and all(m in gen.GENERATORS for m in markers)
    assert "prediction" in page.lower()
    nav = (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
    assert "escape.md" in nav and all(f"results/{c}.md" in nav for c in ("escape-depth", "escape-content",
                                                                          "escape-induction"))
