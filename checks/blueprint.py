"""The results in Markdown beside their proofs: statement boxes with their Coq theorems, and the blueprint.

A result page's "As declared in code" box shows the statement object and the Coq theorems that state it; the
blueprint is the dependency graph of definitions and results (:mod:`posreal.theory.dependencies`, edges from
``uses``), each result coloured by its strongest latest verdict.

Main results:

* :func:`statement_box` — a result's statement object, every text escaped
  (:func:`posreal.theory.statement_markdown.inline`), its ``uses``, its checks and its Coq theorems;
* :func:`node_level`, :data:`LEVELS` — the strongest verdict of a claim's latest checks;
* :func:`blueprint_dot` — the graph in graphviz's language; :func:`render_svg` — drawn by ``dot -Tsvg``;
* :func:`blueprint` — the drawing, its legend and one table row per node.

A missing ``dot``, an unknown id or a Coq theorem the concordance names but ``proofs/`` lacks is a
:class:`~posreal.runtime.markdown.ReportError`.
"""

from __future__ import annotations

import html
import re
import shutil
import subprocess
import textwrap
from collections.abc import Mapping

from posreal.checks.coq import PROOFS_DIR
from posreal.checks.runner import ClaimReport
from posreal.runtime.markdown import ReportError
from posreal.theory.statement_markdown import inline, symbols_text

WHERE = ("results", "top")
"""Where a page sits: ``results/`` (links go up one folder) or the top of the site."""


def _prefix(where: str) -> str:
    if where not in WHERE:
        raise ReportError(f"unknown page position {where!r}; accepted: {', '.join(WHERE)}")
    return "../" if where == "results" else ""


def coq_theorems(cid: str):
    """The Coq theorems (results, negative controls) the concordance names for a claim; ((), ()) if none."""
    from posreal.checks.coq_concordance import CONCORDANCE
    proofs = CONCORDANCE.get(cid)
    return ((), ()) if proofs is None else (proofs.results, proofs.controls)


def coq_statement(file: str, name: str) -> str:
    """The text of ``Theorem name : ... .`` in proofs/FILE, up to its ``Proof.``."""
    from posreal.checks.coq import strip_comments
    path = PROOFS_DIR / file
    if not path.is_file():
        raise ReportError(f"proofs/{file} does not exist (named by the Coq concordance)")
    found = re.search(rf"(?<![\w.'])(?:Theorem|Corollary)\s+{re.escape(name)}(?![\w'])(.*?)\n\s*Proof\.",
                      strip_comments(path.read_text(encoding="utf-8")), re.S)
    if found is None:
        raise ReportError(f"proofs/{file} declares no Theorem or Corollary {name} followed by Proof.")
    body = "\n".join(line.rstrip() for line in found.group(1).strip().splitlines())
    return f"Theorem {name} {body}"


def coq_section(cid: str, ind: str) -> list[str]:
    """The Coq lines of a statement box: theorem names, controls, and their statements folded."""
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
    from posreal.theory.statements import statement
    up = _prefix(where)
    st = statement(cid)
    if not (st.name and st.hypotheses and st.conclusion):
        raise ReportError(f"statement {cid!r} lacks a name, hypotheses or a conclusion")
    ind = "    "
    out = [f'??? abstract "As declared in code: `posreal.theory.statements.statement({cid!r})`"',
           f"{ind}**{inline(st.name)}** — status: {inline(st.status)}; canonical text: "
           f"[`{st.section}`]({up}{st.section}).", "", f"{ind}*Hypotheses*", ""]
    out += [f"{ind}{n}. {inline(h)}" for n, h in enumerate(st.hypotheses, 1)]
    out += ["", f"{ind}*Conclusion*: {inline(st.conclusion)}", "", f"{ind}*Symbols*: {symbols_text(st.symbols)}.", ""]
    if st.uses:
        out += [f"{ind}*Uses*: " + ", ".join(f"`{u}`" for u in st.uses) + f" ([blueprint]({up}blueprint.md)).", ""]
    out += [f"{ind}*Checked by*: " + ", ".join(f"`{c}`" for c in st.checks) + ".", ""]
    if st.notes:
        out += [f"{ind}*Notes*: {inline(st.notes)}", ""]
    out += coq_section(cid, ind)
    return "\n".join(out) + "\n"


# strongest verdict first: (key, words, fill colour, font colour)
LEVELS = (("kernel", "kernel-checked (Coq)", "#1b7837", "white"),
          ("smt", "SMT-proved by z3 and cvc5", "#5aae61", "black"),
          ("symbolic", "proved symbolically", "#a6dba0", "black"),
          ("tested", "tested (property, registry, enumeration, training, dynamics)", "#e7f5e1", "black"),
          ("open", "open conjecture, no counterexample", "#ffffff", "black"),
          ("refuted", "refuted (the refutation is checked)", "#f4a582", "black"),
          ("failed", "a check is NOT GOOD", "#d6604d", "white"))
DEFINITION_FILL = "#eef2fb"


def node_level(report: ClaimReport) -> str:
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


def verdict_lines(report: ClaimReport) -> list[str]:
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
    for path in sorted(PROOFS_DIR.glob("*.v")):
        found.update(re.findall(r"^\s*-\s*#([a-z0-9-]+)\s*[:(]", path.read_text(encoding="utf-8"), re.M))
    return found


def _dot_string(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'


def blueprint_dot(reports: Mapping[str, ClaimReport], up: str) -> str:
    """The graph in graphviz's language: definitions as boxes, results as rounded boxes, edges used -> user."""
    from posreal.theory.dependencies import NodeKind, edges, graph_problems, nodes
    problems = graph_problems()
    if problems:
        raise ReportError("dependency graph: " + "; ".join(problems))
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
                raise ReportError(f"blueprint: claim {node.id!r} is missing from the claim report")
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
        raise ReportError("graphviz's dot is not on PATH (Debian: apt-get install graphviz); the blueprint needs it")
    run = subprocess.run([dot, "-Tsvg"], input=dot_source, capture_output=True, text=True, timeout=120)
    if run.returncode != 0:
        raise ReportError(f"dot -Tsvg failed ({run.returncode}): {run.stderr.strip()[:300]}")
    svg = run.stdout[run.stdout.index("<svg"):]
    svg = re.sub(r"<!--.*?-->", "", svg, flags=re.S)
    return "\n".join(line for line in svg.splitlines() if line.strip())


def blueprint(reports: Mapping[str, ClaimReport], source: str, seconds: float, where: str = "top") -> str:
    """The blueprint section of a page: the graph drawn, its legend and one table row per node."""
    from posreal.theory.dependencies import NodeKind, nodes
    up = _prefix(where)
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
    formal = formalized_anchors()
    for node in nodes().values():
        anchor = node.section.split("#", 1)[1]
        uses = ", ".join(f"`{u}`" for u in node.uses) or "—"
        if node.kind is NodeKind.DEFINITION:
            link = f"[{inline(node.name)}]({up}definitions.md#{anchor})"
            out.append(f"| {link} | definition | {uses} | — | {'formalized' if anchor in formal else '—'} |")
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
