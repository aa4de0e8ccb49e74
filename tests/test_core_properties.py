"""Property tests over random rational relative and column kernels (user feature
tables with small integer entries, where exact ties are common)."""

from fractions import Fraction

import numpy as np
from hypothesis import given
from hypothesis import strategies as st

from naive import naive_row_status
from posreal.theory import alpha_sweep, compute_alpha, register_pe, select, unregister_pe
from posreal.theory.selection import verify_farkas_exact, verify_kkt_exact

SWEEPABLE = ["offset:0", "offset:1", "offset:2", "position:0", "position:1", "half", "dual:half", "dual:offset:1"]
ALL_TASKS = SWEEPABLE + ["copy", "middle", "reverse", "dual:copy", "dual:middle"]


@st.composite
def rational_tables(draw):
    """A random small-integer feature table (relative or column), its size, and L0."""
    kind = draw(st.sampled_from(["relative", "column"]))
    size = draw(st.integers(8, 24))
    width = draw(st.integers(1, 4))
    entries = st.integers(-3, 3)
    table = draw(st.lists(st.lists(entries, min_size=width, max_size=width), min_size=size, max_size=size))
    train_length = draw(st.integers(3, min(8, size)))
    return kind, table, train_length


def _with_table(kind, table):
    name = f"prop_{kind}"
    unregister_pe(name)
    return register_pe(name, table, kind)


@given(rational_tables(), st.sampled_from(ALL_TASKS))
def test_alpha_in_unit_interval_and_one_at_train_length(case, task):
    kind, table, L0 = case
    pe = _with_table(kind, table)
    size = len(table)
    result = compute_alpha(pe, task, L0, [L0, size], mode="exact")
    sel = result.selection
    if sel.realizable:
        assert verify_kkt_exact(sel)
        assert result.alpha(L0) == 1.0
        assert 0.0 <= result.alpha(size) <= 1.0
    else:
        assert "structural tie" in sel.reason or verify_farkas_exact(sel)


@given(rational_tables(), st.sampled_from(SWEEPABLE))
def test_sweep_equals_one_length_computation(case, task):
    kind, table, L0 = case
    pe = _with_table(kind, table)
    size = len(table)
    sweep = alpha_sweep(pe, task, L0, size)
    result = compute_alpha(pe, task, L0, range(L0, size + 1))
    if sweep is None:
        assert not result.realizable
        return
    for L, realized, total in zip(sweep.lengths, sweep.realized, sweep.total):
        counts = result.outcomes[int(L)].counts()
        assert (counts["realized"], counts["total"]) == (realized, total)


@given(rational_tables(), st.sampled_from(ALL_TASKS))
def test_float_exact_and_definition_agree(case, task):
    kind, table, L0 = case
    pe = _with_table(kind, table)
    size = len(table)
    exact = compute_alpha(pe, task, L0, [size], mode="exact")
    floating = compute_alpha(pe, task, L0, [size], mode="float")
    assert exact.realizable == floating.realizable
    if exact.realizable:
        e, f = exact.outcomes[size].status, floating.outcomes[size].status
        decided = f != 0
        assert np.array_equal(e[decided], f[decided])
        theta = np.array([float(x) for x in exact.selection.exact_theta])
        naive = naive_row_status(pe, exact.task, theta, size, L0)
        assert np.array_equal(naive[naive != 0], e[naive != 0])


def test_user_table_exactness_is_detected():
    pe = register_pe("halves", [[Fraction(1, 2)], [Fraction(0)], [Fraction(-1, 3)]], "relative")
    assert pe.rational and str(pe) == "halves"
    floats = register_pe("floats", [[0.5], [0.25], [0.0]], "column")
    assert not floats.rational
    sel = select("halves", "offset:0", 3, mode="exact")
    assert sel.realizable and verify_kkt_exact(sel)
    unregister_pe("halves")
    unregister_pe("floats")
