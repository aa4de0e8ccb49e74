"""Conjecture′ against the evidence: α♯'s closed forms vs the gradient flow followed to log log t.

Main checks (statement id ``conjecture-limit``; docs: Results › Conjecture and Conjecture′):

* :func:`compare_rows` — for every open-tie row of a set of instances, α♯'s closed-form verdict and its
  kind of evidence (:func:`posreal.theory.limit.open_tie_limit`: closed form in ℚ, with a certified
  bound, or symmetry) against the gradient flow's evidence (:func:`posreal.theory.flow.tie_flow`, floats,
  up to τ = e^24 in h = θ - θ* τ and σ = log τ), tallied per kind as agreements, disagreements and
  undecided.  A symmetric row agrees when its flow margin stays 0 (|value| and |drift| ≤ 1e-9); a row
  that grows like ⟨θ_2, v⟩ log log t also records |flow slope in σ - the levels' slope| (⟨θ_2, v⟩ plus
  the average of the next level's ⟨θ_3, v⟩/σ over the window).  A disagreement is a
  counterexample to Conjecture′.
* the instances: every shipped certificate with a tie row (read as data from the package's
  ``certificates/`` folder) and seeded batches of the search's table instances
  (:func:`posreal.theory.random_instances.instance`, seeds :data:`BATCH_SEEDS`) taken in order until each
  holds at least :data:`BATCH_ROWS` open-tie rows;
* negative controls, on the same rows and flows, must disagree somewhere: α♯ with wrong multiplicities
  (every n_s replaced by 1/n_s: the residuals' weights), and α♯ with levels built from the raw S0
  differences (no projection onto U_k);
* :func:`check_rescaling` — multiplying the loss terms of the pairs with ⟨θ*, z⟩ > 1 by 0.01 and 100
  leaves θ*, the active set and the residual levels unchanged: the finite limits α♯ gives in closed form
  must not move (|Δ| ≤ :data:`STILL`), while trajectory-dependent limits move (its control: the same
  test on those rows must fail), and how many of them change sign is reported.

A check with no decided row at all is a failure (a comparison that compared nothing).
"""

from __future__ import annotations

import dataclasses
import json
import math
from collections.abc import Iterator
from dataclasses import dataclass, field
from fractions import Fraction
from importlib import resources

from posreal.checks.base import COUNTEREXAMPLE, FAILED, PASSED, CheckResult, Control, DeclaredCheck, timed
from posreal.checks.declare import claim_check, declared_in
from posreal.theory.errors import PosrealError
from posreal.theory.flow import Agreement, compare, row_verdict, tie_flow
from posreal.theory.limit import (Evidence, LimitRow, LimitVerdict, PredictionContext, UndecidedReason,
                                  open_tie_limit, prediction_context)
from posreal.theory.pe_specs import parse_pe
from posreal.theory.rational import dot
from posreal.theory.random_instances import instance
from posreal.theory.selection import select
from posreal.theory.tables import register_pe, unregister_pe
from posreal.theory.tasks import parse_task
from posreal.theory.ties import classify
from posreal.theory.trajectory import WINDOW, TrajectoryEvidence

CLAIM = "conjecture-limit"
BATCH_SEEDS = (1, 2)
BATCH_FAMILIES = ("relative", "column", "general")
BATCH_ROWS = 200
MAX_BATCH_INSTANCES = 40000
ZERO = 1e-9               # a symmetric tie's flow margin must stay within this of 0
STILL = 1e-5              # a closed-form finite limit may move by at most this under rescaling
MOVED = 1e-3              # a trajectory-dependent limit counts as moved beyond this
RESCALE = (0.01, 100.0)
RESCALE_INSTANCES = 60    # open-tie instances of the batch used by the rescaling check


