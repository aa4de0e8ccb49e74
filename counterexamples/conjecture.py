"""The search of the Conjecture's open case (definitions.md#conjecture), and of counterexamples to
Conjecture′ (definitions.md#conjecture-prime).

Main functions (docs: Results › Conjecture; Definitions, "The predicted limit α♯"):

* :func:`evaluate` — one instance (PE, task, L0, L) -> a :class:`SearchRecord` (its tied rows as
  :class:`TieRecord`, their rivals as :class:`RivalRecord`; ``to_json()`` is the file's line):
  θ* (exact in ℚ for rational features), every failing row of T_L θ* classified
  (:mod:`posreal.theory.ties`), α♯_L (:mod:`posreal.theory.limit`), and for each open tie α_L's
  verdict (lost), α♯'s verdict with its reason, and the log-time gradient flow's tie margins
  ⟨θ(τ), v_j⟩ with their verdicts (:mod:`posreal.theory.flow`).  A **candidate** (against the
  original Conjecture) is an open-tie row that the flow wins, so lim acc_L > α_L; a
  **counterexample to Conjecture′** is a row that α♯ decides and the flow's evidence decides the
  other way.  Rows of irrational PEs that are tied within float tolerance (``undecided``) get the
  same evidence as *float ties* (α♯ leaves them undecided; a won one is a *float candidate*: the
  tie itself is not certified in ℚ);
* :func:`summarize` — counts per class, verdict tallies and agreement, candidates and
  counterexamples, from the records.

The seeded and exhaustive searches that run :func:`evaluate` on an executor and keep its records
in a JSONL file are in :mod:`posreal.counterexamples.search_runner`.
"""

from __future__ import annotations

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
from posreal.theory.flow import TAU_MAX, Agreement, FlowEvidence, FlowVerdict, compare, row_flow_verdict, tie_flow
from posreal.theory.limit import LimitInterval, LimitRow, LimitVerdict, limit_rows, prediction_context
from posreal.theory.sampling import Instance, registered

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
    """One tied rival j of an open (or float) tie row: its direction v_j, the flow's evidence on
    ⟨θ(τ), v_j⟩ and the second-order prediction of its limit."""

    rival: int
    direction: list[str] | list[float]   # v_j: "p/q" strings (exact) or floats
    flow: dict                           # FlowEvidence.to_json(): tau, value, drift, verdict
    prediction: dict | None              # {"sign", "value"}, None if its hypotheses fail

    def to_json(self) -> dict:
        return {"rival": self.rival, "direction": self.direction, "flow": self.flow, "prediction": self.prediction}


