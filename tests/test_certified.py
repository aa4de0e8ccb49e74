"""Issue 2: the certified mode decides borderline rows rigorously, and leaves true ties undecided."""

import numpy as np
from mpmath import mp

from theory import parse_pe, parse_task
from theory.certified import interval_margin
from theory.alpha import row_outcomes


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
