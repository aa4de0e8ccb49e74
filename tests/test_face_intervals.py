"""The α interval over a non-point optimal face (ℓ∞): the fast decision procedure of posreal.theory.faces and
face_rows against (1) the outcomes of the previous implementation, stored once, and (2) the definition itself,
one LP per row and per (row, rival) in θ-space (tests/face_cases.py); with and without HiGHS' Python API."""

from __future__ import annotations

import numpy as np
import pytest
from posreal.theory import warm_lp
from posreal.theory.defaults import LENGTHS
from posreal.theory.geometry import Geometry
from posreal.theory.faces import select_in_geometry
from posreal.theory.face_rows import (interval_outcomes)
from posreal.theory.realization import FAILED, REALIZED, UNDECIDED
from face_cases import CODES, NAIVE_CELLS, PREVIOUS_CELLS, SLOW_CELLS, naive_rows


@pytest.mark.parametrize("pe,task,L0,geo", [pytest.param(*cell, marks=pytest.mark.slow) if cell in SLOW_CELLS
                                            else cell for cell in sorted(PREVIOUS_CELLS)], ids=str)
def test_same_outcomes_as_the_previous_implementation_wherever_it_decided(pe, task, L0, geo):
    """Every row the previous implementation decided (every or some) gets the same verdict; the rows it
    left undecided (LP budget) are decided now."""
    stored = PREVIOUS_CELLS[(pe, task, L0, geo)]
    gsel = select_in_geometry(pe, task, L0, geo, mode="float")
    assert gsel.face is not None and not gsel.face.point
    now = interval_outcomes(gsel, sorted(stored))
    for L, old in stored.items():
        for name in ("every", "some"):
            before = np.array([CODES[c] for c in old[name]], dtype=np.int8)
            after = getattr(now[L], name)
            decided = before != UNDECIDED
            assert np.array_equal(after[decided], before[decided]), (L, name, np.flatnonzero(after != before))
            assert not np.any(after == UNDECIDED), (L, name, int(np.sum(after == UNDECIDED)))


@pytest.mark.parametrize("pe,task,L0", NAIVE_CELLS)
def test_outcomes_agree_with_the_definition(pe, task, L0):
    """Rows whose naive extreme margin is clear of the tolerance (|value| > 1e-5) get the naive verdict."""
    gsel = select_in_geometry(pe, task, L0, Geometry.LINF, mode="float")
    assert gsel.realizable
    length = 2 * L0
    fast = interval_outcomes(gsel, [length])[length]
    checked = 0
    for n, naive in enumerate(naive_rows(gsel, length)):
        if naive is None:
            continue
        every, some, scale = naive
        if abs(every) > 1e-5:
            assert fast.every[n] == (REALIZED if every > scale else FAILED), (n, every)
            checked += 1
        if abs(some) > 1e-5:
            assert fast.some[n] == (REALIZED if some > scale else FAILED), (n, some)
    assert checked


def test_without_highs_python_api_the_face_lps_go_through_linprog(monkeypatch):
    """Same outcomes when HiGHS' Python API (highspy) cannot be imported (each face LP is then one linprog)."""
    cell = ("abssin:16", "offset:1", 16, Geometry.LINF)
    warm = interval_outcomes(select_in_geometry(*cell, mode="float"), LENGTHS)
    monkeypatch.setattr(warm_lp, "_HIGHS", False)
    gsel = select_in_geometry(*cell, mode="float")
    assert gsel.face is not None and not gsel.face.point
    cold = interval_outcomes(gsel, LENGTHS)
    assert gsel.face.solver is None or gsel.face.solver.model is None
    for L in LENGTHS:
        assert np.array_equal(warm[L].every, cold[L].every) and np.array_equal(warm[L].some, cold[L].some)


def test_the_dual_cell_of_abssin_in_linf_equals_the_cell_itself():
    """Proposition 4 in the ℓ∞ geometry: dual:abssin:16 · dual:offset:1 has the rows of abssin:16 · offset:1
    (a case whose face LP needs the cold fallback under some BLAS thread counts)."""
    from posreal.theory import compute_alpha
    plain = compute_alpha("abssin:16", "offset:1", geometry="linf")
    dual = compute_alpha("dual:abssin:16", "dual:offset:1", geometry="linf")
    assert plain.to_json()["alpha"] == dual.to_json()["alpha"]
