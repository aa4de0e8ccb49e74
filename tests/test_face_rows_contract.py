"""Contracts of posreal.theory.face_rows on hand-built faces: the every/some decision of a block of rows
against brute force (linprog over the face, one LP per rival and one max-min LP per row), the max-min
LP's cap, the training-difference bound in both dual norms, the tolerance classification and the
IntervalOutcomes summaries."""

from __future__ import annotations

import functools
from fractions import Fraction
from types import SimpleNamespace

import numpy as np
import pytest
from posreal.theory.arithmetic import Mode
from posreal.theory.face_rows import (IntervalOutcomes, _Block, _classify, _max_min_over_face, _TrainingBound,
                                      interval_outcomes)
from posreal.theory.faces import Face, GeometrySelection, _box
from posreal.theory.errors import SpecError
from posreal.theory.norm_programs import Geometry
from posreal.theory.realization import FAILED, REALIZED, UNDECIDED
from posreal.theory.selection import Selection
from scipy.optimize import linprog

GENERAL_PE = SimpleNamespace(pe=SimpleNamespace(kernel_form=None))   # rival keys (row, target, key)


def _polytope_face(A: np.ndarray, r: np.ndarray) -> Face:
    """The face {w : A w >= r} (bounded), boxed by its own LPs, with the box vertices as probes."""
    lo, hi, probes, count = _box(A, r)
    d = A.shape[1]
    return Face(np.zeros(d), np.eye(d), A, r, lo, hi, False, lp_count=count, probes=probes, lp_budget=10 ** 6)


def _triangle() -> Face:
    """w1 >= -1, w2 >= -1, w1 + w2 <= 1: a triangle with vertices (-1, -1), (2, -1), (-1, 2)."""
    return _polytope_face(np.array([[1.0, 0.0], [0.0, 1.0], [-1.0, -1.0]]), np.array([-1.0, -1.0, -1.0]))


def _lp_min(A: np.ndarray, r: np.ndarray, c: np.ndarray) -> float:
    res = linprog(c, A_ub=-A, b_ub=-r, bounds=[(None, None)] * A.shape[1], method="highs")
    assert res.status == 0
    return float(res.fun)


def _lp_max_min(A: np.ndarray, r: np.ndarray, g0: np.ndarray, a: np.ndarray) -> float:
    """max over {A w >= r} of min_j g0_j + a_j w (uncapped), by linprog in (w, s)."""
    d = A.shape[1]
    rows = np.vstack([np.hstack([A, np.zeros((A.shape[0], 1))]), np.hstack([a, -np.ones((a.shape[0], 1))])])
    rhs = np.concatenate([r, -g0])
    c = np.zeros(d + 1)
    c[-1] = -1.0
    res = linprog(c, A_ub=-rows, b_ub=-rhs, bounds=[(None, None)] * (d + 1), method="highs")
    assert res.status == 0
    return -float(res.fun)


def _expected(A: np.ndarray, r: np.ndarray, g0: np.ndarray, a: np.ndarray, rival: np.ndarray) -> tuple[list, list]:
    """Every/some of each row by the definition: every rival's minimum over F positive / the max-min positive."""
    every, some = [], []
    for n in range(g0.shape[0]):
        js = np.flatnonzero(rival[n])
        mins = [g0[n, j] + _lp_min(A, r, a[n, j]) for j in js]
        every.append(REALIZED if min(mins) > 0 else FAILED)
        some.append(REALIZED if _lp_max_min(A, r, g0[n, js], a[n, js]) > 0 else FAILED)
    return every, some


RIVALS = np.array([False, True, True, True])


def _far_from_zero(A: np.ndarray, r: np.ndarray, g0: np.ndarray, a: np.ndarray, rival: np.ndarray) -> bool:
    """Whether every rival's min and max over F and each row's max-min are at least 0.05 away from 0."""
    for n in range(g0.shape[0]):
        js = np.flatnonzero(rival[n])
        for j in js:
            if abs(g0[n, j] + _lp_min(A, r, a[n, j])) < 0.05 or abs(g0[n, j] - _lp_min(A, r, -a[n, j])) < 0.05:
                return False
        if abs(_lp_max_min(A, r, g0[n, js], a[n, js])) < 0.05:
            return False
    return True


