"""Tests that pin exact behaviour the mutation run found unguarded.

* the exact verifiers ``verify_kkt_exact`` and ``verify_farkas_exact`` accept a correct
  certificate and refuse data that breaks exactly one condition (negative multiplier,
  stationarity, primal feasibility, complementarity; negative weight, Σu ≠ 1, Zᵀu ≠ 0);
* boundaries: ``check_train_length`` at 1 and 0, ``content_task`` at length 1 / vocab 2;
* ``_finish_exact``'s fallback (no exact certificate either way) reports the float answer and says so;
* the Monte Carlo standard error of ``monte_carlo_alpha`` (two samples: stderr = (max - min)/2);
* ``gradient_descent``'s recorded steps and its cosine to θ*.

Each expected value is derived in the test (by hand on a small instance, or from an identity),
never copied from the code's output.
"""

from __future__ import annotations

from fractions import Fraction as F

import numpy as np
import pytest
from posreal.theory import selection as selection_module
from posreal.theory.alpha import check_train_length
from posreal.theory.encodings import parse_pe
from posreal.theory.errors import SpecError
from posreal.theory.expressivity import content_task, static_routing_bound
from posreal.theory.selection import (
    Selection,
    select,
    verify_farkas_exact,
    verify_kkt_exact,
)
from posreal.theory.tasks import parse_task
from posreal.theory.training import gradient_descent
from posreal.theory.underdetermination import monte_carlo_alpha, train_block


def _hand_selection(constraints, theta=None, multipliers=None, farkas=None) -> Selection:
    """A Selection carrying only hand-made exact data (what the verifiers read)."""
    zq = [tuple(F(x) for x in z) for z in constraints]
    p = len(zq[0]) if zq else 0
    sel = Selection(parse_pe("relbias"), parse_task("offset:1"), 4, theta is not None, None,
                    None if theta is None else [F(x) for x in theta], np.zeros((len(zq), p)),
                    np.zeros((len(zq), 3), dtype=np.int64), None, exact_constraints=zq)
    if multipliers is not None:
        sel.exact_multipliers = {k: F(v) for k, v in multipliers.items()}
    if farkas is not None:
        sel.certificate = {"farkas_exact": True, "farkas": {k: F(v) for k, v in farkas.items()}}
    return sel


# ------------------------------------------------------------------ verify_kkt_exact
def test_kkt_verifier_accepts_the_selected_parameters_of_a_small_cell():
    # relbias:3 on offset:1 at L0 = 4: the optimum is θ* = (-1/4, 3/4, -1/4, -1/4) with λ = 1/4 on the
    # three differences e_1 - e_δ (δ = 0, 2, 3): θ* = Σ λ z, and ⟨θ*, z⟩ = 3/4 + 1/4 = 1 on each.
    sel = select("relbias", "offset:1", 4, exact=True)
    assert sel.exact_theta == [F(-1, 4), F(3, 4), F(-1, 4), F(-1, 4)]
    assert set(sel.exact_multipliers.values()) == {F(1, 4)}
    assert verify_kkt_exact(sel)


def test_kkt_verifier_accepts_a_zero_multiplier_and_margins_of_exactly_one():
    # z = (1,) and (2,); θ = (1,), λ = (1, 0): stationarity 1·1 = 1, margins 1 and 2, λ ≥ 0 (one λ = 0)
    assert verify_kkt_exact(_hand_selection([(1,), (2,)], theta=(1,), multipliers={0: 1, 1: 0}))
    # λ < 1 is fine: z = (2, 0), θ = (1/2, 0), λ = 1/4 (Σλz = θ, margin 1)
    assert verify_kkt_exact(_hand_selection([(2, 0)], theta=(F(1, 2), 0), multipliers={0: F(1, 4)}))


