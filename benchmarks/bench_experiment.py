"""Benchmark of the trained-head experiment (run on demand: ``python benchmarks/bench_experiment.py``).

Prints, for each (V, d) setting of the full grid, trained models per minute (training at L0 with
the recipe, then measurement at L0 and 2, 4, 8 × L0) for

* the one-by-one trainer (:func:`posreal.experiment.train.train_model`, float64, one model at a
  time — the experiment's trainer before batching), and
* the batched trainer (:func:`posreal.experiment.runner.run_batch`: the same models as one
  batch with a leading model axis, in the recipe's dtype),

on the same models in the same run, with the ratio; then the overall ratio (total models over
total time, every setting weighted by its models) and the peak resident memory.  Rates are
given in wall-clock time and in CPU time of this process: the machine may be shared, and CPU
time is what the load of other processes does not inflate.  The last line reads
``batched speed-up: X.Y×`` (overall, wall clock).
"""

from __future__ import annotations

import argparse
import os
import resource
import time

import numpy as np
from posreal.experiment.batched import BatchShape, pe_dim
from posreal.experiment.grid import FULL, ModelJob, model_jobs, predictions
from posreal.experiment.recipes import RECIPES
from posreal.experiment.runner import Batch, run_batch
from posreal.experiment.train import measure_model, stable_seed, train_model
from posreal.theory.encodings import parse_pe
from posreal.theory.tasks import parse_task


def one_by_one(job: ModelJob) -> None:
    """Train and measure one model with the reference trainer."""
    pe, task = parse_pe(job.pe), parse_task(job.task)
    recipe = job.recipe.with_changes(dtype="float64")
    params, _ = train_model(pe, task, job.vocab, job.width, recipe, stable_seed(*job.key))
    measure_model(pe, task, params, job.vocab, recipe, [recipe.train_length, *job.lengths], job.key)


def timed(fn, *args) -> tuple[float, float]:
    """(wall seconds, CPU seconds of this process) of fn(*args)."""
    w, c = time.perf_counter(), time.process_time()
    fn(*args)
    return time.perf_counter() - w, time.process_time() - c


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--models", type=int, default=21,
                        help="models per (V, d) setting: the first seeds of relbias, rope:16, abscol:16 × 7 tasks")
    parser.add_argument("--recipe", choices=list(RECIPES), default="adam")
    args = parser.parse_args()
    recipe = RECIPES[args.recipe]
    grid = FULL.with_recipes((recipe,))
    print(f"recipe: {recipe.to_json()}")
    print(f"BLAS threads: {os.environ.get('OPENBLAS_NUM_THREADS', 'default')}; load average at start: "
          f"{', '.join(f'{x:.2f}' for x in os.getloadavg())} on {os.cpu_count()} CPUs")
    jobs = [j for j in model_jobs(grid, predictions(grid)) if pe_dim(j.pe, recipe.train_length) == 16]
    totals = np.zeros(4)   # one-by-one wall, cpu; batched wall, cpu
    count = 0
    for V, d in grid.settings:
        picked = sorted((j for j in jobs if (j.vocab, j.width) == (V, d)), key=lambda j: (j.seed, j.pe, j.task))
        picked = picked[: args.models]
        batch = Batch(BatchShape(V, d, 16, recipe), tuple(picked))
        bw, bc = timed(run_batch, batch)
        ow = oc = 0.0
        for job in picked:
            w, c = timed(one_by_one, job)
            ow, oc = ow + w, oc + c
        n = len(picked)
        totals += (ow, oc, bw, bc)
        count += n
        print(f"(V, d) = ({V:2d}, {d:3d}), {n} models: one-by-one {60 * n / ow:6.1f} models/min "
              f"({60 * n / oc:6.1f} per CPU-min), batched {60 * n / bw:6.1f} models/min "
              f"({60 * n / bc:6.1f} per CPU-min); "
              f"ratio {ow / bw:4.1f}× wall, {oc / bc:4.1f}× CPU")
    ow, oc, bw, bc = totals
    print(f"overall, {count} models: one-by-one {60 * count / ow:.1f} models/min, batched {60 * count / bw:.1f} "
          f"models/min; CPU-time ratio {oc / bc:.1f}×; load average at end: "
          f"{', '.join(f'{x:.2f}' for x in os.getloadavg())}")
    print(f"peak RSS of this process: {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.0f} MiB")
    verdict = "meets" if ow / bw >= 4 else "BELOW"
    print(f"target: >= 4× overall ({verdict})")
    print(f"batched speed-up: {ow / bw:.1f}×")


if __name__ == "__main__":
    main()
