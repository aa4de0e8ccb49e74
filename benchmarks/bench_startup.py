"""Start-up benchmark, run on demand: ``python benchmarks/bench_startup.py [--repeats 5]``.

Whole-process wall time (median of ``--repeats`` runs, from the repository root) of

* ``python -m posreal --help``                       — target ≤ 0.35 s;
* ``python -m posreal verify <shipped certificate>`` — target ≤ 0.5 s;
* ``python -m posreal alpha --pe nope --task offset:0 --train-length 4 --lengths 8`` (a trivial α, no
  program to solve: scipy is never loaded) — target ≤ 1 s;

each next to the naive way, measured in the same run: the same command after eagerly importing
numpy, scipy, sympy, z3 and matplotlib (what start-up cost before the imports were made lazy).
The ratio naive / lazy is printed; a target that is missed is printed as MISSED and sets exit
code 1 (nothing is tuned to pass: the numbers are what this machine measured).
"""

from __future__ import annotations

import argparse
import resource
import statistics
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CERTIFICATE = "counterexamples/certificates/open_tie_designed_log2.json"
EAGER = "import numpy, scipy, sympy, z3, matplotlib"


@dataclass(frozen=True)
class Case:
    label: str
    argv: tuple[str, ...]
    target: float           # seconds, whole process


CASES = (
    Case("posreal --help", ("--help",), 0.35),
    Case("posreal verify <certificate>", ("verify", CERTIFICATE), 0.5),
    Case("posreal alpha (trivial: nope, offset:0, L0 4, L 8)",
         ("alpha", "--pe", "nope", "--task", "offset:0", "--train-length", "4", "--lengths", "8"), 1.0),
)


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def wall(command: list[str]) -> tuple[float, float]:
    """(wall, CPU) seconds for one whole process; a non-zero exit is an error, never a time.
    CPU time (user + system) is less sensitive to other load on the machine than wall time."""
    cpu0, start = _children_cpu(), time.perf_counter()
    proc = subprocess.run(command, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    seconds, cpu = time.perf_counter() - start, _children_cpu() - cpu0
    if proc.returncode != 0:
        raise SystemExit(f"bench_startup: {' '.join(command)} exited {proc.returncode}: {proc.stderr.strip()[:300]}")
    return seconds, cpu


def lazy_command(case: Case) -> list[str]:
    return [sys.executable, "-m", "posreal", *case.argv]


def naive_command(case: Case) -> list[str]:
    """The same command, with every heavy library imported first (the pre-lazy start-up)."""
    run = (f"{EAGER}; import sys, runpy; sys.argv = ['posreal', *{list(case.argv)!r}]; "
           "runpy.run_module('posreal', run_name='__main__', alter_sys=True)")
    return [sys.executable, "-c", run]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Whole-process start-up times of the posreal CLI.")
    parser.add_argument("--repeats", type=int, default=5, help="runs per command (median reported; default 5)")
    args = parser.parse_args(argv)
    if not 1 <= args.repeats <= 100:
        parser.error(f"--repeats must be between 1 and 100, got {args.repeats}")
    wall([sys.executable, "-c", "pass"])        # warm the file cache once
    wall([sys.executable, "-c", EAGER])
    missed = 0
    print(f"{'command':52s} {'lazy wall':>9s} {'naive wall':>10s} {'ratio':>6s} {'lazy cpu':>9s} "
          f"{'naive cpu':>9s} {'target':>7s}  verdict (wall)")
    for case in CASES:
        lazy, naive = [], []
        for _ in range(args.repeats):           # interleaved, so both see the same machine load
            lazy.append(wall(lazy_command(case)))
            naive.append(wall(naive_command(case)))
        lz, nv = (statistics.median(w for w, _ in lazy), statistics.median(w for w, _ in naive))
        lz_cpu, nv_cpu = (statistics.median(c for _, c in lazy), statistics.median(c for _, c in naive))
        ok = lz <= case.target
        missed += not ok
        print(f"{case.label:52s} {lz:8.3f}s {nv:9.3f}s {nv / lz:5.1f}x {lz_cpu:8.3f}s {nv_cpu:8.3f}s "
              f"{case.target:6.2f}s  {'met' if ok else 'MISSED'}")
    print(f"(medians of {args.repeats} whole-process runs each; ratio = naive wall / lazy wall; "
          f"Python {sys.version.split()[0]}; cwd {ROOT})")
    return 1 if missed else 0


if __name__ == "__main__":
    sys.exit(main())
