"""Trajectory evidence for tie margins: the gradient flow and gradient descent, followed to log log t.

Main definitions (definitions.md#trajectory-evidence; statement id ``conjecture-limit``):

* the positional cross-entropy at L0 as a sum over training pairs (i, j), z_ij = ψ(i, t) - ψ(i, j):
  ℓ(θ) = Σ_i log(1 + Σ_j c_ij e^{-⟨θ, z_ij⟩}); the weights c_ij are 1 (the project's loss) except in
  the rescaling control, which multiplies the pairs with ⟨θ*, z⟩ > 1 (θ*, the active set and the
  residual levels do not change);
* **shifted coordinates.**  With τ = log t and h = θ - θ* τ the flow reads
  dh/dτ = Σ_ij W_ij z_ij - θ*, W_ij = c_ij exp(-τ g_ij - ⟨h, z_ij⟩) / D_i, g_ij = ⟨θ*, z_ij⟩ - 1 taken
  from ℚ (exactly 0 on the active set), D_i = 1 + Σ_j c_ij e^{-⟨θ, z_ij⟩}: the active exponents never
  form τ - τ, so nothing cancels in them at any τ;
* **log log-time.**  Beyond τ = 1 the flow is integrated in σ = log τ: dh/dσ = τ (Σ W z - θ*), a stiff
  system (LSODA with its exact Jacobian) that reaches σ = :data:`SIGMA_MAX` (τ ≈ 2.6·10¹⁰) where a
  log log t term moves by O(1).  The sum Σ W z - θ* is O(1/τ) there; its float rounding (relative
  1e-16) times τ stays below 1e-5 per unit of σ;
* **gradient descent** at the project's fixed step η = 1/β (β = Σ_i max_j ‖ψ(i, j)‖², an upper bound
  on the smoothness) is run exactly for :data:`DESCENT_STEPS` steps, then continued by the flow from
  θ_K at t = ηK.  Because ℓ is convex the flow is non-expansive, so the distance between descent and
  the continued flow stays below Σ_{k≥K} e_k with the one-step error e_k ≤ (η²/2) R² ℓ(θ_k) ‖∇ℓ(θ_k)‖
  (R = max ‖z‖; ‖∇²ℓ‖ ≤ R² ℓ); ``gap`` evaluates that sum along the flow (an estimate, not a proof);
* :class:`TrajectoryEvidence` — the margin ⟨θ, v⟩ at the horizon, its drift over the last Δσ =
  :data:`STRETCH`, and its slopes in log σ (= log log log t) over the last two octaves of σ.  A verdict
  only with the horizon reached and either a slope certified away from 0 — |slope| > :data:`SLOPE_TOL`,
  both octaves of one sign, their ratio within :data:`SLOPE_RATIO` (a log log t term) — or a settled
  value: |drift| ≤ :data:`DRIFT_TOL` and |value| > DRIFT_TOL + gap·‖v‖.  Float evidence, never a proof.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from collections.abc import Sequence

import numpy as np

from posreal.theory.encodings import Encoding
from posreal.theory.limit import LimitVerdict
from posreal.theory.selection import difference_vectors, training_pairs
from posreal.theory.tasks import Task

SIGMA_MAX = 24.0              # σ = log τ reached (τ ≈ 2.6e10)
STRETCH = 2.0                 # Δσ of the drift
WINDOW = 4.0                  # Δσ of each of the two slopes in σ
DRIFT_TOL = 1e-3
SLOPE_TOL = 5e-2              # |d margin / d log σ| that counts as log log t growth
SLOPE_RATIO = (0.8, 1.25)     # slope of the last octave of σ over the one before
DESCENT_STEPS = 20000
RTOL, ATOL = 1e-10, 1e-11
SIGMA_ATOL = 1e-9              # the σ phase: its right-hand side carries rounding noise of about 1e-16·τ
SAMPLES = 97                  # recorded points of the σ phase


@dataclass(frozen=True)
class PairData:
    """The training pairs of one cell, grouped by row: what the loss and its flow need."""

    z: np.ndarray             # (N, p) z_ij
    starts: np.ndarray        # (m,) first pair of each training row
    gap: np.ndarray           # (N,) ⟨θ*, z⟩ - 1 (0 exactly on the active set when θ* is exact)
    log_weight: np.ndarray    # (N,) log c_ij
    theta: np.ndarray         # (p,) θ*
    step: float               # η = 1/β, the project's fixed step

    @property
    def radius(self) -> float:
        return float(np.sqrt((self.z ** 2).sum(axis=1)).max(initial=0.0))


def pair_data(pe: Encoding, task: Task, train_length: int, theta: Sequence, pair_weights: dict | None = None
              ) -> PairData:
    """The pairs of (pe, task, L0); θ* in ℚ (a list of Fractions) or floats; ``pair_weights`` maps a
    difference (tuple of Fractions) to its c (default 1)."""
    pairs = training_pairs(task, train_length)                                  # (N, 3)
    z = difference_vectors(pe, pairs, train_length)                             # (N, p)
    rows = pairs[:, 0]
    starts = np.flatnonzero(np.r_[True, rows[1:] != rows[:-1]]) if rows.size else np.zeros(0, dtype=int)
    theta_f = np.array([float(x) for x in theta])
    if theta and isinstance(theta[0], Fraction):
        from posreal.theory.selection import exact_difference_vectors
        zq = exact_difference_vectors(pe, pairs, train_length)
        gap = np.array([float(sum((a * b for a, b in zip(zz, theta)), Fraction(0)) - 1) for zz in zq])
        keys = zq
    else:
        gap = z @ theta_f - 1.0
        gap[np.abs(gap) <= 1e-9] = 0.0
        keys = [tuple(r) for r in z.tolist()]
    logc = np.array([math.log(pair_weights.get(k, 1.0)) if pair_weights else 0.0 for k in keys])
    beta = 0.0
    rows_all = task.rows(train_length)
    for i in rows_all.tolist():
        js = np.arange(i + 1)
        f = pe.pair_features(np.full(i + 1, i), js, train_length)                # (i+1, p)
        beta += float((f ** 2).sum(axis=1).max(initial=0.0))
    return PairData(z, starts, gap, logc, theta_f, 1.0 / max(beta, 1e-300))


class ShiftedField:
    """dh/dτ = Σ W z - θ* in h = θ - θ* τ, and its Jacobian; θ-coordinates at τ = 0 coincide."""

    def __init__(self, data: PairData):
        self.d = data
        self.row_of = np.repeat(np.arange(data.starts.size), np.diff(np.r_[data.starts, data.z.shape[0]]))

    def log_weights(self, tau: float, h: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(log W (N,), log p (N,)), p_ij = e^{-τ} W_ij the attention on the rival."""
        d = self.d
        a = d.log_weight - tau * (1.0 + d.gap) - d.z @ h                        # (N,) log(c e^{-x})
        top = np.maximum(np.maximum.reduceat(a, d.starts), 0.0)                  # (m,)
        s = np.exp(-top) + np.add.reduceat(np.exp(a - top[self.row_of]), d.starts)
        log_d = (top + np.log(s))[self.row_of]                                    # (N,) log D_i
        log_w = d.log_weight - tau * d.gap - d.z @ h - log_d
        return log_w, a - log_d

    def rhs(self, tau: float, h: np.ndarray) -> np.ndarray:
        log_w, _ = self.log_weights(tau, h)
        return np.exp(np.minimum(log_w, 700.0)) @ self.d.z - self.d.theta         # (p,)

    def jac(self, tau: float, h: np.ndarray) -> np.ndarray:
        log_w, log_p = self.log_weights(tau, h)
        w, pr = np.exp(np.minimum(log_w, 700.0)), np.exp(log_p)                  # (N,), (N,)
        z = self.d.z
        f = np.add.reduceat(w[:, None] * z, self.d.starts)                      # (m, p) Σ_j W z per row
        q = np.add.reduceat(pr[:, None] * z, self.d.starts)                     # (m, p) Σ_j p z per row
        return -(z.T * w) @ z + f.T @ q                                          # (p, p)

    def sigma_rhs(self, sigma: float, h: np.ndarray) -> np.ndarray:
        tau = math.exp(sigma)
        return tau * self.rhs(tau, h)

    def sigma_jac(self, sigma: float, h: np.ndarray) -> np.ndarray:
        tau = math.exp(sigma)
        return tau * self.jac(tau, h)

    def gap_rate(self, tau: float, h: np.ndarray) -> float:
        """R² e^{-τ} (e^τ ℓ)(e^τ ‖∇ℓ‖): the integrand in τ of the descent-to-flow gap (before the factor η/2)."""
        log_w, _ = self.log_weights(tau, h)
        w = np.exp(np.minimum(log_w, 700.0))
        loss_t = float(w.sum())                                                  # ≥ e^τ ℓ up to e^{-τ}
        grad_t = float(np.linalg.norm(w @ self.d.z))
        return self.d.radius ** 2 * math.exp(-tau) * loss_t * grad_t


