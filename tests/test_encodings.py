"""Positional encodings' features (posreal.theory.encodings): profiles compute each key once and in
chunks, sinusoids of object arrays, a shear before its base is set, and integer grid positions.

(Spec strings and their one-line errors are in tests/test_specs_contract.py.)
"""

from __future__ import annotations

import copy

import numpy as np
import pytest
from posreal.theory.encodings import DualOf, Slope, OFFSET, ProfileEncoding, RELATIVE, integer_positions
from posreal.theory.encodings import Encoding
from posreal.theory.sinusoids import sinusoid
from posreal.theory.pe_specs import parse_pe
from posreal.theory.errors import SpecError


class _CountingProfile(ProfileEncoding):
    """f(k) = k·1 in width p (as a read-only broadcast view); records the keys of each features call."""

    kind = RELATIVE
    index = OFFSET

    def __init__(self, p: int):
        self.p = p
        self.calls: list[list[int]] = []

    def dim(self, train_length):
        return self.p

    def features(self, keys, train_length):
        self.calls.append(np.asarray(keys).tolist())
        return np.broadcast_to(np.asarray(keys, dtype=float)[:, None], (len(keys), self.p))


# --------------------------------------------------------------------------- features of a PE
# Exists because a mutant survived: a profile could compute a key's features twice.
def test_profile_computes_each_key_once():
    """With p = 1 the chunk size 2²² exceeds L = 5: one call with keys 0..4; v(k) = ⟨θ, f(k)⟩ = 3k."""
    pe = _CountingProfile(1)
    out = pe.profile(np.array([3.0]), 5, 4)
    assert pe.calls == [[0, 1, 2, 3, 4]]
    assert out.tolist() == [0.0, 3.0, 6.0, 9.0, 12.0]


# Exists because a mutant survived: the chunks of a profile's keys were unchecked.
def test_profile_chunks_the_keys_without_overlap():
    """With p = 2²⁰ the chunk size is 2²² / 2²⁰ = 4 keys: L = 10 splits into 0..3, 4..7, 8..9;
    θ = 1 gives v(k) = k·p."""
    p = 2 ** 20
    pe = _CountingProfile(p)
    out = pe.profile(np.ones(p), 10, 4)
    assert pe.calls == [[0, 1, 2, 3], [4, 5, 6, 7], [8, 9]]
    assert out.tolist() == [float(k * p) for k in range(10)]


# Exists because a mutant survived: sinusoid was never given an object array of Python ints.
def test_sinusoid_accepts_an_object_array_of_ints():
    x = np.array([0, 1, 3], dtype=object)
    got = sinusoid(x, 4, 100.0, sin_first=True)
    omega = np.array([1.0, 100.0 ** -0.5])                            # base^(-2f/d), f = 0, 1
    xs = np.array([0.0, 1.0, 3.0])[:, None] * omega[None, :]
    assert got.dtype == np.float64
    np.testing.assert_allclose(got, np.concatenate([np.sin(xs), np.cos(xs)], axis=1), rtol=0, atol=1e-15)


def test_a_dual_copies_and_pickles_as_itself():
    """A shear survives copy, deepcopy and pickle (``copy``/``pickle`` build the object before ``base`` is set)."""
    import pickle
    dual = DualOf(Slope(alias="alibi"))   # the old name, printed as given
    assert copy.copy(dual) == dual and str(copy.deepcopy(dual)) == "dual:alibi"
    assert pickle.loads(pickle.dumps(dual)) == dual


# --------------------------------------------------------------------------- integer positions
# Exists because a mutant survived: the dtype of key positions was unchecked (1.5 was cut to key 1).
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


# Exists because a mutant survived: the dtype of key positions was unchecked (1.5 was cut to key 1).
@pytest.mark.parametrize("bad", [[np.nan], [np.inf], [1e30], [2.0 ** 63], ["a"], [0.5] * 9])
def test_integer_positions_refuses_what_int64_cannot_hold_exactly(bad: list[object]) -> None:
    with pytest.raises(SpecError, match="^invalid key positions .*: not all whole numbers"):
        integer_positions(np.array(bad), "key")


# Exists because a mutant survived: the dtype of key positions was unchecked (1.5 was cut to key 1).
def test_integer_positions_passes_integers_through() -> None:
    ints = np.array([0, 5, 2 ** 40])
    assert integer_positions(ints, "key") is ints                                 # no copy on the hot path
    np.testing.assert_array_equal(integer_positions(np.array([1, 2], dtype=object), "key"), [1, 2])
    np.testing.assert_array_equal(integer_positions(np.array([3.0, -1.0]), "key"), [3, -1])
    assert integer_positions(np.array([3.0]), "key").dtype == np.int64


