"""The rows of R_L over the optimal face (posreal.theory.face_rows): blocks of rows and the bounds that decide
them (known points, the box, training differences, earlier duals), the rows over a face and at a point, the
max-min LP and the training-difference bound."""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np
import pytest
from posreal.theory import face_rows
from posreal.theory.errors import PosrealError
from posreal.theory.geometry import Geometry
from posreal.theory.warm_lp import LP_TOL
from posreal.theory.faces import Face, GeometrySelection, select_in_geometry
from posreal.theory.face_rows import (_TrainingBound, _face_rows, _max_min_over_face, _point_rows,
                                      interval_outcomes)
from posreal.theory.realization import FAILED, REALIZED, UNDECIDED
from posreal.theory.kernels import target_keys
from posreal.theory.selection import Selection
from face_cases import block, block_sizes, decide_within, rows_one_rival, segment_face, wide_face


def test_training_difference_bound_is_one_on_training_rivals_and_absent_elsewhere():
    gsel = select_in_geometry("abssin:16", "position:0", 16, Geometry.LINF, mode="float")
    bound = face_rows._TrainingBound(gsel)
    i, t, j = gsel.selection.pairs[:5].T
    keys_t, keys_j = target_keys("position", i, t), target_keys("position", i, j)
    assert np.all(bound.lower_bounds(i, keys_t, keys_j) >= 1 - 1e-6)
    # rows beyond L0 are not training rows: no bound
    far = np.array([40, 41, 42])
    assert np.all(np.isneginf(bound.lower_bounds(far, np.zeros(3, dtype=np.int64), np.array([3, 4, 5]))))
    # negative control: the reversed direction is not a training difference either
    assert np.all(np.isneginf(bound.lower_bounds(i, keys_j, keys_t)))


# Exists because a mutant survived: a block could skip the first known point of the face.
def test_block_sees_the_first_known_point_of_the_face() -> None:
    """Known points w = 0.75 (first) and w = -0.5; the rival's margin is -0.5 + w, so 0.25 at the first
    point only.  The best row margin seen is 0.25 and the row is realized by some θ (and, from θ₀ and
    w = -0.5, lost by some); skipping the first point would show no positive margin."""
    probes = np.array([[0.75], [-0.5]])
    g0, slope = -0.5, 1.0
    margins = [g0] + [g0 + slope * float(w[0]) for w in probes]     # at θ₀ (w = 0), then at each point
    blk = block(segment_face(probes), [[0.0, g0]], [[[0.0], [slope]]], 1e-7)
    assert blk.best.tolist() == [max(margins)] == [0.25]
    assert blk.low[0, 1] == min(margins) and blk.high[0, 1] == max(margins)
    blk.refresh()
    assert blk.some.tolist() == [REALIZED] and blk.every.tolist() == [FAILED]


# Exists because a mutant survived: a block could miss the known points past the first 16.
def test_block_sees_every_known_point_of_the_face():
    """17 known points (more than one chunk of 16): w = 0 sixteen times, then w = 5.  The rival's margin is
    -1 + w: -1 at the first 16 points, 4 at the 17th, so the best margin seen is 4 and some θ realizes the row
    (while the points w = 0 show it lost by every θ)."""
    probes = np.vstack([np.zeros((16, 1)), [[5.0]]])
    blk = block(segment_face(probes), [[0.0, -1.0]], [[[0.0], [1.0]]], [1e-7])
    assert blk.best.tolist() == [4.0]
    blk.refresh()
    assert blk.some.tolist() == [REALIZED] and blk.every.tolist() == [FAILED]


# Exists because a mutant survived: the skipped box was computed later than once BOX_AFTER·d rivals needed an LP.
def test_a_skipped_box_is_computed_once_box_after_d_rivals_needed_an_lp(monkeypatch: pytest.MonkeyPatch) -> None:
    """F = [0, 2] (d = 1) with its box skipped; seven rows whose one rival margin is 1 + s w, s = 1..7: positive
    on F (least value 1 at w = 0), which an LP per rival proves (distinct slopes: no earlier dual bounds the next
    one through an infinite box).  The LP budget is 4: once BOX_AFTER·d = 4 rivals needed an LP and more than
    2d wait, the box (2 LPs, not charged to the budget) is computed and proves the other three on the box [0, 2].
    Computing it one LP later would find the budget spent: three rows left undecided."""
    A, r = np.array([[1.0], [-1.0]]), np.array([0.0, -2.0])
    inf = np.full(1, np.inf)
    face = Face(np.zeros(1), np.ones((1, 1)), A, r, -inf, inf, False, probes=np.zeros((0, 1)), boxed=False)
    face.lp_budget = 4
    assert face_rows.BOX_AFTER * 1 == 4
    blk = rows_one_rival(face, 1.0, [1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0])
    decide_within(blk, monkeypatch)
    assert blk.every.tolist() == [REALIZED] * 7
    assert face.boxed and face.lo.tolist() == pytest.approx([0.0]) and face.hi.tolist() == pytest.approx([2.0])
    assert face.lp_count == 4 + 2 == face.lp_budget                   # four rival LPs and the box's two


