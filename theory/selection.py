"""The selected parameters θ*: the hard-margin (multiclass) SVM of the training differences.

Main definitions and results (definitions.md#selection):

* training differences z = ψ(i, t) - ψ(i, j) for every scored row i of the L0-grid and every
  other key j ≤ i; Z stacks the distinct ones: (m, p);
* θ* = argmin ‖θ‖₂ subject to Zθ ≥ 1 — unique when it exists, and it exists iff the PE
  realizes the task at L0 (a zero row of Z is a structural tie; otherwise infeasibility has a
  Farkas vector u ≥ 0, Zᵀu = 0, Σu = 1);
* computed as least-distance programming through NNLS (Lawson & Hanson 1974, ch. 23):
  minimize ‖E u - e‖ over u ≥ 0 with E = [Zᵀ; 1ᵀ]; then ρ = 1 - Σu > 0 iff feasible, and
  θ* = Zᵀu / ρ with KKT multipliers λ = u / ρ;
* the KKT evidence θ* = Zᵀλ, λ ≥ 0, Zθ* ≥ 1, λ·(Zθ* - 1) = 0 is checked — in ℚ for
  rational PEs (an exact active-set refinement of the float support), to tolerance otherwise;
  a float Farkas vector counts only if ‖Zᵀu‖∞ is small against Σ u_k ‖z_k‖∞;
* exact mode answers only what ℚ confirms: without an exact KKT point or Farkas vector from the float
  start, a Farkas vector is sought again on the rows scaled by powers of two, then θ* or a Farkas
  certificate by the exact active-set method in ℚ alone (:mod:`posreal.theory.exact_qp`, within the work
  budget, checked by the same exact evidence), then a float θ with Zθ > 0 in ℚ proves realizability;
  otherwise the cell is undecided;
* a fixed bias with a positive scale (``Encoding.positive_scale``: p = 1, θ > 0) is realizable iff the
  unconstrained θ* is positive (:func:`_positive_scale`);
* the result, :class:`Selection`, has one of three :class:`SelectionStatus` answers; exactly the
  realizable ones carry an :class:`Optimum` (θ*, λ), so ``Selection.theta`` is θ* there and raises
  elsewhere; :attr:`Selection.exact_optimum` gives θ*, λ and Z in ℚ when they were certified.

Why θ*: gradient descent on the positional cross-entropy converges in direction to θ* on
separable data (Soudry et al. 2018, JMLR; Ji & Telgarsky 2018).
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from enum import StrEnum
from fractions import Fraction

import numpy as np

from posreal.theory import exact_qp
from posreal.theory.encodings import Encoding, irrational, is_profile
from posreal.theory.modes import Mode, parse_mode
from posreal.theory.pe_specs import parse_pe
from posreal.theory.errors import PosrealError, SpecError, bad_value
from posreal.theory.rational import common_denominator, integer_form, pivot_rows, solve
from posreal.theory.rational import row_products as _exact_products, unit_scaled as _unit_scaled
from posreal.runtime.resources import max_work, require
from posreal.runtime.scipy_lazy import linprog, nnls   # scipy loads on the first solve
from posreal.theory.tasks import Task, parse_task
from posreal.theory.cutting_planes import first_tie, generate, working_set_cap
from posreal.theory.training_set import KeyPairs, dedupe_exact, dedupe_float, distinct_pair_count, profile_key_pairs

FEASIBILITY_RHO = 1e-14   # ρ = 1/(1 + ‖θ*‖²) below this is treated as infeasible (‖θ*‖ > 1e7)
PRIMAL_TOL = 1e-6          # float KKT tolerances (relative)
MAX_REFINEMENTS = 400
FARKAS_REL_TOL = 1e-6      # a float Farkas u is accepted if ‖Zᵀu‖∞ ≤ this · Σ u_k ‖z_k‖∞ (10× HiGHS' 1e-7)
GENERATION_ENTRIES = 2 ** 22   # distinct differences × p above this: θ* by constraint generation (float, profile PEs)


def training_pairs(task: Task, train_length: int) -> np.ndarray:
    """Every (i, t, j) with i ∈ R_L0, j ≤ i, j ≠ t: (m, 3) int64, ordered by row then key."""
    rows, targets = task.rows_and_targets(train_length)
    counts = rows  # row i has i other keys
    i = np.repeat(rows, counts)
    t = np.repeat(targets, counts)
    starts = np.repeat(np.cumsum(counts) - counts, counts)
    j = np.arange(i.size) - starts                  # 0..i-1 per row
    j = j + (j >= t)                                # skip the target
    return np.stack([i, t, j], axis=1)


def difference_vectors(pe: Encoding, pairs: np.ndarray, train_length: int) -> np.ndarray:
    """z = ψ(i, t) - ψ(i, j) for each pair, float: (m, 3) -> (m, p)."""
    i, t, j = pairs.T
    return pe.pair_features(i, t, train_length) - pe.pair_features(i, j, train_length)


def exact_difference_vectors(pe: Encoding, pairs: np.ndarray, train_length: int) -> list[tuple]:
    """The same differences in ℚ for a rational PE."""
    i, t, j = (pairs[:, c].tolist() for c in range(3))
    ki = [pe.key_index(a, b) for a, b in zip(i, t)]
    kj = [pe.key_index(a, b) for a, b in zip(i, j)]
    ft = pe.exact_index_features(i, ki, train_length)
    fj = pe.exact_index_features(i, kj, train_length)
    return [tuple(a - b for a, b in zip(x, y)) for x, y in zip(ft, fj)]


class SelectionStatus(StrEnum):
    """The three answers of a selection, never two (JSON: the value strings)."""

    REALIZABLE = "realizable"
    NOT_REALIZABLE = "not realizable"
    UNDECIDED = "undecided"   # neither a feasible θ nor a Farkas vector was found


@dataclass(frozen=True)
class Optimum:
    """θ* with its KKT multipliers: present exactly when the cell is realizable."""

    theta: np.ndarray                                  # (p,) float θ*
    multipliers: np.ndarray                            # (m,) λ, float
    exact_theta: list[Fraction] | None = None          # θ* in ℚ (rational PEs, exact mode)
    exact_multipliers: dict[int, Fraction] | None = None  # λ in ℚ on its support


@dataclass(frozen=True)
class ExactOptimum:
    """θ*, λ and the constraints Z, all in ℚ (a realizable cell with exact KKT evidence)."""

    theta: list[Fraction]                       # (p,)
    multipliers: dict[int, Fraction]            # λ on its support, by constraint index
    constraints: list[tuple[Fraction, ...]]     # (m, p) distinct training differences


@dataclass
class Selection:
    """θ* for one (PE, task, L0) cell, with its certificate.

    ``status`` is one of three answers;
    ``optimum`` is set exactly when it is ``realizable`` (then :attr:`theta` is θ*)."""

    pe: Encoding
    task: Task
    train_length: int
    constraints: np.ndarray                  # (m, p) distinct training differences
    pairs: np.ndarray                        # (m, 3) the (i, t, j) of each constraint's first occurrence
    status: SelectionStatus = SelectionStatus.NOT_REALIZABLE
    optimum: Optimum | None = None
    reason: str = ""
    evidence: dict = field(default_factory=dict)   # KKT or Farkas data behind the status (exactness flags)
    exact_constraints: list[tuple] | None = None
    multiplicities: np.ndarray | None = None  # (m,) n_s: training pairs giving each constraint (None: generated)
    distinct: int | None = None              # distinct key pairs when only a working set is held (generated)

    def realize(self, optimum: Optimum) -> None:
        """Record θ* (the only way to make a selection realizable)."""
        self.status, self.optimum = SelectionStatus.REALIZABLE, optimum

    @property
    def realizable(self) -> bool:
        return self.status is SelectionStatus.REALIZABLE

    @property
    def undecided(self) -> bool:
        return self.status is SelectionStatus.UNDECIDED

    @property
    def theta(self) -> np.ndarray:
        """θ* (p,), float.  Raises :class:`PosrealError` unless the cell is realizable."""
        if self.optimum is None:
            raise PosrealError(f"no θ* for {self.pe}·{self.task} at L0 = {self.train_length}: "
                               f"the cell is {self.status.value} ({self.reason or 'no reason recorded'})")
        return self.optimum.theta

    @property
    def exact_theta(self) -> list[Fraction] | None:
        return None if self.optimum is None else self.optimum.exact_theta

    @property
    def multipliers(self) -> np.ndarray | None:
        return None if self.optimum is None else self.optimum.multipliers

    @property
    def exact_multipliers(self) -> dict[int, Fraction] | None:
        return None if self.optimum is None else self.optimum.exact_multipliers

    @property
    def exact_optimum(self) -> ExactOptimum | None:
        """θ*, λ and Z in ℚ, or None when the cell is not realizable or has no exact evidence."""
        opt = self.optimum
        if opt is None or opt.exact_theta is None or opt.exact_multipliers is None or self.exact_constraints is None:
            return None
        return ExactOptimum(opt.exact_theta, opt.exact_multipliers, self.exact_constraints)

    @property
    def norm(self) -> float | None:
        return None if self.optimum is None else float(np.linalg.norm(self.optimum.theta))

    @property
    def support(self) -> list[int]:
        """Indices of constraints with λ > 0 (the support vectors)."""
        if self.optimum is None:
            return []
        if self.optimum.exact_multipliers is not None:
            return sorted(k for k, v in self.optimum.exact_multipliers.items() if v > 0)
        lam = self.optimum.multipliers
        return np.flatnonzero(lam > 1e-12 * max(1.0, float(lam.max(initial=0.0)))).tolist()

    @property
    def exact(self) -> bool:
        return self.exact_theta is not None or self.evidence.get("farkas_exact", False)

    @property
    def complete(self) -> bool:
        """True when :attr:`constraints` holds every distinct training difference.

        False: a working set of constraint generation, whose θ* is certified on the full set by the last sweep."""
        return self.distinct is None

    def summary(self) -> dict:
        out = {"norm": self.norm, "support": len(self.support), "constraints": int(self.constraints.shape[0]),
               "exact": self.exact, "status": self.status.value, "reason": self.reason or None}
        if not self.complete:
            out.update(constraints=self.distinct, working_set=int(self.constraints.shape[0]),
                       method="constraint generation")
        return out


def _candidate_pairs(pe: Encoding, task: Task, train_length: int) -> KeyPairs:
    """The training pairs whose differences can differ, with multiplicities: for a profile PE z depends on the
    key indices (k_t, k_j) alone (:func:`~posreal.theory.training_set.profile_key_pairs`, never the O(L0²)
    enumeration); otherwise every pair (i, t, j) is its own."""
    if is_profile(pe):
        return profile_key_pairs(pe, task, train_length)
    pairs = training_pairs(task, train_length)
    return KeyPairs(pairs, np.ones(pairs.shape[0], dtype=np.int64))


def selection_size(pe: Encoding, task: Task, train_length: int, mode: Mode, complete: bool = False
                   ) -> tuple[int, str]:
    """How many difference vectors :func:`select` holds at once, and what they are (for the memory estimate):
    the distinct key pairs of a profile PE, the working set's cap under constraint generation, every training pair
    of any other PE."""
    if not complete and uses_constraint_generation(pe, task, train_length, mode):
        return working_set_cap(train_length, pe.dim(train_length)), "working-set differences (at most)"
    if is_profile(pe):
        return distinct_pair_count(pe, task, train_length), "distinct training differences"
    rows = task.rows(train_length)
    return int(rows.sum()), "training differences"


def uses_constraint_generation(pe: Encoding, task: Task, train_length: int, mode: Mode) -> bool:
    """Whether :func:`select` generates constraints (a float selection on a profile PE whose distinct
    differences would take more than :data:`GENERATION_ENTRIES` numbers) instead of holding them all."""
    if parse_mode(mode).exact_selection or not is_profile(pe):
        return False
    return distinct_pair_count(pe, task, train_length) * max(pe.dim(train_length), 1) > GENERATION_ENTRIES


def _nnls_ldp(z: np.ndarray) -> tuple[np.ndarray, float]:
    """NNLS for the LDP: u ≥ 0 minimizing ‖[Zᵀ; 1ᵀ] u - e‖; returns (u (m,), ρ = 1 - Σu)."""
    m, p = z.shape
    E = np.vstack([z.T, np.ones((1, m))])           # (p+1, m)
    f = np.zeros(p + 1)
    f[-1] = 1.0
    u, _ = nnls(E, f, maxiter=max(50 * m, 1000))
    return u, 1.0 - float(u.sum())


def _float_kkt(z: np.ndarray, theta: np.ndarray, lam: np.ndarray) -> dict:
    """KKT residuals, each relative to its natural scale (slack to the margin 1, stationarity to
    ‖θ‖, complementarity to max λ)."""
    slack = z @ theta - 1.0                          # (m,)
    scale = max(1.0, float(np.linalg.norm(theta)))
    lam_scale = max(1.0, float(lam.max(initial=0.0)))
    return {
        "primal_min_slack": float(slack.min(initial=0.0)),
        "dual_min": float(lam.min(initial=0.0)),
        "stationarity": float(np.linalg.norm(theta - z.T @ lam)) / scale,
        "complementarity": float(np.abs(lam * slack).max(initial=0.0)) / lam_scale,
    }


def _primal_feasible(cert: dict) -> bool:
    return cert["primal_min_slack"] >= -PRIMAL_TOL


def _float_kkt_ok(cert: dict) -> bool:
    return (_primal_feasible(cert) and cert["dual_min"] >= 0
            and cert["stationarity"] <= PRIMAL_TOL and cert["complementarity"] <= PRIMAL_TOL)


def _exact_kkt(zq: list[tuple], u: np.ndarray, p: int):
    """Exact active-set refinement from the float NNLS support.  Returns (θ, λ on support) or None.

    On an active set B with linearly independent rows, λ_B = (Z_B Z_Bᵀ)⁻¹ 1 and θ = Z_Bᵀ λ_B;
    a negative λ leaves B, the most violated constraint enters B; stop at λ ≥ 0, Zθ ≥ 1 (KKT).
    Arithmetic on integers: Z = N / D, so Z_B Z_Bᵀ = N_B N_Bᵀ / D²."""
    N, D = integer_form(zq, p)                   # (m, p)
    order = [int(k) for k in np.argsort(-u) if u[k] > 1e-12 * max(1.0, float(u.max()))]
    active = [order[n] for n in pivot_rows([zq[k] for k in order], p)]
    for _ in range(MAX_REFINEMENTS):
        NB = N[active]                            # (k, p)
        gram = NB.dot(NB.T) if active else np.zeros((0, 0), dtype=object)  # (k, k) = D² Z_B Z_Bᵀ
        mu = solve([[Fraction(int(x)) for x in row] for row in gram], [Fraction(1)] * len(active)) if active else []
        if mu is None:
            return None
        lam = [x * D * D for x in mu]             # λ_B = D² μ
        if any(x < 0 for x in lam):
            worst = min(range(len(lam)), key=lambda n: lam[n])
            active.pop(worst)
            continue
        a, b = common_denominator(mu)             # μ = a / b
        direction = NB.T.dot(a) if active else np.zeros(p, dtype=object)  # (p,) = N_Bᵀ a
        theta = [Fraction(int(x) * D, b) for x in direction]               # θ = D N_Bᵀ μ
        scaled = N.dot(direction)                 # (m,) z_k·θ = scaled_k / b
        products = [Fraction(int(x), b) for x in scaled]
        worst = min(range(len(products)), key=products.__getitem__)   # the first most violated constraint
        if scaled[worst] >= b:
            return theta, dict(zip(active, lam))
        if len(pivot_rows([zq[k] for k in active + [worst]], p)) <= len(active):
            return None  # the entering constraint is dependent: give up honestly
        active.append(worst)
    return None


def _farkas(z: np.ndarray) -> np.ndarray | None:
    """A vertex u ≥ 0 with Zᵀu = 0, Σu = 1 (certifies infeasibility), float, or None."""
    m, p = z.shape
    A = np.vstack([z.T, np.ones((1, m))])
    b = np.zeros(p + 1)
    b[-1] = 1.0
    res = linprog(np.zeros(m), A_eq=A, b_eq=b, bounds=(0, None), method="highs")
    return res.x if res.status == 0 else None


def _exact_farkas(zq: list[tuple], u: np.ndarray, p: int) -> dict[int, Fraction] | None:
    support = [int(k) for k in np.flatnonzero(u > 1e-12)]
    columns = [list(zq[k]) + [Fraction(1)] for k in support]   # (|S|, p+1)
    system = [list(row) for row in zip(*columns)]               # (p+1, |S|)
    sol = solve(system, [Fraction(0)] * p + [Fraction(1)])
    if sol is None or any(x < 0 for x in sol):
        return None
    return dict(zip(support, sol))


def _float_rows(zq: list[tuple], p: int) -> np.ndarray:
    """The float image of exact rows: (m, p) Fractions -> (m, p) float64 (also for m = 0)."""
    return np.array([[float(x) for x in row] for row in zq], dtype=float).reshape(len(zq), p)


def _scaled_farkas(zq: list[tuple], p: int) -> dict[int, Fraction] | None:
    """An exact Farkas vector of the rows Z found on their unit-scaled images Z' (z'_k = z_k / s_k,
    s_k > 0 a power of two): Σ u'_k z'_k = 0 gives Σ (u'_k / s_k) z_k = 0, normalized to Σu = 1.
    Realizability does not change under positive row scaling, so Z' has one iff Z has one."""
    scaled, divisors = _unit_scaled(zq)
    u = _farkas(_float_rows(scaled, p))
    cert = _exact_farkas(scaled, u, p) if u is not None else None
    if cert is None:
        return None
    weights = {k: v / divisors[k] for k, v in cert.items()}
    total = sum(weights.values(), Fraction(0))
    return {k: v / total for k, v in weights.items()}


def select(pe: str | Encoding, task: str | Task, train_length: int = 16, mode: Mode | str | None = None,
           complete: bool = False) -> Selection:
    """θ* for a cell.

    ``mode`` ``exact`` (the default for a rational PE) selects and certifies in ℚ, ``float`` or ``certified`` in
    float (:class:`~posreal.theory.modes.Mode`).  ``complete``: hold every
    distinct difference (callers that need Z itself, as the ℓ∞/ℓ1 faces and α♯ do); otherwise a float selection
    on a profile PE with very many distinct differences is made by constraint generation
    (:mod:`posreal.theory.cutting_planes`), with the same θ* and its KKT evidence on the full set."""
    pe, task = parse_pe(pe), parse_task(task)
    if not isinstance(train_length, (int, np.integer)) or isinstance(train_length, bool) or train_length < 1:
        raise bad_value("train length", train_length, "an integer >= 1")
    pe.check_length(train_length, train_length)
    exact = pe.rational if mode is None else parse_mode(mode).exact_selection
    if exact and not pe.rational:
        raise irrational(pe)                           # the one-line SpecError, naming the spec given
    p = pe.dim(train_length)
    if task.rows(train_length).size == 0:
        raise SpecError(f"invalid task {str(task)!r} at train length {train_length}: it scores no row there; "
                        "accepted: a task with at least one scored row at L0")
    if not complete and uses_constraint_generation(pe, task, train_length, Mode.EXACT if exact else Mode.FLOAT):
        return _positive_scale(_select_generated(pe, task, train_length))
    candidates = _candidate_pairs(pe, task, train_length)
    pairs, counts = candidates.pairs, candidates.counts
    zq = None
    if exact:
        zq, pairs, counts = dedupe_exact(exact_difference_vectors(pe, pairs, train_length), pairs, counts)
        z = _float_rows(zq, p)
    else:
        z, pairs, counts = dedupe_float(difference_vectors(pe, pairs, train_length), pairs, counts)
    sel = Selection(pe, task, train_length, z, pairs, exact_constraints=zq, multiplicities=counts)
    if z.shape[0] == 0:                               # no row has two keys: θ* = 0 (a positive scale: 1)
        scale = 1 if pe.positive_scale else 0
        sel.realize(Optimum(np.full(p, float(scale)), np.zeros(0), [Fraction(scale)] * p if exact else None,
                            {} if exact else None))
        return sel
    zero = (np.flatnonzero(~np.any(z != 0, axis=1)) if zq is None
            else [k for k, r in enumerate(zq) if not any(r)])
    if len(zero):
        i, t, j = pairs[zero[0]]
        sel.reason = tie_reason(int(i), int(t), int(j))
        return sel
    u, rho = _nnls_ldp(z)
    if zq is not None:
        return _positive_scale(_finish_exact(sel, zq, u, rho, p))
    return _positive_scale(_finish_float(sel, z, u, rho))


def _select_generated(pe: Encoding, task: Task, train_length: int) -> Selection:
    """θ* by constraint generation; ``constraints`` holds the working set W, ``distinct`` the size of the full set.
    Realizable only with the full-set certificate: KKT on W (NNLS) and Zθ ≥ 1 on every constraint (the sweep)."""
    distinct = distinct_pair_count(pe, task, train_length)
    tie = first_tie(pe, task, train_length)                                   # type: ignore[arg-type]
    p = pe.dim(train_length)
    if tie is not None:
        sel = Selection(pe, task, train_length, np.zeros((0, p)), np.zeros((0, 3), dtype=np.int64), distinct=distinct)
        sel.reason = tie_reason(*tie)
        return sel
    gen = generate(pe, task, train_length, _nnls_ldp)                         # type: ignore[arg-type]
    sel = Selection(pe, task, train_length, gen.constraints, gen.pairs, distinct=distinct)
    if gen.u is None or gen.rho <= FEASIBILITY_RHO:                          # W infeasible: so is the full set
        return _finish_float(sel, gen.constraints, gen.u if gen.u is not None else np.zeros(0), gen.rho)
    theta, lam = gen.constraints.T @ gen.u / gen.rho, gen.u / gen.rho
    cert = _float_kkt(gen.constraints, theta, lam)
    cert["primal_min_slack"] = gen.min_slack                                  # over the full set, from the sweep
    cert.update(rounds=gen.rounds, working_set=int(gen.constraints.shape[0]), distinct=distinct)
    sel.evidence = cert
    if not gen.converged or not _primal_feasible(cert):
        sel.status = SelectionStatus.UNDECIDED
        sel.reason = (f"undecided: constraint generation stopped after {gen.rounds} sweeps with a violated "
                      f"constraint (min slack {gen.min_slack:.3g})")
        return sel
    cert["optimal"] = _float_kkt_ok(cert)
    sel.realize(Optimum(theta, lam))
    if not cert["optimal"]:
        sel.reason = "θ is feasible (Zθ ≥ 1) but its KKT residuals exceed tolerance: θ* only approximately"
    return sel


def tie_reason(i: int, t: int, j: int) -> str:
    """Why a cell is not realizable when a training difference is zero."""
    return f"structural tie at row {i} of the L0-grid: keys {t} (target) and {j} have equal features"


def _positive_scale(sel: Selection) -> Selection:
    """A fixed bias with a positive scale (p = 1, θ ∈ (0, ∞); definitions.md#fixed-bias): Zθ ≥ 1 has a
    positive solution iff every z > 0, and then θ* > 0 is the same point.  So the cell is realizable iff the
    unconstrained θ* is positive; a negative θ* means every training difference is negative — the fixed
    bias ranks some other key above the target on every training row — and no positive scale helps."""
    if not sel.pe.positive_scale or not sel.realizable:
        return sel
    exact = sel.exact_theta
    if (exact[0] if exact is not None else sel.theta[0]) > 0:
        return sel
    i, t, j = (int(x) for x in sel.pairs[0])
    sel.status, sel.optimum = SelectionStatus.NOT_REALIZABLE, None
    sel.evidence = {"negative_scale": True, "exact": exact is not None}
    sel.reason = (f"the fixed bias ranks key {j} above the target {t} on row {i} of the L0-grid (every training "
                  "difference is negative): only a negative scale would realize the task, and the scale of a fixed "
                  "bias is positive")
    return sel


def _finish_float(sel: Selection, z: np.ndarray, u: np.ndarray, rho: float) -> Selection:
    """A primal-feasible θ proves realizability (its KKT residuals say whether it is θ*); only a
    Farkas vector proves the opposite; otherwise the cell is undecided."""
    if rho > FEASIBILITY_RHO:
        theta, lam = z.T @ u / rho, u / rho
        cert = _float_kkt(z, theta, lam)
        if _primal_feasible(cert):
            cert["optimal"] = _float_kkt_ok(cert)
            sel.realize(Optimum(theta, lam))
            sel.evidence = cert
            if not cert["optimal"]:
                sel.reason = "θ is feasible (Zθ ≥ 1) but its KKT residuals exceed tolerance: θ* only approximately"
            return sel
    farkas = _farkas(z)
    if farkas is None:
        sel.status = SelectionStatus.UNDECIDED
        sel.reason = f"undecided: NNLS gives ρ = {rho:.3g}, no feasible θ and no Farkas certificate"
        return sel
    combined = z.T @ farkas                                  # (p,) Zᵀu
    residual = float(np.abs(combined).max(initial=0.0))      # ‖Zᵀu‖∞ (a 2-norm squares 1e-300 to 0)
    size = float(farkas @ np.abs(z).max(axis=1))             # Σ u_k ‖z_k‖∞: the size of what u combines
    if residual > FARKAS_REL_TOL * size:
        # the LP's tolerance is absolute: rows near 0 (sizes ~1e-300) satisfy Zᵀu = 0 whatever u is
        sel.status = SelectionStatus.UNDECIDED
        sel.reason = (f"undecided: NNLS gives ρ = {rho:.3g}, no feasible θ; the float Farkas certificate has "
                      f"‖Zᵀu‖ = {residual:.3g} against rows of size {size:.3g} (accepted: at most "
                      f"{FARKAS_REL_TOL:g} of it)")
        return sel
    sel.evidence = {"farkas_residual": float(np.linalg.norm(combined)), "farkas_exact": False}
    sel.reason = "infeasible at L0: u ≥ 0 with Zᵀu = 0, Σu = 1 (Farkas certificate, float)"
    return sel


def _finish_exact(sel: Selection, zq: list[tuple], u: np.ndarray, rho: float, p: int) -> Selection:
    if rho > FEASIBILITY_RHO:
        found = _exact_kkt(zq, u, p)
        if found is not None:
            theta, lam = found
            multipliers = np.zeros(len(zq))          # (m,)
            for k, v in lam.items():
                multipliers[k] = float(v)
            sel.realize(Optimum(np.array([float(x) for x in theta]), multipliers, theta, lam))
            sel.evidence = {"kkt_exact": True}
            return sel
    farkas = _farkas(sel.constraints)
    if farkas is not None:
        cert = _exact_farkas(zq, farkas, p)
        if cert is not None:
            sel.evidence = {"farkas_exact": True, "farkas": cert}
            sel.reason = "infeasible at L0: u ≥ 0 with Zᵀu = 0, Σu = 1 (Farkas certificate, exact in ℚ)"
            return sel
    return _finish_without_evidence(sel, zq, u, rho, p)


def _finish_without_evidence(sel: Selection, zq: list[tuple], u: np.ndarray, rho: float, p: int) -> Selection:
    """Exact mode's last resort, when the float start gave neither an exact KKT point nor an exact Farkas
    certificate.  The float search runs on the float rows, which can misstate the rational ones (rows of
    size 2⁻¹¹⁰⁰ are all 0.0; 2⁵³ + 1 rounds to 2⁵³; 10⁴⁰⁰ next to 1 leaves NNLS no usable ρ), so its answer
    is kept only where ℚ confirms it.  In order: a Farkas vector sought once more on the rows scaled to
    unit size (:func:`_scaled_farkas`, unless a float θ with Zθ > 0 in ℚ already proves realizability); the
    exact active-set method (:func:`_exact_active_set`: θ* or a Farkas vector from ℚ alone); a float θ
    with Zθ > 0 exactly (a positive multiple satisfies Zθ ≥ 1; θ* itself is then only approximate); otherwise
    the cell is ``undecided``, with the float verdict named in the reason."""
    _finish_float(sel, sel.constraints, u, rho)
    said = sel.status.value + (f" ({sel.reason})" if sel.reason else "")
    feasible = sel.realizable and all(x > 0 for x in _exact_products(zq, [Fraction(float(x)) for x in sel.theta]))
    rescued = None if feasible else _scaled_farkas(zq, p)
    if rescued is not None:
        sel.status, sel.optimum = SelectionStatus.NOT_REALIZABLE, None
        sel.evidence = {"farkas_exact": True, "farkas": rescued}
        sel.reason = ("infeasible at L0: u ≥ 0 with Zᵀu = 0, Σu = 1 (Farkas certificate, exact in ℚ, "
                      "found on the rows scaled by powers of two)")
        return sel
    solved = _exact_active_set(sel, zq, p, required=not feasible)
    if solved is not None:
        return solved
    if feasible:
        sel.evidence["feasible_exact"] = True
        sel.reason = ("exact KKT certificate not found: realizable in ℚ (the float θ has Zθ > 0 exactly, "
                      "so a multiple of it satisfies Zθ ≥ 1), θ* only approximately")
        return sel
    sel.status, sel.optimum = SelectionStatus.UNDECIDED, None
    sel.reason = f"undecided: no exact certificate found (KKT or Farkas); the float search says {said}"
    return sel


def _exact_active_set(sel: Selection, zq: list[tuple], p: int, required: bool) -> Selection | None:
    """θ* with λ, or a Farkas vector, from the exact active-set method (:mod:`posreal.theory.exact_qp`),
    returned only when :func:`verify_kkt_exact` / :func:`verify_farkas_exact` accept it (never trusted on its
    own); None otherwise.  Its work is estimated before it starts: above the work budget it is refused in one
    line when nothing else can decide the cell (``required``), and skipped when a float θ already proves
    realizability."""
    estimate = exact_qp.estimate(zq, p, f"{sel.pe} · {sel.task} at L0 = {sel.train_length}")
    if required:
        require(estimate)
    elif estimate.work > max_work():
        return None
    out = exact_qp.solve_ldp(zq, p)
    trial = replace(sel, status=SelectionStatus.NOT_REALIZABLE, optimum=None, reason="",
                    evidence={"method": "exact active set", "steps": out.iterations})
    if out.theta is not None and out.multipliers is not None:
        dense = np.zeros(len(zq))                                              # (m,) λ
        dense[list(out.multipliers)] = exact_qp.float_image(list(out.multipliers.values()))
        trial.realize(Optimum(exact_qp.float_image(out.theta), dense, out.theta, out.multipliers))
        trial.evidence["kkt_exact"] = True
        return trial if verify_kkt_exact(trial) else None
    if out.farkas is not None:
        trial.evidence.update(farkas_exact=True, farkas=out.farkas)
        trial.reason = ("infeasible at L0: u ≥ 0 with Zᵀu = 0, Σu = 1 (Farkas certificate, exact in ℚ, "
                        "by the exact active-set method)")
        return trial if verify_farkas_exact(trial) else None
    return None


def verify_kkt_exact(sel: Selection) -> bool:
    """Re-check θ* = Zᵀλ, λ ≥ 0, Zθ* ≥ 1, λ·(Zθ* - 1) = 0 in ℚ from the stored data alone."""
    opt = sel.exact_optimum
    if opt is None:
        return False
    zq, theta, lam = opt.constraints, opt.theta, opt.multipliers
    p = len(theta)
    if any(v < 0 for v in lam.values()):
        return False
    combo = [sum((v * zq[k][c] for k, v in lam.items()), Fraction(0)) for c in range(p)]
    if combo != list(theta):
        return False
    products = _exact_products(zq, theta)
    if any(x < 1 for x in products):
        return False
    return all(v * (products[k] - 1) == 0 for k, v in lam.items())


def verify_farkas_exact(sel: Selection) -> bool:
    """Re-check the exact infeasibility certificate: u ≥ 0 on constraints of the cell, Zᵀu = 0, Σu = 1."""
    cert = sel.evidence.get("farkas") if sel.evidence.get("farkas_exact") else None
    if cert is None or sel.exact_constraints is None:
        return False
    zq = sel.exact_constraints
    p = len(zq[0]) if zq else 0
    if any(not 0 <= k < len(zq) for k in cert):      # a weight on a constraint the cell does not have
        return False
    if any(v < 0 for v in cert.values()) or sum(cert.values()) != 1:
        return False
    return all(sum((v * zq[k][c] for k, v in cert.items()), Fraction(0)) == 0 for c in range(p))