@dataclass
class Tally:
    """α♯'s closed forms against the flow's evidence, over open-tie rows, per kind of evidence."""

    rows: int = 0
    by_kind: dict[str, dict[str, int]] = field(default_factory=dict)   # kind -> agrees / disagrees / undecided
    limit: dict[str, int] = field(default_factory=lambda: {v.value: 0 for v in LimitVerdict})
    evidence: dict[str, int] = field(default_factory=lambda: {v.value: 0 for v in LimitVerdict})
    reasons: dict[str, int] = field(default_factory=dict)    # why α♯ left rows undecided
    evidence_when_undecided: dict[str, int] = field(default_factory=lambda: {v.value: 0 for v in LimitVerdict})
    disagreements: list[str] = field(default_factory=list)   # first few, named
    slope_errors: list[float] = field(default_factory=list)  # |flow slope in σ - ⟨θ_2, v⟩|

    @property
    def agrees(self) -> int:
        """Rows where α♯ and the flow agree, over every kind of evidence."""
        return sum(d.get("agrees", 0) for d in self.by_kind.values())

    @property
    def disagrees(self) -> int:
        """Rows where α♯ and the flow disagree, over every kind of evidence."""
        return sum(d.get("disagrees", 0) for d in self.by_kind.values())

    @property
    def undecided(self) -> int:
        """Rows left undecided, over every kind of evidence."""
        return sum(d.get("undecided", 0) for d in self.by_kind.values())

    def add(self, name: str, row: LimitRow, flows: list[TrajectoryEvidence],
            expected_slopes: list[float | None] | None = None) -> None:
        """Count one row: α♯'s verdict and the flow's evidence per rival.

        One row: α♯'s verdict, the flow's evidence per rival, and ⟨θ_2, v⟩ per rival where the margin grows
        like it (None elsewhere)."""
        self.rows += 1
        evidence = row_verdict([f.verdict for f in flows])
        if row.reason is not None:
            self.reasons[row.reason.value] = self.reasons.get(row.reason.value, 0) + 1
        if row.verdict is LimitVerdict.UNDECIDED:
            self.evidence_when_undecided[evidence.value] += 1
        self.limit[row.verdict.value] += 1
        self.evidence[evidence.value] += 1
        if row.evidence is Evidence.SYMMETRY:
            zero = all(abs(f.value) <= ZERO and abs(f.drift) <= ZERO
                       for r, f in zip(row.rivals, flows) if r.evidence is Evidence.SYMMETRY)
            agreement = Agreement.AGREES if zero else Agreement.DISAGREES
        else:
            agreement = compare(row.verdict, evidence)
        kind = self.by_kind.setdefault(row.evidence.value, {a.value: 0 for a in Agreement})
        kind[agreement.value] += 1
        if agreement is Agreement.DISAGREES and len(self.disagreements) < 5:
            self.disagreements.append(name)
        for slope, f in zip(expected_slopes or [], flows):
            if slope is not None and f.basis == "slope in log log t":
                self.slope_errors.append(abs(f.slope - slope))

    def to_json(self) -> dict:
        """The tally as a JSON object, with its totals and the largest slope error."""
        out = dataclasses.asdict(self)
        out.update(agrees=self.agrees, disagrees=self.disagrees, undecided=self.undecided,
                   slope_errors=(max(self.slope_errors) if self.slope_errors else None))
        return out


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
    """The first negative control's context: every n_s replaced by 1/n_s (support and residual weights)."""
    return dataclasses.replace(ctx, multiplicities=[Fraction(1, n) for n in ctx.multiplicities],  # type: ignore[misc]
                               weights=[Fraction(1, n) for n in ctx.weights],  # type: ignore[misc]
                               _levels=None, _residuals=None)


def unprojected(ctx: PredictionContext) -> PredictionContext:
    """The second negative control's context: levels built from the raw S0 differences (no projection)."""
    return dataclasses.replace(ctx, project=False, _levels=None, _residuals=None)


CONTROLS = (("n_s replaced by 1/n_s", wrong_multiplicities), ("levels without the projection onto U", unprojected))


