"""Running a grid.

Batches of models as the unit of work, one JSON-lines record per measurement appended as each batch finishes, resume,
parallel jobs, and the run's provenance.

Main definitions:

* :class:`Batch` — models of one recipe and one (V, d) setting whose PEs share the θ width p, so
  they train as one computation (:mod:`posreal.experiment.batched`); :func:`plan_batches` splits
  the models still to train into batches that fit the memory budget of one worker and whose step
  stays near a cache-sized working set;
* :func:`run_batch` — train a batch and return one record per (model, evaluation length); a
  record is a pure function of its model (random streams seeded by the model's key), so it does
  not depend on the batch it was trained in and a measurement is reproducible from its record.
  Its ``extensions`` field holds the same measurement under each length-extension method that acts
  on the PE (same θ through T_L^σ, same sequences);
* :func:`run_grid` — run every model of a grid whose measurements are not yet in
  ``DIR/records.jsonl``; ``DIR/run.json`` holds the grid and recipes (a resumed run must use the
  same ones) and, per run, its wall time, peak memory, load average, models per minute and the
  executor's provenance (kind, workers, each worker's versions); batches are the units of an
  executor (:mod:`posreal.runtime.executors`: this process, ``jobs > 1`` spawned processes with one
  BLAS thread each, or Dask), and the client alone appends records.
"""

from __future__ import annotations

from functools import partial

import json
import os
import resource
import time
from dataclasses import dataclass
from pathlib import Path
from collections.abc import Callable
from typing import Protocol

import numpy as np
from posreal.experiment.batched import (
    BatchShape,
    Member,
    batch_capacity,
    model_bytes,
    pe_dim,
    train_batch,
)
from posreal.experiment.convergence import diagnose
from posreal.experiment.grid import Grid, ModelJob, extension_operators, model_jobs, predictions
from posreal.experiment.positional import positional_records
from posreal.experiment.train import measure_extensions, measure_model
from posreal.runtime import output_files, resources
from posreal.runtime.output_files import AppendLog
from posreal.theory.defaults import EXPERIMENT_MEMORY_MIB, EXPERIMENT_STEP_CACHE_MIB
from posreal.theory.pe_specs import parse_pe
from posreal.theory.errors import SpecError, quote
from posreal.runtime.executors import ExecutorKind, ExecutorSpec, local, open_pool
from posreal.runtime.provenance import timestamp, versions
from posreal.theory.tasks import parse_task

RECORDS = "records.jsonl"
RUN_FILE = "run.json"
MIB = 2 ** 20


class Progress(Protocol):
    """Where a run reports finished models (a progress bar)."""

    def start(self, models: int) -> None:
        """A run of ``models`` models starts."""

    def advance(self, models: int) -> None:
        """``models`` more models are done."""

    def close(self) -> None:
        """The run is over."""


def record_key(record: dict) -> tuple:
    """Identity of a measurement: (recipe, pe, task, V, d, seed, L)."""
    return (record["recipe"]["name"], record["pe"], record["task"], record["vocab"], record["width"],
            record["seed"], record["length"])


def job_key(job: ModelJob) -> tuple:
    """The key of a job's records: its recipe name and model key."""
    return (job.recipe.name, *job.key)


@dataclass(frozen=True)
class Batch:
    """A batch of models trained together, with the length extensions it measures."""

    shape: BatchShape
    jobs: tuple[ModelJob, ...]
    extensions: tuple[str, ...] = ()   # length extensions each model is also evaluated under

    @property
    def cost(self) -> int:
        """A size for ordering the work: model bytes × models × steps."""
        s = self.shape
        return model_bytes(s.vocab, s.width, s.dim, s.recipe) * len(self.jobs) * s.recipe.steps


