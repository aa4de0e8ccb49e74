"""posreal.runtime.executors: the --scheduler parser, the missing extra, the worker version check,
the process pool (one BLAS thread per worker, a lost worker's unit resubmitted once recorded once)."""

from __future__ import annotations

import os
import sys
from concurrent.futures import Future
from concurrent.futures.process import BrokenProcessPool
from pathlib import Path

import pytest

from posreal.cli import main
from posreal.runtime import executors
from posreal.theory.errors import SpecError
from posreal.runtime.executors import (ExecutorKind, WorkerLost, WorkerRefused, checked_call, local, open_pool,
                                      parse_scheduler, refusal, worker_versions)


# --------------------------------------------------------------------------- units the pool runs (importable)
def square(x: int) -> int:
    return x * x


def blas_setting(_: int) -> str | None:
    return os.environ.get("OPENBLAS_NUM_THREADS")


def die_once(unit: tuple[str, int]) -> int:
    """Kill this worker the first time unit 3 runs (a marker file remembers it), else square."""
    folder, x = unit
    marker = Path(folder) / "died"
    if x == 3 and not marker.exists():
        marker.write_text("once")
        os._exit(1)
    return x * x


def always_die(_: int) -> int:
    os._exit(1)


def touch(path: str) -> str:
    Path(path).write_text("computed")
    return path


# --------------------------------------------------------------------------- the --scheduler text
@pytest.mark.parametrize("text,jobs", [("local:2", 2), ("local:16", 16), ("tcp://127.0.0.1:8786", 0),
                                       ("tcp://scheduler-node.cluster:8786", 0), ("tls://[::1]:443", 0)])
def test_scheduler_forms_are_accepted(text, jobs):
    spec = parse_scheduler(text)
    assert spec.kind is ExecutorKind.DASK and spec.jobs == jobs and str(spec) == text


@pytest.mark.parametrize("text", ["local:0", "local:x", "local:", "tcp://host", "tcp://host:99999", "http://h:1",
                                  "127.0.0.1:8786", "tcp://ho st:1", "", "local:" + "9" * 400])
def test_bad_scheduler_is_a_one_line_error(text):
    with pytest.raises(SpecError) as err:
        parse_scheduler(text)
    assert "\n" not in str(err.value) and "accepted" in str(err.value)


def test_local_jobs():
    assert local(1).kind is ExecutorKind.IN_PROCESS and local(3).kind is ExecutorKind.PROCESSES
    for bad in (0, -1, True, 2.0, 10 ** 6):
        with pytest.raises(SpecError):
            local(bad)


# --------------------------------------------------------------------------- without the extra
@pytest.mark.parametrize("argv", [["search", "conjecture", "--budget", "1", "--scheduler", "local:2"],
                                  ["experiment", "--scheduler", "tcp://127.0.0.1:8786", "--out", "OUT"]])
def test_scheduler_without_distributed_says_what_to_install(argv, monkeypatch, capsys, tmp_path):
    """The extra's absence is simulated: an import of distributed fails as when it is not installed."""
    argv = [str(tmp_path / "x") if a == "OUT" else a for a in argv]
    assert parse_scheduler("local:2").kind is ExecutorKind.DASK     # control: installed, accepted
    monkeypatch.setitem(sys.modules, "distributed", None)           # `import distributed` raises ImportError
    with pytest.raises(ImportError):
        import distributed  # noqa: F401
    assert not executors.distributed_installed()
    assert main(argv) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "pip install -e '.[cluster]'" in err and "Traceback" not in err
    assert not (tmp_path / "x").exists()


@pytest.mark.subprocess   # would start a LocalCluster if the simulated absence failed
def test_opening_dask_without_distributed_is_the_same_error(monkeypatch):
    spec = parse_scheduler("local:2")
    monkeypatch.setitem(sys.modules, "distributed", None)
    with pytest.raises(SpecError, match=r"pip install -e '\.\[cluster\]'"):
        with open_pool(spec):
            pass


