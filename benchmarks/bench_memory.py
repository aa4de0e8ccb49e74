"""Memory estimate against measured peak, run on demand: ``python benchmarks/bench_memory.py [--quick]``.

Each command runs as a whole process (``posreal alpha ... --json``) that reports its own peak resident
memory (``ru_maxrss``); a tiny command (``alpha --pe nope --task copy --lengths 32``) measures the
process's fixed cost (the interpreter, numpy, scipy).  The ratio printed is

    (peak - fixed cost) / estimate,

the estimate being the planned memory the command checks against ``--max-memory``
(:meth:`posreal.theory.cell.Cell.estimate`).  Target: at most 1.2 on every command (the estimate covers
the peak).  A missed target prints MISSED and sets exit code 1; nothing is tuned to pass, the numbers are
what this machine measured.  ``--quick`` divides every length by 8 (the fixed cost then weighs more).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TARGET = 1.2
COMMANDS: list[tuple[str, str, int, int, str]] = [   # (pe, task, L0, L, mode): ten diverse kernels
    ("rope:16", "copy", 16, 2_000_000, "float"),
    ("rope:64", "copy", 16, 1_000_000, "float"),
    ("abscol:16", "position:0", 16, 1_000_000, "float"),
    ("xpos:16", "copy", 16, 1_000_000, "float"),
    ("clipped", "copy", 16, 4_000_000, "float"),
    ("slope", "offset:1", 16, 4_000_000, "float"),
    ("t5", "copy", 16, 2_000_000, "float"),
    ("kerple-log", "copy", 16, 2_000_000, "float"),
    ("dual:rope:16", "dual:copy", 16, 1_000_000, "float"),
    ("relbias", "copy", 16, 200_000, "exact"),
]
_CHILD = """
import json, resource, sys
from posreal.cli import main
code = main(sys.argv[1:])
print(json.dumps({"code": code, "peak": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024}), file=sys.stderr)
"""


def peak(argv: list[str]) -> tuple[int, int]:
    """(exit code, peak resident bytes) of ``posreal ARGV`` in a fresh process."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run([sys.executable, "-c", _CHILD, *argv], capture_output=True, text=True, cwd=ROOT, env=env)
    report = json.loads(done.stderr.strip().splitlines()[-1])
    return report["code"], report["peak"]


def argv(pe: str, task: str, L0: int, L: int, mode: str) -> list[str]:
    extra = ["--exact"] if mode == "exact" else []
    return ["--max-memory", "64G", "alpha", "--pe", pe, "--task", task, "--train-length", str(L0), "--lengths",
            str(L), "--json", *extra]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="every length divided by 8")
    args = parser.parse_args()
    sys.path.insert(0, str(ROOT))
    from posreal.theory.cell import Cell
    from posreal.runtime.resources import human
    _, fixed = peak(argv("nope", "copy", 16, 32, "float"))
    print(f"fixed cost of a process: {human(fixed)}")
    print(f"{'command':<44} {'estimate':>10} {'peak':>10} {'ratio':>6}")
    missed = 0
    for pe, task, L0, L, mode in COMMANDS:
        L = max(L // 8, 4 * L0) if args.quick else L
        estimate = Cell.parse(pe, task, L0).estimate([L], mode).memory
        code, measured = peak(argv(pe, task, L0, L, mode))
        ratio = max(measured - fixed, 0) / estimate
        flag = "" if ratio <= TARGET and code == 0 else "  MISSED" if code == 0 else f"  exit {code}"
        missed += bool(flag)
        label = f"{pe} {task} L0={L0} L={L} {mode}"
        print(f"{label:<44} {human(estimate):>10} {human(measured):>10} {ratio:>6.2f}{flag}")
    return 1 if missed else 0


if __name__ == "__main__":
    sys.exit(main())
