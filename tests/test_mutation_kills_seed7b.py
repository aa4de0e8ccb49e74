"""Tests for survivors of the seed-7 mutation sample (``benchmarks/mutation-report-seed7.md``), second part.

Written after that run listed its survivors (lines 30-40).  Each pins a behaviour the suite did not check:

* geometry: a dual-support singular value exactly at the relative threshold ``NULL_TOL`` still spans a
  direction of the optimal face; the ``linprog`` fallback of the warm LP models keeps the column bounds
  (a free/boxed variable is not made nonnegative);
* limit: α♯ reports the length it was computed at, and an open tie's row keeps its target;
* realization: float margins and target values of a profile kernel given in ℚ are float64 arrays equal
  to those of the same kernel given in floats;
* selection: the float KKT check accepts a stationarity residual exactly at ``PRIMAL_TOL``;
* steepest descent: the stable gradient normalizes attention per row, so it equals the gradient of the
  loss (Σ_j a_ij = 1 on every row);
* tables: a file that is not JSON is refused with the JSON parser's own message;
* tasks: a task spec that is not a string is refused with the one-line error naming ``task``.

Expected values are derived in the tests (by hand or from a documented identity), not copied from output.
"""

from __future__ import annotations

import json
from fractions import Fraction as F

import numpy as np
import pytest
from posreal.counterexamples.designed import LOG2_TIE
from posreal.theory import geometry, parse_pe, parse_task, select
from posreal.theory.errors import SpecError
from posreal.theory.kernels import ProfileKernel
from posreal.theory.limit import LimitVerdict, limit_interval
from posreal.theory.realization import float_margins
from posreal.theory.kernels import profile_margins
from posreal.theory.sampling import registered
from posreal.theory.selection import PRIMAL_TOL, _float_kkt_ok
from posreal.theory.steepest import stable_gradient
from posreal.theory.tables import load_table
from posreal.theory.tasks import TASK_FORMS
from posreal.theory.ties import classify
from posreal.theory.training import training_grid


# --------------------------------------------------------------------------- geometry
def test_a_singular_value_at_the_threshold_spans_a_face_direction():
    """Dual support rows [NULL_TOL, 0] and [0, 1]: singular values 1 and NULL_TOL (= NULL_TOL · max(1, 1)),
    which is not above the threshold, so the rank is 1 and θ (column 0) is free on the face; the two
    inactive rows ±θ ≥ -1 bound it to [-1, 1]."""
    tol = geometry.NULL_TOL
    A = np.array([[tol, 0.0], [0.0, 1.0], [1.0, 0.0], [-1.0, 0.0]])
    lp = geometry.LinearProgram(geometry.Geometry.LINF, A, np.array([0.0, 0.0, -1.0, -1.0]), np.zeros(2), 1)
    face = geometry.optimal_face(lp, np.zeros(2), np.array([1.0, 1.0, 0.0, 0.0]))
    assert face.directions.shape == (1, 1) and abs(face.directions[0, 0]) == pytest.approx(1.0)
    assert face.point is False
    assert sorted([float(face.lo[0] * face.directions[0, 0]), float(face.hi[0] * face.directions[0, 0])]) \
        == pytest.approx([-1.0, 1.0])


@pytest.mark.parametrize("cls", [geometry.FaceLP, geometry.DualFaceLP])
def test_the_linprog_fallback_keeps_the_column_bounds(cls):
    """min w over -5 ≤ w ≤ 5 and the row w ≥ -3 is -3 (a negative minimizer: the bounds are not linprog's
    default w ≥ 0); min -w is -5 (the upper bound)."""
    solver = cls(np.array([[1.0]]), np.array([-3.0]), np.array([-5.0]), np.array([5.0]))
    solver.model = None        # the linprog path (as without HiGHS' Python API)
    value, w, _ = solver.minimize(np.array([1.0]))
    assert value == pytest.approx(-3.0) and w == pytest.approx([-3.0])
    value, w, _ = solver.minimize(np.array([-1.0]))
    assert value == pytest.approx(-5.0) and w == pytest.approx([5.0])


