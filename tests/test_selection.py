"""θ* in ℓ2 (posreal.theory.selection): the exact certificates and their verifiers, the exact mode's
fallbacks when no exact certificate is found, the float certificates' residuals, small cells and bad input.

The KKT verifier ``verify_kkt_exact`` and the Farkas verifier ``verify_farkas_exact`` accept correct
certificates (of real cells and made by hand) and refuse data that breaks exactly one condition; each
expected value is derived in the test, by hand on a small instance or from an identity.
"""

from __future__ import annotations

import dataclasses
from fractions import Fraction as F

import numpy as np
import pytest
from posreal.theory import selection as selection_module
from posreal.theory.tables import build_table
from posreal.theory.pe_specs import parse_pe
from posreal.theory.errors import SpecError
from posreal.theory.selection import (
    PRIMAL_TOL,
    Optimum,
    Selection,
    _float_kkt_ok,
    select,
    verify_farkas_exact,
    verify_kkt_exact,
)
from posreal.theory.tasks import parse_task

from certificate_edits import message as _message


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
        sel.evidence = {"farkas_exact": True, "farkas": {k: F(v) for k, v in farkas.items()}}
    return sel


# --------------------------------------------------------------------------- verify_kkt_exact
# Exists because a mutant survived: verify_kkt_exact was never run on a correct certificate of a real cell.
def test_kkt_verifier_accepts_the_selected_parameters_of_a_small_cell():
    # relbias:3 on offset:1 at L0 = 4: the optimum is θ* = (-1/4, 3/4, -1/4, -1/4) with λ = 1/4 on the
    # three differences e_1 - e_δ (δ = 0, 2, 3): θ* = Σ λ z, and ⟨θ*, z⟩ = 3/4 + 1/4 = 1 on each.
    sel = select("relbias", "offset:1", 4, mode="exact")
    assert sel.exact_theta == [F(-1, 4), F(3, 4), F(-1, 4), F(-1, 4)]
    assert set(sel.exact_multipliers.values()) == {F(1, 4)}
    assert verify_kkt_exact(sel)


# Exists because a mutant survived: the boundaries λ = 0 and a margin of exactly 1 were not shown to be accepted.
def test_kkt_verifier_accepts_a_zero_multiplier_and_margins_of_exactly_one():
    # z = (1,) and (2,); θ = (1,), λ = (1, 0): stationarity 1·1 = 1, margins 1 and 2, λ ≥ 0 (one λ = 0)
    assert verify_kkt_exact(_hand_selection([(1,), (2,)], theta=(1,), multipliers={0: 1, 1: 0}))
    # λ < 1 is fine: z = (2, 0), θ = (1/2, 0), λ = 1/4 (Σλz = θ, margin 1)
    assert verify_kkt_exact(_hand_selection([(2, 0)], theta=(F(1, 2), 0), multipliers={0: F(1, 4)}))


# Exists because a mutant survived: each KKT condition of verify_kkt_exact could be dropped unnoticed.
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


# Exists because a mutant survived: verify_kkt_exact was not shown to refuse a selection lacking θ*, λ or Z.
def test_kkt_verifier_refuses_missing_data():
    # the same data is accepted when complete: each refusal below is the missing part's doing
    assert verify_kkt_exact(_hand_selection([(1,)], theta=(1,), multipliers={0: 1}))
    assert not verify_kkt_exact(_hand_selection([(1,)], theta=None, multipliers={0: 1}))
    assert not verify_kkt_exact(_hand_selection([(1,)], theta=(1,), multipliers=None))
    assert not verify_kkt_exact(_hand_selection([(1,)]))                # no optimum at all (not realizable)
    # on a real certificate: drop exactly one of θ*, λ (through the Optimum) or Z
    sel = select("relbias", "offset:1", 4, mode="exact")
    assert verify_kkt_exact(sel)
    complete = sel.optimum
    for missing in ("exact_theta", "exact_multipliers"):
        sel.realize(dataclasses.replace(complete, **{missing: None}))
        assert sel.exact_optimum is None and not verify_kkt_exact(sel), missing
    sel.realize(complete)
    sel.exact_constraints = None
    assert not verify_kkt_exact(sel)


