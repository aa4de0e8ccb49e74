"""posreal.theory.underdetermination and the learned:d branch of ``posreal alpha``: learned blocks
(constructed and trained), Monte Carlo α, completions and the learned interval, with their one-line errors."""

import json

import numpy as np
import pytest

from posreal.cli import main
from posreal.theory.pe_specs import LearnedAbsolute
from posreal.theory.errors import SpecError
from posreal.theory.defaults import REGISTRY_TASKS
from posreal.theory.tasks import Position, parse_task
from posreal.theory.underdetermination import (
    COMPLETIONS,
    LearnedInterval,
    completion_alpha,
    construct_block,
    learned_alpha_interval,
    monte_carlo_alpha,
    train_block,
    zero_completion_formula,
)
from certificate_edits import message as _message


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


# ----------------------------------------------------------------- learned blocks: construction and training
# Exists because a mutant survived: the construction's default margin 1 was unchecked.
def test_constructed_block_realizes_with_the_default_margin_one():
    """κ = E W Eᵀ = K (E has full row rank): on every scored row the target beats the best rival by 1."""
    from posreal.theory.underdetermination import construct_block

    block = construct_block("half", 20, 16, seed=2)
    K = block.E @ block.W @ block.E.T
    for i in range(1, 16):
        t = i // 2
        others = max(K[i, j] for j in range(i + 1) if j != t)
        assert K[i, t] - others == pytest.approx(1.0, abs=1e-9), i


# Exists because a mutant survived: the law N(0, 1/d) of the constructed table E was unchecked.
def test_constructed_table_rows_are_centred_with_scale_one_over_root_d():
    """E of ``construct_block`` is drawn N(0, 1/d): with d = 64, L0 = 4 (256 entries) the sample mean is
    near 0 (its sd is 1/8/16 ≈ 0.008) and the sample sd near 1/8 (a draw N(1/8, 1) has sd ≈ 1, mean ≈ 1/8)."""
    from posreal.theory.underdetermination import construct_block

    E = construct_block("offset:1", 64, train_length=4).E
    assert abs(E.mean()) < 0.05
    assert 0.5 < E.std() * np.sqrt(64) < 2.0


# Exists because a mutant survived: the construction could ignore its seed.
def test_construction_is_reproducible_from_its_seed():
    a = construct_block("position:0", 4, train_length=4, seed=3)
    b = construct_block("position:0", 4, train_length=4, seed=3)
    assert np.array_equal(a.W, b.W) and np.array_equal(a.E, b.E)


# Exists because a mutant survived: construct_block's refusal could name another argument.
def test_construct_block_names_the_width():
    from posreal.theory.underdetermination import construct_block

    with pytest.raises(SpecError, match=r"^invalid width d 3; accepted: d >= the train length 4 for the construction$"):
        construct_block("copy", 3, 4)


# Exists because a mutant survived: the initialization law of a trained block was unchecked.
def test_learned_block_starts_from_the_stated_initialization():
    # zero training steps: E_j, W_ab ~ N(0, 1/d) with d = 16 (standard deviation 1/4), seeded
    block = train_block("position:0", 16, 16, seed=0, steps=0)
    for values in (block.E, block.W):                                # 256 draws each
        assert abs(values.mean()) < 0.1 and 0.2 < values.std() < 0.3


# Exists because a mutant survived: train_block's default train length was unchecked.
def test_train_block_default_train_length_is_the_project_default():
    """``train_block``'s L0 defaults to the project's TRAIN_LENGTH (theory.defaults)."""
    from posreal.theory.defaults import TRAIN_LENGTH
    from posreal.theory.underdetermination import train_block

    block = train_block("offset:1", 4, steps=0)
    assert block.train_length == TRAIN_LENGTH and block.E.shape == (TRAIN_LENGTH, 4)


# Exists because a mutant survived: a learned block's method was unchecked.
def test_learned_blocks_say_how_they_were_made():
    from posreal.theory.underdetermination import construct_block

    assert construct_block("position:0", 16, 16).method == "construction"
    assert train_block("position:0", 16, 16, seed=0).method == "gradient descent"


