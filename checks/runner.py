"""The claim runner behind ``posreal check``: every check of every requested result, by statement id.

Main definitions:

* :func:`declared_checks` — claim id -> the checks that cover it: every check that a module of
  ``posreal.checks`` declares where it defines it (:func:`posreal.checks.declare.claim_check`: symbolic
  derivations, property checks, registry cross-checks, Theorem 1 on real training, α♯ against the log-time
  gradient flow, …; the runner keeps no list of them) and whatever
  ``posreal.checks.smt.smt_checks(choice)`` holds for the chosen solvers (z3, cvc5 or both; imported
  lazily: the solvers load only when SMT checks run), and the Coq kernel checks
  (:mod:`posreal.checks.coq_checks`: method ``coq``, verdict ``kernel-checked``);
* :func:`run_claims` — run them and return one :class:`ClaimReport` per claim.  A check that raises
  is a failure with the exception in its detail; a method that the statement lists
  (:attr:`posreal.theory.statements.Statement.checks`) but for which no check ran is reported as ``unknown``
  (missing coverage is a failure, never silence); checks marked slow are skipped with
  ``skip_slow=True`` and listed as skipped; a check whose tool is missing (``coqc``) is listed as skipped,
  "not run", never as passed.  :meth:`ClaimReport.to_json` lists the claim's kernel-checked methods.
  An SMT verdict that rests on one solver (``proved by z3 only``) is listed by :attr:`ClaimReport.one_solver`.
  :attr:`ClaimReport.verdict` says it in words (a refuted statement reads ``refuted``, never ``ok``).
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from posreal.checks.base import FAILED, UNKNOWN, CheckResult, DeclaredCheck, SolverChoice, Verdict
from posreal.theory.statements import CONJECTURE, REFUTED, STATEMENT_IDS, Statement, statement


def _declared() -> list[DeclaredCheck]:
    """Every check declared where it is defined (:func:`posreal.checks.declare.claim_check`), module by module;
    a module that cannot be imported leaves a note for its method (properties need hypothesis)."""
    from posreal.checks.declare import declared_checks
    checks, missing = declared_checks()
    for module, reason in missing.items():
        if module.endswith(".properties"):
            _NOTES["property"] = f"property checks need hypothesis: {reason} (pip install -e '.[dev]')"
    return checks


def _local_checks() -> list[DeclaredCheck]:
    """Every declared non-SMT, non-Coq check (symbolic, property, registry, training, dynamics, enumeration)."""
    return [c for c in _declared() if c.method != "coq"]


_NOTES: dict[str, str] = {}   # method -> why its checks are missing


def _smt_checks(choice: SolverChoice = SolverChoice.BOTH) -> tuple[list[DeclaredCheck], str]:
    """Whatever ``posreal.checks.smt.smt_checks(choice)`` holds, and a note if the package is missing or broken.
    Each is registered as ``smt``; the method recorded is the one each result reports."""
    try:
        module = importlib.import_module("posreal.checks.smt")
        make = getattr(module, "smt_checks", None)
        table = make(SolverChoice(choice)) if callable(make) else None
    except Exception as exc:  # noqa: BLE001 — a broken SMT package must be reported, not crash the runner
        return [], f"posreal.checks.smt could not be imported: {type(exc).__name__}: {exc}"
    if not isinstance(table, dict):
        return [], "posreal.checks.smt defines no smt_checks table"
    return [DeclaredCheck(claim, "smt", getattr(fn, "__name__", "smt check"), fn)
            for claim, fns in table.items() for fn in fns], ""


def _coq_checks() -> list[DeclaredCheck]:
    """The Coq kernel checks, one per claim with Coq proofs (they run coqc only when called)."""
    return [c for c in _declared() if c.method == "coq"]


def declared_checks(choice: SolverChoice = SolverChoice.BOTH) -> tuple[dict[str, list[DeclaredCheck]], str]:
    """Claim id -> registered checks, and a note about the SMT package.

    Claim id -> registered checks (local, SMT — decided by the chosen solvers — and Coq), and a note
    about the SMT package."""
    smt, note = _smt_checks(choice)
    table: dict[str, list[DeclaredCheck]] = {cid: [] for cid in STATEMENT_IDS}
    for check in _local_checks() + smt + _coq_checks():
        table.setdefault(check.claim, []).append(check)
    return table, note


@dataclass
class ClaimReport:
    """The results of the checks of one claim, and the checks skipped."""

    statement: Statement
    results: list[CheckResult] = field(default_factory=list)
    skipped: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        """Whether every check of the claim is good."""
        return all(r.ok for r in self.results)

    @property
    def one_solver(self) -> list[CheckResult]:
        """The checks whose verdict rests on one SMT solver (``proved by z3 only``, ...)."""
        return [r for r in self.results if r.one_solver]

    @property
    def verdict(self) -> str:
        """The claim's verdict in words.

        ``refuted`` for a statement the project refutes (its checks establish the refutation), ``holds`` for a
        theorem, ``open: no counterexample`` for a conjecture whose checks found none, and ``FAILED`` when any
        check is not good, whatever the status."""
        if not self.ok:
            return "FAILED"
        return {REFUTED: "refuted", CONJECTURE: "open: no counterexample"}.get(self.statement.status, "holds")

    @property
    def kernel_checked(self) -> list[str]:
        """The methods whose checks of this claim are kernel-checked (a proof checked by a proof kernel)."""
        return list(dict.fromkeys(r.method for r in self.results if r.verdict is Verdict.KERNEL_CHECKED))

    def to_json(self) -> dict:
        """The report as a JSON object."""
        return {"id": self.statement.id, "name": self.statement.name, "status": self.statement.status,
                "section": self.statement.section, "ok": self.ok, "verdict": self.verdict,
                "kernel_checked": self.kernel_checked,
                "checks": [r.to_json() for r in self.results], "skipped": self.skipped}


def _run_one(check: DeclaredCheck) -> CheckResult:
    try:
        result = check.run()
    except Exception as exc:  # noqa: BLE001 — a crashing check is a failed check
        return CheckResult(claim=check.claim, name=check.label, method=check.method, verdict=FAILED,
                           negative_control=None, detail=f"check raised {type(exc).__name__}: {exc}")
    if not isinstance(result, CheckResult):
        return CheckResult(claim=check.claim, name=check.label, method=check.method, verdict=FAILED,
                           negative_control=None, detail=f"check returned {type(result).__name__}, not CheckResult")
    return result


def run_claims(ids: Iterable[str] | None = None, skip_slow: bool = False,
               on_check: Callable[[DeclaredCheck], None] | None = None,
               solvers: SolverChoice = SolverChoice.BOTH) -> list[ClaimReport]:
    """Run every check of the requested claims (all of them by default), in statement order.

    SMT obligations are decided by ``solvers`` (z3, cvc5 or both)."""
    wanted = list(STATEMENT_IDS) if not ids else [statement(cid).id for cid in ids]
    wanted = list(dict.fromkeys(wanted))
    table, smt_note = declared_checks(SolverChoice(solvers))
    reports = []
    for cid in wanted:
        report = ClaimReport(statement(cid))
        for check in table.get(cid, []):
            if skip_slow and check.slow:
                report.skipped.append(f"{check.method}: {check.label} (slow)")
                continue
            missing_tool = check.unavailable() if check.unavailable is not None else ""
            if missing_tool:
                report.skipped.append(f"{check.method}: {check.label} (not run: {missing_tool})")
                continue
            if on_check is not None:
                on_check(check)
            report.results.append(_run_one(check))
        covered = {r.method for r in report.results} | {s.split(":")[0] for s in report.skipped}
        for method in report.statement.checks:
            if method not in covered:
                reason = f"no {method} check registered for {cid}"
                if method in ("smt", "enumeration") and smt_note:
                    reason += f" ({smt_note})"
                elif method in _NOTES:
                    reason += f" ({_NOTES[method]})"
                report.results.append(CheckResult(claim=cid, name=f"{method} coverage", method=method,
                                                  verdict=UNKNOWN, negative_control=None, detail=reason))
        reports.append(report)
    return reports
