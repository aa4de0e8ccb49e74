"""Every claim, checked as ``posreal check`` checks it: one test per registered check of every statement.

Each test runs one :class:`~posreal.checks.base.DeclaredCheck` through the claim runner
(``posreal.checks.runner._run_one``, what ``posreal check`` runs) and passes exactly when the runner's
``CheckResult.ok`` holds: a verdict of proved or passed, and a negative control (where the check has
one) that fails as it should.  The result is recorded on the test report, and ``tests/conftest.py``
prints one line per claim at the end of the run (claim, methods, verdict, controls).  Checks the
runner marks slow carry the ``slow`` marker (``.ci/run`` runs them as its second pytest step).
"""

from __future__ import annotations

import pytest

from posreal.checks.base import ObligationKind, Solver, SolverStatus
from posreal.checks.runner import _run_one, declared_checks

TABLE, SMT_NOTE = declared_checks()
CHECKS = [check for claim in TABLE for check in TABLE[claim]]


def test_the_smt_package_declares_its_checks():
    assert SMT_NOTE == "", SMT_NOTE
    assert any(c.method == "smt" for c in CHECKS)


def _marks(check) -> list:
    """slow checks carry ``slow``; a check whose tool is missing (coqc) is skipped with the reason: not run, not
    passed (tests/test_coq.py tests that path)."""
    missing = check.unavailable() if check.unavailable is not None else ""
    return ([pytest.mark.slow] if check.slow else []) + ([pytest.mark.skip(reason=f"not run: {missing}")]
                                                          if missing else [])


@pytest.mark.parametrize("check", [pytest.param(c, id=f"{c.claim}:{c.method}:{c.label}"[:90], marks=_marks(c))
                                   for c in CHECKS])
def test_declared_check(check, record_check):
    result = _run_one(check)
    record_check(result)
    assert result.claim == check.claim
    assert result.ok, (f"{check.claim} / {check.method} / {check.label}: verdict {result.verdict.value}, "
                       f"control {result.negative_control}: {result.detail[:600]}")
    if result.method == "smt":   # both solvers decided the proof obligation, and no answer contradicts its kind
        assert {s: r.answer for s, r in result.solvers.items()} == {Solver.Z3: SolverStatus.UNSAT,
                                                                     Solver.CVC5: SolverStatus.UNSAT}
        assert {ObligationKind.ENCODING, ObligationKind.CONTROL} <= {o.kind for o in result.obligations}
        for ob in result.obligations:
            assert {r.solver for r in ob.runs} == {Solver.Z3, Solver.CVC5}
            wrong = SolverStatus.SAT if ob.expected is SolverStatus.UNSAT else SolverStatus.UNSAT
            assert all(r.answer is not wrong for r in ob.runs), (ob.file, ob.runs)
