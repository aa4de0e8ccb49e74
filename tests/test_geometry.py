"""Selection in the ℓ∞ and ℓ1 geometries: the α interval, its exact certificates, the CLI, bad input,
and the ℓ2 output unchanged; cells without constraints or without an exact certificate, an ℓ1 optimal
face derived by hand, and the α documents of intervals."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest
from posreal.theory.alpha import IntervalAlphaResult, compute_alpha, row_outcomes
from posreal.theory.arithmetic import Mode
from posreal.theory.cell import Cell
from posreal.theory.defaults import GEOMETRIES, LENGTHS, REGISTRY_TASKS
from posreal.theory.pe_specs import parse_pe
from posreal.theory.errors import PosrealError, SpecError
from posreal.theory.realization import FAILED
from posreal.theory.norm_programs import (Geometry, LPOptimality, norm_program, parse_geometry, solve_program,
                                          verify_lp_exact)
from posreal.theory.face_rows import IntervalOutcomes, interval_outcomes
from posreal.theory.faces import select_in_geometry
from posreal.theory.realization import REALIZED
from posreal.theory.tasks import parse_task
from scipy.optimize import linprog

from posreal.cli import main
from posreal.theory import face_rows, faces
from posreal.theory.selection import select

ROOT = Path(__file__).resolve().parents[1]
REFERENCE = ROOT / "tests" / "data" / "alpha_l2_reference.json"


def test_geometry_names_are_the_defaults_list():
    assert tuple(g.value for g in Geometry) == GEOMETRIES
    assert parse_geometry("LINF") is Geometry.LINF and parse_geometry(Geometry.L1) is Geometry.L1


@pytest.mark.parametrize("bad", ["l3", "", "x" * 500, 2, None])
def test_unknown_geometry_is_a_one_line_spec_error(bad):
    with pytest.raises(SpecError) as err:
        parse_geometry(bad)
    text = str(err.value)
    assert "\n" not in text and "accepted: l2, linf, l1" in text and len(text) < 160


def test_l2_output_is_the_previous_output_plus_two_fields():
    """The JSON of the code before geometries existed, stored once, against today's (same α, same fields)."""
    reference = json.loads(REFERENCE.read_text())
    for key, old in reference.items():
        pe, task, mode = key.split("|")
        new = json.loads(json.dumps(compute_alpha(pe, task, 16, LENGTHS, mode).to_json(), sort_keys=True,
                                    default=str))
        assert new.pop("geometry") == "l2"
        interval = new.pop("alpha_interval")
        # ‖θ*‖ comes out of scipy's NNLS: its last bits move between scipy releases (seen: 2.210508634088178
        # stored, 2.210508634088176 with scipy 1.17), so the norm is compared to 1e-12 relative, the rest exactly
        new_norm, old_norm = new["selected"].pop("norm", None), old["selected"].pop("norm", None)
        assert (new_norm is None) == (old_norm is None), key
        assert new_norm is None or new_norm == pytest.approx(old_norm, rel=1e-12, abs=0), key
        assert new == old, key
        assert interval == {L: (None if a is None else [a, a]) for L, a in old["alpha"].items()}, key


@pytest.mark.subprocess
def test_issue_example_gives_an_interval_at_the_default_lengths():
    out = subprocess.run([sys.executable, "-m", "posreal", "alpha", "--pe", "abscol:16", "--task", "position:0",
                          "--geometry", "linf", "--json"], cwd=ROOT, capture_output=True, text=True, timeout=600,
                         check=False)
    assert out.returncode == 0, out.stderr
    doc = json.loads(out.stdout)
    assert doc["geometry"] == "linf"
    assert set(doc["alpha_interval"]) == {str(L) for L in LENGTHS}
    for L, (lo, hi) in doc["alpha_interval"].items():
        assert 0 <= lo <= hi <= 1 and doc["alpha"][L] == lo


def _independent_optimum(z: np.ndarray, geometry: Geometry) -> float:
    """min ‖θ‖_q s.t. Zθ ≥ 1 in another formulation (θ = θ⁺ - θ⁻ for ℓ1; variable bounds |θ_c| ≤ t
    written as two inequalities for ℓ∞), by HiGHS' interior-point method."""
    m, p = z.shape
    if geometry is Geometry.L1:
        res = linprog(np.ones(2 * p), A_ub=-np.hstack([z, -z]), b_ub=-np.ones(m), bounds=(0, None),
                      method="highs-ipm")
        return float(res.fun)
    eye = np.eye(p)
    A = np.vstack([np.hstack([-z, np.zeros((m, 1))]), np.hstack([eye, -np.ones((p, 1))]),
                   np.hstack([-eye, -np.ones((p, 1))])])
    c = np.zeros(p + 1)
    c[-1] = 1
    res = linprog(c, A_ub=A, b_ub=np.concatenate([-np.ones(m), np.zeros(2 * p)]), bounds=(None, None),
                  method="highs-ipm")
    return float(res.fun)


