"""The exhaustive search mode: finite table families (posreal.counterexamples.families) enumerated
in index order, chunk summaries that add up to the summary of every record, resume, hostile files,
and ``posreal search conjecture --family SPEC --exhaustive``."""

from __future__ import annotations

import itertools
import json
from pathlib import Path

import pytest

from posreal.cli import main
from posreal.counterexamples.conjecture import evaluate, summarize
from posreal.counterexamples.families import parse_family
from posreal.counterexamples.search_runner import exhaustive, merge_summaries, read_results
from posreal.theory.errors import PosrealError, SpecError
from posreal.theory.random_instances import TABLE_TASKS

TAU = 100.0
SMALL = "relative:3x1:-1..1:offset:1,copy,dual:position:0"     # 27 tables × 3 tasks × 1 length pair


# --------------------------------------------------------------------------- families
def test_family_enumerates_every_table_in_index_order():
    family = parse_family(SMALL)
    assert str(family) == SMALL and family.pairs == ((2, 3),)
    assert family.size == 3 ** 3 * 3 * 1 == 81
    seen = [family.instance(k) for k in range(family.size)]
    # index order: the table changes slowest (lexicographic over its entries), the task next
    expected = [(tuple((a,) for a in t), task) for t in itertools.product((-1, 0, 1), repeat=3)
                for task in ("offset:1", "copy", "dual:position:0")]
    assert [(i.table, i.task) for i in seen] == expected
    assert {(i.train_length, i.length, i.table_kind) for i in seen} == {(2, 3, "relative")}
    assert len({i.pe for i in seen}) == family.size


def test_family_defaults_and_sizes():
    family = parse_family("relative:3x4:-2..2")
    assert family.tasks == TABLE_TASKS and str(family) == "relative:3x4:-2..2"
    assert family.size == 5 ** 12 * len(TABLE_TASKS)
    four = parse_family("column:4x2:0..1:copy")
    assert four.pairs == ((2, 3), (2, 4), (3, 4)) and four.size == 2 ** 8 * 3
    general = parse_family("general:3x1:0..1:copy")
    assert general.entries == 6 and general.size == 2 ** 6
    last = general.table(general.tables - 1)
    assert last == (((1,), (0,), (0,)), ((1,), (1,), (0,)), ((1,), (1,), (1,)))   # zero above the diagonal


@pytest.mark.parametrize("text", ["relative", "relative:3x4", "cosine:3x4:-1..1", "relative:2x4:-1..1",
                                  "relative:3x0:-1..1", "relative:3x4:1..1", "relative:3x4:-10..1",
                                  "relative:3x4:-1..1:bogus", "relative:3x4:-1..1:copy,copy",
                                  "relative:12x8:-9..9", "relative:3xx:-1..1", "relative:3x4:a..b"])
def test_bad_family_is_a_one_line_error(text):
    with pytest.raises(SpecError) as err:
        parse_family(text)
    assert "\n" not in str(err.value) and "accepted" in str(err.value)


def test_instance_index_out_of_range():
    family = parse_family(SMALL)
    for k in (-1, family.size, True):
        with pytest.raises(SpecError):
            family.instance(k)


# --------------------------------------------------------------------------- the pass
def _direct(family_text: str) -> dict:
    """The summary of every instance evaluated one by one, without chunks or files."""
    family = parse_family(family_text)
    return summarize({k: evaluate(family.instance(k), TAU).to_json() for k in range(family.size)})


def test_merge_adds_counts_and_concatenates_lists():
    a = {"n": 1, "d": {"x": 2}, "l": [1], "only_a": 5}
    b = {"n": 3, "d": {"x": 4, "y": 1}, "l": [2]}
    assert merge_summaries(a, b) == {"n": 4, "d": {"x": 6, "y": 1}, "l": [1, 2], "only_a": 5}
    with pytest.raises(SpecError):
        merge_summaries({"n": 1}, {"n": "x"})


def test_exhaustive_pass_equals_the_direct_summary(tmp_path):
    direct = _direct(SMALL)
    assert direct["instances"] == 81 and len(direct["status"]) >= 2     # not a trivial family
    out = tmp_path / "e.jsonl"
    run = exhaustive(parse_family(SMALL), out=out, tau_max=TAU, chunk=10)
    assert run.complete and run.done == 81 and run.evaluated == 81
    assert run.summary == direct
    found = read_results(out)
    assert sorted((c["start"], c["stop"]) for c in found.chunks) == [(s, min(s + 10, 81)) for s in range(0, 81, 10)]
    assert found.head["family"] == SMALL and found.head["size"] == 81 and len(found.runs) == 1
    other = exhaustive(parse_family(SMALL), tau_max=TAU, chunk=81)        # other chunks, same counts
    assert other.summary == direct


