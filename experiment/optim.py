"""The recipes' optimizers in numpy, over a dict of named parameter arrays (updates in place).

Main definitions:

* :class:`Adam` (Kingma & Ba 2015): m ← β1 m + (1-β1) g, v ← β2 v + (1-β2) g²,
  θ ← θ - η m̂ / (√v̂ + ε) with m̂ = m / (1-β1^k), v̂ = v / (1-β2^k);
* :class:`Signum` (Bernstein et al. 2018): m ← β m + (1-β) g, θ ← θ - η sign(m) — the ℓ∞
  steepest-descent step of the momentum;
* :class:`NormalizedGD` (Nacson et al. 2019): θ ← θ - η g / ‖g‖₂ per parameter block (and per
  model when the arrays carry a leading model axis); a zero gradient leaves the block unchanged;
* :func:`make_optimizer` — the optimizer of a :class:`~posreal.experiment.recipes.Recipe`.

Adam and Signum act coordinate-wise, so a leading model axis changes nothing; NormalizedGD takes
``model_axis=True`` to normalize each model's block on its own.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Protocol

import numpy as np
from posreal.experiment.recipes import Optimizer, Recipe

Params = dict[str, np.ndarray]


class Stepper(Protocol):
    """An optimizer: one update of the parameters in place from their gradients."""

    def step(self, params: Params, grads: Params) -> None:
        """Update ``params`` in place from ``grads``."""


@dataclass
class Adam:
    """The Adam optimizer, with its moment estimates kept per parameter."""

    lr: float = 1e-2
    beta1: float = 0.9
    beta2: float = 0.999
    eps: float = 1e-8
    step_count: int = 0
    m: Params = field(default_factory=dict)
    v: Params = field(default_factory=dict)
    scratch: Params = field(default_factory=dict)   # per-parameter work array of the update

    def step(self, params: Params, grads: Params) -> None:
        """One update of every parameter in ``params`` (in place) from ``grads`` (same shapes).

        In place, with one scratch array per parameter (no temporaries): m += (1-β1)(g - m),
        v += (1-β2)(g² - v), θ -= η √c2 / c1 · m / (√v + ε √c2), the update above rewritten with
        c1 = 1-β1^k, c2 = 1-β2^k."""
        self.step_count += 1
        k = self.step_count
        c1 = 1.0 - self.beta1 ** k
        c2 = 1.0 - self.beta2 ** k
        root_c2 = float(np.sqrt(c2))
        for name, g in grads.items():
            if name not in self.m:
                self.m[name] = np.zeros_like(g)
                self.v[name] = np.zeros_like(g)
                self.scratch[name] = np.empty_like(g)
            m, v, t = self.m[name], self.v[name], self.scratch[name]
            np.subtract(g, m, out=t)
            t *= 1.0 - self.beta1
            m += t
            np.multiply(g, g, out=t)
            t -= v
            t *= 1.0 - self.beta2
            v += t
            np.sqrt(v, out=t)
            t += self.eps * root_c2
            np.divide(m, t, out=t)
            t *= self.lr * root_c2 / c1
            params[name] -= t


@dataclass
class Signum:
    """Signum: m += (1-β)(g - m), then θ -= η sign(m)."""

    lr: float = 1e-2
    beta: float = 0.9
    m: Params = field(default_factory=dict)

    def step(self, params: Params, grads: Params) -> None:
        """Update ``params`` in place from ``grads``."""
        for name, g in grads.items():
            if name not in self.m:
                self.m[name] = np.zeros_like(g)
            m = self.m[name]
            t = np.subtract(g, m)       # m += (1-β)(g - m), then θ -= η sign(m)
            t *= 1.0 - self.beta
            m += t
            np.sign(m, out=t)
            t *= self.lr
            params[name] -= t


@dataclass
class NormalizedGD:
    """Gradient descent on the gradient divided by its norm (per model with ``model_axis``)."""

    lr: float = 1e-2
    model_axis: bool = False

    def step(self, params: Params, grads: Params) -> None:
        """Update ``params`` in place from ``grads``."""
        for name, g in grads.items():
            if self.model_axis:
                norm = np.sqrt(np.sum(g * g, axis=tuple(range(1, g.ndim)), keepdims=True))  # (K, 1, ...)
            else:
                norm = np.sqrt(np.sum(g * g, keepdims=True))                               # (1, ...)
            safe = np.where(norm > 0, norm, 1.0)
            params[name] -= self.lr * np.where(norm > 0, g / safe, 0.0)


def make_optimizer(recipe: Recipe, model_axis: bool = False) -> Stepper:
    """The optimizer of ``recipe``; ``model_axis``: the arrays carry a leading model axis."""
    if recipe.optimizer is Optimizer.ADAM:
        return Adam(lr=recipe.lr, beta1=recipe.momentum)
    if recipe.optimizer is Optimizer.SIGNUM:
        return Signum(lr=recipe.lr, beta=recipe.momentum)
    if recipe.optimizer.positional:
        raise ValueError(f"recipe {recipe.name!r} trains the positional loss (posreal.experiment.positional), "
                         "not the token model")
    return NormalizedGD(lr=recipe.lr, model_axis=model_axis)
