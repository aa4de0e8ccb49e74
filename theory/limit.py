"""α♯_L, the predicted limit of gradient descent on every row of R_L (ℓ2 geometry only).

Main definitions and results (definitions.md#alpha-sharp and #conjecture-prime;
statement id ``conjecture-limit``):

* :func:`predict` — the second-order prediction of a tie margin's limit.  Gradient descent on the
  positional cross-entropy at L0 (separable data) follows θ_k = θ* log k + w̃ + o(1) (Soudry et
  al. 2018, JMLR, Thm. 3 and its residual equation), with η n_s exp(-⟨w̃, z_s⟩) = λ_s on the
  support (n_s = number of training pairs with difference z_s, λ = the SVM's dual variables).
  If v = Σ_s c_s z_s + w with w ⊥ col Zᵀ and ⟨θ*, v⟩ = 0, then Σ_s c_s = ⟨θ*, v⟩ = 0, and since
  every iterate from 0 lies in col Zᵀ, ⟨θ_k, v⟩ → ⟨w̃, v⟩ = Σ_s c_s log(n_s / λ_s): the step size
  cancels.  Its sign is decided in ℚ by comparing Π_s (n_s/λ_s)^{a_s} with 1 (a = c times the
  lcm of the denominators).  Hypotheses (checked in ℚ): independent support vectors, λ_s > 0 on
  the support, ⟨θ*, z⟩ > 1 off it, and v - Σ c_s z_s ⊥ col Zᵀ;
* :func:`limit_interval` — α♯_L as an interval [wins, wins + undecided] / |R_L|: rows with a
  non-zero θ* margin as in α_L; structural and orthogonal ties lost; open ties won (every tied
  rival has ⟨w̃, v⟩ > 0) or lost (some tied rival has ⟨w̃, v⟩ < 0) where the prediction holds;
  every other row undecided, with its :class:`UndecidedReason`.

The prediction is a statement about the trajectory, not a theorem of this project: the residual
equation is proved for the exponential and logistic losses, and its transfer to the softmax
cross-entropy is what Conjecture′ asserts.  Other geometries (steepest descent in ℓ∞, ℓ1) have
no derived second-order term: this module is ℓ2 only.
"""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass, field
from enum import Enum
from fractions import Fraction
from collections.abc import Sequence

from posreal.theory.encodings import Encoding
from posreal.theory.pe_specs import parse_pe
from posreal.theory.errors import SpecError
from posreal.theory.rational import dot, rank, solve
from posreal.theory.selection import Selection, exact_difference_vectors, training_pairs
from posreal.theory.tasks import Task, parse_task
from posreal.theory.ties import Classification, FailingRow, classify


class LimitVerdict(Enum):
    """What α♯ says of one row of R_L."""

    WON = "won"
    LOST = "lost"
    UNDECIDED = "undecided"


class UndecidedReason(Enum):
    """Why α♯ leaves a row undecided."""

    HYPOTHESES = "hypotheses of the prediction fail"
    ZERO_LIMIT = "⟨w̃, v⟩ = 0"
    NOT_EXACT = "not decided in ℚ (irrational features or no exact θ*)"


@dataclass(frozen=True)
class Prediction:
    """The predicted lim ⟨θ_k, v⟩ = Σ_s c_s log(n_s/λ_s) for one tie direction v."""

    coefficients: tuple[Fraction, ...]   # c_s, one per support entry (selection order)
    multiplicities: tuple[int, ...]      # n_s
    support: tuple[int, ...]             # constraint indices of the support
    sign: int                            # -1 / 0 / +1, exact
    value: float                         # Σ c_s log(n_s/λ_s) in floats


@dataclass
class PredictionContext:
    """The selection-level part of the prediction, computed once per (PE, task, L0)."""

    constraints: list[tuple]             # (m, p) distinct training differences, ℚ
    support: list[int]                   # constraint indices with λ > 0
    multipliers: list[Fraction]          # λ_s on the support
    multiplicities: list[int]            # n_s on the support
    failure: str = ""                    # a selection-level hypothesis that fails ("" if none)

    def solve_direction(self, v: Sequence[Fraction]) -> list[Fraction] | None:
        """c with v - Σ c_s z_s ⊥ col Zᵀ (unique: the support is independent), or None."""
        zs = [self.constraints[k] for k in self.support]
        gram = [[dot(z, s) for s in zs] for z in self.constraints]     # (m, |S|)
        rhs = [dot(z, v) for z in self.constraints]                     # (m,)
        return solve(gram, rhs)


