"""The certified mode decides borderline rows rigorously, and leaves true ties undecided; its interval
enclosures of features and margins, the largest feature |ψ| of a grid, and the a-priori float error bound."""

import math
from fractions import Fraction as F
import numpy as np
import pytest
from mpmath import mp

from posreal.theory import parse_pe, parse_task
from mpmath import iv

from posreal.theory.certified import UNIT_ROUNDOFF, float_error_bound, interval_margin
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


# ------------------------------------------------------------- interval enclosures and the float error bound
# Exists because a mutant survived: the enclosures of a rational table's features were unchecked.
def test_interval_features_of_a_rational_table_enclose_its_fractions():
    import mpmath
    from posreal.theory.pe_specs import parse_pe
    from posreal.theory.tables import register_pe, unregister_pe

    rows = [["1/3", "0"], ["-2/3", "1"], ["1/7", "-5/3"]]
    register_pe("thirds", rows, kind="relative")
    try:
        out = parse_pe("thirds").interval_index_features(2, [0, 1, 2], 3, iv)
    finally:
        unregister_pe("thirds")
    assert len(out) == 3
    def ends(box) -> tuple[F, F]:                            # the interval's binary endpoints, exactly
        return tuple(F(*mpmath.libmp.to_rational(end)) for end in box._mpi_)   # at the interval precision

    for k, enclosures in enumerate(out):                     # key index k of a relative table: offset k
        for box, exact in zip(enclosures, rows[k], strict=True):
            low, high = ends(box)
            assert low <= F(exact) <= high and high - low < F(1, 10 ** 15), (k, exact)


# Exists because a mutant survived: the enclosures of abssin's products were unchecked.
def test_abssin_interval_features_enclose_the_products():
    """abssin:2: ω = 1, φ(x) = (sin x, cos x), ψ(i, k) = vec(φ(i) φ(k)ᵀ) =
    (sin i sin k, sin i cos k, cos i sin k, cos i cos k); the enclosures at row 3, keys 1 and 2 contain
    these products and are tight (at mpmath's working precision)."""
    feats = parse_pe("abssin:2").interval_index_features(3, [1, 2], 4, iv)
    assert len(feats) == 2
    for k, cells in zip((1, 2), feats):
        expected = [math.sin(3) * math.sin(k), math.sin(3) * math.cos(k),
                    math.cos(3) * math.sin(k), math.cos(3) * math.cos(k)]
        assert len(cells) == 4
        for cell, value in zip(cells, expected):
            assert float(cell.a) - 1e-15 <= value <= float(cell.b) + 1e-15
            assert float(cell.b - cell.a) < 1e-12


# Exists because a mutant survived: the interval margin of a width-0 PE was unchecked.
def test_interval_margin_of_a_width_zero_pe_is_zero():
    """nope has width 0: every key scores exactly 0, so the enclosed margin of a row is [0, 0]."""
    from posreal.theory.certified import interval_margin
    from posreal.theory.pe_specs import parse_pe
    margin = interval_margin(parse_pe("nope"), np.zeros(0), 2, 0, 4)
    assert margin.a == 0 and margin.b == 0


# Exists because a mutant survived: interval_margin could read features without L0.
def test_interval_margin_reads_features_at_the_training_length() -> None:
    """``relbias`` (one-hot of min(k, L0 - 1)) needs L0 for its features.  θ = (1, 2, 3, 4) at L0 = 4,
    row 5, target key 0: key k scores θ[min(k, 3)] = 1, 2, 3, 4, 4, 4, so the margin is 1 - 4 = -3,
    enclosed exactly."""
    from posreal.theory.certified import interval_margin
    from posreal.theory.pe_specs import parse_pe

    theta = np.array([1.0, 2.0, 3.0, 4.0])
    scores = [theta[min(k, 3)] for k in range(6)]
    expected = scores[0] - max(scores[1:])
    enclosure = interval_margin(parse_pe("relbias"), theta, 5, 0, 4)
    assert enclosure is not None
    assert float(enclosure.a) == float(enclosure.b) == expected == -3.0


# Exists because a mutant survived: max|ψ| of the empty grid was unchecked.
def test_largest_feature_of_an_empty_grid_is_zero():
    """Every kind of PE answers 0 for the empty grid (as the table and AbsSin branches do with initial=0)."""
    from posreal.theory.pe_specs import parse_pe

    for spec in ("rope:4", "abscol:4", "abssin:4", "relbias", "alibi"):
        assert parse_pe(spec).max_abs_feature(0, 3) == 0.0, spec
    assert parse_pe("rope:4").max_abs_feature(5, 3) == 1.0    # cos 0 = 1 at position 0


# Exists because a mutant survived: abssin's max|ψ| was unchecked.
@pytest.mark.parametrize("length", [1, 8])
def test_abssin_max_feature_is_the_square_of_max_phi(length):
    """|ψ(i, k)| = |φ(i)_a φ(k)_b| ≤ max|φ|², and φ(0) = (sin 0, cos 0) = (0, 1) with |sin|, |cos| ≤ 1:
    max|ψ| = 1 on any grid (the bound 2·max|φ| would be 2)."""
    assert parse_pe("abssin:2").max_abs_feature(length, 4) == 1.0


# Exists because a mutant survived: the float error bound's formula was unchecked.
def test_float_error_bound_is_twice_eight_p_plus_l_u_norm_max_feature():
    """2E with E = 8 (p + L) u ‖θ‖₁ max(1, max|ψ|) (module docstring), u = 2⁻⁵³: θ = (0.5, -1.5), p = 2,
    L = 14, max|ψ| = 4 gives 2·8·16·2·4·2⁻⁵³ = 2⁻⁴²; max|ψ| = 0.25 counts as 1: 2⁻⁴⁴."""
    assert UNIT_ROUNDOFF == 2.0 ** -53
    theta = np.array([0.5, -1.5])
    assert float_error_bound(theta, 2, 14, 4.0) == 2.0 ** -42
    assert float_error_bound(theta, 2, 14, 0.25) == 2.0 ** -44


