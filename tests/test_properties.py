"""Property checks of checks/properties.py, run under the active hypothesis profile (``ci`` by
default, ``thorough`` with --hypothesis-profile=thorough), and their negative controls."""

import pytest

from dataclasses import replace

from posreal.checks.base import COUNTEREXAMPLE, FAILED, PASSED
from posreal.checks.properties import (FALSIFIED, PROPERTIES, _search, duality_margins, orthogonal_tie_persistence,
                                       run_property, theorem1_bound, theorem2_formula, theorem2_rows,
                                       underdetermination_completions)


def test_theorem1_bound_property():
    theorem1_bound()


def test_theorem2_rows_property():
    theorem2_rows()


def test_duality_margins_property():
    duality_margins()


def test_underdetermination_completions_property():
    underdetermination_completions()


def test_orthogonal_tie_persistence_property():
    orthogonal_tie_persistence()


@pytest.mark.slow   # minutes under the ci profile's 150 examples (each up to 640 000 descent steps)
def test_steepest_descent_face_property():
    from posreal.checks.properties import steepest_descent_face
    steepest_descent_face()


# Every property's negative control must find a falsifying example: tests/test_claims.py runs each property as
# the claim runner does (run_property: the control over 200 examples, a pass only when it is falsified).


def test_a_control_search_stops_at_its_first_counterexample_without_shrinking():
    """shrink=False finds a falsifying example of the control just as shrink=True does (the verdict is the same)."""
    prop = PROPERTIES["theorem2_rows"]
    fast, fast_report = _search(prop.control, prop.strategy, 200, shrink=False)
    full, full_report = _search(prop.control, prop.strategy, 200)
    assert not fast and not full
    assert fast_report.startswith(FALSIFIED + ":") and full_report.startswith(FALSIFIED + ":")


def test_theorem2_formula_by_hand():
    # r = [0, 5, 1, 2]: δ* = 1.  Row 0 (shallow): its only key realizes.  Deep rows i ≥ 1: only t = i - 1.
    r = [0, 5, 1, 2]
    assert theorem2_formula(r, 0, 0)
    assert theorem2_formula(r, 1, 0) and not theorem2_formula(r, 1, 1)
    assert theorem2_formula(r, 3, 2) and not theorem2_formula(r, 3, 0)
    # r = [3, 1, 7]: δ* = 2; shallow row 1 realizes t with i - t = 0 (r(0) = 3 is its unique max)
    assert theorem2_formula([3, 1, 7], 1, 1) and not theorem2_formula([3, 1, 7], 1, 0)
    # a tie in the prefix: no target of shallow row 1 is realized
    assert not theorem2_formula([1, 1, 7], 1, 1) and not theorem2_formula([1, 1, 7], 1, 0)


def test_run_property_reports_verdict_and_control():
    result = run_property("theorem2_rows", max_examples=20, control_examples=100)
    assert result.claim == "theorem2" and result.method == "property"
    assert result.verdict == PASSED and result.negative_control == COUNTEREXAMPLE
    assert result.seconds > 0


def test_a_false_property_is_reported_as_counterexample():
    prop = PROPERTIES["theorem1_bound"]
    ok, report = _search(prop.control, prop.strategy, 200)
    assert not ok and report.startswith(FALSIFIED + ":"), report


def _crash(case):
    raise ZeroDivisionError("the control's own code is broken")


def test_a_crashing_control_is_not_a_working_control(monkeypatch):
    """A control that raises (not an AssertionError) proves nothing: the check is not ok."""
    crashing = replace(PROPERTIES["theorem2_rows"], control=_crash)
    monkeypatch.setitem(PROPERTIES, "theorem2_rows", crashing)
    result = run_property("theorem2_rows", max_examples=5, control_examples=5)
    assert result.verdict == PASSED
    assert result.negative_control == "crashed" and not result.ok
    assert "control crashed" in result.detail and "ZeroDivisionError" in result.detail


def test_a_crashing_property_is_a_failure_not_a_pass(monkeypatch):
    crashing = replace(PROPERTIES["theorem2_rows"], body=_crash)
    monkeypatch.setitem(PROPERTIES, "theorem2_rows", crashing)
    result = run_property("theorem2_rows", max_examples=5, control_examples=100)
    assert result.verdict == FAILED and not result.ok and "property crashed" in result.detail


SLOW_DESCENT_CASES = [  # found by random searches; see posreal.checks.geometry_checks (why the drift is compared)
    {"table": [[0, 2, -2], [0, 3, -1], [-3, 0, 3], [-2, -2, -1], [0, 0, 0]], "kind": "relative",
     "task": "position:0", "train_length": 4, "length": 5, "geometry": "l2"},
    {"table": [[0, 0, 2], [3, 0, 1], [-3, 2, 3], [1, 1, 1], [0, 0, 0]], "kind": "relative",
     "task": "position:0", "train_length": 4, "length": 5, "geometry": "l2"},
    {"table": [[0, -3], [-3, -1], [0, -3], [-1, -3], [-3, -3], [0, 0], [0, 0], [0, 0]], "kind": "column",
     "task": "position:1", "train_length": 5, "length": 8, "geometry": "l2"},
    {"table": [[0, 1], [1, 0], [0, 1], [0, 1], [0, 0], [0, 0], [0, 0], [0, 0]], "kind": "column",
     "task": "position:1", "train_length": 5, "length": 8, "geometry": "l2"},
]


def _run_property(check, case):
    """Run a property body on one given case, as hypothesis runs it (``assume`` is legal there)."""
    from hypothesis import Phase, given, settings
    from hypothesis import strategies as st

    @settings(phases=[Phase.generate], max_examples=1, database=None, deadline=None)
    @given(st.just(case))
    def one(c):
        check(c)

    one()


