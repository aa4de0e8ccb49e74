"""The conjecture search: row classes, tie dynamics, reproducibility, resume, CLI."""

from __future__ import annotations

import json
import math
from fractions import Fraction

import numpy as np
import pytest

from posreal.theory.ties import classify
from posreal.counterexamples.conjecture import evaluate, registered, summarize
from posreal.counterexamples.search_runner import read_results, search
from posreal.counterexamples.designed import LOG2_TIE, ORTHOGONAL_TIE
from posreal.counterexamples.dynamics import WINS, limit_verdict, tie_margins
from posreal.theory.defaults import TAU_MAX
from posreal.theory.limit import predict
from posreal.theory.random_instances import FAMILIES, instance, registry_grid
from posreal.cli import main
from posreal.theory import compute_alpha, parse_pe, parse_task, select
from posreal.theory.errors import SpecError

TAU = 100.0  # log-time of the gradient-flow evidence in the quick searches


# --------------------------------------------------------------------------- classification
@pytest.mark.parametrize("pe,task,L0,L,mode", [
    ("relbias", "position:0", 16, 64, "exact"), ("alibi", "position:0", 8, 32, "exact"),
    ("colbias:2", "position:1", 8, 32, "exact"), ("rope:16", "offset:1", 16, 256, "float"),
    ("abscol:16", "position:0", 16, 64, "float"), ("abssin:2", "offset:1", 16, 64, "float"),
])
def test_classification_agrees_with_alpha(pe, task, L0, L, mode):
    pe_, task_ = parse_pe(pe), parse_task(task)
    sel = select(pe_, task_, L0)
    cls = classify(pe_, task_, sel, L)
    counts = compute_alpha(pe, task, L0, [L], mode).to_json()["rows"][str(L)]
    assert cls.realized == counts["realized"] and cls.total == counts["total"]
    assert cls.counts()["structural_tie"] == counts["structural_ties"]
    assert cls.counts()["undecided"] == counts["undecided"]
    assert len(cls.failing) == counts["failed"] + counts["undecided"]


def test_designed_log2_tie_is_open_and_won():
    """Hand derivation in posreal.counterexamples.designed: the tie margin tends to log 2 > 0."""
    with registered(LOG2_TIE):
        pe, task = parse_pe(LOG2_TIE.pe), parse_task(LOG2_TIE.task)
        sel = select(pe, task, 3)
        cls = classify(pe, task, sel, 4)
        assert cls.counts()["open_tie"] == 1 and cls.alpha == Fraction(3, 4)
        row = cls.open_rows[0]
        v = row.rivals[0].direction
        pred = predict(pe, task, sel, v)
        assert pred.sign == 1 and pred.coefficients == (1, -1) and pred.multiplicities == (2, 1)
        assert math.isclose(pred.value, math.log(2), rel_tol=1e-12)
        traj = tie_margins(pe, task, 3, [[float(x) for x in v]], 20000)
    verdict = limit_verdict(traj.steps, traj.margins[0])
    assert verdict["verdict"] == WINS
    # the residual converges like 1/k: at k = 2·10^4 it is within 10^-3 of log 2
    assert abs(verdict["estimate"] - math.log(2)) < 1e-3


def test_orthogonal_tie_stays_exactly_tied():
    with registered(ORTHOGONAL_TIE):
        pe, task = parse_pe(ORTHOGONAL_TIE.pe), parse_task(ORTHOGONAL_TIE.task)
        sel = select(pe, task, 2)
        cls = classify(pe, task, sel, 3)
        assert cls.counts()["orthogonal_tie"] == 1 and cls.counts()["open_tie"] == 0
        v = cls.failing[0].rivals[0].direction
        traj = tie_margins(pe, task, 2, [[float(x) for x in v]], 500)
    assert np.all(traj.margins == 0.0)


def test_evaluate_records_candidate_for_designed_tie():
    """evaluate registers the instance's table itself, and removes it afterwards."""
    with pytest.raises(SpecError, match="logtwo"):
        parse_pe(LOG2_TIE.pe)
    record = evaluate(LOG2_TIE)
    with pytest.raises(SpecError, match="logtwo"):
        parse_pe(LOG2_TIE.pe)
    assert record.candidate is True and record.alpha == "3/4"
    tie = record.open_ties[0]
    assert tie.evidence_verdict == "won" and tie.limit_verdict == "won" and tie.agreement == "agrees"
    assert tie.limit_evidence == "exact" and tie.sharp_verdict == "won"
    line = record.to_json()
    assert line["candidate"] is True and line["alpha"] == "3/4" and line["tau_max"] == TAU_MAX
    tie_line = line["open_ties"][0]
    assert tie_line["evidence_verdict"] == "won" and tie_line["limit_verdict"] == "won"
    assert tie_line["with_trajectory"] == {"verdict": "won", "evidence": "exact", "reason": None}
    assert tie_line["agreement"] == "agrees" and tie_line["alpha_verdict"] == "lost"
    assert line["limit_interval"] == ["1/1", "1/1"] and line["limit_counterexample"] is False


