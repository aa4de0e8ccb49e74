"""Training one model (the one-by-one reference trainer) and measuring it at each length.

Main definitions (the docs' Experiment page, "Set-up"):

* :func:`train_model` — the recipe's optimizer (:mod:`posreal.experiment.recipes`) on the mean
  token cross-entropy at L0 from θ = 0 on fresh i.i.d. uniform tokens every step
  (:mod:`posreal.experiment.model`); :mod:`posreal.experiment.batched` trains many models at
  once and reproduces this function's result for each;
* :func:`measure_model` — token accuracy over R_L and attention accuracy at L0 and at each
  evaluation length, on fresh sequences, with attention from T_L θ (:mod:`posreal.theory.kernels`);
  :func:`measure_extensions` — the same under each length-extension method σ (T_L^σ θ: the same
  parameters and the same sequences, no retraining — a paired comparison).

Randomness: one numpy Generator per model, seeded from the model's key, drives the
initialization and the training data; each evaluation length draws from its own Generator
seeded from (key, L), so a measurement is reproducible on its own.
"""

from __future__ import annotations

import zlib

import numpy as np
from posreal.experiment.model import evaluate, geometry, init_params, loss_and_grads
from posreal.experiment.optim import make_optimizer
from posreal.experiment.recipes import Recipe
from posreal.theory.encodings import Encoding
from posreal.theory.tasks import Task
from posreal.theory.transfer_operator import Transfer

__all__ = ["Recipe", "measure_extensions", "measure_model", "stable_seed", "train_model"]


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
    opt = make_optimizer(recipe)
    tail = []
    for step in range(recipe.steps):
        x = rng.integers(0, vocab, size=(recipe.batch, L0))  # (B, L0) fresh tokens
        loss, grads = loss_and_grads(params, geom, x)
        opt.step(params, grads)
        if step >= recipe.steps - 50:
            tail.append(loss)
    return params, float(np.mean(tail))


def _eval_tokens(vocab: int, recipe: Recipe, length: int, seed_key: tuple) -> np.ndarray:
    """The evaluation sequences of one length: (B, L), from their own Generator seeded by (key, L)."""
    rng = np.random.default_rng(stable_seed(*seed_key, "eval", length))
    return rng.integers(0, vocab, size=(recipe.eval_batch, length))   # (B, L)


def measure_model(pe: Encoding, task: Task, params: dict[str, np.ndarray], vocab: int, recipe: Recipe,
                  lengths: list[int], seed_key: tuple) -> dict[int, tuple[float, float]]:
    """(token accuracy, attention accuracy) at each length, on fresh sequences per length."""
    return {L: evaluate(pe, task, params, L, recipe.train_length, _eval_tokens(vocab, recipe, L, seed_key))
            for L in lengths}


def measure_extensions(pe: Encoding, task: Task, params: dict[str, np.ndarray], vocab: int, recipe: Recipe,
                       lengths: list[int], seed_key: tuple,
                       extensions: tuple[Transfer, ...]) -> dict[str, dict[int, tuple[float, float]]]:
    """The same measurement under each length extension σ.

    Method -> L -> (token accuracy, attention accuracy) of T_L^σ θ, on the very sequences :func:`measure_model` uses
    at L (a paired comparison)."""
    out: dict[str, dict[int, tuple[float, float]]] = {str(op): {} for op in extensions}
    for L in lengths:
        x = _eval_tokens(vocab, recipe, L, seed_key)                       # (B, L)
        for op in extensions:
            out[str(op)][L] = evaluate(pe, task, params, L, recipe.train_length, x, op)
    return out
