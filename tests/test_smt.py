"""SMT proofs: every proof is proved by both solvers (z3 and cvc5 unsat) and every negative control
is a Python-verified counterexample; the proof machinery itself can fail (refutation, unknown,
unverified control, algebraic model values)."""

from fractions import Fraction

import numpy as np
import pytest
import z3

from posreal.checks.base import COUNTEREXAMPLE, PROVED, UNKNOWN
from posreal.checks.runner import declared_checks
from posreal.checks.smt import SMT_CHECKS
from posreal.checks.smt import proposition4 as p4
from posreal.checks.smt import theorem2 as t2
from posreal.checks.smt import underdetermination as ud
from posreal.checks.smt.common import AlgebraicValue, SmtProof, query, run_proof, to_fraction
from posreal.theory.kernels import ProfileKernel
from posreal.theory.realization import classify_exact, exact_margins

pytestmark = pytest.mark.smt

def test_every_smt_check_runs_in_the_claim_tests():
    """Each SMT check runs once per test session, in tests/test_claims.py (through the claim runner, which
    also asserts both solvers' answers and the negative control); here: the runner registers every one."""
    table, note = declared_checks()
    registered = [(c.claim, c.label) for checks in table.values() for c in checks if c.method == "smt"]
    assert note == "" and [(claim, fn.__name__) for claim, fns in SMT_CHECKS.items() for fn in fns] == registered


def test_contract_covers_the_five_claims():
    assert set(SMT_CHECKS) == {"theorem2", "proposition4", "underdetermination", "expressivity", "extension",
                               "escape-depth", "escape-content", "escape-induction"}
    assert all(SMT_CHECKS[k] for k in SMT_CHECKS)
    names = [fn.__name__ for fns in SMT_CHECKS.values() for fn in fns]
    assert len(set(names)) == len(names) and "<lambda>" not in names   # the runner labels checks by name


def test_a_false_statement_is_refuted_not_proved():
    # Theorem 2 "deep ⇒ t = i - δ*" without depth is false: the runner must say counterexample
    proof = t2.deep_only_if()
    weakened = SmtProof(proof.claim, "false: any row realized for t has t = i - δ*",
                        [("quantified", proof.control[:-1])], proof.control_label, proof.control, proof.verify_control)
    result = run_proof(weakened)
    assert result.verdict == COUNTEREXAMPLE and not result.ok


def test_unknown_is_a_failure_with_the_solver_reason():
    x, y, z = z3.Ints("x y z")
    hard = [x > 0, y > 0, z > 0, x * x * x + y * y * y == z * z * z]    # Fermat n = 3: beyond z3
    proof = SmtProof("theorem2", "undecidable for z3 in 0.2 s", [("nonlinear", hard)], "same",
                     hard, lambda m: (True, ""), timeout=0.2)
    result = run_proof(proof)
    assert result.verdict == UNKNOWN and not result.ok
    assert "unknown" in result.detail and "(" in result.detail  # z3's reason is quoted


def test_a_control_whose_model_fails_the_python_recheck_is_not_counted():
    proof = t2.deep_if()
    proof.verify_control = lambda model: (False, "rejected on purpose")
    result = run_proof(proof)
    assert result.verdict == PROVED and result.negative_control == "unverified" and not result.ok


def test_contradictory_hypotheses_are_reported_as_vacuous():
    a = z3.Int("a")
    proof = SmtProof("theorem2", "vacuous", [("qf", [a > 0, a < 0])], "none", [a == 1],
                     lambda m: (True, ""), hypotheses=[a > 0, a < 0])
    result = run_proof(proof)
    assert result.verdict == "failed" and "vacuous" in result.detail


def test_algebraic_model_values_are_refused():
    x = z3.Real("x")
    out = query([x * x == 2, x > 0])
    assert out.status == "sat"
    with pytest.raises(AlgebraicValue):
        to_fraction(out.model.eval(x))
    assert to_fraction(z3.RealVal("3/7")) == Fraction(3, 7)


def test_python_rechecks_agree_with_theory_exact_margins():
    # the negative-control re-checks use their own realization test: it must agree with theory
    rng = np.random.default_rng(7)
    for _ in range(40):
        v = [Fraction(int(a)) for a in rng.integers(-3, 4, size=7)]
        rows = np.arange(7)
        targets = np.array([int(rng.integers(0, i + 1)) for i in range(7)])
        margins, _ = exact_margins(ProfileKernel(7, "offset", v), rows, targets)
        status = classify_exact(margins, np.zeros(7, dtype=bool))
        assert [s > 0 for s in status] == [t2.py_realized(v, i, t) for i, t in zip(rows, targets)]


def test_unknown_non_vacuity_downgrades_a_proof_to_unknown():
    a = z3.Int("a")
    x, y, z = z3.Ints("x y z")
    hard = [x > 0, y > 0, z > 0, x * x * x + y * y * y == z * z * z]    # z3 gives up on this in 0.2 s
    assert query(hard, 0.2).status == "unknown"
    proof = SmtProof("theorem2", "proved, but are the hypotheses satisfiable?", [("qf", [a > 0, a < 0])], "none",
                     [a == 1], lambda m: (True, ""), hypotheses=hard, timeout=0.2)
    result = run_proof(proof)
    assert result.verdict == UNKNOWN and not result.ok
    assert "non-vacuity not established" in result.detail


def test_b_zero_is_proved_from_additivity_and_its_control_is_a_real_model():
    result = run_proof(ud.zero_form())
    assert result.verdict == PROVED and result.negative_control == COUNTEREXAMPLE, result.detail
    assert "B(0, " in result.detail and "≠ 0" in result.detail
    assert ud.zero_form in ud.MAKERS


def _swap(assertions, old, new):
    out = [new if a.eq(old) else a for a in assertions]
    assert any(a.eq(old) for a in assertions), f"{old} is not among the control's assertions"
    return out


@pytest.mark.parametrize("make, old, new", [
    (p4.margins, p4.causal(p4.i, p4.t), p4.t > p4.i),
    (p4.relative_to_column, p4.causal(p4.i2, p4.j), p4.j > p4.i2),
    (p4.relative_to_column, p4.causal(p4.i, p4.j), p4.j > p4.i),
    (ud.zero_ties, ud.j2 <= ud.i, ud.j2 > ud.i),
    (ud.zero_ties, ud.j <= ud.i, ud.j > ud.i),
], ids=["margins-causal", "rel2col-i2", "rel2col-i", "zero_ties-j", "zero_ties-j2"])
def test_control_rechecks_reject_models_that_break_a_kept_hypothesis(make, old, new):
    """A model of the control with one kept hypothesis negated must fail the Python re-check."""
    proof = make()
    out = query(_swap(proof.control, old, new))
    assert out.status == "sat", out.reason
    ok, text = proof.verify_control(out.model)
    assert not ok, text
