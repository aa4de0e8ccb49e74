"""Property checks (hypothesis) over random kernels, each with a negative control.

Property checks (hypothesis) over random kernels, one or more per result, each with a negative
control that drops a hypothesis and must be refuted.

Main properties (definitions.md#results; the statement id is in brackets):

* :data:`theorem1_bound` [theorem1] — the finite bound on random PEs, rows, θ = ρ(u + e): actual
  attention vs 1/(1 + (m-1)exp(-ρ(γ - 2εB))) (γ > 0) and exp(-ρ(|γ| - 2εB)) (γ < 0).
  Control: 2εB replaced by εB.
* :data:`theorem2_rows` [theorem2] — random integer relative kernels with a planted strict unique
  maximizer δ*: row outcomes from :mod:`posreal.theory.realization` (float and exact) equal the deep/shallow
  formula.  Control: no planted maximizer (uniqueness dropped).
* :data:`duality_margins` [proposition4] — random dense kernels and tasks: γ(Sκ; Sτ) = γ(κ; τ) via
  theory functions and via the direct definition; random rational feature tables: margins of
  (dual:Φ, dual:τ) from :func:`posreal.theory.alpha.row_outcomes` equal those of (Φ, τ).  Control: the
  kernel is sheared but the task is not.
* :data:`underdetermination_completions` [underdetermination] — random realizing ``learned:d``
  blocks: the zero completion gives |R_L ∩ [0, L0)|/|R_L|, the copy_last completion gives 1 for
  position:p, p ≤ L0-2.  Control: p = L0-1.
* :data:`orthogonal_tie_persistence` [conjecture] — real gradient-descent runs
  (:func:`posreal.theory.training.gradient_descent`) from θ = 0: every L-grid difference v ⊥ col Zᵀ keeps
  ⟨θ_k, v⟩ = 0.  Control: start from θ_0 ∉ col Zᵀ.
* :data:`extension_copy`, :data:`extension_offset`, :data:`extension_position0`, :data:`extension_keep`
  [extension] — random smooth kernels of ``rope``/``abscol`` against the parts of the length-extension
  statement (bodies and controls in :mod:`posreal.checks.extension_checks`, strategies in
  :mod:`posreal.checks.extension_properties`).
* :data:`limit_contains_flow_accuracy` [conjecture-limit] — random small integer feature tables
  (and the designed open tie): acc_L of θ at the end of the gradient flow
  (:func:`posreal.theory.trajectory.follow`, τ = e^24) lies in α♯_L whenever the open ties' margins
  reached their limit's sign.  Control: [α_L, α_L] in place of α♯_L.

Each property is a plain function of one drawn case; :data:`PROPERTIES` pairs it with its strategy
and control.  The module-level names above are hypothesis-decorated (the active settings profile
applies), and :func:`run_property` builds a derandomized, seeded copy for ``posreal check``.  A raised
exception is a counterexample; hypothesis's falsifying example is reported.

Hypothesis's storage (its example database and caches) goes to a directory the user controls, never
to the working directory: ``HYPOTHESIS_STORAGE_DIRECTORY`` if set, else ``POSREAL_HYPOTHESIS_DIR``
(``none`` for a temporary directory removed at exit), else ``$XDG_CACHE_HOME/posreal/hypothesis``
(``~/.cache/posreal/hypothesis``) — see :func:`hypothesis_storage`.
"""

from __future__ import annotations

from collections.abc import Callable
import atexit
import os
import shutil
import tempfile

from dataclasses import dataclass
from fractions import Fraction
from functools import partial

import numpy as np
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st
from hypothesis.configuration import set_hypothesis_home_dir

from posreal.checks import extension_checks, extension_properties, geometry_checks
from posreal.checks.base import COUNTEREXAMPLE, FAILED, PASSED, CheckResult, Control, DeclaredCheck, timed
from posreal.checks.declare import declare
from posreal.theory import realization
from posreal.theory.pe_specs import dual_pe, parse_pe
from posreal.theory.tables import register_pe, unregister_pe
from posreal.theory.kernels import DenseKernel, KeyIndex, ProfileKernel
from posreal.theory.tasks import Position, Task, dual_task, parse_task
from posreal.theory.alpha import row_outcomes

STORAGE_ENV = "POSREAL_HYPOTHESIS_DIR"


