"""Where the units of the long workloads run: one :class:`concurrent.futures.Executor` interface
for conjecture-search chunks and experiment batches, on this machine or on a Dask cluster.

Main definitions:

* :class:`ExecutorSpec` — which executor: ``in-process`` (one job: the client computes each unit
  itself, today's single process), ``processes`` (``--jobs N``: a spawned
  :class:`~concurrent.futures.ProcessPoolExecutor`, one BLAS thread per worker) or ``dask``
  (``--scheduler tcp://HOST:PORT`` or ``--scheduler local:N``: Dask's ``ClientExecutor`` on a
  running scheduler, or on a ``LocalCluster`` of N single-threaded processes).
  :func:`parse_scheduler` is the only parser of the ``--scheduler`` text; Dask (``distributed``)
  is an optional extra, and without it ``--scheduler`` is a one-line :class:`SpecError` naming
  what to install.
* :class:`WorkerPool` — the open executor (a context manager from :func:`open_pool`):
  :meth:`WorkerPool.run` submits units lazily (a bounded number in flight), yields
  ``(unit, result)`` as units finish, and resubmits the units of a lost worker (a process pool
  whose worker died is rebuilt; Dask reschedules a dead worker's tasks itself).  Only the caller —
  the client — writes results, so a unit computed twice is still recorded once.
* Worker versions: every unit runs behind a check that the worker's :func:`worker_versions`
  (the tool versions of :func:`posreal.runtime.provenance.versions` and a SHA-256 of the package's
  Python sources) equal the client's; a worker that differs raises :class:`WorkerRefused` before
  the unit computes.  On Dask every connected worker is also asked when the pool opens.
* :class:`ExecutorReport` — provenance: executor, scheduler, worker count, and for every worker
  that computed a unit its name, units and versions.
* Workers count against the memory budget (:func:`posreal.runtime.resources.require`): N processes on
  this machine need N × :data:`PROCESS_WORKER_BYTES` (a ``local:N`` cluster N ×
  :data:`DASK_WORKER_BYTES`, the nanny included); above the budget the pool is refused in one line
  before anything is spawned.  Workers of a remote scheduler are outside this machine's budget.

Imports only the standard library (``distributed`` when a Dask executor is opened); no numpy.
References: PEP 3148 (``concurrent.futures``); Dask's ``distributed`` documentation
(``Client.get_executor``, ``LocalCluster``, ``Client.run``; a dead worker's tasks are
rescheduled up to ``distributed.scheduler.allowed-failures`` times).
"""

from __future__ import annotations

import hashlib
import importlib.util
import logging
import os
import re
import socket
import sys
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import FIRST_COMPLETED, Executor, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from enum import StrEnum
from functools import lru_cache
from typing import Any, Generic, TypeVar

from posreal.runtime import resources
from posreal.theory.errors import PosrealError, SpecError, quote
from posreal.runtime.provenance import versions

U = TypeVar("U")
R = TypeVar("R")

INSTALL_HINT = "pip install -e '.[cluster]' (or pip install distributed)"
SOURCE_KEY = "posreal-source-sha256"
MAX_ATTEMPTS = 3                 # a unit whose worker was lost this many times stops the run
CONNECT_TIMEOUT = "20s"          # connecting to a --scheduler tcp://HOST:PORT
# Dask settings of the workers of a --scheduler local:N cluster (a tcp:// cluster keeps its own configuration)
LOCAL_WORKER_CONFIG = {"distributed.worker.profile.enabled": False}
BLAS_THREADS = ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS")
_ADDRESS = re.compile(r"(tcp|tls)://(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9._-]+):([0-9]{1,5})")
_ACCEPTED = "tcp://HOST:PORT (a running dask scheduler) or local:N (a LocalCluster of N processes)"


PROCESS_WORKER_BYTES = 160 * 2 ** 20   # a spawned worker: ~80 MiB after its imports, ~120 MiB after search units
DASK_WORKER_BYTES = 256 * 2 ** 20      # a LocalCluster worker and its nanny process


