"""Two solvers on every SMT obligation (checks/smt/solvers.py, common.py, ceiling_check.py and
``posreal check --solver``): ``proved`` needs both unsat; one solver's unsat is ``proved by z3 only``,
good only when z3 alone was asked for; disagreement fails with both answers; a broken encoding is
refuted or unknown under both solvers and fails; cvc5's models are re-checked in Python like z3's."""

import json
from fractions import Fraction

import pytest
import z3

from posreal.checks import runner
from posreal.checks.base import (COUNTEREXAMPLE, FAILED, PROVED, UNKNOWN, CheckResult, Control, ObligationKind,
                                 Solver, SolverChoice, SolverStatus, Verdict)
from posreal.checks.smt import common, proofs
from posreal.checks.smt import solvers as S
from posreal.checks.smt import theorem2 as t2
from posreal.checks.smt.ceiling_check import ceiling_check
from posreal.checks.smt.common import SmtProof, SolverAnswer, combine, proof_obligations, run_proof
from posreal.cli import main

pytestmark = pytest.mark.smt
SAT, UNSAT, UNK = SolverStatus.SAT, SolverStatus.UNSAT, SolverStatus.UNKNOWN


def _answer(status):
    return SolverAnswer(status, None, "timeout" if status is UNK else "", 0.0)


@pytest.mark.parametrize("z3_says, cvc5_says, verdict", [
    (UNSAT, UNSAT, PROVED),
    (UNSAT, UNK, Verdict.PROVED_BY_Z3_ONLY),
    (UNK, UNSAT, Verdict.PROVED_BY_CVC5_ONLY),
    (UNSAT, SAT, FAILED), (SAT, UNSAT, FAILED),       # disagreement
    (SAT, UNK, COUNTEREXAMPLE), (SAT, SAT, COUNTEREXAMPLE), (UNK, SAT, COUNTEREXAMPLE),
    (UNK, UNK, UNKNOWN),
])
def test_verdict_from_two_answers(z3_says, cvc5_says, verdict):
    assert combine({Solver.Z3: _answer(z3_says), Solver.CVC5: _answer(cvc5_says)}) is verdict


@pytest.mark.parametrize("alone, verdict", [(Solver.Z3, Verdict.PROVED_BY_Z3_ONLY),
                                            (Solver.CVC5, Verdict.PROVED_BY_CVC5_ONLY)])
def test_one_solver_asked_gives_a_one_solver_verdict(alone, verdict):
    assert combine({alone: _answer(UNSAT)}) is verdict


def test_one_solver_verdict_is_good_only_when_that_solver_alone_was_asked():
    for choice, ok in ((SolverChoice.Z3, True), (SolverChoice.BOTH, False), (SolverChoice.CVC5, False)):
        result = CheckResult("theorem2", "x", "smt", Verdict.PROVED_BY_Z3_ONLY, Control.COUNTEREXAMPLE,
                             solver_choice=choice)
        assert result.ok is ok and result.one_solver
    assert not CheckResult("theorem2", "x", "smt", Verdict.PROVED_BY_Z3_ONLY, Control.COUNTEREXAMPLE).ok


def _cvc5_says(monkeypatch, status, kinds=(ObligationKind.ENCODING,)):
    """cvc5 answers ``status`` on obligations of the given kinds (and decides the others itself)."""
    real = common.decide_cvc5

    def fake(text, kind, timeout, name="obligation"):
        if kind in kinds:
            return SolverAnswer(status, None, "timeout" if status is UNK else "", 0.5)
        return real(text, kind, timeout, name)
    monkeypatch.setattr(common, "decide_cvc5", fake)


def test_cvc5_unknown_is_proved_by_z3_only_and_a_failure_under_both(monkeypatch):
    _cvc5_says(monkeypatch, UNK)
    result = run_proof(t2.deep_if(), SolverChoice.BOTH, "theorem2.deep_if")
    assert result.verdict is Verdict.PROVED_BY_Z3_ONLY and not result.ok
    assert result.solvers[Solver.CVC5].answer is UNK and result.solvers[Solver.Z3].answer is UNSAT
    assert "cvc5 did not decide within its budget" in result.detail


def test_z3_alone_asked_is_proved_by_z3_only_and_good():
    result = run_proof(t2.deep_if(), SolverChoice.Z3, "theorem2.deep_if")
    assert result.verdict is Verdict.PROVED_BY_Z3_ONLY and result.ok, result.detail
    assert set(result.solvers) == {Solver.Z3} and "cvc5 was not asked" in result.detail
    assert all({r.solver for r in ob.runs} == {Solver.Z3} for ob in result.obligations)


