"""Tests of the positional-loss recipes, the convergence diagnostics and the quantitative agreement
(posreal.experiment.positional, .convergence, .instances, .summary): gradient descent on the positional loss
reaches α♯ (row by row, on registry cells and on the designed open tie), its tie rows are decided by the flow's
second-order term (control: without it the row is lost), sign descent stops when its drift is below the bound,
the drift and the training margin are what they say, and the attention agreement's arithmetic."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from posreal.experiment.convergence import DRIFT_BOUND, Convergence, Status, direction_drift, status_of, training_margin
from posreal.experiment.instances import CERTIFICATES, measure_instance, open_tie_files
from posreal.experiment.positional import flow_realized, positional_records, realized_rows, train_positional
from posreal.experiment.recipes import RECIPES
from posreal.experiment.summary import attention_agreement, distance_to, residuals, row_agreement
from posreal.experiment.predictions import Prediction, limit_prediction
from posreal.theory.alpha import compute_alpha
from posreal.theory.pe_specs import parse_pe
from posreal.theory.selection import select
from posreal.theory.tasks import parse_task

GD_POS, SIGN_POS = RECIPES["gd-positional"], RECIPES["signum-positional"]
LENGTHS = [32, 64]


# --------------------------------------------------------------------------- convergence diagnostics
def test_drift_is_one_minus_the_cosine():
    assert direction_drift(np.array([1.0, 2.0]), np.array([2.0, 4.0])) == pytest.approx(0.0, abs=1e-15)
    assert direction_drift(np.array([1.0, 0.0]), np.array([0.0, 3.0])) == pytest.approx(1.0)
    assert direction_drift(np.zeros(2), np.array([1.0, 0.0])) is None


def test_status_flags_a_drift_above_the_bound():
    base = Convergence("steps", 1, 2, DRIFT_BOUND / 2, 0.5, 1.0)
    assert base.status is Status.CONVERGED
    assert dataclasses.replace(base, drift=2 * DRIFT_BOUND).status is Status.NOT_CONVERGED     # control
    assert dataclasses.replace(base, drift=None).status is Status.NOT_CONVERGED
    assert status_of({"convergence": base.to_json()}) is Status.CONVERGED
    assert status_of({}) is Status.NOT_RECORDED


@pytest.mark.parametrize("pe, task", [("relbias", "offset:1"), ("abscol:16", "position:0")])
def test_training_margin_of_the_selected_theta_is_one(pe, task):
    """θ* is the hard-margin SVM: its smallest training margin is 1 (and 2 for 2θ*, the control)."""
    theta = np.asarray(select(pe, task, 16).theta, dtype=float)
    pe_, task_ = parse_pe(pe), parse_task(task)
    assert training_margin(pe_, task_, 16, theta) == pytest.approx(1.0, abs=1e-6)
    assert training_margin(pe_, task_, 16, 2 * theta) == pytest.approx(2.0, abs=1e-6)


# --------------------------------------------------------------------------- the recipes against α♯
@pytest.mark.parametrize("pe, task", [("relbias", "position:0"), ("abscol:16", "position:0"), ("rope:16", "offset:1")])
def test_gd_positional_realizes_the_rows_alpha_sharp_says(pe, task):
    pe_, task_ = parse_pe(pe), parse_task(task)
    run = train_positional(pe_, task_, 16, GD_POS)
    assert run.convergence.status is Status.CONVERGED and run.flow is not None and run.flow.success
    w = limit_prediction(pe, task, 16, LENGTHS)
    for L in LENGTHS:
        rows = task_.rows(L)
        won = realized_rows(pe_, task_, run, L, 16)
        lo, hi = w.alpha[L]
        assert lo - 1e-12 <= won.mean() <= hi + 1e-12
        verdicts = w.rows[L]
        for row, ok in zip(rows.tolist(), won.tolist()):
            if verdicts[row][0] != "undecided":
                assert ok == (verdicts[row][0] == "won"), (pe, task, L, row)


def test_sign_descent_departs_from_the_l2_prediction_where_linf_differs():
    """abscol:16 · position:0: α^(2)_64 = 0.578 while every ℓ∞ optimum realizes every row — sign descent goes
    the ℓ∞ way, gradient descent the ℓ2 way (each one the negative control of the other)."""
    pe, task = parse_pe("abscol:16"), parse_task("position:0")
    linf = compute_alpha("abscol:16", "position:0", 16, [64], geometry="linf").alpha_interval[64]
    l2 = compute_alpha("abscol:16", "position:0", 16, [64]).alpha(64)
    sign = realized_rows(pe, task, train_positional(pe, task, 16, SIGN_POS), 64, 16).mean()
    gd = realized_rows(pe, task, train_positional(pe, task, 16, GD_POS), 64, 16).mean()
    assert distance_to(sign, linf) == 0.0 and distance_to(gd, (l2, l2)) == 0.0
    assert distance_to(sign, (l2, l2)) > 0.1 and distance_to(gd, linf) > 0.1


def test_sign_descent_stops_when_converged_or_at_its_budget():
    pe, task = parse_pe("relbias"), parse_task("offset:1")
    run = train_positional(pe, task, 16, SIGN_POS)
    assert run.convergence.status is Status.CONVERGED and run.steps < SIGN_POS.steps   # stopped early
    short = train_positional(parse_pe("rope:16"), task, 16, SIGN_POS.with_changes(steps=2 ** 10))
    assert short.steps == 2 ** 10 and short.convergence.drift is not None


def test_the_designed_open_tie_is_won_by_the_flow_and_lost_without_its_second_order_term():
    """open_tie_designed_log2: α_4 = 3/4 but ⟨θ_k, v⟩ → log 2 > 0, so α♯_4 = 1 and gradient descent realizes row 3.
    Control: the same flow with h = 0 (θ* τ alone) leaves the tie at 0, and the row is lost."""
    path = CERTIFICATES / "open_tie_designed_log2.json"
    assert path in open_tie_files()
    out = measure_instance(path, (GD_POS,))
    gd = out["recipes"]["gd-positional"]
    assert out["alpha_sharp"] == [1.0, 1.0] and out["alpha"] < 1.0
    assert gd["attention_accuracy"] == 1.0 and gd["against_alpha_sharp"]["disagreeing_rows"] == []
    from posreal.theory.tables import register_pe, unregister_pe
    register_pe("logtwo_ctl", [[0, 0, 0], [-1, 0, 0], [0, -1, 0], [-1, 1, -1]], "relative")
    try:
        pe, task = parse_pe("logtwo_ctl"), parse_task("offset:0")
        run = train_positional(pe, task, 3, GD_POS.with_changes(train_length=3))
        assert flow_realized(pe, task, run.flow, 4, 3).mean() == 1.0
        flat = dataclasses.replace(run.flow, h=np.zeros_like(run.flow.h))
        assert flow_realized(pe, task, flat, 4, 3).mean() == out["alpha"]
    finally:
        unregister_pe("logtwo_ctl")


def test_positional_records_have_no_tokens_and_carry_their_rows():
    pe, task = "relbias", "position:0"
    alpha = compute_alpha(pe, task, 16, LENGTHS)
    recs = positional_records(pe, task, parse_pe(pe), parse_task(task), GD_POS, LENGTHS, True,
                              [alpha.alpha(L) for L in LENGTHS])
    assert [r["length"] for r in recs] == LENGTHS
    for r in recs:
        assert r["token_accuracy"] is None and r["model"] == "positional"
        assert r["attention_accuracy"] == len(r["realized_rows"]) / parse_task(task).rows(r["length"]).size
        assert r["convergence"]["clock"] == "log-time"


# --------------------------------------------------------------------------- the summary's arithmetic
def _rec(task: str, length: int, attention: float, status: str | None = "converged", train: float = 1.0,
         token: float | None = None) -> dict:
    r = {"pe": "pe", "task": task, "vocab": 8, "width": 16, "seed": 0, "length": length, "realizable": True,
         "token_accuracy": token, "attention_accuracy": attention, "train_token_accuracy": train,
         "train_attention_accuracy": train}
    if status is not None:
        r["convergence"] = {"status": status}
    return r


def _w(alpha: dict) -> dict:
    return {("pe", "a"): Prediction("linf", "pe", "a", True, alpha, None)}


def test_attention_agreement_counts_inside_the_interval_with_the_tolerance():
    w = _w({32: (0.5, 0.5), 64: (0.25, 0.75), 128: (1.0, 1.0)})
    records = [_rec("a", 32, 0.51), _rec("a", 64, 0.8, "not converged"), _rec("a", 128, 0.9, None)]
    a = attention_agreement(records, w)
    assert (a["inside"], a["measurements"]) == (1, 3)
    assert a["mean_absolute_error"] == pytest.approx((0.01 + 0.05 + 0.1) / 3)   # the distance, inside or not
    assert a["by_convergence"]["converged"]["inside"] == 1 and a["by_convergence"]["converged"]["total"] == 1
    assert a["by_convergence"]["converged"]["mean_absolute_error"] == pytest.approx(0.01)
    assert a["by_convergence"]["not converged"]["total"] == 1 and a["by_convergence"]["not recorded"]["total"] == 1
    assert [(c["length"], c["outside"]) for c in a["outside"]] == [(128, 1), (64, 1)]
    assert attention_agreement(records, w, tol=0.0)["inside"] == 0          # control: no tolerance, 0.51 ≠ 0.5
    assert attention_agreement(records, w, tol=0.2)["inside"] == 3


def test_residuals_split_by_cause():
    w = _w({32: (1.0, 1.0), 64: (0.5, 1.0)})
    records = [_rec("a", 32, 0.5, "not converged", token=0.2),         # outside, not converged; verdict fails
               _rec("a", 32, 0.5, "converged", train=0.5, token=0.2),  # outside, L0 not learned
               _rec("a", 32, 0.4, "converged", token=0.2),             # outside, converged: direction
               _rec("a", 32, 1.0, "converged", token=0.5),             # inside; token verdict across the cut
               _rec("a", 64, 0.9, "converged", token=0.99)]            # witness silent
    left = residuals(records, w, 0.95)
    assert left == {"outside_not_converged": 1, "outside_not_learned": 1, "outside_direction": 1,
                    "threshold_witness_silent": 1, "threshold_attention_inside": 1, "threshold_attention_outside": 3}


def test_row_agreement_lists_the_rows_against_the_prediction():
    rows = {32: {1: ("won", "realized", "exact"), 2: ("lost", "open_tie", "exact"), 3: ("undecided", "open_tie",
                                                                                            "undecided")}}
    w = {("pe", "a"): Prediction("l2-limit", "pe", "a", True, {32: (1 / 3, 2 / 3)}, None, rows)}
    good = {**_rec("a", 32, 1 / 3), "realized_rows": [1]}
    bad = {**_rec("a", 32, 2 / 3), "realized_rows": [1, 2]}
    assert row_agreement([good], w)["exceptions"] == []
    out = row_agreement([good, bad], w)
    assert (out["decided_rows"], out["agreeing_rows"], out["undecided_rows"], out["exception_rows"]) == (4, 3, 2, 1)
    assert out["exceptions"][0]["rows"] == [2] and out["exceptions"][0]["class"] == "open_tie"
    assert row_agreement([_rec("a", 32, 0.5)], w) is None                   # token records list no rows


def _missing_realizable_cells(pes: tuple[str, ...], tasks: tuple[str, ...]) -> list[tuple[str, str]]:
    """The taxonomy's cells realizable at L0 that the grid (pes × tasks) does not hold."""
    from posreal.theory.defaults import REGISTRY_TASKS, TAXONOMY_PES, TRAIN_LENGTH

    grid = {(pe, task) for pe in pes for task in tasks}
    return [(pe, task) for pe in TAXONOMY_PES for task in REGISTRY_TASKS
            if (pe, task) not in grid
            and compute_alpha(parse_pe(pe), parse_task(task), TRAIN_LENGTH, [TRAIN_LENGTH]).realizable]


def test_the_full_grid_holds_every_realizable_registry_cell():
    """The positional-loss recipes are compared with α♯ on every realizable registry cell (the issue's
    "every realizable registry cell"): the full grid's PEs × tasks cover them; control: without
    colbias and reverse, the cells colbias · position:0/position:1/middle and abssin:16 · reverse are missing."""
    from posreal.experiment.grid import FULL

    assert _missing_realizable_cells(FULL.pes, FULL.tasks) == []
    fewer = _missing_realizable_cells(tuple(p for p in FULL.pes if p != "colbias"),
                                      tuple(t for t in FULL.tasks if t != "reverse"))
    assert ("abssin:16", "reverse") in fewer and ("colbias", "position:0") in fewer