# Exists because a mutant survived: Encoding.max_abs_feature, the fallback no built-in PE uses, was never run.
@pytest.mark.parametrize("spec", ["abssin:4", "rope:4", "dual:slope"])
def test_generic_max_abs_feature_is_the_largest_entry_of_the_feature_grid(spec):
    """Every built-in PE overrides ``max_abs_feature`` (profiles, blocked, tables, AbsSin, duals), so only
    a direct call runs the base class's version: max |ψ(i, k)| over 0 ≤ k ≤ i < L, entry by entry."""
    pe, length, train_length = parse_pe(spec), 9, 4
    naive = max(abs(float(x)) for i in range(length) for k in range(i + 1)
                for x in pe.index_features(np.array([i]), np.array([k]), train_length)[0])
    assert naive > 0
    assert Encoding.max_abs_feature(pe, length, train_length) == pytest.approx(naive, rel=1e-12)
    assert Encoding.max_abs_feature(pe, length, train_length) == pytest.approx(pe.max_abs_feature(length, train_length))
    assert Encoding.max_abs_feature(pe, 0, train_length) == 0.0


# Exists because a mutant survived: ties_from_ids was never run on its own.
def test_ties_from_ids_marks_later_keys_and_rows_that_reach_a_second_key() -> None:
    """ids [0, 1, 0, 2]: key 0 ties once key 2 (its id's second key) is on the row; key 2 always ties."""
    from posreal.theory.feature_ids import ties_from_ids
    ties = ties_from_ids(np.array([0, 1, 0, 2]), np.array([1, 2, 2, 3, 3]), np.array([0, 0, 2, 3, 1]))
    assert ties.tolist() == [False, True, True, False, False]


# Exists because a mutant survived: the printed name of a bucketed PE was unchecked here.
@pytest.mark.parametrize("spec", ["clipped", "clipped:3", "colbias", "colbias:2", "relbias", "relbias:4"])
def test_bucketed_pes_print_as_written(spec: str) -> None:
    """``str`` of a parsed bucketed PE is its spec."""
    assert str(parse_pe(spec)) == spec


# Exists because a mutant survived: float margins' structural ties were never computed at the cell's L0.
def test_float_row_margins_ties_buckets_at_the_train_length() -> None:
    """clipped at L0 = 2 (D = 1), θ = (1, 0): profile v = (1, 0, 0); offsets 1 and 2 share bucket 1."""
    pe = parse_pe("clipped")
    margins, values, ties = pe.float_row_margins(np.array([1.0, 0.0]), np.array([0, 1, 2]), np.array([0, 0, 1]), 3, 2)
    assert margins.tolist() == [np.inf, 1.0, -1.0] and values.tolist() == [1.0, 1.0, 0.0]
    assert ties.tolist() == [False, False, True]


# Exists because a mutant survived: a rational general PE's ties were never compared over the whole row.
def test_a_rational_general_table_ties_where_its_features_repeat_on_the_row() -> None:
    """ψ(2, 0) = ψ(2, 2) = 1: row 2's key 0 ties (and key 1 does not); row 1's keys differ."""
    from posreal.theory.tables import build_table
    table = [[[0], [0], [0]], [[1], [0], [0]], [[1], [2], [1]]]
    pe = build_table("gen", table, "general")
    assert pe.rational
    ties = pe.structural_ties(np.array([1, 2, 2]), np.array([0, 0, 1]), 3, 2)
    assert ties.tolist() == [False, True, False]


class _FloatGeneral(Encoding):
    """A float general PE ψ(i, j) = (i == j, 0.5): asserts rows and keys come as arrays of one shape (m,)."""

    kind = "general"
    index = "position"

    def dim(self, train_length: int) -> int:
        return 2

    def index_features(self, rows, keys, train_length):
        rows, keys = np.asarray(rows), np.asarray(keys)
        assert rows.ndim == 1 and rows.shape == keys.shape, (rows.shape, keys.shape)
        return np.stack([(rows == keys).astype(float), np.full(rows.shape, 0.5)], axis=1)


# Exists because a mutant survived: the float ties of a general PE passed index_features rows of a wrong shape.
def test_float_general_ties_pass_rows_and_keys_of_one_shape() -> None:
    """Keys below the diagonal share (0, 0.5): a row ties iff its target is off the diagonal with another such key."""
    ties = _FloatGeneral().structural_ties(np.array([1, 1, 2, 2]), np.array([0, 1, 0, 2]), 3, 2)
    assert ties.tolist() == [False, False, True, False]


# Exists because a mutant survived: the exact kernel of a bucketed PE without D was never built at its L0.
def test_exact_kernel_of_clipped_uses_the_train_length() -> None:
    """clipped at L0 = 3 (D = 2), θ = (1, 2, 3): the profile in ℚ is 1, 2, 3, 3, 3."""
    from fractions import Fraction
    theta = [Fraction(1), Fraction(2), Fraction(3)]
    assert parse_pe("clipped").exact_kernel(theta, 5, 3).index_row(4) == [1, 2, 3, 3, 3]


# Exists because a mutant survived: which extension method rescales slope's positions was unchecked.
def test_slope_extends_by_position_interpolation_only() -> None:
    """pi at 8 from 2 divides the position scale by 4; ntk is refused with the one-line extension message."""
    from fractions import Fraction
    from posreal.theory.extension import ExtensionMethod, FrequencyRescaling
    assert Slope().extended(FrequencyRescaling(ExtensionMethod.PI, 8, 2), 2).position_scale == Fraction(1, 4)
    with pytest.raises(SpecError, match=r"^invalid extension 'ntk' for PE 'slope'; accepted: rope, "):
        Slope().extended(FrequencyRescaling(ExtensionMethod.NTK, 8, 2), 2)
