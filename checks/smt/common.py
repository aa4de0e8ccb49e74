"""Shared machinery of the SMT proofs.

Rational model values, and the proof-with-negative-control pattern every check of :mod:`posreal.checks.smt` follows,
decided by z3 and cvc5.

A proof is a list of *encodings* of "hypotheses ∧ ¬conclusion", tried in order (the
quantified statement first; a quantifier-free instantiation of the same universal hypotheses
as a fallback when the quantified query comes back unknown — sound, because the instances
are consequences of the universals).  Each requested solver (:class:`posreal.checks.base.SolverChoice`,
default both) decides each query: z3 on its terms, cvc5 on the SMT-LIB 2 text of
:mod:`~posreal.checks.smt.obligations` (options: :mod:`~posreal.checks.smt.solvers`).  The verdict:

* ``proved`` — both solvers unsat;  ``proved by z3 only`` / ``proved by cvc5 only`` — one unsat, the
  other unknown or not asked (good only when that one solver alone was asked for);
* ``failed`` — the solvers disagree (one sat, one unsat), with both answers in the detail;
* ``counterexample`` — sat of a quantified encoding: the claim is refuted;
* ``unknown`` — no solver decided (unknown or timeout, with each solver's reason): a failure, never a pass.

The negative control is the same encoding with one hypothesis dropped or weakened.  It must
come back ``sat``; each solver's model is then read back as exact rationals (an algebraic model
value is refused) and checked **in Python, outside the solvers** to satisfy the kept hypotheses
and violate the conclusion.  Only then is ``negative_control = "counterexample"`` recorded; a model
that fails the re-check, or one solver's unsat against the other's sat, fails the check.  When a
proof gives its hypotheses alone, they are checked to be satisfiable (a proof from contradictory
hypotheses is reported as failed, not proved; when no solver decides that query, the proof is unknown).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

import z3

from posreal.checks.base import (COUNTEREXAMPLE, FAILED, PROVED, UNKNOWN, CheckResult, Control, ObligationKind,
                                 ObligationRecord, Solver, SolverChoice, SolverStatus, Verdict, timed)
from posreal.checks.smt.obligations import Obligation
from posreal.checks.smt.solvers import AlgebraicValue, SolverAnswer, decide_cvc5, decide_z3

from posreal.theory.defaults import SMT_TIMEOUT as DEFAULT_TIMEOUT  # seconds per solver call
CONTROL_BOUND = 12       # negative controls bound the grid so the Python re-check is finite

IntS, RealS = z3.IntSort(), z3.RealSort()
SAT, UNSAT, UNDECIDED = SolverStatus.SAT, SolverStatus.UNSAT, SolverStatus.UNKNOWN
ONLY = {Solver.Z3: Verdict.PROVED_BY_Z3_ONLY, Solver.CVC5: Verdict.PROVED_BY_CVC5_ONLY}

__all__ = ["AlgebraicValue", "SolverAnswer", "SmtProof", "query", "decide", "run_proof", "proof_check",
           "proof_obligations", "to_fraction", "value", "ivalue", "table", "in_range"]


def query(assertions: Sequence[z3.BoolRef], timeout: float = DEFAULT_TIMEOUT) -> SolverAnswer:
    """One z3 query with a timeout (seconds)."""
    return decide_z3(assertions, timeout)


def decide(ob: Obligation, solver: Solver) -> SolverAnswer:
    """One solver on one obligation: z3 on its terms, cvc5 on its SMT-LIB text."""
    if solver is Solver.Z3:
        return decide_z3(list(ob.assertions), ob.timeout)
    return decide_cvc5(ob.text(), ob.kind, ob.timeout, ob.filename)


def to_fraction(value: z3.ExprRef) -> Fraction:
    """A z3 numeral as an exact Fraction; algebraic numbers are refused."""
    if z3.is_int_value(value):
        return Fraction(value.as_long())
    if z3.is_rational_value(value):
        return Fraction(value.numerator_as_long(), value.denominator_as_long())
    if z3.is_algebraic_value(value):
        raise AlgebraicValue(f"model value {value} is algebraic, not rational; refused")
    raise AlgebraicValue(f"model value {value} is not a numeral; refused")


def value(model: z3.ModelRef, expr: z3.ExprRef) -> Fraction:
    """Exact value of ``expr`` in ``model`` (model completion on: unconstrained parts get a value)."""
    return to_fraction(model.eval(expr, model_completion=True))


def ivalue(model: z3.ModelRef, expr: z3.ExprRef) -> int:
    """The integer value of ``expr`` in ``model`` (an error for a non-integer)."""
    v = value(model, expr)
    if v.denominator != 1:
        raise AlgebraicValue(f"expected an integer model value for {expr}, got {v}")
    return int(v)


def table(model: z3.ModelRef, fn: z3.FuncDeclRef, points: Sequence) -> dict:
    """{point: Fraction} for an uninterpreted function on the given integer points (or tuples)."""
    out = {}
    for p in points:
        args = p if isinstance(p, tuple) else (p,)
        out[p] = value(model, fn(*[z3.IntVal(a) for a in args]))
    return out


Verifier = Callable[[Any], tuple[bool, str]]   # a z3 model or a Cvc5Model -> (re-check passed, description)


@dataclass
class SmtProof:
    """One statement, its encodings (tried in order) and its negative control."""

    claim: str                                   # statement id, e.g. "theorem2"
    name: str                                    # one line: what is proved
    encodings: list[tuple[str, list[z3.BoolRef]]]  # (label, hypotheses ∧ ¬conclusion); first = quantified
    control_label: str                           # which hypothesis is dropped / weakened
    control: list[z3.BoolRef]                    # the weakened encoding
    verify_control: Verifier                     # Python re-check of the control's model
    hypotheses: list[z3.BoolRef] | None = None  # the hypotheses alone: must be sat (non-vacuity)
    timeout: float = DEFAULT_TIMEOUT
    notes: list[str] = field(default_factory=list)


def proof_obligations(proof: SmtProof, check: str) -> list[Obligation]:
    """The proof's queries as obligations: each encoding, the negative control, the hypotheses alone."""
    out = [Obligation(check, proof.claim, proof.name, ObligationKind.ENCODING, label, tuple(assertions),
                      proof.timeout, n) for n, (label, assertions) in enumerate(proof.encodings)]
    out.append(Obligation(check, proof.claim, proof.name, ObligationKind.CONTROL, proof.control_label,
                          tuple(proof.control), proof.timeout))
    if proof.hypotheses is not None:
        out.append(Obligation(check, proof.claim, proof.name, ObligationKind.HYPOTHESES, "hypotheses alone",
                              tuple(proof.hypotheses), proof.timeout))
    return out


