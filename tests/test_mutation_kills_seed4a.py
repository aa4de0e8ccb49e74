"""Tests for the survivors of the seed-4 mutation sample, part a (``benchmarks/mutation.py --seed 4``).

Written after that run listed its survivors (``benchmarks/mutation-report-seed4.md``, lines 18-36).
Each pins a behaviour the suite did not check:

* the certificate verifier: a support pair and ``claims.rank_differences`` of the wrong JSON type are
  reported at their paths, with what is accepted;
* α_L: the limit α♯ with a geometry other than ℓ2 is refused in one line; the prediction context of α♯
  is built once per cell, not once per length; exact-mode row outcomes carry the exact margins;
* ``dual:P`` whose base is not set yet (as during unpickling) raises AttributeError naming ``base``;
* content tasks: the successor task is named; Monte Carlo with no samples is refused in one line;
* the log-time flow's evidence reports τ rounded to 6 decimals;
* θ*_∞: its bounded form with a bound B < 1; the exact LP mirrors the float LP (including p); an exact
  point face and the face of a cell without training differences have empty, well-shaped data; a
  rational cell without an exact certificate says so; extra rows of a face LP without HiGHS' Python API.

Expected values are derived in the tests (by hand or from a documented identity), not copied from output.
"""

from __future__ import annotations

import copy
from fractions import Fraction as F

import numpy as np
import pytest
from posreal.counterexamples.verifier.errors import CertificateError
from posreal.counterexamples.verifier.verify import verify_document
from posreal.theory import geometry, limit
from posreal.theory.alpha import compute_alpha, row_outcomes
from posreal.theory.encodings import ALiBi, DualOf
from posreal.theory.errors import SpecError
from posreal.theory.expressivity import content_task, static_routing_bound
from posreal.theory.flow import FlowEvidence, FlowVerdict
from posreal.theory.realization import REALIZED
from certificate_edits import certificate as _certificate, resealed as _resealed


# ------------------------------------------------------------------ certificate verifier
def test_a_support_pair_that_is_not_a_list_is_named_at_its_path():
    """``claims.selected.support[n].pair`` must be a JSON list [i, t, j]; a string there is reported at that path."""
    doc = copy.deepcopy(_certificate("static_alibi_position_0.json"))
    doc["claims"]["selected"]["support"][0]["pair"] = "x"
    expected = r"^malformed certificate: claims\.selected\.support\[0\]\.pair = 'x'; accepted: a list$"
    with pytest.raises(CertificateError, match=expected):
        verify_document(_resealed(doc))


def test_a_rank_of_differences_that_is_not_an_integer_is_named_at_its_path():
    """A dynamic certificate's ``claims.rank_differences`` must be a JSON integer; "2" is reported there."""
    doc = copy.deepcopy(_certificate("dynamic_cxc0x130_reverse.json"))
    doc["claims"]["rank_differences"] = "2"
    with pytest.raises(CertificateError,
                       match=r"^malformed certificate: claims\.rank_differences = '2'; accepted: an integer$"):
        verify_document(_resealed(doc))


# ------------------------------------------------------------------ α_L
def test_the_limit_with_another_geometry_is_refused_in_one_line():
    with pytest.raises(SpecError, match=r"^invalid geometry with limit=True 'linf'; accepted: l2 \(α♯ needs the "
                                        r"second-order term of gradient descent, derived for ℓ2 only\)$"):
        compute_alpha("alibi", "offset:0", 8, (16,), geometry="linf", limit=True)


def test_the_limit_prediction_context_is_built_once_per_cell(monkeypatch):
    """The context (support, multipliers, multiplicities of θ*) depends on the cell only: ``compute_alpha``
    builds it once and hands it to ``limit_interval`` at every length."""
    calls = []
    original = limit.prediction_context

    def counting(*args, **kwargs):
        calls.append(args)
        return original(*args, **kwargs)

    monkeypatch.setattr(limit, "prediction_context", counting)
    result = compute_alpha("alibi", "position:0", 8, (16, 40), "exact", limit=True)
    assert sorted(result.limits) == [16, 40]
    assert len(calls) == 1


def test_exact_row_outcomes_carry_the_exact_margins():
    """alibi ψ(δ) = [-δ] with θ = -1 scores key j of row i by δ = i - j.  position:0 targets key 0 (score i);
    the best rival is key 1 (score i - 1): margin 1 on every row i ≥ 1, and None (+∞) on the one-key row 0."""
    out = row_outcomes("alibi", "position:0", [F(-1)], 4, 4, "exact")
    assert out.margins == [None, F(1), F(1), F(1)]
    assert list(out.status) == [REALIZED] * 4


# ------------------------------------------------------------------ encodings
def test_a_dual_without_its_base_raises_attribute_error_naming_base():
    """Before ``__init__`` sets ``base`` (``copy``/``pickle`` build the object first), every delegated
    attribute raises AttributeError('base') instead of recursing; a copy is then equal to the original."""
    bare = DualOf.__new__(DualOf)
    with pytest.raises(AttributeError, match=r"^base$"):
        _ = bare.base
    with pytest.raises(AttributeError, match=r"^base$"):
        _ = bare.features
    dual = DualOf(ALiBi())
    assert copy.copy(dual) == dual and str(copy.deepcopy(dual)) == "dual:alibi"


# ------------------------------------------------------------------ content tasks
def test_the_successor_task_is_named():
    """successor: F(x)_i = (x_i + 1) mod V, named ``successor`` (the name reported as ``task``)."""
    task = content_task("successor", 3, 2)
    assert task.name == "successor"
    assert task.fn(np.array([[0, 1, 1]])).tolist() == [[1, 0, 0]]
    assert static_routing_bound("successor", 2, 2).task == "successor"


