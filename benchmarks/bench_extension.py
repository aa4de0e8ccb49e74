"""Benchmark of α_L under a length extension, run on demand: ``python benchmarks/bench_extension.py``.

Targets (printed with the measured figures, never asserted in unit tests):
  1. α_L^σ at the default lengths (32, 64, 128, 256) for one relative cell: < 1 s;
  2. α_L^σ at L = 65,536 for the same cell: < 2 s;
each beside the naive dense evaluation in the same run — the extended PE's features materialized for every
pair j ≤ i (``naive_kernel_matrix``) and each row scanned — as a ratio.  The naive way needs L(L+1)/2 · d
floats: at L = 65,536 that is 275 GB for rope:16, so there it is timed at 2048 and 4096 and extrapolated
as L² (printed as an estimate, never as a measurement).
"""

from __future__ import annotations

import argparse
import os
import time

import numpy as np

from posreal.theory.alpha import compute_alpha
from posreal.theory.extension import parse_extension
from posreal.theory.pe_specs import parse_pe
from posreal.theory.realization import classify_float
from posreal.theory.selection import select
from posreal.theory.tasks import parse_task
from posreal.theory.transfer_operator import naive_kernel_matrix

PE, TASK, TRAIN_LENGTH = "rope:16", "copy", 16
METHODS = ("pi", "ntk", "yarn")


def timed(fn, *args, **kwargs):
    start = time.perf_counter()
    out = fn(*args, **kwargs)
    return out, time.perf_counter() - start


def naive_alpha(method: str, lengths: list[int]) -> dict[int, float]:
    """α_L^σ the straightforward way: rescaled features for every (i, j ≤ i), contracted, each row scanned."""
    pe, task = parse_pe(PE), parse_task(TASK)
    theta = select(pe, task, TRAIN_LENGTH).theta
    op = parse_extension(method)
    out = {}
    for L in lengths:
        kappa = naive_kernel_matrix(op.at_length(pe, L, TRAIN_LENGTH), theta, L, TRAIN_LENGTH)   # (L, L)
        rows, targets = task.rows_and_targets(L)
        margins = np.empty(rows.size)                                                            # (m,)
        for n, (i, t) in enumerate(zip(rows.tolist(), targets.tolist())):
            row = kappa[i, : i + 1].copy()
            target, row[t] = row[t], -np.inf
            margins[n] = target - row.max() if i > 0 else np.inf
        status = classify_float(margins, kappa[rows, targets], np.zeros(rows.size, dtype=bool))
        out[L] = float(np.mean(status == 1))
    return out


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="smaller sizes (smoke run)")
    args = parser.parse_args(argv)
    long = 4096 if args.quick else 65536
    naive_sizes = (512, 1024) if args.quick else (2048, 4096)
    print(f"cell {PE} · {TASK}, L0 = {TRAIN_LENGTH}; load average {os.getloadavg()[0]:.1f} "
          f"on {os.cpu_count()} cores (timings on a loaded machine are upper bounds)")
    select(PE, TASK, TRAIN_LENGTH)   # θ* once, outside every timing: both ways use it
    default = [32, 64, 128, 256]
    for method in METHODS:
        fast, t_fast = timed(compute_alpha, PE, TASK, TRAIN_LENGTH, default, extension=method)
        slow, t_slow = timed(naive_alpha, method, default)
        agree = all(abs(fast.alpha(L) - slow[L]) < 1e-12 for L in default)
        print(f"1. {method:4s} α at L = 32..256: {t_fast:.3f} s (target < 1 s); naive dense {t_slow:.3f} s; "
              f"ratio naive/fast {t_slow / t_fast:.1f}×; same α: {agree}")
    for method in METHODS:
        fast, t_fast = timed(compute_alpha, PE, TASK, TRAIN_LENGTH, [long], extension=method)
        naive_times = {}
        for L in naive_sizes:
            slow, naive_times[L] = timed(naive_alpha, method, [L])
            check = compute_alpha(PE, TASK, TRAIN_LENGTH, [L], extension=method).alpha(L)
            assert abs(check - slow[L]) < 1e-12, (method, L, check, slow[L])
        big = naive_sizes[-1]
        estimate = naive_times[big] * (long / big) ** 2
        _, t_big = timed(compute_alpha, PE, TASK, TRAIN_LENGTH, [big], extension=method)
        print(f"2. {method:4s} α at L = {long}: {t_fast:.3f} s (target < 2 s), α = {fast.alpha(long):.4f}; naive "
              + ", ".join(f"{t:.2f} s at L = {L}" for L, t in naive_times.items())
              + f" → estimated {estimate:.0f} s at L = {long} (×(L/{big})²); ratio ≈ {estimate / t_fast:.0f}× "
              f"(estimated); measured ratio at L = {big}: {naive_times[big] / t_big:.0f}×")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