@dataclass
class Path:
    """Recorded points of the margin's trajectory in σ = log τ."""

    sigmas: np.ndarray         # (K,)
    hs: np.ndarray             # (K, p) h = θ - θ* τ
    success: bool
    steps: int                 # gradient-descent steps before the flow (0: the flow from 0)
    gap: float                 # the descent-to-flow gap estimate (0 for the flow)


def descend(data: PairData, steps: int) -> np.ndarray:
    """θ_K of gradient descent from 0 at the step η = 1/β: (p,)."""
    field = ShiftedField(data)
    theta = np.zeros(data.z.shape[1])
    for _ in range(steps):
        _, log_p = field.log_weights(0.0, theta)          # τ = 0: h = θ, p = W
        theta = theta + data.step * (np.exp(log_p) @ data.z)
    return theta


def follow(data: PairData, steps: int = 0, sigma_max: float = SIGMA_MAX) -> Path:
    """The flow from 0 (``steps`` = 0), or gradient descent for ``steps`` steps continued by the flow, up to
    σ = ``sigma_max`` (τ = e^σ; a horizon τ ≤ 1 stays in the τ phase)."""
    from scipy.integrate import solve_ivp

    field = ShiftedField(data)
    p = data.z.shape[1]
    ok = True
    if steps:
        theta = descend(data, steps)
        t0 = data.step * steps
    else:
        theta, t0 = np.zeros(p), 0.0
    if t0 < 1.0:   # ordinary time up to t = 1 (θ-coordinates: the field at τ = 0 with h = θ)
        sol = solve_ivp(lambda t, th: field.rhs(0.0, th) + data.theta, (t0, 1.0), theta, method="LSODA",
                        jac=lambda t, th: field.jac(0.0, th), rtol=RTOL, atol=ATOL)
        ok, theta, t0 = bool(sol.success), sol.y[:, -1], 1.0
    tau0, tau_end = math.log(t0), math.exp(sigma_max)
    h = theta - data.theta * tau0
    sigmas: list[float] = []
    hs: list[np.ndarray] = []
    if ok and tau0 < min(1.0, tau_end):
        taus = np.linspace(tau0, min(1.0, tau_end), 9)
        sol = solve_ivp(field.rhs, (taus[0], taus[-1]), h, method="LSODA", jac=field.jac, rtol=RTOL, atol=ATOL,
                        t_eval=taus)
        ok = bool(sol.success) and sol.t.size == taus.size
        keep = sol.t > 0
        sigmas += np.log(sol.t[keep]).tolist()
        hs += [sol.y[:, k] for k in np.flatnonzero(keep)]
        h, tau0 = sol.y[:, -1], float(sol.t[-1])
    sigma0 = math.log(max(tau0, 1e-300))
    if ok and sigma_max > sigma0 and tau_end > 1.0:
        grid = np.linspace(max(sigma0, 0.0), sigma_max, SAMPLES)
        sol = solve_ivp(field.sigma_rhs, (grid[0], grid[-1]), h, method="LSODA", jac=field.sigma_jac,
                        rtol=RTOL, atol=SIGMA_ATOL, t_eval=grid)
        ok = bool(sol.success) and sol.t.size == grid.size
        start = 1 if sigmas and sigmas[-1] >= grid[0] else 0
        sigmas += sol.t[start:].tolist()
        hs += [sol.y[:, k] for k in range(start, sol.t.size)]
    if not sigmas:
        sigmas, hs = [sigma0], [h]
    path_s = np.asarray(sigmas)
    path_h = np.asarray(hs).reshape(len(hs), p)                                  # (K, p)
    gap = 0.0
    if steps and path_s.size > 1:
        taus = np.exp(path_s)
        rates = np.array([field.gap_rate(t, x) for t, x in zip(taus, path_h)])   # d/dτ of the gap sum
        gap = 0.5 * data.step * float(np.trapezoid(rates, taus))
    return Path(path_s, path_h, ok, steps, gap)