# --------------------------------------------------------------------------- limit
def test_the_limit_interval_keeps_its_length_and_the_open_tie_its_target():
    length = LOG2_TIE.length
    with registered(LOG2_TIE):
        pe, task = parse_pe(LOG2_TIE.pe), parse_task(LOG2_TIE.task)
        sel = select(pe, task, LOG2_TIE.train_length)
        sharp = limit_interval(pe, task, sel, length)
        cls = classify(pe, task, sel, length)
    assert sharp.length == length
    open_rows = {r.row: r.target for r in cls.open_rows}
    tied = [r for r in sharp.rows if r.cls == "open_tie"]
    assert tied and all(r.verdict is not LimitVerdict.LOST for r in tied)
    for r in tied:
        assert r.target == open_rows[r.row] and isinstance(r.target, int)
        assert r.to_json()["target"] == open_rows[r.row]


# --------------------------------------------------------------------------- realization
def test_profile_margins_in_rationals_are_floats():
    """v = (0, 2, 1, 3): row i's margin is v(t) minus the best other v(k), k ≤ i; as floats either way."""
    exact = [F(0), F(2), F(1), F(3)]
    floats = np.array([float(x) for x in exact])
    rows, keys = np.array([1, 2, 3]), np.array([1, 1, 3])
    expected = np.array([2.0 - 0.0, 2.0 - 1.0, 3.0 - 2.0])
    for values in (exact, floats):
        out = profile_margins(values, rows, keys)
        assert out.dtype == np.float64 and out.tolist() == expected.tolist()


def test_float_margins_of_a_rational_profile_kernel_are_floats():
    exact = [F(0), F(2), F(1), F(3)]
    rows, targets = np.array([1, 2, 3]), np.array([0, 1, 0])      # offset targets: key = row - offset
    want_m, want_t = float_margins(ProfileKernel(4, "offset", np.array([float(x) for x in exact])), rows, targets)
    margins, target_values = float_margins(ProfileKernel(4, "offset", exact), rows, targets)
    assert margins.dtype == np.float64 and target_values.dtype == np.float64
    assert margins.tolist() == want_m.tolist() and target_values.tolist() == want_t.tolist()


# --------------------------------------------------------------------------- selection
def test_float_kkt_accepts_stationarity_exactly_at_the_tolerance():
    cert = {"primal_min_slack": 0.0, "dual_min": 0.0, "stationarity": PRIMAL_TOL, "complementarity": 0.0}
    assert _float_kkt_ok(cert) is True
    assert _float_kkt_ok({**cert, "stationarity": 2 * PRIMAL_TOL}) is False


# --------------------------------------------------------------------------- steepest descent
def test_stable_gradient_is_the_loss_gradient():
    """Σ_i Σ_j a_ij (ψ(i,j) - ψ(i,t_i)) = Σ_i (E_a[ψ] - ψ(i,t_i)) since each row's attention sums to 1."""
    grid = training_grid("rope:8", "offset:1", 10, 10)
    theta = np.random.default_rng(0).normal(size=grid.features.shape[2])
    _, grad = grid.loss_and_grad(theta)
    assert np.abs(grad).max() > 1e-3
    assert stable_gradient(grid, theta) == pytest.approx(grad, rel=1e-9, abs=1e-9)


# --------------------------------------------------------------------------- tables
def test_a_file_that_is_not_json_is_refused_with_the_parser_message(tmp_path):
    path = tmp_path / "t.json"
    path.write_text('{"kind": "relative", "rows": [[0], [1]')
    with pytest.raises(json.JSONDecodeError) as parsed:
        json.loads(path.read_text())
    with pytest.raises(SpecError) as err:
        load_table(str(path))
    assert f": not JSON ({parsed.value.msg} at line {parsed.value.lineno}); accepted: " in str(err.value)
    assert parsed.value.msg in str(err.value)


# --------------------------------------------------------------------------- tasks
def test_a_task_that_is_not_a_string_is_refused_naming_the_task():
    with pytest.raises(SpecError) as err:
        parse_task(7)
    assert str(err.value) == f"invalid task 7; accepted: {TASK_FORMS}"
