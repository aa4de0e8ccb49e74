"""Running the conjecture search.

Its JSONL file, resume, the sampled stream and the exhaustive pass over a finite family, with units of work on any
executor (:mod:`posreal.runtime.executors`).

Main definitions:

* the **file** (format ``posreal-conjecture-search``, version 4): a header line (mode, seed and
  families or the family, τ_max, gradient descent's steps, the client's tool versions), then record lines
  (sampled mode: one
  per instance, ``"index"``), chunk lines (exhaustive mode: ``{"type": "chunk", "start", "stop",
  "summary", "hits"}``, the summary of the instances ``start..stop-1`` and the full records of its
  candidates and counterexamples) and one run line per run (``{"type": "run"}``: executor,
  scheduler, worker count, each worker's name, units and versions, start and end).  Only the
  client writes it, holding a lock on it (:class:`~posreal.runtime.output_files.AppendLog`: a second
  run on the same file is refused in one line); a new file appears with its header (written
  atomically); an existing one is continued only with ``resume`` and replaced only with ``force``;
  a partial last line (a killed client) is dropped on resume.  Files of versions
  2 and 3 (records without α♯'s kinds of evidence, flow verdicts of version 2 spelled wins / loses) are
  summarized but not resumed: their records would mix two kinds of evidence.
* :func:`search` — the seeded sampled search over indices 0, 1, 2, …: units are chunks of
  indices not yet in the file, evaluated by :func:`evaluate_indices` on the executor; a record is a
  function of (seed, index, families, τ_max) only, so any executor gives the same record set.
* :func:`exhaustive` — every instance of a :class:`~posreal.counterexamples.families.TableFamily`
  in index order, in chunks (:func:`evaluate_range`), resumable; the run says whether every
  instance of the family has been evaluated, with counts (:func:`add_summaries` adds the chunk
  summaries' counts and computes their shares again; the result equals
  :func:`~posreal.counterexamples.conjecture.summarize` over all records).
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from posreal.counterexamples.conjecture import SHARES, RecordStatus, evaluate, summarize, with_shares
from posreal.theory.trajectory import DESCENT_STEPS
from posreal.counterexamples.families import TableFamily, parse_family
from posreal.counterexamples.verifier.errors import CertificateError
from posreal.runtime import output_files, resources
from posreal.runtime.output_files import AppendLog
from posreal.theory.errors import SpecError, quote
from posreal.runtime.executors import ExecutorReport, ExecutorSpec, local, open_pool
from posreal.theory.flow import TAU_MAX
from posreal.runtime.provenance import timestamp, versions
from posreal.theory.random_instances import FAMILIES, instance

FILE_FORMAT = "posreal-conjecture-search"
EVIDENCE = ("gradient flow from 0 in h = θ - θ* τ and σ = log τ up to τ = tau_max; gradient descent at η = 1/β for "
            "descent_steps steps, then the flow, on the rivals the closed forms leave open")
FILE_VERSION = 4
READABLE_VERSIONS = (4,)   # resumed; versions 2 and 3 are read by summarize only
SAMPLED, EXHAUSTIVE = "sampled", "exhaustive"
DEFAULT_CHUNK = {SAMPLED: 8, EXHAUSTIVE: 1000}     # instances per unit (one instance per unit in process)


class ProgressBar(Protocol):
    """A progress bar the search advances (tqdm's interface)."""

    def update(self, n: int) -> Any:
        """Advance by ``n``."""

    def close(self) -> Any:
        """Close the bar."""


ProgressFactory = Callable[[int | None, int], ProgressBar]    # (total, already done) -> a bar


# --------------------------------------------------------------------------- units of work
@dataclass(frozen=True)
class SampledUnit:
    """A unit of work of the sampled stream: indices of one seeded stream."""

    seed: int
    families: tuple[str, ...]
    tau_max: float
    indices: tuple[int, ...]


@dataclass(frozen=True)
class RangeUnit:
    """A unit of work of the exhaustive pass: a range of a family's instances."""

    family: str                    # the family spec
    start: int
    stop: int
    tau_max: float


def evaluate_indices(unit: SampledUnit) -> list[dict]:
    """The records of the unit's indices of the sampled stream (in index order)."""
    return [evaluate(instance(unit.seed, k, unit.families), unit.tau_max).to_json() for k in unit.indices]


def is_hit(record: dict) -> bool:
    """A record kept in full by the exhaustive file: a candidate, a float candidate, or a counterexample."""
    return bool(record.get("candidate") or record.get("float_candidate") or record.get("limit_counterexample"))


def evaluate_range(unit: RangeUnit) -> dict:
    """The chunk line of instances ``start..stop-1`` of the family: their summary and their hits."""
    family = parse_family(unit.family)
    records = {k: evaluate(family.instance(k), unit.tau_max).to_json() for k in range(unit.start, unit.stop)}
    return {"type": "chunk", "start": unit.start, "stop": unit.stop, "summary": summarize(records),
            "hits": [records[k] for k in sorted(records) if is_hit(records[k])]}


def merge_summaries(a: Any, b: Any, derived: tuple[str, ...] = ()) -> Any:
    """Add two summaries.

    Numbers add, objects merge key by key, lists concatenate (a's first); the keys named in ``derived`` are not
    added but set to None (the caller computes them on the sum)."""
    if isinstance(a, dict) and isinstance(b, dict):
        return {k: None if k in derived else
                merge_summaries(a[k], b[k], derived) if k in a and k in b else (a[k] if k in a else b[k])
                for k in {**a, **b}}
    if isinstance(a, list) and isinstance(b, list):
        return a + b
    if isinstance(a, int) and isinstance(b, int) and not isinstance(a, bool) and not isinstance(b, bool):
        return a + b
    raise SpecError(f"cannot add summary values {quote(a)} and {quote(b)}; accepted: chunk summaries of one search")


def add_summaries(a: dict, b: dict) -> dict:
    """The summary of two chunks' instances together: counts added, shares computed again on the sum."""
    return with_shares(merge_summaries(a, b, derived=SHARES))


# --------------------------------------------------------------------------- the file
@dataclass
class ResultFile:
    """What :func:`read_results` found in a file."""

    head: dict | None = None
    records: dict[int, dict] = field(default_factory=dict)    # sampled: record by index
    chunks: list[dict] = field(default_factory=list)          # exhaustive: chunk lines, as written
    runs: list[dict] = field(default_factory=list)
    good: int = 0                                              # bytes of complete lines


def header_sampled(seed: int, families: tuple[str, ...], tau_max: float) -> dict:
    """The header line of a sampled search's results file."""
    return {"type": "header", "format": FILE_FORMAT, "version": FILE_VERSION, "mode": SAMPLED, "seed": seed,
            "families": list(families), "evidence": EVIDENCE, "tau_max": tau_max,
            "descent_steps": DESCENT_STEPS, "versions": versions()}


def header_exhaustive(family: TableFamily, tau_max: float) -> dict:
    """The header line of an exhaustive pass's results file."""
    return {"type": "header", "format": FILE_FORMAT, "version": FILE_VERSION, "mode": EXHAUSTIVE,
            "family": str(family), "size": family.size, "evidence": EVIDENCE, "tau_max": tau_max,
            "descent_steps": DESCENT_STEPS, "versions": versions()}


def read_results(path: Path) -> ResultFile:
    """The file's lines by kind.

    A partial last line (an interrupted write) is ignored; any other malformed line is a one-line error.
    """
    found = ResultFile()
    if not path.exists():
        return found
    try:
        resources.regular_file(str(path), "result file", resources.MAX_RECORDS_BYTES)   # never a device or FIFO
        data = path.read_bytes()
    except OSError as exc:
        raise CertificateError(f"cannot read result file {str(path)!r}: {exc.strerror or exc}; "
                               f"accepted: a {FILE_FORMAT} JSONL file") from None
    lines = data.split(b"\n")
    for n, raw in enumerate(lines):
        if not raw.strip():
            found.good += len(raw) + (1 if n < len(lines) - 1 else 0)
            continue
        try:
            doc = resources.load_json(raw.decode("utf-8"), "result line")   # bounded depth and integers
        except (UnicodeDecodeError, SpecError):
            if n == len(lines) - 1:
                break  # partial last line
            raise CertificateError(f"malformed result file {quote(str(path))}: line {n + 1} is not UTF-8 JSON; "
                                   f"accepted: a {FILE_FORMAT} JSONL file") from None
        if n == len(lines) - 1:
            break  # no trailing newline: treat as partial
        found.good += len(raw) + 1
        kind = doc.get("type") if isinstance(doc, dict) else None
        if n == 0:
            if kind != "header" or doc.get("format") != FILE_FORMAT:
                raise CertificateError(f"malformed result file {str(path)!r}: first line is not a "
                                       f"{FILE_FORMAT} header")
            found.head = doc
        elif kind == "run":
            found.runs.append(doc)
        elif kind == "chunk" and _chunk_ok(doc):
            found.chunks.append(doc)
        elif kind is None and isinstance(doc, dict) and "index" in doc:
            problem = record_problem(doc)
            if problem is not None:
                raise CertificateError(f"malformed result file {str(path)!r}: line {n + 1}: {problem}; accepted: "
                                       f"records written by 'posreal search conjecture'")
            found.records[doc["index"]] = doc
        else:
            raise CertificateError(f"malformed result file {str(path)!r}: line {n + 1} has no instance index "
                                   "and is not a chunk or run line")
    return found


MAX_INDEX = 2 ** 63 - 1   # instance indices of a results file
_STATUSES = tuple(s.value for s in RecordStatus)


def record_problem(doc: dict) -> str | None:
    """Why a record line read back from a results file cannot be one this search wrote, or None.

    A record this search wrote has an integer index in [0, MAX_INDEX], a status among :class:`RecordStatus`, and
    the summary of the record alone (everything a resumed run reads of it) can be computed."""
    index, status = doc.get("index"), doc.get("status")
    if type(index) is not int or not 0 <= index <= MAX_INDEX:
        return f"index {quote(index)} is not an integer from 0 to 2^63 - 1"
    if status not in _STATUSES:
        return f"status {quote(status)} is not one of {', '.join(map(repr, _STATUSES))}"
    try:
        summarize({index: doc})
    except (KeyError, TypeError, ValueError, AttributeError, IndexError) as err:
        return f"record {index} cannot be summarized ({type(err).__name__}: {quote(str(err))})"
    return None


def _chunk_ok(doc: dict) -> bool:
    start, stop, hits = doc.get("start"), doc.get("stop"), doc.get("hits")
    if not (type(start) is int and type(stop) is int and 0 <= start < stop <= MAX_INDEX + 1
            and isinstance(doc.get("summary"), dict) and isinstance(hits, list)):
        return False
    if any(not isinstance(h, dict) or record_problem(h) is not None for h in hits):
        return False
    try:
        add_summaries(doc["summary"], doc["summary"])   # what a resumed pass does with it
    except (KeyError, TypeError, ValueError, AttributeError, IndexError):
        return False
    return True


def _open(path: Path | None, head: dict, resume: bool, compare: tuple[str, ...],
          force: bool = False) -> tuple[ResultFile, AppendLog | None]:
    """Check ``path`` against ``head`` (a new file, ``resume`` of one with the same ``compare`` keys,
    or with ``force`` a file started over), lock it for this run (:class:`AppendLog`: a second run on
    it is refused), drop a partial last line, and return it open for appending (header written if new,
    atomically: a new file is never seen without its header)."""
    if path is None:
        return ResultFile(), None
    output_files.check_target(path, "result file", force=True)          # never through a symlink
    header = json.dumps(head, sort_keys=True) + "\n"
    if not path.exists() or (force and not resume):
        if path.exists() and path.is_dir():
            raise CertificateError(f"invalid result file {str(path)!r}: it is a directory; accepted: a file path")
        if path.exists():   # started over: never under a run that is still writing it
            AppendLog(path, "result file").close()
        output_files.write_atomic(path, header, "result file", force)
        return ResultFile(), AppendLog(path, "result file")
    if not resume:
        raise CertificateError(f"result file {str(path)!r} exists; accepted: --resume to continue it, "
                               "--force to start it over, or a new --out file")
    log = AppendLog(path, "result file")       # locked before it is read: a second resume is refused here
    try:
        found = _resumable(path, head, compare)
        log.truncate(found.good)               # drop a partial last line
    except BaseException:
        log.close()
        raise
    return found, log


def _resumable(path: Path, head: dict, compare: tuple[str, ...]) -> ResultFile:
    """The results of an existing file that this run may continue, else a one-line error."""
    found = read_results(path)
    old = found.head
    if old is None:
        blank = not path.read_bytes().strip()
        raise CertificateError(f"cannot resume {str(path)!r}: it is " + ("empty or blank" if blank else
                               f"not a {FILE_FORMAT} file") + "; accepted: a file written by this search, or "
                               "--force without --resume to start it over")
    if old.get("version") not in READABLE_VERSIONS:
        raise CertificateError(f"cannot resume {str(path)!r}: it is of version {quote(old.get('version'))}; "
                               f"accepted: {FILE_FORMAT} files of version "
                               f"{' or '.join(map(str, READABLE_VERSIONS))}")
    for key in compare:
        theirs = old.get(key, SAMPLED if key == "mode" else None)    # version 2 files are sampled
        if theirs != head[key]:
            raise CertificateError(f"cannot resume {str(path)!r}: it was written with {key} = "
                                   f"{theirs!r}, this run has {head[key]!r}")
    return found


def _close(handle: AppendLog | None, last: dict) -> None:
    """Write the run line and close (unlock) the file, even when the write fails."""
    if handle is not None:
        try:
            _write(handle, last)
        finally:
            handle.close()


def _write(handle: AppendLog | None, doc: dict) -> None:
    if handle is not None:
        handle.write(json.dumps(doc, sort_keys=True) + "\n")
        handle.flush()


def _run_line(started: str, evaluated: int, report: ExecutorReport) -> dict:
    return {"type": "run", "started": started, "finished": timestamp(), "evaluated": evaluated,
            "executor": report.to_json(), "versions": versions()}


def _check_tau(tau_max: float) -> None:
    if isinstance(tau_max, bool) or not isinstance(tau_max, (int, float)) or not 0 < tau_max <= TAU_MAX:
        raise CertificateError(f"invalid log-time {tau_max!r}; accepted: a number in (0, {TAU_MAX:g}]")


def _check_chunk(chunk: int | None) -> None:
    if chunk is not None and (isinstance(chunk, bool) or not isinstance(chunk, int) or not 1 <= chunk <= 10 ** 6):
        raise CertificateError(f"invalid chunk {quote(chunk)}; accepted: an integer from 1 to 1000000")


class _NoBar:
    def update(self, n: int) -> None:
        pass

    def close(self) -> None:
        pass


# --------------------------------------------------------------------------- the sampled search
@dataclass
class SearchRun:
    """What one call of :func:`search` did (timings are here, never in the records)."""

    path: Path | None
    records: dict[int, dict] = field(default_factory=dict)
    evaluated: int = 0
    skipped_done: int = 0
    elapsed: float = 0.0
    evaluated_time: float = 0.0
    seed: int = 0
    executor: dict = field(default_factory=dict)     # ExecutorReport.to_json() of this run

    @property
    def throughput(self) -> float:
        """Instances evaluated per second of evaluation (NaN before any)."""
        return self.evaluated / self.evaluated_time if self.evaluated_time > 0 else float("nan")


def search(seed: int = 0, budget: int | None = None, seconds: float | None = None, out: str | Path | None = None,
           resume: bool = False, families: tuple[str, ...] = FAMILIES, tau_max: float = TAU_MAX,
           progress: ProgressFactory | None = None, executor: ExecutorSpec | None = None,
           chunk: int | None = None, force: bool = False) -> SearchRun:
    """Run the seeded search over indices 0, 1, 2, ... until ``budget`` indices are done or ``seconds`` have passed.

    The units in flight then still finish.  Records are appended to ``out`` (JSONL) as units finish.
    ``executor`` (default: in this process) computes units of ``chunk`` indices (default: one in process,
    :data:`DEFAULT_CHUNK` on workers).
    """
    if budget is None and seconds is None:
        raise CertificateError("invalid search limits: give a budget (instances) or a time (seconds)")
    for f in families:
        if f not in FAMILIES:
            raise CertificateError(f"invalid family {f!r}; accepted: {', '.join(FAMILIES)}")
    _check_tau(tau_max)
    _check_chunk(chunk)
    spec = executor or local(1)
    path = Path(out) if out is not None else None
    head = header_sampled(seed, tuple(families), float(tau_max))
    run = SearchRun(path, seed=seed)
    with open_pool(spec) as pool:      # workers are checked before anything is written
        found, handle = _open(path, head, resume, ("mode", "seed", "families", "tau_max"), force)
        run.records = dict(found.records)
        size = chunk or (1 if pool.slots == 1 else DEFAULT_CHUNK[SAMPLED])
        start, started = time.perf_counter(), timestamp()

        def units() -> Iterator[SampledUnit]:
            k, batch = 0, []
            while budget is None or k < budget:
                if seconds is not None and time.perf_counter() - start >= seconds:
                    break
                if k in run.records:
                    run.skipped_done += 1
                else:
                    batch.append(k)
                    if len(batch) == size:
                        yield SampledUnit(seed, tuple(families), float(tau_max), tuple(batch))
                        batch = []
                k += 1
            if batch:
                yield SampledUnit(seed, tuple(families), float(tau_max), tuple(batch))

        done = sum(1 for k in run.records if budget is None or k < budget)
        bar = progress(budget, done) if progress is not None else _NoBar()
        try:
            for _, records in pool.run(evaluate_indices, units()):
                for record in records:
                    if record["index"] not in run.records:     # a unit computed twice is recorded once
                        run.records[record["index"]] = record
                        run.evaluated += 1
                        _write(handle, record)
                bar.update(len(records))
        finally:
            bar.close()
            run.elapsed = run.evaluated_time = time.perf_counter() - start
            run.executor = pool.report.to_json()
            _close(handle, _run_line(started, run.evaluated, pool.report))
    return run


# --------------------------------------------------------------------------- the exhaustive pass
@dataclass
class ExhaustiveRun:
    """What one call of :func:`exhaustive` did, and the state of the whole family after it."""

    family: TableFamily
    path: Path | None
    summary: dict | None = None            # merged over every chunk in the file (None: nothing done)
    hits: list[dict] = field(default_factory=list)
    done: int = 0                          # instances of the family evaluated (this run and earlier)
    evaluated: int = 0                     # this run
    elapsed: float = 0.0
    runs: list[dict] = field(default_factory=list)   # the file's run lines, this run's last
    executor: dict = field(default_factory=dict)

    @property
    def complete(self) -> bool:
        """Whether every instance of the family is done."""
        return self.done == self.family.size

    @property
    def throughput(self) -> float:
        """Instances evaluated per second elapsed (NaN before any)."""
        return self.evaluated / self.elapsed if self.elapsed > 0 else float("nan")


def _gaps(chunks: list[dict], size: int, path: Path | None) -> list[tuple[int, int]]:
    """The index ranges of [0, size) that no chunk covers; overlapping or outside chunks are an error."""
    gaps, at = [], 0
    for c in sorted(chunks, key=lambda c: c["start"]):
        if c["start"] < at or c["stop"] > size:
            raise CertificateError(f"malformed result file {str(path)!r}: chunk {c['start']}..{c['stop']} overlaps "
                                   f"another or lies outside the family's {size} instances")
        if c["start"] > at:
            gaps.append((at, c["start"]))
        at = c["stop"]
    if at < size:
        gaps.append((at, size))
    return gaps


def exhaustive(family: TableFamily, out: str | Path | None = None, resume: bool = False,
               tau_max: float = TAU_MAX, seconds: float | None = None, progress: ProgressFactory | None = None,
               executor: ExecutorSpec | None = None, chunk: int | None = None, force: bool = False) -> ExhaustiveRun:
    """Evaluate every instance of ``family`` not yet in ``out``, in index order.

    Instances are evaluated in chunks of ``chunk`` (default :data:`DEFAULT_CHUNK`), until done or ``seconds`` have
    passed."""
    _check_tau(tau_max)
    _check_chunk(chunk)
    spec = executor or local(1)
    path = Path(out) if out is not None else None
    head = header_exhaustive(family, float(tau_max))
    run = ExhaustiveRun(family, path)
    size = chunk or DEFAULT_CHUNK[EXHAUSTIVE]
    with open_pool(spec) as pool:
        found, handle = _open(path, head, resume, ("mode", "family", "size", "tau_max"), force)
        gaps = _gaps(found.chunks, family.size, path)
        lines = {c["start"]: c for c in found.chunks}
        run.done = sum(c["stop"] - c["start"] for c in found.chunks)
        start, started = time.perf_counter(), timestamp()

        def units() -> Iterator[RangeUnit]:
            for a, b in gaps:
                for s in range(a, b, size):
                    if seconds is not None and time.perf_counter() - start >= seconds:
                        return
                    yield RangeUnit(str(family), s, min(s + size, b), float(tau_max))

        bar = progress(family.size, run.done) if progress is not None else _NoBar()
        try:
            for unit, line in pool.run(evaluate_range, units()):
                if unit.start in lines:     # computed twice: recorded once
                    continue
                lines[unit.start] = line
                _write(handle, line)
                run.done += unit.stop - unit.start
                run.evaluated += unit.stop - unit.start
                bar.update(unit.stop - unit.start)
        finally:
            bar.close()
            run.elapsed = time.perf_counter() - start
            run.executor = pool.report.to_json()
            this = _run_line(started, run.evaluated, pool.report)
            run.runs = [*found.runs, this]
            _close(handle, this)
    for s in sorted(lines):
        run.summary = lines[s]["summary"] if run.summary is None else add_summaries(run.summary, lines[s]["summary"])
        run.hits += lines[s]["hits"]
    return run
