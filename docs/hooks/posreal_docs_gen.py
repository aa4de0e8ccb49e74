"""Generators behind the ``<!-- posreal: NAME ARG... -->`` markers (see ``posreal_docs.py``): the registry
:data:`GENERATORS` (marker name -> generator) and the figure producers :data:`ASSETS`, gathered from the
modules that hold them, one topic each:

* ``posreal_docs_alpha`` — the PE and task registries, α_L of single cells, β, ceilings, α^ind;
* ``posreal_docs_taxonomy`` — the taxonomy, its geometries and length extensions, and their figures;
* ``posreal_docs_search`` — certificates, open ties, α♯ against the flow, the searches;
* here — the claims and their checks (``posreal.checks.runner.run_claims``, the engine of ``posreal check``),
  the statements (``posreal.theory.statements``), the CLI reference (the argparse parsers of
  ``posreal.cli.build_parser``), and the experiment's report, whose tables and figures
  are the package's (``posreal.experiment.report``, ``posreal.experiment.plots``) over the committed
  ``docs/data/experiment/summary.json``.

The Python API pages are mkdocstrings' (``docs/api/``), not generated here.

Rules: nothing is pasted by hand; an empty table is an error; a source that is missing or does
not answer as its contract says is an error (``PluginError``) that names it — there is no
placeholder fallback.
"""

from __future__ import annotations

import argparse
import tempfile
import textwrap
import time
from pathlib import Path

from mkdocs.exceptions import PluginError

# sibling modules: mkdocs puts docs/hooks on sys.path while it loads the hooks
import config_table  # the model-config table
import posreal_docs_alpha as alpha
import posreal_docs_search as search
import posreal_docs_taxonomy as taxonomy
from posreal_docs_common import (DOCS, cached, fmt_seconds, log, md_escape, provenance, reset_cache, rst_to_md,
                                 table, working)

__all__ = ["ASSETS", "GENERATORS", "formalization_note", "reset_cache"]

EXPERIMENT_SUMMARY = DOCS / "data" / "experiment" / "summary.json"

FORMALIZATION = ("The precise definitions and statements on this site are <strong>this project's "
                 "formalization</strong> of the preprint's public abstract, not the preprint's own "
                 "text: where the abstract is silent, the choices are ours.")


def formalization_note(inline: bool) -> str:
    if inline:
        return f'!!! note "Whose formalization"\n    {FORMALIZATION}\n'
    return f'<div class="posreal-formalization" markdown>{FORMALIZATION}</div>'


# --------------------------------------------------------------------------- claims and their checks

RUNNER_SOURCE = "posreal.checks.runner.run_claims(skip_slow=True)"


@cached("claims")
def claims_report():
    """The claim runner (the engine of ``posreal check``), run once per build: claim id ->
    ``ClaimReport``, the source named in provenance lines, and the seconds it took.  Every page
    renders from this one result; whether a check is good is the runner's own ``CheckResult.ok``."""
    from posreal.checks.runner import run_claims
    start = time.perf_counter()
    log.info("posreal docs: running every claim's checks (posreal check --skip-slow), once for the whole site")
    def said(c) -> None:
        log.info("posreal docs:   check %s: %s — %s", c.claim, c.method, c.label)
        working.said(f"check {c.claim}: {c.label}")
    reports = {report.statement.id: report for report in run_claims(skip_slow=True, on_check=said)}
    log.info("posreal docs: claim checks done in %.1f s", time.perf_counter() - start)
    return reports, RUNNER_SOURCE, time.perf_counter() - start


def claim_ids() -> list[str]:
    ids = _statement_ids()
    if not ids:
        raise PluginError("posreal.theory.statements declares no statement")
    return ids


def _verdict(result) -> str:
    """The verdict as the runner's JSON writes it, upper-cased when the check is not good."""
    v = str(result.to_json()["verdict"])
    return f"**{v}**" if result.ok else f"**{v.upper()}**"


def _control(result) -> str:
    """The negative control in words (``posreal check``'s wording): "fails as it should" when it was refuted."""
    from posreal.checks.base import control_words
    words = control_words(result.negative_control)
    return "n/a" if result.negative_control is None else (words if result.ok else f"**{words}**")


def _solver(result, solver: str) -> str:
    """One SMT solver's answer on the proof obligation and its time, as the runner's JSON has them ("—": none)."""
    run = result.to_json().get("solvers", {}).get(solver)
    if run is None:
        return "—"
    answer = str(run["answer"])
    shown = answer if answer == "unsat" else f"**{answer}**"
    return f"{shown} ({fmt_seconds(run['seconds'])})"


