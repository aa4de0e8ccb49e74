"""Contract tests for theory/selection.py: the exact KKT refinement against brute force over every active set,
the float and exact finishing steps on hand-made rows (each status with its reason text), the training pairs,
deduplication and the summaries a selection reports."""

from __future__ import annotations

import itertools
import random
from fractions import Fraction as F

import numpy as np
import pytest

from posreal.theory import selection as sm
from posreal.theory.errors import PosrealError
from posreal.theory.pe_specs import parse_pe
from posreal.theory.rational import solve
from posreal.theory.selection import Optimum, Selection, SelectionStatus
from posreal.theory.tasks import parse_task
from posreal.theory.training_set import dedupe_exact, dedupe_float

Row = tuple[F, ...]


def _dot(a: Row, b: Row) -> F:
    return sum((x * y for x, y in zip(a, b)), F(0))


def _brute(rows: list[Row]) -> tuple[Row, dict[int, F]] | None:
    """θ* and λ by trying every active set B (Z_B Z_Bᵀ μ = 1, μ ≥ 0, Zθ ≥ 1), least norm first."""
    best = None
    for k in range(1, len(rows) + 1):
        for B in itertools.combinations(range(len(rows)), k):
            mu = solve([[_dot(rows[a], rows[b]) for b in B] for a in B], [F(1)] * k)
            if mu is None or any(x < 0 for x in mu):
                continue
            theta = tuple(sum((m * rows[b][i] for m, b in zip(mu, B)), F(0)) for i in range(len(rows[0])))
            if all(_dot(r, theta) >= 1 for r in rows) and (best is None or _dot(theta, theta) < _dot(best[0], best[0])):
                best = (theta, {b: m for b, m in zip(B, mu) if m})
    return best


def _selection(rows: list[Row], exact: bool = True) -> Selection:
    p = len(rows[0])
    z = np.array([[float(x) for x in r] for r in rows], dtype=float).reshape(len(rows), p)
    pairs = np.array([[n + 1, 0, n + 2] for n in range(len(rows))], dtype=np.int64)
    return Selection(parse_pe("relbias"), parse_task("offset:1"), 4, z, pairs,
                     exact_constraints=rows if exact else None)


CASES = [(seed, m, p) for seed in range(8) for m, p in ((3, 2), (4, 3))]


@pytest.mark.parametrize(("seed", "m", "p"), CASES, ids=[f"seed{s}-m{m}-p{p}" for s, m, p in CASES])
def test_exact_kkt_matches_brute_force_from_any_start(seed: int, m: int, p: int) -> None:
    """From NNLS' u, from a uniform u and from a u on one row only, the refinement ends at the brute-force θ*
    with λ ≥ 0 on active rows, or gives up (None), never at another point."""
    rng = random.Random(seed)
    rows = [tuple(F(rng.randint(-2, 3)) for _ in range(p)) for _ in range(m)]
    if not all(any(r) for r in rows):
        rows = [tuple(x + (1 if i == 0 else 0) for i, x in enumerate(r)) if not any(r) else r for r in rows]
    expected = _brute(rows)
    z = sm._float_rows(rows, p)
    u, rho = sm._nnls_ldp(z)
    starts = [u, np.ones(m), np.eye(m)[rng.randrange(m)]]
    for start in starts:
        found = sm._exact_kkt(rows, start, p)
        if found is None:
            continue
        theta, lam = found
        assert expected is not None and tuple(theta) == expected[0]
        assert all(v >= 0 and _dot(rows[k], tuple(theta)) == 1 for k, v in lam.items())
        assert [sum((v * rows[k][i] for k, v in lam.items()), F(0)) for i in range(p)] == list(theta)
    if expected is not None and rho > sm.FEASIBILITY_RHO:
        assert sm._exact_kkt(rows, u, p) is not None


def test_exact_kkt_with_no_start_support_enters_the_first_violated_row() -> None:
    """u = 0: the empty active set gives θ = 0, row 0 is the first most violated and enters; θ* = (1, 0)."""
    theta, lam = sm._exact_kkt([(F(1), F(0)), (F(2), F(0))], np.zeros(2), 2)
    assert theta == [F(1), F(0)] and lam == {0: F(1)}


