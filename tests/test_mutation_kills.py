"""Tests that pin exact behaviour the mutation run (``benchmarks/mutation.py``) found unguarded.

* the exact verifiers ``verify_kkt_exact`` and ``verify_farkas_exact`` accept a correct
  certificate and refuse data that breaks exactly one condition (negative multiplier,
  stationarity, primal feasibility, complementarity; negative weight, Σu ≠ 1, Zᵀu ≠ 0), and the
  exact Farkas refinement refuses a negative solution;
* the certificate verifier names the checks it passed, refuses rows and lengths just outside the
  grid, and names the malformed part of a certificate;
* boundaries: ``check_train_length`` and bucket PEs at train length 1 and 0, ``content_task`` at
  length 1 / vocabulary 2, a sinusoid base of 1, the PE's length limit;
* ``_finish_exact``'s fallback (no exact certificate either way) keeps the float answer only where ℚ
  confirms it (a float θ with Zθ > 0 exactly), seeks a Farkas certificate on the rows scaled by powers
  of two (``_unit_scaled``), and is otherwise undecided;
* the Monte Carlo standard error of ``monte_carlo_alpha`` (two samples: stderr = (max - min)/2);
* ``gradient_descent``: recorded steps, cosine to θ*, default step 1/β;
* one-line errors quote the bad value; small documents (β, learned intervals, the taxonomy figure).

Each expected value is derived in the test (by hand on a small instance, or from an identity),
never copied from the code's output.
"""

from __future__ import annotations

import dataclasses
from fractions import Fraction as F

import numpy as np
import pytest
from posreal.counterexamples.verifier.errors import CertificateError
from posreal.counterexamples.verifier.verify import REFUTED, VERIFIED, verify_document
from posreal.theory import selection as selection_module
from posreal.theory.alpha import alpha_sweep
from posreal.theory.cell import check_train_length
from posreal.theory.pe_specs import parse_pe
from posreal.theory.errors import SpecError
from posreal.theory.expressivity import content_task, static_routing_bound
from posreal.theory.selection import (
    Optimum,
    Selection,
    select,
    verify_farkas_exact,
    verify_kkt_exact,
)
from posreal.theory.tasks import parse_task
from posreal.theory.training import gradient_descent
from posreal.theory.underdetermination import monte_carlo_alpha, train_block
from certificate_edits import certificate as _certificate, resealed as _resealed


def _hand_selection(constraints, theta=None, multipliers=None, farkas=None) -> Selection:
    """A Selection carrying only hand-made exact data (what the verifiers read).  With θ or λ given
    it is made realizable through the only door, :meth:`Selection.realize`, with an :class:`Optimum`
    whose missing part (θ or λ) stays None; with neither it has no optimum at all."""
    zq = [tuple(F(x) for x in z) for z in constraints]
    p = len(zq[0]) if zq else 0
    z = np.array([[float(x) for x in row] for row in zq], dtype=float).reshape(len(zq), p)
    sel = Selection(parse_pe("relbias"), parse_task("offset:1"), 4, z, np.zeros((len(zq), 3), dtype=np.int64),
                    exact_constraints=zq)
    if theta is not None or multipliers is not None:
        exact_theta = None if theta is None else [F(x) for x in theta]
        exact_lam = None if multipliers is None else {k: F(v) for k, v in multipliers.items()}
        lam = np.zeros(len(zq))                                      # (m,) float λ
        for k, v in (exact_lam or {}).items():
            lam[k] = float(v)
        float_theta = np.zeros(p) if exact_theta is None else np.array([float(x) for x in exact_theta])
        sel.realize(Optimum(float_theta, lam, exact_theta, exact_lam))
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
    # the same data is accepted when complete: each refusal below is the missing part's doing
    assert verify_kkt_exact(_hand_selection([(1,)], theta=(1,), multipliers={0: 1}))
    assert not verify_kkt_exact(_hand_selection([(1,)], theta=None, multipliers={0: 1}))
    assert not verify_kkt_exact(_hand_selection([(1,)], theta=(1,), multipliers=None))
    assert not verify_kkt_exact(_hand_selection([(1,)]))                # no optimum at all (not realizable)
    # on a real certificate: drop exactly one of θ*, λ (through the Optimum) or Z
    sel = select("relbias", "offset:1", 4, exact=True)
    assert verify_kkt_exact(sel)
    complete = sel.optimum
    for missing in ("exact_theta", "exact_multipliers"):
        sel.realize(dataclasses.replace(complete, **{missing: None}))
        assert sel.exact_optimum is None and not verify_kkt_exact(sel), missing
    sel.realize(complete)
    sel.exact_constraints = None
    assert not verify_kkt_exact(sel)