def test_cvc5_alone_decides_proof_control_and_hypotheses():
    result = run_proof(t2.deep_if(), SolverChoice.CVC5, "theorem2.deep_if")
    assert result.verdict is Verdict.PROVED_BY_CVC5_ONLY and result.ok, result.detail
    assert result.negative_control is Control.COUNTEREXAMPLE   # cvc5's model, re-checked in Python
    assert all({r.solver for r in ob.runs} == {Solver.CVC5} for ob in result.obligations)


def test_disagreement_fails_with_both_answers(monkeypatch):
    _cvc5_says(monkeypatch, SAT)
    result = run_proof(t2.deep_if(), SolverChoice.BOTH, "theorem2.deep_if")
    assert result.verdict is FAILED and not result.ok
    assert "disagree" in result.detail and "z3 unsat" in result.detail and "cvc5 sat" in result.detail


def test_disagreement_on_the_hypotheses_fails(monkeypatch):
    _cvc5_says(monkeypatch, UNSAT, kinds=(ObligationKind.HYPOTHESES,))
    result = run_proof(t2.deep_if(), SolverChoice.BOTH, "theorem2.deep_if")
    assert result.verdict is FAILED and "disagree on the hypotheses" in result.detail


def test_disagreement_on_the_control_fails(monkeypatch):
    _cvc5_says(monkeypatch, UNSAT, kinds=(ObligationKind.CONTROL,))
    result = run_proof(t2.deep_if(), SolverChoice.BOTH, "theorem2.deep_if")
    assert result.verdict is PROVED and result.negative_control is Control.DISAGREEMENT and not result.ok


def test_a_cvc5_model_that_fails_the_recheck_is_not_counted():
    proof = t2.deep_if()
    proof.verify_control = lambda model: (not isinstance(model, S.Cvc5Model), "cvc5's model rejected on purpose")
    result = run_proof(proof, SolverChoice.BOTH, "theorem2.deep_if")
    assert result.negative_control is Control.UNVERIFIED and not result.ok


# one proof per module runs by default; the other 19 under -m slow (each takes up to two 2 s cvc5 timeouts)
FAST_BROKEN = {"theorem2.deep_only_if", "proposition4.margins", "underdetermination.zero_form",
               "expressivity.token_independence"}
BROKEN = [pytest.param(name, make, marks=() if name in FAST_BROKEN else pytest.mark.slow, id=name)
          for name, make in proofs()]


@pytest.mark.parametrize("name, make", BROKEN)
def test_a_broken_encoding_is_refuted_or_unknown_under_both_and_fails(name, make):
    """The encoding with one hypothesis dropped (the negative control's assertions) in place of the
    encoding: neither solver may say unsat, and the check must fail."""
    proof = make()
    broken = SmtProof(proof.claim, proof.name, [("one hypothesis dropped: " + proof.control_label, proof.control)],
                      proof.control_label, proof.control, proof.verify_control, None, timeout=2.0)
    result = run_proof(broken, SolverChoice.BOTH, name)
    assert not result.ok and result.verdict in (COUNTEREXAMPLE, UNKNOWN), result.detail
    assert {s: r.answer for s, r in result.solvers.items()}.keys() == {Solver.Z3, Solver.CVC5}
    assert all(r.answer in (SAT, UNK) for r in result.solvers.values()), result.solvers


def test_cvc5_model_values_are_exact_and_algebraic_ones_refused():
    x, y = z3.Real("x"), z3.Int("y")
    f = z3.Function("f", z3.IntSort(), z3.RealSort())
    sat = S.decide_cvc5("(set-logic ALL)\n(declare-fun x () Real)\n(declare-fun y () Int)\n"
                        "(declare-fun f (Int) Real)\n(assert (= (* 7 x) 3))\n(assert (= y (- 4)))\n"
                        "(assert (> (f 2) (+ x 1)))\n(check-sat)\n", ObligationKind.CONTROL, 10)
    assert sat.status is SAT
    model = sat.model
    assert common.value(model, x) == Fraction(3, 7) and common.ivalue(model, y) == -4
    assert common.value(model, f(2)) > Fraction(10, 7)
    assert z3.is_true(model.eval(x * 7 == 3))
    # a value that is neither rational nor Boolean (here: an element of an uninterpreted sort) is refused;
    # this cvc5 build gives up on x² = 2 rather than return an algebraic number, so that path is shown so
    vec = z3.DeclareSort("V")
    elem = S.decide_cvc5("(set-logic ALL)\n(declare-sort V 0)\n(declare-fun e () V)\n(check-sat)\n",
                         ObligationKind.CONTROL, 10)
    assert elem.status is SAT
    with pytest.raises(S.AlgebraicValue):
        elem.model.eval(z3.Const("e", vec))


def test_cvc5_error_is_unknown_not_a_crash():
    out = S.decide_cvc5("(assert (> x 0))\n(check-sat)\n", ObligationKind.ENCODING, 5)   # x undeclared
    assert out.status is UNK and out.reason.startswith("cvc5 error")