def test_monte_carlo_without_samples_is_refused_in_one_line():
    with pytest.raises(SpecError, match=r"^invalid samples 0; accepted: an integer >= 1$"):
        static_routing_bound("successor", 3, 2, method="monte-carlo", samples=0)


# ------------------------------------------------------------------ log-time flow
def test_flow_evidence_reports_tau_to_six_decimals():
    doc = FlowEvidence(1.23456789, 0.5, 1e-9, FlowVerdict.WINS).to_json()
    assert doc["tau"] == 1.234568
    assert doc["value"] == 0.5 and doc["verdict"] == "wins"


# ------------------------------------------------------------------ θ*_∞ and its optimal face
def test_bounded_linf_solve_with_a_bound_below_one():
    """z = [[1]]: θ* = t* = 1.  Any B > 0 gives the same LP: with B = 1/2, max s s.t. φ ≥ s, |φ| ≤ 1/2 has
    φ = s = 1/2, mapped back to θ = φ/s = 1 and t = B/s = 1."""
    lp = geometry.norm_program(np.array([[1.0]]), geometry.Geometry.LINF)
    solved = geometry._solve_linf(lp, 0.5)
    assert solved is not None
    x, y, t, _ = solved
    assert x == pytest.approx([1.0, 1.0], abs=1e-9) and t == pytest.approx(1.0, abs=1e-9)
    assert y == pytest.approx([1.0, 1.0, 0.0], abs=1e-9)


def test_the_exact_program_mirrors_the_float_program():
    """The ℚ program of z = [(1, -1)] in ℓ∞ has the float program's rows, right-hand side, cost and p = 2."""
    z = [[F(1), F(-1)]]
    lp = geometry.norm_program(np.array([[1.0, -1.0]]), geometry.Geometry.LINF)
    program = geometry.exact_norm_program(z, 2, geometry.Geometry.LINF)
    assert program.p == lp.p == 2
    assert program.geometry is geometry.Geometry.LINF
    assert np.array(program.A, dtype=float).tolist() == lp.A.tolist()
    assert [float(v) for v in program.b] == lp.b.tolist() and [float(v) for v in program.c] == lp.c.tolist()


def test_an_exact_point_face_has_no_rows():
    """A face proved a point in ℚ is θ₀ alone: no directions (p, 0), no rows (A_red (0, 0), r (0,)), an empty box."""
    lp = geometry.norm_program(np.array([[1.0]]), geometry.Geometry.LINF)
    face = geometry.optimal_face(lp, np.array([1.0, 1.0]), np.array([1.0, 1.0, 0.0]), exact_point=True)
    assert face.theta0.tolist() == [1.0]
    assert face.directions.shape == (1, 0) and face.A_red.shape == (0, 0)
    assert isinstance(face.r, np.ndarray) and face.r.shape == (0,)
    assert face.lo.shape == face.hi.shape == (0,) and face.bounds == []
    assert face.point and face.exact_point and face.dimension == 0


def test_a_cell_without_training_differences_selects_zero():
    """At L0 = 1 the only row of offset:0 has one key: no training difference, so θ = 0 is the unique optimum,
    its face the point 0 (in ℚ for the rational relbias:2, p = 3) with an empty box."""
    gsel = geometry.select_in_geometry("relbias:2", "offset:0", 1, "linf")
    assert gsel.selection.constraints.shape == (0, 3)
    assert gsel.theta.tolist() == [0.0] * 3 and gsel.value == 0.0
    assert gsel.exact_theta == [F(0)] * 3
    face = gsel.face
    assert face is not None and face.theta0.tolist() == [0.0] * 3
    assert face.directions.shape == (3, 0) and face.r.shape == face.lo.shape == face.hi.shape == (0,)
    assert face.bounds == [] and face.point and face.exact_point


def test_a_rational_cell_without_an_exact_certificate_says_so(monkeypatch):
    """When no exact LP certificate is found for a rational PE, the float answer is kept and the reason given."""
    monkeypatch.setattr(geometry, "exact_certificate", lambda *args: None)
    gsel = geometry.select_in_geometry("alibi", "offset:0", 2, "linf")
    assert gsel.theta is not None and not gsel.exact and gsel.exact_theta is None
    assert gsel.reason == "exact LP certificate not found (float answer)"
    assert gsel.summary()["reason"] == "exact LP certificate not found (float answer)"


@pytest.mark.parametrize("highs", [True, False])
def test_face_lp_extra_rows_with_and_without_highs_python_api(monkeypatch, highs):
    """min w s.t. w ≥ 1, -10 ≤ w ≤ 10, with the extra row w ≥ 2: 2 at w = 2; the model alone: 1 at w = 1.
    Without highspy (the linprog fallback) the extra rows are solved the same way."""
    if not highs:
        monkeypatch.setattr(geometry, "_HIGHS", False)
    face_lp = geometry.FaceLP(np.array([[1.0]]), np.array([1.0]), np.array([-10.0]), np.array([10.0]))
    assert (face_lp.model is not None) == highs
    value, w = face_lp.minimize_with_rows(np.array([1.0]), np.array([[1.0]]), np.array([2.0]))
    assert value == pytest.approx(2.0) and w is not None and w.tolist() == pytest.approx([2.0])
    value, w, _ = face_lp.minimize(np.array([1.0]))
    assert value == pytest.approx(1.0) and w is not None and w.tolist() == pytest.approx([1.0])
