"""Theorem 1 on real training: target attention at L along gradient-descent trajectories at L0.

Main checks (definitions.md#theorem-1; statement id ``theorem1``):

* :func:`check_training_rise` — on cells with α_L = 1 (every row has γ_i(T_L θ*) > 0), the trained
  head's attention on the target, evaluated at L with :func:`posreal.theory.transfer_operator.transfer`, rises toward 1
  along :func:`posreal.theory.training.gradient_descent` (min and mean over rows non-decreasing over the
  recorded iterates, final mean above the first).  Control: the same criterion on rows with
  γ_i < 0 of a cell where they eventually fall must be refuted.
* :func:`check_training_fall` — on rows where θ* strictly misranks (γ_i(T_L θ*) < 0) the target
  attention falls toward 0: the mean over those rows must peak before the last recorded iterate and
  not increase after the peak.  One outcome per cell of :data:`FALL_CELLS`: *falls*; *beyond the
  budget* (still rising at the last iterate while Theorem 1's finite bound exp(-ρ(|γ| - 2εB)) is
  vacuous — Theorem 1 is a limit statement and says nothing there; listed, never counted as a
  pass); or *contradicts* (rising although the finite bound already forces the rows down).  The
  combined check passes when no cell contradicts, the bound is never violated, and at least one
  cell is seen to fall; it is ``unknown`` when every cell is beyond the budget.

Along every trajectory the finite bound itself is checked at every recorded iterate, with
θ_k = ρ(u + e), ρ = ⟨θ_k, u⟩, e = θ_k/ρ - u, ε = ‖e‖ — it must never be violated.
"""

from __future__ import annotations


import numpy as np

from posreal.checks.base import (COUNTEREXAMPLE, FAILED, PASSED, UNKNOWN, CheckResult, Control, DeclaredCheck,
                                 Verdict, timed)
from posreal.checks.declare import claim_check, declared_in
from posreal.theory.pe_specs import parse_pe
from posreal.theory.tasks import parse_task
from posreal.theory.training import gradient_descent
from posreal.theory.alpha import compute_alpha, row_outcomes
from posreal.theory.attention import transferred_attention

from posreal.theory.defaults import TRAIN_LENGTH  # noqa: E402
STEPS = 20000
RECORD = 14
RISE_CELLS = (("relbias", "offset:1", 64), ("alibi", "position:0", 64), ("colbias", "position:0", 64),
              ("rope:16", "offset:1", 128))
FALL_CELLS = (("abscol:16", "position:0", 64), ("abssin:16", "position:0", 64), ("rope:16", "position:0", 64),
              ("rope:16", "offset:1", 256))
FALLS, BEYOND_BUDGET, CONTRADICTS, NO_ROWS = "falls", "beyond the budget", "contradicts", "no misranked row"
CONTROL_CELL = ("abscol:16", "position:0", 64)
MARGIN_TOL = 1e-9
SLACK = 1e-12


def target_attention(pe, task, theta: np.ndarray, length: int, train_length: int = TRAIN_LENGTH) -> np.ndarray:
    """Softmax attention on the target of every scored row of the L-grid under T_L θ: (|R_L|,)."""
    rows, targets = task.rows_and_targets(length)
    weights = transferred_attention(pe, theta, length, train_length, rows)     # (m, L), columns = key positions
    return weights[np.arange(rows.size), targets]


def row_bounds(pe, task, theta: np.ndarray, u: np.ndarray, gamma: np.ndarray, length: int) -> np.ndarray:
    """Theorem 1's finite bound per row at θ = ρ(u + e): lower bound (γ > 0) or upper bound (γ < 0): (m,)."""
    rows, _ = task.rows_and_targets(length)
    rho = float(theta @ u)
    if rho <= 0:
        return np.where(gamma > 0, 0.0, np.inf)
    eps = float(np.linalg.norm(theta / rho - u))
    out = np.empty(rows.size)
    for n, i in enumerate(rows.tolist()):
        feats = pe.pair_features(np.full(i + 1, i), np.arange(i + 1), TRAIN_LENGTH)   # (i+1, p)
        B = float(np.max(np.linalg.norm(feats, axis=1)))
        with np.errstate(over="ignore"):
            if gamma[n] > 0:
                out[n] = 1.0 / (1.0 + i * np.exp(-rho * (gamma[n] - 2 * eps * B)))
            else:
                out[n] = np.exp(-rho * (abs(gamma[n]) - 2 * eps * B))
    return out