def hypothesis_storage() -> str | None:
    """Where hypothesis keeps its files (None: hypothesis's own HYPOTHESIS_STORAGE_DIRECTORY applies)."""
    if os.environ.get("HYPOTHESIS_STORAGE_DIRECTORY"):
        return None
    chosen = os.environ.get(STORAGE_ENV, "")
    if chosen.lower() == "none":
        temporary = tempfile.mkdtemp(prefix="posreal-hypothesis-")
        atexit.register(shutil.rmtree, temporary, True)
        return temporary
    if chosen:
        return chosen
    cache = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(cache, "posreal", "hypothesis")


_STORAGE = hypothesis_storage()
if _STORAGE is not None:
    set_hypothesis_home_dir(_STORAGE)

FLOAT_SLACK = 1e-12   # rounding of one float softmax; the bounds themselves are exact
THEOREM1_PES = ("relbias", "relbias:3", "alibi", "rope:4", "rope:8:100", "abscol:4:10", "colbias:5", "abssin:4:50")


def _softmax(x: np.ndarray) -> np.ndarray:
    x = x - x.max()
    e = np.exp(x)
    return e / e.sum()


# --------------------------------------------------------------------------- Geometry
@st.composite
def descent_cases(draw) -> dict:
    """Random small tables, tasks and geometries for the steepest-descent face property."""
    train_length = draw(st.integers(3, 5))
    length = train_length + draw(st.integers(1, 4))
    p = draw(st.integers(2, 3))
    kind = draw(st.sampled_from(["relative", "column"]))
    table = draw(st.lists(st.lists(st.integers(-3, 3), min_size=p, max_size=p), min_size=length, max_size=length))
    c = draw(st.integers(0, 1))
    task = f"offset:{c}" if draw(st.booleans()) else f"position:{c}"
    geometry = draw(st.sampled_from(list(geometry_checks.Geometry)))
    return {"table": table, "kind": kind, "task": task, "train_length": train_length, "length": length,
            "geometry": geometry.value}



# --------------------------------------------------------------------------- Theorem 1
@st.composite
def theorem1_cases(draw) -> dict:
    """Random rows (registry, gaussian or tight) and perturbations for Theorem 1's finite bound."""
    family = draw(st.sampled_from(["registry", "gaussian", "tight"]))
    case = {"family": family, "seed": draw(st.integers(0, 2 ** 31 - 1)),
            "rho": draw(st.floats(0.01, 40.0)), "epsilon": draw(st.floats(0.0, 0.6)),
            "fraction": draw(st.floats(0.0, 1.0)), "adversarial": draw(st.booleans())}
    if family == "registry":
        case["pe"] = draw(st.sampled_from(THEOREM1_PES))
        n = draw(st.integers(2, 48))
        case["row"] = draw(st.integers(1, n - 1))
        case["target"] = draw(st.integers(0, case["row"]))
    elif family == "gaussian":
        case["keys"] = draw(st.integers(2, 8))
        case["dim"] = draw(st.integers(1, 5))
        case["target"] = draw(st.integers(0, case["keys"] - 1))
    else:   # two keys, ψ_j = -s ψ_t: the bound is (nearly) attained
        case["scale"] = draw(st.floats(0.5, 1.0))
        case["sign"] = draw(st.sampled_from([1, -1]))
    return case


def _theorem1_row(case: dict) -> tuple[np.ndarray, int, np.ndarray, np.ndarray]:
    """Features of one row (m, p), the target key, the unit direction u (p,), the error e (p,)."""
    rng = np.random.default_rng(case["seed"])
    if case["family"] == "registry":
        pe = parse_pe(case["pe"])
        i = case["row"]
        feats = pe.pair_features(np.full(i + 1, i), np.arange(i + 1), 8)   # (m, p)
        t = case["target"]
    elif case["family"] == "gaussian":
        feats = rng.normal(size=(case["keys"], case["dim"]))               # (m, p)
        t = case["target"]
    else:
        w = rng.normal(size=3)
        w /= np.linalg.norm(w)
        feats = np.stack([w, -case["scale"] * w]) * case["sign"]          # (2, 3)
        t = 0
        u = w
        e = -case["epsilon"] * case["fraction"] * w
        return feats, t, u, e
    p = feats.shape[1]
    u = np.asarray(rng.normal(size=p), dtype=float)                       # (p,)
    u /= np.linalg.norm(u)
    if case["adversarial"]:   # push against the target's closest rival
        diffs = feats[t] - np.delete(feats, t, axis=0)                      # (m-1, p)
        worst = diffs[np.argmin(diffs @ u)]
        direction = -worst / max(np.linalg.norm(worst), 1e-300)
    else:
        direction = rng.normal(size=p)
        direction /= np.linalg.norm(direction)
    e = case["epsilon"] * case["fraction"] * direction
    return feats, t, u, e


