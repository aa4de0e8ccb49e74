"""What the ``<!-- posreal: NAME ARG... -->`` markers show (see ``posreal_docs.py``): :data:`GENERATORS` (marker name
-> a function returning Markdown) and the figure producers :data:`ASSETS`.

The Markdown is the package's own reports, which ``posreal ... --report`` prints too (``posreal.theory.*_report``,
``posreal.checks.report`` and ``.blueprint``, ``posreal.counterexamples.report``, ``posreal.experiment.report``, …).
This module only runs them: once per build for a result several markers share (:func:`cached`: the claim runner,
the taxonomy's documents), with the build's progress lines (:class:`working`, :func:`progress`), and draws the
figures with ``posreal.plots``.  A report that cannot be written is a build error naming it, never a placeholder.
"""

from __future__ import annotations

import contextlib
import io
import json
import logging
import os
import tempfile
import threading
import time
from collections.abc import Iterable, Iterator
from pathlib import Path

from mkdocs.exceptions import PluginError

from posreal import cli_reference as _cli
from posreal.checks import blueprint
from posreal.checks import report as checks_report
from posreal.counterexamples import report as cx_report
from posreal.experiment import report as experiment_report
from posreal.runtime.markdown import ReportError, provenance
from posreal.theory import alpha_report as ar
from posreal.theory import config_table, statement_markdown
from posreal.theory import taxonomy_report as tr
from posreal.theory.defaults import LENGTHS

log = logging.getLogger("mkdocs.hooks.posreal_docs")   # progress lines of the build (INFO)
ROOT = Path(__file__).resolve().parents[2]          # the repository
DOCS = ROOT / "docs"
_memo: dict = {}


def reset_cache() -> None:
    """Forget the results shared within one build (called when a build starts)."""
    _memo.clear()


def cached(key):
    """Compute once per build: several markers (a table and its figure) share one result."""
    def wrap(fn):
        def inner(*args):
            if (key, args) not in _memo:
                _memo[(key, args)] = fn(*args)
            return _memo[(key, args)]
        inner.__name__, inner.__doc__ = fn.__name__, fn.__doc__
        return inner
    return wrap


PROGRESS_SECONDS = 10.0   # a long computation says where it is at least this often (the build's log)
HEARTBEAT_SECONDS = 15.0  # and says that it is still working when one step takes longer (margin: a busy GIL)


class working:
    """While a generator or figure producer runs, a daemon thread logs "still working on LABEL" whenever the
    log has been silent for :data:`HEARTBEAT_SECONDS` (a single slow cell or solver call included), so that the
    cold build prints progress at least every 30 s."""

    last, step = [time.perf_counter()], [""]   # when the build last said something, and where it is at

    def __init__(self, label: str) -> None:
        self.label, self._stop = label, threading.Event()

    @staticmethod
    def said(step: str = "") -> None:
        working.last[0], working.step[0] = time.perf_counter(), step

    def __enter__(self) -> working:
        self.start = time.perf_counter()
        working.said()
        threading.Thread(target=self._beat, daemon=True).start()
        return self

    def _beat(self) -> None:
        while not self._stop.wait(2.0):
            if time.perf_counter() - working.last[0] >= HEARTBEAT_SECONDS:
                step = working.step[0]
                log.info("posreal docs:   … still working on %s%s (%.0f s)", self.label,
                         f", at {step}" if step else "", time.perf_counter() - self.start)
                working.said(step)

    def __exit__(self, *exc) -> None:
        self._stop.set()


def progress(label: str):
    """A ``progress`` argument of ``posreal.theory.taxonomy.taxonomy``: yields its cells in order and logs the
    cell it is at every :data:`PROGRESS_SECONDS`, so that a long table never leaves the build silent."""
    def wrap(cells: Iterable) -> Iterator:
        cells = list(cells)
        start = last = time.perf_counter()
        for n, (pe, task) in enumerate(cells, 1):
            if n == 1 or time.perf_counter() - last >= PROGRESS_SECONDS:
                last = time.perf_counter()
                log.info("posreal docs:   %s: cell %d of %d (%s · %s), %.0f s so far", label, n, len(cells), pe,
                         task, last - start)
            working.said(f"{label}, cell {n} of {len(cells)} ({pe} · {task})")
            yield pe, task
    return wrap


