"""SMT proofs of the Underdetermination result (learned absolute PE), for all L0 and L.

Encoding: positions embed into an abstract vector space (uninterpreted sort ``Vec``, any
dimension) by a table E : ℤ → Vec; the head's kernel is κ(i, j) = B(E_i, E_j) with
B(u, v) = uᵀWv.  Only what is used is axiomatized: B is additive in its first argument and
0 + 0 = 0 (so B(0, v) = 0, proved first); part (b) needs no axiom at all.  Training at lengths ≤ L0 reads
E_j for j < L0 only; the completions replace E_j, j ≥ L0.  Main results proved, each with a
negative control re-checked in Python:

* B(0, v) = 0 for every v, from additivity and 0 + 0 = 0 (control: drop additivity);
* (a) completion E_j = 0 (j ≥ L0): every row i ≥ L0 has all its keys tied
  (control: drop the additivity axiom);
* (a') for a task with length-independent rows and targets (R_∞, t(i)) realized at L0, the
  completed kernel realizes row i < L exactly when i < L0, i.e. α_L = |R_L ∩ [0, L0)| / |R_L|
  (control: drop realization at L0; uses B(0, v) = 0, the consequence of additivity proved by
  :func:`zero_form`);
* (b) completion E_j = E_{L0-1} (j ≥ L0): if ``position:p`` with p ≤ L0 - 2 is realized at L0,
  every row p ≤ i < L is realized (control: allow p = L0 - 1).

* (a) for ``copy``: if ⌊L/2⌋ ≠ ⌊L0/2⌋, no row of R_L is realized (α_L = 0)
  (control: drop ⌊L/2⌋ ≠ ⌊L0/2⌋; uses B(0, v) = 0 likewise).

What the formula of (a) needs: α_L = |R_L ∩ [0, L0)| / |R_L| holds when the rows of R_L below
L0 keep their L0 targets (offset, position, half: (a') above).  A row realizes at most one
target, so when an old row's target changes it is lost: for ``copy`` and ``middle`` that happens
exactly when ⌊L/2⌋ ≠ ⌊L0/2⌋, and the formula then fails if some scored row lies below L0, i.e.
L < 2·L0 (it holds at L = L0 + 1 for even L0: L0 = 16, L = 17 gives 8/9 both ways); for
``reverse`` every L ≠ L0 changes the targets, and the formula fails exactly for
L0 < L < 2·L0 − 1 (at L ≥ 2·L0 − 1 no scored row lies below L0 and both sides are 0).  Where it
fails, α_L = 0 (the copy proof).

Reference: definitions.md#underdetermination (this project's formalization of the preprint).
"""

from __future__ import annotations

from collections.abc import Callable

import z3

from posreal.checks.base import CheckResult, SolverChoice
from posreal.checks.smt.common import CONTROL_BOUND, IntS, RealS, SmtProof, in_range, ivalue, proof_check, value

CLAIM = "underdetermination"

Vec = z3.DeclareSort("Vec")
zero = z3.Const("zero", Vec)
add = z3.Function("add", Vec, Vec, Vec)
B = z3.Function("B", Vec, Vec, RealS)
E = z3.Function("E", IntS, Vec)
tgt = z3.Function("tgt", IntS, IntS)
scored = z3.Function("scored", IntS, z3.BoolSort())
L0, L, i, j, j2, p = z3.Ints("L0 L i j j2 p")
u, v, w = z3.Consts("u v w", Vec)

ADDITIVE = z3.ForAll([u, v, w], B(add(u, v), w) == B(u, w) + B(v, w))
ZERO = add(zero, zero) == zero
# B(0, v) = 0: what additivity and 0 + 0 = 0 give (proved by zero_form).  zero_alpha and zero_copy
# assume it directly: MBQI builds finite Vec models, on which an additive B vanishes, so with the
# axiom itself no negative-control model could realize a row.
B_ZERO = z3.ForAll([v], B(zero, v) == 0)


def zero_completion(x):
    """The completion E_j = 0 beyond L0."""
    return z3.If(x < L0, E(x), zero)


def last_completion(x):
    """The completion E_j = E_{L0-1} beyond L0."""
    return z3.If(x < L0, E(x), E(L0 - 1))


def kernel(completion):
    """The kernel of a completion: B(E_i, E_j)."""
    return lambda row, key: B(completion(row), completion(key))


def realized(kern, row, target) -> z3.BoolRef:
    """Row ``row`` is realized for ``target`` by the kernel ``kern``."""
    return z3.ForAll([j], z3.Implies(z3.And(0 <= j, j <= row, j != target), kern(row, target) > kern(row, j)))


def lengths() -> list[z3.BoolRef]:
    """The length hypotheses L0 ≥ 1, L > L0."""
    return [L0 >= 1, L > L0]


