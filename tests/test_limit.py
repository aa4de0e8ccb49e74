"""α♯_L (the predicted limit of gradient descent), the log-time gradient flow, their CLI, their use in
certificates and in the conjecture search, and the checks of the claim conjecture-limit."""

from __future__ import annotations

import json
import math
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest
from scipy.integrate import solve_ivp

from posreal.checks.base import COUNTEREXAMPLE, PASSED, PROVED
from posreal.checks.limit_checks import Tally, compare_case, certificate_cases, wrong_multiplicities
from posreal.cli import build_parser, main
from posreal.counterexamples.designed import LOG2_TIE, ORTHOGONAL_TIE
from posreal.counterexamples.verifier.verify import VERIFIED, verify_file
from posreal.theory import compute_alpha, parse_pe, parse_task, select
from posreal.theory.errors import SpecError
from posreal.theory.flow import (DRIFT_TOL, Agreement, FlowVerdict, compare, flow_verdict, row_flow_verdict,
                                 tie_flow)
from posreal.theory.limit import (LimitVerdict, UndecidedReason, limit_interval, open_tie_limit, predict,
                                  prediction_context)
from posreal.theory.sampling import instance, registered
from posreal.theory.statements import REFUTED, statement
from posreal.theory.ties import classify

ROOT = Path(__file__).resolve().parents[1]
CERTS = ROOT / "counterexamples" / "certificates"
TABLE_FAMILIES = ("relative", "column", "general")
LOG2_TABLE = {"kind": "relative", "rows": [[0, 0, 0], [-1, 0, 0], [0, -1, 0], [-1, 1, -1]]}
HIDDEN = (345, 383, 649, 776, 848, 1579)   # seed 2 table instances with decided open ties (not used elsewhere)


def _limit(inst, length=None):
    with registered(inst):
        pe, task = parse_pe(inst.pe), parse_task(inst.task)
        sel = select(pe, task, inst.train_length)
        return pe, task, sel, limit_interval(pe, task, sel, length or inst.length)


# --------------------------------------------------------------------------- α♯ itself
def test_designed_open_tie_limit_is_one_while_alpha_is_three_quarters():
    _, _, _, sharp = _limit(LOG2_TIE)
    assert (sharp.low, sharp.high) == (1, 1) and sharp.undecided == 0
    (row,) = sharp.rows
    assert row.cls == "open_tie" and row.verdict is LimitVerdict.WON
    assert row.rivals[0].prediction is not None and row.rivals[0].prediction.sign == 1


def test_orthogonal_tie_is_lost():
    _, _, _, sharp = _limit(ORTHOGONAL_TIE)
    assert [r.cls for r in sharp.rows] == ["orthogonal_tie"] and sharp.rows[0].verdict is LimitVerdict.LOST
    assert sharp.low == sharp.high == Fraction(sharp.realized, sharp.total)


def test_failed_hypothesis_leaves_the_row_undecided_with_its_reason():
    """seed 1 #1509 row 3: a training difference with ⟨θ*, z⟩ = 1 off the support."""
    _, _, _, sharp = _limit(instance(1, 1509))
    row = next(r for r in sharp.rows if r.row == 3)
    assert row.verdict is LimitVerdict.UNDECIDED and row.reason is UndecidedReason.HYPOTHESES
    assert "strict complementarity" in row.detail
    assert sharp.high - sharp.low == Fraction(sharp.undecided, sharp.total) > 0


def test_zero_limit_is_undecided():
    """An open tie whose predicted limit is exactly 0 (product = 1) is undecided, not won or lost."""
    pe, task, sel, _ = _limit(LOG2_TIE)
    with registered(LOG2_TIE):
        cls = classify(pe, task, sel, 4)
    ctx = prediction_context(pe, task, sel)
    flat = type(ctx)(ctx.constraints, ctx.support, ctx.multipliers, [1 for _ in ctx.multiplicities])
    row = open_tie_limit(flat, cls.open_rows[0])
    assert row.verdict is LimitVerdict.UNDECIDED and row.reason is UndecidedReason.ZERO_LIMIT


@pytest.mark.parametrize("pe,task,L0,lengths,mode", [
    ("relbias", "position:0", 16, (32, 64), "exact"), ("alibi", "position:0", 8, (16, 40), "exact"),
    ("rope:16", "offset:1", 16, (32, 256), "float"), ("abscol:16", "position:0", 16, (64,), "float"),
])
def test_limit_is_alpha_when_no_open_tie(pe, task, L0, lengths, mode):
    result = compute_alpha(pe, task, L0, lengths, mode, limit=True)
    doc = result.to_json()
    for L in lengths:
        sharp = result.limits[L]
        assert sharp.low >= Fraction(sharp.realized, sharp.total)
        assert doc["limit_interval"][str(L)][0] == pytest.approx(float(sharp.low))
        if not any(r.cls == "open_tie" for r in sharp.rows) and sharp.undecided == 0:
            assert float(sharp.low) == pytest.approx(doc["alpha"][str(L)])