def prediction_context(pe: Encoding, task: Task, selection: Selection) -> PredictionContext:
    """Support, λ and n_s in ℚ, with the selection-level hypotheses checked."""
    opt = selection.exact_optimum
    if opt is None:
        return PredictionContext([], [], [], [], "no exact θ* (KKT certificate in ℚ)")
    zq, theta, multipliers = opt.constraints, opt.theta, opt.multipliers
    support = sorted(k for k, lam in multipliers.items() if lam > 0)
    lams = [multipliers[k] for k in support]
    pairs = training_pairs(task, selection.train_length)
    counts = Counter(exact_difference_vectors(pe, pairs, selection.train_length))
    ctx = PredictionContext(zq, support, lams, [counts[zq[k]] for k in support])
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
    """The prediction for direction v, or the reason (a failed hypothesis) why there is none."""
    if ctx.failure:
        return ctx.failure
    c = ctx.solve_direction(v)
    if c is None:
        return "v's projection on col Zᵀ is not in the span of the support"
    sign = exact_sign(c, ctx.multiplicities, ctx.multipliers)
    value = sum(float(x) * math.log(n / float(lam)) for x, n, lam in zip(c, ctx.multiplicities, ctx.multipliers))
    return Prediction(tuple(c), tuple(ctx.multiplicities), tuple(ctx.support), sign, value)


def predict(pe: Encoding, task: Task, selection: Selection, v: Sequence[Fraction]) -> Prediction | None:
    """The prediction of lim ⟨θ_k, v⟩, or None when its hypotheses fail."""
    out = predict_in(prediction_context(pe, task, selection), v)
    return out if isinstance(out, Prediction) else None


# --------------------------------------------------------------------------- α♯_L
@dataclass
class RivalLimit:
    """One tied rival of an open tie: its direction's prediction (or why there is none)."""

    rival: int
    prediction: Prediction | None
    reason: str = ""


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

    def to_json(self) -> dict:
        return {"row": self.row, "target": self.target, "class": self.cls, "verdict": self.verdict.value,
                "reason": None if self.reason is None else self.reason.value, "detail": self.detail}


@dataclass
class LimitInterval:
    """α♯_L = [wins, wins + undecided] / |R_L| at one length."""

    length: int
    total: int
    realized: int                       # rows with θ* margin > 0 (won, as in α_L)
    rows: list[LimitRow]                # every other row of R_L

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

    def to_json(self) -> dict:
        return {"interval": [float(self.low), float(self.high)],
                "interval_exact": [f"{self.low.numerator}/{self.low.denominator}",
                                   f"{self.high.numerator}/{self.high.denominator}"],
                "wins": self.wins, "undecided": self.undecided, "total": self.total,
                "open_ties_won": sum(r.cls == "open_tie" and r.verdict is LimitVerdict.WON for r in self.rows),
                "undecided_rows": [r.to_json() for r in self.rows if r.verdict is LimitVerdict.UNDECIDED]}


def open_tie_limit(ctx: PredictionContext, row: FailingRow) -> LimitRow:
    """An open tie: lost if some tied rival's limit is negative, won if every one is positive."""
    rivals = []
    for rival in row.rivals:
        out = predict_in(ctx, rival.direction)
        rivals.append(RivalLimit(rival.rival, out, "") if isinstance(out, Prediction)
                      else RivalLimit(rival.rival, None, out))
    base = LimitRow(row.row, row.target, row.cls, LimitVerdict.UNDECIDED, rivals=rivals)
    signs = [r.prediction.sign for r in rivals if r.prediction is not None]
    if any(s < 0 for s in signs):
        base.verdict = LimitVerdict.LOST
    elif len(signs) == len(rivals) and all(s > 0 for s in signs):
        base.verdict = LimitVerdict.WON
    elif any(r.prediction is None for r in rivals):
        base.reason = UndecidedReason.HYPOTHESES
        base.detail = "; ".join(f"rival {r.rival}: {r.reason}" for r in rivals if r.prediction is None)
    else:
        base.reason = UndecidedReason.ZERO_LIMIT
        base.detail = "rivals " + ", ".join(str(r.rival) for r in rivals if r.prediction and r.prediction.sign == 0)
    return base


def limit_rows(cls: Classification, ctx: PredictionContext) -> list[LimitRow]:
    """α♯'s verdict on every failing row of a classification."""
    out = []
    for row in cls.failing:
        if row.cls in ("strict_misrank", "structural_tie", "orthogonal_tie"):
            out.append(LimitRow(row.row, row.target, row.cls, LimitVerdict.LOST))
        elif row.cls == "open_tie":
            out.append(open_tie_limit(ctx, row))
        else:   # float near-tie of an irrational PE (or a rational one without exact θ*)
            out.append(LimitRow(row.row, row.target, row.cls, LimitVerdict.UNDECIDED, UndecidedReason.NOT_EXACT,
                                f"|margin| = {abs(float(row.margin)):.3g} within the float tolerance"))
    return out


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
    return LimitInterval(length, cls.total, cls.realized, limit_rows(cls, ctx))
