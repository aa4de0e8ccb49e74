"""mkdocs hook: the results' statements, their Coq theorems and the blueprint graph, rendered from the code.

Markers (one line each, replaced before ``posreal_docs.py`` sees the page; listed first in ``mkdocs.yml``):

* ``<!-- posreal: statement-text ID -->`` — the statement of result ID on the Definitions page: hypotheses,
  conclusion, symbols and notes, from :mod:`posreal.theory.statements` (its one source);
* ``<!-- posreal: statement ID [results|top] -->`` — the "As declared in code" box of a result page, with the
  Coq theorems that state it (:data:`posreal.checks.coq_concordance.CONCORDANCE`) and their text from ``proofs/``;
* ``<!-- posreal: blueprint [results|top] -->`` — the dependency graph of definitions and results
  (:mod:`posreal.theory.dependencies`, edges from ``uses``), drawn by graphviz's ``dot`` as inline SVG, each
  result coloured by its strongest latest verdict (the claim runner, run once per build by
  ``posreal_docs_gen.claims_report``), then one table row per node.

Every text from the code is escaped by :func:`inline` (HTML entities for ``< > & * _ ` [ ] $ \\ | { } #``), so no
hypothesis can turn into a tag or emphasis (tests/test_statement_render.py renders every box through
Python-Markdown and compares the visible text).  A missing ``dot`` or an unknown id is a build error.
"""

from __future__ import annotations

import html
import re
import shutil
import subprocess
import textwrap
from pathlib import Path

from mkdocs.exceptions import PluginError

ROOT = Path(__file__).resolve().parents[2]
PROOFS = ROOT / "proofs"
MARKER = re.compile(r"^<!--\s*posreal:\s*(statement|statement-text|blueprint)((?:\s+[^\s>]+)*)\s*-->[ \t]*$", re.M)
WHERE = ("results", "top")

# characters that Markdown, its extensions (arithmatex, attr_list, tables) or HTML would act on
_ENTITIES = {c: f"&#{ord(c)};" for c in "*_`[]$\\|{}#~^!"}
_ENTITIES.update({"&": "&amp;", "<": "&lt;", ">": "&gt;"})


def inline(text: object) -> str:
    """One line of plain text as Markdown that renders to exactly that text (no tag, emphasis, math or link)."""
    return "".join(_ENTITIES.get(c, c) for c in " ".join(str(text).split()))


def _statement(cid: str):
    from posreal.theory.statements import statement
    return statement(cid)   # one-line SpecError for an unknown id: a build error


def _prefix(where: str) -> str:
    if where not in WHERE:
        raise PluginError(f"unknown page position {where!r}; accepted: {', '.join(WHERE)}")
    return "../" if where == "results" else ""


# --------------------------------------------------------------------------- statements
def statement_text(cid: str) -> str:
    """The statement as the Definitions page shows it."""
    st = _statement(cid)
    out = ["*Hypotheses.*", ""] + [f"{n}. {inline(h)}" for n, h in enumerate(st.hypotheses, 1)]
    out += ["", f"*Conclusion.* {inline(st.conclusion)}", ""]
    out += ["*Symbols.* " + "; ".join(f"{inline(k)} — {inline(v)}" for k, v in st.symbols) + ".", ""]
    if st.notes:
        out += [f"*Notes.* {inline(st.notes)}", ""]
    out += [f"[Proof and checks](results/{cid}.md).", ""]
    return "\n".join(out)


def coq_theorems(cid: str):
    """The Coq theorems (results, negative controls) the concordance names for a claim; ((), ()) if none."""
    from posreal.checks.coq_concordance import CONCORDANCE
    proofs = CONCORDANCE.get(cid)
    return ((), ()) if proofs is None else (proofs.results, proofs.controls)