class Cases:
    """A case's registered tables, for the duration of a ``with``."""

    def __init__(self, case: TieCase):
        self.case = case

    def __enter__(self) -> TieCase:
        for name, kind, rows in self.case.tables:
            register_pe(name, rows, kind)
        return self.case

    def __exit__(self, *exc) -> None:
        for name, _, _ in self.case.tables:
            unregister_pe(name)


def compare_case(case: TieCase, tally: Tally, controls: list[Tally]) -> int:
    """Compare α♯ with the flow on the case's open-tie rows; returns the number of rows compared."""
    with Cases(case):
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
        wrong = [make(ctx) for _, make in CONTROLS]
        directions = [[float(x) for x in r.direction] for row in open_rows for r in row.rivals]
        flows = iter(tie_flow(pe, task, case.train_length, directions, theta=list(sel.exact_theta)))
        levels = ctx.levels()
        thetas = [lv.theta for lv in levels.levels]
        for row in open_rows:
            evidence = [next(flows) for _ in row.rivals]
            decided = open_tie_limit(ctx, row)
            slopes = [_expected_slope(thetas, fr.direction, f.sigma) if r.level == 2 else None
                      for r, fr, f in zip(decided.rivals, row.rivals, evidence)]
            tally.add(f"{case.name} row {row.row}", decided, evidence, slopes)
            for target, context in zip(controls, wrong):
                target.add(f"{case.name} row {row.row}", open_tie_limit(context, row), evidence)
        return len(open_rows)


def _expected_slope(thetas: list, v, end: float) -> float:
    """The slope in σ over the flow's last window that the levels predict: ⟨θ_2, v⟩ plus the log σ term of
    ⟨θ_3, v⟩ averaged over [end - WINDOW, end] (the margin is ⟨θ_2, v⟩ σ + ⟨θ_3, v⟩ log σ + …)."""
    slope = float(dot(thetas[1], v))
    if len(thetas) > 2 and end > WINDOW:
        slope += float(dot(thetas[2], v)) * math.log(end / (end - WINDOW)) / WINDOW
    return slope


def _float_near_tie(pe, task, train_length: int, length: int) -> bool:
    """Whether the float θ* leaves some row of R_L within the tolerance rule (an exact tie shows up so)."""
    sel = select(pe, task, train_length, mode="float")
    if not sel.realizable:
        return False
    return any(r.cls == "undecided" for r in classify(pe, task, sel, length).failing)


def certificate_cases() -> list[TieCase]:
    """Every shipped certificate with a tie row (open-tie, dynamic-colspan, the residual kinds), read as data."""
    folder = resources.files("posreal.counterexamples").joinpath("certificates")
    out = []
    for entry in sorted(folder.iterdir(), key=lambda e: e.name):
        if not entry.name.endswith(".json"):
            continue
        doc = json.loads(entry.read_text(encoding="utf-8"))
        if doc.get("kind") not in ("open-tie", "dynamic-colspan", "residual-levels", "symmetric-tie"):
            continue
        inst = doc["instance"]
        tables = tuple((name, t["kind"], t["rows"]) for name, t in sorted(inst.get("tables", {}).items()))
        out.append(TieCase(entry.name, inst["pe"], inst["task"], inst["train_length"], inst["length"],
                           (inst["row"],), tables))
    return out


def batch_cases(seed: int) -> Iterator[TieCase]:
    """The search's table instances of ``seed``, in order (each with every open-tie row)."""
    for k in range(MAX_BATCH_INSTANCES):
        inst = instance(seed, k, BATCH_FAMILIES)
        tables: tuple[tuple[str, str, list], ...] = ()
        if inst.table is not None and inst.table_kind is not None:
            tables = ((inst.pe.removeprefix("dual:"), inst.table_kind, _listify(inst.table)),)
        yield TieCase(f"seed {seed} #{k}", inst.pe, inst.task, inst.train_length, inst.length, None, tables, True)


