"""Reference implementations straight from the definitions (dense, slow): used to cross-check
the fast paths.  They materialize every feature ψ(i, j) and compare row by row."""

from __future__ import annotations

import numpy as np

from posreal.theory.transfer_operator import naive_kernel_matrix
from posreal.theory.realization import DEFAULT_TOL


def naive_row_status(pe, task, theta, length, train_length, tol=DEFAULT_TOL) -> np.ndarray:
    """1 realized / 0 undecided / -1 failed for each row of R_L, by brute force."""
    kappa = naive_kernel_matrix(pe, theta, length, train_length)  # (L, L)
    rows, targets = task.rows_and_targets(length)
    out = []
    for i, t in zip(rows.tolist(), targets.tolist()):
        keys = list(range(i + 1))
        feats = pe.pair_features(np.full(i + 1, i), np.array(keys), train_length)  # (i+1, p)
        if any(np.array_equal(feats[t], feats[j]) for j in keys if j != t):
            out.append(-1)
            continue
        others = [kappa[i, j] for j in keys if j != t]
        if not others:
            out.append(1)
            continue
        gamma = kappa[i, t] - max(others)
        scale = tol * max(1.0, abs(kappa[i, t]))
        out.append(1 if gamma > scale else (-1 if gamma < -scale else 0))
    return np.array(out, dtype=np.int8)