# Exists because a mutant survived: the box was also computed when only 2d rivals (its own cost in LPs) waited.
def test_a_skipped_box_is_not_computed_when_only_2d_rivals_wait(monkeypatch: pytest.MonkeyPatch) -> None:
    """The case above with six rows: after BOX_AFTER·d = 4 rivals proved by LPs, 2 = 2d rivals wait — no more
    than the box would cost (2d LPs), so it is not computed; the LP budget (4) is spent and the last two rows
    stay undecided (said so, never guessed)."""
    A, r = np.array([[1.0], [-1.0]]), np.array([0.0, -2.0])
    inf = np.full(1, np.inf)
    face = Face(np.zeros(1), np.ones((1, 1)), A, r, -inf, inf, False, probes=np.zeros((0, 1)), boxed=False)
    face.lp_budget = 4
    blk = rows_one_rival(face, 1.0, [1.0, 2.0, 3.0, 4.0, 5.0, 6.0])
    decide_within(blk, monkeypatch)
    assert blk.every.tolist() == [REALIZED] * 4 + [UNDECIDED] * 2
    assert not face.boxed and face.lp_count == 4 == face.lp_budget


# Exists because a mutant survived: decide() on a face whose box is in place was never run past BOX_AFTER·d LPs.
def test_many_rivals_proved_by_lps_on_a_boxed_face_end_the_decision(monkeypatch: pytest.MonkeyPatch) -> None:
    """F = [0, 2] inside a looser box [-1, 3] (a box need only contain F); rival margins 0.5 + s w, s = 1..7, are
    at least 0.5 on F but negative at the box's end -1, so each rival needs its LP (no box bound, and no earlier
    dual bounds the next one: 0.5 - (s - s') < 0 on the box).  Past BOX_AFTER·d = 4 proved rivals the box is
    already there (``ensure_box`` computes nothing): the decision goes on with LPs and ends, every row realized."""
    A, r = np.array([[1.0], [-1.0]]), np.array([0.0, -2.0])
    face = Face(np.zeros(1), np.ones((1, 1)), A, r, np.array([-1.0]), np.array([3.0]), False,
                probes=np.zeros((0, 1)))
    face.lp_budget = 100
    blk = rows_one_rival(face, 0.5, [1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0])
    assert not blk.box_bounds().any()                                 # the box proves no rival
    decide_within(blk, monkeypatch)
    assert blk.every.tolist() == [REALIZED] * 7
    assert face.lp_count == 7                                          # one LP per rival, no box LP


# Exists because a mutant survived: box_bounds could refute rows with the least bound over all rows.
def test_box_refutes_each_row_from_its_own_rivals() -> None:
    """On the box w ∈ [-1, 1], row 0's rival margin -2 + 0.5 w is at most -1.5 (lost by every θ of F);
    row 1's rival margin 1 + 0.5 w is at least 0.5 (realized on the whole face).  Row 0 is refuted, row 1
    realized; the least upper bound over *all* rows would refute row 1 too."""
    g0, a = [[0.0, -2.0], [0.0, 1.0]], [[[0.0], [0.5]], [[0.0], [0.5]]]
    blk = block(segment_face(np.zeros((0, 1))), g0, a, 1e-7)
    assert blk.some.tolist() == [UNDECIDED, UNDECIDED]    # nothing decided before refresh / the box
    ends = (-1.0, 1.0)
    upper = [max(g0[n][1] + a[n][1][0] * w for w in ends) for n in range(2)]
    lower = [min(g0[n][1] + a[n][1][0] * w for w in ends) for n in range(2)]
    assert upper == [-1.5, 1.5] and lower == [-2.5, 0.5]
    proved = blk.box_bounds()
    assert blk.some.tolist() == [FAILED, REALIZED]
    assert blk.every.tolist() == [FAILED, UNDECIDED]
    assert proved.tolist() == [[False, False], [False, True]]     # only row 1's rival is positive on the box