def trajectory_attention(pe_spec: str, task_spec: str, length: int, steps: int = STEPS) -> dict:
    """Gradient descent at L0, then target attention and Theorem 1's bound at L for every recorded iterate."""
    pe, task = parse_pe(pe_spec), parse_task(task_spec)
    result = compute_alpha(pe, task, TRAIN_LENGTH, [length])
    theta_star = result.selection.theta
    u = theta_star / np.linalg.norm(theta_star)
    gamma = np.asarray(result.outcomes[length].margins, dtype=float) / np.linalg.norm(theta_star)  # γ_i(T_L u)
    traj = gradient_descent(pe, task, TRAIN_LENGTH, steps=steps, record=RECORD)
    attention = np.array([target_attention(pe, task, th, length) for th in traj.thetas])  # (K, m)
    bounds = np.array([row_bounds(pe, task, th, u, gamma, length) for th in traj.thetas])  # (K, m)
    decided = np.abs(gamma) > MARGIN_TOL
    violated = (((gamma > 0) & decided & (attention < bounds - SLACK))
                | ((gamma < 0) & decided & (attention > bounds + SLACK)))
    realized = np.array([row_outcomes(pe, task, th, length, TRAIN_LENGTH).status == 1 for th in traj.thetas])  # (K, m)
    return {"cell": f"{pe_spec}·{task_spec} L={length}", "steps": traj.steps, "gamma": gamma, "realized": realized,
            "attention": attention, "bounds": bounds, "bound_violations": int(np.sum(violated[1:])),
            "alpha": result.alpha(length), "cosine": float(traj.cosines[-1])}


def _non_decreasing(x: np.ndarray) -> bool:
    return bool(np.all(np.diff(x) >= -SLACK))


def rise_holds(attention: np.ndarray) -> tuple[bool, dict]:
    """The rise criterion fixed before the runs on attention (K, m).

    Min and mean over rows non-decreasing over the recorded iterates and the final mean above the first."""
    low, mean = attention.min(axis=1), attention.mean(axis=1)
    ok = _non_decreasing(low) and _non_decreasing(mean) and mean[-1] > mean[0]
    per_row = float(np.mean([_non_decreasing(attention[:, r]) for r in range(attention.shape[1])]))
    return ok, {"min": np.round(low, 4).tolist(), "mean": np.round(mean, 4).tolist(), "rows_monotone": per_row}


def fall_holds(attention: np.ndarray) -> tuple[bool, dict]:
    """The fall criterion fixed before the runs.

    The mean over rows peaks before the last recorded iterate and does not increase after the peak."""
    mean = attention.mean(axis=1)
    peak = int(np.argmax(mean))
    ok = peak < mean.size - 1 and bool(np.all(np.diff(mean[peak:]) <= SLACK))
    return ok, {"mean": np.round(mean, 4).tolist(), "peak_index": peak}


@claim_check("theorem1", "training", "rise on α_L = 1 cells", slow=True)
def check_training_rise(steps: int = STEPS) -> CheckResult:
    """Check that target attention rises toward 1 on α_L = 1 cells along gradient descent."""
    def run() -> CheckResult:
        cells, failures, violations = [], [], 0
        for pe_spec, task_spec, L in RISE_CELLS:
            traj = trajectory_attention(pe_spec, task_spec, L, steps)
            violations += traj["bound_violations"]
            if traj["alpha"] != 1.0 or not np.all(traj["gamma"] > MARGIN_TOL):
                failures.append(f"{traj['cell']}: not an α_L = 1 cell (α = {traj['alpha']})")
                continue
            ok, info = rise_holds(traj["attention"])
            cells.append({"cell": traj["cell"], "rises": ok, "steps": traj["steps"].tolist(), **info})
            if not ok:
                failures.append(f"{traj['cell']}: target attention not rising: mean {info['mean']}")
        pe_spec, task_spec, L = CONTROL_CELL
        traj = trajectory_attention(pe_spec, task_spec, L, steps)
        neg = traj["gamma"] < -MARGIN_TOL
        control_ok = bool(neg.any()) and not rise_holds(traj["attention"][:, neg])[0]
        if violations:
            failures.append(f"Theorem 1's finite bound violated at {violations} (row, iterate) pairs")
        return CheckResult(
            claim="theorem1", method="training",
            name=f"α_L = 1 cells: target attention at L rises toward 1 along gradient descent ({steps} steps)",
            verdict=COUNTEREXAMPLE if violations else (PASSED if not failures else FAILED),
            negative_control=Control.COUNTEREXAMPLE if control_ok else Control.NO_COUNTEREXAMPLE,
            detail=("; ".join(f"{c['cell']}: mean {c['mean'][0]} → {c['mean'][-1]}, min {c['min'][0]} → "
                              f"{c['min'][-1]}, rows monotone {c['rows_monotone']:.2f}" for c in cells)
                    + (f"; failures: {failures}" if failures else "")
                    + f"; control (rise criterion on γ < 0 rows of {traj['cell']}): "
                    + ("refuted" if control_ok else "not refuted")),
            data={"cells": cells, "failures": failures, "bound_violations": violations})
    return timed(run)