@functools.cache
def _random_rows(seed: int, b: int, keys: int) -> tuple[np.ndarray, np.ndarray]:
    """g0 (b, keys) and a (b, keys, 2) on the triangle: random rows (key 0 the target) whose rival minima and
    maxima over the face and whose max-min are all at least 0.05 away from 0, the first b of 24 drawn."""
    rng = np.random.default_rng(seed)
    g0 = np.round(rng.normal(1.2, 1.0, size=(24, keys)), 2)
    a = np.round(rng.normal(0.0, 0.4, size=(24, keys, 2)), 2)
    g0[:, 0], a[:, 0] = 0.0, 0.0
    face = _triangle()
    keep = [n for n in range(24) if _far_from_zero(face.A_red, face.r, g0[n:n + 1], a[n:n + 1], RIVALS[None, :])]
    assert len(keep) >= b
    return g0[keep[:b]], a[keep[:b]]


def _run_block(face: Face, g0: np.ndarray, a: np.ndarray, rival: np.ndarray, scale: float = 1e-7) -> _Block:
    b = g0.shape[0]
    blk = _Block(GENERAL_PE, face, None, np.arange(1, b + 1), np.zeros(b, dtype=int), g0, a, rival,
                 np.full(b, scale), np.zeros(b, dtype=bool), np.zeros(b, dtype=np.int8), np.zeros(b, dtype=np.int8))
    blk.decide()
    blk.finish_some()
    return blk


@pytest.mark.parametrize("seed", range(4))
def test_block_decides_every_and_some_as_the_definition(seed: int) -> None:
    """Rows of 4 keys (target 0, rivals 1-3) over a triangle: the block's every/some equal the definition's,
    computed by one linprog per rival and one max-min linprog per row."""
    face = _triangle()
    g0, a = _random_rows(seed, 6, 4)
    rival = np.tile(RIVALS, (6, 1))
    every, some = _expected(face.A_red, face.r, g0, a, rival)
    blk = _run_block(face, g0, a, rival)
    assert blk.every.tolist() == every
    assert blk.some.tolist() == some


def test_the_random_instances_are_all_used_and_mixed() -> None:
    """The seeds above give rows of every kind: realized by every θ,
    by some θ only, and by none."""
    face = _triangle()
    kinds = set()
    for seed in range(4):
        g0, a = _random_rows(seed, 6, 4)
        rival = np.tile(RIVALS, (6, 1))
        every, some = _expected(face.A_red, face.r, g0, a, rival)
        kinds |= set(zip(every, some))
    assert kinds == {(REALIZED, REALIZED), (FAILED, REALIZED), (FAILED, FAILED)}


def test_block_rivals_are_only_keys_up_to_the_row() -> None:
    """A key that is not a rival (rival False) never decides a row, whatever its margin: a row with a hugely
    negative non-rival is realized by every θ when its one rival is positive on the whole face."""
    face = _triangle()
    g0 = np.array([[0.0, 5.0, -100.0]])
    a = np.zeros((1, 3, 2))
    a[0, 1] = [0.5, 0.5]          # 5 + 0.5 (w1 + w2) >= 4 on the triangle
    blk = _run_block(face, g0, a, np.array([[False, True, False]]))
    assert blk.every.tolist() == [REALIZED] and blk.some.tolist() == [REALIZED]


def test_block_a_row_with_no_rival_is_realized_and_a_tie_is_lost() -> None:
    """A row with one key (no rival) is realized by every θ; a structural tie is lost, whatever its margins."""
    face = _triangle()
    g0 = np.array([[0.0, 3.0], [0.0, 3.0]])
    a = np.zeros((2, 2, 2))
    rival = np.array([[False, False], [False, True]])
    blk = _Block(GENERAL_PE, face, None, np.array([1, 2]), np.zeros(2, dtype=int), g0, a, rival, np.full(2, 1e-7),
                 np.array([False, True]), np.zeros(2, dtype=np.int8), np.zeros(2, dtype=np.int8))
    blk.decide()
    blk.finish_some()
    assert blk.every.tolist() == [REALIZED, FAILED] and blk.some.tolist() == [REALIZED, FAILED]


