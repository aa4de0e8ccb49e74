"""Selection in the ℓ∞ and ℓ1 geometries: the α interval, its exact certificates, the CLI, bad input,
and the ℓ2 output unchanged."""

from __future__ import annotations

import json
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest
from posreal.theory.alpha import compute_alpha, row_outcomes
from posreal.theory.defaults import GEOMETRIES, LENGTHS, REGISTRY_TASKS
from posreal.theory.pe_specs import parse_pe
from posreal.theory.errors import PosrealError, SpecError
from posreal.theory.geometry import (
    Geometry,
    LPCertificate,
    interval_outcomes,
    norm_program,
    parse_geometry,
    select_in_geometry,
    solve_program,
    verify_lp_exact,
)
from posreal.theory.realization import REALIZED
from posreal.theory.tasks import parse_task
from scipy.optimize import linprog

from posreal.cli import main

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
    gsel = select_in_geometry(pe, task, 16, geometry, exact=False)
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
def test_exact_certificates_verify_and_perturbed_ones_are_refused(pe, geometry):
    checked = 0
    for task in REGISTRY_TASKS:
        gsel = select_in_geometry(pe, task, 16, geometry, exact=True)
        if not gsel.realizable:
            continue
        assert gsel.certificate is not None and gsel.program is not None, task
        assert verify_lp_exact(gsel.program, gsel.certificate)
        cert = gsel.certificate
        k = min(cert.dual)
        assert not verify_lp_exact(gsel.program, LPCertificate(cert.primal, {**cert.dual, k: 2 * cert.dual[k]},
                                                               cert.value))
        moved = list(cert.primal)
        moved[0] += Fraction(1, 7)
        assert not verify_lp_exact(gsel.program, LPCertificate(moved, cert.dual, cert.value))
        assert not verify_lp_exact(gsel.program, LPCertificate(cert.primal, cert.dual, cert.value + 1))
        checked += 1
    assert checked > 0


@pytest.mark.parametrize("pe", ["relbias", "rope:16", "abscol:16", "colbias", "alibi", "nope"])
def test_realizability_does_not_depend_on_the_norm(pe):
    """The LP of every geometry is feasible exactly when the ℓ2 selection is (Zθ ≥ 1 is one set)."""
    for task in REGISTRY_TASKS:
        base = select_in_geometry(pe, task, 16, Geometry.L2, exact=False)
        z = base.selection.constraints
        for geometry in (Geometry.LINF, Geometry.L1):
            gsel = select_in_geometry(pe, task, 16, geometry, exact=False)
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
    selected = select_in_geometry(pe, "offset:1", 3, "l1", exact=False).theta
    assert selected is not None
    cos = float(theta @ selected / (np.linalg.norm(theta) * np.linalg.norm(selected)))
    assert cos > 0.999 and theta[1] == 0


def test_sign_descent_on_the_issue_cell_lines_up_with_the_linf_witness():
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
