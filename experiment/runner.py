"""Running a grid: one JSON-lines record per measurement, appended as each model finishes,
resume, and parallel jobs.

Main definitions:

* :func:`run_model` — train one model and return one record per evaluation length (the unit of
  work of a job; pure function of the job, so a measurement is reproducible from its record);
* :func:`run_grid` — run every model of a grid whose measurements are not yet in
  ``DIR/records.jsonl``; ``DIR/run.json`` holds the grid and recipe, and a resumed run must use
  the same ones; with ``jobs > 1`` models are trained by a process pool (spawned, one BLAS
  thread each) while the parent alone appends records.
"""

from __future__ import annotations

import json
import os
import time
from pathlib import Path
from typing import Callable, Iterator

from posreal.experiment.grid import Grid, ModelJob, model_jobs, predictions
from posreal.experiment.train import measure_model, stable_seed, train_model
from posreal.theory import limits
from posreal.theory.encodings import parse_pe
from posreal.theory.errors import SpecError, quote
from posreal.theory.provenance import timestamp, versions
from posreal.theory.tasks import parse_task

RECORDS = "records.jsonl"
RUN_FILE = "run.json"


def record_key(record: dict) -> tuple:
    """Identity of a measurement: (pe, task, V, d, seed, L)."""
    return (record["pe"], record["task"], record["vocab"], record["width"], record["seed"], record["length"])


def run_model(job: ModelJob) -> list[dict]:
    """Train the job's model and measure it at L0 and at each of its lengths."""
    start = time.perf_counter()
    pe, task = parse_pe(job.pe), parse_task(job.task)
    recipe = job.recipe
    params, loss = train_model(pe, task, job.vocab, job.width, recipe, stable_seed(*job.key))
    L0 = recipe.train_length
    measured = measure_model(pe, task, params, job.vocab, recipe, [L0, *job.lengths], job.key)
    seconds = round(time.perf_counter() - start, 3)
    tools = versions()
    records = []
    for L, alpha in zip(job.lengths, job.alphas):
        token, attn = measured[L]
        generalizes = token >= recipe.threshold
        records.append({
            "pe": job.pe, "task": job.task, "vocab": job.vocab, "width": job.width, "seed": job.seed,
            "train_length": L0, "length": L,
            "realizable": job.realizable, "alpha": alpha,
            "predicted": None if alpha is None else alpha == 1.0,
            "token_accuracy": token, "attention_accuracy": attn, "generalizes": generalizes,
            "train_token_accuracy": measured[L0][0], "train_attention_accuracy": measured[L0][1],
            "final_loss": loss, "theta_norm": float((params["theta"] ** 2).sum() ** 0.5),
            "recipe": recipe.to_json(), "seconds": seconds, "timestamp": timestamp(), "versions": tools,
        })
    return records


_RECORD_FIELDS: dict[str, type | tuple] = {
    "pe": str, "task": str, "vocab": int, "width": int, "seed": int, "length": int, "train_length": int,
    "realizable": bool, "alpha": (float, int, type(None)), "token_accuracy": (float, int),
    "attention_accuracy": (float, int), "recipe": dict, "seconds": (float, int)}


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
    if not isinstance(record["recipe"].get("threshold"), (float, int)):
        raise SpecError(f"{where}: recipe.threshold is missing; accepted: records written by 'posreal experiment'")
    return record


def read_records(path: Path) -> tuple[list[dict], bool]:
    """Complete records of a JSON-lines file, and whether an incomplete last line (an interrupted
    write) was dropped.  A complete line that is not a record, or a file that is not UTF-8 or not a
    regular file, is a one-line SpecError."""
    if not path.exists():
        return [], False
    text = limits.read_text(str(path), "records file", limits.MAX_RECORDS_BYTES)
    records, broken = [], False
    lines = text.split("\n")
    for number, line in enumerate(lines[:-1], start=1):
        if not line.strip():
            continue
        try:
            record = limits.load_json(line, f"records file {quote(str(path))} line {number}")
        except SpecError as err:
            raise SpecError(f"{err}") from None
        records.append(_check_record(record, path, number))
    if lines[-1]:
        broken = True                      # no newline at the end: the write was interrupted
    return records, broken


def read_run_file(run_file: Path) -> dict:
    """The run file (``{"grid": {...}, "runs": [...]}``); unreadable or malformed is a one-line SpecError."""
    accepted = f"accepted: a {RUN_FILE} written by 'posreal experiment', or a new --out DIR"
    meta = limits.load_json(limits.read_text(str(run_file), "run file"), f"run file {quote(str(run_file))}")
    if not isinstance(meta, dict) or not isinstance(meta.get("grid"), dict) or not isinstance(meta.get("runs"), list):
        raise SpecError(f"malformed run file {quote(str(run_file))}: 'grid' is not an object or 'runs' is not a list; {accepted}")
    return meta