def coq_statement(file: str, name: str) -> str:
    """The text of ``Theorem name : ... .`` in proofs/FILE, up to its ``Proof.`` (a build error if absent)."""
    from posreal.checks.coq import strip_comments
    path = PROOFS / file
    if not path.is_file():
        raise PluginError(f"proofs/{file} does not exist (named by the Coq concordance)")
    found = re.search(rf"(?<![\w.'])(?:Theorem|Corollary)\s+{re.escape(name)}(?![\w'])(.*?)\n\s*Proof\.",
                      strip_comments(path.read_text(encoding="utf-8")), re.S)
    if found is None:
        raise PluginError(f"proofs/{file} declares no Theorem or Corollary {name} followed by Proof.")
    body = "\n".join(line.rstrip() for line in found.group(1).strip().splitlines())
    return f"Theorem {name} {body}"


def coq_section(cid: str, ind: str) -> list[str]:
    from posreal.checks.coq_concordance import NOT_YET_IN_COQ
    results, controls = coq_theorems(cid)
    if not results:
        why = NOT_YET_IN_COQ.get(cid, "no statement over all lengths to check in Coq")
        return [f"{ind}*Coq*: none — {inline(why)}.", ""]
    files = ", ".join(dict.fromkeys(f"`proofs/{t.file}`" for t in results))
    out = [f"{ind}*Coq* ({files}): " + ", ".join(f"`{t.name}`" for t in results)
           + "; negative controls: " + ", ".join(f"`{t.name}`" for t in controls) + ".", "",
           f'{ind}??? note "Coq statements of {inline(cid)}"', ""]
    for thm in results:
        out += [f"{ind}    ```coq"] + [f"{ind}    {line}" for line in coq_statement(thm.file, thm.name).splitlines()]
        out += [f"{ind}    ```", ""]
    return out


def statement_box(cid: str, where: str = "results") -> str:
    """The "As declared in code" box of a result page: the statement object, every text escaped."""
    up = _prefix(where)
    st = _statement(cid)
    if not (st.name and st.hypotheses and st.conclusion):
        raise PluginError(f"statement {cid!r} lacks a name, hypotheses or a conclusion")
    ind = "    "
    out = [f'??? abstract "As declared in code: `posreal.theory.statements.statement({cid!r})`"',
           f"{ind}**{inline(st.name)}** — status: {inline(st.status)}; canonical text: "
           f"[`{st.section}`]({up}{st.section}).", "", f"{ind}*Hypotheses*", ""]
    out += [f"{ind}{n}. {inline(h)}" for n, h in enumerate(st.hypotheses, 1)]
    out += ["", f"{ind}*Conclusion*: {inline(st.conclusion)}", ""]
    out += [f"{ind}*Symbols*: " + "; ".join(f"{inline(k)} — {inline(v)}" for k, v in st.symbols) + ".", ""]
    if st.uses:
        out += [f"{ind}*Uses*: " + ", ".join(f"`{u}`" for u in st.uses) + f" ([blueprint]({up}blueprint.md)).", ""]
    out += [f"{ind}*Checked by*: " + ", ".join(f"`{c}`" for c in st.checks) + ".", ""]
    if st.notes:
        out += [f"{ind}*Notes*: {inline(st.notes)}", ""]
    out += coq_section(cid, ind)
    return "\n".join(out) + "\n"


# --------------------------------------------------------------------------- blueprint
# strongest verdict first: (key, words, fill colour, font colour)
LEVELS = (("kernel", "kernel-checked (Coq)", "#1b7837", "white"),
          ("smt", "SMT-proved by z3 and cvc5", "#5aae61", "black"),
          ("symbolic", "proved symbolically", "#a6dba0", "black"),
          ("tested", "tested (property, registry, enumeration, training, dynamics)", "#e7f5e1", "black"),
          ("open", "open conjecture, no counterexample", "#ffffff", "black"),
          ("refuted", "refuted (the refutation is checked)", "#f4a582", "black"),
          ("failed", "a check is NOT GOOD", "#d6604d", "white"))
