"""The certified mode decides borderline rows rigorously, and leaves true ties undecided."""

import numpy as np
from mpmath import mp

from posreal.theory import parse_pe, parse_task
from posreal.theory.certified import interval_margin
from posreal.theory.alpha import row_outcomes


def test_borderline_row_decided_by_intervals():
    # rope:2 with θ = (1, 0): r(δ) = cos δ; on offset:0 row 710 the margin is 1 - cos(710) ≈ 1.8e-9
    pe, task = parse_pe("rope:2"), parse_task("offset:0")
    theta = np.array([1.0, 0.0])
    loose = row_outcomes(pe, task, theta, 711, 16, mode="float", tol=1e-8)
    assert loose.status[710] == 0                      # float with tol 1e-8: undecided
    certified = row_outcomes(pe, task, theta, 711, 16, mode="certified", tol=1e-8)
    assert certified.status[710] == 1 and certified.certified_rows >= 1
    mp.dps = 40
    assert 1 - mp.cos(710) > 0                         # the truth, independently


def test_exact_tie_stays_undecided():
    pe, task = parse_pe("abssin:4"), parse_task("position:0")
    zero = np.zeros(16)
    outcomes = row_outcomes(pe, task, zero, 20, 16, mode="certified")
    assert outcomes.counts()["undecided"] == 19        # every row with two keys ties at κ ≡ 0
    enclosure = interval_margin(pe, zero, 5, 0, 16)
    assert enclosure.a <= 0 <= enclosure.b


def test_error_bound_uses_the_largest_feature_of_the_grid():
    """Features of size 1e17 at one offset: the float margin 3 of row 2 is pure rounding (the true
    margin is -1.90); the bound must see max|ψ| over the grid, send the row to intervals and fail it."""
    from fractions import Fraction

    from posreal.theory import register_pe, unregister_pe

    pe = register_pe("cancel", [[0, 0], [1e17, 1e17], [13, 0]], "relative")
    theta = np.array([1.0, -(1 - 2.0 ** -53)])
    floating = row_outcomes(pe, parse_task("offset:1"), theta, 3, 2, mode="float")
    certified = row_outcomes(pe, parse_task("offset:1"), theta, 3, 2, mode="certified")
    exact_theta = [Fraction(1), -(1 - Fraction(1, 2 ** 53))]
    values = [sum(a * b for a, b in zip(exact_theta, f)) for f in ([0, 0], [10 ** 17, 10 ** 17], [13, 0])]
    true_margin = values[1] - max(values[0], values[2])       # row 2, target offset 1
    assert true_margin < 0 and floating.status[1] == 1         # float is fooled
    assert certified.status[1] == -1                           # certified is not
    unregister_pe("cancel")
