"""The distinct training differences of a profile PE, with their multiplicities, without enumerating pairs.

Main definitions (definitions.md#selection, "Selection at scale"):

* a training pair (i, t, j) of row i ∈ R_L0 and key j ≤ i, j ≠ t gives the difference
  z = ψ(i, t) - ψ(i, j).  For a profile PE (relative or column, :class:`~posreal.theory.encodings.ProfileEncoding`)
  ψ depends on the key index alone, so z = f(a) - f(b) with a = k(i, t) the target's key index and b = k(i, j);
  duplicated differences do not change θ* (the same constraint set), so the selection needs only the
  distinct key pairs (a, b);
* :func:`profile_key_pairs`: every distinct (a, b), as the first training pair (i, t, j) that gives it, in the
  row-major order of the full enumeration, with its multiplicity n_(a,b) = |{i ∈ R_L0 : a(i) = a, b ≤ i}|.
  Row i sees key indices {0..i}, so the pairs of target index a are b ∈ {0..M(a)} ∖ {a}, M(a) the last row
  with target index a: O(number of distinct pairs), never the O(L0²) enumeration;
* :func:`distinct_pair_count`: how many there are, in O(|R_L0|) — L0 - 1 for ``offset:c`` and ``copy`` on a
  relative PE, Θ(L0²) for ``position:p`` and ``middle`` there (and the other way round on column PEs);
* :func:`row_target_indices`: the rows of R_L0 with their target key indices (what constraint generation
  sweeps, :mod:`posreal.theory.cutting_planes`);
* :func:`dedupe_float`, :func:`dedupe_exact`: the distinct difference vectors of any PE with their summed
  multiplicities (float rows compared to :data:`DEDUPE_BITS` significant bits, exact rows as tuples).

Why it is enough (Lawson & Hanson 1974, ch. 23): the hard-margin SVM min ‖θ‖ s.t. Zθ ≥ 1 depends on the set of
rows of Z, not on their repetitions; the multiplicities matter only for the second-order term of gradient
descent (α♯, :mod:`posreal.theory.limit`).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from posreal.theory.encodings import Encoding
from posreal.theory.kernels import target_keys
from posreal.theory.tasks import Task


@dataclass(frozen=True)
class KeyPairs:
    """The distinct key-index pairs of a profile PE's training differences."""

    pairs: np.ndarray    # (m, 3) int64: (i, t, j), the first training pair giving each (a, b), row-major order
    counts: np.ndarray   # (m,) int64: n_(a,b), how many training pairs give the same (a, b)


def row_target_indices(pe: Encoding, task: Task, train_length: int) -> tuple[np.ndarray, np.ndarray]:
    """Rows of R_L0 and the key index of each row's target: (m,), (m,) int64."""
    rows, targets = task.rows_and_targets(train_length)
    return rows, target_keys(pe.index, rows, targets)


def distinct_pair_count(pe: Encoding, task: Task, train_length: int) -> int:
    """Σ_a M(a): the number of distinct key pairs (a, b), b ∈ {0..M(a)} ∖ {a} (an upper bound on the distinct
    differences: keys with equal features give equal differences).  O(|R_L0|)."""
    rows, a = row_target_indices(pe, task, train_length)
    if rows.size == 0:
        return 0
    last = np.zeros(int(a.max()) + 1, dtype=np.int64)     # (max a + 1,) M(a), rows ascending
    np.maximum.at(last, a, rows)
    return int(last[np.unique(a)].sum())


def profile_key_pairs(pe: Encoding, task: Task, train_length: int) -> KeyPairs:
    """Every distinct (a, b) with its first training pair and its multiplicity (see the module docstring)."""
    rows, a = row_target_indices(pe, task, train_length)
    targets = task.rows_and_targets(train_length)[1]
    if rows.size == 0:
        return KeyPairs(np.zeros((0, 3), dtype=np.int64), np.zeros(0, dtype=np.int64))
    order = np.lexsort((rows, a))                          # by target index, then row
    a_sorted, rows_sorted, t_sorted = a[order], rows[order], targets[order]
    bounds = np.flatnonzero(np.diff(a_sorted)) + 1
    chunks_i, chunks_t, chunks_b, chunks_n = [], [], [], []
    for lo, hi in zip(np.r_[0, bounds], np.r_[bounds, a_sorted.size]):
        target_index = int(a_sorted[lo])
        group = rows_sorted[lo:hi]                          # (g,) ascending rows with this target index
        b = np.arange(int(group[-1]) + 1)
        b = b[b != target_index]                            # (M(a),) the other key indices
        first = np.searchsorted(group, b, side="left")      # first row of the group that sees key index b
        chunks_i.append(group[first])
        chunks_t.append(t_sorted[lo:hi][first])
        chunks_b.append(b)
        chunks_n.append(group.size - first)
    i = np.concatenate(chunks_i)                            # (m,)
    t = np.concatenate(chunks_t)
    j = pe.key_index(i, np.concatenate(chunks_b))           # k ↦ j is its own inverse (i - k, or k)
    counts = np.concatenate(chunks_n)
    keep = np.lexsort((j, i))                               # row-major, as the full enumeration
    return KeyPairs(np.stack([i, t, j], axis=1)[keep].astype(np.int64), counts[keep].astype(np.int64))


# --------------------------------------------------------------------------- duplicates of the difference vectors
DEDUPE_BITS = 40          # float differences that agree to this many significant bits are one constraint


def _significant(z: np.ndarray) -> np.ndarray:
    """Each entry to :data:`DEDUPE_BITS` significant bits, as (mantissa, exponent) integer columns: (m, p) ->
    (m, 2p).  Differences equal in exact arithmetic can differ in their last bits (the platform's SIMD log, sin and
    cos round differently), so float duplicates are those equal to 2⁻⁴⁰ relative per entry; 0 stays 0."""
    mantissa, exponent = np.frexp(z)                                  # z = mantissa · 2^exponent, |mantissa| ∈ [½, 1)
    return np.concatenate([np.round(mantissa * 2.0 ** DEDUPE_BITS), exponent], axis=1)


def dedupe_float(z: np.ndarray, pairs: np.ndarray, counts: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Distinct rows of z (first occurrences, in order) with their pairs and summed multiplicities."""
    if z.shape[0] == 0:
        return z, pairs, counts
    _, first, inverse = np.unique(_significant(z), axis=0, return_index=True, return_inverse=True)
    totals = np.bincount(inverse.reshape(-1), weights=counts, minlength=first.size).astype(np.int64)
    keep = np.argsort(first, kind="stable")                   # distinct rows in order of first occurrence
    return z[first[keep]], pairs[first[keep]], totals[keep]


def dedupe_exact(zq: list[tuple], pairs: np.ndarray, counts: np.ndarray
                 ) -> tuple[list[tuple], np.ndarray, np.ndarray]:
    """Distinct exact rows of zq (first occurrences, in order) with their pairs and summed multiplicities."""
    seen: dict[tuple, int] = {}
    totals: dict[tuple, int] = {}
    for n, z in enumerate(zq):
        seen.setdefault(z, n)
        totals[z] = totals.get(z, 0) + int(counts[n])
    keep = sorted(seen.values())
    return [zq[n] for n in keep], pairs[keep], np.array([totals[zq[n]] for n in keep], dtype=np.int64)
