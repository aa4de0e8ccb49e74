"""One training recipe for every cell, training one model, and measuring it at each length.

Main definitions (THEORY-experiment.md):

* :class:`Recipe` — fixed up front and shared by every cell of a grid (never tuned per cell):
  training length L0, Adam steps, learning rate, batch size, evaluation batch size;
* :func:`train_model` — Adam on the mean token cross-entropy at L0 from θ = 0 on fresh i.i.d.
  uniform tokens every step (:mod:`posreal.experiment.model`);
* :func:`measure_model` — token accuracy over R_L and attention accuracy at L0 and at each
  evaluation length, on fresh sequences, with attention from T_L θ (:mod:`posreal.theory.kernels`).

Randomness: one numpy Generator per model, seeded from the model's key, drives the
initialization and the training data; each evaluation length draws from its own Generator
seeded from (key, L), so a measurement is reproducible on its own.
"""

from __future__ import annotations

import zlib
from dataclasses import asdict, dataclass

import numpy as np

from posreal.experiment.model import evaluate, geometry, init_params, loss_and_grads
from posreal.experiment.optim import Adam
from posreal.theory.encodings import Encoding
from posreal.theory.errors import bad_value
from posreal.theory.tasks import Task


@dataclass(frozen=True)
class Recipe:
    """The training and evaluation settings shared by every cell of a grid."""

    train_length: int = 16
    steps: int = 1500
    lr: float = 0.02
    batch: int = 32
    eval_batch: int = 128
    threshold: float = 0.95

    def __post_init__(self) -> None:
        for name in ("train_length", "steps", "batch", "eval_batch"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < 1:
                raise bad_value(name.replace("_", " "), value, "an integer >= 1")
        if not (isinstance(self.lr, (int, float)) and 0 < self.lr < np.inf):
            raise bad_value("learning rate", self.lr, "a finite number > 0")
        if not (isinstance(self.threshold, (int, float)) and 0 < self.threshold <= 1):
            raise bad_value("threshold", self.threshold, "a number in (0, 1]")

    def to_json(self) -> dict:
        return asdict(self)


def stable_seed(*parts: object) -> np.random.SeedSequence:
    """A SeedSequence from the text of ``parts`` (crc32: stable across processes and runs)."""
    text = "|".join(str(p) for p in parts)
    return np.random.SeedSequence([zlib.crc32(text.encode()), len(text)])


def train_model(pe: Encoding, task: Task, vocab: int, width: int, recipe: Recipe,
                seed: np.random.SeedSequence) -> tuple[dict[str, np.ndarray], float]:
    """Train one head; returns its parameters and the mean loss of the last 50 steps."""
    rng = np.random.default_rng(seed)
    L0 = recipe.train_length
    geom = geometry(pe, task, L0, L0)
    params = init_params(vocab, width, pe.dim(L0), rng)
    opt = Adam(lr=recipe.lr)
    tail = []
    for step in range(recipe.steps):
        x = rng.integers(0, vocab, size=(recipe.batch, L0))  # (B, L0) fresh tokens
        loss, grads = loss_and_grads(params, geom, x)
        opt.step(params, grads)
        if step >= recipe.steps - 50:
            tail.append(loss)
    return params, float(np.mean(tail))


def measure_model(pe: Encoding, task: Task, params: dict[str, np.ndarray], vocab: int, recipe: Recipe,
                  lengths: list[int], seed_key: tuple) -> dict[int, tuple[float, float]]:
    """(token accuracy, attention accuracy) at each length, on fresh sequences per length."""
    out = {}
    for L in lengths:
        rng = np.random.default_rng(stable_seed(*seed_key, "eval", L))
        x = rng.integers(0, vocab, size=(recipe.eval_batch, L))  # (B, L)
        out[L] = evaluate(pe, task, params, L, recipe.train_length, x)
    return out