@pytest.mark.parametrize("constraints, theta, multipliers, broken", [
    ([(1,), (1,)], (1,), {0: 2, 1: -1}, "λ ≥ 0"),                         # Σλz = 1, margins 1: only λ < 0
    ([(1,)], (1,), {0: 2}, "θ = Zᵀλ"),                                    # margin 1, but Σλz = 2 ≠ θ
    ([(1, 0), (F(1, 2), 0)], (1, 0), {0: 1}, "Zθ ≥ 1"),                   # Σλz = θ, second margin 1/2
    ([(2,)], (1,), {0: F(1, 2)}, "λ·(Zθ - 1) = 0"),                       # Σλz = θ, margin 2 > 1 with λ > 0
    ([(1, 0), (0, 1)], (1, 1), {0: 1, 1: 1}, None),                       # correct: both margins 1
    ([(1, 0), (0, 1)], (1, 0), {0: 1}, "Zθ ≥ 1 in the second coordinate"),  # second margin 0
])
def test_kkt_verifier_refuses_data_that_breaks_one_condition(constraints, theta, multipliers, broken):
    assert verify_kkt_exact(_hand_selection(constraints, theta, multipliers)) is (broken is None)


def test_kkt_verifier_refuses_missing_data():
    assert not verify_kkt_exact(_hand_selection([(1,)], theta=None, multipliers={0: 1}))
    assert not verify_kkt_exact(_hand_selection([(1,)], theta=(1,), multipliers=None))
    sel = select("relbias", "offset:1", 4, exact=True)
    sel.exact_constraints = None
    assert not verify_kkt_exact(sel)


def test_kkt_verifier_refuses_a_tampered_real_certificate():
    sel = select("relbias", "offset:1", 4, exact=True)
    sel.exact_theta = [x * 2 for x in sel.exact_theta]                 # margins 2: λ·(Zθ - 1) ≠ 0, Σλz ≠ θ
    assert not verify_kkt_exact(sel)
    sel = select("relbias", "offset:1", 4, exact=True)
    first = min(sel.exact_multipliers)
    sel.exact_multipliers[first] += F(1, 1000)
    assert not verify_kkt_exact(sel)


# ------------------------------------------------------------------ verify_farkas_exact
def test_farkas_verifier_accepts_the_certificate_of_a_not_realizable_cell():
    sel = select("relbias", "reverse", 16, exact=True)
    assert sel.status == "not realizable" and sel.certificate["farkas_exact"]
    assert verify_farkas_exact(sel)


def test_farkas_verifier_accepts_a_hand_certificate_with_a_zero_weight():
    # z = (1, 0), (-1, 0), (5, 1): u = (1/2, 1/2, 0) has Σu = 1 and Zᵀu = 0 in both coordinates
    assert verify_farkas_exact(_hand_selection([(1, 0), (-1, 0), (5, 1)], farkas={0: F(1, 2), 1: F(1, 2), 2: 0}))


@pytest.mark.parametrize("constraints, weights, broken", [
    ([(1,), (-1,)], {0: 1, 1: 1}, "Σu = 1"),                              # Zᵀu = 0, u ≥ 0, Σu = 2
    ([(1,), (1,), (2,)], {0: 2, 1: 0, 2: -1}, "u ≥ 0"),                   # Σu = 1, Zᵀu = 0, one weight < 0
    ([(1,), (0,)], {0: 1}, "Zᵀu = 0"),                                     # Σu = 1, u ≥ 0, Zᵀu = 1
    ([(1, 0), (-1, 1)], {0: F(1, 2), 1: F(1, 2)}, "Zᵀu = 0 in the last coordinate"),  # Zᵀu = (0, 1/2)
    ([(0, 1), (1, -1)], {0: F(1, 2), 1: F(1, 2)}, "Zᵀu = 0 in the first coordinate"),  # Zᵀu = (1/2, 0)
])
def test_farkas_verifier_refuses_data_that_breaks_one_condition(constraints, weights, broken):
    assert not verify_farkas_exact(_hand_selection(constraints, farkas=weights)), broken


def test_farkas_verifier_refuses_missing_or_float_certificates():
    sel = select("relbias", "reverse", 16, exact=True)
    sel.certificate["farkas_exact"] = False
    assert not verify_farkas_exact(sel)
    sel = select("relbias", "reverse", 16, exact=True)
    sel.exact_constraints = None
    assert not verify_farkas_exact(sel)
    assert not verify_farkas_exact(_hand_selection([(1,)]))            # no certificate at all


