"""Exact linear algebra over ℚ in pure Python, for the certificate verifier.

Deliberately independent of :mod:`posreal.theory.rational` (which wraps sympy's DomainMatrix): the
verifier re-derives ranks with its own Gaussian elimination on :class:`fractions.Fraction`.
Main functions: :func:`rank` (rank of a list of rows, by :func:`echelon`), :func:`solve` (the unique
solution of a linear system) and :func:`project` (orthogonal projection on a span).  Matrices here are
small (certificates of small instances).
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

Row = Sequence[Fraction]


def echelon(rows: Sequence[Row]) -> list[list[Fraction]]:
    """Row echelon form by Gaussian elimination in ℚ; returns the nonzero rows."""
    work = [list(map(Fraction, r)) for r in rows]
    if not work:
        return []
    ncols = len(work[0])
    out: list[list[Fraction]] = []
    col = 0
    while work and col < ncols:
        pivot = next((r for r in work if r[col] != 0), None)
        if pivot is None:
            col += 1
            continue
        work.remove(pivot)
        out.append(pivot)
        work = [[x - (r[col] / pivot[col]) * y for x, y in zip(r, pivot)] if r[col] != 0 else r
                for r in work]
        col += 1
    return out


def rank(rows: Sequence[Row]) -> int:
    """Rank of the matrix whose rows are ``rows`` (0 for no rows or zero-width rows)."""
    return len(echelon(rows))



def solve(a: Sequence[Row], b: Row) -> list[Fraction] | None:
    """The unique x with A x = b, by Gauss-Jordan elimination in ℚ.

    The unique x with A x = b (A: m × n of rank n), by Gauss-Jordan elimination in ℚ; None when the system
    has no solution or more than one."""
    m = len(a)
    n = len(a[0]) if m else 0
    work = [list(map(Fraction, row)) + [Fraction(bi)] for row, bi in zip(a, b)]
    pivots: list[int] = []
    r = 0
    for c in range(n):
        p = next((k for k in range(r, m) if work[k][c] != 0), None)
        if p is None:
            return None          # a free variable: not unique
        work[r], work[p] = work[p], work[r]
        inv = 1 / work[r][c]
        work[r] = [x * inv for x in work[r]]
        for k in range(m):
            if k != r and work[k][c] != 0:
                f = work[k][c]
                work[k] = [x - f * y for x, y in zip(work[k], work[r])]
        pivots.append(c)
        r += 1
    if any(row[n] != 0 for row in work[r:]):
        return None              # inconsistent
    return [work[k][n] for k in range(n)]


def project(basis: Sequence[Row], x: Row) -> tuple[list[Fraction], list[Fraction]]:
    """(c, P x): the orthogonal projection of x on span(basis) (basis independent), P x = Σ c_b b."""
    if not basis:
        return [], [Fraction(0)] * len(x)
    gram = [[sum((p * q for p, q in zip(u, w)), Fraction(0)) for w in basis] for u in basis]
    c = solve(gram, [sum((p * q for p, q in zip(u, x)), Fraction(0)) for u in basis])
    if c is None:
        raise ValueError("projection onto a dependent basis")
    return c, [sum((cb * b[i] for cb, b in zip(c, basis)), Fraction(0)) for i in range(len(x))]
