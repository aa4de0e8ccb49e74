"""The arithmetic that decides rows (theory/arithmetic.py): exact mode decides in ℚ, ties included.

A column table with f(0) = 1/3 + 10^-30 and f(1) = 1/3 (two rationals that round to the same float)
on ``position:0`` with θ = (1): row 0 has one key (margin +∞), rows 1 and 2 score the target key 0
at 1/3 + 10^-30 against 1/3 and 0, so their exact margin is 10^-30 > 0 and they are realized; no
row is a structural tie, because the features differ in ℚ.  With f(1) = f(0) exactly, rows 1 and 2
tie and fail.
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np
from posreal.theory.arithmetic import ExactArithmetic
from posreal.theory.realization import FAILED, REALIZED
from posreal.theory.tables import build_table
from posreal.theory.tasks import parse_task

THIRD = Fraction(1, 3)
TINY = Fraction(1, 10 ** 30)


# Exists because a mutant survived: exact mode's ties of a rational profile table were compared in float.
def test_exact_mode_tells_apart_rationals_that_share_a_float() -> None:
    """Distinct rational features are no structural tie, even when their floats are equal."""
    assert float(THIRD + TINY) == float(THIRD)
    pe = build_table("near", [[THIRD + TINY], [THIRD], [0], [0]], "column")
    out = ExactArithmetic().decide(pe, parse_task("position:0"), [Fraction(1)], 3, 2)
    assert out.margins == [None, TINY, TINY]
    assert out.status.tolist() == [REALIZED, REALIZED, REALIZED]
    assert out.ties.tolist() == [False, False, False]
    assert out.exact_alpha == 1


def test_exact_mode_fails_rows_whose_rational_features_are_equal() -> None:
    """Control: equal rational features are a structural tie, and the rows fail."""
    pe = build_table("equal", [[THIRD], [THIRD], [0], [0]], "column")
    out = ExactArithmetic().decide(pe, parse_task("position:0"), [Fraction(1)], 3, 2)
    assert out.margins == [None, 0, 0]
    assert out.status.tolist() == [REALIZED, FAILED, FAILED]
    assert np.array_equal(out.ties, [False, True, True])
