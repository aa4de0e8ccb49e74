"""The exact active-set selection's work estimate against its measured time, run on demand:
``python benchmarks/bench_exact_qp.py``.

For each cell the distinct training differences are built in ℚ (exact mode) and
:func:`posreal.theory.exact_qp.solve_ldp` is timed on them alone.  The work estimate
(:func:`posreal.theory.exact_qp.estimate`, checked against ``POSREAL_MAX_WORK`` before the method starts) is
an upper bound in float-operation equivalents; the measured time is converted at
:data:`OPS_PER_SECOND` (the rate :data:`posreal.theory.certified.INTERVAL_FLOPS` assumes).  The ratio printed
is measured / estimate; target: at most 1 on every cell (the estimate covers the work).  A missed target
prints MISSED and sets exit code 1; nothing is tuned to pass.
"""

from __future__ import annotations

import sys
import time
from fractions import Fraction
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
OPS_PER_SECOND = 1e9
TARGET = 1.0


def _cells() -> list[tuple[str, object, str, int]]:
    from posreal.theory.tables import build_table
    wide = build_table("wide", [[-10 ** 400, 0], [0, 0], [0, -1], [10 ** 400, -2], [1, -1], [1, 0]], "relative")
    mixed = build_table("mixed", [[(k * 37 % 11 - 5) * 10 ** (300 * (k % 3)), Fraction(k % 5 - 2, 1 + k % 3)]
                                  for k in range(40)], "relative")
    return [("wide 10^400 next to 1", wide, "offset:1", 3), ("mixed 10^0/10^300/10^600", mixed, "position:0", 40),
            ("relbias", "relbias", "position:0", 24), ("relbias", "relbias", "position:0", 48),
            ("relbias", "relbias", "copy", 40), ("colbias", "colbias", "offset:2", 30),
            ("relbias", "relbias", "reverse", 24)]


def main() -> int:
    sys.path.insert(0, str(ROOT))
    from posreal.theory import exact_qp
    from posreal.theory.selection import select
    print(f"{'cell':<42} {'m':>5} {'p':>3} {'steps':>5} {'status':>10} {'estimate s':>10} {'measured s':>10} "
          f"{'ratio':>7}")
    missed = 0
    for label, pe, task, L0 in _cells():
        zq = select(pe, task, L0, mode="exact").exact_constraints or []
        p = len(zq[0]) if zq else 0
        estimate = exact_qp.estimate(zq, p, label).work
        start = time.perf_counter()
        out = exact_qp.solve_ldp(zq, p)
        seconds = time.perf_counter() - start
        ratio = seconds * OPS_PER_SECOND / estimate
        flag = "" if ratio <= TARGET else "  MISSED"
        missed += bool(flag)
        name = f"{label} {task} L0={L0}"
        print(f"{name:<42} {len(zq):>5} {p:>3} {out.iterations:>5} {out.status.value:>10} "
              f"{estimate / OPS_PER_SECOND:>10.3g} {seconds:>10.3g} {ratio:>7.3f}{flag}")
    return 1 if missed else 0


if __name__ == "__main__":
    sys.exit(main())
