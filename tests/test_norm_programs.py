"""Contract tests for theory/norm_programs.py: ℓ∞ and ℓ1 selections of hand-solved programs, their exact
certificates (and each way verify_lp_exact refuses a broken one), the rounding of a solver's point to ℚ, and
the error texts that reach the user."""

from __future__ import annotations

from fractions import Fraction as F
from types import SimpleNamespace

import numpy as np
import pytest

from posreal.theory import norm_programs
from posreal.theory.errors import PosrealError, SpecError
from posreal.theory.norm_programs import (Geometry, LPOptimality, exact_lp_optimality, exact_norm_program,
                                          norm_program, parse_geometry, solve_program, verify_lp_exact)

# z = (1, 2): ℓ∞ optimum θ = (⅓, ⅓), t = ⅓; ℓ1 optimum θ = (0, ½), s = (0, ½)
ROW = [(F(1), F(2))]


@pytest.mark.parametrize(("geometry", "theta", "value"),
                         [(Geometry.LINF, [F(1, 3), F(1, 3)], F(1, 3)), (Geometry.L1, [F(0), F(1, 2)], F(1, 2))],
                         ids=["linf", "l1"])
def test_hand_solved_selection_and_its_exact_optimality_data(geometry: Geometry, theta: list[F], value: F) -> None:
    """HiGHS' optimum of θ₁ + 2θ₂ ≥ 1 is rounded to the hand optimum in ℚ, with a certificate that checks."""
    lp = norm_program(np.array([[1.0, 2.0]]), geometry)
    x, y, fun = solve_program(lp)
    assert fun == pytest.approx(float(value), abs=1e-12)
    program = exact_norm_program(ROW, 2, geometry)
    cert = exact_lp_optimality(program, lp, x, y)
    assert cert is not None and cert.primal[:2] == theta and cert.value == value
    assert verify_lp_exact(program, cert)
    assert all(v > 0 for v in cert.dual.values())


def test_program_layout_of_linf_and_l1() -> None:
    """Rows: Z, then 'upper' rows t - θ_c, then 'lower' rows t + θ_c (ℓ1 with its own s_c per coordinate)."""
    linf = norm_program(np.array([[1.0, 2.0]]), Geometry.LINF)
    assert linf.A.tolist() == [[1, 2, 0], [-1, 0, 1], [0, -1, 1], [1, 0, 1], [0, 1, 1]]
    assert linf.b.tolist() == [1, 0, 0, 0, 0] and linf.c.tolist() == [0, 0, 1] and linf.p == 2
    l1 = norm_program(np.array([[1.0, 2.0]]), Geometry.L1)
    assert l1.A.tolist() == [[1, 2, 0, 0], [-1, 0, 1, 0], [0, -1, 0, 1], [1, 0, 1, 0], [0, 1, 0, 1]]
    assert l1.c.tolist() == [0, 0, 1, 1]


def test_l2_has_no_linear_program() -> None:
    with pytest.raises(PosrealError, match=r"the ℓ2 selection is a quadratic program"):
        norm_program(np.array([[1.0]]), Geometry.L2)


