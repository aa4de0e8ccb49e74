"""Static routing bound β (posreal.theory.expressivity): exact enumeration against an independent
brute force and closed forms, Monte Carlo reproducibility and accuracy, the controls, bad
input, and the enumeration check of claim ``expressivity``; the content tasks themselves (boundaries,
visibility, names, exact carries of the adder) and the β documents."""

import itertools
from fractions import Fraction

import numpy as np
import pytest

from posreal.checks.base import COUNTEREXAMPLE, PASSED
from posreal.checks.smt.static_routing import beta_check
from posreal.theory.errors import SpecError
from posreal.theory.expressivity import MAX_ENUMERATION, content_task, static_routing_bound
from posreal.theory.defaults import REGISTRY_TASKS
from posreal.theory.tasks import parse_task
from certificate_edits import message as _message


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


# Exists because a mutant survived: the β document's instance fields were never read back.
def test_a_beta_document_names_the_instance_it_was_computed_on():
    """From its JSON alone (task, length, vocab, method, seed, samples) the run is reproduced: the same document;
    the enumeration document's β are the brute-force fractions."""
    mc = static_routing_bound("sort", 3, 2, method="monte-carlo", samples=2000, seed=5).to_json()
    again = static_routing_bound(mc["task"], mc["length"], mc["vocab"], method=mc["method"], samples=mc["samples"],
                                 seed=mc["seed"])
    assert again.to_json() == mc and again.length == 3
    exact = static_routing_bound("sort", 3, 2).to_json()
    assert (exact["task"], exact["length"], exact["vocab"], exact["method"]) == ("sort", 3, 2, "enumeration")
    expected = brute_beta(lambda x: sorted(x), exact["length"], exact["vocab"], lambda r: range(exact["length"]))
    assert exact["beta"] == [f"{b.numerator}/{b.denominator}" for b in expected]


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


# --------------------------------------------------------------------------- content tasks
# Exists because a mutant survived: content_task at length 1, vocabulary 2 and its refusals was unchecked.
def test_content_task_boundaries():
    assert content_task("sort", 1, 2).rows == (0,)
    with pytest.raises(SpecError, match="invalid length 0"):
        content_task("sort", 0, 2)
    with pytest.raises(SpecError, match="invalid vocabulary size 1"):
        content_task("sort", 3, 1)
    with pytest.raises(SpecError, match="invalid visibility 'some'"):
        content_task("sort", 3, 2, visible="some")
    with pytest.raises(SpecError, match="invalid length for addition 3"):
        content_task("addition", 3, 2)


# Exists because a mutant survived: the default and explicit visibility of content tasks was unchecked.
@pytest.mark.parametrize("spec, default_visible", [("sort", 4), ("addition", 4), ("permutation", 4),
                                                   ("successor", 2), ("offset:1", 2)])
def test_content_task_visibility(spec, default_visible):
    # on row 1 of a length-4 input: "all" sees the 4 positions, "causal" sees positions 0 and 1
    assert list(content_task(spec, 4, 2).visible(1)) == list(range(default_visible))
    assert list(content_task(spec, 4, 2, visible="all").visible(1)) == [0, 1, 2, 3]
    assert list(content_task(spec, 4, 2, visible="causal").visible(1)) == [0, 1]


# Exists because a mutant survived: the successor task's name was unchecked.
def test_the_successor_task_is_named():
    """successor: F(x)_i = (x_i + 1) mod V, named ``successor`` (the name reported as ``task``)."""
    task = content_task("successor", 3, 2)
    assert task.name == "successor"
    assert task.fn(np.array([[0, 1, 1]])).tolist() == [[1, 0, 0]]
    assert static_routing_bound("successor", 2, 2).task == "successor"


# Exists because a mutant survived: the sort task's name was unchecked.
def test_sort_task_is_named_sort():
    """The task's name is its spec."""
    from posreal.theory.expressivity import content_task, static_routing_bound

    assert content_task("sort", 3, 2).name == "sort"
    assert static_routing_bound("sort", 3, 2).task == "sort"


# Exists because a mutant survived: the adder's carries could be computed in float.
def test_adder_carries_exactly_for_a_large_base():
    from posreal.theory.expressivity import _adder

    # one digit per number in base 2**60: (2**60 - 1) + (2**60 - 1) = 1·2**60 + (2**60 - 2); float carries would round
    base = 2 ** 60
    assert _adder(1, base)(np.array([[base - 1, base - 1]], dtype=np.int64)).tolist() == [[base - 2, 1]]


