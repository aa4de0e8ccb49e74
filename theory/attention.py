"""Attention of a positional-only head from its transferred scores (definitions.md, T_L).

Main definitions:

* :func:`softmax_rows` — softmax over the last axis, masked (-inf) entries get weight 0;
* :func:`transferred_attention` — the attention at length L of a head trained at L0 with
  positional parameters θ: A = softmax over the causal mask (j ≤ i) of the transferred scores
  T_L θ (:func:`posreal.theory.transfer_operator.transfer`), on the scored rows R_L.  Positional only, so
  one A serves every sequence of length L.  Under a length extension σ the scores are T_L^σ θ
  (the features of ``extension.at_length``) times the method's logit scale (YaRN's temperature
  1/t, a positive scalar: the same argmax, a sharper softmax; definitions.md#length-extension).
"""

from __future__ import annotations

import numpy as np

from posreal.theory.encodings import Encoding
from posreal.theory.transfer_operator import REEVALUATION, Transfer, transfer


def softmax_rows(logits: np.ndarray) -> np.ndarray:
    """Softmax over the last axis; -inf entries get weight 0."""
    z = logits - logits.max(axis=-1, keepdims=True)
    e = np.exp(z)
    return e / e.sum(axis=-1, keepdims=True)


def transferred_attention(pe: Encoding, theta: np.ndarray, length: int, train_length: int,
                          rows: np.ndarray, extension: Transfer = REEVALUATION) -> np.ndarray:
    """A = softmax of T_L^σ θ over the causal mask, on the scored rows of the L-grid: (m, L).

    ``theta`` (p,) with p = pe.dim(train_length); ``rows`` (m,) the scored rows R_L; column j of
    the result is key position j (weight 0 for j > i); ``extension`` σ (plain re-evaluation by default)."""
    at_length = extension.at_length(pe, length, train_length)
    kappa = transfer(at_length, theta, length, train_length).matrix()   # (L, L), -inf above the diagonal
    scale = extension.logit_scale(length, train_length)                 # > 0: YaRN's 1/t, else 1
    return softmax_rows(scale * kappa[rows] if scale != 1.0 else kappa[rows])   # (m, L)