def theorem1_body(case: dict, constant: float = 2.0) -> None:
    """Theorem 1's finite bound on one random row (``constant``: the 2 of 2εB)."""
    feats, t, u, e = _theorem1_row(case)
    m = feats.shape[0]
    rho, eps = case["rho"], case["epsilon"]
    if feats.shape[1] == 0:
        return
    B = float(np.max(np.linalg.norm(feats, axis=1)))
    gamma = float(np.min(np.delete(feats[t] - feats, t, axis=0) @ u))     # γ_i(u)
    attention = float(_softmax(feats @ (rho * (u + e)))[t])
    with np.errstate(over="ignore"):
        if gamma > 0:
            bound = 1.0 / (1.0 + (m - 1) * np.exp(-rho * (gamma - constant * eps * B)))
            assert attention >= bound - FLOAT_SLACK, (
                f"γ = {gamma:.6g} > 0 but attention {attention:.17g} < bound {bound:.17g}")
        elif gamma < 0:
            bound = float(np.exp(-rho * (abs(gamma) - constant * eps * B)))
            assert attention <= bound + FLOAT_SLACK, (
                f"γ = {gamma:.6g} < 0 but attention {attention:.17g} > bound {bound:.17g}")


# --------------------------------------------------------------------------- Theorem 2
@st.composite
def theorem2_cases(draw) -> dict:
    """Random relative profiles with a planted strict maximizer for Theorem 2."""
    N = draw(st.integers(1, 24))
    values = draw(st.lists(st.integers(-3, 3), min_size=N, max_size=N))
    return {"values": values, "peak": draw(st.integers(0, N - 1)), "boost": draw(st.integers(0, 2)),
            "plant": True}


def theorem2_formula(r: list[int], i: int, t: int) -> bool:
    """Theorem 2's prediction for row i, target t, given a relative kernel r.

    The kernel r has a strict unique global maximizer (taken as the first argmax when the hypothesis is dropped)."""
    delta_star = int(np.argmax(r))
    if i >= delta_star:
        return t == i - delta_star
    prefix = r[: i + 1]
    best = max(prefix)
    return prefix.count(best) == 1 and prefix.index(best) == i - t


def theorem2_body(case: dict) -> None:
    """Theorem 2's row outcomes on every length of one random profile."""
    r = list(case["values"])
    if case["plant"]:
        r[case["peak"]] = max(r) + 1 + case["boost"]
    N = len(r)
    for n in range(1, N + 1):
        rows = np.repeat(np.arange(n), np.arange(1, n + 1))                 # every (i, t), t ≤ i
        targets = np.concatenate([np.arange(i + 1) for i in range(n)])      # (n(n+1)/2,)
        kernel = ProfileKernel(n, KeyIndex.OFFSET, np.asarray(r[:n], dtype=float))
        margins, tv = realization.float_margins(kernel, rows, targets)
        status = realization.classify_float(margins, tv, np.zeros(rows.size, dtype=bool))
        exact = ProfileKernel(n, KeyIndex.OFFSET, r[:n])
        emargins, _ = realization.exact_margins(exact, rows, targets)
        estatus = realization.classify_exact(emargins, np.zeros(rows.size, dtype=bool))
        for i, t, s, es in zip(rows.tolist(), targets.tolist(), status.tolist(), estatus.tolist()):
            predicted = theorem2_formula(r, i, t)
            assert (s == realization.REALIZED) == predicted, (
                f"r = {r}, n = {n}, row {i}, target {t}: float status {s}, Theorem 2 predicts {predicted}")
            assert (es == realization.REALIZED) == predicted, (
                f"r = {r}, n = {n}, row {i}, target {t}: exact status {es}, Theorem 2 predicts {predicted}")


def theorem2_control(case: dict) -> None:
    """Theorem 2's body without the planted maximizer."""
    theorem2_body({**case, "plant": False})


# --------------------------------------------------------------------------- Proposition 4
@dataclass(frozen=True)
class TableTask(Task):
    """A task given by explicit rows and targets on one grid (property tests only)."""

    length: int
    row_list: tuple[int, ...]
    target_list: tuple[int, ...]

    def rows_and_targets(self, length):
        """The rows and targets at ``length`` (none at any other length)."""
        if length != self.length:
            return np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64)
        return np.array(self.row_list, dtype=np.int64), np.array(self.target_list, dtype=np.int64)

    task_class = "growing"

    def __str__(self):
        return f"table-task({self.length})"