# Exists because a mutant survived: verify_kkt_exact was not shown to refuse an edited θ* or λ.
def test_kkt_verifier_refuses_tampered_real_evidence():
    sel = select("relbias", "offset:1", 4, mode="exact")
    doubled = [x * 2 for x in sel.exact_theta]                          # margins 2: λ·(Zθ - 1) ≠ 0, Σλz ≠ θ
    sel.realize(dataclasses.replace(sel.optimum, exact_theta=doubled))
    assert sel.exact_theta == doubled and not verify_kkt_exact(sel)
    sel = select("relbias", "offset:1", 4, mode="exact")
    first = min(sel.exact_multipliers)
    nudged = {k: v + F(1, 1000) if k == first else v for k, v in sel.exact_multipliers.items()}
    sel.realize(dataclasses.replace(sel.optimum, exact_multipliers=nudged))
    assert sel.exact_multipliers[first] == F(1, 4) + F(1, 1000) and not verify_kkt_exact(sel)


# ------------------------------------------------------- verify_farkas_exact and the exact Farkas refinement
# Exists because a mutant survived: verify_farkas_exact was never run on a correct certificate of a real cell.
def test_farkas_verifier_accepts_the_evidence_of_a_not_realizable_cell():
    sel = select("relbias", "reverse", 16, mode="exact")
    assert sel.status == "not realizable" and sel.evidence["farkas_exact"]
    assert verify_farkas_exact(sel)


# Exists because a mutant survived: a Farkas weight of exactly 0 was not shown to be accepted.
def test_farkas_verifier_accepts_a_hand_vector_with_a_zero_weight():
    # z = (1, 0), (-1, 0), (5, 1): u = (1/2, 1/2, 0) has Σu = 1 and Zᵀu = 0 in both coordinates
    assert verify_farkas_exact(_hand_selection([(1, 0), (-1, 0), (5, 1)], farkas={0: F(1, 2), 1: F(1, 2), 2: 0}))


# Exists because a mutant survived: each Farkas condition of verify_farkas_exact could be dropped unnoticed.
@pytest.mark.parametrize("constraints, weights, broken", [
    ([(1,), (-1,)], {0: 1, 1: 1}, "Σu = 1"),                              # Zᵀu = 0, u ≥ 0, Σu = 2
    ([(1,), (1,), (2,)], {0: 2, 1: 0, 2: -1}, "u ≥ 0"),                   # Σu = 1, Zᵀu = 0, one weight < 0
    ([(1,), (0,)], {0: 1}, "Zᵀu = 0"),                                     # Σu = 1, u ≥ 0, Zᵀu = 1
    ([(1, 0), (-1, 1)], {0: F(1, 2), 1: F(1, 2)}, "Zᵀu = 0 in the last coordinate"),  # Zᵀu = (0, 1/2)
    ([(0, 1), (1, -1)], {0: F(1, 2), 1: F(1, 2)}, "Zᵀu = 0 in the first coordinate"),  # Zᵀu = (1/2, 0)
])
def test_farkas_verifier_refuses_data_that_breaks_one_condition(constraints, weights, broken):
    assert not verify_farkas_exact(_hand_selection(constraints, farkas=weights)), broken


# Exists because a mutant survived: verify_farkas_exact was not shown to refuse a float or missing certificate.
def test_farkas_verifier_refuses_missing_or_float_evidence():
    sel = select("relbias", "reverse", 16, mode="exact")
    sel.evidence["farkas_exact"] = False
    assert not verify_farkas_exact(sel)
    sel = select("relbias", "reverse", 16, mode="exact")
    sel.exact_constraints = None
    assert not verify_farkas_exact(sel)
    assert not verify_farkas_exact(_hand_selection([(1,)]))            # no certificate at all


# Exists because a mutant survived: an empty certificate (Σu = 0) on no constraints was not shown to be refused.
def test_farkas_verifier_refuses_an_empty_vector_without_constraints():
    assert not verify_farkas_exact(_hand_selection([], farkas={}))        # Σu = 0 ≠ 1, and no exception


