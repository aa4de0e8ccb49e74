"""``posreal check``: run every check of the requested claims and report method, verdict, each SMT
solver's answer, negative-control result (in words: a control that is refuted "fails as it should") and time for
each, under the claim's verdict (``holds``, ``refuted``, ``open: no counterexample``, ``FAILED``); exit 1 if any
check fails.  The ``coq`` method kernel-checks the claim's Coq theorems (verdict ``kernel-checked``); without
``coqc`` it is listed as not run.

``--solver z3|cvc5|both`` (default both) chooses who decides the SMT obligations; a verdict that
rests on one solver (``proved by z3 only``) is listed at the end, and is a failure unless that solver
alone was asked for.  ``--export-smtlib DIR`` writes every SMT obligation of the requested claims as
an SMT-LIB 2 file into DIR and runs no check."""

from __future__ import annotations

import sys
import textwrap

from posreal.commands._common import add_force_option, emit_json, format_table, output_directory, with_provenance
from posreal.theory.statements import STATEMENT_IDS, statement

SOLVER_CHOICES = ("both", "z3", "cvc5")


def add_parser(sub) -> None:
    p = sub.add_parser("check", help="check the claims: SMT (z3 and cvc5), symbolic, property, registry, training, Coq",
                       description="Run every check of each claim (default: all of "
                                   + ", ".join(STATEMENT_IDS) + ").")
    p.add_argument("ids", nargs="*", metavar="ID", help="claim ids (default: all)")
    p.add_argument("--json", action="store_true", help="print one JSON document")
    p.add_argument("--skip-slow", action="store_true", help="skip checks marked slow (listed as skipped)")
    p.add_argument("--solver", choices=SOLVER_CHOICES, default="both",
                   help="who decides the SMT obligations: proved means both say unsat (default: both)")
    p.add_argument("--export-smtlib", type=output_directory, metavar="DIR",
                   help="write every SMT obligation (encoding, negative control, hypotheses alone) of the "
                        "requested claims as an SMT-LIB 2 file into DIR, and run no check")
    add_force_option(p, "obligation file in --export-smtlib DIR")
    p.set_defaults(run=run)


def _answer(result, solver) -> str:
    run = result.solvers.get(solver)
    return "—" if run is None else f"{run.answer.value} {run.seconds:.2f}"


def export(args) -> int:
    from posreal.checks.smt import all_obligations
    from posreal.checks.smt.obligations import write_obligations
    from posreal.theory.errors import SpecError, quote
    wanted = [statement(cid).id for cid in args.ids] or None
    try:
        written = write_obligations(all_obligations(wanted), args.export_smtlib, force=args.force)
    except OSError as err:   # checked writable before any work, but the disk can still fill or vanish
        raise SpecError(f"cannot write SMT-LIB obligations into {quote(args.export_smtlib)}: "
                        f"{err.strerror or err}; accepted: a writable directory (created if missing)") from None
    if args.json:
        emit_json(with_provenance({"directory": str(args.export_smtlib), "files": [p.name for p in written]}))
    else:
        for path in written:
            print(path)
    print(f"wrote {len(written)} SMT-LIB 2 obligations to {args.export_smtlib}", file=sys.stderr)
    return 0


CHECK_WIDTH = 70   # the check column wraps at word boundaries: a long label takes several lines, never cut


def _check_rows(r) -> list[list[str]]:
    """One check as table rows: its label wrapped onto continuation rows, the other columns on the first."""
    from posreal.checks.base import Solver, control_words
    lines = textwrap.wrap(r.name, CHECK_WIDTH, break_long_words=False, break_on_hyphens=False) or [""]
    first = [r.method, lines[0], r.verdict.value, _answer(r, Solver.Z3), _answer(r, Solver.CVC5),
             control_words(r.negative_control), f"{r.seconds:.2f}"]
    return [first] + [["", line, "", "", "", "", ""] for line in lines[1:]]


def run(args) -> int:
    for cid in args.ids:
        statement(cid)   # one-line SpecError (exit 2) before anything runs
    if args.export_smtlib is not None:
        return export(args)
    from posreal.checks.base import SolverChoice
    from posreal.checks.runner import run_claims
    choice = SolverChoice(args.solver)

    def announce(check) -> None:
        if not args.json and sys.stderr.isatty():
            print(f"  running {check.claim}: {check.method} — {check.label}", file=sys.stderr)

    reports = run_claims(args.ids or None, skip_slow=args.skip_slow, on_check=announce, solvers=choice)
    ok = all(r.ok for r in reports)
    one_solver = [(report.statement.id, r) for report in reports for r in report.one_solver]
    if args.json:
        emit_json(with_provenance({"claims": [r.to_json() for r in reports], "ok": ok,
                                   "skip_slow": bool(args.skip_slow), "solver": choice.value,
                                   "one_solver": [{"claim": cid, "check": r.name, "verdict": r.verdict.value,
                                                   "ok": r.ok} for cid, r in one_solver]}))
        return 0 if ok else 1
    for report in reports:
        st = report.statement
        print(f"{st.id} — {st.name} [{st.status}] — {report.verdict}")
        rows = [row for r in report.results for row in _check_rows(r)]
        print(format_table(["method", "check", "verdict", "z3", "cvc5", "control", "seconds"], rows))
        for r in report.results:
            if not r.ok:
                print(f"  ! {r.method}: {textwrap.shorten(r.detail, 400, placeholder=' …')}")
        for s in report.skipped:
            print(f"  skipped: {s}")
        print()
    total = sum(len(r.results) for r in reports)
    failed = sum(1 for r in reports for c in r.results if not c.ok)
    if one_solver:
        print(f"{len(one_solver)} SMT verdicts rest on one solver"
              + (" (as asked: --solver " + choice.value + ")" if choice is not SolverChoice.BOTH else "") + ":")
        for cid, r in one_solver:
            print(f"  {cid}: {r.name[:70]} — {r.verdict}" + ("" if r.ok else " (a failure)"))
    print(f"{total} checks, {failed} failed" + (" (slow checks skipped)" if args.skip_slow else "")
          + f"; SMT obligations decided by {'z3 and cvc5' if choice is SolverChoice.BOTH else choice.value}")
    return 0 if ok else 1