@st.composite
def duality_cases(draw) -> dict:
    """Random kernels, rational feature tables, rows and targets for Proposition 4's duality."""
    L = draw(st.integers(1, 10))
    rows = sorted(draw(st.sets(st.integers(0, L - 1), min_size=1, max_size=L)))
    targets = [draw(st.integers(0, i)) for i in rows]
    p = draw(st.integers(1, 3))
    return {"length": L, "rows": rows, "targets": targets,
            "kernel": draw(st.lists(st.integers(-4, 4), min_size=L * L, max_size=L * L)),
            "table": draw(st.lists(st.integers(-2, 2), min_size=L * L * p, max_size=L * L * p)),
            "dim": p, "theta": draw(st.lists(st.integers(-3, 3), min_size=p, max_size=p)),
            "shear_task": True}


def direct_margins(K: np.ndarray, rows, targets) -> list[float]:
    """γ_i straight from the definition on a dense causal kernel K (L, L)."""
    out = []
    for i, t in zip(rows, targets):
        others = [K[i, j] for j in range(i + 1) if j != t]
        out.append(float("inf") if not others else float(K[i, t] - max(others)))
    return out


def duality_body(case: dict) -> None:
    """Proposition 4 on one random case: γ(Sκ; Sτ) = γ(κ; τ), by the theory functions and directly."""
    L, rows, targets = case["length"], case["rows"], case["targets"]
    K = np.array(case["kernel"], dtype=float).reshape(L, L)                 # κ(i, j), j ≤ i used
    sheared_targets = [i - t for i, t in zip(rows, targets)] if case["shear_task"] else list(targets)
    # direct definition: (Sκ)(i, j) = κ(i, i - j)
    SK = np.full((L, L), np.nan)
    for i in range(L):
        for j in range(i + 1):
            SK[i, j] = K[i, i - j]
    SSK = np.full((L, L), np.nan)
    for i in range(L):
        for j in range(i + 1):
            SSK[i, j] = SK[i, i - j]
    low = np.tril_indices(L)
    assert np.array_equal(SSK[low], K[low]), "the shear is not an involution"
    assert direct_margins(SK, rows, sheared_targets) == direct_margins(K, rows, targets), (
        f"direct margins differ: kernel {K.tolist()}, rows {rows}, targets {targets}")
    # theory functions: a dense kernel in position index and its flipped (sheared) view
    r, t = np.array(rows), np.array(targets)
    kernel = DenseKernel(L, KeyIndex.POSITION, K)
    m1, _ = realization.float_margins(kernel, r, t)
    m2, _ = realization.float_margins(kernel.flipped(), r, np.array(sheared_targets))
    assert np.array_equal(m1, m2), f"theory margins differ: {m1.tolist()} vs {m2.tolist()}"
    # a rational feature table through the whole pipeline (features, shear, transfer, margins)
    p = case["dim"]
    table = np.array(case["table"], dtype=np.int64).reshape(L, L, p).tolist()
    name = "hypothesis_duality_table"
    pe = register_pe(name, table, kind="general")
    try:
        task = TableTask(L, tuple(rows), tuple(targets))
        sheared = dual_task(task) if case["shear_task"] else task
        q = [Fraction(int(x)) for x in case["theta"]]
        a = row_outcomes(pe, task, q, L, L, mode="exact")
        b = row_outcomes(dual_pe(pe), sheared, q, L, L, mode="exact")
        assert a.margins == b.margins and np.array_equal(a.status, b.status), (
            f"pipeline margins differ: {a.margins} vs {b.margins}")
    finally:
        unregister_pe(name)


def duality_control(case: dict) -> None:
    """The duality body with the task not sheared."""
    duality_body({**case, "shear_task": False})


# --------------------------------------------------------------------------- Underdetermination
@st.composite
def underdetermination_cases(draw) -> dict:
    """Random trained or constructed blocks, lengths and positions for Underdetermination."""
    L0 = draw(st.integers(3, 10))
    return {"train_length": L0, "d": draw(st.integers(L0, L0 + 4)), "p": draw(st.integers(0, L0 - 2)),
            "length": draw(st.integers(L0 + 1, 3 * L0)), "seed": draw(st.integers(0, 2 ** 31 - 1)),
            "trained": draw(st.booleans())}


