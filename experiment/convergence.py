"""Convergence diagnostics of a trained head: direction drift and margin growth, with one bound for every recipe.

Main definitions (the docs' Experiment page, "Convergence"):

* the *direction drift* of a run is 1 - cos(θ_mid, θ_end), θ_end the parameters at the end of the run and θ_mid
  those halfway through it on the recipe's clock — step T/2 of T for the token recipes and for sign descent
  (a window of log 2 in log t), log-time τ/2 of τ = log t for the gradient flow (a window of half its log-time);
* :data:`DRIFT_BOUND` — the measurement of a run whose drift is above it is flagged *not converged*; fixed
  before any run, the same for every recipe and cell;
* the *training margin* min_{i ∈ R_L0} γ_i(κ_θ) at θ_mid and θ_end (rows with one key have no margin): the
  margin growth says whether the run is still separating the training rows;
* :class:`Convergence` — the diagnostics of one run; :class:`Status` — converged, not converged, or not
  recorded (records written before the diagnostics existed).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

import numpy as np

from posreal.theory.encodings import Encoding
from posreal.theory.tasks import Task
from posreal.theory.training import training_grid

DRIFT_BOUND = 1e-3
"""1 - cos(θ_mid, θ_end) above this flags a run "not converged" (an angle of about 2.6°)."""


class Status(Enum):
    """Whether a run converged, did not, or was not recorded."""

    CONVERGED = "converged"
    NOT_CONVERGED = "not converged"
    NOT_RECORDED = "not recorded"


@dataclass(frozen=True)
class Convergence:
    """Direction drift and margin growth of one run."""

    clock: str                 # "steps" or "log-time"
    mid: float                 # the clock at θ_mid
    end: float                 # the clock at θ_end
    drift: float | None        # 1 - cos(θ_mid, θ_end); None when one of them is 0
    margin_mid: float | None   # min training margin at θ_mid (None: no row with two keys)
    margin_end: float | None

    @property
    def status(self) -> Status:
        """Converged when the drift is known and within the bound."""
        if self.drift is None or self.drift > DRIFT_BOUND:
            return Status.NOT_CONVERGED
        return Status.CONVERGED

    def to_json(self) -> dict:
        """The diagnostics as a JSON object."""
        return {"clock": self.clock, "mid": self.mid, "end": self.end, "drift": self.drift,
                "drift_bound": DRIFT_BOUND, "margin_mid": self.margin_mid, "margin_end": self.margin_end,
                "status": self.status.value}


def status_of(record: dict) -> Status:
    """The status of a record's run (records without diagnostics: not recorded)."""
    conv = record.get("convergence")
    if not isinstance(conv, dict):
        return Status.NOT_RECORDED
    return Status(conv["status"])


def direction_drift(theta_mid: np.ndarray, theta_end: np.ndarray) -> float | None:
    """1 - cos(θ_mid, θ_end); None when either is 0: (p,), (p,) -> float."""
    a, b = np.asarray(theta_mid, dtype=float), np.asarray(theta_end, dtype=float)
    na, nb = float(np.linalg.norm(a)), float(np.linalg.norm(b))
    if na == 0.0 or nb == 0.0:
        return None
    return float(max(0.0, 1.0 - float(a @ b) / (na * nb)))


def training_margin(pe: Encoding, task: Task, train_length: int, theta: np.ndarray) -> float | None:
    """min over the rows of R_L0 with two keys or more of κ_θ(i, t) - max_{j ≠ t} κ_θ(i, j)."""
    grid = training_grid(pe, task, train_length, train_length)
    kappa = grid.logits(np.asarray(theta, dtype=float))                 # (m, L0), -inf off the mask
    idx = np.arange(grid.rows.size)
    at_target = kappa[idx, grid.target].copy()                          # (m,)
    kappa[idx, grid.target] = -np.inf
    rival = kappa.max(axis=1)                                           # (m,)
    keep = np.isfinite(rival)
    if not keep.any():
        return None
    return float(np.min(at_target[keep] - rival[keep]))


def diagnose(pe: Encoding, task: Task, train_length: int, theta_mid: np.ndarray, theta_end: np.ndarray,
             clock: str, mid: float, end: float) -> Convergence:
    """The diagnostics of a run from its parameters halfway and at the end."""
    return Convergence(clock, float(mid), float(end), direction_drift(theta_mid, theta_end),
                       training_margin(pe, task, train_length, theta_mid),
                       training_margin(pe, task, train_length, theta_end))
