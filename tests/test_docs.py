"""The rendered docs: one page per claim, no remote assets, generated tables that are not empty,
the formalization note once per page, and a hook that fails loudly.

The site is built once, by ``.ci/run`` (``mkdocs build --strict``), which passes its directory in
``POSREAL_SITE_DIR``; the tests that read the built site (marker ``site``) reuse it and never build it
themselves.  Without ``POSREAL_SITE_DIR`` they skip with a one-line reason locally (build the site, then
``POSREAL_SITE_DIR=site pytest -m site``), and fail under CI (``CI`` set), where a skipped site test
would hide a broken site.  The hook tests import ``docs/hooks`` directly.
"""

from __future__ import annotations

import importlib
import os
import re
import subprocess
import sys
from html.parser import HTMLParser
from pathlib import Path

import pytest
from docs_hooks import hook_module

ROOT = Path(__file__).resolve().parents[1]
HOOKS = ROOT / "docs" / "hooks"
REMOTE = re.compile(r"^\s*(?:https?:)?//", re.I)


def _hooks():
    return hook_module("posreal_docs_gen"), hook_module("posreal_docs")



def _memo() -> dict:
    """The results shared within one build (a test puts a fake claim report there)."""
    return hook_module("posreal_docs_gen")._memo


def _anchors():
    import definitions_anchors   # tests/definitions_anchors.py (pytest puts tests/ on sys.path)
    return definitions_anchors


def _report(cid: str, *results):
    """A claim report as the runner builds it, holding the given check results."""
    from posreal.checks.runner import ClaimReport
    from posreal.theory.statements import statement
    report = ClaimReport(statement(cid))
    report.results.extend(results)
    return report


def _result(cid: str, verdict: str, control: str | None = None, name: str = "stand-in check"):
    from posreal.checks.base import CheckResult
    return CheckResult(claim=cid, name=name, method="smt", verdict=verdict, negative_control=control)


def _claim_ids() -> list[str]:
    from posreal.theory.statements import STATEMENT_IDS
    return list(STATEMENT_IDS)


@pytest.fixture(scope="session")
def site() -> Path:
    """The built site: the one .ci/run built (``POSREAL_SITE_DIR``, set after its ``mkdocs build --strict``)."""
    given = os.environ.get("POSREAL_SITE_DIR")
    if not given:
        if os.environ.get("CI"):
            pytest.fail("POSREAL_SITE_DIR is not set under CI: .ci/run must build the site and export it")
        pytest.skip("no built site: run `mkdocs build --strict`, then `POSREAL_SITE_DIR=site pytest -m site`")
    return site_dir(given)


def site_dir(given: str) -> Path:
    """``POSREAL_SITE_DIR`` as an absolute path: the skip message's ``POSREAL_SITE_DIR=site`` is relative to
    the directory pytest runs in, and a relative path has no file:// URI (the search test opens pages by it)."""
    out = Path(given).resolve()
    assert (out / "index.html").is_file(), f"POSREAL_SITE_DIR={given!r} holds no built site (no index.html)"
    return out


