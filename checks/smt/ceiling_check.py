"""The check of the class ceilings (claim ``expressivity``), cross-checked by a second solver.

z3's optimizer (:func:`posreal.checks.smt.ceiling.compute_ceiling`, MaxSMT) finds the optimum k
rows of R_n and a witness kernel realizing them; the witness is re-counted in Python (ℚ).  The
optimality of k is then posed as an obligation of its own, decided by each requested solver
(cvc5 has no MaxSMT: z3 finds k in every mode):

* encoding "at least k + 1 rows" (the row constraints, κ(i, t) > κ(i, j) for every other key,
  guarded by one flag per row, and Σ flags ≥ k + 1): must be unsat — no kernel of the class does
  better (when k = |R_n| it is unsat by counting alone, and posed all the same);
* negative control "at least k rows" (the bound weakened by one row): must be sat, and each
  solver's model is re-counted in Python to realize at least k rows.

Verdicts as for every SMT proof (:mod:`posreal.checks.smt.common`): ``proved`` when both solvers
say unsat; ``proved by z3 only`` when cvc5 could not decide "≥ k + 1 rows" within its budget (the
detail says so); ``failed`` when a solver finds k + 1 rows or the solvers disagree.

Reference: definitions.md#class-ceiling.
"""

from __future__ import annotations

from collections.abc import Callable

import z3

from posreal.checks.base import (FAILED, PROVED, UNKNOWN, CheckResult, Control, ObligationKind, ObligationRecord,
                                 Solver, SolverChoice, SolverStatus, Verdict, timed)
from posreal.checks.smt.ceiling import (DEFAULT_TIMEOUT, DEFAULT_TRAIN_LENGTH, Ceiling, compute_ceiling,
                                        kernel_class, recount, row_constraint)
from posreal.checks.smt.common import ONLY, AlgebraicValue, SolverAnswer, combine, decide, to_fraction
from posreal.checks.smt.obligations import Obligation
from posreal.theory.tasks import parse_task

CLAIM = "expressivity"   # the class ceilings are part (b) of the Expressivity bound
REFERENCE_CELLS = (("copy", 16), ("middle", 16), ("reverse", 16), ("position:1", 16))


def _name(label: str, task: str, length: int) -> str:
    return f"ceiling[{label}·{task}·n={length}]"


def ceiling_obligations(task: str, length: int, k: int, kernel: str | None = None, pe: str | None = None,
                        train_length: int = DEFAULT_TRAIN_LENGTH,
                        timeout: float = DEFAULT_TIMEOUT) -> tuple[list[Obligation], Callable]:
    """The obligations "≥ k + 1 rows" and (when k ≥ 1) "≥ k rows".

    With them, the Python re-count of a model of the latter: model -> (rows realized ≥ k, description)."""
    task_obj = parse_task(task)
    cls = kernel_class(kernel, pe, length, train_length)
    rows, targets = (a.tolist() for a in task_obj.rows_and_targets(length))
    ctx = z3.Context()   # fresh terms: the SMT-LIB text does not depend on what this process solved before
    params = [z3.Real(f"w{p}", ctx) for p in range(cls.size)]
    flags = [z3.Bool(f"row{i}", ctx) for i in rows]
    guarded = [z3.Implies(flag, row_constraint(cls, params, i, t, ctx)) for flag, i, t in zip(flags, rows, targets)]
    count = z3.Sum([z3.If(flag, z3.IntVal(1, ctx), z3.IntVal(0, ctx)) for flag in flags])
    name = f"expressivity.{_name(kernel or str(pe), str(task_obj), length)}"
    statement = (f"the class ceiling of {cls.label} kernels on {task_obj} at n = {length} is {k}/{len(rows)} rows")
    out = [Obligation(name, "expressivity", statement, ObligationKind.ENCODING, f"at least {k + 1} rows",
                      tuple(guarded + [count >= k + 1]), timeout)]
    if k >= 1:
        out.append(Obligation(name, "expressivity", statement, ObligationKind.CONTROL,
                              f"bound weakened to at least {k} rows", tuple(guarded + [count >= k]), timeout))

    def verify(model) -> tuple[bool, str]:
        best_kernel = [to_fraction(model.eval(w, model_completion=True)) for w in params]
        got = recount(cls, best_kernel, task_obj, length, train_length)
        return len(got) >= k, f"the model's kernel realizes rows {got} ({len(got)} ≥ {k}: {len(got) >= k})"

    return out, verify


def _runs(ob: Obligation, choice: SolverChoice) -> dict[Solver, SolverAnswer]:
    return {s: decide(ob, s) for s in choice.solvers}


def _record(ob: Obligation, runs: dict[Solver, SolverAnswer]) -> ObligationRecord:
    return ObligationRecord(ob.kind, ob.filename, ob.expected, ob.label, tuple(a.run(s) for s, a in runs.items()))


def _text(runs: dict[Solver, SolverAnswer]) -> str:
    return ", ".join(f"{s.value} {a.status.value}" + (f": {a.reason}" if a.reason else "") + f" ({a.seconds:.2f} s)"
                     for s, a in runs.items())


