"""The batched trainer: many one-head models of the same shapes trained as one computation.

Main definitions:

* :class:`Member` — one model of a batch: (PE, task, seed), its own random stream;
* :class:`BatchShape` — what the members share: vocabulary V, width d, θ width p, recipe;
* :func:`batch_loss_and_grads` — loss per model and every gradient with a leading model axis K:
  the features ψ(i, j) of each member's PE on the full causal L0-grid (K, n, n, p), and per-row
  weights 1/|R_n| on the member's scored rows (0 elsewhere), so members with different tasks —
  and different PEs of one θ width — share every array operation;
* :func:`row_max` — the softmax shift of every logit row, by pairwise maxima (exact, cheaper
  than numpy's reduction over a short last axis);
* :func:`train_batch` — the recipe's optimizer (its state carries the model axis too);
* :func:`model_bytes`, :func:`batch_capacity` — the memory of one member of a batch, and how
  many members fit a memory budget.

Batch independence: each member's Generator is seeded from its own key and drawn in the same
order as :func:`posreal.experiment.train.train_model` (initialization, then one (B, n) token
batch per step), and no operation mixes the model axis, so a member's parameters do not depend
on the batch it is trained in.  The arithmetic is the reference's
(:func:`posreal.experiment.model.loss_and_grads`) with the unscored rows weighted by zero;
floating-point results agree to rounding (the tests state the tolerance).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import scipy.sparse as sp
from posreal.experiment.model import init_params
from posreal.experiment.optim import Params, make_optimizer
from posreal.experiment.recipes import Recipe
from posreal.experiment.train import stable_seed
from posreal.theory.pe_specs import parse_pe
from posreal.theory.errors import SpecError
from posreal.theory.tasks import parse_task

PARAMS = ("U", "W_V", "W_O", "theta")


@dataclass(frozen=True)
class Member:
    """One model of a batch: its PE, task and seed."""

    pe: str
    task: str
    seed: int


@dataclass(frozen=True)
class BatchShape:
    """What every model of a batch shares: vocabulary, width, θ width p and recipe."""

    vocab: int
    width: int
    dim: int          # p, the θ width of every member's PE at L0
    recipe: Recipe


@dataclass
class BatchData:
    """The fixed arrays of a batch: features, causal mask, row weights and targets."""

    features: np.ndarray   # (K, n, n, p) ψ(i, j), zero where j > i
    mask: np.ndarray       # (n, n) bool, j ≤ i
    weights: np.ndarray    # (K, n) 1/|R_n| on scored rows, 0 elsewhere
    targets: np.ndarray    # (K, n) t_n(i) on scored rows, 0 elsewhere


@dataclass
class TrainedBatch:
    """The trained parameters of a batch (leading model axis K), each model's final loss and θ at mid-run."""

    params: Params         # each with a leading model axis K
    final_loss: np.ndarray  # (K,) mean loss of the last 50 steps
    theta_mid: np.ndarray | None = None   # (K, p) θ after steps // 2 steps (the convergence diagnostics)


def pe_dim(pe_spec: str, train_length: int) -> int:
    """The θ width p of a PE at the training length."""
    return int(parse_pe(pe_spec).dim(train_length))


def batch_data(members: list[Member], train_length: int, dtype: type = np.float64) -> BatchData:
    """The batch's inputs at the training length: pair features, mask, loss weights and targets."""
    n = train_length
    i_idx, j_idx = np.tril_indices(n)                          # (n(n+1)/2,)
    by_pe: dict[str, np.ndarray] = {}
    for spec in dict.fromkeys(m.pe for m in members):
        pe = parse_pe(spec)
        f: np.ndarray = np.zeros((n, n, pe.dim(n)), dtype=dtype)  # (n, n, p)
        f[i_idx, j_idx] = pe.pair_features(i_idx, j_idx, n)
        by_pe[spec] = f
    dims = {f.shape[2] for f in by_pe.values()}
    if len(dims) != 1:
        raise SpecError(f"invalid batch: PEs of θ widths {sorted(dims)}; accepted: one θ width per batch")
    features = np.stack([by_pe[m.pe] for m in members])        # (K, n, n, p)
    weights: np.ndarray = np.zeros((len(members), n), dtype=dtype)          # (K, n)
    targets = np.zeros((len(members), n), dtype=np.int64)       # (K, n)
    for k, m in enumerate(members):
        rows, tgt = parse_task(m.task).rows_and_targets(n)
        weights[k, rows] = 1.0 / rows.size
        targets[k, rows] = tgt
    mask = np.arange(n)[None, :] <= np.arange(n)[:, None]       # (n, n)
    return BatchData(features, mask, weights, targets)


