"""The instance stream of the conjecture search (posreal.theory.random_instances): the registry grid, then
random registry draws, and the instance documents."""

from __future__ import annotations

from collections import Counter

from posreal.theory.random_instances import FAMILIES, Instance, instance, registry_grid


# --------------------------------------------------------------------------- the instance stream
# Exists because a mutant survived: the registry grid's place in the instance stream was unchecked.
def test_the_registry_grid_comes_twice_at_two_and_four_train_lengths():
    from posreal.theory.random_instances import instance, registry_grid

    grid = registry_grid()
    seen = Counter()
    for k in range(2 * len(grid)):
        inst = instance(3, k, ("registry",))
        assert inst.length in (2 * inst.train_length, 4 * inst.train_length)
        seen[(inst.pe, inst.task, inst.train_length, inst.length // inst.train_length)] += 1
    assert set(seen) == {(pe, task, L0, m) for pe, task, L0 in grid for m in (2, 4)}
    assert set(seen.values()) == {1}


# Exists because a mutant survived: the random registry draws after the grid were unchecked.
def test_random_registry_draws_after_the_grid_are_well_formed():
    from posreal.theory.pe_specs import parse_pe
    from posreal.theory.random_instances import instance, registry_grid
    from posreal.theory.tasks import parse_task

    start = 2 * len(registry_grid())
    draws = [instance(3, k, ("registry",)) for k in range(start, start + 400)]
    bases = Counter()
    for inst in draws:
        parse_pe(inst.pe)
        parse_task(inst.task)
        assert 2 <= inst.train_length <= 16 and inst.train_length <= inst.length <= 4 * inst.train_length
        base = str(inst.pe).removeprefix("dual:")
        name, *args = base.split(":")
        bases[(name, len(args))] += 1
        if name in ("rope", "abscol", "abssin"):                 # always with d and base
            assert len(args) == 2 and int(args[0]) in (2, 4, 8, 16) and int(args[1]) in (10, 100, 10000), inst
    names = {name for name, _ in bases}
    assert names == {"nope", "relbias", "colbias", "alibi", "rope", "abscol", "abssin"}
    for name in ("relbias", "colbias"):                          # both the default D and an explicit one
        assert bases[(name, 0)] > 0 and bases[(name, 1)] > 0, name
    assert any(str(i.pe).startswith("dual:") for i in draws) and any(i.task.startswith("dual:") for i in draws)


# Exists because a mutant survived: random abssin draws could be wider than 8.
def test_random_registry_draws_abssin_of_width_at_most_eight() -> None:
    """Past the enumerated grid, a random ``abssin`` draw has d in {2, 4, 8} (its d² features), while
    rope and abscol draw d from {2, 4, 8, 16}."""
    start = len(FAMILIES) * 2 * len(registry_grid())       # first registry index past the grid
    widths: dict[str, set[int]] = {"abssin": set(), "rope": set(), "abscol": set()}
    for k in range(300):
        inst = instance(0, start + len(FAMILIES) * k)
        assert inst.family == "registry"
        kind, *params = inst.pe.removeprefix("dual:").split(":")
        if kind in widths:
            widths[kind].add(int(params[0]))
    assert widths["abssin"] == {2, 4, 8}
    assert widths["rope"] == widths["abscol"] == {2, 4, 8, 16}


# --------------------------------------------------------------------------- instance documents
# Exists because a mutant survived: an instance's JSON keys were unchecked.
def test_instance_json_keys():
    inst = Instance(7, "registry", "relbias", "offset:1", 4, 8)
    assert inst.to_json() == {"index": 7, "family": "registry", "pe": "relbias", "task": "offset:1",
                              "train_length": 4, "length": 8}


# Exists because a mutant survived: an instance's table could be written in another form than a table document.
def test_instance_table_is_a_table_document():
    """A relative-table instance writes its table as {"kind", "rows"}, the form ``parse_document`` reads."""
    from posreal.theory.random_instances import Instance
    from posreal.theory.tables import parse_document

    inst = Instance(0, "relative", "t", "offset:0", 4, 8, table=((1, 0), (0, -1)), table_kind="relative")
    doc = inst.to_json()["table"]
    assert doc == {"kind": "relative", "rows": [[1, 0], [0, -1]]}
    assert parse_document(doc, "instance table") == ("relative", [[1, 0], [0, -1]])