def test_time_budget_and_resume_complete_the_pass(tmp_path):
    out = tmp_path / "e.jsonl"
    family = parse_family(SMALL)
    first = exhaustive(family, out=out, tau_max=TAU, chunk=7, seconds=1e-9)   # stops before the first unit
    assert not first.complete and first.done == 0 and first.summary is None
    part = exhaustive(family, out=out, tau_max=TAU, chunk=7, resume=True, seconds=0.5)
    lines = out.read_text().splitlines()
    chunks = [i for i, line in enumerate(lines) if '"type": "chunk"' in line]
    # a killed client: the last chunk line cut in half (dropped on resume and computed again)
    out.write_text("\n".join(lines[:chunks[-1]]) + "\n" + lines[chunks[-1]][:40] if chunks else "\n".join(lines))
    kept = sum(c["stop"] - c["start"] for c in read_results(out).chunks)
    assert kept < part.done or not chunks           # the cut chunk is no longer counted
    rest = exhaustive(family, out=out, tau_max=TAU, chunk=13, resume=True)
    assert rest.complete and rest.summary == _direct(SMALL)
    assert rest.evaluated == 81 - kept and rest.done == 81
    starts = sorted((c["start"], c["stop"]) for c in read_results(out).chunks)
    assert all(a[1] == b[0] for a, b in zip(starts, starts[1:])) and starts[0][0] == 0 and starts[-1][1] == 81
    assert len(read_results(out).runs) == 2          # the cut-off run left no run line (killed)


def test_overlapping_chunks_are_refused(tmp_path):
    out = tmp_path / "e.jsonl"
    family = parse_family(SMALL)
    exhaustive(family, out=out, tau_max=TAU, chunk=40)
    lines = out.read_text().splitlines()
    chunk = json.loads(next(line for line in lines if '"type": "chunk"' in line))
    chunk["start"], chunk["stop"] = 5, 45
    out.write_text("\n".join(lines + [json.dumps(chunk)]) + "\n")
    with pytest.raises(PosrealError, match="overlaps"):
        exhaustive(family, out=out, tau_max=TAU, resume=True)


def test_resume_with_another_family_is_refused(tmp_path):
    out = tmp_path / "e.jsonl"
    exhaustive(parse_family(SMALL), out=out, tau_max=TAU, chunk=81)
    with pytest.raises(PosrealError, match="family"):
        exhaustive(parse_family("relative:3x1:-1..1:copy"), out=out, tau_max=TAU, resume=True)


# --------------------------------------------------------------------------- the command line
def test_cli_exhaustive_reports_every_instance(tmp_path, capsys):
    out = tmp_path / "e.jsonl"
    argv = ["search", "conjecture", "--family", SMALL, "--exhaustive", "--tau-max", str(TAU), "--out", str(out)]
    code = main(argv + ["--json"])
    doc = json.loads(capsys.readouterr().out)
    assert code == (1 if doc["summary"]["limit_counterexamples"] else 0)
    assert doc["complete"] and doc["done"] == doc["size"] == 81
    assert doc["verdict"] == f"every instance of {SMALL} evaluated"
    assert doc["summary"] == _direct(SMALL) and doc["executor"]["executor"] == "in-process"
    assert main(argv + ["--resume"]) == code        # nothing left: the text report of the whole family
    text = capsys.readouterr().out
    assert text.startswith(f"every instance of {SMALL} evaluated: 81 instances (0 evaluated now")


