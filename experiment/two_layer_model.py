"""Two-layer attention models with the PE in both layers, in JAX (the experiment's two-layer rung).

Main definitions (the docs' "What escapes the theory" page, "The two-layer experiment"):

* :class:`TwoLayerRecipe` — the one recipe of every cell, fixed up front (:data:`RECIPE`): vocabulary V,
  width d, Adam's step size and moments, steps, batch, evaluation sequences, the verdict's threshold;
* :func:`position_features` — ψ(i, j) of the PE Φ on the n-grid as the project's encodings give it, under
  a length extension σ: the features of ``σ.at_length(Φ, n, L0)`` (T_L^σ) and σ's logit scale (YaRN's 1/t);
* the model (:func:`forward`): tokens x (B, n) with BOS = index V; h⁰ = E[x]; for layer ℓ = 1, 2:
  s_ℓ(i, j) = ⟨h_i W_Q, h_j W_K⟩ / √d + ⟨θ_ℓ, ψ(i, j)⟩ (times σ's logit scale), causal softmax A_ℓ,
  h^ℓ = h^(ℓ-1) + A_ℓ h^(ℓ-1) W_V W_O; logits = h² W_U (no MLP, no normalization).  θ_ℓ = 0 at start
  (uniform positional part); a fixed-bias PE (``alibi-fixed``: θ ∈ (0, ∞)) is trained as θ = exp(η), η = 0
  at start, i.e. the published bias;
* :func:`train` — Adam written out here on the gradient of JAX's autodiff (``jax.grad``), fresh data every
  step (``induction``: BOS, m distinct tokens, their repeat; ``copy``: i.i.d. uniform tokens), loss = mean
  cross-entropy of the scored rows against the token at their target key;
* :func:`evaluate` — token accuracy on fresh sequences at a length and extension, and layer 1's
  previous-token accuracy (the argmax of A_1 on row j is j - 1, rows 1..n-1): the trained counterpart of
  α_L(Φ, offset:1), the layer-1 outcome the induction circuit's α_L^ind is a function of.

JAX is the optional extra ``experiment`` (``pip install positional-realizability[experiment]``).
"""

from __future__ import annotations

import zlib
from dataclasses import asdict, dataclass
from enum import StrEnum
from typing import Any

import numpy as np

from posreal.theory.encodings import Encoding
from posreal.theory.errors import SpecError
from posreal.theory.tasks import parse_task
from posreal.theory.token_tasks import induction_layout
from posreal.theory.transfer_operator import REEVALUATION, Transfer


class Kind(StrEnum):
    """The two tasks of the two-layer experiment."""

    INDUCTION = "induction"   # BOS, m distinct tokens, their repeat; rows m+1..2m-1, target i - m + 1
    COPY = "copy"             # i.i.d. tokens; rows n/2..n-1, target i - n/2 (the positional task copy)


@dataclass(frozen=True)
class TwoLayerRecipe:
    """The one training recipe of every cell (never tuned per cell)."""

    vocab: int = 64
    width: int = 32
    steps: int = 1500
    batch: int = 32
    lr: float = 0.003
    beta1: float = 0.9
    beta2: float = 0.999
    eps: float = 1e-8
    chunk: int = 250              # steps per compiled scan (progress and cancellation between chunks)
    eval_sequences: int = 128
    threshold: float = 0.95
    mixed: bool = True            # induction: every training sequence draws its own m <= L0/2 (see ``sample``)

    def to_json(self) -> dict:
        """The recipe as a JSON object."""
        return asdict(self)


RECIPE = TwoLayerRecipe()
"""Fixed before the full run (see the docs' page for the single pilot that checked it learns at L0)."""


def require_jax() -> Any:
    """The ``jax`` module, or a one-line SpecError naming the extra to install."""
    try:
        import jax
    except ImportError:
        raise SpecError("invalid environment for the two-layer experiment: jax is not installed; accepted: "
                        "pip install 'positional-realizability[experiment]' (or pip install jax)") from None
    return jax


@dataclass(frozen=True)
class Layout:
    """Scored rows and their target keys of one task at one length."""

    kind: Kind
    length: int
    rows: np.ndarray      # (r,)
    targets: np.ndarray   # (r,)


def layout(kind: Kind, length: int) -> Layout:
    """The scored rows of ``kind`` at ``length`` (induction: n = 2m + 1; copy: the positional task)."""
    if kind is Kind.INDUCTION:
        lay = induction_layout(length)
        return Layout(kind, length, lay.rows, lay.targets)
    rows, targets = parse_task("copy").rows_and_targets(length)
    return Layout(kind, length, np.asarray(rows), np.asarray(targets))


def position_features(pe: Encoding, extension: Transfer, length: int, train_length: int) -> tuple[np.ndarray, float]:
    """ψ(i, j) on the ``length``-grid under T_L^σ, zero above the diagonal, and σ's logit scale: (n, n, p), float."""
    at = extension.at_length(pe, length, train_length)
    p = pe.dim(train_length)
    i, j = np.tril_indices(length)
    feats = np.zeros((length, length, p), dtype=np.float32)              # (n, n, p)
    if p:
        feats[i, j] = at.pair_features(i, j, train_length)
    return feats, float(extension.logit_scale(length, train_length))