def test_a_relative_site_dir_as_in_the_skip_message_is_usable(tmp_path, monkeypatch):
    (tmp_path / "site").mkdir()
    (tmp_path / "site" / "index.html").write_text("<html></html>", encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    out = site_dir("site")
    assert out.is_absolute() and (out / "index.html").as_uri() == (tmp_path / "site" / "index.html").as_uri()
    with pytest.raises(ValueError):          # control: the relative path itself has no file URI
        (Path("site") / "index.html").as_uri()


def _pages(site: Path) -> list[Path]:
    """Every page of the site (use_directory_urls is off: pages are NAME.html), without MathJax's files."""
    return sorted(p for p in site.rglob("*.html") if "mathjax" not in p.parts and p.name != "404.html")


class _Assets(HTMLParser):
    """Collects every script src, stylesheet/font/preload href, and inline style/url() of a page."""

    def __init__(self):
        super().__init__()
        self.refs: list[str] = []
        self._in_style = False

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "script" and a.get("src"):
            self.refs.append(a["src"])
        if tag == "link" and a.get("href") and set((a.get("rel") or "").split()) & {
                "stylesheet", "preload", "preconnect", "dns-prefetch", "modulepreload", "icon", "manifest"}:
            self.refs.append(a["href"])
        if tag in ("img", "iframe", "source", "embed") and a.get("src"):
            self.refs.append(a["src"])
        if a.get("style"):
            self.refs += re.findall(r"url\(\s*['\"]?([^'\")]+)", a["style"])
        self._in_style = tag == "style"

    def handle_endtag(self, tag):
        self._in_style = False

    def handle_data(self, data):
        if self._in_style:
            self.refs += re.findall(r"url\(\s*['\"]?([^'\")]+)", data)
            self.refs += re.findall(r"@import\s+['\"]([^'\"]+)", data)


# --------------------------------------------------------------------------- source-level (fast)
def test_every_claim_id_has_a_page_in_the_nav():
    nav = (ROOT / "mkdocs.yml").read_text()
    for cid in _claim_ids():
        page = ROOT / "docs" / "results" / f"{cid}.md"
        assert page.is_file(), f"no page for claim {cid!r}"
        text = page.read_text()
        assert f"results/{cid}.md" in nav, f"page of {cid!r} is not in the nav"
        assert f"<!-- posreal: checks {cid} -->" in text, f"page of {cid!r} has no generated checks table"
        assert f"<!-- posreal: statement {cid} -->" in text, f"page of {cid!r} does not show its statement object"


def test_unknown_marker_is_a_build_error():
    from mkdocs.exceptions import PluginError
    gen, hook = _hooks()

    class Page:
        class file:
            src_uri = "fake.md"

    with pytest.raises(PluginError, match="unknown generator"):
        hook.on_page_markdown("# x\n\n<!-- posreal: no-such-table -->\n", Page, {}, None)
    with pytest.raises(PluginError, match="malformed marker"):
        hook.on_page_markdown("# x\n\n<!-- posreal: checks theorem1 --> trailing text\n", Page, {}, None)


def test_formalization_note_is_added_once():
    gen, hook = _hooks()

    class Page:
        class file:
            src_uri = "fake.md"

    out = hook.on_page_markdown("# x\n\ntext\n", Page, {}, None)
    assert out.count("this project's formalization") == 1
    out = hook.on_page_markdown("# x\n\n<!-- posreal: formalization-note -->\n\ntext\n", Page, {}, None)
    assert out.count("this project's formalization") == 1


def test_a_claim_missing_from_the_runner_report_is_a_build_error():
    from mkdocs.exceptions import PluginError
    from posreal.runtime.markdown import ReportError
    gen, hook = _hooks()
    gen.reset_cache()
    _memo()[("claims", ())] = ({"theorem1": _report("theorem1")}, "fake runner", 0.0)

    class Page:
        class file:
            src_uri = "fake.md"

    try:
        with pytest.raises(ReportError, match="not in the claim report"):
            gen.GENERATORS["checks"]("theorem2")
        with pytest.raises(ReportError, match="no checks"):
            gen.GENERATORS["checks"]("theorem1")
        with pytest.raises(ReportError, match="missing from the claim report"):
            gen.GENERATORS["claims-overview"]()
        saved = hook._state["cache"]
        hook._state["cache"] = hook_module("posreal_docs_cache").DiskCache(ROOT, None)   # nothing stored
        try:   # the hook turns the package's ReportError into a build error naming the page and the marker
            with pytest.raises(PluginError, match="fake.md: checks: claim 'theorem2' is not in the claim report"):
                hook.on_page_markdown("# x\n\n<!-- posreal: checks theorem2 -->\n", Page, {}, None)
        finally:
            hook._state["cache"] = saved
    finally:
        gen.reset_cache()


def test_the_claim_runner_runs_once_per_build(monkeypatch):
    """Every checks table and both overviews render from one call of run_claims(skip_slow=True)."""
    import posreal.checks.runner as runner
    from posreal.theory.statements import STATEMENT_IDS
    gen, _ = _hooks()
    calls = []

    def fake_run_claims(ids=None, skip_slow=False, on_check=None):
        calls.append((ids, skip_slow))
        return [_report(cid, _result(cid, "proved", "counterexample")) for cid in STATEMENT_IDS]

    monkeypatch.setattr(runner, "run_claims", fake_run_claims)
    gen.reset_cache()
    try:
        for cid in STATEMENT_IDS:
            assert "1 of 1 checks good" in gen.GENERATORS["checks"](cid)
        gen.GENERATORS["claims-overview"]()
        gen.GENERATORS["claims-overview-here"]()
    finally:
        gen.reset_cache()
    assert calls == [(None, True)]


@pytest.mark.parametrize("verdict, control, good", [
    ("proved", "counterexample", True),
    ("passed", None, True),
    ("proved", "no counterexample", False),   # the negative control was not refuted: the proof may be vacuous
    ("proved", "unknown", False),
    ("unknown", None, False),
    ("counterexample", None, False),
])
def test_checks_table_counts_what_check_result_ok_says(verdict, control, good):
    """The docs count a check as good exactly when the runner's CheckResult.ok does (one definition)."""
    gen, _ = _hooks()
    result = _result("theorem2", verdict, control)
    assert result.ok is good
    gen.reset_cache()
    _memo()[("claims", ())] = ({"theorem2": _report("theorem2", result)}, "fake runner", 0.0)
    try:
        text = gen.GENERATORS["checks"]("theorem2")
    finally:
        gen.reset_cache()
    assert (f"{int(good)} of 1 checks good") in text
    assert (f"**{verdict}**" if good else f"**{verdict.upper()}**") in text


# --------------------------------------------------------------------------- anchors into the Definitions page
def test_every_definitions_reference_in_the_repository_resolves():
    anchors = _anchors()
    count = anchors.check_repository()
    refs = anchors.collect_references()
    assert count == len(refs) > 30
    where = {r.where.split(":")[0] for r in refs}
    assert {"theory/alpha.py", "docs/definitions.md"} <= where
    assert any(w.startswith("Statement.section") for w in where)


def test_a_reference_to_a_missing_anchor_is_found():
    anchors = _anchors()
    defined = anchors.defined_anchors((ROOT / "docs" / "definitions.md").read_text(encoding="utf-8"))
    assert {"transfer-coefficient", "theorem-1", "conjecture-prime"} <= defined
    bogus = "definitions.md" + "#no-such-anchor"          # split so that this file holds no bad reference
    refs = anchors.references_in(f"see {bogus} and definitions.md#theorem-1.", "fake.py")
    assert [r.anchor for r in refs] == ["no-such-anchor", "theorem-1"]
    with pytest.raises(anchors.AnchorError, match=r"fake\.py:1: #no-such-anchor"):
        anchors.check_references(refs, defined)
    assert anchors.check_references(refs[1:], defined) == 1


def test_a_bogus_anchor_in_a_source_file_is_found(tmp_path):
    """A copy of the repository's Definitions page and one module with a bad reference: the check raises."""
    anchors = _anchors()
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "definitions.md").write_text((ROOT / "docs" / "definitions.md").read_text(encoding="utf-8"),
                                                     encoding="utf-8")
    (tmp_path / "theory").mkdir()
    module = tmp_path / "theory" / "mod.py"
    module.write_text('"""Main definitions (definitions.md#transfer-coefficient)."""\n', encoding="utf-8")
    assert anchors.check_repository(tmp_path) >= 1
    module.write_text('"""Main definitions (definitions.md' + '#transfer-coeficient)."""\n', encoding="utf-8")
    with pytest.raises(anchors.AnchorError, match=r"theory/mod\.py:1: #transfer-coeficient"):
        anchors.check_repository(tmp_path)