def _judge(c: Ceiling, choice: SolverChoice, kernel, pe, timeout) -> tuple[Verdict, Control, list[str], dict, list]:
    """The verdict, the control, detail lines, each solver's run on "≥ k + 1" and the obligation records."""
    lines = [f"ceiling {c.realized}/{c.total} ({c.features}); z3 optimizer: optimality {c.optimal}"
             + (f" ({c.reason})" if c.reason else "") + f"; witness re-counted in ℚ: rows {c.realized_rows}"]
    if c.optimal != PROVED or not c.verified:
        verdict = FAILED if c.optimal == FAILED else UNKNOWN
        return verdict, Control.NO_COUNTEREXAMPLE, lines, {}, []
    obligations, verify = ceiling_obligations(c.task, c.length, c.realized, kernel, pe, c.train_length, timeout)
    encoding = next(ob for ob in obligations if ob.kind is ObligationKind.ENCODING)
    runs = _runs(encoding, choice)
    records = [_record(encoding, runs)]
    solvers = {s: a.run(s) for s, a in runs.items()}
    verdict = combine(runs)
    if verdict is Verdict.COUNTEREXAMPLE:   # some solver realized k + 1 rows: the optimizer was wrong
        verdict = FAILED
    lines.append(f"at least {c.realized + 1} rows" + (" (more than |R_n|)" if c.realized == c.total else "")
                 + f": {_text(runs)}")
    for s in choice.solvers:
        if verdict in ONLY.values() and runs[s].status is SolverStatus.UNKNOWN:
            lines.append(f"{s.value} could not decide 'at least {c.realized + 1} rows' within its budget "
                         f"({timeout:g} s): the optimality of k rests on the other solver")
    if verdict in ONLY.values() and len(choice.solvers) == 1:
        lines.append(f"only {choice.value} was asked (--solver)")
    control = Control.NO_COUNTEREXAMPLE
    control_ob = [ob for ob in obligations if ob.kind is ObligationKind.CONTROL]
    if control_ob:
        runs = _runs(control_ob[0], choice)
        records.append(_record(control_ob[0], runs))
        outcomes = []
        for s, a in runs.items():
            if a.status is SolverStatus.SAT:
                try:
                    ok, text = verify(a.model)
                except AlgebraicValue as err:
                    ok, text = False, str(err)
                outcomes.append(Control.COUNTEREXAMPLE if ok else Control.UNVERIFIED)
                lines.append(f"negative control (at least {c.realized} rows), {s.value}: sat, {text}")
            else:
                outcomes.append(Control.UNSAT if a.status is SolverStatus.UNSAT else Control.UNKNOWN)
                lines.append(f"negative control (at least {c.realized} rows), {s.value}: {a.status.value}")
        control = next(x for x in (Control.UNVERIFIED, Control.UNSAT, Control.COUNTEREXAMPLE, Control.UNKNOWN)
                       if x in outcomes)
        if Control.UNSAT in outcomes and Control.COUNTEREXAMPLE in outcomes:
            control = Control.DISAGREEMENT
    else:
        lines.append("negative control: no witness row (k = 0)")
    return verdict, control, lines, solvers, records


def ceiling_check(task: str, length: int, kernel: str | None = None, pe: str | None = None,
                  train_length: int = DEFAULT_TRAIN_LENGTH, timeout: float = DEFAULT_TIMEOUT,
                  choice: SolverChoice = SolverChoice.BOTH) -> Callable[[], CheckResult]:
    """A check that the ceiling k/m is attained and optimal.

    A check: the ceiling k/m is attained (witness re-counted in ℚ) and optimal ("≥ k + 1 rows" unsat under
    each chosen solver); negative control: "≥ k rows" sat, each model re-counted in Python."""
    label = kernel or str(pe)

    def body() -> CheckResult:
        try:
            c = compute_ceiling(task, length, kernel, pe, train_length, timeout)
        except AlgebraicValue as err:
            return CheckResult("expressivity", f"ceiling of {label} on {task} at n = {length}", "smt", UNKNOWN,
                               None, detail=str(err), solver_choice=choice)
        verdict, control, lines, solvers, records = _judge(c, choice, kernel, pe, timeout)
        return CheckResult("expressivity", f"class ceiling of {label} kernels on {task} at n = {length}", "smt",
                           verdict, control, detail="; ".join(lines), data=c.to_json(), solver_choice=choice,
                           solvers=solvers, obligations=records)

    def check() -> CheckResult:
        return timed(body)
    check.__name__ = check.__qualname__ = _name(label, task, length)
    return check


def checks(choice: SolverChoice = SolverChoice.BOTH) -> list[Callable[[], CheckResult]]:
    """The ceiling checks of the reference cells (relative kernels)."""
    return [ceiling_check(task, n, kernel="relative", choice=choice) for task, n in REFERENCE_CELLS]


def reference_obligations() -> list[Obligation]:
    """The obligations of the reference cells' checks, at the optimum z3 finds (for the SMT-LIB export)."""
    out = []
    for task, n in REFERENCE_CELLS:
        c = compute_ceiling(task, n, kernel="relative")
        out += ceiling_obligations(task, n, c.realized, kernel="relative")[0]
    return out
