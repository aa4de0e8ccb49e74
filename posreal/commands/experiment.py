"""``posreal experiment``: train single-head models over a grid of (PE, task, seed, V, d) and ask
whether α_L = 1 separates the measurements that length-generalize (THEORY-experiment.md).

Writes ``DIR/records.jsonl`` (one JSON line per measurement, appended as models finish),
``DIR/run.json`` (grid, recipe, runs), ``DIR/summary.json`` and ``DIR/experiment-cells.png``.
Exit 0 when the run completed — disagreements are findings, listed in the summary.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from posreal.commands._common import bounded_float, emit_json, format_table, jobs, output_directory, progress, with_provenance

DEFAULT_OUT = "posreal-experiment"


def add_parser(sub) -> None:
    p = sub.add_parser("experiment", help="trained heads against α_L over a grid of cells",
                       description="Train one positional-only head per (PE, task, seed, V, d), measure token "
                                   "accuracy at 2, 4, 8 × L0, and compare with the prediction α_L = 1.")
    size = p.add_mutually_exclusive_group()
    size.add_argument("--quick", dest="grid", action="store_const", const="quick",
                      help="a few cells, one seed (the default)")
    size.add_argument("--full", dest="grid", action="store_const", const="full",
                      help="the full grid: every PE × task × seed × length × (vocab, width) setting")
    p.add_argument("--out", type=output_directory, default=DEFAULT_OUT, help=f"results directory (default {DEFAULT_OUT})")
    p.add_argument("--resume", action="store_true", help="continue the run in --out, skipping finished measurements")
    p.add_argument("--jobs", type=jobs, default=1, help="worker processes (default 1)")
    p.add_argument("--threshold", type=bounded_float(0.0, 1.0, "threshold"), default=None,
                   help="token accuracy at which a measurement generalizes (default: the recipe's, 0.95)")
    p.add_argument("--json", action="store_true", help="print the summary as one JSON document")
    p.set_defaults(run=run, grid="quick")


def _bar(quiet: bool):
    return lambda it, total: progress(it, total=total, desc="models", quiet=quiet)


def _print_text(summary: dict, out: Path, figures: list[Path]) -> None:
    t = summary["table"]
    print(f"{summary['measurements']} measurements from {summary['models']} trained models; "
          f"generalizes = token accuracy >= {summary['threshold']}")
    print(format_table(["", "generalizes", "fails"],
                       [["α_L = 1", t["alpha_one"]["generalizes"], t["alpha_one"]["fails"]],
                        ["α_L < 1", t["alpha_below_one"]["generalizes"], t["alpha_below_one"]["fails"]]]))
    rate = summary["agreement_rate"]
    print(f"agreement: {summary['agreeing']}/{summary['realizable_measurements']}"
          + ("" if rate is None else f" = {rate:.4f}"))
    nr = summary["not_realizable"]
    print(f"not realizable at L0: {nr['measurements']} measurements ({nr['generalizes']} generalize)")
    if summary["disagreeing_cells"]:
        print("disagreeing cells:")
        print(format_table(["pe", "task", "L", "α_L", "disagree", "mean token acc."],
                           [[c["pe"], c["task"], c["length"], f"{c['alpha']:.4f}",
                             f"{c['disagreeing']}/{c['measurements']}", f"{c['token_accuracy']['mean']:.3f}"]
                            for c in summary["disagreeing_cells"]]))
    if summary["diagnostics"]:
        print("trained θ against θ* (one retrained model per disagreeing cell; acc_L(θ) = rows T_L θ realizes):")
        print(format_table(["pe", "task", "V×d", "seed", "cos(θ, θ*)", "acc_L(θ)", "α_L"],
                           [[d["pe"], d["task"], f"{d['vocab']}×{d['width']}", d["seed"],
                             f"{d['cosine_to_selected']:.3f}",
                             " ".join(f"{v:.3f}" for k, v in d["trained_acc"].items() if k in d["alpha"]),
                             " ".join(f"{v:.3f}" for v in d["alpha"].values())] for d in summary["diagnostics"]]))
    st = summary["stability"]
    if st["available"]:
        print(f"stability at (V, d) = {tuple(st['reference'])}: {st['cell_verdicts_matching']}/"
              f"{st['cell_verdicts_compared']} majority verdicts match the other settings")
    else:
        print(f"stability: {st['reason']}")
    print(f"records, summary and figures in {out}/ ({', '.join(p.name for p in figures)})")


def run(args) -> int:
    from posreal.experiment.diagnose import diagnose_disagreements
    from posreal.experiment.grid import GRIDS
    from posreal.experiment.plots import write_figures
    from posreal.experiment.runner import RUN_FILE, read_run_file, run_grid
    from posreal.experiment.summary import summarize
    grid = GRIDS[args.grid]
    if args.threshold is not None:
        grid = grid.with_recipe(threshold=args.threshold)
    out = Path(args.out)
    records = run_grid(grid, out, resume=args.resume, jobs=args.jobs, progress=_bar(args.json))
    meta = read_run_file(out / RUN_FILE)
    summary = with_provenance(summarize(records, grid.recipe.threshold), grid=grid.to_json(), runs=meta["runs"])
    summary["diagnostics"] = diagnose_disagreements(summary["disagreements"], grid.recipe, grid.lengths)
    (out / "summary.json").write_text(json.dumps(summary, indent=2, sort_keys=True) + "\n")
    figures = write_figures(summary, out)
    if args.json:
        emit_json(summary)
    else:
        _print_text(summary, out, figures)
    print(f"wrote {out / 'summary.json'}", file=sys.stderr)
    return 0
