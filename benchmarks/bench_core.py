"""Benchmarks of the core engine, run on demand: ``python benchmarks/bench_core.py``.

Targets (printed with the measured figures, never asserted in unit tests):
  1. α_L for every L ≤ 65,536 of a relative PE in one call: < 1 s;
  2. ``abssin:16`` at L = 4096: < 5 s and < 1 GiB (peak traced allocation);
  3. θ* for any registry cell at L0 = 64: < 2 s;
  4. the ratio against naive evaluation that materializes the L×L×p feature tensor.
"""

from __future__ import annotations

import argparse
import time
import tracemalloc

import numpy as np

from posreal.theory import alpha_sweep, compute_alpha, parse_pe, parse_task, select
from posreal.theory.defaults import REGISTRY_PES
from posreal.theory.transfer_operator import naive_kernel_matrix
from posreal.theory.realization import classify_float, structural_ties
from posreal.theory.defaults import REGISTRY_TASKS
from posreal.theory.alpha import row_outcomes


def timed(fn):
    start = time.perf_counter()
    out = fn()
    return out, time.perf_counter() - start


def peak_memory(fn):
    tracemalloc.start()
    start = time.perf_counter()
    out = fn()
    seconds = time.perf_counter() - start
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    return out, seconds, peak


def naive_status(pe, task, theta, length, train_length):
    """The straightforward way: materialize ψ for every (i, j ≤ i), contract, scan each row."""
    kappa = naive_kernel_matrix(pe, theta, length, train_length)  # builds (L(L+1)/2, p) features
    rows, targets = task.rows_and_targets(length)
    margins = np.empty(rows.size)
    for n, (i, t) in enumerate(zip(rows, targets)):
        row = kappa[i, : i + 1].copy()
        target = row[t]
        row[t] = -np.inf
        margins[n] = target - row.max() if i > 0 else np.inf
    ties = structural_ties(pe, rows, targets, length, train_length)
    return classify_float(margins, kappa[rows, targets], ties)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="smaller sizes (smoke run)")
    args = parser.parse_args(argv)
    max_length = 4096 if args.quick else 65536

    print("1. all-lengths sweep, relative PE (rope:16 · offset:1, L0 = 16)")
    sweep, seconds = timed(lambda: alpha_sweep("rope:16", "offset:1", 16, max_length))
    print(f"   α_L for {sweep.lengths.size} lengths up to {max_length}: {seconds:.3f} s (target < 1 s); "
          f"α_{max_length} = {sweep.alpha[-1]:.4f}")

    print("2. abssin:16 · offset:1 at L = 4096 (L0 = 16)")
    sel = select("abssin:16", "offset:1", 16)
    out, seconds, peak = peak_memory(lambda: row_outcomes(sel.pe, sel.task, sel.theta, 4096, 16))
    print(f"   {seconds:.3f} s (target < 5 s), peak traced memory {peak / 2**20:.1f} MiB (target < 1024 MiB); "
          f"α = {out.alpha:.4f}")

    print("3. θ* for every registry cell at L0 = 64")
    worst, worst_cell = 0.0, None
    for pe in REGISTRY_PES:
        for task in REGISTRY_TASKS:
            _, seconds = timed(lambda pe=pe, task=task: select(pe, task, 64))
            if seconds > worst:
                worst, worst_cell = seconds, (pe, task)
    print(f"   slowest cell {worst_cell}: {worst:.3f} s (target < 2 s)")

    print("4. fast T_L + margins vs naive materialized features")
    sizes = (256, 512, 1024) if not args.quick else (128, 256)
    for spec in ("rope:16", "abssin:16"):
        pe, task = parse_pe(spec), parse_task("offset:1")
        theta = select(pe, task, 16).theta
        for L in sizes:
            if spec == "abssin:16" and L > 512:
                print(f"   {spec} L={L}: naive tensor {L * (L + 1) // 2 * 256 * 8 / 2**30:.2f} GiB — skipped")
                continue
            fast, t_fast = timed(lambda pe=pe, task=task, theta=theta, L=L: row_outcomes(pe, task, theta, L, 16).status)
            slow, t_slow = timed(lambda pe=pe, task=task, theta=theta, L=L: naive_status(pe, task, theta, L, 16))
            agree = np.array_equal(fast, slow)
            print(f"   {spec} L={L}: fast {t_fast * 1e3:.1f} ms, naive {t_slow * 1e3:.1f} ms, "
                  f"ratio {t_slow / t_fast:.0f}x, same outcomes: {agree}")

    print("5. default taxonomy (7 PEs × 8 tasks, 4 lengths)")
    _, seconds = timed(lambda: [compute_alpha(p, t) for p in REGISTRY_PES for t in REGISTRY_TASKS])
    print(f"   {seconds:.2f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
