"""Benchmark of the trained-head experiment (run on demand: ``python benchmarks/bench_experiment.py``).

Prints, for each (V, d) setting of the full grid, trained models per minute (training at L0 with
the recipe, then measurement at L0 and at the grid's evaluation lengths) for

* the one-by-one trainer (:func:`posreal.experiment.train.train_model`, float64, one model at a
  time — the experiment's trainer before batching), on the models of the first ``--seeds`` seeds
  (every PE × task of the grid, so the mix of θ widths is the grid's), and
* the batched trainer (:func:`posreal.experiment.runner.run_batch`, in the recipe's dtype) on
  every model of the setting, in the batches the grid's run makes of them
  (:func:`posreal.experiment.runner.plan_batches` with one worker's share of the memory budget
  under ``--jobs 2``),

in the same run, with the ratio of the rates; then the overall ratio (one-by-one seconds per
model summed over the settings, over the batched ones: every setting weighted by its models, as
in the grid) and the peak resident memory.  Rates are given in wall-clock time and in CPU time of
this process: the machine may be shared, and CPU time is what the load of other processes
inflates least.  The last line reads ``batched speed-up: X.Y×`` (overall, wall clock).
"""

from __future__ import annotations

import argparse
import os
import resource
import time

import numpy as np
from posreal.experiment.grid import FULL, ModelJob, model_jobs, predictions
from posreal.experiment.recipes import RECIPES
from posreal.experiment.runner import MIB, plan_batches, run_batch
from posreal.experiment.train import measure_model, stable_seed, train_model
from posreal.theory.defaults import EXPERIMENT_MEMORY_MIB
from posreal.theory.pe_specs import parse_pe
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
    parser.add_argument("--seeds", type=int, default=1, help="seeds trained one by one per setting (default 1)")
    parser.add_argument("--recipe", choices=list(RECIPES), default="adam")
    args = parser.parse_args()
    recipe = RECIPES[args.recipe]
    grid = FULL.with_recipes((recipe,))
    budget = EXPERIMENT_MEMORY_MIB * MIB // 2          # one worker's share under --jobs 2
    print(f"recipe: {recipe.to_json()}")
    print(f"BLAS threads: {os.environ.get('OPENBLAS_NUM_THREADS', 'default')}; load average at start: "
          f"{', '.join(f'{x:.2f}' for x in os.getloadavg())} on {os.cpu_count()} CPUs")
    jobs = model_jobs(grid, predictions(grid))
    per_model = np.zeros(4)   # seconds per model summed over settings: one-by-one wall, cpu; batched wall, cpu
    for V, d in grid.settings:
        setting = [j for j in jobs if (j.vocab, j.width) == (V, d)]
        batches = plan_batches(setting, budget)
        bw = bc = 0.0
        for batch in batches:
            w, c = timed(run_batch, batch)
            bw, bc = bw + w, bc + c
        alone = [j for j in setting if j.seed < args.seeds]
        ow = oc = 0.0
        for job in alone:
            w, c = timed(one_by_one, job)
            ow, oc = ow + w, oc + c
        n, k = len(alone), len(setting)
        per_model += (ow / n, oc / n, bw / k, bc / k)
        sizes = sorted({len(b.jobs) for b in batches})
        print(f"(V, d) = ({V:2d}, {d:3d}): one-by-one {n} models {60 * n / ow:6.1f} models/min "
              f"({60 * n / oc:6.1f} per CPU-min); batched {k} models in {len(batches)} batches of "
              f"{'-'.join(map(str, sizes))} {60 * k / bw:6.1f} models/min ({60 * k / bc:6.1f} per CPU-min); "
              f"ratio {(ow / n) / (bw / k):4.1f}× wall, {(oc / n) / (bc / k):4.1f}× CPU", flush=True)
    ow, oc, bw, bc = per_model
    print(f"overall (every setting weighted by its models): one-by-one {60 * len(grid.settings) / ow:.1f} "
          f"models/min, batched {60 * len(grid.settings) / bw:.1f} models/min; CPU-time ratio {oc / bc:.1f}×; "
          f"load average at end: {', '.join(f'{x:.2f}' for x in os.getloadavg())}")
    print(f"peak RSS of this process: {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.0f} MiB")
    verdict = "meets" if ow / bw >= 4 else "BELOW"
    print(f"target: >= 4× overall ({verdict})")
    print(f"batched speed-up: {ow / bw:.1f}×")


if __name__ == "__main__":
    main()