def gen_checks(claim_id: str) -> str:
    claims, source, seconds = claims_report()
    if claim_id not in claims:
        raise PluginError(f"claim {claim_id!r} is not in the claim report from {source} "
                          f"(it has: {', '.join(claims)})")
    report = claims[claim_id]
    if not report.results:
        raise PluginError(f"claim {claim_id!r} has no checks in the report from {source}")
    rows = []
    for r in report.results:
        detail = str(r.detail or "")
        rows.append([md_escape(r.name), r.method, _verdict(r), _solver(r, "z3"), _solver(r, "cvc5"), _control(r),
                     fmt_seconds(r.seconds), md_escape(textwrap.shorten(detail, 160, placeholder=" …"))])
    ok = sum(r.ok for r in report.results)
    head = (f"**Latest verdicts** — {ok} of {len(report.results)} checks good "
            f"(verdict proved/passed and, where there is one, the negative control — the same check with one "
            f"hypothesis dropped — fails as it should; an SMT proof is *proved* only when z3 and cvc5 both "
            f"answer unsat).\n\n")
    out = head + table(["check", "method", "verdict", "z3", "cvc5", "control", "time", "detail"], rows,
                       f"{source}, run once during this build ({seconds:.1f} s for every claim)")
    if report.skipped:
        out += ("\nSkipped in this build because they are marked slow (run them with `posreal check "
                f"{claim_id}`):\n\n" + "\n".join(f"- {md_escape(x)}" for x in report.skipped) + "\n")
    return out


def gen_claims_overview() -> str:
    claims, source, seconds = claims_report()
    names = _statement_names()
    rows = []
    for cid in claim_ids():
        if cid not in claims:
            raise PluginError(f"claim {cid!r} is missing from the claim report ({source})")
        results = claims[cid].results
        methods = ", ".join(dict.fromkeys(r.method for r in results))
        ok = sum(r.ok for r in results)
        status = claims[cid].verdict if results and claims[cid].ok else f"**{len(results) - ok} NOT GOOD**"
        rows.append([f"[{names.get(cid, cid)}](results/{cid}.md)", f"`{cid}`", methods or "—",
                     f"{status}; {ok}/{len(results)} checks as expected"])
    return table(["result", "claim id", "methods", "latest verdicts"], rows, f"{source} ({seconds:.1f} s)")


def gen_claims_overview_from_results() -> str:
    """The same overview, with links relative to results/index.md."""
    return gen_claims_overview().replace("](results/", "](")


# --------------------------------------------------------------------------- statements
def _statements() -> dict:
    """``posreal.theory.statements.STATEMENTS`` (id -> Statement): the one declaration of each result."""
    from posreal.theory.statements import STATEMENTS
    if not STATEMENTS:
        raise PluginError("posreal.theory.statements.STATEMENTS is empty")
    return STATEMENTS


def _statement_ids() -> list[str]:
    return list(_statements())


def _statement_names() -> dict:
    return {cid: st.name for cid, st in _statements().items()}


# --------------------------------------------------------------------------- CLI and API references
def _option_rows(parser: argparse.ArgumentParser):
    rows = []
    for a in parser._actions:
        if isinstance(a, argparse._HelpAction):
            continue
        flags = ", ".join(f"`{s}`" for s in a.option_strings) or f"`{a.dest}` (positional)"
        if a.choices and not isinstance(a, argparse._SubParsersAction):
            value = " \\| ".join(f"`{c}`" for c in a.choices)
        elif a.nargs == 0:
            value = "—"
        else:
            value = f"`{a.metavar or a.dest.upper()}`"
        default = a.default
        if default in (None, argparse.SUPPRESS, False) or a.nargs == 0:
            default_text = "required" if a.required else "—"
        elif isinstance(default, list):
            default_text = "`" + ",".join(map(str, default)) + "`"
        else:
            default_text = f"`{default}`"
        rows.append([flags, value, default_text, (a.help or "").replace("%(default)s", str(default))])
    return rows


def _command_section(command: str, parser: argparse.ArgumentParser, level: int) -> list[str]:
    """One command: description, usage, options; nested subcommands (``posreal search colspan``) below it."""
    anchor = command.replace(" ", "-")
    out = [f"\n{'#' * level} `{command}` {{#{anchor}}}\n"]
    if parser.description:
        out.append(rst_to_md(parser.description) + "\n")
    out.append(f"```text\n{parser.format_usage().strip()}\n```\n")
    nested = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
    shown = [a for a in parser._actions if not isinstance(a, argparse._HelpAction)]
    rows = [r for r, a in zip(_option_rows(parser), shown) if not isinstance(a, argparse._SubParsersAction)]
    if rows:
        out.append(table(["option", "value", "default", "meaning"], rows))
    for sub in nested:
        for name, child in sub.choices.items():
            out += _command_section(f"{command} {name}", child, min(level + 1, 6))
    return out