# ------------------------------------------------------------------ B(0, v) = 0
# B(0, v) = B(0 + 0, v) = B(0, v) + B(0, v), hence B(0, v) = 0.  QED
# ¬∀v B(0, v) = 0 is asserted as B(0, w) ≠ 0 for a fresh constant w (its Skolem form, equisatisfiable):
# the control's model then names its witness, and Python re-checks it in either solver's model.
w_example = z3.Const("w", Vec)


def zero_form() -> SmtProof:
    """SMT proof, with its negative control: B(0, v) = 0 from additivity of B in its first argument."""
    def verify(model):
        zero_ok = z3.is_true(model.eval(add(zero, zero) == zero, model_completion=True))
        b = value(model, B(zero, w_example))
        return zero_ok and b != 0, f"0 + 0 = 0 holds: {zero_ok}; B(0, w) = {b} ≠ 0 (B not additive)"

    not_zero = B(zero, w_example) != 0
    return SmtProof(CLAIM, "B(0, v) = 0 for every v: from additivity of B in its first argument and 0 + 0 = 0",
                    [("quantified", [ADDITIVE, ZERO, not_zero])], "drop additivity of B in its first argument",
                    [ZERO, not_zero], verify, hypotheses=[ADDITIVE, ZERO])


# ------------------------------------------------------------------ (a) all tied
def zero_ties() -> SmtProof:
    """SMT proof, with its negative control: with completion E_j = 0 every new row has all keys tied."""
    K = kernel(zero_completion)
    base = lengths() + [in_range(i, L0, L), 0 <= j, j <= i, 0 <= j2, j2 <= i, K(i, j) != K(i, j2)]

    def verify(model):
        l0, ll, ii, a_, b_ = (ivalue(model, x) for x in (L0, L, i, j, j2))
        va, vb = value(model, K(z3.IntVal(ii), z3.IntVal(a_))), value(model, K(z3.IntVal(ii), z3.IntVal(b_)))
        kept = 1 <= l0 < ll and l0 <= ii < ll and 0 <= a_ <= ii and 0 <= b_ <= ii
        return kept and va != vb, (f"L0 = {l0}, L = {ll}, new row {ii}: κ(i,{a_}) = {va} ≠ κ(i,{b_}) = {vb} "
                                   "(B(0,·) ≠ 0)")

    return SmtProof(CLAIM, "(a) completion E_j = 0: every new row i ≥ L0 has all keys tied (all L0, L)",
                    [("quantified", base + [ADDITIVE, ZERO])], "drop additivity of B in its first argument",
                    base + [ZERO, L <= CONTROL_BOUND], verify, hypotheses=lengths() + [ADDITIVE, ZERO])


def zero_alpha() -> SmtProof:
    """SMT proof, with its negative control: with completion E_j = 0 row i < L is realized iff i < L0."""
    K = kernel(zero_completion)
    K0 = lambda row, key: B(E(row), E(key))     # the trained kernel at L0
    trained = z3.ForAll([i], z3.Implies(z3.And(in_range(i, 0, L0), scored(i)), realized(K0, i, tgt(i))))
    base = lengths() + [B_ZERO, 0 <= tgt(i), tgt(i) <= i]
    wrong = [in_range(i, 0, L), scored(i), realized(K, i, tgt(i)) != (i < L0)]

    def verify(model):
        l0, ii = ivalue(model, L0), ivalue(model, i)
        t_ = ivalue(model, tgt(z3.IntVal(ii)))
        vals = [value(model, K(z3.IntVal(ii), z3.IntVal(q))) for q in range(ii + 1)]
        real = all(vals[t_] > vals[q] for q in range(ii + 1) if q != t_)
        ok = ii < l0 and 0 <= t_ <= ii and not real
        return ok, f"L0 = {l0}, old row {ii} (target {t_}) with values {[str(x) for x in vals]} is not realized"

    return SmtProof(CLAIM, "(a') completion E_j = 0, targets independent of n, realized at L0: "
                    "row i < L is realized iff i < L0, so α_L = |R_L ∩ [0, L0)| / |R_L|",
                    [("quantified", base + [trained] + wrong)], "drop realization at L0",
                    base + wrong + [L0 <= CONTROL_BOUND], verify,
                    hypotheses=base + [trained, in_range(i, 1, L0), scored(i)],
                    notes=["uses B(0, v) = 0, proved from additivity by underdetermination.zero_form",
                           "for copy/middle the targets of rows < L0 change when ⌊L/2⌋ ≠ ⌊L0/2⌋, for reverse "
                           "whenever L ≠ L0: the formula then fails if a scored row lies below L0 "
                           "(see the copy proof)"])


