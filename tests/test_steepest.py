"""Steepest descent in a norm (posreal.theory.steepest): the default ℓ2 step, the stable gradient and
bad input.  (Its alignment with the ℓ1/ℓ∞ predictions is in tests/test_geometry.py.)"""

from __future__ import annotations

import numpy as np
import pytest
from posreal.theory.errors import SpecError
from posreal.theory.steepest import stable_gradient, steepest_descent
from posreal.theory.training import training_grid


# Exists because a mutant survived: ℓ2 steepest descent's default step 1/β was unchecked.
def test_steepest_descent_l2_default_step_is_one_over_beta():
    """Without a step size, ℓ2 steepest descent steps 1/β (β: the grid's smoothness)."""
    from posreal.theory.steepest import steepest_descent
    from posreal.theory.training import training_grid

    beta = training_grid("relbias", "offset:1", 4, 4).smoothness()
    default = steepest_descent("relbias", "offset:1", 4, "l2", steps=1)
    explicit = steepest_descent("relbias", "offset:1", 4, "l2", steps=1, step_size=1.0 / beta)
    assert np.any(default != 0)
    assert np.array_equal(default, explicit)


# Exists because a mutant survived: the stable gradient could normalize attention other than per row.
def test_stable_gradient_is_the_loss_gradient():
    """Σ_i Σ_j a_ij (ψ(i,j) - ψ(i,t_i)) = Σ_i (E_a[ψ] - ψ(i,t_i)) since each row's attention sums to 1."""
    grid = training_grid("rope:8", "offset:1", 10, 10)
    theta = np.random.default_rng(0).normal(size=grid.features.shape[2])
    _, grad = grid.loss_and_grad(theta)
    assert np.abs(grad).max() > 1e-3
    assert stable_gradient(grid, theta) == pytest.approx(grad, rel=1e-9, abs=1e-9)


# Exists because a mutant survived: rows whose logits lie far below other rows' were never in a gradient.
def test_stable_gradient_shifts_each_row_by_its_own_maximum():
    """relbias · offset:1 at L0 = 8 with θ = 1000 e_3: rows 3..7 see offset 3 (logit 1000) and put their whole
    weight on it, rows 1 and 2 do not have it (every logit 0) and attend uniformly.  By hand, ∇ = 5 (e_3 - e_1)
    + (½ e_0 - ½ e_1) + (⅓ (e_0 + e_1 + e_2) - e_1): finite, although exp(0 - 1000) underflows to 0."""
    grid = training_grid("relbias", "offset:1", 8, 8)
    theta = np.zeros(grid.features.shape[2])
    theta[3] = 1000.0
    expected = np.zeros_like(theta)
    expected[:4] = [1 / 2 + 1 / 3, -5 - 1 / 2 - 2 / 3, 1 / 3, 5]
    assert stable_gradient(grid, theta) == pytest.approx(expected, abs=1e-12)


# Exists because a mutant survived: the refusal of a bad start could drop the start it was given.
def test_steepest_descent_bad_start_names_the_start():
    with pytest.raises(SpecError) as err:
        steepest_descent("relbias", "offset:1", 4, "l2", steps=10, start=(11, np.zeros(3)))
    assert str(err.value) == "invalid start (11, (3,)); accepted: (k, θ_k) with 0 <= k <= 10 and θ_k of shape (4,)"


# Exists because a mutant survived: steepest descent's error for a bad step size was unchecked.
def test_steepest_descent_bad_step_size_message():
    with pytest.raises(SpecError) as err:
        steepest_descent("relbias", "position:0", 4, "l2", steps=1, step_size=-1.0)
    assert str(err.value) == "invalid step size -1.0; accepted: a finite number > 0"


# Exists because a mutant survived: steepest descent without `steps` was never run.
def test_steepest_descent_runs_3000_steps_by_default():
    """alibi·position:0 at L0 = 4: ψ(i, j) = -(i - j), so ∂ℓ/∂θ = Σ_i E_p[j] > 0 at every θ (p = 1 parameter).
    ℓ1 steepest descent from 0 with the fixed step η = 0.01 therefore moves by -η at each step: after the
    default K = 3000 steps (the signature's default) θ = -30."""
    theta = steepest_descent("alibi", "position:0", 4, "l1", step_size=0.01)
    assert theta.shape == (1,) and theta[0] == pytest.approx(-30.0, abs=1e-9)
    assert steepest_descent("alibi", "position:0", 4, "l1", step_size=0.01, steps=7)[0] == pytest.approx(-0.07)


@pytest.mark.parametrize("geometry", ["l2", "linf", "l1"])
def test_continuing_from_an_iterate_gives_the_same_iterates_bit_for_bit(geometry):
    """start=(k, θ_k) resumes the descent (the ℓ∞ step size depends on t, so k must be honoured)."""
    from posreal.theory.steepest import steepest_descent
    from posreal.theory.tables import build_table
    from posreal.theory.tasks import parse_task
    pe = build_table("resume_case", [[1, -2], [0, 3], [-1, 1], [2, 2], [3, -1], [1, 1]], "relative")
    task = parse_task("offset:1")
    middle = steepest_descent(pe, task, 5, geometry, steps=300)
    resumed = steepest_descent(pe, task, 5, geometry, steps=1200, start=(300, middle))
    assert np.array_equal(resumed, steepest_descent(pe, task, 5, geometry, steps=1200))
    # the control: resuming with the wrong step index changes the ℓ∞ iterates (its steps shrink with t)
    if geometry == "linf":
        assert not np.array_equal(steepest_descent(pe, task, 5, geometry, steps=1200, start=(0, middle)), resumed)
    with pytest.raises(SpecError, match="invalid start"):
        steepest_descent(pe, task, 5, geometry, steps=10, start=(11, middle))
