"""Equal-feature ids of a PE's keys and the structural ties they give (definitions.md#structural-tie).

Main definitions:

* :func:`row_ids` — integer ids with id(k) == id(k') iff the feature rows k and k' are equal as floats, by an exact
  hash of each row's bits (O(L p)), checked against each hash group's first row; rows are sorted only on a hash
  collision;
* :func:`ties_from_ids` — the rows whose target key shares its features with another key of the row (a
  structural tie: no θ separates them), from the ids in O(L).
"""

from __future__ import annotations

import numpy as np


def ties_from_ids(ids: np.ndarray, rows: np.ndarray, keys: np.ndarray) -> np.ndarray:
    """Structural ties when features at key index k equal those at k' iff id(k) == id(k'): a row ties
    iff its target key is not the first key with its id, or the second key with that id is on the
    row (≤ i).  ids (L,), rows/keys (m,) -> (m,) bool."""
    length = ids.size
    n_ids = int(ids.max()) + 1 if ids.size else 0
    first = np.full(n_ids, length, dtype=np.int64)    # (n_ids,) first key index of each id
    second = np.full(n_ids, length, dtype=np.int64)   # (n_ids,) the second one (length: none)
    order = np.arange(length)
    np.minimum.at(first, ids, order)
    later = order != first[ids]
    np.minimum.at(second, ids[later], order[later])
    tid = ids[keys]
    return (keys != first[tid]) | (second[tid] <= rows)


def row_ids(feats: np.ndarray) -> np.ndarray:
    """Integer ids of the rows of ``feats`` with id(k) == id(k') iff the rows are equal as floats: (L, p) -> (L,).
    The rows are hashed exactly (their bits times fixed odd 64-bit words, summed modulo 2⁶⁴, -0.0 read as 0.0),
    the hashes sorted, and every row compared with its hash group's first row; in the unlikely case that two
    different rows share a hash, the rows themselves are sorted (np.unique over rows, O(L p log L))."""
    rows = np.ascontiguousarray(feats + 0.0)                                 # -0.0 + 0.0 = 0.0
    words = np.random.default_rng(0x5EED).integers(1, 2 ** 63, size=rows.shape[1], dtype=np.uint64) | np.uint64(1)
    hashes = (rows.view(np.uint64) * words).sum(axis=1, dtype=np.uint64)    # (L,) wraps modulo 2⁶⁴
    _, first, inverse = np.unique(hashes, return_index=True, return_inverse=True)
    inverse = inverse.reshape(-1)
    if np.all(rows == rows[first[inverse]]):
        return inverse.astype(np.int64)
    _, inverse = np.unique(rows, axis=0, return_inverse=True)
    return inverse.reshape(-1).astype(np.int64)