def test_solver_failure_names_the_geometry_and_message(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(norm_programs, "linprog", lambda *a, **k: SimpleNamespace(status=2, message="infeasible!"))
    with pytest.raises(PosrealError) as err:
        solve_program(norm_program(np.array([[1.0]]), Geometry.L1))
    assert str(err.value) == "HiGHS did not solve the l1 selection: infeasible!"


@pytest.mark.parametrize(("text", "expected"), [("l2", Geometry.L2), (" LINF ", Geometry.LINF), ("l1", Geometry.L1),
                                                (Geometry.L1, Geometry.L1)], ids=["l2", "padded-linf", "l1", "enum"])
def test_parse_geometry_accepts_its_forms(text: str | Geometry, expected: Geometry) -> None:
    assert parse_geometry(text) is expected
    assert str(expected) == expected.value


def test_parse_geometry_error_is_one_short_line() -> None:
    with pytest.raises(SpecError) as err:
        parse_geometry("l3")
    assert str(err.value) == "invalid geometry 'l3'; accepted: l2, linf, l1"
    with pytest.raises(SpecError) as err:
        parse_geometry("x" * 100)
    assert str(err.value) == f"invalid geometry {repr('x' * 100)[:77]}...; accepted: l2, linf, l1"
    with pytest.raises(SpecError, match="invalid geometry 2;"):
        parse_geometry(2)  # type: ignore[arg-type]


def test_verify_refuses_each_broken_optimality_data() -> None:
    """ℓ1 of z = (1): θ = s = 1, y = {0: 1, 1: 1} is optimal; each broken variant fails its own check."""
    program = exact_norm_program([(F(1),)], 1, Geometry.L1)
    good = LPOptimality([F(1), F(1)], {0: F(1), 1: F(1)}, F(1))
    assert verify_lp_exact(program, good)
    assert not verify_lp_exact(program, LPOptimality([F(1)], {0: F(1), 1: F(1)}, F(1)))                # length
    assert not verify_lp_exact(program, LPOptimality([F(1), F(1)], {0: F(2), 1: F(-1)}, F(1)))          # y < 0
    assert not verify_lp_exact(program, LPOptimality([F(1, 2), F(1, 2)], {0: F(1), 1: F(1)}, F(1)))     # Ax < b
    assert not verify_lp_exact(program, LPOptimality([F(1), F(1)], {0: F(1), 2: F(1)}, F(1)))           # Aᵀy ≠ c
    assert not verify_lp_exact(program, LPOptimality([F(2), F(2)], {0: F(1), 1: F(1)}, F(2)))           # cᵀx ≠ bᵀy
    assert not verify_lp_exact(program, LPOptimality([F(1), F(1)], {0: F(1), 1: F(1)}, F(2)))           # value


def test_optimality_json_is_rational_text() -> None:
    cert = LPOptimality([F(1, 3), F(-2)], {4: F(1, 2), 0: F(3)}, F(1, 3))
    assert cert.to_json() == {"format": "posreal-lp-optimality", "version": 1, "primal": ["1/3", "-2/1"],
                              "dual": {"0": "3/1", "4": "1/2"}, "value": "1/3"}


# Exists because a mutant survived: dual noise above the absolute but below the relative tolerance was unchecked.
def test_rounding_ignores_dual_noise_relative_to_the_largest_dual() -> None:
    """ℓ∞ of z = (1/1000, 0): θ₁ ≥ 1000, t ≥ |θ₁|, |θ₂|.  At HiGHS' vertex x = (1000, 1000, t = 1000) the dual is
    y = 1000 on row 0, 1 on t - θ₁ ≥ 0 (rows 1): its support has 2 rows for 3 variables, so the tight row
    t - θ₂ ≥ 0 completes the basis and the rounding is x itself.  A dual of 1e-9 on the slack row t + θ₂ ≥ 0 is
    noise (below DUAL_TOL · max y = 1e-6): taking it into the basis would move the point to θ₂ = -1000."""
    lp = norm_program(np.array([[1e-3, 0.0]]), Geometry.LINF)
    program = exact_norm_program([(F(1, 1000), F(0))], 2, Geometry.LINF)
    x = np.array([1000.0, 1000.0, 1000.0])
    y = np.array([1000.0, 1.0, 0.0, 0.0, 1e-9])
    cert = exact_lp_optimality(program, lp, x, y)
    assert cert is not None and cert.primal == [F(1000), F(1000), F(1000)]
    assert cert.dual == {0: F(1000), 1: F(1)} and cert.value == 1000
    clean = exact_lp_optimality(program, lp, x, np.array([1000.0, 1.0, 0.0, 0.0, 0.0]))
    assert clean is not None and clean.primal == cert.primal


# Exists because a mutant survived: the dual support was never shown to enter the basis largest first.
def test_rounding_takes_the_largest_duals_into_the_basis_first() -> None:
    """ℓ∞ of z = (1), (2): θ ≥ 1, 2θ ≥ 1, t ≥ |θ|; the optimum is θ = t = 1 with y = 1 on θ ≥ 1 and on t - θ ≥ 0.
    A dual of 1e-6 on the slack row 2θ ≥ 1 is still in the support, but rows 0 and 2 (the large duals) already
    span ℚ², so the basis is {0, 2}; taking row 1 first would give θ = t = ½, which violates θ ≥ 1."""
    lp = norm_program(np.array([[1.0], [2.0]]), Geometry.LINF)
    assert lp.A.tolist() == [[1, 0], [2, 0], [-1, 1], [1, 1]] and lp.b.tolist() == [1, 1, 0, 0]
    program = exact_norm_program([(F(1),), (F(2),)], 1, Geometry.LINF)
    cert = exact_lp_optimality(program, lp, np.array([1.0, 1.0]), np.array([1.0, 1e-6, 1.0, 0.0]))
    assert cert is not None and cert.primal == [F(1), F(1)]
    assert cert.dual == {0: F(1), 2: F(1)} and cert.value == 1


def test_rounding_refuses_a_point_with_too_few_tight_rows() -> None:
    """x = (2000, 0, 2000) in the same program is not a vertex (only t - θ₁ is tight): no certificate."""
    lp = norm_program(np.array([[1e-3, 0.0]]), Geometry.LINF)
    program = exact_norm_program([(F(1, 1000), F(0))], 2, Geometry.LINF)
    assert exact_lp_optimality(program, lp, np.array([2000.0, 0.0, 2000.0]), np.zeros(5)) is None


def test_bounded_linf_agrees_with_the_direct_lp() -> None:
    """θ*_∞ of z = (1, 2), (2, -1) by hand: θ = (⅗, ⅕), t = ⅗ (both rows and t - θ₁ tight); the dual is unique,
    y = (⅕, ⅖) on Z and 1 on t - θ₁ ≥ 0 (θ₁: y₀ + 2y₁ = y₂, θ₂: 2y₀ = y₁, t: y₂ = 1).  Both routes give it, the
    bounded one stably; its bound must be positive and finite."""
    lp = norm_program(np.array([[1.0, 2.0], [2.0, -1.0]]), Geometry.LINF)
    x, y, fun = solve_program(lp)
    assert x == pytest.approx([0.6, 0.2, 0.6], abs=1e-9) and fun == pytest.approx(0.6, abs=1e-12)
    assert y == pytest.approx([0.2, 0.4, 1.0, 0.0, 0.0, 0.0], abs=1e-9)
    solved = norm_programs._solve_linf(lp, 5.0)
    assert solved is not None and solved[2] == pytest.approx(0.6, abs=1e-9) and solved[3] is True
    assert solved[0] == pytest.approx([0.6, 0.2, 0.6], abs=1e-9)
    assert solved[1] == pytest.approx([0.2, 0.4, 1.0, 0.0, 0.0, 0.0], abs=1e-9)
    program = exact_norm_program([(F(1), F(2)), (F(2), F(-1))], 2, Geometry.LINF)
    cert = exact_lp_optimality(program, lp, solved[0], solved[1])
    assert cert is not None and cert.primal == [F(3, 5), F(1, 5), F(3, 5)]
    assert cert.dual == {0: F(1, 5), 1: F(2, 5), 2: F(1)}
    for bad in (0.0, -1.0, float("inf"), float("nan")):
        assert norm_programs._solve_linf(lp, bad) is None