def test_exact_kkt_drops_a_negative_multiplier() -> None:
    """Start on rows (2, 0) and (1, ½): μ = (-¾, 2) has a negative entry; without row 0, θ = (1, ½)/1.25 = (⅘, ⅖)
    keeps row 0's margin (8/5 ≥ 1).  A zero multiplier on a start row is kept as 0."""
    theta, lam = sm._exact_kkt([(F(2), F(0)), (F(1), F(1, 2))], np.array([1.0, 1.0]), 2)
    assert theta == [F(4, 5), F(2, 5)] and lam == {1: F(4, 5)}
    theta, lam = sm._exact_kkt([(F(2), F(0)), (F(1), F(1))], np.array([1.0, 1.0]), 2)
    assert theta == [F(1, 2), F(1, 2)] and lam == {0: F(0), 1: F(1, 2)}


def test_finish_float_realizable_with_its_kkt_evidence() -> None:
    """Rows e1, e2 (float): θ* = (1, 1), λ = (1, 1), every residual 0, no reason."""
    sel = _selection([(F(1), F(0)), (F(0), F(1))], exact=False)
    u, rho = sm._nnls_ldp(sel.constraints)
    out = sm._finish_float(sel, sel.constraints, u, rho)
    assert out.status is SelectionStatus.REALIZABLE and out.reason == ""
    assert out.theta == pytest.approx([1.0, 1.0], abs=1e-12) and out.support == [0, 1]
    assert out.evidence["optimal"] is True and out.evidence["primal_min_slack"] == pytest.approx(0.0, abs=1e-12)


def test_finish_float_feasible_but_not_optimal_says_so() -> None:
    """A start u whose θ = Zᵀu/ρ is feasible but not stationary for θ*: realizable, approximately."""
    sel = _selection([(F(1), F(0)), (F(0), F(1))], exact=False)
    u = np.array([0.4, 0.8])                  # ρ = 0.4: θ = λ = (1, 2), so λ_2 · slack_2 = 2 ≠ 0
    out = sm._finish_float(sel, sel.constraints, u, 0.4)
    assert out.realizable and out.evidence["optimal"] is False
    assert out.reason == "θ is feasible (Zθ ≥ 1) but its KKT residuals exceed tolerance: θ* only approximately"


def test_finish_float_farkas_and_undecided_reasons(monkeypatch: pytest.MonkeyPatch) -> None:
    """Rows (1) and (-1) cancel: a float Farkas vector; without one the cell is undecided, with ρ shown."""
    rows = [(F(1),), (F(-1),)]
    sel = _selection(rows, exact=False)
    u, rho = sm._nnls_ldp(sel.constraints)
    assert rho <= sm.FEASIBILITY_RHO
    out = sm._finish_float(sel, sel.constraints, u, rho)
    assert out.status is SelectionStatus.NOT_REALIZABLE and out.optimum is None
    assert out.reason == "infeasible at L0: u ≥ 0 with Zᵀu = 0, Σu = 1 (Farkas certificate, float)"
    assert out.evidence == {"farkas_residual": 0.0, "farkas_exact": False}
    monkeypatch.setattr(sm, "_farkas", lambda z: None)
    out = sm._finish_float(_selection(rows, exact=False), sel.constraints, u, 0.125)
    assert out.status is SelectionStatus.UNDECIDED
    assert out.reason == "undecided: NNLS gives ρ = 0.125, no feasible θ and no Farkas certificate"


def test_finish_exact_realizable_and_farkas() -> None:
    """In ℚ: rows (2, 0), (1, 1) give θ* = (½, ½) with λ = {1: ½}; rows (1, 2), (-2, -4) give u = (⅔, ⅓)."""
    rows = [(F(2), F(0)), (F(1), F(1))]
    sel = _selection(rows)
    u, rho = sm._nnls_ldp(sel.constraints)
    out = sm._finish_exact(sel, rows, u, rho, 2)
    assert out.exact_theta == [F(1, 2), F(1, 2)] and out.exact_multipliers == {1: F(1, 2)}
    assert out.multipliers.tolist() == [0.0, 0.5] and out.evidence == {"kkt_exact": True}
    assert sm.verify_kkt_exact(out) and out.exact and out.support == [1]
    rows = [(F(1), F(2)), (F(-2), F(-4))]
    sel = _selection(rows)
    u, rho = sm._nnls_ldp(sel.constraints)
    out = sm._finish_exact(sel, rows, u, rho, 2)
    assert out.status is SelectionStatus.NOT_REALIZABLE and out.exact
    assert out.evidence == {"farkas_exact": True, "farkas": {0: F(2, 3), 1: F(1, 3)}}
    assert out.reason == "infeasible at L0: u ≥ 0 with Zᵀu = 0, Σu = 1 (Farkas certificate, exact in ℚ)"
    assert sm.verify_farkas_exact(out)


