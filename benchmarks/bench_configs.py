"""Benchmark of α_L on real model configs at their training lengths, run on demand:
``python benchmarks/bench_configs.py [--table] [--write]``.

Targets (printed with the measured figures, never asserted in unit tests), Llama 3.1 8B's config
(examples/configs/llama-3.1-8b.json: rope:128:500000, llama3 factor 8, L0 = 8192):
  1. ``offset:1`` and ``copy`` at L0 = 8192, L = 131,072: each ≤ 10 s wall including start-up, ≤ 1 GiB;
  2. ``position:0`` at L0 = 4096, L = 32,768: ≤ 60 s, ≤ 2 GiB;
each timed as ``python -m posreal alpha ... --json`` in a child process (wall time and the child's peak RSS), beside
the way before this change in the same run: the selection held every training pair's difference (L0² / 2 of them,
p = 128 floats each) before removing duplicates, so the old memory estimate refused L0 ≥ 4096; it is timed here at
L0 = 1024, the largest it ran in minutes, and the ratio printed.

``--table``: the docs' table of the six shipped configs side by side (α_L for offset:1, offset:8, position:0 and copy
at 2×, 8× and 16× each config's original context; target ≤ 2 min for the whole table), with float32 frequencies
(as transformers computes them) beside float64 (the project's): any α that differs is printed.  ``--write`` stores
the table with its provenance in docs/data/configs/alpha-table.json for the docs.
"""

from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import time
from datetime import date
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
CONFIGS = ROOT / "examples" / "configs"
LLAMA = CONFIGS / "llama-3.1-8b.json"
TABLE_TASKS = ("offset:1", "offset:8", "position:0", "copy")
TABLE_MULTIPLES = (2, 8, 16)
OUT = ROOT / "docs" / "data" / "configs" / "alpha-table.json"


def child(argv: list[str]) -> tuple[dict, float, float]:
    """Run ``python -m posreal`` in a child: (its JSON, wall seconds, peak RSS in GiB of the children so far)."""
    start = time.perf_counter()
    out = subprocess.run([sys.executable, "-m", "posreal", *argv], capture_output=True, text=True, check=True)
    wall = time.perf_counter() - start
    peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 2 ** 20            # KiB -> GiB
    return json.loads(out.stdout), wall, peak


def old_selection_seconds(train_length: int, task: str) -> float:
    """The selection as it was: every training pair's difference (L0²/2 × p floats), float duplicates removed, then
    NNLS — timed in-process."""
    from posreal.theory.model_config import read_model_config
    from posreal.theory.selection import _nnls_ldp, difference_vectors, training_pairs
    from posreal.theory.training_set import dedupe_float
    from posreal.theory.tasks import parse_task
    pe = read_model_config(str(LLAMA)).pe
    start = time.perf_counter()
    pairs = training_pairs(parse_task(task), train_length)                               # (N, 3), N ≈ L0²/2
    z = difference_vectors(pe, pairs, train_length)                                      # (N, p)
    z, _, _ = dedupe_float(z, pairs, np.ones(len(pairs), dtype=np.int64))
    _nnls_ldp(z)
    return time.perf_counter() - start


def new_selection_seconds(train_length: int, task: str) -> float:
    from posreal.theory.model_config import read_model_config
    from posreal.theory.selection import select
    pe = read_model_config(str(LLAMA)).pe
    start = time.perf_counter()
    select(pe, task, train_length)
    return time.perf_counter() - start


def old_estimate_gib(train_length: int, task: str) -> float:
    """What the old memory estimate planned for the selection: 4 copies of (all training pairs, p) floats."""
    from posreal.theory.tasks import parse_task
    pairs = int(parse_task(task).rows(train_length).sum())
    return 4 * pairs * 128 * 8 / 2 ** 30