@pytest.mark.slow   # up to 640 000 descent steps per case
@pytest.mark.parametrize("case", SLOW_DESCENT_CASES)
def test_slowly_converging_descent_passes_on_its_drift(case):
    """Each case's iterate θ_t is slow to turn toward θ*_2 (a row of the longer grid on the wrong side
    after 4·10⁴ steps, or a cosine below 0.9 after 2500): the check compares the drift θ_4t - θ_t,
    escalating t while a wrong row converges, and passes."""
    from posreal.checks.geometry_checks import descent_body

    _run_property(descent_body, case)


def test_the_iterate_itself_is_slow_on_the_found_cases():
    """What made the cases above hard, measured: θ_t at 2500 steps is off θ*_2 by a cosine below 0.9
    (case 3) or has a row of the longer grid on the wrong side (cases 0-2; case 2 still after 6.4·10⁵ steps)."""
    import numpy as np
    from posreal.checks.geometry_checks import _margins
    from posreal.theory.tables import build_table
    from posreal.theory.norm_programs import Geometry
    from posreal.theory.faces import select_in_geometry
    from posreal.theory.steepest import steepest_descent
    from posreal.theory.tasks import parse_task

    for n, case in enumerate(SLOW_DESCENT_CASES):
        pe, task = build_table("slow", case["table"], case["kind"]), parse_task(case["task"])
        L0, L = case["train_length"], case["length"]
        star = select_in_geometry(pe, task, L0, Geometry.L2, mode="float").theta
        theta = steepest_descent(pe, task, L0, "l2", steps=2500)
        cos = float(theta @ star / np.linalg.norm(theta) / np.linalg.norm(star))
        wrong = np.sign(_margins(pe, task, star, L, L0)) != np.sign(_margins(pe, task, theta, L, L0))
        assert (cos < 0.9) if n == 3 else wrong.any(), (n, cos, wrong)


def test_a_wrong_row_that_stops_converging_fails_without_more_steps(monkeypatch):
    """If the wrong row's normalized drift margin does not rise between two budgets (here: iterates of
    one direction at every budget), the check fails at the second budget instead of escalating."""
    from posreal.checks import geometry_checks
    from posreal.theory.steepest import steepest_descent

    calls = []

    def frozen(pe, task, train_length, geometry, steps, start=None):   # start: the check continues runs
        calls.append(steps)
        return steepest_descent(pe, task, train_length, geometry, steps=2500) * 2.0 ** len(calls)  # exact scaling

    monkeypatch.setattr(geometry_checks, "steepest_descent", frozen)
    expected = r"^rows \[4\] of the 5-grid, drift θ_4t - θ_t at t = 10000: θ\*_l2 margins \[0\.5\]"
    with pytest.raises(AssertionError, match=expected):
        _run_property(geometry_checks.descent_body, SLOW_DESCENT_CASES[1])
    assert set(calls) == {2500, 10000, 40000}    # (hypothesis re-runs the failing example once more to report it)


CYCLING_SIGN_DESCENT = {"table": [[0, 0, -1], [-2, 1, 2], [-1, 0, 0], [0, 2, 3], [1, 0, -1], [0, 0, 0]],
                        "kind": "relative", "task": "position:0", "train_length": 5, "length": 6, "geometry": "linf"}


@pytest.mark.slow   # several runs of 40 000 descent steps
def test_fixed_step_sign_descent_can_lock_into_a_cycle_and_diminishing_steps_do_not():
    """Found by the thorough profile (seed 14): with a fixed step η = 0.01 sign descent on this case stops
    moving — a 2-cycle, θ_2500 = θ_10000 = θ_40000 with a non-zero gradient — so its drift has no
    direction.  The ℓ∞ implicit-bias theorem (Zhang, Zou & Cao 2024) assumes diminishing steps; with
    the module's ℓ∞ steps η_t = η₀ (t + 1)^(-1/2) the late drift lines up with θ*_∞, and the check passes."""
    import numpy as np
    from posreal.checks.geometry_checks import MIN_COSINE, descent_body
    from posreal.theory.tables import build_table
    from posreal.theory.norm_programs import Geometry
    from posreal.theory.faces import select_in_geometry
    from posreal.theory.steepest import DEFAULT_SIGN_STEP, direction, stable_gradient, steepest_descent
    from posreal.theory.tasks import parse_task
    from posreal.theory.training import training_grid

    case = CYCLING_SIGN_DESCENT
    pe, task = build_table("cycling", case["table"], case["kind"]), parse_task(case["task"])
    grid = training_grid(pe, task, 5, 5)
    theta, seen = np.zeros(3), {}                                   # (p,) the fixed-step iteration, by hand
    for t in range(10000):
        theta = theta + DEFAULT_SIGN_STEP * direction(stable_gradient(grid, theta), Geometry.LINF)
        if t + 1 in (2500, 2501, 10000):
            seen[t + 1] = theta.copy()
    assert np.array_equal(seen[2500], seen[10000]) and not np.array_equal(seen[2500], seen[2501])
    assert np.any(stable_gradient(grid, seen[2500]) != 0)
    star = select_in_geometry(pe, task, 5, Geometry.LINF, mode="float").theta
    assert star is not None
    drift = steepest_descent(pe, task, 5, "linf", steps=10000) - steepest_descent(pe, task, 5, "linf", steps=2500)
    assert float(drift @ star / np.linalg.norm(drift) / np.linalg.norm(star)) >= MIN_COSINE
    _run_property(descent_body, case)