def _independent_face_points(z: np.ndarray, geometry: Geometry, value: float, count: int,
                             seed: int) -> list[np.ndarray]:
    """Optimal θ's found independently: random linear objectives over {Zθ ≥ 1, ‖θ‖_q ≤ value} (ℓ1 through
    θ⁺, θ⁻ ≥ 0; ℓ∞ through bounds), interior-point method."""
    m, p = z.shape
    rng = np.random.default_rng(seed)
    out = []
    for _ in range(count):
        direction = rng.normal(size=p)
        if geometry is Geometry.L1:
            res = linprog(np.concatenate([direction, -direction]), A_ub=np.vstack([-np.hstack([z, -z]),
                          np.ones((1, 2 * p))]), b_ub=np.concatenate([-np.ones(m), [value]]), bounds=(0, None),
                          method="highs-ipm")
            out.append(res.x[:p] - res.x[p:])
        else:
            res = linprog(direction, A_ub=-z, b_ub=-np.ones(m), bounds=[(-value, value)] * p, method="highs-ipm")
            out.append(res.x)
    return out


CELLS = [("abscol:16", "position:0"), ("abscol:16", "position:1"), ("rope:16", "offset:1"),
         ("relbias", "offset:1"), ("colbias", "position:1"), ("rope:16", "position:0"), ("abssin:4:50", "offset:1"),
         ("abssin:4:50", "position:0"), ("abssin:4:50", "half")]


@pytest.mark.parametrize("geometry", [Geometry.LINF, Geometry.L1])
@pytest.mark.parametrize("pe,task", CELLS)
def test_independent_lp_solutions_fall_inside_the_interval(pe, task, geometry):
    gsel = select_in_geometry(pe, task, 16, geometry, mode="float")
    assert gsel.realizable and gsel.value is not None
    z = gsel.selection.constraints
    value = _independent_optimum(z, geometry)
    assert abs(value - gsel.value) <= 1e-6 * max(1.0, value)
    lengths = (32, 64)
    intervals = interval_outcomes(gsel, lengths)
    pe_, task_ = parse_pe(pe), parse_task(task)
    for theta in _independent_face_points(z, geometry, value * (1 + 1e-9), 4, seed=len(pe) + len(task)):
        for L in lengths:
            rows = row_outcomes(pe_, task_, theta, L, 16, tol=1e-6)
            every, some = intervals[L].every, intervals[L].some
            realized = rows.status == REALIZED
            lost = rows.status == -1
            # a row every optimal θ realizes is realized here; a row realized here is realized by some θ
            assert not np.any((every == REALIZED) & lost), (pe, task, L)
            assert not np.any(realized & (some == -1)), (pe, task, L)
            lo, hi = intervals[L].interval
            assert lo <= float(np.mean(realized)) + 1e-12 and float(np.mean(realized)) <= hi + 1e-12


@pytest.mark.parametrize("geometry", [Geometry.LINF, Geometry.L1])
@pytest.mark.parametrize("pe", ["relbias", "colbias", "alibi"])
def test_exact_optimality_data_verify_and_perturbed_ones_are_refused(pe, geometry):
    checked = 0
    for task in REGISTRY_TASKS:
        gsel = select_in_geometry(pe, task, 16, geometry, mode="exact")
        if not gsel.realizable:
            continue
        assert gsel.optimality is not None and gsel.program is not None, task
        assert verify_lp_exact(gsel.program, gsel.optimality)
        cert = gsel.optimality
        k = min(cert.dual)
        assert not verify_lp_exact(gsel.program, LPOptimality(cert.primal, {**cert.dual, k: 2 * cert.dual[k]},
                                                               cert.value))
        moved = list(cert.primal)
        moved[0] += Fraction(1, 7)
        assert not verify_lp_exact(gsel.program, LPOptimality(moved, cert.dual, cert.value))
        assert not verify_lp_exact(gsel.program, LPOptimality(cert.primal, cert.dual, cert.value + 1))
        checked += 1
    assert checked > 0


