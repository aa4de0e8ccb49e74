"""Contract of :mod:`posreal.counterexamples.verifier.qla` (exact linear algebra over Q) against sympy.

Every function is compared with sympy's exact ``Matrix`` (rank, rref, Gauss-Jordan solve, the normal
equations of a projection) on hand-made matrices (empty, zero-width, zero rows and columns, wide, tall,
rank-deficient, identity) and on seeded random rational matrices whose entries are often 0 and 1.
"""

from __future__ import annotations

import copy
import random
from collections.abc import Sequence
from fractions import Fraction as F

import pytest
import sympy

from posreal.counterexamples.verifier import qla

Matrix = list[list[F]]
ENTRIES = (0, 0, 0, 1, 1, -1, 2, -2, 3, F(1, 2), F(-3, 2), F(2, 3))

HAND_MADE: dict[str, list[list[int]]] = {
    "no-rows": [],
    "zero-width": [[], []],
    "one-zero": [[0]],
    "zero-matrix": [[0, 0, 0], [0, 0, 0]],
    "identity-3": [[1, 0, 0], [0, 1, 0], [0, 0, 1]],
    "identity-4-reversed": [[0, 0, 0, 1], [0, 0, 1, 0], [0, 1, 0, 0], [1, 0, 0, 0]],
    "zero-first-column": [[0, 1, 2], [0, 2, 4], [0, 0, 1]],
    "zero-middle-column": [[1, 0, 1], [2, 0, 3], [1, 0, 1]],
    "zero-last-column": [[1, 2, 0], [2, 4, 0]],
    "zero-row-first": [[0, 0, 0], [1, 1, 1], [1, 2, 3]],
    "ones-below-pivot": [[2, 1, 0], [1, 1, 1], [1, 0, 1]],
    "wide": [[1, 2, 3, 4, 5], [2, 4, 6, 8, 11]],
    "tall": [[1, 2], [2, 4], [3, 7], [0, 0], [1, 1]],
    "dependent-rows": [[1, 2, 3], [4, 5, 6], [7, 8, 9]],
    "full-last-column": [[1, 0, 0, 0], [1, 1, 0, 1], [1, 0, 1, 1]],
}


def _fractions(rows: Sequence[Sequence[object]]) -> Matrix:
    return [[F(x) for x in row] for row in rows]  # type: ignore[arg-type]


def _sym(rows: Sequence[Sequence[F]], width: int | None = None) -> sympy.Matrix:
    n = len(rows[0]) if rows else (width or 0)
    return sympy.Matrix(len(rows), n, [sympy.Rational(x.numerator, x.denominator) for row in rows for x in row])


def _frac(q: sympy.Expr) -> F:
    q = sympy.Rational(q)
    return F(int(q.p), int(q.q))


def _random(rng: random.Random, m: int, n: int) -> Matrix:
    """An m x n matrix; half of the time of rank < min(m, n) (a product through a thinner inner dimension)."""
    if rng.random() < 0.5 and min(m, n) > 1:
        k = rng.randint(1, min(m, n) - 1)
        left = [[F(rng.choice(ENTRIES)) for _ in range(k)] for _ in range(m)]
        right = [[F(rng.choice(ENTRIES)) for _ in range(n)] for _ in range(k)]
        return [[sum((left[i][s] * right[s][j] for s in range(k)), F(0)) for j in range(n)] for i in range(m)]
    return [[F(rng.choice(ENTRIES)) for _ in range(n)] for _ in range(m)]


def _cases() -> list[tuple[str, Matrix]]:
    cases = [(name, _fractions(rows)) for name, rows in HAND_MADE.items()]
    rng = random.Random(20261203)
    for seed in range(40):
        m, n = rng.randint(1, 5), rng.randint(1, 5)
        cases.append((f"random-{seed}-{m}x{n}", _random(rng, m, n)))
    return cases


CASES = _cases()
IDS = [name for name, _ in CASES]


def _leading(row: Sequence[F]) -> int:
    return next(i for i, x in enumerate(row) if x != 0)


