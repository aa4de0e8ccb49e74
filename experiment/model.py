"""The one-head model of the docs' Experiment page, its loss and hand-written gradients.

Main definitions:

* parameters: token embedding U (V, d), positional parameters θ (p,) of the PE Φ (θ = 0 at
  start), value map W_V (d, d), readout W_O (d, V);
* attention A = softmax(κ_θ) over the causal mask, κ_θ(i, j) = ⟨θ, ψ(i, j)⟩ — positional only,
  so one A (m, n) serves every sequence of length n: it is computed once per length and step;
* h_i = Σ_j A_ij U[x_j] W_V, logits_i = h_i W_O, loss = mean over the batch and the scored rows
  R_n of the cross-entropy of logits_i against x_{t_n(i)};
* :func:`loss_and_grads` evaluates the model re-associated as logits_b = A · M[x_b] with
  M = U W_V W_O (V, V) — the same function (matrix products are associative), cheaper because
  the value path is applied to the V vocabulary rows instead of every token of the batch;
* :func:`naive_loss_and_grads` is the straightforward reference: for every sequence it
  recomputes κ, A and h literally, and back-propagates through each (tests and benchmarks);
* attention at a length L ≠ L0 is :func:`posreal.theory.attention.transferred_attention` (T_L θ, or
  T_L^σ θ under a length extension σ: the same trained parameters, evaluated with rescaled features).

Gradients (G = ∂loss/∂logits = (softmax(logits) - onehot(y)) / (B m), shapes below):
∂A = Σ_b G_b M[x_b]ᵀ, ∂M = Σ_b onehot(x_b)ᵀ Aᵀ G_b, ∂κ = A ⊙ (∂A - rowsum(∂A ⊙ A)),
∂θ = Σ_{i,j} ∂κ_ij ψ(i, j), ∂W_O = (U W_V)ᵀ ∂M, ∂W_V = Uᵀ ∂M W_Oᵀ, ∂U = ∂M W_Oᵀ W_Vᵀ.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from posreal.theory.attention import softmax_rows, transferred_attention
from posreal.theory.encodings import Encoding
from posreal.theory.tasks import Task
from posreal.theory.transfer_operator import REEVALUATION, Transfer

PARAMS = ("U", "W_V", "W_O", "theta")


@dataclass
class LengthGrid:
    """Pair features of the scored rows of one grid, by key position j (not key index)."""

    length: int
    rows: np.ndarray      # (m,) scored rows R_n
    targets: np.ndarray   # (m,) t_n(i)
    features: np.ndarray  # (m, n, p) ψ(i, j); zero where j > i
    mask: np.ndarray      # (m, n) bool, j ≤ i


def geometry(pe: Encoding, task: Task, length: int, train_length: int) -> LengthGrid:
    """Dense ψ(i, j) for the scored rows of the ``length``-grid (small grids: the training grid)."""
    rows, targets = task.rows_and_targets(length)
    p = pe.dim(train_length)
    mask = np.arange(length)[None, :] <= rows[:, None]          # (m, n)
    r_idx, j_idx = np.nonzero(mask)
    feats = np.zeros((rows.size, length, p))                    # (m, n, p)
    feats[r_idx, j_idx] = pe.pair_features(rows[r_idx], j_idx, train_length)
    return LengthGrid(length, rows, targets, feats, mask)


def init_params(V: int, d: int, p: int, rng: np.random.Generator) -> dict[str, np.ndarray]:
    """U ~ N(0, 1), W_V, W_O ~ N(0, 1/d) entrywise, θ = 0 (uniform causal attention)."""
    return {
        "U": rng.standard_normal((V, d)),                       # (V, d)
        "W_V": rng.standard_normal((d, d)) / np.sqrt(d),        # (d, d)
        "W_O": rng.standard_normal((d, V)) / np.sqrt(d),        # (d, V)
        "theta": np.zeros(p),                                   # (p,)
    }


def attention(geom: LengthGrid, theta: np.ndarray) -> np.ndarray:
    """A = softmax over j ≤ i of ⟨θ, ψ(i, j)⟩ on the scored rows: (m, n)."""
    kappa = np.where(geom.mask, geom.features @ theta, -np.inf)  # (m, n)
    return softmax_rows(kappa)


def vocab_map(params: dict[str, np.ndarray]) -> tuple[np.ndarray, np.ndarray]:
    """P = U W_V (V, d) and M = P W_O (V, V): the value path of every vocabulary item."""
    P = params["U"] @ params["W_V"]   # (V, d)
    return P, P @ params["W_O"]       # (V, V)


def logits_from(A: np.ndarray, M: np.ndarray, x: np.ndarray) -> np.ndarray:
    """logits_b = A · M[x_b]: A (m, n), M (V, V), x (B, n) -> (B, m, V)."""
    return np.matmul(A, M[x])


def _cross_entropy(Z: np.ndarray, y: np.ndarray) -> tuple[float, np.ndarray]:
    """Mean cross-entropy and its gradient: Z (B, m, V), y (B, m) -> float, (B, m, V)."""
    B, m, _ = Z.shape
    zmax = Z.max(axis=2, keepdims=True)                          # (B, m, 1)
    e = np.exp(Z - zmax)                                         # (B, m, V)
    s = e.sum(axis=2, keepdims=True)                             # (B, m, 1)
    picked = np.take_along_axis(Z, y[:, :, None], axis=2)        # (B, m, 1)
    loss = float(np.mean(np.log(s) + zmax - picked))
    G = e / s                                                    # (B, m, V)
    np.put_along_axis(G, y[:, :, None], np.take_along_axis(G, y[:, :, None], axis=2) - 1.0, axis=2)
    return loss, G / (B * m)


def _theta_grad(geom: LengthGrid, A: np.ndarray, dA: np.ndarray) -> np.ndarray:
    """Back through A = softmax(Fθ): (m, n), (m, n) -> (p,)."""
    dK = A * (dA - np.sum(dA * A, axis=1, keepdims=True))        # (m, n), zero off the mask
    return np.tensordot(dK, geom.features, axes=([0, 1], [0, 1]))  # (p,)


def loss_and_grads(params: dict[str, np.ndarray], geom: LengthGrid,
                   x: np.ndarray) -> tuple[float, dict[str, np.ndarray]]:
    """Loss on a batch x (B, n) and the gradient of every parameter (same shapes as params)."""
    B, n = x.shape
    V = params["U"].shape[0]
    A = attention(geom, params["theta"])                         # (m, n), once for the batch
    P, M = vocab_map(params)                                     # (V, d), (V, V)
    Y = M[x]                                                     # (B, n, V)
    Z = np.matmul(A, Y)                                          # (B, m, V)
    loss, G = _cross_entropy(Z, x[:, geom.targets])              # G: (B, m, V)
    m = A.shape[0]
    dA = G.transpose(1, 0, 2).reshape(m, B * V) @ Y.transpose(1, 0, 2).reshape(n, B * V).T  # (m, n)
    dY = np.matmul(A.T, G)                                       # (B, n, V)
    onehot = np.zeros((B * n, V))                                # (B n, V)
    onehot[np.arange(B * n), x.reshape(-1)] = 1.0
    dM = onehot.T @ dY.reshape(B * n, V)                         # (V, V)
    dP = dM @ params["W_O"].T                                    # (V, d)
    grads = {
        "U": dP @ params["W_V"].T,                               # (V, d)
        "W_V": params["U"].T @ dP,                               # (d, d)
        "W_O": P.T @ dM,                                         # (d, V)
        "theta": _theta_grad(geom, A, dA),                       # (p,)
    }
    return loss, grads


def naive_loss_and_grads(params: dict[str, np.ndarray], geom: LengthGrid,
                         x: np.ndarray) -> tuple[float, dict[str, np.ndarray]]:
    """The same loss and gradients, straightforwardly.

    Attention and the literal value path h = A U[x] W_V recomputed and back-propagated separately for every
    sequence."""
    U, W_V, W_O, theta = (params[k] for k in PARAMS)
    B = x.shape[0]
    m = geom.rows.size
    grads = {k: np.zeros_like(params[k]) for k in PARAMS}
    total = 0.0
    for b in range(B):
        kappa = np.where(geom.mask, geom.features @ theta, -np.inf)  # (m, n)
        A = softmax_rows(kappa)                                      # (m, n)
        E = U[x[b]]                                                  # (n, d)
        H = E @ W_V                                                  # (n, d)
        h = A @ H                                                    # (m, d)
        Z = h @ W_O                                                  # (m, V)
        loss, G = _cross_entropy(Z[None], x[b, geom.targets][None])  # G: (1, m, V)
        total += loss * m
        G = G[0] * (1.0 / B)                                         # (m, V): mean over B m rows
        grads["W_O"] += h.T @ G                                      # (d, V)
        dh = G @ W_O.T                                               # (m, d)
        dA = dh @ H.T                                                # (m, n)
        dH = A.T @ dh                                                # (n, d)
        grads["W_V"] += E.T @ dH                                     # (d, d)
        np.add.at(grads["U"], x[b], dH @ W_V.T)                      # (n, d) rows into (V, d)
        grads["theta"] += _theta_grad(geom, A, dA)                   # (p,)
    return total / (B * m), grads


def evaluate(pe: Encoding, task: Task, params: dict[str, np.ndarray], length: int, train_length: int,
             x: np.ndarray, extension: Transfer = REEVALUATION) -> tuple[float, float]:
    """Token accuracy over R_L and attention accuracy of a trained head on sequences x (B, L).

    Token accuracy over R_L and attention accuracy (target strictly the largest weight of
    its row) of a trained head on sequences x (B, L), attention from T_L^σ θ (σ = ``extension``)."""
    rows, targets = task.rows_and_targets(length)
    A = transferred_attention(pe, params["theta"], length, train_length, rows, extension)  # (m, L)
    _, M = vocab_map(params)                                                     # (V, V)
    pred = np.argmax(logits_from(A, M, x), axis=2)                               # (B, m)
    token_acc = float(np.mean(pred == x[:, targets]))
    on_target = A[np.arange(rows.size), targets]                                 # (m,)
    rest = A.copy()
    rest[np.arange(rows.size), targets] = -np.inf
    attn_acc = float(np.mean(on_target > rest.max(axis=1)))  # masked keys have weight 0
    return token_acc, attn_acc