def fall_outcome(cell: tuple[str, str, int], steps: int = STEPS) -> dict:
    """Gradient descent, then the fall criterion on the rows of ``cell`` with γ_i(T_L θ*) < 0."""
    traj = trajectory_attention(*cell, steps=steps)
    neg = traj["gamma"] < -MARGIN_TOL
    out = {"cell": traj["cell"], "bound_violations": traj["bound_violations"], "rows": int(neg.sum())}
    if not neg.any():
        return {**out, "outcome": NO_ROWS}
    attention, bounds = traj["attention"][:, neg], traj["bounds"][:, neg]
    ok, info = fall_holds(attention)
    if ok:
        outcome = FALLS
    elif np.any(bounds[-1] < 1.0):
        outcome = CONTRADICTS   # the finite form already forces these rows down, yet the trend is not falling
    else:
        outcome = BEYOND_BUDGET
    pos = traj["gamma"] > MARGIN_TOL   # control: the same criterion on rows with γ > 0 must be refuted
    return {**out, **info, "outcome": outcome,
            "control_refuted": bool(pos.any()) and not fall_holds(traj["attention"][:, pos])[0],
            "gamma_range": [float(traj["gamma"][neg].min()), float(traj["gamma"][neg].max())],
            "nonvacuous_fraction": float(np.mean(bounds[1:] < 1.0)),
            "realized_by_theta_k": traj["realized"][:, neg].sum(axis=1).tolist(),
            "steps": traj["steps"].tolist(), "cosine": traj["cosine"]}


def fall_verdict(outcomes: list[dict]) -> Verdict:
    """The combined verdict of :func:`check_training_fall` (rule in the module docstring)."""
    if any(o["bound_violations"] for o in outcomes):
        return COUNTEREXAMPLE
    if any(o["outcome"] in (CONTRADICTS, NO_ROWS) for o in outcomes):
        return FAILED
    return PASSED if any(o["outcome"] == FALLS for o in outcomes) else UNKNOWN


@claim_check("theorem1", "training", "fall on misranked rows", slow=True)
def check_training_fall(cells: tuple = FALL_CELLS, steps: int = STEPS) -> CheckResult:
    """Check that target attention falls toward 0 on rows with γ_i(T_L θ*) < 0."""
    def run() -> CheckResult:
        outcomes = [fall_outcome(cell, steps) for cell in cells]
        controls = [o.get("control_refuted", False) for o in outcomes if o["outcome"] != NO_ROWS]
        detail = "; ".join(
            f"{o['cell']}: {o['outcome']}" + (
                f" ({o['rows']} rows, γ_i(T_L u) in [{o['gamma_range'][0]:.3g}, {o['gamma_range'][1]:.3g}], "
                f"mean target attention {o['mean'][0]} → peak {max(o['mean'])} → {o['mean'][-1]}, finite bound "
                f"non-vacuous on {o['nonvacuous_fraction']:.0%} of (row, iterate) pairs, final cos(θ_k, θ*) = "
                f"{o['cosine']:.4f})" if o["outcome"] != NO_ROWS else "")
            for o in outcomes)
        detail += f"; control (fall criterion on γ > 0 rows): refuted in {sum(controls)} of {len(controls)} cells"
        return CheckResult(
            claim="theorem1", method="training",
            name=f"rows with γ_i(T_L θ*) < 0: target attention falls toward 0 along gradient descent ({steps} steps)",
            verdict=fall_verdict(outcomes),
            negative_control=Control.COUNTEREXAMPLE if controls and all(controls) else Control.NO_COUNTEREXAMPLE,
            detail=detail, data={"cells": outcomes})
    return timed(run)


TRAINING_CHECKS: tuple[DeclaredCheck, ...] = declared_in(__name__)   # the @claim_check declarations above
