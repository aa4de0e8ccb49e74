"""The search of the Conjecture's open case, and of counterexamples to Conjecture′.

The search of the Conjecture's open case (definitions.md#conjecture), and of counterexamples to
Conjecture′ (definitions.md#conjecture-prime).

Main functions (docs: Results › Conjecture; Definitions, "The predicted limit α♯"):

* :func:`evaluate` — one instance (PE, task, L0, L) -> a :class:`SearchRecord` (its tied rows as
  :class:`TieRecord`, their rivals as :class:`RivalRecord`; ``to_json()`` is the file's line):
  θ* (exact in ℚ for rational features), every failing row of T_L θ* classified
  (:mod:`posreal.theory.ties`), α♯_L (:mod:`posreal.theory.limit`), and for each open tie α_L's
  verdict (lost), α♯'s closed-form verdict with its kind of evidence (closed form in ℚ, with a certified
  bound, symmetry) and reason, the gradient flow's tie margins ⟨θ, v_j⟩ followed to log log t with
  their verdicts (:mod:`posreal.theory.trajectory`), and for the rivals the closed forms leave open
  gradient descent's at the project's step — α♯ with trajectory evidence counted.  A **candidate** (against the
  original Conjecture) is an open-tie row that the flow wins, so lim acc_L > α_L; a
  **counterexample to Conjecture′** is a row that α♯ decides and the flow's evidence decides the
  other way.  Rows of irrational PEs that are tied within float tolerance (``undecided``) get the
  same evidence as *float ties* (α♯ leaves them undecided; a won one is a *float candidate*: the
  tie itself is not certified in ℚ);
* :func:`summarize` — counts per class, the open ties' tally by kind of evidence (before and after
  trajectory evidence), agreement with the flow, undecided rows with their reasons, candidates and
  counterexamples, from the records; records of older file versions (no kinds of evidence, flow
  verdicts spelled wins / loses) are summarized too, their decided rows read as closed forms in ℚ.

The seeded and exhaustive searches that run :func:`evaluate` on an executor and keep its records
in a JSONL file are in :mod:`posreal.counterexamples.search_runner`.
"""

from __future__ import annotations

import math
from collections import OrderedDict
from dataclasses import dataclass, field, replace
from enum import StrEnum

from posreal.theory.encodings import Encoding
from posreal.theory.pe_specs import parse_pe
from posreal.theory.errors import PosrealError
from posreal.theory.selection import Selection, select
from posreal.theory.tasks import Task, parse_task

from posreal.counterexamples.certificate_writer import q, qvec
from posreal.theory.ties import CLASSES, FailingRow, classify
from posreal.counterexamples.dynamics import predict_float
from posreal.theory.flow import TAU_MAX, Agreement, compare, row_verdict
from posreal.theory.limit import (Evidence, LimitInterval, LimitRow, LimitVerdict, limit_rows, prediction_context,
                                  with_trajectory)
from posreal.theory.trajectory import DESCENT_STEPS, TrajectoryEvidence, pair_data, tie_trajectory
from posreal.theory.random_instances import Instance, registered

_SELECTIONS: OrderedDict[tuple, Selection] = OrderedDict()
_CACHE_SIZE = 64


def _selection(pe, task, L0: int, cacheable: bool) -> Selection:
    key = (str(pe), str(task), L0)
    if cacheable and key in _SELECTIONS:
        _SELECTIONS.move_to_end(key)
        return _SELECTIONS[key]
    sel = select(pe, task, L0)
    if cacheable:
        _SELECTIONS[key] = sel
        if len(_SELECTIONS) > _CACHE_SIZE:
            _SELECTIONS.popitem(last=False)
    return sel


class RecordStatus(StrEnum):
    """What :func:`evaluate` did with an instance (JSON: the value strings)."""

    SKIPPED = "skipped"                          # the instance is not a valid cell (reason given)
    NOT_REALIZABLE = "not realizable at L0"
    CLASSIFIED = "classified"


