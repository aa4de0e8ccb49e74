"""α♯_L (the predicted limit of gradient descent): its decisions and their kinds of evidence, its prediction
context, its CLI, its use in certificates and in the conjecture search, an independent flow on hidden
instances, and the checks of the claim conjecture-limit."""

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

from posreal.checks.limit_checks import CONTROLS, Tally, compare_case, certificate_cases, wrong_multiplicities
from posreal.cli import build_parser, main
from posreal.counterexamples.designed import LOG2_TIE, ORTHOGONAL_TIE
from posreal.counterexamples.verifier.verify import VERIFIED, verify_file
from posreal.theory import compute_alpha, limit, parse_pe, parse_task, select
from posreal.theory.errors import SpecError
from posreal.theory.limit import (
    Evidence,
    LimitRow,
    LimitVerdict,
    Prediction,
    RivalLimit,
    UndecidedReason,
    combine,
    limit_interval,
    open_tie_limit,
    predict_in,
    prediction_context,
    with_trajectory,
)
from posreal.theory.random_instances import instance, registered
from posreal.theory.selection import Optimum, Selection
from posreal.theory.statements import REFUTED, statement
from posreal.theory.ties import classify

ROOT = Path(__file__).resolve().parents[1]
CERTS = ROOT / "counterexamples" / "certificates"
TABLE_FAMILIES = ("relative", "column", "general")
LOG2_TABLE = {"kind": "relative", "rows": [[0, 0, 0], [-1, 0, 0], [0, -1, 0], [-1, 1, -1]]}
HIDDEN = (345, 383, 649, 776, 848, 1579, 374,       # seed 2 table instances with decided open ties
          pytest.param(4406, marks=pytest.mark.slow))  # a certified max-entropy row: the plain BDF flow takes minutes


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


def test_forced_zero_multiplier_is_decided_by_the_second_level():
    """seed 1 #1509 row 3: a training difference with ⟨θ*, z⟩ = 1 off the support (no strict
    complementarity) — the old hypothesis fails, and the second level decides it in ℚ."""
    _, _, _, sharp = _limit(instance(1, 1509))
    row = next(r for r in sharp.rows if r.row == 3)
    assert row.verdict is LimitVerdict.WON and row.evidence is Evidence.EXACT
    (rival,) = row.rivals
    assert rival.prediction is None and "strict complementarity" in rival.reason and rival.level == 2


def test_trajectory_dependent_row_is_undecided_with_its_reason():
    """seed 1 #5 row 3: the tie directions leave the sum of the level spans."""
    _, _, _, sharp = _limit(instance(1, 5, TABLE_FAMILIES))
    row = next(r for r in sharp.rows if r.row == 3)
    assert row.verdict is LimitVerdict.UNDECIDED and row.reason is UndecidedReason.TRAJECTORY_DEPENDENT
    assert row.evidence is Evidence.UNDECIDED and "trajectory-dependent" in row.to_json()["reason"]
    assert sharp.high - sharp.low == Fraction(sharp.undecided, sharp.total) > 0


def test_zero_limit_is_undecided():
    """An open tie whose limit is exactly 0 (product = 1) and has no symmetry is undecided, not won or lost."""
    pe, task, sel, _ = _limit(LOG2_TIE)
    with registered(LOG2_TIE):
        cls = classify(pe, task, sel, 4)
        ctx = prediction_context(pe, task, sel)
    flat = type(ctx)(ctx.constraints, ctx.support, ctx.multipliers, [1 for _ in ctx.multiplicities],
                     theta=ctx.theta, weights=[1 for _ in ctx.weights], rows=ctx.rows)
    row = open_tie_limit(flat, cls.open_rows[0])
    assert row.verdict is LimitVerdict.UNDECIDED and row.reason is UndecidedReason.ZERO_LIMIT


def test_symmetric_row_is_lost_by_symmetry():
    """seed 1 #878 row 3: the closed form gives 0 and a signed permutation proves the margin stays 0."""
    _, _, _, sharp = _limit(instance(1, 878, ("relative", "column", "general")))
    row = next(r for r in sharp.rows if r.row == 3)
    assert row.verdict is LimitVerdict.LOST and row.evidence is Evidence.SYMMETRY
    assert row.rivals[0].symmetry is not None and row.to_json()["rivals"][0]["symmetry"]["perm"]


