"""posreal.runtime.executors, the whole module's contract, in this process only: every refusal's exact line,
the spec text, worker versions and names, the report, the BLAS guard, and every branch of ``WorkerPool``
(in-process, a process pool and a Dask client) driven through injected fake executors and a fake
``distributed`` module, so no process or cluster is ever started."""

from __future__ import annotations

import hashlib
import logging
import os
import socket
import sys
import types
from collections.abc import Iterator
from concurrent.futures import Future
from concurrent.futures.process import BrokenProcessPool
from pathlib import Path
from typing import Any

import pytest

import posreal
from posreal.runtime import executors, resources
from posreal.theory.errors import SpecError
from posreal.runtime.executors import (ExecutorKind, ExecutorReport, ExecutorSpec, InProcessExecutor, WorkerLost,
                                      WorkerPool, WorkerRecord, WorkerRefused, local, parse_scheduler)

ACCEPTED = "tcp://HOST:PORT (a running dask scheduler) or local:N (a LocalCluster of N processes)"
VERSIONS = {"numpy": "1.0", "posreal-source-sha256": "abc"}


def square(x: int) -> int:
    return x * x


# --------------------------------------------------------------------------- specs and their refusals
def test_spec_text_and_local_jobs() -> None:
    """str() is the scheduler for Dask, kind:jobs otherwise; local(N) keeps N and picks the kind."""
    assert ExecutorSpec(ExecutorKind.IN_PROCESS) == ExecutorSpec(ExecutorKind.IN_PROCESS, 1, None)
    assert str(local(1)) == "in-process:1" and str(local(3)) == "processes:3"
    assert local(resources.MAX_JOBS).jobs == resources.MAX_JOBS and local(2).scheduler is None
    assert str(ExecutorSpec(ExecutorKind.DASK, 0, "tcp://h:1")) == "tcp://h:1"


@pytest.mark.parametrize("jobs,shown", [(0, "0"), (resources.MAX_JOBS + 1, str(resources.MAX_JOBS + 1)),
                                        (True, "True"), ("2", "'2'")])
def test_local_refusal_is_exact(jobs: Any, shown: str) -> None:
    with pytest.raises(SpecError) as err:
        local(jobs)
    assert str(err.value) == f"invalid jobs {shown}; accepted: an integer from 1 to {resources.MAX_JOBS}"


@pytest.mark.parametrize("text", ["tcp://h:0", "tcp://h:65536", "udp://h:1", 5])
def test_scheduler_refusal_is_exact(text: Any) -> None:
    with pytest.raises(SpecError) as err:
        parse_scheduler(text, check_installed=False)
    assert str(err.value) == f"invalid --scheduler {text!r}; accepted: {ACCEPTED}"


def test_scheduler_bounds_and_whitespace() -> None:
    """Ports 1 and 65535 are accepted, surrounding blanks dropped, local:1 is one worker; texts of more than
    300 characters are refused before they are read."""
    assert parse_scheduler("tcp://h:1", False).scheduler == "tcp://h:1"
    assert parse_scheduler(" tcp://h:65535 ", False).scheduler == "tcp://h:65535"
    spec = parse_scheduler(" local:1\n", False)
    assert (spec.kind, spec.jobs, spec.scheduler) == (ExecutorKind.DASK, 1, "local:1")
    host = "h" * (300 - len("tcp://:1"))
    assert parse_scheduler(f"tcp://{host}:1", False).scheduler == f"tcp://{host}:1"      # 300 characters
    with pytest.raises(SpecError, match=r"; accepted: tcp://HOST:PORT"):
        parse_scheduler(f"tcp://{host}h:1", False)


# Exists because a mutant survived: the worker count of local:N was refused without its exact line.
def test_scheduler_worker_count_refusal_is_exact() -> None:
    with pytest.raises(SpecError) as err:
        parse_scheduler("local:0", check_installed=False)
    assert str(err.value) == (f"invalid --scheduler local:N worker count '0'; accepted: an integer from 1 to "
                              f"{resources.MAX_JOBS} (ASCII digits)")


