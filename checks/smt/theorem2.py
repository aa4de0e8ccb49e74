"""SMT proofs of Theorem 2 (relative deep-row characterization), for all lengths.

Encoding: an uninterpreted relative kernel r : ℤ → ℝ on offsets 0..N-1 (N symbolic), a
symbolic grid length 1 ≤ n ≤ N, integer rows and targets; the strict unique maximizer δ* is
the universal hypothesis ∀δ ∈ [0, N), δ ≠ δ*: r(δ*) > r(δ).  Row i is realized for target t
iff ∀j ∈ [0, i], j ≠ t: r(i - t) > r(i - j).  Main results proved (unsat of hypotheses ∧
¬conclusion), each with a negative control re-checked in Python:

* deep rows (i ≥ δ*): realized for t ⇒ t = i - δ*       (control: drop i ≥ δ*);
* deep rows: t = i - δ* ⇒ realized                         (control: non-strict maximizer);
* shallow rows (i < δ*): realized for t ⇔ i - t is the unique maximizer of r on {0..i}
  (control: non-strict realization inequality);
* ``position:p``: at most one deep row per length is realized (control: drop depth);
* growing tasks ``copy``, ``middle``, ``reverse``, ``half``: if the last row n-1 is realized
  (so in particular if all deep rows are), then n ≤ 2δ* + 2 — all deep rows are realized at
  finitely many lengths at most (control: a fixed-offset task ``offset:c`` in its place);
* where it breaks: ``alibi`` r(δ) = mδ with m > 0 (no maximizer on ℕ) realizes ``position:0``
  on every row of every length (control: a slope of either sign).

Reference: definitions.md#theorem-2 (this project's formalization of the preprint).
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from functools import partial

import z3

from posreal.checks.base import CheckResult, SolverChoice
from posreal.checks.smt.common import CONTROL_BOUND, IntS, RealS, SmtProof, in_range, ivalue, proof_check, table, value

CLAIM = "theorem2"

r = z3.Function("r", IntS, RealS)
N, n, dstar, i, t, j, delta, p, i1, i2, c = z3.Ints("N n dstar i t j delta p i1 i2 c")


def unique_max(strict: bool = True) -> z3.BoolRef:
    """δ* is the (strict unique / weak) maximizer of r on [0, N)."""
    cmp = (lambda a, b: a > b) if strict else (lambda a, b: a >= b)
    return z3.ForAll([delta], z3.Implies(z3.And(in_range(delta, 0, N), delta != dstar), cmp(r(dstar), r(delta))))


def realized(row: z3.ArithRef, target: z3.ArithRef, strict: bool = True) -> z3.BoolRef:
    """Row ``row`` of the relative kernel r is realized for ``target``."""
    cmp = (lambda a, b: a > b) if strict else (lambda a, b: a >= b)
    return z3.ForAll([j], z3.Implies(z3.And(0 <= j, j <= row, j != target),
                                     cmp(r(row - target), r(row - j))))


def unique_argmax_on_prefix(m: z3.ArithRef, row: z3.ArithRef) -> z3.BoolRef:
    """m is the unique maximizer of r on {0..row}."""
    return z3.And(0 <= m, m <= row,
                  z3.ForAll([delta], z3.Implies(z3.And(0 <= delta, delta <= row, delta != m), r(m) > r(delta))))


def grid(row: z3.ArithRef = i) -> list[z3.BoolRef]:
    """1 ≤ n ≤ N, 0 ≤ δ* < N, row on the n-grid."""
    return [1 <= n, n <= N, in_range(dstar, 0, N), in_range(row, 0, n)]


# ------------------------------------------------------------------ Python re-checks (outside z3)
def _profile(model) -> list[Fraction]:
    size = ivalue(model, N)
    if size > 4 * CONTROL_BOUND:
        raise ValueError(f"control model with N = {size} too large to re-check")
    vals = table(model, r, range(size))
    return [vals[k] for k in range(size)]


def py_unique_max(v: list[Fraction], d: int, strict: bool = True) -> bool:
    """Whether d is the strict (or weak) unique maximizer of v."""
    return all((v[d] > v[k]) if strict else (v[d] >= v[k]) for k in range(len(v)) if k != d)


def py_realized(v: list[Fraction], row: int, target: int, strict: bool = True) -> bool:
    """Whether profile v realizes row ``row`` for ``target`` (strictly or weakly)."""
    if not 0 <= target <= row < len(v):
        return False
    return all((v[row - target] > v[row - k]) if strict else (v[row - target] >= v[row - k])
               for k in range(row + 1) if k != target)


def py_unique_argmax(v: list[Fraction], m: int, row: int) -> bool:
    """Whether m is the unique argmax of v on {0..row}."""
    return 0 <= m <= row and all(v[m] > v[k] for k in range(row + 1) if k != m)


def _read(model, *names):
    return [ivalue(model, x) for x in names]


# ------------------------------------------------------------------ the proofs
def deep_only_if() -> SmtProof:
    """SMT proof, with its negative control: a deep row i ≥ δ* realized for t has t = i - δ*."""
    hyps = grid() + [unique_max(), in_range(t, 0, i + 1), realized(i, t)]

    def verify(model):
        v = _profile(model)
        nn, d, ii, tt = _read(model, n, dstar, i, t)
        ok = (py_unique_max(v, d) and ii < nn <= len(v) and py_realized(v, ii, tt) and tt != ii - d)
        return ok, f"r = {[str(x) for x in v]}, δ* = {d}, shallow row {ii} realized for t = {tt} ≠ i - δ* = {ii - d}"

    return SmtProof(CLAIM, "deep row i ≥ δ* realized for t ⇒ t = i - δ* (all N, n, i)",
                    [("quantified", hyps + [i >= dstar, t != i - dstar])],
                    "drop i ≥ δ*", hyps + [t != i - dstar, N <= CONTROL_BOUND], verify,
                    hypotheses=hyps + [i >= dstar])


def deep_if() -> SmtProof:
    """SMT proof, with its negative control: a deep row i ≥ δ* is realized for t = i - δ*."""
    base = grid() + [i >= dstar, t == i - dstar]

    def verify(model):
        v = _profile(model)
        nn, d, ii, tt = _read(model, n, dstar, i, t)
        ok = (py_unique_max(v, d, strict=False) and not py_unique_max(v, d) and ii >= d and tt == ii - d
              and ii < nn <= len(v) and not py_realized(v, ii, tt))
        return ok, f"r = {[str(x) for x in v]}, δ* = {d} a tied maximizer, deep row {ii} fails for t = i - δ* = {tt}"

    return SmtProof(CLAIM, "deep row i ≥ δ* is realized for t = i - δ* (all N, n, i)",
                    [("quantified", base + [unique_max(), z3.Not(realized(i, t))])],
                    "maximizer not unique (r(δ*) ≥ r(δ))",
                    base + [unique_max(strict=False), z3.Not(realized(i, t)), N <= CONTROL_BOUND], verify,
                    hypotheses=base + [unique_max()])


def shallow_iff() -> SmtProof:
    """SMT proof, with its negative control: a shallow row's realization by the unique maximizer on {0..i}."""
    base = grid() + [unique_max(), i < dstar, in_range(t, 0, i + 1)]

    def verify(model):
        v = _profile(model)
        d, ii, tt = _read(model, dstar, i, t)
        weak = py_realized(v, ii, tt, strict=False)
        unique = py_unique_argmax(v, ii - tt, ii)
        ok = py_unique_max(v, d) and ii < d and weak != unique
        return ok, (f"r = {[str(x) for x in v]}, row {ii}, t = {tt}: non-strict realization {weak}, "
                    f"i - t unique maximizer on {{0..i}} {unique}")

    return SmtProof(CLAIM, "shallow row i < δ* realized for t ⇔ i - t is the unique maximizer of r on {0..i}",
                    [("quantified", base + [realized(i, t) != unique_argmax_on_prefix(i - t, i)])],
                    "non-strict realization inequality",
                    base + [realized(i, t, strict=False) != unique_argmax_on_prefix(i - t, i), N <= CONTROL_BOUND],
                    verify, hypotheses=base)


