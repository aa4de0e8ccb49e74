"""Gradient flow in log-time: float evidence for the limit of a tie margin ⟨θ, v⟩.

Main definitions (definitions.md#alpha-sharp, "The evidence it is compared with"):

* the gradient flow dθ/dt = -∇ℓ(θ) from θ(0) = 0 of the positional cross-entropy at L0 (the
  continuous limit of gradient descent with a small step; gradient descent with step η follows
  it at t = ηk);
* log-time τ = log t: dθ/dτ = -e^τ ∇ℓ(θ).  On separable data θ(τ) = θ* τ + w̃ + o(1), and the
  right-hand side stays O(1) (the support's losses decay like e^{-τ}), so a stiff solver
  (LSODA, scipy) reaches τ in the hundreds — t = e^τ far beyond any step count — in a fraction
  of a second.  The right-hand side is evaluated in the log domain:
  e^τ A_ij = exp(τ + κ_ij - logsumexp_j κ_ij), with z_ij = ψ(i, t) - ψ(i, j), so no weight
  underflows or cancels;
* :func:`tie_flow` — ⟨θ(τ), v⟩ for given directions v up to τ_max, stopping early once every
  drift is small; :class:`FlowEvidence` stores τ reached, the last value, its drift over the last
  stretch (Δτ = :data:`STRETCH`) and a verdict only when |drift| ≤ :data:`DRIFT_TOL` and
  |value| > :data:`DRIFT_TOL` (otherwise ``undecided``);
* :func:`compare` — α♯'s verdict on a row against the flow's: agrees / disagrees / undecided.

Float evidence, never a proof: a slowly converging margin (a non-support constraint with
⟨θ*, z⟩ = 1 + δ, δ small, contributes e^{-δτ}) can still drift after the stop.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from collections.abc import Sequence

import numpy as np

from posreal.theory.encodings import Encoding
from posreal.theory.limit import LimitVerdict
from posreal.theory.tasks import Task
from posreal.theory.training import TrainingGrid, training_grid

from posreal.theory.defaults import TAU_MAX  # noqa: E402  (e^600 ≈ 10^260: within float range)
STRETCH = 50.0         # the drift is measured over the last Δτ = 50
DRIFT_TOL = 1e-3       # a verdict needs |drift| ≤ this and |value| > this
CHUNK = 25.0           # the integration stops at the first chunk end where every drift ≤ DRIFT_TOL / 10
RTOL, ATOL = 1e-10, 1e-10


class FlowVerdict(Enum):
    WINS = "wins"
    LOSES = "loses"
    UNDECIDED = "undecided"


@dataclass(frozen=True)
class FlowEvidence:
    """The log-time gradient flow's tie margin for one direction v."""

    tau: float              # log-time reached
    value: float            # ⟨θ(τ), v⟩ at that τ
    drift: float            # value(τ) - value(τ - STRETCH)
    verdict: FlowVerdict

    def to_json(self) -> dict:
        return {"tau": round(self.tau, 6), "value": self.value, "drift": self.drift,
                "verdict": self.verdict.value, "stretch": STRETCH, "tolerance": DRIFT_TOL}


def flow_verdict(value: float, drift: float, tol: float = DRIFT_TOL) -> FlowVerdict:
    """``wins``/``loses`` by the sign of the value, only when |drift| ≤ tol and |value| > tol."""
    if abs(drift) > tol or abs(value) <= tol or not np.isfinite(value):
        return FlowVerdict.UNDECIDED
    return FlowVerdict.WINS if value > 0 else FlowVerdict.LOSES


class _LogTimeField:
    """dθ/dτ = Σ_ij e^{τ} A_ij z_ij and its Jacobian, on the dense training grid."""

    def __init__(self, grid: TrainingGrid):
        idx = np.arange(grid.rows.size)
        self.features = grid.features                                   # (m, L, p)
        self.mask = grid.mask                                           # (m, L)
        self.d = grid.features - grid.features[idx, grid.target][:, None, :]   # (m, L, p) ψ_ij - ψ_it = -z_ij

    def weights(self, tau: float, theta: np.ndarray) -> np.ndarray:
        logits = np.where(self.mask, self.features @ theta, -np.inf)    # (m, L)
        top = logits.max(axis=1, keepdims=True)                         # (m, 1)
        lse = top + np.log(np.exp(logits - top).sum(axis=1, keepdims=True))
        return np.exp(np.minimum(tau + logits - lse, 700.0))            # (m, L) e^τ A_ij

    def rhs(self, tau: float, theta: np.ndarray) -> np.ndarray:
        w = self.weights(tau, theta)                                    # (m, L)
        return -np.einsum("ml,mlp->p", w, self.d)                       # (p,)

    def jac(self, tau: float, theta: np.ndarray) -> np.ndarray:
        """-e^τ Σ_i Cov_{A_i}(ψ_i), centred at the target: Σ W d dᵀ - e^{-τ} (Σ W d)(Σ W d)ᵀ."""
        w = self.weights(tau, theta)                                    # (m, L)
        second = np.einsum("ml,mlp,mlq->pq", w, self.d, self.d)         # (p, p)
        first = np.einsum("ml,mlp->mp", w, self.d)                      # (m, p)
        return -(second - np.exp(-tau) * first.T @ first)               # (p, p)


