"""Tests of the batched trainer (posreal.experiment.batched) and its optimizers: one computation
with a model axis gives every model the result it gets alone and the result of the one-by-one
reference trainer; the memory model bounds what a training step really allocates; batches
are planned within the budget; the recipes' optimizers take the steps their definitions say."""

from __future__ import annotations

import tracemalloc

import numpy as np
import pytest
import posreal.experiment.batched as batched
from posreal.experiment.batched import (
    PARAMS,
    BatchShape,
    Member,
    batch_data,
    batch_loss_and_grads,
    model_bytes,
    train_batch,
)
from posreal.experiment.grid import QUICK, model_jobs, predictions
from posreal.experiment.model import geometry, loss_and_grads
from posreal.experiment.optim import NormalizedGD, Signum, make_optimizer
from posreal.experiment.recipes import RECIPES, parse_recipes
from posreal.experiment.runner import plan_batches, run_batch
from posreal.experiment.train import stable_seed, train_model
from posreal.theory.pe_specs import parse_pe
from posreal.theory.errors import SpecError
from posreal.theory.tasks import parse_task

MIXED = [Member(pe, task, seed) for pe in ("relbias", "rope:16", "abscol:16")
         for task in ("offset:1", "copy", "half", "position:1") for seed in (0, 1)]
FLOAT_TOL = 1e-9   # relative, records of batched and one-by-one training (observed: bitwise equal)


def _random_params(K: int, V: int, d: int, p: int, seed: int) -> dict[str, np.ndarray]:
    rng = np.random.default_rng(seed)
    return {"U": rng.standard_normal((K, V, d)), "W_V": rng.standard_normal((K, d, d)) / np.sqrt(d),
            "W_O": rng.standard_normal((K, d, V)) / np.sqrt(d), "theta": rng.standard_normal((K, p))}


def test_batched_gradients_equal_the_reference_per_model():
    """Mixed PEs and tasks in one batch: loss and every gradient of each model equal
    posreal.experiment.model.loss_and_grads on that model alone (float64)."""
    K, V, d, n = len(MIXED), 11, 6, 16
    params = _random_params(K, V, d, 16, 0)
    x = np.random.default_rng(1).integers(0, V, size=(K, 5, n))              # (K, B, n)
    loss, grads = batch_loss_and_grads(params, batch_data(MIXED, n), x)
    for k, m in enumerate(MIXED):
        geom = geometry(parse_pe(m.pe), parse_task(m.task), n, n)
        ref_loss, ref = loss_and_grads({name: params[name][k] for name in PARAMS}, geom, x[k])
        assert loss[k] == pytest.approx(ref_loss, rel=1e-12)
        for name in PARAMS:
            np.testing.assert_allclose(grads[name][k], ref[name], rtol=1e-9, atol=1e-12)


def test_batched_gradients_catch_a_swapped_target():
    """Negative control of the test above: a batch whose task table is shifted by one model fails it."""
    K, V, d, n = len(MIXED), 11, 6, 16
    params = _random_params(K, V, d, 16, 0)
    x = np.random.default_rng(1).integers(0, V, size=(K, 5, n))
    data = batch_data(MIXED, n)
    data.targets = np.roll(data.targets, 1, axis=0)
    data.weights = np.roll(data.weights, 1, axis=0)
    loss, _ = batch_loss_and_grads(params, data, x)
    k = next(i for i, m in enumerate(MIXED) if m.task == "copy")   # now scored with offset:1's rows and targets
    assert MIXED[k - 1].task == "offset:1"
    geom = geometry(parse_pe(MIXED[k].pe), parse_task(MIXED[k].task), n, n)
    ref_loss, _ = loss_and_grads({name: params[name][k] for name in PARAMS}, geom, x[k])
    assert abs(loss[k] - ref_loss) > 1e-6