def targets() -> None:
    print("Llama 3.1 8B config (rope:128:500000, llama3 factor 8), α_L through `python -m posreal alpha --json`:")
    for task, L0, L, target_s, target_gib in (("offset:1", 8192, 131072, 10, 1), ("copy", 8192, 131072, 10, 1),
                                            ("position:0", 4096, 32768, 60, 2)):
        doc, wall, peak = child(["alpha", "--pe", f"hf:{LLAMA}", "--task", task, "--train-length", str(L0),
                                 "--lengths", str(L), "--json"])
        print(f"  {task:10s} L0 = {L0:5d}, L = {L:6d}: α = {doc['alpha'][str(L)]}, {wall:6.2f} s wall "
              f"(target {target_s} s), peak RSS so far {peak:.2f} GiB (target {target_gib} GiB); "
              f"before: refused (the old estimate planned {old_estimate_gib(L0, task):,.0f} GiB)")
    for task in ("offset:1", "position:0"):
        old, new = old_selection_seconds(1024, task), new_selection_seconds(1024, task)
        print(f"  selection of {task} at L0 = 1024 (the old way's largest practical size): before {old:.2f} s, "
              f"now {new:.2f} s: {old / new:.1f}x")


def float32_frequencies():
    """A context in which every frequency (the PE's and the config's) is rounded to float32 (as transformers)."""
    from contextlib import contextmanager

    import posreal.theory.rope_scaling as rope_scaling
    import posreal.theory.sinusoids as sinusoids

    @contextmanager
    def rounded():
        plain, scaled = sinusoids.frequencies, rope_scaling.RopeScaling.frequencies
        sinusoids.frequencies = lambda d, base: plain(d, base).astype(np.float32).astype(float)
        rope_scaling.RopeScaling.frequencies = (lambda self, omega, length:                  # type: ignore[method-assign]
                                                scaled(self, omega, length).astype(np.float32).astype(float))
        try:
            yield
        finally:
            sinusoids.frequencies, rope_scaling.RopeScaling.frequencies = plain, scaled      # type: ignore[method-assign]
    return rounded()


def table(write: bool) -> None:
    from posreal.theory.alpha import compute_alpha
    from posreal.theory.config_transfer import config_transfer
    from posreal.theory.model_config import read_model_config
    from posreal.runtime.provenance import versions
    rows, differ = [], []
    start, float64_seconds = time.perf_counter(), 0.0
    for path in sorted(CONFIGS.glob("*.json")):
        config = read_model_config(str(path))
        lengths = [m * config.train_length for m in TABLE_MULTIPLES]
        for task in TABLE_TASKS:
            t0 = time.perf_counter()
            result = compute_alpha(config.pe, task, config.train_length, lengths, extension=config_transfer(config))
            float64_seconds += time.perf_counter() - t0
            with float32_frequencies():
                single = compute_alpha(config.pe, task, config.train_length, lengths,
                                       extension=config_transfer(config))
            alphas = {str(L): result.alpha(L) for L in lengths}
            alphas32 = {str(L): single.alpha(L) for L in lengths}
            if alphas != alphas32:
                differ.append((path.stem, task, alphas, alphas32))
            rows.append({"config": path.name, "pe": str(config.pe), "rope_type": config.scaling.type.value,
                         "train_length": config.train_length, "task": task, "alpha": alphas,
                         "alpha_float32": alphas32, "seconds": round(time.perf_counter() - t0, 2)})
            print(f"  {path.stem:28s} {task:10s} " + "  ".join(
                f"{m}×: {'—' if a is None else f'{a:.4f}'}" for m, a in zip(TABLE_MULTIPLES, alphas.values()))
                + f"  ({rows[-1]['seconds']:.1f} s)", flush=True)
    total = time.perf_counter() - start
    print(f"whole table: float64 {float64_seconds:.1f} s (target 120 s), with the float32 one {total:.1f} s")
    print("float32 frequencies change " + (f"{len(differ)} cells: {differ}" if differ else "no α at these lengths"))
    if write:
        OUT.parent.mkdir(parents=True, exist_ok=True)
        doc = {"format": "posreal-config-alpha-table", "version": 1, "generated": date.today().isoformat(),
               "command": "python benchmarks/bench_configs.py --table --write", "versions": versions(),
               "multiples": list(TABLE_MULTIPLES), "tasks": list(TABLE_TASKS), "rows": rows,
               "float32_differs": [list(d[:2]) for d in differ], "float64_seconds": round(float64_seconds, 1)}
        OUT.write_text(json.dumps(doc, indent=2, sort_keys=True) + "\n", encoding="utf-8")
        print(f"wrote {OUT.relative_to(ROOT)}", file=sys.stderr)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--table", action="store_true", help="the docs' table of the shipped configs")
    parser.add_argument("--write", action="store_true", help="with --table: store it for the docs")
    args = parser.parse_args()
    if args.table:
        table(args.write)
    else:
        targets()


if __name__ == "__main__":
    main()
