"""A cell is parsed once and put in shear normal form before anything else (theory/cell.py)."""

import json

import numpy as np
import pytest

from posreal.cli import main
from posreal.theory import pe_specs, tasks
from posreal.theory.alpha import compute_alpha
from posreal.theory.cell import Cell
from posreal.theory.encodings import DualOf
from posreal.theory.errors import SpecError


@pytest.fixture
def parse_counts(monkeypatch):
    """Counts the real parses of PE and task spec strings (the plain part after the dual: prefixes)."""
    counts = {"pe": 0, "task": 0}

    def counting(module, name, key):
        original = getattr(module, name)

        def wrapper(*args, **kwargs):
            counts[key] += 1
            return original(*args, **kwargs)
        monkeypatch.setattr(module, name, wrapper)

    counting(pe_specs, "_parse_plain", "pe")
    counting(tasks, "_parse_plain", "task")
    return counts


@pytest.mark.parametrize("options", [{}, {"mode": "exact"}, {"mode": "certified"}, {"limit": True},
                                     {"geometry": "linf"}, {"geometry": "l1", "mode": "exact"}])
def test_compute_alpha_parses_the_pe_spec_once(parse_counts, options):
    compute_alpha("dual:colbias", "dual:offset:1", 8, [16, 32], **options)
    assert parse_counts == {"pe": 1, "task": 1}


def test_the_parse_counter_sees_a_second_parse(parse_counts):
    """Negative control: the counter is not blind (two calls are two parses)."""
    Cell.parse("relbias", "copy", 4)
    Cell.parse("relbias", "copy", 4)
    assert parse_counts == {"pe": 2, "task": 2}


@pytest.mark.parametrize("spec, normal", [("dual:dual:relbias", "relbias"), ("dual:dual:dual:rope:8", "dual:rope:8"),
                                          ("dual:dual:dual:dual:abssin:4", "abssin:4")])
def test_nested_shears_reach_normal_form_at_parse(spec, normal):
    cell = Cell.parse(spec, "dual:dual:copy", 4)
    assert str(cell.pe) == normal and str(cell.task) == "copy"
    assert not isinstance(getattr(cell.pe, "base", None), DualOf)


def test_a_shear_of_a_shear_cannot_be_built_by_hand():
    with pytest.raises(TypeError):
        DualOf(DualOf(pe_specs.parse_pe("relbias")))


def test_double_dual_relbias_answers_as_relbias_at_a_long_length(capsys):
    """The memory estimate sees the normal form: relbias's O(L) profile, not a dense (L, L) kernel."""
    argv = ["alpha", "--task", "offset:1", "--lengths", "200000", "--json"]
    assert main(["--max-memory", "1G", *argv, "--pe", "dual:dual:relbias"]) == 0
    sheared = json.loads(capsys.readouterr().out)
    assert main(["--max-memory", "1G", *argv, "--pe", "relbias"]) == 0
    plain = json.loads(capsys.readouterr().out)
    for doc in (sheared, plain):
        doc.pop("provenance", None)
    assert sheared == plain and plain["alpha"] == {"200000": 1.0}


def test_the_double_shear_is_planned_as_a_profile_not_as_a_dense_kernel():
    """The defect this guards against: the estimate unwrapped one shear only and planned dual:relbias's
    'kernel' of dual:dual:relbias as dense, (L, L) values, far over a 1 GiB budget at L = 200000."""
    from posreal.runtime.resources import cell_estimate
    sheared, plain = Cell.parse("dual:dual:relbias", "offset:1", 16), Cell.parse("relbias", "offset:1", 16)
    assert sheared.estimate([200000], "float") == plain.estimate([200000], "float")
    assert plain.estimate([200000], "float").memory < 2 ** 30
    dense = cell_estimate(str(plain), 16, "dense", 120, [200000], "float")      # control: what a dense plan costs
    assert dense.memory > 2 ** 30


def test_lengths_are_checked_against_the_cell():
    cell = Cell.parse("relbias", "offset:1", 8)
    assert cell.check_lengths([64, 16, 16]) == [16, 64]
    for bad in ([], [4], [True], "16", [np.float64(16.0)]):
        with pytest.raises(SpecError):
            cell.check_lengths(bad)


# Exists because a mutant survived: the value shown in the refusal of an empty list of lengths was unchecked.
def test_an_empty_list_of_lengths_is_refused_with_its_value() -> None:
    """The one-line message quotes the empty list."""
    cell = Cell.parse("relbias", "offset:1", 8)
    with pytest.raises(SpecError) as err:
        cell.check_lengths([])
    assert str(err.value) == "invalid lengths []; accepted: a non-empty list of integers >= the train length"


# Exists because a mutant survived: check_lengths' float default (no exact-mode length bound) was unchecked.
def test_the_exact_length_bound_applies_only_when_asked_for() -> None:
    """Without ``exact``, a profile PE takes lengths beyond the exact-mode bound 2**18."""
    from posreal.theory.cell import MAX_EXACT_LENGTH
    cell = Cell.parse("relbias", "offset:1", 8)
    beyond = MAX_EXACT_LENGTH + 1
    assert cell.check_lengths([beyond]) == [beyond]
    assert cell.check_lengths([MAX_EXACT_LENGTH], mode="exact") == [MAX_EXACT_LENGTH]
    with pytest.raises(SpecError) as err:
        cell.check_lengths([beyond], mode="exact")
    assert str(err.value) == (f"invalid length {beyond}; accepted: lengths up to {MAX_EXACT_LENGTH} in exact mode "
                              "(use float or --certified)")
