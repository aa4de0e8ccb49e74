"""SMT proofs of the length-extension statement under position interpolation (claim id ``extension``).

Encoding: under PI at length L the key index k of the L-grid carries the value V(x_k) of the continuous
profile V at x_k = k·L0/L, a rational (definitions.md#length-extension).  V is an uninterpreted function
ℝ → ℝ; L0, L, rows and keys are symbolic integers, and x_k is the real with x_k·L = k·L0 (nonlinear:
z3's nlsat).  The universal hypotheses on V are tried quantified first and, when that query is
unknown, as their instances at the points the conclusion mentions (sound: instances of a universal).
Main results proved, each with a negative control whose model is re-checked in Python:

* ``pi_copy_even`` — L0 and L even, V(L0/2) > V(x) for every x ∈ [0, L0) other than L0/2 ⇒ every row
  i ∈ [L/2, L) of ``copy`` is realized (control: L odd — the target ⌊L/2⌋·L0/L leaves L0/2);
* ``pi_copy_dense`` — every rational x = a·L0/b ∈ [0, L0), x ≠ L0/2, is a key of the last row of the
  even length L = 2b·L0, other than its target (so the condition of ``pi_copy_even`` is also necessary)
  (control: drop x ≠ L0/2 — the key is then the target itself);
* ``pi_fixed_offset_increasing`` / ``_decreasing`` — V strictly monotone on [0, (c+1)·L0/L] ⇒ no row
  i ≥ c+1 of ``offset:c`` (c ≥ 1) is realized (control: monotonicity dropped);
* ``pi_position0_increasing`` — V strictly increasing on [0, L0) ⇒ every row of ``position:0`` (relative:
  target key index i, the row's largest) is realized at every L (control: V increasing on the integers
  0..L0-1 only — what training sees — a row fails between them).
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction

import z3

from posreal.checks.base import CheckResult, SolverChoice
from posreal.checks.smt.common import CONTROL_BOUND, RealS, SmtProof, ivalue, proof_check, value

CLAIM = "extension"

V = z3.Function("V", RealS, RealS)
L0, L, i, k, c, a, b = z3.Ints("L0 L i k c a b")
x, y = z3.Reals("x y")
xt, xk, xn = z3.Reals("xt xk xn")          # rescaled target, rescaled key, a neighbour


def rescaled(point: z3.ArithRef, key: z3.ArithRef) -> z3.BoolRef:
    """point = key·L0/L, written without division: point·L = key·L0."""
    return point * z3.ToReal(L) == z3.ToReal(key) * z3.ToReal(L0)


def fx(value_: Fraction) -> str:
    """A fraction as text."""
    return str(value_)


def instantiated(hypotheses: list[z3.BoolRef], body: Callable[[z3.ArithRef], z3.ArithRef]) -> list[z3.BoolRef]:
    """The hypotheses with V replaced by an explicit V(x) = body(x) (piecewise linear): the non-vacuity query.
    Substituted rather than asserted as ∀x. V(x) = body(x): with V uninterpreted beside a universal hypothesis,
    cvc5 (mbqi) found no model in 10 s, whereas V's quantified hypothesis then becomes linear and ground."""
    return [z3.substitute_funs(h, (V, body(z3.Var(0, RealS)))) for h in hypotheses]