def test_scaled_farkas_maps_back_to_the_original_rows() -> None:
    """Rows (8) and (-1/2) scale to (1) and (-1): u' = (½, ½) maps to u ∝ (1/8, 2), normalized (1/17, 16/17)."""
    assert sm._unit_scaled([(F(8),), (F(-1, 2),), (F(0),)]) == ([(F(1),), (F(-1),), (F(0),)], [F(8), F(1, 2), F(1)])
    assert sm._unit_scaled([(F(3), F(-1))]) == ([(F(3, 2), F(-1, 2))], [F(2)])
    assert sm._scaled_farkas([(F(8),), (F(-1, 2),)], 1) == {0: F(1, 17), 1: F(16, 17)}
    assert sm._scaled_farkas([(F(1),), (F(2),)], 1) is None


def test_selection_theta_refusal_names_the_cell() -> None:
    sel = _selection([(F(1),), (F(-1),)])
    sel.reason = "because"
    with pytest.raises(PosrealError) as err:
        _ = sel.theta
    assert str(err.value) == "no θ* for relbias·offset:1 at L0 = 4: the cell is not realizable (because)"
    sel.reason = ""
    with pytest.raises(PosrealError, match=r"\(no reason recorded\)$"):
        _ = sel.theta
    assert sel.norm is None and sel.support == [] and sel.multipliers is None and sel.exact_optimum is None


def test_summary_and_float_support_threshold() -> None:
    """Float λ entries at most 1e-12 · max(1, max λ) are not support; the summary counts and labels."""
    sel = _selection([(F(1), F(0)), (F(0), F(1)), (F(1), F(1))], exact=False)
    sel.realize(Optimum(np.array([3.0, 4.0]), np.array([2.0, 1.9e-12, 2.1e-12])))
    assert sel.support == [0, 2] and sel.norm == 5.0
    assert sel.summary() == {"norm": 5.0, "support": 2, "constraints": 3, "exact": False, "status": "realizable",
                             "reason": None}
    small = _selection([(F(1),), (F(2),)], exact=False)
    small.realize(Optimum(np.array([1.0]), np.array([0.5, 0.9e-12])))
    assert small.support == [0]


def test_training_pairs_enumerate_every_other_key() -> None:
    """offset:1 at L0 = 4 scores rows 1, 2, 3 with targets 0, 1, 2: row i pairs its target with every j ≤ i, j ≠ t."""
    task = parse_task("offset:1")
    rows, targets = task.rows_and_targets(4)
    expected = [(i, t, j) for i, t in zip(rows.tolist(), targets.tolist()) for j in range(i + 1) if j != t]
    assert sm.training_pairs(task, 4).tolist() == [list(x) for x in expected]


def test_dedupe_keeps_first_occurrences_in_order() -> None:
    z = np.array([[1.0, 0.0], [0.0, 1.0], [1.0, 0.0], [2.0, 2.0], [0.0, 1.0]])
    pairs = np.arange(15).reshape(5, 3)
    counts = np.array([1, 2, 4, 8, 16])
    dz, dp, dn = dedupe_float(z, pairs, counts)
    assert dz.tolist() == [[1.0, 0.0], [0.0, 1.0], [2.0, 2.0]] and dp[:, 0].tolist() == [0, 3, 9]
    assert dn.tolist() == [5, 18, 8]                       # multiplicities of merged duplicates add up
    zq = [tuple(F(x) for x in r) for r in z.tolist()]
    eq, ep, en = dedupe_exact(zq, pairs, counts)
    assert eq == [zq[0], zq[1], zq[3]] and ep[:, 0].tolist() == [0, 3, 9] and en.tolist() == [5, 18, 8]
    empty, empty_pairs, empty_counts = dedupe_float(np.zeros((0, 2)), np.zeros((0, 3), dtype=np.int64),
                                                        np.zeros(0, dtype=np.int64))
    assert empty.shape == (0, 2) and empty_pairs.shape == (0, 3) and empty_counts.shape == (0,)


