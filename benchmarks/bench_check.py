"""``posreal check --skip-slow`` benchmark, run on demand: ``python benchmarks/bench_check.py [--no-naive]``.

Runs, from the repository root, as whole processes:

* ``python -m posreal check --skip-slow --json`` — target ≤ 30 s of wall time on the 2-core machine;
* the naive way, in the same run (unless ``--no-naive``): ``python -m posreal check --json``, every check
  including the ones marked slow (what a user waited for before they were marked).

Each line gives wall and CPU seconds (CPU: user + system of the child process, which says how much work
it was whatever the machine's load) and the 1-minute load average before and after, so a number measured
on a busy machine is read as such; then the five longest checks.  A missed target prints MISSED and sets
exit code 1 (nothing is tuned to pass: the numbers are what this machine measured).
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TARGET = 30.0


def run(argv: list[str]) -> tuple[float, float, dict]:
    """(wall seconds, CPU seconds of the child, the JSON document) of ``python -m posreal ARGV``."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    proc = subprocess.run([sys.executable, "-m", "posreal", *argv], cwd=ROOT, capture_output=True, text=True)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    if proc.returncode not in (0, 1):
        raise SystemExit(f"posreal {' '.join(argv)} exited {proc.returncode}: {proc.stderr[-500:]}")
    return wall, cpu, json.loads(proc.stdout)


def longest(doc: dict, n: int = 5) -> list[str]:
    checks = [(c["seconds"], f"{claim['id']}: {c['method']} — {c['name'][:60]}")
              for claim in doc["claims"] for c in claim["checks"]]
    return [f"    {s:7.2f} s  {label}" for s, label in sorted(checks, reverse=True)[:n]]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--no-naive", action="store_true", help="skip the naive run (every check, minutes)")
    args = parser.parse_args()
    load0 = os.getloadavg()[0]
    wall, cpu, doc = run(["check", "--skip-slow", "--json"])
    load1 = os.getloadavg()[0]
    checks = sum(len(c["checks"]) for c in doc["claims"])
    verdict = "ok" if wall <= TARGET else "MISSED"
    print(f"posreal check --skip-slow: {wall:.1f} s wall, {cpu:.1f} s CPU, {checks} checks, all good: {doc['ok']} "
          f"(target ≤ {TARGET:g} s wall: {verdict}; load average {load0:.1f} -> {load1:.1f} on {os.cpu_count()} cores)")
    print("\n".join(longest(doc)))
    if not args.no_naive:
        nwall, ncpu, ndoc = run(["check", "--json"])
        nchecks = sum(len(c["checks"]) for c in ndoc["claims"])
        print(f"naive, posreal check (every check, slow ones too): {nwall:.1f} s wall, {ncpu:.1f} s CPU, "
              f"{nchecks} checks; ratio naive / --skip-slow: {nwall / wall:.1f}× wall, {ncpu / cpu:.1f}× CPU")
        print("\n".join(longest(ndoc)))
    return 0 if verdict == "ok" else 1


if __name__ == "__main__":
    sys.exit(main())
