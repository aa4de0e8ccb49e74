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
import time

import numpy as np
from posreal.theory import parse_pe, parse_task, select
from posreal.theory.defaults import LENGTHS, REGISTRY_PES, REGISTRY_TASKS
from posreal.theory.geometry import (
    Geometry,
    interval_outcomes,
    norm_program,
    select_in_geometry,
    solve_program,
)
from posreal.theory.realization import structural_ties, target_keys
from scipy.optimize import linprog

TARGET_SECONDS = 2.0


def timed(fn):
    start = time.perf_counter()
    out = fn()
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
    print(f"geometry benchmark: L0 = {L0}, lengths {lengths}, "
          f"target < {TARGET_SECONDS} s per cell (ℓ∞: θ*_∞ + interval)")
    print(f"{'cell':28s} {'θ*_2 s':>8s} {'θ*_∞ s':>8s} {'int_∞ s':>8s} {'θ*_1 s':>8s} {'int_1 s':>8s}  "
          f"{'ℓ∞ face':>8s}  α_∞ at {lengths[-1]}   ok")
    over = 0
    for pe in REGISTRY_PES:
        for task in REGISTRY_TASKS:
            pe_, task_ = parse_pe(pe), parse_task(task)
            _, t2 = timed(lambda pe_=pe_, task_=task_: select(pe_, task_, L0, exact=False))
            ginf, tinf = timed(lambda pe_=pe_, task_=task_:
                               select_in_geometry(pe_, task_, L0, Geometry.LINF, exact=False))
            if not ginf.realizable:
                print(f"{pe + '·' + task:28s} {t2:8.3f}  not realizable at L0")
                continue
            iinf, tiinf = timed(lambda ginf=ginf: interval_outcomes(ginf, lengths))
            g1, t1 = timed(lambda pe_=pe_, task_=task_: select_in_geometry(pe_, task_, L0, Geometry.L1, exact=False))
            _, ti1 = timed(lambda g1=g1: interval_outcomes(g1, lengths))
            total = tinf + tiinf
            ok = total < TARGET_SECONDS
            over += not ok
            lo, hi = iinf[lengths[-1]].interval
            face = "point" if ginf.face.point else f"dim≤{ginf.face.dimension}"
            undecided = iinf[lengths[-1]].counts()["undecided"]
            print(f"{pe + '·' + task:28s} {t2:8.3f} {tinf:8.3f} {tiinf:8.3f} {t1:8.3f} {ti1:8.3f}  {face:>8s}  "
                  f"[{lo:.3f}, {hi:.3f}]" + (f" +{undecided} undecided" if undecided else "")
                  + f"  {'yes' if ok else 'NO'} ({total:.2f} s)")
    print(f"cells over the target: {over}")
    if args.naive:
        print("\nnaive interval (an LP per row and per rival, θ-space) against the project's, L0 = 16, L = 32"
              "\n(the project's time includes θ*_∞ and its face analysis, the naive one the same LP solve):")
        for pe in ("relbias", "colbias", "rope:16", "abscol:16", "alibi", "abssin:4:50"):
            for task in ("offset:1", "position:0", "position:1", "copy", "half"):
                g, tsel = timed(lambda pe=pe, task=task: select_in_geometry(pe, task, 16, Geometry.LINF, exact=False))
                if not g.realizable:
                    continue
                fast, tf = timed(lambda g=g: interval_outcomes(g, [32])[32].interval)
                tf += tsel
                slow, ts = timed(lambda g=g: naive_interval(g, 32))
                ts += timed(lambda g=g: solve_program(norm_program(g.selection.constraints, Geometry.LINF)))[1]
                flag = "" if np.allclose(fast, slow) else "  MISMATCH"
                print(f"  {pe + '·' + task:24s} project {fast} in {tf:.3f} s, naive {slow} in {ts:.3f} s, "
                      f"ratio {ts / max(tf, 1e-9):.0f}x{flag}")


if __name__ == "__main__":
    main()
