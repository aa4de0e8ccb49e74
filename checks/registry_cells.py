"""Cross-checks of the results on the registry cells, each with a negative control.

Cross-checks of the results on the registry cells (REGISTRY_PES × REGISTRY_TASKS, L0 = 16,
L = 32..256), each with a negative control.

Main checks (definitions.md#results; statement ids in brackets):

* :func:`check_theorem2_registry` [theorem2] — every relative cell whose selected profile
  r(δ) = ⟨θ*, ψ(δ)⟩ has a strict unique maximizer δ* over the offsets of the L-grid: each row's
  outcome in :func:`posreal.theory.alpha.compute_alpha` is the one Theorem 2 predicts (deep rows: realized
  iff i - t = δ*; shallow rows: iff i - t is the unique maximizer of r on {0..i}), so α_L equals the
  formula.  Control: treat shallow rows as deep (the hypothesis "i ≥ δ*" dropped) — alibi·position:0,
  the case where the theorem "breaks", must refute it.  :func:`where_theorem2_breaks` shows the
  breaks of definitions.md#theorem-2: alibi with a far-end slope realizes position:0 at every length, and relbias's
  clipped buckets (non-unique maximizer) fail exactly on the tied rows.
* :func:`check_duality_registry` [proposition4] — α_L(dual:Φ, dual:τ) = α_L(Φ, τ) cell by cell through
  compute_alpha, and independently at small L by materializing the dual's own features with
  :func:`posreal.theory.kernels.naive_kernel_matrix` and reading margins straight off the dense kernel;
  θ* is the same on both sides.  Control: shear the PE but not the task — some cell must differ.
* :func:`check_learned_registry` [underdetermination] — for ``learned:16`` on every registry task,
  the zero completion gives |R_L ∩ [0, L0)|/|R_L| and copy_last gives 1 for position:p (p ≤ L0-2),
  both inside the reported interval.  Control: claim copy_last = 1 for every task (p ≤ L0-2
  dropped) — some task must refute it.
* :func:`check_learned_cli` [underdetermination] — ``posreal alpha --pe learned:16 --json`` (run as a
  subprocess) reports exactly the interval of :func:`posreal.theory.underdetermination.learned_alpha_interval`.
  Control: the document of another seed must differ.
"""

from __future__ import annotations

import json
import subprocess
import sys

import numpy as np

from posreal.checks.base import FAILED, PASSED, CheckResult, Control, DeclaredCheck, timed
from posreal.checks.declare import claim_check, declared_in
from posreal.theory.defaults import REGISTRY_PES
from posreal.theory.pe_specs import dual_pe, parse_pe
from posreal.theory.transfer_operator import naive_kernel_matrix, transfer
from posreal.theory.realization import DEFAULT_TOL, REALIZED
from posreal.theory.defaults import REGISTRY_TASKS
from posreal.theory.tasks import dual_task, parse_task
from posreal.theory.alpha import compute_alpha

from posreal.theory.defaults import LENGTHS, TRAIN_LENGTH  # noqa: E402
NAIVE_LENGTHS = (32, 48)
THETA_RTOL = 1e-10   # relative; largest measured θ* difference over the realizable dual pairs: 7.6e-14


# --------------------------------------------------------------------------- Theorem 2
def unique_maximizer(r: np.ndarray, tol: float = DEFAULT_TOL) -> int | None:
    """The strict unique maximizer of r (gap above tol·max(1, |max|)), else None."""
    if r.size == 0:
        return None
    k = int(np.argmax(r))
    if r.size == 1:
        return k
    rest = np.delete(r, k)
    return k if r[k] - rest.max() > tol * max(1.0, abs(float(r[k]))) else None


def theorem2_prediction(r: np.ndarray, rows: np.ndarray, targets: np.ndarray, delta_star: int,
                        deep_rule_everywhere: bool = False) -> np.ndarray:
    """Theorem 2's realized/not per row (bool (m,)) for a profile r with unique maximizer δ*."""
    out = np.zeros(rows.size, dtype=bool)
    for n, (i, t) in enumerate(zip(rows.tolist(), targets.tolist())):
        if i >= delta_star or deep_rule_everywhere:
            out[n] = (i - t) == delta_star
        else:
            out[n] = unique_maximizer(r[: i + 1]) == i - t
    return out


