"""α♯_L, the predicted limit of gradient descent on every row of R_L (ℓ2 geometry only).

Main definitions and results (definitions.md#alpha-sharp, #residual-levels and #conjecture-prime;
statement id ``conjecture-limit``):

* :func:`predict` — the non-degenerate closed form.  Gradient descent on separable data follows
  θ_k = θ* log k + w̃ + o(1) (Soudry et al. 2018, JMLR 19(70)), with η n_s exp(-⟨w̃, z_s⟩) = λ_s
  on the support.  If v = Σ_s c_s z_s + w with w ⊥ col Zᵀ and ⟨θ*, v⟩ = 0, then Σ_s c_s = 0 and
  ⟨θ_k, v⟩ → Σ_s c_s log(n_s / λ_s) (the step cancels), whose sign is decided in ℚ.  Hypotheses
  (checked in ℚ): independent support, λ_s > 0 on it, ⟨θ*, z⟩ > 1 off it, v - Σ c_s z_s ⊥ col Zᵀ.
  It is what the ``open-tie`` certificates verify;
* :func:`decide_direction` — every open tie direction, through the residual levels
  (:mod:`posreal.theory.levels`): the first level k ≥ 2 with ⟨θ_k, v⟩ ≠ 0 decides in ℚ (the margin
  grows like ⟨θ_k, v⟩ log^{∘k} t); otherwise, when v's projection on col Zᵀ lies in V_1 ⊕ V_2 ⊕ …,
  the margin tends to Σ_k ⟨w̃_k, v⟩ with the max-entropy residuals (:mod:`posreal.theory.maxent`:
  exact in ℚ when every level met has an independent S+, else enclosed with a certified bound);
  a signed-permutation symmetry (:mod:`posreal.theory.symmetry`) proves a margin ≡ 0 (lost);
  a direction that leaves the sum of the level spans is ``trajectory-dependent``;
* :func:`limit_interval` — α♯_L = [wins, wins + undecided] / |R_L|: rows with a non-zero θ* margin
  as in α_L; structural and orthogonal ties lost; open ties won (every tied rival's limit > 0) or
  lost (one < 0, or ≡ 0 by symmetry); every other row undecided, with its
  :class:`UndecidedReason`.  Each row says which :class:`Evidence` decided it;
  :func:`with_trajectory` adds trajectory evidence (:mod:`posreal.theory.trajectory`) to the rows
  the closed forms leave undecided.

The expansion behind the closed forms is a statement about the trajectory, not a theorem of this
project (see the statement's notes): it is proved for the exponential and logistic losses in the
non-degenerate case; the levels are this project's derivation of the degenerate case.
"""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass, field, replace
from enum import Enum
from fractions import Fraction
from collections.abc import Sequence

from posreal.theory.encodings import Encoding
from posreal.theory.errors import SpecError
from posreal.theory.levels import Levels, leading_level, level_span_decomposition, projection, residual_levels
from posreal.theory.maxent import ResidualError, Residuals
from posreal.theory.pe_specs import parse_pe
from posreal.theory.rational import dot, pivot_rows, rank, solve
from posreal.theory.selection import Selection, exact_difference_vectors, training_pairs
from posreal.theory.symmetry import RowMultisets, SignedPermutation, find_symmetry, row_multisets
from posreal.theory.tasks import Task, parse_task
from posreal.theory.ties import Classification, FailingRow, classify


class LimitVerdict(Enum):
    """What a row (or one tie direction) does in the limit — said by α♯ or by trajectory evidence."""

    WON = "won"
    LOST = "lost"
    UNDECIDED = "undecided"

    @classmethod
    def parse(cls, text: str) -> LimitVerdict:
        """The value, or an old spelling of stored evidence (search files of version 2 and the shipped
        certificates' evidence wrote ``wins`` / ``loses``)."""
        return cls({"wins": "won", "loses": "lost"}.get(text, text))


