"""SMT proofs of Proposition 4 (absolute/relative duality by the shear), for all lengths.

Encoding: an uninterpreted kernel κ : ℤ × ℤ → ℝ on the causal triangle 0 ≤ j ≤ i, the shear
(Sκ)(i, j) = κ(i, i - j), tasks as integer-valued target terms, and (for the dual of
Theorem 2) an uninterpreted column profile a : ℤ → ℝ with κ(i, j) = a(j).  Main results
proved, each with a negative control re-checked in Python:

* S is an involution on kernels            (control: the cyclic shift j ↦ (j+1) mod (i+1));
* S maps each row's key set {0..i} onto itself   (control: a bidirectional key set {0..n-1});
* margins are preserved, γ_i(Sκ; Sτ) = γ_i(κ; τ), γ the exact minimum of the differences
  (control: shear the kernel but not the task);
* S maps relative kernels to column kernels and back (control: a general kernel in place of a relative one);
* S maps fixed-offset tasks to fixed-position tasks and back, so growing tasks to growing ones
  (uninterpreted task t_n(i) on uninterpreted rows; control: the reflection t ↦ n-1-t, on
  lengths 1..4 so that Python can re-check the model);
* S(offset:c) = position:c, S(position:c) = offset:c, S(copy) = middle
  (control: the reflection j ↦ n-1-j in place of the shear);
* dual of Theorem 2: a column kernel with unique maximizer p realizes, on rows i ≥ p,
  exactly ``position:p``  (control: drop i ≥ p).

Reference: definitions.md#proposition-4 (this project's formalization of the preprint).
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction

import z3

from posreal.checks.base import CheckResult, SolverChoice
from posreal.checks.smt.common import CONTROL_BOUND, IntS, RealS, SmtProof, in_range, ivalue, proof_check, table, value

CLAIM = "proposition4"

kappa = z3.Function("kappa", IntS, IntS, RealS)
a = z3.Function("a", IntS, RealS)
rel = z3.Function("r", IntS, RealS)
n, N, i, j, k, t, c, p, g, i2 = z3.Ints("n N i j k t c p g i2")
m1, m2 = z3.Reals("m1 m2")


def shear(kern: Callable) -> Callable:
    """(Sκ)(i, j) = κ(i, i - j)."""
    return lambda row, key: kern(row, row - key)


def causal(row, key) -> z3.BoolRef:
    """Key ``key`` is visible from row ``row``: 0 ≤ key ≤ row."""
    return z3.And(0 <= key, key <= row)


def _kernel_rows(model, rows: list[int]) -> dict[tuple[int, int], Fraction]:
    return table(model, kappa, [(r_, q) for r_ in rows for q in range(r_ + 1)])


def _small(*vals: int) -> None:
    if max(vals) > 4 * CONTROL_BOUND:
        raise ValueError(f"control model too large to re-check: {vals}")


# ------------------------------------------------------------------ involution
def involution() -> SmtProof:
    """SMT proof, with its negative control: the shear is an involution on the causal triangle."""
    SS = shear(shear(kappa))

    def rot(kern):  # the cyclic shift of each row's keys: also a bijection of {0..i}, not an involution
        return lambda row, key: kern(row, (key + 1) % (row + 1))

    RR = rot(rot(kappa))
    base = [i >= 0, causal(i, j)]

    def verify(model):
        ii, jj = ivalue(model, i), ivalue(model, j)
        _small(ii)
        vals = _kernel_rows(model, [ii])
        back = ((jj + 1) % (ii + 1) + 1) % (ii + 1)
        ok = 0 <= jj <= ii and vals[(ii, back)] != vals[(ii, jj)]
        return ok, f"row {ii}: shifting key {jj} twice lands on key {back}, κ = {vals[(ii, back)]} ≠ {vals[(ii, jj)]}"

    return SmtProof(CLAIM, "the shear is an involution: S(Sκ) = κ on the causal triangle",
                    [("quantifier-free", base + [SS(i, j) != kappa(i, j)])],
                    "cyclic shift j ↦ (j+1) mod (i+1) in place of the shear",
                    base + [RR(i, j) != kappa(i, j), i <= CONTROL_BOUND], verify, hypotheses=base)


# ------------------------------------------------------------------ key sets
def key_set_onto() -> SmtProof:
    """SMT proof, with its negative control: the shear maps each row's key set {0..i} onto itself."""
    into_fails = z3.And(causal(i, j), z3.Not(causal(i, i - j)))
    onto_fails = z3.And(causal(i, k), z3.ForAll([j], z3.Implies(causal(i, j), i - j != k)))
    base = [i >= 0]
    # control: a bidirectional row sees keys {0..n-1}, n > i
    ctl = [i >= 0, n > i, in_range(j, 0, n), z3.Not(in_range(i - j, 0, n)), n <= CONTROL_BOUND]

    def verify(model):
        ii, nn, jj = ivalue(model, i), ivalue(model, n), ivalue(model, j)
        ok = 0 <= ii < nn and 0 <= jj < nn and not 0 <= ii - jj < nn
        return ok, f"bidirectional row {ii} of n = {nn}: key {jj} shears to {ii - jj}, outside {{0..{nn - 1}}}"

    return SmtProof(CLAIM, "the shear maps each row's key set {0..i} onto itself",
                    [("quantified", base + [z3.Or(into_fails, onto_fails)])],
                    "bidirectional key set {0..n-1} in place of the causal {0..i}", ctl, verify, hypotheses=base)


