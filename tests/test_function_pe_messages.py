"""The whole one-line refusals of theory/function_pe.py not pinned in test_function_pe_contract.py: complex values
(an array, nested lists), a result numpy cannot convert (float and exact paths, its own error or one it raises), a
column PE's inputs in exact mode, the width inside the accepted form, and the inputs shown whole up to three."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

from posreal.theory.errors import SpecError
from posreal.theory.function_pe import function_pe

FORM3 = "a function psi(n) of int64 arrays of shape (m,) returning an (m, 3) array of finite numbers"
GENERAL1 = "a function psi(i, j) of int64 arrays of shape (m,) returning an (m, 1) array of finite numbers"


def refusal(call: Callable[[], Any]) -> str:
    with pytest.raises(SpecError) as err:
        call()
    return str(err.value)


def test_complex_values_are_refused_never_cut_to_their_real_part() -> None:
    tail = f"; accepted: {FORM3} (real numbers only)"
    assert refusal(lambda: function_pe("c", lambda n: np.ones((n.size, 3)) * 1j, "relative", 3)) == (
        "invalid PE 'c': its function returned complex numbers on offsets [0, 1, 2]…" + tail)
    nested = lambda n: [[1.0, 2.0, complex(0, 1) if k == 3 else 0.0] for k in n]   # noqa: E731
    assert refusal(lambda: function_pe("c", nested, "column", 3)) == (
        "invalid PE 'c': its function returned complex numbers on key positions [0, 1, 2]…" + tail)
    boxed = lambda n: np.array([[1, 2, np.complex128(2)]] * n.size, dtype=object)    # noqa: E731
    assert refusal(lambda: function_pe("c", boxed, "relative", 3)) == (
        "invalid PE 'c': its function returned complex numbers on offsets [0, 1, 2]…" + tail)
    general = lambda i, j: np.ones((i.size, 1), dtype=complex)                        # noqa: E731
    assert refusal(lambda: function_pe("g", general, "general", 1)) == (
        "invalid PE 'g': its function returned complex numbers on pairs (i, j) [(0, 0), (1, 0), (1, 1)]…; "
        f"accepted: {GENERAL1} (real numbers only)")
    # control: the same values as reals are accepted, and a real object array is no complex one
    assert function_pe("r", lambda n: np.ones((n.size, 3)), "relative", 3).source.width == 3
    assert function_pe("r", lambda n: np.array([[1, 2, 3]] * n.size, dtype=object), "relative", 3).rational


class Unconvertible:
    """A result whose conversion to an array fails with ``error`` (a TypeError is numpy's own kind of refusal)."""

    def __init__(self, error: Exception):
        self.error = error

    def __array__(self, dtype=None, copy=None):
        raise self.error


def _late(error: Exception) -> Callable[[np.ndarray], Any]:
    """Ints on the probe's offsets 0..3, an unconvertible result farther out."""
    return lambda n: [[int(k)] for k in n] if n.max(initial=0) < 4 else Unconvertible(error)


def test_a_result_that_is_no_array_is_refused_in_float_and_exact_mode() -> None:
    form = "a function psi(n) of int64 arrays of shape (m,) returning an (m, 1) array of finite numbers"
    pe = function_pe("u", _late(TypeError("no")), "relative", 1)
    assert pe.rational                                                            # control: the probe passed
    assert refusal(lambda: pe.features(np.array([5]), 8)) == (
        f"invalid PE 'u': its function returned 'Unconvertible' that is not an array of numbers ('no'); "
        f"accepted: {form}")
    assert refusal(lambda: pe.exact_features([5], 8)) == (
        f"invalid PE 'u': its function returned values that are not an array ('no'); accepted: {form}")
    raising = function_pe("r", _late(RuntimeError("boom")), "relative", 1)
    assert refusal(lambda: raising.features(np.array([4, 5]), 8)) == (
        "invalid PE 'r': converting its 'Unconvertible' result to numbers raised RuntimeError: 'boom' on offsets "
        f"[4, 5]; accepted: {form}")
    assert refusal(lambda: raising.exact_features([4, 5, 6, 7], 8)) == (
        "invalid PE 'r': converting its 'Unconvertible' result to an array raised RuntimeError: 'boom' on offsets "
        f"[4, 5, 6]…; accepted: {form}")
    assert raising.exact_features([1, 2], 8) == [(1,), (2,)]                     # control: near inputs still work


def test_exact_mode_names_a_column_pes_key_positions() -> None:
    pe = function_pe("col", lambda n: [[int(k)] if k < 5 else ["x"] for k in n], "column", 1)
    assert refusal(lambda: pe.exact_features([2, 7], 8)) == (
        "invalid PE 'col' in exact mode: its function returned 'x' (str) on key positions [7]; accepted: ints or "
        "fractions.Fraction entries (or float or certified mode)")
    assert pe.exact_features([2, 4], 8) == [(2,), (4,)]                          # control


def test_a_one_dimensional_result_is_a_shape_error_with_the_width() -> None:
    assert refusal(lambda: function_pe("flat", lambda n: np.zeros(n.size), "relative", 3)) == (
        f"invalid PE 'flat': its function returned shape (4,) on 4 offsets [0, 1, 2]…; accepted: {FORM3}")
    assert refusal(lambda: function_pe("flat", lambda n: [0.0] * n.size, "relative", 3)) == (
        f"invalid PE 'flat': its function returned shape (4,) on 4 offsets [0, 1, 2]…; accepted: {FORM3}")
