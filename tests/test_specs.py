"""Spec strings parse in one place, round-trip through str(), carry their class; learned:d has its own parser."""

import numpy as np
import pytest

from posreal.theory import SpecError, dual_pe, dual_task, parse_pe, parse_task
from posreal.theory.encodings import COLUMN, RELATIVE
from posreal.theory.defaults import REGISTRY_PES
from posreal.theory.pe_specs import LearnedAbsolute, is_learned, parse_learned
from posreal.theory.tasks import FIXED_OFFSET, FIXED_POSITION, GROWING
from posreal.theory.defaults import REGISTRY_TASKS

PE_SPECS = list(REGISTRY_PES) + ["relbias:3", "colbias:5", "rope:8:500", "abscol:4:100.5", "abssin:4",
                                 "dual:rope:16", "dual:dual:relbias", "dual:abssin:16"]
TASK_SPECS = list(REGISTRY_TASKS) + ["offset:0", "position:7", "dual:copy", "dual:dual:half"]


def _shear_normal_form(spec: str) -> str:
    """S∘S = id: an even number of dual: prefixes cancels, an odd one leaves one."""
    depth = 0
    while spec.startswith("dual:"):
        spec, depth = spec[len("dual:"):], depth + 1
    return ("dual:" if depth % 2 else "") + spec


@pytest.mark.parametrize("spec", PE_SPECS)
def test_pe_round_trip(spec):
    pe = parse_pe(spec)
    assert str(pe) == _shear_normal_form(spec)
    assert parse_pe(str(pe)) == pe


def test_double_shear_is_the_pe_itself():
    assert parse_pe("dual:dual:relbias") == parse_pe("relbias")
    assert type(parse_pe("dual:dual:dual:rope:16")) is type(parse_pe("dual:rope:16"))
    assert str(parse_task("dual:dual:copy")) == "copy"


def test_learned_is_its_own_type_with_its_own_parser():
    learned = parse_learned("learned:16")
    assert isinstance(learned, LearnedAbsolute) and learned.d == 16 and str(learned) == "learned:16"
    assert parse_learned(str(learned)) == learned and parse_learned(learned) is learned
    assert is_learned("learned:16") and is_learned(learned) and is_learned(" learned:3")
    assert not any(is_learned(spec) for spec in PE_SPECS)


@pytest.mark.parametrize("spec", ["learned:16", "dual:learned:4", "dual:dual:learned:2"])
def test_linear_parser_refuses_learned_in_one_line(spec):
    with pytest.raises(SpecError) as err:
        parse_pe(spec)
    message = str(err.value)
    assert "\n" not in message and repr(spec) in message and "not linear" in message


@pytest.mark.parametrize("spec", ["learned", "learned:0", "learned:x", "learned:4:2", "rope:16", "dual:learned:4"])
def test_bad_learned_specs_raise_one_line(spec):
    with pytest.raises(SpecError) as err:
        parse_learned(spec)
    assert "\n" not in str(err.value) and repr(spec) in str(err.value) and "learned:d" in str(err.value)


@pytest.mark.parametrize("spec", TASK_SPECS)
def test_task_round_trip(spec):
    task = parse_task(spec)
    assert str(task) == _shear_normal_form(spec)
    assert parse_task(str(task)) == task


@pytest.mark.parametrize("spec", ["rope", "rope:15", "rope:0", "rope:16:1", "rope:16:x", "abssin:3", "relbias:-1",
                                  "relbias:a", "dual:learned:4", "learned", "foo", "", "alibi:2", "nope:1"])
def test_bad_pe_specs_raise_one_line(spec):
    with pytest.raises(SpecError) as err:
        parse_pe(spec)
    message = str(err.value)
    assert "\n" not in message and repr(spec) in message


@pytest.mark.parametrize("spec", ["offset", "offset:-1", "offset:x", "position:", "copy:1", "bogus", "dual:"])
def test_bad_task_specs_raise_one_line(spec):
    with pytest.raises(SpecError) as err:
        parse_task(spec)
    assert "\n" not in str(err.value) and "accepted" in str(err.value)


def _observed_class(task) -> str:
    """Class from the definition: is i - t (or t) one constant on all rows of lengths 1..40?"""
    offsets, positions = set(), set()
    for n in range(1, 41):
        rows, targets = task.rows_and_targets(n)
        offsets |= set((rows - targets).tolist())
        positions |= set(targets.tolist())
    if len(offsets) == 1:
        return FIXED_OFFSET
    if len(positions) == 1:
        return FIXED_POSITION
    return GROWING


@pytest.mark.parametrize("spec", TASK_SPECS + ["dual:offset:2", "dual:position:1", "dual:middle", "dual:reverse"])
def test_declared_task_class_matches_definition(spec):
    task = parse_task(spec)
    assert task.task_class == _observed_class(task)
    for n in range(1, 41):
        rows, targets = task.rows_and_targets(n)
        assert np.all((0 <= targets) & (targets <= rows)) and np.all(rows < n)


def test_shear_maps_kinds_and_is_an_involution():
    assert parse_pe("dual:rope:16").kind == COLUMN and parse_pe("dual:abscol:16").kind == RELATIVE
    assert parse_pe("dual:relbias").kind == COLUMN
    for spec in PE_SPECS:
        pe = parse_pe(spec)
        assert dual_pe(dual_pe(pe)) == pe
    for spec in TASK_SPECS:
        assert dual_task(dual_task(parse_task(spec))) == parse_task(spec)
    assert str(dual_task(parse_task("offset:3"))) == "dual:offset:3"


def test_shear_features_are_the_definition():
    pe = parse_pe("rope:8")
    dual = dual_pe(pe)
    i, j = np.tril_indices(12)
    assert np.array_equal(dual.pair_features(i, j, 8), pe.pair_features(i, i - j, 8))
    col = parse_pe("colbias")
    assert np.array_equal(parse_pe("dual:relbias").pair_features(i, j, 8), col.pair_features(i, j, 8))


def test_double_shear_is_equal_and_hashes_equal():
    for spec in ("relbias", "rope:16", "abssin:4"):
        pe = parse_pe(spec)
        assert parse_pe(f"dual:dual:{spec}") == pe and hash(parse_pe(f"dual:dual:{spec}")) == hash(pe)
        assert parse_pe(f"dual:{spec}") != pe
        assert hash(parse_pe(f"dual:dual:dual:{spec}")) == hash(parse_pe(f"dual:{spec}"))
    for spec in ("half", "copy", "offset:2"):
        task = parse_task(spec)
        assert parse_task(f"dual:dual:{spec}") == task and hash(parse_task(f"dual:dual:{spec}")) == hash(task)
        assert parse_task(f"dual:{spec}") != task


@pytest.mark.parametrize("spec", ["learned:1_6", "learned:\uff10", "learned: 4", "learned:0", "learned:" + "9" * 30])
def test_learned_width_is_ascii_digits_within_bounds(spec):
    with pytest.raises(SpecError, match="ASCII digits"):
        parse_learned(spec)