class Evidence(Enum):
    """How a row of α♯ was decided (JSON: the value strings; :data:`EVIDENCE_TEXT` describes them)."""

    EXACT = "exact"              # closed form in ℚ (margins, ties, levels, log-linear forms)
    CERTIFIED = "certified"      # closed form with a certified error bound (interval enclosure)
    SYMMETRY = "symmetry"        # a signed permutation keeps the tie margin ≡ 0
    TRAJECTORY = "trajectory"    # numerical trajectory evidence (horizon and drift stated)
    FLOAT = "float"              # α_L's float tolerance rule (irrational features)
    UNDECIDED = "undecided"


EVIDENCE_TEXT = {
    Evidence.EXACT: "closed form in ℚ",
    Evidence.CERTIFIED: "closed form with a certified error bound",
    Evidence.SYMMETRY: "symmetry (a signed permutation proves the margin ≡ 0)",
    Evidence.TRAJECTORY: "trajectory evidence (numerical; horizon and drift stated)",
    Evidence.FLOAT: "α_L's float tolerance rule",
    Evidence.UNDECIDED: "undecided",
}
_STRENGTH = {Evidence.EXACT: 5, Evidence.SYMMETRY: 4, Evidence.CERTIFIED: 3, Evidence.FLOAT: 2,
             Evidence.TRAJECTORY: 1, Evidence.UNDECIDED: 0}


class UndecidedReason(Enum):
    """Why α♯ leaves a row undecided."""

    TRAJECTORY_DEPENDENT = "trajectory-dependent"
    ZERO_LIMIT = "zero limit"
    NOT_CERTIFIED = "limit not certified away from 0"
    LEVELS = "residual levels not certified"
    NOT_EXACT = "not decided in ℚ (irrational features or no exact θ*)"


REASON_TEXT = {
    UndecidedReason.TRAJECTORY_DEPENDENT: "v's projection leaves the sum of the level spans: the limit depends on "
                                          "the path (loss, algorithm, step)",
    UndecidedReason.ZERO_LIMIT: "Σ_k ⟨w̃_k, v⟩ = 0 exactly and no symmetry found: the o(1) term decides",
    UndecidedReason.NOT_CERTIFIED: "the enclosure of Σ_k ⟨w̃_k, v⟩ contains 0",
    UndecidedReason.LEVELS: "the residual levels could not be certified in ℚ",
    UndecidedReason.NOT_EXACT: "irrational features or no exact θ*",
}


@dataclass(frozen=True)
class Prediction:
    """The non-degenerate closed form lim ⟨θ_k, v⟩ = Σ_s c_s log(n_s/λ_s) for one tie direction v."""

    coefficients: tuple[Fraction, ...]   # c_s, one per support entry (selection order)
    multiplicities: tuple[int, ...]      # n_s
    support: tuple[int, ...]             # constraint indices of the support
    sign: int                            # -1 / 0 / +1, exact
    value: float                         # Σ c_s log(n_s/λ_s) in floats


@dataclass
class PredictionContext:
    """The selection-level part of α♯, computed once per (PE, task, L0); levels and rows lazily."""

    constraints: list[tuple]             # (m, p) distinct training differences, ℚ
    support: list[int]                   # constraint indices with λ > 0
    multipliers: list[Fraction]          # λ_s on the support
    multiplicities: list[int]            # n_s on the support
    failure: str = ""                    # a non-degenerate hypothesis that fails ("" if none)
    theta: tuple = ()                    # θ* in ℚ: (p,)
    weights: list[int] = field(default_factory=list)       # n_s of every constraint: (m,)
    rows: RowMultisets | None = None     # the training rows' multisets (for the symmetry search)
    project: bool = True                 # False only in a negative control (levels from unprojected S0)
    _levels: Levels | None = None
    _residuals: Residuals | None = None

    def solve_direction(self, v: Sequence[Fraction]) -> list[Fraction] | None:
        """c with v - Σ c_s z_s ⊥ col Zᵀ (unique: the support is independent), or None."""
        zs = [self.constraints[k] for k in self.support]
        gram = [[dot(z, s) for s in zs] for z in self.constraints]     # (m, |S|)
        rhs = [dot(z, v) for z in self.constraints]                     # (m,)
        return solve(gram, rhs)

    @property
    def exact(self) -> bool:
        return bool(self.theta)

    def levels(self) -> Levels:
        if self._levels is None:
            self._levels = residual_levels(self.constraints, self.theta, self.weights, project=self.project)
        return self._levels

    def residuals(self) -> Residuals:
        if self._residuals is None:
            self._residuals = Residuals(self.levels())
        return self._residuals

    def column_projection(self, v: Sequence[Fraction]) -> tuple[Fraction, ...]:
        """The orthogonal projection of v on col Zᵀ, in ℚ."""
        p = len(v)
        basis = [self.constraints[k] for k in pivot_rows(self.constraints, p)]
        return projection(basis, v)[1]