# --------------------------------------------------------------------------- CLI
def _table(tmp_path) -> str:
    path = tmp_path / "t.json"
    path.write_text(json.dumps(LOG2_TABLE))
    return f"table:{path}"


def test_cli_limit_json_on_the_designed_table(tmp_path, capsys):
    argv = ["alpha", "--pe", _table(tmp_path), "--task", "offset:0", "--train-length", "3", "--lengths", "4",
            "--limit", "--json"]
    assert main(argv) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["alpha"] == {"4": 0.75}
    assert doc["limit_interval"] == {"4": [1, 1]}
    assert doc["limit"]["4"]["open_ties_won"] == 1 and doc["limit"]["4"]["undecided_rows"] == []


@pytest.mark.subprocess
def test_cli_limit_as_a_subprocess(tmp_path):
    proc = subprocess.run([sys.executable, "-m", "posreal", "alpha", "--pe", _table(tmp_path), "--task", "offset:0",
                           "--train-length", "3", "--lengths", "4", "--limit"], capture_output=True, text=True,
                          cwd=ROOT, timeout=300, check=False)
    assert proc.returncode == 0, proc.stderr
    assert "α♯" in proc.stdout and "[1/1, 1/1]" in proc.stdout


def test_cli_limit_lists_undecided_rows(capsys, tmp_path):
    inst = instance(1, 1509)
    path = tmp_path / "u.json"
    path.write_text(json.dumps({"kind": inst.table_kind, "rows": json.loads(json.dumps(inst.table))}))
    spec = f"dual:table:{path}" if inst.pe.startswith("dual:") else f"table:{path}"
    assert main(["alpha", "--pe", spec, "--task", inst.task, "--train-length", str(inst.train_length),
                 "--lengths", str(inst.length), "--limit"]) == 0
    out = capsys.readouterr().out
    assert "undecided — hypotheses of the prediction fail" in out


def test_cli_limit_refuses_learned_and_other_geometries(capsys):
    assert main(["alpha", "--pe", "learned:8", "--task", "offset:0", "--limit"]) == 2
    err = capsys.readouterr().err.strip()
    assert "--limit" in err and "\n" not in err
    args = build_parser().parse_args(["alpha", "--pe", "relbias", "--task", "offset:1", "--limit"])
    args.geometry = "linf"      # what the geometry option will set
    with pytest.raises(SpecError, match="l2"):
        args.run(args)


