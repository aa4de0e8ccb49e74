"""Shared cases and builders of the tests of the optimal face (tests/test_faces.py, test_face_rows.py,
test_face_intervals.py): the stored outcomes of the previous implementation, the cells checked against the
definition, the naive per-row LPs in θ-space, and small faces, blocks and counting models built by hand."""

from __future__ import annotations

import itertools
import json
from pathlib import Path
from types import SimpleNamespace

import numpy as np
import pytest
from posreal.theory import face_rows
from posreal.theory.geometry import Geometry
from posreal.theory.warm_lp import DualFaceLP, LP_TOL
from posreal.theory.faces import Face, select_in_geometry
from posreal.theory.face_rows import _Block, _face_rows
from posreal.theory.realization import FAILED, REALIZED, UNDECIDED, structural_ties
from posreal.theory.kernels import target_keys
from scipy.optimize import linprog

ROOT = Path(__file__).resolve().parents[1]
PREVIOUS = ROOT / "tests" / "data" / "geometry_intervals_previous.json"
CODES = {"+": REALIZED, "-": FAILED, "?": UNDECIDED}


def previous_cells() -> dict[tuple[str, str, int, str], dict[int, dict[str, str]]]:
    cells: dict = {}
    for key, value in json.loads(PREVIOUS.read_text()).items():
        pe, task, L0, geo, L = key.split("|")
        cells.setdefault((pe, task, int(L0), geo), {})[int(L)] = value
    return cells


PREVIOUS_CELLS = previous_cells()


# the cells whose face LPs take seconds each (measured under load: 8 to 290 s; the rest well under 8 s); pytest -m slow
SLOW_CELLS = {("abssin:16", "position:1", 16, "linf"), ("abssin:16", "position:1", 32, "linf"),
              ("abssin:16", "position:1", 64, "linf"), ("abssin:16", "middle", 16, "linf"),
              ("abssin:16", "middle", 32, "linf"), ("abssin:16", "middle", 64, "linf"),
              ("abssin:16", "position:0", 16, "linf"), ("abssin:16", "position:0", 32, "linf"),
              ("abssin:16", "position:0", 64, "linf"), ("abssin:16", "offset:1", 32, "linf"),
              ("abssin:16", "offset:1", 64, "linf")}


def naive_rows(gsel, length: int, tol: float = 1e-7):
    """From the definition, in θ-space over {Zθ ≥ 1, ‖θ‖_∞ ≤ value}: per row, the least over rivals of
    min ⟨v, θ⟩ (every) and max min_rival ⟨v, θ⟩ capped at 1 (some), with the margin scale of the code."""
    pe, task, L0 = gsel.pe, gsel.task, gsel.train_length
    z, value = gsel.selection.constraints, gsel.value
    p = z.shape[1]
    rows, targets = task.rows_and_targets(length)
    ties = structural_ties(pe, rows, targets, length, L0)
    keys = target_keys(pe.index, rows, targets)
    bounds = [(-value * (1 + 1e-9), value * (1 + 1e-9))] * p
    out = []
    for i, kt, tie in zip(rows.tolist(), keys.tolist(), ties.tolist()):
        rivals = [k for k in range(i + 1) if k != kt]
        if tie or not rivals:
            out.append(None)
            continue
        feats = pe.index_features(np.full(i + 1, i), np.arange(i + 1), L0)      # (i+1, p)
        v = feats[kt][None, :] - feats[rivals]                                   # (r, p)
        scale = tol * max(1.0, abs(float(feats[kt] @ gsel.theta)))
        A = np.vstack([np.hstack([-z, np.zeros((z.shape[0], 1))]), np.hstack([-v, np.ones((len(rivals), 1))])])
        b = np.concatenate([-np.ones(z.shape[0]), np.zeros(len(rivals))])
        c = np.zeros(p + 1)
        c[-1] = -1
        some = -linprog(c, A_ub=A, b_ub=b, bounds=bounds + [(None, 1.0)], method="highs").fun
        every = min(linprog(row, A_ub=-z, b_ub=-np.ones(z.shape[0]), bounds=bounds, method="highs").fun
                    for row in v)
        out.append((every, some, scale))
    return out


NAIVE_CELLS = [("abssin:4:50", "offset:1", 8), ("abssin:4:50", "position:0", 8), ("abssin:4:50", "copy", 8),
               ("abssin:6", "position:1", 8), ("abssin:6", "middle", 8), ("abssin:8", "position:0", 12)]


def vertex_minima(A: np.ndarray, lo: np.ndarray, hi: np.ndarray) -> np.ndarray:
    """min over the vertices of the box [lo, hi] of each row's A_k w (a linear function's minimum over a box
    is attained at a vertex), by enumerating the 2^d vertices."""
    vertices = np.array(list(itertools.product(*zip(lo.tolist(), hi.tolist(), strict=True))))   # (2^d, d)
    return np.array([min(float(row @ v) for v in vertices) for row in A])


