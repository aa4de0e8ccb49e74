"""``posreal experiment``: train single-head models over a grid of (recipe, PE, task, seed, V, d)
and confront every recipe with every witness α_L^(q), q ∈ {ℓ2, ℓ∞, ℓ1}, and α♯_L (the docs' Experiment page): by
threshold and by attention accuracy against the witness as a number; the positional-loss recipes train θ alone
on the positional cross-entropy to their limit, on the grid's cells and on the committed open-tie instances;
without and under each length extension (pi, ntk, yarn: the same heads evaluated through T_L^σ).

Writes ``DIR/records.jsonl`` (one JSON line per measurement, appended as each batch of models
finishes), ``DIR/run.json`` (grid, recipes, runs with wall time, peak memory and load),
``DIR/summary.json`` and ``DIR/experiment-cells.png``.  ``--report SUMMARY`` trains nothing: it prints the
Markdown report of a summary written earlier (the tables of the docs' Experiment page,
:mod:`posreal.experiment.report`).  Batches of models train in this process,
on ``--jobs N`` processes, or on Dask (``--scheduler``).  Exit 0 when the run completed —
disagreements are findings, listed in the summary.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from dataclasses import replace
from pathlib import Path
from typing import Any

from posreal.commands._common import (_as_type_error, add_executor_arguments, add_force_option, bounded_float,
                                      emit_json, executor_of, format_table, output_directory, positive_int)
from posreal.runtime.output_files import write_atomic
from posreal.theory.defaults import EXPERIMENT_MEMORY_MIB

DEFAULT_OUT = "posreal-experiment"
RECIPE_NAMES = ("adam", "signum", "gd", "gd-positional", "signum-positional")
RECIPE_GROUPS = ("token", "positional", "all")


def recipe_list(text: str) -> str:
    """An argparse type: a recipe name, several separated by commas, ``token``, ``positional`` or ``all``."""
    from posreal.experiment.recipes import parse_recipes
    _as_type_error(lambda: parse_recipes(text))
    return text


def pe_list(text: str) -> tuple[str, ...]:
    """An argparse type: comma-separated PE specs (checked against the grid when the run starts)."""
    names = tuple(part.strip() for part in text.split(","))
    if not all(names) or len(set(names)) != len(names):
        raise argparse.ArgumentTypeError(f"invalid PE list {text[:80]!r}; accepted: distinct PE specs separated by "
                                         "commas, e.g. relbias,rope:16")
    return names


def earlier_run(text: str) -> str:
    """An argparse type: a directory holding an earlier run (its records.jsonl and run.json)."""
    path = Path(text)
    if not (path / "records.jsonl").is_file() or not (path / "run.json").is_file():
        raise argparse.ArgumentTypeError(f"invalid run directory {text[:80]!r}; accepted: a directory written by "
                                         "'posreal experiment' (records.jsonl and run.json)")
    return text


def summary_file(text: str) -> str:
    """An argparse type: an existing file (a summary.json written by ``posreal experiment``)."""
    if not Path(text).is_file():
        raise argparse.ArgumentTypeError(f"invalid summary file {text[:80]!r}; accepted: the summary.json written by "
                                         "'posreal experiment', e.g. docs/data/experiment/summary.json")
    return text


def add_parser(sub: Any) -> None:
    p = sub.add_parser("experiment", help="trained heads against α_L over a grid of cells",
                       description="Train one positional-only head per (recipe, PE, task, seed, V, d), measure token "
                                   "accuracy at 2, 4, 8 × L0, and compare with α_L = 1 of every witness geometry.")
    size = p.add_mutually_exclusive_group()
    size.add_argument("--quick", dest="grid", action="store_const", const="quick",
                      help="a few cells, one seed (the default)")
    size.add_argument("--full", dest="grid", action="store_const", const="full",
                      help="the full grid: every PE × task × seed × length × (vocab, width) setting")
    p.add_argument("--recipe", type=recipe_list, default="all",
                   help="training recipe: " + ", ".join(RECIPE_NAMES) + " (several separated by commas), token, "
                        "positional, or all of them (default all)")
    p.add_argument("--pes", type=pe_list, default=None, metavar="PE,PE,...",
                   help="train only these PEs of the grid (default: every PE of the grid)")
    p.add_argument("--include", type=earlier_run, action="append", default=[], metavar="DIR",
                   help="also summarize the records of an earlier run in DIR for the recipes this run does not train "
                        "(its runs' provenance is kept beside this run's, marked with DIR)")
    p.add_argument("--out", type=output_directory, default=DEFAULT_OUT,
                   help=f"results directory (default {DEFAULT_OUT})")
    p.add_argument("--resume", action="store_true", help="continue the run in --out, skipping finished measurements")
    add_force_option(p, "run in --out (its records, run file and summary are started over)")
    add_executor_arguments(p)
    p.add_argument("--memory-mib", type=positive_int, default=EXPERIMENT_MEMORY_MIB,
                   help="memory budget of the run's batches in MiB, shared by the jobs "
                        f"(default {EXPERIMENT_MEMORY_MIB})")
    p.add_argument("--threshold", type=bounded_float(0.0, 1.0, "threshold"), default=None,
                   help="token accuracy at which a measurement generalizes (default: the recipes', 0.95)")
    p.add_argument("--json", action="store_true", help="print the summary as one JSON document (no progress bar)")
    p.add_argument("--report", type=summary_file, default=None, metavar="SUMMARY",
                   help="train nothing: print the Markdown report of SUMMARY (a summary.json written earlier; the "
                        "docs' Experiment page renders the same tables)")
    p.set_defaults(run=run, grid="quick")
    from posreal.commands.two_layer import add_subcommand   # ``posreal experiment two-layer``
    add_subcommand(p)


class ModelBar:
    """A progress bar over trained models with models per minute and an ETA (stderr, terminals only)."""

    def __init__(self, quiet: bool) -> None:
        self.enabled = not quiet and sys.stderr.isatty()
        self.bar: Any = None
        self.t0 = 0.0
        self.done = 0

    def start(self, models: int) -> None:
        if not self.enabled:
            return
        from tqdm import tqdm
        self.t0 = time.perf_counter()
        self.bar = tqdm(total=models, desc="models", unit="model", file=sys.stderr, leave=False,
                        bar_format="{desc}: {n_fmt}/{total_fmt} |{bar}| {postfix} ETA {remaining}")
        self.bar.set_postfix_str("— models/min")

    def advance(self, models: int) -> None:
        if self.bar is None:
            return
        self.done += models
        minutes = (time.perf_counter() - self.t0) / 60
        self.bar.set_postfix_str(f"{self.done / minutes:.1f} models/min" if minutes > 0 else "")
        self.bar.update(models)
        self.bar.refresh()   # batches finish seconds apart: draw every one

    def close(self) -> None:
        if self.bar is not None:
            self.bar.close()


def _print_text(summary: dict, out: Path, figures: list[Path]) -> None:
    print(f"{summary['measurements']} measurements from {summary['models']} trained models; "
          f"generalizes = token accuracy >= {summary['threshold']}")
    for name, rs in summary["recipes"].items():
        print(f"\nrecipe {name}: {rs['measurements']} measurements, "
              f"{rs['realizable_measurements']} realizable at L0")
        rows = []
        for geometry, w in rs["witnesses"].items():
            t = w["table"]
            rate = w["agreement_rate"]
            rows.append([geometry, t["alpha_one"]["generalizes"], t["alpha_one"]["fails"],
                         t["alpha_below_one"]["generalizes"], t["alpha_below_one"]["fails"],
                         w["ends_differ"]["measurements"], "—" if rate is None else f"{rate:.4f}",
                         _inside(w["attention"]),
                         "—" if w["cosine"]["median"] is None else f"{w['cosine']['median']:.3f}"])
        print(format_table(["prediction", "α=1 gen.", "α=1 fails", "α<1 gen.", "α<1 fails", "ends differ",
                            "agreement", f"attention in α ± {summary['attention_tolerance']}",
                            "median cos(θ, θ*_q)"], rows))
        conv = rs["convergence"]["counts"]
        print(f"  runs converged (1 - cos(θ_T/2, θ_T) <= {summary['drift_bound']}): {conv['converged']}, not "
              f"converged: {conv['not converged']}, not recorded: {conv['not recorded']}")
        ext = rs.get("extensions", {})
        if ext:
            geoms = list(rs["witnesses"])
            rows = [["none (T_L)", *[_rate(rs["witnesses"][g]["agreement_rate"]) for g in geoms]]]
            rows += [[f"{m} ({e['measurements']} measurements)",
                      *[_rate(e["agreement"].get(g)) for g in geoms]] for m, e in ext.items()]
            print("  agreement of α_L^σ = 1 with \"generalizes under σ\", per length extension σ:")
            print(format_table(["extension", *geoms], rows))
        nc = rs["not_learned_at_train_length"]
        print(f"  not learned at L0 within budget: {nc['models']} of {nc['of']} realizable models")
        st = rs["stability"]
        if st["available"]:
            print(f"  stability at (V, d) = {tuple(st['reference'])}: {st['cell_verdicts_matching']}/"
                  f"{st['cell_verdicts_compared']} majority verdicts match the other settings")
    print(f"records, summary and figures in {out}/ ({', '.join(p.name for p in figures)})", file=sys.stderr)


def _inside(att: dict) -> str:
    if not att["measurements"]:
        return "—"
    return f"{att['inside']}/{att['measurements']} (MAE {att['mean_absolute_error']:.3f})"


def _rate(value: float | None) -> str:
    return "—" if value is None else f"{value:.4f}"


def _read_included(grid: Any, dirs: list[str]) -> list[tuple[str, dict, list[dict]]]:
    """(DIR, its run file, its records of the recipes ``grid`` does not train) for every earlier run in ``dirs``,
    checked before anything is trained: records of another L0 or threshold are refused."""
    from posreal.experiment.runner import RECORDS, RUN_FILE, read_records, read_run_file
    from posreal.theory.errors import SpecError
    own = {r.name for r in grid.recipes}
    found = []
    for d in dirs:
        meta = read_run_file(Path(d) / RUN_FILE)
        earlier, _ = read_records(Path(d) / RECORDS)
        kept = [r for r in earlier if r["recipe"]["name"] not in own]
        if {(r["train_length"], r["recipe"]["threshold"]) for r in kept} - {(grid.train_length, grid.threshold)}:
            raise SpecError(f"invalid --include {d!r}: its records have another training length or threshold; "
                            "accepted: a run of the same L0 and threshold")
        found.append((d, meta, kept))
    return found


def _with_included(records: list[dict], runs: list[dict], grid: Any,
                   included: list[tuple[str, dict, list[dict]]]) -> tuple[list, list, tuple]:
    """This run's records and runs, with those of the earlier runs read by :func:`_read_included`; the PEs of
    every run."""
    pes = list(grid.pes)
    for d, meta, kept in included:
        names = sorted({r["recipe"]["name"] for r in kept})
        records = records + kept
        runs = runs + [{**r, "included_from": Path(d).name, "recipes": names} for r in meta["runs"]]
        pes += [pe for pe in meta["grid"].get("pes", []) if pe not in pes]
    return records, runs, tuple(pes)


def _instances(grid: Any, out: Path) -> list[dict] | None:
    """The positional-loss recipes of the grid on the committed open-tie instances (DIR/instances.json)."""
    from posreal.experiment.instances import measure_instances
    recipes = tuple(r for r in grid.recipes if r.positional)
    if not recipes:
        return None
    found = measure_instances(recipes)
    write_atomic(out / "instances.json", json.dumps(found, indent=2, sort_keys=True) + "\n", "instances file",
                 force=True)   # the run's own file (a new run in a directory holding one needs --force)
    return found


def print_report(path: str) -> int:
    """``--report``: the Markdown report of a summary file on stdout; a file that is not a summary is a usage
    error naming what it lacks."""
    from posreal.experiment.report import ReportError, load_summary, report
    from posreal.theory.errors import SpecError
    try:
        text = report(load_summary(path), source=path)
    except ReportError as err:
        raise SpecError(f"invalid --report {path!r}: {err}") from err
    print(text, end="")
    return 0


def run(args: argparse.Namespace) -> int:
    if args.report is not None:
        return print_report(args.report)
    from posreal.experiment.grid import GRIDS
    from posreal.experiment.plots import write_figures
    from posreal.experiment.recipes import parse_recipes
    from posreal.experiment.runner import RUN_FILE, read_run_file, run_grid
    from posreal.experiment.summary import summarize_run
    from posreal.theory.errors import SpecError
    grid = GRIDS[args.grid].with_recipes(parse_recipes(args.recipe))
    if args.threshold is not None:
        grid = grid.with_recipe(threshold=args.threshold)
    if args.pes is not None:
        unknown = [pe for pe in args.pes if pe not in grid.pes]
        if unknown:
            raise SpecError(f"invalid --pes {unknown[0]!r}: not a PE of the {grid.name} grid; accepted: "
                            + ", ".join(grid.pes))
        grid = replace(grid, pes=tuple(pe for pe in grid.pes if pe in args.pes))
    out = Path(args.out)
    included = _read_included(grid, args.include)
    records = run_grid(grid, out, resume=args.resume, force=args.force, progress=ModelBar(args.json),
                       memory_mib=args.memory_mib, executor=executor_of(args))
    runs = [{**r, "recipes": [x.name for x in grid.recipes]} for r in read_run_file(out / RUN_FILE)["runs"]]
    records, runs, pes = _with_included(records, runs, grid, included)
    instances = _instances(grid, out)
    summary = summarize_run(records, replace(grid, pes=pes), runs)
    if instances is not None:
        summary["positional_instances"] = instances
    write_atomic(out / "summary.json", json.dumps(summary, indent=2, sort_keys=True) + "\n", "summary file",
                 force=True)   # the run's own file (a new run in a directory holding one needs --force)
    figures = write_figures(summary, out)
    if args.json:
        emit_json(summary)
    else:
        _print_text(summary, out, figures)
    print(f"wrote {out / 'summary.json'}", file=sys.stderr)
    return 0
