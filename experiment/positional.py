"""The positional-loss recipes: θ alone on the positional cross-entropy at L0, trained to their limit.

Main definitions (the docs' Experiment page, "The ladder"; definitions.md#selection, #alpha-sharp, #geometry):

* the loss is ℓ(θ) = Σ_{i ∈ R_L0} -log softmax(κ_θ(i, ·))[t(i)] (:mod:`posreal.theory.training`): no tokens,
  no value map, no readout — the object of Theorem 1, Conjecture′ and the Geometry result;
* :func:`train_gd_flow` (recipe ``gd-positional``) — gradient descent from θ = 0 at the fixed step 1/β for the
  recipe's steps, continued by the gradient flow in log-time (:func:`posreal.theory.trajectory.follow`:
  θ = θ* τ + h, τ = log t, integrated in σ = log τ) to the first checkpoint σ ∈ :data:`FLOW_CHECKPOINTS` = 8, 16,
  24 where it has converged — direction drift over [τ/2, τ] below the bound and the same rows realized at τ/2
  and τ at L0 and at every evaluation length — else to σ = 24 (τ ≈ 2.6·10¹⁰), flagged by its drift;
  a cell not realizable at L0 has no θ*: plain gradient descent for the recipe's steps;
* :func:`train_sign_descent` (recipe ``signum-positional``) — sign descent from θ = 0 with the diminishing
  steps η_t = η₀ (t + 1)^(-1/2) (:func:`posreal.theory.steepest.steepest_descent`), for T = :data:`SIGN_FIRST`,
  2T, 4T, … steps until the direction drift over [T/2, T] is at most the bound
  (:data:`posreal.experiment.convergence.DRIFT_BOUND`) or T reaches the recipe's steps;
* :func:`realized_rows` — which rows of R_L the trained θ realizes (the attention argmax is the target).  At the
  flow's horizon θ = θ* τ + h with τ ≈ 2.6·10¹⁰, so a row's margin against rival j is τ ⟨θ*, z⟩ + ⟨h, z⟩
  (z = ψ(i, t) - ψ(i, j)): ⟨θ*, z⟩ within α_L's float tolerance counts as 0 (a tie), and a tie is won iff
  ⟨h, z⟩ > :data:`TIE_TOL` — evaluating θ itself in floats would bury ⟨h, z⟩ = O(1) under the rounding of
  τ θ*.  Sign descent's θ is evaluated with α_L's float rule (:func:`posreal.theory.alpha.row_outcomes`);
* :func:`positional_records` — one record per evaluation length, with the realized rows, the convergence
  diagnostics (:mod:`posreal.experiment.convergence`) and no token accuracy (there are no tokens).
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass, replace

import numpy as np

from posreal.experiment.convergence import Convergence, diagnose
from posreal.experiment.recipes import Optimizer, Recipe
from posreal.theory.alpha import row_outcomes
from posreal.theory.encodings import Encoding
from posreal.runtime.provenance import timestamp, versions
from posreal.theory.realization import DEFAULT_TOL, REALIZED
from posreal.theory.selection import select
from posreal.theory.steepest import steepest_descent
from posreal.theory.tasks import Task
from posreal.theory.training import training_grid
from posreal.theory.trajectory import SIGMA_MAX, follow, pair_data

FLOW_CHECKPOINTS = (8.0, 16.0, SIGMA_MAX)
"""σ = log log t at which the flow of ``gd-positional`` is checked; it stops at the first where it has converged
(direction drift over [τ/2, τ] at most the bound, and the same rows realized at τ/2 and τ at L0 and at every
evaluation length), else at the last, the project's horizon of trajectory evidence (σ = 24)."""
FLOW_SIGMA = SIGMA_MAX

SIGN_FIRST = 2 ** 10
"""The first step count of ``signum-positional``; it doubles until the run has converged."""

TIE_TOL = 1e-6
"""A tie margin ⟨h, z⟩ at most this does not beat the rival (the flow's h is accurate to about 1e-8)."""


@dataclass(frozen=True)
class FlowEnd:
    """θ = θ* τ + h at the flow's horizon."""

    theta_star: np.ndarray   # (p,) θ*
    tau: float               # τ = log t
    h: np.ndarray            # (p,)
    sigma: float             # σ = log τ reached
    success: bool            # the integrator reached the horizon
    gap: float               # the descent-to-flow gap estimate (posreal.theory.trajectory)


