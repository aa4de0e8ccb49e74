"""How much a trained head depends on floating-point rounding, per recipe (run on demand:
``python benchmarks/rounding_sensitivity.py``).

For a few cells of the full grid, the same model (same recipe, same seed, same random streams)
is trained three ways that differ only in rounding: the one-by-one reference trainer in float64
(:func:`posreal.experiment.train.train_model`), and the batched trainer
(:func:`posreal.experiment.batched.train_batch`) in float64 and in float32 (the recipes' dtype).
It prints ‖θ‖ of each and the cosine of each with the reference's θ.  A recipe whose late steps
do not shrink (Signum's and normalized GD's fixed step lengths) can amplify rounding into a
different trajectory; Adam's steps shrink with its second-moment estimate.  The Experiment page
quotes this table.
"""

from __future__ import annotations

import argparse

import numpy as np
from posreal.experiment.batched import BatchShape, Member, pe_dim, train_batch
from posreal.experiment.recipes import RECIPES
from posreal.experiment.train import stable_seed, train_model
from posreal.theory.pe_specs import parse_pe
from posreal.theory.tasks import parse_task

CELLS = (("relbias", "offset:1"), ("rope:16", "offset:1"), ("abscol:16", "position:1"), ("alibi", "position:0"))


def cosine(a: np.ndarray, b: np.ndarray) -> float:
    return float(a @ b / (np.linalg.norm(a) * np.linalg.norm(b)))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--vocab", type=int, default=16)
    parser.add_argument("--width", type=int, default=32)
    parser.add_argument("--seeds", type=int, default=2, help="seeds per cell (default 2)")
    args = parser.parse_args()
    V, d = args.vocab, args.width
    print(f"(V, d) = ({V}, {d}); cells: {', '.join(f'{pe} · {task}' for pe, task in CELLS)}; seeds 0-{args.seeds - 1}")
    print("recipe  cell                      seed  ‖θ‖ ref64  ‖θ‖ batched64  ‖θ‖ batched32  cos(ref64, b64)  "
          "cos(ref64, b32)")
    for name, recipe in RECIPES.items():
        worst = 1.0
        for pe, task in CELLS:
            for seed in range(args.seeds):
                ref, _ = train_model(parse_pe(pe), parse_task(task), V, d, recipe.with_changes(dtype="float64"),
                                     stable_seed(pe, task, V, d, seed))
                shape = BatchShape(V, d, pe_dim(pe, recipe.train_length), recipe)
                b64 = train_batch([Member(pe, task, seed)], shape, np.float64).params["theta"][0]
                b32 = train_batch([Member(pe, task, seed)], shape, np.float32).params["theta"][0].astype(np.float64)
                t = ref["theta"]
                c64, c32 = cosine(t, b64), cosine(t, b32)
                worst = min(worst, c64, c32)
                print(f"{name:7s} {pe + ' · ' + task:25s} {seed:4d}  {np.linalg.norm(t):9.2f}  "
                      f"{np.linalg.norm(b64):13.2f}  {np.linalg.norm(b32):13.2f}  {c64:15.4f}  {c32:15.4f}", flush=True)
        print(f"{name}: smallest cosine with the float64 reference {worst:.4f}")


if __name__ == "__main__":
    main()