# Exists because a mutant survived: the exact Farkas refinement could return a solution with a negative weight.
def test_exact_farkas_refinement_refuses_a_negative_solution():
    from posreal.theory.selection import _exact_farkas

    zq = [(F(1),), (F(-1),), (F(2),)]
    # support {0, 1}: u_0 - u_1 = 0, u_0 + u_1 = 1 -> u = (1/2, 1/2) ≥ 0: a certificate
    assert _exact_farkas(zq, np.array([0.5, 0.5, 0.0]), 1) == {0: F(1, 2), 1: F(1, 2)}
    # support {0, 2}: u_0 + 2 u_2 = 0, u_0 + u_2 = 1 -> u = (2, -1): not a certificate
    assert _exact_farkas(zq, np.array([0.5, 0.0, 0.5]), 1) is None


# ------------------------------------------------------------------- exact mode without an exact certificate
# Exists because a mutant survived: the fallback with neither exact certificate was never taken.
def test_exact_selection_without_exact_evidence_keeps_only_what_q_confirms(monkeypatch):
    """With neither exact certificate, a float θ with Zθ > 0 in ℚ still proves realizability (θ*
    only approximately); a float Farkas vector proves nothing in ℚ: the cell is undecided.  (The exact
    active-set method, which would decide both in ℚ, is switched off here: tests/test_exact_qp.py.)"""
    monkeypatch.setattr(selection_module, "_exact_kkt", lambda zq, u, p: None)
    monkeypatch.setattr(selection_module, "_exact_farkas", lambda zq, u, p: None)
    monkeypatch.setattr(selection_module, "_exact_active_set", lambda *args, **kwargs: None)
    feasible = select("relbias", "offset:1", 4, mode="exact")
    assert feasible.status == "realizable" and feasible.exact_theta is None and not feasible.exact
    assert feasible.reason == ("exact KKT certificate not found: realizable in ℚ (the float θ has Zθ > 0 "
                               "exactly, so a multiple of it satisfies Zθ ≥ 1), θ* only approximately")
    assert feasible.evidence["feasible_exact"] is True
    assert np.allclose(feasible.theta, [-0.25, 0.75, -0.25, -0.25])
    infeasible = select("relbias", "reverse", 16, mode="exact")
    assert infeasible.status == "undecided" and infeasible.optimum is None and not infeasible.exact
    assert infeasible.reason == ("undecided: no exact certificate found (KKT or Farkas); the float search says "
                                 "not realizable (infeasible at L0: u ≥ 0 with Zᵀu = 0, Σu = 1 (Farkas "
                                 "certificate, float))")


# Exists because a mutant survived: the last resort could report a float θ that fails in ℚ.
def test_exact_fallback_refuses_a_float_theta_that_fails_in_q(monkeypatch):
    """Float rows that misstate the rational ones: 2⁵³ + 1 rounds to 2⁵³, so the rows (1, 1) and
    (-1, -1) of ℚ (not realizable: they cancel) become (1, 1) and (-1, 0) in float, which a float θ
    satisfies.  The last resort must not report that θ (in ℚ it has z·θ ≤ 0 on one row); it finds the
    exact Farkas vector u = (1/2, 1/2) on the rows themselves, and without that it is undecided."""
    zq = [(F(1), F(1)), (F(-1), F(-1))]
    z = np.array([[1.0, 1.0], [-1.0, 0.0]])            # (m, p): the rows of f(0) - f(j) in float

    def misstated() -> Selection:
        return selection_module.Selection(parse_pe("relbias"), parse_task("offset:1"), 4, z,
                                          np.zeros((2, 3), dtype=np.int64), exact_constraints=zq)

    u, rho = selection_module._nnls_ldp(z)
    float_only = selection_module._finish_float(misstated(), z, u, rho)
    assert float_only.realizable                         # what the float search alone says
    done = selection_module._finish_without_evidence(misstated(), zq, u, rho, 2)
    assert done.status == "not realizable" and done.optimum is None and done.exact
    assert done.evidence == {"farkas_exact": True, "farkas": {0: F(1, 2), 1: F(1, 2)}}
    assert verify_farkas_exact(done)
    monkeypatch.setattr(selection_module, "_scaled_farkas", lambda zq, p: None)
    by_active_set = selection_module._finish_without_evidence(misstated(), zq, u, rho, 2)
    assert by_active_set.status == "not realizable" and by_active_set.evidence["farkas"] == {0: F(1, 2), 1: F(1, 2)}
    assert by_active_set.evidence["method"] == "exact active set" and verify_farkas_exact(by_active_set)
    monkeypatch.setattr(selection_module, "_exact_active_set", lambda *args, **kwargs: None)
    undecided = selection_module._finish_without_evidence(misstated(), zq, u, rho, 2)
    assert undecided.status == "undecided" and undecided.optimum is None
    assert undecided.reason.startswith("undecided: no exact certificate found (KKT or Farkas); "
                                       "the float search says realizable")
    assert "feasible_exact" not in undecided.evidence