def test_jobs_and_scheduler_are_exclusive(capsys):
    assert main(["search", "conjecture", "--jobs", "2", "--scheduler", "local:2"]) == 2
    assert "not allowed with" in capsys.readouterr().err


# --------------------------------------------------------------------------- worker versions
def test_refusal_names_the_first_differing_tool():
    mine = worker_versions()
    assert refusal("w", mine, dict(mine)) is None
    other = {**mine, "numpy": "0.0.1"}
    why = refusal("tcp://10.0.0.7:4000", mine, other)
    assert why is not None and "numpy" in why and "0.0.1" in why and mine["numpy"] in why and "\n" not in why
    assert refusal("w", {k: v for k, v in mine.items() if k != "scipy"}, mine) is not None
    assert len(mine[executors.SOURCE_KEY]) == 64


def test_a_refused_worker_does_not_compute(tmp_path):
    path = tmp_path / "computed"
    with pytest.raises(WorkerRefused, match="sympy"):
        checked_call({**worker_versions(), "sympy": "0.1"}, touch, str(path))
    assert not path.exists()
    name, value = checked_call(worker_versions(), touch, str(path))   # control: the same unit, accepted
    assert value == str(path) and path.exists()


# --------------------------------------------------------------------------- in process and in processes
def test_in_process_runs_units_in_order_one_at_a_time():
    seen = []

    def units():
        for x in range(5):
            seen.append(x)
            yield x

    with open_pool(local(1)) as pool:
        out = []
        for unit, value in pool.run(square, units()):
            out.append((unit, value))
            assert seen[-1] == unit           # the next unit is read only after this one's result
    assert out == [(x, x * x) for x in range(5)]
    report = pool.report.to_json()
    assert report["executor"] == "in-process" and report["units"] == 5
    assert report["per_worker"] == [{"name": "client", "units": 5, "versions": worker_versions()}]


@pytest.mark.subprocess
def test_process_pool_units_one_blas_thread_and_provenance():
    before = os.environ.get("OPENBLAS_NUM_THREADS")
    with open_pool(local(2)) as pool:
        squares = dict(pool.run(square, range(20)))
        blas = {v for _, v in pool.run(blas_setting, range(4))}
    assert squares == {x: x * x for x in range(20)} and blas == {"1"}
    assert os.environ.get("OPENBLAS_NUM_THREADS") == before          # the client keeps its own setting
    report = pool.report.to_json()
    assert report["executor"] == "processes" and report["workers"] == 2 and report["units"] == 24
    assert 1 <= len(report["per_worker"]) <= 2 and report["resubmitted"] == 0
    assert all(w["versions"] == worker_versions() and str(os.getpid()) not in w["name"].split(":")[-1]
               for w in report["per_worker"])


@pytest.mark.subprocess
def test_a_lost_pool_worker_is_replaced_and_its_unit_resubmitted(tmp_path):
    units = [(str(tmp_path), x) for x in range(12)]
    with open_pool(local(2)) as pool:
        results = list(pool.run(die_once, units))
    assert (tmp_path / "died").exists()                                # a worker really died
    assert sorted(u[1] for u, _ in results) == list(range(12))         # nothing lost, nothing twice
    assert all(v == u[1] ** 2 for u, v in results)
    assert pool.report.resubmitted >= 1


# Exists because a mutant survived: the count of units resubmitted after a lost pool was only checked with real workers.
def test_a_unit_lost_with_its_pool_is_resubmitted_and_counted(monkeypatch: pytest.MonkeyPatch) -> None:
    """No process is started: the pool's executor computes in this process, except that unit 3's first run
    raises BrokenProcessPool (its worker died).  The pool is rebuilt, unit 3 runs again, every unit is yielded
    once, and the provenance says one unit was resubmitted."""
    lost: list[int] = []

    class Flaky(executors.InProcessExecutor):
        def submit(self, fn, /, *args, **kwargs):
            if args[-1] == 3 and not lost:        # args: (expected versions, fn, unit) of checked_call
                lost.append(3)
                future: Future = Future()
                future.set_exception(BrokenProcessPool("a worker died"))
                return future
            return super().submit(fn, *args, **kwargs)

    pool: executors.WorkerPool[int, int] = executors.WorkerPool(local(1))
    pool.executor = Flaky()
    monkeypatch.setattr(pool, "_process_pool", Flaky)       # the rebuilt pool: no process either
    results = list(pool.run(square, range(6), in_flight=3))
    assert lost == [3]
    assert sorted(results) == [(x, x * x) for x in range(6)]
    report = pool.report.to_json()
    assert report["resubmitted"] == 1 and report["units"] == 6


