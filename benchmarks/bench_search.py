"""Benchmark of the conjecture search, run on demand: ``python benchmarks/bench_search.py``.

Target (printed with the measured figures, never asserted in unit tests): ≥ 50 instances/s on
2 cores for registry-sized instances without open ties — the registry grid of
:mod:`posreal.counterexamples.sampling` (every rational and sinusoidal registry PE with parameters, every
task, L0 ∈ {4, 8, 16}, L ∈ {2·L0, 4·L0}).  The figure is for **one** process (the search itself
is single-process; a second core only helps a second search).  Instances that contain ties
(exact open ties or float near-ties) run gradient descent and are timed separately.
"""

from __future__ import annotations

import argparse
import statistics
import time

from posreal.counterexamples.conjecture import _SELECTIONS, evaluate
from posreal.counterexamples.sampling import FAMILIES, instance

TARGET = 50.0


def measure(seed: int, count: int, families: tuple[str, ...], gd_steps: int) -> dict:
    _SELECTIONS.clear()
    plain, tied = [], []
    start = time.perf_counter()
    for k in range(count):
        t0 = time.perf_counter()
        record = evaluate(instance(seed, k, families), gd_steps)
        dt = time.perf_counter() - t0
        (tied if record.open_ties or record.float_ties else plain).append(dt)
    total = time.perf_counter() - start
    return {"instances": count, "seconds": total, "overall_rate": count / total,
            "plain": len(plain), "plain_rate": len(plain) / sum(plain) if plain else float("nan"),
            "plain_median_ms": 1000 * statistics.median(plain) if plain else float("nan"),
            "plain_max_ms": 1000 * max(plain) if plain else float("nan"),
            "tied": len(tied), "tied_mean_s": statistics.mean(tied) if tied else float("nan")}


def report(name: str, m: dict, target: float | None) -> None:
    print(f"{name}: {m['instances']} instances in {m['seconds']:.1f} s — overall {m['overall_rate']:.1f} /s")
    line = (f"  without ties: {m['plain']} instances, {m['plain_rate']:.1f} /s "
            f"(median {m['plain_median_ms']:.1f} ms, max {m['plain_max_ms']:.0f} ms)")
    if target is not None:
        line += f"  [target ≥ {target:.0f} /s: {'met' if m['plain_rate'] >= target else 'NOT MET'}]"
    print(line)
    print(f"  with ties (gradient descent): {m['tied']} instances, mean {m['tied_mean_s']:.2f} s each")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=600, help="instances per measurement (default 600)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--gd-steps", type=int, default=20000)
    args = parser.parse_args()
    report("registry grid", measure(args.seed, args.count, ("registry",), args.gd_steps), TARGET)
    report("all families (registry, relative, column, general tables)",
           measure(args.seed, args.count, FAMILIES, args.gd_steps), None)


if __name__ == "__main__":
    main()
