"""Token tasks (match, induction): parsing, the layout, one-line errors, and their refusal by the positional parser."""

import numpy as np
import pytest

from posreal.theory.alpha import compute_alpha
from posreal.theory.errors import SpecError
from posreal.theory.tasks import parse_task
from posreal.theory.token_tasks import (BOS, Induction, Match, check_induction_tokens, induction_layout,
                                        induction_tokens, is_token_task, parse_token_task)


def test_specs_parse_and_round_trip():
    assert parse_token_task("match") == Match() and str(parse_token_task("induction")) == "induction"
    assert parse_token_task(" induction ") == Induction()
    assert is_token_task("induction:3") and is_token_task("match") and not is_token_task("copy")


@pytest.mark.parametrize("spec", ["induction:3", "match:1", "inductio", "", 7, None, "copy"])
def test_a_malformed_token_task_is_one_line(spec):
    with pytest.raises(SpecError) as err:
        parse_token_task(spec)
    assert "\n" not in str(err.value) and "match, induction" in str(err.value)


@pytest.mark.parametrize("spec", ["induction", "match", "dual:induction", "induction:2"])
def test_positional_entry_points_refuse_token_tasks_naming_what_they_accept(spec):
    for call in (lambda: parse_task(spec), lambda: compute_alpha("rope:16", spec)):
        with pytest.raises(SpecError) as err:
            call()
        message = str(err.value)
        assert "\n" not in message and "positional-only" in message and "offset:c" in message


def test_the_induction_layout():
    layout = induction_layout(11)                              # m = 5
    assert layout.half == 5
    assert layout.rows.tolist() == [6, 7, 8, 9] and layout.targets.tolist() == [2, 3, 4, 5]
    assert layout.sources.tolist() == [1, 2, 3, 4]
    tokens = induction_tokens(11, 20, np.random.default_rng(0))
    rows, targets = Induction().rows_and_targets(tokens)
    assert rows.tolist() == layout.rows.tolist()
    # the target is the key right after the earlier occurrence of the row's token
    for i, t in zip(rows.tolist(), targets.tolist()):
        assert tokens[t - 1] == tokens[i] and t - 1 < i and tokens[t] == tokens[i + 1]


@pytest.mark.parametrize("length", [4, 3, 1, 0, 10, -5, 2.5, True, "9"])
def test_induction_at_a_length_that_does_not_fit_is_one_line(length):
    with pytest.raises(SpecError) as err:
        induction_layout(length)
    assert "\n" not in str(err.value) and "2m + 1" in str(err.value)


def test_induction_tokens_are_checked():
    good = np.array([BOS, 4, 7, 9, 4, 7, 9])
    check_induction_tokens(good)
    for bad in ([BOS, 4, 4, 9, 4, 4, 9], [BOS, 4, 7, 9, 4, 7, 8], [0, 4, 7, 9, 4, 7, 9], [BOS, 4, BOS, 9, 4, BOS, 9]):
        with pytest.raises(SpecError):
            check_induction_tokens(np.array(bad))


def test_match_rows_are_the_latest_earlier_occurrence():
    rows, targets = Match().rows_and_targets(np.array([3, 1, 3, 3, 2, 1]))
    assert rows.tolist() == [2, 3, 5] and targets.tolist() == [0, 2, 1]


# Exists because a mutant survived: the spec shown in a token task's refusal was unchecked.
@pytest.mark.parametrize("spec, shown", [("induction:3", "'induction:3'"), ("", "''"), (7, "7"), (None, "None")])
def test_a_malformed_token_task_shows_the_spec_and_the_forms(spec, shown):
    with pytest.raises(SpecError) as err:
        parse_token_task(spec)
    assert str(err.value) == f"invalid token task {shown}; accepted: match, induction (token tasks; no arguments)"
