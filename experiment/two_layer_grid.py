"""The two-layer experiment's grid, its predictions, and a resumable run (one JSON line per measurement).

Main definitions:

* :class:`TwoLayerGrid` — recipes × PEs × tasks × seeds, L0 and the evaluation factors (2, 4, 8 × L0), and
  the length extensions each PE is evaluated under (rope: none, pi, ntk, yarn; the others: none).  An
  extension changes no training: the same trained model is evaluated through T_L^σ;
  :data:`FULL` (the committed run) and :data:`QUICK` (≤ 3 min, for the CLI's ``--quick``);
* :func:`predictions` — what the theory says of each (PE, extension) cell: α_L^ind(Φ, σ; L0) of the
  induction circuit (:func:`posreal.theory.induction.induction_alpha`, lengths n = kL0 + 1) with
  α_L(Φ, offset:1) of its layer 1, and the one-head α_L(Φ, copy) at n = kL0 (None: offset:1 or copy is not
  realizable at L0, so the theory makes no prediction);
* :func:`run_grid` — trains every model not yet in the records file, appending its records (one per
  length and extension, with its prediction and provenance) as soon as it is trained; a resumed run skips
  finished models (a model is a pure function of its cell, seed and recipe).  Progress goes to stderr.

Tasks (:class:`~posreal.experiment.two_layer_model.Kind`): ``induction`` is trained at n = L0 + 1 and evaluated
at n = kL0 + 1 (the layout needs n = 2m + 1); ``copy`` at n = L0 and kL0.  The ``single`` recipe (induction at
the single layout of L0 only) is the control that shows why the main recipe ``mixed`` draws m per sequence.
"""

from __future__ import annotations

import json
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path

from posreal.experiment.two_layer_model import RECIPE, Kind, TwoLayerRecipe, evaluate, model_key, train
from posreal.theory.errors import SpecError, quote
from posreal.theory.extension import parse_extension
from posreal.runtime.output_files import AppendLog
from posreal.theory.pe_specs import parse_pe
from posreal.runtime.provenance import timestamp, versions

ROPE_EXTENSIONS = ("none", "pi", "ntk", "yarn")


@dataclass(frozen=True)
class NamedRecipe:
    """A recipe with its name and the tasks it trains."""

    name: str
    recipe: TwoLayerRecipe
    tasks: tuple[Kind, ...]


@dataclass(frozen=True)
class TwoLayerGrid:
    """Every model of a run and where it is measured."""

    name: str
    recipes: tuple[NamedRecipe, ...]
    pes: tuple[str, ...]
    seeds: tuple[int, ...]
    train_length: int = 16
    factors: tuple[int, ...] = (2, 4, 8)

    def extensions(self, pe: str) -> tuple[str, ...]:
        """The length extensions a PE is measured under: none, pi, ntk and yarn for rope, else none."""
        return ROPE_EXTENSIONS if pe.startswith("rope") else ("none",)

    def jobs(self) -> list[tuple[NamedRecipe, str, Kind, int]]:
        """Every (recipe, PE, task, seed) of the grid."""
        return [(r, pe, task, seed) for r in self.recipes for task in r.tasks for pe in self.pes for seed in self.seeds]

    def lengths(self, task: Kind) -> list[int]:
        """L0 and the evaluation lengths of ``task`` (induction: kL0 + 1)."""
        extra = 1 if task is Kind.INDUCTION else 0
        return [k * self.train_length + extra for k in (1, *self.factors)]

    def to_json(self) -> dict:
        """The grid as a JSON object."""
        return {"name": self.name, "pes": list(self.pes), "seeds": list(self.seeds), "train_length": self.train_length,
                "factors": list(self.factors),
                "recipes": [{"name": r.name, "tasks": [t.value for t in r.tasks], **r.recipe.to_json()}
                            for r in self.recipes],
                "extensions": {pe: list(self.extensions(pe)) for pe in self.pes}}


