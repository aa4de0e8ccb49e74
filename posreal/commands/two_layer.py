"""``posreal experiment two-layer``: two-layer attention models (JAX) trained on ``induction`` and ``copy`` at L0
and evaluated at 2, 4, 8 × L0 under each length extension, against α_L^ind and the one-head α_L(copy).

Appends one JSON line per measurement to ``--out`` as each model finishes (``--resume`` continues a run), then
writes the summary beside it (``FILE.summary.json``) and prints the per-cell table.  Exit 0 when the run
completed — disagreements with the theory are findings, listed in the summary; 2 for usage (JAX missing, an
earlier run in ``--out`` without ``--resume``).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path
from typing import Any

from posreal.commands._common import emit_json

DEFAULT_OUT = "posreal-two-layer.jsonl"


def add_subcommand(experiment_parser: Any) -> None:
    """Add ``two-layer`` under ``posreal experiment`` (the plain ``posreal experiment`` is unchanged)."""
    sub = experiment_parser.add_subparsers(dest="experiment_command", metavar="{two-layer}")
    p = sub.add_parser("two-layer", help="two-layer models on induction and copy against α^ind and α(copy)",
                       description="Train two-layer attention models (the PE in both layers) at L0 on induction and "
                                   "copy, evaluate at 2, 4, 8 × L0 under each length extension, and compare with "
                                   "α_L^ind and the one-head α_L(copy).")
    p.add_argument("--quick", dest="two_layer_grid", action="store_const", const="quick", default="full",
                   help="two PEs, one seed, 2 × L0 only (≤ 3 min); default: the full grid (≤ 60 min on 2 cores)")
    p.add_argument("--out", default=DEFAULT_OUT, help=f"records file, JSON lines (default {DEFAULT_OUT})")
    p.add_argument("--resume", action="store_true", help="continue the run in --out, skipping finished models")
    p.add_argument("--json", action="store_true", help="print the summary as one JSON document")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    os.environ.setdefault("XLA_FLAGS", "--xla_cpu_multi_thread_eigen=false intra_op_parallelism_threads=1")
    from posreal.experiment.two_layer_grid import GRIDS, run_grid
    from posreal.experiment.two_layer_model import require_jax
    from posreal.experiment.two_layer_summary import render_markdown, summarize
    from posreal.runtime.output_files import write_atomic
    require_jax()
    grid = GRIDS[args.two_layer_grid]
    records = run_grid(grid, args.out, resume=args.resume)
    summary = summarize(records, grid)
    target = Path(str(args.out) + ".summary.json") if not str(args.out).endswith(".jsonl") else \
        Path(str(args.out)[:-len(".jsonl")] + ".summary.json")
    write_atomic(target, json.dumps(summary, indent=2, sort_keys=True) + "\n", "summary file", force=True)
    if args.json:
        emit_json(summary)
    else:
        print(render_markdown(summary))
    print(f"wrote {target}", file=sys.stderr)
    return 0
