"""Distinct training differences of profile PEs (theory/training_set.py): the same first pairs, in the same order,
as the full O(L0²) enumeration, with its multiplicities; and the count formula."""

from __future__ import annotations

import numpy as np
import pytest

from posreal.theory.pe_specs import parse_pe
from posreal.theory.selection import select, training_pairs
from posreal.theory.tasks import parse_task
from posreal.theory.training_set import distinct_pair_count, profile_key_pairs

PES = ["rope:8", "abscol:8", "clipped", "colbias:3", "slope", "dual:rope:8", "t5"]
TASKS = ["offset:1", "offset:0", "position:0", "position:3", "copy", "middle", "reverse", "half", "dual:copy"]


def _brute(pe, task, L0):
    """First occurrence (row-major) and count of every (target index, key index) pair, by enumeration."""
    full = training_pairs(task, L0)                                       # (N, 3)
    i, t, j = full.T
    keys = np.stack([pe.key_index(i, t), pe.key_index(i, j)], axis=1)    # (N, 2)
    first: dict[tuple, int] = {}
    count: dict[tuple, int] = {}
    for n, k in enumerate(map(tuple, keys.tolist())):
        first.setdefault(k, n)
        count[k] = count.get(k, 0) + 1
    order = sorted(first.values())
    return full[order], [count[tuple(keys[n].tolist())] for n in order]


@pytest.mark.parametrize("pe", PES)
@pytest.mark.parametrize("task", TASKS)
@pytest.mark.parametrize("L0", [2, 5, 13])
def test_key_pairs_are_the_enumeration_deduplicated(pe, task, L0):
    P, T = parse_pe(pe), parse_task(task)
    if T.rows(L0).size == 0:
        pytest.skip("no scored row")
    pairs, counts = _brute(P, T, L0)
    got = profile_key_pairs(P, T, L0)
    assert got.pairs.tolist() == pairs.tolist()
    assert got.counts.tolist() == counts
    assert distinct_pair_count(P, T, L0) == len(pairs)
    assert int(got.counts.sum()) == len(training_pairs(T, L0))            # every training pair counted once


def test_counts_are_linear_for_offsets_and_quadratic_for_positions_on_relative_pes():
    P = parse_pe("rope:8")
    L0 = 1000
    assert distinct_pair_count(P, parse_task("offset:1"), L0) == L0 - 1
    assert distinct_pair_count(P, parse_task("copy"), L0) == L0 - 1
    assert distinct_pair_count(P, parse_task("position:0"), L0) == L0 * (L0 - 1) // 2
    assert distinct_pair_count(parse_pe("abscol:8"), parse_task("position:0"), L0) == L0 - 1   # the shear


def test_selection_keeps_multiplicities_of_merged_differences():
    """clipped:2 merges the key indices ≥ 2 into one bucket: the selection's n_s add up over them and sum to the
    number of training pairs."""
    sel = select("clipped:2", "offset:0", 6)
    assert sel.multiplicities is not None and int(sel.multiplicities.sum()) == len(training_pairs(sel.task, 6))
    z = sel.constraints
    assert len({tuple(r) for r in z.tolist()}) == z.shape[0]              # distinct
