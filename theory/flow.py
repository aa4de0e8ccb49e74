"""The evidence α♯ is compared with: tie margins along the gradient flow (and gradient descent), per row.

Main definitions (definitions.md#alpha-sharp, "The evidence it is compared with"):

* :func:`tie_flow` — the trajectory evidence (:mod:`posreal.theory.trajectory`) on ⟨θ, v⟩ for given
  tie directions v: the gradient flow from θ = 0 (``steps`` = 0), or gradient descent at the project's
  fixed step for ``steps`` steps continued by the flow; integrated in h = θ - θ* τ and σ = log τ up to
  the log-time ``tau_max`` (default :data:`TAU_MAX` = e^24, where a log log t term has moved by O(1));
* :func:`row_verdict` — a row is won iff every tied rival's margin is won, lost iff one is lost;
* :func:`compare` — α♯'s verdict on a row against the evidence's: agrees / disagrees / undecided.
  Verdicts on both sides are :class:`posreal.theory.limit.LimitVerdict` (one type for one question).

Float evidence, never a proof.
"""

from __future__ import annotations

import math
from enum import Enum
from collections.abc import Sequence

from posreal.theory.defaults import TAU_MAX
from posreal.theory.encodings import Encoding
from posreal.theory.limit import LimitVerdict
from posreal.theory.tasks import Task
from posreal.theory.trajectory import DRIFT_TOL, TrajectoryEvidence, pair_data, tie_trajectory

__all__ = ["TAU_MAX", "DRIFT_TOL", "Agreement", "compare", "row_verdict", "tie_flow"]


def tie_flow(pe: Encoding, task: Task, train_length: int, directions: Sequence[Sequence[float]],
             tau_max: float = TAU_MAX, steps: int = 0, theta: Sequence | None = None,
             pair_weights: dict | None = None) -> list[TrajectoryEvidence]:
    """⟨θ, v⟩ along the gradient flow from θ = 0 (or descent then flow) for each direction v.  ``theta`` is
    θ* (Fractions when exact; default: the cell's selection)."""
    if theta is None:
        from posreal.theory.selection import select
        sel = select(pe, task, train_length)
        theta = list(sel.exact_theta) if sel.exact_theta is not None else [float(x) for x in sel.theta]
    data = pair_data(pe, task, train_length, list(theta), pair_weights)
    return tie_trajectory(data, directions, steps, math.log(tau_max) if tau_max > 0 else -math.inf)


def row_verdict(verdicts: Sequence[LimitVerdict]) -> LimitVerdict:
    """A row is won iff every tied rival's margin is won, lost iff one is lost."""
    if any(v is LimitVerdict.LOST for v in verdicts):
        return LimitVerdict.LOST
    if verdicts and all(v is LimitVerdict.WON for v in verdicts):
        return LimitVerdict.WON
    return LimitVerdict.UNDECIDED


class Agreement(Enum):
    """α♯'s verdict on a row against the evidence's."""

    AGREES = "agrees"
    DISAGREES = "disagrees"
    UNDECIDED = "undecided"      # α♯ or the evidence leaves the row undecided


def compare(limit: LimitVerdict, evidence: LimitVerdict) -> Agreement:
    """A disagreement (both decided, opposite) is a counterexample to Conjecture′ on that row."""
    if limit is LimitVerdict.UNDECIDED or evidence is LimitVerdict.UNDECIDED:
        return Agreement.UNDECIDED
    return Agreement.AGREES if limit is evidence else Agreement.DISAGREES
