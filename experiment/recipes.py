"""The experiment's training recipes: one optimizer per implicit-bias geometry, fixed up front.

Main definitions:

* :class:`Optimizer` — ``adam`` (Kingma & Ba 2015), ``signum`` (sign of momentum; Bernstein et
  al. 2018), ``gd`` (gradient descent normalized per parameter block: every block moves by
  ``lr`` in ℓ2 along its own negative gradient, Nacson et al. 2019);
* :class:`Recipe` — the optimizer with its step size and step count, the batch sizes and the
  threshold of the verdict, shared by every cell of a grid and never tuned per cell;
* :data:`RECIPES` — the token recipes ``adam``, ``signum`` and ``gd``, and the positional-loss recipes
  ``gd-positional`` and ``signum-positional`` (:mod:`posreal.experiment.positional`): θ alone, no tokens,
  trained on the positional cross-entropy at L0 — the object of Theorem 1 and Conjecture′ — to their limit:
  ``gd-positional`` is gradient descent at the fixed step 1/β for ``steps`` steps continued by the
  log-time gradient flow to its horizon; ``signum-positional`` is sign descent with the diminishing steps
  η_t = η₀ (t + 1)^(-1/2) that the ℓ∞ result assumes (η₀ = ``lr``), run for doubling step counts up to
  ``steps`` until its direction drift is below the bound (:mod:`posreal.experiment.convergence`).

Implicit bias (definitions.md#geometry): gradient descent on a
separable logistic-type loss tends in direction to the ℓ2 max-margin solution (Soudry et al.
2018), steepest descent in ‖·‖_q to the ℓq one (Gunasekar, Lee, Soudry & Srebro 2018), Adam and
Signum to the ℓ∞ one (Zhang, Zou & Cao 2024; Baek, Song & Yun 2025).  Normalizing the gradient
of a block keeps its direction, so ``gd`` is ℓ2 steepest descent on θ; Signum's step is the ℓ∞
steepest-descent step of its momentum.

Step sizes and step counts: ``adam`` is the first run's recipe (lr 0.02, 1500 steps).  The
other two keep its 1500 steps, its batches and (Signum) its β1 = 0.9 as momentum; their step
sizes were fixed once, before any full run, by one pilot on the single cell relbias · offset:1
at (V, d) = (64, 128), seeds 0-2, with the rule "the largest step size whose final training loss
is below 0.1 for every seed": Signum 0.02 → losses 1.3-6.5, 0.01 → 0.13-0.17, 0.005 → ≤ 0.03
(chosen); normalized GD 0.02, 0.05, 0.1 → all ≤ 0.01 (0.1 chosen).  The pilot is reported on
the docs' Experiment page; no recipe is changed per cell.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, replace
from enum import Enum

import numpy as np
from posreal.theory.defaults import TRAIN_LENGTH
from posreal.theory.errors import bad_value


class Optimizer(Enum):
    """The optimizers of the recipes."""

    ADAM = "adam"
    SIGNUM = "signum"
    GD = "gd"
    GD_FLOW = "gd-flow"              # positional loss: gradient descent at 1/β, then the log-time flow
    SIGN_DESCENT = "sign-descent"    # positional loss: sign descent, η_t = η₀ (t + 1)^(-1/2)

    @property
    def positional(self) -> bool:
        """Trains θ alone on the positional cross-entropy (no tokens, no value map, no readout)."""
        return self in (Optimizer.GD_FLOW, Optimizer.SIGN_DESCENT)


@dataclass(frozen=True)
class Recipe:
    """The training and evaluation settings shared by every cell of a grid."""

    name: str = "adam"
    optimizer: Optimizer = Optimizer.ADAM
    train_length: int = TRAIN_LENGTH
    steps: int = 1500
    lr: float = 0.02
    momentum: float = 0.9      # Adam's β1, Signum's β (unused by gd)
    batch: int = 32
    eval_batch: int = 128
    threshold: float = 0.95
    dtype: str = "float32"     # training arithmetic; evaluation is always in float64

    def __post_init__(self) -> None:
        if not isinstance(self.optimizer, Optimizer):
            raise bad_value("optimizer", self.optimizer, "one of " + ", ".join(o.value for o in Optimizer))
        for name in ("train_length", "steps", "batch", "eval_batch"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < 1:
                raise bad_value(name.replace("_", " "), value, "an integer >= 1")
        if not (isinstance(self.lr, (int, float)) and 0 < self.lr < np.inf):
            raise bad_value("learning rate", self.lr, "a finite number > 0")
        if not (isinstance(self.momentum, (int, float)) and 0 <= self.momentum < 1):
            raise bad_value("momentum", self.momentum, "a number in [0, 1)")
        if self.dtype not in ("float32", "float64"):
            raise bad_value("dtype", self.dtype, "float32 or float64")
        if not (isinstance(self.threshold, (int, float)) and 0 < self.threshold <= 1):
            raise bad_value("threshold", self.threshold, "a number in (0, 1]")

    @property
    def positional(self) -> bool:
        """Whether the recipe trains on the positional loss."""
        return self.optimizer.positional

    def to_json(self) -> dict:
        """The recipe as a JSON object."""
        out = asdict(self)
        out["optimizer"] = self.optimizer.value
        return out

    def with_changes(self, **changes: object) -> Recipe:
        """The same recipe with the given fields changed."""
        return replace(self, **changes)  # type: ignore[arg-type]


ADAM = Recipe(name="adam", optimizer=Optimizer.ADAM, steps=1500, lr=0.02)
SIGNUM = Recipe(name="signum", optimizer=Optimizer.SIGNUM, steps=1500, lr=0.005)
GD = Recipe(name="gd", optimizer=Optimizer.GD, steps=1500, lr=0.1)
GD_POSITIONAL = Recipe(name="gd-positional", optimizer=Optimizer.GD_FLOW, steps=20000, lr=1.0, momentum=0.0,
                       dtype="float64")       # lr: the step in units of 1/β; then the flow to σ = 24
SIGNUM_POSITIONAL = Recipe(name="signum-positional", optimizer=Optimizer.SIGN_DESCENT, steps=2 ** 17, lr=0.01,
                           momentum=0.0, dtype="float64")   # lr: η₀; steps: the largest step count tried

RECIPES: dict[str, Recipe] = {r.name: r for r in (ADAM, SIGNUM, GD, GD_POSITIONAL, SIGNUM_POSITIONAL)}
"""The named recipes, in the order of ``--recipe all``."""

LADDER = ("gd-positional", "signum-positional", "gd", "signum", "adam")
"""The recipes from the theorems' regime to the token model: positional loss with GD and with sign descent,
then the token model with GD, Signum and Adam."""


def parse_recipes(text: str) -> tuple[Recipe, ...]:
    """A recipe name, a list of names, or a group name -> the recipes.

    A recipe name, several separated by commas, ``positional`` (the two positional-loss recipes),
    ``token`` (the three token recipes) or ``all`` (every recipe) -> the recipes."""
    if text == "all":
        return tuple(RECIPES.values())
    if text in ("positional", "token"):
        return tuple(r for r in RECIPES.values() if r.positional == (text == "positional"))
    names = text.split(",")
    for name in names:
        if name not in RECIPES:
            raise bad_value("recipe", name, "one of " + ", ".join([*RECIPES, "positional", "token", "all"])
                            + ", or several separated by commas")
    if len(set(names)) != len(names):
        raise bad_value("recipe", text, "distinct recipe names")
    return tuple(RECIPES[n] for n in names)