# Exists because a mutant survived: the Farkas search on rows scaled by powers of two was never needed.
def test_exact_mode_finds_farkas_evidence_that_float_rows_lose():
    """A column table f = (0, -2⁻¹¹⁰⁰, 1) under position:0 at L0 = 3 has the training rows
    z = f(0) - f(j) = (2⁻¹¹⁰⁰) and (-1): opposite signs, not realizable.  As floats the first row is 0.0,
    so the float Farkas vector puts its weight there and fails in ℚ; on the rows scaled by powers
    of two, (1) and (-1), the certificate (1/2, 1/2) maps back to u ∝ (2¹¹⁰⁰, 1), checked in ℚ."""
    from posreal.theory.tables import build_table

    tiny = F(1, 2 ** 1100)
    enc = build_table("tiny_opposite", [[0], [-tiny], [1]], "column")
    sel = select(enc, "position:0", 3, mode="exact")
    assert sel.exact_constraints == [(tiny,), (F(-1),)] and sel.constraints.tolist() == [[0.0], [-1.0]]
    assert sel.status == "not realizable" and sel.exact
    assert sel.reason.endswith("(Farkas certificate, exact in ℚ, found on the rows scaled by powers of two)")
    u = sel.evidence["farkas"]
    assert u[0] / u[1] == 2 ** 1100 and sum(u.values()) == 1
    assert verify_farkas_exact(sel)


# Exists because a mutant survived: the exact row scaling of the rescaled Farkas search was unchecked.
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


# Exists because a mutant survived: exact mode could decide the structural-tie check on the float rows.
def test_exact_selection_does_not_call_a_float_zero_difference_a_tie() -> None:
    """A column table with features j / 2^1100 (j = 0..3) has nonzero exact training differences that
    are all 0.0 as floats; float mode sees equal features (a structural tie), exact mode must not (the
    check reads the exact rows)."""
    from posreal.theory.tables import build_table
    from posreal.theory.selection import select

    tiny = F(1, 2 ** 1100)
    enc = build_table("tiny_steps", [[j * tiny] for j in range(4)], "column")
    assert enc.rational and enc.values.ravel().tolist() == [0.0] * 4

    float_sel = select(enc, "position:0", 4, mode="float")
    assert float_sel.reason == "structural tie at row 1 of the L0-grid: keys 0 (target) and 1 have equal features"

    sel = select(enc, "position:0", 4, mode="exact")
    assert sel.exact_constraints is not None
    assert all(any(x != 0 for x in row) for row in sel.exact_constraints)     # no tie in ℚ
    assert not np.any(sel.constraints)                                       # ... all zero as floats
    assert not sel.reason.startswith("structural tie")
    # the float search on all-zero rows finds a float Farkas vector, which proves nothing in ℚ; the rows
    # z_j = -j/2^1100 (j = 1..3) are realizable, θ* = -2^1100 (the row j = 1 binds), found by the exact active set
    assert sel.status == "realizable" and sel.evidence["method"] == "exact active set"
    assert sel.exact_theta == [F(-2 ** 1100)] and verify_kkt_exact(sel)
    assert sel.theta.tolist() == [-np.inf]                                   # its float image is beyond range