def segment_face(probes: np.ndarray) -> Face:
    """A boxed face with one direction, w ∈ [-1, 1], and the given known points (P, 1)."""
    return Face(np.zeros(1), np.ones((1, 1)), np.zeros((0, 1)), np.zeros(0), np.array([-1.0]), np.array([1.0]),
                False, probes=probes)


def block(face: Face, g0, a, scale) -> _Block:
    """One block of rows whose target is key 0 and whose one rival is key 1 (L = 2 keys), no structural
    ties; ``scale`` is the rows' tolerance (one number for every row, or one per row)."""
    g0, a = np.asarray(g0, dtype=float), np.asarray(a, dtype=float)
    b = g0.shape[0]
    scale = np.broadcast_to(np.asarray(scale, dtype=float), (b,)).copy()
    rival = np.tile([False, True], (b, 1))
    return _Block(None, face, None, np.ones(b, dtype=int), np.zeros(b, dtype=int), g0, a, rival, scale,
                  np.zeros(b, dtype=bool), np.zeros(b, dtype=np.int8), np.zeros(b, dtype=np.int8))


def segment() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """0 <= w <= 2 as rows A w >= r, with infinite column bounds."""
    return np.array([[1.0], [-1.0]]), np.array([0.0, -2.0]), np.full(1, np.inf)


class CountingModel(DualFaceLP):
    """The face's warm-started model, counting the LPs solved on it."""

    def __init__(self, *args):
        super().__init__(*args)
        self.calls = 0

    def minimize(self, c):
        self.calls += 1
        return super().minimize(c)


def wide_face() -> Face:
    """The optimal ℓ∞ face of abssin:8 · position:0 at L0 = 8: 12-dimensional, its box computed."""
    gsel = select_in_geometry("abssin:8", "position:0", 8, Geometry.LINF, mode="float")
    assert gsel.face is not None and not gsel.face.point and gsel.face.directions.shape[1] == 12
    return gsel.face


def block_sizes(monkeypatch: pytest.MonkeyPatch, entries: int, length: int) -> tuple[list[int], list[int], list[int]]:
    """Row counts of the blocks ``_face_rows`` builds at ``length`` for the 12-dimensional optimal ℓ∞ face of
    abssin:8 · position:0 at L0 = 8 with ``ROW_BLOCK_ENTRIES = entries``, and the every/some outcomes."""
    sizes: list[int] = []
    block = face_rows._Block

    class Recorded(block):  # type: ignore[misc, valid-type]
        def __init__(self, *args: object) -> None:
            sizes.append(int(np.asarray(args[3]).size))      # r: the block's rows
            super().__init__(*args)

    gsel = select_in_geometry("abssin:8", "position:0", 8, Geometry.LINF, mode="float")
    assert gsel.face is not None and not gsel.face.point and gsel.face.directions.shape[1] == 12
    with monkeypatch.context() as patch:
        patch.setattr(face_rows, "ROW_BLOCK_ENTRIES", entries)
        patch.setattr(face_rows, "_Block", Recorded)
        out = _face_rows(gsel, length, LP_TOL)
    return sizes, out.every.tolist(), out.some.tolist()


def rows_one_rival(face: Face, g0: float, slopes: list[float]) -> _Block:
    """One row per slope (rows 1, 2, ...: distinct cache keys), target key 0 and one rival, key 1, whose margin
    over the face is g0 + slope · w (d = 1), tolerance 1e-7; a general PE (rival keys (row, target, key))."""
    b = len(slopes)
    a = np.zeros((b, 2, 1))
    a[:, 1, 0] = slopes
    gsel = SimpleNamespace(pe=SimpleNamespace(kernel_form=None))
    return _Block(gsel, face, None, np.arange(1, b + 1), np.zeros(b, dtype=int), np.tile([0.0, g0], (b, 1)), a,
                  np.tile([False, True], (b, 1)), np.full(b, 1e-7), np.zeros(b, dtype=bool),
                  np.zeros(b, dtype=np.int8), np.zeros(b, dtype=np.int8))


def decide_within(blk: _Block, monkeypatch: pytest.MonkeyPatch, rounds: int = 50) -> None:
    """``blk.decide()``, failing (instead of running on) if it looks at new points more than ``rounds`` times."""
    see, calls = blk.see, []

    def counted(points: np.ndarray) -> None:
        calls.append(len(points))
        assert len(calls) <= rounds, "decide() does not end"
        see(points)

    monkeypatch.setattr(blk, "see", counted)
    blk.decide()
