"""The claims' latest verdicts in Markdown, as the result pages show them.

The "Latest verdicts" table of each result page, the overview of every claim, α♯ against the gradient flow (the
slow comparison) and the designed ties of the level checks.

The claim reports are those of :func:`posreal.checks.runner.run_claims` (the engine of ``posreal check``); whether a
check is good is the runner's own ``CheckResult.ok``.

Main results:

* :func:`run_all_claims` — every claim's checks but the slow ones, once, with the seconds they took;
* :func:`checks_table` — one claim's checks: verdict, both SMT solvers' answers, negative control, time;
* :func:`claims_overview` — one row per claim with its methods and how many of its checks are good;
* :func:`limit_tally_report` — :func:`posreal.checks.limit_checks.compare_all` as tables;
* :func:`limit_example` — one designed tie, decided by α♯ and followed by the flow.
"""

from __future__ import annotations

import textwrap
import time
from collections.abc import Callable, Mapping

from posreal.checks.runner import ClaimReport
from posreal.runtime.markdown import ReportError, fmt_seconds, md_escape, table

RUNNER_SOURCE = "posreal.checks.runner.run_claims(skip_slow=True)"


def run_all_claims(on_check: Callable | None = None) -> tuple[dict[str, ClaimReport], str, float]:
    """Every claim's checks but the slow ones, run once (``posreal check --skip-slow``).

    Returns claim id -> report, the source that provenance lines name (:data:`RUNNER_SOURCE`) and the seconds it
    took."""
    from posreal.checks.runner import run_claims
    start = time.perf_counter()
    reports = {report.statement.id: report for report in run_claims(skip_slow=True, on_check=on_check)}
    return reports, RUNNER_SOURCE, time.perf_counter() - start


def _verdict(result) -> str:
    """The verdict as the runner's JSON writes it, upper-cased when the check is not good."""
    v = str(result.to_json()["verdict"])
    return f"**{v}**" if result.ok else f"**{v.upper()}**"


def _control(result) -> str:
    """The negative control in words (``posreal check``'s wording): "fails as it should" when it was refuted."""
    from posreal.checks.base import control_words
    words = control_words(result.negative_control)
    return "n/a" if result.negative_control is None else (words if result.ok else f"**{words}**")


def _solver(result, solver: str) -> str:
    """One SMT solver's answer on the proof obligation and its time, as the runner's JSON has them ("—": none)."""
    run = result.to_json().get("solvers", {}).get(solver)
    if run is None:
        return "—"
    answer = str(run["answer"])
    return f"{answer if answer == 'unsat' else f'**{answer}**'} ({fmt_seconds(run['seconds'])})"


def checks_table(claim_id: str, claims: Mapping[str, ClaimReport], source: str, seconds: float) -> str:
    """The latest verdicts of one claim's checks, from the claim reports of one run (``source``, ``seconds``)."""
    if claim_id not in claims:
        raise ReportError(f"claim {claim_id!r} is not in the claim report from {source} (it has: {', '.join(claims)})")
    report = claims[claim_id]
    if not report.results:
        raise ReportError(f"claim {claim_id!r} has no checks in the report from {source}")
    rows = [[md_escape(r.name), r.method, _verdict(r), _solver(r, "z3"), _solver(r, "cvc5"), _control(r),
             fmt_seconds(r.seconds), md_escape(textwrap.shorten(str(r.detail or ""), 160, placeholder=" …"))]
            for r in report.results]
    ok = sum(r.ok for r in report.results)
    head = (f"**Latest verdicts** — {ok} of {len(report.results)} checks good "
            f"(verdict proved/passed and, where there is one, the negative control — the same check with one "
            f"hypothesis dropped — fails as it should; an SMT proof is *proved* only when z3 and cvc5 both "
            f"answer unsat).\n\n")
    out = head + table(["check", "method", "verdict", "z3", "cvc5", "control", "time", "detail"], rows,
                       f"{source}, run once during this build ({seconds:.1f} s for every claim)")
    if report.skipped:
        out += ("\nSkipped in this build because they are marked slow (run them with `posreal check "
                f"{claim_id}`):\n\n" + "\n".join(f"- {md_escape(x)}" for x in report.skipped) + "\n")
    return out


def claims_overview(claims: Mapping[str, ClaimReport], source: str, seconds: float, prefix: str = "results/") -> str:
    """One row per declared claim, linked to its page (``prefix`` + id + ``.md``)."""
    from posreal.theory.statements import STATEMENTS
    if not STATEMENTS:
        raise ReportError("posreal.theory.statements declares no statement")
    rows = []
    for cid, st in STATEMENTS.items():
        if cid not in claims:
            raise ReportError(f"claim {cid!r} is missing from the claim report ({source})")
        results = claims[cid].results
        methods = ", ".join(dict.fromkeys(r.method for r in results))
        ok = sum(r.ok for r in results)
        status = claims[cid].verdict if results and claims[cid].ok else f"**{len(results) - ok} NOT GOOD**"
        rows.append([f"[{st.name}]({prefix}{cid}.md)", f"`{cid}`", methods or "—",
                     f"{status}; {ok}/{len(results)} checks as expected"])
    return table(["result", "claim id", "methods", "latest verdicts"], rows, f"{source} ({seconds:.1f} s)")