def test_kkt_verifier_refuses_a_tampered_real_certificate():
    sel = select("relbias", "offset:1", 4, exact=True)
    doubled = [x * 2 for x in sel.exact_theta]                          # margins 2: λ·(Zθ - 1) ≠ 0, Σλz ≠ θ
    sel.realize(dataclasses.replace(sel.optimum, exact_theta=doubled))
    assert sel.exact_theta == doubled and not verify_kkt_exact(sel)
    sel = select("relbias", "offset:1", 4, exact=True)
    first = min(sel.exact_multipliers)
    nudged = {k: v + F(1, 1000) if k == first else v for k, v in sel.exact_multipliers.items()}
    sel.realize(dataclasses.replace(sel.optimum, exact_multipliers=nudged))
    assert sel.exact_multipliers[first] == F(1, 4) + F(1, 1000) and not verify_kkt_exact(sel)


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
def test_exact_selection_without_exact_certificates_keeps_only_what_q_confirms(monkeypatch):
    """With neither exact certificate, a float θ with Zθ > 0 in ℚ still proves realizability (θ*
    only approximately); a float Farkas certificate proves nothing in ℚ: the cell is undecided."""
    monkeypatch.setattr(selection_module, "_exact_kkt", lambda zq, u, p: None)
    monkeypatch.setattr(selection_module, "_exact_farkas", lambda zq, u, p: None)
    feasible = select("relbias", "offset:1", 4, exact=True)
    assert feasible.status == "realizable" and feasible.exact_theta is None and not feasible.exact
    assert feasible.reason == ("exact KKT certificate not found: realizable in ℚ (the float θ has Zθ > 0 "
                               "exactly, so a multiple of it satisfies Zθ ≥ 1), θ* only approximately")
    assert feasible.certificate["feasible_exact"] is True
    assert np.allclose(feasible.theta, [-0.25, 0.75, -0.25, -0.25])
    infeasible = select("relbias", "reverse", 16, exact=True)
    assert infeasible.status == "undecided" and infeasible.optimum is None and not infeasible.exact
    assert infeasible.reason == ("undecided: no exact certificate found (KKT or Farkas); the float search says "
                                 "not realizable (infeasible at L0: u ≥ 0 with Zᵀu = 0, Σu = 1 (Farkas "
                                 "certificate, float))")


def test_exact_fallback_refuses_a_float_theta_that_fails_in_q(monkeypatch):
    """Float rows that misstate the rational ones: 2⁵³ + 1 rounds to 2⁵³, so the rows (1, 1) and
    (-1, -1) of ℚ (not realizable: they cancel) become (1, 1) and (-1, 0) in float, which a float θ
    satisfies.  The last resort must not report that θ (in ℚ it has z·θ ≤ 0 on one row); it finds the
    exact Farkas certificate u = (1/2, 1/2) on the rows themselves, and without that it is undecided."""
    zq = [(F(1), F(1)), (F(-1), F(-1))]
    z = np.array([[1.0, 1.0], [-1.0, 0.0]])            # (m, p): the rows of f(0) - f(j) in float

    def misstated() -> Selection:
        return selection_module.Selection(parse_pe("relbias"), parse_task("offset:1"), 4, z,
                                          np.zeros((2, 3), dtype=np.int64), exact_constraints=zq)

    u, rho = selection_module._nnls_ldp(z)
    float_only = selection_module._finish_float(misstated(), z, u, rho)
    assert float_only.realizable                         # what the float search alone says
    done = selection_module._finish_without_certificate(misstated(), zq, u, rho, 2)
    assert done.status == "not realizable" and done.optimum is None and done.exact
    assert done.certificate == {"farkas_exact": True, "farkas": {0: F(1, 2), 1: F(1, 2)}}
    assert verify_farkas_exact(done)
    monkeypatch.setattr(selection_module, "_scaled_farkas", lambda zq, p: None)
    undecided = selection_module._finish_without_certificate(misstated(), zq, u, rho, 2)
    assert undecided.status == "undecided" and undecided.optimum is None
    assert undecided.reason.startswith("undecided: no exact certificate found (KKT or Farkas); "
                                       "the float search says realizable")
    assert "feasible_exact" not in undecided.certificate