@pytest.mark.parametrize("shape", [(3, 64), (2, 5, 7), (4, 1), (1, 2, 3, 33), (6, 2)])
def test_row_max_is_numpys_maximum_over_the_last_axis(shape):
    """Pairwise maxima of halves, odd widths included, equal ``max(axis=-1)`` exactly (also with -inf)."""
    Z = np.random.default_rng(sum(shape)).standard_normal(shape)
    Z.reshape(-1)[::3] = -np.inf
    assert np.array_equal(batched.row_max(Z), Z.max(axis=-1))
    assert np.array_equal(batched.row_max(Z.astype(np.float32)), Z.astype(np.float32).max(axis=-1))


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_large_logit_spread_stays_finite_and_equals_the_reference(monkeypatch, dtype):
    """A spread of M far beyond exp's range: each logit row is shifted by its own maximum, so the loss and
    gradients stay finite and are the reference's; negative control: without the shift (row maxima
    replaced by 0) the same model's loss is not the reference's."""
    K, V, d, n = 2, 5, 4, 16
    params = {k: v.astype(dtype) for k, v in _random_params(K, V, d, 16, 2).items()}
    params["W_O"][0] *= 1e4 if dtype == np.float64 else 1e3                  # spread of M far beyond exp's range
    x = np.random.default_rng(3).integers(0, V, size=(K, 4, n))
    data = batch_data(MIXED[:2], n, dtype)
    loss, grads = batch_loss_and_grads(params, data, x)
    geom = geometry(parse_pe(MIXED[0].pe), parse_task(MIXED[0].task), n, n)
    ref_loss, ref = loss_and_grads({name: params[name][0].astype(np.float64) for name in PARAMS}, geom, x[0])
    assert ref_loss > 1e2                                                     # the spread is real
    rel = 1e-9 if dtype == np.float64 else 1e-4
    assert np.isfinite(loss).all() and loss[0] == pytest.approx(ref_loss, rel=rel)
    np.testing.assert_allclose(grads["theta"][0], ref["theta"], rtol=1e3 * rel, atol=1e-12 / rel)
    monkeypatch.setattr(batched, "row_max", lambda Z: np.zeros(Z.shape[:-1], dtype=Z.dtype))
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        unsafe, _ = batch_loss_and_grads(params, data, x)
    assert not unsafe[0] == pytest.approx(ref_loss, rel=rel)


@pytest.mark.parametrize("name", [n for n, r in RECIPES.items() if not r.positional])   # token recipes
def test_batched_training_equals_the_one_by_one_reference(name):
    """float64, 40 steps of each recipe: the batched trainer reproduces train_model per model."""
    recipe = RECIPES[name].with_changes(steps=40, dtype="float64")
    V, d = 9, 8
    members = MIXED[::3]
    trained = train_batch(members, BatchShape(V, d, 16, recipe))
    for k, m in enumerate(members):
        params, loss = train_model(parse_pe(m.pe), parse_task(m.task), V, d, recipe,
                                   stable_seed(m.pe, m.task, V, d, m.seed))
        assert trained.final_loss[k] == pytest.approx(loss, rel=1e-9)
        for p in PARAMS:
            np.testing.assert_allclose(trained.params[p][k], params[p], rtol=1e-8, atol=1e-10)


def _strip(records: list[dict]) -> dict:
    return {(r["recipe"]["name"], r["pe"], r["task"], r["vocab"], r["width"], r["seed"], r["length"]):
            {k: v for k, v in r.items() if k not in ("seconds", "timestamp")} for r in records}


def _close(a: object, b: object) -> bool:
    if isinstance(a, float) and isinstance(b, float):
        return abs(a - b) <= FLOAT_TOL * max(1.0, abs(a), abs(b))
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(_close(x, y) for x, y in zip(a, b))
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(_close(a[k], b[k]) for k in a)
    return a == b


@pytest.fixture(scope="module")
def small_grid():
    grid = QUICK.with_recipes(parse_recipes("token")).with_recipe(steps=60)   # the batched (token) trainer
    return grid, model_jobs(grid, predictions(grid))