@pytest.mark.parametrize("argv,needle", [
    (["--exhaustive"], "without --family"),
    (["--family", SMALL], "without --exhaustive"),
    (["--family", SMALL, "--exhaustive", "--seed", "2"], "--seed with --exhaustive"),
    (["--family", SMALL, "--exhaustive", "--budget", "2"], "--budget with --exhaustive"),
    (["--family", "relative:3x4", "--exhaustive"], "invalid family"),
])
def test_cli_exhaustive_usage_errors(argv, needle, capsys):
    assert main(["search", "conjecture", *argv]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and needle in err


# --------------------------------------------------------------------------- the committed passes
ROOT = Path(__file__).resolve().parents[1]
PASSES = ROOT / "docs" / "data" / "search"
COMMITTED = ("relative-3x3-exhaustive.json", "relative-4x2-exhaustive.json")
PAGE = ROOT / "docs" / "cluster.md"


@pytest.mark.parametrize("name", COMMITTED)
def test_a_committed_exhaustive_pass_is_complete_and_consistent(name):
    doc = json.loads((PASSES / name).read_text())
    family = parse_family(doc["family"])
    summary = doc["summary"]
    assert doc["complete"] and doc["size"] == family.size == doc["done"] == summary["instances"] >= 10 ** 5
    assert doc["verdict"] == f"every instance of {family} evaluated"
    assert sum(summary["status"].values()) == family.size
    # offset:2 scores no row at L0 = 2 (and every other task does): the pairs with L0 = 2, one task in nine
    assert summary["status"]["skipped"] == family.tables * sum(L0 == 2 for L0, _ in family.pairs)
    ev, lim, agr = summary["open_tie_evidence"], summary["open_tie_limit_verdicts"], summary["open_tie_agreement"]
    assert sum(ev.values()) == sum(lim.values()) == sum(agr.values()) == summary["failing_rows"]["open_tie"]
    decided = agr["agrees"] + agr["disagrees"]          # rows that both α♯'s closed forms and the flow decide
    assert decided <= lim["won"] + lim["lost"] and decided <= sum(ev.values()) - ev["undecided"]
    assert len(summary["candidates"]) == summary["families"][str(family)]["candidates"]
    assert not summary["limit_counterexamples"]
    # each instance was evaluated once over the runs, each run on Dask with workers of one environment
    assert sum(r["evaluated"] for r in doc["runs"]) == family.size
    hashes = set()
    for run in doc["runs"]:
        ex = run["executor"]
        assert ex["executor"] == "dask" and ex["workers"] == 2
        assert ex["units"] == sum(w["units"] for w in ex["per_worker"])
        assert all(w["versions"] == ex["per_worker"][0]["versions"] for w in ex["per_worker"])
        hashes |= {w["versions"]["posreal-source-sha256"] for w in ex["per_worker"]}
    assert len(hashes) == 1
    assert len((PASSES / name).read_bytes()) < 500_000                # the summary and its candidates, no record


def test_committed_hits_and_candidates_replay():
    small = json.loads((PASSES / COMMITTED[0]).read_text())
    assert small["hits"] == []                                          # no candidate, nothing to replay there
    doc = json.loads((PASSES / COMMITTED[1]).read_text())
    family = parse_family(doc["family"])
    candidates = doc["summary"]["candidates"]
    for c in (candidates[0], candidates[len(candidates) // 2], candidates[-1]):
        record = evaluate(family.instance(c["index"]), doc["tau_max"]).to_json()
        assert record["candidate"] and record["alpha"] == c["alpha"] and record["table"] == c["table"]
        (replayed,) = summarize({c["index"]: record})["candidates"]
        assert replayed.keys() == c.keys()                              # the pass ran on today's code
        for key, value in c.items():                                    # floats to 1e-9: last digits are the CPU's
            assert replayed[key] == (pytest.approx(value, rel=1e-9) if isinstance(value, float) else value), key


def _page_tables() -> dict[str, dict[str, list[str]]]:
    """The page's markdown tables: header cell -> {first cell -> other cells} (rows in order)."""
    tables: dict[str, dict[str, list[str]]] = {}
    current = None
    for line in PAGE.read_text().splitlines():
        if not line.startswith("|"):
            current = None
            continue
        cells = [c.strip() for c in line.split("|")[1:-1]]
        if current is None:
            current = tables.setdefault(cells[0], {"": cells[1:]})
        elif not cells[0].startswith("---"):
            current[cells[0]] = cells[1:]
    return tables


def test_the_cluster_page_states_the_committed_numbers():
    tables = _page_tables()
    small = json.loads((PASSES / COMMITTED[0]).read_text())
    s = small["summary"]
    rows = tables[small["family"]]
    assert rows[f"every instance of {small['family']} evaluated"] == [str(small["size"])]
    assert rows["not realizable at L0"] == [str(s["status"]["not realizable at L0"])]
    assert rows["classified (realizable at L0, every row of T_L θ* decided)"] == [str(s["status"]["classified"])]
    assert rows["skipped: `offset:2` scores no row at L0 = 2 (one task of nine, every table)"] == [
        str(s["status"]["skipped"])]
    for cls, n in s["failing_rows"].items():
        assert tables["failing-row class"][cls.replace("_", " ")] == [str(n)]
    big = json.loads((PASSES / COMMITTED[1]).read_text())
    b, family = big["summary"], big["family"]
    rows = tables[family]
    assert rows[f"every instance of {family} evaluated"] == [str(big["size"])]
    assert rows["classified"] == [str(b["status"]["classified"])]
    assert rows["not realizable at L0"] == [str(b["status"]["not realizable at L0"])]
    assert rows["skipped (`offset:2` at L0 = 2: one task of nine, two length pairs of three)"] == [
        str(b["status"]["skipped"])]
    for cls, n in b["failing_rows"].items():
        assert tables[f"failing-row class in {family}"][cls.replace("_", " ")] == [str(n)]
    ev, lim = b["open_tie_evidence"], b["open_tie_limit_verdicts"]
    rows = tables[f"the {b['failing_rows']['open_tie']} open-tie rows"]
    assert rows[""] == ["won", "lost", "undecided"]
    assert rows["α♯ (closed forms)"] == [str(lim[k]) for k in ("won", "lost", "undecided")]
    after = {k: sum(kind[k] for kind in b["open_tie_with_trajectory"].values()) for k in ("won", "lost", "undecided")}
    assert rows["α♯ with trajectory evidence"] == [str(after[k]) for k in ("won", "lost", "undecided")]
    assert rows["gradient flow, τ ≤ 600"] == [str(ev[k]) for k in ("won", "lost", "undecided")]
    text = " ".join(PAGE.read_text().split())
    assert f"{b['open_tie_agreement']['agrees']} agree, {b['open_tie_agreement']['disagrees']} disagree" in text
    assert f"The flow wins {ev['won']} open-tie rows" in text and f"{len(b['candidates'])} candidate" in text