def test_block_without_lp_budget_leaves_rows_needing_an_lp_undecided() -> None:
    """Rival margin 0.2 - 0.05 (w1 + w2): >= 0.15 on the triangle (w1 + w2 <= 1), but only >= 0 on its box
    [-1, 2]^2, so proving it positive takes an LP: with no budget left the row stays undecided for ``every``
    (the probes realize it for ``some``); with a budget it is realized."""
    face = _triangle()
    face.lp_budget = face.lp_count               # no LP left
    g0 = np.array([[0.0, 0.2]])
    a = np.zeros((1, 2, 2))
    a[0, 1] = [-0.05, -0.05]      # 0.2 - 0.05 (w1 + w2) >= 0.15 on F (w1 + w2 <= 1); box [-1, 2]^2 says >= 0
    blk = _run_block(face, g0, a, np.array([[False, True]]))
    assert blk.every.tolist() == [UNDECIDED]
    assert blk.some.tolist() == [REALIZED]        # θ₀-side probes realize it
    face.lp_budget = face.lp_count + 10
    blk = _run_block(face, g0, a, np.array([[False, True]]))
    assert blk.every.tolist() == [REALIZED]


# Exists because a mutant survived: the cap s <= 1 of the max-min LP was unchecked.
def test_max_min_over_face_is_capped_at_one() -> None:
    """Margins 5 and 3 + w1 on the triangle: the max-min is min(5, 5) uncapped, and 1 capped; a max-min
    below 1 is the true one (0.25 + w1 / 4 and 2 - w1: max at w1 = 1.4, value 0.6)."""
    face = _triangle()
    value, w = _max_min_over_face(face, np.array([5.0, 3.0]), np.array([[0.0, 0.0], [1.0, 0.0]]))
    assert value == pytest.approx(1.0, abs=1e-9)
    assert w is not None and np.all(face.A_red @ w >= face.r - 1e-9)
    value, w = _max_min_over_face(face, np.array([0.25, 2.0]), np.array([[0.25, 0.0], [-1.0, 0.0]]))
    assert value == pytest.approx(0.6, abs=1e-9)
    assert w is not None and w[0] == pytest.approx(1.4, abs=1e-9)


def test_max_min_over_face_matches_linprog_below_the_cap() -> None:
    """Random negative-ish margins on the triangle: the max-min equals linprog's (all below the cap of 1)."""
    face = _triangle()
    rng = np.random.default_rng(7)
    for _ in range(5):
        g0 = rng.normal(-0.5, 0.3, size=3)
        a = rng.normal(0.0, 0.5, size=(3, 2))
        want = _lp_max_min(face.A_red, face.r, g0, a)
        assert want < 1.0
        value, w = _max_min_over_face(face, g0, a)
        assert value == pytest.approx(want, abs=1e-8)
        assert w is not None and float(np.min(g0 + a @ w)) == pytest.approx(want, abs=1e-8)
        assert np.all(w >= face.lo - 1e-9) and np.all(w <= face.hi + 1e-9)


@pytest.mark.parametrize(("value", "want"), [(2e-7, REALIZED), (-2e-7, FAILED), (1e-7, UNDECIDED),
                                             (-1e-7, UNDECIDED), (0.0, UNDECIDED), (float("nan"), UNDECIDED)])
def test_classify_is_strict_at_the_tolerance(value: float, want: int) -> None:
    """Above tol realized, below -tol failed, within [-tol, tol] (or NaN) undecided."""
    assert _classify(value, 1e-7) == want