def test_records_do_not_depend_on_the_batch(small_grid):
    """The quick grid (every recipe, 60 steps, float32 as in the runs) trained in batches as large as
    the budget allows and one model per batch gives the same records, to FLOAT_TOL relative."""
    _, jobs = small_grid
    big = plan_batches(jobs, 2 ** 30, cache_bytes=2 ** 30)
    single = plan_batches(jobs, 1)
    assert max(len(b.jobs) for b in big) > 1 and all(len(b.jobs) == 1 for b in single)
    batched = _strip([r for b in big for r in run_batch(b)])
    alone = _strip([r for b in single for r in run_batch(b)])
    assert batched.keys() == alone.keys() and len(batched) == 3 * QUICK.size
    bad = [k for k in batched if not _close(batched[k], alone[k])]
    assert not bad, bad[:3]
    # negative control: the comparison sees a changed seed
    shifted = [j.__class__(**{**j.__dict__, "seed": j.seed + 1}) for j in single[0].jobs]
    other = _strip(run_batch(single[0].__class__(single[0].shape, tuple(shifted))))
    k0 = next(iter(_strip(run_batch(single[0]))))
    k1 = (k0[0], k0[1], k0[2], k0[3], k0[4], k0[5] + 1, k0[6])
    assert not _close({**other[k1], "seed": k0[5]}, batched[k0])


def test_plan_batches_groups_by_shape_and_respects_the_budget(small_grid):
    grid, jobs = small_grid
    recipe = grid.recipes[0]
    per_model = model_bytes(16, 32, 16, recipe, itemsize=4)
    for budget in (2 ** 30, 3 * per_model, 1):
        batches = plan_batches(jobs, budget)
        seen = [j for b in batches for j in b.jobs]
        assert sorted(map(repr, seen)) == sorted(map(repr, jobs))          # every model exactly once
        for b in batches:
            assert {(j.recipe, j.vocab, j.width, parse_pe(j.pe).dim(16)) for j in b.jobs} == {
                (b.shape.recipe, b.shape.vocab, b.shape.width, b.shape.dim)}
            assert len(b.jobs) == 1 or len(b.jobs) * model_bytes(b.shape.vocab, b.shape.width, b.shape.dim,
                                                                  b.shape.recipe, 4) <= budget
    assert len(plan_batches(jobs, 3 * per_model)) > len(plan_batches(jobs, 2 ** 30))


def test_plan_batches_caps_the_working_set_of_a_step(small_grid):
    """The cache cap splits a group the memory budget would keep whole; it never merges groups."""
    _, jobs = small_grid
    roomy = plan_batches(jobs, 2 ** 30, cache_bytes=2 ** 30)
    shape = roomy[0].shape
    per_model = model_bytes(shape.vocab, shape.width, shape.dim, shape.recipe, itemsize=4)
    capped = plan_batches(jobs, 2 ** 30, cache_bytes=2 * per_model)
    assert max(len(b.jobs) for b in roomy) > 2
    assert max(len(b.jobs) for b in capped) <= 2 < max(len(b.jobs) for b in roomy)
    assert sorted(repr(j) for b in capped for j in b.jobs) == sorted(repr(j) for b in roomy for j in b.jobs)
    assert len({b.shape for b in capped}) == len({b.shape for b in roomy})


def test_a_batch_of_several_theta_widths_is_refused():
    with pytest.raises(SpecError, match="θ width"):
        batch_data([Member("relbias", "copy", 0), Member("alibi", "copy", 0)], 16)


