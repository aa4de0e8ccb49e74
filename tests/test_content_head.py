"""The content head of E2: per-sequence realization, the exact condition (iff, by enumeration), the first
written condition (sufficient, not necessary), and the override row of a slope."""

import itertools
from fractions import Fraction

import pytest

from posreal.theory.content_head import (content_scores, match_condition, match_row_realized, match_target,
                                         override_row, stated_condition, unique_argmax)
from posreal.theory.errors import SpecError


def every_sequence(vals, beta, row):
    r = vals.__getitem__
    out = [match_row_realized(r, beta, list(p) + [1], row) for p in itertools.product([0, 1], repeat=row)]
    return all(o for o in out if o is not None)


def test_scores_and_argmax():
    r = lambda d: Fraction(-1) if d == 0 else Fraction(1, d)
    assert content_scores(r, 2, [5, 6, 5], 2) == [Fraction(1, 2) + 2, 1, 1]
    assert unique_argmax([1, 3, 3]) is None and unique_argmax([1, 3, 2]) == 1
    assert match_target([5, 6, 5], 2) == 0 and match_target([5, 6, 7], 2) is None


def test_one_over_delta_needs_beta_one_not_two():
    r = lambda d: Fraction(-1) if d == 0 else Fraction(1, d)
    for row in range(2, 9):
        assert match_condition(r, 1, row).holds and every_sequence([r(d) for d in range(row + 1)], 1, row)
        assert not stated_condition(r, 1, row)             # the first written condition asks β > 2
        assert not match_condition(r, Fraction(1, 2), 3).holds


def test_exact_condition_is_iff_on_random_profiles():
    import random
    rng = random.Random(5)
    agree = 0
    for _ in range(600):
        row = rng.randint(1, 6)
        vals = [Fraction(rng.randint(-6, 6), rng.randint(1, 3)) for _ in range(row + 1)]
        beta = Fraction(rng.randint(0, 12), 2)
        assert match_condition(vals.__getitem__, beta, row).holds == every_sequence(vals, beta, row)
        agree += 1
    assert agree == 600


def test_each_condition_is_needed():
    base = [Fraction(-5), Fraction(3), Fraction(2), Fraction(1)]
    assert match_condition(lambda d: base[d], 3, 3).holds and every_sequence(base, 3, 3)
    beta_short = match_condition(lambda d: base[d], 2, 3)
    assert not beta_short.beta_margin and not every_sequence(base, 2, 3)         # β = r(1) - r(3)
    self_high = [Fraction(2)] + base[1:]
    assert not match_condition(lambda d: self_high[d], 3, 3).self_below and not every_sequence(self_high, 3, 3)
    bump = [Fraction(-5), Fraction(2), Fraction(3), Fraction(1)]
    assert not match_condition(lambda d: bump[d], 9, 3).decreasing and not every_sequence(bump, 9, 3)


@pytest.mark.parametrize("mu,beta,rho", [(1, 5, -100), (2, 5, -7), (Fraction(1, 3), 2, -50), (3, 1, -1), (1, 0, -9)])
def test_override_row_is_the_first_failing_row(mu, beta, rho):
    o = override_row(mu, beta, rho)
    r = lambda d: -Fraction(mu) * d if d else Fraction(rho)
    first = next(i for i in range(1, 400) if not match_condition(r, beta, i).holds)
    assert o.row == first and o.length == first + 1
    assert all(match_condition(r, beta, i).holds for i in range(1, first))


def test_bad_arguments_are_one_line():
    with pytest.raises(SpecError):
        override_row(0, 1, -1)
    with pytest.raises(SpecError):
        match_condition(lambda d: d, 1, 0)
