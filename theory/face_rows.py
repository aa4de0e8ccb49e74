"""The rows of R_L over the optimal face F_q: the α interval [α^lo, α^hi] of an ℓ∞ / ℓ1 selection
(docs, Definitions page, definitions.md#alpha-q).

Main definitions and results:

* :func:`interval_outcomes` — for every row of R_L whether *every* θ ∈ F_q realizes it and whether
  *some* θ ∈ F_q does (per row: "some" is the union over rows, not one θ for all rows at once), for a
  realizable selection of :func:`posreal.theory.faces.select_in_geometry`;
* :class:`IntervalOutcomes` — those outcomes at one length; α^lo counts ``every``, α^hi ``some``.

With F_q written as {θ₀ + N w : A_red w ≥ r} (:class:`posreal.theory.faces.Face`; a point face gives
every = some = the outcome of θ₀, in ℚ when certified), for a row i with rivals j the margin of
θ₀ + N w on rival j is affine in w: g_j(w) = g_j(0) + a_jᵀ w.
  - every θ ∈ F realizes row i  iff  for each rival j, min over F of g_j > 0
    (a row's realizing set is an intersection of open half-spaces, hence convex: checking
    each rival separately is exact);
  - some θ ∈ F realizes row i  iff  max over F of min_j g_j > 0 (one LP in (w, s)).
Cheap arguments decide most rows and rivals without an LP (:class:`_Block`): points of F already
known — θ₀, the box vertices and the optimum of every LP solved so far — (a row realized at one is
realized by some θ, a row lost at one is not realized by every θ); a box [lo, hi] ⊇ F in
w-coordinates (2d small LPs, for d ≤ :data:`posreal.theory.faces.MAX_BOX_DIRECTIONS`), which gives
g_j(w) ≥ g_j(0) + Σ_c min(a_jc lo_c, a_jc hi_c) and the matching upper bound; rivals whose
direction is a training difference z_k (margin ≥ 1 on F up to ‖v - z_k‖_q* ‖θ‖_q, see
:class:`_TrainingBound`); and the duals of earlier LPs.  The remaining (row, rival) LPs are solved
on one HiGHS model of F whose objective alone changes (:class:`posreal.theory.warm_lp.DualFaceLP`: the
LP dual, re-solved warm by dual simplex; the max-min LPs use the primal model
:class:`posreal.theory.warm_lp.FaceLP`), the rival closest to losing at the known points first, so that
a row that some optimal θ loses is usually refuted by its first LP and that LP's optimum refutes other
rows.  For "some", a rival whose margin is negative on the whole of F (its maximum: one warm LP)
refutes the row before the row's own max-min LP is tried.  A box skipped for a large d is computed once
:data:`BOX_AFTER`·d rivals have needed an LP to be proved positive
(:meth:`posreal.theory.faces.Face.ensure_box`).
Rows whose extreme margin over the face lies within :data:`LP_TOL` (HiGHS's default
feasibility tolerance) of 0 are *undecided*, never silently counted; so are the rows left when
the LP budget :data:`MAX_FACE_LPS` is spent.  The reported α^lo and α^hi count only rows *proved*
realized by every / by some optimal θ: with u undecided rows out of |R_L| the true values lie in
[α^lo, α^lo + u/|R_L|] and [α^hi, α^hi + u/|R_L|].
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

import numpy as np
from posreal.theory.encodings import Encoding, is_profile
from posreal.theory.errors import SpecError
from posreal.theory.faces import Face, GeometrySelection, box_min
from posreal.theory.transfer_operator import exact_transfer, transfer
from posreal.theory.arithmetic import Mode
from posreal.theory.geometry import Program, SelectionGeometry, linear_forms
from posreal.theory.kernels import target_keys
from posreal.theory.realization import (FAILED, REALIZED, UNDECIDED, classify_exact, exact_margins, float_margins,
                                        structural_ties)
from posreal.theory.transfer_operator import REEVALUATION, Transfer
from posreal.theory.warm_lp import LP_TOL, FaceLP, _highs_api

MAX_FACE_LPS = 20_000   # LP budget of one interval computation (warm-started LPs, about 1-3 ms each); rows left
#                         over are reported undecided
COLD_FACE_LPS = 500     # the same without HiGHS' Python API (each LP a linprog from scratch, about 50-200 ms)
SINGLE_RIVALS = 2       # rivals tried alone (max over F of one margin) before a row's max-min LP
SUSPECTS = 3            # rivals of a row tried in order of least margin seen before the rest in key order
BOX_AFTER = 4           # a skipped box is computed once BOX_AFTER·d rivals needed an LP to be proved positive
ROW_BLOCK_ENTRIES = 2 ** 21   # memory bound of one block of rival directions: rows × keys × directions


@dataclass
class IntervalOutcomes:
    """For each row of R_L: realized by every θ ∈ F_q (``every``) and by some θ ∈ F_q (``some``);
    1 yes, -1 no, 0 undecided (within tolerance).  α^lo counts ``every``, α^hi counts ``some``."""

    length: int
    rows: np.ndarray      # (m,)
    targets: np.ndarray   # (m,)
    every: np.ndarray     # (m,) int8
    some: np.ndarray      # (m,) int8
    ties: np.ndarray      # (m,) bool
    exact: bool = False   # decided in ℚ (exact point face)
    certified: bool = False   # every/some replaced by the rows of θ*_q decided by interval arithmetic (point face)

    @property
    def decided_in(self) -> Mode:
        """The arithmetic the every/some decisions were made in."""
        return Mode.EXACT if self.exact else Mode.CERTIFIED if self.certified else Mode.FLOAT

    def counts(self) -> dict[str, int]:
        return {"realized": int(np.sum(self.every == REALIZED)),
                "realized_by_some": int(np.sum(self.some == REALIZED)),
                "failed": int(np.sum(self.some == FAILED)),
                "undecided": int(np.sum((self.every == UNDECIDED) | (self.some == UNDECIDED))),
                "total": int(self.rows.size), "structural_ties": int(np.sum(self.ties))}

    @property
    def interval(self) -> tuple[float, float]:
        total = self.rows.size
        if not total:
            return (1.0, 1.0)
        return (float(np.sum(self.every == REALIZED)) / total, float(np.sum(self.some == REALIZED)) / total)

    @property
    def exact_interval(self) -> tuple[Fraction, Fraction]:
        total = self.rows.size
        if not total:
            return (Fraction(1), Fraction(1))
        return (Fraction(int(np.sum(self.every == REALIZED)), total),
                Fraction(int(np.sum(self.some == REALIZED)), total))

    def prefix(self, length: int) -> IntervalOutcomes:
        """The rows below ``length`` (tasks whose rows and outcomes do not depend on n)."""
        keep = self.rows < length
        return IntervalOutcomes(length, self.rows[keep], self.targets[keep], self.every[keep],
                                self.some[keep], self.ties[keep], self.exact)


def _classify(value: float, tol: float) -> int:
    """1 above tol, -1 below -tol, 0 within it (and for NaN: an LP without an answer)."""
    return REALIZED if value > tol else (FAILED if value < -tol else UNDECIDED)


def _rival_key(pe: Encoding, i: int, kt: int, k: int) -> tuple[int, ...]:
    return (kt, k) if is_profile(pe) else (i, kt, k)


def _max_min_over_face(face: Face, g0: np.ndarray, a: np.ndarray) -> tuple[float, np.ndarray | None]:
    """max over F of min_j (g0_j + a_jᵀ w), capped at 1: one LP in (w, s), max s s.t. a_jᵀw - s ≥ -g0_j,
    on one warm-started model of F × {s ≤ 1} whose rival rows are added for each LP.  g0 (k,), a (k, d).
    Returns the value (NaN without an optimum) and the maximizing w (a point of F)."""
    d = a.shape[1]
    if face.maxmin is None:
        face.maxmin = FaceLP(np.hstack([face.A_red, np.zeros((face.A_red.shape[0], 1))]), face.r,
                             np.concatenate([face.lo, [-np.inf]]), np.concatenate([face.hi, [1.0]]))
    obj = np.zeros(d + 1)
    obj[-1] = -1.0
    value, x = face.maxmin.minimize_with_rows(obj, np.hstack([a, -np.ones((a.shape[0], 1))]), -np.asarray(g0))
    face.lp_count += 1
    if x is None:
        return float("nan"), None           # HiGHS gave no answer: the row stays undecided
    return -float(value), np.asarray(x[:d], dtype=float)


class _TrainingBound:
    """Rival directions that are training differences: if v = ψ(i, t) - ψ(i, j) equals a row z_k of Z,
    then on F (where Zθ ≥ 1 and ‖θ‖_q ≤ T) ⟨v, θ⟩ = ⟨z_k, θ⟩ + ⟨v - z_k, θ⟩ ≥ min(1, ⟨z_k, θ₀⟩) -
    ‖v - z_k‖_q* T, q* the dual norm (ℓ1 for ℓ∞, ℓ∞ for ℓ1).  The min with ⟨z_k, θ₀⟩ covers the float
    slack of the face's description (F is written around θ₀, see :func:`posreal.theory.faces.optimal_face`).
    Rows z_k are found by their rounded values; a wrong or missed match only costs a bound, never soundness,
    as the bound is computed from v itself."""

    def __init__(self, gsel: GeometrySelection, pe: Encoding | None = None):
        assert gsel.value is not None and gsel.theta is not None   # built for realizable selections only
        z = gsel.selection.constraints                               # (m, p)
        self.pe = gsel.pe if pe is None else pe                      # the L-grid's features (a transfer's)
        self.L0, self.z = gsel.train_length, z
        self.unit = max(1.0, float(np.abs(z).max(initial=0.0)))
        self.index: dict[bytes, int] = {}
        for k in range(z.shape[0] - 1, -1, -1):
            self.index[self._key(z[k])] = k
        self.floor = np.minimum(1.0, z @ gsel.theta)                # (m,)
        geometry = SelectionGeometry.parse(gsel.geometry)
        self.order = geometry.dual_order                             # q*: ‖v - z_k‖ is measured in the dual norm
        # ‖θ‖_q ≤ value on F up to the LP's feasibility slack; a generous radius costs nothing, as it
        # multiplies ‖v - z_k‖ (rounding-sized for a true match)
        self.radius = 2.0 * max(float(gsel.value), float(np.linalg.norm(gsel.theta, ord=geometry.order))) + 1.0

    def _key(self, v: np.ndarray) -> bytes:
        return (np.round(v / self.unit, 9) + 0.0).tobytes()      # + 0.0: one key for -0.0 and 0.0

    def lower_bounds(self, rows: np.ndarray, kt: np.ndarray, k: np.ndarray) -> np.ndarray:
        """Lower bounds on min over F of the margin of (row, target key, rival key) triples: (n,) each -> (n,)
        (-inf where the direction is not a training difference)."""
        v = self.pe.index_features(rows, kt, self.L0) - self.pe.index_features(rows, k, self.L0)   # (n, p)
        out = np.full(rows.size, -np.inf)
        for n in range(rows.size):
            c = self.index.get(self._key(v[n]))
            if c is not None:
                gap = float(np.linalg.norm(v[n] - self.z[c], ord=self.order))
                out[n] = float(self.floor[c]) - gap * self.radius
        return out


class _Block:
    """Every/some status of a block of rows over the face (float), decided in order of cost:
    structural ties and rows with one key; the points of F known so far (θ₀, box vertices, LP optima:
    a realized row is realized by some θ, a lost row is not realized by every θ); the box bounds;
    training differences (:class:`_TrainingBound`); earlier LP duals; and only then one warm-started
    LP per (row, rival), the rival most likely to lose first, each LP's optimum joining the points."""

    def __init__(self, gsel, face, training, r, kt, g0, a, rival, scale, ties, every, some):
        self.gsel, self.face, self.training = gsel, face, training
        self.r, self.kt, self.g0, self.a, self.rival, self.scale = r, kt, g0, a, rival, scale
        self.every, self.some = every, some
        has = rival.any(axis=1)
        every[ties] = some[ties] = FAILED
        every[~ties & ~has] = some[~ties & ~has] = REALIZED            # one key: realized (γ = +∞)
        self.live = ~ties & has
        self.low = np.where(rival, g0, np.inf)                         # (b, L) least margin seen at points of F
        self.high = np.where(rival, g0, -np.inf)                       # (b, L) largest margin seen at points of F
        self.best = np.where(has, self.low.min(axis=1), -np.inf)       # (b,) best row margin seen at points of F
        for start in range(0, face.probes.shape[0], 16):
            self.see(face.probes[start:start + 16])

    def see(self, points: np.ndarray) -> None:
        """Margins at points of F: points (P, d)."""
        if not points.size:
            return
        m = self.g0[:, :, None] + self.a @ points.T                        # (b, L, P)
        m = np.where(self.rival[:, :, None], m, np.inf)
        np.minimum(self.low, m.min(axis=2), out=self.low)
        np.maximum(self.high, np.where(self.rival[:, :, None], m, -np.inf).max(axis=2), out=self.high)
        np.maximum(self.best, m.min(axis=1).max(axis=1), out=self.best)

    def refresh(self) -> None:
        live, scale = self.live, self.scale
        self.some[live & (self.some == UNDECIDED) & (self.best > scale)] = REALIZED
        lost = (self.some == FAILED) | (self.low.min(axis=1) < -scale)
        self.every[live & (self.every == UNDECIDED) & lost] = FAILED

    def box_bounds(self) -> np.ndarray:
        """Apply the box: rows that it shows lost by every θ get some = FAILED; returns the rivals it shows
        positive on the whole face (b, L)."""
        face, g0, a, rival, scale, some = self.face, self.g0, self.a, self.rival, self.scale, self.some
        if not face.boxed:
            return np.zeros_like(rival)
        lower = g0 + box_min(a, face.lo, face.hi)                         # (b, L)
        upper = g0 - box_min(-a, face.lo, face.hi)                        # (b, L)
        upper_row = np.where(rival, upper, np.inf).min(axis=1)            # (b,)
        some[self.live & (some == UNDECIDED) & (upper_row < -scale)] = FAILED
        self.refresh()
        return rival & (lower > scale[:, None])

    def decide(self) -> None:
        face, g0, a, rival, scale = self.face, self.g0, self.a, self.rival, self.scale
        every, live = self.every, self.live
        # some θ ∈ F realizes the row?  A point of F does it, or the box shows none does
        self.refresh()
        # every θ ∈ F realizes the row?  Rival by rival (the realizing set of a row is convex)
        done = ~rival | self.box_bounds()      # (b, L) rivals settled: positive on the whole box ...
        doubt = np.zeros_like(rival)           # ... or left within tolerance / without an LP
        self._training(done)
        proved = 0                             # rivals proved positive by an LP in this block
        while True:
            open_rows = live & (every == UNDECIDED)
            pending = open_rows[:, None] & ~done
            settled = open_rows & ~pending.any(axis=1) & ~doubt.any(axis=1)
            every[settled] = REALIZED                          # every rival positive on the whole face
            if not pending.any():
                break
            if proved >= BOX_AFTER * a.shape[2] and int(pending.sum()) > 2 * a.shape[2] and face.ensure_box():
                # many rivals have needed an LP to be proved positive, and more wait: the box (2d LPs) pays now
                self.see(face.probes[-2 * a.shape[2]:])
                done |= self.box_bounds()
                continue
            # the row most likely lost (least margin seen on a pending rival), then all its pending rivals: first
            # the ones with the least margin seen (the LP optima of the row's earlier rivals included), then, once
            # SUSPECTS of them held, in key order (neighbouring keys: nearby LP optima, short warm starts)
            n = int(np.argmin(np.where(pending, self.low, np.inf).min(axis=1)))
            points, tries = [], 0
            while every[n] == UNDECIDED and pending[n].any():
                if tries < SUSPECTS:
                    k = int(np.argmin(np.where(pending[n], self.low[n], np.inf)))
                else:
                    k = int(np.argmax(pending[n]))
                tries += 1
                pending[n, k] = False
                done[n, k] = True
                key = _rival_key(self.gsel.pe, int(self.r[n]), int(self.kt[n]), k)
                if key not in face.cache:
                    if float(g0[n, k] + face.dual_bounds(a[n, k][None, :])[0]) > scale[n]:
                        continue              # an earlier LP's dual already proves this rival's margin positive
                    if face.lp_count >= face.lp_budget:
                        doubt[n, k] = True    # LP budget spent: say so, never guess
                        continue
                    face.cache[key], w = face.minimize(a[n, k])
                    if w is not None:
                        points.append(w)
                        at_w = np.where(rival[n], g0[n] + a[n] @ w, np.inf)     # (L,) the row's margins at w
                        np.minimum(self.low[n], at_w, out=self.low[n])
                        if float(at_w.min()) < -scale[n]:
                            every[n] = FAILED     # lost at this point of F by another rival
                status = _classify(float(g0[n, k]) + face.cache[key], scale[n])
                if status == FAILED:
                    every[n] = FAILED
                elif status == UNDECIDED:
                    doubt[n, k] = True
                else:
                    proved += 1
            if points:
                self.see(np.array(points))
            self.refresh()

    def _training(self, done: np.ndarray) -> None:
        """Settle the rivals that are training differences (margin ≥ about 1 on F).  Only rivals whose least
        margin seen so far is near 1 can be one, so only those are looked up."""
        if self.training is None:
            return
        near = (self.live & (self.every == UNDECIDED))[:, None] & ~done & (self.low >= 1.0 - 1e-4)
        n, k = np.nonzero(near)
        if not n.size:
            return
        bound = self.training.lower_bounds(self.r[n], self.kt[n], k)
        at0 = self.g0[n, k]                        # the same margin at θ₀ from the kernel: same rival?
        v_at0 = (self.training.pe.index_features(self.r[n], self.kt[n], self.training.L0)
                 - self.training.pe.index_features(self.r[n], k, self.training.L0)) @ self.gsel.theta
        same = np.abs(v_at0 - at0) <= self.scale[n]
        done[n[same & (bound > self.scale[n])], k[same & (bound > self.scale[n])]] = True

    def finish_some(self) -> None:
        """The rows no point of F has shown realized.  A rival whose margin is negative on the whole of F
        proves the row lost by every θ: first the rivals that no known point lets win, through earlier
        duals, then one warm-started LP (max over F of that margin); failing that, one LP for the row
        (max over F of its least margin)."""
        face, scale, g0, a = self.face, self.scale, self.g0, self.a
        for n in np.flatnonzero(self.live & (self.some == UNDECIDED)):
            if self.best[n] > scale[n]:
                self.some[n] = REALIZED
                continue
            mask = self.rival[n]
            for k in np.argsort(np.where(mask, self.high[n], np.inf))[:SINGLE_RIVALS]:
                if float(g0[n, k] - face.dual_bounds(-a[n, k][None, :])[0]) < -scale[n]:
                    self.some[n] = FAILED
                    break
                if face.lp_count >= face.lp_budget:
                    break
                value, w = face.minimize(-a[n, k])                     # -(max over F of a_kᵀw)
                if w is not None:
                    self.see(w[None, :])
                if float(g0[n, k]) - value < -scale[n]:
                    self.some[n] = FAILED
                    break
            if self.some[n] == UNDECIDED and self.best[n] > scale[n]:
                self.some[n] = REALIZED
            if self.some[n] == UNDECIDED and face.lp_count < face.lp_budget:
                value, w = _max_min_over_face(face, g0[n, mask], a[n, mask])
                self.some[n] = _classify(value, scale[n])
                if w is not None:
                    face.add_probe(w)
                    self.see(w[None, :])
            if self.some[n] == FAILED:
                self.every[n] = FAILED


