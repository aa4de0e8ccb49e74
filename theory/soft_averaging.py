"""Soft averaging with BOS and no PE (result E4, definitions.md#what-escapes): uniform causal attention
recovers position and token counts at every length, with margins that shrink like 1/n.

Setting: tokens x_1..x_i over {0..V-1} after a BOS at position 0; one-hot values e_BOS, e_0..e_{V-1} in
ℝ^{V+1} (BOS its own coordinate, :data:`BOS_COORD` = V); no PE and zero scores, so the causal softmax is
uniform and row i reads h_i = (e_BOS + Σ_{1≤j≤i} e_{x_j}) / (i + 1) (:func:`averaged_stream`, exact in ℚ).

Main results (our formalization of §E4; proofs in the docstrings, checked by
:func:`posreal.checks.soft_averaging_checks.check_soft_averaging`):

* recovery (:func:`recover`): i = 1/h_i[BOS] - 1 and c_a(i) = h_i[a] / h_i[BOS] at every length —
  h_i[BOS] = 1/(i + 1) and h_i[a] = c_a(i)/(i + 1);
* count margin (:func:`count_margin`): two prefixes of the same row i with different counts give outputs at
  ℓ∞ distance at least 1/(i + 1) (the counts differ by a nonzero integer vector, divided by i + 1), and
  exactly 1/(i + 1) when one count moves by one;
* position margin (:func:`position_margin`): rows i < i' differ in the BOS coordinate by
  (i' - i)/((i + 1)(i' + 1)) ≥ 1/((i + 1)(i + 2)), attained at i' = i + 1;
* a count task is realized at every length: ``majority`` (row i with c_a(i) ≠ c_b(i), target
  [c_a(i) > c_b(i)]) by the fixed readout h_i[a] - h_i[b] (:func:`majority_readout`), whose sign is right on
  every such row with margin |c_a - c_b|/(i + 1) ≥ 1/(i + 1).  Static hard routing of K layers reads at most
  2^K positions (E1), so its Bayes accuracy on such rows is below 1 once i outgrows 2^K; soft averaging is
  exact at every length, and what it pays is the margin, which shrinks like 1/n (a readout with a fixed
  noise or rounding floor ε loses rows once 1/(i + 1) ≤ ε).

Without BOS (or with a BOS equal to a token) the position is lost: ``ab`` and ``abab`` average to the same
vector — the negative control of the check.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

from posreal.theory.errors import bad_value


def _check(tokens: Sequence[int], vocab: int) -> None:
    if isinstance(vocab, bool) or not isinstance(vocab, int) or vocab < 1:
        raise bad_value("vocabulary size", vocab, "an integer >= 1")
    if any(isinstance(t, bool) or not isinstance(t, int) or not 0 <= t < vocab for t in tokens):
        raise bad_value("tokens", list(tokens)[:8], f"integers in 0..{vocab - 1}")


def averaged_stream(tokens: Sequence[int], vocab: int, bos: bool = True) -> list[tuple[Fraction, ...]]:
    """h_i for every row of the sequence (BOS, tokens...) — or of ``tokens`` alone when ``bos`` is False —
    under uniform causal attention over one-hot values: one (V + 1)-tuple per row, exact."""
    _check(tokens, vocab)
    counts = [0] * (vocab + 1)
    out: list[tuple[Fraction, ...]] = []
    for t in ([vocab] if bos else []) + list(tokens):
        counts[t] += 1
        size = len(out) + 1
        out.append(tuple(Fraction(c, size) for c in counts))
    return out


BOS_COORD = -1
"""The BOS coordinate of a row of :func:`averaged_stream` (the last one, index V)."""


def recover(row: Sequence[Fraction]) -> tuple[int, tuple[int, ...]]:
    """(i, (c_0..c_{V-1})) from h_i: i = 1/h[BOS] - 1, c_a = h[a]/h[BOS] (a row of a BOS sequence)."""
    weight = Fraction(row[BOS_COORD])
    if weight <= 0:
        raise bad_value("averaged row", list(row)[:8], "a row of a sequence that starts with BOS (h[BOS] > 0)")
    i, counts = 1 / weight - 1, [Fraction(v) / weight for v in row[:BOS_COORD]]
    if i.denominator != 1 or any(c.denominator != 1 for c in counts):
        raise bad_value("averaged row", list(row)[:8], "a row of uniform attention over one-hot values")
    return int(i), tuple(int(c) for c in counts)


def count_margin(row: int) -> Fraction:
    """The least ℓ∞ distance between two outputs of row i with different counts: 1/(i + 1)."""
    return Fraction(1, row + 1)


def position_margin(row: int) -> Fraction:
    """The least difference of the BOS coordinate between row i and any later row: 1/((i + 1)(i + 2))."""
    return Fraction(1, (row + 1) * (row + 2))


def majority_readout(row: Sequence[Fraction], a: int, b: int) -> Fraction:
    """The fixed linear readout of ``majority``: h[a] - h[b] (> 0 iff token a has occurred more often)."""
    return Fraction(row[a]) - Fraction(row[b])