# Exists because a mutant survived: the exact refinement was never started from an empty active set.
def test_exact_selection_of_a_constraint_with_a_large_norm():
    """A relative table with f(0) = 10⁷, f(1) = 0 and task offset:0 at L0 = 2: one constraint
    z = f(0) - f(1) = 10⁷.  θ* = z / ‖z‖² = 10⁻⁷ with λ = 1 / ‖z‖² = 10⁻¹⁴ — the NNLS weight
    u = 1 / (1 + ‖z‖²) is below the 10⁻¹² support threshold, so the exact refinement starts from an
    empty active set."""
    pe = build_table("big", [[10 ** 7], [0]], "relative")
    sel = select(pe, "offset:0", 2)
    assert sel.realizable and sel.evidence == {"kkt_exact": True}
    assert sel.exact_theta == [F(1, 10 ** 7)]
    assert sel.exact_optimum is not None and sel.exact_optimum.multipliers == {0: F(1, 10 ** 14)}


# Exists because a mutant survived: the exact active-set refinement could stop below the margin 1.
def test_exact_kkt_enters_the_most_violated_constraint():
    """Z = I (2×2) with the float support {0}: on B = {0}, λ = 1 and θ = (1, 0), so z_0·θ = 1 but z_1·θ = 0 < 1;
    constraint 1 must enter, and on B = {0, 1}: λ = (1, 1), θ = (1, 1) with Zθ = (1, 1) ≥ 1 (KKT)."""
    from posreal.theory.selection import _exact_kkt

    zq = [(F(1), F(0)), (F(0), F(1))]
    out = _exact_kkt(zq, np.array([1.0, 0.0]), 2)
    assert out is not None
    theta, lam = out
    assert theta == [1, 1] and lam == {0: 1, 1: 1}
    assert all(a * x + b * y >= 1 for a, b in zq for x, y in [theta])


# --------------------------------------------------------------------------- float certificates
# Exists because a mutant survived: the float Farkas residual was not compared with the size of the rows.
def test_float_farkas_evidence_must_be_small_against_the_rows_it_combines():
    """Float mode on rows of size ~2⁻¹⁰⁰⁰ (a column table f = (0, -t, -2t, -3t), t = 2⁻¹⁰⁰⁰, under
    position:0: rows z = jt > 0, realizable by any θ > 0): the LP's absolute tolerance accepts any u as
    Zᵀu = 0, so the certificate's residual is compared with Σ u_k ‖z_k‖∞ and this one (residual = size)
    is refused: undecided, not "not realizable".  Genuine certificates pass (relbias · reverse)."""
    from posreal.theory.tables import build_table

    t = F(1, 2 ** 1000)
    enc = build_table("tiny_rows", [[0], [-t], [-2 * t], [-3 * t]], "column")
    sel = select(enc, "position:0", 4, mode="float")
    assert sel.status == "undecided" and "the float Farkas certificate has" in sel.reason
    assert sel.reason.endswith("(accepted: at most 1e-06 of it)")
    assert all(x > 0 for row in sel.constraints for x in row)                  # the rows: j·t > 0
    genuine = select("relbias", "reverse", 16, mode="float")
    assert genuine.status == "not realizable"
    assert genuine.reason == "infeasible at L0: u ≥ 0 with Zᵀu = 0, Σu = 1 (Farkas certificate, float)"
    u = selection_module._farkas(genuine.constraints)
    assert u is not None
    residual = np.abs(genuine.constraints.T @ u).max()
    assert residual <= selection_module.FARKAS_REL_TOL * (u @ np.abs(genuine.constraints).max(axis=1))


# Exists because a mutant survived: the key under which the float Farkas residual is reported was unchecked.
def test_float_farkas_evidence_names_its_residual():
    """alibi (ψ(i, j) = -(i - j)), offset:1 at L0 = 3, float mode: row 1 gives z = ψ(1) - ψ(0) = -1,
    row 2 gives z = ψ(1) - ψ(2) = 1 (and -1 again).  Zᵀu = 0 with Σu = 1 forces u = (1/2, 1/2): the
    residual ‖Zᵀu‖ is exactly 0."""
    sel = select("alibi", "offset:1", 3, mode="float")
    assert not sel.realizable and not sel.undecided
    assert sel.evidence == {"farkas_residual": 0.0, "farkas_exact": False}


