"""E1: read sets and streams of stacked positional hard-attention layers, and β^(K)."""

from fractions import Fraction

import numpy as np
import pytest

from posreal.theory.depth import depth_bound, read_sets, streams
from posreal.theory.errors import SpecError
from posreal.theory.expressivity import static_routing_bound


def test_read_sets_of_a_previous_token_stack():
    maps = [[max(i - 1, 0) for i in range(6)], [max(i - 2, 0) for i in range(6)]]
    sets = read_sets(maps, 6)
    assert sets[5] == {5, 4, 3, 2} and sets[1] == {1, 0} and all(len(s) <= 4 for s in sets)


def test_streams_depend_on_the_read_set_only():
    rng = np.random.default_rng(3)
    for _ in range(100):
        n, depth = int(rng.integers(2, 10)), int(rng.integers(1, 4))
        maps = [[int(rng.integers(0, i + 1)) for i in range(n)] for _ in range(depth)]
        sets = read_sets(maps, n)
        x = rng.integers(0, 3, size=n)
        for i in range(n):
            y = x.copy()
            inside = sorted(sets[i])
            y[[p for p in range(n) if p not in sets[i]]] = 9
            assert streams(y, maps)[i] == streams(x, maps)[i]
            y[inside[0]] = 7                                   # a change inside the set moves the stream
            assert streams(y, maps)[i] != streams(x, maps)[i]


def test_bad_route_maps_are_refused():
    with pytest.raises(SpecError):
        read_sets([[0, 2]], 2)                                   # route(1) = 2 > 1
    with pytest.raises(SpecError):
        read_sets([[0, 0], [0]], 2)


def test_beta_k_for_sorting_addition_and_the_content_free_control():
    for spec in ("sort", "addition"):
        for depth in range(4):
            assert depth_bound(spec, 6, 2, depth).below_one == (2 ** depth < 6)
    assert all(b == 1 for b in depth_bound("permutation", 6, 2, 0).beta)
    sort1 = depth_bound("sort", 6, 2, 1)
    assert sort1.beta[0] == Fraction(63, 64)                 # min of 6 bits from two of them: wrong iff all ones
    static = static_routing_bound("sort", 6, 2).beta
    assert all(a >= s for a, s in zip(depth_bound("sort", 6, 2, 0).beta, static))
    assert any(a > s for a, s in zip(depth_bound("sort", 6, 2, 0).beta, static))   # a readout helps


def test_monte_carlo_states_its_seed_and_is_below_one():
    mc = depth_bound("sort", 10, 2, 2, method="monte-carlo", samples=5000, seed=11)
    assert mc.seed == 11 and mc.samples == 5000 and mc.below_one
    assert mc.to_json()["method"] == "monte-carlo"


def test_bad_depth_is_one_line():
    with pytest.raises(SpecError):
        depth_bound("sort", 4, 2, -1)


def test_the_depth_bound_keeps_its_vocabulary_and_names_its_fields():
    bound = depth_bound("sort", 5, 3, 1)
    assert bound.vocab == 3
    doc = bound.to_json()
    assert doc["vocab"] == 3 and doc["depth"] == 1 and doc["length"] == 5
    assert set(doc) == {"task", "length", "vocab", "depth", "method", "rows", "beta", "argmax", "seed", "samples",
                        "stderr"}


# Exists because a mutant survived: the Monte Carlo standard error sqrt(β(1-β)/N) was unchecked.
def test_monte_carlo_standard_error_is_the_binomial_one_and_covers_the_exact_beta():
    import math
    n_samples = 2000
    mc = depth_bound("sort", 8, 2, 1, method="monte-carlo", samples=n_samples, seed=3)
    exact = depth_bound("sort", 8, 2, 1)                                   # all 2^8 inputs
    assert len(mc.stderr) == len(mc.beta) == len(exact.beta) == 8
    for b, e, want in zip(mc.beta, mc.stderr, exact.beta):
        assert b * n_samples == pytest.approx(round(b * n_samples), abs=1e-9)   # a count of N draws
        assert e == pytest.approx(math.sqrt(b * (1 - b) / n_samples), rel=1e-12)  # binomial: β̂(1-β̂)/N
        assert abs(float(want) - b) <= 4 * e                                # the exact β within 4 standard errors
    assert mc.to_json()["stderr"] == mc.stderr
    free = depth_bound("permutation", 6, 2, 0, method="monte-carlo", samples=500, seed=1)   # control: β = 1
    assert free.beta == [1.0] * 6 and free.stderr == [0.0] * 6 and not free.below_one
    assert exact.to_json()["stderr"] is None                                # enumeration has no standard error
    with pytest.raises(SpecError, match=r"^invalid depth K -1; accepted: an integer from 0 to 16$"):
        depth_bound("sort", 4, 2, -1)