def test_row_verdicts_combine_rivals_by_their_evidence():
    def rival(v, e):
        return RivalLimit(0, None, verdict=v, evidence=e)
    won, lost, und = LimitVerdict.WON, LimitVerdict.LOST, LimitVerdict.UNDECIDED
    row = LimitRow(3, 2, "open_tie", und, rivals=[rival(won, Evidence.EXACT), rival(won, Evidence.CERTIFIED)])
    assert (combine(row).verdict, combine(row).evidence) == (won, Evidence.CERTIFIED)       # the weakest one
    row = LimitRow(3, 2, "open_tie", und, rivals=[rival(lost, Evidence.CERTIFIED), rival(lost, Evidence.EXACT)])
    assert (combine(row).verdict, combine(row).evidence) == (lost, Evidence.EXACT)          # the strongest one
    row = LimitRow(3, 2, "open_tie", und, rivals=[rival(won, Evidence.EXACT), rival(und, Evidence.UNDECIDED)])
    assert combine(row).verdict is und
    after = with_trajectory(row, [(won, {"x": 1}), (won, {"y": 2})])
    assert (after.verdict, after.evidence) == (won, Evidence.TRAJECTORY)
    assert after.rivals[0].evidence is Evidence.EXACT and after.rivals[1].trajectory == {"y": 2}
    assert with_trajectory(row, [(won, None), (und, None)]).verdict is und


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
    (row,) = doc["limit"]["4"]["rows"]
    assert (row["verdict"], row["evidence"], row["class"]) == ("won", "exact", "open_tie")
    assert doc["limit"]["4"]["by_evidence"] == {"exact": {"won": 4, "lost": 0, "undecided": 0}}
    assert doc["limit"]["4"]["evidence_kinds"]["certified"] == "closed form with a certified error bound"


@pytest.mark.subprocess
def test_cli_limit_as_a_subprocess(tmp_path):
    proc = subprocess.run([sys.executable, "-m", "posreal", "alpha", "--pe", _table(tmp_path), "--task", "offset:0",
                           "--train-length", "3", "--lengths", "4", "--limit"], capture_output=True, text=True,
                          cwd=ROOT, timeout=300, check=False)
    assert proc.returncode == 0, proc.stderr
    assert "α♯" in proc.stdout and "[1/1, 1/1]" in proc.stdout


def test_cli_limit_lists_undecided_rows(capsys, tmp_path):
    inst = instance(1, 5, TABLE_FAMILIES)
    path = tmp_path / "u.json"
    path.write_text(json.dumps({"kind": inst.table_kind, "rows": json.loads(json.dumps(inst.table))}))
    spec = f"dual:table:{path}" if inst.pe.startswith("dual:") else f"table:{path}"
    assert main(["alpha", "--pe", spec, "--task", inst.task, "--train-length", str(inst.train_length),
                 "--lengths", str(inst.length), "--limit"]) == 0
    out = capsys.readouterr().out
    assert "undecided — trajectory-dependent" in out and "rows by kind of evidence" in out


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


def _independent_limit(inst, row: int, rivals: list[int]) -> tuple[list[float], list[float]]:
    """⟨θ, ψ(row, t) - ψ(row, j)⟩ at τ = 200 and τ = 400 by a separate log-time flow: numpy features, scipy BDF."""
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
    sol = solve_ivp(field, (0, 400), theta, method="BDF", rtol=1e-10, atol=1e-12, t_eval=[200.0, 400.0])
    n = inst.length
    t = _targets(inst.task, n)[row]
    psi_t = _feature(inst.table_kind, inst.table, dual, row, t)
    vs = [psi_t - _feature(inst.table_kind, inst.table, dual, row, j) for j in rivals]
    return [float(sol.y[:, 0] @ v) for v in vs], [float(sol.y[:, 1] @ v) for v in vs]


@pytest.mark.parametrize("index", HIDDEN)
def test_limit_agrees_with_an_independent_flow_on_hidden_instances(index):
    """Finite limits: the independent flow's margin at τ = 400 is the closed form's value; log log t growth:
    its margin moves by ⟨θ_2, v⟩ log 2 from τ = 200 to τ = 400 (σ = log τ grows by log 2)."""
    inst = instance(2, index, TABLE_FAMILIES)
    pe, task, sel, sharp = _limit(inst)
    decided = [r for r in sharp.rows if r.cls == "open_tie" and r.verdict is not LimitVerdict.UNDECIDED]
    assert decided, "the instance has no decided open tie"
    with registered(inst):
        levels = prediction_context(pe, task, sel).levels()
        directions = {r.row: {v.rival: v.direction for v in r.rivals}
                      for r in classify(pe, task, sel, inst.length).open_rows}
    for row in decided:
        early, late = _independent_limit(inst, row.row, [r.rival for r in row.rivals])
        for a, b, rival in zip(early, late, row.rivals):
            if rival.level == 1 and rival.value is not None and rival.evidence is not Evidence.SYMMETRY:
                assert b == pytest.approx(rival.value, abs=1e-3)
            elif rival.level == 2:
                slope = float(sum(x * y for x, y in zip(levels.levels[1].theta, directions[row.row][rival.rival])))
                assert (b - a) / math.log(2.0) == pytest.approx(slope, abs=2e-2)
            if rival.verdict is LimitVerdict.LOST and rival.evidence is Evidence.SYMMETRY:
                assert abs(b) < 1e-8


# --------------------------------------------------------------------------- the comparison check
def test_comparison_on_the_certificates_agrees_and_its_control_disagrees():
    tally, controls = Tally(), [Tally() for _ in CONTROLS]
    rows = sum(compare_case(c, tally, controls) for c in certificate_cases())
    assert rows == len(certificate_cases()) >= 10
    assert tally.disagrees == 0 and tally.agrees >= 7
    assert controls[0].disagrees >= 1 and "open_tie_designed_log2.json row 3" in controls[0].disagreements