# Exists because a mutant survived: the float KKT primal residual min(0, min slack) was unchecked.
def test_primal_residual_is_zero_when_every_margin_holds():
    """``primal_min_slack`` is the primal KKT residual min(0, min_k z_k·θ - 1): 0 when every constraint
    holds (rope:4 · copy at L0 = 4: every float slack is ≥ 0), negative only by the violation."""
    from posreal.theory.selection import select

    for pe, task, L0 in (("rope:4", "copy", 4), ("rope:16", "position:0", 16), ("abssin:4", "reverse", 4)):
        sel = select(pe, task, L0, mode="float")
        slack = sel.constraints @ sel.theta - 1.0
        assert sel.realizable and sel.evidence["primal_min_slack"] == min(0.0, float(slack.min())), pe
        assert sel.evidence["primal_min_slack"] <= 0.0 and sel.evidence["dual_min"] <= 0.0


# Exists because a mutant survived: the float KKT stationarity residual's scale max(1, ‖θ‖) was unchecked.
def test_float_kkt_stationarity_is_relative_to_the_norm_of_theta():
    """z = (1), θ = (2), λ = (1): ‖θ - Zᵀλ‖ = 1, relative to max(1, ‖θ‖) = 2: 1/2.
    Slack z·θ - 1 = 1, so the complementarity residual is |λ · 1| / max(1, max λ) = 1."""
    from posreal.theory.selection import _float_kkt

    cert = _float_kkt(np.array([[1.0]]), np.array([2.0]), np.array([1.0]))
    assert cert["stationarity"] == 0.5
    assert cert["primal_min_slack"] == 0.0 and cert["dual_min"] == 0.0 and cert["complementarity"] == 1.0


# Exists because a mutant survived: a stationarity residual exactly at the tolerance could be refused.
def test_float_kkt_accepts_stationarity_exactly_at_the_tolerance():
    cert = {"primal_min_slack": 0.0, "dual_min": 0.0, "stationarity": PRIMAL_TOL, "complementarity": 0.0}
    assert _float_kkt_ok(cert) is True
    assert _float_kkt_ok({**cert, "stationarity": 2 * PRIMAL_TOL}) is False


# ---------------------------------------------------------------- small cells, structural ties and bad input
# Exists because a mutant survived: a cell without any training difference was never selected.
@pytest.mark.parametrize("exact", [False, True])
def test_selection_without_a_row_of_two_keys_is_the_zero_vector(exact):
    # at L0 = 1 the only row has one key: no training difference, θ* = 0 realizes it
    sel = select("relbias", "offset:0", 1, mode="exact" if exact else "float")
    assert sel.realizable and sel.constraints.shape == (0, 1)
    assert sel.theta.tolist() == [0.0] and sel.multipliers.size == 0
    assert (sel.exact_theta, sel.exact_multipliers) == (([F(0)], {}) if exact else (None, None))


# Exists because a mutant survived: a single structural tie among nonzero training differences went unreported.
def test_float_select_reports_one_structural_tie_among_nonzero_differences():
    # relbias:1 clips offsets at 1: at row 1 target 0 (offset 1) and key 1 (offset 0) differ, at row 2 target 0
    # (offset 2) and key 1 (offset 1) have the same feature: one zero training difference among nonzero ones
    sel = select("relbias:1", "position:0", 4, mode="float")
    assert sel.reason == "structural tie at row 2 of the L0-grid: keys 0 (target) and 1 have equal features"


# Exists because a mutant survived: select's one-line error for a bad train length was unchecked.
def test_select_bad_train_length_message():
    with pytest.raises(SpecError) as err:
        select("relbias", "position:0", 0)
    assert str(err.value) == "invalid train length 0; accepted: an integer >= 1"


# Exists because a mutant survived: exact selection of an irrational PE was not shown to be a SpecError.
def test_exact_selection_of_an_irrational_pe_is_a_spec_error():
    assert "rope" in _message(lambda: select("rope:4", "offset:1", 4, mode="exact"))
