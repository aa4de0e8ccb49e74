"""A head with content: s(i, j) = r(i - j) + β·[x_i = x_j], and the exact margin condition for ``match``
(result E2, definitions.md#what-escapes).  Exact arithmetic (Fractions or ints) throughout.

Main results:

* per sequence: row i of ``match`` (target t, the latest j < i with x_j = x_i, offset δ_t = i - t) is
  realized iff r(δ_t) > r(0) (key i always matches its own token), r(δ_t) > r(δ) for every other
  matching offset δ > δ_t, and r(δ_t) + β > r(δ) for every non-matching offset δ (:func:`match_row_realized`);
* for every sequence at once (any vocabulary of two or more tokens: every match pattern occurs), row
  i ≥ 2 is realized iff (1) r(0) < r(δ) for 1 ≤ δ ≤ i, (2) r is strictly decreasing on 1..i, and
  (3) β > r(1) - r(i) (:func:`match_condition`).  Derivation: the pattern "match at δ_t, nothing
  between" needs r(δ_t) + β > r(δ) for every δ < δ_t, the worst case being δ = 1, δ_t = i; a match at
  δ' > δ_t needs (2); δ = 0 needs (1); these patterns are all the constraints.  QED.  The sufficient
  condition β > max_{δ≤i} r - min_{δ≤i} r = r(1) - r(0) is therefore not necessary: r(0) < r(i);
* every row of every length: (1), (2) on all δ ≥ 1 and β ≥ r(1) - inf_{δ≥1} r(δ) (the infimum of a
  strictly decreasing r is not attained).  r(δ) = 1/δ, r(0) = -1 needs β ≥ 1 (not β > 2);
* a growing positional part overrides β: with r(δ) = -μδ (δ ≥ 1, μ > 0) and r(0) = ρ, row i fails on
  some sequence once μ(i - 1) ≥ β or ρ ≥ -μi; :func:`override_row` gives the first such row
  i* = min(1 + ⌈β/μ⌉, ⌈-ρ/μ⌉) and the first length i* + 1 at which a scored row fails.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from posreal.theory.errors import bad_value

Number = Any   # int, Fraction or float: the scores are compared exactly when they are exact


def content_scores(r: Callable[[int], Number], beta: Number, tokens: Sequence[int], row: int) -> list[Number]:
    """s(row, j) = r(row - j) + β·[x_row = x_j] for j = 0..row: row + 1 scores."""
    return [r(row - j) + (beta if tokens[j] == tokens[row] else 0) for j in range(row + 1)]


def unique_argmax(scores: Sequence[Number]) -> int | None:
    """The unique maximizer of the scores, or None on a tie."""
    top = max(scores)
    keys = [j for j, s in enumerate(scores) if s == top]
    return keys[0] if len(keys) == 1 else None


def match_target(tokens: Sequence[int], row: int) -> int | None:
    """The latest j < row with x_j = x_row, or None (row not scored)."""
    return next((j for j in range(row - 1, -1, -1) if tokens[j] == tokens[row]), None)


def match_row_realized(r: Callable[[int], Number], beta: Number, tokens: Sequence[int], row: int) -> bool | None:
    """Whether the content head realizes row ``row`` of ``match`` on ``tokens`` (None: row not scored)."""
    t = match_target(tokens, row)
    if t is None:
        return None
    return unique_argmax(content_scores(r, beta, tokens, row)) == t


@dataclass(frozen=True)
class MatchCondition:
    """Which of the three conditions of row i hold (exact)."""

    row: int
    self_below: bool       # (1) r(0) < r(δ), 1 ≤ δ ≤ i
    decreasing: bool       # (2) r strictly decreasing on 1..i
    beta_margin: bool      # (3) β > r(1) - r(i) (vacuous for i = 1)

    @property
    def holds(self) -> bool:
        return self.self_below and self.decreasing and self.beta_margin


def match_condition(r: Callable[[int], Number], beta: Number, row: int) -> MatchCondition:
    """The exact condition for row ``row`` ≥ 1 to be realized on every token sequence that scores it."""
    if isinstance(row, bool) or not isinstance(row, int) or row < 1:
        raise bad_value("row", row, "an integer >= 1")
    values = [r(d) for d in range(row + 1)]
    return MatchCondition(row, all(values[0] < v for v in values[1:]),
                          all(values[d] > values[d + 1] for d in range(1, row)),
                          row == 1 or beta > values[1] - values[row])


def stated_condition(r: Callable[[int], Number], beta: Number, row: int) -> bool:
    """The sufficient condition first written down: β > max_{δ≤i} r(δ) - min_{δ≤i} r(δ)."""
    values = [r(d) for d in range(row + 1)]
    return beta > max(values) - min(values)


@dataclass(frozen=True)
class Override:
    """Where a slope positional part r(δ) = -μδ (δ ≥ 1), r(0) = ρ, overrides the content weight β."""

    slope: Fraction
    beta: Fraction
    self_score: Fraction
    row: int               # the first row that fails on some sequence
    length: int            # row + 1: the first length with a failing scored row
    reason: str            # "beta" (μ(i-1) ≥ β) or "self" (ρ ≥ -μi)


def override_row(slope: Number, beta: Number, self_score: Number) -> Override:
    """The first row i ≥ 1 at which r(δ) = -μδ, r(0) = ρ fails the exact condition, in ℚ."""
    mu, b, rho = Fraction(slope), Fraction(beta), Fraction(self_score)
    if mu <= 0:
        raise bad_value("slope μ", slope, "a positive number (a positional part that decreases without bound)")
    by_beta = max(2, 1 + math.ceil(b / mu))            # μ(i - 1) ≥ β, rows i ≥ 2
    by_self = max(1, math.ceil(-rho / mu))              # -μi ≤ ρ
    row, reason = (by_beta, "beta") if by_beta < by_self else (by_self, "self")
    return Override(mu, b, rho, row, row + 1, reason)