def gen_cli_reference() -> str:
    from posreal.cli import build_parser
    parser = build_parser()
    subs = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    helps = {c.dest: c.help for c in subs._choices_actions}
    out = [f"```text\n{parser.format_usage().strip()}\n```\n", rst_to_md(parser.description or "") + "\n",
           table(["command", "what it does"], [[f"[`posreal {n}`](#posreal-{n})", helps.get(n, "")]
                                               for n in subs.choices], "posreal.cli.build_parser()")]
    for name, sp in subs.choices.items():
        out += _command_section(f"posreal {name}", sp, 2)
    out.append("\n" + provenance("posreal.cli.build_parser() (argparse)"))
    return "\n".join(out)


# --------------------------------------------------------------------------- experiment
@cached("experiment")
def experiment_summary() -> dict:
    """The committed summary, read and checked by ``posreal.experiment.report.load_summary``."""
    from posreal.experiment.report import ReportError, load_summary
    try:
        return load_summary(EXPERIMENT_SUMMARY)
    except ReportError as err:
        raise PluginError(str(err)) from err


def gen_experiment(part: str) -> str:
    """One part of the experiment's report (``posreal experiment --report``), or its figures."""
    from posreal.experiment.report import SECTIONS, ReportError, section
    if part == "figures":
        figs = experiment_figures()
        return ("\n".join(f"![experiment figure {Path(uri).name}]({uri})\n" for uri in figs) + "\n"
                + provenance("posreal.experiment.plots.write_figures over docs/data/experiment/summary.json"))
    if part not in SECTIONS:
        raise PluginError(f"unknown experiment part {part!r}; accepted: figures, {', '.join(SECTIONS)}")
    try:
        return section(part, experiment_summary())
    except ReportError as err:
        raise PluginError(str(err)) from err


@cached("experiment-figures")
def experiment_figures() -> dict[str, bytes]:
    from posreal.experiment.plots import write_figures
    summary = experiment_summary()
    with tempfile.TemporaryDirectory() as tmp:
        paths = write_figures(summary, tmp)
        if not paths:
            raise PluginError("posreal.experiment.plots.write_figures wrote no figure")
        return {f"generated/experiment/{Path(p).name}": Path(p).read_bytes() for p in paths}


def asset_experiment() -> dict[str, bytes]:
    return experiment_figures()


GENERATORS = {
    "pe-registry": alpha.gen_pe_registry,
    "task-registry": alpha.gen_task_registry,
    "alpha": alpha.gen_alpha,
    "learned": alpha.gen_learned,
    "static-routing": alpha.gen_static_routing,
    "ceilings": alpha.gen_ceilings,
    "taxonomy-table": taxonomy.gen_taxonomy_table,
    "taxonomy-grid": taxonomy.gen_taxonomy_grid,
    "taxonomy-figure": taxonomy.gen_taxonomy_figure,
    "taxonomy-duals": taxonomy.gen_taxonomy_duals,
    "taxonomy-geometries": taxonomy.gen_taxonomy_geometries,
    "taxonomy-geometries-figure": taxonomy.gen_taxonomy_geometries_figure,
    "alpha-geometries": alpha.gen_alpha_geometries,
    "checks": gen_checks,
    "claims-overview": gen_claims_overview,
    "claims-overview-here": gen_claims_overview_from_results,
    "cli-reference": gen_cli_reference,
    "certificates": search.gen_certificates,
    "open-ties": search.gen_open_ties,
    "limit-tally": search.gen_limit_tally,
    "limit-evidence": search.gen_limit_evidence,
    "limit-example": search.gen_limit_example,
    "search": search.gen_search,
    "experiment": gen_experiment,
    "extension-table": taxonomy.gen_extension_table,
    "extension-figure": taxonomy.gen_extension_figure,
    "alpha-extensions": taxonomy.gen_alpha_extensions,
    "extension-instances": taxonomy.gen_extension_instances,
    "induction-table": alpha.gen_induction_table,
    "config-table": config_table.render,
}

# What a result depends on when it is not the whole code (posreal_docs_cache.CODE): marker or figure name ->
# repository paths.  The experiment's tables and figures read the committed summary and the package's report.
EXPERIMENT_INPUTS = ("experiment", "posreal/plots.py", "docs/data/experiment", "docs/hooks", "pyproject.toml")
INPUTS = {"experiment": EXPERIMENT_INPUTS, "figure:experiment": EXPERIMENT_INPUTS,
          "limit-evidence": ("docs/data/limit", "docs/hooks")}

# Figure producers: each returns {src_uri: PNG bytes}; a source that cannot be read is a build error.
ASSETS = (taxonomy.asset_taxonomy, taxonomy.asset_taxonomy_geometries, asset_experiment, taxonomy.asset_extension)
