"""Classification of the rows that fail under θ* (posreal.theory.ties): structural, orthogonal and open
ties in exact mode, undecided rows and their near rivals in float mode.

Expected values are derived in the tests by hand on small relbias cells and the designed tables.
"""

from __future__ import annotations

from fractions import Fraction as F

import numpy as np
from posreal.theory.pe_specs import parse_pe
from posreal.theory.selection import Optimum, Selection, select
from posreal.theory.tasks import parse_task
from posreal.theory.errors import PosrealError
from posreal.theory.ties import classify


# Exists because a mutant survived: the rows and targets of exact structural ties were unchecked.
def test_exact_classification_names_the_structurally_tied_rows():
    """relbias · position:0 at L0 = 4, L = 8: offsets ≥ 3 share relbias' last bucket, so in rows
    i ≥ 4 the target key 0 (offset i) ties with key i - 3 (offset 3) for every θ: rows 4..7 fail as
    structural ties, each named by its row and target."""
    from posreal.theory.pe_specs import parse_pe
    from posreal.theory.selection import select
    from posreal.theory.tasks import parse_task
    from posreal.theory.ties import classify

    sel = select("relbias", "position:0", 4, mode="exact")
    assert sel.exact_theta is not None
    cls = classify(parse_pe("relbias"), parse_task("position:0"), sel, 8)
    assert cls.exact
    assert [(f.row, f.target, f.cls) for f in cls.failing] == [(i, 0, "structural_tie") for i in range(4, 8)]


# Exists because a mutant survived: an exact tie's rival direction could be built without the cell's L0.
def test_exact_tie_direction_uses_the_cells_train_length():
    """relbias at L0 = 4 (ψ(i, j) = e_min(i - j, 3), p = 4) with θ* = (1, 1, 0, 0), task offset:0 at L = 4:
    row i's target has offset 0 (value 1) and its rival at offset 1 (key j = i - 1) ties with it, in another
    bucket (no structural tie); the direction is e_0 - e_1, and the one constraint z = ψ(2, 2) - ψ(2, 0) =
    (1, 0, -1, 0) has z·v = 1 ≠ 0: open ties.
    Row 0 has one key (realized)."""
    from posreal.theory.pe_specs import parse_pe
    from posreal.theory.selection import Optimum, Selection
    from posreal.theory.tasks import parse_task
    from posreal.theory.ties import classify

    pe, task = parse_pe("relbias"), parse_task("offset:0")
    z = (F(1), F(0), F(-1), F(0))
    sel = Selection(pe, task, 4, np.array([[1.0, 0.0, -1.0, 0.0]]), np.array([[2, 2, 0]]), exact_constraints=[z])
    sel.realize(Optimum(np.array([1.0, 1.0, 0.0, 0.0]), np.array([0.0]), [F(1), F(1), F(0), F(0)], {}))
    cls = classify(pe, task, sel, 4)
    assert cls.exact and (cls.total, cls.realized) == (4, 1)
    assert [(r.row, r.target, r.cls, r.margin) for r in cls.failing] == [(i, i, "open_tie", 0) for i in (1, 2, 3)]
    for r in cls.failing:
        ((rival, direction, orthogonal),) = [(t.rival, t.direction, t.orthogonal) for t in r.rivals]
        assert (rival, direction, orthogonal) == (r.row - 1, (1, -1, 0, 0), False)


# Exists because a mutant survived: float classification never met an exactly orthogonal rival.
def test_float_classification_flags_orthogonal_and_open_rivals():
    """Float mode on the designed integer tables: the tied row is undecided; its rival is orthogonal
    (Z v = 0) for orthotie and not for logtwo — what exact mode proves for the same rows."""
    from posreal.counterexamples.designed import LOG2_TIE, ORTHOGONAL_TIE
    from posreal.theory.pe_specs import parse_pe
    from posreal.theory.random_instances import registered
    from posreal.theory.selection import select
    from posreal.theory.tasks import parse_task
    from posreal.theory.ties import classify

    for inst, orthogonal in ((ORTHOGONAL_TIE, True), (LOG2_TIE, False)):
        with registered(inst):
            pe, task = parse_pe(inst.pe), parse_task(inst.task)
            float_rows = classify(pe, task, select(pe, task, inst.train_length, mode="float"), inst.length).failing
            exact_rows = classify(pe, task, select(pe, task, inst.train_length), inst.length).failing
        assert [r.cls for r in float_rows] == ["undecided"]
        assert [r.cls for r in exact_rows] == ["orthogonal_tie" if orthogonal else "open_tie"]
        assert [r.orthogonal for r in float_rows[0].rivals] == [r.orthogonal for r in exact_rows[0].rivals] \
            == [orthogonal]


