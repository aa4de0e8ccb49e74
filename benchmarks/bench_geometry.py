"""Benchmarks of the geometry selection (issue 11), run on demand: ``python benchmarks/bench_geometry.py``.

Targets (printed with the measured figures, never asserted in unit tests):
  1. for every registry cell at L0 = 64: θ*_2, θ*_∞ (and θ*_1) and the α interval at the default
     lengths ≥ L0, each cell's ℓ∞ work (selection + interval) < 2 s;
  2. the ratio against the naive interval (``--naive``): one LP per row ("some") and one LP per row and
     rival ("every") over the whole face {Zθ ≥ 1, ‖θ‖_∞ ≤ value} in θ-space, without the reduced
     coordinates, bounds, probes and shared rivals; on the L0 = 16 cells it can afford; the two
     intervals are printed side by side (a mismatch is flagged).
"""

from __future__ import annotations

import argparse
import datetime
import os
import platform
import sys
import time
from pathlib import Path

# `python benchmarks/bench_geometry.py` puts benchmarks/ first on sys.path, not the checkout: without this line an
# editable install of another checkout (another worktree) would be the code measured.
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import numpy as np  # noqa: E402
import scipy  # noqa: E402
from posreal.theory import parse_pe, parse_task, select  # noqa: E402
from posreal.theory import warm_lp  # noqa: E402
from posreal.theory.defaults import LENGTHS, REGISTRY_PES, REGISTRY_TASKS  # noqa: E402
from posreal.theory.face_rows import interval_outcomes  # noqa: E402
from posreal.theory.faces import select_in_geometry  # noqa: E402
from posreal.theory.norm_programs import Geometry, norm_program, solve_program  # noqa: E402
from posreal.theory.realization import structural_ties
from posreal.theory.kernels import target_keys  # noqa: E402
from scipy.optimize import linprog  # noqa: E402

TARGET_SECONDS = 2.0


CPU = {"seconds": 0.0}   # CPU time of the last timed call (the machine may be shared: wall time is inflated then)


def _highspy_version() -> str:
    from importlib.metadata import version
    return version("highspy")


def timed(fn):
    start, cpu = time.perf_counter(), time.process_time()
    out = fn()
    CPU["seconds"] = time.process_time() - cpu
    return out, time.perf_counter() - start


