"""Markdown for the reports the docs show and the command line prints: tables, provenance lines, number formats.

The reports of the package (:mod:`posreal.theory.taxonomy_report`, :mod:`posreal.theory.alpha_report`,
:mod:`posreal.counterexamples.report`, :mod:`posreal.checks.report`, :mod:`posreal.experiment.report`) write
their tables with these helpers, so a page of the site and ``posreal ... --report`` print the same text.

Main results:

* :func:`table` — a Markdown table, its cells on one line with pipes escaped; an empty table is a
  :class:`ReportError` (a report never shows an empty table);
* :func:`provenance` — the line under a generated block naming what it was computed from;
* :func:`fmt_alpha`, :func:`interval_text`, :func:`fmt_seconds` — α, an [every, some] interval of α, seconds;
* :func:`rst_to_md`, :func:`first_line` — a docstring's reStructuredText roles as Markdown code spans.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence


class ReportError(ValueError):
    """A report that cannot be written: a source is missing, malformed, or a table would be empty."""


def md_escape(text: object) -> str:
    """One table cell on one line, with its pipes escaped (idempotent: escaped pipes stay as they are)."""
    return re.sub(r"(?<!\\)\|", r"\\|", str(text).replace("\n", " "))


def provenance(source: str) -> str:
    """The HTML line that says a block was generated from ``source``."""
    return f'<p class="posreal-generated">Generated at build time from <code>{source}</code>.</p>'


def table(header: Sequence[object], rows: Iterable[Sequence[object]], source: str | None = None) -> str:
    """A Markdown table with a provenance line when ``source`` is given; no row is a :class:`ReportError`."""
    rows = [list(r) for r in rows]
    if not rows:
        raise ReportError(f"generated table from {source or 'the code'} is empty")
    lines = ["| " + " | ".join(md_escape(h) for h in header) + " |", "|" + "|".join("---" for _ in header) + "|"]
    lines += ["| " + " | ".join(md_escape(c) for c in r) + " |" for r in rows]
    return "\n".join(lines) + "\n" + (f"\n{provenance(source)}\n" if source else "")


def fmt_alpha(value: float | None) -> str:
    """α to three decimals; "—" when there is none (the cell is not realizable)."""
    return "—" if value is None else f"{value:.3f}"


def interval_text(pair: Sequence[float] | None) -> str:
    """An [every, some] interval of α: one number when its ends agree, "—" when there is none."""
    if pair is None:
        return "—"
    lo, hi = pair
    return fmt_alpha(lo) if lo == hi else f"[{fmt_alpha(lo)}, {fmt_alpha(hi)}]"


def fmt_seconds(value: object) -> str:
    """Seconds to two decimals ("—" when not a number)."""
    try:
        return f"{float(value):.2f} s"   # type: ignore[arg-type]
    except (TypeError, ValueError):
        return "—"


def rst_to_md(text: str) -> str:
    """``:func:`name``` and ````code```` as Markdown code spans."""
    text = re.sub(r":(?:func|class|mod|meth|attr|data|obj):`~?([^`]+)`", r"`\1`", text)
    return text.replace("``", "`")


def first_line(doc: str | None) -> str:
    """The first paragraph of a docstring on one line, as Markdown."""
    return rst_to_md((doc or "").strip().split("\n\n")[0].replace("\n", " "))