def test_float_kkt_residuals_on_hand_data() -> None:
    """Z = e1, e2, θ = (2, 1), λ = (1, 1): slack (1, 0), stationarity ‖(1, 0)‖/‖θ‖, complementarity 1/max λ;
    the minima start at 0 (a positive λ reports dual_min 0, a negative one itself)."""
    z = np.eye(2)
    assert sm._float_kkt(z, np.array([1.0, 1.0]), np.array([-0.5, 1.0]))["dual_min"] == -0.5
    cert = sm._float_kkt(z, np.array([2.0, 1.0]), np.array([1.0, 1.0]))
    assert cert == pytest.approx({"primal_min_slack": 0.0, "dual_min": 0.0,
                                  "stationarity": 1.0 / np.sqrt(5.0), "complementarity": 1.0})
    cert = sm._float_kkt(z, np.array([1.0, 1.0 - 2e-6]), np.array([4.0, 0.0]))
    assert cert["primal_min_slack"] == pytest.approx(-2e-6) and not sm._primal_feasible(cert)
    assert cert["complementarity"] == 0.0
    assert cert["stationarity"] == pytest.approx(np.hypot(3.0, 1 - 2e-6) / np.hypot(1, 1 - 2e-6))


@pytest.mark.parametrize("exact", [False, True], ids=["float", "exact"])
def test_fixed_bias_with_negative_differences_is_refused_with_the_first_pair(exact: bool) -> None:
    """alibi-fixed on position:0: every difference is negative; the reason names the first pair (row 1, key 1)."""
    sel = sm.select("alibi-fixed", "position:0", 8, mode="exact" if exact else "float")
    assert sel.status is SelectionStatus.NOT_REALIZABLE and sel.optimum is None
    assert sel.evidence == {"negative_scale": True, "exact": exact}
    assert sel.reason == ("the fixed bias ranks key 1 above the target 0 on row 1 of the L0-grid (every training "
                          "difference is negative): only a negative scale would realize the task, and the scale of a "
                          "fixed bias is positive")
    kept = sm.select("alibi-fixed", "position:7", 8, mode="exact" if exact else "float")
    assert kept.realizable and kept.theta[0] > 0


def test_select_refuses_a_task_without_rows_and_bad_lengths() -> None:
    with pytest.raises(sm.SpecError) as err:
        sm.select("relbias", "offset:5", 4)
    assert str(err.value) == ("invalid task 'offset:5' at train length 4: it scores no row there; accepted: a task "
                              "with at least one scored row at L0")
    for bad in (True, 1.5, -1):
        with pytest.raises(sm.SpecError) as err:
            sm.select("relbias", "offset:1", bad)  # type: ignore[arg-type]
        assert str(err.value) == f"invalid train length {bad}; accepted: an integer >= 1"


def test_float_and_exact_selection_agree_on_a_small_cell() -> None:
    """relbias on offset:1 at L0 = 4: θ* = (-¼, ¾, -¼, -¼) in ℚ, the float selection within 1e-9, same support."""
    exact = sm.select("relbias", "offset:1", 4, mode="exact")
    floating = sm.select("relbias", "offset:1", 4, mode="float")
    assert exact.exact_theta == [F(-1, 4), F(3, 4), F(-1, 4), F(-1, 4)] and sm.verify_kkt_exact(exact)
    assert floating.theta == pytest.approx([float(x) for x in exact.exact_theta], abs=1e-9)
    assert floating.support == exact.support and floating.exact_theta is None and not floating.exact
    assert exact.summary()["exact"] is True and exact.summary()["reason"] is None


def _farkas_selection(rows: list[Row], cert: dict[int, F]) -> Selection:
    sel = _selection(rows) if rows else Selection(parse_pe("relbias"), parse_task("offset:1"), 4, np.zeros((0, 1)),
                                                  np.zeros((0, 3), dtype=np.int64), exact_constraints=[])
    sel.evidence = {"farkas_exact": True, "farkas": cert}
    return sel


def test_farkas_verifier_refuses_weights_on_constraints_the_cell_does_not_have() -> None:
    """A cell without constraints is realizable (θ = 0), so no certificate may prove it is not; a weight on row 5
    of a one-row cell, or on row -1 (an alias of the last row), is refused rather than read or raised on."""
    assert not sm.verify_farkas_exact(_farkas_selection([], {5: F(1)}))
    assert not sm.verify_farkas_exact(_farkas_selection([(F(1),)], {5: F(1)}))
    assert not sm.verify_farkas_exact(_farkas_selection([(F(1),), (F(-1),)], {0: F(1, 2), -1: F(1, 2)}))
    assert sm.verify_farkas_exact(_farkas_selection([(F(1),), (F(-1),)], {0: F(1, 2), 1: F(1, 2)}))