def worker_estimate(spec: ExecutorSpec) -> resources.Estimate | None:
    """The memory of the worker processes ``spec`` starts on this machine (None: none are started)."""
    if spec.kind is ExecutorKind.PROCESSES:
        each = PROCESS_WORKER_BYTES
    elif spec.kind is ExecutorKind.DASK and str(spec.scheduler).startswith("local:"):
        each = DASK_WORKER_BYTES
    else:
        return None
    return resources.Estimate(spec.jobs * each, f"{spec.jobs} worker processes (about {resources.human(each)} "
                                                f"each, as measured)")


class ExecutorKind(StrEnum):
    IN_PROCESS = "in-process"    # the client computes every unit (one job)
    PROCESSES = "processes"      # --jobs N: a spawned ProcessPoolExecutor on this machine
    DASK = "dask"                # --scheduler: Dask's ClientExecutor


class WorkerRefused(PosrealError):
    """A worker whose package versions differ from the client's (raised on the worker, before it computes)."""


class WorkerLost(PosrealError):
    """A unit whose worker was lost too often (a unit that kills its worker), or a cluster that went away."""


@dataclass(frozen=True)
class ExecutorSpec:
    kind: ExecutorKind
    jobs: int = 1                      # processes of the pool, or of the LocalCluster
    scheduler: str | None = None       # "tcp://HOST:PORT" or "local:N", as given

    def __str__(self) -> str:
        if self.kind is ExecutorKind.DASK:
            return str(self.scheduler)
        return f"{self.kind.value}:{self.jobs}"


def local(jobs: int = 1) -> ExecutorSpec:
    """``--jobs N``: in-process for one job, a process pool of N workers otherwise."""
    if isinstance(jobs, bool) or not isinstance(jobs, int) or not 1 <= jobs <= resources.MAX_JOBS:
        raise SpecError(f"invalid jobs {quote(jobs)}; accepted: an integer from 1 to {resources.MAX_JOBS}")
    return ExecutorSpec(ExecutorKind.IN_PROCESS if jobs == 1 else ExecutorKind.PROCESSES, jobs)


def distributed_installed() -> bool:
    try:
        return importlib.util.find_spec("distributed") is not None
    except (ImportError, ValueError):
        return False


def _missing(text: str) -> SpecError:
    return SpecError(f"invalid --scheduler {quote(text)}: Dask is not installed; accepted: {INSTALL_HINT}, "
                     "or --jobs N for processes on this machine")


def parse_scheduler(text: str, check_installed: bool = True) -> ExecutorSpec:
    """``tcp://HOST:PORT`` (also ``tls://``) or ``local:N`` -> a Dask :class:`ExecutorSpec`."""
    if not isinstance(text, str) or len(text) > 300:
        raise SpecError(f"invalid --scheduler {quote(text)}; accepted: {_ACCEPTED}")
    value = text.strip()
    if value.startswith("local:"):
        n = resources.parse_int(value[6:], "--scheduler local:N worker count", 1, resources.MAX_JOBS)
        spec = ExecutorSpec(ExecutorKind.DASK, n, f"local:{n}")
    else:
        match = _ADDRESS.fullmatch(value)
        if match is None or not 1 <= int(match.group(3)) <= 65535:
            raise SpecError(f"invalid --scheduler {quote(text)}; accepted: {_ACCEPTED}")
        spec = ExecutorSpec(ExecutorKind.DASK, 0, value)
    if check_installed and not distributed_installed():
        raise _missing(text)
    return spec


# ----------------------------------------------------------------------------- worker versions
@lru_cache(maxsize=1)
def source_fingerprint() -> str:
    """SHA-256 over the package's Python sources (relative path and bytes of each ``.py`` file,
    in sorted order; the subpackage symlinks are followed), so a worker with another checkout of
    the same version number is told apart."""
    package = sys.modules[__name__.rsplit(".", 2)[0]]
    root = os.path.dirname(os.path.abspath(package.__file__ or ""))
    files = []
    for folder, dirs, names in os.walk(root, followlinks=True):
        dirs[:] = sorted(d for d in dirs if d != "__pycache__" and not d.startswith("."))
        files += [os.path.join(folder, n) for n in names if n.endswith(".py")]
    digest = hashlib.sha256()
    for path in sorted(files, key=lambda p: os.path.relpath(p, root)):
        digest.update(os.path.relpath(path, root).encode() + b"\0")
        with open(path, "rb") as fh:
            digest.update(fh.read() + b"\0")
    return digest.hexdigest()


