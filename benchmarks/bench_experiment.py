"""Benchmark of the trained-head experiment (run on demand: ``python benchmarks/bench_experiment.py``).

Prints:

* trained models per minute with the grid's recipe (training at L0 plus measurement at L0 and
  2, 4, 8 × L0), per (V, d) setting of the full grid;
* the time of one training step (loss and all gradients on a batch) with attention shared by
  the batch (:func:`posreal.experiment.model.loss_and_grads`) against the straightforward
  implementation that computes attention and the literal value path separately for every
  sequence (:func:`posreal.experiment.model.naive_loss_and_grads`), and their ratio (target ≥ 5×);
* for the split of that ratio, a third variant without the Python loop: attention computed per
  sequence as a (B, m, n) tensor and the literal value path h = A U[x] W_V, all batched
  (:func:`batched_per_sequence`; checked against the shared version before it is timed).
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from posreal.experiment.grid import FULL, model_jobs, predictions
from posreal.experiment.model import (PARAMS, Geometry, geometry, init_params, loss_and_grads, naive_loss_and_grads,
                                    softmax_rows)
from posreal.experiment.runner import run_model
from posreal.theory.encodings import parse_pe
from posreal.theory.tasks import parse_task


def models_per_minute(setting: tuple[int, int], count: int) -> float:
    """Train ``count`` models of the full grid at one (V, d) setting; models per minute."""
    jobs = [j for j in model_jobs(FULL, predictions(FULL)) if (j.vocab, j.width) == setting and j.seed == 0]
    picked = jobs[:: max(1, len(jobs) // count)][:count]   # spread over PEs and tasks
    start = time.perf_counter()
    for job in picked:
        run_model(job)
    return 60.0 * len(picked) / (time.perf_counter() - start)


def batched_per_sequence(params: dict[str, np.ndarray], geom: Geometry,
                         x: np.ndarray) -> tuple[float, dict[str, np.ndarray]]:
    """Loss and gradients with one attention map per sequence, (B, m, n), and the literal value path."""
    U, W_V, W_O, theta = (params[k] for k in PARAMS)
    B, n = x.shape
    m = geom.rows.size
    F = np.broadcast_to(geom.features, (B, *geom.features.shape))      # (B, m, n, p)
    A = softmax_rows(np.where(geom.mask, F @ theta, -np.inf))           # (B, m, n)
    E = U[x]                                                           # (B, n, d)
    H = E @ W_V                                                        # (B, n, d)
    h = A @ H                                                          # (B, m, d)
    Z = h @ W_O                                                        # (B, m, V)
    y = x[:, geom.targets]                                             # (B, m)
    zmax = Z.max(axis=2, keepdims=True)
    e = np.exp(Z - zmax)                                               # (B, m, V)
    s = e.sum(axis=2, keepdims=True)
    loss = float(np.mean(np.log(s[..., 0]) + zmax[..., 0] - np.take_along_axis(Z, y[..., None], 2)[..., 0]))
    G = e / s
    np.put_along_axis(G, y[..., None], np.take_along_axis(G, y[..., None], 2) - 1.0, 2)
    G /= B * m                                                         # (B, m, V)
    dh = G @ W_O.T                                                     # (B, m, d)
    dA = dh @ H.transpose(0, 2, 1)                                     # (B, m, n)
    dH = A.transpose(0, 2, 1) @ dh                                     # (B, n, d)
    dU = np.zeros_like(U)
    np.add.at(dU, x.reshape(-1), (dH @ W_V.T).reshape(B * n, -1))     # (V, d)
    dK = A * (dA - np.sum(dA * A, axis=2, keepdims=True))              # (B, m, n)
    grads = {"U": dU, "W_V": np.einsum("bnd,bne->de", E, dH), "W_O": np.einsum("bmd,bmv->dv", h, G),
             "theta": np.tensordot(dK, F, axes=([0, 1, 2], [0, 1, 2]))}
    return loss, grads


def step_times(pe_spec: str, task_spec: str, V: int, d: int, repeats: int) -> tuple[float, float, float]:
    """Seconds per training step: shared attention, per-sequence loop, per-sequence batched."""
    rng = np.random.default_rng(0)
    L0, B = FULL.recipe.train_length, FULL.recipe.batch
    pe, task = parse_pe(pe_spec), parse_task(task_spec)
    geom = geometry(pe, task, L0, L0)
    params = init_params(V, d, pe.dim(L0), rng)
    params["theta"] = rng.standard_normal(pe.dim(L0))
    x = rng.integers(0, V, size=(B, L0))          # (B, L0)
    ref_loss, ref = loss_and_grads(params, geom, x)
    for fn in (naive_loss_and_grads, batched_per_sequence):
        loss, grads = fn(params, geom, x)
        assert abs(loss - ref_loss) < 1e-10 and all(np.allclose(grads[k], ref[k], atol=1e-12) for k in PARAMS)
    out = []
    for fn in (loss_and_grads, naive_loss_and_grads, batched_per_sequence):
        fn(params, geom, x)                       # warm-up
        best = np.inf
        for _ in range(3):
            start = time.perf_counter()
            for _ in range(repeats):
                fn(params, geom, x)
            best = min(best, (time.perf_counter() - start) / repeats)
        out.append(best)
    return out[0], out[1], out[2]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--models", type=int, default=6, help="models timed per (V, d) setting")
    parser.add_argument("--repeats", type=int, default=100, help="steps per timing")
    args = parser.parse_args()
    print(f"recipe: {FULL.recipe}")
    total_rate = []
    for setting in FULL.settings:
        rate = models_per_minute(setting, args.models)
        total_rate.append(rate)
        print(f"(V, d) = {setting}: {rate:7.1f} trained models per minute (one process)")
    minutes = sum(FULL.size // len(FULL.multipliers) / len(FULL.settings) / r for r in total_rate)
    print(f"estimated full grid: {minutes:.1f} min on one process, {minutes / 2:.1f} min with --jobs 2 on 2 free cores")
    print()
    print("one training step (loss + all gradients), batch "
          f"{FULL.recipe.batch} × L0 = {FULL.recipe.train_length}:")
    for pe_spec in ("relbias", "rope:16", "abssin:16"):
        for V, d in ((16, 32), (64, 128)):
            fast, naive, batched = step_times(pe_spec, "offset:1", V, d, args.repeats)
            verdict = "ok" if naive / fast >= 5 else "BELOW 5x"
            print(f"  {pe_spec:10s} (V, d) = ({V:2d}, {d:3d}): shared {1e3 * fast:6.3f} ms, per-sequence "
                  f"{1e3 * naive:6.3f} ms, ratio {naive / fast:5.1f}x  [{verdict}]; per-sequence batched "
                  f"{1e3 * batched:6.3f} ms, ratio {batched / fast:4.1f}x")


if __name__ == "__main__":
    main()
