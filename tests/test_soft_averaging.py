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
