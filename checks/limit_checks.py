"""Conjecture′ against the evidence: α♯'s exact verdicts vs the log-time gradient flow.

Main check (statement id ``conjecture-limit``; docs: Results › Conjecture):

* :func:`compare_rows` — for every open-tie row of a set of instances, α♯'s verdict
  (:func:`posreal.theory.limit.open_tie_limit`, exact in ℚ) against the flow's evidence
  (:func:`posreal.theory.flow.tie_flow`, floats, a verdict only when the drift settled), tallied as
  agreements, disagreements and undecided.  A disagreement is a counterexample to Conjecture′.
* the instances: every shipped certificate with a tie row (``open-tie`` and ``dynamic-colspan``,
  read as data from the package's ``certificates/`` folder) and a seeded batch of the search's
  table instances (:func:`posreal.theory.sampling.instance`, seed :data:`BATCH_SEED`) taken in order
  until it holds at least :data:`BATCH_ROWS` open-tie rows (an instance gets the exact work only
  when the float θ* leaves a row within the tolerance rule, where every exact tie shows up);
* the negative control: the same rows and the same flows, with α♯ computed from deliberately
  wrong multiplicities (every n_s replaced by 1/n_s); the comparison must report disagreements.

A check with no decided row at all is a failure (a comparison that compared nothing).
"""

from __future__ import annotations

import dataclasses
import json
from dataclasses import dataclass, field
from fractions import Fraction
from importlib import resources
from collections.abc import Iterator

from posreal.checks.base import COUNTEREXAMPLE, FAILED, PASSED, CheckResult, Control, RegisteredCheck, timed
from posreal.theory.pe_specs import parse_pe
from posreal.theory.tables import register_pe, unregister_pe
from posreal.theory.errors import PosrealError
from posreal.theory.flow import Agreement, FlowVerdict, compare, row_flow_verdict, tie_flow
from posreal.theory.limit import LimitVerdict, PredictionContext, UndecidedReason, open_tie_limit, prediction_context
from posreal.theory.sampling import instance
from posreal.theory.selection import select
from posreal.theory.tasks import parse_task
from posreal.theory.ties import classify

CLAIM = "conjecture-limit"
BATCH_SEED = 1
BATCH_FAMILIES = ("relative", "column", "general")
BATCH_ROWS = 200
MAX_BATCH_INSTANCES = 40000


@dataclass
class Tally:
    """Agreements of α♯ with the flow's evidence, over open-tie rows."""

    rows: int = 0
    agrees: int = 0
    disagrees: int = 0
    undecided: int = 0
    limit: dict[str, int] = field(default_factory=lambda: {v.value: 0 for v in LimitVerdict})
    evidence: dict[str, int] = field(default_factory=lambda: {v.value: 0 for v in FlowVerdict})
    reasons: dict[str, int] = field(default_factory=dict)    # why α♯ left rows undecided
    evidence_when_undecided: dict[str, int] = field(default_factory=lambda: {v.value: 0 for v in FlowVerdict})
    disagreements: list[str] = field(default_factory=list)   # first few, named

    def add(self, name: str, limit: LimitVerdict, evidence: FlowVerdict, reason: str = "") -> None:
        self.rows += 1
        if reason:
            self.reasons[reason] = self.reasons.get(reason, 0) + 1
        if limit is LimitVerdict.UNDECIDED:
            self.evidence_when_undecided[evidence.value] += 1
        self.limit[limit.value] += 1
        self.evidence[evidence.value] += 1
        agreement = compare(limit, evidence)
        if agreement is Agreement.AGREES:
            self.agrees += 1
        elif agreement is Agreement.DISAGREES:
            self.disagrees += 1
            if len(self.disagreements) < 5:
                self.disagreements.append(name)
        else:
            self.undecided += 1

    def to_json(self) -> dict:
        return dataclasses.asdict(self)


@dataclass(frozen=True)
class TieCase:
    """One instance with a tie row to compare: its spec strings, tables, and which rows."""

    name: str
    pe: str
    task: str
    train_length: int
    length: int
    rows: tuple[int, ...] | None      # None: every open-tie row of the instance
    tables: tuple[tuple[str, str, list], ...] = ()   # (name, kind, rows) to register
    prefilter: bool = False           # skip the exact work unless the float θ* leaves a near-tie row


def wrong_multiplicities(ctx: PredictionContext) -> PredictionContext:
    """The negative control's context: every n_s replaced by 1/n_s."""
    return dataclasses.replace(ctx, multiplicities=[Fraction(1, n) for n in ctx.multiplicities])  # type: ignore[misc]


def compare_case(case: TieCase, tally: Tally, control: Tally) -> int:
    """Compare α♯ with the flow on the case's open-tie rows; returns the number of rows compared."""
    for name, kind, rows in case.tables:
        register_pe(name, rows, kind)
    try:
        pe, task = parse_pe(case.pe), parse_task(case.task)
        pe.check_length(case.length, case.train_length)
        if case.prefilter and not _float_near_tie(pe, task, case.train_length, case.length):
            return 0
        sel = select(pe, task, case.train_length)
        if not sel.realizable or sel.exact_theta is None:
            return 0
        cls = classify(pe, task, sel, case.length)
        open_rows = [r for r in cls.open_rows if case.rows is None or r.row in case.rows]
        if not open_rows:
            return 0
        ctx = prediction_context(pe, task, sel)
        bad = wrong_multiplicities(ctx)
        directions = [[float(x) for x in r.direction] for row in open_rows for r in row.rivals]
        flows = iter(tie_flow(pe, task, case.train_length, directions))
        for row in open_rows:
            evidence = row_flow_verdict([next(flows).verdict for _ in row.rivals])
            for target, context in ((tally, ctx), (control, bad)):
                decided = open_tie_limit(context, row)
                reason = "" if decided.reason is None else decided.reason.value
                if decided.reason is UndecidedReason.HYPOTHESES:
                    reason = decided.detail.split(": ", 1)[-1].split(";")[0]
                target.add(f"{case.name} row {row.row}", decided.verdict, evidence, reason)
        return len(open_rows)
    finally:
        for name, _, _ in case.tables:
            unregister_pe(name)