def test_exact_mode_finds_a_farkas_certificate_that_float_rows_lose():
    """A column table f = (0, -2⁻¹¹⁰⁰, 1) under position:0 at L0 = 3 has the training rows
    z = f(0) - f(j) = (2⁻¹¹⁰⁰) and (-1): opposite signs, not realizable.  As floats the first row is 0.0,
    so the float Farkas certificate puts its weight there and fails in ℚ; on the rows scaled by powers
    of two, (1) and (-1), the certificate (1/2, 1/2) maps back to u ∝ (2¹¹⁰⁰, 1), checked in ℚ."""
    from posreal.theory.tables import build_table

    tiny = F(1, 2 ** 1100)
    enc = build_table("tiny_opposite", [[0], [-tiny], [1]], "column")
    sel = select(enc, "position:0", 3, exact=True)
    assert sel.exact_constraints == [(tiny,), (F(-1),)] and sel.constraints.tolist() == [[0.0], [-1.0]]
    assert sel.status == "not realizable" and sel.exact
    assert sel.reason.endswith("(Farkas certificate, exact in ℚ, found on the rows scaled by powers of two)")
    u = sel.certificate["farkas"]
    assert u[0] / u[1] == 2 ** 1100 and sum(u.values()) == 1
    assert verify_farkas_exact(sel)


def test_float_farkas_certificate_must_be_small_against_the_rows_it_combines():
    """Float mode on rows of size ~2⁻¹⁰⁰⁰ (a column table f = (0, -t, -2t, -3t), t = 2⁻¹⁰⁰⁰, under
    position:0: rows z = jt > 0, realizable by any θ > 0): the LP's absolute tolerance accepts any u as
    Zᵀu = 0, so the certificate's residual is compared with Σ u_k ‖z_k‖∞ and this one (residual = size)
    is refused: undecided, not "not realizable".  Genuine certificates pass (relbias · reverse)."""
    from posreal.theory.tables import build_table

    t = F(1, 2 ** 1000)
    enc = build_table("tiny_rows", [[0], [-t], [-2 * t], [-3 * t]], "column")
    sel = select(enc, "position:0", 4, exact=False)
    assert sel.status == "undecided" and "the float Farkas certificate has" in sel.reason
    assert sel.reason.endswith("(accepted: at most 1e-06 of it)")
    assert all(x > 0 for row in sel.constraints for x in row)                  # the rows: j·t > 0
    genuine = select("relbias", "reverse", 16, exact=False)
    assert genuine.status == "not realizable"
    assert genuine.reason == "infeasible at L0: u ≥ 0 with Zᵀu = 0, Σu = 1 (Farkas certificate, float)"
    u = selection_module._farkas(genuine.constraints)
    assert u is not None
    residual = np.abs(genuine.constraints.T @ u).max()
    assert residual <= selection_module.FARKAS_REL_TOL * (u @ np.abs(genuine.constraints).max(axis=1))


