"""Your own PE as a Python function: the module behind the README's ``--pe py:examples.pe_function:...``.

Run from the repository root (the module is imported with the current directory on ``sys.path``)::

    posreal alpha --pe py:examples.pe_function:recency_and_sink --pe-kind general --pe-width 2 --task position:0

A function PE takes int64 arrays of shape (m,) — offsets n = i - j (``--pe-kind relative``), key
positions j (``column``) or query and key positions i, j with j ≤ i (``general``) — and returns an
(m, p) array, p = ``--pe-width``.  Integer (or ``fractions.Fraction``) values make it rational, so
``--exact`` decides every row in ℚ.  The docs' Definitions page, section "Your own PE as a function".
"""

from __future__ import annotations

import numpy as np


def recency_and_sink(i: np.ndarray, j: np.ndarray) -> np.ndarray:
    """ψ(i, j) = [-(i - j), 1 if j = 0 else 0]: a linear recency bias and an attention sink on the first key."""
    return np.stack([-(i - j), (j == 0).astype(np.int64)], axis=1)   # (m, 2) integers


def log_distance(n: np.ndarray) -> np.ndarray:
    """ψ(n) = [-log(1 + n), cos(n)]: a relative PE of width 2 (float values: certified mode, not exact)."""
    return np.stack([-np.log1p(n), np.cos(n)], axis=1)               # (m, 2) floats