def test_the_build_checks_every_links_anchor():
    """mkdocs validates the anchor of every link of the pages (statement boxes name ``Statement.section``), and
    strict mode makes a missing one an error."""
    import yaml
    config = yaml.safe_load((ROOT / "mkdocs.yml").read_text(encoding="utf-8"))
    assert config["strict"] is True and config["validation"]["anchors"] == "warn"


def test_a_statement_section_that_is_not_an_anchor_is_found(monkeypatch):
    import dataclasses
    import posreal.theory.statements as statements
    anchors = _anchors()
    broken = dict(statements.STATEMENTS)
    broken["theorem1"] = dataclasses.replace(broken["theorem1"], section="Results, Theorem 1")
    monkeypatch.setattr(statements, "STATEMENTS", broken)
    with pytest.raises(anchors.AnchorError, match="Statement.section of 'theorem1'"):
        anchors.statement_references()


def test_no_reference_to_files_outside_the_repository():
    """The Definitions page is the canonical text: nothing points to the working specification."""
    outside = "THEORY" + ".md"
    offenders = []
    for path in sorted(ROOT.rglob("*")):
        if not path.is_file() or {".git", "site", "__pycache__", ".pytest_cache"} & set(path.parts) \
                or path.suffix not in {".py", ".md", ".toml", ".yml", ".yaml", ".json", ".cfg", ".txt", ""}:
            continue
        if outside in path.read_text(encoding="utf-8", errors="replace"):
            offenders.append(str(path.relative_to(ROOT)))
    assert offenders == []