def underdetermination_body(case: dict) -> None:
    """Underdetermination's completions (a) and (b) on one random block."""
    from posreal.theory.underdetermination import (completion_alpha, construct_block, train_block,
                                           zero_completion_formula)
    L0, d, p, L = case["train_length"], case["d"], case["p"], case["length"]
    task = Position(p)
    block = (train_block(task, d, L0, case["seed"], steps=2000) if case["trained"]
             else construct_block(task, d, L0, case["seed"]))
    if block.train_margins().min() <= 0:
        return   # the block does not realize τ at L0: the hypothesis of the result fails, nothing to check
    zero = completion_alpha(block, L, "zero")
    assert zero.alpha == zero_completion_formula(task, L, L0) == (L0 - p) / (L - p), (
        f"zero completion: α = {zero.alpha} but |R_L ∩ [0, L0)|/|R_L| = {(L0 - p) / (L - p)}")
    copy = completion_alpha(block, L, "copy_last")
    assert copy.alpha == 1.0, f"copy_last completion: α = {copy.alpha} for position:{p}, L0 = {L0}"


def underdetermination_control(case: dict) -> None:
    """The underdetermination body with p = L0 - 1."""
    underdetermination_body({**case, "p": case["train_length"] - 1})


# --------------------------------------------------------------------------- Conjecture, orthogonal case
@st.composite
def tie_cases(draw) -> dict:
    """Random PE families, tasks and step counts for the orthogonal tie's persistence."""
    L0 = draw(st.integers(3, 6))
    return {"family": draw(st.sampled_from(["relbias", "colbias", "table"])), "train_length": L0,
            "extra": draw(st.integers(1, 4)), "task": draw(st.sampled_from(["offset:1", "position:0", "half", "copy"])),
            "seed": draw(st.integers(0, 2 ** 31 - 1)), "steps": draw(st.integers(5, 120)), "start_outside": False}


def _tie_pe(case: dict):
    L0, extra = case["train_length"], case["extra"]
    L = L0 + extra + 2
    if case["family"] in ("relbias", "colbias"):   # buckets beyond L0-1 are never trained
        return parse_pe(f"{case['family']}:{L0 + extra}"), L, None
    rng = np.random.default_rng(case["seed"])
    p1, p2 = 3, extra
    table = np.zeros((L, L, p1 + p2), dtype=np.int64)                       # (L, L, p)
    for i in range(L):
        if i < L0:
            table[i, : i + 1, :p1] = rng.integers(-2, 3, size=(i + 1, p1))
        else:   # new rows: the trained coordinates are row-constant, the rest are new directions
            table[i, : i + 1, :p1] = rng.integers(-2, 3, size=p1)
            table[i, : i + 1, p1:] = rng.integers(-2, 3, size=(i + 1, p2))
    name = "hypothesis_tie_table"
    return register_pe(name, table.tolist(), kind="general"), L, name


def tie_body(case: dict) -> None:
    """Gradient descent from θ = 0 keeps ⟨θ_k, v⟩ = 0 for every L-grid difference v ⊥ col Zᵀ (one random case)."""
    from posreal.theory.selection import difference_vectors, training_pairs
    from posreal.theory.training import gradient_descent
    L0 = case["train_length"]
    pe, L, name = _tie_pe(case)
    try:
        task = parse_task(case["task"])
        pairs = training_pairs(task, L0)
        if pairs.shape[0] == 0:
            return
        Z = difference_vectors(pe, pairs, L0)                               # (m, p)
        _, s, vt = np.linalg.svd(Z)
        rank = int(np.sum(s > 1e-10 * max(1.0, s.max(initial=0.0))))
        null = vt[rank:]                                                    # (p - rank, p), ⊥ col Zᵀ
        theta0 = None
        if case["start_outside"]:
            if null.shape[0] == 0:
                return
            theta0 = null.sum(axis=0)
        traj = gradient_descent(pe, task, L0, steps=case["steps"], record=8, theta0=theta0)
        rows, targets = task.rows_and_targets(L)
        ties = []
        for i, t in zip(rows.tolist(), targets.tolist()):
            keys = np.arange(i + 1)
            F = pe.pair_features(np.full(i + 1, i), keys, L0)               # (i+1, p)
            for j in range(i + 1):
                v = F[t] - F[j]
                scale = 1e-10 * np.linalg.norm(v) * max(1.0, np.abs(Z).max(initial=0))
                if j != t and np.any(v != 0) and np.linalg.norm(Z @ v) <= scale:
                    ties.append(v)
        if not ties:
            return
        V = np.array(ties)                                                  # (k, p)
        for step, theta in zip(traj.steps.tolist(), traj.thetas):
            drift = np.abs(V @ theta)
            scale = 1e-9 * max(1.0, float(np.linalg.norm(theta))) * np.linalg.norm(V, axis=1)
            assert np.all(drift <= scale), (
                f"{case['family']}·{case['task']} L0 = {L0}: ⟨θ_k, v⟩ = {float(drift.max()):.3g} ≠ 0 at step {step} "
                f"for a tie direction v ⊥ col Zᵀ")
    finally:
        if name:
            unregister_pe(name)