def test_the_recorded_cvc5_options_are_needed(monkeypatch):
    """Without enum-inst (cvc5's defaults) some quantified encodings come back unknown; with the recorded
    options every one is unsat (test_smt.py)."""
    assert S.CVC5_OPTIONS[ObligationKind.ENCODING] == {"enum-inst": "true"}
    monkeypatch.setitem(S.CVC5_OPTIONS, ObligationKind.ENCODING, {})
    defaults = {name: S.decide_cvc5(ob.text(), ob.kind, 2)
                for name, ob in ((n, proof_obligations(make(), n)[0]) for n, make in proofs())}
    undecided = [name for name, a in defaults.items() if a.status is UNK]
    assert undecided and all(a.status in (UNSAT, UNK) for a in defaults.values()), defaults


def test_ceiling_optimality_is_cross_checked_by_cvc5():
    result = ceiling_check("middle", 16, kernel="relative")()
    assert result.verdict is PROVED and result.negative_control is Control.COUNTEREXAMPLE, result.detail
    assert {s: r.answer for s, r in result.solvers.items()} == {Solver.Z3: UNSAT, Solver.CVC5: UNSAT}
    # middle: one row of R_16 (|R_16| = 8) by the argument of definitions.md#expressivity
    assert result.data["realized"] == 1 and result.data["total"] == 8
    assert "at least 2 rows: z3 unsat" in result.detail and "cvc5 unsat" in result.detail


def test_ceiling_says_when_cvc5_could_not_decide(monkeypatch):
    _cvc5_says(monkeypatch, UNK)
    result = ceiling_check("middle", 16, kernel="relative")()
    assert result.verdict is Verdict.PROVED_BY_Z3_ONLY and not result.ok
    assert "cvc5 could not decide 'at least 2 rows' within its budget" in result.detail


def test_ceiling_fails_when_a_solver_finds_more_rows(monkeypatch):
    _cvc5_says(monkeypatch, SAT)
    result = ceiling_check("middle", 16, kernel="relative")()
    assert result.verdict is FAILED and not result.ok


def _smt_only(monkeypatch):
    """Stand-ins that pass for every non-SMT method a statement lists (tested elsewhere): only the SMT checks run."""
    from posreal.checks.base import DeclaredCheck
    from posreal.theory.statements import STATEMENT_IDS, statement
    stubs = [DeclaredCheck(cid, method, f"stub {method}",
                             lambda cid=cid, method=method: CheckResult(cid, "stub", method, "passed", None))
             for cid in STATEMENT_IDS for method in statement(cid).checks if method not in ("smt", "enumeration")]
    monkeypatch.setattr(runner, "_local_checks", lambda: stubs)


def test_check_json_reports_both_solvers_for_every_smt_proof(monkeypatch, capsys):
    _smt_only(monkeypatch)
    assert main(["check", "underdetermination", "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["solver"] == "both" and doc["one_solver"] == [] and doc["ok"] is True
    checks = [c for c in doc["claims"][0]["checks"] if c["method"] == "smt"]
    assert len(checks) == len(proofs(["underdetermination"]))
    for c in checks:
        assert c["verdict"] == "proved" and c["solver_choice"] == "both"
        assert c["solvers"]["z3"]["answer"] == "unsat" and c["solvers"]["cvc5"]["answer"] == "unsat"
        assert c["solvers"]["z3"]["seconds"] >= 0 and c["solvers"]["cvc5"]["seconds"] >= 0
        files = {o["kind"]: o["file"] for o in c["obligations"]}
        assert set(files) == {"encoding", "control", "hypotheses"}


def test_check_with_z3_alone_lists_one_solver_verdicts(monkeypatch, capsys):
    _smt_only(monkeypatch)
    assert main(["check", "proposition4", "--solver", "z3"]) == 0
    out = capsys.readouterr().out
    n = len(proofs(["proposition4"]))
    assert out.count("proved by z3 only") >= n
    assert f"{n} SMT verdicts rest on one solver (as asked: --solver z3):" in out


def test_check_fails_when_cvc5_cannot_decide(monkeypatch, capsys):
    _smt_only(monkeypatch)
    _cvc5_says(monkeypatch, UNK)
    assert main(["check", "proposition4", "--json"]) == 1
    doc = json.loads(capsys.readouterr().out)
    assert doc["ok"] is False and len(doc["one_solver"]) == len(proofs(["proposition4"]))
    assert all(entry["verdict"] == "proved by z3 only" and entry["ok"] is False for entry in doc["one_solver"])


def test_unknown_solver_choice_is_a_usage_error(capsys):
    assert main(["check", "--solver", "yices"]) == 2
    err = capsys.readouterr().err.strip()
    assert err.count("\n") == 0 and "yices" in err