# ------------------------------------------------------------------------------------ the training bound
def _training(z: np.ndarray, theta: np.ndarray, value: float, geometry: Geometry, features: dict) -> _TrainingBound:
    """A training bound over constraints z with the given θ₀ and value; ψ(i, key) = features[key]."""
    pe = SimpleNamespace(index_features=lambda rows, keys, L0: np.array([features[int(k)] for k in keys]))
    sel = Selection(pe, None, 2, z, np.zeros((z.shape[0], 3), dtype=int))
    return _TrainingBound(GeometrySelection(geometry, sel, theta, value=value))


# Exists because a mutant survived: the dual norm of the training bound was unchecked.
@pytest.mark.parametrize("geometry", [Geometry.LINF, Geometry.L1])
def test_training_bound_uses_the_dual_norm(geometry: Geometry) -> None:
    """v - z = (1e-10, 1e-10): ‖·‖₁ = 2e-10 for ℓ∞ (radius 2 max(value, ‖θ‖∞) + 1 = 101), ‖·‖∞ = 1e-10 for ℓ1
    (radius 2 max(value, ‖θ‖₁) + 1 = 109)."""
    z = np.array([[0.25, 0.0]])
    theta = np.array([4.0, 50.0])
    bound = _training(z, theta, 50.0, geometry, {0: (0.25 + 1e-10, 1e-10), 1: (0.0, 0.0)})
    out = bound.lower_bounds(np.array([1]), np.array([0]), np.array([1]))
    want = 1.0 - 2e-10 * 101 if geometry is Geometry.LINF else 1.0 - 1e-10 * 109
    assert out[0] == pytest.approx(want, abs=1e-13)


def test_training_bound_floor_is_the_margin_at_theta0_below_one() -> None:
    """floor = min(1, ⟨z, θ₀⟩): 0.75 for z = (0.25, 0) at θ₀ = (3, 0), 1 at θ₀ = (8, 0); an exact match
    has gap 0, so the bound is the floor."""
    z = np.array([[0.25, 0.0]])
    feats = {0: (0.25, 0.0), 1: (0.0, 0.0)}
    for theta, want in ((np.array([3.0, 0.0]), 0.75), (np.array([8.0, 0.0]), 1.0)):
        out = _training(z, theta, 8.0, Geometry.LINF, feats).lower_bounds(np.array([1]), np.array([0]), np.array([1]))
        assert out.tolist() == [want]


def test_training_bound_matches_negative_zero_and_scales_by_the_largest_entry() -> None:
    """A direction (0.25, -1e-12) rounds to (0.25, -0.0) and matches z = (0.25, 0); for z = (3, 0) the
    rounding is relative to 3, so (3 + 1e-9, 0) matches, while (0.25 + 1e-8, 0) does not match (0.25, 0)."""
    one = np.array([1])
    zero = np.array([0])
    out = _training(np.array([[0.25, 0.0]]), np.array([4.0, 0.0]), 4.0, Geometry.LINF,
                    {0: (0.25, -1e-12), 1: (0.0, 0.0)}).lower_bounds(one, zero, one)
    assert np.isfinite(out[0]) and out[0] == pytest.approx(1.0, abs=1e-10)
    out = _training(np.array([[3.0, 0.0]]), np.array([1.0, 0.0]), 1.0, Geometry.LINF,
                    {0: (3.0 + 1e-9, 0.0), 1: (0.0, 0.0)}).lower_bounds(one, zero, one)
    assert np.isfinite(out[0]) and out[0] == pytest.approx(1.0, abs=1e-7)
    out = _training(np.array([[0.25, 0.0]]), np.array([4.0, 0.0]), 4.0, Geometry.LINF,
                    {0: (0.25 + 1e-8, 0.0), 1: (0.0, 0.0)}).lower_bounds(one, zero, one)
    assert np.isneginf(out[0])


def test_training_bound_finds_each_constraint_row() -> None:
    """Each of three distinct training differences is matched to its own row (its own floor)."""
    z = np.array([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]])
    theta = np.array([0.5, 2.0])                     # ⟨z, θ⟩ = 0.5, 2, 2.5: floors 0.5, 1, 1
    feats = {0: (0.0, 0.0), 1: (-1.0, 0.0), 2: (0.0, -1.0), 3: (-1.0, -1.0), 4: (-7.0, 0.0)}
    out = _training(z, theta, 2.0, Geometry.LINF, feats).lower_bounds(np.ones(4, dtype=int), np.zeros(4, dtype=int),
                                                                     np.array([1, 2, 3, 4]))
    assert out[:3].tolist() == [0.5, 1.0, 1.0] and np.isneginf(out[3])