@dataclass(frozen=True)
class RivalRecord:
    """One tied rival j of an open (or float) tie row.

    Its direction v_j, α♯'s closed form for its limit, the gradient flow's evidence on ⟨θ, v_j⟩ and, when the closed
    forms leave it open, gradient descent's."""

    rival: int
    direction: list[str] | list[float]   # v_j: "p/q" strings (exact) or floats
    flow: dict                           # TrajectoryEvidence.to_json() of the gradient flow from 0
    limit: dict | None                   # RivalLimit.to_json() (exact rows); {"value"} for float ties
    descent: dict | None = None          # TrajectoryEvidence.to_json() of gradient descent (when asked for)

    def to_json(self) -> dict:
        """The record as a JSON object."""
        return {"rival": self.rival, "direction": self.direction, "flow": self.flow, "limit": self.limit,
                "descent": self.descent}


@dataclass(frozen=True)
class TieRecord:
    """One tied row of T_L θ* and its verdicts.

    One tied row of T_L θ*: α_L's verdict (lost), α♯'s closed-form verdict with its kind of evidence and
    reason, the flow's verdict, and α♯ once trajectory evidence (gradient descent) counts."""

    row: int
    target: int
    rivals: tuple[RivalRecord, ...]
    limit_verdict: str                   # α♯ from closed forms and symmetry: won / lost / undecided
    limit_evidence: str                  # its kind of evidence (posreal.theory.limit.Evidence values)
    limit_reason: str | None             # why the closed forms leave the row undecided
    evidence_verdict: str                # the gradient flow: won / lost / undecided
    limit_estimate: float                # the smallest tie margin at the end of the flow
    sharp_verdict: str = ""              # α♯ with trajectory evidence counted
    sharp_evidence: str = ""
    sharp_reason: str | None = None

    @property
    def agreement(self) -> str:
        """How α♯'s closed-form verdict compares with the flow's."""
        return compare(LimitVerdict.parse(self.limit_verdict), LimitVerdict.parse(self.evidence_verdict)).value

    def to_json(self) -> dict:
        """The record as a JSON object."""
        return {"row": self.row, "target": self.target, "rivals": [r.to_json() for r in self.rivals],
                "alpha_verdict": "lost", "limit_verdict": self.limit_verdict, "limit_evidence": self.limit_evidence,
                "limit_reason": self.limit_reason, "evidence_verdict": self.evidence_verdict,
                "limit_estimate": self.limit_estimate, "agreement": self.agreement,
                "with_trajectory": {"verdict": self.sharp_verdict or self.limit_verdict,
                                    "evidence": self.sharp_evidence or self.limit_evidence,
                                    "reason": self.sharp_reason if self.sharp_verdict else self.limit_reason}}


@dataclass(frozen=True)
class SearchRecord:
    """The result of :func:`evaluate` on one instance; ``to_json()`` is its line of the JSONL file."""

    instance: Instance
    status: RecordStatus
    reason: str | None = None                  # skipped / not realizable: why
    exact: bool = False                        # classified: decided in ℚ
    rows: int = 0                              # classified: |R_L|
    realized: int = 0
    alpha: str | float = 0.0                   # "p/q" when exact
    limit_interval: tuple[str, str] | None = None   # α♯_L (closed forms) as "p/q" strings
    sharp_interval: tuple[str, str] | None = None   # α♯_L with trajectory evidence counted
    classes: dict[str, int] = field(default_factory=dict)   # failing rows per class
    open_ties: tuple[TieRecord, ...] = ()
    float_ties: tuple[TieRecord, ...] = ()
    tau_max: float | None = None               # set when some tie was followed by the flow

    @property
    def candidate(self) -> bool:
        """An open (exact) tie that the flow wins: lim acc_L > α_L (against the original Conjecture)."""
        return any(t.evidence_verdict == LimitVerdict.WON.value for t in self.open_ties)

    @property
    def float_candidate(self) -> bool:
        """Whether the flow wins some float tie of the instance."""
        return any(t.evidence_verdict == LimitVerdict.WON.value for t in self.float_ties)

    @property
    def limit_counterexample(self) -> bool:
        """A row α♯ decides and the flow decides the other way: against Conjecture′."""
        return any(t.agreement == Agreement.DISAGREES.value for t in self.open_ties + self.float_ties)

    def to_json(self) -> dict:
        """The record as a JSON object (one line of the search's results file)."""
        out = self.instance.to_json()
        if self.status is RecordStatus.SKIPPED:
            return {**out, "status": self.status.value, "reason": self.reason}
        out["realizable"] = self.status is not RecordStatus.NOT_REALIZABLE
        if self.status is RecordStatus.NOT_REALIZABLE:
            return {**out, "status": self.status.value, "reason": self.reason}
        out.update(status=self.status.value, exact=self.exact, rows=self.rows, realized=self.realized,
                   alpha=self.alpha, classes=self.classes,
                   limit_interval=None if self.limit_interval is None else list(self.limit_interval),
                   limit_interval_with_trajectory=None if self.sharp_interval is None else list(self.sharp_interval),
                   open_ties=[t.to_json() for t in self.open_ties], float_ties=[t.to_json() for t in self.float_ties],
                   candidate=self.candidate, float_candidate=self.float_candidate,
                   limit_counterexample=self.limit_counterexample)
        if self.tau_max is not None:
            out["tau_max"] = self.tau_max
        return out