def _count_first(item: tuple[str, int]) -> int:
    return -item[1]


def limit_tally_report() -> str:
    """α♯'s closed forms against the gradient flow on the certificates and the seeded batches, run now.

    The comparison is :func:`posreal.checks.limit_checks.compare_all` (the slow check)."""
    from posreal.checks.limit_checks import CONTROLS, compare_all
    start = time.perf_counter()
    tally, controls, info = compare_all()
    seconds = time.perf_counter() - start
    if tally.rows == 0:
        raise ReportError("the comparison of α♯ with the gradient flow compared no row")
    lim, ev, und = tally.limit, tally.evidence, tally.evidence_when_undecided
    reasons = sorted(tally.reasons.items(), key=_count_first)
    batches = ", ".join(f"{b['rows']} from the first {b['instances']} table instances of seed {s}"
                        for s, b in info["batches"].items())
    out = [f"**{tally.rows} open-tie rows** — {info['certificate_rows']} from {info['certificates']} certificates, "
           f"{batches}.\n",
           table(["α♯'s kind of evidence", "agree", "disagree", "undecided"],
                 [[k, d["agrees"], f"**{d['disagrees']}**", d["undecided"]] for k, d in sorted(tally.by_kind.items())]),
           "\n" + table(["", "rows"], [
               ["α♯ (closed forms): won / lost / undecided", f"{lim['won']} / {lim['lost']} / {lim['undecided']}"],
               ["flow: won / lost / undecided", f"{ev['won']} / {ev['lost']} / {ev['undecided']}"],
               ["flow on the rows α♯ leaves undecided: won / lost / undecided",
                f"{und['won']} / {und['lost']} / {und['undecided']}"],
               ["max |flow slope in log log t − ⟨θ_2, v⟩|",
                f"{max(tally.slope_errors):.2g}" if tally.slope_errors else "—"],
               *[[f"negative control ({name}): disagreements", c.disagrees]
                 for (name, _), c in zip(CONTROLS, controls)]]),
           "\nWhy α♯ left rows undecided:\n",
           table(["reason", "rows"], reasons or [("—", 0)],
                 f"posreal.checks.limit_checks.compare_all(), run during this build ({seconds:.1f} s)")]
    return "\n".join(out)


def limit_example(name: str) -> str:
    """One designed tie of posreal.checks.level_checks, decided by α♯ and followed by the flow."""
    from posreal.checks.level_checks import LEVEL2_TIE, MAXENT_TIE, SYMMETRIC_TIE, registered_table
    from posreal.theory.limit import open_tie_limit
    from posreal.theory.trajectory import pair_data, tie_trajectory
    ties = {"maxent": MAXENT_TIE, "level2": LEVEL2_TIE, "symmetric": SYMMETRIC_TIE}
    if name not in ties:
        raise ReportError(f"unknown designed tie {name!r}; accepted: {', '.join(ties)}")
    with registered_table(ties[name]) as tie:
        pe, task, sel, row, ctx = tie.open_row()
        decided = open_tie_limit(ctx, row)
        (flow,) = tie_trajectory(pair_data(pe, task, tie.train_length, list(sel.exact_theta)),
                                 [[float(x) for x in row.rivals[0].direction]], 0)
        levels = ctx.levels()
    rival = decided.rivals[0]
    rows = [["tie direction v", ", ".join(str(x) for x in row.rivals[0].direction)],
            ["θ*", ", ".join(str(x) for x in sel.exact_theta)],
            ["levels", "; ".join(f"θ_{lv.depth} = ({', '.join(str(x) for x in lv.theta)}), "
                                 f"S+ = {len(lv.split.positive)}, S0 = {len(lv.split.zero)}"
                                 + ("" if lv.independent else " (dependent S+)") for lv in levels.levels)],
            ["α♯ on the row", f"**{decided.verdict.value}** ({decided.evidence.value}) — {rival.detail}"],
            ["gradient flow at τ = e^24", f"⟨θ, v⟩ = {flow.value:.10g} ({flow.verdict.value}, {flow.basis}, slope in "
                                        f"σ {flow.slope:.4g})"]]
    return table(["", name], rows,
                 f"{tie.name} of posreal.checks.level_checks, decided and integrated during this build")
