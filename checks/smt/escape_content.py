"""SMT proof of E2 (content escapes).

The exact margin condition of ``match`` for a content head, for every row of every length, with the positional part r :
ℤ → ℝ uninterpreted.

Encoding: row i ≥ 2, target offset δ_t ∈ [1, i] (the latest earlier occurrence), any other key offset
d ∈ [0, i], d ≠ δ_t, with a match flag b: d = 0 matches (the query's own token), 1 ≤ d < δ_t does not (δ_t is
the latest), d > δ_t is free.  Hypotheses: (1) r(0) < r(δ) for 1 ≤ δ ≤ i, (2) r strictly decreasing on 1..i
(pairwise form), (3) β > r(1) - r(i).  Conclusion: r(δ_t) + β > r(d) + β·[b].  Control: drop (3) (keep
β ≥ 0); the model is re-checked in Python with Fractions, and a token sequence with that match pattern is
built and shown to fail (:func:`posreal.theory.content_head.match_row_realized`).

Reference: definitions.md#escape-content (this project's formalization).
"""

from __future__ import annotations

from collections.abc import Callable

import z3

from posreal.checks.base import CheckResult, SolverChoice
from posreal.checks.smt.common import CONTROL_BOUND, IntS, RealS, SmtProof, ivalue, proof_check, table, value
from posreal.theory.content_head import match_condition, match_row_realized

CLAIM = "escape-content"

r = z3.Function("r", IntS, RealS)
i, dt, d, u, v = z3.Ints("i dt d u v")
beta = z3.Real("beta")
b = z3.Bool("b")


def _pattern() -> list[z3.BoolRef]:
    return [i >= 2, 1 <= dt, dt <= i, 0 <= d, d <= i, d != dt,
            z3.Implies(d == 0, b), z3.Implies(z3.And(1 <= d, d < dt), z3.Not(b))]


def _shape() -> list[z3.BoolRef]:
    self_below = z3.ForAll([u], z3.Implies(z3.And(1 <= u, u <= i), r(0) < r(u)))
    decreasing = z3.ForAll([u, v], z3.Implies(z3.And(1 <= u, u < v, v <= i), r(u) > r(v)))
    return [self_below, decreasing]


def _fails() -> z3.BoolRef:
    return r(dt) + beta <= r(d) + z3.If(b, beta, 0)


def match_exact_condition() -> SmtProof:
    """SMT proof, with its negative control: the exact condition of ``match`` realizes row i on every token sequence."""
    hyps = _pattern() + _shape()

    def verify(model):
        row, target_off, other = ivalue(model, i), ivalue(model, dt), ivalue(model, d)
        if row > CONTROL_BOUND:
            raise ValueError(f"control model with row {row} too large to re-check")
        vals = table(model, r, range(row + 1))
        weight = value(model, beta)
        matches = z3.is_true(model.eval(b, model_completion=True))
        profile = lambda delta: vals[delta]
        cond = match_condition(profile, weight, row)
        # the token sequence of the pattern: the query and the target carry 1, the other key 1 iff it matches
        tokens = [0] * (row + 1)
        tokens[row] = tokens[row - target_off] = 1
        if other > 0:
            tokens[row - other] = 1 if matches else 2
        ok = (cond.self_below and cond.decreasing and not cond.beta_margin and weight >= 0
              and match_row_realized(profile, weight, tokens, row) is False)
        return ok, (f"row {row}, β = {weight}, r = {[str(vals[k]) for k in range(row + 1)]}: β ≤ r(1) - r(i) and the "
                    f"sequence {tokens} (target offset {target_off}) is not realized")

    return SmtProof(CLAIM, "match: r(0) < r(δ), r strictly decreasing on 1..i and β > r(1) - r(i) realize row i on "
                           "every token sequence, at every length",
                    [("quantified", hyps + [beta > r(1) - r(i), _fails()])], "drop β > r(1) - r(i) (keep β ≥ 0)",
                    hyps + [beta >= 0, _fails(), i <= CONTROL_BOUND], verify,
                    hypotheses=hyps + [beta > r(1) - r(i)])


MAKERS = [match_exact_condition]


def proofs() -> list[tuple[str, Callable[[], SmtProof]]]:
    """(name, maker) of every SMT proof of this module."""
    return [(f"escape-content.{make.__name__}", make) for make in MAKERS]


def checks(choice: SolverChoice = SolverChoice.BOTH) -> list[Callable[[], CheckResult]]:
    """The checks of this module's proofs, decided by ``choice``."""
    return [proof_check(make, name, choice) for name, make in proofs()]
