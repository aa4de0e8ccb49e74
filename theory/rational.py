"""Exact linear algebra over ℚ for the exact mode (rational PEs) and for certificates.

Thin layer over sympy's ``DomainMatrix`` on the field ``QQ`` (fraction-free, exact), so the
rest of the package speaks :class:`fractions.Fraction`.  Main functions: :func:`solve`
(unique solution of a square or full-column-rank system), :func:`pivot_rows` (a maximal
linearly independent subset of rows, in order), :func:`rank`; :func:`integer_form` and
:func:`common_denominator` (rows and vectors as integers over one denominator), :func:`row_products`
(z_k·θ for every row, on integers) and :func:`unit_scaled` (rows divided by powers of two to unit size).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from fractions import Fraction
from typing import TYPE_CHECKING, Any

import numpy as np

if TYPE_CHECKING:
    from sympy.polys.matrices import DomainMatrix

Vector = Sequence[Fraction]


def to_domain(rows: Sequence[Vector], ncols: int | None = None) -> DomainMatrix:
    """Rows of Fractions -> DomainMatrix over QQ: (m, n).  (sympy loads here, on first exact use.)"""
    from sympy import QQ
    from sympy.polys.matrices import DomainMatrix
    m = len(rows)
    n = ncols if ncols is not None else (len(rows[0]) if m else 0)
    data = [[QQ(int(x.numerator), int(x.denominator)) for x in row] for row in rows]
    return DomainMatrix(data, (m, n), QQ)


def to_fraction(x) -> Fraction:
    return Fraction(int(x.numerator), int(x.denominator))


def from_domain(matrix: DomainMatrix) -> list[list[Fraction]]:
    return [[to_fraction(x) for x in row] for row in matrix.to_list()]


def dot(a: Vector, b: Vector) -> Fraction:
    return sum((x * y for x, y in zip(a, b)), Fraction(0))


def transpose(rows: Sequence[Vector]) -> list[list[Fraction]]:
    return [list(col) for col in zip(*rows)]


def rank(rows: Sequence[Vector], ncols: int | None = None) -> int:
    if not rows:
        return 0
    return to_domain(rows, ncols).rank()


def pivot_rows(rows: Sequence[Vector], ncols: int) -> list[int]:
    """Indices of a maximal linearly independent subset of ``rows``, greedy in the given order."""
    if not rows or ncols == 0:
        return []
    _, pivots = to_domain(transpose(rows), len(rows)).rref()  # pivot columns of Aᵀ = rows of A
    return list(pivots)


def solve(a: Sequence[Vector], b: Vector) -> list[Fraction] | None:
    """The unique x with A x = b (A: (m, n) of full column rank), or None if there is none."""
    m = len(a)
    n = len(a[0]) if m else 0
    augmented = to_domain([list(row) + [bi] for row, bi in zip(a, b)], n + 1)
    reduced, pivots = augmented.rref()
    if n in pivots or len(pivots) < n:
        return None  # inconsistent, or not a unique solution
    rows = from_domain(reduced)
    return [rows[r][n] for r in range(n)]


def integer_form(rows: Sequence[Vector], ncols: int) -> tuple[np.ndarray, int]:
    """Rows of Fractions as (N, D) with rows = N / D: N an object array of Python ints (m, n)."""
    D = math.lcm(*{x.denominator for row in rows for x in row}) if rows and ncols else 1
    N = np.array([[x.numerator * (D // x.denominator) for x in row] for row in rows], dtype=object)
    return N.reshape(len(rows), ncols), D


def common_denominator(values: Sequence[Fraction]) -> tuple[np.ndarray, int]:
    """A vector of Fractions as (a, b) with values = a / b, b > 0: a an object int array (n,)."""
    b = math.lcm(*{Fraction(x).denominator for x in values}) if len(values) else 1
    return np.array([Fraction(x).numerator * (b // Fraction(x).denominator) for x in values], dtype=object), b


def fraction_str(x: Fraction) -> str:
    """Certificate form of a rational: ``"p/q"`` (``"p/1"`` for integers)."""
    x = Fraction(x)
    return f"{x.numerator}/{x.denominator}"


def parse_fraction(text: str) -> Fraction:
    """Inverse of :func:`fraction_str`; rejects anything that is not ``"p/q"``."""
    if not isinstance(text, str) or text.count("/") != 1:
        raise ValueError(f"invalid rational {text!r}; accepted: a string 'p/q' with integers p, q")
    num, den = text.split("/")
    try:
        value = Fraction(int(num, 10), int(den, 10))
    except (ValueError, ZeroDivisionError):
        raise ValueError(f"invalid rational {text!r}; accepted: a string 'p/q' with integers p, q != 0") from None
    return value


def row_products(zq: list[tuple], theta: list[Fraction]) -> list[Fraction]:
    """z_k · θ for every constraint, in ℚ (integer arithmetic on a common denominator)."""
    if not zq:
        return []
    N, D = integer_form(zq, len(theta))          # (m, p), Z = N / D
    a, b = common_denominator(theta)             # θ = a / b
    return [Fraction(int(x), D * b) for x in N.dot(a)]


def unit_scaled(zq: list[tuple]) -> tuple[list[tuple], list[Fraction]]:
    """Each row divided by the power of two 2^e with 1 ≤ max|entry| / 2^e < 2 (zero rows by 1), in ℚ:
    (m, p) -> the scaled rows (m, p) and the divisors (m,).  Their float images keep every row's
    direction, whatever its size (2⁻¹¹⁰⁰ or 2¹¹⁰⁰ becomes 1.0)."""
    scaled, divisors = [], []
    for row in zq:
        top = max((abs(x) for x in row), default=Fraction(0))
        e = 0
        if top:
            e = top.numerator.bit_length() - top.denominator.bit_length()   # floor(log2 top) ∈ {e - 1, e}
            if top < Fraction(2) ** e:
                e -= 1
        div = Fraction(2) ** e
        scaled.append(tuple(x / div for x in row))
        divisors.append(div)
    return scaled, divisors


def point_interval(iv: Any, x: Fraction | float) -> Any:
    """The enclosure of an exact number: a Fraction p/q or a float (an exact binary rational)."""
    if isinstance(x, Fraction):
        return iv.mpf(x.numerator) / iv.mpf(x.denominator)
    return iv.mpf(float(x))