# --------------------------------------------------------------------------- Monte Carlo α and completions
# Exists because a mutant survived: the Monte Carlo standard error was unchecked.
def test_monte_carlo_standard_error_of_two_samples():
    # for two values a ≤ b: mean (a + b)/2, sample std |b - a|/√2, standard error (b - a)/2
    block = train_block("position:0", 16, 16, seed=0)
    out = monte_carlo_alpha(block, [32], samples=2, seed=5)[32]
    assert out.max > out.min                        # the test means something only if the samples differ
    assert out.mean == pytest.approx((out.min + out.max) / 2, abs=1e-15)
    assert out.stderr == pytest.approx((out.max - out.min) / 2, abs=1e-15)
    single = monte_carlo_alpha(block, [32], samples=1, seed=5)[32]
    assert single.stderr == 0.0 and single.mean == single.min == single.max
    assert single.mean in (out.min, out.max)        # the same seed draws the same first sample


# Exists because a mutant survived: the initialization law reported by the Monte Carlo α was unchecked.
def test_monte_carlo_alpha_reports_the_initialization_law():
    """The untrained rows j ≥ L0 are drawn as at initialization: E_j ~ N(0, 1/d) i.i.d. (its docstring)."""
    from posreal.theory.underdetermination import construct_block, monte_carlo_alpha

    block = construct_block("position:0", 4, 4, seed=1)
    out = monte_carlo_alpha(block, [6], samples=1, seed=2)
    assert out[6].init == "E_j ~ N(0, 1/d) i.i.d. for j >= L0"
    assert (out[6].samples, out[6].seed) == (1, 2)


# Exists because a mutant survived: the scale 1/√d of the untrained rows' law was unchecked (2/√d or √d passed).
def test_monte_carlo_alpha_draws_the_untrained_rows_from_n_0_1_over_d():
    """The untrained rows are E_j ~ N(0, 1/d) i.i.d. (standard deviation 1/√d), drawn from the generator seeded
    with ``seed``, one (L_max - L0, d) block per sample shared by every length.  Re-drawn here with the same
    generator and scored through ``completion_alpha`` (a given table), the samples give the same mean, standard
    error and range.  The scale matters: a new row's scores against trained keys grow like the scale c, against
    new keys like c², so drawing at 2/√d gives other α_L with this seed (checked: the re-draw is not blind to it)."""
    block = train_block("position:0", 8, 16, seed=0)                       # d = 8 ≠ L0 = 16
    L0, d, samples, seed = 16, 8, 12, 5
    assert block.train_margins().min() > 0
    mc = monte_carlo_alpha(block, [20, 32], samples=samples, seed=seed)

    def redrawn(scale: float) -> dict[int, np.ndarray]:
        rng = np.random.default_rng(seed)
        out: dict[int, list[float]] = {20: [], 32: []}
        for _ in range(samples):
            tail = rng.normal(0.0, scale, size=(32 - L0, d))                  # (L_max - L0, d)
            for L in out:
                out[L].append(completion_alpha(block, L, tail[:L - L0]).alpha)
        return {L: np.asarray(v) for L, v in out.items()}                    # (samples,) per length

    stated = redrawn(1.0 / np.sqrt(d))
    for L, v in stated.items():
        got = mc[L]
        assert (got.min, got.max) == (v.min(), v.max()), L
        assert got.mean == pytest.approx(v.mean(), abs=1e-15), L
        assert got.stderr == pytest.approx(v.std(ddof=1) / np.sqrt(samples), abs=1e-15), L
    assert stated[32].min() < stated[32].max()                                # the samples differ
    doubled = redrawn(2.0 / np.sqrt(d))
    assert not np.array_equal(doubled[32], stated[32])                        # the negative control


# Exists because a mutant survived: completion errors could name another argument.
def test_completion_errors_name_the_argument():
    from posreal.theory.underdetermination import (
        completed_table,
        completion_alpha,
        construct_block,
    )

    block = construct_block("position:0", 16, 16)
    assert _message(lambda: completion_alpha(block, 8, "zero")) == \
        "invalid length 8; accepted: integers >= the train length 16"
    assert _message(lambda: completed_table(block, 20, np.zeros((3, 16)))) == \
        "invalid completion shape (3, 16); accepted: (4, 16)"


# Exists because a mutant survived: an unknown completion name was never refused in words.
def test_unknown_completion_name_is_refused_naming_the_completion():
    from posreal.theory.underdetermination import completed_table, construct_block

    block = construct_block("position:0", 16, 16)
    assert _message(lambda: completed_table(block, 20, "last")) == \
        "invalid completion 'last'; accepted: zero, copy_last or an array of rows"


