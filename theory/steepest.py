"""Steepest descent in a norm on the positional cross-entropy at L0 — the dynamics whose implicit
bias picks θ*_q (docs, Definitions page, ``#geometry``).

Main definitions:

* the loss ℓ(θ) and its gradient g are those of :mod:`posreal.theory.training`;
* one step from θ moves by η times the steepest-descent direction of the norm:
  ℓ2: -g/‖g‖₂·‖g‖₂ = -g (plain gradient descent, step 1/β by default);
  ℓ∞ (sign descent): -sign(g), the ℓ∞-unit vector most aligned with -g;
  ℓ1 (coordinate descent): -sign(g_c) e_c for c = argmax_c |g_c|;
  from θ = 0; the ℓ∞ update (sign descent) takes the diminishing steps η_t = η₀ (t + 1)^(-1/2),
  t = 0, 1, …, and the ℓ1 update (coordinate descent) the fixed step η₀;
* Gunasekar, Lee, Soudry & Srebro (ICML 2018) prove that steepest descent with respect to ‖·‖
  converges in direction to the ‖·‖-max-margin solution on separable data, and Zhang, Zou & Cao
  (NeurIPS 2024) that full-batch Adam, whose late steps are sign-descent steps, reaches the ℓ∞ one
  for diminishing learning rates η_t = Θ(t^(-a)), 0 < a ≤ 1.  A fixed normalized step is outside
  the ℓ∞ result's hypotheses and can fail: on one found instance sign descent with η = 0.01 locks
  into a 2-cycle (θ_2500 = θ_40000, the gradient non-zero), while η_t ∝ (t + 1)^(-1/2) moves along
  θ*_∞ (late drift at cosine ≥ 0.999).
  Coordinate descent keeps the fixed step: with (t + 1)^(-1/2) its path after the geometry check's
  2500 steps is 25 times shorter and the late drift was still off θ*_1 on instances the thorough
  property profile found (cosines 0.68 and 0.88), while the fixed step passes them.  This module
  only runs the iteration; the project's geometry checks compare its late drift with the optimal face.
"""

from __future__ import annotations

import numpy as np
from posreal.theory.errors import bad_value
from posreal.theory.geometry import DEFAULT_SIGN_STEP, SIGN_STEP_DECAY, Geometry, SelectionGeometry
from posreal.theory.training import TrainingGrid, training_grid

__all__ = ["DEFAULT_SIGN_STEP", "SIGN_STEP_DECAY", "direction", "stable_gradient", "steepest_descent",
           "target_differences"]   # the step constants are the geometries' (posreal.theory.geometry)


def target_differences(grid: TrainingGrid) -> np.ndarray:
    """ψ(i, j) - ψ(i, t_i) for every training row i and key j: (m, L, p), the same at every step."""
    idx = np.arange(grid.rows.size)
    return grid.features - grid.features[idx, grid.target][:, None, :]   # (m, L, p)


def stable_gradient(grid: TrainingGrid, theta: np.ndarray, diff: np.ndarray | None = None) -> np.ndarray:
    """∇ℓ(θ) = Σ_i Σ_j a_ij (ψ(i, j) - ψ(i, t_i)), with the differences formed before weighting: (p,).
    The usual form Σ_i (E_a[ψ] - ψ(i, t)) cancels catastrophically once a_it rounds to 1, and a
    normalized update (sign, coordinate) would then follow the rounding error.  ``diff``: the
    :func:`target_differences` of ``grid`` when the caller has them already (a loop of steps)."""
    logits = grid.logits(theta)                                    # (m, L)
    attn = np.exp(logits - logits.max(axis=1, keepdims=True))
    attn /= attn.sum(axis=1, keepdims=True)                        # (m, L)
    if diff is None:
        diff = target_differences(grid)                            # (m, L, p)
    return np.einsum("mk,mkp->p", attn, diff)                      # (p,)


def direction(grad: np.ndarray, geometry: str | Geometry | SelectionGeometry) -> np.ndarray:
    """The steepest-descent step direction of the norm for gradient g: (p,) -> (p,) (the geometry's)."""
    return SelectionGeometry.parse(geometry).direction(grad)


def steepest_descent(pe, task, train_length: int, geometry: str | Geometry | SelectionGeometry, steps: int = 3000,
                     step_size: float | None = None, start: tuple[int, np.ndarray] | None = None) -> np.ndarray:
    """θ_K of steepest descent in ‖·‖_q from θ = 0 on ℓ at L0 (K = ``steps``): (p,).  ``step_size`` is
    the fixed step η of ℓ2 (default 1/β) and ℓ1, or η₀ of the diminishing ℓ∞ steps η₀ (t + 1)^(-1/2).
    ``start = (k, θ_k)`` continues an earlier run of the same descent from its iterate θ_k (k < K): the
    same iterates, bit for bit, without recomputing the first k steps."""
    rule = SelectionGeometry.parse(geometry)
    if isinstance(steps, bool) or not isinstance(steps, (int, np.integer)) or steps < 1:
        raise bad_value("steps", steps, "an integer >= 1")
    grid = training_grid(pe, task, train_length, train_length)
    p = grid.features.shape[2]
    if step_size is None:
        step_size = rule.default_step(grid.smoothness)     # ℓ2: 1/β; ℓ∞, ℓ1: DEFAULT_SIGN_STEP
    if isinstance(step_size, bool) or not isinstance(step_size, (int, float)) or not 0 < step_size < np.inf:
        raise bad_value("step size", step_size, "a finite number > 0")
    decay = rule.step_decay                                # GD (1/β) and ℓ1: fixed steps (0); ℓ∞: diminishing
    first, theta = (0, np.zeros(p)) if start is None else (start[0], np.asarray(start[1], dtype=float))  # (p,)
    if isinstance(first, bool) or not isinstance(first, (int, np.integer)) or not 0 <= first <= steps \
            or theta.shape != (p,):
        raise bad_value("start", (first, theta.shape), f"(k, θ_k) with 0 <= k <= {steps} and θ_k of shape ({p},)")
    diff = target_differences(grid)                        # (m, L, p), once for every step
    for t in range(first, steps):
        grad = stable_gradient(grid, theta, diff)          # (p,)
        theta = theta + step_size * (t + 1) ** -decay * rule.direction(grad)
    return theta
