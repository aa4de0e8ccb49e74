"""posreal.theory.underdetermination and the learned:d branch of ``posreal alpha``."""

import json

import numpy as np
import pytest

from posreal.cli import main
from posreal.theory.errors import SpecError
from posreal.theory.defaults import REGISTRY_TASKS
from posreal.theory.tasks import Position, parse_task
from posreal.theory.underdetermination import (COMPLETIONS, completion_alpha, construct_block, learned_alpha_interval,
                                       monte_carlo_alpha, train_block, zero_completion_formula)


@pytest.mark.parametrize("task", REGISTRY_TASKS)
def test_trained_block_realizes_every_registry_task(task):
    block = train_block(task, 16, 16, seed=0)
    assert block.train_margins().min() > 0
    again = train_block(task, 16, 16, seed=0)
    assert np.array_equal(block.W, again.W) and np.array_equal(block.E, again.E)


@pytest.mark.parametrize("p", [0, 1, 7, 14])
def test_completions_match_results_a_and_b(p):
    block = train_block(Position(p), 16, 16, seed=3)
    for L in (17, 32, 100):
        zero = completion_alpha(block, L, "zero")
        assert zero.alpha == (16 - p) / (L - p) == zero_completion_formula(Position(p), L, 16)
        assert completion_alpha(block, L, "copy_last").alpha == 1.0


def test_copy_last_fails_without_the_hypothesis_p_le_L0_minus_2():
    block = construct_block(Position(15), 16, 16, seed=1)
    assert block.train_margins().min() > 0
    assert completion_alpha(block, 32, "copy_last").alpha < 1.0


def test_construction_realizes_and_needs_d_at_least_L0():
    block = construct_block("half", 20, 16, seed=2)
    assert block.train_margins().min() > 0
    with pytest.raises(SpecError):
        construct_block("half", 8, 16)


def test_monte_carlo_is_seeded_and_in_range():
    block = train_block("position:0", 16, 16, seed=0)
    a = monte_carlo_alpha(block, [32, 64], samples=10, seed=5)
    b = monte_carlo_alpha(block, [32, 64], samples=10, seed=5)
    assert a == b
    assert 0.0 <= a[32].min <= a[32].mean <= a[32].max <= 1.0 and a[32].samples == 10


def test_interval_document_names_both_completions():
    doc = learned_alpha_interval("learned:16", "position:0", 16, (32, 64), samples=8).to_json()
    assert doc["realizable"]
    for L in ("32", "64"):
        a = doc["alpha"][L]
        assert set(a["completions"]) == set(COMPLETIONS)
        assert a["low"] <= min(a["completions"].values()) and a["high"] >= max(a["completions"].values())
        assert a["low"] <= a["monte_carlo"]["mean"] <= a["high"]
        assert a["low"] < a["high"]  # not a function of (Φ, τ): two outcomes from one trained block


@pytest.mark.parametrize("kwargs", [dict(pe="rope:16"), dict(lengths=(8,)), dict(samples=1),
                                    dict(lengths=(10 ** 6,))])
def test_bad_input_is_a_one_line_spec_error(kwargs):
    args = dict(pe="learned:16", task="position:0", train_length=16, lengths=(32,), samples=4)
    args.update(kwargs)
    with pytest.raises(SpecError) as err:
        learned_alpha_interval(**args)
    assert "\n" not in str(err.value)


def test_bad_completion_is_rejected():
    block = construct_block("position:0", 16, 16)
    with pytest.raises(SpecError):
        completion_alpha(block, 32, "mean")
    with pytest.raises(SpecError):
        completion_alpha(block, 32, np.zeros((3, 16)))


def test_cli_learned_json_is_an_interval(capsys):
    code = main(["alpha", "--pe", "learned:16", "--task", "position:0", "--json", "--samples", "6",
                 "--lengths", "32,64"])
    assert code == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["pe"] == "learned:16" and "versions" in doc
    for L in ("32", "64"):
        a = doc["alpha"][L]
        assert isinstance(a, dict) and {"low", "high", "completions", "monte_carlo"} <= set(a)
        assert set(a["completions"]) == {"zero", "copy_last"}
        assert {"mean", "stderr", "seed", "samples"} <= set(a["monte_carlo"])
    expected = learned_alpha_interval("learned:16", "position:0", 16, (32, 64), samples=6).to_json()
    assert doc["alpha"] == json.loads(json.dumps(expected["alpha"]))


def test_cli_learned_text_and_errors(capsys):
    assert main(["alpha", "--pe", "learned:16", "--task", "position:1", "--samples", "4", "--lengths", "32"]) == 0
    out = capsys.readouterr().out
    assert "interval" in out and "copy_last" in out
    assert main(["alpha", "--pe", "learned:16", "--task", "position:0", "--exact"]) == 2
    err = capsys.readouterr().err.strip()
    assert err.count("\n") == 0 and "learned" in err


def test_learned_only_options_are_refused_for_linear_pes(capsys):
    assert main(["alpha", "--pe", "relbias", "--task", "offset:1", "--samples", "5"]) == 2
    err = capsys.readouterr().err
    assert "--samples" in err and "learned" in err


def _formula_holds(task: str, L: int, L0: int) -> bool:
    """Where the zero-completion formula |R_L ∩ [0, L0)|/|R_L| is proved to hold (docs, Underdetermination)."""
    if task in ("copy", "middle"):
        return L // 2 == L0 // 2 or L >= 2 * L0
    return L >= 2 * L0 - 1     # reverse: every L ≠ L0 changes the targets of the old rows


@pytest.mark.parametrize("task", ["copy", "middle", "reverse"])
@pytest.mark.parametrize("L0", [16, 15])
def test_zero_completion_boundary_cases_of_growing_tasks(task, L0):
    """The completion computed by the code against the formula at the boundary lengths: they agree
    exactly where the proof says, and the code gives 0 everywhere else."""
    block = train_block(task, 16, L0, seed=0)
    assert block.train_margins().min() > 0
    for L in (L0 + 1, L0 + 2, 2 * L0 - 2, 2 * L0 - 1, 2 * L0, 2 * L0 + 1):
        computed = completion_alpha(block, L, "zero")
        formula = zero_completion_formula(parse_task(task), L, L0)
        assert computed.undecided == 0
        if _formula_holds(task, L, L0):
            assert computed.alpha == formula, (L, computed, formula)
        else:
            assert computed.alpha == 0.0 < formula, (L, computed, formula)


def test_copy_at_l0_plus_one_gives_eight_ninths_both_ways():
    block = train_block("copy", 16, 16, seed=1)
    assert completion_alpha(block, 17, "zero").alpha == zero_completion_formula(parse_task("copy"), 17, 16) == 8 / 9


def test_reverse_at_twice_l0_minus_one_is_zero_both_ways():
    block = train_block("reverse", 16, 16, seed=1)
    assert completion_alpha(block, 31, "zero").alpha == zero_completion_formula(parse_task("reverse"), 31, 16) == 0.0