def plan_batches(jobs: list[ModelJob], budget_bytes: int,
                 cache_bytes: int = EXPERIMENT_STEP_CACHE_MIB * MIB, extensions: tuple[str, ...] = ()) -> list[Batch]:
    """Group ``jobs`` into batches that fit the memory and cache budgets; largest first.

    Group ``jobs`` by (recipe, V, d, θ width) and split each group into batches of at most as
    many models as fit ``budget_bytes`` (memory) and ``cache_bytes`` (the working set of a step),
    sizes as equal as possible; largest first.  Every batch carries ``extensions``."""
    groups: dict[BatchShape, list[ModelJob]] = {}
    for job in jobs:
        shape = BatchShape(job.vocab, job.width, pe_dim(job.pe, job.recipe.train_length), job.recipe)
        groups.setdefault(shape, []).append(job)
    out = []
    for shape, members in groups.items():
        itemsize = np.dtype(shape.recipe.dtype).itemsize
        cap = 1 if shape.recipe.positional else min(       # a positional-loss run is its own unit of work
            batch_capacity(budget, shape.vocab, shape.width, shape.dim, shape.recipe, itemsize)
            for budget in (budget_bytes, cache_bytes))
        parts = -(-len(members) // cap)
        size = -(-len(members) // parts)
        out += [Batch(shape, tuple(members[i:i + size]), extensions) for i in range(0, len(members), size)]
    return sorted(out, key=lambda b: -b.cost)


def run_batch(batch: Batch) -> list[dict]:
    """Train the batch's models and measure each at L0 and at each of its lengths.

    Each is also measured under each of the batch's length extensions that acts on its PE."""
    start = time.perf_counter()
    shape, recipe = batch.shape, batch.shape.recipe
    if recipe.positional:
        return [r for job in batch.jobs for r in positional_records(
            job.pe, job.task, parse_pe(job.pe), parse_task(job.task), recipe, list(job.lengths), job.realizable,
            list(job.alphas))]
    members = [Member(j.pe, j.task, j.seed) for j in batch.jobs]
    trained = train_batch(members, shape, np.dtype(recipe.dtype).type)
    L0 = recipe.train_length
    seconds = round((time.perf_counter() - start) / len(members), 4)   # training, per model
    tools = versions()
    records = []
    for k, job in enumerate(batch.jobs):
        params = {name: np.asarray(value[k], dtype=np.float64) for name, value in trained.params.items()}
        pe, task = parse_pe(job.pe), parse_task(job.task)
        measured = measure_model(pe, task, params, job.vocab, recipe, [L0, *job.lengths], job.key)
        operators = extension_operators(batch.extensions, job.pe, L0)
        extended = measure_extensions(pe, task, params, job.vocab, recipe, list(job.lengths), job.key, operators)
        theta = [float(t) for t in params["theta"]]
        mid = trained.theta_mid[k] if trained.theta_mid is not None else params["theta"]
        convergence = diagnose(pe, task, L0, np.asarray(mid, dtype=np.float64), params["theta"], "steps",
                               recipe.steps // 2, recipe.steps).to_json()
        for L, alpha in zip(job.lengths, job.alphas):
            token, attn = measured[L]
            records.append({
                "pe": job.pe, "task": job.task, "vocab": job.vocab, "width": job.width, "seed": job.seed,
                "train_length": L0, "length": L,
                "realizable": job.realizable, "alpha": alpha,
                "predicted": None if alpha is None else alpha == 1.0,
                "token_accuracy": token, "attention_accuracy": attn, "generalizes": token >= recipe.threshold,
                "train_token_accuracy": measured[L0][0], "train_attention_accuracy": measured[L0][1],
                "final_loss": float(trained.final_loss[k]), "theta_norm": float(np.linalg.norm(params["theta"])),
                "theta": theta, "recipe": recipe.to_json(), "model": "token", "convergence": convergence,
                "extensions": {name: {"token_accuracy": per_length[L][0], "attention_accuracy": per_length[L][1],
                                      "generalizes": per_length[L][0] >= recipe.threshold}
                               for name, per_length in extended.items()},
                "seconds": seconds, "timestamp": timestamp(), "versions": tools,
            })
    return records


_RECORD_FIELDS: dict[str, type | tuple] = {
    "pe": str, "task": str, "vocab": int, "width": int, "seed": int, "length": int, "train_length": int,
    "realizable": bool, "alpha": (float, int, type(None)), "token_accuracy": (float, int, type(None)),
    "attention_accuracy": (float, int), "recipe": dict, "seconds": (float, int)}
_EXTENSION_FIELDS: dict[str, type | tuple] = {"token_accuracy": (float, int), "attention_accuracy": (float, int)}


def _check_record(record: object, path: Path, line: int) -> dict:
    """A record with every field the summary reads, of the right JSON type; else a one-line SpecError."""
    where = f"malformed records file {quote(str(path))} line {line}"
    if not isinstance(record, dict):
        raise SpecError(f"{where}: not a JSON object; accepted: records written by 'posreal experiment'")
    for key, kind in _RECORD_FIELDS.items():
        value = record.get(key)
        if key not in record or (isinstance(value, bool) and kind is not bool) or not isinstance(value, kind):
            raise SpecError(f"{where}: field {key!r} is missing or not of its type; accepted: records written by "
                            "'posreal experiment'")
    if record["token_accuracy"] is None and record.get("model") != "positional":
        raise SpecError(f"{where}: field 'token_accuracy' is null in a token-model record; accepted: records written "
                        "by 'posreal experiment'")
    if not isinstance(record["recipe"].get("threshold"), (float, int)):
        raise SpecError(f"{where}: recipe.threshold is missing; accepted: records written by 'posreal experiment'")
    extensions = record.get("extensions", {})          # absent in records written before length extensions
    if not isinstance(extensions, dict) or not all(
            isinstance(m, dict) and all(isinstance(m.get(k), kind) and not isinstance(m.get(k), bool)
                                        for k, kind in _EXTENSION_FIELDS.items()) for m in extensions.values()):
        raise SpecError(f"{where}: field 'extensions' is not an object of measurements per method; accepted: "
                        "records written by 'posreal experiment'")
    return record


def read_records(path: Path) -> tuple[list[dict], bool]:
    """Complete records of a JSON-lines file, and whether an incomplete last line (an interrupted write) was dropped.

    A complete line that is not a record, or a file that is not UTF-8 or not a regular file, is a one-line
    SpecError.
    """
    if not path.exists():
        return [], False
    text = resources.read_text(str(path), "records file", resources.MAX_RECORDS_BYTES)
    records, broken = [], False
    lines = text.split("\n")
    for number, line in enumerate(lines[:-1], start=1):
        if not line.strip():
            continue
        try:
            record = resources.load_json(line, f"records file {quote(str(path))} line {number}")
        except SpecError as err:
            raise SpecError(f"{err}") from None
        records.append(_check_record(record, path, number))
    if lines[-1]:
        broken = True                      # no newline at the end: the write was interrupted
    return records, broken


def read_run_file(run_file: Path) -> dict:
    """The run file (``{"grid": {...}, "runs": [...]}``); unreadable or malformed is a one-line SpecError."""
    accepted = f"accepted: a {RUN_FILE} written by 'posreal experiment', or a new --out DIR"
    meta = resources.load_json(resources.read_text(str(run_file), "run file"), f"run file {quote(str(run_file))}")
    if not isinstance(meta, dict) or not isinstance(meta.get("grid"), dict) or not isinstance(meta.get("runs"), list):
        raise SpecError(f"malformed run file {quote(str(run_file))}: 'grid' is not an object or 'runs' is not "
                        f"a list; {accepted}")
    return meta


RUN_OUTPUTS = (RECORDS, RUN_FILE, "summary.json", "instances.json")   # what a run writes in its directory


def _write_run_file(run_file: Path, meta: dict) -> None:
    """run.json, replaced atomically (the run's own file: rewritten at the end of every run)."""
    output_files.write_atomic(run_file, json.dumps(meta, indent=2, sort_keys=True) + "\n", "run file", force=True)


def _prepare(out: Path, grid: Grid, resume: bool, force: bool = False) -> tuple[list[dict], AppendLog]:
    """Check the output directory against the grid; return the records already there and the records
    file, locked for this run (a second run in the directory is refused in one line)."""
    if out.exists() and not out.is_dir():
        raise SpecError(f"invalid output directory {str(out)!r}; accepted: a directory (new or from an earlier run)")
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise SpecError(f"invalid output directory {str(out)!r}: {exc.strerror or exc}; "
                        "accepted: a directory that can be created") from None
    run_file, path = out / RUN_FILE, out / RECORDS
    for name in RUN_OUTPUTS:   # never through a symlink
        output_files.check_target(out / name, f"{name} in the output directory", force=True)
    config = json.loads(json.dumps(grid.to_json()))  # as it reads back from run.json
    if run_file.exists() and not (force and not resume):
        earlier = read_run_file(run_file)["grid"]   # checked before any training, resumed or not
        if earlier != config:
            flag = "--resume in" if resume else "output directory"
            raise SpecError(f"invalid {flag} {quote(str(out))}: it holds the {quote(earlier.get('name'))} grid with "
                            f"other settings; accepted: the same grid and recipe, or a new --out DIR")
    if not resume and not force:
        held = [name for name in RUN_OUTPUTS if (out / name).exists()]
        if held:
            raise SpecError(f"invalid output directory {str(out)!r}: it already holds {held[0]}; "
                            "accepted: --resume to continue that run, --force to start it over, or a new --out DIR")
    if force and not resume:   # start over: an empty records file and a fresh run file, each replaced atomically
        if path.exists():      # never under a run that is still writing it
            AppendLog(path, "records file").close()
        output_files.write_atomic(path, "", "records file", force=True)
        _write_run_file(run_file, {"grid": config, "runs": []})
    log = AppendLog(path, "records file")      # locked before it is read
    try:
        records, broken = read_records(path)
        if broken:  # an interrupted write: keep the complete lines only
            log.truncate(path.read_bytes().rfind(b"\n") + 1)
        if not run_file.exists():
            _write_run_file(run_file, {"grid": config, "runs": []})
    except BaseException:
        log.close()
        raise
    return records, log


def _user_pes(jobs: list) -> dict:
    """The user PEs (feature tables, functions) the jobs train, to register again in each worker process;
    one that cannot be sent to another process (a lambda, a local function) is refused in one line."""
    import pickle
    from posreal.theory.tables import registered_pes
    names = {job.pe for job in jobs}
    out = {name: pe for name, pe in registered_pes().items() if name in names}
    for name, pe in out.items():
        try:
            pickle.dumps(pe)
        except Exception as err:   # pickle raises several types for unpicklable objects
            raise SpecError(f"invalid PE {name!r} for jobs > 1: it cannot be sent to a worker process "
                            f"({type(err).__name__}); accepted: jobs = 1, or a function defined at module "
                            "level") from None
    return out


def _with_user_pes(user: dict, batch: Batch) -> list[dict]:
    """``run_batch`` in a worker that first registers the user PEs the batch trains (spawned processes and
    cluster workers do not share the client's user PEs)."""
    from posreal.theory.tables import restore_registered
    restore_registered(user)
    return run_batch(batch)


def _cpu_seconds() -> float:
    """User + system CPU time of this process and of its finished children."""
    own, kids = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + kids.ru_utime + kids.ru_stime


def _peak_rss_mib() -> dict:
    """Peak resident memory of this process and of its largest finished child (Linux: KiB)."""
    own = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    child = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    return {"parent": round(own, 1), "largest_child": round(child, 1)}


def run_grid(grid: Grid, out: str | Path, resume: bool = False, jobs: int = 1,
             progress: Progress | None = None, memory_mib: int = EXPERIMENT_MEMORY_MIB,
             executor: ExecutorSpec | None = None, force: bool = False) -> list[dict]:
    """Run the grid into ``out``; returns every record of the grid (earlier and new).

    ``resume`` continues the run in ``out``; ``force`` starts it over (its records and run file replaced).

    ``executor`` (default: ``jobs`` processes on this machine, this process for one) trains the
    batches; ``memory_mib`` is the budget of the whole run: each of its workers trains batches
    sized to ``memory_mib / workers``."""
    if isinstance(jobs, bool) or not isinstance(jobs, int) or jobs < 1:
        raise SpecError(f"invalid jobs {jobs!r}; accepted: an integer >= 1")
    if isinstance(memory_mib, bool) or not isinstance(memory_mib, int) or memory_mib < 1:
        raise SpecError(f"invalid memory budget {memory_mib!r}; accepted: an integer number of MiB >= 1")
    spec = executor or local(jobs)
    out = Path(out)
    existing, log = _prepare(out, grid, resume, force)
    with log:   # the records file stays locked until run.json is written
        done = {record_key(r) for r in existing}
        todo = [job for job in model_jobs(grid, predictions(grid))
                if any((*job_key(job), L) not in done for L in job.lengths)]
        started, t0, load0, cpu0 = timestamp(), time.perf_counter(), os.getloadavg(), _cpu_seconds()
        batches: list[Batch] = []
        requested = spec.jobs
        if spec.kind is not ExecutorKind.DASK:
            batches = plan_batches(todo, memory_mib * MIB // spec.jobs, extensions=grid.extensions)
            spec = local(max(1, min(spec.jobs, len(batches))))     # a pool no larger than the work
        work: Callable[[Batch], list[dict]] = run_batch
        if spec.kind is not ExecutorKind.IN_PROCESS:     # other processes: register the user PEs there too
            user = _user_pes(todo)
            work = partial(_with_user_pes, user) if user else run_batch
        with open_pool(spec) as pool:
            shares = requested if spec.kind is not ExecutorKind.DASK else pool.slots
            if spec.kind is ExecutorKind.DASK:      # each Dask worker trains batches sized to its share of the budget
                batches = plan_batches(todo, memory_mib * MIB // shares, extensions=grid.extensions)
            if progress is not None:
                progress.start(len(todo))
            new = []
            try:
                for _, records in pool.run(work, batches):
                    for r in records:
                        if record_key(r) not in done:     # a batch computed twice is recorded once
                            done.add(record_key(r))
                            log.write(json.dumps(r, sort_keys=True) + "\n")   # whole, or cut back off
                            new.append(r)
                    if progress is not None:
                        progress.advance(len({(r["pe"], r["task"], r["seed"]) for r in records}))
            finally:
                if progress is not None:
                    progress.close()
                report = pool.report.to_json()
        wall = time.perf_counter() - t0
        run_file = out / RUN_FILE
        meta = read_run_file(run_file)
        meta["runs"].append({
            "started": started, "finished": timestamp(), "jobs": shares, "models_trained": len(todo),
            "batches": len(batches), "memory_budget_mib": memory_mib, "wall_seconds": round(wall, 2),
            "cpu_seconds": round(_cpu_seconds() - cpu0, 2),
            "models_per_minute": round(60 * len(todo) / wall, 2) if wall > 0 and todo else None,
            "peak_rss_mib": _peak_rss_mib(), "cpu_count": os.cpu_count(),
            "load_average": {"start": [round(x, 2) for x in load0], "end": [round(x, 2) for x in os.getloadavg()]},
            "executor": report, "versions": versions()})
        _write_run_file(run_file, meta)
        return existing + new