def test_limit_verdict_rules():
    steps = [1, 10, 100, 1000]
    assert limit_verdict(steps, [0.1, 0.5, 0.6, 0.62])["verdict"] == "wins"
    assert limit_verdict(steps, [0.1, 0.5, 0.9, 0.3])["verdict"] == "undecided"   # falling fast towards 0
    assert limit_verdict(steps, [-0.1, -0.5, -0.6, -0.7])["verdict"] == "loses"
    assert limit_verdict(steps, [0.1, 0.5, -0.1, 0.05])["verdict"] == "undecided"


# --------------------------------------------------------------------------- the stream
def test_instance_stream_is_a_function_of_seed_and_index():
    a = [instance(5, k).to_json() for k in range(12)]
    b = [instance(5, k).to_json() for k in reversed(range(12))][::-1]
    assert a == b
    assert [instance(6, k).to_json() for k in range(12)] != a
    assert {instance(5, k).family for k in range(8)} == set(FAMILIES)
    assert len(registry_grid()) == len(set(registry_grid()))


def _instances(path) -> list[str]:
    """The header and record lines (the run lines, with their times, left out)."""
    return [line for line in path.read_text().splitlines() if '"type": "run"' not in line]


def _run_lines(path) -> list[dict]:
    return [json.loads(line) for line in path.read_text().splitlines() if '"type": "run"' in line]


def test_same_seed_same_output(tmp_path):
    a, b = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    search(seed=3, budget=24, out=a, tau_max=TAU)
    search(seed=3, budget=24, out=b, tau_max=TAU)
    assert _instances(a) == _instances(b)
    head = json.loads(_instances(a)[0])
    assert head["seed"] == 3 and "numpy" in head["versions"]
    records = [json.loads(line) for line in _instances(a)[1:]]
    assert any(r.get("open_ties") or r.get("float_ties") for r in records), "no gradient descent compared"
    assert len(_instances(a)) == 25
    (run,) = _run_lines(a)           # the provenance of the one run: this process computed every instance
    assert run["evaluated"] == 24 and run["executor"]["executor"] == "in-process"
    assert run["executor"]["per_worker"] == [{"name": "client", "units": 24, "versions": run["executor"]["per_worker"]
                                              [0]["versions"]}]
    assert run["executor"]["per_worker"][0]["versions"]["numpy"] == head["versions"]["numpy"]


def test_resume_after_interruption_equals_uninterrupted(tmp_path):
    full, part = tmp_path / "full.jsonl", tmp_path / "part.jsonl"
    search(seed=4, budget=24, out=full, tau_max=TAU)
    search(seed=4, budget=9, out=part, tau_max=TAU)
    with open(part, "ab") as fh:                 # an interrupted write: half a line, no newline
        fh.write(b'{"index": 9, "family": "rel')
    run = search(seed=4, budget=24, out=part, resume=True, tau_max=TAU)
    assert run.skipped_done == 9 and run.evaluated == 15
    assert _instances(part) == _instances(full)
    assert [r["evaluated"] for r in _run_lines(part)] == [9, 15]
    records = read_results(part).records
    assert sorted(records) == list(range(24))
    assert any(r.get("open_ties") or r.get("float_ties") for r in records.values())
    assert summarize(records) == summarize(read_results(full).records)


def test_resume_refuses_other_parameters(tmp_path, capsys):
    path = tmp_path / "r.jsonl"
    search(seed=1, budget=4, out=path, tau_max=TAU)
    code = main(["search", "conjecture", "--seed", "2", "--budget", "8", "--out", str(path), "--resume", "--json"])
    assert code == 2 and "seed" in capsys.readouterr().err
    code = main(["search", "conjecture", "--seed", "1", "--budget", "8", "--out", str(path), "--json"])
    assert code == 2 and "--resume" in capsys.readouterr().err