def test_limit_lengths_are_bounded_and_unrealizable_cells_say_none(capsys):
    assert main(["alpha", "--pe", "relbias", "--task", "offset:1", "--lengths", "5000", "--limit"]) == 2
    err = capsys.readouterr().err.strip()
    assert "4096" in err and "\n" not in err
    assert main(["alpha", "--pe", "relbias", "--task", "reverse", "--limit", "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["realizable"] is False and set(doc["limit_interval"].values()) == {None}


# --------------------------------------------------------------------------- the log-time flow
def test_flow_verdict_needs_a_settled_drift():
    assert flow_verdict(0.5, DRIFT_TOL / 2) is FlowVerdict.WINS
    assert flow_verdict(-0.5, -DRIFT_TOL / 2) is FlowVerdict.LOSES
    assert flow_verdict(0.5, 2 * DRIFT_TOL) is FlowVerdict.UNDECIDED
    assert flow_verdict(DRIFT_TOL / 2, 0.0) is FlowVerdict.UNDECIDED
    assert row_flow_verdict([FlowVerdict.WINS, FlowVerdict.LOSES]) is FlowVerdict.LOSES
    assert row_flow_verdict([FlowVerdict.WINS, FlowVerdict.UNDECIDED]) is FlowVerdict.UNDECIDED
    assert compare(LimitVerdict.WON, FlowVerdict.LOSES) is Agreement.DISAGREES
    assert compare(LimitVerdict.UNDECIDED, FlowVerdict.LOSES) is Agreement.UNDECIDED


def test_flow_reaches_log_two_on_the_designed_tie():
    with registered(LOG2_TIE):
        pe, task = parse_pe(LOG2_TIE.pe), parse_task(LOG2_TIE.task)
        (ev,) = tie_flow(pe, task, 3, [[1.0, -1.0, 1.0]])
    assert ev.verdict is FlowVerdict.WINS and abs(ev.value - math.log(2)) < 1e-8


def test_flow_reaches_the_slow_limit_that_gradient_descent_misses():
    """seed 1 #1286 row 4: 20 000 gradient-descent steps stop near -0.43; the limit -1.806 needs τ ≈ 300."""
    inst = instance(1, 1286)
    pe, task, sel, _ = _limit(inst)
    with registered(inst):
        row = next(r for r in classify(pe, task, sel, inst.length).open_rows if r.row == 4)
        pred = predict(pe, task, sel, row.rivals[0].direction)
        (ev,) = tie_flow(pe, task, inst.train_length, [[float(x) for x in row.rivals[0].direction]])
    assert pred is not None and pred.sign == -1
    assert ev.tau >= 250 and abs(ev.value - pred.value) < 1e-3 and ev.verdict is FlowVerdict.LOSES


# --------------------------------------------------------------------------- an independent flow
def _targets(task: str, n: int) -> dict[int, int]:
    """Rows and targets of the registry tasks, written from their definitions (not from theory.tasks)."""
    if task.startswith("dual:"):
        return {i: i - t for i, t in _targets(task[5:], n).items()}
    h = n // 2
    if task.startswith("offset:"):
        c = int(task[7:])
        return {i: i - c for i in range(c, n)}
    if task.startswith("position:"):
        p = int(task[9:])
        return {i: p for i in range(p, n)}
    rules = {"copy": lambda: {i: i - h for i in range(h, n)}, "middle": lambda: {i: h for i in range(h, n)},
             "reverse": lambda: {i: n - 1 - i for i in range((n + 1) // 2, n)},
             "half": lambda: {i: i // 2 for i in range(n)}}
    return rules[task]()


def _feature(kind: str, table, dual: bool, i: int, j: int) -> np.ndarray:
    if dual:
        j = i - j
    if kind == "relative":
        return np.asarray(table[i - j], dtype=float)
    if kind == "column":
        return np.asarray(table[j], dtype=float)
    return np.asarray(table[i][j], dtype=float)


def _independent_limit(inst, row: int, rivals: list[int]) -> list[float]:
    """lim ⟨θ, ψ(row, t) - ψ(row, j)⟩ by a separate log-time flow: numpy features, scipy BDF, τ = 400."""
    dual = inst.pe.startswith("dual:")
    L0 = inst.train_length
    train = _targets(inst.task, L0)
    z = [_feature(inst.table_kind, inst.table, dual, i, t) - _feature(inst.table_kind, inst.table, dual, i, j)
         for i, t in train.items() for j in range(i + 1) if j != t]
    rows_of = [i for i, t in train.items() for j in range(i + 1) if j != t]
    Z = np.asarray(z)                                                   # (pairs, p)
    groups = [g for g in (np.flatnonzero(np.asarray(rows_of) == i) for i in train) if g.size]

    def field(tau, theta):
        out = np.zeros_like(theta)
        for g in groups:   # row i: e^τ softmax weights of the rivals, target logit 0 after shifting
            m = -(Z[g] @ theta)                                          # κ_j - κ_t
            top = max(0.0, float(m.max()))
            lse = top + np.log(np.exp(-top) + np.exp(m - top).sum())
            out += (np.exp(tau + m - lse)[:, None] * Z[g]).sum(axis=0)
        return out

    theta = solve_ivp(lambda t, th: field(0.0, th), (0, 1), np.zeros(Z.shape[1]), method="BDF",
                      rtol=1e-10, atol=1e-12).y[:, -1]
    theta = solve_ivp(field, (0, 400), theta, method="BDF", rtol=1e-10, atol=1e-12).y[:, -1]
    n = inst.length
    t = _targets(inst.task, n)[row]
    psi_t = _feature(inst.table_kind, inst.table, dual, row, t)
    return [float(theta @ (psi_t - _feature(inst.table_kind, inst.table, dual, row, j))) for j in rivals]


@pytest.mark.parametrize("index", HIDDEN)
def test_limit_agrees_with_an_independent_flow_on_hidden_instances(index):
    inst = instance(2, index, TABLE_FAMILIES)
    *_, sharp = _limit(inst)
    decided = [r for r in sharp.rows if r.cls == "open_tie" and r.verdict is not LimitVerdict.UNDECIDED]
    assert decided, "the instance has no decided open tie"
    for row in decided:
        values = _independent_limit(inst, row.row, [r.rival for r in row.rivals])
        if row.verdict is LimitVerdict.WON:
            assert min(values) > 1e-3, values
        else:
            lost = [v for v, r in zip(values, row.rivals) if r.prediction is not None and r.prediction.sign < 0]
            assert lost and max(lost) < -1e-3, values
        for value, rival in zip(values, row.rivals):
            if rival.prediction is not None:
                assert value == pytest.approx(rival.prediction.value, abs=1e-3)


# --------------------------------------------------------------------------- the comparison check
def test_comparison_on_the_certificates_agrees_and_its_control_disagrees():
    tally, control = Tally(), Tally()
    rows = sum(compare_case(c, tally, control) for c in certificate_cases())
    assert rows == len(certificate_cases()) >= 10
    assert tally.disagrees == 0 and tally.agrees >= 7
    assert control.disagrees >= 1 and "open_tie_designed_log2.json row 3" in control.disagreements


def test_wrong_multiplicities_flip_the_designed_row():
    pe, task, sel, _ = _limit(LOG2_TIE)
    with registered(LOG2_TIE):
        row = classify(pe, task, sel, 4).open_rows[0]
    assert open_tie_limit(wrong_multiplicities(prediction_context(pe, task, sel)), row).verdict is LimitVerdict.LOST


def test_check_runner_has_the_new_claim_with_controls():
    from posreal.checks.runner import run_claims
    (report,) = run_claims(["conjecture-limit"], skip_slow=True)
    methods = {r.method for r in report.results}
    assert {"symbolic", "property"} <= methods and report.skipped and "dynamics" in report.skipped[0]
    assert all(r.verdict in (PROVED, PASSED) and r.negative_control == COUNTEREXAMPLE for r in report.results)
    assert statement("conjecture").status == REFUTED


# --------------------------------------------------------------------------- certificates and search
def test_old_gradient_descent_evidence_still_verifies():
    """Evidence is not a claim: a certificate with the earlier gradient-descent evidence verifies."""
    (verdict,) = verify_file(ROOT / "tests" / "data" / "open_tie_gd_evidence_v1.json")
    assert verdict.verdict == VERIFIED
    assert main(["verify", str(ROOT / "tests" / "data" / "open_tie_gd_evidence_v1.json")]) == 0


def test_shipped_open_tie_evidence_is_the_log_time_flow():
    for path in sorted(CERTS.glob("open_tie_*.json")):
        ev = json.loads(path.read_text())["evidence"]
        for flow in ev["gradient_flow"]:
            assert {"tau", "value", "drift", "verdict", "tolerance"} <= set(flow)
            if flow["verdict"] != "undecided":
                assert abs(flow["drift"]) <= flow["tolerance"] < abs(flow["value"])
        assert ev["agreement"] in ("agrees", "undecided"), path.name


def test_search_reports_every_open_tie_with_three_verdicts(capsys):
    assert main(["search", "conjecture", "--seed", "1", "--budget", "100", "--families", "relative,column,general",
                 "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    s = doc["summary"]
    n = sum(s["open_tie_evidence"].values())
    assert n > 0 and sum(s["open_tie_limit_verdicts"].values()) == n == sum(s["open_tie_agreement"].values())


def test_search_exits_1_and_certifies_a_counterexample_to_conjecture_prime(tmp_path, monkeypatch, capsys):
    """With α♯ computed from wrong multiplicities, the evidence contradicts it: exit 1, certificate written."""
    import posreal.counterexamples.conjecture as conj
    real = conj.prediction_context
    monkeypatch.setattr(conj, "prediction_context", lambda *a: wrong_multiplicities(real(*a)))
    code = main(["search", "conjecture", "--seed", "1", "--budget", "169", "--families", "relative", "--json",
                 "--certify", str(tmp_path)])     # relative #168 of seed 1 has a decided open tie
    doc = json.loads(capsys.readouterr().out)
    assert {c["index"] for c in doc["summary"]["limit_counterexamples"]} == {168}
    assert code == 1 and doc["certificates"]
    assert all(v.verdict == VERIFIED for p in doc["certificates"] for v in verify_file(p))


def test_a_counterexample_to_conjecture_prime_is_certified_without_certify(tmp_path, monkeypatch, capsys):
    import posreal.counterexamples.conjecture as conj
    real = conj.prediction_context
    monkeypatch.setattr(conj, "prediction_context", lambda *a: wrong_multiplicities(real(*a)))
    out = tmp_path / "run.jsonl"
    code = main(["search", "conjecture", "--seed", "1", "--budget", "169", "--families", "relative", "--json",
                 "--out", str(out)])
    doc = json.loads(capsys.readouterr().out)
    assert code == 1 and doc["certificates"]
    assert all(Path(p).parent == tmp_path and Path(p).is_file() for p in doc["certificates"])
