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
  (4) stop when the sweep finds none;
* the certificate: θ_W = Z_Wᵀλ_W with λ_W ≥ 0 and complementary slackness on W (the NNLS solution), and Zθ_W ≥ 1
  on the *full* set (the last sweep).  With λ = 0 off W these are the KKT conditions of the full program, so θ_W
  is θ*: the full program is a restriction of the one on W, whose optimum θ_W is feasible for it;
* if the program on W is infeasible, so is the full one (a Farkas certificate on W is one on the full set);
  structural ties are found first, from the feature ids, in O(L0) (:func:`~posreal.theory.encodings.ties_from_ids`).

References: Kelley 1960 (cutting planes); Joachims, Finley & Yu 2009 (cutting-plane training of structural SVMs);
Lawson & Hanson 1974, ch. 23 (least-distance programming through NNLS).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from posreal.theory.encodings import ProfileEncoding, ties_from_ids
from posreal.theory.kernels import profile_rivals
from posreal.theory.tasks import Task
from posreal.theory.training_set import row_target_indices

MAX_ROUNDS = 200        # sweeps before giving up (each adds at least one new constraint)
VIOLATION = 1e-9        # a constraint with v(a) - v(b) < 1 - VIOLATION enters the working set


@dataclass(frozen=True)
class Generated:
    """The outcome of constraint generation: the working set, the LDP solution on it, and the full sweep."""

    pairs: np.ndarray          # (w, 3) int64 (i, t, j) of the working set, in the order they entered
    constraints: np.ndarray    # (w, p) their differences f(a) - f(b)
    u: np.ndarray | None       # (w,) NNLS solution of the last round (None when no round ran)
    rho: float                 # 1 - Σu (> 0 iff the working set is feasible)
    min_slack: float           # min over the full set of v(a) - v(b) - 1 under θ_W (nan if infeasible)
    rounds: int                # sweeps run
    converged: bool            # the last sweep found no violated constraint


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


def _initial_pairs(a: np.ndarray, rows: np.ndarray) -> np.ndarray:
    """A first working set: for each distinct target index, its neighbours and the ends of its rows' keys.
    (m,), (m,) -> (w, 2) key-index pairs (a, b)."""
    last = {}
    for k, i in zip(a.tolist(), rows.tolist()):
        last[k] = i                                                          # rows ascending: the last row
    out = set()
    for k, top in last.items():
        for b in (k - 1, k + 1, 0, top):
            if 0 <= b <= top and b != k:
                out.add((k, b))
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
    by_index: dict[int, np.ndarray] = {}                                     # target index -> its rows (ascending)
    for k in np.unique(a).tolist():
        by_index[k] = rows[a == k]

    def triple(k: int, b: int) -> tuple[int, int, int]:
        """The first training pair (i, t, j) giving the key pair (a, b) = (k, b)."""
        group = by_index[k]
        i = int(group[np.searchsorted(group, b)])
        return i, target_of_row[i], int(pe.key_index(i, b))

    working: dict[tuple[int, int], int] = {}                                 # key pair -> its place in W
    order: list[tuple[int, int, int]] = []
    for k, b in _initial_pairs(a, rows).tolist():
        working[(k, b)] = len(order)
        order.append(triple(k, b))
    u, rho, min_slack = None, 0.0, float("nan")
    for rounds in range(1, MAX_ROUNDS + 1):
        keys = np.array(list(working), dtype=np.int64).reshape(-1, 2)        # (w, 2)
        z = feats[keys[:, 0]] - feats[keys[:, 1]]                            # (w, p)
        u, rho = nnls_ldp(z)
        if rho <= 0 or not np.isfinite(rho):
            return Generated(np.array(order, dtype=np.int64), z, u, rho, float("nan"), rounds, False)
        theta = z.T @ u / rho                                                # (p,)
        profile = feats @ theta                                              # (L0,) v(k)
        margins, rival = profile_rivals(profile, rows, a)                    # (m,), (m,)
        slack = margins - 1.0
        min_slack = float(slack.min(initial=0.0))
        violated = np.flatnonzero(slack < -VIOLATION)
        fresh = [(int(a[n]), int(rival[n])) for n in violated[np.argsort(slack[violated], kind="stable")]
                 if (int(a[n]), int(rival[n])) not in working]
        if not fresh:
            return Generated(np.array(order, dtype=np.int64), z, u, rho, min_slack, rounds, violated.size == 0)
        for pair in fresh[:batch]:
            if pair not in working:
                working[pair] = len(order)
                order.append(triple(*pair))
    return Generated(np.array(order, dtype=np.int64)[: z.shape[0]], z, u, rho, min_slack, MAX_ROUNDS, False)