def attention(data: BatchData, theta: np.ndarray) -> np.ndarray:
    """A = softmax over j ≤ i of ⟨θ_k, ψ_k(i, j)⟩: θ (K, p) -> (K, n, n)."""
    K, n = data.weights.shape
    kappa = (data.features.reshape(K, n * n, -1) @ theta[:, :, None]).reshape(K, n, n)  # (K, n, n)
    kappa = np.where(data.mask, kappa, -np.inf)
    kappa -= kappa.max(axis=2, keepdims=True)
    e = np.exp(kappa)                                           # (K, n, n), 0 above the diagonal
    return e / e.sum(axis=2, keepdims=True)


def _token_matrix(rows: np.ndarray, K: int, V: int, dtype: np.dtype) -> sp.csr_matrix:
    """One-hot of every token in its model's block: (K n B, K V) sparse, one 1 per row."""
    return sp.csr_matrix((np.ones(rows.size, dtype=dtype), rows, np.arange(rows.size + 1)),
                         shape=(rows.size, K * V))


def row_max(Z: np.ndarray) -> np.ndarray:
    """Z.max(axis=-1), exactly, by pairwise maxima of halves: (..., V) -> (...).

    numpy's reduction over a short last axis (V ≤ 64 here) loops per row and costs about three exps of the array;
    ⌈log2 V⌉ elementwise maxima of halves cost about two.
    """
    h = Z
    while h.shape[-1] > 1:
        width = h.shape[-1]
        half = width // 2
        m = np.maximum(h[..., :half], h[..., half:2 * half])    # (..., half)
        if width % 2:                                           # the odd column joins the first
            np.maximum(m[..., 0], h[..., -1], out=m[..., 0])
        h = m
    return h[..., 0].copy()


def batch_loss_and_grads(params: Params, data: BatchData, x: np.ndarray) -> tuple[np.ndarray, Params]:
    """Loss of each model and the gradients, x (K, B, n) -> (K,), {name: (K, ...)}.

    The reference's re-association logits_b = A · M[x_b] with M = U W_V W_O, per model, and its
    softmax: each logit row shifted by its own maximum (:func:`row_max`), so every row sum is ≥ 1."""
    U, W_V, W_O, theta = (params[k] for k in PARAMS)
    K, B, n = x.shape
    V = U.shape[1]
    dtype = U.dtype
    A = attention(data, theta)                                  # (K, n, n)
    P = U @ W_V                                                 # (K, V, d)
    M = P @ W_O                                                 # (K, V, V)
    xt = x.transpose(0, 2, 1)                                   # (K, n, B) token of key j, sequence b
    rows = (np.arange(K)[:, None, None] * V + xt).reshape(-1)   # (K n B,) row of M per token
    Y = np.take(M.reshape(K * V, V), rows, axis=0).reshape(K, n, B * V)  # (K, n, B V): M[x_bj] at key j
    Z = (A @ Y).reshape(K, n, B, V)                             # (K, n, B, V) logits
    at_target = (np.arange(K)[:, None, None] * (B * n) + np.arange(B) * n + data.targets[:, :, None])  # (K, n, B)
    y = np.take(x, at_target)                                   # (K, n, B): x_{b, t(i)}, flat positions in x
    in_z = np.arange(K * n * B) * V + y.reshape(-1)             # (K n B,) flat position of each target logit
    top = row_max(Z)                                            # (K, n, B)
    Z -= top[..., None]                                         # each row's maximum 0
    picked = np.take(Z, in_z).reshape(K, n, B)                  # (K, n, B) shifted target logits, ≤ 0
    np.exp(Z, out=Z)                                            # (K, n, B, V)
    s = (Z.reshape(-1, V) @ np.ones(V, dtype=dtype)).reshape(K, n, B)  # (K, n, B) row sums, ≥ 1
    w = (data.weights / B).astype(dtype)                        # (K, n)
    loss = np.sum((np.log(s) - picked).sum(axis=2) * w, axis=1)  # (K,)
    Z *= (w[:, :, None] / s)[..., None]                         # softmax · weight: (K, n, B, V)
    Z.reshape(-1)[in_z] -= np.broadcast_to(w[:, :, None], (K, n, B)).reshape(-1)  # minus onehot(y) · weight
    Gt = Z.reshape(K, n, B * V)                                 # (K, n, B V): G = ∂loss/∂logits
    dA = Gt @ Y.transpose(0, 2, 1)                              # (K, n, n)
    dY = (A.transpose(0, 2, 1) @ Gt).reshape(K * n * B, V)      # (K n B, V) per token
    dM = np.asarray(_token_matrix(rows, K, V, dtype).T @ dY).reshape(K, V, V)  # (K, V, V)
    dP = dM @ W_O.transpose(0, 2, 1)                            # (K, V, d)
    dK = A * (dA - np.sum(dA * A, axis=2, keepdims=True))       # (K, n, n), zero above the diagonal
    grads = {
        "U": dP @ W_V.transpose(0, 2, 1),                       # (K, V, d)
        "W_V": U.transpose(0, 2, 1) @ dP,                       # (K, d, d)
        "W_O": P.transpose(0, 2, 1) @ dM,                       # (K, d, V)
        "theta": (dK.reshape(K, 1, n * n) @ data.features.reshape(K, n * n, -1))[:, 0],  # (K, p)
    }
    return loss, grads