def prediction_context(pe: Encoding, task: Task, selection: Selection) -> PredictionContext:
    """Support, λ and n_s in ℚ, with the non-degenerate hypotheses checked."""
    opt = selection.exact_optimum
    if opt is None:
        return PredictionContext([], [], [], [], "no exact θ* (KKT certificate in ℚ)")
    zq, theta, multipliers = opt.constraints, opt.theta, opt.multipliers
    support = sorted(k for k, lam in multipliers.items() if lam > 0)
    lams = [multipliers[k] for k in support]
    pairs = training_pairs(task, selection.train_length)
    counts = Counter(exact_difference_vectors(pe, pairs, selection.train_length))
    ctx = PredictionContext(zq, support, lams, [counts[zq[k]] for k in support], theta=tuple(theta),
                            weights=[counts[z] for z in zq], rows=row_multisets(pe, task, selection.train_length))
    if len(support) != len(multipliers):
        ctx.failure = "a zero multiplier on the certificate's support"
    elif rank([zq[k] for k in support], len(theta)) != len(support):
        ctx.failure = "dependent support vectors"
    elif any(dot(zq[k], theta) <= 1 for k in range(len(zq)) if k not in set(support)):
        ctx.failure = "no strict complementarity (⟨θ*, z⟩ = 1 off the support)"
    return ctx


def exact_sign(coefficients: Sequence[Fraction], multiplicities: Sequence[int],
               multipliers: Sequence[Fraction]) -> int:
    """The sign of Σ_s c_s log(n_s/λ_s), decided in ℚ: compare Π_s (n_s/λ_s)^{a_s} with 1."""
    den = 1
    for x in coefficients:
        den = den * x.denominator // math.gcd(den, x.denominator)
    product = Fraction(1)
    for x, n, lam in zip(coefficients, multiplicities, multipliers):
        product *= (Fraction(n) / lam) ** int(x * den)
    return (product > 1) - (product < 1)


def predict_in(ctx: PredictionContext, v: Sequence[Fraction]) -> Prediction | str:
    """The non-degenerate prediction for direction v, or the reason (a failed hypothesis) why there is none."""
    if ctx.failure:
        return ctx.failure
    c = ctx.solve_direction(v)
    if c is None:
        return "v's projection on col Zᵀ is not in the span of the support"
    sign = exact_sign(c, ctx.multiplicities, ctx.multipliers)
    value = sum(float(x) * math.log(n / float(lam)) for x, n, lam in zip(c, ctx.multiplicities, ctx.multipliers))
    return Prediction(tuple(c), tuple(ctx.multiplicities), tuple(ctx.support), sign, value)


def predict(pe: Encoding, task: Task, selection: Selection, v: Sequence[Fraction]) -> Prediction | None:
    """The non-degenerate prediction of lim ⟨θ_k, v⟩, or None when its hypotheses fail."""
    out = predict_in(prediction_context(pe, task, selection), v)
    return out if isinstance(out, Prediction) else None