# Exists because a mutant survived: a row lost on the whole box was never refuted.
def test_box_shows_a_row_lost_by_every_theta():
    """Rival margin -5 + w on the box w ∈ [-1, 1]: at most -4 < -tol, so no θ of F realizes the row."""
    blk = block(segment_face(np.zeros((0, 1))), [[0.0, -5.0]], [[[0.0], [1.0]]], [1e-7])
    assert blk.some.tolist() == [UNDECIDED]          # no known point decides it before the box
    proved = blk.box_bounds()
    assert not proved.any()                          # the box proves no rival positive: -5 - 1 < tol
    assert blk.some.tolist() == [FAILED] and blk.every.tolist() == [FAILED]


# Exists because a mutant survived: finish_some could refute a row whose dual bound is within the tolerance of 0.
@pytest.mark.parametrize("g0, some", [(-0.1, UNDECIDED), (-0.5, FAILED)])
def test_a_dual_bound_refutes_a_row_only_below_minus_the_tolerance(g0, some):
    """Rival margin g0 + 0.05 w on w ∈ [-1, 1], tolerance 0.2, no LP budget; one stored dual (μ = 0, A_red has no
    rows) bounds max_F of the margin by g0 + 0.05 through the box.  g0 = -0.1: the bound -0.05 lies within the
    tolerance of 0, which refutes nothing (the row stays undecided; comparing with +tolerance would call it lost);
    g0 = -0.5: the bound -0.45 < -0.2 refutes the row for every θ."""
    face = segment_face(np.zeros((0, 1)))
    face.add_dual(np.zeros(0))
    blk = block(face, [[0.0, g0]], [[[0.0], [0.05]]], [0.2])
    blk.finish_some()
    assert face.lp_count == 0                          # decided (or left) without an LP: the budget is 0
    assert blk.some.tolist() == [some]


# Exists because a mutant survived: a best margin exactly at the tolerance could count as realized.
def test_margin_equal_to_the_tolerance_is_undecided():
    """Row 0's best margin seen is exactly its tolerance 0.5 (within it: undecided, as ``_classify``
    decides an LP's value); row 1's is 0.625 > 0.5: realized.  No direction moves the margins (a = 0)."""
    blk = block(segment_face(np.zeros((0, 1))), [[0.0, 0.5], [0.0, 0.625]], np.zeros((2, 2, 1)), [0.5, 0.5])
    blk.refresh()
    assert blk.some.tolist() == [UNDECIDED, REALIZED]
    assert blk.every.tolist() == [UNDECIDED, UNDECIDED]


# Exists because a mutant survived: the training bound's radius for near training differences was unchecked.
def test_training_bound_is_sound_for_a_near_training_difference():
    """ℓ∞ geometry, one training difference z = (1/4, 0): θ*_∞ = (4, 0), value 4, and the optimal face is
    F = {(4, t) : |t| ≤ 4}.  A rival direction v = (1/4, 1e-12) rounds to z; on F, ⟨v, θ⟩ = 1 + 1e-12 t ≥
    1 - 4e-12.  The bound min(1, ⟨z, θ₀⟩) - ‖v - z‖₁ · radius must not exceed that minimum: radius ≥ 4."""
    features = {0: (0.25, 1e-12), 1: (0.0, 0.0)}          # ψ(i, key) of the one row used, keys 0 and 1
    pe = SimpleNamespace(index_features=lambda rows, keys, L0: np.array([features[int(k)] for k in keys]))
    sel = Selection(pe, None, 2, np.array([[0.25, 0.0]]), np.array([[1, 0, 1]]))
    gsel = GeometrySelection(Geometry.LINF, sel, np.array([4.0, 0.0]), value=4.0)
    bound = _TrainingBound(gsel).lower_bounds(np.array([1]), np.array([0]), np.array([1]))
    assert bound.shape == (1,) and np.isfinite(bound[0])           # v was matched to z
    assert bound[0] <= 1.0 - 4e-12                                 # sound: below the minimum over F
    assert bound[0] > 1.0 - 1e-9                                   # and still a useful bound


