"""Gradient descent on the positional cross-entropy aligns with θ* (Soudry et al.); its recorded steps and
cosines, its default step 1/β, the loss of rows far apart, and its one-line errors."""

from fractions import Fraction as F
import numpy as np
import pytest

from cases import GD_CELLS
from certificate_edits import message as _message
from posreal.theory import gradient_descent, parse_pe, parse_task, select
from posreal.theory.errors import SpecError
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


# --------------------------------------------------------- gradient descent: records, defaults and bad input
# Exists because a mutant survived: the steps gradient descent records were unchecked.
def test_gradient_descent_records_log_spaced_steps_and_the_ends():
    # geomspace(1, 10, 3) = 1, 3.16, 10 -> steps {1, 3, 10}, plus k = 0
    assert gradient_descent("relbias", "offset:1", 4, steps=10, record=3).steps.tolist() == [0, 1, 3, 10]
    # record < 2 still records two log-spaced marks: geomspace(1, 10, 2) = 1, 10
    assert gradient_descent("relbias", "offset:1", 4, steps=10, record=1).steps.tolist() == [0, 1, 10]
    assert gradient_descent("relbias", "offset:1", 4, steps=1, record=50).steps.tolist() == [0, 1]


# Exists because a mutant survived: the recorded cosine to θ* was unchecked.
def test_gradient_descent_cosine_to_the_selected_parameters():
    theta_star = np.array([-0.25, 0.75, -0.25, -0.25])           # θ* of relbias:3 · offset:1 at L0 = 4 (above)
    from_zero = gradient_descent("relbias", "offset:1", 4, steps=2, record=2)
    assert np.isnan(from_zero.cosines[0])                        # θ_0 = 0 has no direction
    assert np.array_equal(from_zero.thetas[0], np.zeros(4))
    from_star = gradient_descent("relbias", "offset:1", 4, steps=1, record=2, theta0=3 * theta_star)
    assert from_star.cosines[0] == pytest.approx(1.0, abs=1e-12)
    from_opposite = gradient_descent("relbias", "offset:1", 4, steps=1, record=2, theta0=-theta_star)
    assert from_opposite.cosines[0] == pytest.approx(-1.0, abs=1e-12)
    # a direction orthogonal to θ*: cosine 0 (θ*·(1, 1, 1, 1) = 0)
    assert gradient_descent("relbias", "offset:1", 4, steps=1, record=2,
                            theta0=np.ones(4)).cosines[0] == pytest.approx(0.0, abs=1e-12)


# Exists because a mutant survived: the cosine of θ = 0 could be computed as 0/0 (nan, with numpy's warning).
def test_cosine_of_the_zero_iterate_is_nan_without_a_warning():
    """θ_0 = 0 has no direction: its cosine to θ* is nan, decided before dividing (no RuntimeWarning)."""
    import warnings
    with warnings.catch_warnings():
        warnings.simplefilter("error", RuntimeWarning)
        traj = gradient_descent("relbias", "offset:1", 4, steps=1, record=2)
    assert np.isnan(traj.cosines[0]) and np.array_equal(traj.thetas[0], np.zeros(4))
    assert np.isfinite(traj.cosines[1])


# Exists because a mutant survived: a zero θ* (nb = 0) could reach the division 0/0 (nan, with numpy's warning).
def test_cosine_to_a_zero_selected_theta_is_nan_without_a_warning():
    """relbias · position:0 at L0 = 1 scores one row with one key: no constraint, so θ* = 0 and has no direction."""
    import warnings
    sel = select("relbias", "position:0", 1)
    assert sel.realizable and np.array_equal(sel.theta, np.zeros(1))
    with warnings.catch_warnings():
        warnings.simplefilter("error", RuntimeWarning)
        traj = gradient_descent("relbias", "position:0", 1, steps=1, record=2, theta0=np.ones(1))
    assert np.array_equal(traj.thetas[0], np.ones(1)) and np.isnan(traj.cosines).all()