def theorem2_registry(deep_rule_everywhere: bool = False) -> dict:
    """Compare Theorem 2 with compute_alpha on every relative registry cell; returns a report."""
    checked, skipped, mismatches = [], [], []
    for pe_spec in REGISTRY_PES:
        pe = parse_pe(pe_spec)
        if pe.kind != "relative":
            continue
        for task_spec in REGISTRY_TASKS:
            task = parse_task(task_spec)
            result = compute_alpha(pe, task, TRAIN_LENGTH, LENGTHS)
            if not result.realizable:
                skipped.append(f"{pe_spec}·{task_spec}: not realizable at L0")
                continue
            kernel = transfer(pe, result.selection.theta, max(LENGTHS), TRAIN_LENGTH)
            r_full = np.asarray(kernel.index_row(max(LENGTHS) - 1), dtype=float)   # (L_max,): r(δ), δ < L_max
            for L in LENGTHS:
                r = r_full[:L]
                delta_star = unique_maximizer(r)
                if delta_star is None:
                    skipped.append(f"{pe_spec}·{task_spec} L={L}: no strict unique maximizer")
                    continue
                out = result.outcomes[L]
                predicted = theorem2_prediction(r, out.rows, out.targets, delta_star, deep_rule_everywhere)
                actual = out.status == REALIZED
                checked.append(f"{pe_spec}·{task_spec} L={L} δ*={delta_star}")
                formula_alpha = float(predicted.mean()) if predicted.size else 1.0
                if not np.array_equal(predicted, actual) or formula_alpha != out.alpha:
                    bad = int(np.flatnonzero(predicted != actual)[0]) if not np.array_equal(predicted, actual) else 0
                    mismatches.append(f"{pe_spec}·{task_spec} L={L}: row {int(out.rows[bad])} target "
                                      f"{int(out.targets[bad])} predicted {bool(predicted[bad])}, status "
                                      f"{int(out.status[bad])}; α formula {formula_alpha} vs {out.alpha}")
    return {"checked": checked, "skipped": skipped, "mismatches": mismatches}


def where_theorem2_breaks() -> dict:
    """Theorem 2's "where it breaks", shown on the registry.

    Theorem 2's "where it breaks" (definitions.md#theorem-2), shown on the registry: (i) alibi with
    slope favouring the far end (r(δ) = mδ, m > 0, no maximizer on ℕ) realizes position:0 at every
    length; (ii) relbias's clipped buckets give a non-unique maximizer on long grids, and exactly the tied rows fail."""
    problems = []
    alibi = compute_alpha("alibi", "position:0", TRAIN_LENGTH, LENGTHS)
    slope = float(-alibi.selection.theta[0]) if alibi.realizable else float("nan")   # r(δ) = slope·δ
    alphas = {L: alibi.alpha(L) for L in LENGTHS} if alibi.realizable else {}
    if not (alibi.realizable and slope > 0 and all(a == 1.0 for a in alphas.values())):
        problems.append(f"alibi·position:0: slope {slope}, α {alphas}")
    relbias = compute_alpha("relbias", "position:0", TRAIN_LENGTH, LENGTHS)
    tied = {}
    for L in LENGTHS:
        out = relbias.outcomes[L]
        tied[L] = int(out.ties.sum())
        if not np.array_equal(out.status != REALIZED, out.ties) or not out.ties.any():
            problems.append(f"relbias·position:0 L={L}: failing rows are not exactly the tied rows")
    return {"alibi_slope": slope, "alibi_alpha": alphas, "relbias_tied_rows": tied, "problems": problems}


def registry_result(claim: str, name: str, main: dict, control: dict, agreed: str, control_label: str,
                    ok: bool, **data) -> CheckResult:
    """A registry check's result: passed iff ``ok``; the negative control must find mismatches."""
    return CheckResult(
        claim=claim, method="registry", name=name, verdict=PASSED if ok else FAILED,
        negative_control=Control.COUNTEREXAMPLE if control["mismatches"] else Control.NO_COUNTEREXAMPLE,
        detail=(agreed if ok else f"mismatches: {main['mismatches'][:3]}")
               + f"; control ({control_label}): {control['mismatches'][:1]}",
        data={**data, "mismatches": main["mismatches"], "control_mismatches": control["mismatches"][:10]})


