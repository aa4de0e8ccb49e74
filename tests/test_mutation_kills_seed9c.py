"""Kills of seed-9 surviving mutants (part c).

Pinned here:
- ``encodings.build_table`` reports blocks numpy cannot stack as shape (0,);
- ``realization.profile_margins`` returns NaN for ∞ - ∞ without a RuntimeWarning;
- ``geometry.optimal_face`` counts a singular value of the dual-support matrix A_S as part of its rank
  only above NULL_TOL · max(1, σ_max) (relative to the largest), so a support matrix with σ_max ≈ 14 and
  σ_min ≈ 7·10⁻¹⁰ leaves one face direction.
"""
from __future__ import annotations

import numpy as np
import pytest
from posreal.theory.geometry import NULL_TOL, Geometry, LinearProgram, optimal_face


def test_the_rank_of_the_dual_support_is_relative_to_its_largest_singular_value() -> None:
    """geometry.x_optimal_face__mutmut_56: with ``NULL_TOL / max(1, σ_max)`` the nearly dependent
    support rows (10, 0) and (10, 10⁻⁹) would count as rank 2 and the face would be a point."""
    A = np.array([[10.0, 0.0], [10.0, 1e-9], [0.0, 1.0], [0.0, -1.0]])   # (M, n) = (4, 2), p = 1
    sv = np.linalg.svd(A[:2], compute_uv=False)                   # the support: the first two rows
    assert NULL_TOL / sv[0] < sv[1] < NULL_TOL * sv[0]            # the case the two thresholds decide apart
    lp = LinearProgram(Geometry.LINF, A, np.array([1.0, 1.0, -1.0, -1.0]), np.array([10.0, 0.0]), 1)
    face = optimal_face(lp, np.array([0.1, 0.0]), np.array([1.0, 1.0, 0.0, 0.0]))
    assert face.directions.shape == (1, 1)                        # one direction: rank A_S = 1 numerically
    assert not face.point                                         # |x₂| ≤ 1 along it: a segment, not a point
    assert not face.exact_point


def test_profile_margins_of_infinite_values_are_nan_without_a_warning() -> None:
    """realization.x_profile_margins__mutmut_62: ``errstate(invalid="ignore")`` keeps ∞ - ∞ (an
    infinite target against an infinite rival) a silent NaN; ``invalid=None`` leaves numpy's
    default, a RuntimeWarning."""
    import warnings

    from posreal.theory.realization import profile_margins

    with warnings.catch_warnings():
        warnings.simplefilter("error")
        margins = profile_margins(np.array([np.inf, np.inf, 1.0]), np.array([1, 2]), np.array([0, 2]))
    assert np.isnan(margins[0]) and margins[1] == -np.inf          # row 2: 1 - ∞


def test_a_table_numpy_cannot_stack_is_refused_as_shape_zero() -> None:
    """encodings.x_build_table__mutmut_22: blocks numpy cannot stack into one array (np.asarray raises
    ValueError) are reported with the shape (0,) — no table at all — not (1,)."""
    from posreal.theory.encodings import build_table
    from posreal.theory.errors import SpecError

    ragged = [np.zeros((2, 2)), np.zeros((2, 3))]
    with pytest.raises(SpecError) as err:
        build_table("t", ragged)
    assert str(err.value) == ("invalid feature table shape (0,); accepted: (N, p) for relative/column tables, "
                              "(N, N, p) for general ones, N >= 1, p >= 1")