@pytest.mark.parametrize("pe", ["relbias", "rope:16", "abscol:16", "colbias", "alibi", "nope"])
def test_realizability_does_not_depend_on_the_norm(pe):
    """The LP of every geometry is feasible exactly when the ℓ2 selection is (Zθ ≥ 1 is one set)."""
    for task in REGISTRY_TASKS:
        base = select_in_geometry(pe, task, 16, Geometry.L2, mode="float")
        z = base.selection.constraints
        for geometry in (Geometry.LINF, Geometry.L1):
            gsel = select_in_geometry(pe, task, 16, geometry, mode="float")
            assert gsel.status == base.status
            if z.shape[0] and z.shape[1]:
                try:
                    solve_program(norm_program(z, geometry))
                    feasible = True
                except PosrealError:
                    feasible = False
                assert feasible == base.realizable, (pe, task, geometry)


def test_exact_mode_gives_exact_intervals_on_a_point_face():
    result = compute_alpha("alibi", "position:0", 16, LENGTHS, "exact", geometry="l1")
    doc = result.to_json()
    assert result.intervals[LENGTHS[0]].exact
    assert doc["alpha_interval_exact"] == {str(L): [str(result.intervals[L].exact_interval[0]),
                                                    str(result.intervals[L].exact_interval[1])] for L in LENGTHS}
    assert doc["alpha_exact"] == {str(L): str(result.outcomes[L].exact_alpha) for L in LENGTHS}


def test_not_realizable_cell_has_null_intervals():
    doc = compute_alpha("rope:16", "position:1", geometry="linf").to_json()
    assert doc["realizable"] is False and doc["alpha_interval"] == {str(L): None for L in LENGTHS}


@pytest.mark.parametrize("argv", [
    ["alpha", "--pe", "rope:16", "--task", "offset:1", "--geometry", "l3"],
    ["alpha", "--pe", "learned:16", "--task", "position:0", "--geometry", "linf"],
    ["alpha", "--pe", "learned:16", "--task", "position:0", "--geometry", "l2"],
    ["table", "--geometry", "ell1"],
])
def test_bad_geometry_input_is_a_usage_error(argv, capsys):
    assert main(argv) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "geometry" in err


def test_table_text_shows_the_geometry(capsys):
    assert main(["table", "--geometry", "l1", "--pes", "abscol:16", "--tasks", "position:0"]) == 0
    out = capsys.readouterr().out
    assert "geometry l1" in out and "abscol:16" in out


def test_normalized_descents_follow_the_gradient_not_its_rounding():
    """Once the target's attention rounds to 1, the textbook gradient form cancels to 0 in one
    coordinate while another keeps a 1e-22 residue; coordinate descent must still move θ3 only."""
    from posreal.theory.tables import build_table
    from posreal.theory.steepest import steepest_descent
    pe = build_table("rounding_case", [[0, 1, 0], [0, 0, 3], [0, 0, 0], [0, 0, 0]], "relative")
    theta = steepest_descent(pe, parse_task("offset:1"), 3, "l1", steps=2500)
    selected = select_in_geometry(pe, "offset:1", 3, "l1", mode="float").theta
    assert selected is not None
    cos = float(theta @ selected / (np.linalg.norm(theta) * np.linalg.norm(selected)))
    assert cos > 0.999 and theta[1] == 0


def test_sign_descent_on_the_issue_cell_lines_up_with_the_linf_prediction():
    from posreal.theory.steepest import steepest_descent
    pe, task = parse_pe("abscol:16"), parse_task("position:0")
    result = compute_alpha(pe, task, 16, (64, 128), geometry="linf")
    theta = steepest_descent(pe, task, 16, "linf", steps=3000)
    for L in (64, 128):
        acc = row_outcomes(pe, task, theta, L, 16).alpha
        lo, hi = result.alpha_interval[L]
        assert lo <= acc <= hi


@pytest.mark.parametrize("geometry", ["linf", "l1"])
def test_a_cell_not_realizable_at_l0_reports_the_geometry_asked_for(geometry):
    """nope · offset:1 is not realizable in any geometry; its JSON said "geometry": "l2" when ℓ∞ or ℓ1 was asked."""
    doc = compute_alpha("nope", "offset:1", train_length=8, lengths=[16], geometry=geometry).to_json()
    assert doc["geometry"] == geometry and doc["realizable"] is False
    assert doc["alpha"] == {"16": None} and doc["alpha_interval"] == {"16": None}
    l2 = compute_alpha("nope", "offset:1", train_length=8, lengths=[16]).to_json()
    assert l2["geometry"] == "l2" and {k: v for k, v in doc.items() if k != "geometry"} == \
        {k: v for k, v in l2.items() if k != "geometry"}


