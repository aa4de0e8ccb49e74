"""Kills of seed-10 surviving mutants (part a), all in ``theory/geometry.py``.

Pinned here:
- ``_prune`` drops a row that holds on the whole box with equality at a box vertex (its least value over
  the box equals its right-hand side): only rows the box does not imply are kept;
- a block of rows (``_Block``) sees the *first* known point of the face too: a row realized only there is
  realized by some θ of F;
- ``_Block.box_bounds`` refutes a row from *its own* rivals' upper bounds over the box, row by row: one row
  lost on the whole box does not take another, realized row down with it.

Expected values are recomputed in the tests from the box's vertices or the known points (naive loops), not
copied from output.
"""
from __future__ import annotations

import itertools

import numpy as np

from posreal.theory.geometry import Face, _Block, _prune
from posreal.theory.realization import FAILED, REALIZED, UNDECIDED


def _vertex_minima(A: np.ndarray, lo: np.ndarray, hi: np.ndarray) -> np.ndarray:
    """min over the vertices of the box [lo, hi] of each row's A_k w (a linear function's minimum over a box
    is attained at a vertex), by enumerating the 2^d vertices."""
    vertices = np.array(list(itertools.product(*zip(lo.tolist(), hi.tolist(), strict=True))))   # (2^d, d)
    return np.array([min(float(row @ v) for v in vertices) for row in A])


# --------------------------------------------------------------------------- _prune
def test_prune_drops_rows_that_hold_with_equality_on_the_box() -> None:
    """geometry.x__prune__mutmut_9 (``worst < r`` → ``worst <= r``): on the box [0, 1]², the rows
    w₁ ≥ 0, w₁ + w₂ ≥ 0 and -w₂ ≥ -1 hold on the whole box, each with equality at a vertex (least value = r);
    w₁ + w₂ ≥ 0.5 and w₂ ≥ 0.25 do not.  Only the last two are kept (the box, passed to HiGHS as bounds,
    already implies the others); the mutant kept the three tight rows as well."""
    A = np.array([[1.0, 0.0], [1.0, 1.0], [0.0, -1.0], [1.0, 1.0], [0.0, 1.0]])
    r = np.array([0.0, 0.0, -1.0, 0.5, 0.25])
    lo, hi = np.zeros(2), np.ones(2)
    implied = _vertex_minima(A, lo, hi) >= r            # holds at every vertex, hence on the whole box
    assert implied.tolist() == [True, True, True, False, False]
    kept_A, kept_r = _prune(A, r, lo, hi)
    assert kept_A.tolist() == A[~implied].tolist()
    assert kept_r.tolist() == r[~implied].tolist()


# --------------------------------------------------------------------------- _Block
def _segment_face(probes: np.ndarray) -> Face:
    """A boxed face with one direction, w ∈ [-1, 1], and the given known points (P, 1)."""
    return Face(np.zeros(1), np.ones((1, 1)), np.zeros((0, 1)), np.zeros(0), np.array([-1.0]), np.array([1.0]),
                False, probes=probes)


def _one_rival_block(face: Face, g0: list[list[float]], a: list[list[list[float]]], tol: float) -> _Block:
    """Rows whose target is key 0 and whose one rival is key 1 (L = 2 keys), no structural ties."""
    g0_arr, a_arr = np.asarray(g0, dtype=float), np.asarray(a, dtype=float)
    b = g0_arr.shape[0]
    rival = np.zeros((b, 2), dtype=bool)
    rival[:, 1] = True
    return _Block(None, face, None, np.ones(b, dtype=int), np.zeros(b, dtype=int), g0_arr, a_arr, rival,
                  np.full(b, tol), np.zeros(b, dtype=bool), np.zeros(b, dtype=np.int8), np.zeros(b, dtype=np.int8))


def test_block_sees_the_first_known_point_of_the_face() -> None:
    """geometry.xǁ_Blockǁ__init____mutmut_49 (``range(0, P, 16)`` → ``range(1, P, 16)``): known points
    w = 0.75 (first) and w = -0.5; the rival's margin is -0.5 + w, so 0.25 at the first point only.  The best
    row margin seen is 0.25 and the row is realized by some θ (and, from θ₀ and w = -0.5, lost by some);
    the mutant skipped the first point and saw no positive margin."""
    probes = np.array([[0.75], [-0.5]])
    g0, slope = -0.5, 1.0
    margins = [g0] + [g0 + slope * float(w[0]) for w in probes]     # at θ₀ (w = 0), then at each point
    blk = _one_rival_block(_segment_face(probes), [[0.0, g0]], [[[0.0], [slope]]], 1e-7)
    assert blk.best.tolist() == [max(margins)] == [0.25]
    assert blk.low[0, 1] == min(margins) and blk.high[0, 1] == max(margins)
    blk.refresh()
    assert blk.some.tolist() == [REALIZED] and blk.every.tolist() == [FAILED]


def test_box_refutes_each_row_from_its_own_rivals() -> None:
    """geometry.xǁ_Blockǁbox_bounds__mutmut_22 (``.min(axis=1)`` → ``.min(axis=None)``): on the box
    w ∈ [-1, 1], row 0's rival margin -2 + 0.5 w is at most -1.5 (lost by every θ of F); row 1's rival
    margin 1 + 0.5 w is at least 0.5 (realized on the whole face).  Row 0 is refuted, row 1 realized; the
    mutant took the least upper bound over *all* rows and refuted row 1 too."""
    g0, a = [[0.0, -2.0], [0.0, 1.0]], [[[0.0], [0.5]], [[0.0], [0.5]]]
    blk = _one_rival_block(_segment_face(np.zeros((0, 1))), g0, a, 1e-7)
    assert blk.some.tolist() == [UNDECIDED, UNDECIDED]    # nothing decided before refresh / the box
    ends = (-1.0, 1.0)
    upper = [max(g0[n][1] + a[n][1][0] * w for w in ends) for n in range(2)]
    lower = [min(g0[n][1] + a[n][1][0] * w for w in ends) for n in range(2)]
    assert upper == [-1.5, 1.5] and lower == [-2.5, 0.5]
    proved = blk.box_bounds()
    assert blk.some.tolist() == [FAILED, REALIZED]
    assert blk.every.tolist() == [FAILED, UNDECIDED]
    assert proved.tolist() == [[False, False], [False, True]]     # only row 1's rival is positive on the box