# Exists because a mutant survived: a training bound exactly at the tolerance could settle a rival.
def test_training_settles_only_rivals_bounded_strictly_above_the_tolerance() -> None:
    """Rows 1 and 2, one rival each, margin 1 at θ₀ (the kernel and the features agree); the training bound is
    exactly the tolerance for row 1 (not settled) and twice it for row 2 (settled)."""
    scale = 0.01
    bounds = {1: scale, 2: 2 * scale}
    pe = SimpleNamespace(index_features=lambda rows, keys, L0: np.array([[1.0 if int(k) == 0 else 0.0] for k in keys]))
    training = SimpleNamespace(pe=pe, L0=2, lower_bounds=lambda rows, kt, k: np.array([bounds[int(n)] for n in rows]))
    gsel = SimpleNamespace(pe=GENERAL_PE.pe, theta=np.array([1.0]))
    face = _triangle()
    rival = np.array([[False, True], [False, True]])
    blk = _Block(gsel, face, training, np.array([1, 2]), np.zeros(2, dtype=int), np.array([[0.0, 1.0], [0.0, 1.0]]),
                 np.zeros((2, 2, 2)), rival, np.full(2, scale), np.zeros(2, dtype=bool), np.zeros(2, dtype=np.int8),
                 np.zeros(2, dtype=np.int8))
    done = ~rival
    blk._training(done)
    assert done.tolist() == [[True, False], [True, True]]


def test_training_skips_rivals_whose_kernel_margin_is_another_direction() -> None:
    """The features give margin 1 at θ₀ but the kernel says 1.5: not the same rival, never settled; and a
    rival whose least margin seen is below 1 - 1e-4 is not looked up."""
    pe = SimpleNamespace(index_features=lambda rows, keys, L0: np.array([[1.0 if int(k) == 0 else 0.0] for k in keys]))
    asked: list[int] = []

    def lower_bounds(rows: np.ndarray, kt: np.ndarray, k: np.ndarray) -> np.ndarray:
        asked.extend(int(n) for n in rows)
        return np.full(rows.size, 0.9)

    training = SimpleNamespace(pe=pe, L0=2, lower_bounds=lower_bounds)
    gsel = SimpleNamespace(pe=GENERAL_PE.pe, theta=np.array([1.0]))
    rival = np.array([[False, True], [False, True], [False, True]])
    g0 = np.array([[0.0, 1.5], [0.0, 1.0 - 2e-4], [0.0, 1.0 - 5e-5]])
    blk = _Block(gsel, _triangle(), training, np.array([1, 2, 3]), np.zeros(3, dtype=int), g0, np.zeros((3, 2, 2)),
                 rival, np.full(3, 1e-3), np.zeros(3, dtype=bool), np.zeros(3, dtype=np.int8),
                 np.zeros(3, dtype=np.int8))
    done = ~rival
    blk._training(done)
    assert sorted(asked) == [1, 3]
    assert done[:, 1].tolist() == [False, False, True]


# ------------------------------------------------------------------------------------ IntervalOutcomes
def _outcomes() -> IntervalOutcomes:
    return IntervalOutcomes(8, np.array([0, 1, 2, 3, 4, 5]), np.zeros(6, dtype=int),
                            np.array([1, 1, -1, 0, -1, 1], dtype=np.int8), np.array([1, 1, 1, 0, -1, 1], dtype=np.int8),
                            np.array([False, False, False, False, True, False]))


def test_interval_outcomes_counts_and_intervals() -> None:
    """counts: every-realized, some-realized, some-failed, undecided in either, total, ties; the interval
    is (every, some) realized over the total, in float and in ℚ."""
    out = _outcomes()
    assert out.counts() == {"realized": 3, "realized_by_some": 4, "failed": 1, "undecided": 1, "total": 6,
                            "structural_ties": 1}
    assert out.interval == (0.5, 4 / 6)
    assert out.exact_interval == (Fraction(1, 2), Fraction(2, 3))
    assert out.decided_in is Mode.FLOAT