@dataclass(frozen=True)
class PositionalRun:
    """The end of one positional-loss run."""

    theta: np.ndarray                 # (p,) θ at the end of the run
    convergence: Convergence
    steps: int                        # descent steps taken (before the flow, for gd-positional)
    flow: FlowEnd | None = None       # gd-positional on a realizable cell
    rows_stable: bool | None = None   # the flow: the same rows realized at τ/2 and τ (L0 and every length)

    def horizon(self) -> dict:
        """How far the run went: steps, and the flow's horizon when it ran."""
        out: dict = {"steps": self.steps}
        if self.flow is not None:
            out.update({"sigma": self.flow.sigma, "tau": self.flow.tau, "integrator_success": self.flow.success,
                        "descent_to_flow_gap": self.flow.gap, "rows_stable": self.rows_stable})
        return out


def _theta_star(pe: Encoding, task: Task, train_length: int) -> list | None:
    sel = select(pe, task, train_length)
    if not sel.realizable:
        return None
    return list(sel.exact_theta) if sel.exact_theta is not None else [float(x) for x in sel.theta]


def train_gd_flow(pe: Encoding, task: Task, train_length: int, recipe: Recipe,
                  lengths: tuple[int, ...] = ()) -> PositionalRun:
    """Gradient descent at lr/β for the recipe's steps, then the log-time flow.

    The flow runs to the first checkpoint of :data:`FLOW_CHECKPOINTS` where it has converged (``lengths``: the
    evaluation lengths whose rows must be stable)."""
    theta_star = _theta_star(pe, task, train_length)
    if theta_star is None:   # not separable: no θ*, no flow — plain gradient descent
        half = max(1, recipe.steps // 2)
        grid = training_grid(pe, task, train_length, train_length)
        eta = recipe.lr / max(grid.smoothness(), 1e-12)
        mid = steepest_descent(pe, task, train_length, "l2", steps=half, step_size=eta)
        end = steepest_descent(pe, task, train_length, "l2", steps=recipe.steps, step_size=eta, start=(half, mid))
        return PositionalRun(end, diagnose(pe, task, train_length, mid, end, "steps", half, recipe.steps),
                             recipe.steps)
    data = pair_data(pe, task, train_length, theta_star)
    data = replace(data, step=data.step * recipe.lr)
    run: PositionalRun | None = None
    for sigma_max in FLOW_CHECKPOINTS:
        run, stable = _flow_until(pe, task, train_length, recipe, data, sigma_max, lengths)
        if stable and run.convergence.status.value == "converged":
            break
    assert run is not None
    return run


def _flow_until(pe: Encoding, task: Task, train_length: int, recipe: Recipe, data, sigma_max: float,
                lengths: tuple[int, ...]) -> tuple[PositionalRun, bool]:
    """The flow to σ = ``sigma_max``: the run at its end, and whether the rows realized at log-time τ/2 and τ are
    the same at L0 and at every length of ``lengths``."""
    path = follow(data, recipe.steps, sigma_max)
    star = data.theta                                                   # (p,) θ* in floats
    sigma = float(path.sigmas[-1])
    tau = math.exp(sigma)
    h_end = path.hs[-1]                                                 # (p,)
    sigma_mid = math.log(tau / 2)                                       # log-time τ/2
    h_mid = np.array([np.interp(sigma_mid, path.sigmas, path.hs[:, k]) for k in range(star.size)])  # (p,)
    theta_end = star * tau + h_end
    theta_mid = star * (tau / 2) + h_mid
    conv = diagnose(pe, task, train_length, theta_mid, theta_end, "log-time", tau / 2, tau)
    ok = bool(path.success and sigma >= sigma_max - 1e-9)
    flow = FlowEnd(star, tau, h_end, sigma, ok, path.gap)
    half = FlowEnd(star, tau / 2, h_mid, sigma_mid, ok, path.gap)
    stable = ok and all(np.array_equal(flow_realized(pe, task, flow, L, train_length),
                                       flow_realized(pe, task, half, L, train_length))
                        for L in (train_length, *lengths))
    return PositionalRun(theta_end, conv, recipe.steps, flow, stable), stable


def train_sign_descent(pe: Encoding, task: Task, train_length: int, recipe: Recipe) -> PositionalRun:
    """Sign descent with η_t = lr (t + 1)^(-1/2) for SIGN_FIRST, 2·SIGN_FIRST, … steps until converged."""
    T = min(SIGN_FIRST, recipe.steps)
    half = max(1, T // 2)
    mid = steepest_descent(pe, task, train_length, "linf", steps=half, step_size=recipe.lr)
    while True:
        end = steepest_descent(pe, task, train_length, "linf", steps=T, step_size=recipe.lr, start=(half, mid))
        conv = diagnose(pe, task, train_length, mid, end, "steps", half, T)
        if conv.status.value == "converged" or 2 * T > recipe.steps:
            return PositionalRun(end, conv, T)
        half, mid, T = T, end, 2 * T


def train_positional(pe: Encoding, task: Task, train_length: int, recipe: Recipe,
                     lengths: tuple[int, ...] = ()) -> PositionalRun:
    """Train θ on the positional loss with the recipe's optimizer (gd-flow or sign-descent)."""
    if recipe.optimizer is Optimizer.GD_FLOW:
        return train_gd_flow(pe, task, train_length, recipe, lengths)
    if recipe.optimizer is Optimizer.SIGN_DESCENT:
        return train_sign_descent(pe, task, train_length, recipe)
    raise ValueError(f"recipe {recipe.name!r} is not a positional-loss recipe")


def flow_realized(pe: Encoding, task: Task, flow: FlowEnd, length: int, train_length: int) -> np.ndarray:
    """Rows of R_L realized by θ* τ + h: (m,) bool (the module docstring says how ties are decided)."""
    grid = training_grid(pe, task, length, train_length)
    idx = np.arange(grid.rows.size)
    at_target = grid.features[idx, grid.target]                         # (m, p)
    z = at_target[:, None, :] - grid.features                           # (m, L, p) ψ(i, t) - ψ(i, k)
    scale = np.maximum(1.0, np.abs(at_target @ flow.theta_star))[:, None]   # (m, 1)
    star = z @ flow.theta_star                                          # (m, L)
    star[np.abs(star) <= DEFAULT_TOL * scale] = 0.0
    margin = flow.tau * star + z @ flow.h                               # (m, L)
    rival = grid.mask.copy()
    rival[idx, grid.target] = False
    beaten = (margin > TIE_TOL) | ~rival                                # (m, L)
    return np.all(beaten, axis=1)


def realized_rows(pe: Encoding, task: Task, run: PositionalRun, length: int, train_length: int) -> np.ndarray:
    """Rows of R_L whose attention argmax is the target under the run's θ: (m,) bool."""
    if run.flow is not None:
        return flow_realized(pe, task, run.flow, length, train_length)
    out = row_outcomes(pe, task, run.theta, length, train_length)
    return out.status == REALIZED


def positional_records(pe_spec: str, task_spec: str, pe: Encoding, task: Task, recipe: Recipe, lengths: list[int],
                       realizable: bool, alphas: list[float | None]) -> list[dict]:
    """Train one positional-loss run and measure it at each length: one record per length."""
    start = time.perf_counter()
    L0 = recipe.train_length
    run = train_positional(pe, task, L0, recipe, tuple(lengths))
    seconds = round(time.perf_counter() - start, 4)
    train_rows = realized_rows(pe, task, run, L0, L0)
    tools = versions()
    out = []
    for L, alpha in zip(lengths, alphas):
        rows = task.rows(L)
        won = realized_rows(pe, task, run, L, L0)                      # (m,) bool
        attention = float(np.mean(won)) if won.size else 1.0
        out.append({
            "pe": pe_spec, "task": task_spec, "vocab": 0, "width": 0, "seed": 0, "model": "positional",
            "train_length": L0, "length": L, "realizable": realizable, "alpha": alpha,
            "predicted": None if alpha is None else alpha == 1.0,
            "token_accuracy": None, "attention_accuracy": attention, "generalizes": attention >= recipe.threshold,
            "train_token_accuracy": None,
            "train_attention_accuracy": float(np.mean(train_rows)) if train_rows.size else 1.0,
            "realized_rows": [int(r) for r in rows[won]],
            "final_loss": None, "theta_norm": float(np.linalg.norm(run.theta)),
            "theta": [float(t) for t in run.theta], "recipe": recipe.to_json(), "extensions": {},
            "convergence": run.convergence.to_json(), "horizon": run.horizon(),
            "flow_h": None if run.flow is None else [float(x) for x in run.flow.h],
            "seconds": seconds, "timestamp": timestamp(), "versions": tools,
        })
    return out
