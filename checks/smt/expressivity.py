"""SMT proofs for the Expressivity bound, for all lengths.

SMT proofs for the Expressivity bound: static routing (a) and the one-row ceiling of
``middle`` for free relative kernels (b), for all lengths.

(a) Encoding: token sequences are z3 arrays x : ℤ → ℤ; the head's score on row i, key j is
κ(i, j) + c·T(x_i, x_j) with κ an uninterpreted positional kernel, T an uninterpreted token
interaction and c its weight; positional-only means c = 0.  Softmax over a row is unchanged
exactly when the row's scores shift by one constant, i.e. iff every difference
s(i, j) - s(i, j') is unchanged (softmax(s)_j / softmax(s)_j' = exp(s_j - s_j')); so the
attention map is token-independent iff those differences do not depend on x.  Proved for all
n, rows and token sequences; control: c ≠ 0 (a content term), whose model must show two
token sequences with different differences (re-checked in Python with Fractions).

(b) Free relative kernel r : ℤ → ℝ, h = ⌊n/2⌋: no two distinct rows of ``middle``
(rows i ≥ h, target h) are both realized, at any n.  Argument: for rows h ≤ i1 < i2 < n ≤ 2h+1,
both offsets i1 - h and i2 - h lie in {0..i1}, so each row needs its offset strictly above the
other's.  (h = ⌊n/2⌋ is encoded as 2h ≤ n ≤ 2h + 1: the same integers, and linear.)  Control: drop
h = ⌊n/2⌋ (keep 0 ≤ h < n), i.e. ``position:h`` with h free.

Reference: definitions.md#expressivity (this project's formalization of the preprint).
"""

from __future__ import annotations

from collections.abc import Callable

import z3

from posreal.checks.base import CheckResult, SolverChoice
from posreal.checks.smt.common import CONTROL_BOUND, IntS, RealS, SmtProof, in_range, ivalue, proof_check, table, value

CLAIM = "expressivity"

kappa = z3.Function("kappa", IntS, IntS, IntS, RealS)   # κ_n(i, j)
T = z3.Function("T", IntS, IntS, RealS)                 # token interaction T(x_i, x_j)
r = z3.Function("r", IntS, RealS)
x, y = z3.Array("x", IntS, IntS), z3.Array("y", IntS, IntS)
n, i, j, j2, h, i1, i2, k = z3.Ints("n i j j2 h i1 i2 k")
cw = z3.Real("c")


def score(seq, row, key):
    """The score of key ``key`` on row ``row`` of ``seq``: position term plus content term."""
    return kappa(n, row, key) + cw * T(seq[row], seq[key])


def token_independence() -> SmtProof:
    """SMT proof, with its negative control: a positional-only head's attention depends on n alone (static routing)."""
    diff = lambda seq: score(seq, i, j) - score(seq, i, j2)
    base = [n >= 1, in_range(i, 0, n), 0 <= j, j <= i, 0 <= j2, j2 <= i]
    moved = diff(x) != diff(y)

    def verify(model):
        ii, a_, b_, nn = (ivalue(model, v) for v in (i, j, j2, n))
        weight = value(model, cw)
        tok = lambda seq, q: ivalue(model, seq[q])
        def d(seq):
            s = lambda q: (value(model, kappa(nn, ii, q)) + weight * value(model, T(tok(seq, ii), tok(seq, q))))
            return s(a_) - s(b_)
        dx, dy = d(x), d(y)
        return weight != 0 and dx != dy, (f"content weight c = {weight}: row {ii}, keys {a_}/{b_}: "
                                          f"score difference {dx} on x, {dy} on y — softmax rows differ")

    return SmtProof(CLAIM,
                    "(a) static routing: a positional-only head's attention depends on n alone, never on the tokens",
                    [("quantifier-free", base + [cw == 0, moved])], "allow a content term (c ≠ 0)",
                    base + [cw != 0, moved, n <= CONTROL_BOUND], verify, hypotheses=base + [cw == 0])


def realized(row, target) -> z3.BoolRef:
    """Row ``row`` is realized for ``target`` by the relative kernel r."""
    return z3.ForAll([k], z3.Implies(z3.And(0 <= k, k <= row, k != target), r(row - target) > r(row - k)))


def middle_one_row() -> SmtProof:
    """SMT proof, with its negative control: a free relative kernel realizes at most one row of middle."""
    base = [n >= 1, in_range(i1, h, n), in_range(i2, h, n), i1 != i2, realized(i1, h), realized(i2, h)]

    def verify(model):
        nn, hh, a_, b_ = (ivalue(model, v) for v in (n, h, i1, i2))
        vals = table(model, r, range(nn))
        ok_row = lambda row: all(vals[row - hh] > vals[row - q] for q in range(row + 1) if q != hh)
        ok = 0 <= hh <= min(a_, b_) and max(a_, b_) < nn and a_ != b_ and ok_row(a_) and ok_row(b_)
        return ok and hh != nn // 2, (f"n = {nn}, target position h = {hh} ≠ ⌊n/2⌋: rows {a_} and {b_} both realized "
                                      f"by r = {[str(vals[q]) for q in range(nn)]}")

    return SmtProof(CLAIM, "(b) a free relative kernel realizes at most one row of middle, at every length",
                    [("quantified", base + [2 * h <= n, n <= 2 * h + 1])], "drop h = ⌊n/2⌋ (keep 0 ≤ h < n)",
                    base + [h >= 0, n <= CONTROL_BOUND], verify,
                    hypotheses=[n >= 1, 2 * h <= n, n <= 2 * h + 1, in_range(i1, h, n), realized(i1, h)])


MAKERS = [token_independence, middle_one_row]


def proofs() -> list[tuple[str, Callable[[], SmtProof]]]:
    """(check name, proof maker) for every proof of this module."""
    return [(f"expressivity.{make.__name__}", make) for make in MAKERS]


def checks(choice: SolverChoice = SolverChoice.BOTH) -> list[Callable[[], CheckResult]]:
    """The checks of this module's proofs, decided by ``choice``."""
    return [proof_check(make, name, choice) for name, make in proofs()]
