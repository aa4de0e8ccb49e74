"""θ* by constraint generation (theory/cutting_planes.py) equals the selection on every distinct difference, and
its certificate holds on the full set; a forced use of it on small cells of every kind of answer."""

from __future__ import annotations

import numpy as np
import pytest

import posreal.theory.selection as selection
from posreal.theory.cutting_planes import _initial_pairs, _polish, first_tie, working_set_cap
from posreal.theory.pe_specs import parse_pe
from posreal.theory.selection import difference_vectors, select, training_pairs
from posreal.theory.tasks import parse_task

CELLS = [("rope:16", "position:0", 64), ("rope:16", "middle", 65), ("abscol:16", "offset:1", 64),
         ("clipped", "copy", 40), ("clipped", "position:0", 40), ("t5", "position:0", 64),
         ("dual:rope:16", "dual:position:0", 40), ("xpos:16", "position:0", 48), ("slope", "position:0", 30),
         ("alibi-fixed", "position:0", 20), ("rope:8", "position:2", 24)]


def _generated(pe, task, L0, monkeypatch):
    monkeypatch.setattr(selection, "GENERATION_ENTRIES", 0)
    return select(pe, task, L0, mode="float")


@pytest.mark.parametrize("pe, task, L0", CELLS)
def test_generated_selection_is_the_complete_one(pe, task, L0, monkeypatch):
    full = select(pe, task, L0, mode="float", complete=True)
    gen = _generated(pe, task, L0, monkeypatch)
    assert gen.summary()["method"] == "constraint generation" and not gen.complete
    assert gen.status == full.status
    if full.realizable:
        np.testing.assert_allclose(gen.theta, full.theta, rtol=1e-7, atol=1e-7 * max(1.0, full.norm))
        z = difference_vectors(gen.pe, training_pairs(gen.task, L0), L0)     # every training difference
        assert (z @ gen.theta).min() >= 1 - 1e-6                            # feasible on the full set
        assert gen.evidence["optimal"]


def test_generated_selection_holds_far_fewer_constraints_than_distinct(monkeypatch):
    gen = _generated("rope:16", "position:0", 128, monkeypatch)
    assert gen.distinct == 128 * 127 // 2
    assert gen.constraints.shape[0] < gen.distinct // 4
    assert gen.summary()["constraints"] == gen.distinct


def test_first_tie_is_the_first_zero_difference():
    for pe, task, L0 in [("t5", "position:0", 64), ("clipped:3", "position:0", 10), ("colbias:2", "offset:1", 9)]:
        P, T = parse_pe(pe), parse_task(task)
        pairs = training_pairs(T, L0)
        z = difference_vectors(P, pairs, L0)
        zero = np.flatnonzero(~np.any(z != 0, axis=1))
        assert first_tie(P, T, L0) == tuple(int(x) for x in pairs[zero[0]])
    assert first_tie(parse_pe("rope:16"), parse_task("position:0"), 64) is None


def test_large_cells_use_generation_and_the_estimate_plans_for_its_cap():
    P, T = parse_pe("rope:128:500000"), parse_task("position:0")
    assert selection.uses_constraint_generation(P, T, 4096, mode="float")
    assert not selection.uses_constraint_generation(P, parse_task("offset:1"), 8192, mode="float")
    assert not selection.uses_constraint_generation(P, T, 4096, mode="exact")
    held, what = selection.selection_size(P, T, 4096, mode="float")
    assert held == working_set_cap(4096, 128) and "working-set" in what


def test_the_solve_on_a_near_active_part_is_the_solve_on_all_of_the_working_set():
    """NNLS on a part A of W, repeated with the constraints of W it violates, ends at W's own optimum; started
    from a part that misses a needed constraint (the control), the first solve violates it and it joins A."""
    from posreal.theory.cutting_planes import _solve_on_working_set
    rng = np.random.default_rng(3)
    z = rng.normal(size=(60, 5)) + np.array([2.0, 0, 0, 0, 0])              # (w, p), feasible (first coordinate)
    u_all, rho_all = selection._nnls_ldp(z)
    theta_all = z.T @ u_all / rho_all
    needed = int(np.argmax(u_all))                                          # a constraint of the optimum's support
    part = np.ones(60, dtype=bool)
    part[needed] = False
    u_part, rho_part = selection._nnls_ldp(z[part])
    assert (z @ (z[part].T @ u_part / rho_part)).min() < 1 - 1e-6           # the control: A alone is not enough
    u, rho = _solve_on_working_set(z, part, selection._nnls_ldp)
    np.testing.assert_allclose(z.T @ u / rho, theta_all, rtol=1e-8, atol=1e-8)
    assert u[needed] > 0


# Exists because a mutant survived: the first working set was only built with fewer targets than half its size.
@pytest.mark.parametrize("size, pairs", [
    # six distinct targets, size 4: every 6 // (4 // 2) = 3rd target, k = 0 and 3; each with its nearest key
    # below (k - 1), or above for k = 0 (key 1 ≤ its last row 1)
    (4, [[0, 1], [3, 2]]),
    # size 12 ≥ 2 · 6: every target, k = 0..5; for k = 1 the key below is key 0 itself, so the key above, 2, too
    (12, [[0, 1], [1, 0], [1, 2], [2, 1], [3, 2], [4, 3], [5, 4]]),
])
def test_initial_pairs_spread_over_the_targets(size, pairs):
    a, rows = np.arange(6), np.arange(1, 7)                 # row i has target index i - 1
    assert _initial_pairs(a, rows, size).tolist() == pairs


def test_polish_moves_an_inexact_nnls_answer_to_the_kkt_point():
    """Z = I₂ (θ1 ≥ 1, θ2 ≥ 1): θ* = (1, 1) with λ = (1, 1).  An NNLS answer u = (0.9, 1.1) (ρ = 1, least slack
    -0.1) is polished on its support to λ = (1, 1), slack 0; an exact answer is returned as it is."""
    z = np.eye(2)
    assert _polish(z, np.array([0.9, 1.1]), 1.0).tolist() == pytest.approx([1.0, 1.0])
    assert _polish(z, np.array([1.0, 1.0]), 1.0).tolist() == [1.0, 1.0]