PES = ("nope", "rope:16", "t5", "alibi-fixed", "abscol:16")
FULL = TwoLayerGrid("full", (NamedRecipe("mixed", RECIPE, (Kind.INDUCTION, Kind.COPY)),
                             NamedRecipe("single", replace(RECIPE, mixed=False), (Kind.INDUCTION,))),
                    PES, (0, 1, 2))
QUICK = TwoLayerGrid("quick", (NamedRecipe("mixed", replace(RECIPE, steps=500), (Kind.INDUCTION, Kind.COPY)),),
                     ("rope:16", "t5"), (0,), factors=(2,))
GRIDS = {"full": FULL, "quick": QUICK}


@dataclass(frozen=True)
class Prediction:
    """The theory's coefficient for one (PE, extension, task) at each length (None: no prediction)."""

    alpha: dict[int, float | None]           # α^ind (induction) or α(copy) (copy)
    alpha_offset1: dict[int, float | None]   # layer 1's α(offset:1) at the same lengths (induction only)
    realizable: bool


def predictions(grid: TwoLayerGrid, pe: str, extension: str, task: Kind) -> Prediction:
    """α_L^ind with α_L(offset:1) (induction, n = kL0 + 1), or α_L(copy) (copy, n = kL0), float mode."""
    from posreal.theory.alpha import compute_alpha
    from posreal.theory.induction import induction_alpha
    lengths = grid.lengths(task)
    if task is Kind.INDUCTION:
        ind = induction_alpha(pe, grid.train_length, lengths, extension=extension)
        return Prediction({L: ind.alpha(L) for L in lengths},
                          {L: ind.offset1.alpha(L) for L in lengths}, bool(ind.realizable))
    copy = compute_alpha(pe, "copy", grid.train_length, lengths, extension=extension)
    return Prediction({L: copy.alpha(L) for L in lengths}, {}, bool(copy.realizable))


def read_records(path: Path) -> list[dict]:
    """The records of a run file (an interrupted last line is dropped); a one-line SpecError if malformed."""
    out = []
    lines = path.read_text(encoding="utf-8").splitlines() if path.exists() else []
    for n, line in enumerate(lines, 1):
        try:
            record = json.loads(line)
        except json.JSONDecodeError:
            if n == len(lines):
                break                                        # cut off by an interruption: retrained on resume
            raise SpecError(f"malformed records file {quote(str(path))} line {n}; accepted: JSON lines written by "
                            "'posreal experiment two-layer'") from None
        if not isinstance(record, dict) or "recipe" not in record or "seed" not in record:
            raise SpecError(f"malformed records file {quote(str(path))} line {n}; accepted: JSON lines written by "
                            "'posreal experiment two-layer'")
        out.append(record)
    return out


def job_key(recipe: str, pe: str, task: str, seed: int) -> tuple[str, str, str, int]:
    """The key of a job's records."""
    return recipe, pe, task, seed


def _model_records(grid: TwoLayerGrid, named: NamedRecipe, pe_spec: str, task: Kind, seed: int,
                   cache: dict[tuple[str, str, Kind], Prediction]) -> list[dict]:
    """Train one model and measure it at every length under every extension of its PE."""
    start = time.perf_counter()
    pe = parse_pe(pe_spec)
    key = model_key(pe_spec, task.value, seed)
    trained = train(pe, task, grid.train_length, key, named.recipe)
    seconds = round(time.perf_counter() - start, 2)
    lengths = grid.lengths(task)
    at_l0 = evaluate(pe, task, trained.params, lengths[0], grid.train_length, parse_extension("none"), key,
                     named.recipe)
    tools = {**versions(), "jax": _jax_version()}
    out = []
    for ext in grid.extensions(pe_spec):
        if (pe_spec, ext, task) not in cache:
            cache[(pe_spec, ext, task)] = predictions(grid, pe_spec, ext, task)
        pred = cache[(pe_spec, ext, task)]
        for k, L in zip(grid.factors, lengths[1:]):
            m = evaluate(pe, task, trained.params, L, grid.train_length, parse_extension(ext), key, named.recipe)
            alpha = pred.alpha[L]
            out.append({
                "recipe": named.name, "pe": pe_spec, "extension": ext, "task": task.value, "seed": seed,
                "train_length": grid.train_length, "factor": k, "length": L,
                "token_accuracy": m.token_accuracy, "layer1_previous": m.layer1_previous,
                "generalizes": m.token_accuracy >= named.recipe.threshold,
                "train_token_accuracy": at_l0.token_accuracy, "train_layer1_previous": at_l0.layer1_previous,
                "learned": at_l0.token_accuracy >= named.recipe.threshold,
                "final_loss": trained.losses[-1], "realizable": pred.realizable, "alpha": alpha,
                "alpha_offset1": pred.alpha_offset1.get(L), "predicted": None if alpha is None else alpha == 1.0,
                "recipe_settings": named.recipe.to_json(), "seconds": seconds, "timestamp": timestamp(),
                "versions": tools})
    return out


