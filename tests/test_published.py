"""The published encodings (theory/published.py) against independent implementations from the papers' formulas.

Each reference here is written from the formula alone — T5's bucket function with ``math.log`` as the paper
states it, ALiBi's slopes 2^(-8h/H), xPos's ζ_f = (2f + 0.4d)/(1.4d) on RoPE's features, Kerple's
-log(1 + r n), FIRE's log(1 + n)/log(1 + max(T, i)) with a hat basis — with θ* from a different solver
(scipy's SLSQP on the primal SVM, not the project's NNLS), and α_L read from a dense kernel.  The negative
controls show that each comparison can fail: a bucket function off by one threshold, a wrong slope sign, a
decay without the 0.4 offset, each gives another α_L on the same cells.
"""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pytest
from scipy.optimize import minimize

from posreal.theory.alpha import compute_alpha
from posreal.theory.errors import SpecError
from posreal.theory.pe_specs import dual_pe, parse_pe
from posreal.theory.published import Fire, T5Buckets, hats, interval_hat, t5_thresholds
from posreal.theory.selection import select
from posreal.theory.tasks import parse_task


# --------------------------------------------------------------------------- independent references
def t5_bucket(n: int, buckets: int = 32, max_distance: int = 128) -> int:
    """T5's unidirectional bucket as the paper writes it (floating point logarithms)."""
    exact = buckets // 2
    if n < exact:
        return n
    large = exact + int(math.log(n / exact) / math.log(max_distance / exact) * (buckets - exact))
    return min(buckets - 1, large)


