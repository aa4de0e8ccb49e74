"""Worker processes count against the memory budget (posreal.theory.executors.worker_estimate): N workers ×
the measured size of one worker above ``--max-memory`` is refused in one line before any is spawned.
Controls: the same command within the budget runs; a remote scheduler's workers are not counted."""

from __future__ import annotations

import concurrent.futures

import pytest
from posreal.cli import main
from posreal.theory import executors
from posreal.theory.executors import (DASK_WORKER_BYTES, PROCESS_WORKER_BYTES, ExecutorKind, ExecutorSpec, local,
                                      worker_estimate)

SEARCH = ["search", "conjecture", "--budget", "4", "--families", "registry", "--json"]


def test_the_estimate_is_workers_times_the_size_of_one() -> None:
    assert worker_estimate(local(8)).memory == 8 * PROCESS_WORKER_BYTES
    assert worker_estimate(ExecutorSpec(ExecutorKind.DASK, 3, "local:3")).memory == 3 * DASK_WORKER_BYTES
    assert worker_estimate(local(1)) is None                                   # in process: nothing spawned
    assert worker_estimate(ExecutorSpec(ExecutorKind.DASK, 0, "tcp://10.0.0.1:8786")) is None   # remote


@pytest.mark.parametrize("workers", [["--jobs", "8"], ["--scheduler", "local:8"]])
def test_eight_workers_under_100m_are_refused_before_any_is_spawned(monkeypatch: pytest.MonkeyPatch,
                                                                     capsys: pytest.CaptureFixture,
                                                                     workers: list[str]) -> None:
    if "--scheduler" in workers:
        pytest.importorskip("distributed")
    spawned: list[int] = []
    monkeypatch.setattr(executors, "ProcessPoolExecutor", lambda *a, **k: spawned.append(1))
    monkeypatch.setattr(concurrent.futures, "ProcessPoolExecutor", lambda *a, **k: spawned.append(1))
    assert main(["--max-memory", "100M", *SEARCH, *workers]) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and captured.err.count("\n") == 1 and spawned == []
    assert "refused: 8 worker processes" in captured.err and "--max-memory" in captured.err


@pytest.mark.subprocess
def test_control_two_workers_within_the_budget_run(capsys: pytest.CaptureFixture) -> None:
    assert main(["--max-memory", "1G", *SEARCH, "--jobs", "2"]) == 0
    capsys.readouterr()