# Exists because a mutant survived: _face_rows could leave training rivals to LPs instead of the training bound.
def test_face_rows_settle_training_rivals_without_lps():
    """With no LP budget, the rows of R_L0 are realized on the whole optimal face because every rival
    there is a training difference (margin >= 1 on the face), which the training bound proves; without it
    (training=None) such rows stay undecided."""
    from posreal.theory.geometry import Geometry
    from posreal.theory.face_rows import interval_outcomes
    from posreal.theory.faces import select_in_geometry
    from posreal.theory.realization import REALIZED

    gsel = select_in_geometry("abssin:8", "position:0", 8, Geometry.LINF, mode="float")
    assert gsel.face is not None and not gsel.face.point
    out = interval_outcomes(gsel, [8], max_lps=0)[8]
    assert out.every.tolist() == [REALIZED] * out.rows.size


# Exists because a mutant survived: _face_rows was never run on a face without directions.
def test_face_rows_on_a_point_face_agree_with_the_point() -> None:
    """With no face directions (d = 0) the rival directions are an empty (b, L, 0) array, and the face
    computation reduces to the margins at θ₀ itself, i.e. to ``_point_rows`` (abssin:4 · position:0 at
    L = 16: 13 rows realized, 3 lost)."""
    gsel: GeometrySelection = select_in_geometry("abssin:4", "position:0", 8, Geometry.LINF, mode="float")
    assert gsel.face is not None and gsel.face.point and gsel.face.directions.shape == (16, 0)
    face = _face_rows(gsel, 16, LP_TOL)
    point = _point_rows(gsel, 16, LP_TOL)
    assert face.every.tolist() == point.every.tolist() and face.some.tolist() == point.some.tolist()
    assert face.counts() == point.counts()
    assert 0 < face.counts()["realized"] < face.counts()["total"]       # both outcomes occur


# Exists because a mutant survived: a block could hold two rows when one row exceeds ROW_BLOCK_ENTRIES.
def test_face_rows_blocks_hold_one_row_when_one_row_exceeds_the_memory_bound(monkeypatch: pytest.MonkeyPatch) -> None:
    """A block holds ROW_BLOCK_ENTRIES // (L·d) rows, and at least one; when one row's L·d rival
    directions already exceed the bound, each block is a single row (``max(2, ·)`` would put two rows,
    twice the bound, in each).  The blocking changes only the order of work, never the outcomes: one row
    per block, blocks of three and a single block agree."""
    length = 8
    d = 12
    one, every1, some1 = block_sizes(monkeypatch, 1, length)
    assert one == [1] * length
    three, every3, some3 = block_sizes(monkeypatch, 3 * length * d, length)
    assert three == [3, 3, 2]
    whole, every, some = block_sizes(monkeypatch, 2 ** 21, length)
    assert whole == [length]
    assert every1 == every3 == every and some1 == some3 == some


# Exists because a mutant survived: _point_rows was never given a row of margin 0 at a float θ.
def test_point_rows_leave_a_zero_margin_undecided():
    """alibi at θ = 0 gives every key the same logit, so each row's float margin is 0 (within
    tolerance) and no key ties structurally: undecided, not a crash."""
    from posreal.theory.pe_specs import parse_pe
    from posreal.theory.face_rows import _point_rows
    from posreal.theory.realization import UNDECIDED
    from posreal.theory.tasks import parse_task

    gsel = SimpleNamespace(pe=parse_pe("alibi"), task=parse_task("copy"), train_length=4, exact_theta=None,
                           face=None, theta=np.zeros(1))
    out = _point_rows(gsel, 4, 1e-9)  # type: ignore[arg-type]
    assert not out.ties.any()
    assert out.every.tolist() == [UNDECIDED] * out.rows.size


# Exists because a mutant survived: a max-min LP could reset the face's LP count.
def test_max_min_over_face_counts_every_lp() -> None:
    """Each max-min LP adds one to ``lp_count`` (the count the LP budget of ``interval_outcomes`` is
    checked against); ``= 1`` would reset it."""
    face = wide_face()
    d = face.directions.shape[1]
    before = face.lp_count
    assert before > 0                                   # the box's LPs are already counted
    u = np.random.default_rng(1).normal(size=(2, d))
    for n in range(3):
        _max_min_over_face(face, np.zeros(2), u * (n + 1))
    assert face.lp_count == before + 3


# Exists because a mutant survived: the max-min LP's value and maximizer were never checked.
def test_max_min_over_face_returns_the_maximum_and_its_point() -> None:
    """The value is min_j (g0_j + a_jᵀ w) at the returned w, at most 1, and no known point of F (the face's
    probes) does better."""
    face = wide_face()
    d = face.directions.shape[1]
    u = np.random.default_rng(1).normal(size=(2, d))
    g0 = np.array([0.25, -0.5])
    probes = face.probes.copy()
    value, w = _max_min_over_face(face, g0, u)
    assert w is not None and np.isfinite(value) and value <= 1.0
    assert value == pytest.approx(float((g0 + u @ w).min()), abs=1e-7)
    assert all(float((g0 + u @ p).min()) <= value + 1e-7 for p in probes)