# Exists because a mutant survived: the float branch of classify could set exact=None.
def test_float_classification_says_exact_is_false() -> None:
    """Search records copy ``cls.exact`` into their JSON, where the float branch's must be ``false``
    (a bool, not None)."""
    pe, task = parse_pe("rope:4"), parse_task("offset:1")
    sel = select(pe, task, 8, mode="float")
    assert sel.realizable and sel.exact_theta is None
    cls = classify(pe, task, sel, 16)
    assert cls.exact is False
    assert cls.total == 15 and 0 <= cls.realized <= cls.total


# Exists because a mutant survived: the order of an undecided row's near rivals was unchecked.
def test_near_rivals_of_undecided_rows_in_key_order():
    """relbias at L0 = 4 (ψ(i, j) = e_min(i - j, 3)), float θ = (0, 1, 1, 1), task offset:1 at L = 5.
    Row i's target is key i - 1 (offset 1, value 1); key i (offset 0) has value 0 and every key j ≤ i - 2
    (offsets 2, 3, ...: buckets 2, 3) value 1.  Margins are 0 with no structural tie (the target's bucket
    1 is nobody else's): rows 2, 3, 4 are undecided, with near rivals j = 0..i-2 in increasing order,
    directions e_1 - e_min(i - j, 3), none orthogonal to the constraint z = e_1 - e_0 (z·v = 1)."""
    pe, task = parse_pe("relbias"), parse_task("offset:1")
    z = np.array([[-1.0, 1.0, 0.0, 0.0]])
    sel = Selection(pe, task, 4, z, np.array([[1, 0, 1]]))
    sel.realize(Optimum(np.array([0.0, 1.0, 1.0, 1.0]), np.array([1.0])))
    cls = classify(pe, task, sel, 5)
    assert not cls.exact and (cls.total, cls.realized) == (4, 1)
    assert [(r.row, r.target, r.cls) for r in cls.failing] == [(i, i - 1, "undecided") for i in (2, 3, 4)]

    def e(k):
        return tuple(1.0 if c == k else 0.0 for c in range(4))

    for r in cls.failing:
        i = r.row
        assert [x.rival for x in r.rivals] == list(range(i - 1))
        for x in r.rivals:
            expected = tuple(a - b for a, b in zip(e(1), e(min(i - x.rival, 3))))
            assert x.direction == expected and not x.orthogonal


# Exists because a mutant survived: the refusal of a cell that is not realizable could lose the task's name.
def test_classifying_a_cell_that_is_not_realizable_is_refused_by_name() -> None:
    pe, task = parse_pe("nope"), parse_task("offset:1")
    sel = select(pe, task, 8)
    assert not sel.realizable
    try:
        classify(pe, task, sel, 16)
    except PosrealError as err:
        assert str(err) == ("invalid cell 'nope' · 'offset:1' for classification: not realizable at L0 = 8; "
                            "accepted: a realizable cell")
    else:
        raise AssertionError("classify accepted a cell that is not realizable")


# Exists because a mutant survived: the margin recorded on an exact strict misrank was unchecked.
def test_exact_strict_misrank_records_its_negative_margin():
    """relbias at L0 = 4 (ψ(i, j) = e_min(i - j, 3)) with θ = (1, 2, 0, 0), task offset:0 at L = 4:
    row i ≥ 1 scores its target (offset 0) 1 and the key at offset 1 scores 2, every other key 0, so
    γ_i = 1 - 2 = -1 (a strict misrank, no rivals listed); row 0 has one key (realized)."""
    pe, task = parse_pe("relbias"), parse_task("offset:0")
    z = (F(1), F(0), F(-1), F(0))
    sel = Selection(pe, task, 4, np.array([[1.0, 0.0, -1.0, 0.0]]), np.array([[2, 2, 0]]), exact_constraints=[z])
    sel.realize(Optimum(np.array([1.0, 2.0, 0.0, 0.0]), np.array([0.0]), [F(1), F(2), F(0), F(0)], {}))
    cls = classify(pe, task, sel, 4)
    assert cls.exact and (cls.total, cls.realized) == (4, 1)
    assert [(r.row, r.target, r.cls, r.margin, r.rivals) for r in cls.failing] == \
        [(i, i, "strict_misrank", F(-1), []) for i in (1, 2, 3)]
    assert all(type(r.margin) is F for r in cls.failing)
    assert cls.counts()["strict_misrank"] == 3