def position_one_deep_row() -> SmtProof:
    """SMT proof, with its negative control: position:p is realized on at most one deep row per length."""
    base = [1 <= n, n <= N, in_range(dstar, 0, N), p >= 0, unique_max(),
            in_range(i1, p, n), in_range(i2, p, n), i1 != i2, realized(i1, p), realized(i2, p)]

    def verify(model):
        v = _profile(model)
        nn, d, pp, a, b = _read(model, n, dstar, p, i1, i2)
        ok = (py_unique_max(v, d) and a != b and p_rows_ok(nn, pp, a, b, len(v))
              and py_realized(v, a, pp) and py_realized(v, b, pp))
        return ok, (f"r = {[str(x) for x in v]}, δ* = {d}: rows {a} and {b} both realize position:{pp} "
                    "(row < δ* allowed)")

    def p_rows_ok(nn, pp, a, b, size):
        return pp <= min(a, b) and max(a, b) < nn <= size

    return SmtProof(CLAIM, "position:p is realized on at most one deep row per length",
                    [("quantified", base + [i1 >= dstar, i2 >= dstar])],
                    "drop depth i ≥ δ* of the two rows", base + [N <= CONTROL_BOUND], verify,
                    hypotheses=base[:6] + [i1 >= dstar, i2 >= dstar])