# --------------------------------------------------------------------------- one tie direction
@dataclass
class RivalLimit:
    """One tied rival of an open tie: what its margin ⟨θ_k, v⟩ does in the limit, and how that is known."""

    rival: int
    prediction: Prediction | None        # the non-degenerate closed form, when its hypotheses hold
    reason: str = ""                     # why there is no non-degenerate closed form
    verdict: LimitVerdict = LimitVerdict.UNDECIDED
    evidence: Evidence = Evidence.UNDECIDED
    undecided: UndecidedReason | None = None
    level: int | None = None             # k ≥ 2: the margin grows like ⟨θ_k, v⟩ log^{∘k} t; 1: a finite limit
    value: float | None = None           # the finite limit Σ_k ⟨w̃_k, v⟩ (None when the margin grows, level ≥ 2)
    bound: float = 0.0                   # its certified half-width (0 when exact)
    symmetry: SignedPermutation | None = None
    detail: str = ""
    trajectory: dict | None = None       # the trajectory evidence's summary, when it was asked for

    def to_json(self) -> dict:
        return {"rival": self.rival, "verdict": self.verdict.value, "evidence": self.evidence.value,
                "reason": None if self.undecided is None else self.undecided.value, "level": self.level,
                "value": self.value, "bound": self.bound, "detail": self.detail,
                "symmetry": None if self.symmetry is None else self.symmetry.to_json(),
                "trajectory": self.trajectory}


def _by_sign(sign: int) -> LimitVerdict:
    return LimitVerdict.WON if sign > 0 else LimitVerdict.LOST


def _symmetric(ctx: PredictionContext, out: RivalLimit, v: Sequence[Fraction]) -> bool:
    """Try the symmetry search; on success the direction is lost (its margin stays 0)."""
    if ctx.rows is None:
        return False
    found = find_symmetry(ctx.rows, ctx.column_projection(v))
    if isinstance(found, SignedPermutation):
        out.verdict, out.evidence, out.symmetry, out.undecided = LimitVerdict.LOST, Evidence.SYMMETRY, found, None
        out.value, out.level = 0.0, 1
        out.detail = "a signed permutation maps every training row's differences to themselves and v to -v"
        return True
    if isinstance(found, str):
        out.detail = (out.detail + "; " if out.detail else "") + found
    return False


def decide_direction(ctx: PredictionContext, rival: int, v: Sequence[Fraction]) -> RivalLimit:
    """The limit of ⟨θ_k, v⟩ for one open tie direction (⟨θ*, v⟩ = 0, Zv ≠ 0)."""
    pred = predict_in(ctx, v)
    out = RivalLimit(rival, pred, "") if isinstance(pred, Prediction) else RivalLimit(rival, None, pred)
    if not ctx.exact:
        out.undecided = UndecidedReason.NOT_EXACT
        return out
    levels = ctx.levels()
    lead = leading_level(levels, v)
    if lead is not None:
        out.level, sign = lead
        out.verdict, out.evidence = _by_sign(sign), Evidence.EXACT
        plus = "+" if sign > 0 else "-"
        out.detail = (f"⟨θ_{out.level}, v⟩ {'>' if sign > 0 else '<'} 0: the margin goes to {plus}∞ "
                      f"like {plus}log^(∘{out.level}) t")
        return out
    if not levels.complete:
        if not _symmetric(ctx, out, v):
            out.undecided, out.detail = UndecidedReason.LEVELS, levels.failure
        return out
    decomposition = level_span_decomposition(levels, v)
    if decomposition is None:
        if not _symmetric(ctx, out, v):
            out.undecided = UndecidedReason.TRAJECTORY_DEPENDENT
            out.detail = (out.detail + "; " if out.detail else "") + REASON_TEXT[out.undecided]
        return out
    try:
        value = ctx.residuals().value(decomposition)
    except ResidualError as err:
        if not _symmetric(ctx, out, v):
            out.undecided, out.detail = UndecidedReason.NOT_CERTIFIED, str(err)
        return out
    out.value, out.bound, out.level = value.value, value.bound, 1
    if value.sign in (1, -1):
        out.verdict = _by_sign(value.sign)
        out.evidence = Evidence.EXACT if value.exact else Evidence.CERTIFIED
        out.detail = (f"Σ_k ⟨w̃_k, v⟩ = {value.value:.6g}" + ("" if value.exact else f" ± {value.bound:.2g}")
                      + f" over {levels.depth} level(s)")
        return out
    if _symmetric(ctx, out, v):
        return out
    if value.sign == 0:
        out.undecided, out.detail = UndecidedReason.ZERO_LIMIT, REASON_TEXT[UndecidedReason.ZERO_LIMIT]
    else:
        out.undecided = UndecidedReason.NOT_CERTIFIED
        out.detail = f"Σ_k ⟨w̃_k, v⟩ ∈ {value.value:.3g} ± {value.bound:.2g}"
    return out


