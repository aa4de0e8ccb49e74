"""Numbers and records at the edge: one line and exit 2, never exit 70.

* table entries beyond half the largest double: float entries (±1e308, whose differences overflow) are refused
  when the table is built, in every mode; a rational table (an integer of 350 digits) is rescaled exactly by 2^-k,
  refused in one line in float and certified mode and decided in exact mode, with the α, margins and outcomes of
  the same table given at a small scale (the control); the tables at the bound are accepted;
* ``kerple-log:r`` has r in (0, 10^12] (r = 1e308 overflowed log(1 + r n)); the control: r = 10^12 runs;
* ``--scheduler tls://…`` without Dask's TLS settings is one line (it raised a TypeError);
* records of a resumed search are validated: an index of 10^300, a status of 5, a record that cannot
  be summarized are malformed lines; the control: the file as written resumes.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from posreal.cli import main
from posreal.counterexamples.search_runner import read_results, record_problem, search
from posreal.theory.errors import SpecError
from posreal.theory.pe_specs import parse_pe
from posreal.theory.published import MAX_KERPLE_R
from posreal.theory.tables import MAX_ENTRY_MAGNITUDE, build_table

ALPHA = ["alpha", "--task", "offset:1", "--train-length", "4", "--lengths", "8"]


def _table(tmp_path: Path, first: object, second: object) -> str:
    path = tmp_path / "t.json"
    rows = [[first], [second]] + [[k] for k in range(3, 10)]
    path.write_text(json.dumps({"kind": "relative", "rows": rows}), encoding="utf-8")
    return f"table:{path}"


@pytest.mark.parametrize("mode", [[], ["--exact"], ["--certified"]])
def test_float_entries_beyond_half_the_largest_double_are_one_line(tmp_path: Path, capsys: pytest.CaptureFixture,
                                                                   mode: list[str]) -> None:
    code = main([*ALPHA, "--pe", _table(tmp_path, 1e308, -1e308), *mode])
    err = capsys.readouterr().err
    assert code == 2 and err.count("\n") == 1 and "entry [0][0]" in err and "rescale the table" in err, err


@pytest.mark.parametrize(("first", "second"), [(10 ** 350, 1), (-(10 ** 309), 2)])
@pytest.mark.parametrize("mode", [[], ["--certified"]])
def test_a_rational_table_beyond_float_range_is_exact_mode_only(tmp_path: Path, capsys: pytest.CaptureFixture,
                                                                first: object, second: object,
                                                                mode: list[str]) -> None:
    code = main([*ALPHA, "--pe", _table(tmp_path, first, second), *mode])
    err = capsys.readouterr().err
    assert code == 2 and err.count("\n") == 1 and "exceed the float range" in err and "--exact" in err, err


def test_a_rational_table_beyond_float_range_keeps_its_exact_answer() -> None:
    """Every entry times 10^399: rescaled by 2^-k in ℚ, the same α, margins and outcomes as the table itself."""
    from posreal.theory.alpha import compute_alpha
    rows = [[0, 1], [1, 1], [2, -1], [0, 0], [3, 2], [1, 3], [2, 2]]
    huge = build_table("huge", [[x * 10 ** 399 for x in r] for r in rows], "relative")
    plain = build_table("plain", rows, "relative")
    assert huge.feature_scale < 1 and plain.feature_scale == 1
    a, b = (compute_alpha(t, "offset:1", 4, [6, 7], mode="exact") for t in (huge, plain))
    assert a.selection.realizable and b.selection.realizable
    for L in (6, 7):
        assert a.alpha(L) == b.alpha(L)
        assert list(a.outcomes[L].margins) == list(b.outcomes[L].margins)       # κ = ⟨2^k θ*, 2^-k ψ⟩ = ⟨θ*, ψ⟩
    with pytest.raises(SpecError, match="exceed the float range"):              # the control: not in float mode
        compute_alpha(huge, "offset:1", 4, [6])


def test_control_the_largest_accepted_entries_are_decided(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    """At the bound the differences stay finite: the cell is decided (exit 0), in float and in exact mode."""
    assert main([*ALPHA, "--pe", _table(tmp_path, MAX_ENTRY_MAGNITUDE, -MAX_ENTRY_MAGNITUDE)]) == 0
    assert main([*ALPHA, "--pe", _table(tmp_path, 10 ** 300, -(10 ** 300)), "--exact"]) == 0
    capsys.readouterr()


def test_the_bound_is_the_largest_magnitude_whose_differences_are_finite() -> None:
    import numpy as np
    assert np.isfinite(np.float64(MAX_ENTRY_MAGNITUDE) - np.float64(-MAX_ENTRY_MAGNITUDE))
    with np.errstate(over="ignore"):
        assert not np.isfinite(np.float64(np.nextafter(MAX_ENTRY_MAGNITUDE, np.inf)) * 2)
    build_table("edge", [[MAX_ENTRY_MAGNITUDE], [0.0]], "relative")
    with pytest.raises(SpecError, match="has a magnitude above"):
        build_table("edge", [[float(np.nextafter(MAX_ENTRY_MAGNITUDE, np.inf))], [0.0]], "relative")


def test_kerple_log_r_has_a_documented_range(capsys: pytest.CaptureFixture) -> None:
    assert main([*ALPHA, "--pe", "kerple-log:1e308"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "must be a number <= 1e+12" in err
    assert main([*ALPHA, "--pe", f"kerple-log:{MAX_KERPLE_R:g}"]) == 0              # control: the bound itself
    capsys.readouterr()
    with pytest.raises(SpecError):
        parse_pe("kerple-log:1000000000001")
    assert "10¹²" in (Path(__file__).resolve().parents[1] / "docs" / "cli.md").read_text(encoding="utf-8")


def test_a_tls_scheduler_without_tls_settings_is_one_line(capsys: pytest.CaptureFixture) -> None:
    pytest.importorskip("distributed")
    code = main(["search", "conjecture", "--budget", "1", "--scheduler", "tls://127.0.0.1:9", "--json"])
    captured = capsys.readouterr()
    assert code == 2 and captured.out == "" and captured.err.count("\n") == 1, captured
    assert "tls://" in captured.err and "internal error" not in captured.err


# ----------------------------------------------------------------------------- resumed search records
@pytest.fixture
def results(tmp_path: Path) -> Path:
    path = tmp_path / "r.jsonl"
    search(seed=3, budget=2, out=path, families=("registry",))
    return path


def _edited(path: Path, **fields: object) -> None:
    lines = path.read_text(encoding="utf-8").splitlines()
    record = json.loads(lines[1])
    record.update(fields)
    lines[1] = json.dumps(record)
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


@pytest.mark.parametrize(("fields", "words"), [({"index": 10 ** 300}, "index"), ({"index": -1}, "index"),
                                               ({"index": True}, "index"), ({"status": 5}, "status"),
                                               ({"status": "won"}, "status"),
                                               ({"status": "classified", "open_ties": [{"row": 1}]}, "summarized"),
                                               ({"classes": {"x": "many"}}, "summarized")])
def test_a_resumed_record_that_this_search_cannot_have_written_is_one_line(
        results: Path, capsys: pytest.CaptureFixture, fields: dict, words: str) -> None:
    _edited(results, **fields)
    code = main(["search", "conjecture", "--seed", "3", "--budget", "3", "--families", "registry", "--out",
                 str(results), "--resume", "--json"])
    err = capsys.readouterr().err
    assert code == 2 and err.count("\n") == 1 and "line 2" in err and words in err, err


def test_control_the_file_as_written_resumes(results: Path, capsys: pytest.CaptureFixture) -> None:
    assert all(record_problem(r) is None for r in read_results(results).records.values())
    assert main(["search", "conjecture", "--seed", "3", "--budget", "3", "--families", "registry", "--out",
                 str(results), "--resume", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["skipped_already_done"] == 2