def tie_control(case: dict) -> None:
    """The tie body started outside col Zᵀ."""
    tie_body({**case, "start_outside": True})


# --------------------------------------------------------------------------- table and runner
# --------------------------------------------------------------------------- Conjecture′
LIMIT_TASKS = ("offset:0", "offset:1", "position:0", "position:1", "copy", "middle", "reverse", "half")
LIMIT_DESIGNED = {"kind": "relative", "rows": [[0, 0, 0], [-1, 0, 0], [0, -1, 0], [-1, 1, -1]],
                  "task": "offset:0", "train_length": 3, "length": 4}   # the designed open tie (LOG2_TIE)
LIMIT_TABLE = "hypothesis_limit_table"


@st.composite
def limit_cases(draw) -> dict:
    """Random small integer feature tables (entries in {-1, 0, 1}), plus the designed open tie."""
    if draw(st.integers(0, 9)) == 0:
        return dict(LIMIT_DESIGNED)
    kind = draw(st.sampled_from(["relative", "column", "general"]))
    N, p = draw(st.integers(3, 6)), draw(st.integers(1, 3))
    entry = st.integers(-1, 1)
    if kind == "general":
        rows = [[[draw(entry) if j <= i else 0 for _ in range(p)] for j in range(N)] for i in range(N)]
    else:
        rows = [[draw(entry) for _ in range(p)] for _ in range(N)]
    L0 = draw(st.integers(2, N - 1))
    return {"kind": kind, "rows": rows, "task": draw(st.sampled_from(LIMIT_TASKS)), "train_length": L0,
            "length": draw(st.integers(L0 + 1, N))}


def limit_body(case: dict, use_alpha: bool = False) -> None:
    """lim acc_L ∈ α♯_L: the accuracy at the end of the gradient flow lies in [lo, hi].

    lim acc_L ∈ α♯_L: acc_L of θ at the end of the gradient flow (τ = e^24, integrated in h = θ - θ* τ and
    σ = log τ) lies in [lo, hi], whenever every open tie's margin has reached its limit's sign there (a
    settled value, or a stable slope with the margin already of the slope's sign).  ``use_alpha`` (the
    control) puts [α_L, α_L] in place of α♯_L: the second-order term dropped."""
    from posreal.theory.limit import LimitVerdict, limit_interval
    from posreal.theory.selection import select
    from posreal.theory.ties import classify
    from posreal.theory.trajectory import follow, judge, pair_data
    register_pe(LIMIT_TABLE, case["rows"], case["kind"])
    try:
        pe, task = parse_pe(LIMIT_TABLE), parse_task(case["task"])
        L0, L = case["train_length"], case["length"]
        if task.rows(L0).size == 0 or task.rows(L).size == 0:
            return
        sel = select(pe, task, L0)
        if not sel.realizable or sel.exact_theta is None:
            return
        sharp = limit_interval(pe, task, sel, L)
        cls = classify(pe, task, sel, L)
        directions = [[float(x) for x in r.direction] for row in cls.open_rows for r in row.rivals]
        data = pair_data(pe, task, L0, list(sel.exact_theta))
        path = follow(data)
        if not path.success:
            return
        won = 0
        if directions:
            values = path.hs @ np.asarray(directions, dtype=float).T                          # (K, n_dirs)
            for n in range(values.shape[1]):
                verdict, basis, *_ = judge(path.sigmas, values[:, n], 0.0, True)
                if verdict is LimitVerdict.UNDECIDED or (values[-1, n] > 0) != (verdict is LimitVerdict.WON):
                    return                                                      # the limit is not observed
            # at τ = e^24 every row with a non-zero θ* margin is decided by it (exactly, from cls); a tied row
            # is realized iff every tied rival's margin ⟨θ, v⟩ = ⟨h, v⟩ is positive
            last = iter(values[-1])
            won = sum(all(next(last) > 0 for _ in row.rivals) for row in cls.open_rows)
        acc = Fraction(cls.realized + won, cls.total) if cls.total else Fraction(1)
        low, high = (cls.alpha, cls.alpha) if use_alpha else (sharp.low, sharp.high)
        assert low <= acc <= high, (f"acc_L(θ(σ = {path.sigmas[-1]:g})) = {acc} outside [{low}, {high}] "
                                    f"({case['kind']} table {case['rows']}, {case['task']}, L0 = {L0}, L = {L})")
    finally:
        unregister_pe(LIMIT_TABLE)


