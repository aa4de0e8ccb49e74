"""The memory budget holds: worker processes count against it (posreal.runtime.executors.worker_estimate: N
workers × the measured size of one above ``--max-memory`` is refused in one line before any is spawned), and
the estimate of a profile PE covers its peak (its structural ties hold ``peak_copies`` (L, p) float copies of
the features; benchmarks/bench_memory.py compares estimate and measured peak on ten commands).
Controls: the same commands within the budget run; a remote scheduler's workers are not counted."""

from __future__ import annotations

import concurrent.futures

import pytest
from posreal.cli import main
from posreal.theory.cell import Cell
from posreal.runtime.resources import FLOAT_BYTES
from posreal.runtime import executors
from posreal.runtime.executors import (DASK_WORKER_BYTES, PROCESS_WORKER_BYTES, ExecutorKind, ExecutorSpec, local,
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


def test_the_issues_rope_command_is_refused_under_2500m(capsys: pytest.CaptureFixture) -> None:
    """``--max-memory 2500M alpha --pe rope:16 --task copy --lengths 10000000`` peaked at 5.3 GB against an
    estimate of 2.38 GiB: the estimate now counts the structural ties' copies and refuses it up front."""
    assert main(["--max-memory", "2500M", "alpha", "--pe", "rope:16", "--task", "copy", "--lengths", "10000000",
                 "--json"]) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and captured.err.count("\n") == 1 and "refused" in captured.err
    assert Cell.parse("rope:16", "copy", 16).estimate([10 ** 7], "float").memory > 5.3e9 / 1.2   # within the target


def test_profile_estimates_count_the_copies_the_peak_holds() -> None:
    L = 10 ** 6
    generic, bucketed = Cell.parse("rope:16", "copy", 16), Cell.parse("clipped:15", "copy", 16)
    assert generic.pe.peak_copies == 4 and bucketed.pe.peak_copies == 1
    assert Cell.parse("dual:rope:16", "copy", 16).pe.peak_copies == 4               # the shear keeps its base's
    both = generic.estimate([L], "float").memory - bucketed.estimate([L], "float").memory
    assert both == 3 * L * 16 * FLOAT_BYTES                                         # same p = 16: only the copies


def test_a_large_table_file_is_refused_by_its_size_before_it_is_parsed(tmp_path, monkeypatch: pytest.MonkeyPatch,
                                                                        capsys: pytest.CaptureFixture) -> None:
    """A table file is parsed whole: its memory (TABLE_BYTES_PER_FILE_BYTE per byte, measured) is checked
    against the budget first.  Control: the same file under a budget that holds it is read."""
    import json

    from posreal.runtime import resources

    from posreal.theory import tables
    path = tmp_path / "rows.json"
    path.write_text(json.dumps({"kind": "relative", "rows": [[k % 7] for k in range(20000)]}), encoding="utf-8")
    parsed: list[str] = []
    load_json = resources.load_json
    monkeypatch.setattr(resources, "load_json", lambda *a, **k: parsed.append("x") or load_json(*a, **k))
    need = tables.TABLE_BYTES_PER_FILE_BYTE * path.stat().st_size
    argv = ["alpha", "--pe", f"table:{path}", "--task", "copy", "--train-length", "16", "--lengths", "32", "--json"]
    assert main(["--max-memory", str(need - 1), *argv]) == 2
    err = capsys.readouterr().err
    assert "reading feature table file" in err and err.count("\n") == 1 and parsed == []
    assert main(["--max-memory", str(need + 2 ** 26), *argv]) == 0                       # control
    assert parsed == ["x"]
    capsys.readouterr()


def test_the_certified_interval_work_is_timed_before_it_starts(monkeypatch: pytest.MonkeyPatch) -> None:
    """rope:2 with θ = (1, 0) on offset:0 at L = 711: row 710 (margin 1 - cos 710 ≈ 1.8e-9) goes to interval
    arithmetic, 711 keys × p = 2 interval products; above the work budget the row is refused before any is
    computed, within it (the control) it is decided."""
    import numpy as np

    from posreal.theory import certified
    from posreal.theory.alpha import row_outcomes
    from posreal.theory.pe_specs import parse_pe
    from posreal.runtime.resources import ResourceError
    from posreal.theory.tasks import parse_task
    pe, task, theta = parse_pe("rope:2"), parse_task("offset:0"), np.array([1.0, 0.0])
    need = 711 * 2 * certified.INTERVAL_FLOPS
    calls: list[int] = []
    margin = certified.interval_margin
    monkeypatch.setattr(certified, "interval_margin", lambda *a: calls.append(1) or margin(*a))
    monkeypatch.setenv("POSREAL_MAX_WORK", str(need - 1))
    with pytest.raises(ResourceError, match="certifying 1 borderline rows of rope:2 at L = 711 .1422 interval"):
        row_outcomes(pe, task, theta, 711, 16, mode="certified", tol=1e-8)
    assert calls == []
    monkeypatch.setenv("POSREAL_MAX_WORK", str(need))
    assert row_outcomes(pe, task, theta, 711, 16, mode="certified", tol=1e-8).status[710] == 1
    assert calls == [1]


def test_work_within_the_budget_but_above_a_minute_is_announced_before_it_starts(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture) -> None:
    """R3: a cheap time estimate is said before the work (one stderr line, stdout untouched); at the threshold
    nothing is said (the control), above the budget the work is refused instead."""
    from posreal.runtime.resources import NOTE_WORK, OPERATIONS_PER_SECOND, Estimate, ResourceError, require
    monkeypatch.delenv("POSREAL_MAX_WORK", raising=False)
    require(Estimate(0, "certifying 9 borderline rows", NOTE_WORK))
    assert capsys.readouterr() == ("", "")
    require(Estimate(0, "certifying 9 borderline rows", 3 * NOTE_WORK))
    out, err = capsys.readouterr()
    assert out == "" and err.count("\n") == 1 and err.startswith("posreal: note: certifying 9 borderline rows")
    assert f"up to about {3 * NOTE_WORK / OPERATIONS_PER_SECOND:.3g} s" in err
    monkeypatch.setenv("POSREAL_MAX_WORK", str(2 * NOTE_WORK))
    with pytest.raises(ResourceError):
        require(Estimate(0, "certifying 9 borderline rows", 3 * NOTE_WORK))
    assert capsys.readouterr().err == ""


def test_the_issues_huge_width_is_refused_before_any_work(capsys: pytest.CaptureFixture,
                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    """R3: ``alpha --pe xpos:1000000 --task copy --lengths 32`` took 132 s and 2.8 GB; its estimate (the working
    set of constraint generation × p = 10^6) now refuses it in one line before any feature is computed."""
    from posreal.theory import alpha
    called: list[int] = []
    select = alpha.select
    monkeypatch.setattr(alpha, "select", lambda *a, **k: called.append(1) or select(*a, **k))
    assert main(["alpha", "--pe", "xpos:1000000", "--task", "copy", "--lengths", "32", "--json"]) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and captured.err.count("\n") == 1 and "refused" in captured.err and called == []
    assert main(["alpha", "--pe", "xpos:1000", "--task", "copy", "--lengths", "32", "--json"]) == 0   # control
    assert called == [1]
    capsys.readouterr()