@lru_cache(maxsize=1)
def worker_versions() -> dict[str, str]:
    """The tool versions a worker must share with the client, and the package's source hash."""
    return {**versions(), SOURCE_KEY: source_fingerprint()}


def worker_name() -> str:
    """``tcp://...`` on a Dask worker, ``HOST:PID`` in a pool process."""
    if "distributed" in sys.modules:
        try:
            return str(sys.modules["distributed"].get_worker().address)
        except ValueError:         # not inside a Dask worker
            pass
    return f"{socket.gethostname()}:{os.getpid()}"


def refusal(name: str, mine: dict[str, str], expected: dict[str, str]) -> str | None:
    """Why a worker with versions ``mine`` is refused by a client with ``expected`` (None: accepted)."""
    for key in sorted(set(mine) | set(expected)):
        if mine.get(key) != expected.get(key):
            return (f"worker {name} refused: it has {key} {mine.get(key, 'not installed')!r}, the client has "
                    f"{expected.get(key, 'not installed')!r}; accepted: workers with the client's package versions "
                    "and sources (install the same environment on every worker)")
    return None


def checked_call(expected: dict[str, str], fn: Callable[[Any], Any], unit: Any) -> tuple[str, Any]:
    """Run on a worker: refuse (before computing) unless its versions are the client's, then
    return (worker name, fn(unit))."""
    name = worker_name()
    why = refusal(name, worker_versions(), expected)
    if why is not None:
        raise WorkerRefused(why)
    return name, fn(unit)


def _report_versions() -> dict[str, str]:
    return worker_versions()


# ----------------------------------------------------------------------------- executors
class InProcessExecutor(Executor):
    """An executor that computes each unit in the calling process when it is submitted."""

    def submit(self, fn, /, *args, **kwargs):
        future: Future = Future()
        try:
            future.set_result(fn(*args, **kwargs))
        except Exception as exc:      # the unit's error is the future's, as in a pool
            future.set_exception(exc)
        return future


@dataclass
class WorkerRecord:
    name: str
    versions: dict[str, str]
    units: int = 0

    def to_json(self) -> dict:
        return {"name": self.name, "units": self.units, "versions": self.versions}


@dataclass
class ExecutorReport:
    """Provenance of the executor a run used (``to_json()`` goes into the result files)."""

    kind: ExecutorKind
    scheduler: str | None
    workers: int                                   # units that run at once (processes, Dask threads)
    per_worker: dict[str, WorkerRecord] = field(default_factory=dict)
    resubmitted: int = 0                           # units resubmitted by the client after a lost pool worker

    def to_json(self) -> dict:
        return {"executor": self.kind.value, "scheduler": self.scheduler, "workers": self.workers,
                "units": sum(w.units for w in self.per_worker.values()), "resubmitted": self.resubmitted,
                "per_worker": [self.per_worker[k].to_json() for k in sorted(self.per_worker)]}


class _BlasOneThread:
    """While open, children started by this process read one BLAS thread from the environment
    (each pool worker's numpy reads it at import); the parent keeps its own setting."""

    def __enter__(self) -> _BlasOneThread:
        self.saved = {k: os.environ.get(k) for k in BLAS_THREADS}
        os.environ.update({k: "1" for k in BLAS_THREADS})
        return self

    def __exit__(self, *exc: object) -> None:
        for k, v in self.saved.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v