def test_unit_scaling_divides_each_row_by_a_power_of_two_to_size_one():
    """``_unit_scaled``: row k becomes z_k / 2^e with 1 ≤ max|z_k / 2^e| < 2, exactly; zero rows stay."""
    rows = [(F(3, 4), F(0)), (F(1, 2 ** 1100), F(-1, 2 ** 1101)), (F(5), F(-7, 3)), (F(1), F(1)), (F(-2), F(1)),
            (F(0), F(0)), (F(2 ** 1100 - 1), F(1)), (F(4, 7), F(-1, 7)), (F(9, 5), F(0))]
    scaled, divisors = selection_module._unit_scaled(rows)
    for row, new, div in zip(rows, scaled, divisors):
        assert tuple(x * div for x in new) == row
        assert div > 0 and (div.numerator == 1 or div.denominator == 1)
        power = div.numerator if div.denominator == 1 else div.denominator
        assert power & (power - 1) == 0                                          # a power of two
        top = max(abs(x) for x in new)
        assert (1 <= top < 2) if any(row) else (top == 0 and div == 1)


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
    assert out.max > out.min                        # the test means something only if the samples differ
    assert out.mean == pytest.approx((out.min + out.max) / 2, abs=1e-15)
    assert out.stderr == pytest.approx((out.max - out.min) / 2, abs=1e-15)
    single = monte_carlo_alpha(block, [32], samples=1, seed=5)[32]
    assert single.stderr == 0.0 and single.mean == single.min == single.max
    assert single.mean in (out.min, out.max)        # the same seed draws the same first sample


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


# ------------------------------------------------------------------ the certificate verifier


@pytest.mark.parametrize("name, named_checks", [
    ("static_alibi_position_0.json", ["θ* = Σ λ z (stationarity)", "rank Ψ_i = 1", "rank [Ψ_i | e_t] = 2",
                                      "e_t ∉ col Ψ_i", "the row is realized (margin > 0)"]),
    ("dynamic_cxc0x130_reverse.json", ["row margin under T_L θ* is 0", "v ∉ col Zᵀ", "θ_1 = -η ∇ℓ(0)",
                                       "η = 1/β, β = Σ_i max_j ‖ψ(i,j)‖²", "θ_1 ∈ col Zᵀ"]),
    ("open_tie_designed_log2.json", ["row margin under T_L θ* is 0", "α_L = 3/4",
                                     "digest matches the content (no edit after sealing)"]),
])
def test_verdict_names_the_checks_it_passed(name, named_checks):
    verdict = verify_document(_certificate(name), name)[0]
    assert verdict.verdict == VERIFIED and not verdict.failures
    for check in named_checks:
        assert check in verdict.checked


def test_static_certificate_of_a_zero_dimensional_pe_has_rank_zero_features():
    # nope: Ψ_i has no columns, so rank Ψ_i = 0 and rank [Ψ_i | e_t] = 1; θ* = () cannot realize the row
    doc = _certificate("static_alibi_position_0.json")
    doc["instance"]["pe"] = "nope"
    doc["claims"].update({"selected": {"theta": [], "support": []}, "margin": "0/1",
                          "rank_features": 0, "rank_augmented": 1})
    verdict = verify_document(_resealed(doc))[0]
    assert verdict.verdict == REFUTED
    assert {"rank Ψ_i = 0", "rank [Ψ_i | e_t] = 1", "e_t ∉ col Ψ_i"} <= set(verdict.checked)
    assert "the row is realized (margin > 0)" in verdict.failures


def test_row_on_the_last_line_of_the_grid_is_the_limit():
    doc = _certificate("static_alibi_position_0.json")             # L0 = 4, L = 8, row 4, target 0
    doc["instance"]["row"] = 8                                      # row L is outside the L-grid
    with pytest.raises(CertificateError, match=r"row 8, target 0 outside the L=8 grid"):
        verify_document(_resealed(doc))
    doc["instance"]["row"] = 7                                      # row L - 1 is on it
    assert verify_document(_resealed(doc))[0].verdict in (VERIFIED, REFUTED)


def test_a_certificate_may_claim_the_training_length_itself():
    doc = _certificate("static_alibi_position_0.json")
    doc["instance"].update({"length": 4, "row": 3})                 # L = L0 = 4 is accepted
    assert verify_document(_resealed(doc))[0].verdict in (VERIFIED, REFUTED)
    doc["instance"].update({"length": 3, "row": 2})                 # L < L0 is malformed
    with pytest.raises(CertificateError, match=r"lengths L0=4, L=3; accepted: 1 <= L0 <= L <= "):
        verify_document(_resealed(doc))