def test_registry_tables_come_from_the_code():
    gen, _ = _hooks()
    from posreal.theory.defaults import REGISTRY_PES
    from posreal.theory.defaults import REGISTRY_TASKS
    pes = gen.GENERATORS["pe-registry"]("16")
    tasks = gen.GENERATORS["task-registry"]("8")
    for spec in REGISTRY_PES:
        assert f"`{spec}`" in pes
    for spec in REGISTRY_TASKS:
        assert f"`{spec}`" in tasks


def test_cli_reference_lists_every_command():
    gen, _ = _hooks()
    from posreal.cli import COMMANDS
    text = gen.GENERATORS["cli-reference"]()
    for name in COMMANDS:
        assert f"## `posreal {name}`" in text


# --------------------------------------------------------------------------- the built site
@pytest.mark.site
def test_site_has_a_page_per_claim_with_its_checks(site):
    for cid in _claim_ids():
        page = site / "results" / f"{cid}.html"
        assert page.is_file(), f"no built page for claim {cid!r}"
        html = page.read_text()
        assert "Latest verdicts" in html, f"page of {cid!r} shows no verdicts from the claim runner"
        assert "<table>" in html


@pytest.mark.site
def test_no_remote_script_font_or_stylesheet(site):
    offenders = []
    for page in sorted(site.rglob("*.html")):
        parser = _Assets()
        parser.feed(page.read_text(errors="replace"))
        offenders += [(str(page.relative_to(site)), ref) for ref in parser.refs if REMOTE.match(ref)]
    for css in sorted(site.rglob("*.css")):
        text = css.read_text(errors="replace")
        refs = (re.findall(r"url\(\s*['\"]?([^'\")]+)", text)
                + re.findall(r"@import\s+(?:url\()?['\"]?([^'\")\s;]+)", text))
        offenders += [(str(css.relative_to(site)), ref) for ref in refs if REMOTE.match(ref)]
    assert not offenders, f"remote assets: {offenders[:10]}"
    assert (site / "mathjax" / "tex-svg.js").is_file(), "MathJax was not copied into the site"


@pytest.mark.site
def test_generated_tables_are_not_empty(site):
    """Every generated table (followed by its provenance line) has at least one body row."""
    seen = 0
    for page in _pages(site):
        html = page.read_text()
        for m in re.finditer(r'<p class="posreal-generated">', html):
            before = html[:m.start()]
            start = before.rfind("<table>")
            if start < 0 or "</table>" not in before[start:]:
                continue   # a figure's provenance
            body = before[start:before.rfind("</table>")]
            rows = re.findall(r"<tr>", body.split("<tbody>", 1)[-1]) if "<tbody>" in body else []
            assert rows, f"empty generated table in {page.relative_to(site)}"
            seen += 1
    assert seen >= 15, f"only {seen} generated tables found"
    assert (site / "generated" / "taxonomy.png").stat().st_size > 10_000


@pytest.mark.site
def test_formalization_said_once_on_every_page(site):
    """The note (its emphasized phrase) once per page; the API pages may quote docstrings that say it in passing."""
    for page in _pages(site):
        html = page.read_text()
        note = html.count("<strong>this project&rsquo;s formalization</strong>") + \
            html.count("<strong>this project's formalization</strong>")
        assert note == 1, f"{page.relative_to(site)} does not say exactly once that the formalization is ours"