@pytest.mark.subprocess
def test_a_unit_that_always_kills_its_worker_stops_the_run():
    with open_pool(local(2)) as pool:
        with pytest.raises(WorkerLost, match="in flight when a worker died"):
            list(pool.run(always_die, [7]))


@pytest.mark.subprocess
def test_pool_workers_with_other_versions_are_refused_before_computing(tmp_path):
    path = tmp_path / "computed"
    with open_pool(local(2), expected={**worker_versions(), "numpy": "0.0.1"}) as pool:
        with pytest.raises(WorkerRefused, match="numpy"):
            list(pool.run(touch, [str(path)]))
    assert not path.exists()


@pytest.mark.subprocess
def test_the_module_imports_neither_numpy_nor_distributed():
    """Shared by counterexamples/ and experiment/, the module stays light: standard library only."""
    import subprocess
    code = ("import sys, posreal.runtime.executors as e; e.local(2); e.parse_scheduler('local:2'); "
            "print(sorted(m for m in ('numpy', 'distributed', 'dask') if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=True)
    assert out.stdout.strip() == "[]"
    probe = "import sys, posreal.theory.random_instances; print('numpy' in sys.modules)"
    control = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=120, check=True)
    assert control.stdout.strip() == "True"          # the reading can see numpy where it is imported


# Exists because a mutant survived: a Dask cluster that went away was not named by the kind of its error.
@pytest.mark.parametrize("kind", ["CancelledError", "FutureCancelledError", "CommClosedError"])
def test_each_dask_cluster_loss_is_a_worker_lost_naming_its_kind(kind: str) -> None:
    """Dask's errors are recognized by their class name (no Dask is imported here): each of the three
    becomes a one-line WorkerLost that names it and the unit; any other error is left to the caller."""
    exc = type(kind, (Exception,), {})("gone")
    with pytest.raises(WorkerLost, match=rf"went away while unit 7 ran \({kind}\); resume the run with --resume"):
        executors.WorkerPool._dask_loss(exc, 7)
    assert executors.WorkerPool._dask_loss(type("OtherError", (Exception,), {})(), 7) is None


# Exists because a mutant survived: the process pool's start method was never looked at.
def test_the_process_pool_starts_its_workers_by_spawn() -> None:
    """The executor is only built (no unit is submitted, so no process starts) and shut down."""
    pool: executors.WorkerPool[int, int] = executors.WorkerPool(local(2))
    executor = pool._process_pool()
    try:
        assert executor._mp_context.get_start_method() == "spawn" and executor._max_workers == 2
        assert not executor._processes
    finally:
        executor.shutdown(wait=True)


def test_a_future_lost_in_distributed_transit_is_told_from_a_unit_error():
    """distributed's ClientExecutor raises a ValueError inside distributed.cfexecutor when a future's worker died
    (seen in CI: 'not enough values to unpack'); run() resubmits that unit.  A unit's own ValueError is not it."""
    from posreal.runtime.executors import lost_in_transit
    scope = {"__name__": "distributed.cfexecutor"}
    exec("def cascade():\n    typ, exc, tb = (1, 2)\n", scope)                   # the failing unpack, in that module
    with pytest.raises(ValueError) as transit:
        scope["cascade"]()
    assert lost_in_transit(transit.value)
    with pytest.raises(ValueError) as own:                                      # the control: the unit's own error
        int("not a number")
    assert not lost_in_transit(own.value)
    assert not lost_in_transit(RuntimeError("elsewhere"))
