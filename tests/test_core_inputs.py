"""Bad input to the Python API gets a one-line SpecError naming the bad value; nothing is
silently defaulted.  Also the three selection answers (realizable / not realizable / undecided)."""

import numpy as np
import pytest

from posreal.theory import SpecError, compute_alpha, gradient_descent, register_pe, select, transfer
from posreal.theory.alpha import alpha_sweep
from certificate_edits import message as _message


@pytest.mark.parametrize("kwargs, needle", [
    ({"tol": -1}, "tolerance"), ({"tol": float("nan")}, "tolerance"), ({"tol": "x"}, "tolerance"),
    ({"lengths": 32}, "lengths"), ({"lengths": "32"}, "lengths"), ({"lengths": []}, "lengths"),
    ({"lengths": [32.0]}, "length"), ({"train_length": "16"}, "train length"), ({"train_length": 0}, "train length"),
    ({"mode": "fast"}, "mode"),
])
def test_compute_alpha_rejects(kwargs, needle):
    with pytest.raises(SpecError) as err:
        compute_alpha("rope:16", "offset:1", **kwargs)
    assert needle in str(err.value) and "\n" not in str(err.value)


def test_task_without_rows_at_train_length_is_rejected():
    with pytest.raises(SpecError, match="scores no row"):
        compute_alpha("relbias", "offset:40", 16)


def test_sweep_refuses_a_selection_of_another_cell():
    other = select("rope:16", "offset:1", 16)
    with pytest.raises(SpecError, match="selection"):
        alpha_sweep("relbias", "offset:1", 16, 64, selection=other)


@pytest.mark.parametrize("table, kind", [
    ([["a", 1]], "relative"), ([[1j]], "column"), ([[True]], "relative"), ([[]], "relative"),
    ([[1, 2], [3]], "relative"), ([[1]], "diagonal"), ([[[1]], [[1]]], "general"),
])
def test_register_pe_rejects(table, kind):
    with pytest.raises(SpecError):
        register_pe("bad_table", table, kind)


def test_training_and_transfer_reject_bad_arguments():
    with pytest.raises(SpecError, match="step size"):
        gradient_descent("relbias", "offset:1", 8, steps=3, step_size=float("inf"))
    with pytest.raises(SpecError, match="train length"):
        gradient_descent("relbias", "offset:1", "8", steps=3)
    with pytest.raises(SpecError, match="theta0"):
        gradient_descent("relbias", "offset:1", 8, steps=3, theta0=np.zeros(3))
    with pytest.raises(SpecError, match="shape"):
        transfer(select("rope:16", "offset:1", 16).pe, np.zeros(3), 32, 16)


def test_feasible_but_ill_conditioned_cell_is_realizable():
    """rope:2:2 · offset:1 at L0 = 64 has ‖θ*‖ ≈ 850 and λ up to ~1e5: a feasible θ proves
    realizability; the optimality residuals are judged relative to their scale."""
    sel = select("rope:2:2", "offset:1", 64)
    assert sel.status == "realizable" and sel.evidence["optimal"]
    assert np.min(sel.constraints @ sel.theta) >= 1 - 1e-6


def test_not_realizable_needs_farkas_evidence():
    sel = select("relbias", "reverse", 16)
    assert sel.status == "not realizable" and "Farkas" in sel.reason and not sel.undecided


# --------------------------------------------------------------------------- one-line errors across the API
# Exists because a mutant survived: these one-line errors could name another argument or drop what is accepted.
def test_errors_name_the_argument_and_what_is_accepted():
    from posreal.theory.pe_specs import parse_learned
    from posreal.theory.tables import register_pe
    from posreal.theory.expressivity import content_task
    from posreal.runtime.resources import parse_number
    from posreal.theory.steepest import steepest_descent

    for rows in ([[float("nan")]], [[1.0], [float("inf")]]):
        assert _message(lambda rows=rows: register_pe("bad", rows, kind="relative")) == \
            "invalid feature table 'bad'; accepted: finite numbers"

    assert _message(lambda: steepest_descent("relbias", "offset:1", 4, "linf", steps=0)) == \
        "invalid steps 0; accepted: an integer >= 1"

    assert _message(lambda: parse_learned(5)) == "invalid learned PE 5; accepted: learned:d with an integer d >= 1"
    assert _message(lambda: content_task("bogus", 8, 4)).startswith("invalid task 'bogus'; accepted: ")
    assert _message(lambda: parse_number("-1", "tau", 0, 10, low_open=False)) == \
        "invalid tau '-1'; accepted: a number >= 0 and <= 10"
    assert _message(lambda: parse_number("0", "tau", 0, 10)) == "invalid tau '0'; accepted: a number > 0 and <= 10"
    assert parse_number("0", "tau", 0, 10, low_open=False) == 0.0 and parse_number("10", "tau", 0, 10) == 10.0
