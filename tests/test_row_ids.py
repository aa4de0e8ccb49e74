"""Equal-feature ids of a profile PE's keys (feature_ids.row_ids): the exact hash partition equals the partition by
sorting the rows, -0.0 is 0.0, and two different rows with the same hash are still told apart (the fallback)."""

from __future__ import annotations

import numpy as np

from posreal.theory.feature_ids import row_ids as _row_ids


def _same_partition(ids: np.ndarray, feats: np.ndarray) -> bool:
    _, ref = np.unique(feats + 0.0, axis=0, return_inverse=True)
    ref = ref.reshape(-1)
    pairs = {(int(a), int(b)) for a, b in zip(ids, ref)}
    return len(pairs) == len(set(ids.tolist())) == len(set(ref.tolist()))   # a bijection between the labels


def test_ids_are_the_partition_of_equal_rows():
    rng = np.random.default_rng(1)
    base = rng.normal(size=(40, 6))
    feats = base[rng.integers(0, 40, size=500)]                             # (500, 6), many repeats
    feats[7] = 0.0
    feats[8] = -0.0                                                         # equal to row 7 as floats
    ids = _row_ids(feats)
    assert _same_partition(ids, feats)
    assert ids[7] == ids[8]
    assert not _same_partition(np.arange(500), feats)                       # the control: all-distinct is wrong


def test_rows_that_share_a_hash_are_still_told_apart():
    words = np.random.default_rng(0x5EED).integers(1, 2 ** 63, size=2, dtype=np.uint64) | np.uint64(1)
    rng = np.random.default_rng(2)
    for _ in range(100):                                                    # find a pair that are both plain floats
        a = rng.normal(size=2).view(np.uint64)
        with np.errstate(over="ignore"):
            b = np.array([a[0] + words[1], a[1] - words[0]], dtype=np.uint64)   # b·w ≡ a·w (mod 2⁶⁴)
        if np.all(np.isfinite(b.view(np.float64))):
            break
    feats = np.vstack([a.view(np.float64), b.view(np.float64), a.view(np.float64)])  # (3, 2)
    with np.errstate(over="ignore"):
        assert (a * words).sum(dtype=np.uint64) == (b * words).sum(dtype=np.uint64)   # the hashes collide
    ids = _row_ids(feats)
    assert ids[0] == ids[2] != ids[1]