# ----------------------------------------------------------------------- β by enumeration and by Monte Carlo
# Exists because a mutant survived: β of the successor task was not checked by hand.
def test_successor_beta_by_hand():
    # F(x)_i = x_i + 1 mod 2 on two bits: P[x_i = F(x)_i] = 0, P[x_j = F(x)_i] = 1/2 for j ≠ i.
    causal = static_routing_bound("successor", 2, 2)
    assert causal.method == "enumeration" and causal.beta == [Fraction(0), Fraction(1, 2)]
    assert static_routing_bound("successor", 2, 2, visible="all").beta == [Fraction(1, 2), Fraction(1, 2)]


# Exists because a mutant survived: the JSON form of enumerated and sampled β was unchecked.
def test_enumerated_beta_is_written_as_rationals_and_sampled_beta_as_floats():
    exact = static_routing_bound("successor", 2, 2).to_json()
    assert exact["beta"] == ["0/1", "1/2"] and exact["method"] == "enumeration" and exact["stderr"] is None
    sampled = static_routing_bound("successor", 2, 2, method="monte-carlo", samples=400, seed=1).to_json()
    assert all(isinstance(b, float) for b in sampled["beta"]) and sampled["samples"] == 400


# Exists because a mutant survived: the result's vocabulary and its argmax key could be lost.
def test_static_routing_keeps_vocab_and_argmax_key():
    result = static_routing_bound("sort", 2, 3, method="enumeration")
    assert result.vocab == 3
    doc = result.to_json()
    assert doc["vocab"] == 3 and doc["argmax"] == result.argmax and "ARGMAX" not in doc
    assert len(doc["argmax"]) == len(doc["rows"]) == 2


# Exists because a mutant survived: the Monte Carlo result's vocabulary was unchecked.
def test_monte_carlo_bound_reports_its_vocabulary() -> None:
    """The Monte Carlo result carries the vocabulary it sampled from (not None)."""
    result = static_routing_bound("copy", 6, 3, method="monte-carlo", samples=200, seed=1)
    assert result.method == "monte-carlo" and result.vocab == 3
    assert result.to_json()["vocab"] == 3


# Exists because a mutant survived: the rows of a Monte Carlo result were never read.
def test_monte_carlo_bound_lists_the_output_rows() -> None:
    """Addition of two 2-digit numbers (length 4) has 3 output digits: rows 0, 1, 2, one β, stderr and argmax each."""
    result = static_routing_bound("addition", 4, 2, method="monte-carlo", samples=100, seed=1)
    assert result.rows == [0, 1, 2]
    doc = result.to_json()
    assert doc["rows"] == [0, 1, 2] and len(doc["beta"]) == len(doc["stderr"]) == len(doc["argmax"]) == 3


# Exists because a mutant survived: Monte Carlo with no samples was never refused.
def test_monte_carlo_without_samples_is_refused_in_one_line():
    with pytest.raises(SpecError, match=r"^invalid samples 0; accepted: an integer >= 1$"):
        static_routing_bound("successor", 3, 2, method="monte-carlo", samples=0)


# Exists because a mutant survived: the error for a bad method could drop the method.
def test_static_routing_bound_names_the_refused_method() -> None:
    """The message quotes the method given."""
    text = _message(lambda: static_routing_bound("successor", 2, 2, method="exhaustive"))
    assert text == "invalid method 'exhaustive'; accepted: auto, enumeration, monte-carlo"


# Exists because a mutant survived: enumeration exactly at MAX_ENUMERATION could be refused.
@pytest.mark.parametrize("method", ["auto", "enumeration"])
def test_enumeration_bound_is_inclusive(method: str) -> None:
    """V^n = MAX_ENUMERATION (1024² = 2^20) is enumerated.
    successor, causal rows 0 and 1: row 0 sees only x_0 ≠ x_0 + 1, so β_0 = 0; row 1 sees x_0 = x_1 + 1
    (mod V) with probability 1/V, so β_1 = 1/1024, at position 0."""
    assert 1024 ** 2 == MAX_ENUMERATION
    out = static_routing_bound("successor", 2, 1024, method=method)
    assert out.method == "enumeration"
    assert out.beta == [Fraction(0), Fraction(1, 1024)] and out.argmax == [0, 0]


# Exists because a mutant survived: enumeration one input past MAX_ENUMERATION was never refused.
def test_enumeration_refuses_one_more_input_than_the_bound() -> None:
    size = 1025 ** 2
    assert size > MAX_ENUMERATION
    text = _message(lambda: static_routing_bound("successor", 2, 1025, method="enumeration"))
    assert text == (f"invalid enumeration size vocab**length {size}; "
                    f"accepted: at most {MAX_ENUMERATION} (use monte-carlo)")