@dataclass(frozen=True)
class TieRecord:
    """One tied row of T_L θ*: α_L's verdict (lost), α♯'s verdict and reason, the flow's verdict."""

    row: int
    target: int
    rivals: tuple[RivalRecord, ...]
    limit_verdict: str                   # α♯: won / lost / undecided
    limit_reason: str | None             # why α♯ left the row undecided
    evidence_verdict: str                # the flow: wins / loses / undecided
    limit_estimate: float                # the smallest tie margin at the end of the flow

    @property
    def agreement(self) -> str:
        return compare(LimitVerdict(self.limit_verdict), FlowVerdict(self.evidence_verdict)).value

    def to_json(self) -> dict:
        return {"row": self.row, "target": self.target, "rivals": [r.to_json() for r in self.rivals],
                "alpha_verdict": "lost", "limit_verdict": self.limit_verdict, "limit_reason": self.limit_reason,
                "evidence_verdict": self.evidence_verdict, "limit_estimate": self.limit_estimate,
                "agreement": self.agreement}


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
    limit_interval: tuple[str, str] | None = None   # α♯_L as "p/q" strings
    classes: dict[str, int] = field(default_factory=dict)   # failing rows per class
    open_ties: tuple[TieRecord, ...] = ()
    float_ties: tuple[TieRecord, ...] = ()
    tau_max: float | None = None               # set when some tie was followed by the flow

    @property
    def candidate(self) -> bool:
        """An open (exact) tie that the flow wins: lim acc_L > α_L (against the original Conjecture)."""
        return any(t.evidence_verdict == FlowVerdict.WINS.value for t in self.open_ties)

    @property
    def float_candidate(self) -> bool:
        return any(t.evidence_verdict == FlowVerdict.WINS.value for t in self.float_ties)

    @property
    def limit_counterexample(self) -> bool:
        """A row α♯ decides and the flow decides the other way: against Conjecture′."""
        return any(t.agreement == Agreement.DISAGREES.value for t in self.open_ties + self.float_ties)

    def to_json(self) -> dict:
        out = self.instance.to_json()
        if self.status is RecordStatus.SKIPPED:
            return {**out, "status": self.status.value, "reason": self.reason}
        out["realizable"] = self.status is not RecordStatus.NOT_REALIZABLE
        if self.status is RecordStatus.NOT_REALIZABLE:
            return {**out, "status": self.status.value, "reason": self.reason}
        out.update(status=self.status.value, exact=self.exact, rows=self.rows, realized=self.realized,
                   alpha=self.alpha, classes=self.classes,
                   limit_interval=None if self.limit_interval is None else list(self.limit_interval),
                   open_ties=[t.to_json() for t in self.open_ties], float_ties=[t.to_json() for t in self.float_ties],
                   candidate=self.candidate, float_candidate=self.float_candidate,
                   limit_counterexample=self.limit_counterexample)
        if self.tau_max is not None:
            out["tau_max"] = self.tau_max
        return out


def _tie_record(pe: Encoding, task: Task, sel: Selection, row: FailingRow, limit: LimitRow,
                flows: list[FlowEvidence]) -> TieRecord:
    """The record of one tied row, from α♯'s verdict and the flow's evidence on its rivals (in rival order)."""
    exact = row.cls == "open_tie"
    predictions = {r.rival: r.prediction for r in limit.rivals}
    rivals = []
    for rival, flow in zip(row.rivals, flows):
        pred: dict | None
        direction: list[str] | list[float]
        if exact:
            found = predictions.get(rival.rival)
            pred = None if found is None else {"sign": found.sign, "value": found.value}
            direction = qvec(rival.direction)
        else:
            approx = predict_float(pe, task, sel, rival.direction)
            pred = None if approx is None else {"sign": None, "value": approx["value"]}
            direction = [float(x) for x in rival.direction]
        rivals.append(RivalRecord(rival.rival, direction, flow.to_json(), pred))
    evidence = row_flow_verdict([f.verdict for f in flows])
    return TieRecord(row.row, row.target, tuple(rivals), limit.verdict.value,
                     None if limit.reason is None else limit.reason.value, evidence.value,
                     min(f.value for f in flows))


def evaluate(inst: Instance, tau_max: float = TAU_MAX) -> SearchRecord:
    """Classify one instance (deterministic: no timings); ``.to_json()`` is its JSON record.

    Every open tie (and float near-tie) gets α_L's verdict (lost: margin 0), α♯'s verdict with
    its reason, and the log-time gradient flow's evidence per tied rival."""
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
        sharp = LimitInterval(inst.length, cls.total, cls.realized, list(limits.values()))
        record = SearchRecord(inst, RecordStatus.CLASSIFIED, exact=cls.exact, rows=cls.total, realized=cls.realized,
                              alpha=q(cls.alpha) if cls.exact else float(cls.alpha),
                              limit_interval=(q(sharp.low), q(sharp.high)), classes=cls.counts())
        open_rows = cls.open_rows
        float_rows = [r for r in cls.failing if r.cls == "undecided" and r.rivals
                      and not any(v.orthogonal for v in r.rivals)]
        if not open_rows and not float_rows:
            return record
        directions = [r.direction for row in open_rows + float_rows for r in row.rivals]
        flows = iter(tie_flow(pe, task, inst.train_length, [[float(x) for x in v] for v in directions], tau_max))
        ties = [_tie_record(pe, task, sel, row, limits[row.row], [next(flows) for _ in row.rivals])
                for row in open_rows + float_rows]
        return replace(record, open_ties=tuple(ties[:len(open_rows)]), float_ties=tuple(ties[len(open_rows):]),
                       tau_max=tau_max)