def cli_text(argv: list[str]) -> str:
    """``posreal ARGV`` run in-process: what it printed (exit 0 or 1), or a build error naming it."""
    from posreal.cli import main
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(argv)
    if code not in (0, 1):
        raise PluginError(f"`posreal {' '.join(argv)}` exited with {code}: {err.getvalue().strip()[:300]}")
    return out.getvalue()


def cli_json(argv: list[str]):
    """``posreal ARGV`` run in-process: its one JSON document, or a build error naming it."""
    try:
        return json.loads(cli_text(argv))
    except json.JSONDecodeError as exc:
        raise PluginError(f"`posreal {' '.join(argv)}` did not print one JSON document: {exc}") from exc


EXPERIMENT_SUMMARY = DOCS / "data" / "experiment" / "summary.json"
LIMIT_SUMMARY = DOCS / "data" / "limit" / "search_summaries.json"
CONFIG_TABLE = DOCS / "data" / "configs" / "alpha-table.json"
FORMALIZATION = ("The precise definitions and statements on this site are <strong>this project's "
                 "formalization</strong> of the preprint's public abstract, not the preprint's own "
                 "text: where the abstract is silent, the choices are ours.")


def formalization_note(inline: bool) -> str:
    return (f'!!! note "Whose formalization"\n    {FORMALIZATION}\n' if inline
            else f'<div class="posreal-formalization" markdown>{FORMALIZATION}</div>')


@cached("claims")
def claims_report():
    """The claim runner (the engine of ``posreal check --skip-slow``), run once per build: claim id ->
    ``ClaimReport``, the source named in provenance lines, and the seconds it took."""
    log.info("posreal docs: running every claim's checks (posreal check --skip-slow), once for the whole site")

    def said(c) -> None:
        log.info("posreal docs:   check %s: %s — %s", c.claim, c.method, c.label)
        working.said(f"check {c.claim}: {c.label}")
    reports, source, seconds = checks_report.run_all_claims(said)
    log.info("posreal docs: claim checks done in %.1f s", seconds)
    return reports, source, seconds


@cached("taxonomy")
def taxonomy_docs():
    return tr.taxonomy_documents(progress)


@cached("taxonomy-geometries")
def taxonomy_geometry_docs():
    return tr.geometry_documents(taxonomy_docs(), progress)


@cached("extension-taxonomy")
def extension_docs(lengths: tuple[int, ...]):
    return tr.extension_documents(lengths, progress)


def gen_ceilings(length: str = "16", *tasks: str) -> str:
    return ar.ceilings_table({(k, t): cli_json(["ceiling", "--kernel", k, "--task", t, "--length", length, "--json"])
                              for k in ar.CEILING_KERNELS for t in tasks or ar.CEILING_TASKS}, length)


def gen_search(kind: str) -> str:
    """``posreal search KIND --report`` run in-process: the page shows what the command prints."""
    if kind not in ("colspan", "conjecture"):
        raise ReportError(f"unknown search {kind!r}; accepted: colspan, conjecture")
    return cli_text(["search", kind, "--report"])


@cached("experiment")
def experiment_summary() -> dict:
    """The committed summary, read and checked by ``posreal.experiment.report.load_summary``."""
    return experiment_report.load_summary(EXPERIMENT_SUMMARY)


def gen_experiment(part: str) -> str:
    """One part of the experiment's report (``posreal experiment --report``), or its figures."""
    if part != "figures":
        return experiment_report.section(part, experiment_summary())
    return ("\n".join(f"![experiment figure {Path(uri).name}]({uri})\n" for uri in asset_experiment()) + "\n"
            + provenance("posreal.experiment.plots.write_figures over docs/data/experiment/summary.json"))


@cached("experiment-figures")
def asset_experiment() -> dict[str, bytes]:
    from posreal.experiment.plots import write_figures
    with tempfile.TemporaryDirectory() as tmp:
        paths = write_figures(experiment_summary(), tmp)
        if not paths:
            raise ReportError("posreal.experiment.plots.write_figures wrote no figure")
        return {f"generated/experiment/{Path(p).name}": Path(p).read_bytes() for p in paths}


def _png(name: str, draw) -> dict[str, bytes]:
    """``draw(path)`` writes a figure; its bytes as the generated file ``generated/NAME``."""
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, name)
        draw(path)
        return {f"generated/{name}": Path(path).read_bytes()}


def asset_taxonomy() -> dict[str, bytes]:
    from posreal.plots import plot_taxonomy
    t = taxonomy_docs()
    return _png("taxonomy.png", lambda path: plot_taxonomy(t.by["l2"], t.lengths, path))