def init_params(jax: Any, key: Any, vocab: int, width: int, p: int) -> dict[str, Any]:
    """E ~ N(0, 1) (V + 1 rows: BOS is row V), W ~ N(0, 1/d), θ_ℓ = 0 (p,)."""
    jnp = jax.numpy
    keys = jax.random.split(key, 10)
    d = width
    out = {"E": jax.random.normal(keys[0], (vocab + 1, d)),                      # (V + 1, d)
           "W_U": jax.random.normal(keys[1], (d, vocab)) / np.sqrt(d)}           # (d, V)
    for layer in (1, 2):
        for n, name in enumerate(("W_Q", "W_K", "W_V", "W_O")):
            out[f"{name}{layer}"] = jax.random.normal(keys[2 + 4 * (layer - 1) + n], (d, d)) / np.sqrt(d)
        out[f"theta{layer}"] = jnp.zeros((p,))                                   # (p,)
    return out


def forward(jax: Any, params: dict[str, Any], x: Any, feats: Any, scale: float,
            positive: bool) -> tuple[Any, Any]:
    """Logits (B, n, V) and layer 1's attention (B, n, n) of token sequences x (B, n)."""
    jnp = jax.numpy
    n = x.shape[1]
    d = params["E"].shape[1]
    mask = jnp.tril(jnp.ones((n, n), dtype=bool))                               # (n, n)
    h = params["E"][x]                                                           # (B, n, d)
    first = None
    for layer in (1, 2):
        theta = params[f"theta{layer}"]
        theta = jnp.exp(theta) if positive else theta
        bias = feats @ theta                                                     # (n, n)
        q, k = h @ params[f"W_Q{layer}"], h @ params[f"W_K{layer}"]             # (B, n, d)
        s = (jnp.einsum("bid,bjd->bij", q, k) / np.sqrt(d) + bias[None]) * scale  # (B, n, n)
        a = jax.nn.softmax(jnp.where(mask[None], s, -jnp.inf), axis=-1)          # (B, n, n)
        h = h + (a @ (h @ params[f"W_V{layer}"])) @ params[f"W_O{layer}"]        # (B, n, d)
        first = a if first is None else first
    return h @ params["W_U"], first


def sample(jax: Any, key: Any, kind: Kind, batch: int, length: int, vocab: int,
           mixed: bool = False) -> tuple[Any, Any, Any]:
    """Fresh token sequences x (B, n), each row's target key (B, n) and weight (B, n) (1 on scored rows).

    ``induction``: BOS (= V), m distinct tokens, their repeat; with ``mixed`` each sequence draws its own
    m ∈ [2, (n - 1)/2] and the positions after 2m hold i.i.d. filler tokens (unscored; the causal mask keeps
    them out of the scored rows), so no fixed offset solves the training data.  ``copy``: i.i.d. tokens."""
    jnp = jax.numpy
    rows = jnp.arange(length)                                                    # (n,)
    if kind is Kind.COPY:
        lay = layout(kind, length)
        w = jnp.zeros(length).at[lay.rows].set(1.0)
        tgt = jnp.zeros(length, dtype=jnp.int32).at[lay.rows].set(lay.targets)
        x = jax.random.randint(key, (batch, length), 0, vocab)
        return x, jnp.broadcast_to(tgt, (batch, length)), jnp.broadcast_to(w, (batch, length))
    k_perm, k_m, k_fill = jax.random.split(key, 3)
    top = (length - 1) // 2
    first = jnp.argsort(jax.random.uniform(k_perm, (batch, vocab)), axis=1)[:, :top]   # (B, M) distinct tokens
    m = (jax.random.randint(k_m, (batch, 1), 2, top + 1) if mixed
         else jnp.full((batch, 1), top))                                         # (B, 1)
    fill = jax.random.randint(k_fill, (batch, length), 0, vocab)                 # (B, n)
    p = rows[None, :]                                                            # (1, n)
    src = jnp.where(p <= m, p - 1, p - m - 1)                                    # (B, n) index into first
    body = jnp.take_along_axis(first, jnp.clip(src, 0, top - 1), axis=1)         # (B, n)
    x = jnp.where(p == 0, vocab, jnp.where(p <= 2 * m, body, fill))
    w = ((p >= m + 1) & (p <= 2 * m - 1)).astype(jnp.float32)                    # (B, n)
    tgt = jnp.clip(p - m + 1, 0, length - 1)                                     # (B, n)
    return x, tgt, w