def test_malformed_result_file_is_refused(tmp_path, capsys):
    path = tmp_path / "bad.jsonl"
    path.write_text('{"type": "header", "format": "posreal-conjecture-search"}\nnot json\n{"index": 1}\n')
    assert main(["search", "conjecture", "--budget", "3", "--out", str(path), "--resume", "--json"]) == 2
    err = capsys.readouterr().err.strip()
    assert "line 2" in err and "\n" not in err


def _one_line_error(capsys) -> str:
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "Traceback" not in err, err
    return err


def test_out_is_a_directory_is_refused(tmp_path, capsys):
    assert main(["search", "conjecture", "--budget", "1", "--out", str(tmp_path), "--json"]) == 2
    assert "is a directory" in _one_line_error(capsys)


def test_out_in_a_missing_directory_is_refused(tmp_path, capsys):
    path = tmp_path / "missing" / "d" / "x.jsonl"
    assert main(["search", "conjecture", "--budget", "1", "--out", str(path), "--json"]) == 2
    assert "does not exist" in _one_line_error(capsys)
    assert not path.parent.exists()


def test_resume_of_a_file_whose_first_line_is_not_an_object(tmp_path, capsys):
    path = tmp_path / "list.jsonl"
    path.write_text("[1]\n")
    assert main(["search", "conjecture", "--budget", "1", "--out", str(path), "--resume", "--json"]) == 2
    assert "first line is not" in _one_line_error(capsys)
    assert path.read_text() == "[1]\n"


def test_certify_that_is_a_file_is_refused_before_the_search(tmp_path, capsys):
    path = tmp_path / "hostname"
    path.write_text("not a directory")
    out = tmp_path / "r.jsonl"
    assert main(["search", "conjecture", "--budget", "1", "--out", str(out), "--certify", str(path), "--json"]) == 2
    assert "not a directory" in _one_line_error(capsys)
    assert not out.exists()   # refused before anything was searched or written


def test_foreign_file_is_not_overwritten(tmp_path, capsys):
    path = tmp_path / "notes.txt"
    path.write_text("my notes, no newline")
    assert main(["search", "conjecture", "--budget", "2", "--out", str(path), "--resume", "--json"]) == 2
    assert path.read_text() == "my notes, no newline"
    assert "not a posreal-conjecture-search file" in capsys.readouterr().err


def test_summary_counts_add_up(tmp_path):
    run = search(seed=0, budget=40, tau_max=TAU)
    summary = summarize(run.records)
    total = {c: sum(r.get("classes", {}).get(c, 0) for r in run.records.values()) for c in summary["failing_rows"]}
    assert total == summary["failing_rows"]
    assert sum(summary["status"].values()) == 40
    for r in run.records.values():
        if r.get("status") == "classified":
            failing = sum(r["classes"].values())
            assert r["realized"] + failing == r["rows"]


def test_cli_conjecture_json(tmp_path, capsys):
    out = tmp_path / "c.jsonl"
    code = main(["search", "conjecture", "--seed", "0", "--budget", "16", "--tau-max", str(TAU),
                 "--out", str(out), "--json"])
    doc = json.loads(capsys.readouterr().out)
    assert code == (1 if doc["summary"]["limit_counterexamples"] else 0)
    assert doc["seed"] == 0 and doc["summary"]["instances"] == 16 and "versions" in doc
    assert doc["instances_per_second"] > 0
    assert len(out.read_text().splitlines()) == 18      # header, 16 records, the run line
    assert doc["executor"]["executor"] == "in-process" and doc["executor"]["units"] == 16


def test_cli_bad_family(capsys):
    assert main(["search", "conjecture", "--families", "registry,bogus", "--budget", "2", "--json"]) == 2
    assert "bogus" in capsys.readouterr().err


def test_rope2_registry_float_tie_is_an_exact_tie():
    """The registry float candidate rope:2 · offset:1 (L0 = 8): θ* has support offsets {2, 7}, both
    tight, so θ* ⊥ f(2) - f(7); in 2-D, f(1) - f(8) ∥ f(2) - f(7) (chords symmetric about 4.5, proved
    by sympy), hence r(1) = r(8) exactly — the row-8 tie is real, not a rounding coincidence.  (The
    support itself comes from the float KKT evidence, here with every other slack ≥ 5.)"""
    import sympy as sp

    f = lambda d: sp.Matrix([sp.cos(d), sp.sin(d)])  # noqa: E731  rope:2 features, ω = 1
    a, b = f(1) - f(8), f(2) - f(7)
    assert sp.simplify(a[0] * b[1] - a[1] * b[0]) == 0
    sel = select("rope:2", "offset:1", 8)
    offsets = sorted(int(i - j) for i, _, j in sel.pairs[sel.support])
    assert offsets == [2, 7]
    slack = np.sort(sel.constraints @ sel.theta)
    assert np.allclose(slack[:2], 1.0) and slack[2] > 5
    cls = classify(parse_pe("rope:2"), parse_task("offset:1"), sel, 16)
    tied = [r.row for r in cls.failing if r.cls == "undecided"]
    assert tied == list(range(8, 14)) and all(r.rivals[0].rival == r.row - 8 for r in cls.failing if r.row in tied)