def _l1_relbias_position_0():
    """relbias · position:0 at L0 = 4 (p = 4, one-hot offsets): the constraints are θ_i - θ_k ≥ 1 for
    0 ≤ k < i ≤ 3, so an optimum is θ = (a - 1, a, a + 1, a + 2), and ‖θ‖₁ = 4 for every a ∈ [-1, 0]
    (minimal for the median crossing zero): the ℓ1 optimal face is a segment."""
    from posreal.theory.faces import select_in_geometry

    return select_in_geometry("relbias", "position:0", 4, "l1")


# -------------------------------------------------- cells without constraints and without exact certificates
# Exists because a mutant survived: a cell without training constraints was never selected in ℓ1 or ℓ∞.
@pytest.mark.parametrize("geometry", ["l1", "linf"])
def test_unconstrained_cell_has_the_zero_point_face(geometry):
    """relbias at L0 = 1: p = 1, the only row has one key, so there is no constraint and θ*_q = 0.
    The face is that point: no direction (d = 0), and its box [lo, hi] has d = 0 entries."""
    gsel = select_in_geometry("relbias", "position:0", 1, geometry)
    assert gsel.selection.constraints.shape == (0, 1)
    assert list(gsel.theta) == [0.0] and gsel.value == 0.0
    assert gsel.exact_theta == [Fraction(0)]
    face = gsel.face
    assert face.point and face.exact_point
    assert face.directions.shape == (1, 0)
    assert face.lo.shape == face.hi.shape == (0,) == face.r.shape


# Exists because a mutant survived: the empty face data of a cell without training differences was unchecked.
def test_a_cell_without_training_differences_selects_zero():
    """At L0 = 1 the only row of offset:0 has one key: no training difference, so θ = 0 is the unique optimum,
    its face the point 0 (in ℚ for the rational relbias:2, p = 3) with an empty box."""
    gsel = faces.select_in_geometry("relbias:2", "offset:0", 1, "linf")
    assert gsel.selection.constraints.shape == (0, 3)
    assert gsel.theta.tolist() == [0.0] * 3 and gsel.value == 0.0
    assert gsel.exact_theta == [Fraction(0)] * 3
    face = gsel.face
    assert face is not None and face.theta0.tolist() == [0.0] * 3
    assert face.directions.shape == (3, 0) and face.r.shape == face.lo.shape == face.hi.shape == (0,)
    assert face.bounds == [] and face.point and face.exact_point


# Exists because a mutant survived: the exact point face of a cell without constraints was unchecked.
def test_cell_without_constraints_is_the_point_zero():
    gsel = select_in_geometry("alibi", "position:0", 1, Geometry.LINF)
    assert gsel.selection.constraints.shape[0] == 0
    assert gsel.face is not None and gsel.face.point and gsel.face.exact_point and gsel.face.dimension == 0
    assert gsel.exact_theta == [Fraction(0)] and gsel.value == 0.0


# Exists because a mutant survived: a rational cell without exact LP optimality data could give no reason.
def test_a_rational_cell_without_exact_optimality_data_says_so(monkeypatch):
    """When no exact LP optimality data is found for a rational PE, the float answer is kept and the reason given."""
    monkeypatch.setattr(faces, "exact_lp_optimality", lambda *args: None)
    gsel = faces.select_in_geometry("alibi", "offset:0", 2, "linf")
    assert gsel.theta is not None and not gsel.exact and gsel.exact_theta is None
    assert gsel.reason == "exact LP certificate not found (float answer)"
    assert gsel.summary()["reason"] == "exact LP certificate not found (float answer)"


# Exists because a mutant survived: the reason of a missing exact LP optimality data was unchecked.
def test_missing_exact_optimality_data_is_the_reason(monkeypatch):
    monkeypatch.setattr(faces, "exact_lp_optimality", lambda *args: None)
    gsel = select_in_geometry("alibi", "position:0", 2, Geometry.LINF)
    assert gsel.selection.constraints.shape[0] > 0 and gsel.optimality is None
    assert gsel.reason == "exact LP certificate not found (float answer)"
    assert gsel.summary()["reason"] == "exact LP certificate not found (float answer)"