# --------------------------------------------------------------------------- copy at even L
def pi_copy_even() -> SmtProof:
    """SMT proof, with its negative control: PI on copy with L0, L even and V peaked at L0/2 realizes every row."""
    half0 = z3.ToReal(L0) / 2
    peak = z3.ForAll([x], z3.Implies(z3.And(0 <= x, x < z3.ToReal(L0), x != half0), V(x) < V(half0)))
    peak_at_key = z3.Implies(z3.And(0 <= xk, xk < z3.ToReal(L0), xk != half0), V(xk) < V(half0))
    grid = [L0 >= 2, L >= L0, 2 * b <= L, L <= 2 * b + 1,          # b = ⌊L/2⌋, the copy target index
            b <= i, i < L, 0 <= k, k <= i, k != b, rescaled(xt, b), rescaled(xk, k)]
    even = [L0 % 2 == 0, L % 2 == 0]
    wrong = V(xt) <= V(xk)

    def verify(model):
        l0, length, row, key, tgt = (ivalue(model, v) for v in (L0, L, i, k, b))
        x_t, x_k, h = Fraction(tgt * l0, length), Fraction(key * l0, length), Fraction(l0, 2)
        values = {h: value(model, V(z3.RealVal(str(h)))), x_t: value(model, V(z3.RealVal(str(x_t)))),
                  x_k: value(model, V(z3.RealVal(str(x_k))))}
        rest = min(values.values()) - 1                               # V elsewhere: below everything
        hypothesis = all(v < values[h] for p, v in values.items() if 0 <= p < l0 and p != h) and rest < values[h]
        fails = values[x_t] <= values[x_k] and key <= row < length and tgt == length // 2 and key != tgt
        return (hypothesis and fails and l0 % 2 == 0,
                f"L0 = {l0}, L = {length} (odd), row {row}: target at x = {fx(x_t)} ≠ L0/2, key {key} at "
                f"x = {fx(x_k)}; V = {({fx(p): str(v) for p, v in values.items()})}, elsewhere {rest}")

    return SmtProof(CLAIM, "PI, copy: L0, L even and V(L0/2) > V(x) on [0, L0) \\ {L0/2} ⇒ every row of R_L realized",
                    [("quantified", grid + even + [peak, wrong]),
                     ("instance at x_k", grid + even + [peak_at_key, wrong])],
                    "L odd (the target ⌊L/2⌋·L0/L leaves L0/2)",
                    grid + [L0 % 2 == 0, L % 2 == 1, peak_at_key, wrong, L <= CONTROL_BOUND], verify,
                    hypotheses=instantiated(grid + even + [peak, L0 == 4, L == 8],
                                         lambda p: -z3.If(p >= half0, p - half0, half0 - p)))


def pi_copy_dense() -> SmtProof:
    """SMT proof, with its negative control: under PI each rational x ≠ L0/2 in [0, L0) is a non-target key of copy."""
    # x = a·L0/b ∈ [0, L0) with 0 ≤ a < b; L = 2b·L0 is even and ≥ L0; key k = 2a·L0 < L lands on x
    length, key = 2 * b * L0, 2 * a * L0
    base = [L0 >= 2, L0 % 2 == 0, 0 <= a, a < b]
    conclusion = z3.And(length % 2 == 0, length >= L0, 0 <= key, key < length, key != length / 2,
                        key * b == a * length)          # k·L0/L = a·L0/b
    off_centre = 2 * a != b                              # x ≠ L0/2

    def verify(model):
        l0, aa, bb = ivalue(model, L0), ivalue(model, a), ivalue(model, b)
        L_, k_ = 2 * bb * l0, 2 * aa * l0
        return (0 <= aa < bb and k_ == L_ // 2,
                f"x = {aa}·L0/{bb} = L0/2 with L0 = {l0}: at L = {L_} the key {k_} is the target ⌊L/2⌋ itself")

    return SmtProof(CLAIM, "PI, copy: every rational x ∈ [0, L0) \\ {L0/2} is a key other than the target on the last "
                           "row of some even L",
                    [("quantified", base + [off_centre, z3.Not(conclusion)])], "drop x ≠ L0/2",
                    base + [z3.Not(conclusion), b <= CONTROL_BOUND, L0 <= CONTROL_BOUND], verify,
                    hypotheses=base + [off_centre])


# --------------------------------------------------------------------------- fixed offsets
def _fixed_offset(increasing: bool) -> SmtProof:
    u = z3.ToReal(L0) / z3.ToReal(L)                          # the spacing L0/L of the rescaled keys
    top = z3.ToReal(c + 1) * u
    order = (lambda p, q: V(p) < V(q)) if increasing else (lambda p, q: V(p) > V(q))
    mono = z3.ForAll([x, y], z3.Implies(z3.And(0 <= x, x < y, y <= top), order(x, y)))
    neighbour = c + 1 if increasing else c - 1                # the key that beats the target
    mono_at = z3.Implies(z3.And(0 <= xt, xt < xn, xn <= top) if increasing else z3.And(0 <= xn, xn < xt, xt <= top),
                         order(xt, xn) if increasing else order(xn, xt))
    grid = [L0 >= 1, L >= L0, c >= 1, i >= c + 1, i < L, rescaled(xt, c), rescaled(xn, neighbour)]
    realized_row = z3.ForAll([k], z3.Implies(z3.And(0 <= k, k <= i, k != c),
                                             V(z3.ToReal(c) * u) > V(z3.ToReal(k) * u)))
    realized_at = V(xt) > V(xn)                                  # the instance of "realized" at the neighbour

    def verify(model):
        l0, length, cc, row = (ivalue(model, v) for v in (L0, L, c, i))
        if length > 4 * CONTROL_BOUND:
            return False, f"control model with L = {length} too large to re-check"
        pts = [Fraction(j * l0, length) for j in range(row + 1)]
        vals = [value(model, V(z3.RealVal(str(p)))) for p in pts]
        realized = all(vals[cc] > vals[j] for j in range(row + 1) if j != cc)
        return realized, (f"L0 = {l0}, L = {length}, offset:{cc}: row {row} realized with V at the keys "
                          f"{[str(v) for v in vals]} (not monotone)")

    kind = "increasing" if increasing else "decreasing"
    return SmtProof(CLAIM, f"PI, offset:c (c ≥ 1): V strictly {kind} on [0, (c+1)L0/L] ⇒ no row i ≥ c+1 is realized",
                    [("quantified", grid + [mono, realized_row]),
                     ("instance at the neighbour", grid + [mono_at, realized_at])],
                    "monotonicity dropped", grid + [realized_row, L <= CONTROL_BOUND, L0 <= CONTROL_BOUND], verify,
                    hypotheses=instantiated(grid + [mono, L0 == 4, L == 8, c == 1], lambda p: p if increasing else -p))


