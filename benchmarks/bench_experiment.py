"""Benchmark of the trained-head experiment (run on demand: ``python benchmarks/bench_experiment.py``).

Prints:

* trained models per minute with the grid's recipe (training at L0 plus measurement at L0 and
  2, 4, 8 × L0), per (V, d) setting of the full grid;
* the time of one training step (loss and all gradients on a batch) with attention shared by
  the batch (:func:`checks.empirical.model.loss_and_grads`) against the straightforward
  implementation that computes attention and the literal value path separately for every
  sequence (:func:`checks.empirical.model.naive_loss_and_grads`), and their ratio (target ≥ 5×).
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from checks.empirical.grid import FULL, model_jobs, predictions
from checks.empirical.model import geometry, init_params, loss_and_grads, naive_loss_and_grads
from checks.empirical.runner import run_model
from theory.encodings import parse_pe
from theory.tasks import parse_task


def models_per_minute(setting: tuple[int, int], count: int) -> float:
    """Train ``count`` models of the full grid at one (V, d) setting; models per minute."""
    jobs = [j for j in model_jobs(FULL, predictions(FULL)) if (j.vocab, j.width) == setting and j.seed == 0]
    picked = jobs[:: max(1, len(jobs) // count)][:count]   # spread over PEs and tasks
    start = time.perf_counter()
    for job in picked:
        run_model(job)
    return 60.0 * len(picked) / (time.perf_counter() - start)


def step_times(pe_spec: str, task_spec: str, V: int, d: int, repeats: int) -> tuple[float, float]:
    """Seconds per training step: shared attention, per-sequence reference."""
    rng = np.random.default_rng(0)
    L0, B = FULL.recipe.train_length, FULL.recipe.batch
    pe, task = parse_pe(pe_spec), parse_task(task_spec)
    geom = geometry(pe, task, L0, L0)
    params = init_params(V, d, pe.dim(L0), rng)
    params["theta"] = rng.standard_normal(pe.dim(L0))
    x = rng.integers(0, V, size=(B, L0))          # (B, L0)
    out = []
    for fn in (loss_and_grads, naive_loss_and_grads):
        fn(params, geom, x)                       # warm-up
        best = np.inf
        for _ in range(3):
            start = time.perf_counter()
            for _ in range(repeats):
                fn(params, geom, x)
            best = min(best, (time.perf_counter() - start) / repeats)
        out.append(best)
    return out[0], out[1]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--models", type=int, default=6, help="models timed per (V, d) setting")
    parser.add_argument("--repeats", type=int, default=100, help="steps per timing")
    args = parser.parse_args()
    print(f"recipe: {FULL.recipe}")
    total_rate = []
    for setting in FULL.settings:
        rate = models_per_minute(setting, args.models)
        total_rate.append(rate)
        print(f"(V, d) = {setting}: {rate:7.1f} trained models per minute (one process)")
    minutes = sum(FULL.size // len(FULL.multipliers) / len(FULL.settings) / r for r in total_rate)
    print(f"estimated full grid: {minutes:.1f} min on one process, {minutes / 2:.1f} min with --jobs 2 on 2 free cores")
    print()
    print("one training step (loss + all gradients), batch "
          f"{FULL.recipe.batch} × L0 = {FULL.recipe.train_length}:")
    for pe_spec in ("relbias", "rope:16", "abssin:16"):
        for V, d in ((16, 32), (64, 128)):
            fast, naive = step_times(pe_spec, "offset:1", V, d, args.repeats)
            verdict = "ok" if naive / fast >= 5 else "BELOW 5x"
            print(f"  {pe_spec:10s} (V, d) = ({V:2d}, {d:3d}): shared {1e3 * fast:6.3f} ms, per-sequence "
                  f"{1e3 * naive:6.3f} ms, ratio {naive / fast:5.1f}x  [{verdict}]")


if __name__ == "__main__":
    main()