def _tie_record(pe: Encoding, task: Task, sel: Selection, row: FailingRow, limit: LimitRow,
                flows: list[TrajectoryEvidence], descents: list[TrajectoryEvidence | None]) -> TieRecord:
    """The record of one tied row, from α♯'s verdict, the flow's evidence and descent's (in rival order)."""
    exact = row.cls == "open_tie"
    rivals = []
    for n, (rival, flow, descent) in enumerate(zip(row.rivals, flows, descents)):
        found: dict | None
        direction: list[str] | list[float]
        if exact:
            found = limit.rivals[n].to_json()
            direction = qvec(rival.direction)
        else:
            approx = predict_float(pe, task, sel, rival.direction)
            found = None if approx is None else {"value": approx["value"]}
            direction = [float(x) for x in rival.direction]
        rivals.append(RivalRecord(rival.rival, direction, flow.to_json(), found,
                                  None if descent is None else descent.to_json()))
    evidence = row_verdict([f.verdict for f in flows])
    sharp = limit
    if exact and any(d is not None for d in descents):
        sharp = with_trajectory(limit, [(d.verdict, d.to_json()) if d is not None else (LimitVerdict.UNDECIDED, None)
                                        for d in descents])
    return TieRecord(row.row, row.target, tuple(rivals), limit.verdict.value, limit.evidence.value,
                     None if limit.reason is None else limit.reason.value, evidence.value,
                     min(f.value for f in flows), sharp.verdict.value, sharp.evidence.value,
                     None if sharp.reason is None else sharp.reason.value)


def evaluate(inst: Instance, tau_max: float = TAU_MAX, steps: int = DESCENT_STEPS) -> SearchRecord:
    """Classify one instance (deterministic: no timings); ``.to_json()`` is its JSON record.

    Every open tie (and float near-tie) gets α_L's verdict (lost: margin 0), α♯'s closed-form verdict
    with its kind of evidence and reason, the gradient flow's evidence per tied rival, and — for the
    rivals the closed forms leave open — gradient descent's at the project's step (``steps`` steps,
    then the flow), which α♯ counts as trajectory evidence."""
    with registered(inst):
        pe, task = parse_pe(inst.pe), parse_task(inst.task)
        try:
            pe.check_length(inst.length, inst.train_length)
            sel = _selection(pe, task, inst.train_length, cacheable=inst.table is None)
        except PosrealError as err:
            return SearchRecord(inst, RecordStatus.SKIPPED, reason=str(err))
        if not sel.realizable:
            return SearchRecord(inst, RecordStatus.NOT_REALIZABLE, reason=sel.reason.split(":")[0])
        cls = classify(pe, task, sel, inst.length)
        limits = {r.row: r for r in limit_rows(cls, prediction_context(pe, task, sel))}
        sharp = LimitInterval(inst.length, cls.total, cls.realized, list(limits.values()), cls.exact)
        record = SearchRecord(inst, RecordStatus.CLASSIFIED, exact=cls.exact, rows=cls.total, realized=cls.realized,
                              alpha=q(cls.alpha) if cls.exact else float(cls.alpha),
                              limit_interval=(q(sharp.low), q(sharp.high)), classes=cls.counts())
        open_rows = cls.open_rows
        float_rows = [r for r in cls.failing if r.cls == "undecided" and r.rivals
                      and not any(v.orthogonal for v in r.rivals)]
        if not open_rows and not float_rows:
            return replace(record, sharp_interval=record.limit_interval)
        theta = list(sel.exact_theta) if sel.exact_theta is not None else [float(x) for x in sel.theta]
        data = pair_data(pe, task, inst.train_length, theta)
        horizon = math.log(tau_max)
        rows = open_rows + float_rows
        directions = [[float(x) for x in r.direction] for row in rows for r in row.rivals]
        flows = iter(tie_trajectory(data, directions, 0, horizon))
        wanted = [(n, r) for n, row in enumerate(open_rows) if limits[row.row].verdict is LimitVerdict.UNDECIDED
                  for r, lr in zip(row.rivals, limits[row.row].rivals) if lr.verdict is LimitVerdict.UNDECIDED]
        found = (tie_trajectory(data, [[float(x) for x in r.direction] for _, r in wanted], steps, horizon)
                 if wanted and steps else [])
        by_rival = {(n, r.rival): ev for (n, r), ev in zip(wanted, found)}
        ties = [_tie_record(pe, task, sel, row, limits[row.row], [next(flows) for _ in row.rivals],
                            [by_rival.get((n, r.rival)) for r in row.rivals])
                for n, row in enumerate(rows)]
        decided = {t.row: t for t in ties[:len(open_rows)]}
        final = [replace(r, verdict=LimitVerdict.parse(decided[r.row].sharp_verdict)) if r.row in decided else r
                 for r in sharp.rows]
        after = LimitInterval(inst.length, cls.total, cls.realized, final, cls.exact)
        return replace(record, open_ties=tuple(ties[:len(open_rows)]), float_ties=tuple(ties[len(open_rows):]),
                       tau_max=tau_max, sharp_interval=(q(after.low), q(after.high)))