GROWING_TARGETS: dict[str, Callable] = {
    # target of the last row i = n - 1 at length n (h = ⌊n/2⌋)
    "copy": lambda length, row: row - length / 2,
    "middle": lambda length, row: length / 2,
    "reverse": lambda length, row: length - 1 - row,
    "half": lambda length, row: row / 2,
}


def growing_finite(task: str) -> SmtProof:
    """SMT proof, with its negative control: the last row of a growing task is realized only if n ≤ 2δ* + 2."""
    last = n - 1
    target = GROWING_TARGETS[task](n, last)
    base = [1 <= n, n <= N, in_range(dstar, 0, N), unique_max(), n > 2 * dstar + 2]
    hyps = base[:-1] + [in_range(target, 0, n), realized(last, target)]
    claim = hyps + [base[-1]]
    ctl = base + [c >= 0, c <= last, realized(last, last - c), N <= CONTROL_BOUND]

    def verify(model):
        v = _profile(model)
        nn, d, cc = _read(model, n, dstar, c)
        ok = py_unique_max(v, d) and nn > 2 * d + 2 and nn <= len(v) and py_realized(v, nn - 1, nn - 1 - cc)
        return ok, f"r = {[str(x) for x in v]}, δ* = {d}: offset:{cc} realized on the last row at n = {nn} > 2δ* + 2"

    return SmtProof(CLAIM, f"{task}: its last row n-1 is realized only if n ≤ 2δ* + 2 (finitely many lengths)",
                    [("quantified", claim)], "a fixed-offset task offset:c in place of the growing task",
                    ctl, verify, hypotheses=hyps)


def alibi_breaks() -> SmtProof:
    """SMT proof, with its negative control: alibi with slope m > 0 realizes position:0 on every row."""
    # where Theorem 2 breaks: r(δ) = mδ with m > 0 grows without bound (no global maximizer);
    # the causal boundary anchors position 0: on row i the largest offset i is key 0
    m = z3.Real("m")
    lin = lambda d: m * d
    real0 = z3.ForAll([j], z3.Implies(z3.And(1 <= j, j <= i), lin(i) > lin(i - j)))
    base = [n >= 1, in_range(i, 0, n)]

    def verify(model):
        slope, nn, ii = value(model, m), ivalue(model, n), ivalue(model, i)
        v = [slope * d for d in range(nn)]
        return not py_realized(v, ii, 0), f"slope m = {slope}: row {ii} of n = {nn} does not realize position:0"

    return SmtProof(CLAIM, "where it breaks: alibi r(δ) = mδ, m > 0 (no maximizer), realizes position:0 on every row "
                           "of every length",
                    [("quantified", base + [m > 0, z3.Not(real0)])], "drop m > 0 (slope of either sign)",
                    base + [z3.Not(real0), n <= CONTROL_BOUND], verify, hypotheses=base + [m > 0])


MAKERS = [deep_only_if, deep_if, shallow_iff, position_one_deep_row, alibi_breaks]


def proofs() -> list[tuple[str, Callable[[], SmtProof]]]:
    """(check name, proof maker) for every proof of this module."""
    return [(f"theorem2.{make.__name__}", make) for make in MAKERS] + \
        [(f"theorem2.growing_finite[{name}]", partial(growing_finite, name)) for name in GROWING_TARGETS]


def checks(choice: SolverChoice = SolverChoice.BOTH) -> list[Callable[[], CheckResult]]:
    """One zero-argument callable per proof (the runner's contract)."""
    return [proof_check(make, name, choice) for name, make in proofs()]