@pytest.mark.subprocess
def test_a_process_pool_writes_the_records_of_one_process(tmp_path):
    """--jobs 2: units of 3 indices on two spawned processes; the same record set as in process (the
    lines may come in another order), the run line names the pool, and an exhaustive pass through
    the pool has the same summary as in process."""
    from posreal.counterexamples.families import parse_family
    from posreal.counterexamples.search_runner import exhaustive
    from posreal.runtime.executors import local
    one, two = tmp_path / "one.jsonl", tmp_path / "two.jsonl"
    search(seed=2, budget=24, out=one, tau_max=TAU)
    run = search(seed=2, budget=24, out=two, tau_max=TAU, executor=local(2), chunk=3)
    as_set = lambda path: {line for line in _instances(path)[1:]}
    assert len(as_set(two)) == 24 and as_set(one) == as_set(two)
    (line,) = _run_lines(two)
    assert line["executor"]["executor"] == "processes" and line["executor"]["workers"] == 2
    assert line["executor"]["units"] == 8 and run.executor == line["executor"]
    family = parse_family("relative:3x1:-1..1:offset:1,copy")
    pooled = exhaustive(family, tau_max=TAU, chunk=5, executor=local(2))
    assert pooled.complete and pooled.summary == exhaustive(family, tau_max=TAU).summary
# --------------------------------------------------------------------------- file version 2
V2_RECORD = {   # a record as file version 2 wrote it: no kinds of evidence, flow verdicts spelled wins / loses
    "index": 7, "family": "relative", "pe": "cxr1x7", "task": "offset:1", "train_length": 3, "length": 5,
    "status": "classified", "realizable": True, "exact": True, "rows": 4, "realized": 2, "alpha": "1/2",
    "classes": {"strict_misrank": 0, "structural_tie": 0, "orthogonal_tie": 0, "open_tie": 2, "undecided": 0},
    "limit_interval": ["3/4", "1/1"], "float_ties": [], "candidate": True, "float_candidate": False,
    "limit_counterexample": False,
    "open_ties": [
        {"row": 3, "target": 2, "rivals": [], "alpha_verdict": "lost", "limit_verdict": "won", "limit_reason": None,
         "evidence_verdict": "wins", "limit_estimate": 0.3, "agreement": "agrees"},
        {"row": 4, "target": 3, "rivals": [], "alpha_verdict": "lost", "limit_verdict": "undecided",
         "limit_reason": "hypotheses of the prediction fail", "evidence_verdict": "loses", "limit_estimate": -0.2,
         "agreement": "undecided"}]}


def test_a_version_2_record_is_summarized_as_closed_forms_in_q():
    s = summarize({7: V2_RECORD})
    assert s["open_tie_evidence"] == {"won": 1, "lost": 1, "undecided": 0}
    assert s["open_tie_by_evidence"] == {"exact": {"won": 1, "lost": 0, "undecided": 0},
                                         "undecided": {"won": 0, "lost": 0, "undecided": 1}}
    assert s["open_tie_with_trajectory"] == s["open_tie_by_evidence"]
    assert s["open_tie_reasons"] == {"hypotheses of the prediction fail": 1}
    assert s["decided_in_closed_form"] == 0.5 and [c["index"] for c in s["candidates"]] == [7]
    assert s["undecided_rows"][0]["reason"] == "hypotheses of the prediction fail"


def test_a_version_2_file_is_read_but_not_resumed(tmp_path, capsys):
    path = tmp_path / "old.jsonl"
    head = {"type": "header", "format": "posreal-conjecture-search", "version": 2, "seed": 1,
            "families": list(FAMILIES), "tau_max": 600.0}
    path.write_text(json.dumps(head) + "\n" + json.dumps(V2_RECORD) + "\n")
    found = read_results(path)
    assert found.head["version"] == 2 and summarize(found.records)["open_tie_evidence"]["won"] == 1
    assert main(["search", "conjecture", "--seed", "1", "--budget", "2", "--out", str(path), "--resume",
                 "--json"]) == 2
    assert "version" in capsys.readouterr().err
