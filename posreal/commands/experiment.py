"""``posreal experiment``: train single-head models over a grid of (recipe, PE, task, seed, V, d)
and confront every recipe with every witness α_L^(q), q ∈ {ℓ2, ℓ∞, ℓ1} (the docs' Experiment page),
without and under each length extension (pi, ntk, yarn: the same heads evaluated through T_L^σ).

Writes ``DIR/records.jsonl`` (one JSON line per measurement, appended as each batch of models
finishes), ``DIR/run.json`` (grid, recipes, runs with wall time, peak memory and load),
``DIR/summary.json`` and ``DIR/experiment-cells.png``.  Batches of models train in this process,
on ``--jobs N`` processes, or on Dask (``--scheduler``).  Exit 0 when the run completed —
disagreements are findings, listed in the summary.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any

from posreal.commands._common import (add_executor_arguments, bounded_float, emit_json, executor_of, format_table,
                                      output_directory, positive_int)
from posreal.theory.defaults import EXPERIMENT_MEMORY_MIB

DEFAULT_OUT = "posreal-experiment"
RECIPE_CHOICES = ("adam", "signum", "gd", "all")


def add_parser(sub: Any) -> None:
    p = sub.add_parser("experiment", help="trained heads against α_L over a grid of cells",
                       description="Train one positional-only head per (recipe, PE, task, seed, V, d), measure token "
                                   "accuracy at 2, 4, 8 × L0, and compare with α_L = 1 of every witness geometry.")
    size = p.add_mutually_exclusive_group()
    size.add_argument("--quick", dest="grid", action="store_const", const="quick",
                      help="a few cells, one seed (the default)")
    size.add_argument("--full", dest="grid", action="store_const", const="full",
                      help="the full grid: every PE × task × seed × length × (vocab, width) setting")
    p.add_argument("--recipe", choices=RECIPE_CHOICES, default="all",
                   help="training recipe: adam, signum, gd, or all of them (default all)")
    p.add_argument("--out", type=output_directory, default=DEFAULT_OUT,
                   help=f"results directory (default {DEFAULT_OUT})")
    p.add_argument("--resume", action="store_true", help="continue the run in --out, skipping finished measurements")
    add_executor_arguments(p)
    p.add_argument("--memory-mib", type=positive_int, default=EXPERIMENT_MEMORY_MIB,
                   help="memory budget of the run's batches in MiB, shared by the jobs "
                        f"(default {EXPERIMENT_MEMORY_MIB})")
    p.add_argument("--threshold", type=bounded_float(0.0, 1.0, "threshold"), default=None,
                   help="token accuracy at which a measurement generalizes (default: the recipes', 0.95)")
    p.add_argument("--json", action="store_true", help="print the summary as one JSON document (no progress bar)")
    p.set_defaults(run=run, grid="quick")


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
                         "—" if w["cosine"]["median"] is None else f"{w['cosine']['median']:.3f}"])
        print(format_table(["witness", "α=1 gen.", "α=1 fails", "α<1 gen.", "α<1 fails", "ends differ",
                            "agreement", "median cos(θ, θ*_q)"], rows))
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
    print(f"\nrecords, summary and figures in {out}/ ({', '.join(p.name for p in figures)})")


def _rate(value: float | None) -> str:
    return "—" if value is None else f"{value:.4f}"


def run(args: argparse.Namespace) -> int:

    from posreal.experiment.grid import GRIDS
    from posreal.experiment.plots import write_figures
    from posreal.experiment.recipes import parse_recipes
    from posreal.experiment.runner import RUN_FILE, read_run_file, run_grid
    from posreal.experiment.summary import summarize_run
    grid = GRIDS[args.grid].with_recipes(parse_recipes(args.recipe))
    if args.threshold is not None:
        grid = grid.with_recipe(threshold=args.threshold)
    out = Path(args.out)
    records = run_grid(grid, out, resume=args.resume, progress=ModelBar(args.json), memory_mib=args.memory_mib,
                       executor=executor_of(args))
    meta = read_run_file(out / RUN_FILE)
    summary = summarize_run(records, grid, meta["runs"])
    (out / "summary.json").write_text(json.dumps(summary, indent=2, sort_keys=True) + "\n")
    figures = write_figures(summary, out)
    if args.json:
        emit_json(summary)
    else:
        _print_text(summary, out, figures)
    print(f"wrote {out / 'summary.json'}", file=sys.stderr)
    return 0
