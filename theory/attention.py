"""Attention of a positional-only head from its transferred scores (definitions.md, T_L).

Main definitions:

* :func:`softmax_rows` — softmax over the last axis, masked (-inf) entries get weight 0;
* :func:`transferred_attention` — the attention at length L of a head trained at L0 with
  positional parameters θ: A = softmax over the causal mask (j ≤ i) of the transferred scores
  T_L θ (:func:`posreal.theory.transfer_operator.transfer`), on the scored rows R_L.  Positional only, so
  one A serves every sequence of length L.
"""

from __future__ import annotations

import numpy as np

from posreal.theory.encodings import Encoding
from posreal.theory.transfer_operator import transfer


def softmax_rows(logits: np.ndarray) -> np.ndarray:
    """Softmax over the last axis; -inf entries get weight 0."""
    z = logits - logits.max(axis=-1, keepdims=True)
    e = np.exp(z)
    return e / e.sum(axis=-1, keepdims=True)


def transferred_attention(pe: Encoding, theta: np.ndarray, length: int, train_length: int,
                          rows: np.ndarray) -> np.ndarray:
    """A = softmax of T_L θ over the causal mask, on the scored rows of the L-grid: (m, L).

    ``theta`` (p,) with p = pe.dim(train_length); ``rows`` (m,) the scored rows R_L; column j of
    the result is key position j (weight 0 for j > i)."""
    kappa = transfer(pe, theta, length, train_length).matrix()  # (L, L), -inf above the diagonal
    return softmax_rows(kappa[rows])                            # (m, L)