def _jax_version() -> str:
    from importlib import metadata
    try:
        return metadata.version("jax")
    except metadata.PackageNotFoundError:
        return "not installed"


def run_grid(grid: TwoLayerGrid, out: str | Path, resume: bool = False,
             progress: Callable[[str], None] | None = None) -> list[dict]:
    """Train every model of ``grid`` whose records are not in ``out`` yet; return every record of the file."""
    path = Path(out)
    say = progress or (lambda text: print(text, file=sys.stderr, flush=True))
    earlier = read_records(path) if path.exists() else []
    if earlier and not resume:
        raise SpecError(f"invalid --out {quote(str(path))}: it holds an earlier run; accepted: --resume to continue "
                        "it, or another file")
    if earlier and {r["recipe"] for r in earlier} - {r.name for r in grid.recipes}:
        raise SpecError(f"invalid --resume of {quote(str(path))}: its records are of another grid; accepted: the "
                        "same grid as the run that wrote it")
    counts: dict[tuple, int] = {}
    for r in earlier:
        key = job_key(r["recipe"], r["pe"], r["task"], r["seed"])
        counts[key] = counts.get(key, 0) + 1
    expected = {pe: len(grid.extensions(pe)) * len(grid.factors) for pe in grid.pes}
    jobs = grid.jobs()
    todo = [j for j in jobs if counts.get(job_key(j[0].name, j[1], j[2].value, j[3]), 0) < expected[j[1]]]
    kept = [r for r in earlier if counts[job_key(r["recipe"], r["pe"], r["task"], r["seed"])] >= expected[r["pe"]]]
    path.parent.mkdir(parents=True, exist_ok=True)
    if len(kept) != len(earlier):   # a model cut off mid-write: its partial records are dropped, it retrains
        path.write_text("".join(json.dumps(r, sort_keys=True) + "\n" for r in kept), encoding="utf-8")
    say(f"two-layer {grid.name} grid: {len(jobs)} models, {len(jobs) - len(todo)} already in {path}")
    cache: dict[tuple[str, str, Kind], Prediction] = {}
    t0 = time.perf_counter()
    with AppendLog(path, "records file") as log:
        for n, (named, pe, task, seed) in enumerate(todo, 1):
            records = _model_records(grid, named, pe, task, seed, cache)
            log.write("".join(json.dumps(r, sort_keys=True) + "\n" for r in records))
            kept.extend(records)
            elapsed = time.perf_counter() - t0
            eta = elapsed / n * (len(todo) - n)
            accs = " ".join(f"{r['token_accuracy']:.2f}" for r in records if r["extension"] == "none")
            say(f"[{n}/{len(todo)}] {named.name} {pe} {task.value} seed {seed}: L0 "
                f"{records[0]['train_token_accuracy']:.2f}, ×{'/'.join(map(str, grid.factors))} {accs} "
                f"({elapsed / 60:.1f} min, ETA {eta / 60:.1f} min)")
    return kept


