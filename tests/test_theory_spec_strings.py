"""Every public function of posreal.theory that takes a PE or a task accepts its spec string.

The exported functions with a ``pe`` or ``task`` parameter are discovered from ``__all__``; each
must have a case below (a new export without one fails the test).  A case calls the function
with spec strings and with parsed objects, and the two answers must agree; a malformed spec must
give a one-line SpecError (so the string is parsed, not passed through).
"""

import inspect
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

import posreal.theory as theory
from posreal.theory import SpecError, parse_learned, parse_pe, parse_task, select

L0 = 4
PE, TASK, LEARNED = "relbias", "offset:1", "learned:4"
THETA = select(PE, TASK, L0).theta                      # (4,) θ* of relbias·offset:1 at L0 = 4
EXACT_THETA = select(PE, TASK, L0, mode="exact").exact_theta


def _sweep(pe: Any, task: Any) -> Any:
    s = theory.alpha_sweep(pe, task, L0, 12)
    return (s.lengths.tolist(), s.realized.tolist(), s.total.tolist())


def _descent(pe: Any, task: Any) -> Any:
    return np.asarray(theory.gradient_descent(pe, task, L0, steps=20, record=4).thetas).tolist()


def _rows(pe: Any, task: Any) -> Any:
    out = theory.row_outcomes(pe, task, THETA, 12, L0)
    return (out.status.tolist(), np.asarray(out.margins, dtype=float).tolist())


# name -> (call with (pe, task), the spec strings to use)
CASES: dict[str, tuple[Callable[[Any, Any], Any], tuple[str, str]]] = {
    "alpha_sweep": (_sweep, (PE, TASK)),
    "compute_alpha": (lambda pe, task: theory.compute_alpha(pe, task, L0, [8, 12]).to_json(), (PE, TASK)),
    "dual_pe": (lambda pe, task: str(theory.dual_pe(pe)), (PE, TASK)),
    "dual_task": (lambda pe, task: str(theory.dual_task(task)), (PE, TASK)),
    "exact_transfer": (lambda pe, task: theory.exact_transfer(pe, EXACT_THETA, 8, L0).index_row(7), (PE, TASK)),
    "gradient_descent": (_descent, (PE, TASK)),
    "learned_alpha_interval": (lambda pe, task: theory.learned_alpha_interval(pe, task, L0, (8,), samples=2).to_json(),
                               (LEARNED, "position:0")),
    "limit_interval": (lambda pe, task: theory.limit_interval(pe, task, select(pe, task, L0), 8).to_json(),
                       (PE, TASK)),
    "row_outcomes": (_rows, (PE, TASK)),
    "select": (lambda pe, task: select(pe, task, L0).theta.tolist(), (PE, TASK)),
    "transfer": (lambda pe, task: theory.transfer(pe, THETA, 8, L0).matrix().tolist(), (PE, TASK)),
}


def _takes_pe_or_task(name: str) -> bool:
    value = getattr(theory, name)
    return inspect.isfunction(value) and bool({"pe", "task"} & set(inspect.signature(value).parameters))


def test_every_exported_function_with_a_pe_or_task_has_a_case():
    assert {name for name in theory.__all__ if _takes_pe_or_task(name)} == set(CASES)


@pytest.mark.parametrize("name", sorted(CASES))
def test_spec_strings_give_the_same_answer_as_objects(name):
    call, (pe_spec, task_spec) = CASES[name]
    pe_obj = parse_learned(pe_spec) if pe_spec.startswith("learned") else parse_pe(pe_spec)
    assert call(pe_spec, task_spec) == call(pe_obj, parse_task(task_spec))


@pytest.mark.parametrize("name", sorted(CASES))
def test_malformed_spec_strings_are_one_line_spec_errors(name):
    call, (pe_spec, task_spec) = CASES[name]
    uses_task = "task" in inspect.signature(getattr(theory, name)).parameters
    bad = (pe_spec, "offset:-1") if uses_task else ("rope:15", task_spec)
    with pytest.raises(SpecError) as err:
        call(*bad)
    assert "\n" not in str(err.value) and "accepted" in str(err.value)


# relbias at L0 = 4 has one bucket per offset 0..3
@pytest.mark.parametrize("pe, width", [("relbias", 4), ("alibi", 1), ("dual:relbias", 4), ("table:general-2", 2)])
def test_exact_and_float_transfer_refuse_a_theta_of_another_width_alike(pe, width, tmp_path):
    """exact_transfer truncated a short θ through zip (a general table) where transfer refuses it; both refuse now
    with the same one-line error, and both accept the right width."""
    from fractions import Fraction

    from posreal.theory.transfer_operator import exact_transfer, transfer

    if pe.startswith("table:"):                 # a general table of width 2 on 4 positions, integer entries
        path = tmp_path / "g.json"
        rows = [[[i + j, i - j] for j in range(4)] for i in range(4)]
        path.write_text('{"kind": "general", "rows": ' + str(rows) + "}")
        pe = f"table:{path}"
    message = (rf"^invalid θ of shape \({width - 1},\) for PE .*; accepted: shape \({width},\) at train length 4$")
    with pytest.raises(SpecError, match=message):
        transfer(pe, np.ones(width - 1), 4, 4)
    with pytest.raises(SpecError, match=message):
        exact_transfer(pe, [Fraction(1)] * (width - 1), 4, 4)
    exact = exact_transfer(pe, [Fraction(1)] * width, 4, 4).matrix()
    assert np.allclose(np.asarray(exact, dtype=float), transfer(pe, np.ones(width), 4, 4).matrix(), equal_nan=True)