@dataclass
class FlowPath:
    """Recorded points of the log-time gradient flow."""

    taus: np.ndarray        # (K,) log-times, from 0
    thetas: np.ndarray      # (K, p) θ(τ)
    success: bool           # the solver reached the last τ without failing


def integrate(pe: Encoding, task: Task, train_length: int, directions: Sequence[Sequence[float]],
              tau_max: float = TAU_MAX) -> FlowPath:
    """The gradient flow from θ = 0 up to τ_max, stopped early at the first chunk end where every
    ⟨θ(τ), v⟩ (v in ``directions``) drifted by at most DRIFT_TOL / 10 over the last STRETCH."""
    from scipy.integrate import solve_ivp   # scipy only when evidence is asked for

    grid = training_grid(pe, task, train_length, train_length)
    field = _LogTimeField(grid)
    p = grid.features.shape[2]
    V = np.asarray(directions, dtype=float).reshape(len(directions), p)             # (n_dirs, p)
    # t ∈ [0, 1] in ordinary time (e^0 ∇ℓ = ∇ℓ), then log-time from τ = 0
    start = solve_ivp(lambda t, th: field.rhs(0.0, th), (0.0, 1.0), np.zeros(p), method="LSODA",
                      jac=lambda t, th: field.jac(0.0, th), rtol=RTOL, atol=ATOL)
    theta = start.y[:, -1]                                                           # (p,)
    taus, thetas = [0.0], [theta]
    tau, success = 0.0, bool(start.success)
    while success and tau < tau_max:
        end = min(tau + CHUNK, tau_max)
        sol = solve_ivp(field.rhs, (tau, end), theta, method="LSODA", jac=field.jac, rtol=RTOL, atol=ATOL,
                        t_eval=np.linspace(tau, end, 6)[1:])
        success = bool(sol.success)
        if not success:
            break
        theta = sol.y[:, -1]
        taus += sol.t.tolist()
        thetas += [sol.y[:, k] for k in range(sol.t.size)]
        tau = end
        if tau >= STRETCH and V.shape[0]:
            values = np.asarray(thetas) @ V.T                                        # (K, n_dirs)
            if np.all(np.abs(_drifts(np.asarray(taus), values, tau)) <= DRIFT_TOL / 10):
                break
    return FlowPath(np.asarray(taus), np.asarray(thetas).reshape(len(taus), p), success)


def tie_flow(pe: Encoding, task: Task, train_length: int, directions: Sequence[Sequence[float]],
             tau_max: float = TAU_MAX) -> list[FlowEvidence]:
    """⟨θ(τ), v⟩ along the log-time gradient flow from θ = 0, for each direction v."""
    path = integrate(pe, task, train_length, directions, tau_max)
    V = np.asarray(directions, dtype=float).reshape(len(directions), path.thetas.shape[1])   # (n_dirs, p)
    values = path.thetas @ V.T                                                               # (K, n_dirs)
    drift = _drifts(path.taus, values, path.taus[-1])
    out = []
    for n in range(V.shape[0]):
        verdict = flow_verdict(float(values[-1, n]), float(drift[n])) if path.success else FlowVerdict.UNDECIDED
        out.append(FlowEvidence(float(path.taus[-1]), float(values[-1, n]), float(drift[n]), verdict))
    return out


def _drifts(taus: np.ndarray, values: np.ndarray, tau: float) -> np.ndarray:
    """value(τ) - value(τ - STRETCH) (the earliest recorded value if τ < STRETCH): (n_dirs,)."""
    values = np.asarray(values).reshape(len(taus), -1)
    earlier = int(np.searchsorted(taus, tau - STRETCH - 1e-9))
    return values[-1] - values[min(earlier, len(taus) - 1)]


def row_flow_verdict(verdicts: Sequence[FlowVerdict]) -> FlowVerdict:
    """A row is won iff every tied rival's margin settles positive, lost iff one settles negative."""
    if any(v is FlowVerdict.LOSES for v in verdicts):
        return FlowVerdict.LOSES
    if verdicts and all(v is FlowVerdict.WINS for v in verdicts):
        return FlowVerdict.WINS
    return FlowVerdict.UNDECIDED


class Agreement(Enum):
    """α♯'s verdict on a row against the flow's evidence."""

    AGREES = "agrees"
    DISAGREES = "disagrees"
    UNDECIDED = "undecided"      # α♯ or the evidence leaves the row undecided


def compare(limit: LimitVerdict, evidence: FlowVerdict) -> Agreement:
    """A disagreement (both decided, opposite) is a counterexample to Conjecture′ on that row."""
    if limit is LimitVerdict.UNDECIDED or evidence is FlowVerdict.UNDECIDED:
        return Agreement.UNDECIDED
    won = limit is LimitVerdict.WON
    return Agreement.AGREES if won == (evidence is FlowVerdict.WINS) else Agreement.DISAGREES