def _answers(runs: dict[Solver, SolverAnswer]) -> str:
    """``z3 unsat (0.01 s), cvc5 unknown: timeout (20.00 s)``."""
    return ", ".join(f"{s.value} {a.status.value}" + (f": {a.reason}" if a.reason else "") + f" ({a.seconds:.2f} s)"
                     for s, a in runs.items())


def combine(proved: dict[Solver, SolverAnswer]) -> Verdict:
    """The verdict from each solver's answer on the proof obligation (see the module docstring)."""
    statuses = {s: a.status for s, a in proved.items()}
    unsat = [s for s, st in statuses.items() if st is UNSAT]
    if unsat and SAT in statuses.values():
        return FAILED                               # the solvers disagree
    if unsat:
        return PROVED if set(unsat) == set(Solver) else ONLY[unsat[0]]
    if SAT in statuses.values():
        return COUNTEREXAMPLE
    return UNKNOWN


def _control(proof: SmtProof, ob: Obligation, choice: SolverChoice) -> tuple[Control, str, dict]:
    """Each solver on the negative control; each model re-checked in Python."""
    runs = {s: decide(ob, s) for s in choice.solvers}
    outcome: dict[Solver, Control] = {}
    texts = []
    for s, out in runs.items():
        if out.status is UNSAT:
            outcome[s] = Control.UNSAT
        elif out.status is UNDECIDED:
            outcome[s] = Control.UNKNOWN
        else:
            try:
                ok, text = proof.verify_control(out.model)
            except AlgebraicValue as err:
                outcome[s], text = Control.REFUSED, str(err)
            else:
                outcome[s] = Control.COUNTEREXAMPLE if ok else Control.UNVERIFIED
                text = ("model re-checked in Python: " if ok else "but the Python re-check failed: ") + text
            texts.append(f"{s.value}: {text}")
    found = set(outcome.values())
    sat_side = found & {Control.COUNTEREXAMPLE, Control.UNVERIFIED, Control.REFUSED}
    if Control.UNSAT in found and sat_side:
        control = Control.DISAGREEMENT
    else:
        control = next(c for c in (Control.UNVERIFIED, Control.COUNTEREXAMPLE, Control.REFUSED, Control.UNSAT,
                                   Control.UNKNOWN) if c in found)
    what = {Control.UNSAT: "unsat — the dropped hypothesis is not needed",
            Control.DISAGREEMENT: "the solvers disagree"}.get(control, control.value)
    text = f"negative control ({proof.control_label}): {what} [{_answers(runs)}]" + "".join(f"; {t}" for t in texts)
    return control, text, runs