# Exists because a mutant survived: the missing-extra line did not have to name the text given.
def test_missing_distributed_is_one_exact_line(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(executors, "distributed_installed", lambda: False)
    assert parse_scheduler("local:2", check_installed=False).jobs == 2        # control: not asked
    with pytest.raises(SpecError) as err:
        parse_scheduler("local:2")
    assert str(err.value) == ("invalid --scheduler 'local:2': Dask is not installed; accepted: pip install -e "
                              "'.[cluster]' (or pip install distributed), or --jobs N for processes on this machine")


def test_distributed_installed_reads_find_spec(monkeypatch: pytest.MonkeyPatch) -> None:
    """A module spec found: installed; none, or a lookup that raises ValueError / ImportError: not installed."""
    asked: list[str] = []

    def found(name: str) -> object:
        asked.append(name)
        return object()

    monkeypatch.setattr(executors.importlib.util, "find_spec", found)
    assert executors.distributed_installed() is True and asked == ["distributed"]
    monkeypatch.setattr(executors.importlib.util, "find_spec", lambda name: None)
    assert executors.distributed_installed() is False
    for error in (ValueError, ImportError):
        def broken(name: str, error: type[Exception] = error) -> object:
            raise error(name)
        monkeypatch.setattr(executors.importlib.util, "find_spec", broken)
        assert executors.distributed_installed() is False


# --------------------------------------------------------------------------- worker versions and names
def test_source_fingerprint_is_the_documented_hash() -> None:
    """SHA-256 over (relative path, NUL, bytes, NUL) of every .py file under the package, sorted by relative
    path, symlinked subpackages followed, __pycache__ and dot folders skipped: recomputed here by hand."""
    root = Path(posreal.__file__).resolve().parent
    files: list[str] = []
    for folder, dirs, names in os.walk(root, followlinks=True):
        dirs[:] = [d for d in dirs if d != "__pycache__" and not d.startswith(".")]
        files += [os.path.relpath(os.path.join(folder, n), root) for n in names if n.endswith(".py")]
    assert "runtime/executors.py" in files
    digest = hashlib.sha256()
    for rel in sorted(files):
        digest.update(rel.encode() + b"\0" + (root / rel).read_bytes() + b"\0")
    assert executors.source_fingerprint.__wrapped__() == digest.hexdigest()
    versions = executors.worker_versions.__wrapped__()
    assert versions == {**executors.versions(), "posreal-source-sha256": digest.hexdigest()}


def test_worker_name_outside_and_inside_a_dask_worker(monkeypatch: pytest.MonkeyPatch) -> None:
    own = f"{socket.gethostname()}:{os.getpid()}"
    monkeypatch.delitem(sys.modules, "distributed", raising=False)
    assert executors.worker_name() == own

    def outside() -> object:
        raise ValueError("no worker")

    monkeypatch.setitem(sys.modules, "distributed", types.SimpleNamespace(get_worker=outside))
    assert executors.worker_name() == own
    worker = types.SimpleNamespace(address="tcp://10.0.0.7:4000")
    monkeypatch.setitem(sys.modules, "distributed", types.SimpleNamespace(get_worker=lambda: worker))
    assert executors.worker_name() == "tcp://10.0.0.7:4000"


def test_refusal_line_is_exact_and_names_the_first_differing_key() -> None:
    tail = ("; accepted: workers with the client's package versions and sources (install the same environment on "
            "every worker)")
    mine = {"a": "1", "b": "2", "c": "3"}
    assert executors.refusal("w", mine, dict(mine)) is None
    assert executors.refusal("w", mine, {"a": "1", "b": "9", "c": "8"}) == (
        "worker w refused: it has b '2', the client has '9'" + tail)
    assert executors.refusal("w", {"a": "1"}, {"a": "1", "z": "5"}) == (
        "worker w refused: it has z 'not installed', the client has '5'" + tail)
    assert executors.refusal("w", {"a": "1", "z": "5"}, {"a": "1"}) == (
        "worker w refused: it has z '5', the client has 'not installed'" + tail)


def test_checked_call_names_the_worker_and_computes(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(executors, "worker_name", lambda: "w7")
    monkeypatch.setattr(executors, "worker_versions", lambda: dict(VERSIONS))
    assert executors.checked_call(dict(VERSIONS), square, 6) == ("w7", 36)
    with pytest.raises(WorkerRefused, match=r"^worker w7 refused: it has numpy '1.0', the client has '2.0'"):
        executors.checked_call({**VERSIONS, "numpy": "2.0"}, square, 6)
    assert executors._report_versions() == VERSIONS


# --------------------------------------------------------------------------- the executor, the report, BLAS
def test_in_process_executor_keeps_results_and_errors() -> None:
    ex = InProcessExecutor()
    assert ex.submit(pow, 2, exp=5).result() == 32
    failed = ex.submit(int, "x")
    assert failed.done() and isinstance(failed.exception(), ValueError)


def test_report_json() -> None:
    report = ExecutorReport(ExecutorKind.DASK, "local:2", 3)
    assert report.to_json() == {"executor": "dask", "scheduler": "local:2", "workers": 3, "units": 0,
                                "resubmitted": 0, "per_worker": []}
    report.per_worker["b"] = WorkerRecord("b", {"v": "1"}, 2)
    report.per_worker["a"] = WorkerRecord("a", {"v": "2"}, 5)
    report.resubmitted = 4
    assert report.to_json() == {"executor": "dask", "scheduler": "local:2", "workers": 3, "units": 7,
                                "resubmitted": 4, "per_worker": [{"name": "a", "units": 5, "versions": {"v": "2"}},
                                                                 {"name": "b", "units": 2, "versions": {"v": "1"}}]}


def test_blas_guard_sets_one_thread_and_restores(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OPENBLAS_NUM_THREADS", "8")
    monkeypatch.delenv("OMP_NUM_THREADS", raising=False)
    monkeypatch.setenv("MKL_NUM_THREADS", "2")
    with executors._BlasOneThread():
        assert [os.environ.get(k) for k in executors.BLAS_THREADS] == ["1", "1", "1"]
    assert [os.environ.get(k) for k in executors.BLAS_THREADS] == ["8", None, "2"]


# --------------------------------------------------------------------------- fakes
class FakePool(InProcessExecutor):
    """A process pool stand-in: computes in this process; units in ``broken`` fail with BrokenProcessPool
    (their worker died), units in ``hanging`` stay in flight forever (they went down with the pool)."""

    def __init__(self, broken: set[int] = frozenset(), hanging: set[int] = frozenset()) -> None:
        self.broken, self.hanging = set(broken), set(hanging)
        self.submitted: list[int] = []
        self.futures: list[Future] = []
        self.shutdowns: list[dict[str, bool]] = []

    def submit(self, fn, /, *args, **kwargs):
        unit = args[-1]                      # checked_call(expected, fn, unit)
        self.submitted.append(unit)
        if unit in self.broken:
            future: Future = Future()
            future.set_exception(BrokenProcessPool("a worker died"))
        elif unit in self.hanging:
            future = Future()
        else:
            future = super().submit(fn, *args, **kwargs)
        self.futures.append(future)
        return future

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        self.shutdowns.append({"wait": wait, "cancel_futures": cancel_futures})


def process_pool(monkeypatch: pytest.MonkeyPatch, first: FakePool, *later: FakePool) -> WorkerPool[int, int]:
    """A processes pool running on ``first``, whose rebuilt pools are the fakes ``later``, in order."""
    queue = list(later)
    pool: WorkerPool[int, int] = WorkerPool(local(2), expected=dict(VERSIONS))
    pool.executor = first
    monkeypatch.setattr(pool, "_process_pool", lambda: queue.pop(0))
    monkeypatch.setattr(executors, "worker_versions", lambda: dict(VERSIONS))
    monkeypatch.setattr(executors, "worker_name", lambda: "host:1")
    return pool


# --------------------------------------------------------------------------- the process pool, faked
def test_processes_pool_opens_with_one_blas_thread_and_shuts_down(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OPENBLAS_NUM_THREADS", "4")
    fake = FakePool()
    pool = process_pool(monkeypatch, FakePool(), fake)
    with pool as opened:
        assert opened is pool and pool.executor is fake and os.environ["OPENBLAS_NUM_THREADS"] == "1"
        assert pool.slots == 2
        assert dict(pool.run(square, range(5))) == {x: x * x for x in range(5)}
    assert fake.shutdowns == [{"wait": True, "cancel_futures": True}]
    assert os.environ["OPENBLAS_NUM_THREADS"] == "4" and pool._blas is None
    assert pool.report.to_json() == {"executor": "processes", "scheduler": None, "workers": 2, "units": 5,
                                     "resubmitted": 0,
                                     "per_worker": [{"name": "host:1", "units": 5, "versions": VERSIONS}]}


def test_in_process_pool_is_not_shut_down_and_its_worker_is_the_client(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(executors, "worker_versions", lambda: dict(VERSIONS))
    pool: WorkerPool[int, int] = WorkerPool(local(1), expected=dict(VERSIONS))
    with pool:
        fake = FakePool()
        pool.executor = fake
        assert pool.slots == 1
        assert list(pool.run(square, [2, 3])) == [(2, 4), (3, 9)]
    assert fake.shutdowns == []
    assert pool.report.per_worker["client"].to_json() == {"name": "client", "units": 2, "versions": VERSIONS}


def test_default_expected_versions_are_this_process(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(executors, "worker_versions", lambda: dict(VERSIONS))
    assert WorkerPool(local(1)).expected == VERSIONS
    given = {"x": "1"}
    pool: WorkerPool[int, int] = WorkerPool(local(1), given)
    given["x"] = "2"
    assert pool.expected == {"x": "1"}                    # a copy


def test_units_in_flight_with_the_pool_are_resubmitted_once_each(monkeypatch: pytest.MonkeyPatch) -> None:
    """Units 0-2 finish; then unit 3's worker dies while 4 and 5 are in flight: the three go to a new pool,
    in order, each once; the old pool is shut down without waiting, its futures cancelled."""
    first, second = FakePool(broken={3}, hanging={4, 5}), FakePool()
    pool = process_pool(monkeypatch, first, second)
    results = list(pool.run(square, range(6), in_flight=3))
    assert sorted(results) == [(x, x * x) for x in range(6)] and len(results) == 6
    assert first.submitted == [0, 1, 2, 3, 4, 5] and second.submitted == [3, 4, 5]
    assert first.shutdowns == [{"wait": False, "cancel_futures": True}] and pool.executor is second
    assert pool.report.resubmitted == 3 and pool.report.to_json()["units"] == 6


def test_a_unit_that_kills_every_pool_stops_after_max_attempts(monkeypatch: pytest.MonkeyPatch) -> None:
    pools = [FakePool(broken={7}) for _ in range(executors.MAX_ATTEMPTS + 1)]
    pool = process_pool(monkeypatch, *pools)
    with pytest.raises(WorkerLost) as err:
        list(pool.run(square, [7]))
    assert str(err.value) == (f"unit 7 was in flight when a worker died {executors.MAX_ATTEMPTS} times; "
                              "accepted: units that do not kill their worker")
    assert [p.submitted for p in pools] == [[7]] * executors.MAX_ATTEMPTS + [[]]
    assert pool.report.resubmitted == executors.MAX_ATTEMPTS - 1


def test_a_unit_lost_fewer_than_max_attempts_times_completes(monkeypatch: pytest.MonkeyPatch) -> None:
    pools = [FakePool(broken={7}) for _ in range(executors.MAX_ATTEMPTS - 1)] + [FakePool()]
    pool = process_pool(monkeypatch, *pools)
    assert list(pool.run(square, [7])) == [(7, 49)]
    assert pool.report.resubmitted == executors.MAX_ATTEMPTS - 1


def test_default_in_flight_is_twice_the_slots_and_stopping_cancels(monkeypatch: pytest.MonkeyPatch) -> None:
    """Two slots: four units are read before the first result; closing the run cancels those in flight."""
    fake = FakePool(hanging={1, 2, 3, 4, 5})
    pool = process_pool(monkeypatch, fake)
    read: list[int] = []

    def units() -> Iterator[int]:
        for x in range(6):
            read.append(x)
            yield x

    run = pool.run(square, units())
    assert next(run) == (0, 0) and read == [0, 1, 2, 3]
    run.close()
    assert [f.cancelled() for f in fake.futures] == [False, True, True, True]


def test_explicit_in_flight_bounds_the_units_read(monkeypatch: pytest.MonkeyPatch) -> None:
    """Unit 1 stays in flight: each finished unit lets exactly one more in."""
    fake = FakePool(hanging={1})
    pool = process_pool(monkeypatch, fake)
    run = pool.run(square, iter(range(9)), in_flight=2)
    assert next(run) == (0, 0) and fake.submitted == [0, 1]
    assert next(run) == (2, 4) and fake.submitted == [0, 1, 2]
    assert next(run) == (3, 9) and fake.submitted == [0, 1, 2, 3]
    run.close()


def test_a_unit_error_is_the_callers() -> None:
    pool: WorkerPool[int, int] = WorkerPool(local(1))
    with pytest.raises(ZeroDivisionError):
        list(pool.run(lambda x: 1 // x, [1, 0, 2]))
    assert pool.report.to_json()["units"] == 1


@pytest.mark.parametrize("kind", ["KilledWorker", "CancelledError", "FutureCancelledError", "CommClosedError"])
def test_dask_losses_in_a_run_are_one_line_worker_lost(kind: str) -> None:
    """Dask's errors, by class name, become WorkerLost lines with no chained cause."""
    error = type(kind, (Exception,), {})

    def lose(x: int) -> int:
        raise error("gone")

    pool: WorkerPool[int, int] = WorkerPool(local(1))
    with pytest.raises(WorkerLost) as err:
        list(pool.run(lose, ["u"]))
    if kind == "KilledWorker":
        assert str(err.value) == ("unit 'u' was in flight on every worker that died (distributed.scheduler."
                                  "allowed-failures reached); accepted: units that do not kill their worker")
    else:
        assert str(err.value) == f"the Dask cluster went away while unit 'u' ran ({kind}); resume the run with --resume"
    assert err.value.__cause__ is None and err.value.__suppress_context__


# --------------------------------------------------------------------------- Dask, through a fake module
class FakeCluster:
    def __init__(self, log: list, **kwargs: Any) -> None:
        log.append(("LocalCluster", kwargs))
        self.log = log

    def close(self) -> None:
        self.log.append(("cluster.close",))


def fake_distributed(monkeypatch: pytest.MonkeyPatch, threads: dict[str, int], found: dict[str, dict],
                     connect_error: Exception | None = None) -> list:
    """A ``distributed`` module whose Client has the workers ``threads`` (with versions ``found``) and whose
    executor computes in this process as worker ``tcp://w1``; returns the log of calls."""
    log: list = []

    class Client:
        def __init__(self, target: Any, **kwargs: Any) -> None:
            if connect_error is not None:
                raise connect_error
            log.append(("Client", target if isinstance(target, str) else type(target).__name__, kwargs))

        def nthreads(self) -> dict[str, int]:
            return dict(threads)

        def run(self, fn: Any) -> dict[str, dict]:
            log.append(("run", fn.__name__))
            return dict(found)

        def get_executor(self, **kwargs: Any) -> InProcessExecutor:
            log.append(("get_executor", kwargs))
            return InProcessExecutor()

        def close(self) -> None:
            log.append(("client.close",))

    module = types.ModuleType("distributed")
    module.Client = Client                                       # type: ignore[attr-defined]
    module.LocalCluster = lambda **kw: FakeCluster(log, **kw)    # type: ignore[attr-defined]
    module.get_worker = lambda: types.SimpleNamespace(address="tcp://w1")   # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "distributed", module)
    monkeypatch.setattr(executors, "worker_versions", lambda: dict(VERSIONS))
    return log


def test_dask_local_cluster_opens_runs_and_closes(monkeypatch: pytest.MonkeyPatch) -> None:
    log = fake_distributed(monkeypatch, {"tcp://w1": 1, "tcp://w2": 2}, {"tcp://w2": VERSIONS, "tcp://w1": VERSIONS})
    pool: WorkerPool[int, int] = WorkerPool(parse_scheduler("local:2", False), dict(VERSIONS))
    with pool:
        assert pool.slots == 3 and isinstance(pool.executor, InProcessExecutor)
        read: list[int] = []

        def units() -> Iterator[int]:
            for x in range(8):
                read.append(x)
                yield x

        run = pool.run(square, units())
        first = next(run)
        assert read == list(range(6))                                  # 2 × 3 slots in flight
        assert sorted([first, *run]) == [(x, x * x) for x in range(8)]
    assert log == [("LocalCluster", {"n_workers": 2, "threads_per_worker": 1, "processes": True,
                                     "dashboard_address": ":0", "silence_logs": logging.CRITICAL}),
                   ("Client", "FakeCluster", {}), ("run", "_report_versions"), ("get_executor", {"pure": False}),
                   ("client.close",), ("cluster.close",)]
    assert pool.report.to_json() == {
        "executor": "dask", "scheduler": "local:2", "workers": 3, "units": 8, "resubmitted": 0,
        "per_worker": [{"name": "tcp://w1", "units": 8, "versions": VERSIONS},
                       {"name": "tcp://w2", "units": 0, "versions": VERSIONS}]}


def test_dask_scheduler_address_connects_with_the_timeout(monkeypatch: pytest.MonkeyPatch) -> None:
    log = fake_distributed(monkeypatch, {"tcp://w1": 4}, {"tcp://w1": VERSIONS})
    pool: WorkerPool[int, int] = WorkerPool(parse_scheduler("tcp://h:8786", False), dict(VERSIONS))
    assert pool.report.workers == 1                      # before opening: max(jobs 0, 1)
    with pool:
        assert pool.report.workers == 4
    assert log[0] == ("Client", "tcp://h:8786", {"timeout": "20s"}) and log[-1] == ("client.close",)
    assert not any(entry[0] == "LocalCluster" for entry in log)


def test_dask_connection_failure_is_one_exact_line(monkeypatch: pytest.MonkeyPatch) -> None:
    fake_distributed(monkeypatch, {}, {}, connect_error=OSError("refused\nsecond line"))
    with pytest.raises(SpecError) as err:
        with WorkerPool(parse_scheduler("tcp://h:8786", False)):
            pass
    assert str(err.value) == f"invalid --scheduler 'tcp://h:8786': cannot connect (refused); accepted: {ACCEPTED}"
    assert err.value.__cause__ is None and err.value.__suppress_context__


def test_dask_scheduler_without_workers_is_refused_and_closed(monkeypatch: pytest.MonkeyPatch) -> None:
    log = fake_distributed(monkeypatch, {}, {})
    with pytest.raises(SpecError) as err:
        with WorkerPool(parse_scheduler("local:3", False)):
            pass
    assert str(err.value) == ("invalid --scheduler 'local:3': the scheduler has no workers; accepted: a scheduler "
                              "with at least one worker connected")
    assert log[-2:] == [("client.close",), ("cluster.close",)]


def test_dask_worker_with_other_versions_is_refused_when_the_pool_opens(monkeypatch: pytest.MonkeyPatch) -> None:
    log = fake_distributed(monkeypatch, {"tcp://a": 1, "tcp://b": 1},
                           {"tcp://a": VERSIONS, "tcp://b": {**VERSIONS, "numpy": "0.1"}})
    with pytest.raises(WorkerRefused) as err:
        with WorkerPool(parse_scheduler("local:2", False), dict(VERSIONS)):
            pass
    assert str(err.value).startswith("worker tcp://b refused: it has numpy '0.1', the client has '1.0'")
    assert ("get_executor", {"pure": False}) not in log and log[-2:] == [("client.close",), ("cluster.close",)]


def test_opening_dask_without_the_module_names_what_to_install(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "distributed", None)      # `import distributed` raises ImportError
    pool: WorkerPool[int, int] = WorkerPool(parse_scheduler("tcp://h:1", False))
    with pytest.raises(SpecError) as err:
        pool._open_dask()
    assert str(err.value).startswith("invalid --scheduler 'tcp://h:1': Dask is not installed; accepted: pip install")
    assert err.value.__cause__ is None and err.value.__suppress_context__