# ------------------------------------------------------------------ margins
def exact_min(m, kern, row, target) -> z3.BoolRef:
    """m = γ_row(kern; target) = min over keys q ≠ target of kern(row, target) - kern(row, q) (row ≥ 1)."""
    gap = lambda q: kern(row, target) - kern(row, q)
    return z3.And(z3.ForAll([j], z3.Implies(z3.And(causal(row, j), j != target), m <= gap(j))),
                  z3.Exists([k], z3.And(causal(row, k), k != target, m == gap(k))))


def _py_margin(vals, row, target):
    return min(vals[(row, target)] - vals[(row, q)] for q in range(row + 1) if q != target)


def margins() -> SmtProof:
    """SMT proof, with its negative control: the shear preserves every margin."""
    S = shear(kappa)
    base = [i >= 1, causal(i, t), exact_min(m1, kappa, i, t)]
    proof = base + [exact_min(m2, S, i, i - t), m1 != m2]
    ctl = base + [exact_min(m2, S, i, t), m1 != m2, i <= CONTROL_BOUND]

    def verify(model):
        ii, tt = ivalue(model, i), ivalue(model, t)
        if not (ii >= 1 and 0 <= tt <= ii):   # the kept hypotheses: a row with a rival key, a causal target
            return False, f"row {ii}, target {tt}: not a row i ≥ 1 with 0 ≤ t ≤ i"
        _small(ii)
        vals = _kernel_rows(model, [ii])
        sheared = {(ii, q): vals[(ii, ii - q)] for q in range(ii + 1)}
        g1, g2 = _py_margin(vals, ii, tt), _py_margin(sheared, ii, tt)
        return g1 != g2, f"row {ii}, target {tt}: γ(κ; τ) = {g1} but γ(Sκ; τ) = {g2} (task not sheared)"

    return SmtProof(CLAIM, "margins are preserved: γ_i(Sκ; Sτ) = γ_i(κ; τ) for every kernel, row and target",
                    [("quantified", proof)], "shear the kernel but not the task (target t instead of i - t)",
                    ctl, verify, hypotheses=base)


