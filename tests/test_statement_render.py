"""The statements as the site renders them (posreal.theory.statement_markdown, posreal.checks.blueprint): every text
of every statement object survives Python-Markdown with the site's own extensions (mkdocs.yml) — no hypothesis
parsed as an HTML tag, no symbol scrambled by emphasis, no math delimiter — and an unescaped renderer loses text,
which this test catches."""

from __future__ import annotations

from html.parser import HTMLParser
from pathlib import Path

import markdown
import pytest
import yaml

from posreal.checks import blueprint as boxes
from posreal.runtime.markdown import ReportError
from posreal.theory import statement_markdown as texts
from posreal.theory.statements import STATEMENT_IDS, Statement, statement

ROOT = Path(__file__).resolve().parents[1]


def _site_markdown() -> markdown.Markdown:
    """Python-Markdown with the extensions and options of mkdocs.yml."""
    config = yaml.safe_load((ROOT / "mkdocs.yml").read_text(encoding="utf-8"))
    names, options = [], {}
    for entry in config["markdown_extensions"]:
        name, opts = (entry, {}) if isinstance(entry, str) else next(iter(entry.items()))
        names.append(name)
        if opts:
            options[name] = opts
    return markdown.Markdown(extensions=names, extension_configs=options)


class _Visible(HTMLParser):
    """The text a reader sees (entities decoded, tags dropped)."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []

    def handle_data(self, data: str) -> None:
        self.parts.append(data)


def visible_text(html_text: str) -> str:
    parser = _Visible()
    parser.feed(html_text)
    return " ".join("".join(parser.parts).split())


def statement_texts(st: Statement) -> list[str]:
    """Every text of the statement a box must show, whitespace-normalized."""
    texts = [st.name, *st.hypotheses, st.conclusion, st.notes, *(f"{k} — {v}" for k, v in st.symbols)]
    return [" ".join(t.split()) for t in texts if t]


def lost_texts(rendered_markdown: str, st: Statement) -> list[str]:
    seen = visible_text(_site_markdown().convert(rendered_markdown))
    return [t for t in statement_texts(st) if t not in seen]


@pytest.mark.parametrize("cid", STATEMENT_IDS)
def test_every_statement_box_shows_every_text(cid):
    assert lost_texts(boxes.statement_box(cid), statement(cid)) == []


@pytest.mark.parametrize("cid", STATEMENT_IDS)
def test_every_definitions_page_statement_shows_every_text(cid):
    st = statement(cid)
    lost = [t for t in lost_texts(texts.statement_text(cid), st) if t != " ".join(st.name.split())]   # no name
    assert lost == []


def test_negative_control_an_unescaped_renderer_loses_text(monkeypatch):
    """The same boxes with escaping switched off: the known leaks come back, and the comparison sees them."""
    for module in (boxes, texts):
        monkeypatch.setattr(module, "inline", lambda text: " ".join(str(text).split()))
    under = statement("underdetermination")
    lost = lost_texts(boxes.statement_box("underdetermination"), under)
    assert under.hypotheses[1] in lost            # "<L0}) realizes τ at L0 and L >" parsed as an HTML tag
    prime = statement("conjecture-limit")
    lost = lost_texts(boxes.statement_box("conjecture-limit"), prime)
    assert any(" — " in t and "_" in t for t in lost)   # a Symbols entry scrambled by emphasis


def test_inline_escapes_what_markdown_and_html_act_on():
    text = "a <b> & *c* _d_ `e` [f](g) $h$ \\i | {j} #k"
    out = texts.inline(text)
    assert not set("<>*_`[]$\\|{}#") & set(out.replace("&#", "").replace(";", ""))
    assert visible_text(_site_markdown().convert(out)) == text


def test_coq_statements_are_read_from_the_proofs():
    text = boxes.coq_statement("Theorem2.v", "deep_row_iff")
    assert text.startswith("Theorem deep_row_iff") and "realized r i t" in text and "Proof." not in text
    with pytest.raises(ReportError, match="no Theorem or Corollary"):
        boxes.coq_statement("Theorem2.v", "no_such_theorem")


def test_each_result_with_coq_proofs_shows_its_coq_theorems():
    from posreal.checks.coq_concordance import CONCORDANCE
    for cid, proofs in CONCORDANCE.items():
        box = boxes.statement_box(cid)
        assert f"proofs/{proofs.file}" in box
        assert all(f"`{t.name}`" in box for t in proofs.results)
        assert f"Theorem {proofs.results[0].name}" in box


def test_the_statement_markers_are_the_package_renderers():
    """The page markers call the package's renderers: the page shows what the package writes."""
    from docs_hooks import hook_module
    gen = hook_module("posreal_docs_gen")
    assert gen.GENERATORS["statement"]("theorem2", "results") == boxes.statement_box("theorem2", "results")
    assert gen.GENERATORS["statement-text"]("theorem2") == texts.statement_text("theorem2")
    assert gen.GENERATORS["statement"]("theorem2", "top") != boxes.statement_box("theorem2", "results")   # control
    with pytest.raises(ReportError, match="unknown page position 'side'"):
        boxes.statement_box("theorem2", "side")


# --------------------------------------------------------------------------- the built site (marker site)
def _built_site() -> Path:
    import os
    given = os.environ.get("POSREAL_SITE_DIR")
    if not given:
        if os.environ.get("CI"):
            pytest.fail("POSREAL_SITE_DIR is not set under CI: .ci/run must build the site and export it")
        pytest.skip("no built site: run `mkdocs build --strict`, then `POSREAL_SITE_DIR=site pytest -m site`")
    return Path(given)


@pytest.mark.site
def test_the_built_pages_show_every_statement_text_and_the_blueprint():
    from posreal.theory.dependencies import edges, nodes
    site = _built_site()
    definitions = visible_text((site / "definitions.html").read_text(encoding="utf-8"))
    for cid in STATEMENT_IDS:
        page = visible_text((site / "results" / f"{cid}.html").read_text(encoding="utf-8"))
        assert [t for t in statement_texts(statement(cid)) if t not in page] == [], cid
    for cid in ("theorem1", "underdetermination", "conjecture-limit", "escape-induction"):
        assert [t for t in statement_texts(statement(cid))[1:] if t not in definitions] == [], cid
    blueprint = (site / "blueprint.html").read_text(encoding="utf-8")
    assert blueprint.count('class="node"') == len(nodes()) and blueprint.count('class="edge"') == len(edges())
    assert 'class="node"' in (site / "results" / "index.html").read_text(encoding="utf-8")
