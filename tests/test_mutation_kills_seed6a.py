"""Tests for the survivors of the seed-6 mutation sample, part a (``benchmarks/mutation.py --seed 6``).

Written after that run listed its survivors (``benchmarks/mutation-report-seed6.md``, lines 18-32).
Each pins a behaviour the suite did not check:

* α: a bad ``mode`` is named with its value in the one-line error; in exact mode an ℓ∞ / ℓ1 result's
  ``alpha_exact`` is the low end α^lo of the exact interval (as ``alpha`` is), not the high end;
* PEs: a bad ``learned:d`` is refused as "invalid learned PE ..."; the sinusoid accepts positions given as
  an object array of Python ints (it converts them to floats itself);
* static routing: the result keeps the vocabulary size; its JSON has the key ``argmax``;
* the gradient flow integrates every segment, the first ordinary-time one included, with LSODA;
* ℓ1 / ℓ∞ geometry: a cell without training constraints has θ*_q = 0 on a point face; an exact cell whose LP
  certificate is not found says so in ``reason``; the dual face model's refusal by HiGHS is a one-line
  error; its minimize refuses a complex cost; the primal model's max-min LP with infeasible extra rows
  answers (NaN, None); a face whose box was skipped (and has no solver yet) computes it from its own rows.

Expected values are derived in the tests (by hand or from a documented identity), not copied from output.
"""

from __future__ import annotations

import math
import types
from fractions import Fraction

import numpy as np
import pytest
import scipy.integrate
from posreal.theory import geometry as geometry_module
from posreal.theory.alpha import MODES, compute_alpha
from posreal.theory.pe_specs import parse_learned, parse_pe
from posreal.theory.encodings import sinusoid
from posreal.theory.errors import PosrealError, SpecError
from posreal.theory.expressivity import static_routing_bound
from posreal.theory.flow import integrate
from posreal.theory.geometry import (FAILED, REALIZED, DualFaceLP, Face, FaceLP, Geometry, IntervalOutcomes,
                                     select_in_geometry)
from posreal.theory.tasks import parse_task


# --------------------------------------------------------------------------- α
def test_bad_mode_is_named_with_its_value():
    with pytest.raises(SpecError) as err:
        compute_alpha("alibi", "position:0", 2, (2,), mode="bogus")
    assert str(err.value) == "invalid mode 'bogus'; accepted: " + ", ".join(MODES)


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


# --------------------------------------------------------------------------- PEs
def test_bad_learned_spec_message():
    with pytest.raises(SpecError) as err:
        parse_learned("learned:0")
    assert str(err.value).startswith("invalid learned PE 'learned:0'; accepted: learned:d with d in ASCII digits")


def test_sinusoid_accepts_an_object_array_of_ints():
    x = np.array([0, 1, 3], dtype=object)
    got = sinusoid(x, 4, 100.0, sin_first=True)
    omega = np.array([1.0, 100.0 ** -0.5])                            # base^(-2f/d), f = 0, 1
    xs = np.array([0.0, 1.0, 3.0])[:, None] * omega[None, :]
    assert got.dtype == np.float64
    np.testing.assert_allclose(got, np.concatenate([np.sin(xs), np.cos(xs)], axis=1), rtol=0, atol=1e-15)


# --------------------------------------------------------------------------- static routing
def test_static_routing_keeps_vocab_and_argmax_key():
    result = static_routing_bound("sort", 2, 3, method="enumeration")
    assert result.vocab == 3
    doc = result.to_json()
    assert doc["vocab"] == 3 and doc["argmax"] == result.argmax and "ARGMAX" not in doc
    assert len(doc["argmax"]) == len(doc["rows"]) == 2


# --------------------------------------------------------------------------- flow
def test_flow_integrates_every_segment_with_lsoda(monkeypatch):
    methods = []
    real = scipy.integrate.solve_ivp

    def spy(*args, **kwargs):
        methods.append(kwargs.get("method", "RK45"))                 # solve_ivp's default method is RK45
        return real(*args, **kwargs)

    monkeypatch.setattr(scipy.integrate, "solve_ivp", spy)
    path = integrate(parse_pe("alibi"), parse_task("position:0"), 2, [[1.0]], tau_max=1.0)
    assert path.success and len(methods) >= 2 and set(methods) == {"LSODA"}


# --------------------------------------------------------------------------- geometry
def test_cell_without_constraints_is_the_point_zero():
    gsel = select_in_geometry("alibi", "position:0", 1, Geometry.LINF)
    assert gsel.selection.constraints.shape[0] == 0
    assert gsel.face is not None and gsel.face.point and gsel.face.exact_point and gsel.face.dimension == 0
    assert gsel.exact_theta == [Fraction(0)] and gsel.value == 0.0


def test_missing_exact_certificate_is_the_reason(monkeypatch):
    monkeypatch.setattr(geometry_module, "exact_certificate", lambda *args: None)
    gsel = select_in_geometry("alibi", "position:0", 2, Geometry.LINF)
    assert gsel.selection.constraints.shape[0] > 0 and gsel.certificate is None
    assert gsel.reason == "exact LP certificate not found (float answer)"
    assert gsel.summary()["reason"] == "exact LP certificate not found (float answer)"


def _segment() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """0 <= w <= 2 as rows A w >= r, with infinite column bounds."""
    return np.array([[1.0], [-1.0]]), np.array([0.0, -2.0]), np.full(1, np.inf)


def test_dual_face_model_refused_by_highs():
    A, r, inf = _segment()
    solver = DualFaceLP(A, r, -inf, inf)
    real = geometry_module._highs_api()
    assert real and solver.model is not None
    refused = object()

    class FakeHighs:
        def setOptionValue(self, *args):
            pass

        def passModel(self, lp):
            return refused

    api = types.SimpleNamespace(_Highs=FakeHighs, HighsLp=real.HighsLp, kHighsInf=real.kHighsInf,
                                MatrixFormat=real.MatrixFormat, HighsStatus=types.SimpleNamespace(kError=refused))
    with pytest.raises(PosrealError) as err:
        solver._build(api)
    assert str(err.value) == "HiGHS refused the face model"


def test_dual_face_model_refuses_a_complex_cost():
    A, r, inf = _segment()
    solver = DualFaceLP(A, r, -inf, inf)
    assert solver.model is not None
    value, w, _ = solver.minimize([-1.0])                              # max w over [0, 2]
    assert value == pytest.approx(-2.0) and w is not None and w[0] == pytest.approx(2.0)
    with pytest.raises(TypeError):
        solver.minimize([-1.0 + 1.0j])                                 # a complex cost is not a cost


def test_max_min_with_infeasible_rows_is_nan():
    A, r, inf = _segment()
    lp = FaceLP(A, r, -inf, inf)
    assert lp.model is not None
    value, w = lp.minimize_with_rows(np.array([1.0]), np.array([[1.0]]), np.array([5.0]))   # w >= 5 on [0, 2]
    assert math.isnan(value) and w is None
    value, w = lp.minimize_with_rows(np.array([1.0]), np.array([[1.0]]), np.array([1.0]))   # w >= 1: min is 1
    assert value == pytest.approx(1.0) and w is not None


def test_skipped_box_is_computed_from_the_face_rows():
    A, r, inf = _segment()
    face = Face(np.zeros(1), np.ones((1, 1)), A, r, -inf, inf, False, probes=np.zeros((0, 1)), boxed=False)
    assert face.solver is None
    assert face.ensure_box()
    assert face.lo[0] == pytest.approx(0.0) and face.hi[0] == pytest.approx(2.0) and face.boxed
    assert face.lp_count == 2                                          # min and max of the one coordinate