def test_interval_outcomes_undecided_counts_rows_undecided_in_either() -> None:
    """A row undecided only for ``every`` and one undecided only for ``some`` count once each."""
    out = IntervalOutcomes(3, np.arange(3), np.zeros(3, dtype=int), np.array([0, -1, 1], dtype=np.int8),
                           np.array([1, 0, 1], dtype=np.int8), np.zeros(3, dtype=bool))
    assert out.counts()["undecided"] == 2


def test_interval_outcomes_of_no_rows_is_one_and_prefix_keeps_rows_below_the_length() -> None:
    """No rows: (1, 1).  prefix(L) keeps the rows < L (row 3 is dropped at L = 3), with their outcomes."""
    out = _outcomes()
    empty = out.prefix(0)
    assert empty.rows.size == 0 and empty.interval == (1.0, 1.0) and empty.exact_interval == (1, 1)
    three = out.prefix(3)
    assert three.length == 3 and three.rows.tolist() == [0, 1, 2]
    assert three.every.tolist() == [1, 1, -1] and three.some.tolist() == [1, 1, 1]
    assert three.ties.tolist() == [False, False, False] and three.targets.tolist() == [0, 0, 0]
    assert three.interval == (2 / 3, 1.0)


def test_interval_outcomes_decided_in() -> None:
    """exact wins over certified, certified over float."""
    base = _outcomes()
    assert IntervalOutcomes(8, base.rows, base.targets, base.every, base.some, base.ties, exact=True,
                            certified=True).decided_in is Mode.EXACT
    assert IntervalOutcomes(8, base.rows, base.targets, base.every, base.some, base.ties,
                            certified=True).decided_in is Mode.CERTIFIED


@pytest.mark.parametrize("what", ["l2", "unrealizable", "no face"])
def test_interval_outcomes_refusals(what: str) -> None:
    """An ℓ2 selection, an unrealizable one and one without a face are refused, naming what is accepted."""
    sel = SimpleNamespace(realizable=what != "unrealizable")
    gsel = SimpleNamespace(geometry=Geometry.L2 if what == "l2" else Geometry.LINF, realizable=sel.realizable,
                           face=None if what == "no face" else _triangle())
    with pytest.raises(SpecError, match="accepted: a realizable linf or l1 selection"):
        interval_outcomes(gsel, [4])  # type: ignore[arg-type]


def test_interval_outcomes_of_no_lengths_is_empty() -> None:
    """No lengths: an empty dict, without looking at the task."""
    gsel = SimpleNamespace(geometry=Geometry.LINF, realizable=True, face=_triangle())
    assert interval_outcomes(gsel, []) == {}  # type: ignore[arg-type]


# Exists because a mutant survived: a rival whose maximum over F is exactly -tolerance could refute the row.
def test_a_rival_maximum_exactly_at_minus_the_tolerance_refutes_nothing() -> None:
    """Segment w in [-1, 1], one rival of margin -0.75 + 0.5 w, tolerance 0.25: its maximum over F is -0.25,
    within the tolerance of 0, so neither the single-rival LP nor the max-min LP decides the row."""
    face = Face(np.zeros(1), np.ones((1, 1)), np.zeros((0, 1)), np.zeros(0), np.array([-1.0]), np.array([1.0]),
                False, probes=np.array([[-1.0], [1.0]]), lp_budget=100)
    blk = _run_block(face, np.array([[0.0, -0.75]]), np.array([[[0.0], [0.5]]]), np.array([[False, True]]), 0.25)
    assert blk.some.tolist() == [UNDECIDED] and blk.every.tolist() == [FAILED]
    assert face.lp_count >= 2                       # the single-rival LP and the max-min LP were both solved
    blk = _run_block(face, np.array([[0.0, -0.76]]), np.array([[[0.0], [0.5]]]), np.array([[False, True]]), 0.25)
    assert blk.some.tolist() == [FAILED] and blk.every.tolist() == [FAILED]


