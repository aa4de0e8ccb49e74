"""Kills of seed-9 surviving mutants (part c).

Pinned here:
- ``encodings.build_table`` reports blocks numpy cannot stack as shape (0,);
- ``realization.profile_margins`` returns NaN for ∞ - ∞ without a RuntimeWarning;
- ``geometry.optimal_face`` counts a singular value of the dual-support matrix A_S as part of its rank
  only above NULL_TOL · max(1, σ_max) (relative to the largest), so a support matrix with σ_max ≈ 14 and
  σ_min ≈ 7·10⁻¹⁰ leaves one face direction;
- ``Encoding.pair_features`` refuses positions that are not whole numbers (the survivor
  ``pair_features__mutmut_8``, ``np.asarray(j, dtype=np.int64)`` → ``dtype=None``, showed that the
  original silently truncated a key position 1.5 to 1; the conversion is now ``integer_positions``).
"""
from __future__ import annotations

import numpy as np
import pytest
from posreal.theory.encodings import integer_positions
from posreal.theory.pe_specs import parse_pe
from posreal.theory.errors import SpecError
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

    from posreal.theory.kernels import profile_margins

    with warnings.catch_warnings():
        warnings.simplefilter("error")
        margins = profile_margins(np.array([np.inf, np.inf, 1.0]), np.array([1, 2]), np.array([0, 2]))
    assert np.isnan(margins[0]) and margins[1] == -np.inf          # row 2: 1 - ∞


def test_a_table_numpy_cannot_stack_is_refused_as_shape_zero() -> None:
    """encodings.x_build_table__mutmut_22: blocks numpy cannot stack into one array (np.asarray raises
    ValueError) are reported with the shape (0,) — no table at all — not (1,)."""
    from posreal.theory.tables import build_table
    from posreal.theory.errors import SpecError

    ragged = [np.zeros((2, 2)), np.zeros((2, 3))]
    with pytest.raises(SpecError) as err:
        build_table("t", ragged)
    assert str(err.value) == ("invalid feature table shape (0,); accepted: (N, p) for relative/column tables, "
                              "(N, N, p) for general ones, N >= 1, p >= 1")


@pytest.mark.parametrize("spec", ["rope:4", "dual:rope:4", "abssin:2", "colbias"])
def test_pair_features_refuses_a_fractional_key_position(spec: str) -> None:
    """The original cast ``j = 1.5`` to key 1; a fractional position is now a named error, for the
    query as for the key, and whole-number floats still mean the same positions as ints."""
    pe = parse_pe(spec)
    with pytest.raises(SpecError, match=r"^invalid key positions \[1\.5\]: not all whole numbers; "
                                        r"accepted: integer grid positions$"):
        pe.pair_features(np.array([3]), np.array([1.5]), 4)
    with pytest.raises(SpecError, match=r"^invalid query positions \[2\.5\]"):
        pe.pair_features(np.array([2.5]), np.array([1]), 4)
    i, j = np.array([3, 3, 2]), np.array([0, 1, 2])
    np.testing.assert_array_equal(pe.pair_features(i.astype(float), j.astype(float), 4),
                                  pe.pair_features(i, j, 4))                       # (3, p)
    assert pe.pair_features(np.array([], float), np.array([], float), 4).shape[0] == 0


@pytest.mark.parametrize("bad", [[np.nan], [np.inf], [1e30], [2.0 ** 63], ["a"], [0.5] * 9])
def test_integer_positions_refuses_what_int64_cannot_hold_exactly(bad: list[object]) -> None:
    with pytest.raises(SpecError, match="^invalid key positions .*: not all whole numbers"):
        integer_positions(np.array(bad), "key")


def test_integer_positions_passes_integers_through() -> None:
    ints = np.array([0, 5, 2 ** 40])
    assert integer_positions(ints, "key") is ints                                 # no copy on the hot path
    np.testing.assert_array_equal(integer_positions(np.array([1, 2], dtype=object), "key"), [1, 2])
    np.testing.assert_array_equal(integer_positions(np.array([3.0, -1.0]), "key"), [3, -1])
    assert integer_positions(np.array([3.0]), "key").dtype == np.int64