@pytest.mark.site
def test_math_is_marked_up_for_mathjax(site):
    html = (site / "results" / "theorem1.html").read_text()
    assert 'class="arithmatex"' in html
    assert "mathjax/tex-svg.js" in html and "javascripts/mathjax-config.js" in html
    for page in _pages(site):
        text = page.read_text()
        where = page.relative_to(site)
        assert "$$" not in text, f"a display-math block was not recognized in {where}"
        inline = text.count("\\(")
        marked = len(re.findall(r'<span class="arithmatex">\\\(', text))
        assert inline == marked, f"{inline - marked} inline formulas outside arithmatex markup in {where}"


@pytest.mark.site
def test_no_placeholder_anywhere(site):
    for page in _pages(site):
        assert "Not yet built" not in page.read_text(), f"placeholder in {page.relative_to(site)}"


def test_missing_sources_are_build_errors(tmp_path):
    from posreal.counterexamples.report import certificates_report
    from posreal.runtime.markdown import ReportError
    gen, _ = _hooks()
    saved = gen.EXPERIMENT_SUMMARY
    gen.reset_cache()
    try:
        gen.EXPERIMENT_SUMMARY = tmp_path / "summary.json"
        with pytest.raises(ReportError, match="summary.json is missing|is missing"):
            gen.gen_experiment("separation")
        with pytest.raises(ReportError, match="no committed certificate"):
            certificates_report(tmp_path / "certificates")
        (tmp_path / "summary.json").write_text("{}")
        gen.reset_cache()
        with pytest.raises(ReportError, match="has no"):
            gen.gen_experiment("separation")
    finally:
        gen.EXPERIMENT_SUMMARY = saved
        gen.reset_cache()


def test_ci_builds_the_site_once_and_hands_it_to_the_tests():
    script = (ROOT / ".ci" / "run").read_text()
    builds = [line for line in script.splitlines() if "mkdocs build" in line and not line.lstrip().startswith("#")]
    assert len(builds) == 1, builds
    after = script[script.index(builds[0]):]
    assert 'export POSREAL_SITE_DIR="$PWD/site"' in after.split("pytest")[0]


# --------------------------------------------------------------------------- API pages, search, tutorial
API_PACKAGES = ("theory", "checks", "counterexamples", "experiment")


def test_api_pages_cover_every_public_package_and_theory_exports():
    """mkdocstrings renders the API: one page per public package; the theory page lists exactly __all__."""
    import posreal.theory
    nav = (ROOT / "mkdocs.yml").read_text()
    for pkg in API_PACKAGES:
        page = (ROOT / "docs" / "api" / f"{pkg}.md").read_text()
        assert f"::: posreal.{pkg}" in page and f"api/{pkg}.md" in nav
    text = (ROOT / "docs" / "api" / "theory.md").read_text()
    # the members list, and a name shown in a block of its own (taxonomy: also a submodule's name)
    listed = sorted(re.findall(r"^\s+- (\w+)$", text, re.M)
                    + re.findall(r"^::: posreal\.theory\.\w+\.(\w+)$", text, re.M))
    assert listed == list(posreal.theory.__all__)
    assert "naive_kernel_matrix" not in listed
    assert not hasattr(_hooks()[0], "gen_api_reference"), "the hand-written API generator is back"


def test_docstring_markdown_keeps_theta_star_and_code():
    ext = hook_module("griffe_posreal")
    md = ext.docstring_to_markdown("θ* (the default) and θ*_q; see :func:`~posreal.theory.alpha.compute_alpha`\n"
                                   "and ``a*b`` or <normalized>, R[i][j].\n\n* a bullet\n\nExample::\n\n    x = 1\n")
    assert r"θ\* (the default) and θ\*_q" in md and "`compute_alpha`" in md and "``a*b``" in md
    assert "&lt;normalized>" in md and "\n* a bullet" in md and "```text\nx = 1\n```" in md
    assert r"R\[i]\[j]" in md   # no reference link (autorefs would look for a target 'j')


