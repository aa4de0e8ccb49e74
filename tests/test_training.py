"""Gradient descent on the positional cross-entropy aligns with θ* (Soudry et al.)."""

import numpy as np
import pytest

from cases import GD_CELLS
from posreal.theory import gradient_descent, parse_pe, parse_task, select
from posreal.theory.selection import training_pairs, difference_vectors
from posreal.theory.training import training_grid


@pytest.mark.parametrize("cell", GD_CELLS, ids=lambda c: f"{c[0]}-{c[1]}")
def test_direction_converges_to_selected(cell):
    traj = gradient_descent(*cell, train_length=16, steps=3000)
    assert traj.cosines[-1] > 0.99
    assert np.all(np.diff(traj.losses) <= 1e-12)  # step 1/β: the loss never increases


def test_gradient_matches_finite_differences():
    grid = training_grid("rope:8", "offset:1", 10, 10)
    rng = np.random.default_rng(0)
    theta = rng.normal(size=8)
    _, grad = grid.loss_and_grad(theta)
    eps = 1e-6
    numeric = np.array([(grid.loss_and_grad(theta + eps * e)[0] - grid.loss_and_grad(theta - eps * e)[0]) / (2 * eps)
                        for e in np.eye(8)])
    assert np.allclose(grad, numeric, rtol=1e-5, atol=1e-7)


def test_iterates_stay_in_span_of_training_differences():
    pe, task = parse_pe("relbias"), parse_task("offset:1")
    traj = gradient_descent(pe, task, train_length=8, steps=200)
    z = difference_vectors(pe, training_pairs(task, 8), 8)  # (m, 8), rows e_1 - e_δ
    basis, _, _ = np.linalg.svd(z.T, full_matrices=False)
    rank = np.linalg.matrix_rank(z)
    proj = basis[:, :rank] @ (basis[:, :rank].T @ traj.final)
    assert np.linalg.norm(traj.final - proj) <= 1e-9 * max(1.0, np.linalg.norm(traj.final))
    assert rank < z.shape[1]  # the test means something only if col Zᵀ is a proper subspace


def test_not_realizable_cell_has_nan_cosine():
    traj = gradient_descent("relbias", "reverse", 16, steps=10)
    assert not select("relbias", "reverse", 16).realizable and np.isnan(traj.cosines[-1])