def asset_taxonomy_geometries() -> dict[str, bytes]:
    from posreal.plots import plot_geometries
    g = taxonomy_geometry_docs()
    return _png("taxonomy_geometries.png", lambda path: plot_geometries(g.by, g.lengths, path))


def asset_extension() -> dict[str, bytes]:
    from posreal.plots import plot_extensions
    e = extension_docs(tr.EXTENSION_FIGURE_LENGTHS)
    return _png("extension.png", lambda path: plot_extensions(e.by, list(tr.EXTENSION_FIGURE_LENGTHS), path))


def figure(uri: str, alt: str, source: str):
    """A marker that places a figure drawn by :data:`ASSETS`."""
    return lambda: f"![{alt}](generated/{uri})\n\n" + provenance(source)


GENERATORS = {
    "pe-registry": ar.pe_registry, "task-registry": ar.task_registry, "alpha": ar.alpha_table,
    "alpha-geometries": ar.alpha_geometries, "static-routing": ar.static_routing, "induction-table": ar.induction_table,
    "learned": lambda pe, task: ar.learned_table(cli_json(["alpha", "--pe", pe, "--task", task, "--json"]), pe, task),
    "ceilings": gen_ceilings,
    "taxonomy-table": lambda: tr.taxonomy_table(taxonomy_docs()),
    "taxonomy-grid": lambda: tr.taxonomy_grid(taxonomy_docs()),
    "taxonomy-duals": lambda: tr.taxonomy_duals(taxonomy_docs()),
    "taxonomy-geometries": lambda: tr.geometries_table(taxonomy_geometry_docs()),
    "taxonomy-figure": figure("taxonomy.png", "α_L against L for every registry PE and realizable task",
                              "posreal.plots.plot_taxonomy over posreal.theory.taxonomy.taxonomy"),
    "taxonomy-geometries-figure": figure(
        "taxonomy_geometries.png", "α_L against L in the ℓ2, ℓ∞ and ℓ1 geometries",
        "posreal.plots.plot_geometries over posreal.theory.taxonomy.taxonomy(geometry=...)"),
    "extension-table": lambda: tr.extension_table(extension_docs(tuple(LENGTHS))),
    "extension-figure": figure(
        "extension.png", "α_L against L under each length extension, per registry cell",
        "posreal.plots.plot_extensions over posreal.theory.taxonomy.taxonomy(extension=...), "
        "L = 32, 64, 128, 256, 512, 1024"),
    "alpha-extensions": tr.alpha_extensions, "extension-instances": tr.extension_instances,
    "config-table": lambda: config_table.render(CONFIG_TABLE),
    "statement": blueprint.statement_box, "statement-text": statement_markdown.statement_text,
    "blueprint": lambda where="top": blueprint.blueprint(*claims_report(), where=where),
    "checks": lambda cid: checks_report.checks_table(cid, *claims_report()),
    "claims-overview": lambda: checks_report.claims_overview(*claims_report()),
    "claims-overview-here": lambda: checks_report.claims_overview(*claims_report(), prefix=""),
    "cli-reference": _cli.cli_reference,
    "certificates": cx_report.certificates_report, "open-ties": cx_report.open_ties_report,
    "limit-tally": checks_report.limit_tally_report,
    "limit-evidence": lambda: cx_report.limit_evidence_report(LIMIT_SUMMARY, "docs/data/limit/search_summaries.json"),
    "limit-example": checks_report.limit_example,
    "search": gen_search,
    "experiment": gen_experiment,
}

# What a result depends on when it is not the whole code (posreal_docs_cache.CODE): marker or figure name ->
# repository paths (the package's report, the Markdown helpers it writes with, the committed data).
EXPERIMENT_INPUTS = ("experiment", "posreal/plots.py", "posreal/runtime/markdown.py", "docs/data/experiment",
                     "docs/hooks", "pyproject.toml")
INPUTS = {"experiment": EXPERIMENT_INPUTS, "figure:experiment": EXPERIMENT_INPUTS,
          "limit-evidence": ("counterexamples/report.py", "posreal/runtime/markdown.py", "docs/data/limit",
                             "docs/hooks"),
          "config-table": ("theory/config_table.py", "posreal/runtime/markdown.py", "docs/data/configs", "docs/hooks")}

# Figure producers: each returns {src_uri: PNG bytes}; a source that cannot be read is a build error.
ASSETS = (asset_taxonomy, asset_taxonomy_geometries, asset_experiment, asset_extension)
