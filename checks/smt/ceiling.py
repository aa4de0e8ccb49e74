"""Class ceilings α*_L(Φ, τ): the largest fraction of R_L that any kernel of a class realizes.

Main definitions and results (definitions.md#class-ceiling):

* α*_L = max over the class of |{i ∈ R_L : κ realizes row i}| / |R_L| — a maximum feasible
  subsystem of strict inequalities.  Each scored row is one soft constraint (the conjunction
  κ(i, t) > κ(i, j) for all other keys j ≤ i), solved with z3's ``Optimize`` (MaxSMT);
* classes: free relative kernels (any r on offsets 0..n-1), free column kernels (any a on
  positions 0..n-1), and a registry PE, κ = ⟨θ, ψ(i, j)⟩ with θ ∈ ℝ^p free (θ > 0 for a fixed bias
  with a positive scale, ``Encoding.positive_scale``).  Rational PEs use
  their exact features; sinusoidal PEs use their float64 features converted *exactly* to
  rationals (``Fraction(float)``), so the ceiling is that of the rationalized PE (reported);
* the optimum k is then certified by a second query (rows ≥ k + 1 is unsat) — that is the
  proof that no kernel does better; the witness (model values, rational only: algebraic
  values are refused) is re-counted in Python with Fractions, through theory's exact margins
  where the kernel has a theory form (profiles, rational PEs);
* the check for claim ``expressivity`` lives in :mod:`posreal.checks.smt.ceiling_check` (where
  cvc5 cross-checks the optimality of k).

Lengths are bounded (≤ 64): the queries grow as n² rows × keys.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction

import numpy as np
import z3

from posreal.checks.base import FAILED, PROVED, UNKNOWN, Verdict
from posreal.checks.smt.common import AlgebraicValue, DEFAULT_TIMEOUT, to_fraction
from posreal.theory.encodings import Encoding
from posreal.theory.pe_specs import parse_pe
from posreal.theory.errors import SpecError, bad_value
from posreal.theory.kernels import KeyIndex, ProfileKernel
from posreal.theory.transfer_operator import exact_transfer
from posreal.runtime.resources import MAX_SECONDS, ceiling_estimate, require
from posreal.theory.rational import fraction_str
from posreal.theory.realization import classify_exact, exact_margins, structural_ties
from posreal.theory.tasks import Task, parse_task

from posreal.theory.defaults import KERNEL_CLASSES, MAX_CEILING_LENGTH  # noqa: E402  (re-exported)
from posreal.theory.defaults import TRAIN_LENGTH as DEFAULT_TRAIN_LENGTH  # noqa: E402

Coeffs = dict[int, Fraction]   # sparse coefficient vector over the class's parameters


@dataclass
class KernelClass:
    """A linear family of kernels: κ(i, j) = Σ_k w_k · coeffs(i, j)[k] over free reals w."""

    label: str
    size: int                                   # number of free parameters
    coeffs: Callable[[int, int], Coeffs]        # (row i, key j) -> sparse coefficients
    exact: bool = True                          # False: float features converted to rationals
    pe: Encoding | None = None
    positive: bool = False                      # a fixed bias's positive scale: w_0 > 0 (definitions.md#fixed-bias)


@dataclass
class Ceiling:
    """The most rows one kernel class realizes on one task at one length, with witness and optimality."""

    kernel: str
    task: str
    length: int
    train_length: int
    realized: int                 # rows realized by the best kernel found
    total: int                    # |R_n|
    best_kernel: list[Fraction]       # the best kernel's parameters (r, a or θ)
    realized_rows: list[int]
    optimal: Verdict | str        # proved (k+1 rows unsat), unknown (timeout: a lower bound only), "refused"
    verified: bool                # Python re-count of the witness equals ``realized``
    features: str                 # "exact" | "float64 features converted exactly to rationals"
    reason: str = ""
    seconds: float = 0.0
    notes: list[str] = field(default_factory=list)

    @property
    def value(self) -> Fraction:
        """The ceiling realized / total as a fraction."""
        if not self.total:   # never built by compute_ceiling: an empty R_n is refused there
            raise SpecError(f"invalid ceiling of {self.task!r} at length {self.length}: no scored row; "
                            "accepted: a task with at least one scored row at that length")
        return Fraction(self.realized, self.total)

    def to_json(self) -> dict:
        """The ceiling as a JSON object."""
        return {"kernel": self.kernel, "task": self.task, "length": self.length,
                "train_length": self.train_length, "realized": self.realized, "total": self.total,
                "ceiling": f"{self.realized}/{self.total}", "witness": [fraction_str(w) for w in self.best_kernel],
                "realized_rows": self.realized_rows, "optimal": str(self.optimal), "verified": self.verified,
                "features": self.features, "reason": self.reason or None, "seconds": self.seconds,
                "notes": self.notes}


# ------------------------------------------------------------------ classes
def _unit(k: int) -> Coeffs:
    return {k: Fraction(1)}


def kernel_class(kernel: str | None, pe: str | None, length: int, train_length: int) -> KernelClass:
    """The class named by ``--kernel relative|column`` or ``--pe PE``."""
    if (kernel is None) == (pe is None):
        raise SpecError("invalid kernel class: give exactly one of kernel ('relative' or 'column') and pe")
    if kernel is not None:
        if kernel == "relative":
            return KernelClass("relative", length, lambda i, j: _unit(i - j))
        if kernel == "column":
            return KernelClass("column", length, lambda i, j: _unit(j))
        raise bad_value("kernel", kernel, "relative, column")
    if pe is None:   # unreachable: exactly one of kernel and pe is given
        raise SpecError("invalid kernel class: give exactly one of kernel and pe")
    enc = parse_pe(pe)
    p = enc.dim(train_length)
    enc.check_length(length, train_length)
    require(ceiling_estimate(f"the class ceiling of {enc}", p, length))   # before building z3 terms
    rows = [i for i in range(length) for _ in range(i + 1)]
    keys = [enc.key_index(i, j) for i in range(length) for j in range(i + 1)]
    if enc.rational:
        feats = enc.exact_index_features(rows, keys, train_length)           # n(n+1)/2 tuples of p
        exact = True
    else:
        floats = enc.index_features(np.asarray(rows), np.asarray(keys), train_length)  # (n(n+1)/2, p)
        feats = [tuple(Fraction(float(x)) for x in row) for row in floats]
        exact = False
    table = {}
    for pos, (i, k) in enumerate(zip(rows, keys)):
        j = i - k if enc.index == "offset" else k
        table[(i, j)] = {c: Fraction(x) for c, x in enumerate(feats[pos]) if x != 0}
    return KernelClass(str(enc), p, lambda i, j: table[(i, j)], exact, enc, enc.positive_scale)


# ------------------------------------------------------------------ the query
def _linear(params: Sequence[z3.ArithRef], coeffs: Coeffs, ctx: z3.Context | None = None) -> z3.ArithRef:
    terms = [z3.RealVal(c, ctx) * params[k] for k, c in sorted(coeffs.items())]
    return z3.Sum(terms) if terms else z3.RealVal(0, ctx)


def _difference(a: Coeffs, b: Coeffs) -> Coeffs:
    out = dict(a)
    for k, c in b.items():
        out[k] = out.get(k, Fraction(0)) - c
    return {k: c for k, c in out.items() if c != 0}


def row_constraint(cls: KernelClass, params, i: int, t: int, ctx: z3.Context | None = None) -> z3.BoolRef:
    """κ(i, t) > κ(i, j) for every other key j ≤ i (False on a structural tie); terms in z3 context ``ctx``."""
    parts = []
    target = cls.coeffs(i, t)
    for j in range(i + 1):
        if j == t:
            continue
        diff = _difference(target, cls.coeffs(i, j))
        if not diff:
            return z3.BoolVal(False, ctx)   # structural tie: no kernel of the class realizes the row
        parts.append(_linear(params, diff, ctx) > 0)
    return z3.And(parts) if parts else z3.BoolVal(True, ctx)


def _check_length(length: int) -> None:
    if not isinstance(length, int) or not 1 <= length <= MAX_CEILING_LENGTH:
        raise bad_value("length", length, f"an integer 1..{MAX_CEILING_LENGTH} (ceiling queries grow as n^3)")


def compute_ceiling(task: str | Task, length: int, kernel: str | None = None, pe: str | None = None,
                    train_length: int = DEFAULT_TRAIN_LENGTH, timeout: float = DEFAULT_TIMEOUT) -> Ceiling:
    """α*_n for one class and task: best kernel by MaxSMT, optimality by a second query."""
    start = time.perf_counter()
    _check_length(length)
    if not isinstance(train_length, int) or train_length < 1:
        raise bad_value("train length", train_length, "an integer >= 1")
    if isinstance(timeout, bool) or not isinstance(timeout, (int, float)) or not 0 < timeout <= MAX_SECONDS:
        raise bad_value("timeout", timeout, f"a number of seconds > 0 and <= {MAX_SECONDS}")
    task_obj = parse_task(task)
    cls = kernel_class(kernel, pe, length, train_length)
    rows, targets = (a.tolist() for a in task_obj.rows_and_targets(length))
    if not rows:   # α*_n = |realized| / |R_n| is undefined, not 1
        raise SpecError(f"invalid task {str(task_obj)!r} at length {length}: it scores no row (R_n is empty); "
                        "accepted: a task and length with at least one scored row, e.g. position:p with p < length")
    # a z3 context of its own: which optimal model z3 returns (the witness) then does not depend on the
    # queries this process solved before (in one shared context it does)
    ctx = z3.Context()
    params = [z3.Real(f"w{k}", ctx) for k in range(cls.size)]
    cons = [row_constraint(cls, params, i, t, ctx) for i, t in zip(rows, targets)]
    flags = [z3.Bool(f"row{i}", ctx) for i in rows]
    opt = z3.Optimize(ctx=ctx)
    opt.set("timeout", max(1, int(timeout * 1000)))
    scope = [params[0] > 0] if cls.positive else []   # the class's own constraints on its parameters
    for con in scope:
        opt.add(con)
    for flag, con in zip(flags, cons):
        opt.add(z3.Implies(flag, con))
        opt.add_soft(flag, 1)
    answer = opt.check()
    features = "exact" if cls.exact else "float64 features converted exactly to rationals"
    model = _best_model(opt) if answer != z3.unsat else None
    if model is None:
        reason = opt.reason_unknown() if answer == z3.unknown else "unsat (impossible for soft constraints)"
        return Ceiling(cls.label, str(task_obj), length, train_length, 0, len(rows), [], [], UNKNOWN, False,
                       features, reason, round(time.perf_counter() - start, 4))
    try:
        best_kernel = [to_fraction(model.eval(w, model_completion=True)) for w in params]
    except AlgebraicValue as err:   # never rounded: the witness is refused
        return Ceiling(cls.label, str(task_obj), length, train_length, 0, len(rows), [], [], "refused", False,
                       features, str(err), round(time.perf_counter() - start, 4))
    realized_rows = recount(cls, best_kernel, task_obj, length, train_length)
    k = len(realized_rows)
    optimal, reason = PROVED, ""
    if answer != z3.sat:   # timeout: the best model so far gives a lower bound only
        optimal, reason = UNKNOWN, f"optimizer stopped: {opt.reason_unknown()}; {k} rows is a lower bound"
    elif k < len(rows):
        optimal, reason = prove_at_most(cons, flags, k, timeout, ctx, scope)
    claimed = sum(1 for f in flags if z3.is_true(model.eval(f, model_completion=True)))
    verified = claimed == k and all(z3.is_true(model.eval(c, model_completion=True)) for c, f in zip(cons, flags)
                                    if z3.is_true(model.eval(f, model_completion=True)))
    out = Ceiling(cls.label, str(task_obj), length, train_length, k, len(rows), best_kernel, realized_rows,
                  optimal, verified, features, reason, round(time.perf_counter() - start, 4))
    if not cls.exact:
        out.notes.append("features are float64 values converted exactly to rationals: the ceiling of that rational PE")
    if claimed != k:
        out.notes.append(f"z3 claimed {claimed} rows, the Python re-count found {k}")
    return out


def _best_model(opt: z3.Optimize) -> z3.ModelRef | None:
    """The optimizer's model: the optimum after sat, the best found so far after a timeout."""
    try:
        return opt.model()
    except z3.Z3Exception:
        return None