# Exists because a mutant survived: the refusal of an α interval for an ℓ2 selection could lose its message.
def test_interval_outcomes_refuses_an_l2_selection_by_name() -> None:
    gsel = select_in_geometry("relbias", "offset:1", 8, Geometry.L2, mode="float")
    with pytest.raises(PosrealError) as err:
        interval_outcomes(gsel, [8])
    assert str(err.value) == "invalid selection for the α interval; accepted: a realizable linf or l1 selection"


# Exists because a mutant survived: the block size of a face without directions was unchecked.
def test_face_rows_blocks_of_a_face_without_directions_use_the_whole_memory_bound(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """With d = 0 a row takes L entries (its keys), so a block holds ROW_BLOCK_ENTRIES // L rows: 2 rows per
    block for a bound of 2L (16 rows at L = 16: 8 blocks), with the same outcomes as one block."""
    gsel = select_in_geometry("abssin:4", "position:0", 8, Geometry.LINF, mode="float")
    assert gsel.face is not None and gsel.face.directions.shape == (16, 0)
    sizes: list[int] = []

    class Recorded(face_rows._Block):  # type: ignore[misc, valid-type]
        def __init__(self, *args: object) -> None:
            sizes.append(int(np.asarray(args[3]).size))
            super().__init__(*args)

    whole = _face_rows(gsel, 16, LP_TOL)
    with monkeypatch.context() as patch:
        patch.setattr(face_rows, "ROW_BLOCK_ENTRIES", 2 * 16)
        patch.setattr(face_rows, "_Block", Recorded)
        out = _face_rows(gsel, 16, LP_TOL)
    assert sizes == [2] * 8
    assert out.every.tolist() == whole.every.tolist() and out.some.tolist() == whole.some.tolist()


# Exists because a mutant survived: the relative tolerance scale tol·max(1, |κ(i, t)|) of a point face was untested.
@pytest.mark.parametrize("target_value, deltas", [
    # |κ(i, t)| = 1000: the scale is tol·1000; margins ±1e-4 lie between tol·1 and tol·1000
    (1000.0, [1e-2, 1e-4, -1e-4, -1e-2]),
    (-1000.0, [1e-2, 1e-4, -1e-4, -1e-2]),                                        # the same with κ(i, t) < 0
    # |κ(i, t)| = 1/2: the scale is tol·1; margins ±1.5·tol lie between tol·1/2 and tol·2, ±0.7·tol below tol
    (0.5, [3e-6, 1.5e-6, 0.7e-6, -0.7e-6, -1.5e-6, -3e-6]),
], ids=["large-value", "large-negative-value", "small-value"])
def test_point_rows_scale_the_tolerance_by_the_target_score_but_never_below_tol(target_value, deltas):
    """colbias · position:0 at θ = (V, V - δ_1, V - δ_2, …): row i's target score is κ(i, 0) = V and its margin
    γ_i = min_{j ≤ i} δ_j (the δ decrease, so γ_i = δ_i).  definitions.md#tolerance: realized iff
    γ > tol·max(1, |κ(i, t)|), failed iff γ < -tol·max(1, |κ(i, t)|), undecided between.  Each case has margins
    on both sides of the threshold, and the expected statuses include all three outcomes."""
    from posreal.theory.pe_specs import parse_pe
    from posreal.theory.tasks import parse_task

    tol, length = 1e-6, len(deltas) + 1
    theta = np.array([target_value] + [target_value - d for d in deltas])          # (L,)
    gsel = SimpleNamespace(pe=parse_pe("colbias"), task=parse_task("position:0"), train_length=length,
                           exact_theta=None, face=None, theta=theta)
    out = _point_rows(gsel, length, tol)  # type: ignore[arg-type]
    assert out.rows.tolist() == list(range(length)) and not out.ties.any()
    expected = [REALIZED]                                                          # row 0: its target is its only key
    for i in range(1, length):
        margin = theta[0] - theta[1:i + 1].max()          # γ_i = κ(i, 0) - max_{j ≤ i} κ(i, j)
        scale = tol * max(1.0, abs(theta[0]))
        expected.append(REALIZED if margin > scale else FAILED if margin < -scale else UNDECIDED)
    assert out.every.tolist() == out.some.tolist() == expected
    assert set(expected) == {REALIZED, FAILED, UNDECIDED}


def _one_row_three_rivals(probes: np.ndarray, g0: list[float], slopes: list[float]) -> tuple[Face, face_rows._Block]:
    """One row, target key 0 and rivals keys 1..3 with margins g0_k + slope_k · w on the segment face w ∈ [-1, 1]
    with the given known points; tolerance 0.2, no LP budget, one stored dual (μ = 0: A_red has no rows) bounding
    max_F of each margin by g0_k + |slope_k| through the box."""
    face = segment_face(probes)
    face.add_dual(np.zeros(0))
    a = np.zeros((1, 4, 1))
    a[0, :, 0] = [0.0, *slopes]
    blk = face_rows._Block(None, face, None, np.ones(1, dtype=int), np.zeros(1, dtype=int),
                           np.array([[0.0, *g0]]), a, np.array([[False, True, True, True]]), np.array([0.2]),
                           np.zeros(1, dtype=bool), np.zeros(1, dtype=np.int8), np.zeros(1, dtype=np.int8))
    return face, blk


# Exists because a mutant survived: the largest margin seen per rival was not started at θ₀ (the order in which
# finish_some tries a row's rivals was unchecked).
@pytest.mark.parametrize("probes, g0, slopes, some", [
    # no known point but θ₀ (w = 0): the largest margins seen are g0 = (2, 1, -3); rival 3 comes first, and its
    # bound -3 + 0.05 < -0.2 refutes the row.  Trying rival 1 first (bound 2.05) would spend the budget: undecided
    (np.zeros((0, 1)), [2.0, 1.0, -3.0], [0.05, 0.05, 0.05], FAILED),
    # a known point w = 1 lifts rival 2's largest margin seen to -3 + 4 = 1 > rival 3's -1 + 0.05 = -0.95: rival 3
    # comes first and its bound -0.95 < -0.2 refutes the row; rival 2 first (bound -3 + 4 = 1) would refute nothing
    (np.ones((1, 1)), [2.0, -3.0, -1.0], [0.0, 4.0, 0.05], FAILED),
    # control: the same rivals without that point put rival 2 (g0 = -3) first; its bound 1 refutes nothing
    (np.zeros((0, 1)), [2.0, -3.0, -1.0], [0.0, 4.0, 0.05], UNDECIDED),
], ids=["least-at-theta0", "lifted-by-a-point", "control"])
def test_finish_some_tries_first_the_rival_with_the_least_largest_margin_seen(probes, g0, slopes, some):
    face, blk = _one_row_three_rivals(probes, g0, slopes)
    blk.finish_some()
    assert face.lp_count == 0                          # one dual bound looked at, then the budget (0) stops it
    assert blk.some.tolist() == [some]


# Exists because a mutant survived: finish_some could stop at a row's first decided rival instead of going on to
# the next rows (and to the row's every status).
@pytest.mark.parametrize("dual, budget, g0, some, lps", [
    # both rows' bounds g0 + 0.05 = -0.45 < -0.2 through the stored dual: both refuted, for every θ too
    (True, 0, [-0.5, -0.5], [FAILED, FAILED], 0),
    # row 0's bound -0.05 refutes nothing and the budget (0) stops its rivals; row 1 is still refuted by its bound
    (True, 0, [-0.1, -0.5], [UNDECIDED, FAILED], 0),
    # no dual stored: row 0's one LP (max_F of its margin: -0.45) refutes it, and that LP's dual then bounds row 1
    (False, 1, [-0.5, -0.5], [FAILED, FAILED], 1),
], ids=["dual-bounds", "budget-spent", "lp-then-dual"])
def test_finish_some_goes_on_to_the_next_row_after_each_way_out(dual, budget, g0, some, lps):
    """Two rows, one rival each, margins g0_n + 0.05 w on the segment face w ∈ [-1, 1] (A_red has no rows, so a
    dual is μ = 0 and bounds max_F by g0_n + 0.05 through the box), tolerance 0.2."""
    face = segment_face(np.zeros((0, 1)))
    if dual:
        face.add_dual(np.zeros(0))
    face.lp_budget = budget
    blk = block(face, [[0.0, x] for x in g0], [[[0.0], [0.05]]] * 2, [0.2])
    blk.finish_some()
    assert face.lp_count == lps
    assert blk.some.tolist() == some
    assert blk.every.tolist() == [FAILED if s == FAILED else UNDECIDED for s in some]
