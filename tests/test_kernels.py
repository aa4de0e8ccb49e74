"""T_L θ (posreal.theory.kernels) in float and in ℚ (with posreal.theory.rational): general tables and
their shears against the definition ⟨θ, ψ(i, j)⟩, and the exact kernels' lengths, types and features.
"""

from __future__ import annotations

from fractions import Fraction as F

import numpy as np
from posreal.theory.encodings import Encoding, NoPE
from posreal.theory.tables import TableEncoding, build_table
from posreal.theory.pe_specs import parse_pe
from posreal.theory.transfer_operator import exact_transfer


class _CheckedGeneral(Encoding):
    """A rational general PE ψ(i, j) = (i, j, L0): refuses rows and keys of different lengths."""

    kind = "general"
    index = "position"
    rational = True

    def dim(self, train_length):
        return 3

    def index_features(self, rows, keys, train_length):
        rows, keys = np.asarray(rows), np.asarray(keys)
        assert rows.shape == keys.shape
        return np.stack([rows, keys, np.full(rows.shape, train_length)], axis=1).astype(float)

    def exact_index_features(self, rows, keys, train_length):
        assert len(rows) == len(keys), (len(rows), len(keys))
        return [(F(i), F(k), F(train_length)) for i, k in zip(rows, keys)]

    def __str__(self):
        return "checked-general"


# --------------------------------------------------------------------------- T_L θ in float
# Exists because a mutant survived: the float transfer of a general table was never compared with the definition.
def test_general_table_transfer_in_float_equals_the_definition():
    from posreal.theory.tables import register_pe, unregister_pe
    from posreal.theory.transfer_operator import naive_kernel_matrix, transfer

    triangle = [[[1, 0]], [[0, 2], [1, 1]], [[3, 0], [0, -1], [2, 2]], [[1, 1], [0, 0], [-2, 1], [1, -3]]]
    rows = [row + [[0, 0]] * (4 - len(row)) for row in triangle]              # (4, 4, 2): ψ(i, j), j > i unused
    register_pe("mk_general", rows, "general")
    try:
        pe, theta = parse_pe("mk_general"), np.array([0.5, -1.5])
        dense = transfer(pe, theta, 4, 3).matrix()                            # (4, 4), -inf above the diagonal
        assert np.array_equal(dense, naive_kernel_matrix(pe, theta, 4, 3))
        # by hand, row 3: ⟨θ, ψ(3, j)⟩ = -1, 0, -2.5, 5
        assert dense[3].tolist() == [-1.0, 0.0, -2.5, 5.0]
    finally:
        unregister_pe("mk_general")


# Exists because a mutant survived: transfer could build a general table's kernel without its index.
def test_transfer_of_a_general_table_and_of_its_dual_matches_the_definition() -> None:
    """A general table's kernel is in position form (key index k = j), and its shear's (``dual:``) in
    offset form, flipped from it; with no index the flip has nothing to flip.  Both kernels equal the
    naive T_L θ = ⟨θ, ψ(i, j)⟩ of their PE, entry by entry."""
    from posreal.theory.encodings import OFFSET, POSITION
    from posreal.theory.pe_specs import dual_pe
    from posreal.theory.transfer_operator import naive_kernel_matrix, transfer

    rows = [[[1, 0], [0, 0], [0, 0], [0, 0]], [[0, 2], [1, 1], [0, 0], [0, 0]],
            [[3, 1], [0, -1], [2, 2], [0, 0]], [[1, 1], [2, 0], [0, 3], [1, -2]]]     # (N, N, p) = (4, 4, 2)
    table = build_table("general_4", rows, "general")
    theta = np.array([1.0, -0.5])                                                   # (p,)
    kernel = transfer(table, theta, 4, 4)
    assert kernel.index == POSITION
    np.testing.assert_array_equal(kernel.matrix(), naive_kernel_matrix(table, theta, 4, 4))
    sheared = dual_pe(table)
    dual_kernel = transfer(sheared, theta, 4, 4)
    assert dual_kernel.index == OFFSET
    np.testing.assert_array_equal(dual_kernel.matrix(), naive_kernel_matrix(sheared, theta, 4, 4))


# --------------------------------------------------------------------------- T_L θ in ℚ
# Exists because a mutant survived: to_domain could drop denominators.
def test_to_domain_keeps_denominators():
    """A Fraction row goes to QQ with its denominator (1/2 stays 1/2, -3/4 stays -3/4)."""
    from posreal.theory.rational import from_domain, to_domain

    assert from_domain(to_domain([[F(1, 2), F(-3, 4)]])) == [[F(1, 2), F(-3, 4)]]


# Exists because a mutant survived: the length of an exact general-table kernel was unchecked.
def test_exact_transfer_of_a_general_table_has_the_asked_length():
    """T_L θ of a general rational table is an L-grid kernel: its length and row i (i + 1 values) by hand."""
    from posreal.theory.tables import register_pe, unregister_pe
    from posreal.theory.transfer_operator import exact_transfer

    triangle = [[[1, 0]], [[0, 2], [1, 1]], [[3, 0], [0, -1], [2, 2]]]
    register_pe("mk2b_general", [row + [[0, 0]] * (3 - len(row)) for row in triangle], "general")
    try:
        kernel = exact_transfer("mk2b_general", [F(1), F(1, 2)], 3, 3)
        assert kernel.length == 3
        # row 2: ψ = (3, 0), (0, -1), (2, 2) · θ = (1, 1/2) -> 3, -1/2, 3
        assert kernel.index_row(2) == [F(3), F(-1, 2), F(3)]
    finally:
        unregister_pe("mk2b_general")


