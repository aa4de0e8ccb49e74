"""The linear programs of the ℓ1 and ℓ∞ geometries (posreal.theory.faces and face_rows): θ*_∞ through its bounded
form, the exact norm programs and the exact LP optimality data check.

Expected values are derived in the tests by hand on one- and two-variable programs.
"""

from __future__ import annotations

from fractions import Fraction as F

import numpy as np
import pytest
from posreal.theory import norm_programs
from posreal.theory.norm_programs import (Geometry, LPOptimality, exact_lp_optimality, exact_norm_program, norm_program,
                                          verify_lp_exact)


# --------------------------------------------------------------------------- θ*_∞ through its bounded form
# Exists because a mutant survived: the bounded ℓ∞ solve's solution and dual with an active bound were unchecked.
def test_bounded_linf_solve_with_the_bound_active():
    """z = [[1]]: min t s.t. θ ≥ 1, t ≥ ±θ has θ* = t* = 1 and the unique dual y = (1, 1, 0) (θ-column
    y0 - y1 + y2 = 0, t-column y1 + y2 = 1, maximize y0).  In the bounded form max s s.t. φ ≥ s,
    |φ| ≤ B, φ = s = B sits at its upper bound, whose reduced cost gives y1."""
    lp = norm_programs.norm_program(np.array([[1.0]]), norm_programs.Geometry.LINF)
    solved = norm_programs._solve_linf(lp, 2.0)
    assert solved is not None
    x, y, t, stable = solved
    assert x == pytest.approx([1.0, 1.0], abs=1e-9) and t == pytest.approx(1.0, abs=1e-9)
    assert y.dtype == np.float64 and y == pytest.approx([1.0, 1.0, 0.0], abs=1e-9)
    assert stable


# Exists because a mutant survived: the bounded ℓ∞ solve with B < 1 was unchecked.
def test_bounded_linf_solve_with_a_bound_below_one():
    """z = [[1]]: θ* = t* = 1.  Any B > 0 gives the same LP: with B = 1/2, max s s.t. φ ≥ s, |φ| ≤ 1/2 has
    φ = s = 1/2, mapped back to θ = φ/s = 1 and t = B/s = 1."""
    lp = norm_programs.norm_program(np.array([[1.0]]), norm_programs.Geometry.LINF)
    solved = norm_programs._solve_linf(lp, 0.5)
    assert solved is not None
    x, y, t, _ = solved
    assert x == pytest.approx([1.0, 1.0], abs=1e-9) and t == pytest.approx(1.0, abs=1e-9)
    assert y == pytest.approx([1.0, 1.0, 0.0], abs=1e-9)


# ----------------------------------------------------------------- the exact programs and their certificates
# Exists because a mutant survived: the exact norm program was not compared with the float one.
def test_the_exact_program_mirrors_the_float_program():
    """The ℚ program of z = [(1, -1)] in ℓ∞ has the float program's rows, right-hand side, cost and p = 2."""
    z = [[F(1), F(-1)]]
    lp = norm_programs.norm_program(np.array([[1.0, -1.0]]), norm_programs.Geometry.LINF)
    program = norm_programs.exact_norm_program(z, 2, norm_programs.Geometry.LINF)
    assert program.p == lp.p == 2
    assert program.geometry is norm_programs.Geometry.LINF
    assert np.array(program.A, dtype=float).tolist() == lp.A.tolist()
    assert [float(v) for v in program.b] == lp.b.tolist() and [float(v) for v in program.c] == lp.c.tolist()


# Exists because a mutant survived: verify_lp_exact could accept a dual row index outside the program.
def test_exact_lp_check_refuses_dual_rows_outside_the_program():
    """ℓ1 program of the one constraint z = (1): variables (θ, s), rows θ ≥ 1, s - θ ≥ 0, s + θ ≥ 0,
    b = (1, 0, 0), c = (0, 1).  Optimum θ = s = 1 (value 1), dual y = {0: 1, 1: 1}: Aᵀy = (1 - 1, 1) = c,
    bᵀy = 1.  A dual naming row 3 (there are 3 rows) or row -1 is refused, even with multiplier 0."""
    program = exact_norm_program([(F(1),)], 1, Geometry.L1)
    assert program.A == ((1, 0), (-1, 1), (1, 1)) and program.b == (1, 0, 0) and program.c == (0, 1)
    primal = [F(1), F(1)]
    assert verify_lp_exact(program, LPOptimality(primal, {0: F(1), 1: F(1)}, F(1)))
    assert not verify_lp_exact(program, LPOptimality(primal, {0: F(1), 1: F(1), 3: F(0)}, F(1)))
    assert not verify_lp_exact(program, LPOptimality(primal, {0: F(1), 1: F(1), -1: F(0)}, F(1)))


# Exists because a mutant survived: the value of the empty exact program could be the int 0.
def test_exact_optimality_data_of_the_empty_program_is_a_fraction() -> None:
    """The ℓ1 program with p = 0 and no training rows has no variables; its value, an empty sum in ℚ,
    is Fraction(0) (``sum`` without the start would give the int 0)."""
    program = exact_norm_program([], 0, Geometry.L1)
    lp = norm_program(np.zeros((0, 0)), Geometry.L1)
    cert = exact_lp_optimality(program, lp, np.zeros(0), np.zeros(0))
    assert cert is not None and cert.primal == [] and cert.dual == {}
    assert type(cert.value) is F and cert.value == 0
    assert verify_lp_exact(program, cert)