def test_wrong_multiplicities_flip_the_designed_row():
    pe, task, sel, _ = _limit(LOG2_TIE)
    with registered(LOG2_TIE):
        row = classify(pe, task, sel, 4).open_rows[0]
        ctx = prediction_context(pe, task, sel)
    assert open_tie_limit(wrong_multiplicities(ctx), row).verdict is LimitVerdict.LOST


def test_check_runner_has_the_new_claim_with_controls():
    """The runner registers symbolic, property and (slow) dynamics checks for conjecture-limit; their verdicts
    and controls are judged where every registered check runs, tests/test_claims.py."""
    from posreal.checks.runner import declared_checks
    table, _ = declared_checks()
    methods = {(c.method, c.slow) for c in table["conjecture-limit"]}
    assert {("symbolic", False), ("property", False), ("dynamics", True)} <= methods
    assert statement("conjecture").status == REFUTED


# --------------------------------------------------------------------------- certificates and search
def test_old_gradient_descent_evidence_still_verifies():
    """Evidence is not a claim: a certificate with the earlier gradient-descent evidence verifies."""
    (verdict,) = verify_file(ROOT / "tests" / "data" / "open_tie_gd_evidence_v1.json")
    assert verdict.verdict == VERIFIED
    assert main(["verify", str(ROOT / "tests" / "data" / "open_tie_gd_evidence_v1.json")]) == 0


def test_shipped_open_tie_evidence_is_a_settled_gradient_flow():
    for path in sorted(CERTS.glob("open_tie_*.json")):
        ev = json.loads(path.read_text())["evidence"]
        for flow in ev["gradient_flow"]:
            assert {"tau", "value", "drift", "verdict", "tolerance"} <= set(flow)
            decided = LimitVerdict.parse(flow["verdict"]) is not LimitVerdict.UNDECIDED
            if decided and flow.get("basis", "settled") == "settled":
                assert abs(flow["drift"]) <= flow["tolerance"] < abs(flow["value"])
        assert ev["agreement"] in ("agrees", "undecided"), path.name


