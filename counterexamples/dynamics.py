"""Gradient descent along tie directions: where the Conjecture's open case is decided.

Main definitions and results (definitions.md#selection, definitions.md#conjecture):

* :func:`first_step` — ∇ℓ(0) = Σ_{i∈R_L0} (mean_{j≤i} ψ(i,j) - ψ(i,t)) and β = Σ_i max_j ‖ψ(i,j)‖²
  in ℚ, so θ_1 = -∇ℓ(0)/β is exact for rational features (the default step of
  :func:`posreal.theory.training.gradient_descent`);
* :func:`tie_margins` — float gradient descent from θ = 0 with step 1/β, recording the tie
  margins ⟨θ_k, v⟩ of given directions at log-spaced k;
* :func:`limit_verdict` — ``wins`` / ``loses`` / ``undecided`` from the last recorded decades;
* :func:`predict_float` — the float version of :func:`posreal.theory.limit.predict` (the exact
  second-order prediction of the limit, which lives in ``theory``) for irrational features.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from posreal.theory.encodings import Encoding
from posreal.theory.rational import dot
from posreal.theory.selection import Selection, training_pairs
from posreal.theory.tasks import Task
from posreal.theory.training import training_grid

from posreal.theory.ties import exact_feature

DEFAULT_STEPS = 20000
WINS, LOSES, UNDECIDED = "wins", "loses", "undecided"


def first_step(pe: Encoding, task: Task, train_length: int) -> tuple[list[Fraction], Fraction]:
    """(∇ℓ(0), β) in ℚ: the gradient of the positional cross-entropy at θ = 0 and the step bound."""
    p = pe.dim(train_length)
    grad = [Fraction(0)] * p
    beta = Fraction(0)
    rows, targets = task.rows_and_targets(train_length)
    for i, t in zip(rows.tolist(), targets.tolist()):
        feats = [exact_feature(pe, i, j, train_length) for j in range(i + 1)]
        mean = [sum((f[c] for f in feats), Fraction(0)) / (i + 1) for c in range(p)]
        grad = [g + m - x for g, m, x in zip(grad, mean, feats[t])]
        beta += max(dot(f, f) for f in feats)
    return grad, beta


@dataclass
class TieTrajectory:
    """The margins ⟨θ_k, v⟩ of a tie's directions at the recorded iterations, and the step size."""

    steps: list[int]               # (K,) recorded iterations
    margins: np.ndarray            # (n_dirs, K) ⟨θ_k, v⟩
    step_size: float


def tie_margins(pe: Encoding, task: Task, train_length: int, directions: Sequence[Sequence[float]],
                steps: int = DEFAULT_STEPS, per_decade: int = 4) -> TieTrajectory:
    """Gradient descent from 0 (step 1/β) recording ⟨θ_k, v⟩ for each direction v."""
    grid = training_grid(pe, task, train_length, train_length)
    eta = 1.0 / max(grid.smoothness(), 1e-300)
    V = np.asarray(directions, dtype=float).reshape(len(directions), -1)    # (n_dirs, p)
    marks = sorted({int(round(10 ** (e / per_decade))) for e in range(0, per_decade * 12 + 1)
                    if 10 ** (e / per_decade) <= steps} | {steps})
    theta = np.zeros(V.shape[1])                                             # (p,)
    out = np.empty((V.shape[0], len(marks)))
    mark = 0
    for k in range(1, steps + 1):
        _, grad = grid.loss_and_grad(theta)
        theta = theta - eta * grad
        if k == marks[mark]:
            out[:, mark] = V @ theta                                         # (n_dirs,)
            mark += 1
    return TieTrajectory(marks, out, eta)


def limit_verdict(steps: Sequence[int], values: Sequence[float]) -> dict:
    """Estimate lim ⟨θ_k, v⟩ from values recorded at log-spaced steps.

    ``wins`` if the last value and the value a decade earlier are both > 0 and over that decade
    the value moved away from 0 or towards it by at most a quarter of the last value (so three
    more decades of the same drift stay > 0; the drift of a converging residual shrinks);
    ``loses`` symmetrically; ``undecided`` otherwise.  A heuristic on floats, not a proof."""
    last = float(values[-1])
    earlier_index = max((n for n, k in enumerate(steps) if k <= steps[-1] / 10), default=0)
    earlier = float(values[earlier_index])
    drift = last - earlier
    verdict = UNDECIDED
    if last > 0 and earlier > 0 and (drift >= 0 or -drift <= last / 4):
        verdict = WINS
    elif last < 0 and earlier < 0 and (drift <= 0 or drift <= -last / 4):
        verdict = LOSES
    return {"estimate": last, "drift_last_decade": drift, "verdict": verdict,
            "steps": list(map(int, steps)), "values": [float(x) for x in values]}


def predict_float(pe: Encoding, task: Task, selection: Selection, v: Sequence[float],
                  decimals: int = 9) -> dict | None:
    """The same prediction in floats (irrational features).

    Support from the float multipliers, multiplicities by matching differences rounded to ``decimals``.  None if the
    support vectors are (numerically) dependent or v's projection is not in their span."""
    opt = selection.optimum
    if opt is None:
        return None
    from posreal.theory.selection import difference_vectors
    z = np.asarray(selection.constraints, dtype=float)                     # (m, p)
    support = selection.support
    if not support:
        return None
    zs = z[support]                                                        # (s, p)
    if np.linalg.matrix_rank(zs) != len(support):
        return None
    vec = np.asarray(v, dtype=float)                                       # (p,)
    c, *_ = np.linalg.lstsq(z @ zs.T, z @ vec, rcond=None)                 # (s,)
    if np.linalg.norm(z @ zs.T @ c - z @ vec) > 1e-7 * max(1.0, float(np.linalg.norm(z @ vec))):
        return None
    pairs = training_pairs(task, selection.train_length)
    all_z = np.round(difference_vectors(pe, pairs, selection.train_length), decimals)   # (M, p)
    keys = Counter(map(tuple, all_z.tolist()))
    mult = [keys[tuple(np.round(zs[n], decimals).tolist())] for n in range(len(support))]
    lams = opt.multipliers[support]
    if min(mult) < 1 or np.any(lams <= 0):
        return None
    slack = z @ opt.theta - 1.0                                            # (m,)
    off = np.ones(len(z), dtype=bool)
    off[support] = False
    if np.any(slack[off] <= 1e-7 * max(1.0, float(np.abs(opt.theta).sum()))):
        return None  # a tight constraint off the support: not strictly complementary
    value = float(np.sum(c * np.log(np.asarray(mult, dtype=float) / lams)))
    return {"value": value, "multiplicities": mult}
