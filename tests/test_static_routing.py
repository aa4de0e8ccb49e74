"""Static routing bound β (posreal.theory.expressivity): exact enumeration against an independent
brute force and closed forms, Monte Carlo reproducibility and accuracy, the controls, bad
input, and the enumeration check of claim ``expressivity``."""

import itertools
from fractions import Fraction

import pytest

from posreal.checks.base import COUNTEREXAMPLE, PASSED
from posreal.checks.smt.static_routing import beta_check
from posreal.theory.errors import SpecError
from posreal.theory.expressivity import static_routing_bound
from posreal.theory.defaults import REGISTRY_TASKS
from posreal.theory.tasks import parse_task


def brute_beta(F, n, V, visible):
    """β_r = max_j P[x_j = F(x)_r] by a plain loop over all inputs (independent of numpy code)."""
    outs = None
    for x in itertools.product(range(V), repeat=n):
        y = F(x)
        if outs is None:
            outs = [[0] * n for _ in y]
        for r, yr in enumerate(y):
            for j in visible(r):
                outs[r][j] += x[j] == yr
    return [Fraction(max(row[j] for j in visible(r)), V ** n) for r, row in enumerate(outs)]


def add_digits(x, k, V):
    a = sum(d * V ** e for e, d in enumerate(x[:k]))
    b = sum(d * V ** e for e, d in enumerate(x[k:]))
    s = a + b
    return [(s // V ** e) % V for e in range(k + 1)]


@pytest.mark.parametrize("spec", REGISTRY_TASKS + ("dual:copy", "dual:middle"))
@pytest.mark.parametrize("n,V", [(4, 2), (5, 3), (7, 2)])
def test_positional_tasks_have_beta_one(spec, n, V):
    res = static_routing_bound(spec, n, V)
    rows, _ = parse_task(spec).rows_and_targets(n)
    assert res.method == "enumeration" and res.rows == rows.tolist()
    assert all(b == 1 for b in res.beta)


@pytest.mark.parametrize("n,V", [(2, 2), (3, 3), (5, 2), (4, 4)])
def test_sort_matches_brute_force_and_is_below_one(n, V):
    res = static_routing_bound("sort", n, V)
    assert res.beta == brute_beta(lambda x: sorted(x), n, V, lambda r: range(n))
    assert all(b < 1 for b in res.beta)
    # closed form for the minimum: P[x_0 = min x] = (1/V) Σ_v ((V - v)/V)^(n-1), the same for every j
    assert res.beta[0] == sum(Fraction(V - v, V) ** (n - 1) for v in range(V)) / V


@pytest.mark.parametrize("k,V", [(1, 2), (1, 3), (2, 2), (2, 3), (3, 2)])
def test_addition_matches_brute_force_and_is_below_one(k, V):
    res = static_routing_bound("addition", 2 * k, V)
    assert res.beta == brute_beta(lambda x: add_digits(x, k, V), 2 * k, V, lambda r: range(2 * k))
    assert all(b < 1 for b in res.beta)
    if k == 1:   # s_0 = (a + b) mod V: 1/V; carry: P[a = carry] = (V + 1)/V² (a = 0, or a = 1 with b = V - 1)
        assert res.beta == [Fraction(1, V), Fraction(V + 1, V * V)]


def test_causal_visibility_never_raises_beta():
    full = static_routing_bound("sort", 5, 3, visible="all")
    causal = static_routing_bound("sort", 5, 3, visible="causal")
    assert all(c <= f < 1 for c, f in zip(causal.beta, full.beta))


def test_controls():
    assert all(b == 1 for b in static_routing_bound("permutation", 6, 3).beta)    # content-independent
    succ = static_routing_bound("successor", 4, 3)                                  # content-dependent
    assert succ.beta == brute_beta(lambda x: [(v + 1) % 3 for v in x], 4, 3, lambda r: range(r + 1))
    assert succ.beta[0] == 0 and all(b < 1 for b in succ.beta)


def test_monte_carlo_is_seeded_and_close_to_the_exact_value():
    exact = static_routing_bound("sort", 4, 3)
    a = static_routing_bound("sort", 4, 3, method="monte-carlo", samples=40_000, seed=11)
    b = static_routing_bound("sort", 4, 3, method="monte-carlo", samples=40_000, seed=11)
    assert a.beta == b.beta and a.seed == 11 and a.samples == 40_000 and len(a.stderr) == 4
    for est, se, ex in zip(a.beta, a.stderr, exact.beta):
        assert abs(est - float(ex)) < 5 * se + 1e-12


def test_large_instances_switch_to_monte_carlo():
    res = static_routing_bound("addition", 8, 10, samples=20_000)
    assert res.method == "monte-carlo" and res.seed is not None
    assert all(b + 5 * se < 1 for b, se in zip(res.beta, res.stderr))


@pytest.mark.parametrize("kwargs", [dict(spec="sort", length=3, vocab=1), dict(spec="addition", length=3, vocab=2),
                                    dict(spec="bogosort", length=3, vocab=2), dict(spec="sort", length=0, vocab=2),
                                    dict(spec="sort", length=30, vocab=2, method="enumeration"),
                                    dict(spec="sort", length=3, vocab=2, visible="sideways")])
def test_bad_input_raises_spec_error(kwargs):
    with pytest.raises(SpecError):
        static_routing_bound(**kwargs)


def test_enumeration_check_of_claim_expressivity():
    result = beta_check()
    assert result.claim == "expressivity" and result.method == "enumeration"
    assert result.verdict == PASSED, result.detail
    assert result.negative_control == COUNTEREXAMPLE and result.ok


def test_method_is_typed_and_auto_resolves_by_input_count() -> None:
    """``auto`` becomes enumeration up to MAX_ENUMERATION inputs and Monte Carlo beyond; the result
    carries a BetaMethod (never AUTO), written to JSON as its value string."""
    from posreal.theory.expressivity import MAX_ENUMERATION, BetaMethod

    small = static_routing_bound("sort", 3, 2)                                   # 2^3 inputs
    assert small.method is BetaMethod.ENUMERATION and small.to_json()["method"] == "enumeration"
    n = 21                                                                        # 2^21 > MAX_ENUMERATION
    assert 2 ** n > MAX_ENUMERATION
    big = static_routing_bound("sort", n, 2, samples=50, seed=3)
    assert big.method is BetaMethod.MONTE_CARLO and big.to_json()["method"] == "monte-carlo"
    assert static_routing_bound("sort", 3, 2, method=BetaMethod.ENUMERATION).beta == small.beta
    for bad in ("MONTE-CARLO", None, ["auto"]):
        with pytest.raises(SpecError, match=r"^invalid method .*; accepted: auto, enumeration, monte-carlo$"):
            static_routing_bound("sort", 3, 2, method=bad)