# --------------------------------------------------------------------------- rows and α♯_L
@dataclass
class LimitRow:
    """α♯'s verdict on one row of R_L that T_L θ* does not realize."""

    row: int
    target: int
    cls: str                            # failing-row class of posreal.theory.ties
    verdict: LimitVerdict
    reason: UndecidedReason | None = None
    detail: str = ""
    rivals: list[RivalLimit] = field(default_factory=list)
    evidence: Evidence = Evidence.EXACT

    def to_json(self) -> dict:
        out = {"row": self.row, "target": self.target, "class": self.cls, "verdict": self.verdict.value,
               "evidence": self.evidence.value, "reason": None if self.reason is None else self.reason.value,
               "detail": self.detail}
        if self.rivals:
            out["rivals"] = [r.to_json() for r in self.rivals]
        return out


def combine(row: LimitRow) -> LimitRow:
    """The row's verdict from its rivals': lost if one is lost (strongest evidence), won if all are won
    (weakest evidence), else undecided (the first undecided rival's reason)."""
    lost = [r for r in row.rivals if r.verdict is LimitVerdict.LOST]
    if lost:
        best = max(lost, key=lambda r: _STRENGTH[r.evidence])
        return replace(row, verdict=LimitVerdict.LOST, evidence=best.evidence, reason=None,
                       detail=f"rival {best.rival}: {best.detail}")
    if row.rivals and all(r.verdict is LimitVerdict.WON for r in row.rivals):
        worst = min(row.rivals, key=lambda r: _STRENGTH[r.evidence])
        return replace(row, verdict=LimitVerdict.WON, evidence=worst.evidence, reason=None,
                       detail="; ".join(f"rival {r.rival}: {r.detail}" for r in row.rivals))
    open_ = [r for r in row.rivals if r.verdict is LimitVerdict.UNDECIDED]
    reason = open_[0].undecided if open_ else None
    return replace(row, verdict=LimitVerdict.UNDECIDED, evidence=Evidence.UNDECIDED, reason=reason,
                   detail="; ".join(f"rival {r.rival}: {r.detail}" for r in open_))


def open_tie_limit(ctx: PredictionContext, row: FailingRow) -> LimitRow:
    """An open tie: lost if some tied rival's limit is negative (or ≡ 0), won if every one is positive."""
    rivals = [decide_direction(ctx, r.rival, r.direction) for r in row.rivals]
    return combine(LimitRow(row.row, row.target, row.cls, LimitVerdict.UNDECIDED, rivals=rivals))


def with_trajectory(row: LimitRow, verdicts: Sequence[tuple[LimitVerdict, dict | None]]) -> LimitRow:
    """The row with trajectory evidence (one (verdict, summary) per rival, in rival order) for the rivals
    the closed forms left undecided."""
    rivals = []
    for rival, (verdict, summary) in zip(row.rivals, verdicts):
        rival = replace(rival, trajectory=summary)
        if rival.verdict is LimitVerdict.UNDECIDED and verdict is not LimitVerdict.UNDECIDED:
            rival = replace(rival, verdict=verdict, evidence=Evidence.TRAJECTORY,
                            detail=f"{rival.undecided.value if rival.undecided else 'undecided'}; trajectory "
                                   f"evidence: {verdict.value}")
        rivals.append(rival)
    return combine(replace(row, rivals=rivals))