def naive_interval(gsel, length: int, tol: float = 1e-7) -> tuple[float, float]:
    """ℓ∞ interval straight from the definition: an LP per row and per (row, rival) in θ-space."""
    pe, task, L0 = gsel.pe, gsel.task, gsel.train_length
    z, value = gsel.selection.constraints, gsel.value
    p = z.shape[1]
    rows, targets = task.rows_and_targets(length)
    ties = structural_ties(pe, rows, targets, length, L0)
    keys = target_keys(pe.index, rows, targets)
    bounds = [(-value * (1 + 1e-9), value * (1 + 1e-9))] * p
    every = some = 0
    for i, kt, tie in zip(rows.tolist(), keys.tolist(), ties.tolist()):
        if tie:
            continue
        rivals = [k for k in range(i + 1) if k != kt]
        if not rivals:
            every, some = every + 1, some + 1
            continue
        feats = pe.index_features(np.full(i + 1, i), np.arange(i + 1), L0)     # (i+1, p)
        v = feats[kt][None, :] - feats[rivals]                                  # (r, p)
        # some: max s s.t. Zθ ≥ 1, vθ ≥ s, s ≤ 1
        A = np.vstack([np.hstack([-z, np.zeros((z.shape[0], 1))]), np.hstack([-v, np.ones((len(rivals), 1))])])
        b = np.concatenate([-np.ones(z.shape[0]), np.zeros(len(rivals))])
        c = np.zeros(p + 1)
        c[-1] = -1
        res = linprog(c, A_ub=A, b_ub=b, bounds=bounds + [(None, 1.0)], method="highs")
        some += int(-res.fun > tol)
        # every: min over the face of each rival's margin
        worst = min(linprog(row, A_ub=-z, b_ub=-np.ones(z.shape[0]), bounds=bounds, method="highs").fun
                    for row in v)
        every += int(worst > tol)
    return every / rows.size, some / rows.size


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--train-length", type=int, default=64)
    parser.add_argument("--naive", action="store_true", help="also time the naive interval at L0 = 16 (slow)")
    args = parser.parse_args()
    L0 = args.train_length
    lengths = [L for L in LENGTHS if L >= L0] or [L0]
    print(f"geometry benchmark, {datetime.datetime.now().astimezone():%Y-%m-%d %H:%M %Z}; load average "
          f"{' '.join(f'{x:.2f}' for x in os.getloadavg())} on {os.cpu_count()} cores; "
          f"Python {platform.python_version()}, "
          f"numpy {np.__version__}, scipy {scipy.__version__}, HiGHS Python API: "
          f"{'highspy ' + _highspy_version() if warm_lp._highs_api() else 'absent (linprog per LP)'}; "
          f"OPENBLAS_NUM_THREADS={os.environ.get('OPENBLAS_NUM_THREADS', 'unset')}")
    print(f"code: {Path(warm_lp.__file__).parent}")   # the checkout measured
    print(f"L0 = {L0}, lengths {lengths}; target < {TARGET_SECONDS} s per cell for ℓ∞ (θ*_∞ + interval), "
          "the ℓ2 time beside it")
    print("times are wall-clock seconds; 'cpu' is the CPU time of θ*_∞ + interval (what a shared machine does not "
          "inflate)")
    print(f"{'cell':24s} {'θ*_2 s':>7s} {'θ*_∞ s':>7s} {'int_∞ s':>7s} {'total':>7s} {'cpu':>6s}  {'<2 s':4s} "
          f"{'LPs':>5s} {'ℓ∞ face':>7s}  {'α_∞ at ' + str(lengths[-1]):16s} {'undecided':9s} "
          f"{'θ*_1 s':>7s} {'int_1 s':>7s}")
    over = undecided_cells = 0
    slowest = []
    for pe in REGISTRY_PES:
        for task in REGISTRY_TASKS:
            pe_, task_ = parse_pe(pe), parse_task(task)
            _, t2 = timed(lambda pe_=pe_, task_=task_: select(pe_, task_, L0, mode="float"))
            ginf, tinf = timed(lambda pe_=pe_, task_=task_:
                               select_in_geometry(pe_, task_, L0, Geometry.LINF, mode="float"))
            cpu = CPU["seconds"]
            if not ginf.realizable:
                print(f"{pe + '·' + task:24s} {t2:7.3f}  not realizable at L0")
                continue
            iinf, tiinf = timed(lambda ginf=ginf: interval_outcomes(ginf, lengths))
            cpu += CPU["seconds"]
            g1, t1 = timed(lambda pe_=pe_, task_=task_: select_in_geometry(pe_, task_, L0, Geometry.L1, mode="float"))
            i1, ti1 = timed(lambda g1=g1: interval_outcomes(g1, lengths))
            total = tinf + tiinf
            ok = total < TARGET_SECONDS
            over += not ok
            slowest.append((total, pe + "·" + task))
            lo, hi = iinf[lengths[-1]].interval
            face = "point" if ginf.face.point else f"dim≤{ginf.face.dimension}"
            undecided = sum(o.counts()["undecided"] for o in iinf.values()) + \
                sum(o.counts()["undecided"] for o in i1.values())
            undecided_cells += undecided > 0
            print(f"{pe + '·' + task:24s} {t2:7.3f} {tinf:7.3f} {tiinf:7.3f} {total:7.3f} {cpu:6.2f}  "
                  f"{'yes' if ok else 'NO':4s} "
                  f"{ginf.face.lp_count:5d} {face:>7s}  [{lo:.3f}, {hi:.3f}]   {undecided:9d} {t1:7.3f} {ti1:7.3f}")
    slowest.sort(reverse=True)
    print("slowest cells (ℓ∞ total): " + ", ".join(f"{name} {t:.2f} s" for t, name in slowest[:5]))
    print(f"cells with undecided rows (ℓ∞ or ℓ1, any length): {undecided_cells}")
    print(f"cells over the target: {over}")
    if args.naive:
        print("\nnaive interval (an LP per row and per rival, θ-space) against the project's, L0 = 16, L = 32"
              "\n(the project's time includes θ*_∞ and its face analysis, the naive one the same LP solve):")
        cells = [(pe, task) for pe in ("relbias", "colbias", "rope:16", "abscol:16", "alibi", "abssin:4:50")
                 for task in ("offset:1", "position:0", "position:1", "copy", "half")]
        cells += [("abssin:16", task) for task in ("offset:1", "offset:2", "copy", "reverse", "half")]
        for pe, task in cells:
            if True:
                g, tsel = timed(lambda pe=pe, task=task: select_in_geometry(pe, task, 16, Geometry.LINF, mode="float"))
                if not g.realizable:
                    continue
                fast, tf = timed(lambda g=g: interval_outcomes(g, [32])[32].interval)
                tf += tsel
                slow, ts = timed(lambda g=g: naive_interval(g, 32))
                ts += timed(lambda g=g: solve_program(norm_program(g.selection.constraints, Geometry.LINF)))[1]
                flag = "" if np.allclose(fast, slow) else "  MISMATCH"
                face = "point" if g.face.point else f"dim≤{g.face.dimension}"
                print(f"  {pe + '·' + task:22s} {face:>7s} project [{fast[0]:.4f}, {fast[1]:.4f}] in {tf:.3f} s, "
                      f"naive [{slow[0]:.4f}, {slow[1]:.4f}] in {ts:.3f} s, ratio {ts / max(tf, 1e-9):.0f}x{flag}")


if __name__ == "__main__":
    main()