# ------------------------------------------------------------------ (b) copy the last row
def last_realizes() -> SmtProof:
    """SMT proof, with its negative control: with completion E_j = E_{L0-1} every row of position:p is realized."""
    K = kernel(last_completion)
    K0 = lambda row, key: B(E(row), E(key))
    trained = z3.ForAll([i], z3.Implies(in_range(i, p, L0), realized(K0, i, p)))
    base = lengths() + [p >= 0, trained]
    wrong = [in_range(i, p, L), 0 <= j, j <= i, j != p, K(i, p) <= K(i, j)]

    def verify(model):
        l0, pp, ii, jj = (ivalue(model, x) for x in (L0, p, i, j))
        if l0 > 4 * CONTROL_BOUND:
            raise ValueError(f"L0 = {l0} too large to re-check")
        K0v = lambda a_, b_: value(model, K0(z3.IntVal(a_), z3.IntVal(b_)))
        trained_ok = all(K0v(r_, pp) > K0v(r_, q) for r_ in range(pp, l0) for q in range(r_ + 1) if q != pp)
        Kv = lambda a_, b_: value(model, K(z3.IntVal(a_), z3.IntVal(b_)))
        fails = Kv(ii, pp) <= Kv(ii, jj)
        return (trained_ok and fails and pp == l0 - 1 and ii >= l0,
                f"L0 = {l0}, p = L0-1 = {pp}: position:p realized at L0, but row {ii}: "
                f"κ(i,p) = {Kv(ii, pp)} ≤ κ(i,{jj}) = {Kv(ii, jj)}")

    return SmtProof(CLAIM, "(b) completion E_j = E_{L0-1}: position:p (p ≤ L0-2) realized at L0 ⇒ every row "
                           "realized (α_L = 1)",
                    [("quantified", base + [p <= L0 - 2] + wrong)], "allow p = L0 - 1 (drop p ≤ L0 - 2)",
                    base + [p <= L0 - 1] + wrong + [L0 <= CONTROL_BOUND, L <= CONTROL_BOUND], verify,
                    hypotheses=base + [p <= L0 - 2])


# ------------------------------------------------------------------ (a) for a growing task


def zero_copy() -> SmtProof:
    """For ``copy`` with ⌊L/2⌋ ≠ ⌊L0/2⌋ no row of R_L is realized: α_L = 0.

    For ``copy`` with ⌊L/2⌋ ≠ ⌊L0/2⌋ the old rows still realize their L0 targets i - ⌊L0/2⌋, not
    the L-targets i - ⌊L/2⌋, so no row of R_L is realized: α_L = 0, which differs from
    |R_L ∩ [0, L0)| / |R_L| exactly when some scored row lies below L0 (L < 2·L0)."""
    K = kernel(zero_completion)
    K0 = lambda row, key: B(E(row), E(key))
    h0, h = L0 / 2, L / 2
    trained = z3.ForAll([i], z3.Implies(in_range(i, h0, L0), realized(K0, i, i - h0)))
    base = lengths() + [B_ZERO, trained, in_range(i, h, L), realized(K, i, i - h)]

    def verify(model):
        l0, ll, ii = (ivalue(model, x) for x in (L0, L, i))
        if l0 > 4 * CONTROL_BOUND:
            raise ValueError(f"L0 = {l0} too large to re-check")
        K0v = lambda a_, b_: value(model, K0(z3.IntVal(a_), z3.IntVal(b_)))
        trained_ok = all(K0v(r_, r_ - l0 // 2) > K0v(r_, q) for r_ in range(l0 // 2, l0)
                         for q in range(r_ + 1) if q != r_ - l0 // 2)
        Kv = [value(model, K(z3.IntVal(ii), z3.IntVal(q))) for q in range(ii + 1)]
        t_ = ii - ll // 2
        real = all(Kv[t_] > Kv[q] for q in range(ii + 1) if q != t_)
        return (trained_ok and real and ll // 2 == l0 // 2 and ll > l0,
                f"L0 = {l0}, L = {ll} (same ⌊·/2⌋): copy trained at L0 still realizes row {ii} at L")

    return SmtProof(CLAIM, "(a) for copy: completion E_j = 0 and ⌊L/2⌋ ≠ ⌊L0/2⌋ ⇒ no row of R_L is realized (α_L = 0)",
                    [("quantified", base + [h != h0])], "drop ⌊L/2⌋ ≠ ⌊L0/2⌋",
                    base + [L0 <= CONTROL_BOUND], verify, hypotheses=lengths() + [B_ZERO, trained, h != h0],
                    notes=["the formula α_L = |R_L ∩ [0, L0)| / |R_L| fails for copy when ⌊L/2⌋ ≠ ⌊L0/2⌋ and "
                           "L < 2·L0 (e.g. L0 = 16, L = 24: formula 4/12, this proof gives α_L = 0); it holds "
                           "when ⌊L/2⌋ = ⌊L0/2⌋ (L0 = 16, L = 17: 8/9)"])


MAKERS = [zero_form, zero_ties, zero_alpha, last_realizes, zero_copy]


def proofs() -> list[tuple[str, Callable[[], SmtProof]]]:
    """(check name, proof maker) for every proof of this module."""
    return [(f"underdetermination.{make.__name__}", make) for make in MAKERS]


def checks(choice: SolverChoice = SolverChoice.BOTH) -> list[Callable[[], CheckResult]]:
    """The checks of this module's proofs, decided by ``choice``."""
    return [proof_check(make, name, choice) for name, make in proofs()]