DEFINITION_FILL = "#eef2fb"


def node_level(report) -> str:
    """The strongest verdict of a claim's latest checks (a key of LEVELS)."""
    from posreal.checks.base import Verdict
    from posreal.theory.statements import CONJECTURE, REFUTED
    if not report.ok:
        return "failed"
    status = report.statement.status
    if status == REFUTED:
        return "refuted"
    if status == CONJECTURE:
        return "open"
    verdicts = {(r.method, r.verdict) for r in report.results}
    if any(v is Verdict.KERNEL_CHECKED for _, v in verdicts):
        return "kernel"
    if ("smt", Verdict.PROVED) in verdicts:
        return "smt"
    if any(v is Verdict.PROVED for _, v in verdicts):
        return "symbolic"
    return "tested"


def verdict_lines(report) -> list[str]:
    """"method: verdict ×count" per method and verdict, then the skipped checks ("not run", "slow")."""
    counts: dict[tuple[str, str], int] = {}
    for r in report.results:
        key = (r.method, r.to_json()["verdict"] if r.ok else str(r.to_json()["verdict"]).upper())
        counts[key] = counts.get(key, 0) + 1
    lines = [f"{m}: {v}" + (f" ×{n}" if n > 1 else "") for (m, v), n in counts.items()]
    lines += [s.split(" (")[0].split(":")[0] + ": " + ("not run" if "not run" in s else "skipped (slow)")
              for s in report.skipped]
    return list(dict.fromkeys(lines))


def formalized_anchors() -> set[str]:
    """Anchors of docs/definitions.md that a Coq file's header says it formalizes (``- #anchor:``)."""
    found: set[str] = set()
    for path in sorted(PROOFS.glob("*.v")):
        found.update(re.findall(r"^\s*-\s*#([a-z0-9-]+)\s*[:(]", path.read_text(encoding="utf-8"), re.M))
    return found