@claim_check("theorem2", "registry", "Theorem 2 on registry cells")
def check_theorem2_registry() -> CheckResult:
    """Check Theorem 2 on the relative registry cells, and where it breaks."""
    def run() -> CheckResult:
        main = theorem2_registry()
        control = theorem2_registry(deep_rule_everywhere=True)
        breaks = where_theorem2_breaks()
        main["mismatches"] += breaks["problems"]
        return registry_result(
            "theorem2", "relative registry cells with a strict unique maximizer: row outcomes and α_L match Theorem 2",
            main, control,
            agreed=(f"{len(main['checked'])} (cell, L) pairs agree, {len(main['skipped'])} skipped; where it breaks: "
                    f"alibi·position:0 (slope {breaks['alibi_slope']:.3g} > 0, no maximizer) has α = 1 at every L, "
                    f"relbias·position:0 fails exactly on its tied rows {breaks['relbias_tied_rows']}"),
            control_label="shallow rows treated as deep",
            ok=not main["mismatches"] and bool(main["checked"]),
            checked=main["checked"], skipped=main["skipped"], where_it_breaks=breaks)
    return timed(run)


# --------------------------------------------------------------------------- Proposition 4
def direct_alpha(pe, task, theta: np.ndarray, length: int, train_length: int,
                 tol: float = DEFAULT_TOL) -> float:
    """α_L straight from the definition.

    The dense kernel from materialized features, margins read off it, structural ties by comparing features, the
    tolerance rule of definitions.md#tolerance."""
    K = naive_kernel_matrix(pe, theta, length, train_length)                 # (L, L)
    rows, targets = task.rows_and_targets(length)
    realized = 0
    for i, t in zip(rows.tolist(), targets.tolist()):
        if i == 0:
            realized += 1
            continue
        feats = pe.pair_features(np.full(i + 1, i), np.arange(i + 1), train_length)  # (i+1, p)
        tied = any(np.array_equal(feats[j], feats[t]) for j in range(i + 1) if j != t)
        gap = K[i, t] - max(K[i, j] for j in range(i + 1) if j != t)
        if not tied and gap > tol * max(1.0, abs(K[i, t])):
            realized += 1
    return realized / rows.size if rows.size else 1.0


def duality_registry(shear_task: bool = True) -> dict:
    """α_L of every registry cell against that of its dual (``shear_task=False``: the control)."""
    checked, mismatches = [], []
    for pe_spec in REGISTRY_PES:
        pe = parse_pe(pe_spec)
        for task_spec in REGISTRY_TASKS:
            task = parse_task(task_spec)
            dpe, dtask = dual_pe(pe), (dual_task(task) if shear_task else task)
            a = compute_alpha(pe, task, TRAIN_LENGTH, LENGTHS)
            b = compute_alpha(dpe, dtask, TRAIN_LENGTH, LENGTHS)
            cell = f"{pe_spec}·{task_spec}"
            checked.append(cell)
            if a.realizable != b.realizable:
                mismatches.append(f"{cell}: realizable {a.realizable} vs dual {b.realizable}")
                continue
            if not a.realizable:
                continue
            for L in LENGTHS:
                if a.alpha(L) != b.alpha(L):
                    mismatches.append(f"{cell} L={L}: α {a.alpha(L)} vs dual {b.alpha(L)}")
            if not shear_task:
                continue
            ta, tb = a.selection.theta, b.selection.theta
            if np.linalg.norm(ta - tb) > THETA_RTOL * max(1.0, float(np.linalg.norm(ta))):
                mismatches.append(f"{cell}: θ* differs by {float(np.linalg.norm(ta - tb)):.3g}")
            for L in NAIVE_LENGTHS:
                direct = direct_alpha(dpe, dtask, tb, L, TRAIN_LENGTH)
                reference = compute_alpha(pe, task, TRAIN_LENGTH, [L]).alpha(L)
                if direct != reference:
                    mismatches.append(f"{cell} L={L}: direct α of the dual {direct} vs α {reference}")
    return {"checked": checked, "mismatches": mismatches}


@claim_check("proposition4", "registry", "duality on registry cells")
def check_duality_registry() -> CheckResult:
    """Check α_L(dual:Φ, dual:τ) = α_L(Φ, τ) on every registry cell."""
    def run() -> CheckResult:
        main = duality_registry()
        control = duality_registry(shear_task=False)
        return registry_result(
            "proposition4", "α_L(dual:Φ, dual:τ) = α_L(Φ, τ) on every registry cell, also from the dual's own features",
            main, control, agreed=f"{len(main['checked'])} cells agree at L = {LENGTHS} (direct at {NAIVE_LENGTHS})",
            control_label="PE sheared, task not", ok=not main["mismatches"], cells=main["checked"])
    return timed(run)


# --------------------------------------------------------------------------- Underdetermination
LEARNED_PE = "learned:16"
CLI_TASKS = ("position:0", "offset:1")
CLI_SAMPLES = 20