# --------------------------------------------------------------------------- the learned interval
# Exists because a mutant survived: learned interval errors could name another argument.
def test_learned_interval_errors_name_the_argument():
    from posreal.theory.underdetermination import (
        MAX_LEARNED_LENGTH,
        learned_alpha_interval,
    )

    assert _message(lambda: learned_alpha_interval("rope:16", "position:0", 16, (32,))) == (
        "invalid learned PE 'rope:16'; accepted: learned:d with an integer d >= 1 (linear PEs go through parse_pe)")
    assert _message(lambda: learned_alpha_interval("learned:16", "position:0", 16, (32,), samples=1)) == \
        "invalid samples 1; accepted: an integer >= 2"
    assert _message(lambda: learned_alpha_interval("learned:16", "position:0", 16, (8,))) == \
        f"invalid length 8; accepted: integers from the train length 16 to {MAX_LEARNED_LENGTH}"


# Exists because a mutant survived: the learned interval document's cell and sources were unchecked.
def test_learned_interval_document_names_its_cell_and_its_sources():
    from posreal.theory.underdetermination import learned_alpha_interval

    result = learned_alpha_interval("learned:16", "position:0", 16, (32,), samples=2)
    assert (str(result.pe), str(result.task), result.train_length, result.lengths) == \
        ("learned:16", "position:0", 16, (32,))
    doc = result.to_json()
    assert (doc["pe"], doc["task"], doc["train_length"], doc["mode"]) == ("learned:16", "position:0", 16, "learned")
    assert "Monte Carlo" in doc["interval"] and "copy_last" in doc["interval"]


# Exists because a mutant survived: the learned rows document could hold α instead of counts.
def test_learned_rows_document_holds_counts_not_alpha():
    from posreal.theory.underdetermination import learned_alpha_interval

    doc = learned_alpha_interval("learned:16", "position:0", 16, [32], samples=2).to_json()
    rows = doc["rows"]["32"]
    assert set(rows) == {"zero", "copy_last"}
    for name, counts in rows.items():
        assert set(counts) == {"realized", "undecided", "total"}, name
        assert doc["alpha"]["32"]["completions"][name] == counts["realized"] / counts["total"]


# Exists because a mutant survived: a learned interval of a block that does not realize the task was never computed.
def test_learned_interval_of_an_untrained_block_is_not_realizable(monkeypatch):
    from posreal.theory import underdetermination

    original = underdetermination.train_block
    monkeypatch.setattr(underdetermination, "train_block",
                        lambda task, d, train_length, seed: original(task, d, train_length, seed, steps=0))
    result = underdetermination.learned_alpha_interval("learned:16", "position:0", 16, (32, 64), samples=2)
    assert result.min_train_margin <= 0                           # the random initialization does not realize it
    assert result.realizable is False and result.intervals == ()
    doc = result.to_json()
    assert doc["block"]["min_train_margin"] == result.min_train_margin and doc["block"]["steps"] == 0
    assert doc["realizable"] is False and doc["alpha"] == {"32": None, "64": None}
    assert doc["reason"] == "gradient descent did not realize the task at L0 within the step budget"


# Exists because a mutant survived: asking a length of an unrealized learned result was never refused.
def test_length_of_an_unrealized_learned_result_message():
    result = LearnedInterval(LearnedAbsolute(2), parse_task("position:0"), 4, (8,), None, -1.0)  # type: ignore[arg-type]
    assert not result.realizable
    with pytest.raises(SpecError) as err:
        result.interval(8)
    assert str(err.value) == "invalid length 8; accepted: none: the task is not realized at L0"


# Exists because a mutant survived: result (a) on a length with no scored row was unchecked.
def test_zero_completion_formula_of_a_length_with_no_row_is_one():
    """|R_L| = 0: no row can fail, so α_L = 1 — the convention of completion_alpha and monte_carlo_alpha too."""
    task = parse_task("offset:40")                    # rows i >= 40: none below L = 32
    assert task.rows(32).size == 0
    assert zero_completion_formula(task, 32, 16) == 1.0
    # control: with rows, the fraction |R_L ∩ [0, L0)| / |R_L| — offset:1 at L = 32, L0 = 16: rows 1..31, 15 below 16
    assert zero_completion_formula(parse_task("offset:1"), 32, 16) == 15 / 31