def _face_rows(gsel: GeometrySelection, length: int, tol: float, budget: int = MAX_FACE_LPS,
               op: Transfer = REEVALUATION) -> IntervalOutcomes:
    """Every/some status of each row of R_length over the face (float), with bounds first (see :class:`_Block`);
    the L-grid's features are those of the transfer ``op``."""
    task, L0, face = gsel.task, gsel.train_length, gsel.face
    pe = op.at_length(gsel.pe, length, L0)
    assert face is not None and gsel.theta is not None
    rows, targets = task.rows_and_targets(length)
    ties = structural_ties(pe, rows, targets, length, L0)
    keys = target_keys(pe.index, rows, targets)                     # (m,)
    d = face.directions.shape[1]
    base = transfer(pe, gsel.theta, length, L0)
    dirs = [transfer(pe, face.directions[:, c], length, L0) for c in range(d)]
    every = np.zeros(rows.size, dtype=np.int8)
    some = np.zeros(rows.size, dtype=np.int8)
    block = max(1, ROW_BLOCK_ENTRIES // max(1, length * max(d, 1)))
    cols = np.arange(length)
    training = _TrainingBound(gsel, pe) if gsel.selection.constraints.shape[0] else None
    face.lp_budget = max(face.lp_budget, budget)
    for start in range(0, rows.size, block):
        r, kt = rows[start:start + block], keys[start:start + block]   # (b,)
        idx = np.arange(r.size)
        v0 = np.asarray(base.row_values(r), dtype=float)                # (b, L)
        g0 = v0[idx, kt][:, None] - v0                                  # (b, L) margin on each rival
        a = np.stack([np.asarray(k.row_values(r), dtype=float) for k in dirs], axis=2) if d else \
            np.zeros((r.size, length, 0))                               # (b, L, d)
        a = a[idx, kt][:, None, :] - a                                  # (b, L, d)
        rival = (cols[None, :] <= r[:, None]) & (cols[None, :] != kt[:, None])   # (b, L)
        scale = tol * np.maximum(1.0, np.abs(v0[idx, kt]))              # (b,)
        part = slice(start, start + r.size)
        blk = _Block(gsel, face, training, r, kt, g0, a, rival, scale, ties[part], every[part], some[part])
        blk.decide()
        blk.finish_some()
    return IntervalOutcomes(length, rows, targets, every, some, ties)


def _point_rows(gsel: GeometrySelection, length: int, tol: float, budget: int = 0,
                op: Transfer = REEVALUATION) -> IntervalOutcomes:
    """A point face: every = some = the outcome of θ*_q itself (exact in ℚ when certified)."""
    task, L0 = gsel.task, gsel.train_length
    pe = op.at_length(gsel.pe, length, L0)
    rows, targets = task.rows_and_targets(length)
    ties = structural_ties(pe, rows, targets, length, L0)
    if gsel.exact_theta is not None and gsel.face is not None and gsel.face.exact_point:
        margins, _ = exact_margins(exact_transfer(pe, gsel.exact_theta, length, L0), rows, targets)
        exact_status = classify_exact(margins, ties)
        return IntervalOutcomes(length, rows, targets, exact_status, exact_status.copy(), ties, exact=True)
    assert gsel.theta is not None
    float_gaps, values = float_margins(transfer(pe, gsel.theta, length, L0), rows, targets)   # (|R_L|,)
    scale = tol * np.maximum(1.0, np.abs(values))
    status = np.where(float_gaps > scale, REALIZED, np.where(float_gaps < -scale, FAILED, UNDECIDED))
    status = np.where(ties, FAILED, status).astype(np.int8)
    return IntervalOutcomes(length, rows, targets, status, status.copy(), ties)


def interval_outcomes(gsel: GeometrySelection, lengths: Sequence[int], tol: float = LP_TOL,
                      max_lps: int | None = None, op: Transfer = REEVALUATION) -> dict[int, IntervalOutcomes]:
    """Every/some row outcomes at each length for a realizable ℓ∞ / ℓ1 selection, the L-grid's features
    being those of the transfer ``op``.  Under plain re-evaluation and for tasks whose rows do not
    depend on n, one pass at the largest length serves every length (causal rows); a length extension
    changes the features with L, so each length is its own pass (the face's cache of rival minima,
    keyed by key indices, is emptied between them).
    At most ``max_lps`` row LPs are solved (default :data:`MAX_FACE_LPS` warm-started ones, or
    :data:`COLD_FACE_LPS` without HiGHS' Python API); rows that would need more are undecided."""
    if SelectionGeometry.parse(gsel.geometry).program is not Program.LINEAR or not gsel.realizable or gsel.face is None:
        raise SpecError(f"invalid selection for the α interval; accepted: a realizable {linear_forms()} selection")
    tol = max(float(tol), LP_TOL)
    one = _point_rows if gsel.face.point else _face_rows
    lengths = sorted({int(L) for L in lengths})
    if not lengths:
        return {}
    if max_lps is None:
        max_lps = MAX_FACE_LPS if _highs_api() else COLD_FACE_LPS
    budget = gsel.face.lp_count + max_lps
    gsel.face.lp_budget = budget
    if op is REEVALUATION and not gsel.task.rows_depend_on_length:
        full = one(gsel, lengths[-1], tol, budget)
        return {L: full.prefix(L) for L in lengths}
    out = {}
    for L in lengths:
        if op is not REEVALUATION:
            gsel.face.cache.clear()
        out[L] = one(gsel, L, tol, budget, op)
    return out