def cli_learned_document(task: str, samples: int = CLI_SAMPLES, seed: int = 0) -> dict:
    """What ``posreal alpha --pe learned:16 --task TASK --json`` prints (run as a subprocess)."""
    cmd = [sys.executable, "-m", "posreal", "alpha", "--pe", LEARNED_PE, "--task", task, "--json",
           "--samples", str(samples), "--seed", str(seed)]
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=300, check=False)
    if done.returncode != 0:
        raise RuntimeError(f"{' '.join(cmd)} exited {done.returncode}: {done.stderr.strip()}")
    return json.loads(done.stdout)


def learned_registry(copy_last_for_every_task: bool = False) -> dict:
    """learned:16's interval on every registry task against completions (a) and (b)."""
    from posreal.theory.underdetermination import learned_alpha_interval, zero_completion_formula
    checked, mismatches = [], []
    for task_spec in REGISTRY_TASKS:
        task = parse_task(task_spec)
        result = learned_alpha_interval(LEARNED_PE, task, TRAIN_LENGTH, LENGTHS, samples=CLI_SAMPLES)
        if not result.realizable:
            mismatches.append(f"{task_spec}: the trained block does not realize the task at L0")
            continue
        for L in LENGTHS:
            a = result.interval(L)
            zero, copy = a.completions["zero"].alpha, a.completions["copy_last"].alpha
            if zero != zero_completion_formula(task, L, TRAIN_LENGTH):
                mismatches.append(f"{task_spec} L={L}: zero completion {zero} vs formula (a)")
            applies = task.fixed_position is not None and task.fixed_position <= TRAIN_LENGTH - 2
            if (applies or copy_last_for_every_task) and copy != 1.0:
                mismatches.append(f"{task_spec} L={L}: copy_last completion {copy} ≠ 1")
            if not a.low <= min(zero, copy) or not a.high >= max(zero, copy):
                mismatches.append(f"{task_spec} L={L}: interval [{a.low}, {a.high}] misses a completion")
        checked.append(task_spec)
    return {"checked": checked, "mismatches": mismatches}


@claim_check("underdetermination", "registry", "learned:16 completions on registry tasks")
def check_learned_registry() -> CheckResult:
    """Check that completions (a) and (b) lie inside learned:16's reported interval."""
    def run() -> CheckResult:
        main = learned_registry()
        control = learned_registry(copy_last_for_every_task=True)
        return registry_result(
            "underdetermination",
            "learned:16 on every registry task: completions (a) and (b) inside the reported interval",
            main, control, agreed=f"{len(main['checked'])} tasks agree",
            control_label="copy_last = 1 claimed for every task", ok=not main["mismatches"], tasks=main["checked"])
    return timed(run)


@claim_check("underdetermination", "registry", "learned:16 interval as posreal alpha reports it", slow=True)
def check_learned_cli() -> CheckResult:
    """``posreal alpha --pe learned:16 --json`` reports the interval of learned_alpha_interval.

    ``posreal alpha --pe learned:16 --json`` (subprocess) reports the interval of
    learned_alpha_interval, on CLI_TASKS.  Control: the document of another seed must differ."""
    from posreal.theory.underdetermination import learned_alpha_interval

    def run() -> CheckResult:
        mismatches, control = [], []
        for task in CLI_TASKS:
            reported = cli_learned_document(task)["alpha"]
            computed = learned_alpha_interval(LEARNED_PE, task, TRAIN_LENGTH, LENGTHS, samples=CLI_SAMPLES).to_json()
            if reported != json.loads(json.dumps(computed["alpha"])):
                mismatches.append(f"{task}: posreal alpha reports {reported} vs {computed['alpha']}")
            other = learned_alpha_interval(LEARNED_PE, task, TRAIN_LENGTH, LENGTHS, seed=1,
                                           samples=CLI_SAMPLES).to_json()
            if reported != json.loads(json.dumps(other["alpha"])):
                control.append(f"{task}: seed 1 gives a different document")
        return registry_result(
            "underdetermination", "posreal alpha --pe learned:16 --json reports the computed interval (subprocess)",
            {"mismatches": mismatches}, {"mismatches": control}, agreed=f"CLI agrees on {CLI_TASKS}",
            control_label="seed 1 instead of 0", ok=not mismatches, tasks=list(CLI_TASKS))
    return timed(run)


REGISTRY_CHECKS: tuple[DeclaredCheck, ...] = declared_in(__name__)   # the @claim_check declarations above