def _float_near_tie(pe, task, train_length: int, length: int) -> bool:
    """Whether the float θ* leaves some row of R_L within the tolerance rule (an exact tie shows up so)."""
    sel = select(pe, task, train_length, exact=False)
    if not sel.realizable:
        return False
    return any(r.cls == "undecided" for r in classify(pe, task, sel, length).failing)


def certificate_cases() -> list[TieCase]:
    """Every shipped certificate with a tie row (open-tie, dynamic-colspan), read as data."""
    folder = resources.files("posreal.counterexamples").joinpath("certificates")
    out = []
    for entry in sorted(folder.iterdir(), key=lambda e: e.name):
        if not entry.name.endswith(".json"):
            continue
        doc = json.loads(entry.read_text(encoding="utf-8"))
        if doc.get("kind") not in ("open-tie", "dynamic-colspan"):
            continue
        inst = doc["instance"]
        tables = tuple((name, t["kind"], t["rows"]) for name, t in sorted(inst.get("tables", {}).items()))
        out.append(TieCase(entry.name, inst["pe"], inst["task"], inst["train_length"], inst["length"],
                           (inst["row"],), tables))
    return out


def batch_cases(seed: int = BATCH_SEED) -> Iterator[TieCase]:
    """The search's table instances of ``seed``, in order (each with every open-tie row)."""
    for k in range(MAX_BATCH_INSTANCES):
        inst = instance(seed, k, BATCH_FAMILIES)
        tables: tuple[tuple[str, str, list], ...] = ()
        if inst.table is not None and inst.table_kind is not None:
            tables = ((inst.pe.removeprefix("dual:"), inst.table_kind, _listify(inst.table)),)
        yield TieCase(f"seed {seed} #{k}", inst.pe, inst.task, inst.train_length, inst.length, None, tables, True)


def _listify(x):
    return [_listify(y) for y in x] if isinstance(x, tuple) else x


def compare_all(min_rows: int = BATCH_ROWS, seed: int = BATCH_SEED) -> tuple[Tally, Tally, dict]:
    """The tally and the control's tally over the certificates and the seeded batch."""
    tally, control = Tally(), Tally()
    certs = certificate_cases()
    cert_rows = sum(compare_case(c, tally, control) for c in certs)
    batch_rows, instances = 0, 0
    for case in batch_cases(seed):
        if batch_rows >= min_rows:
            break
        instances += 1
        try:
            batch_rows += compare_case(case, tally, control)
        except PosrealError:
            continue    # an instance the registry refuses (e.g. a length beyond the table): not a tie case
    info = {"certificates": len(certs), "certificate_rows": cert_rows, "batch_seed": seed,
            "batch_instances": instances, "batch_rows": batch_rows}
    return tally, control, info


def check_limit_against_flow(min_rows: int = BATCH_ROWS) -> CheckResult:
    def run() -> CheckResult:
        tally, control, info = compare_all(min_rows)
        decided = tally.agrees + tally.disagrees
        verdict = PASSED if tally.disagrees == 0 and decided > 0 else (COUNTEREXAMPLE if tally.disagrees else FAILED)
        detail = (f"{tally.rows} open-tie rows ({info['certificate_rows']} from {info['certificates']} certificates, "
                  f"{info['batch_rows']} from {info['batch_instances']} search instances of seed "
                  f"{info['batch_seed']}): "
                  f"{tally.agrees} agree, {tally.disagrees} disagree, {tally.undecided} undecided "
                  f"(α♯: {tally.limit['won']} won, {tally.limit['lost']} lost, {tally.limit['undecided']} undecided; "
                  f"flow: {tally.evidence['wins']} won, {tally.evidence['loses']} lost, "
                  f"{tally.evidence['undecided']} undecided)")
        if tally.disagreements:
            detail += f"; disagreements: {', '.join(tally.disagreements)}"
        detail += (f"; control (n_s replaced by 1/n_s): {control.disagrees} disagreements"
                   + (f", e.g. {control.disagreements[0]}" if control.disagreements else ""))
        return CheckResult(claim=CLAIM, name="α♯ (exact second-order prediction) agrees with the log-time gradient "
                           "flow on every decided open tie", method="dynamics", verdict=verdict,
                           negative_control=Control.COUNTEREXAMPLE if control.disagrees else Control.NO_COUNTEREXAMPLE,
                           detail=detail, data={"tally": tally.to_json(), "control": control.to_json(), **info})
    return timed(run)


LIMIT_CHECKS: tuple[RegisteredCheck, ...] = (
    RegisteredCheck(CLAIM, "dynamics", "α♯ vs the log-time gradient flow (certificates and a seeded batch)",
                    check_limit_against_flow, slow=True),
)