def summarize(records: dict[int, dict]) -> dict:
    """Counts per class (failing rows), instance outcomes, the open ties' verdicts (α♯ and the
    flow's evidence) and their agreement, the candidates against the original Conjecture (open ties
    the flow wins: lim acc_L > α_L) and the counterexamples to Conjecture′ (a decided α♯ row that
    the evidence decides the other way)."""
    rows = {c: 0 for c in CLASSES}
    status: dict[str, int] = {}
    per_family: dict[str, dict[str, int]] = {}
    verdict_names = [v.value for v in FlowVerdict]
    evidence = {v: 0 for v in verdict_names}
    float_evidence = {v: 0 for v in verdict_names}
    limit = {v.value: 0 for v in LimitVerdict}
    agreement = {a.value: 0 for a in Agreement}
    candidates, float_candidates, counterexamples = [], [], []
    for k in sorted(records):
        r = records[k]
        status[r.get("status", "?")] = status.get(r.get("status", "?"), 0) + 1
        fam = per_family.setdefault(r.get("family", "?"), {"instances": 0, "open_tie_rows": 0, "candidates": 0})
        fam["instances"] += 1
        for c, n in r.get("classes", {}).items():
            rows[c] = rows.get(c, 0) + n
        for tie in r.get("open_ties", []):
            evidence[tie["evidence_verdict"]] += 1
            limit[tie["limit_verdict"]] += 1
            agreement[tie["agreement"]] += 1
            fam["open_tie_rows"] += 1
        for tie in r.get("float_ties", []):
            float_evidence[tie["evidence_verdict"]] += 1
        for tie in r.get("open_ties", []) + r.get("float_ties", []):
            if tie["agreement"] == Agreement.DISAGREES.value:
                counterexamples.append({"index": k, "pe": r["pe"], "task": r["task"], "train_length": r["train_length"],
                                        "length": r["length"], "row": tie["row"], "limit_verdict": tie["limit_verdict"],
                                        "evidence_verdict": tie["evidence_verdict"],
                                        "limit_estimate": tie["limit_estimate"]})
        if r.get("float_candidate"):
            won = [t for t in r["float_ties"] if t["evidence_verdict"] == FlowVerdict.WINS.value]
            float_candidates.append({"index": k, "pe": r["pe"], "task": r["task"], "train_length": r["train_length"],
                                     "length": r["length"], "rows_won": [t["row"] for t in won],
                                     "limit_estimate": max(t["limit_estimate"] for t in won)})
        if r.get("candidate"):
            fam["candidates"] += 1
            best = max((t for t in r["open_ties"] if t["evidence_verdict"] == FlowVerdict.WINS.value),
                       key=lambda t: t["limit_estimate"])
            candidates.append({"index": k, "pe": r["pe"], "task": r["task"], "train_length": r["train_length"],
                               "length": r["length"], "alpha": r["alpha"], "limit_interval": r.get("limit_interval"),
                               "row": best["row"], "limit_estimate": best["limit_estimate"],
                               "limit_verdict": best["limit_verdict"], "table": r.get("table")})
    return {"instances": len(records), "status": status, "failing_rows": rows, "open_tie_evidence": evidence,
            "open_tie_limit_verdicts": limit, "open_tie_agreement": agreement,
            "float_tie_evidence": float_evidence, "families": per_family, "candidates": candidates,
            "float_candidates": float_candidates, "limit_counterexamples": counterexamples}
