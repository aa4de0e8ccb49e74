"""Kills of seed-9 surviving mutants (part c).

Pinned here:
- ``geometry.optimal_face`` counts a singular value of the dual-support matrix A_S as part of its rank
  only above NULL_TOL · max(1, σ_max) (relative to the largest), so a support matrix with σ_max ≈ 14 and
  σ_min ≈ 7·10⁻¹⁰ leaves one face direction.
"""
from __future__ import annotations

import numpy as np
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
