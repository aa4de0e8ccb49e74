"""Row margins and structural ties (posreal.theory.realization): exact and float margins of profile
kernels, ∞ - ∞, and the structural ties of a general table.

Expected values are derived in the tests by hand.
"""

from __future__ import annotations

from fractions import Fraction as F

import numpy as np
import pytest
from posreal.theory import parse_pe
from posreal.theory.kernels import ProfileKernel
from posreal.theory.realization import float_margins
from posreal.theory.kernels import profile_margins


# --------------------------------------------------------------------------- margins
# Exists because a mutant survived: the target values reported by exact_margins were unchecked.
def test_exact_profile_margins_report_the_target_values():
    """v = (2, 5, 1, 5) on every row (position index: key = target).  Targets (0, 1, 1, 3):
    row 0 has one key (margin None); row 1: 5 - 2 = 3; row 2: 5 - max(2, 1) = 3; row 3: 5 - max(2, 5, 1) = 0;
    the target values are v[t] = 2, 5, 5, 5."""
    from posreal.theory.kernels import ProfileKernel
    from posreal.theory.realization import exact_margins

    v = [F(2), F(5), F(1), F(5)]
    margins, values = exact_margins(ProfileKernel(4, "position", v), np.arange(4), np.array([0, 1, 1, 3]))
    assert margins == [None, F(3), F(3), F(0)]
    assert values == [F(2), F(5), F(5), F(5)]


# Exists because a mutant survived: profile margins of a rational profile could be left in ℚ.
def test_profile_margins_in_rationals_are_floats():
    """v = (0, 2, 1, 3): row i's margin is v(t) minus the best other v(k), k ≤ i; as floats either way."""
    exact = [F(0), F(2), F(1), F(3)]
    floats = np.array([float(x) for x in exact])
    rows, keys = np.array([1, 2, 3]), np.array([1, 1, 3])
    expected = np.array([2.0 - 0.0, 2.0 - 1.0, 3.0 - 2.0])
    for values in (exact, floats):
        out = profile_margins(values, rows, keys)
        assert out.dtype == np.float64 and out.tolist() == expected.tolist()


# Exists because a mutant survived: float margins of a rational profile kernel could be left in ℚ.
def test_float_margins_of_a_rational_profile_kernel_are_floats():
    exact = [F(0), F(2), F(1), F(3)]
    rows, targets = np.array([1, 2, 3]), np.array([0, 1, 0])      # offset targets: key = row - offset
    want_m, want_t = float_margins(ProfileKernel(4, "offset", np.array([float(x) for x in exact])), rows, targets)
    margins, target_values = float_margins(ProfileKernel(4, "offset", exact), rows, targets)
    assert margins.dtype == np.float64 and target_values.dtype == np.float64
    assert margins.tolist() == want_m.tolist() and target_values.tolist() == want_t.tolist()


# Exists because a mutant survived: ∞ - ∞ in profile_margins could raise a RuntimeWarning.
def test_profile_margins_of_infinite_values_are_nan_without_a_warning() -> None:
    """``errstate(invalid="ignore")`` keeps ∞ - ∞ (an infinite target against an infinite rival) a silent
    NaN; numpy's default would be a RuntimeWarning."""
    import warnings

    from posreal.theory.kernels import profile_margins

    with warnings.catch_warnings():
        warnings.simplefilter("error")
        margins = profile_margins(np.array([np.inf, np.inf, 1.0]), np.array([1, 2]), np.array([0, 2]))
    assert np.isnan(margins[0]) and margins[1] == -np.inf          # row 2: 1 - ∞


# --------------------------------------------------------------------------- structural ties
# Exists because a mutant survived: structural ties of a general table's last row were unchecked.
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


# Exists because a mutant survived: a structural tie was never shown to fail a row whose exact margin is positive.
def test_exact_status_marks_a_structurally_tied_row_failed_whatever_its_margin():
    """definitions.md#structural-tie: a row whose target shares its features with another key fails for every θ,
    so the exact status is FAILED there even with a positive margin; elsewhere > 0 is realized, ≤ 0 failed."""
    from posreal.theory.realization import FAILED, REALIZED, classify_exact
    margins = [F(1), F(1), F(0), F(-2), None]              # None: a row with one key (nothing to beat)
    ties = np.array([False, True, False, False, True])
    assert classify_exact(margins, ties).tolist() == [REALIZED, FAILED, FAILED, FAILED, FAILED]
    assert classify_exact(margins, np.zeros(5, dtype=bool)).tolist() == [REALIZED, REALIZED, FAILED, FAILED,
                                                                          REALIZED]   # control: no ties
