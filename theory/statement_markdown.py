"""A declared statement as Markdown: the text the Definitions page shows under each result.

Main results:

* :func:`inline` — one line of plain text as Markdown that renders to exactly that text (every character that
  Markdown, its extensions or HTML would act on is an HTML entity: no tag, emphasis, math or link);
* :func:`statement_text` — hypotheses, conclusion, symbols and notes of a result of
  :mod:`posreal.theory.statements` (their one source), and the link to its page.
"""

from __future__ import annotations

_ENTITIES = {c: f"&#{ord(c)};" for c in "*_`[]$\\|{}#~^!"}
_ENTITIES.update({"&": "&amp;", "<": "&lt;", ">": "&gt;"})


def inline(text: object) -> str:
    """One line of plain text as Markdown that renders to exactly that text (no tag, emphasis, math or link)."""
    return "".join(_ENTITIES.get(c, c) for c in " ".join(str(text).split()))


def symbols_text(symbols) -> str:
    """The symbols of a statement, "name — meaning" joined by semicolons."""
    return "; ".join(f"{inline(k)} — {inline(v)}" for k, v in symbols)


def statement_text(cid: str) -> str:
    """The statement of result ``cid`` as the Definitions page shows it (an unknown id: a one-line SpecError)."""
    from posreal.theory.statements import statement
    st = statement(cid)
    out = ["*Hypotheses.*", ""] + [f"{n}. {inline(h)}" for n, h in enumerate(st.hypotheses, 1)]
    out += ["", f"*Conclusion.* {inline(st.conclusion)}", "", f"*Symbols.* {symbols_text(st.symbols)}.", ""]
    if st.notes:
        out += [f"*Notes.* {inline(st.notes)}", ""]
    out += [f"[Proof and checks](results/{cid}.md).", ""]
    return "\n".join(out)
