"""θ* by constraint generation (cutting planes) for profile PEs with Θ(L0²) distinct training differences.

Main definitions and results (definitions.md#selection, "Selection at scale"):

* for a profile PE (relative or column) the constraints of θ* = argmin ‖θ‖₂ s.t. Zθ ≥ 1 are
  v(a(i)) - v(b) ≥ 1 for every row i ∈ R_L0 and key index b ≤ i, b ≠ a(i), where v(k) = ⟨θ, f(k)⟩ is the
  profile (:mod:`posreal.theory.training_set`).  ``position:p`` and ``middle`` on a relative PE (``offset:c`` on
  a column PE, by the shear) have Θ(L0²) distinct ones: too many to hold at L0 = 4096 with p = 128;
* the loop: (1) θ_W, the least-distance solution on a working set W (NNLS, as in
  :mod:`posreal.theory.selection`); (2) one sweep of *every* constraint through the profile: each row's worst
  constraint is against its rival key, the prefix argmax (:func:`~posreal.theory.kernels.profile_rivals`),
  O(L0·p) for v and O(L0) for the rivals, O(L0·p) memory; (3) add the most violated rows' constraints to W;
  each NNLS runs on W's near-active part (the last support and the constraints within NEAR_ACTIVE of their
  bound) and is repeated with any constraint of W it violates, so it stays small while W grows;
  (4) stop when the sweep finds none outside W;
* the certificate: θ_W = Z_Wᵀλ_W with λ_W ≥ 0 and complementary slackness on W (the NNLS solution), and Zθ_W ≥ 1
  on the *full* set (the last sweep).  With λ = 0 off W these are the KKT conditions of the full program, so θ_W
  is θ*: the full program is a restriction of the one on W, whose optimum θ_W is feasible for it;
* if the program on W is infeasible, so is the full one (a Farkas vector on W is one on the full set);
  structural ties are found first, from the feature ids, in O(L0) (:func:`~posreal.theory.feature_ids.ties_from_ids`).

References: Kelley 1960 (cutting planes); Joachims, Finley & Yu 2009 (cutting-plane training of structural SVMs);
Lawson & Hanson 1974, ch. 23 (least-distance programming through NNLS).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from posreal.theory.encodings import ProfileEncoding
from posreal.theory.feature_ids import ties_from_ids
from posreal.theory.kernels import profile_rivals
from posreal.theory.tasks import Task
from posreal.theory.training_set import row_target_indices

MAX_ROUNDS = 200        # sweeps before giving up (each adds at least one new constraint)
VIOLATION = 1e-9        # a constraint with v(a) - v(b) < 1 - VIOLATION enters the working set
NEAR_ACTIVE = 1.0       # NNLS runs on the part of W with λ > 0 or slack at most this (the rest is checked after)


@dataclass(frozen=True)
class Generated:
    """The outcome of constraint generation: the working set, the LDP solution on it, and the full sweep."""

    pairs: np.ndarray          # (w, 3) int64 (i, t, j) of the working set, in the order they entered
    constraints: np.ndarray    # (w, p) their differences f(a) - f(b)
    u: np.ndarray | None       # (w,) NNLS solution of the last round (None when no round ran)
    rho: float                 # 1 - Σu (> 0 iff the working set is feasible)
    min_slack: float           # min over the full set of v(a) - v(b) - 1 under θ_W (nan if infeasible)
    rounds: int                # sweeps run
    converged: bool            # the last sweep found no violated constraint outside W


def first_tie(pe: ProfileEncoding, task: Task, train_length: int) -> tuple[int, int, int] | None:
    """The first training pair (i, t, j) (row-major) whose difference is zero, or None; O(L0)."""
    rows, a = row_target_indices(pe, task, train_length)
    ids = pe.feature_ids(train_length, train_length)                        # (L0,)
    tied = np.flatnonzero(ties_from_ids(ids, rows, a))
    if tied.size == 0:
        return None
    i, k = int(rows[tied[0]]), int(a[tied[0]])
    same = np.flatnonzero(ids[: i + 1] == ids[k])                           # key indices with the target's features
    keys = sorted(int(pe.key_index(i, b)) for b in same if b != k)
    t = int(pe.key_index(i, k))
    return i, t, keys[0]


def _initial_pairs(a: np.ndarray, rows: np.ndarray, size: int) -> np.ndarray:
    """A first working set of at most about ``size`` key pairs: for target indices spread evenly over the distinct
    ones, the nearest key index below (or above) and key index 0.  (m,), (m,) -> (w, 2) pairs (a, b)."""
    last: dict[int, int] = {}
    for k, i in zip(a.tolist(), rows.tolist()):
        last[k] = i                                                          # rows ascending: the last row
    indices = sorted(last)
    step = max(1, len(indices) // max(1, size // 2))
    out = set()
    for k in indices[::step]:
        top = last[k]
        for b in (k - 1, k + 1, 0):
            if 0 <= b <= top and b != k:
                out.add((k, b))
                if b != 0:
                    break
    return np.array(sorted(out), dtype=np.int64).reshape(-1, 2)


def generate(pe: ProfileEncoding, task: Task, train_length: int, nnls_ldp, batch: int | None = None) -> Generated:
    """Run the loop of the module docstring.  ``nnls_ldp(z) -> (u, ρ)`` solves the LDP on a working set
    (the selection's own solver); ``batch`` bounds the constraints added per sweep (default max(4p, 256))."""
    rows, a = row_target_indices(pe, task, train_length)                    # (m,), (m,)
    feats = pe.features(np.arange(train_length), train_length)              # (L0, p)
    p = feats.shape[1]
    batch = batch or max(4 * p, 256)
    targets = task.rows_and_targets(train_length)[1]
    target_of_row = dict(zip(rows.tolist(), targets.tolist()))
    grouped = np.argsort(a, kind="stable")                                   # rows ascending within each index
    starts = np.flatnonzero(np.r_[True, np.diff(a[grouped]) != 0])
    by_index = {int(a[grouped[lo]]): rows[grouped[lo:hi]]                    # target index -> its rows (ascending)
                for lo, hi in zip(starts, np.r_[starts[1:], grouped.size])}

    def triple(k: int, b: int) -> tuple[int, int, int]:
        """The first training pair (i, t, j) giving the key pair (a, b) = (k, b)."""
        group = by_index[k]
        i = int(group[np.searchsorted(group, b)])
        return i, target_of_row[i], int(pe.key_index(i, b))

    order: dict[tuple[int, int], tuple[int, int, int]] = {}                 # W: key pair -> (i, t, j), in order
    for k, b in _initial_pairs(a, rows, batch).tolist():
        order[(k, b)] = triple(k, b)
    last = {k: int(group[-1]) for k, group in by_index.items()}              # M(a): the last row of each index
    last_idx = np.array(list(last), dtype=np.int64)                          # (n_idx,) the target indices
    last_pos = np.searchsorted(rows, np.array(list(last.values()), dtype=np.int64))  # their last rows' places
    u, rho, min_slack = None, 0.0, float("nan")
    z = np.zeros((0, p))
    active = np.zeros(0, dtype=bool)                                         # (w,) the constraints NNLS solves on
    for rounds in range(1, MAX_ROUNDS + 1):
        keys = np.array(list(order), dtype=np.int64).reshape(-1, 2)          # (w, 2)
        z = feats[keys[:, 0]] - feats[keys[:, 1]]                            # (w, p)
        active = np.r_[active, np.ones(z.shape[0] - active.size, dtype=bool)]
        u, rho = _solve_on_working_set(z, active, nnls_ldp)
        if rho <= 0 or not np.isfinite(rho):
            return Generated(_triples(order), z, u, rho, float("nan"), rounds, False)
        theta = z.T @ u / rho                                                # (p,)
        profile = feats @ theta                                              # (L0,) v(k)
        margins, _ = profile_rivals(profile, rows, a)                        # (m,) every row's worst constraint
        min_slack = float(margins.min(initial=np.inf)) - 1.0 if rows.size else 0.0
        if min_slack >= -VIOLATION:
            return Generated(_triples(order), z, u, rho, min_slack, rounds, True)
        violated = last_idx[margins[last_pos] - 1.0 < -VIOLATION]            # target indices with a violation
        fresh = _most_violated(profile, {int(k): last[int(k)] for k in violated}, order, batch)
        if not fresh:
            # every constraint violated beyond VIOLATION is already in W: what is left is the accuracy of the
            # solution on W, which the selection's KKT check judges at its float tolerance (PRIMAL_TOL), as for
            # a selection without generation; min_slack is over the full set
            return Generated(_triples(order), z, u, rho, min_slack, rounds, True)
        active = (u > 0) | (z @ theta - 1.0 <= NEAR_ACTIVE)                  # the next NNLS: near-active part of W
        for pair in fresh:
            order[pair] = triple(*pair)
        if len(order) > working_set_cap(train_length, p):
            break
    return Generated(_triples(order)[: z.shape[0]], z, u, rho, min_slack, rounds, False)


def _solve_on_working_set(z: np.ndarray, active: np.ndarray, nnls_ldp) -> tuple[np.ndarray, float]:
    """The LDP solution on all of W, computed on its near-active part A ⊆ W: NNLS on A, then every constraint of W
    the solution violates joins A and NNLS runs again, until none does (the optimum on A that is feasible on W is
    the optimum on W, with λ = 0 off A).  z (w, p), active (w,) bool -> (u (w,), ρ)."""
    active = active.copy()
    while True:
        idx = np.flatnonzero(active)
        u_a, rho = nnls_ldp(z[idx])
        u = np.zeros(z.shape[0])
        if rho <= 0 or not np.isfinite(rho):
            u[idx] = u_a
            return u, rho
        u[idx] = _polish(z[idx], u_a, rho)
        slack = z @ (z.T @ u / rho) - 1.0                                    # (w,)
        outside = ~active & (slack < -VIOLATION)
        if not outside.any():
            return u, rho
        active |= outside


def _triples(order: dict[tuple[int, int], tuple[int, int, int]]) -> np.ndarray:
    """The training pairs (i, t, j) of W, in the order they entered: (w, 3) int64."""
    return np.array(list(order.values()), dtype=np.int64).reshape(-1, 3)


def working_set_cap(train_length: int, p: int) -> int:
    """The most constraints the working set may hold (the memory estimate plans for it): 4·L0 to start with and
    16 batches more."""
    return 4 * train_length + 16 * max(4 * p, 256)


def _most_violated(profile: np.ndarray, last: dict[int, int], working: dict[tuple[int, int], tuple[int, int, int]],
                   batch: int) -> list[tuple[int, int]]:
    """The ``batch`` most violated key pairs (a, b) not in W: b ≤ M(a), b ≠ a, v(b) > v(a) - 1 (the full sweep:
    O(L0) comparisons per distinct target index), with every target index's worst pair first."""
    worst: list[tuple[float, int, int]] = []
    rest: list[tuple[float, int, int]] = []
    need = 1 + max(0, batch - len(last))                                     # the most any one index can give
    for k, top in last.items():
        slack = profile[k] - profile[: top + 1] - 1.0                         # (M(a)+1,) slack of (a, b) for each b
        slack[k] = np.inf
        bad = np.flatnonzero(slack < -VIOLATION)
        if bad.size == 0:
            continue
        fresh = _fresh_worst(k, bad, slack, working, need)
        if fresh:
            worst.append((float(slack[fresh[0]]), k, fresh[0]))
            rest.extend((float(slack[b]), k, b) for b in fresh[1:])
    worst.sort()
    rest.sort()
    chosen = [(k, b) for _, k, b in worst[:batch]]
    chosen += [(k, b) for _, k, b in rest[: max(0, batch - len(chosen))]]
    return chosen


def _fresh_worst(k: int, bad: np.ndarray, slack: np.ndarray, working: dict, need: int) -> list[int]:
    """Up to ``need`` key indices b of ``bad`` with (k, b) not in W, most violated first (ties by b)."""
    take = min(bad.size, 4 * need + 16)
    while True:
        head = bad if take == bad.size else bad[np.argpartition(slack[bad], take - 1)[:take]]
        head = head[np.lexsort((head, slack[head]))]                         # by slack, then by b
        fresh = [int(b) for b in head if (k, int(b)) not in working][:need]
        if len(fresh) == need or take == bad.size:
            return fresh
        take = min(bad.size, 4 * take)


def _polish(z: np.ndarray, u: np.ndarray, rho: float, steps: int = 32) -> np.ndarray:
    """Refine NNLS's solution on W by an active-set iteration started from its support S (Lawson & Hanson's
    primal step, done with least squares on Z_S itself, so the conditioning is not squared as in Z_S Z_Sᵀ):
    θ_S = the least-norm solution of Z_S θ = 1, λ_S from θ_S = Z_Sᵀ λ_S; a negative λ leaves S, the most
    violated constraint of W enters it.  The result is kept only if it makes Z_W θ ≥ 1 hold more tightly with
    λ ≥ 0, so it never makes NNLS's answer worse.  Returns u (= ρ λ): (w,)."""
    active = [int(k) for k in np.flatnonzero(u > 0)]
    if not active:
        return u
    best_u, best = u, float((z @ (z.T @ u / rho)).min()) - 1.0
    ones = np.ones(z.shape[0])
    for _ in range(steps):
        zs = z[active]                                                       # (s, p)
        theta = np.linalg.lstsq(zs, ones[: len(active)], rcond=None)[0]      # (p,) least norm, Z_S θ = 1
        lam = np.linalg.lstsq(zs.T, theta, rcond=None)[0]                    # (s,) θ = Z_Sᵀ λ
        if lam.min() < 0:
            del active[int(np.argmin(lam))]
            if not active:
                break
            continue
        slack = z @ theta - 1.0                                              # (w,)
        if slack.min() > best:
            best_u = np.zeros_like(u)
            best_u[active] = lam * rho
            best = float(slack.min())
        worst = int(np.argmin(slack))
        if slack[worst] >= -VIOLATION / 100 or worst in active:
            break
        active.append(worst)
    return best_u