@dataclass(frozen=True)
class TrajectoryEvidence:
    """The trajectory's tie margin ⟨θ, v⟩ for one direction v, and the verdict it supports."""

    method: str               # "gradient flow" or "gradient descent"
    steps: int                # descent steps before the flow continues (0 for the flow)
    sigma: float              # σ = log log t reached
    value: float              # ⟨θ, v⟩ at the horizon
    drift: float              # value(σ) - value(σ - STRETCH)
    slope: float              # d value / dσ over the last WINDOW (or d value / d log σ, see basis)
    previous_slope: float     # the same over the window before
    gap: float                # descent-to-flow gap estimate times ‖v‖ (0 for the flow)
    verdict: LimitVerdict
    basis: str                # "slope in log log t", "slope in log log log t", "settled", or why undecided

    def to_json(self) -> dict:
        return {"method": self.method, "steps": self.steps, "sigma": round(self.sigma, 6),
                "tau": math.exp(self.sigma), "value": self.value, "drift": self.drift, "slope": self.slope,
                "previous_slope": self.previous_slope, "gap": self.gap, "verdict": self.verdict.value,
                "basis": self.basis, "stretch": STRETCH, "tolerance": DRIFT_TOL, "slope_tolerance": SLOPE_TOL}


def _at(sigmas: np.ndarray, values: np.ndarray, sigma: float) -> float:
    return float(np.interp(sigma, sigmas, values))


