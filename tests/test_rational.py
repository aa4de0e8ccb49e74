"""Rational helpers (posreal.theory.rational): a vector of Fractions on its common denominator."""

from __future__ import annotations

from fractions import Fraction as F

from posreal.theory.rational import common_denominator


# Exists because a mutant survived: the common-denominator vector could come back as machine ints.
def test_common_denominator_gives_python_ints_that_do_not_overflow() -> None:
    """(2⁴⁰/3, -2⁴⁰/5) = (5·2⁴⁰, -3·2⁴⁰) / 15.  Each numerator fits 64 bits, but a·a = 34·2⁸⁰ does not: the
    vector is an object array of Python ints, so integer products on it stay exact (as θ* and μ rely on)."""
    a, b = common_denominator([F(2 ** 40, 3), F(-(2 ** 40), 5)])
    assert (a.dtype, a.tolist(), b) == (object, [5 * 2 ** 40, -3 * 2 ** 40], 15)
    assert all(type(x) is int for x in a)
    assert a.dot(a) == 34 * 2 ** 80
    empty, one = common_denominator([])
    assert (empty.dtype, empty.shape, one) == (object, (0,), 1)


def test_the_rank_of_no_rows_is_zero() -> None:
    from posreal.theory.rational import rank
    assert rank([]) == 0
    assert rank([[F(1), F(2)]]) == 1          # the control: one non-zero row