class WorkerPool(Generic[U, R]):
    """An open executor; use :func:`open_pool`."""

    def __init__(self, spec: ExecutorSpec, expected: dict[str, str] | None = None) -> None:
        self.spec = spec
        self.expected = dict(worker_versions() if expected is None else expected)
        self.executor: Executor = InProcessExecutor()
        self.report = ExecutorReport(spec.kind, spec.scheduler, max(spec.jobs, 1))
        self._blas: _BlasOneThread | None = None
        self._client: Any = None
        self._cluster: Any = None

    # -- opening and closing
    def __enter__(self) -> WorkerPool[U, R]:
        workers = worker_estimate(self.spec)
        if workers is not None:   # before anything is spawned
            resources.require(workers)
        if self.spec.kind is ExecutorKind.PROCESSES:
            self._blas = _BlasOneThread().__enter__()
            self.executor = self._process_pool()
        elif self.spec.kind is ExecutorKind.DASK:
            try:
                self._open_dask()
            except BaseException:
                self.__exit__(None, None, None)
                raise
        return self

    def __exit__(self, *exc: object) -> None:
        try:
            if self.spec.kind is ExecutorKind.PROCESSES:
                self.executor.shutdown(wait=True, cancel_futures=True)
            if self._client is not None:
                self._client.close()
            if self._cluster is not None:
                self._cluster.close()
        finally:
            if self._blas is not None:
                self._blas.__exit__()
                self._blas = None

    def _process_pool(self) -> ProcessPoolExecutor:
        import multiprocessing
        return ProcessPoolExecutor(self.spec.jobs, mp_context=multiprocessing.get_context("spawn"))

    def _open_dask(self) -> None:
        text = str(self.spec.scheduler)
        try:
            import dask
            import distributed
        except ImportError:
            raise _missing(text) from None
        if text.startswith("local:"):
            # one thread per worker process (the units hold the GIL); Dask's nanny starts each with
            # OMP/MKL/OPENBLAS_NUM_THREADS=1 (distributed.nanny.pre-spawn-environ)
            # the workers' statistical profiler is off: every 10 ms it takes the GIL from the unit to sample its
            # stack (on the search benchmark its cost did not stand out of the machine's drift: docs/cluster.md)
            with dask.config.set(LOCAL_WORKER_CONFIG):
                self._cluster = distributed.LocalCluster(n_workers=self.spec.jobs, threads_per_worker=1,
                                                         processes=True, dashboard_address=":0",
                                                         silence_logs=logging.CRITICAL)
            self._client = distributed.Client(self._cluster)
        else:
            try:
                self._client = distributed.Client(text, timeout=CONNECT_TIMEOUT)
            except (OSError, TimeoutError) as exc:
                raise SpecError(f"invalid --scheduler {quote(text)}: cannot connect ({str(exc).splitlines()[0]}); "
                                f"accepted: {_ACCEPTED}") from None
            except (TypeError, ValueError) as exc:   # tls:// without Dask's TLS settings: no SSL context
                first = (str(exc).splitlines() or [type(exc).__name__])[0]
                raise SpecError(f"invalid --scheduler {quote(text)}: cannot connect ({quote(first)}); accepted: "
                                f"{_ACCEPTED}; a tls:// scheduler needs Dask's TLS settings (distributed.comm.tls: "
                                "ca-file, client.cert, client.key)") from None
        threads = self._client.nthreads()            # {worker address: threads}
        if not threads:
            raise SpecError(f"invalid --scheduler {quote(text)}: the scheduler has no workers; accepted: a "
                            "scheduler with at least one worker connected")
        self.report.workers = sum(threads.values())
        for name, found in sorted(self._client.run(_report_versions).items()):
            why = refusal(name, found, self.expected)
            if why is not None:
                raise WorkerRefused(why)
            self.report.per_worker[name] = WorkerRecord(name, found)
        self.executor = self._client.get_executor(pure=False)

    @property
    def slots(self) -> int:
        """How many units run at once."""
        return self.report.workers if self.spec.kind is not ExecutorKind.IN_PROCESS else 1

    # -- running units
    def _restart(self) -> None:
        """A pool worker died (the pool is broken): a new pool for the units still to do."""
        self.executor.shutdown(wait=False, cancel_futures=True)
        self.executor = self._process_pool()

    def run(self, fn: Callable[[U], R], units: Iterable[U], in_flight: int | None = None) -> Iterator[tuple[U, R]]:
        """Yield ``(unit, fn(unit))`` for every unit, as units finish (any order).

        ``units`` is read lazily, at most ``in_flight`` (default: twice the slots; one in process)
        submitted at a time, so a generator of units that stops (a time budget) stops the run after
        the units in flight.  A unit whose pool worker was lost is resubmitted (at most
        :data:`MAX_ATTEMPTS` times); each unit's result is yielded once."""
        max_pending = in_flight or (1 if self.spec.kind is ExecutorKind.IN_PROCESS else 2 * self.slots)
        source = iter(units)
        retry: deque[tuple[U, int]] = deque()
        pending: dict[Future, tuple[U, int]] = {}
        exhausted = False
        try:
            while True:
                while len(pending) < max_pending and (retry or not exhausted):
                    if retry:
                        unit, attempts = retry.popleft()
                    else:
                        try:
                            unit, attempts = next(source), 0
                        except StopIteration:
                            exhausted = True
                            break
                    pending[self.executor.submit(checked_call, self.expected, fn, unit)] = (unit, attempts)
                if not pending:
                    return
                done, _ = wait(list(pending), return_when=FIRST_COMPLETED)
                broken = False
                for future in done:
                    unit, attempts = pending.pop(future)
                    try:
                        name, value = future.result()
                    except BrokenProcessPool:
                        broken = True
                        retry.append((unit, attempts + 1))
                        continue
                    except Exception as exc:
                        if lost_in_transit(exc) and attempts + 1 < MAX_ATTEMPTS:
                            retry.append((unit, attempts + 1))      # its worker died: the unit never finished
                            self.report.resubmitted += 1
                            continue
                        self._dask_loss(exc, unit)
                        raise
                    if self.spec.kind is ExecutorKind.IN_PROCESS:
                        name = "client"
                    worker = self.report.per_worker.setdefault(name, WorkerRecord(name, dict(self.expected)))
                    worker.units += 1
                    yield unit, value
                if broken:   # every unit still in flight went down with the pool: resubmit them all
                    retry.extend((u, a + 1) for u, a in pending.values())
                    pending.clear()
                    for unit, attempts in retry:
                        if attempts >= MAX_ATTEMPTS:
                            raise WorkerLost(f"unit {quote(unit)} was in flight when a worker died {attempts} "
                                             "times; accepted: units that do not kill their worker")
                    self.report.resubmitted += len(retry)
                    self._restart()
        finally:
            for future in pending:
                future.cancel()

    @staticmethod
    def _dask_loss(exc: Exception, unit: object) -> None:
        """Dask's own retries were used up (KilledWorker) or the cluster went away: a one-line error."""
        kind = type(exc).__name__
        if kind == "KilledWorker":
            raise WorkerLost(f"unit {quote(unit)} was in flight on every worker that died "
                             "(distributed.scheduler.allowed-failures reached); accepted: units that do not kill "
                             "their worker") from None
        if kind in ("CancelledError", "FutureCancelledError", "CommClosedError"):
            raise WorkerLost(f"the Dask cluster went away while unit {quote(unit)} ran ({kind}); resume the run "
                             "with --resume") from None


def lost_in_transit(exc: BaseException) -> bool:
    """Whether ``exc`` is distributed's ClientExecutor failing to pass on a future whose worker died: its
    ``_cascade_future`` unpacks a result that is not (type, exception, traceback) and raises a ValueError there.
    The unit never finished, so it is resubmitted like a unit of a broken process pool; a ValueError raised
    anywhere else (the unit's own) is not this."""
    tb = exc.__traceback__
    while tb is not None and tb.tb_next is not None:
        tb = tb.tb_next
    return (isinstance(exc, ValueError) and tb is not None
            and tb.tb_frame.f_globals.get("__name__") == "distributed.cfexecutor")


def open_pool(spec: ExecutorSpec, expected: dict[str, str] | None = None) -> WorkerPool:
    """The executor of ``spec``, opened (``with open_pool(spec) as pool: pool.run(fn, units)``).

    ``expected`` is the versions a worker must have (default: this process's)."""
    return WorkerPool(spec, expected)