def judge(sigmas: np.ndarray, values: np.ndarray, gap: float, reached: bool
          ) -> tuple[LimitVerdict, str, float, float, float]:
    """(verdict, basis, drift, slope, previous slope) of one recorded margin.  The slope is taken in σ
    (a log log t term: θ_2) when it is stable there, else in log σ (a log log log t term: θ_3)."""
    end = float(sigmas[-1])
    value = float(values[-1])
    drift = value - _at(sigmas, values, end - STRETCH)
    if not reached or not np.all(np.isfinite(values)):
        return LimitVerdict.UNDECIDED, "horizon not reached", drift, 0.0, 0.0
    low, high = SLOPE_RATIO
    octave = math.log(2.0)
    for basis, (a, b, c), width in (("slope in log log t", (end - 2 * WINDOW, end - WINDOW, end), WINDOW),
                                    ("slope in log log log t", (end / 4, end / 2, end), octave)):
        va, vb, vc = (_at(sigmas, values, x) for x in (a, b, c))
        slope, previous = (vc - vb) / width, (vb - va) / width
        if abs(slope) > SLOPE_TOL and slope * previous > 0 and low <= slope / previous <= high:
            return (LimitVerdict.WON if slope > 0 else LimitVerdict.LOST), basis, drift, slope, previous
    slope = (value - _at(sigmas, values, end - WINDOW)) / WINDOW
    previous = (_at(sigmas, values, end - WINDOW) - _at(sigmas, values, end - 2 * WINDOW)) / WINDOW
    if abs(drift) <= DRIFT_TOL and abs(value) > DRIFT_TOL + gap:
        return (LimitVerdict.WON if value > 0 else LimitVerdict.LOST), "settled", drift, slope, previous
    return LimitVerdict.UNDECIDED, "neither a stable slope nor a settled value", drift, slope, previous


def tie_trajectory(data: PairData, directions: Sequence[Sequence[float]], steps: int = DESCENT_STEPS,
                   sigma_max: float = SIGMA_MAX) -> list[TrajectoryEvidence]:
    """The evidence on ⟨θ, v⟩ for each direction v (``steps`` = 0: the gradient flow from 0)."""
    path = follow(data, steps, sigma_max)
    p = data.z.shape[1]
    V = np.asarray(directions, dtype=float).reshape(len(directions), p)            # (n, p)
    taus = np.exp(path.sigmas)
    values = path.hs @ V.T + np.outer(taus, V @ data.theta)                         # (K, n) ⟨θ, v⟩
    method = "gradient descent" if steps else "gradient flow"
    out = []
    for n in range(V.shape[0]):
        gap = path.gap * float(np.linalg.norm(V[n]))
        verdict, basis, drift, slope, previous = judge(path.sigmas, values[:, n], gap,
                                                       path.success and path.sigmas[-1] >= sigma_max - 1e-9)
        verdict = verdict if V[n].any() else LimitVerdict.UNDECIDED
        out.append(TrajectoryEvidence(method, steps, float(path.sigmas[-1]), float(values[-1, n]), drift, slope,
                                      previous, gap, verdict, basis))
    return out
