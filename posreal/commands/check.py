"""``posreal check``: run every check of the requested claims and report method, verdict,
negative-control result (in words: a control that is refuted "fails as it should") and time for each,
under the claim's verdict (``holds``, ``refuted``, ``open: no counterexample``, ``FAILED``); exit 1 if
any check fails."""

from __future__ import annotations

import sys
import textwrap

from posreal.commands._common import emit_json, format_table, with_provenance
from posreal.theory.statements import STATEMENT_IDS, statement


def add_parser(sub) -> None:
    p = sub.add_parser("check", help="check the claims: SMT, symbolic, property, registry, training",
                       description="Run every check of each claim (default: all of "
                                   + ", ".join(STATEMENT_IDS) + ").")
    p.add_argument("ids", nargs="*", metavar="ID", help="claim ids (default: all)")
    p.add_argument("--json", action="store_true", help="print one JSON document")
    p.add_argument("--skip-slow", action="store_true", help="skip checks marked slow (listed as skipped)")
    p.set_defaults(run=run)


CHECK_WIDTH = 70   # the check column wraps at word boundaries: a long label takes several lines, never cut


def _check_rows(r) -> list[list[str]]:
    """One check as table rows: its label wrapped onto continuation rows, the other columns on the first."""
    from posreal.checks.base import control_words
    lines = textwrap.wrap(r.name, CHECK_WIDTH, break_long_words=False, break_on_hyphens=False) or [""]
    first = [r.method, lines[0], r.verdict.value, control_words(r.negative_control), f"{r.seconds:.2f}"]
    return [first] + [["", line, "", "", ""] for line in lines[1:]]


def run(args) -> int:
    for cid in args.ids:
        statement(cid)   # one-line SpecError (exit 2) before anything runs
    from posreal.checks.runner import run_claims

    def announce(check) -> None:
        if not args.json and sys.stderr.isatty():
            print(f"  running {check.claim}: {check.method} — {check.label}", file=sys.stderr)

    reports = run_claims(args.ids or None, skip_slow=args.skip_slow, on_check=announce)
    ok = all(r.ok for r in reports)
    if args.json:
        emit_json(with_provenance({"claims": [r.to_json() for r in reports], "ok": ok,
                                   "skip_slow": bool(args.skip_slow)}))
        return 0 if ok else 1
    for report in reports:
        st = report.statement
        print(f"{st.id} — {st.name} [{st.status}] — {report.verdict}")
        rows = [row for r in report.results for row in _check_rows(r)]
        print(format_table(["method", "check", "verdict", "control", "seconds"], rows))
        for r in report.results:
            if not r.ok:
                print(f"  ! {r.method}: {textwrap.shorten(r.detail, 400, placeholder=' …')}")
        for s in report.skipped:
            print(f"  skipped: {s}")
        print()
    total = sum(len(r.results) for r in reports)
    failed = sum(1 for r in reports for c in r.results if not c.ok)
    print(f"{total} checks, {failed} failed" + (" (slow checks skipped)" if args.skip_slow else ""))
    return 0 if ok else 1
