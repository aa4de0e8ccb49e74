"""posreal.theory.statement_markdown: a declared statement as Markdown — plain text whose every Markdown/HTML-active
character is an entity (no tag, emphasis, math or link), the symbols line, and the statement block of a result."""

from __future__ import annotations

import re

import pytest

from posreal.theory.errors import SpecError
from posreal.theory.statement_markdown import inline, statement_text, symbols_text
from posreal.theory.statements import statement

ACTIVE = "*_`[]$\\|{}#~^!<>"          # characters Markdown, its extensions or HTML would act on (and &)


def test_inline_turns_every_active_character_into_an_entity_and_keeps_the_rest():
    text = "<b>x</b> & *y* _z_ `c` [l](u) $m$ a|b {k} #h ~s~ ^p^ !i \\n"
    out = inline(text)
    bare = re.sub(r"&(#[0-9]+|amp|lt|gt);", "", out)                # the text outside the entities
    assert not set(bare) & set(ACTIVE + "&")                        # no raw tag, emphasis, math, link or table bar
    assert "&lt;b&gt;x&lt;/b&gt;" in out and "&amp;" in out and "&#42;y&#42;" in out and "&#36;m&#36;" in out
    plain = "α_L, not θ*"
    assert inline("kernel κ(i, j) = 0") == "kernel κ(i, j) = 0"     # control: nothing to escape, nothing changed
    assert inline(plain) == "α&#95;L, not θ&#42;"
    assert inline("  one\n  line\t\tof text ") == "one line of text"  # one line, single spaces
    assert inline(3) == "3"


def test_symbols_text_joins_name_and_meaning_pairs_with_semicolons():
    assert symbols_text((("L0", "train length"), ("E_j", "row <j>"))) == "L0 — train length; E&#95;j — row &lt;j&gt;"
    assert symbols_text(()) == ""


@pytest.mark.parametrize("cid", ["underdetermination", "theorem1"])
def test_statement_text_is_the_declared_statement_escaped(cid):
    """Each hypothesis numbered, the conclusion, the symbols and the notes of the declaration, escaped by
    ``inline``, and the link to the result's page; the underdetermination statement holds E_{<L0} (a '<' and
    braces): it appears only escaped."""
    st = statement(cid)
    text = statement_text(cid)
    lines = text.split("\n")
    assert lines[:2] == ["*Hypotheses.*", ""]
    for n, h in enumerate(st.hypotheses, 1):
        assert f"{n}. {inline(h)}" in lines
    assert f"*Conclusion.* {inline(st.conclusion)}" in lines
    assert f"*Symbols.* {symbols_text(st.symbols)}." in lines
    assert all(f"{inline(k)} — {inline(v)}" in text for k, v in st.symbols)
    assert (f"*Notes.* {inline(st.notes)}" in lines) == bool(st.notes)
    assert lines[-2:] == [f"[Proof and checks](results/{cid}.md).", ""]
    body = "\n".join(line.split(" ", 1)[1] for line in lines if line[:1].isdigit())
    assert "<" not in body
    if cid == "underdetermination":
        assert "E_{<L0}" in st.hypotheses[1] and "E&#95;&#123;&lt;L0&#125;" in text and "E_{<L0}" not in text


def test_statement_text_of_an_unknown_id_is_a_one_line_error():
    with pytest.raises(SpecError) as err:
        statement_text("theorem99")
    assert "theorem99" in str(err.value) and "\n" not in str(err.value)
