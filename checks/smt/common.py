"""Shared machinery of the SMT proofs: timed queries, rational model values, and the
proof-with-negative-control pattern every check of :mod:`posreal.checks.smt` follows.

A proof is a list of *encodings* of "hypotheses ∧ ¬conclusion", tried in order (the
quantified statement first; a quantifier-free instantiation of the same universal hypotheses
as a fallback when the quantified query comes back unknown — sound, because the instances
are consequences of the universals).  ``unsat`` = proved; ``sat`` of a quantified encoding =
the claim is refuted; ``unknown`` or a timeout = verdict unknown with z3's
``reason_unknown()`` — a failure, never a pass.

The negative control is the same encoding with one hypothesis dropped or weakened.  It must
come back ``sat``; its model is then read back as exact rationals (an algebraic model value is
refused) and checked **in Python, outside z3** to satisfy the kept hypotheses and violate the
conclusion.  Only then is ``negative_control = "counterexample"`` recorded.  When a proof gives
its hypotheses alone, they are checked to be satisfiable (a proof from contradictory
hypotheses is reported as failed, not proved; when that query is unknown, the proof is unknown).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction

import z3

from posreal.checks.base import COUNTEREXAMPLE, FAILED, PROVED, UNKNOWN, CheckResult, Control, timed

from posreal.theory.defaults import SMT_TIMEOUT as DEFAULT_TIMEOUT  # seconds per z3 query
CONTROL_BOUND = 12       # negative controls bound the grid so the Python re-check is finite

IntS, RealS = z3.IntSort(), z3.RealSort()


class AlgebraicValue(ValueError):
    """A z3 model value that is not a rational number (refused, never rounded)."""


@dataclass
class SolverAnswer:
    status: str                      # "sat" | "unsat" | "unknown"
    model: z3.ModelRef | None
    reason: str = ""


def query(assertions: Sequence[z3.BoolRef], timeout: float = DEFAULT_TIMEOUT) -> SolverAnswer:
    """One z3 query with a timeout (seconds)."""
    solver = z3.Solver()
    solver.set("timeout", max(1, int(timeout * 1000)))
    solver.add(*assertions)
    answer = solver.check()
    if answer == z3.unsat:
        return SolverAnswer("unsat", None)
    if answer == z3.sat:
        return SolverAnswer("sat", solver.model())
    return SolverAnswer("unknown", None, solver.reason_unknown() or "unknown")


def to_fraction(value: z3.ExprRef) -> Fraction:
    """A z3 numeral as an exact Fraction; algebraic numbers are refused."""
    if z3.is_int_value(value):
        return Fraction(value.as_long())
    if z3.is_rational_value(value):
        return Fraction(value.numerator_as_long(), value.denominator_as_long())
    if z3.is_algebraic_value(value):
        raise AlgebraicValue(f"z3 model value {value} is algebraic, not rational; refused")
    raise AlgebraicValue(f"z3 model value {value} is not a numeral; refused")


def value(model: z3.ModelRef, expr: z3.ExprRef) -> Fraction:
    """Exact value of ``expr`` in ``model`` (model completion on: unconstrained parts get a value)."""
    return to_fraction(model.eval(expr, model_completion=True))


def ivalue(model: z3.ModelRef, expr: z3.ExprRef) -> int:
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


Verifier = Callable[[z3.ModelRef], tuple[bool, str]]


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


def _control(proof: SmtProof) -> tuple[Control, str]:
    out = query(proof.control, proof.timeout)
    if out.status == "unsat":
        return Control.UNSAT, f"negative control ({proof.control_label}): unsat — the dropped hypothesis is not needed"
    if out.status == "unknown":
        return Control.UNKNOWN, f"negative control ({proof.control_label}): unknown ({out.reason})"
    try:
        ok, text = proof.verify_control(out.model)
    except AlgebraicValue as err:
        return Control.REFUSED, f"negative control ({proof.control_label}): {err}"
    if ok:
        return Control.COUNTEREXAMPLE, (f"negative control ({proof.control_label}): sat, model re-checked in Python: "
                                        f"{text}")
    return Control.UNVERIFIED, f"negative control ({proof.control_label}): sat but the Python re-check failed: {text}"


def run_proof(proof: SmtProof) -> CheckResult:
    """Prove ``proof`` (unsat of some encoding) and run its negative control."""

    def body() -> CheckResult:
        lines, verdict, used = [], UNKNOWN, None
        for n, (label, assertions) in enumerate(proof.encodings):
            out = query(assertions, proof.timeout)
            if out.status == "unsat":
                verdict, used = PROVED, label
                lines.append(f"proved: hypotheses ∧ ¬conclusion is unsat ({label})")
                break
            if out.status == "sat" and n == 0:
                verdict = COUNTEREXAMPLE
                lines.append(f"refuted ({label}): model {out.model}")
                break
            why = out.reason if out.status == "unknown" else "instances insufficient (sat)"
            lines.append(f"{label}: unknown ({why})")
        if proof.hypotheses is not None:
            hyp = query(proof.hypotheses, proof.timeout)
            lines.append(f"hypotheses alone: {hyp.status}" + (f" ({hyp.reason})" if hyp.reason else ""))
            if hyp.status == "unsat" and verdict == PROVED:
                verdict = FAILED
                lines.append("vacuous: the hypotheses are contradictory")
            elif hyp.status == "unknown" and verdict == PROVED:
                verdict = UNKNOWN   # not known to be non-vacuous: a proof from possibly contradictory hypotheses
                lines.append("non-vacuity not established: a proof whose hypotheses may be contradictory is unknown")
        control, text = _control(proof)
        lines.append(text)
        lines.extend(proof.notes)
        return CheckResult(claim=proof.claim, name=proof.name, method="smt", verdict=verdict,
                           negative_control=control, detail="; ".join(lines),
                           data={"encoding": used, "timeout_s": proof.timeout})

    return timed(body)


def proof_check(make: Callable[[], SmtProof], name: str) -> Callable[[], CheckResult]:
    """The runner's zero-argument callable for one proof, named (the runner labels checks by name)."""
    def check() -> CheckResult:
        return run_proof(make())
    check.__name__ = check.__qualname__ = name
    return check


def in_range(x: z3.ArithRef, lo, hi) -> z3.BoolRef:
    """lo ≤ x < hi."""
    return z3.And(lo <= x, x < hi)