def limit_rows(cls: Classification, ctx: PredictionContext) -> list[LimitRow]:
    """α♯'s verdict on every failing row of a classification."""
    decided_by = Evidence.EXACT if cls.exact else Evidence.FLOAT
    out = []
    for row in cls.failing:
        if row.cls in ("strict_misrank", "structural_tie", "orthogonal_tie"):
            out.append(LimitRow(row.row, row.target, row.cls, LimitVerdict.LOST, evidence=decided_by))
        elif row.cls == "open_tie":
            out.append(open_tie_limit(ctx, row))
        else:   # float near-tie of an irrational PE (or a rational one without exact θ*)
            out.append(LimitRow(row.row, row.target, row.cls, LimitVerdict.UNDECIDED, UndecidedReason.NOT_EXACT,
                                f"|margin| = {abs(float(row.margin)):.3g} within the float tolerance",
                                evidence=Evidence.UNDECIDED))
    return out


_MARGIN_CLASSES = ("strict_misrank", "structural_tie")   # lost on α_L's own evidence; counted in by_evidence


@dataclass
class LimitInterval:
    """α♯_L = [wins, wins + undecided] / |R_L| at one length."""

    length: int
    total: int
    realized: int                       # rows with θ* margin > 0 (won, as in α_L)
    rows: list[LimitRow]                # every other row of R_L
    exact: bool = True                  # the θ* margins were decided in ℚ

    @property
    def wins(self) -> int:
        return self.realized + sum(r.verdict is LimitVerdict.WON for r in self.rows)

    @property
    def undecided(self) -> int:
        return sum(r.verdict is LimitVerdict.UNDECIDED for r in self.rows)

    @property
    def low(self) -> Fraction:
        return Fraction(self.wins, self.total) if self.total else Fraction(1)

    @property
    def high(self) -> Fraction:
        return Fraction(self.wins + self.undecided, self.total) if self.total else Fraction(1)

    def by_evidence(self) -> dict[str, dict[str, int]]:
        """Rows won / lost / undecided per kind of evidence (the realized rows under α's arithmetic)."""
        out = {e.value: {v.value: 0 for v in LimitVerdict} for e in Evidence}
        out[(Evidence.EXACT if self.exact else Evidence.FLOAT).value][LimitVerdict.WON.value] += self.realized
        for r in self.rows:
            out[r.evidence.value][r.verdict.value] += 1
        return {k: v for k, v in out.items() if any(v.values())}

    def to_json(self) -> dict:
        """The interval, the rows per kind of evidence, and every tie row (open, orthogonal, float) with its kind."""
        return {"interval": [float(self.low), float(self.high)],
                "interval_exact": [f"{self.low.numerator}/{self.low.denominator}",
                                   f"{self.high.numerator}/{self.high.denominator}"],
                "wins": self.wins, "undecided": self.undecided, "total": self.total,
                "open_ties_won": sum(r.cls == "open_tie" and r.verdict is LimitVerdict.WON for r in self.rows),
                "by_evidence": self.by_evidence(),
                "evidence_kinds": {e.value: EVIDENCE_TEXT[e] for e in Evidence},
                "rows": [r.to_json() for r in self.rows if r.cls not in _MARGIN_CLASSES],
                "undecided_rows": [r.to_json() for r in self.rows if r.verdict is LimitVerdict.UNDECIDED]}


def limit_interval(pe: Encoding | str, task: Task | str, selection: Selection, length: int,
                   ctx: PredictionContext | None = None) -> LimitInterval:
    """α♯_L of one cell at one length (ℓ2 / gradient descent); ``selection`` is θ* of (pe, task) at L0."""
    pe, task = parse_pe(pe), parse_task(task)
    if (str(selection.pe), str(selection.task)) != (str(pe), str(task)):
        raise SpecError(f"invalid selection for α♯ of {pe}·{task}: it was computed for "
                        f"{selection.pe}·{selection.task}; accepted: the selection of the same cell")
    if not selection.realizable:
        raise SpecError(f"invalid cell {str(pe)!r} · {str(task)!r} for α♯: not realizable at "
                        f"L0 = {selection.train_length}; accepted: a realizable cell")
    cls = classify(pe, task, selection, length)
    ctx = ctx if ctx is not None else prediction_context(pe, task, selection)
    return LimitInterval(length, cls.total, cls.realized, limit_rows(cls, ctx), cls.exact)