def _dot_string(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'


def blueprint_dot(reports: dict, up: str) -> str:
    """The graph in graphviz's language: definitions as boxes, results as rounded boxes, edges used -> user."""
    from posreal.theory.dependencies import NodeKind, edges, graph_problems, nodes
    problems = graph_problems()
    if problems:
        raise PluginError("dependency graph: " + "; ".join(problems))
    colours = {key: (fill, font) for key, _, fill, font in LEVELS}
    formal = formalized_anchors()
    lines = ["digraph blueprint {", '  graph [rankdir=TB, nodesep=0.25, ranksep=0.45, bgcolor="transparent"];',
             '  node [fontname="Helvetica", fontsize=10, style="filled", penwidth=1.2];',
             '  edge [color="#7f7f7f", arrowsize=0.6];']
    for node in nodes().values():
        anchor = node.section.split("#", 1)[1]
        if node.kind is NodeKind.DEFINITION:
            border = "#1b7837" if anchor in formal else "#4d4d4d"
            label, url = textwrap.fill(node.name, 24), f"{up}definitions.html#{anchor}"
            attrs = f'shape=box, fillcolor="{DEFINITION_FILL}", color="{border}"'
        else:
            if node.id not in reports:
                raise PluginError(f"blueprint: claim {node.id!r} is missing from the claim report")
            report = reports[node.id]
            fill, font = colours[node_level(report)]
            label = "\n".join([textwrap.fill(node.name, 28), *verdict_lines(report)])
            url = f"{up}results/{node.id}.html"
            border = "#1b7837" if coq_theorems(node.id)[0] else "#4d4d4d"
            attrs = f'shape=box, style="rounded,filled", fillcolor="{fill}", fontcolor="{font}", color="{border}"'
        lines.append(f"  {_dot_string(node.id)} [label={_dot_string(label)}, URL={_dot_string(url)}, "
                     f"tooltip={_dot_string(node.name)}, {attrs}];")
    lines += [f"  {_dot_string(a)} -> {_dot_string(b)};" for a, b in edges()]
    return "\n".join(lines + ["}"]) + "\n"


def render_svg(dot_source: str) -> str:
    """``dot -Tsvg``, without its XML prolog and comments, on lines with no blank one (raw HTML for Markdown)."""
    dot = shutil.which("dot")
    if dot is None:
        raise PluginError("graphviz's dot is not on PATH (Debian: apt-get install graphviz); the blueprint needs it")
    run = subprocess.run([dot, "-Tsvg"], input=dot_source, capture_output=True, text=True, timeout=120)
    if run.returncode != 0:
        raise PluginError(f"dot -Tsvg failed ({run.returncode}): {run.stderr.strip()[:300]}")
    svg = run.stdout[run.stdout.index("<svg"):]
    svg = re.sub(r"<!--.*?-->", "", svg, flags=re.S)
    return "\n".join(line for line in svg.splitlines() if line.strip())


def _claims_report():
    import posreal_docs_gen as gen   # sibling module: the claim runner, run once per build
    reports, source, seconds = gen.claims_report()
    return reports, source, seconds


def blueprint(where: str = "top") -> str:
    up = _prefix(where)
    from posreal.theory.dependencies import NodeKind, nodes
    reports, source, seconds = _claims_report()
    svg = render_svg(blueprint_dot(reports, up))
    legend = " ".join(f'<span class="posreal-swatch" style="background:{fill};color:{font};padding:0 .3em;'
                      f'border:1px solid #999;border-radius:3px">{html.escape(words)}'
                      "</span>" for _, words, fill, font in LEVELS)
    out = ['<div class="posreal-blueprint" style="overflow-x:auto">', svg, "</div>", "",
           f'<p class="posreal-legend">{legend}</p>', "",
           "Arrows go from what is used to what uses it (each result's `uses`). A result's fill is its strongest "
           "latest verdict; a green border means its statement is stated in Coq (a result) or formalized by a Coq "
           "file (a definition). Click a node for its page.", "",
           "| node | kind | uses | latest verdicts | Coq |", "|---|---|---|---|---|"]
    for node in nodes().values():
        anchor = node.section.split("#", 1)[1]
        uses = ", ".join(f"`{u}`" for u in node.uses) or "—"
        if node.kind is NodeKind.DEFINITION:
            link = f"[{inline(node.name)}]({up}definitions.md#{anchor})"
            coq = "formalized" if anchor in formalized_anchors() else "—"
            out.append(f"| {link} | definition | {uses} | — | {coq} |")
            continue
        report = reports[node.id]
        level = next(words for key, words, _, _ in LEVELS if key == node_level(report))
        results, _ = coq_theorems(node.id)
        coq = (f"`proofs/{results[0].file}` ({len(results)} theorems)" if results else "—")
        out.append(f"| [{inline(node.name)}]({up}results/{node.id}.md) | result | {uses} | "
                   f"**{inline(level)}**: {inline('; '.join(verdict_lines(report)))} | {coq} |")
    out += ["", f'<p class="posreal-generated">Generated at build time from <code>posreal.theory.dependencies</code> '
                f"and <code>{html.escape(source)}</code> ({seconds:.1f} s), drawn by graphviz.</p>", ""]
    return "\n".join(out)


GENERATORS = {"statement": statement_box, "statement-text": statement_text, "blueprint": blueprint}


def on_page_markdown(markdown, page, config, files, **kwargs):
    def expand(match: re.Match) -> str:
        name, args = match.group(1), match.group(2).split()
        try:
            return GENERATORS[name](*args)
        except PluginError as err:
            raise PluginError(f"statements_render: {page.file.src_uri}: {name}: {err}") from err
        except Exception as err:
            raise PluginError(f"statements_render: {page.file.src_uri}: {name} {' '.join(args)} failed: "
                              f"{type(err).__name__}: {err}") from err
    return MARKER.sub(expand, markdown)