def limit_control(case: dict) -> None:
    """The limit body against α_L in place of α♯_L."""
    limit_body(case, use_alpha=True)


@dataclass(frozen=True)
class Property:
    """One property check: its claim, strategy, body and negative control."""

    name: str
    claim: str
    description: str
    strategy: st.SearchStrategy
    body: Callable[[dict], None]
    control: Callable[[dict], None]
    control_description: str
    slow: bool = False   # skipped by `posreal check --skip-slow`; pytest runs it under -m slow


PROPERTIES: dict[str, Property] = {p.name: p for p in (
    Property("theorem1_bound", "theorem1", "finite bound holds for random PEs, rows, ρ, ε (actual attention)",
             theorem1_cases(), theorem1_body, lambda c: theorem1_body(c, constant=1.0), "2εB replaced by εB"),
    Property("theorem2_rows", "theorem2", "row outcomes of random relative kernels with a planted unique maximizer "
             "match the deep/shallow formula (float and exact)", theorem2_cases(), theorem2_body, theorem2_control,
             "no planted maximizer (uniqueness dropped)"),
    Property("duality_margins", "proposition4", "γ(Sκ; Sτ) = γ(κ; τ) on random kernels, tasks and rational "
             "feature tables (theory functions and direct definition)", duality_cases(), duality_body,
             duality_control, "kernel sheared, task not"),
    Property("underdetermination_completions", "underdetermination", "random realizing learned:d blocks: "
             "zero completion gives |R_L ∩ [0,L0)|/|R_L|, copy_last gives 1 (position:p, p ≤ L0-2)",
             underdetermination_cases(), underdetermination_body, underdetermination_control, "p = L0 - 1"),
    Property("steepest_descent_face", "geometry", "steepest descent in ‖·‖_q (GD, sign descent, coordinate "
             "descent) from θ = 0 on random integer tables: the late drift θ_4t - θ_t along θ*_q, rows beyond "
             "the margin gap signed as θ*_q decides them", descent_cases(), geometry_checks.descent_body,
             geometry_checks.descent_control, "the wrong geometry's face",
             slow=True),   # about a minute of CPU: up to 640 000 descent steps per example while a row converges
    Property("orthogonal_tie_persistence", "conjecture", "gradient descent from θ = 0 keeps ⟨θ_k, v⟩ = 0 for "
             "every L-grid difference v ⊥ col Zᵀ", tie_cases(), tie_body, tie_control, "θ_0 outside col Zᵀ"),
    Property("limit_contains_flow_accuracy", "conjecture-limit", "random small integer tables: acc_L of the "
             "gradient flow at τ = e^24 lies in α♯_L (when the open ties' margins reached their limit's sign)",
             limit_cases(), limit_body, limit_control, "α_L in place of α♯_L (second-order term dropped)"),
    Property("extension_copy", "extension", "PI, copy: random kernels with their strict maximum at L0/2 keep every "
             "row at even L; symmetric ones tie every row past ⌊L/2⌋ at odd L", extension_properties.copy_cases(),
             extension_checks.copy_body, extension_checks.copy_control,
             "the maximum moved between two integers (still realized at L0)"),
    Property("extension_offset", "extension", "PI, fixed target index c ≥ 1: beyond L_c = (c+1)L0·M2/|V'(0)| only "
             "row c survives, iff V'(0) > 0 (random and peaked kernels)", extension_properties.offset_cases(),
             extension_checks.offset_body, extension_checks.offset_control,
             "L just above L0 (threshold dropped), kernels realizing the task at L0"),
    Property("extension_position0", "extension", "PI, position:0: a kernel strictly increasing on [0, L0] keeps every "
             "row at every L", extension_properties.position0_cases(), extension_checks.position0_body,
             extension_checks.position0_control, "increasing on the integers only (a wiggle on ω_0 = 1)"),
    Property("extension_keep", "extension", "NTK, YaRN, PI, factors: the code's λ_f equal the formulas and split as "
             "stated; θ on λ_f = 1 (λ_f = s) frequencies gives T_L's (PI's) rows; rows i < L0 with 2iΔ_σ < γ_i stay "
             "realized", extension_properties.keep_cases(), extension_checks.keep_body,
             extension_checks.keep_control, "the bound 2iΔ_σ weakened to iΔ_σ/8"),
)}


def hypothesis_test(body: Callable[[dict], None], strategy: st.SearchStrategy) -> Callable[[], None]:
    """The hypothesis-decorated form of a property body (the active settings profile applies)."""
    def check(case):
        body(case)
    check.__name__ = getattr(body, "__name__", "property")
    return given(case=strategy)(check)