# ------------------------------------------------------------------ relative ↔ column
def relative_to_column() -> SmtProof:
    """SMT proof, with its negative control: the shear exchanges relative and column kernels."""
    S_rel = shear(lambda row, key: rel(row - key))      # S of a relative kernel
    S_col = shear(lambda row, key: a(key))              # S of a column kernel
    not_column = z3.And(causal(i, j), causal(i2, j), S_rel(i, j) != S_rel(i2, j))
    not_relative = z3.And(causal(i, j), causal(i2, k), i - j == i2 - k, S_col(i, j) != S_col(i2, k))
    S_gen = shear(kappa)
    ctl = [causal(i, j), causal(i2, j), S_gen(i, j) != S_gen(i2, j), i <= CONTROL_BOUND, i2 <= CONTROL_BOUND]

    def verify(model):
        ii, jj, kk = ivalue(model, i), ivalue(model, j), ivalue(model, i2)
        v1, v2 = value(model, kappa(ii, ii - jj)), value(model, kappa(kk, kk - jj))
        kept = 0 <= jj <= ii and 0 <= jj <= kk   # causal(i, j) and causal(i2, j)
        return kept and v1 != v2, (f"(Sκ)({ii},{jj}) = {v1} ≠ (Sκ)({kk},{jj}) = {v2}: the sheared general kernel "
                                   "is not a column kernel")

    return SmtProof(CLAIM, "the shear maps relative kernels r(i-j) to column kernels r(j), and column kernels "
                           "to relative ones",
                    [("quantifier-free", [z3.Or(not_column, not_relative)])],
                    "a general kernel κ(i, j) in place of a relative one", ctl, verify,
                    hypotheses=[causal(i, j), causal(i2, j)])


# ------------------------------------------------------------------ task classes
tt = z3.Function("t", IntS, IntS, IntS)                 # a task: target t_n(i)
sc = z3.Function("scored", IntS, IntS, z3.BoolSort())   # its rows: i ∈ R_n
cc, nn_, ii_ = z3.Ints("cc nn ii")


def _constant(term: Callable) -> z3.BoolRef:
    """∃c ∀n, i: (i ∈ R_n) ⇒ term(n, i) = c."""
    return z3.Exists([cc], z3.ForAll([nn_, ii_], z3.Implies(sc(nn_, ii_), term(nn_, ii_) == cc)))


CONTROL_CELLS = [(n_, i_) for n_ in range(1, 5) for i_ in range(n_)]   # lengths 1..4


def _constant_on_cells(term: Callable) -> z3.BoolRef:
    """Quantifier-free "term is one constant on the scored cells" over CONTROL_CELLS: the constant,
    if any row is scored, is the value at some scored cell."""
    cells = [(z3.IntVal(a_), z3.IntVal(b_)) for a_, b_ in CONTROL_CELLS]
    same_as = lambda ref: z3.And([z3.Implies(sc(*d), term(*d) == term(*ref)) for d in cells])
    return z3.Or([z3.Not(z3.Or([sc(*d) for d in cells]))] + [z3.And(sc(*ref), same_as(ref)) for ref in cells])


def task_classes() -> SmtProof:
    """SMT proof, with its negative control: the shear exchanges fixed-offset and fixed-position tasks."""
    sheared = lambda n_, i_: i_ - tt(n_, i_)                       # (Sτ)_n(i)
    fixed_offset = lambda target: _constant(lambda n_, i_: i_ - target(n_, i_))
    fixed_position = lambda target: _constant(target)
    wrong = z3.Or(fixed_offset(sheared) != fixed_position(tt), fixed_position(sheared) != fixed_offset(tt))
    valid = z3.ForAll([nn_, ii_], z3.Implies(sc(nn_, ii_), z3.And(0 <= tt(nn_, ii_), tt(nn_, ii_) <= ii_)))
    reflected = lambda n_, i_: n_ - 1 - tt(n_, i_)                 # a reflection, not the shear
    # the control lives on lengths 1..4 (quantifier-free there, so that Python can re-check it)
    on_cells = [z3.Implies(sc(z3.IntVal(a_), z3.IntVal(b_)),
                           z3.And(0 <= tt(a_, b_), tt(a_, b_) <= b_)) for a_, b_ in CONTROL_CELLS]
    ctl = on_cells + [_constant_on_cells(reflected) != _constant_on_cells(lambda n_, i_: i_ - tt(n_, i_))]

    def verify(model):
        dom = [(n_, i_) for n_, i_ in CONTROL_CELLS if z3.is_true(model.eval(sc(n_, i_), model_completion=True))]
        T = {d: ivalue(model, tt(*d)) for d in dom}
        const = lambda vals: len(set(vals)) <= 1
        fp_refl = const([n_ - 1 - T[(n_, i_)] for n_, i_ in dom])
        fo = const([i_ - T[(n_, i_)] for n_, i_ in dom])
        targets_ok = all(0 <= T[(n_, i_)] <= i_ for n_, i_ in dom)
        return targets_ok and fp_refl != fo, (f"rows {dom}, targets {[T[d] for d in dom]}: reflected task "
                                              f"fixed-position {fp_refl}, "
                               f"task fixed-offset {fo}")

    return SmtProof(CLAIM, "S maps fixed-offset tasks to fixed-position tasks and back, hence growing to growing",
                    [("quantified", [valid, wrong])], "the reflection t ↦ n-1-t in place of the shear (lengths 1..4)",
                    ctl, verify, hypotheses=[valid, fixed_offset(tt)])