def test_search_reports_every_open_tie_with_three_verdicts(capsys):
    assert main(["search", "conjecture", "--seed", "1", "--budget", "100", "--families", "relative,column,general",
                 "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    s = doc["summary"]
    n = sum(s["open_tie_evidence"].values())
    assert n > 0 and sum(s["open_tie_limit_verdicts"].values()) == n == sum(s["open_tie_agreement"].values())
    assert sum(sum(d.values()) for d in s["open_tie_by_evidence"].values()) == n
    assert sum(sum(d.values()) for d in s["open_tie_with_trajectory"].values()) == n
    assert s["open_tie_agreement"]["disagrees"] == 0
    assert 0 <= s["decided_in_closed_form"] <= s["decided_with_trajectory"] <= 1 and s["decided_with_trajectory"] > 0
    assert len(s["undecided_rows"]) == sum(s["open_tie_reasons_with_trajectory"].values())


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


# --------------------------------------------------------------------------- α♯ through compute_alpha
# Exists because a mutant survived: the refusal of α♯ in ℓ1/ℓ∞ could drop what is accepted.
def test_the_limit_with_another_geometry_is_refused_in_one_line():
    with pytest.raises(SpecError, match=r"^invalid geometry with limit=True 'linf'; accepted: l2 \(α♯ needs the "
                                        r"second-order term of gradient descent, derived for ℓ2 only\)$"):
        compute_alpha("alibi", "offset:0", 8, (16,), geometry="linf", limit=True)


# Exists because a mutant survived: the prediction context could be rebuilt at every length.
def test_the_limit_prediction_context_is_built_once_per_cell(monkeypatch):
    """The context (support, multipliers, multiplicities of θ*) depends on the cell only: ``compute_alpha``
    builds it once and hands it to ``limit_interval`` at every length."""
    calls = []
    original = limit.prediction_context

    def counting(*args, **kwargs):
        calls.append(args)
        return original(*args, **kwargs)

    monkeypatch.setattr(limit, "prediction_context", counting)
    result = compute_alpha("alibi", "position:0", 8, (16, 40), "exact", limit=True)
    assert sorted(result.limits) == [16, 40]
    assert len(calls) == 1


# ----------------------------------------------------------------------- the prediction context and its rows
# Exists because a mutant survived: the context of a selection without θ* was never built.
def test_prediction_context_without_exact_theta_is_empty():
    """No θ* at all (the selection was never realized): no support, so no λ_s and no n_s either."""
    from posreal.checks.limit_checks import wrong_multiplicities
    from posreal.theory.pe_specs import parse_pe
    from posreal.theory.limit import prediction_context
    from posreal.theory.tasks import parse_task

    pe, task = parse_pe("relbias"), parse_task("offset:0")
    sel = Selection(pe, task, 4, np.zeros((0, 4)), np.zeros((0, 3), dtype=int))
    ctx = prediction_context(pe, task, sel)
    assert ctx.failure == "no exact θ* (KKT certificate in ℚ)"
    assert (ctx.constraints, ctx.support, ctx.multipliers, ctx.multiplicities) == ([], [], [], [])
    assert wrong_multiplicities(ctx).multiplicities == []


# Exists because a mutant survived: the reason for a direction outside the support's span was unchecked.
def test_direction_outside_the_support_span_has_a_readable_reason():
    """With constraints e_0, e_1 and support {e_0}, v = e_1 is not in the support's span: the reason is given."""
    from posreal.theory.limit import PredictionContext, predict_in

    ctx = PredictionContext([(Fraction(1), Fraction(0)), (Fraction(0), Fraction(1))], [0], [Fraction(1)], [1])
    assert predict_in(ctx, [Fraction(0), Fraction(1)]) == "v's projection on col Zᵀ is not in the span of the support"


# Exists because a mutant survived: a prediction's support was unchecked.
def test_prediction_reports_its_support() -> None:
    """The prediction's support is the constraint indices with λ > 0 (re-derived from the exact
    optimum), in the order of its coefficients."""
    with registered(LOG2_TIE):
        pe, task = parse_pe(LOG2_TIE.pe), parse_task(LOG2_TIE.task)
        sel = select(pe, task, LOG2_TIE.train_length)
        (row,) = classify(pe, task, sel, LOG2_TIE.length).open_rows
        ctx = prediction_context(pe, task, sel)
    opt = sel.exact_optimum
    assert opt is not None
    support = tuple(sorted(k for k, lam in opt.multipliers.items() if lam > 0))
    out = predict_in(ctx, row.rivals[0].direction)
    assert isinstance(out, Prediction)
    assert out.support == support and len(out.support) == len(out.coefficients) == 2


# Exists because a mutant survived: the name of a failed independence hypothesis was unchecked.
def test_dependent_support_is_named_as_the_failed_hypothesis() -> None:
    """A KKT point with a dependent support: z = e_0, e_1 and (e_0 + e_1)/2 all tight at θ* = (1, 1, 0),
    with θ* = ½ e_0 + ½ e_1 + 1 · (e_0 + e_1)/2 (every λ > 0).  The independence hypothesis fails, and
    that reason is what every prediction returns."""
    half = Fraction(1, 2)
    zq = [(Fraction(1), Fraction(0), Fraction(0)), (Fraction(0), Fraction(1), Fraction(0)),
          (half, half, Fraction(0))]
    lam = {0: half, 1: half, 2: Fraction(1)}
    theta = [Fraction(1), Fraction(1), Fraction(0)]
    assert all(sum(lam[k] * zq[k][c] for k in lam) == theta[c] for c in range(3))   # stationarity
    assert all(sum(a * b for a, b in zip(z, theta)) == 1 for z in zq)                 # every constraint tight
    with registered(LOG2_TIE):
        pe, task = parse_pe(LOG2_TIE.pe), parse_task(LOG2_TIE.task)
        sel = Selection(pe, task, LOG2_TIE.train_length, np.array(zq, dtype=float), np.zeros((3, 3), dtype=int))
        sel.realize(Optimum(np.array([1.0, 1.0, 0.0]), np.array([0.5, 0.5, 1.0]), theta, lam))
        sel.exact_constraints = zq
        ctx = prediction_context(pe, task, sel)
    assert ctx.support == [0, 1, 2]
    assert ctx.failure == "dependent support vectors"
    assert predict_in(ctx, (Fraction(1), Fraction(-1), Fraction(0))) == "dependent support vectors"


# Exists because a mutant survived: α♯ could lose its length or an open tie's target.
def test_the_limit_interval_keeps_its_length_and_the_open_tie_its_target():
    length = LOG2_TIE.length
    with registered(LOG2_TIE):
        pe, task = parse_pe(LOG2_TIE.pe), parse_task(LOG2_TIE.task)
        sel = select(pe, task, LOG2_TIE.train_length)
        sharp = limit_interval(pe, task, sel, length)
        cls = classify(pe, task, sel, length)
    assert sharp.length == length
    open_rows = {r.row: r.target for r in cls.open_rows}
    tied = [r for r in sharp.rows if r.cls == "open_tie"]
    assert tied and all(r.verdict is not LimitVerdict.LOST for r in tied)
    for r in tied:
        assert r.target == open_rows[r.row] and isinstance(r.target, int)
        assert r.to_json()["target"] == open_rows[r.row]


# Exists because a mutant survived: α♯ could drop the class of a float-undecided row.
def test_float_undecided_row_keeps_its_class_in_the_limit() -> None:
    """The designed log-2 tie under a float θ* (no exact certificate) is an ``undecided`` row; α♯
    leaves it undecided (not exact) and keeps its class, also in the JSON."""
    with registered(LOG2_TIE):
        pe, task = parse_pe(LOG2_TIE.pe), parse_task(LOG2_TIE.task)
        sel = select(pe, task, LOG2_TIE.train_length, mode="float")
        sharp = limit_interval(pe, task, sel, LOG2_TIE.length)
    (row,) = sharp.rows
    assert (row.row, row.target, row.cls) == (3, 3, "undecided")
    assert row.verdict is LimitVerdict.UNDECIDED and row.reason is UndecidedReason.NOT_EXACT
    doc = row.to_json()
    assert doc["class"] == "undecided" and doc["reason"] == UndecidedReason.NOT_EXACT.value


# Exists because a mutant survived: predict could return the failed hypothesis' text instead of None.
def test_predict_is_none_when_a_hypothesis_fails() -> None:
    """seed 1 #1509 row 3 has no strict complementarity: no non-degenerate prediction (None; the reason is
    predict_in's), while the designed log-2 tie, whose hypotheses hold, has one."""
    inst = instance(1, 1509)
    with registered(inst):
        pe, task = parse_pe(inst.pe), parse_task(inst.task)
        sel = select(pe, task, inst.train_length)
        (rival,) = next(r for r in classify(pe, task, sel, inst.length).open_rows if r.row == 3).rivals
        assert limit.predict(pe, task, sel, rival.direction) is None
        assert "strict complementarity" in str(predict_in(prediction_context(pe, task, sel), rival.direction))
    with registered(LOG2_TIE):
        pe, task = parse_pe(LOG2_TIE.pe), parse_task(LOG2_TIE.task)
        sel = select(pe, task, LOG2_TIE.train_length)
        (rival,) = classify(pe, task, sel, LOG2_TIE.length).open_rows[0].rivals
        assert isinstance(limit.predict(pe, task, sel, rival.direction), Prediction)


# Exists because a mutant survived: a context without training rows (no symmetry search) was never decided.
def test_without_training_rows_a_zero_limit_stays_undecided_with_its_reason() -> None:
    """The designed log-2 tie with every multiplicity 1 has the limit 0 exactly; a context built without the
    training rows' multisets (``rows=None``) searches no symmetry, so the row is undecided for that reason —
    as with the rows, where no symmetry exists either."""
    with registered(LOG2_TIE):
        pe, task = parse_pe(LOG2_TIE.pe), parse_task(LOG2_TIE.task)
        sel = select(pe, task, LOG2_TIE.train_length)
        (row,) = classify(pe, task, sel, LOG2_TIE.length).open_rows
        ctx = prediction_context(pe, task, sel)
    for rows in (None, ctx.rows):
        flat = type(ctx)(ctx.constraints, ctx.support, ctx.multipliers, [1 for _ in ctx.multiplicities],
                         theta=ctx.theta, weights=[1 for _ in ctx.weights], rows=rows)
        out = open_tie_limit(flat, row)
        assert out.verdict is LimitVerdict.UNDECIDED and out.reason is UndecidedReason.ZERO_LIMIT
        assert out.rivals[0].undecided is UndecidedReason.ZERO_LIMIT and out.rivals[0].symmetry is None
        assert out.to_json()["reason"] == "zero limit"


# --------------------------------------------------------------------------- the rescaling control
def _case(index: int):
    from posreal.checks.limit_checks import TieCase, _listify
    inst = instance(1, index, TABLE_FAMILIES)
    return TieCase(f"seed 1 #{index}", inst.pe, inst.task, inst.train_length, inst.length, None,
                   ((inst.pe.removeprefix("dual:"), inst.table_kind, _listify(inst.table)),))


def test_rescaling_moves_a_trajectory_dependent_limit_and_not_a_closed_form():
    from posreal.checks.limit_checks import MOVED, STILL, rescaling_moves
    (kind, a, b), *_ = rescaling_moves(_case(5), 100.0)           # seed 1 #5 row 3: trajectory-dependent
    assert kind == "trajectory-dependent" and abs(a - b) > MOVED
    moves = rescaling_moves(_case(817), 0.01)                       # seed 1 #817 row 3: an exact finite limit
    assert moves and all(k == "closed form" and abs(a - b) <= STILL for k, a, b in moves)


# Exists because a mutant survived: a tied rival's undecided reason could be dropped from its JSON.
def test_rival_json_names_why_it_is_undecided() -> None:
    undecided = RivalLimit(rival=3, prediction=None, undecided=UndecidedReason.ZERO_LIMIT)
    assert undecided.to_json()["reason"] == "zero limit" and undecided.to_json()["rival"] == 3
    assert RivalLimit(rival=3, prediction=None).to_json()["reason"] is None


# --------------------------------------------------------------------------- decide_direction on hand contexts
def _hand_context(rows: list[tuple[int, ...]], theta: tuple, weights: list[int], support: list[int],
                  multipliers: list[Fraction]) -> limit.PredictionContext:
    """A prediction context from hand data in ℚ (no PE: no training-row multisets, so no symmetry search)."""
    zq = [tuple(Fraction(x) for x in r) for r in rows]
    return limit.PredictionContext(zq, support, multipliers, [weights[k] for k in support],
                                   theta=tuple(Fraction(x) for x in theta), weights=weights)


@pytest.mark.parametrize(("v", "verdict", "detail"),
                         [((0, 1), LimitVerdict.WON, "⟨θ_2, v⟩ > 0: the margin goes to +∞ like +log^(∘2) t"),
                          ((0, -3), LimitVerdict.LOST, "⟨θ_2, v⟩ < 0: the margin goes to -∞ like -log^(∘2) t")],
                         ids=["up", "down"])
def test_second_level_decides_a_direction_with_its_text(v: tuple[int, int], verdict: LimitVerdict,
                                                        detail: str) -> None:
    """Z = (1, 0), (1, 1), θ* = (1, 0): z_1 is active off the support (no non-degenerate prediction) and
    θ_2 = (0, 1) decides the sign of ⟨θ_k, v⟩ at level 2."""
    ctx = _hand_context([(1, 0), (1, 1)], (1, 0), [2, 1], [0], [Fraction(1)])
    ctx.failure = "no strict complementarity (⟨θ*, z⟩ = 1 off the support)"
    out = limit.decide_direction(ctx, 4, [Fraction(x) for x in v])
    assert (out.rival, out.verdict, out.evidence, out.level, out.detail) == (4, verdict, Evidence.EXACT, 2, detail)
    assert out.prediction is None and out.reason == ctx.failure and out.undecided is None


@pytest.mark.parametrize(("weights", "verdict", "sign"), [([2, 3], LimitVerdict.LOST, -1),
                                                          ([3, 2], LimitVerdict.WON, 1)], ids=["lost", "won"])
def test_exact_finite_limit_is_log_of_the_weight_ratio(weights: list[int], verdict: LimitVerdict, sign: int) -> None:
    """Z = e1, e2, θ* = (1, 1), λ = (1, 1): lim ⟨θ_k, (1, -1)⟩ = log(n_0/n_1), exact, at level 1; the
    non-degenerate prediction agrees in value and sign."""
    ctx = _hand_context([(1, 0), (0, 1)], (1, 1), weights, [0, 1], [Fraction(1), Fraction(1)])
    out = limit.decide_direction(ctx, 0, [Fraction(1), Fraction(-1)])
    expected = math.log(weights[0] / weights[1])
    assert out.verdict is verdict and out.evidence is Evidence.EXACT and out.level == 1 and out.bound == 0.0
    assert out.value == pytest.approx(expected, rel=1e-14)
    assert out.detail == f"Σ_k ⟨w̃_k, v⟩ = {out.value:.6g} over 1 level(s)"
    assert out.prediction is not None and out.prediction.sign == sign
    assert out.prediction.value == pytest.approx(expected, rel=1e-14)
    assert out.prediction.coefficients == (1, -1) and out.prediction.support == (0, 1)


def test_equal_weights_leave_a_zero_limit_undecided() -> None:
    ctx = _hand_context([(1, 0), (0, 1)], (1, 1), [2, 2], [0, 1], [Fraction(1), Fraction(1)])
    out = limit.decide_direction(ctx, 0, [Fraction(1), Fraction(-1)])
    assert out.verdict is LimitVerdict.UNDECIDED and out.undecided is UndecidedReason.ZERO_LIMIT
    assert out.detail == limit.REASON_TEXT[UndecidedReason.ZERO_LIMIT] and out.value == 0.0


def test_certified_limit_of_a_dependent_level_states_its_bound() -> None:
    """Z = 2e1, 2e2, e1 + e2 (θ* = (½, ½), all active, S+ dependent): the limit is enclosed, not exact."""
    ctx = _hand_context([(2, 0), (0, 2), (1, 1)], (Fraction(1, 2), Fraction(1, 2)), [1, 2, 3], [0, 1],
                        [Fraction(1, 4), Fraction(1, 4)])
    out = limit.decide_direction(ctx, 0, [Fraction(1), Fraction(-3)])
    assert out.evidence is Evidence.CERTIFIED and out.verdict in (LimitVerdict.WON, LimitVerdict.LOST)
    assert 0.0 < out.bound < 1e-15 and out.level == 1
    assert out.detail == f"Σ_k ⟨w̃_k, v⟩ = {out.value:.6g} ± {out.bound:.2g} over 1 level(s)"


def test_direction_off_the_level_spans_is_trajectory_dependent() -> None:
    """Z = (1, 0), (2, 1), θ* = (1, 0): only z_0 is active, so v = (0, 1) leaves V_1 inside col Zᵀ."""
    ctx = _hand_context([(1, 0), (2, 1)], (1, 0), [1, 1], [0], [Fraction(1)])
    out = limit.decide_direction(ctx, 0, [Fraction(0), Fraction(1)])
    assert out.undecided is UndecidedReason.TRAJECTORY_DEPENDENT
    assert out.detail == limit.REASON_TEXT[UndecidedReason.TRAJECTORY_DEPENDENT]


def test_symmetry_search_text_is_joined_to_the_reason(monkeypatch: pytest.MonkeyPatch) -> None:
    """A failed symmetry search adds its own text before the reason; a found one decides the direction lost."""
    ctx = _hand_context([(1, 0), (2, 1)], (1, 0), [1, 1], [0], [Fraction(1)])
    ctx.rows = object()  # type: ignore[assignment]
    monkeypatch.setattr(limit, "find_symmetry", lambda rows, v: "no signed permutation found")
    out = limit.decide_direction(ctx, 0, [Fraction(0), Fraction(1)])
    assert out.detail == ("no signed permutation found; "
                          + limit.REASON_TEXT[UndecidedReason.TRAJECTORY_DEPENDENT])
    swap = limit.SignedPermutation((0, 1), (1, -1))
    monkeypatch.setattr(limit, "find_symmetry", lambda rows, v: swap)
    out = limit.decide_direction(ctx, 0, [Fraction(0), Fraction(1)])
    assert (out.verdict, out.evidence, out.symmetry, out.undecided, out.value, out.level) == (
        LimitVerdict.LOST, Evidence.SYMMETRY, swap, None, 0.0, 1)
    assert out.detail == "a signed permutation maps every training row's differences to themselves and v to -v"


def test_uncertified_levels_and_residuals_are_named(monkeypatch: pytest.MonkeyPatch) -> None:
    """Incomplete levels give their failure text; a residual that cannot be enclosed gives its error; an
    enclosure around 0 gives its interval."""
    ctx = _hand_context([(1, 0), (0, 1)], (1, 1), [2, 3], [0, 1], [Fraction(1), Fraction(1)])
    ctx._levels = limit.Levels(ctx.constraints, ctx.weights, failure="level 1: made up")
    out = limit.decide_direction(ctx, 0, [Fraction(1), Fraction(-1)])
    assert out.undecided is UndecidedReason.LEVELS and out.detail == "level 1: made up"
    ctx._levels = None

    class Failing:
        def value(self, coefficients: list) -> None:
            raise limit.ResidualError("level 1: no enclosure")

    ctx._residuals = Failing()  # type: ignore[assignment]
    out = limit.decide_direction(ctx, 0, [Fraction(1), Fraction(-1)])
    assert out.undecided is UndecidedReason.NOT_CERTIFIED and out.detail == "level 1: no enclosure"

    class Open:
        def value(self, coefficients: list) -> object:
            from posreal.theory.maxent import LimitValue
            return LimitValue(None, False, 0.00125, 0.0125)

    ctx._residuals = Open()  # type: ignore[assignment]
    out = limit.decide_direction(ctx, 0, [Fraction(1), Fraction(-1)])
    assert out.undecided is UndecidedReason.NOT_CERTIFIED and out.detail == "Σ_k ⟨w̃_k, v⟩ ∈ 0.00125 ± 0.013"


def test_without_exact_theta_a_direction_is_not_decided() -> None:
    ctx = _hand_context([(1, 0)], (), [1], [0], [Fraction(1)])
    out = limit.decide_direction(ctx, 2, [Fraction(1), Fraction(0)])
    assert out.undecided is UndecidedReason.NOT_EXACT and out.verdict is LimitVerdict.UNDECIDED


@pytest.mark.parametrize(("c", "n", "lam", "sign"),
                         [((1, -1), (2, 3), (1, 1), -1), ((Fraction(1, 2), -1), (4, 2), (1, 1), 0),
                          ((Fraction(1, 3), Fraction(-1, 2)), (9, 1), (1, Fraction(1, 2)), 1), ((), (), (), 0)],
                         ids=["log2-log3", "half-log4-log2", "thirds-halves", "empty"])
def test_exact_sign_of_a_log_linear_combination(c: tuple, n: tuple, lam: tuple, sign: int) -> None:
    """sign Σ c_s log(n_s/λ_s): log 2 - log 3 < 0; ½ log 4 - log 2 = 0; ⅓ log 9 - ½ log 2 > 0 (9^2 > 2^3)."""
    assert limit.exact_sign([Fraction(x) for x in c], list(n), [Fraction(x) for x in lam]) == sign


def test_row_details_name_each_rival_and_the_trajectory_evidence() -> None:
    """combine's texts: a lost row names its strongest lost rival, a won row every rival, an undecided row its
    open rivals and the first one's reason; trajectory evidence names the closed form's reason."""
    won, lost, und = LimitVerdict.WON, LimitVerdict.LOST, LimitVerdict.UNDECIDED
    a = RivalLimit(1, None, verdict=lost, evidence=Evidence.CERTIFIED, detail="a")
    b = RivalLimit(2, None, verdict=lost, evidence=Evidence.SYMMETRY, detail="b")
    c = RivalLimit(3, None, verdict=und, undecided=UndecidedReason.ZERO_LIMIT, detail="c")
    d = RivalLimit(4, None, verdict=und, undecided=UndecidedReason.LEVELS, detail="d")
    e = RivalLimit(5, None, verdict=won, evidence=Evidence.EXACT, detail="e")
    row = LimitRow(7, 1, "open_tie", und, rivals=[a, b, c])
    assert combine(row).detail == "rival 2: b" and combine(row).evidence is Evidence.SYMMETRY
    row = LimitRow(7, 1, "open_tie", und, rivals=[e, c, d])
    out = combine(row)
    assert (out.verdict, out.reason, out.detail, out.evidence) == (und, UndecidedReason.ZERO_LIMIT,
                                                                   "rival 3: c; rival 4: d", Evidence.UNDECIDED)
    after = with_trajectory(row, [(lost, None), (won, {"t": 1}), (und, None)])
    assert after.rivals[0].evidence is Evidence.EXACT and after.rivals[0].verdict is won   # decided: kept
    assert after.rivals[1].detail == "zero limit; trajectory evidence: won"
    assert after.rivals[1].evidence is Evidence.TRAJECTORY and after.rivals[2].detail == "d"
    assert after.verdict is und and after.reason is UndecidedReason.LEVELS
    bare = RivalLimit(6, None, verdict=und)
    assert with_trajectory(LimitRow(7, 1, "open_tie", und, rivals=[bare]), [(lost, None)]).rivals[0].detail == (
        "undecided; trajectory evidence: lost")
    assert combine(LimitRow(7, 1, "open_tie", und)).verdict is und          # no rivals: not won


def test_limit_interval_counts_and_json() -> None:
    """5 rows, 2 realized, one rival won, one lost, one undecided: α♯ = [3/5, 4/5]; no rows gives [1, 1]."""
    rows = [LimitRow(1, 0, "open_tie", LimitVerdict.WON, evidence=Evidence.CERTIFIED),
            LimitRow(2, 0, "strict_misrank", LimitVerdict.LOST),
            LimitRow(3, 0, "open_tie", LimitVerdict.UNDECIDED, UndecidedReason.ZERO_LIMIT, "z",
                     evidence=Evidence.UNDECIDED)]
    interval = limit.LimitInterval(8, 5, 2, rows, exact=False)
    assert (interval.wins, interval.undecided, interval.low, interval.high) == (3, 1, Fraction(3, 5), Fraction(4, 5))
    assert interval.by_evidence() == {"float": {"won": 2, "lost": 0, "undecided": 0},
                                      "certified": {"won": 1, "lost": 0, "undecided": 0},
                                      "exact": {"won": 0, "lost": 1, "undecided": 0},
                                      "undecided": {"won": 0, "lost": 0, "undecided": 1}}
    out = interval.to_json()
    assert out["interval"] == [0.6, 0.8] and out["interval_exact"] == ["3/5", "4/5"]
    assert (out["wins"], out["undecided"], out["total"], out["open_ties_won"]) == (3, 1, 5, 1)
    assert [r["row"] for r in out["rows"]] == [1, 3] and [r["row"] for r in out["undecided_rows"]] == [3]
    assert out["undecided_rows"][0]["reason"] == "zero limit"
    empty = limit.LimitInterval(8, 0, 0, [])
    assert (empty.low, empty.high) == (1, 1)


def test_limit_rows_by_failing_class() -> None:
    """Margin and orthogonal ties are lost on α's evidence; a float near-tie is undecided with its margin."""
    from posreal.theory.ties import Classification, FailingRow

    failing = [FailingRow(1, 0, "strict_misrank", Fraction(-1)), FailingRow(2, 0, "orthogonal_tie", Fraction(0)),
               FailingRow(3, 1, "undecided", -2.5e-9)]
    ctx = _hand_context([(1, 0)], (1, 0), [1], [0], [Fraction(1)])
    rows = limit.limit_rows(Classification(8, False, 4, 1, failing), ctx)
    assert [(r.verdict, r.evidence) for r in rows[:2]] == [(LimitVerdict.LOST, Evidence.FLOAT)] * 2
    assert (rows[2].verdict, rows[2].reason, rows[2].evidence) == (LimitVerdict.UNDECIDED, UndecidedReason.NOT_EXACT,
                                                                  Evidence.UNDECIDED)
    assert rows[2].detail == "|margin| = 2.5e-09 within the float tolerance"
    assert limit.limit_rows(Classification(8, True, 4, 3, failing[:1]), ctx)[0].evidence is Evidence.EXACT


# Exists because a mutant survived: a key of a tied rival's JSON record could be renamed unseen.
def test_rival_json_has_the_record_fields_and_its_trajectory() -> None:
    """The fields of a rival in search records and `alpha --limit --json`, with the trajectory evidence as given."""
    evidence = {"method": "gradient flow", "verdict": "won"}
    doc = RivalLimit(rival=2, prediction=None, trajectory=evidence).to_json()
    assert list(doc) == ["rival", "verdict", "evidence", "reason", "level", "value", "bound", "detail", "symmetry",
                         "trajectory"]
    assert doc["trajectory"] == evidence and doc["symmetry"] is None and doc["rival"] == 2