@pytest.mark.parametrize("name, edit, message", [
    ("static_alibi_position_0.json", lambda c: c.pop("selected"), "malformed certificate: claims lacks selected"),
    ("dynamic_cxc0x130_reverse.json", lambda c: c.pop("margin"), "malformed certificate: claims lacks margin"),
    ("dynamic_cxc0x130_reverse.json", lambda c: c.update(step_size="x"), "invalid rational 'x' at claims.step_size"),
    ("open_tie_designed_log2.json", lambda c: c.update(alpha="3/0"), "invalid rational '3/0' at claims.alpha"),
    ("open_tie_designed_log2.json", lambda c: c.update(margin=0), "malformed certificate: claims.margin = 0"),
])
def test_malformed_claims_are_named_in_the_error(name, edit, message):
    doc = _certificate(name)
    edit(doc["claims"])
    with pytest.raises(CertificateError) as err:
        verify_document(_resealed(doc))
    assert str(err.value).startswith(message)


@pytest.mark.parametrize("edit, message", [
    (lambda i: i.pop("length"), "malformed certificate: instance lacks length"),
    (lambda i: i.update(train_length="3"), "malformed certificate: instance.train_length = '3'"),
    (lambda i: i["tables"]["cxc0x130"].pop("kind"), "malformed certificate: tables.cxc0x130 lacks kind"),
    (lambda i: i["tables"]["cxc0x130"].update(kind="diagonal"),
     "malformed certificate: tables.cxc0x130.kind = 'diagonal'; accepted: relative, column, general"),
])
def test_malformed_instance_is_named_in_the_error(edit, message):
    doc = _certificate("dynamic_cxc0x130_reverse.json")
    edit(doc["instance"])
    with pytest.raises(CertificateError) as err:
        verify_document(_resealed(doc))
    assert str(err.value).startswith(message)


def test_farkas_verifier_refuses_an_empty_certificate_without_constraints():
    assert not verify_farkas_exact(_hand_selection([], farkas={}))        # Σu = 0 ≠ 1, and no exception


# ------------------------------------------------------------------ small documents and messages
def test_enumerated_beta_is_written_as_rationals_and_sampled_beta_as_floats():
    exact = static_routing_bound("successor", 2, 2).to_json()
    assert exact["beta"] == ["0/1", "1/2"] and exact["method"] == "enumeration" and exact["stderr"] is None
    sampled = static_routing_bound("successor", 2, 2, method="monte-carlo", samples=400, seed=1).to_json()
    assert all(isinstance(b, float) for b in sampled["beta"]) and sampled["samples"] == 400


def test_all_lengths_sweep_refuses_tasks_whose_rows_move_with_the_length():
    with pytest.raises(SpecError) as err:
        alpha_sweep("relbias", "copy", 16)
    assert str(err.value) == ("invalid task 'copy' for the all-lengths sweep; accepted: tasks whose rows do not "
                              "depend on n (offset:c, position:p, half and their duals)")


def test_theory_package_lists_its_lazy_exports():
    from posreal import theory

    assert {"compute_alpha", "select", "gradient_descent", "parse_pe"} <= set(dir(theory))


def test_taxonomy_figure_draws_marked_curves_on_the_unit_interval(tmp_path, monkeypatch):
    import matplotlib.pyplot as plt
    from posreal.theory import plots

    figures = []
    monkeypatch.setattr(plots.plt, "close", figures.append)          # keep the figure to look at it
    docs = [{"pe": "relbias", "task": "offset:1", "realizable": True, "train_length": 16,
             "alpha": {"32": 1.0, "64": 1.0}},
            {"pe": "relbias", "task": "copy", "realizable": False, "train_length": 16, "alpha": {}}]
    plots.plot_taxonomy(docs, [32, 64], str(tmp_path / "t.png"))
    assert (tmp_path / "t.png").stat().st_size > 0
    ax = figures[0].axes[0]
    (line,) = ax.get_lines()                                        # one curve: the realizable task
    assert line.get_marker() == "o" and line.get_label() == "offset:1"
    assert list(line.get_ydata()) == [1.0, 1.0]
    assert ax.get_ylim() == pytest.approx((-0.05, 1.05))
    plt.close(figures[0])