def test_search_index_math_reads_as_text():
    sys.path.insert(0, str(HOOKS))
    try:
        search = importlib.import_module("search_offline")
    finally:
        sys.path.remove(str(HOOKS))
    assert search.tex_to_text(r"so \(\alpha_L \ge 1/2\) and \(\theta^*\)") == "so α_L ≥ 1/2 and θ*"
    assert search.tex_to_text(r"\(\lVert \theta \rVert_{\infty}\), \(\tfrac{3}{4}\)") == "‖θ‖_∞, 3/4"
    assert search.tex_to_text("no math") == "no math"

    class Entry:
        def __init__(self, title, children=()):
            self.title, self.children = title, list(children)

    class Page:
        class toc:
            items = [Entry("Transfer", [Entry(r"Length extension: \(T_L^\sigma\) (F)")])]

    assert search.on_page_content("<p/>", Page, {}, None) == "<p/>"
    assert Page.toc.items[0].children[0].title == "Length extension: T_L^σ (F)"
    assert Page.toc.items[0].title == "Transfer"


@pytest.mark.site
def test_api_pages_are_rendered_for_every_package(site):
    for pkg in API_PACKAGES:
        html = (site / "api" / f"{pkg}.html").read_text()
        assert f"posreal.{pkg}" in html and 'class="doc doc-' in html, f"API page of posreal.{pkg} is not rendered"
    theory = (site / "api" / "theory.html").read_text()
    assert "compute_alpha" in theory and "naive_kernel_matrix" not in theory
    assert "θ*" in theory and "θ<em>" not in theory, "θ* turned into italics"


@pytest.mark.site
def test_search_works_offline_and_its_index_holds_no_tex(site):
    import json
    index = json.loads((site / "search" / "search_index.json").read_text())
    texts = [d["text"] for d in index["docs"]]
    assert len(texts) > 50
    assert not [t for t in texts if "\\(" in t or "\\[" in t], "TeX left in the search index"
    assert (site / "search" / "search_index.js").read_text().startswith("var __index = ")
    home = (site / "index.html").read_text()
    assert "javascripts/file-worker.js" in home and "unpkg" not in home


@pytest.mark.site
def test_tutorial_page_shows_its_outputs(site):
    html = (site / "tutorial.html").read_text()
    # four code blocks, each followed by its output block; the verifier's verdicts are among the outputs
    assert html.count('<div class="highlight">') >= 8 and "verifier: verified" in html and "refuted" in html
    assert "execute: python" not in html and 'exec="on"' not in html
    assert "Traceback" not in html, "a tutorial block raised (markdown-exec shows the error in the page)"


def _chromium() -> str | None:
    import shutil
    return next((p for p in (shutil.which(n) for n in ("chromium", "chromium-browser", "google-chrome")) if p), None)


@pytest.mark.site
@pytest.mark.subprocess
def test_search_from_file_url_in_headless_chromium(site):
    """Opened from disk (file://) with ?q=, the search box shows results, and their text has no TeX.
    The control: the same page with the worker shim removed shows no result (the browser refuses the
    worker), so the test would see a broken offline search."""
    browser = _chromium()
    if browser is None:
        if os.environ.get("CI"):
            pytest.fail("chromium is not installed under CI (.ci/run installs it with apt)")
        pytest.skip("chromium is not installed (Debian: apt-get install chromium)")

    def results(page: Path, query: str) -> list[str]:
        proc = subprocess.run([browser, "--headless", "--no-sandbox", "--disable-gpu", "--virtual-time-budget=20000",
                               "--dump-dom", f"{page.as_uri()}?q={query}"], capture_output=True, text=True,
                              timeout=180)
        items = re.findall(r'<li class="md-search-result__item">(.*?)</li>', proc.stdout, re.S)
        return [re.sub(r"<[^>]+>", " ", item) for item in items]

    found = results(site / "index.html", "transfer")
    assert found, "no search result from file:// (search did not initialize)"
    assert not [f for f in found if "\\(" in f], "raw TeX in a search result"
    broken = site / "index-without-shim.html"
    broken.write_text((site / "index.html").read_text().replace("javascripts/file-worker.js", "missing.js"))
    try:
        assert results(broken, "transfer") == [], "the control found results without the worker shim"
    finally:
        broken.unlink()
