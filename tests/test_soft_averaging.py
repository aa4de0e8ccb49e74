"""E4 (theory/soft_averaging.py, checks/soft_averaging_checks.py): recovery and margins with BOS and no PE, and
the controls without BOS."""

from fractions import Fraction

import pytest

from posreal.checks.base import Control, Verdict
from posreal.checks.soft_averaging_checks import check_soft_averaging, position_collision
from posreal.theory.errors import SpecError
from posreal.theory.soft_averaging import (averaged_stream, count_margin, majority_readout, position_margin,
                                           recover)


def test_the_check_passes_and_its_controls_fail() -> None:
    result = check_soft_averaging()
    assert result.verdict is Verdict.PASSED, result.detail
    assert result.negative_control is Control.COUNTEREXAMPLE


def test_recovery_and_margins_on_a_worked_sequence() -> None:
    rows = averaged_stream([1, 0, 1, 1], 2)
    assert rows[4] == (Fraction(1, 5), Fraction(3, 5), Fraction(1, 5))
    assert [recover(h) for h in rows] == [(0, (0, 0)), (1, (0, 1)), (2, (1, 1)), (3, (1, 2)), (4, (1, 3))]
    assert majority_readout(rows[4], 1, 0) == Fraction(2, 5) >= count_margin(4)
    assert rows[3][-1] - rows[4][-1] == position_margin(3)
    assert all(count_margin(i) * (i + 1) == 1 for i in range(100))            # shrinks like 1/n


def test_without_bos_the_position_is_lost() -> None:
    a, b = position_collision(None)
    assert len(a) != len(b)
    assert averaged_stream(list(a), 2, bos=False)[-1] == averaged_stream(list(b), 2, bos=False)[-1]
    with pytest.raises(SpecError):
        recover(averaged_stream([0, 1], 2, bos=False)[-1])                   # no BOS weight: refused


@pytest.mark.parametrize("tokens, vocab", [([0, 2], 2), ([True], 2), ([0], 0)])
def test_bad_input_is_one_line(tokens, vocab) -> None:
    with pytest.raises(SpecError) as err:
        averaged_stream(tokens, vocab)
    assert "\n" not in str(err.value)


# Exists because a mutant survived: the row shown in recover's refusals was unchecked.
def test_recover_refusals_show_the_row_and_what_is_accepted() -> None:
    half, third = Fraction(1, 2), Fraction(1, 3)
    # h[BOS] = 1/2 gives i = 1, but c_1 = (1/3)/(1/2) = 2/3 is no count
    with pytest.raises(SpecError) as err:
        recover((half, third, half))
    assert str(err.value) == ("invalid averaged row [Fraction(1, 2), Fraction(1, 3), Fraction(1, 2)]; "
                              "accepted: a row of uniform attention over one-hot values")
    with pytest.raises(SpecError) as err:                     # h[BOS] = 0: no BOS in the sequence
        recover((Fraction(0), Fraction(1), Fraction(0)))
    assert str(err.value) == ("invalid averaged row [Fraction(0, 1), Fraction(1, 1), Fraction(0, 1)]; "
                              "accepted: a row of a sequence that starts with BOS (h[BOS] > 0)")
    with pytest.raises(SpecError) as err:                     # h[BOS] = 2: i = -1/2; a long row shows its first 8
        recover([0] * 9 + [2])
    assert str(err.value) == ("invalid averaged row [0, 0, 0, 0, 0, 0, 0, 0]; "
                              "accepted: a row of uniform attention over one-hot values")
    assert recover((half, 0, half)) == (1, (1, 0))            # control: a true row of the stream [0]