# --------------------------------------------------------------- the ℓ1 optimal face of relbias · position:0
# Exists because a mutant survived: no ℓ1 optimal face was checked against one derived by hand.
def test_l1_optimal_face_of_a_rational_cell_is_the_segment_by_hand():
    gsel = _l1_relbias_position_0()
    assert gsel.exact and gsel.value == 4.0
    assert gsel.summary()["face"] == "face" and gsel.summary()["face_dimension"] == 1
    face = gsel.face
    ends = sorted(tuple(np.round(face.theta0 + face.directions[:, 0] * w, 9)) for w in (face.lo[0], face.hi[0]))
    assert ends == [(-2.0, -1.0, 0.0, 1.0), (-1.0, 0.0, 1.0, 2.0)]   # a = -1 and a = 0
    assert gsel.exact_theta in ([Fraction(-2), Fraction(-1), Fraction(0), Fraction(1)],
                                [Fraction(-1), Fraction(0), Fraction(1), Fraction(2)])   # a vertex, in ℚ


# Exists because a mutant survived: the LP optimality data document's fields were unchecked.
def test_lp_optimality_document_spells_the_exact_optimum():
    gsel = _l1_relbias_position_0()
    doc = gsel.optimality.to_json()
    assert (doc["format"], doc["version"], doc["value"]) == ("posreal-lp-optimality", 1, "4/1")
    assert doc["primal"][:4] == [f"{x.numerator}/{x.denominator}" for x in gsel.exact_theta]
    assert list(doc["dual"]) == sorted(doc["dual"], key=int) and all(Fraction(v) > 0 for v in doc["dual"].values())


# Exists because a mutant survived: a face without its bounding box was never decided.
def test_a_face_without_its_bounding_box_gives_the_same_rows(monkeypatch):
    """Faces of more than MAX_BOX_DIRECTIONS directions get no box (infinite bounds, no probes); the box
    only saves LPs, so the every/some outcomes are those of the boxed face."""
    from posreal.theory import face_rows, faces

    boxed = _l1_relbias_position_0()
    with_box = face_rows.interval_outcomes(boxed, [8, 16])
    monkeypatch.setattr(faces, "MAX_BOX_DIRECTIONS", 0)
    unboxed = _l1_relbias_position_0()
    face = unboxed.face
    assert not face.point and face.dimension == 1
    assert np.all(face.lo == -np.inf) and np.all(face.hi == np.inf) and face.probes.shape == (0, 1)
    without = face_rows.interval_outcomes(unboxed, [8, 16])
    for L in (8, 16):
        assert without[L].every.tolist() == with_box[L].every.tolist()
        assert without[L].some.tolist() == with_box[L].some.tolist()
        assert without[L].interval == with_box[L].interval


# Exists because a mutant survived: the dtype of the row outcomes over a non-point face was unchecked.
def test_face_rows_are_int8_like_point_rows():
    """``IntervalOutcomes.every`` / ``some`` are (m,) int8 (its fields): also over a face that is not a
    point — relbias·position:0 at L0 = 4 in ℓ1, whose optimal face is the segment θ = (a - 1, a, a + 1,
    a + 2), a ∈ [-1, 0]."""
    gsel = select_in_geometry("relbias", "position:0", 4, "l1")
    assert gsel.face is not None and not gsel.face.point
    out = interval_outcomes(gsel, [8])[8]
    assert out.every.dtype == np.int8 and out.some.dtype == np.int8
    assert set(out.some.tolist()) <= {-1, 0, 1}


# ------------------------------------------------------------------------- interval outcomes and α documents
# Exists because a mutant survived: a face that is a point only in float could be decided as if exact.
def test_a_float_point_face_is_not_decided_in_exact_arithmetic():
    """relbias:2·offset:0 at L0 = 4 in ℓ∞: z ∈ {e1 - e2, e1 - e3}, θ* = (1/2, -1/2, -1/2) is the unique
    optimum (θ1 - θ2 ≥ 1 needs t ≥ 1/2), but its optimal duals are y_{e1-e2} + y_{e1-e3} = 1/2 (with the
    norm rows fixed by them), and a vertex dual has a support of rank 3 < 4 = n: the certificate is exact,
    the face is a point only by the float box.  Its rows are then decided in float (``exact`` False);
    every row i ≥ 1 has margin θ1 - θ2 = 1 on every rival."""
    gsel = faces.select_in_geometry("relbias:2", "offset:0", 4, "linf")
    assert gsel.exact_theta == [Fraction(1, 2), Fraction(-1, 2), Fraction(-1, 2)]
    assert gsel.face is not None and gsel.face.point and not gsel.face.exact_point
    out = face_rows.interval_outcomes(gsel, [8])[8]
    assert out.exact is False
    assert list(out.every[1:]) == [1] * 7 and list(out.some[1:]) == [1] * 7