# Exists because a mutant survived: the default step 1/β was unchecked.
def test_default_step_is_one_over_the_smoothness_bound():
    # relbias:3 · offset:1 at L0 = 4: rows 1..3, one-hot features, max_j ‖ψ(i, j)‖² = 1 per row: β = 3
    assert gradient_descent("relbias", "offset:1", 4, steps=1).step_size == pytest.approx(1 / 3, rel=1e-15)
    # alibi · offset:1 at L0 = 4: ψ(i, j) = -(i - j), max_j ‖ψ‖² = i² on rows 1..3: β = 1 + 4 + 9 = 14
    assert gradient_descent("alibi", "offset:1", 4, steps=1).step_size == pytest.approx(1 / 14, rel=1e-15)
    # nope has no features (β = 0): the bound's floor 1e-12 keeps the step finite
    assert gradient_descent("nope", "offset:1", 4, steps=1).step_size == pytest.approx(1e12, rel=1e-15)


# Exists because a mutant survived: gradient descent at train length 1 was never run.
def test_gradient_descent_at_train_length_one():
    from posreal.theory.training import gradient_descent

    # L0 = 1: the one row i = 0 has the one key 0: the loss is log 1 = 0 and θ never moves
    traj = gradient_descent("relbias", "position:0", 1, steps=3)
    assert traj.steps.tolist() == [0, 1, 2, 3]
    assert traj.losses.tolist() == [0.0] * 4 and traj.thetas.tolist() == [[0.0]] * 4
    assert _message(lambda: gradient_descent("relbias", "position:0", 0, steps=3)) == \
        "invalid train length 0; accepted: an integer >= 1"


# Exists because a mutant survived: gradient descent could iterate on θ0 as Fractions.
def test_gradient_descent_starts_from_theta0_as_floats() -> None:
    """θ0 is taken as a float array, so starting from the exact θ* (Fractions) gives float64 iterates,
    the same as starting from their float values (on an object array of Fractions the loss's ``np.exp``
    raises TypeError)."""
    from posreal.theory.selection import select
    from posreal.theory.training import gradient_descent

    exact = select("relbias", "offset:1", 4, mode="exact").exact_theta
    assert exact is not None and all(isinstance(x, F) for x in exact)
    from_exact = gradient_descent("relbias", "offset:1", 4, steps=3, theta0=exact)  # type: ignore[arg-type]
    from_floats = gradient_descent("relbias", "offset:1", 4, steps=3, theta0=np.array([float(x) for x in exact]))
    assert from_exact.thetas.dtype == np.float64
    assert np.array_equal(from_exact.thetas, from_floats.thetas)
    assert np.array_equal(from_exact.losses, from_floats.losses)


# Exists because a mutant survived: the loss could subtract another row's maximum logit.
def test_loss_uses_each_rows_own_max_logit():
    """colbias:1 (ψ(i, j) = e_min(j, 1)), position:0 at length 2: row 0 has the one key 0, row 1 keys 0, 1,
    target key 0.  At θ = (0, 1000): row 0's loss is log e⁰ - 0 = 0; row 1's is log(e⁰ + e¹⁰⁰⁰) - 0 =
    1000 + log(1 + e⁻¹⁰⁰⁰) = 1000 in floats.  Gradient Σ_i (Σ_j a_ij ψ(i, j) - ψ(i, t)): row 0 gives
    e_0 - e_0 = 0, row 1 (a = (e⁻¹⁰⁰⁰, 1) / (1 + e⁻¹⁰⁰⁰)) gives e_1 - e_0 up to e⁻¹⁰⁰⁰."""
    grid = training_grid("colbias:1", "position:0", 2, 2)
    loss, grad = grid.loss_and_grad(np.array([0.0, 1000.0]))
    assert loss == pytest.approx(1000.0, rel=1e-15)
    assert grad == pytest.approx([-1.0, 1.0], abs=1e-15)


# Exists because a mutant survived: gradient descent's error for a bad step size was unchecked.
def test_gradient_descent_refuses_a_bad_step_size():
    for bad in (0.0, -1.0, float("inf")):
        with pytest.raises(SpecError) as err:
            gradient_descent("relbias", "offset:1", 4, steps=1, step_size=bad)
        assert str(err.value) == f"invalid step size {bad!r}; accepted: a finite number > 0"


# Exists because a mutant survived: gradient descent's error for a bad θ0 shape was unchecked.
def test_gradient_descent_names_a_bad_initial_shape():
    from posreal.theory.training import gradient_descent

    assert _message(lambda: gradient_descent("relbias", "offset:1", 4, steps=3, theta0=np.zeros(5))) == \
        "invalid theta0 shape (5,); accepted: (4,), the PE's parameter count at L0 = 4"