def train_batch(members: list[Member], shape: BatchShape, dtype: type = np.float64) -> TrainedBatch:
    """Train every member with the shape's recipe; parameters come back with a model axis."""
    recipe = shape.recipe
    n, V, d = recipe.train_length, shape.vocab, shape.width
    data = batch_data(members, n, dtype)
    if data.features.shape[3] != shape.dim:
        raise SpecError(f"invalid batch: θ width {data.features.shape[3]} for a shape of width {shape.dim}")
    rngs = [np.random.default_rng(stable_seed(m.pe, m.task, V, d, m.seed)) for m in members]
    inits = [init_params(V, d, shape.dim, rng) for rng in rngs]
    params: Params = {k: np.stack([p[k] for p in inits]).astype(dtype) for k in PARAMS}  # (K, ...)
    opt = make_optimizer(recipe, model_axis=True)
    K = len(members)
    tail = np.zeros(K)
    tail_from = recipe.steps - min(50, recipe.steps)
    x = np.empty((K, recipe.batch, n), dtype=np.int64)          # (K, B, n)
    theta_mid = params["theta"].copy()                          # (K, p)
    for step in range(recipe.steps):
        if step == recipe.steps // 2:
            theta_mid = params["theta"].copy()                  # (K, p) θ at step T/2
        for k, rng in enumerate(rngs):
            x[k] = rng.integers(0, V, size=(recipe.batch, n))   # (B, n) fresh tokens, own stream
        loss, grads = batch_loss_and_grads(params, data, x)
        opt.step(params, grads)
        if step >= tail_from:
            tail += loss
    return TrainedBatch(params, tail / (recipe.steps - tail_from), theta_mid)


# --------------------------------------------------------------------------- memory
def model_bytes(vocab: int, width: int, dim: int, recipe: Recipe, itemsize: int = 8) -> int:
    """Bytes one member adds to a batch.

    Features, parameters with gradients and two optimizer states, and the per-step temporaries (about eight (n, B,
    V) arrays and a few (n, n) ones)."""
    n, B, V, d = recipe.train_length, recipe.batch, vocab, width
    params = V * d + d * d + d * V + dim
    floats = n * n * dim + 4 * params + 2 * (V * d + V * V) + 8 * n * B * V + 6 * n * n
    return int(itemsize * floats + 8 * 2 * n * B)


def batch_capacity(budget_bytes: int, vocab: int, width: int, dim: int, recipe: Recipe, itemsize: int = 8) -> int:
    """How many members fit in ``budget_bytes`` (at least one)."""
    return max(1, budget_bytes // model_bytes(vocab, width, dim, recipe, itemsize))
