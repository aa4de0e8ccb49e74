"""Exact linear algebra over ℚ in pure Python, for the certificate verifier.

Deliberately independent of :mod:`posreal.theory.rational` (which wraps sympy's DomainMatrix): the
verifier re-derives ranks with its own Gaussian elimination on :class:`fractions.Fraction`.
Main function: :func:`rank` (rank of a list of rows, by :func:`echelon`).  Matrices here are
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