# ------------------------------------------------------------------ gradient descent's default step
def test_default_step_is_one_over_the_smoothness_bound():
    # relbias:3 · offset:1 at L0 = 4: rows 1..3, one-hot features, max_j ‖ψ(i, j)‖² = 1 per row: β = 3
    assert gradient_descent("relbias", "offset:1", 4, steps=1).step_size == pytest.approx(1 / 3, rel=1e-15)
    # alibi · offset:1 at L0 = 4: ψ(i, j) = -(i - j), max_j ‖ψ‖² = i² on rows 1..3: β = 1 + 4 + 9 = 14
    assert gradient_descent("alibi", "offset:1", 4, steps=1).step_size == pytest.approx(1 / 14, rel=1e-15)
    # nope has no features (β = 0): the bound's floor 1e-12 keeps the step finite
    assert gradient_descent("nope", "offset:1", 4, steps=1).step_size == pytest.approx(1e12, rel=1e-15)


def test_learned_block_starts_from_the_stated_initialization():
    # zero training steps: E_j, W_ab ~ N(0, 1/d) with d = 16 (standard deviation 1/4), seeded
    block = train_block("position:0", 16, 16, seed=0, steps=0)
    for values in (block.E, block.W):                                # 256 draws each
        assert abs(values.mean()) < 0.1 and 0.2 < values.std() < 0.3


# ------------------------------------------------------------------ one-line errors name the bad value
def _message(call) -> str:
    with pytest.raises(SpecError) as err:
        call()
    return str(err.value)


def test_bucket_pe_boundary_at_train_length_one():
    assert parse_pe("relbias").dim(1) == 1 and parse_pe("colbias").dim(1) == 1    # D = L0 - 1 = 0: one bucket
    assert _message(lambda: parse_pe("relbias").dim(0)) == "invalid train length 0; accepted: an integer >= 1"


def test_sinusoid_base_must_exceed_one():
    assert parse_pe("rope:4:1.5").dim(16) == 4
    assert _message(lambda: parse_pe("rope:4:1")) == "invalid PE 'rope:4:1': base '1' must be a number > 1"


def test_length_beyond_the_pe_limit_names_the_limit():
    pe = parse_pe("relbias")
    limit = pe.max_length(16)
    pe.check_length(limit, 16)
    assert _message(lambda: pe.check_length(limit + 1, 16)) == (
        f"invalid length {limit + 1} for PE 'relbias'; accepted: lengths up to {limit} "
        "(larger grids do not fit in memory/time)")


def test_exact_selection_of_an_irrational_pe_is_a_spec_error():
    assert "rope" in _message(lambda: select("rope:4", "offset:1", 4, exact=True))


def test_gradient_descent_refuses_a_bad_step_size():
    for bad in (0.0, -1.0, float("inf")):
        with pytest.raises(SpecError) as err:
            gradient_descent("relbias", "offset:1", 4, steps=1, step_size=bad)
        assert str(err.value) == f"invalid step size {bad!r}; accepted: a finite number > 0"


def test_learned_interval_errors_name_the_argument():
    from posreal.theory.underdetermination import (
        MAX_LEARNED_LENGTH,
        learned_alpha_interval,
    )

    assert _message(lambda: learned_alpha_interval("rope:16", "position:0", 16, (32,))) == (
        "invalid learned PE 'rope:16'; accepted: learned:d with an integer d >= 1 (linear PEs go through parse_pe)")
    assert _message(lambda: learned_alpha_interval("learned:16", "position:0", 16, (32,), samples=1)) == \
        "invalid samples 1; accepted: an integer >= 2"
    assert _message(lambda: learned_alpha_interval("learned:16", "position:0", 16, (8,))) == \
        f"invalid length 8; accepted: integers from the train length 16 to {MAX_LEARNED_LENGTH}"