@pytest.mark.parametrize("rows", [rows for _, rows in CASES], ids=IDS)
def test_echelon_is_a_row_echelon_form_of_the_same_row_space(rows: Matrix) -> None:
    """Nonzero rows with strictly increasing leading columns, as many as sympy's rank, spanning the same
    rows (equal reduced row echelon forms); the first is the first input row nonzero in the first nonzero
    column; the input is left as it was."""
    before = copy.deepcopy(rows)
    out = qla.echelon(rows)
    assert rows == before
    assert all(type(x) is F for row in out for x in row)
    assert all(any(x != 0 for x in row) for row in out)
    leads = [_leading(row) for row in out]
    assert leads == sorted(set(leads))
    rank = _sym(rows).rank()
    assert len(out) == rank
    if rank:
        width = len(rows[0])
        assert _sym(out).rref()[0] == _sym(rows).rref()[0][:rank, :]
        first = min(_leading(row) for row in rows if any(row))
        assert out[0] == next(row for row in rows if row[first] != 0)
        assert all(len(row) == width for row in out)


@pytest.mark.parametrize("rows", [rows for _, rows in CASES], ids=IDS)
def test_rank_is_sympys_rank_of_the_matrix_and_of_its_transpose(rows: Matrix) -> None:
    """rank(A) = rank(A^T) = sympy's rank (0 without rows or columns)."""
    assert qla.rank(rows) == _sym(rows).rank()
    transposed = [list(column) for column in zip(*rows)]
    assert qla.rank(transposed) == qla.rank(rows)


def test_rank_of_the_empty_and_zero_width_matrices_is_zero() -> None:
    """No rows, zero-width rows: rank 0 and an empty echelon form."""
    assert qla.rank([]) == qla.rank([[]]) == qla.rank([[], [], []]) == 0
    assert qla.echelon([]) == qla.echelon([[], []]) == []


# Exists because a mutant survived: the column after a pivot in column 0 was never checked to be column 1.
def test_echelon_of_the_identity_keeps_its_rows_in_order() -> None:
    """The identity is its own echelon form: after the pivot in column 0 comes the one in column 1."""
    eye = [[F(int(i == j)) for j in range(3)] for i in range(3)]
    assert qla.echelon(eye) == eye


def _expected_solution(a: Matrix, b: list[F], n: int) -> list[F] | None:
    """sympy's verdict: the unique solution when rank A = n = rank [A | b], else None."""
    sa = _sym(a, n)
    sb = sympy.Matrix(len(b), 1, [sympy.Rational(x.numerator, x.denominator) for x in b])
    if sa.rank() != n or sa.row_join(sb).rank() != n:
        return None
    if n == 0:
        return []
    solution, params = sa.gauss_jordan_solve(sb)
    assert params.shape[0] == 0
    return [_frac(x) for x in solution]


def _systems() -> list[tuple[str, Matrix, list[F]]]:
    rng = random.Random(7)
    out: list[tuple[str, Matrix, list[F]]] = [
        ("empty", [], []),
        ("zero-width-consistent", [[], []], [F(0), F(0)]),
        ("zero-width-inconsistent", [[], []], [F(0), F(1)]),
        ("triangular", _fractions([[1, 1], [0, 1]]), [F(3), F(1)]),
        ("swap-needed", _fractions([[0, 1], [1, 0]]), [F(2), F(5)]),
        ("ones-column", _fractions([[1, 2], [1, 3]]), [F(1), F(1)]),
        ("tall-consistent", _fractions([[1, 0], [0, 1], [1, 1]]), [F(1), F(2), F(3)]),
        ("tall-off-by-one", _fractions([[1, 0], [0, 1], [1, 1]]), [F(1), F(2), F(4)]),
        ("singular", _fractions([[1, 1], [2, 2]]), [F(1), F(2)]),
        ("wide", _fractions([[1, 2, 3]]), [F(1)]),
    ]
    for seed in range(30):
        m = rng.randint(1, 5)
        n = rng.randint(1, m)
        a = _random(rng, m, n)
        x0 = [F(rng.choice(ENTRIES)) for _ in range(n)]
        b = [sum((r * x for r, x in zip(row, x0)), F(0)) for row in a]
        if seed % 3 == 2:                       # one right-hand side off by one: inconsistent when A is tall
            b[rng.randrange(m)] += 1
        out.append((f"random-{seed}-{m}x{n}", a, b))
    return out