# ------------------------------------------------------------------ _finish_exact's fallback
def test_exact_selection_without_exact_certificates_reports_the_float_answer(monkeypatch):
    monkeypatch.setattr(selection_module, "_exact_kkt", lambda zq, u, p: None)
    monkeypatch.setattr(selection_module, "_exact_farkas", lambda zq, u, p: None)
    feasible = select("relbias", "offset:1", 4, exact=True)
    assert feasible.status == "realizable" and feasible.exact_theta is None
    assert feasible.reason == "exact certificate not found (float answer)"
    assert np.allclose(feasible.theta, [-0.25, 0.75, -0.25, -0.25])
    infeasible = select("relbias", "reverse", 16, exact=True)
    assert infeasible.status == "not realizable" and not infeasible.exact
    assert infeasible.reason == ("infeasible at L0: u ≥ 0 with Zᵀu = 0, Σu = 1 (Farkas certificate, float); "
                                 "exact certificate not found (float answer)")


# ------------------------------------------------------------------ boundaries
def test_check_train_length_boundary():
    assert check_train_length(1) == 1
    assert check_train_length(np.int64(2)) == 2 and type(check_train_length(np.int64(2))) is int
    for bad in (0, -1, True, 1.0, "1"):
        with pytest.raises(SpecError, match=r"^invalid train length .*; accepted: an integer >= 1$"):
            check_train_length(bad)


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


@pytest.mark.parametrize("spec, default_visible", [("sort", 4), ("addition", 4), ("permutation", 4),
                                                   ("successor", 2), ("offset:1", 2)])
def test_content_task_visibility(spec, default_visible):
    # on row 1 of a length-4 input: "all" sees the 4 positions, "causal" sees positions 0 and 1
    assert list(content_task(spec, 4, 2).visible(1)) == list(range(default_visible))
    assert list(content_task(spec, 4, 2, visible="all").visible(1)) == [0, 1, 2, 3]
    assert list(content_task(spec, 4, 2, visible="causal").visible(1)) == [0, 1]


def test_successor_beta_by_hand():
    # F(x)_i = x_i + 1 mod 2 on two bits: P[x_i = F(x)_i] = 0, P[x_j = F(x)_i] = 1/2 for j ≠ i.
    causal = static_routing_bound("successor", 2, 2)
    assert causal.method == "enumeration" and causal.beta == [F(0), F(1, 2)]
    assert static_routing_bound("successor", 2, 2, visible="all").beta == [F(1, 2), F(1, 2)]


# ------------------------------------------------------------------ Monte Carlo standard error
def test_monte_carlo_standard_error_of_two_samples():
    # for two values a ≤ b: mean (a + b)/2, sample std |b - a|/√2, standard error (b - a)/2
    block = train_block("position:0", 16, 16, seed=0)
    out = monte_carlo_alpha(block, [32], samples=2, seed=5)[32]
    assert out["max"] > out["min"]                  # the test means something only if the samples differ
    assert out["mean"] == pytest.approx((out["min"] + out["max"]) / 2, abs=1e-15)
    assert out["stderr"] == pytest.approx((out["max"] - out["min"]) / 2, abs=1e-15)
    single = monte_carlo_alpha(block, [32], samples=1, seed=5)[32]
    assert single["stderr"] == 0.0 and single["mean"] == single["min"] == single["max"]
    assert single["mean"] in (out["min"], out["max"])        # the same seed draws the same first sample


# ------------------------------------------------------------------ gradient descent records
def test_gradient_descent_records_log_spaced_steps_and_the_ends():
    # geomspace(1, 10, 3) = 1, 3.16, 10 -> steps {1, 3, 10}, plus k = 0
    assert gradient_descent("relbias", "offset:1", 4, steps=10, record=3).steps.tolist() == [0, 1, 3, 10]
    # record < 2 still records two log-spaced marks: geomspace(1, 10, 2) = 1, 10
    assert gradient_descent("relbias", "offset:1", 4, steps=10, record=1).steps.tolist() == [0, 1, 10]
    assert gradient_descent("relbias", "offset:1", 4, steps=1, record=50).steps.tolist() == [0, 1]


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
