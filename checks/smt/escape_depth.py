"""SMT proof of E1's route lemma (depth alone does not escape), the induction step for every n and K.

Encoding: two token sequences x, y : ℤ → ℤ; the level-K streams of the two inputs are uninterpreted
values F(0, j), F(1, j); mem(j, p) says p ∈ S_K(j).  Induction hypothesis (for every row j < n):
S_K(j) ⊆ {0..j}, and x, y agreeing on S_K(j) give F(0, j) = F(1, j).  Layer K + 1 routes row i to a
position r ≤ i that does not depend on the tokens (the same r for x and y) and appends the routed stream,
so the level-(K+1) stream of row i is the pair (F(·, i), F(·, r)).  Conclusion: x, y agreeing on
S_{K+1}(i) = S_K(i) ∪ S_K(r) give equal level-(K+1) streams, and S_{K+1}(i) ⊆ {0..i}.  With S_0(i) = {i}
(the stream is x_i) this is the induction on K; the size bound |S_{K+1}(i)| ≤ 2·2^K is |A ∪ B| ≤ |A| + |B|.
Control: let the route depend on the tokens (y's route r' ≠ r allowed); the model, read back on a grid of
at most 12 rows, is re-checked in Python to satisfy the hypotheses and give different streams.

Reference: definitions.md#escape-depth (this project's formalization).
"""

from __future__ import annotations

from collections.abc import Callable

import z3

from posreal.checks.base import CheckResult, SolverChoice
from posreal.checks.smt.common import CONTROL_BOUND, IntS, SmtProof, in_range, ivalue, proof_check

CLAIM = "escape-depth"

x, y = z3.Array("x", IntS, IntS), z3.Array("y", IntS, IntS)
F = z3.Function("F", IntS, IntS, IntS)             # level-K stream of input 0 (x) or 1 (y) at row j
mem = z3.Function("mem", IntS, IntS, z3.BoolSort())  # p ∈ S_K(j)
n, i, r, ry, j, p, q = z3.Ints("n i r ry j p q")


def _agree(row: z3.ArithRef) -> z3.BoolRef:
    """x and y agree on S_K(row)."""
    return z3.ForAll([p], z3.Implies(z3.And(in_range(p, 0, n), mem(row, p)), x[p] == y[p]))


def _hypotheses() -> list[z3.BoolRef]:
    subset = z3.ForAll([j, q], z3.Implies(z3.And(in_range(j, 0, n), mem(j, q)), z3.And(0 <= q, q <= j)))
    step = z3.ForAll([j], z3.Implies(in_range(j, 0, n), z3.Implies(_agree(j), F(0, j) == F(1, j))))
    union_agrees = z3.ForAll([p], z3.Implies(z3.And(in_range(p, 0, n), z3.Or(mem(i, p), mem(r, p))), x[p] == y[p]))
    return [n >= 1, in_range(i, 0, n), 0 <= r, r <= i, 0 <= ry, ry <= i, subset, step, union_agrees]


def _violated() -> z3.BoolRef:
    outside = z3.And(z3.Or(mem(i, q), mem(r, q)), z3.Or(q < 0, q > i))
    return z3.Or(F(0, i) != F(1, i), F(0, r) != F(1, ry), outside)


def route_lemma_step() -> SmtProof:
    """SMT proof, with its negative control: the induction step of the route lemma."""
    base = _hypotheses()

    def verify(model):
        size = ivalue(model, n)
        if size > CONTROL_BOUND:
            raise ValueError(f"control model with n = {size} too large to re-check")
        ii, rr, rr2 = ivalue(model, i), ivalue(model, r), ivalue(model, ry)
        xs = [ivalue(model, x[k]) for k in range(size)]
        ys = [ivalue(model, y[k]) for k in range(size)]
        inside = {(a, b): z3.is_true(model.eval(mem(a, b), model_completion=True))
                  for a in range(size) for b in range(size)}
        f = {(s, a): ivalue(model, F(s, a)) for s in (0, 1) for a in range(size)}
        sets = {a: {b for b in range(size) if inside[a, b]} for a in range(size)}
        subset_ok = all(b <= a for a in range(size) for b in sets[a])
        step_ok = all(f[0, a] == f[1, a] or any(xs[b] != ys[b] for b in sets[a]) for a in range(size))
        union_ok = all(xs[b] == ys[b] for b in sets[ii] | sets[rr])
        ranges = 0 <= rr <= ii < size and 0 <= rr2 <= ii
        differs = (f[0, ii], f[0, rr]) != (f[1, ii], f[1, rr2])
        return (subset_ok and step_ok and union_ok and ranges and differs and rr != rr2,
                f"n = {size}, row {ii}: x routes to {rr}, y to {rr2}; x and y agree on S_K({ii}) ∪ S_K({rr}) = "
                f"{sorted(sets[ii] | sets[rr])} yet the streams differ ({f[0, ii]}, {f[0, rr]}) ≠ "
                f"({f[1, ii]}, {f[1, rr2]})")

    return SmtProof(CLAIM, "route lemma, induction step: a token-independent route keeps the stream a function of "
                           "x on S_K(i) ∪ S_K(route(i)) ⊆ {0..i}",
                    [("quantified", base + [ry == r, _violated()])], "let the route depend on the tokens (r' ≠ r)",
                    base + [ry != r, _violated(), n <= CONTROL_BOUND], verify, hypotheses=base + [ry == r])


MAKERS = [route_lemma_step]


def proofs() -> list[tuple[str, Callable[[], SmtProof]]]:
    """(name, maker) of every SMT proof of this module."""
    return [(f"escape-depth.{make.__name__}", make) for make in MAKERS]


def checks(choice: SolverChoice = SolverChoice.BOTH) -> list[Callable[[], CheckResult]]:
    """The checks of this module's proofs, decided by ``choice``."""
    return [proof_check(make, name, choice) for name, make in proofs()]
