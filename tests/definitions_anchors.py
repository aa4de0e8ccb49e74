"""References into the Definitions page must land: every ``definitions.md#<anchor>`` resolves.

The docs' Definitions page (``docs/definitions.md``) is the repository's canonical mathematical
text; code docstrings, ``Statement.section`` (shown by ``posreal check --json``), the README and
the other pages point into it by stable anchors, written as explicit heading ids
(``## Transfer coefficient {#transfer-coefficient}``, attr_list).  This module

* :func:`defined_anchors` — the explicit ids of a Markdown page;
* :func:`collect_references` — every reference to the page: ``definitions.md#<anchor>`` in the
  Python sources, the README and the Markdown pages, ``(#<anchor>)`` links inside the page itself,
  and every ``Statement.section`` value;
* :func:`check_references` — raises :class:`AnchorError` naming each reference whose anchor the page
  does not define (tests/test_docs.py runs :func:`check_repository` on the repository).

The links of the site's pages (a statement box's ``Statement.section``, the blueprint's table) are also checked by
mkdocs itself while it builds (``validation: anchors`` in ``mkdocs.yml``, an error under ``--strict``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]          # the repository


class AnchorError(ValueError):
    """References to anchors that the Definitions page does not define."""

DEFINITIONS = ROOT / "docs" / "definitions.md"
PYTHON_SOURCES = ("posreal", "theory", "checks", "counterexamples", "experiment", "tests", "benchmarks", "docs/hooks")
MARKDOWN_SOURCES = ("README.md", "docs")

_ID = r"[A-Za-z0-9_][A-Za-z0-9_-]*"
_HEADING_ID = re.compile(r"^#{1,6}\s.*\{\s*:?\s*#(" + _ID + r")\s*\}\s*$", re.M)   # ## Title {#id}
_ATTR_ID = re.compile(r"^\{:\s*#(" + _ID + r")\s*\}\s*$", re.M)                     # {: #id } on its own line
_REFERENCE = re.compile(r"definitions\.md#(" + _ID + ")")
_SELF_LINK = re.compile(r"\]\(#(" + _ID + r")\)")


@dataclass(frozen=True)
class Reference:
    """One reference to an anchor of the Definitions page, and where it was found."""

    anchor: str
    where: str                    # "path:line" or "Statement.section of <id>"


def defined_anchors(markdown: str) -> set[str]:
    """The explicit ids of a page: ``{#id}`` at the end of a heading, or ``{: #id}`` on a line."""
    return set(_HEADING_ID.findall(markdown)) | set(_ATTR_ID.findall(markdown))


def references_in(text: str, where: str, self_links: bool = False) -> list[Reference]:
    """Every ``definitions.md#<anchor>`` in a text (and ``](#<anchor>)`` when it is the page itself)."""
    out = []
    for number, line in enumerate(text.splitlines(), 1):
        anchors = _REFERENCE.findall(line) + (_SELF_LINK.findall(line) if self_links else [])
        out += [Reference(anchor, f"{where}:{number}") for anchor in anchors]
    return out


def _files(root: Path, folders: tuple[str, ...], suffix: str) -> list[Path]:
    found: list[Path] = []
    for name in folders:
        path = root / name
        if path.is_file():
            found.append(path)
        elif path.is_dir():
            found += sorted(p for p in path.rglob(f"*{suffix}") if "__pycache__" not in p.parts)
    return found


def statement_references() -> list[Reference]:
    """``Statement.section`` of every declared result (``definitions.md#theorem-1`` and so on)."""
    from posreal.theory.statements import STATEMENTS
    out = []
    for cid, st in STATEMENTS.items():
        match = _REFERENCE.fullmatch(st.section)
        if match is None:
            raise AnchorError(f"Statement.section of {cid!r} is {st.section[:80]!r}; accepted: "
                              "'definitions.md#<anchor>'")
        out.append(Reference(match.group(1), f"Statement.section of {cid!r}"))
    return out


def collect_references(root: Path = ROOT) -> list[Reference]:
    refs: list[Reference] = []
    page = root / "docs" / "definitions.md"
    for path in _files(root, PYTHON_SOURCES, ".py") + _files(root, MARKDOWN_SOURCES, ".md"):
        refs += references_in(path.read_text(encoding="utf-8"), str(path.relative_to(root)), self_links=path == page)
    return refs + statement_references()


def check_references(references: list[Reference], anchors: set[str]) -> int:
    """Raise :class:`AnchorError` listing every reference to an anchor not in ``anchors``; else the count."""
    missing = [r for r in references if r.anchor not in anchors]
    if missing:
        shown = "; ".join(f"{r.where}: #{r.anchor}" for r in missing[:20])
        more = f" (and {len(missing) - 20} more)" if len(missing) > 20 else ""
        raise AnchorError(f"{len(missing)} reference(s) to anchors that docs/definitions.md does not "
                          f"define: {shown}{more}; defined: {', '.join(sorted(anchors))}")
    return len(references)


def check_repository(root: Path = ROOT) -> int:
    """Check every reference of the repository against the Definitions page; the number checked."""
    definitions = root / "docs" / "definitions.md"
    anchors = defined_anchors(definitions.read_text(encoding="utf-8"))
    if not anchors:
        raise AnchorError(f"{definitions} defines no anchor ({{#id}} after a heading)")
    return check_references(collect_references(root), anchors)
