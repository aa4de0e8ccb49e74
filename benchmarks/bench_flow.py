"""Benchmark: the log-time gradient flow against fixed-step gradient descent as evidence for the limit
of a tie margin, run on demand: ``python benchmarks/bench_flow.py``.

For every shipped open-tie certificate whose row α♯ decides, both methods run in the same process:
gradient descent from 0 with step 1/β for ``--steps`` iterations (the earlier evidence,
:func:`posreal.counterexamples.dynamics.tie_margins`) and the log-time flow
(:func:`posreal.theory.flow.tie_flow`, in h = θ - θ* τ and σ = log τ up to τ = e^24).  Printed:
wall time of each, the ratio, and each method's
distance to the exact-sign prediction Σ c_s log(n_s/λ_s) (:func:`posreal.theory.limit.predict`).
Target (printed, never asserted): the flow within 10^-3 of the prediction on every row, in less time
than gradient descent.
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

from posreal.counterexamples.dynamics import tie_margins
from posreal.theory.pe_specs import parse_pe
from posreal.theory.tables import register_pe, unregister_pe
from posreal.theory.flow import tie_flow
from posreal.theory.limit import predict
from posreal.theory.selection import select
from posreal.theory.tasks import parse_task
from posreal.theory.ties import classify

CERTS = Path(__file__).resolve().parents[1] / "counterexamples" / "certificates"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=20000, help="gradient-descent steps (default 20000)")
    args = parser.parse_args()
    print(f"{'certificate':38} {'limit':>9} {'GD err':>9} {'GD s':>7} {'flow err':>9} {'flow σ':>7} {'flow s':>7} "
          f"{'GD/flow time':>12}")
    worst, total_gd, total_flow = 0.0, 0.0, 0.0
    for path in sorted(CERTS.glob("open_tie_*.json")):
        doc = json.loads(path.read_text())
        inst = doc["instance"]
        for name, t in inst["tables"].items():
            register_pe(name, t["rows"], t["kind"])
        try:
            pe, task = parse_pe(inst["pe"]), parse_task(inst["task"])
            sel = select(pe, task, inst["train_length"])
            row = next(r for r in classify(pe, task, sel, inst["length"]).open_rows if r.row == inst["row"])
            preds = [predict(pe, task, sel, r.direction) for r in row.rivals]
            if any(p is None for p in preds):
                continue
            dirs = [[float(x) for x in r.direction] for r in row.rivals]
            t0 = time.perf_counter()
            traj = tie_margins(pe, task, inst["train_length"], dirs, args.steps)
            t_gd = time.perf_counter() - t0
            t0 = time.perf_counter()
            flows = tie_flow(pe, task, inst["train_length"], dirs)
            t_flow = time.perf_counter() - t0
        finally:
            for name in inst["tables"]:
                unregister_pe(name)
        for n, pred in enumerate(preds):
            assert pred is not None
            gd_err = abs(float(traj.margins[n, -1]) - pred.value)
            flow_err = abs(flows[n].value - pred.value)
            worst = max(worst, flow_err)
            print(f"{path.name:38} {pred.value:9.4f} {gd_err:9.2e} {t_gd:7.2f} {flow_err:9.2e} {flows[n].sigma:7.1f} "
                  f"{t_flow:7.3f} {t_gd / t_flow:12.1f}")
        total_gd += t_gd
        total_flow += t_flow
    print(f"total: gradient descent {total_gd:.2f} s, flow {total_flow:.2f} s, ratio {total_gd / total_flow:.1f}; "
          f"largest flow error {worst:.1e} [target ≤ 1e-3: {'met' if worst <= 1e-3 else 'NOT MET'}]")


if __name__ == "__main__":
    main()