def test_learned_interval_document_names_its_cell_and_its_sources():
    from posreal.theory.underdetermination import learned_alpha_interval

    result = learned_alpha_interval("learned:16", "position:0", 16, (32,), samples=2)
    assert (str(result.pe), str(result.task), result.train_length, result.lengths) == \
        ("learned:16", "position:0", 16, (32,))
    doc = result.to_json()
    assert (doc["pe"], doc["task"], doc["train_length"], doc["mode"]) == ("learned:16", "position:0", 16, "learned")
    assert "Monte Carlo" in doc["interval"] and "copy_last" in doc["interval"]


def test_completion_errors_name_the_argument():
    from posreal.theory.underdetermination import (
        completed_table,
        completion_alpha,
        construct_block,
    )

    block = construct_block("position:0", 16, 16)
    assert _message(lambda: completion_alpha(block, 8, "zero")) == \
        "invalid length 8; accepted: integers >= the train length 16"
    assert _message(lambda: completed_table(block, 20, np.zeros((3, 16)))) == \
        "invalid completion shape (3, 16); accepted: (4, 16)"


def test_certificate_vector_errors_name_the_place():
    doc = _certificate("dynamic_cxc0x130_reverse.json")            # embeds the column table cxc0x130
    doc["instance"]["tables"]["cxc0x130"]["rows"][2] = "1/1"         # a row that is not a vector
    with pytest.raises(CertificateError) as err:
        verify_document(_resealed(doc))
    assert str(err.value) == "invalid vector '1/1' at tables.cxc0x130[2]; accepted: a list of 'p/q' strings"


# ------------------------------------------------------------------ exact Farkas refinement, learned blocks
def test_exact_farkas_refinement_refuses_a_negative_solution():
    from posreal.theory.selection import _exact_farkas

    zq = [(F(1),), (F(-1),), (F(2),)]
    # support {0, 1}: u_0 - u_1 = 0, u_0 + u_1 = 1 -> u = (1/2, 1/2) ≥ 0: a certificate
    assert _exact_farkas(zq, np.array([0.5, 0.5, 0.0]), 1) == {0: F(1, 2), 1: F(1, 2)}
    # support {0, 2}: u_0 + 2 u_2 = 0, u_0 + u_2 = 1 -> u = (2, -1): not a certificate
    assert _exact_farkas(zq, np.array([0.5, 0.0, 0.5]), 1) is None


def test_learned_blocks_say_how_they_were_made():
    from posreal.theory.underdetermination import construct_block

    assert construct_block("position:0", 16, 16).method == "construction"
    assert train_block("position:0", 16, 16, seed=0).method == "gradient descent"


def test_learned_interval_of_an_untrained_block_is_not_realizable(monkeypatch):
    from posreal.theory import underdetermination

    original = underdetermination.train_block
    monkeypatch.setattr(underdetermination, "train_block",
                        lambda task, d, train_length, seed: original(task, d, train_length, seed, steps=0))
    result = underdetermination.learned_alpha_interval("learned:16", "position:0", 16, (32, 64), samples=2)
    assert result.min_train_margin <= 0                           # the random initialization does not realize it
    assert result.realizable is False and result.intervals == ()
    doc = result.to_json()
    assert doc["block"]["min_train_margin"] == result.min_train_margin and doc["block"]["steps"] == 0
    assert doc["realizable"] is False and doc["alpha"] == {"32": None, "64": None}
    assert doc["reason"] == "gradient descent did not realize the task at L0 within the step budget"


def test_pe_spec_errors_quote_the_spec():
    from posreal.theory.pe_specs import PE_FORMS
    from posreal.theory.tables import register_pe
    from posreal.theory.resources import MAX_SPEC_INT

    assert _message(lambda: parse_pe("relbias:x")) == \
        f"invalid PE 'relbias:x'; accepted: {PE_FORMS}; integer parameters in ASCII digits"
    assert _message(lambda: parse_pe("rope:0")) == \
        f"invalid PE 'rope:0'; accepted: {PE_FORMS}; integer parameters from 2 to {MAX_SPEC_INT}"
    assert _message(lambda: parse_pe("dual:learned:16")) == \
        "invalid PE 'dual:learned:16'; accepted: the shear dual:P of a linear PE P (learned:d is not linear)"
    assert _message(lambda: register_pe("relbias", [[0], [1]])) == \
        "invalid PE name 'relbias'; accepted: an identifier that is not a registry name"


