"""Searches and experiments on Dask: a LocalCluster of 2 processes started inside the test runs a
small search and a quick experiment through ``--scheduler``; the records equal the single-process
run's (as sets), a worker killed mid-run loses nothing and duplicates nothing, and workers with
other package versions are refused before they compute.  Needs the ``cluster`` extra (in ``dev``)."""

from __future__ import annotations

import json
import os
import signal
import threading
import time

import pytest

distributed = pytest.importorskip("distributed")

from posreal.cli import main  # noqa: E402
from posreal.counterexamples.search_runner import read_results, search  # noqa: E402
from posreal.experiment.runner import RECORDS, RUN_FILE, read_records, read_run_file, run_grid  # noqa: E402
from posreal.experiment.grid import QUICK  # noqa: E402
from posreal.experiment.recipes import RECIPES  # noqa: E402
from posreal.runtime import executors  # noqa: E402

pytestmark = [pytest.mark.subprocess, pytest.mark.slow]

TAU = 100.0
SEED, BUDGET = 2, 48
VOLATILE = ("seconds", "timestamp")


@pytest.fixture(scope="module")
def cluster():
    """A LocalCluster of 2 single-threaded worker processes (each under a nanny that restarts it)."""
    import logging
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=":0",
                                  silence_logs=logging.CRITICAL) as c, distributed.Client(c) as client:
        yield c, client


@pytest.fixture(scope="module")
def single(tmp_path_factory):
    """The reference: the same search in this process."""
    out = tmp_path_factory.mktemp("single") / "s.jsonl"
    search(seed=SEED, budget=BUDGET, out=out, tau_max=TAU)
    return read_results(out).records


def _record_lines(path) -> list[dict]:
    docs = [json.loads(line) for line in path.read_text().splitlines()[1:]]
    return [d for d in docs if "type" not in d]


def _as_set(records) -> set[str]:
    return {json.dumps(r, sort_keys=True) for r in records}


def test_search_through_the_scheduler_equals_one_process(cluster, single, tmp_path, capsys):
    c, _ = cluster
    out = tmp_path / "d.jsonl"
    code = main(["search", "conjecture", "--seed", str(SEED), "--budget", str(BUDGET), "--tau-max", str(TAU),
                 "--out", str(out), "--scheduler", c.scheduler_address, "--chunk", "4", "--json"])
    doc = json.loads(capsys.readouterr().out)
    assert code in (0, 1)
    lines = _record_lines(out)
    assert len(lines) == BUDGET and _as_set(lines) == _as_set(single.values())
    ex = doc["executor"]
    assert ex["executor"] == "dask" and ex["scheduler"] == c.scheduler_address and ex["workers"] == 2
    assert ex["units"] == BUDGET // 4 and len(ex["per_worker"]) == 2       # both workers computed
    assert all(w["name"].startswith("tcp://") and w["versions"] == executors.worker_versions()
               for w in ex["per_worker"])
    (run,) = read_results(out).runs
    assert run["executor"] == ex


def test_a_worker_killed_mid_run_loses_nothing_and_duplicates_nothing(cluster, single, tmp_path):
    c, client = cluster
    out = tmp_path / "k.jsonl"
    killed: list[tuple[str, int]] = []

    def kill_a_busy_worker():
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline and not killed:
            busy = {w: keys for w, keys in client.processing().items() if keys}
            if busy and out.exists() and len(out.read_text().splitlines()) > 3:
                worker = sorted(busy)[0]
                pid = client.run(os.getpid, workers=[worker])[worker]
                os.kill(pid, signal.SIGKILL)         # the worker dies holding its unit
                killed.append((worker, pid))
            time.sleep(0.05)

    killer = threading.Thread(target=kill_a_busy_worker)
    killer.start()
    run = search(seed=SEED, budget=BUDGET, out=out, tau_max=TAU, chunk=2,
                 executor=executors.parse_scheduler(c.scheduler_address))
    killer.join()
    assert killed, "no worker was killed during the run"
    lines = _record_lines(out)
    indices = [r["index"] for r in lines]
    assert len(indices) == len(set(indices)) == BUDGET                # nothing twice, nothing lost
    assert _as_set(lines) == _as_set(single.values()) and run.evaluated == BUDGET
    client.wait_for_workers(2, timeout=60)                             # the nanny restarted it


def test_workers_with_other_versions_are_refused_before_computing(cluster, tmp_path, monkeypatch, capsys):
    c, client = cluster
    real = executors.worker_versions()
    monkeypatch.setattr(executors, "worker_versions", lambda: {**real, "numpy": "0.0.1"})   # the client's view
    out = tmp_path / "r.jsonl"
    code = main(["search", "conjecture", "--budget", "4", "--out", str(out), "--scheduler", c.scheduler_address])
    err = capsys.readouterr().err.strip()
    assert code == 2 and "refused" in err and "numpy" in err and len(err.splitlines()) == 1
    assert not out.exists()                                         # refused before anything was written
    monkeypatch.undo()
    assert main(["search", "conjecture", "--budget", "4", "--tau-max", str(TAU), "--out", str(out),   # control
                 "--scheduler", c.scheduler_address, "--json"]) in (0, 1)
    capsys.readouterr()


def _strip(records) -> set[str]:
    return _as_set({k: v for k, v in r.items() if k not in VOLATILE} for r in records)


def test_quick_experiment_through_the_scheduler_equals_one_process(cluster, tmp_path, capsys):
    c, _ = cluster
    one = run_grid(QUICK.with_recipes(tuple(RECIPES.values())), tmp_path / "one")    # `experiment --quick`
    assert main(["experiment", "--quick", "--out", str(tmp_path / "dask"), "--scheduler", c.scheduler_address,
                 "--json"]) == 0
    capsys.readouterr()
    dask, broken = read_records(tmp_path / "dask" / RECORDS)
    assert not broken and len(dask) == len(one)
    assert _strip(dask) == _strip(one)
    run = read_run_file(tmp_path / "dask" / RUN_FILE)["runs"][-1]
    assert run["executor"]["executor"] == "dask" and run["executor"]["workers"] == 2
    assert run["executor"]["units"] == run["batches"]


def test_an_unreachable_scheduler_is_a_one_line_error(tmp_path, monkeypatch, capsys):
    import socket
    with socket.socket() as s:                      # a port nothing listens on
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    monkeypatch.setattr(executors, "CONNECT_TIMEOUT", "2s")
    out = tmp_path / "u.jsonl"
    assert main(["search", "conjecture", "--budget", "2", "--out", str(out), "--scheduler",
                 f"tcp://127.0.0.1:{port}"]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "cannot connect" in err and "Traceback" not in err
    assert not out.exists()


def _profiler_enabled() -> bool:
    import dask
    return bool(dask.config.get("distributed.worker.profile.enabled"))


def test_local_scheduler_workers_run_without_the_statistical_profiler():
    """``--scheduler local:N`` starts its workers with Dask's stack-sampling profiler off (it takes the GIL
    from the unit every 10 ms); the control is Dask's default here, which has it on."""
    assert _profiler_enabled()                                   # the default this setting overrides
    with executors.open_pool(executors.parse_scheduler("local:2")) as pool:
        found = pool._client.run(_profiler_enabled)
    assert len(found) == 2 and not any(found.values())
    assert _profiler_enabled()                                   # the client's own configuration is untouched
