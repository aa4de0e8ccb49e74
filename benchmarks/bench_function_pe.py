"""Benchmark of a PE given as a Python function against the same PE tabulated, run on demand:
``python benchmarks/bench_function_pe.py`` (``--length N`` to change N = 1024).

The case of issue 23: ``register_pe("mine", psi=f, kind="general", width=9)`` with a vectorized f, then
``compute_alpha("mine", "position:0", train_length=32, lengths=[1024])``.  The naive way tabulates the same
ψ(i, j) into an (N, N, p) nested list and registers the table.  Each way runs in a fresh process of its own
(so that its peak memory is its own) and is measured twice: once for time, once under tracemalloc for the
peak of traced allocations (numpy's included); the growth of the process's peak resident size during the
call is printed too.  Targets for the function: ≤ 2 s and ≤ 100 MiB at N = 1024, p = 9.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import time
import tracemalloc
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
WIDTH = 9
TARGET_SECONDS, TARGET_MIB = 2.0, 100.0


def psi(i: np.ndarray, j: np.ndarray) -> np.ndarray:
    """A general PE of width 9: RoPE-like sinusoids of n = i - j at 4 frequencies and FIRE's normalized offset."""
    n = (i - j).astype(float)[:, None]                              # (m, 1)
    omega = 10000.0 ** (-np.arange(4) / 4)                          # (4,)
    u = np.log1p(n[:, 0]) / np.log1p(np.maximum(32, i))             # (m,)
    return np.concatenate([np.cos(n * omega), np.sin(n * omega), u[:, None]], axis=1)   # (m, 9)


def tabulate(N: int) -> list:
    """The same ψ as an (N, N, p) nested list (j > i filled with zeros), row by row."""
    table = []
    zeros = [0.0] * WIDTH
    for i in range(N):
        row = psi(np.full(i + 1, i), np.arange(i + 1)).tolist()   # (i+1, p)
        table.append(row + [zeros] * (N - i - 1))
    return table


def child(way: str, N: int, traced: bool) -> dict:
    from posreal.theory import compute_alpha, register_pe
    compute_alpha("slope", "offset:1", 4, [8])             # imports and first-call costs, outside the measurement
    rss0 = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    if traced:
        tracemalloc.start()
    start = time.perf_counter()
    if way == "function":
        register_pe("mine", psi=psi, kind="general", width=WIDTH)
    else:
        register_pe("mine", tabulate(N), kind="general")
    result = compute_alpha("mine", "position:0", train_length=32, lengths=[N])
    seconds = time.perf_counter() - start
    peak = tracemalloc.get_traced_memory()[1] if traced else 0
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return {"way": way, "seconds": seconds, "traced_mib": peak / 2 ** 20, "rss_growth_mib": (rss - rss0) / 1024,
            "alpha": result.alpha(N), "realizable": result.realizable}


def run_child(way: str, N: int, traced: bool) -> dict:
    env = {**os.environ, "PYTHONPATH": str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", "")}
    proc = subprocess.run([sys.executable, __file__, "--child", way, "--length", str(N)]
                          + (["--traced"] if traced else []), capture_output=True, text=True, env=env, check=False)
    if proc.returncode != 0:
        raise SystemExit(f"{way} child failed: {proc.stderr.strip()[-2000:]}")
    return json.loads(proc.stdout.strip().splitlines()[-1])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--length", type=int, default=1024, help="N = L (default 1024)")
    parser.add_argument("--child", choices=("function", "table"), help=argparse.SUPPRESS)
    parser.add_argument("--traced", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child:
        print(json.dumps(child(args.child, args.length, args.traced)))
        return 0
    N = args.length
    print(f"compute_alpha('mine', 'position:0', train_length=32, lengths=[{N}]), general PE of width {WIDTH}; "
          f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs")
    rows = {}
    for way in ("function", "table"):
        timing, traced = run_child(way, N, False), run_child(way, N, True)
        rows[way] = (timing, traced)
        print(f"  {way:8}: {timing['seconds']:7.2f} s, peak traced {traced['traced_mib']:8.1f} MiB, peak RSS growth "
              f"{timing['rss_growth_mib']:8.1f} MiB; α_{N} = {timing['alpha']}")
    f, t = rows["function"], rows["table"]
    if f[0]["alpha"] != t[0]["alpha"]:
        print("  DISAGREEMENT: the two ways give different α")
    print(f"  ratio table/function: {t[0]['seconds'] / f[0]['seconds']:.1f}× time, "
          f"{t[1]['traced_mib'] / max(f[1]['traced_mib'], 1e-9):.1f}× traced memory")
    ok_time, ok_mem = f[0]["seconds"] <= TARGET_SECONDS, f[1]["traced_mib"] <= TARGET_MIB
    print(f"  targets for the function: ≤ {TARGET_SECONDS:g} s ({'met' if ok_time else 'MISSED'}), "
          f"≤ {TARGET_MIB:g} MiB ({'met' if ok_mem else 'MISSED'})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
