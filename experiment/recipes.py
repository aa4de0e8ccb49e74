"""The experiment's training recipes: one optimizer per implicit-bias geometry, fixed up front.

Main definitions:

* :class:`Optimizer` — ``adam`` (Kingma & Ba 2015), ``signum`` (sign of momentum; Bernstein et
  al. 2018), ``gd`` (gradient descent normalized per parameter block: every block moves by
  ``lr`` in ℓ2 along its own negative gradient, Nacson et al. 2019);
* :class:`Recipe` — the optimizer with its step size and step count, the batch sizes and the
  threshold of the verdict, shared by every cell of a grid and never tuned per cell;
* :data:`RECIPES` — the three named recipes ``adam``, ``signum`` and ``gd``.

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
    ADAM = "adam"
    SIGNUM = "signum"
    GD = "gd"


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

    def to_json(self) -> dict:
        out = asdict(self)
        out["optimizer"] = self.optimizer.value
        return out

    def with_changes(self, **changes: object) -> Recipe:
        return replace(self, **changes)  # type: ignore[arg-type]


ADAM = Recipe(name="adam", optimizer=Optimizer.ADAM, steps=1500, lr=0.02)
SIGNUM = Recipe(name="signum", optimizer=Optimizer.SIGNUM, steps=1500, lr=0.005)
GD = Recipe(name="gd", optimizer=Optimizer.GD, steps=1500, lr=0.1)

RECIPES: dict[str, Recipe] = {r.name: r for r in (ADAM, SIGNUM, GD)}
"""The named recipes, in the order of ``--recipe all``."""


def parse_recipes(text: str) -> tuple[Recipe, ...]:
    """``adam``, ``signum``, ``gd`` or ``all`` (every recipe) -> the recipes."""
    if text == "all":
        return tuple(RECIPES.values())
    if text not in RECIPES:
        raise bad_value("recipe", text, "one of " + ", ".join([*RECIPES, "all"]))
    return (RECIPES[text],)
