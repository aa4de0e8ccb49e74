"""Checks of the geometry statement (claim id ``geometry``; docs, Results, Geometry).

Main checks:

* :func:`descent_body` (property, over :func:`posreal.checks.properties.descent_cases`) — random
  small integer relative and column feature tables, fixed-target tasks, q ∈ {2, ∞, 1}: run steepest descent in ‖·‖_q
  (:func:`posreal.theory.steepest.steepest_descent`: GD and coordinate descent with fixed steps, sign
  descent with diminishing steps η₀ (t + 1)^(-1/2), as the ℓ∞ implicit-bias theorem assumes) from
  θ = 0 on the positional cross-entropy at L0 and compare the direction it moves in late — the
  drift θ_4t - θ_t — with θ*_q: the directions agree (cosine ≥ :data:`MIN_COSINE`) and every row of
  the longer grid whose margin under θ*_q/‖θ*_q‖ is beyond :data:`GAP` (the whole optimal face,
  when it is one point) has the same sign under the drift.  Why the drift: for gradient descent
  θ_t = θ*_2 log t + ρ_t (Soudry et al. 2018, JMLR 19(70), Theorem 3), so θ_4t - θ_t → θ*_2 log 4,
  while the iterate's own direction carries ρ_t/log t, which decays like log log t / log t when θ*
  has zero coordinates that ρ_t drifts along (found instances: cosine of θ_t with θ*_2 0.889 after
  2500 steps and 0.956 after 2.56·10⁶; a row of the 8-grid on the wrong side of θ*_2 until
  ~10⁶ steps, while the drift's cosine is ≥ 0.98 from the first budget and its signs agree).  The
  iterates' directions converge to the drift's limit too (their increments do).  "Late" is read
  with a budget: t = :data:`STEPS`, and while a row is still on the wrong side, 4× as many, up to
  :data:`MAX_STEPS` — but only as long as every such row visibly converges (its margin under the
  normalized drift moves toward θ*_q's side at each 4×); a row that stalls or moves away fails at
  once.  Instances whose ℓq optimum is not one point are skipped (``assume``).
  Control (:func:`descent_control`): compare the same iterate with the face of another geometry;
  on instances where the faces differ it must be caught.
* :func:`check_exact_registry` (registry) — θ*_∞ and θ*_1 satisfy their LP optimality conditions in ℚ
  (:func:`posreal.theory.norm_programs.verify_lp_exact`) on every realizable rational registry cell, and
  the LP is infeasible on exactly the cells that are not realizable for ℓ2 (realizability does not
  depend on q).  Control: each optimality record perturbed (one dual value doubled, one θ entry moved by
  1/7) must be refused.
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np
from posreal.checks.base import (
    FAILED,
    PASSED,
    CheckResult,
    Control,
    DeclaredCheck,
    timed,
)
from posreal.checks.declare import claim_check, declared_in
from posreal.theory.defaults import REGISTRY_TASKS, TRAIN_LENGTH
from posreal.theory.tables import build_table
from posreal.theory.errors import PosrealError
from posreal.theory.faces import select_in_geometry
from posreal.theory.geometry import LINEAR_GEOMETRIES, Geometry, SelectionGeometry  # noqa: F401  (Geometry: the
#   names properties.descent_cases draws from)
from posreal.theory.transfer_operator import transfer
from posreal.theory.norm_programs import LPOptimality, norm_program, solve_program, verify_lp_exact
from posreal.theory.realization import float_margins
from posreal.theory.steepest import steepest_descent
from posreal.theory.tasks import parse_task

GAP = 0.25          # rows whose margin under θ*_q/‖θ*_q‖_q (training margins ≥ 1/‖θ*_q‖) exceeds GAP/‖θ*_q‖ in size
MIN_COSINE = 0.9    # the late iterate's direction against θ*_q
STEPS = 2500
MAX_STEPS = 4 ** 4 * STEPS   # a sure row still on the wrong side is re-run with 4× the steps while it converges
RATIONAL_REGISTRY_PES = ("nope", "relbias", "alibi", "colbias")


def _margins(pe, task, theta: np.ndarray, length: int, train_length: int) -> np.ndarray:
    rows, targets = task.rows_and_targets(length)
    margins, _ = float_margins(transfer(pe, theta, length, train_length), rows, targets)
    return margins                                             # (m,)


def _compare(case: dict, face_geometry: SelectionGeometry) -> None:
    """Assert that the descent of ``case["geometry"]`` ends as the point face of ``face_geometry`` says."""
    from hypothesis import assume   # property checks only: the registry check runs without hypothesis
    pe = build_table("geometry_case", case["table"], case["kind"])
    task, L0, L = parse_task(case["task"]), case["train_length"], case["length"]
    gsel = select_in_geometry(pe, task, L0, face_geometry, mode="float")
    assume(gsel.realizable and gsel.theta is not None and np.any(gsel.theta != 0))
    assume(gsel.point)                                                   # θ*_q is one point
    assert gsel.theta is not None
    u = gsel.theta / np.linalg.norm(gsel.theta)
    scale = np.linalg.norm(gsel.theta)
    face = _margins(pe, task, gsel.theta / scale, L, L0) * scale        # margins of θ*_q (training ≥ 1)
    sure = np.isfinite(face) & (np.abs(face) > GAP)
    steps, previous = STEPS, None
    early = steepest_descent(pe, task, L0, case["geometry"], steps=steps)             # (p,) θ_t
    while True:    # rows still on the wrong side get 4× the steps while they converge
        theta = steepest_descent(pe, task, L0, case["geometry"], steps=4 * steps,      # (p,) θ_4t, continuing
                                 start=(steps, early))                                 # from θ_t
        drift = theta - early                                                         # (p,)
        late = _margins(pe, task, drift, L, L0)
        wrong = sure & (np.sign(face) != np.sign(late))
        toward = np.sign(face) * late / max(float(np.linalg.norm(drift)), 1e-300)   # (m,) > 0 on θ*'s side
        stalled = previous is not None and not np.all(toward[wrong] > previous[wrong])
        if not wrong.any() or 4 * steps >= MAX_STEPS or stalled:
            break
        steps, early, previous = 4 * steps, theta, toward
    cos = float(drift @ u / max(np.linalg.norm(drift), 1e-300))
    assert cos >= MIN_COSINE, f"drift θ_4t - θ_t at cosine {cos:.3f} from θ*_{face_geometry.value} (t = {steps})"
    assert not wrong.any(), (f"rows {np.flatnonzero(wrong).tolist()} of the {L}-grid, drift θ_4t - θ_t at "
                             f"t = {steps}: θ*_{face_geometry.value} margins {face[wrong].round(3).tolist()}, "
                             f"drift {late[wrong].round(3).tolist()}")


def descent_body(case: dict) -> None:
    """Assert that the descent of the case's geometry ends as that geometry's own face says."""
    _compare(case, SelectionGeometry.parse(case["geometry"]))


def descent_control(case: dict) -> None:
    """The wrong geometry's face: each geometry's declared rival.

    ℓ∞ descent against the ℓ2 face, ℓ2 and ℓ1 descent against the ℓ∞ face."""
    own = SelectionGeometry.parse(case["geometry"])
    _compare(case, SelectionGeometry.parse(own.rival))


# --------------------------------------------------------------------------- exact LP optimality data
def _perturbed(cert: LPOptimality) -> list[LPOptimality]:
    """Two broken copies: one dual value doubled, one θ entry moved by 1/7."""
    out = []
    if cert.dual:
        k = min(cert.dual)
        out.append(LPOptimality(cert.primal, {**cert.dual, k: 2 * cert.dual[k]}, cert.value))
    moved = list(cert.primal)
    moved[0] += Fraction(1, 7)
    out.append(LPOptimality(moved, cert.dual, cert.value))
    return out


@claim_check("geometry", "registry", "exact LP optimality of θ*_∞, θ*_1 on rational registry cells")
def check_exact_registry() -> CheckResult:
    """Check that θ*_∞ and θ*_1 are LP-optimal in ℚ on the rational registry cells."""
    def run() -> CheckResult:
        verified, refused, problems, cells = 0, 0, [], 0
        for pe in RATIONAL_REGISTRY_PES:
            for task in REGISTRY_TASKS:
                for geometry in LINEAR_GEOMETRIES:
                    gsel = select_in_geometry(pe, task, TRAIN_LENGTH, geometry, mode="exact")
                    cells += 1
                    if not gsel.realizable:
                        z = gsel.selection.constraints
                        if z.shape[0] and np.any(z != 0, axis=1).all():
                            try:
                                solve_program(norm_program(z, geometry))
                                problems.append(f"{pe}·{task} {geometry.value}: LP feasible, ℓ2 not realizable")
                            except PosrealError:
                                pass
                        continue
                    if gsel.optimality is None or gsel.program is None:
                        problems.append(f"{pe}·{task} {geometry.value}: no exact certificate")
                        continue
                    if verify_lp_exact(gsel.program, gsel.optimality):
                        verified += 1
                    else:
                        problems.append(f"{pe}·{task} {geometry.value}: certificate refused")
                    broken = _perturbed(gsel.optimality)
                    if any(verify_lp_exact(gsel.program, b) for b in broken):
                        problems.append(f"{pe}·{task} {geometry.value}: a perturbed certificate was accepted")
                    else:
                        refused += 1
        ok = not problems and verified > 0
        return CheckResult(
            claim="geometry", name="θ*_∞ and θ*_1 are LP-optimal in ℚ on the rational registry cells",
            method="registry", verdict=PASSED if ok else FAILED,
            negative_control=(Control.COUNTEREXAMPLE if refused == verified and verified > 0
                              else Control.NO_COUNTEREXAMPLE),
            detail=(f"{cells} cell-geometries, {verified} exact certificates verified (primal, dual, equal values, "
                    f"complementary slackness); control: {refused} of {verified} perturbed certificates refused"
                    + (f"; problems: {problems[:5]}" if problems else "")),
            data={"verified": verified, "refused": refused, "problems": problems})
    return timed(run)


GEOMETRY_REGISTRY_CHECKS: tuple[DeclaredCheck, ...] = declared_in(__name__)   # the @claim_check declarations above