# ------------------------------------------------------------------ tasks
def task_duals() -> SmtProof:
    """SMT proof, with its negative control: S(offset:c) = position:c, S(position:c) = offset:c, S(copy) = middle."""
    h = n / 2
    sh = lambda row, target: row - target          # (Sτ)(i) = i - t(i)
    fails = z3.Or(z3.And(i >= c, sh(i, i - c) != c),       # S(offset:c) = position:c
                  z3.And(i >= c, sh(i, c) != i - c),       # S(position:c) = offset:c
                  z3.And(i >= h, sh(i, i - h) != h))       # S(copy) = middle
    base = [c >= 0, i < n]
    refl = lambda row, target: n - 1 - target        # a reflection of keys, not the shear
    ctl = base + [i >= c, refl(i, i - c) != c, n <= CONTROL_BOUND]

    def verify(model):
        ii, cc, nn = ivalue(model, i), ivalue(model, c), ivalue(model, n)
        image = nn - 1 - (ii - cc)
        return cc <= ii < nn and image != cc, (f"n = {nn}, row {ii}: reflecting offset:{cc}'s target gives "
                                               f"{image} ≠ {cc}")

    return SmtProof(CLAIM, "S(offset:c) = position:c, S(position:c) = offset:c, S(copy) = middle (same rows)",
                    [("quantifier-free", base + [fails])], "the reflection j ↦ n-1-j in place of the shear",
                    ctl, verify, hypotheses=base)


# ------------------------------------------------------------------ dual of Theorem 2
def column_realized(row, target) -> z3.BoolRef:
    """Row ``row`` is realized for ``target`` by the column kernel a."""
    return z3.ForAll([j], z3.Implies(z3.And(causal(row, j), j != target), a(target) > a(j)))


def dual_theorem2() -> SmtProof:
    """SMT proof, with its negative control: the dual of Theorem 2 for column kernels."""
    unique = z3.ForAll([k], z3.Implies(z3.And(in_range(k, 0, N), k != p), a(p) > a(k)))
    base = [1 <= n, n <= N, in_range(p, 0, N), unique, in_range(i, 0, n), causal(i, t)]
    mismatch = column_realized(i, t) != (t == p)

    def verify(model):
        size, pp, ii, tt = (ivalue(model, x) for x in (N, p, i, t))
        _small(size)
        v = table(model, a, range(size))
        uniq = all(v[pp] > v[q] for q in range(size) if q != pp)
        real = all(v[tt] > v[q] for q in range(ii + 1) if q != tt)
        return uniq and real != (tt == pp), (f"a = {[str(v[q]) for q in range(size)]}, p = {pp}: row {ii} < p "
                                              f"realized for t = {tt}: {real}")

    return SmtProof(CLAIM, "dual of Theorem 2: a column kernel with unique maximizer p realizes exactly position:p "
                           "on rows i ≥ p",
                    [("quantified", base + [i >= p, mismatch])], "drop i ≥ p",
                    base + [mismatch, N <= CONTROL_BOUND], verify, hypotheses=base + [i >= p])


MAKERS = [involution, key_set_onto, margins, relative_to_column, task_classes, task_duals, dual_theorem2]


def proofs() -> list[tuple[str, Callable[[], SmtProof]]]:
    """(check name, proof maker) for every proof of this module."""
    return [(f"proposition4.{make.__name__}", make) for make in MAKERS]


def checks(choice: SolverChoice = SolverChoice.BOTH) -> list[Callable[[], CheckResult]]:
    """The checks of this module's proofs, decided by ``choice``."""
    return [proof_check(make, name, choice) for name, make in proofs()]