# Exists because a mutant survived: the keys of IntervalOutcomes.counts() were unchecked.
def test_interval_outcome_counts_use_their_documented_keys():
    """``counts()`` reports rows realized by every optimum under the key ``realized``."""
    from posreal.theory.face_rows import IntervalOutcomes

    # every = (1, 0, -1, 1), some = (1, 1, -1, 0): realized by every θ: rows 0, 3; by some θ: rows 0, 1;
    # failed (some == -1): row 2; undecided in either: rows 1 (every) and 3 (some); one tie: row 2
    out = IntervalOutcomes(8, np.arange(4), np.zeros(4, dtype=int), np.array([1, 0, -1, 1], dtype=np.int8),
                           np.array([1, 1, -1, 0], dtype=np.int8), np.array([False, False, True, False]))
    assert out.counts() == {"realized": 2, "realized_by_some": 2, "failed": 1, "undecided": 2, "total": 4,
                            "structural_ties": 1}


# Exists because a mutant survived: alpha_exact of an exact interval could be its high end.
def test_alpha_exact_of_an_interval_is_its_low_end():
    result = compute_alpha("alibi", "position:0", 2, (2, 4), "exact", geometry="l1")
    assert result.intervals[4].exact
    # replace the outcomes at L = 4 by exact ones whose every (α^lo) and some (α^hi) differ
    old = result.intervals[4]
    m = old.rows.size
    every = np.full(m, FAILED, dtype=np.int8)
    some = np.full(m, REALIZED, dtype=np.int8)
    every[0] = REALIZED
    result.intervals[4] = IntervalOutcomes(4, old.rows, old.targets, every, some, old.ties, exact=True)
    doc = result.to_json()
    lo, hi = Fraction(1, m), Fraction(1)
    assert lo != hi
    assert doc["alpha_exact"]["4"] == str(lo) and doc["alpha_interval_exact"]["4"] == [str(lo), str(hi)]
    assert Fraction(result.alpha(4)).limit_denominator(m) == lo      # alpha is the low end too


# Exists because a mutant survived: ℓ∞ rows in certified mode could be labelled with another mode.
def test_linf_rows_in_certified_mode_are_labelled_certified():
    """In ℓ∞ with mode certified, the rows under θ*_q are decided (and labelled) in certified mode."""
    from posreal.theory.alpha import compute_alpha
    result = compute_alpha("relbias:2", "offset:0", train_length=4, lengths=[8], mode="certified", geometry="linf")
    assert result.realizable
    assert result.outcomes[8].mode == "certified"


# Exists because a mutant survived: an ℓ∞ result without a geometry selection was never written.
def test_linf_result_without_a_geometry_selection_reports_the_l2_selection():
    """``geometry_selection`` defaults to None; ``to_json`` then falls back to the ℓ2 selection's summary
    whatever the geometry (nope·offset:1 is not realizable: a structural tie at row 1)."""
    sel = select("nope", "offset:1", 4)
    assert not sel.realizable
    result = IntervalAlphaResult(Cell.parse("nope", "offset:1", 4), Mode.FLOAT, sel, (8,), geometry=Geometry.LINF)
    doc = result.to_json()
    assert doc["selected"] == sel.summary()
    assert doc["geometry"] == "linf" and doc["rows"] == {} and doc["alpha"] == {"8": None}


# Exists because a mutant survived: the length at which a bad geometry is cut in its error was unchecked.
def test_a_bad_geometry_of_80_characters_is_shown_in_full():
    """repr of 78 letters is 80 characters: shown whole; 79 letters (81): cut to 77 characters + '...'."""
    fits, long = "x" * 78, "y" * 79
    accepted = ", ".join(g.value for g in Geometry)
    with pytest.raises(SpecError, match=f"^{re.escape(f'invalid geometry {fits!r}; accepted: {accepted}')}$"):
        parse_geometry(fits)
    cut = repr(long)[:77] + "..."
    with pytest.raises(SpecError, match=f"^{re.escape(f'invalid geometry {cut}; accepted: {accepted}')}$"):
        parse_geometry(long)
