"""Gradient descent on the positional cross-entropy at L0 — the dynamics that Theorem 1 and
the Conjecture speak about.

Main definitions (definitions.md#selection, definitions.md#theorem-1, definitions.md#conjecture):

* ℓ(θ) = Σ_{i ∈ R_L0} -log softmax(κ_θ(i, ·))[t(i)], κ_θ(i, j) = ⟨θ, ψ(i, j)⟩ over keys j ≤ i;
* ∇ℓ(θ) = Σ_i (E_{A_i}[ψ(i, ·)] - ψ(i, t)) with A_i = softmax(κ_θ(i, ·)) — a combination of
  training differences z = ψ(i, t) - ψ(i, j), so every iterate from θ = 0 stays in col Zᵀ;
* deterministic gradient descent from θ = 0 with a fixed step (default 1/β with
  β = Σ_i max_j ‖ψ(i, j)‖², an upper bound on the smoothness of ℓ); on separable data it
  converges in direction to θ* (Soudry et al. 2018; Ji & Telgarsky 2018).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from posreal.theory.encodings import Encoding
from posreal.theory.pe_specs import parse_pe
from posreal.theory.errors import bad_value
from posreal.theory.kernels import target_keys
from posreal.theory.selection import select
from posreal.theory.tasks import Task, parse_task


@dataclass
class TrainingGrid:
    """Dense index-form features of the scored rows of one grid (small grids only)."""

    features: np.ndarray  # (m, L, p)  ψ at (row, key index); zero where k > i
    mask: np.ndarray      # (m, L) bool, key index k ≤ i
    target: np.ndarray    # (m,) key index of the target
    rows: np.ndarray      # (m,)

    def logits(self, theta: np.ndarray) -> np.ndarray:
        out = self.features @ theta                        # (m, L)
        return np.where(self.mask, out, -np.inf)

    def loss_and_grad(self, theta: np.ndarray) -> tuple[float, np.ndarray]:
        z = self.logits(theta)                              # (m, L)
        zmax = z.max(axis=1, keepdims=True)
        e = np.exp(z - zmax)
        s = e.sum(axis=1, keepdims=True)
        attn = e / s                                        # (m, L)
        idx = np.arange(self.rows.size)
        loss = float(np.sum(np.log(s[:, 0]) + zmax[:, 0] - z[idx, self.target]))
        mean_feat = np.einsum("mk,mkp->mp", attn, self.features)          # (m, p)
        grad = np.sum(mean_feat - self.features[idx, self.target], axis=0)  # (p,)
        return loss, grad

    def smoothness(self) -> float:
        """β = Σ_i max_j ‖ψ(i, j)‖²: an upper bound on the Hessian of ℓ."""
        sq = np.where(self.mask, np.sum(self.features ** 2, axis=2), 0.0)  # (m, L)
        return float(np.sum(sq.max(axis=1)))


def training_grid(pe: str | Encoding, task: str | Task, length: int, train_length: int) -> TrainingGrid:
    """Features of the scored rows of the ``length``-grid in index form."""
    pe, task = parse_pe(pe), parse_task(task)
    rows, targets = task.rows_and_targets(length)
    m, p = rows.size, pe.dim(train_length)
    k = np.arange(length)
    mask = k[None, :] <= rows[:, None]                       # (m, L)
    r_idx, k_idx = np.nonzero(mask)
    feats = np.zeros((m, length, p))
    feats[r_idx, k_idx] = pe.index_features(rows[r_idx], k_idx, train_length)
    return TrainingGrid(feats, mask, target_keys(pe.index, rows, targets), rows)


@dataclass
class Trajectory:
    """Recorded iterates of gradient descent."""

    steps: np.ndarray    # (K,)
    thetas: np.ndarray   # (K, p)
    losses: np.ndarray   # (K,)
    cosines: np.ndarray  # (K,) cos(θ_k, θ*), nan when θ* does not exist or θ_k = 0
    step_size: float

    @property
    def final(self) -> np.ndarray:
        return self.thetas[-1]


def _cosine(a: np.ndarray, b: np.ndarray | None) -> float:
    if b is None:
        return float("nan")
    na, nb = np.linalg.norm(a), np.linalg.norm(b)
    return float(a @ b / (na * nb)) if na > 0 and nb > 0 else float("nan")


def gradient_descent(pe: str | Encoding, task: str | Task, train_length: int = 16, steps: int = 10000,
                     step_size: float | None = None, record: int = 50,
                     theta0: np.ndarray | None = None) -> Trajectory:
    """Deterministic gradient descent on ℓ at L0 from θ0 (default 0), fixed step.

    Records about ``record`` iterates, log-spaced in k (plus k = 0 and the last)."""
    pe, task = parse_pe(pe), parse_task(task)
    if not isinstance(steps, (int, np.integer)) or steps < 1:
        raise bad_value("steps", steps, "an integer >= 1")
    if isinstance(train_length, bool) or not isinstance(train_length, (int, np.integer)) or train_length < 1:
        raise bad_value("train length", train_length, "an integer >= 1")
    grid = training_grid(pe, task, train_length, train_length)
    p = pe.dim(train_length)
    eta = step_size if step_size is not None else 1.0 / max(grid.smoothness(), 1e-12)
    if isinstance(eta, bool) or not isinstance(eta, (int, float, np.floating)) or not 0 < eta < np.inf:
        raise bad_value("step size", step_size, "a finite number > 0")
    if theta0 is not None and np.shape(theta0) != (p,):
        raise bad_value("theta0 shape", np.shape(theta0), f"({p},), the PE's parameter count at L0 = {train_length}")
    sel = select(pe, task, train_length, mode="float")
    target = sel.theta if sel.realizable else None
    marks = set(np.unique(np.geomspace(1, steps, num=max(2, record)).astype(int)).tolist()) | {0, steps}
    theta = np.zeros(p) if theta0 is None else np.array(theta0, dtype=float)
    rec_steps, thetas, losses, cosines = [], [], [], []
    for k in range(steps + 1):
        loss, grad = grid.loss_and_grad(theta)
        if k in marks:
            rec_steps.append(k)
            thetas.append(theta.copy())
            losses.append(loss)
            cosines.append(_cosine(theta, target))
        if k < steps:
            theta = theta - eta * grad
    return Trajectory(np.array(rec_steps), np.array(thetas).reshape(len(thetas), p), np.array(losses),
                      np.array(cosines), eta)