# ------------------------------------------------------------------------------- interval_outcomes on a real face
def _abssin8() -> GeometrySelection:
    """The optimal ℓ∞ face of abssin:8 · position:0 at L0 = 8 (12 directions, boxed)."""
    from posreal.theory.faces import select_in_geometry

    gsel = select_in_geometry("abssin:8", "position:0", 8, Geometry.LINF, mode="float")
    assert gsel.face is not None and not gsel.face.point and gsel.face.boxed
    return gsel


@pytest.mark.parametrize("max_lps", [0, 3])
def test_interval_outcomes_spends_at_most_its_lp_budget(max_lps: int) -> None:
    """At most ``max_lps`` LPs are solved (rows needing more stay undecided); with the default budget every row
    at L = 12 is decided, and the budgeted outcomes never contradict the decided ones."""
    gsel = _abssin8()
    assert gsel.face is not None
    before = gsel.face.lp_count
    small = interval_outcomes(gsel, [12], max_lps=max_lps)[12]
    assert gsel.face.lp_count - before <= max_lps
    assert small.counts()["undecided"] > 0
    full = interval_outcomes(_abssin8(), [12])[12]
    assert full.counts()["undecided"] == 0
    for mine, truth in ((small.every, full.every), (small.some, full.some)):
        decided = mine != UNDECIDED
        assert np.array_equal(mine[decided], truth[decided])


def test_interval_outcomes_tolerance_is_at_least_lp_tol_and_widens_the_undecided_rows() -> None:
    """A tolerance below LP_TOL is LP_TOL (same outcomes as tol = 0); a tolerance of 100 (relative to the
    target's logit, at least 1) leaves undecided every row with a rival."""
    zero = interval_outcomes(_abssin8(), [8, 12], tol=0.0)
    default = interval_outcomes(_abssin8(), [8, 12])
    assert sorted(zero) == sorted(default) == [8, 12]
    for L in (8, 12):
        assert zero[L].every.tolist() == default[L].every.tolist()
        assert zero[L].some.tolist() == default[L].some.tolist()
    assert default[8].rows.tolist() == default[12].rows[default[12].rows < 8].tolist()
    wide = interval_outcomes(_abssin8(), [12], tol=100.0)[12]
    rivals = wide.rows > 0                       # row 0 has one key
    assert np.all(wide.every[rivals] == UNDECIDED) and np.all(wide.some[rivals] == UNDECIDED)


def test_interval_outcomes_passes_once_per_length_under_another_transfer(monkeypatch: pytest.MonkeyPatch) -> None:
    """Plain re-evaluation of length-independent rows: one pass at the largest length, prefixes for the rest.
    Another transfer (here one acting like re-evaluation): one pass per length, in increasing order, each
    starting from an empty cache of rival minima; the outcomes are the same."""
    from posreal.theory import face_rows
    from posreal.theory.transfer_operator import Transfer

    calls: list[tuple[int, int]] = []
    filled: list[int] = []
    inner = face_rows._face_rows

    def recorded(gsel: GeometrySelection, length: int, *args: object) -> IntervalOutcomes:
        assert gsel.face is not None
        calls.append((length, len(gsel.face.cache)))
        out = inner(gsel, length, *args)  # type: ignore[arg-type]
        filled.append(len(gsel.face.cache))
        return out

    monkeypatch.setattr(face_rows, "_face_rows", recorded)
    plain = interval_outcomes(_abssin8(), [12, 10])
    assert [L for L, _ in calls] == [12]
    calls.clear()
    other = interval_outcomes(_abssin8(), [12, 10, 12], op=Transfer("same features"))
    assert calls == [(10, 0), (12, 0)]
    assert filled[-2] > 0                             # the pass at 10 left rival minima that the pass at 12 drops
    for L in (10, 12):
        assert other[L].every.tolist() == plain[L].every.tolist() and other[L].some.tolist() == plain[L].some.tolist()