def xpos_features(n: np.ndarray, d: int, base: float = 10000.0, scale: float = 512.0) -> np.ndarray:
    """RoPE's positional features with xPos's decay: the query carries ζ^(i/γ), the key ζ^(-j/γ)."""
    f = np.arange(d // 2)
    omega = base ** (-2.0 * f / d)
    zeta = (2.0 * f + 0.4 * d) / (1.4 * d)
    a = np.outer(n, omega)
    decay = zeta[None, :] ** (np.asarray(n, dtype=float)[:, None] / scale)
    return np.concatenate([decay * np.cos(a), decay * np.sin(a)], axis=1)


def reference_alpha(feature, task: str, L0: int, lengths: list[int], positive: bool = False):
    """(realizable, {L: α_L}) from ``feature(i, j) -> (p,)``: θ* by SLSQP on the primal SVM, rows on a dense grid.
    With ``positive`` θ is a positive scale (p = 1): realizable iff every training difference is positive."""
    tk = parse_task(task)
    rows, targets = tk.rows_and_targets(L0)
    Z = np.array([feature(i, t) - feature(i, j) for i, t in zip(rows.tolist(), targets.tolist())
                  for j in range(i + 1) if j != t])                                  # (m, p)
    if np.any(np.all(np.abs(Z) < 1e-12, axis=1)):
        return False, {}
    if positive:
        if np.any(Z[:, 0] <= 0):
            return False, {}
        theta = np.array([1.0 / Z[:, 0].min()])
    else:
        p = Z.shape[1]
        res = minimize(lambda th: 0.5 * th @ th, np.zeros(p), jac=lambda th: th, method="SLSQP",
                       constraints=[{"type": "ineq", "fun": lambda th: Z @ th - 1.0, "jac": lambda th: Z}],
                       options={"maxiter": 500, "ftol": 1e-12})
        # SLSQP's exit 8 ("positive directional derivative for linesearch") is its usual stop at an optimum it
        # cannot improve in float (scipy 1.17 reports it on the clipped position:0 cell): accepted when feasible
        if (not res.success and res.status != 8) or (Z @ res.x).min() < 1 - 1e-6:
            return False, {}
        theta = res.x
    out = {}
    for L in lengths:
        rows, targets = tk.rows_and_targets(L)
        won = 0
        for i, t in zip(rows.tolist(), targets.tolist()):
            feats = np.array([feature(i, j) for j in range(i + 1)])                 # (i+1, p)
            if any(np.array_equal(feats[t], feats[j]) for j in range(i + 1) if j != t):
                continue                                                            # a structural tie: lost
            kappa = feats @ theta
            others = np.delete(kappa, t)
            gap = kappa[t] - (others.max() if others.size else -np.inf)
            assert abs(gap) > 1e-6 * max(1.0, abs(kappa[t])), f"row {i} too close to call for a reference"
            won += gap > 0
        out[L] = won / rows.size
    return True, out


def project_alpha(pe: str, task: str, L0: int, lengths: list[int]):
    result = compute_alpha(pe, task, L0, lengths)
    return result.realizable, ({L: result.alpha(L) for L in lengths} if result.realizable else {})


def t5_feature(buckets=32, max_distance=128):
    def feature(i, j):
        out = np.zeros(buckets)
        out[t5_bucket(i - j, buckets, max_distance)] = 1.0
        return out
    return feature


def clipped_feature(i, j):
    """The project's idealization (one bucket per offset up to 31): the negative control of the T5 cells."""
    out = np.zeros(32)
    out[min(i - j, 31)] = 1.0
    return out


# --------------------------------------------------------------------------- T5
@pytest.mark.parametrize("buckets,max_distance", [(32, 128), (16, 64), (8, 20), (3, 10), (64, 1000), (2, 5)])
def test_t5_buckets_are_the_papers_function(buckets, max_distance):
    n = np.arange(20000)
    ours = T5Buckets(buckets, max_distance).buckets(n, 16)
    reference = np.array([t5_bucket(int(k), buckets, max_distance) for k in n])
    differ = np.flatnonzero(ours != reference)
    # the exact floor and the paper's float formula may part only where the real value is an integer
    for k in differ.tolist():
        e, rest = buckets // 2, buckets - buckets // 2
        value = rest * math.log(k / e) / math.log(max_distance / e)
        assert abs(value - round(value)) < 1e-9, (k, ours[k], reference[k])
    assert len(differ) <= 2


def test_t5_thresholds_are_exact_integer_boundaries():
    """n_k is the first n with (B - e) log(n/e) / log(M/e) ≥ k, decided on integers: n_k - 1 is below."""
    B, M = 32, 128
    e, rest = B // 2, B - B // 2
    for k, n in enumerate(t5_thresholds(B, M), start=1):
        assert n ** rest * e ** k >= M ** k * e ** rest
        assert (n - 1) ** rest * e ** k < M ** k * e ** rest


def test_t5_defaults_and_structure():
    pe = parse_pe("t5")
    assert (pe.dim(16), pe.kind, pe.rational, str(pe)) == (32, "relative", True, "t5")
    assert parse_pe("t5:32:128") == pe and str(parse_pe("t5:32:128")) == "t5:32:128"
    ids = pe.feature_ids(200, 16)
    # exact below e = 16; the last bucket 31 = 16 + 15 starts at the first n with 16 log(n/16)/log 8 ≥ 15,
    # n ≥ 16 · 8^(15/16) = 112.4…, i.e. at 113
    assert ids[:16].tolist() == list(range(16)) and ids[16] == 16
    assert (ids[112], ids[113]) == (30, 31) and ids[113:].min() == 31


@pytest.mark.parametrize("task,L0", [("offset:1", 16), ("offset:2", 32), ("position:0", 16), ("position:1", 8),
                                     ("half", 8), ("position:0", 32), ("copy", 16)])
def test_t5_alpha_matches_an_independent_implementation(task, L0):
    lengths = [64, 256]
    assert project_alpha("t5", task, L0, lengths) == reference_alpha(t5_feature(), task, L0, lengths)


def test_t5_reference_can_disagree():
    """Negative control: with clipped buckets in place of T5's, the reference answers otherwise on a cell the
    T5 test above covers (position:0 at L0 = 32: realizable with one bucket per offset, a tie with T5's)."""
    lengths = [64, 256]
    assert project_alpha("t5", "position:0", 32, lengths) == reference_alpha(t5_feature(), "position:0", 32, lengths)
    assert project_alpha("t5", "position:0", 32, lengths) != reference_alpha(clipped_feature, "position:0", 32,
                                                                             lengths)


def test_t5_position_0_is_not_realizable_at_32_a_tie():
    """The issue's example: at L0 = 32 the offsets 16, 17, 18 share bucket 16, so row 18 ties."""
    sel = select("t5", "position:0", 32)
    assert not sel.realizable and "structural tie" in sel.reason
    assert [t5_bucket(n) for n in (16, 17, 18, 19)] == [16, 16, 16, 17]


# --------------------------------------------------------------------------- ALiBi with its fixed slope
@pytest.mark.parametrize("H,h,slope", [(8, 1, Fraction(1, 2)), (8, 8, Fraction(1, 256)), (4, 3, Fraction(1, 64)),
                                       (16, 2, Fraction(1, 2))])
def test_alibi_slopes_are_powers_of_two(H, h, slope):
    pe = parse_pe(f"alibi-fixed:{H}:{h}")
    assert pe.rational and pe.exact_features([0, 3], 16) == [(Fraction(0),), (-3 * slope,)]
    assert pe.positive_scale and pe.dim(16) == 1


def test_alibi_slope_irrational_when_8h_over_H_is_not_an_integer():
    pe = parse_pe("alibi-fixed:3:1")
    assert not pe.rational
    assert pe.features(np.array([3]), 16)[0, 0] == pytest.approx(-3 * 2 ** (-8 / 3), rel=1e-15)
    with pytest.raises(SpecError, match="irrational"):
        pe.exact_features([1], 16)


# Exists because a mutant survived: the certified features of a rescaled fixed ALiBi were never enclosed.
@pytest.mark.parametrize("spec", ["alibi-fixed:8:1", "alibi-fixed:3:1"], ids=["rational", "irrational"])
def test_rescaled_fixed_alibi_enclosures_carry_the_position_scale(spec):
    """With position scale c = 1/4 (a pi rescaling by 4) the feature of offset k is -m_h·c·k, m_h = 2^(-8h/H):
    its enclosure contains that float and not -m_h·k/c."""
    import dataclasses
    from mpmath import iv
    iv.dps = 30
    pe = dataclasses.replace(parse_pe(spec), position_scale=Fraction(1, 4))
    H, h = (int(x) for x in spec.split(":")[1:])
    m = 2.0 ** (-8 * h / H)
    keys = [0, 1, 3]
    for k, (box,) in zip(keys, pe.interval_index_features(3, keys, 4, iv)):
        x = -m * k / 4
        assert box.a <= x + 1e-15 and x - 1e-15 <= box.b
        assert float(box.b - box.a) < 1e-20


@pytest.mark.parametrize("spec", ["alibi-fixed", "alibi-fixed:3:2", "kerple-log", "kerple-log:0.25"])
@pytest.mark.parametrize("task,L0", [("offset:0", 8), ("offset:1", 8), ("position:0", 8), ("position:5", 6),
                                     ("dual:offset:0", 8), ("half", 4), ("copy", 8)])
def test_fixed_biases_match_the_fixed_kernel(spec, task, L0):
    """α_L of a fixed bias with a positive scale is the fraction of rows the bias itself realizes, and the
    cell is realizable iff the bias realizes every row of R_L0 (reference: the bias, no selection at all)."""
    pe = parse_pe(spec)
    if spec.startswith("alibi"):
        H, h = (8, 1) if spec == "alibi-fixed" else (3, 2)
        bias = -(2.0 ** (-8 * h / H))
        def feature(i, j): return np.array([bias * (i - j)])
    else:
        r = 1.0 if spec == "kerple-log" else 0.25
        def feature(i, j): return np.array([-math.log1p(r * (i - j))])
    lengths = [16, 64]
    assert project_alpha(spec, task, L0, lengths) == reference_alpha(feature, task, L0, lengths, positive=True)
    assert pe.positive_scale


def test_fixed_slope_is_not_the_free_slope():
    """Negative control: the free slope (θ of either sign) realizes position:0, the fixed bias does not."""
    assert project_alpha("slope", "position:0", 8, [64]) == (True, {64: 1.0})
    realizable, _ = project_alpha("alibi-fixed", "position:0", 8, [64])
    assert not realizable
    sel = select("alibi-fixed", "position:0", 8)
    assert "negative scale" in sel.reason and sel.evidence["negative_scale"]
    assert select("alibi-fixed", "position:0", 8, mode="exact").evidence["exact"]


# --------------------------------------------------------------------------- xPos
def test_xpos_features_are_rope_times_the_decay():
    n = np.arange(300)
    ours = parse_pe("xpos:8").features(n, 16)
    np.testing.assert_allclose(ours, xpos_features(n, 8), rtol=1e-13, atol=1e-15)
    rope = parse_pe("rope:8").features(n, 16)
    zeta = np.array([(2 * f + 3.2) / 11.2 for f in range(4)])
    np.testing.assert_allclose(ours, rope * np.tile(zeta ** (n[:, None] / 512), 2), rtol=1e-13, atol=1e-15)


XPOS_CELLS = [("offset:1", 16), ("offset:2", 16), ("position:0", 16), ("half", 8), ("offset:0", 32)]
# The reference decides every row on a dense grid in Python: L = 512 costs ~6 s a cell, so the default run
# checks every cell at L <= 128 and the slow tier (pytest -m slow) adds L = 512.
XPOS_LENGTHS = [pytest.param([32, 128], id="L128"), pytest.param([32, 128, 512], id="L512", marks=pytest.mark.slow)]


@pytest.mark.parametrize("lengths", XPOS_LENGTHS)
@pytest.mark.parametrize("task,L0", XPOS_CELLS)
def test_xpos_alpha_matches_an_independent_implementation(task, L0, lengths):
    def feature(i, j): return xpos_features(np.array([i - j]), 16)[0]
    assert project_alpha("xpos:16", task, L0, lengths) == reference_alpha(feature, task, L0, lengths)


@pytest.mark.parametrize("lengths", XPOS_LENGTHS)
def test_xpos_reference_can_disagree(lengths):
    """Negative control: the decay with the scale base γ = 64 instead of 512 changes α_L of a cell tested above."""
    def wrong(i, j): return xpos_features(np.array([i - j]), 16, scale=64.0)[0]
    assert project_alpha("xpos:16", "position:0", 16, lengths) != reference_alpha(wrong, "position:0", 16, lengths)


def test_xpos_certified_enclosures_contain_the_floats():
    from mpmath import iv
    iv.dps = 30
    pe = parse_pe("xpos:6:500:64")
    keys = [0, 1, 7, 300]
    floats = pe.features(np.array(keys), 16)
    for row, enclosure in zip(floats, pe.interval_index_features(300, keys, 16, iv)):
        for x, box in zip(row, enclosure):
            assert box.a <= x + 1e-15 * max(1, abs(x)) and x - 1e-15 * max(1, abs(x)) <= box.b
            assert float(box.b - box.a) < 1e-20


# --------------------------------------------------------------------------- FIRE
def test_hats_are_a_partition_of_unity_and_interpolate():
    u = np.linspace(0, 1, 101)
    h = hats(u, 5)
    np.testing.assert_allclose(h.sum(axis=1), 1.0, atol=1e-15)
    assert np.all(h >= 0) and np.allclose(hats(np.array([0.25]), 5), [[0, 1, 0, 0, 0]])


def test_fire_features_from_the_formula():
    pe = parse_pe("fire:4:8")
    rows, keys = np.array([3, 20, 20]), np.array([2, 0, 20])      # keys are offsets n = i - j
    u = np.log1p(keys) / np.log1p(np.maximum(8, rows))
    np.testing.assert_allclose(pe.index_features(rows, keys, 16), hats(u, 4), rtol=0, atol=1e-15)
    assert u[2] == 1.0 and pe.kind == "general" and dual_pe("fire:4:8").dual() == pe


def test_fire_interval_hats_enclose():
    from mpmath import iv
    iv.dps = 30
    for lo, hi in [(0.1, 0.2), (0.3, 0.45), (0.0, 1.0), (0.49, 0.51)]:
        u = iv.mpf([lo, hi])
        for k in range(3):
            box = interval_hat(iv, u, k, 3)
            samples = hats(np.linspace(lo, hi, 201), 3)[:, k]
            assert float(box.a) <= samples.min() + 1e-15 and samples.max() - 1e-15 <= float(box.b)


def test_fire_certified_mode_agrees_with_float():
    f = compute_alpha("fire", "offset:1", 16, [64, 256])
    c = compute_alpha("fire", "offset:1", 16, [64, 256], mode="certified")
    assert {L: f.alpha(L) for L in (64, 256)} == {L: c.alpha(L) for L in (64, 256)}


def test_fire_threshold_defaults_to_the_training_length():
    assert Fire().cutoff(24) == 24 and Fire(threshold=5).cutoff(24) == 5
    assert str(parse_pe("fire")) == "fire" and str(parse_pe("fire:8:24")) == "fire:8:24"


# --------------------------------------------------------------------------- spec errors
@pytest.mark.parametrize("spec,part", [("t5:1", "integer parameters from 2"), ("t5:2000", "2 <= B <= 1024"),
                                       ("t5:32:16", "M > B/2"), ("alibi-fixed:4:5", "1 <= h <= H"),
                                       ("alibi-fixed:0", "integer parameters from 1"),
                                       ("kerple-log:-1", "must be a number > 0"), ("kerple-log:nan", "> 0"),
                                       ("xpos:5", "odd"), ("xpos:8:1", "base"), ("xpos:8:100:0", "scale"),
                                       ("fire:1", "integer parameters from 2"), ("fire:4:0", "from 1"),
                                       ("fire:2000", "2 <= K <= 1024"), ("t5:1:2:3", "accepted")])
def test_bad_published_specs_are_one_line_errors(spec, part):
    with pytest.raises(SpecError) as err:
        parse_pe(spec)
    assert part in str(err.value) and "\n" not in str(err.value)


# --------------------------------------------------------------------------- certified mode: enclosures
@pytest.mark.parametrize("spec,task", [("xpos:8", "offset:1"), ("kerple-log:0.5", "offset:0"),
                                       ("alibi-fixed:3:1", "offset:0"), ("fire:4", "position:0"),
                                       ("dual:xpos:8", "position:1")])
def test_interval_margins_enclose_the_float_margins(spec, task):
    """The enclosure of a row's margin from the interval features contains the float margin and is narrow;
    an enclosure computed with the wrong row (the control) does not contain it."""
    from posreal.theory.certified import interval_margin
    from posreal.theory.kernels import target_keys
    sel = select(spec, task, 16)
    assert sel.realizable
    pe, theta, L = sel.pe, sel.theta, 64
    rows, targets = parse_task(task).rows_and_targets(L)
    keys = target_keys(pe.index, rows, targets)
    margins, _ = pe.kernel(theta, L, 16).float_margins(rows, keys)
    for n in (0, rows.size // 2, rows.size - 1):
        i, k = int(rows[n]), int(keys[n])
        box = interval_margin(pe, theta, i, k, 16)
        if box is None:                                          # one key: the margin is +∞
            assert np.isinf(margins[n])
            continue
        assert float(box.a) - 1e-9 <= margins[n] <= float(box.b) + 1e-9 and float(box.b - box.a) < 1e-6
    far = interval_margin(pe, theta, int(rows[-1]), 0 if int(keys[-1]) else 1, 16)
    assert far is None or not (float(far.a) - 1e-9 <= margins[-1] <= float(far.b) + 1e-9)
