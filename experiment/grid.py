"""The measurement grids of the docs' Experiment page and the per-cell predictions α_L.

Main definitions:

* :class:`Grid` — recipes × PEs × tasks × seeds × (V, d) settings × evaluation lengths
  (multiples of L0); each :class:`~posreal.experiment.recipes.Recipe` is shared by every cell; every
  trained head is also evaluated under each length-extension method of ``extensions`` that acts on
  its PE (:func:`extension_operators`; definitions.md#length-extension);
* :data:`FULL` — 9 PEs × 8 tasks × 5 seeds × 5 (V, d) settings × 3 lengths = 5400 measurements
  from 1800 trained models per token recipe: every registry PE whose θ is free and that realizes some
  registry task (``nope`` realizes none; ``alibi-fixed`` and ``kerple-log`` have a positive scale the
  trainer does not keep) and every registry task, so the grid holds every realizable registry cell;
  :data:`QUICK` — a few cells, one seed, one setting (tests, CI);
* :func:`model_jobs` — one :class:`ModelJob` per trained model (it yields one measurement per
  evaluation length); :func:`predictions` — α_L(Φ, τ; L0) per cell from
  :func:`posreal.theory.alpha.compute_alpha`, computed once before any training.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, replace

from posreal.experiment.recipes import ADAM, Recipe
from posreal.theory.alpha import compute_alpha
from posreal.theory.extension import EXTENSIONS, parse_extension
from posreal.theory.pe_specs import parse_pe
from posreal.theory.errors import SpecError, bad_value
from posreal.theory.tasks import parse_task
from posreal.theory.transfer_operator import REEVALUATION, Transfer

STABILITY_SETTING = (64, 128)


@dataclass(frozen=True)
class Grid:
    """A grid of the experiment: PEs, tasks, seeds, (V, d) settings, lengths, recipes and extensions."""

    name: str
    pes: tuple[str, ...]
    tasks: tuple[str, ...]
    seeds: int
    settings: tuple[tuple[int, int], ...]      # (vocabulary V, width d)
    multipliers: tuple[int, ...] = (2, 4, 8)   # evaluation lengths L = k · L0
    recipes: tuple[Recipe, ...] = (ADAM,)
    extensions: tuple[str, ...] = EXTENSIONS[1:]   # length extensions every head is also evaluated under

    def __post_init__(self) -> None:
        if not self.recipes:
            raise bad_value("recipes", self.recipes, "at least one recipe")
        names = [r.name for r in self.recipes]
        if len(set(names)) != len(names):
            raise bad_value("recipes", names, "recipes with distinct names")
        shared = {(r.train_length, r.threshold) for r in self.recipes}
        if len(shared) != 1:
            raise bad_value("recipes", names, "recipes with one training length and one threshold")
        for pe in self.pes:
            if parse_pe(pe).positive_scale:   # the trainer's θ is free: it would train the free-slope PE instead
                raise bad_value("PE of the experiment", pe, "a PE whose θ is free (the trainer does not keep the "
                                "positive scale of a fixed bias such as alibi-fixed or kerple-log)")
        for task in self.tasks:
            parse_task(task)
        if self.seeds < 1:
            raise bad_value("seeds", self.seeds, "an integer >= 1")
        for V, d in self.settings:
            if V < 2 or d < 1:
                raise bad_value("(V, d) setting", (V, d), "V >= 2 and d >= 1")
        for k in self.multipliers:
            if k < 1:
                raise bad_value("length multiplier", k, "integers >= 1")
        for name in self.extensions:
            if name not in EXTENSIONS[1:]:
                raise bad_value("extension", name, ", ".join(EXTENSIONS[1:]))

    @property
    def train_length(self) -> int:
        """The training length L0 (the recipes share it)."""
        return self.recipes[0].train_length

    @property
    def threshold(self) -> float:
        """The accuracy threshold of a verdict (the recipes share it)."""
        return self.recipes[0].threshold

    @property
    def lengths(self) -> list[int]:
        """The evaluation lengths k · L0."""
        return [k * self.train_length for k in self.multipliers]

    @property
    def size(self) -> int:
        """Number of measurements (every recipe).

        A token recipe trains one model per cell, setting and seed, a positional-loss recipe one run per cell
        (it has no tokens and no random stream)."""
        per_cell = sum(1 if r.positional else self.seeds * len(self.settings) for r in self.recipes)
        return per_cell * len(self.pes) * len(self.tasks) * len(self.multipliers)

    def with_recipe(self, **changes: object) -> Grid:
        """The grid with ``changes`` applied to every recipe."""
        return replace(self, recipes=tuple(r.with_changes(**changes) for r in self.recipes))

    def with_recipes(self, recipes: tuple[Recipe, ...]) -> Grid:
        """The same grid with other recipes."""
        return replace(self, recipes=recipes)

    def to_json(self) -> dict:
        """The grid as a JSON object, with its lengths."""
        out = asdict(self)
        out["settings"] = [list(s) for s in self.settings]
        out["recipes"] = [r.to_json() for r in self.recipes]
        out["lengths"] = self.lengths
        return out


FULL = Grid(
    name="full",
    pes=("relbias", "alibi", "rope:16", "colbias", "abscol:16", "abssin:16", "t5", "xpos:16", "fire"),
    tasks=("offset:1", "offset:2", "position:0", "position:1", "copy", "middle", "reverse", "half"),
    seeds=5,
    settings=((8, 16), (16, 32), (32, 64), (64, 64), STABILITY_SETTING),
)

QUICK = Grid(
    name="quick",
    pes=("relbias", "rope:16", "abscol:16"),
    tasks=("offset:1", "position:0"),
    seeds=1,
    settings=((16, 32),),
)

GRIDS = {"quick": QUICK, "full": FULL}


@dataclass(frozen=True)
class ModelJob:
    """One trained model: a cell, a setting and a seed, measured at several lengths."""

    pe: str
    task: str
    vocab: int
    width: int
    seed: int
    lengths: tuple[int, ...]
    realizable: bool
    alphas: tuple[float | None, ...]   # α_L per length (None when not realizable at L0)
    recipe: Recipe

    @property
    def key(self) -> tuple:
        """The model's identity within a recipe.

        It seeds the model's random streams, so every recipe starts from the same initialization and sees the
        same token batches."""
        return (self.pe, self.task, self.vocab, self.width, self.seed)


def predictions(grid: Grid) -> dict[tuple[str, str], tuple[bool, dict[int, float | None]]]:
    """(realizable at L0, α_L per evaluation length) for every (PE, task) cell."""
    out = {}
    for pe in grid.pes:
        for task in grid.tasks:
            result = compute_alpha(pe, task, grid.train_length, grid.lengths)
            out[(pe, task)] = (result.realizable, {L: result.alpha(L) for L in grid.lengths})
    return out


def extension_operators(names: tuple[str, ...], pe: str, train_length: int) -> tuple[Transfer, ...]:
    """The length extensions among ``names`` that act on ``pe`` (a method the PE refuses is skipped)."""
    out = []
    for name in names:
        op = parse_extension(name)
        try:
            op.accept(parse_pe(pe), train_length)
        except SpecError:
            continue
        if op is not REEVALUATION:
            out.append(op)
    return tuple(out)


def model_jobs(grid: Grid, preds: dict | None = None) -> list[ModelJob]:
    """Every trained model of the grid, in a fixed order.

    A positional-loss recipe has one run per cell, with V = d = seed = 0."""
    preds = predictions(grid) if preds is None else preds
    jobs = []
    for recipe in grid.recipes:
        if recipe.positional:
            for pe in grid.pes:
                for task in grid.tasks:
                    realizable, alphas = preds[(pe, task)]
                    jobs.append(ModelJob(pe, task, 0, 0, 0, tuple(grid.lengths), realizable,
                                         tuple(alphas[L] for L in grid.lengths), recipe))
            continue
        for V, d in grid.settings:
            for pe in grid.pes:
                for task in grid.tasks:
                    realizable, alphas = preds[(pe, task)]
                    for seed in range(grid.seeds):
                        jobs.append(ModelJob(pe, task, V, d, seed, tuple(grid.lengths), realizable,
                                             tuple(alphas[L] for L in grid.lengths), recipe))
    return jobs