@pytest.mark.parametrize("V, d", [(8, 16), (64, 128)])
def test_memory_model_bounds_a_training_step(V, d):
    """tracemalloc's peak over one loss-and-gradient step and one optimizer step of a batch
    stays within K × model_bytes, and is not far below it (the model is not vacuous)."""
    recipe = RECIPES["adam"]
    K = 12
    members = [Member("relbias", t, s) for t in ("offset:1", "half", "copy") for s in range(4)]
    data = batch_data(members, 16, np.float32)
    params = {k: v.astype(np.float32) for k, v in _random_params(K, V, d, 16, 5).items()}
    opt = make_optimizer(recipe, model_axis=True)
    x = np.random.default_rng(0).integers(0, V, size=(K, recipe.batch, 16))
    _, grads = batch_loss_and_grads(params, data, x)
    opt.step(params, grads)                                      # optimizer state exists from here on
    del grads
    tracemalloc.start()
    _, grads = batch_loss_and_grads(params, data, x)
    opt.step(params, grads)
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    budget = K * model_bytes(V, d, 16, recipe, itemsize=4)
    assert peak <= budget, (peak, budget)
    assert peak >= budget / 8, (peak, budget)


def test_signum_steps_by_the_sign_of_the_momentum():
    params = {"w": np.array([[1.0, -2.0, 0.5]])}
    opt = Signum(lr=0.1, beta=0.9)
    opt.step(params, {"w": np.array([[3.0, -0.01, 0.0]])})
    np.testing.assert_allclose(params["w"], [[0.9, -1.9, 0.5]])
    opt.step(params, {"w": np.array([[-1.0, 1.0, 0.0]])})        # m = 0.9·0.1·g1 + 0.1·g2
    np.testing.assert_allclose(params["w"], [[0.8, -2.0, 0.5]])  # m = 0.17 > 0 and 0.0991 > 0: both step down


def test_normalized_gd_moves_each_model_block_by_lr_along_the_gradient():
    params = {"w": np.zeros((2, 3)), "b": np.zeros((2, 1))}
    grads = {"w": np.array([[3.0, 4.0, 0.0], [0.0, 0.0, 0.0]]), "b": np.array([[-2.0], [5.0]])}
    NormalizedGD(lr=0.5, model_axis=True).step(params, grads)
    np.testing.assert_allclose(params["w"], [[-0.3, -0.4, 0.0], [0.0, 0.0, 0.0]])   # zero gradient: no step
    np.testing.assert_allclose(params["b"], [[0.5], [-0.5]])


def test_recipes_are_fixed_and_parse():
    assert [r.name for r in parse_recipes("all")] == ["adam", "signum", "gd", "gd-positional", "signum-positional"]
    assert [r.name for r in parse_recipes("token")] == ["adam", "signum", "gd"]
    assert [r.name for r in parse_recipes("positional")] == ["gd-positional", "signum-positional"]
    assert [r.name for r in parse_recipes("gd,adam")] == ["gd", "adam"]
    assert parse_recipes("gd")[0].optimizer.value == "gd"
    with pytest.raises(SpecError, match="distinct"):
        parse_recipes("gd,gd")
    with pytest.raises(SpecError, match="recipe"):
        parse_recipes("sgd")
    adam = RECIPES["adam"]
    assert (adam.lr, adam.steps) == (0.02, 1500)


@pytest.mark.subprocess
def test_two_jobs_write_the_records_of_one_job(tmp_path):
    """A process pool trains batches as units and the parent saves them: the same records as one job."""
    from posreal.experiment.runner import RUN_FILE, read_run_file, run_grid
    grid = QUICK.with_recipes(parse_recipes("all")).with_recipe(steps=20)
    one = _strip(run_grid(grid, tmp_path / "one", jobs=1))
    two = _strip(run_grid(grid, tmp_path / "two", jobs=2))
    assert one.keys() == two.keys() and all(_close(one[k], two[k]) for k in one)
    run = read_run_file(tmp_path / "two" / RUN_FILE)["runs"][-1]
    assert run["jobs"] == 2 and run["models_trained"] == grid.size // len(grid.multipliers)   # every recipe
    assert run["batches"] >= 2 and run["peak_rss_mib"]["largest_child"] > 0 and run["cpu_seconds"] > 0