def prove_at_most(cons, flags, k: int, timeout: float, ctx: z3.Context | None = None,
                  scope: Sequence[z3.BoolRef] = ()) -> tuple[Verdict, str]:
    """Certify that no kernel of the class realizes k + 1 rows (unsat): optimality of k.

    Certify that no kernel of the class (``scope``: its constraints on the parameters) realizes k + 1
    rows (unsat) — optimality of k."""
    solver = z3.Solver(ctx=ctx)
    solver.set("timeout", max(1, int(timeout * 1000)))
    for con in scope:
        solver.add(con)
    for flag, con in zip(flags, cons):
        solver.add(z3.Implies(flag, con))
    solver.add(z3.PbGe([(f, 1) for f in flags], k + 1))
    answer = solver.check()
    if answer == z3.unsat:
        return PROVED, ""
    if answer == z3.sat:
        return FAILED, f"a kernel realizing {k + 1} rows exists: the optimizer's answer was not optimal"
    return UNKNOWN, solver.reason_unknown()


# ------------------------------------------------------------------ independent re-count (Python, ℚ)
def recount(cls: KernelClass, best_kernel: list[Fraction], task: Task, length: int, train_length: int) -> list[int]:
    """Rows realized by the witness kernel, decided in ℚ without z3."""
    rows, targets = task.rows_and_targets(length)
    if cls.label in KERNEL_CLASSES:
        profile = ProfileKernel(length, KeyIndex.OFFSET if cls.label == "relative" else KeyIndex.POSITION,
                                list(best_kernel))
        margins, _ = exact_margins(profile, rows, targets)
        status = classify_exact(margins, np.zeros(rows.size, dtype=bool))
        return [int(i) for i, s in zip(rows, status) if s > 0]
    if cls.exact and cls.pe is not None:   # rational PE: theory's exact transfer, margins and structural ties
        kern = exact_transfer(cls.pe, best_kernel, length, train_length)
        margins, _ = exact_margins(kern, rows, targets)
        ties = structural_ties(cls.pe, rows, targets, length, train_length)
        status = classify_exact(margins, ties)
        return [int(i) for i, s in zip(rows, status) if s > 0]
    out = []   # rationalized float features: evaluate κ(i, j) = ⟨θ, ψ(i, j)⟩ in ℚ directly
    for i, t in zip(rows.tolist(), targets.tolist()):
        vals = [sum((best_kernel[c] * x for c, x in cls.coeffs(i, j).items()), Fraction(0)) for j in range(i + 1)]
        if all(vals[t] > vals[j] for j in range(i + 1) if j != t):
            out.append(i)
    return out