def _tie_fields(tie: dict) -> tuple[str, str, str | None, str, str, str | None, str]:
    """(closed-form verdict, its evidence, reason, verdict with trajectory evidence, its evidence, reason, flow
    verdict) of one stored tie row; records of version 2 (no kinds, flow verdicts wins / loses) read as
    closed forms in ℚ where decided."""
    limit = LimitVerdict.parse(tie["limit_verdict"]).value
    kind = tie.get("limit_evidence") or (Evidence.UNDECIDED.value if limit == "undecided" else Evidence.EXACT.value)
    after = tie.get("with_trajectory") or {}
    return (limit, kind, tie.get("limit_reason"), LimitVerdict.parse(after.get("verdict", limit)).value,
            after.get("evidence", kind), after.get("reason", tie.get("limit_reason")),
            LimitVerdict.parse(tie["evidence_verdict"]).value)


def _tally() -> dict[str, dict[str, int]]:
    return {e.value: {v.value: 0 for v in LimitVerdict} for e in Evidence}


def summarize(records: dict[int, dict]) -> dict:
    """The summary of the search's records: counts, verdicts and their agreement.

    Counts per class (failing rows), instance outcomes, the open ties' verdicts — α♯'s closed forms by
    kind of evidence, α♯ once trajectory evidence counts, the flow's — and their agreement, the undecided
    rows with their reasons, the candidates against the original Conjecture (open ties the flow wins:
    lim acc_L > α_L) and the counterexamples to Conjecture′ (a decided α♯ row that the flow decides the other
    way).  Records of file version 2 are read too (see :func:`_tie_fields`)."""
    rows = {c: 0 for c in CLASSES}
    status: dict[str, int] = {}
    per_family: dict[str, dict[str, int]] = {}
    verdict_names = [v.value for v in LimitVerdict]
    evidence = {v: 0 for v in verdict_names}
    float_evidence = {v: 0 for v in verdict_names}
    limit = {v: 0 for v in verdict_names}
    agreement = {a.value: 0 for a in Agreement}
    closed, after = _tally(), _tally()
    reasons: dict[str, int] = {}
    reasons_after: dict[str, int] = {}
    undecided_rows, candidates, float_candidates, counterexamples = [], [], [], []
    for k in sorted(records):
        r = records[k]
        status[r.get("status", "?")] = status.get(r.get("status", "?"), 0) + 1
        fam = per_family.setdefault(r.get("family", "?"), {"instances": 0, "open_tie_rows": 0, "candidates": 0})
        fam["instances"] += 1
        for c, n in r.get("classes", {}).items():
            rows[c] = rows.get(c, 0) + n
        for tie in r.get("open_ties", []):
            lim, kind, why, fin, fin_kind, fin_why, flow = _tie_fields(tie)
            evidence[flow] += 1
            limit[lim] += 1
            closed[kind][lim] += 1
            after[fin_kind][fin] += 1
            if why:
                reasons[why] = reasons.get(why, 0) + 1
            if fin == LimitVerdict.UNDECIDED.value:
                reasons_after[fin_why or "?"] = reasons_after.get(fin_why or "?", 0) + 1
                undecided_rows.append({"index": k, "pe": r["pe"], "task": r["task"], "train_length": r["train_length"],
                                       "length": r["length"], "row": tie["row"], "reason": fin_why})
            agreement[compare(LimitVerdict(lim), LimitVerdict(flow)).value] += 1
            fam["open_tie_rows"] += 1
        for tie in r.get("float_ties", []):
            float_evidence[LimitVerdict.parse(tie["evidence_verdict"]).value] += 1
        for tie in r.get("open_ties", []) + r.get("float_ties", []):
            said, seen = LimitVerdict.parse(tie["limit_verdict"]), LimitVerdict.parse(tie["evidence_verdict"])
            if compare(said, seen) is Agreement.DISAGREES:
                counterexamples.append({"index": k, "pe": r["pe"], "task": r["task"], "train_length": r["train_length"],
                                        "length": r["length"], "row": tie["row"], "limit_verdict": said.value,
                                        "evidence_verdict": seen.value, "limit_estimate": tie["limit_estimate"]})
        won_float = [t for t in r.get("float_ties", [])
                     if LimitVerdict.parse(t["evidence_verdict"]) is LimitVerdict.WON]
        if won_float:
            float_candidates.append({"index": k, "pe": r["pe"], "task": r["task"], "train_length": r["train_length"],
                                     "length": r["length"], "rows_won": [t["row"] for t in won_float],
                                     "limit_estimate": max(t["limit_estimate"] for t in won_float)})
        won = [t for t in r.get("open_ties", []) if LimitVerdict.parse(t["evidence_verdict"]) is LimitVerdict.WON]
        if won:
            fam["candidates"] += 1
            best = max(won, key=lambda t: t["limit_estimate"])
            candidates.append({"index": k, "pe": r["pe"], "task": r["task"], "train_length": r["train_length"],
                               "length": r["length"], "alpha": r["alpha"], "limit_interval": r.get("limit_interval"),
                               "row": best["row"], "limit_estimate": best["limit_estimate"],
                               "limit_verdict": LimitVerdict.parse(best["limit_verdict"]).value,
                               "table": r.get("table")})
    return with_shares({
        "instances": len(records), "status": status, "failing_rows": rows, "open_tie_evidence": evidence,
        "open_tie_limit_verdicts": limit, "open_tie_agreement": agreement,
        "open_tie_by_evidence": {k: v for k, v in closed.items() if any(v.values())},
        "open_tie_with_trajectory": {k: v for k, v in after.items() if any(v.values())},
        "open_tie_reasons": reasons, "open_tie_reasons_with_trajectory": reasons_after,
        "decided_in_closed_form": None, "decided_with_trajectory": None,      # SHARES, computed by with_shares
        "undecided_rows": undecided_rows,
        "float_tie_evidence": float_evidence, "families": per_family, "candidates": candidates,
        "float_candidates": float_candidates, "limit_counterexamples": counterexamples})


SHARES = ("decided_in_closed_form", "decided_with_trajectory")   # ratios of a summary's counts, not counts


def with_shares(summary: dict) -> dict:
    """The summary with its shares (re)computed from its counts.

    The fraction of open-tie rows α♯ decides in closed form or by symmetry, and once trajectory evidence counts
    (None: no open-tie row).  Chunk summaries add count by count; their shares are computed again on the sum."""
    open_total = sum(summary["open_tie_limit_verdicts"].values())
    closed_kinds = (Evidence.EXACT.value, Evidence.CERTIFIED.value, Evidence.SYMMETRY.value)

    def share(tally: dict[str, dict[str, int]], kinds: tuple[str, ...]) -> float | None:
        n = sum(tally.get(k, {}).get(v, 0) for k in kinds for v in ("won", "lost"))
        return None if not open_total else n / open_total

    return {**summary, "decided_in_closed_form": share(summary["open_tie_by_evidence"], closed_kinds),
            "decided_with_trajectory": share(summary["open_tie_with_trajectory"],
                                             closed_kinds + (Evidence.TRAJECTORY.value,))}