def pi_fixed_offset_increasing() -> SmtProof:
    """SMT proof, with its negative control: PI on offset:c with V increasing realizes no row i ≥ c+1."""
    return _fixed_offset(True)


def pi_fixed_offset_decreasing() -> SmtProof:
    """SMT proof, with its negative control: PI on offset:c with V decreasing realizes no row i ≥ c+1."""
    return _fixed_offset(False)


# --------------------------------------------------------------------------- position:0 (relative)
def pi_position0_increasing() -> SmtProof:
    """SMT proof, with its negative control: PI on position:0 with V increasing on [0, L0) realizes every row."""
    n = z3.Int("n")
    increasing = z3.ForAll([x, y], z3.Implies(z3.And(0 <= x, x < y, y < z3.ToReal(L0)), V(x) < V(y)))
    on_integers = z3.ForAll([n], z3.Implies(z3.And(0 <= n, n + 1 < L0), V(z3.ToReal(n)) < V(z3.ToReal(n + 1))))
    grid = [L0 >= 1, L >= L0, 0 <= i, i < L, 0 <= k, k < i, rescaled(xt, i), rescaled(xk, k)]
    fails = V(xt) <= V(xk)                                       # row i loses to key k: not realized
    at_keys = z3.Implies(z3.And(0 <= xk, xk < xt, xt < z3.ToReal(L0)), V(xk) < V(xt))

    def verify(model):
        l0, length, row, key = (ivalue(model, v) for v in (L0, L, i, k))
        pts = sorted({Fraction(m) for m in range(l0)} | {Fraction(row * l0, length), Fraction(key * l0, length)})
        vals = {p: value(model, V(z3.RealVal(str(p)))) for p in pts}
        integer_increasing = all(vals[Fraction(m)] < vals[Fraction(m + 1)] for m in range(l0 - 1))
        x_t, x_k = Fraction(row * l0, length), Fraction(key * l0, length)
        lost = key < row < length and vals[x_t] <= vals[x_k]
        return (integer_increasing and lost,
                f"L0 = {l0}, L = {length}: V increasing on 0..{l0 - 1}, yet row {row} (target at x = {fx(x_t)}) "
                f"loses to key {key} at x = {fx(x_k)}: V = {({fx(p): str(v) for p, v in vals.items()})}")

    return SmtProof(CLAIM, "PI, position:0 (relative): V strictly increasing on [0, L0) ⇒ every row realized at "
                           "every L",
                    [("quantified", grid + [increasing, fails]), ("instance at the keys", grid + [at_keys, fails])],
                    "V increasing on the integers 0..L0-1 only (what training sees)",
                    grid + [on_integers, fails, L <= CONTROL_BOUND, L0 <= CONTROL_BOUND], verify,
                    hypotheses=instantiated(grid + [increasing, L0 == 4, L == 8], lambda p: p))


MAKERS = [pi_copy_even, pi_copy_dense, pi_fixed_offset_increasing, pi_fixed_offset_decreasing,
          pi_position0_increasing]


def proofs() -> list[tuple[str, Callable[[], SmtProof]]]:
    """(check name, proof maker) for every proof of this module."""
    return [(f"extension.{make.__name__}", make) for make in MAKERS]


def checks(choice: SolverChoice = SolverChoice.BOTH) -> list[Callable[[], CheckResult]]:
    """One zero-argument callable per proof (the runner's contract)."""
    return [proof_check(make, name, choice) for name, make in proofs()]