def _listify(x):
    return [_listify(y) for y in x] if isinstance(x, tuple) else x


def compare_all(min_rows: int = BATCH_ROWS, seeds: tuple[int, ...] = BATCH_SEEDS) -> tuple[Tally, list[Tally], dict]:
    """The tally and the controls' tallies over the certificates and the seeded batches."""
    tally, controls = Tally(), [Tally() for _ in CONTROLS]
    certs = certificate_cases()
    cert_rows = sum(compare_case(c, tally, controls) for c in certs)
    batches = {}
    for seed in seeds:
        rows, instances = 0, 0
        for case in batch_cases(seed):
            if rows >= min_rows:
                break
            instances += 1
            try:
                rows += compare_case(case, tally, controls)
            except PosrealError:
                continue    # an instance the registry refuses (e.g. a length beyond the table): not a tie case
        batches[str(seed)] = {"instances": instances, "rows": rows}
    info = {"certificates": len(certs), "certificate_rows": cert_rows, "batch_seeds": list(seeds), "batches": batches}
    return tally, controls, info


def tally_text(tally: Tally) -> str:
    """The tally in one line of words."""
    kinds = ", ".join(f"{k}: {d['agrees']} agree / {d['disagrees']} disagree / {d['undecided']} undecided"
                      for k, d in sorted(tally.by_kind.items()))
    return (f"{tally.rows} open-tie rows: {tally.agrees} agree, {tally.disagrees} disagree, {tally.undecided} "
            f"undecided ({kinds})")


@claim_check(CLAIM, "dynamics", "α♯ vs the gradient flow to log log t (certificates and seeded batches)", slow=True)
def check_limit_against_flow(min_rows: int = BATCH_ROWS) -> CheckResult:
    """Check α♯'s closed forms against the gradient flow on every decided open tie."""
    def run() -> CheckResult:
        tally, controls, info = compare_all(min_rows)
        decided = tally.agrees + tally.disagrees
        verdict = PASSED if tally.disagrees == 0 and decided > 0 else (COUNTEREXAMPLE if tally.disagrees else FAILED)
        batches = ", ".join(f"seed {s}: {b['rows']} rows from {b['instances']} instances"
                            for s, b in info["batches"].items())
        detail = (f"{tally_text(tally)}; {info['certificate_rows']} rows from {info['certificates']} certificates, "
                  f"{batches}; flow: {tally.evidence['won']} won, {tally.evidence['lost']} lost, "
                  f"{tally.evidence['undecided']} undecided")
        if tally.slope_errors:
            detail += f"; log log t rows: max |flow slope - ⟨θ_2, v⟩| = {max(tally.slope_errors):.2g}"
        if tally.disagreements:
            detail += f"; disagreements: {', '.join(tally.disagreements)}"
        detail += "; controls: " + ", ".join(f"{name}: {c.disagrees} disagreements"
                                             + (f" (e.g. {c.disagreements[0]})" if c.disagreements else "")
                                             for (name, _), c in zip(CONTROLS, controls))
        control_ok = all(c.disagrees > 0 for c in controls)
        return CheckResult(claim=CLAIM, name="α♯'s closed forms (ℚ, certified bound, symmetry) agree with the "
                           "gradient flow followed to log log t on every decided open tie", method="dynamics",
                           verdict=verdict,
                           negative_control=Control.COUNTEREXAMPLE if control_ok else Control.NO_COUNTEREXAMPLE,
                           detail=detail,
                           data={"tally": tally.to_json(),
                                 "controls": {name: c.to_json() for (name, _), c in zip(CONTROLS, controls)}, **info})
    return timed(run)


