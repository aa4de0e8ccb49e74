"""SMT proof of E3's implication α_L(Φ, offset:1) = 1 ⟹ α_L^ind = 1, for every length n = 2m + 1.

Encoding: layer 1's route map route : ℤ → ℤ; α_L(offset:1) = 1 is route(j) = j - 1 for 1 ≤ j < n, and row 0
routes to its only key.  Row i ∈ [m + 1, 2m - 1], s = i - m, t = s + 1.  Conclusion (the circuit's row
condition): route(t) = s, route(i) ≠ i, and no key j ∈ [0, i] other than t routes to s.  Control: weaken
α = 1 to "offset:1 is realized on row t" (routes causal: 0 ≤ route(j) ≤ j); the model's route table is
re-checked in Python by running the two-layer circuit on a token sequence of the layout
(:func:`posreal.checks.escape_checks.circuit_on_tokens`) and finding row i not realized.

Reference: definitions.md#escape-induction (this project's formalization).
"""

from __future__ import annotations

from collections.abc import Callable

import z3

from posreal.checks.base import CheckResult, SolverChoice
from posreal.checks.smt.common import CONTROL_BOUND, IntS, SmtProof, ivalue, proof_check

CLAIM = "escape-induction"

route = z3.Function("route", IntS, IntS)
m, n, i, j, k = z3.Ints("m n i j k")


def _grid() -> list[z3.BoolRef]:
    return [m >= 2, n == 2 * m + 1, m + 1 <= i, i <= 2 * m - 1]


def _violated() -> z3.BoolRef:
    s, t = i - m, i - m + 1
    other = z3.And(0 <= j, j <= i, j != t, route(j) == s)
    return z3.Or(route(t) != s, route(i) == i, other)


def alpha_one_implies_induction() -> SmtProof:
    """SMT proof, with its negative control: α_L(Φ, offset:1) = 1 implies every induction row is realized."""
    offset1 = z3.ForAll([k], z3.Implies(z3.And(1 <= k, k < n), route(k) == k - 1))
    causal = z3.ForAll([k], z3.Implies(z3.And(0 <= k, k < n), z3.And(0 <= route(k), route(k) <= k)))
    hyps = _grid() + [route(0) == 0, causal]

    def verify(model):
        from posreal.checks.escape_checks import circuit_on_tokens
        size, row = ivalue(model, n), ivalue(model, i)
        if size > 2 * CONTROL_BOUND + 1:
            raise ValueError(f"control model with n = {size} too large to re-check")
        table = [ivalue(model, route(z3.IntVal(q))) for q in range(size)]
        half = (size - 1) // 2
        causal_ok = all(0 <= table[q] <= q for q in range(size))
        realized = circuit_on_tokens(table, row)
        ok = causal_ok and table[row - half + 1] == row - half and not realized
        return ok, (f"n = {size}, row {row}: route = {table} realizes offset:1 on row {row - half + 1} only as "
                    f"needed, yet the circuit's row {row} is not realized")

    return SmtProof(CLAIM, "α_L(Φ, offset:1) = 1 implies every induction row is realized by the circuit, at every "
                           "length n = 2m + 1",
                    [("quantified", hyps + [offset1, _violated()])],
                    "weaken α = 1 to offset:1 realized on row t only",
                    hyps + [route(i - m + 1) == i - m, _violated(), n <= 2 * CONTROL_BOUND + 1], verify,
                    hypotheses=hyps + [offset1])


MAKERS = [alpha_one_implies_induction]


def proofs() -> list[tuple[str, Callable[[], SmtProof]]]:
    """(name, maker) of every SMT proof of this module."""
    return [(f"escape-induction.{make.__name__}", make) for make in MAKERS]


def checks(choice: SolverChoice = SolverChoice.BOTH) -> list[Callable[[], CheckResult]]:
    """The checks of this module's proofs, decided by ``choice``."""
    return [proof_check(make, name, choice) for name, make in proofs()]