def loss_fn(jax: Any, params: dict[str, Any], x: Any, tgt: Any, w: Any, feats: Any, positive: bool) -> Any:
    """Mean cross-entropy of the scored rows (weight 1) against x at their target keys."""
    jnp = jax.numpy
    logits, _ = forward(jax, params, x, feats, 1.0, positive)                    # (B, n, V)
    y = jnp.take_along_axis(x, tgt, axis=1)                                      # (B, n)
    logp = jax.nn.log_softmax(logits, axis=-1)
    picked = jnp.take_along_axis(logp, jnp.clip(y, 0, logits.shape[-1] - 1)[..., None], axis=-1)[..., 0]
    return -jnp.sum(picked * w) / jnp.sum(w)


def model_key(pe: str, task: str, seed: int) -> int:
    """The random stream of one model: a pure function of its cell and seed."""
    return zlib.crc32(f"two-layer|{pe}|{task}|{seed}".encode())


@dataclass
class Trained:
    """One trained model: its parameters (numpy) and its training curve."""

    params: dict[str, np.ndarray]
    losses: list[float]     # mean loss of each chunk


def train(pe: Encoding, kind: Kind, train_length: int, seed_key: int, recipe: TwoLayerRecipe = RECIPE,
          steps: int | None = None) -> Trained:
    """Adam from the recipe's initialization on fresh data at L0 (induction: n = L0 + 1)."""
    jax = require_jax()
    jnp = jax.numpy
    n = train_length + 1 if kind is Kind.INDUCTION else train_length
    feats_np, _ = position_features(pe, REEVALUATION, n, train_length)
    feats = jnp.asarray(feats_np)
    positive = bool(pe.positive_scale)
    key = jax.random.PRNGKey(seed_key)
    key, init_key = jax.random.split(key)
    params = init_params(jax, init_key, recipe.vocab, recipe.width, feats_np.shape[2])
    grad = jax.value_and_grad(lambda p, x, t, w: loss_fn(jax, p, x, t, w, feats, positive))
    r = recipe

    def step(state, k):
        params, m1, m2, t = state
        x, tgt, w = sample(jax, k, kind, r.batch, n, r.vocab, r.mixed)
        loss, g = grad(params, x, tgt, w)
        t = t + 1
        m1 = jax.tree_util.tree_map(lambda a, b: r.beta1 * a + (1 - r.beta1) * b, m1, g)
        m2 = jax.tree_util.tree_map(lambda a, b: r.beta2 * a + (1 - r.beta2) * b * b, m2, g)
        c1, c2 = 1 - r.beta1 ** t, 1 - r.beta2 ** t
        params = jax.tree_util.tree_map(lambda p, a, b: p - r.lr * (a / c1) / (jnp.sqrt(b / c2) + r.eps),
                                        params, m1, m2)
        return (params, m1, m2, t), loss

    @jax.jit
    def chunk(state, key):
        return jax.lax.scan(step, state, jax.random.split(key, r.chunk))

    zeros = jax.tree_util.tree_map(jnp.zeros_like, params)
    state = (params, zeros, zeros, jnp.asarray(0.0))
    losses = []
    total = r.steps if steps is None else steps
    for _ in range(max(1, total // r.chunk)):
        key, sub = jax.random.split(key)
        state, chunk_losses = chunk(state, sub)
        losses.append(float(jnp.mean(chunk_losses)))
    return Trained({k: np.asarray(v) for k, v in state[0].items()}, losses)


@dataclass(frozen=True)
class Measured:
    """Accuracy of one trained model at one length under one extension."""

    token_accuracy: float
    layer1_previous: float   # fraction of (sequence, row j ≥ 1) whose layer-1 argmax is j - 1


def evaluate(pe: Encoding, kind: Kind, params: dict[str, np.ndarray], length: int, train_length: int,
             extension: Transfer, seed_key: int, recipe: TwoLayerRecipe = RECIPE) -> Measured:
    """Token accuracy over the scored rows of fresh sequences at ``length``.

    The sequences are the same for every extension (the stream depends on the model and the length only); the
    features are T_L^σ."""
    jax = require_jax()
    jnp = jax.numpy
    lay = layout(kind, length)
    feats, scale = position_features(pe, extension, length, train_length)
    x, _, _ = sample(jax, jax.random.PRNGKey((seed_key + 7919 * length) % 2 ** 31), kind, recipe.eval_sequences,
                     length, recipe.vocab)                                       # (S, n), the full layout
    logits, a1 = _forward_jit(jax)(params, x, jnp.asarray(feats), scale, bool(pe.positive_scale))
    pred = jnp.argmax(logits[:, lay.rows], axis=-1)                              # (S, r)
    token = float(jnp.mean(pred == x[:, lay.targets]))
    prev = jnp.argmax(a1[:, 1:], axis=-1) == jnp.arange(length - 1)[None, :]    # (S, n - 1): row j -> j - 1
    return Measured(token, float(jnp.mean(prev)))


_JIT: dict[str, Any] = {}


def _forward_jit(jax: Any) -> Any:
    """``forward`` compiled once per process (shapes and the two static flags retrace as needed)."""
    if "forward" not in _JIT:
        _JIT["forward"] = jax.jit(lambda p, x, f, s, pos: forward(jax, p, x, f, s, pos), static_argnums=(4,))
    return _JIT["forward"]