# --------------------------------------------------------------------------- rescaling the non-active pairs
def rescaling_moves(case: TieCase, c: float) -> list[tuple[str, float, float]]:
    """The limit with weights 1 and with the non-active pairs weighted by c, per tied rival.

    (kind, limit with weights 1, limit with the non-active pairs weighted by c) per tied rival whose closed form
    is a finite limit or trajectory-dependent."""
    with Cases(case):
        pe, task = parse_pe(case.pe), parse_task(case.task)
        pe.check_length(case.length, case.train_length)
        if case.prefilter and not _float_near_tie(pe, task, case.train_length, case.length):
            return []
        sel = select(pe, task, case.train_length)
        if not sel.realizable or sel.exact_theta is None:
            return []
        cls = classify(pe, task, sel, case.length)
        if not cls.open_rows:
            return []
        ctx = prediction_context(pe, task, sel)
        theta = list(sel.exact_theta)
        weights = {z: c for z in ctx.constraints if dot(z, theta) > 1}
        picked = []
        for row in cls.open_rows:
            for rival, fr in zip(open_tie_limit(ctx, row).rivals, row.rivals):
                if rival.level == 1 and rival.evidence in (Evidence.EXACT, Evidence.CERTIFIED):
                    picked.append(("closed form", fr.direction))
                elif rival.undecided is UndecidedReason.TRAJECTORY_DEPENDENT:
                    picked.append(("trajectory-dependent", fr.direction))
        if not picked:
            return []
        directions = [[float(x) for x in d] for _, d in picked]
        base = tie_flow(pe, task, case.train_length, directions, theta=theta)
        moved = tie_flow(pe, task, case.train_length, directions, theta=theta, pair_weights=weights)
        return [(kind, a.value, b.value) for (kind, _), a, b in zip(picked, base, moved)]


@claim_check(CLAIM, "dynamics", "rescaling the non-active weights (closed forms stay, trajectory-dependent "
             "limits move)", slow=True)
def check_rescaling(instances: int = RESCALE_INSTANCES) -> CheckResult:
    """Check that rescaling the non-active pairs moves the trajectory-dependent limits only."""
    def run() -> CheckResult:
        stats = {"closed form": [], "trajectory-dependent": []}     # type: dict[str, list[tuple[float, float]]]
        used = 0
        for case in batch_cases(BATCH_SEEDS[0]):
            if used >= instances:
                break
            try:
                found = [rescaling_moves(case, c) for c in RESCALE]
            except PosrealError:
                continue
            if not any(found):
                continue
            used += 1
            for moves in found:
                for kind, a, b in moves:
                    stats[kind].append((a, b))
        closed, dependent = stats["closed form"], stats["trajectory-dependent"]
        still = max((abs(a - b) for a, b in closed), default=0.0)
        moved = sum(abs(a - b) > MOVED for a, b in dependent)
        flipped = sum((a > 0) != (b > 0) for a, b in dependent if abs(a) > MOVED and abs(b) > MOVED)
        ok = bool(closed) and still <= STILL
        detail = (f"{used} open-tie instances of seed {BATCH_SEEDS[0]}, non-active pairs weighted by "
                  f"{' and '.join(f'{c:g}' for c in RESCALE)}: {len(closed)} closed-form finite limits move by at "
                  f"most {still:.2g} (tolerance {STILL:g}); control: {moved} of {len(dependent)} "
                  f"trajectory-dependent limits move by more than {MOVED:g}, {flipped} change sign")
        return CheckResult(claim=CLAIM, name="rescaling the non-active pairs' weights moves the trajectory-dependent "
                           "limits and not the closed-form ones", method="dynamics",
                           verdict=PASSED if ok else FAILED,
                           negative_control=Control.COUNTEREXAMPLE if moved else Control.NO_COUNTEREXAMPLE,
                           detail=detail, data={"closed_form": len(closed), "max_closed_form_move": still,
                                                "trajectory_dependent": len(dependent), "moved": moved,
                                                "changed_sign": flipped})
    return timed(run)


LIMIT_CHECKS: tuple[DeclaredCheck, ...] = declared_in(__name__)   # the @claim_check declarations above