def test_row_outcomes_record_the_tolerance_they_were_given():
    from posreal.theory.alpha import row_outcomes

    pe, task = parse_pe("relbias"), parse_task("offset:1")
    exact = row_outcomes(pe, task, [F(-1, 4), F(3, 4), F(-1, 4), F(-1, 4)], 8, 4, mode="exact", tol=1e-7)
    assert exact.tol == 1e-7 and exact.mode == "exact"
    assert row_outcomes(pe, task, [-0.25, 0.75, -0.25, -0.25], 8, 4, tol=1e-7).tol == 1e-7


# ------------------------------------------------------------------ rarely taken branches
def test_general_table_transfer_in_float_equals_the_definition():
    from posreal.theory.tables import register_pe, unregister_pe
    from posreal.theory.transfer import naive_kernel_matrix, transfer

    triangle = [[[1, 0]], [[0, 2], [1, 1]], [[3, 0], [0, -1], [2, 2]], [[1, 1], [0, 0], [-2, 1], [1, -3]]]
    rows = [row + [[0, 0]] * (4 - len(row)) for row in triangle]              # (4, 4, 2): ψ(i, j), j > i unused
    register_pe("mk_general", rows, "general")
    try:
        pe, theta = parse_pe("mk_general"), np.array([0.5, -1.5])
        dense = transfer(pe, theta, 4, 3).matrix()                            # (4, 4), -inf above the diagonal
        assert np.array_equal(dense, naive_kernel_matrix(pe, theta, 4, 3))
        # by hand, row 3: ⟨θ, ψ(3, j)⟩ = -1, 0, -2.5, 5
        assert dense[3].tolist() == [-1.0, 0.0, -2.5, 5.0]
    finally:
        unregister_pe("mk_general")


@pytest.mark.parametrize("exact", [False, True])
def test_selection_without_a_row_of_two_keys_is_the_zero_vector(exact):
    # at L0 = 1 the only row has one key: no training difference, θ* = 0 realizes it
    sel = select("relbias", "offset:0", 1, exact=exact)
    assert sel.realizable and sel.constraints.shape == (0, 1)
    assert sel.theta.tolist() == [0.0] and sel.multipliers.size == 0
    assert (sel.exact_theta, sel.exact_multipliers) == (([F(0)], {}) if exact else (None, None))


@pytest.mark.parametrize("number", [int, float])
def test_structural_ties_of_a_general_table_up_to_its_last_row(number):
    from posreal.theory.tables import register_pe, unregister_pe
    from posreal.theory.realization import structural_ties

    # row 3 has ψ(3, 0) = ψ(3, 3) = (1, -3): target 3 (offset 0) is tied there; rows 0..2 are not
    triangle = [[[1, 0]], [[0, 2], [1, 1]], [[3, 0], [0, -1], [2, 2]], [[1, -3], [0, 0], [-2, 1], [1, -3]]]
    rows = [[[number(x) for x in cell] for cell in row + [[0, 0]] * (4 - len(row))] for row in triangle]
    register_pe("mk_ties", rows, "general")
    try:
        pe = parse_pe("mk_ties")
        assert pe.rational is (number is int)
        scored = np.arange(4)                                                     # every row, target t = i
        assert structural_ties(pe, scored, scored, 4, 3).tolist() == [False, False, False, True]
    finally:
        unregister_pe("mk_ties")


def test_adder_carries_exactly_for_a_large_base():
    from posreal.theory.expressivity import _adder

    # one digit per number in base 2**60: (2**60 - 1) + (2**60 - 1) = 1·2**60 + (2**60 - 2); float carries would round
    base = 2 ** 60
    assert _adder(1, base)(np.array([[base - 1, base - 1]], dtype=np.int64)).tolist() == [[base - 2, 1]]