theorem1_bound = hypothesis_test(theorem1_body, theorem1_cases())
theorem2_rows = hypothesis_test(theorem2_body, theorem2_cases())
duality_margins = hypothesis_test(duality_body, duality_cases())
underdetermination_completions = hypothesis_test(underdetermination_body, underdetermination_cases())
orthogonal_tie_persistence = hypothesis_test(tie_body, tie_cases())
limit_contains_flow_accuracy = hypothesis_test(limit_body, limit_cases())
steepest_descent_face = hypothesis_test(geometry_checks.descent_body, descent_cases())
extension_copy = hypothesis_test(extension_checks.copy_body, extension_properties.copy_cases())
extension_offset = hypothesis_test(extension_checks.offset_body, extension_properties.offset_cases())
extension_position0 = hypothesis_test(extension_checks.position0_body, extension_properties.position0_cases())
extension_keep = hypothesis_test(extension_checks.keep_body, extension_properties.keep_cases())


FALSIFIED = "falsified"   # report prefix of a property whose own assertion failed on an example


def _search(body, strategy, max_examples: int, shrink: bool = True) -> tuple[bool, str]:
    """Run a property under fixed settings; (True, "") if no example fails, else (False, the report).
    ``shrink=False`` reports the first failing example as found: a negative control only has to fail,
    and shrinking its example took minutes (hypothesis gave up after five on one control) for nothing."""
    phases = list(Phase) if shrink else [p for p in Phase if p not in (Phase.shrink, Phase.explain)]
    test = settings(max_examples=max_examples, deadline=None, database=None, derandomize=True, phases=phases,
                    suppress_health_check=list(HealthCheck))(hypothesis_test(body, strategy))
    try:
        test()
    except Exception as exc:  # noqa: BLE001 — any raised exception is a counterexample
        # hypothesis re-raises the property's own exception with the example in __notes__ (whose
        # wording changes between hypothesis versions); an AssertionError is a falsified property,
        # anything else a crash of the property's code
        notes = " ".join(" ".join(getattr(exc, "__notes__", [])).split())
        kind = FALSIFIED if isinstance(exc, AssertionError) else f"crashed ({type(exc).__name__})"
        return False, f"{kind}: {exc} | {notes}"
    return True, ""


def run_property(name: str, max_examples: int = 60, control_examples: int = 200) -> CheckResult:
    """Run one property and its negative control (derandomized: the same examples every run)."""
    prop = PROPERTIES[name]

    def run() -> CheckResult:
        ok, report = _search(prop.body, prop.strategy, max_examples)
        control_ok, control_report = _search(prop.control, prop.strategy, control_examples, shrink=False)
        falsified = report.startswith(FALSIFIED + ":")
        # only a falsified assertion counts as the control's counterexample: a control whose code
        # crashed has shown nothing about the dropped hypothesis
        control_falsified = control_report.startswith(FALSIFIED + ":")
        if ok:
            detail = f"{max_examples} examples, no counterexample"
        else:
            detail = f"counterexample: {report}" if falsified else f"property crashed: {report}"
        if control_ok:
            control, said = Control.NO_COUNTEREXAMPLE, f"no counterexample in {control_examples} examples"
        elif control_falsified:
            control, said = Control.COUNTEREXAMPLE, f"counterexample found: {control_report}"
        else:
            control, said = Control.CRASHED, f"control crashed: {control_report}"
        detail += f"; control ({prop.control_description}): {said}"
        return CheckResult(claim=prop.claim, name=prop.description, method="property",
                           verdict=PASSED if ok else (COUNTEREXAMPLE if falsified else FAILED),
                           negative_control=control,
                           detail=detail, data={"property": name, "examples": max_examples,
                                                "control": prop.control_description})
    return timed(run)


def property_checks() -> list[DeclaredCheck]:
    """One registered check per property (labelled by its name), for the runner."""
    return [DeclaredCheck(prop.claim, "property", name, partial(run_property, name), slow=prop.slow)
            for name, prop in PROPERTIES.items()]


declare(__name__, *property_checks())   # each Property names its claim where it is defined (PROPERTIES above)


__all__ = ["PROPERTIES", "Property", "run_property", "property_checks", "theorem1_bound", "theorem2_rows",
           "duality_margins", "underdetermination_completions", "orthogonal_tie_persistence",
           "limit_contains_flow_accuracy", "steepest_descent_face", "extension_copy", "extension_offset",
           "extension_position0", "extension_keep"]