def _record(ob: Obligation, runs: dict[Solver, SolverAnswer]) -> ObligationRecord:
    return ObligationRecord(ob.kind, ob.filename, ob.expected, ob.label, tuple(a.run(s) for s, a in runs.items()))


def run_proof(proof: SmtProof, choice: SolverChoice = SolverChoice.BOTH, check: str | None = None) -> CheckResult:
    """Prove ``proof`` (unsat of some encoding) under each requested solver and run its negative control."""
    choice = SolverChoice(choice)
    name = check or f"{proof.claim}.proof"
    obligations = proof_obligations(proof, name)
    encodings = [ob for ob in obligations if ob.kind is ObligationKind.ENCODING]

    def body() -> CheckResult:
        lines: list[str] = []
        records: list[ObligationRecord] = []
        final: dict[Solver, SolverAnswer] = {}     # each solver's deciding answer on the proof
        used: dict[Solver, str] = {}
        tried: dict[str, tuple[Obligation, dict[Solver, SolverAnswer]]] = {}   # file name -> runs
        for solver in choice.solvers:
            for n, ob in enumerate(encodings):
                out = decide(ob, solver)
                tried.setdefault(ob.filename, (ob, {}))[1][solver] = out
                final[solver] = out
                if out.status is UNSAT:
                    used[solver] = ob.label
                    break
                if out.status is SAT and n == 0:
                    break
                if out.status is SAT:   # sat of an instantiation says nothing: try the next encoding
                    final[solver] = SolverAnswer(UNDECIDED, None, "instances insufficient (sat)", out.seconds)
        records += [_record(ob, runs) for ob, runs in tried.values()]
        verdict = combine(final)
        if verdict is FAILED:
            lines.append(f"the solvers disagree on hypotheses ∧ ¬conclusion: {_answers(final)}")
        elif verdict is COUNTEREXAMPLE:
            s, out = next((s, a) for s, a in final.items() if a.status is SAT)
            lines.append(f"refuted ({encodings[0].label}) by {s.value}: model {out.model}; {_answers(final)}")
        elif verdict is UNKNOWN:
            lines.append(f"not proved: no solver decided hypotheses ∧ ¬conclusion: {_answers(final)}")
        else:
            labels = ", ".join(dict.fromkeys(used.values()))
            lines.append(f"{verdict.value}: hypotheses ∧ ¬conclusion is unsat ({labels}): {_answers(final)}")
        if proof.hypotheses is not None:
            ob = next(o for o in obligations if o.kind is ObligationKind.HYPOTHESES)
            runs = {s: decide(ob, s) for s in choice.solvers}
            records.append(_record(ob, runs))
            found = {a.status for a in runs.values()}
            lines.append(f"hypotheses alone: {_answers(runs)}")
            proved = verdict is PROVED or verdict in ONLY.values()
            if SAT in found and UNSAT in found:
                verdict = FAILED
                lines.append("the solvers disagree on the hypotheses alone")
            elif UNSAT in found and proved:
                verdict = FAILED
                lines.append("vacuous: the hypotheses are contradictory")
            elif SAT not in found and proved:
                verdict = UNKNOWN   # not known to be non-vacuous: a proof from possibly contradictory hypotheses
                lines.append("non-vacuity not established: a proof whose hypotheses may be contradictory is unknown")
        ob = next(o for o in obligations if o.kind is ObligationKind.CONTROL)
        control, text, runs = _control(proof, ob, choice)
        records.append(_record(ob, runs))
        lines.append(text)
        lines.extend(proof.notes)
        if verdict in ONLY.values():
            lines.append("rests on one solver: " + "; ".join(
                f"{s.value} did not decide within its budget ({final[s].reason or final[s].status.value})"
                if s in final else f"{s.value} was not asked (--solver)" for s in Solver if s not in used))
        solvers = {s: a.run(s) for s, a in final.items()}
        return CheckResult(claim=proof.claim, name=proof.name, method="smt", verdict=verdict,
                           negative_control=control, detail="; ".join(lines),
                           data={"encoding": ", ".join(dict.fromkeys(used.values())) or None,
                                 "timeout_s": proof.timeout},
                           solver_choice=choice, solvers=solvers, obligations=records)

    return timed(body)


def proof_check(make: Callable[[], SmtProof], name: str,
                choice: SolverChoice = SolverChoice.BOTH) -> Callable[[], CheckResult]:
    """The runner's zero-argument callable for one proof, named (the runner labels checks by name)."""
    def check() -> CheckResult:
        return run_proof(make(), choice, name)
    check.__name__ = check.__qualname__ = name
    return check


def in_range(x: z3.ArithRef, lo, hi) -> z3.BoolRef:
    """lo ≤ x < hi."""
    return z3.And(lo <= x, x < hi)