def _prepare(out: Path, grid: Grid, resume: bool) -> list[dict]:
    """Check the output directory against the grid; return the records already there."""
    if out.exists() and not out.is_dir():
        raise SpecError(f"invalid output directory {str(out)!r}; accepted: a directory (new or from an earlier run)")
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise SpecError(f"invalid output directory {str(out)!r}: {exc.strerror or exc}; "
                        "accepted: a directory that can be created") from None
    run_file, path = out / RUN_FILE, out / RECORDS
    config = json.loads(json.dumps(grid.to_json()))  # as it reads back from run.json
    if path.exists() and not resume:
        raise SpecError(f"invalid output directory {str(out)!r}: it already holds {RECORDS}; "
                        "accepted: --resume to continue that run, or a new --out DIR")
    if run_file.exists():
        earlier = read_run_file(run_file)["grid"]   # checked before any training, resumed or not
        if earlier != config:
            flag = "--resume in" if resume else "output directory"
            raise SpecError(f"invalid {flag} {quote(str(out))}: it holds the {quote(earlier.get('name'))} grid with "
                            f"other settings; accepted: the same grid and recipe, or a new --out DIR")
    records, broken = read_records(path)
    if broken:  # an interrupted write: keep the complete lines only
        with path.open("w") as fh:
            fh.writelines(json.dumps(r, sort_keys=True) + "\n" for r in records)
    if not run_file.exists():
        run_file.write_text(json.dumps({"grid": config, "runs": []}, indent=2, sort_keys=True) + "\n")
    return records


_BLAS_THREADS = ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS")


def _pool_map(jobs: list[ModelJob], n: int) -> Iterator[list[dict]]:
    """Results of ``run_model`` over ``jobs`` from ``n`` spawned processes, as they finish."""
    import multiprocessing as mp
    saved = {k: os.environ.get(k) for k in _BLAS_THREADS}
    os.environ.update({k: "1" for k in _BLAS_THREADS})  # read by each child's numpy at import
    try:
        pool = mp.get_context("spawn").Pool(n)          # the children start here
    finally:
        for k, v in saved.items():                      # the parent keeps its own setting
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v
    with pool:
        yield from pool.imap_unordered(run_model, jobs)


def run_grid(grid: Grid, out: str | Path, resume: bool = False, jobs: int = 1,
             progress: Callable | None = None) -> list[dict]:
    """Run the grid into ``out``; returns every record of the grid (earlier and new).

    ``progress(iterable, total)`` wraps the stream of finished models (a progress bar)."""
    if isinstance(jobs, bool) or not isinstance(jobs, int) or jobs < 1:
        raise SpecError(f"invalid jobs {jobs!r}; accepted: an integer >= 1")
    out = Path(out)
    existing = _prepare(out, grid, resume)
    done = {record_key(r) for r in existing}
    todo = []
    for job in model_jobs(grid, predictions(grid)):
        missing = tuple(L for L in job.lengths if (*job.key, L) not in done)
        if missing:
            todo.append(job)
    started, t0 = timestamp(), time.perf_counter()
    stream = map(run_model, todo) if jobs == 1 or len(todo) <= 1 else _pool_map(todo, min(jobs, len(todo)))
    if progress is not None:
        stream = progress(stream, len(todo))
    new = []
    with (out / RECORDS).open("a") as fh:
        for records in stream:
            for r in records:
                if record_key(r) not in done:
                    fh.write(json.dumps(r, sort_keys=True) + "\n")
                    new.append(r)
            fh.flush()
    run_file = out / RUN_FILE
    meta = read_run_file(run_file)
    meta["runs"].append({"started": started, "finished": timestamp(), "jobs": jobs, "models_trained": len(todo),
                         "wall_seconds": round(time.perf_counter() - t0, 2), "versions": versions()})
    run_file.write_text(json.dumps(meta, indent=2, sort_keys=True) + "\n")
    return existing + new


def load_run(out: str | Path) -> tuple[dict, list[dict]]:
    """The run file and the records of an output directory."""
    out = Path(out)
    if not (out / RUN_FILE).exists():
        raise SpecError(f"invalid results directory {str(out)!r}: no {RUN_FILE}; accepted: an --out DIR "
                        "written by 'posreal experiment'")
    return read_run_file(out / RUN_FILE), read_records(out / RECORDS)[0]

