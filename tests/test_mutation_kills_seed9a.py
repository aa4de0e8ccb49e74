"""Kills of seed-9 surviving mutants (part a).

Pinned here:
- ``geometry._face_rows`` splits the rows of R_L into blocks of at most ``ROW_BLOCK_ENTRIES`` rival
  directions (rows × keys × directions), down to one row per block when a single row exceeds the bound,
  and the row outcomes do not depend on the blocking;
- ``geometry.optimal_face`` counts a dual value in the support only strictly above
  ``DUAL_TOL · max(1, max y)``: a value exactly at the threshold is noise and leaves the face as it is;
- ``geometry.DualFaceLP`` builds its HiGHS model for warm-started dual simplex with presolve off.
"""
from __future__ import annotations

import numpy as np
import pytest

from posreal.theory import geometry
from posreal.theory.geometry import (
    DUAL_TOL,
    LP_TOL,
    DualFaceLP,
    Geometry,
    _face_rows,
    norm_program,
    optimal_face,
    select_in_geometry,
    solve_program,
)


# --------------------------------------------------------------------------- geometry
def _block_sizes(monkeypatch: pytest.MonkeyPatch, entries: int, length: int) -> tuple[list[int], list[int], list[int]]:
    """Row counts of the blocks ``_face_rows`` builds at ``length`` for the 12-dimensional optimal ℓ∞ face of
    abssin:8 · position:0 at L0 = 8 with ``ROW_BLOCK_ENTRIES = entries``, and the every/some outcomes."""
    sizes: list[int] = []
    block = geometry._Block

    class Recorded(block):  # type: ignore[misc, valid-type]
        def __init__(self, *args: object) -> None:
            sizes.append(int(np.asarray(args[3]).size))      # r: the block's rows
            super().__init__(*args)

    gsel = select_in_geometry("abssin:8", "position:0", 8, Geometry.LINF, exact=False)
    assert gsel.face is not None and not gsel.face.point and gsel.face.directions.shape[1] == 12
    with monkeypatch.context() as patch:
        patch.setattr(geometry, "ROW_BLOCK_ENTRIES", entries)
        patch.setattr(geometry, "_Block", Recorded)
        out = _face_rows(gsel, length, LP_TOL)
    return sizes, out.every.tolist(), out.some.tolist()


def test_face_rows_blocks_hold_one_row_when_one_row_exceeds_the_memory_bound(monkeypatch: pytest.MonkeyPatch) -> None:
    """geometry.x__face_rows__mutmut_61: a block holds ROW_BLOCK_ENTRIES // (L·d) rows, and at least one;
    when one row's L·d rival directions already exceed the bound, each block is a single row (``max(2, ·)``
    would put two rows, twice the bound, in each).  The blocking changes only the order of work, never
    the outcomes: one row per block, blocks of three and a single block agree."""
    length = 8
    d = 12
    one, every1, some1 = _block_sizes(monkeypatch, 1, length)
    assert one == [1] * length
    three, every3, some3 = _block_sizes(monkeypatch, 3 * length * d, length)
    assert three == [3, 3, 2]
    whole, every, some = _block_sizes(monkeypatch, 2 ** 21, length)
    assert whole == [length]
    assert every1 == every3 == every and some1 == some3 == some


def test_optimal_face_support_is_strictly_above_the_dual_tolerance() -> None:
    """geometry.x_optimal_face__mutmut_34: min ‖θ‖∞ s.t. θ1 ≥ 1 (p = 2) has the optimal face
    {(1, s) : |s| ≤ 1}, a segment; a dual value exactly DUAL_TOL · max(1, max y) on the norm row
    t + θ2 ≥ 0 (slack there unless s = -1) is not above the threshold, so it is not in the support and
    the face stays the segment (``>=`` would put that row in the support, fix θ2 and make the face a point)."""
    lp = norm_program(np.array([[1.0, 0.0]]), Geometry.LINF)
    x, y, value = solve_program(lp)
    assert value == pytest.approx(1.0)
    row = 4                              # rows: θ1 ≥ 1, then t - θ1, t - θ2, t + θ1, t + θ2 ≥ 0
    assert lp.A[row].tolist() == [0.0, 1.0, 1.0] and y[row] == 0.0
    noisy = y.copy()
    noisy[row] = DUAL_TOL * max(1.0, float(y.max(initial=0.0)))
    for dual in (y, noisy):
        face = optimal_face(lp, x, dual)
        assert not face.point and face.directions.shape == (2, 1)
        assert np.abs(face.directions[:, 0]).tolist() == pytest.approx([0.0, 1.0])
        ends = sorted(float(face.theta0[1] + face.directions[1, 0] * w) for w in (face.lo[0], face.hi[0]))
        assert ends == pytest.approx([-1.0, 1.0])          # θ2 ranges over [-1, 1] on the face
        assert face.theta0[0] == pytest.approx(1.0)


def test_dual_face_lp_runs_dual_simplex_without_presolve() -> None:
    """geometry.xǁDualFaceLPǁ_build__mutmut_35: the model's options are set by their (lower-case) HiGHS names;
    HiGHS refuses the unknown name ``PRESOLVE`` (kError, option unchanged), which would leave presolve at
    its default ``choose``.  The model solves min w s.t. w ≥ 1, -10 ≤ w ≤ 10: 1 at w = 1."""
    solver = DualFaceLP(np.array([[1.0]]), np.array([1.0]), np.array([-10.0]), np.array([10.0]))
    model = solver.model
    assert model is not None                                   # highspy is a dependency
    assert model.getOptionValue("presolve")[1] == "off"
    assert model.getOptionValue("simplex_strategy")[1] == 1   # dual simplex
    assert model.getOptionValue("output_flag")[1] is False
    value, w, mu = solver.minimize(np.array([1.0]))
    assert value == pytest.approx(1.0) and w is not None and w.tolist() == pytest.approx([1.0])
    assert mu is not None and mu.tolist() == pytest.approx([1.0])     # the row w ≥ 1 carries the bound