# Exists because a mutant survived: the exact kernel of a width-0 general table could hold ints.
def test_exact_kernel_of_a_width_zero_general_table_is_fraction_zero():
    """exact_transfer's values are Fractions (its docstring).  A general table of width 0 has κ ≡ 0, like
    ``nope``: every value is Fraction(0), of the same type as nope's."""
    n = 3
    table = TableEncoding(name="w0", table_kind="general", values=np.zeros((n, n, 0)),
                          exact=tuple(tuple(() for _ in range(n)) for _ in range(n)))
    kernel = exact_transfer(table, [], n, n)
    nope = exact_transfer(NoPE(), [], n, n)
    for i in range(n):
        assert kernel.index_row(i) == nope.index_row(i) == [F(0)] * (i + 1)
        assert all(type(v) is F for v in kernel.index_row(i) + nope.index_row(i))


# Exists because a mutant survived: the exact kernel could ask features with mismatched rows or another L0.
def test_exact_kernel_of_a_general_encoding_uses_one_row_per_key_and_the_train_length():
    theta = [F(1), F(10), F(100)]
    kernel = exact_transfer(_CheckedGeneral(), theta, 3, 5)
    for i in range(3):
        assert kernel.index_row(i)[: i + 1] == [i + 10 * j + 100 * 5 for j in range(i + 1)]


# Exists because a mutant survived: the shear of a row-block kernel could lose its block size.
def test_a_flipped_row_block_kernel_keeps_its_block_size() -> None:
    """v_i(k) = -(k - 1)² on a 4-grid, two rows per evaluation.  The shear (offset index, same values) still
    evaluates two rows at a time: margins of rows 1, 2, 3 with key indices 1, 1, 0 are 0 - (-1) = 1,
    0 - (-1) = 1 and -1 - 0 = -1, from two evaluations of 2 and 1 rows."""
    from posreal.theory.kernels import KeyIndex, RowBlockKernel

    sizes: list[int] = []

    def evaluate(rows: np.ndarray) -> np.ndarray:
        sizes.append(rows.size)
        return np.tile(-(np.arange(4.0) - 1) ** 2, (rows.size, 1))

    shear = RowBlockKernel(4, "position", evaluate, 2).flipped()
    assert (shear.index, shear.block_rows()) == (KeyIndex.OFFSET, 2)
    margins, targets = shear.float_margins(np.array([1, 2, 3]), np.array([1, 1, 0]))
    assert (margins.tolist(), targets.tolist(), sizes) == ([1.0, 1.0, -1.0], [0.0, 0.0, -1.0], [2, 1])


# Exists because a mutant survived: a row-block kernel's row in Q (its exact_row) was never read.
def test_a_row_block_kernel_reads_rows_in_q_when_it_has_exact_rows() -> None:
    """``row(i)`` is ``exact_row(i)`` when given (Fractions), else the float evaluation's first i + 1 values."""
    from posreal.theory.kernels import RowBlockKernel

    third, tiny = F(1, 3), F(1, 10 ** 30)

    def evaluate(rows: np.ndarray) -> np.ndarray:
        return np.tile([1 / 3, 1 / 3, 0.0], (rows.size, 1))              # (b, 3) floats

    def exact_row(i: int) -> list[F]:
        return [third + tiny, third, F(0)][: i + 1]

    exact = RowBlockKernel(3, "position", evaluate, 1, exact_row)
    assert exact.index_row(2) == [third + tiny, third, F(0)]
    assert exact.exact_margins(np.array([1, 2]), np.array([0, 0]))[0] == [tiny, tiny]
    assert exact.flipped().index_row(1) == [third + tiny, third]
    floats = RowBlockKernel(3, "position", evaluate)
    assert floats.index_row(2) == [1 / 3, 1 / 3, 0.0]
    assert floats.exact_margins(np.array([1, 2]), np.array([0, 0]))[0] == [0.0, 0.0]


def test_row_is_indexed_by_key_for_every_pe():
    """``row(i)`` gives κ(i, j) for j = 0..i whatever the PE; the profile form is ``index_row``; both agree with the
    dense matrix built from the definition."""
    from posreal.theory.transfer_operator import naive_kernel_matrix, transfer
    rng = np.random.default_rng(3)
    for spec in ("rope:8", "abscol:8", "dual:rope:8", "clipped:4", "abssin:4", "t5"):
        from posreal.theory.pe_specs import parse_pe
        pe = parse_pe(spec)
        theta = rng.normal(size=pe.dim(6))                                      # (p,)
        kernel = transfer(pe, theta, 12, 6)
        dense = naive_kernel_matrix(pe, theta, 12, 6)                          # (L, L)
        for i in (0, 5, 11):
            assert np.allclose(kernel.row(i), dense[i, : i + 1])
            by_index = kernel.index_row(i)
            keys = [i - k for k in range(i + 1)] if kernel.index == "offset" else list(range(i + 1))
            assert np.allclose(by_index, dense[i, keys])
