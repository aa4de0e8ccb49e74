"""Contract of the certificate verifier (counterexamples/verifier):
qla: echelon, rank, projection and solve on small rational matrices.

Each case is derived by hand in the test, never pasted from a run (tests/verifier_cases.py holds the shared
edits and certificates)."""

from __future__ import annotations

from fractions import Fraction as F

import pytest

from posreal.counterexamples.verifier import qla


# ===================================================================== qla
def test_echelon_eliminates_below_each_pivot_in_order() -> None:
    # [[2, 1], [1, 3]]: pivot (2, 1), then (1, 3) - 1/2 (2, 1) = (0, 5/2)
    assert qla.echelon([[2, 1], [1, 3]]) == [[F(2), F(1)], [F(0), F(5, 2)]]
    # the pivot is the first row with a non-zero entry in the column; rows with a zero there are kept as they are
    assert qla.echelon([[0, 1], [3, 0]]) == [[F(3), F(0)], [F(0), F(1)]]
    # a zero first column is skipped; the dependent row vanishes
    assert qla.echelon([[0, 1, 2], [0, 2, 4], [0, 0, 1]]) == [[F(0), F(1), F(2)], [F(0), F(0), F(1)]]
    rows = [[1, 2], [2, 4]]
    assert qla.echelon(rows) == [[F(1), F(2)]] and rows == [[1, 2], [2, 4]]      # the input is not modified
    assert all(type(x) is F for row in qla.echelon([[1, 2], [3, 5]]) for x in row)


@pytest.mark.parametrize("rows, rank", [
    ([], 0), ([[]], 0), ([[], []], 0), ([[0, 0, 0]], 0), ([[0], [0]], 0), ([[F(1, 3)]], 1),
    ([[1, 2], [2, 4]], 1), ([[1, 2], [2, 4], [0, 0]], 1), ([[1, 0], [0, 1], [1, 1]], 2),
    ([[1, 2, 3], [4, 5, 6], [7, 8, 9]], 2), ([[1, 2, 3], [4, 5, 6], [7, 8, 10]], 3),
    ([[F(1, 2), F(1, 3)], [F(3, 2), 1]], 1), ([[0, 0, 1], [0, 1, 0], [1, 0, 0]], 3), ([[1, 1, 1, 1]], 1),
])
def test_rank_of_small_rational_matrices(rows: list, rank: int) -> None:
    assert qla.rank(rows) == rank
    transposed = [list(column) for column in zip(*rows)]
    assert qla.rank(transposed) == (rank if rows and rows[0] else 0)


# Exists because a mutant survived: the refusal of a projection onto a dependent basis was never read.
def test_projection_onto_a_dependent_basis_is_refused_by_name() -> None:
    # P x onto span{(1, 1)} is (1/2)(1, 1) for x = e1; with (2, 2) added the Gram matrix is singular: refused
    assert qla.project([[1, 1]], [1, 0]) == ([F(1, 2)], [F(1, 2), F(1, 2)])
    with pytest.raises(ValueError, match="^projection onto a dependent basis$"):
        qla.project([[1, 1], [2, 2]], [1, 0])


# Exists because a mutant survived: the empty system (no equations, no unknowns) was never solved.
@pytest.mark.parametrize("a, b, x", [
    ([], [], []), ([[2]], [3], [F(3, 2)]), ([[1, 1], [1, -1]], [3, 1], [F(2), F(1)]),
    ([[1, 0], [0, 1], [1, 1]], [1, 2, 3], [F(1), F(2)]), ([[1, 0], [0, 1], [1, 1]], [1, 2, 4], None),
    ([[1, 1], [2, 2]], [1, 2], None), ([[0, 1]], [1], None),
])
def test_solve_gives_the_unique_solution_or_none(a: list, b: list, x: list | None) -> None:
    """Unique: the empty system's is [] (the solution of 0 equations in 0 unknowns); inconsistent or
    underdetermined: None."""
    assert qla.solve(a, b) == x
