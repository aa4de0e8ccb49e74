"""Every JSON document on stdout is strict JSON: a float that is not finite (a float copy of an exact value beyond
float's range) is written null, never Infinity or NaN, which strict parsers refuse."""

from __future__ import annotations

import json

import numpy as np
import pytest

from posreal.commands._common import emit_json


def _strict(text: str) -> object:
    def refuse(constant: str) -> object:
        raise ValueError(f"not strict JSON: {constant}")
    return json.loads(text, parse_constant=refuse)


@pytest.mark.parametrize("value", [float("inf"), float("-inf"), float("nan"), np.float64("-inf")])
def test_a_non_finite_float_is_written_null(value, capsys):
    emit_json({"selected": [1.5, value], "alpha": "4/5", "nested": {"x": value}})
    assert _strict(capsys.readouterr().out) == {"alpha": "4/5", "nested": {"x": None}, "selected": [1.5, None]}


def test_finite_values_are_unchanged(capsys):
    emit_json({"selected": [1e308, -2.5e-308, 0.1], "128": 1, "32": 2})
    out = capsys.readouterr().out
    assert _strict(out) == {"selected": [1e308, -2.5e-308, 0.1], "128": 1, "32": 2}
    assert out.index('"32"') < out.index('"128"')


def test_control_the_strict_reader_refuses_what_json_writes_by_default():
    with pytest.raises(ValueError, match="Infinity"):
        _strict(json.dumps({"x": float("inf")}))