SYSTEMS = _systems()


@pytest.mark.parametrize("a, b", [(a, b) for _, a, b in SYSTEMS], ids=[name for name, _, _ in SYSTEMS])
def test_solve_gives_sympys_unique_solution_or_none(a: Matrix, b: list[F]) -> None:
    """The unique x with A x = b exactly when rank A = n = rank [A | b] (then A x = b), else None."""
    n = len(a[0]) if a else 0
    x = qla.solve(a, b)
    assert x == _expected_solution(a, b, n)
    if x is not None:
        assert all(type(v) is F for v in x)
        assert [sum((r * v for r, v in zip(row, x)), F(0)) for row in a] == b


def _bases() -> list[tuple[str, Matrix, list[F]]]:
    rng = random.Random(11)
    out: list[tuple[str, Matrix, list[F]]] = [
        ("line", _fractions([[1, 1]]), [F(1), F(0)]),
        ("axis-plane", _fractions([[1, 0, 0], [0, 1, 0]]), [F(2), F(3), F(5)]),
        ("skew-plane", _fractions([[1, 2, 0], [0, 1, 1]]), [F(1), F(0), F(0)]),
        ("whole-space", _fractions([[1, 1], [1, -1]]), [F(3), F(4)]),
        ("orthogonal-vector", _fractions([[1, 0, 0]]), [F(0), F(1), F(1)]),
    ]
    while len(out) < 30:
        n = rng.randint(1, 4)
        k = rng.randint(1, n)
        basis = [[F(rng.choice(ENTRIES)) for _ in range(n)] for _ in range(k)]
        if _sym(basis).rank() == k:
            out.append((f"random-{len(out)}-{k}in{n}", basis, [F(rng.choice(ENTRIES)) for _ in range(n)]))
    return out


BASES = _bases()


@pytest.mark.parametrize("basis, x", [(b, x) for _, b, x in BASES], ids=[name for name, _, _ in BASES])
def test_project_solves_the_normal_equations(basis: Matrix, x: list[F]) -> None:
    """c = (B B^T)^-1 B x and P x = B^T c (sympy), x - P x is orthogonal to the basis, P P x = P x."""
    b = _sym(basis)
    sx = sympy.Matrix([sympy.Rational(v.numerator, v.denominator) for v in x])
    c_expected = (b * b.T).inv() * (b * sx)
    c, px = qla.project(basis, x)
    assert c == [_frac(v) for v in c_expected]
    assert px == [_frac(v) for v in b.T * c_expected]
    assert all(sum(((xi - pi) * ui for xi, pi, ui in zip(x, px, u)), F(0)) == 0 for u in basis)
    assert qla.project(basis, px)[1] == px


@pytest.mark.parametrize("n", [0, 1, 3])
def test_project_onto_no_basis_is_the_zero_vector(n: int) -> None:
    """An empty basis spans {0}: no coefficients, P x = 0 of x's length."""
    c, px = qla.project([], [F(5)] * n)
    assert c == [] and px == [F(0)] * n and all(type(v) is F for v in px)


@pytest.mark.parametrize("basis", [[[1, 1], [2, 2]], [[1, 0, 1], [0, 1, 0], [1, 1, 1]], [[0, 0]]],
                         ids=["parallel", "sum", "zero-vector"])
def test_project_onto_a_dependent_basis_is_refused(basis: list[list[int]]) -> None:
    """A singular Gram matrix: ValueError naming the dependent basis."""
    with pytest.raises(ValueError, match="^projection onto a dependent basis$"):
        qla.project(_fractions(basis), [F(1)] * len(basis[0]))
