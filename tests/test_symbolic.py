"""Symbolic derivations: Theorem 1's finite bounds and the gradient span lemma, with their controls."""

import pytest
import sympy as sp

from posreal.checks.base import COUNTEREXAMPLE, PROVED
from posreal.checks.symbolic import (check_theorem1_negative, check_theorem1_positive,
                             derive_gradient_span, derive_theorem1_negative, derive_theorem1_positive, is_zero)


def test_is_zero_decides_both_ways():
    x = sp.Symbol("x", real=True)
    assert is_zero(sp.exp(x) * sp.exp(-x) - 1)
    assert not is_zero(sp.exp(x) - 1)


@pytest.mark.parametrize("m", [2, 3, 5])
def test_positive_bound_is_derived(m):
    der = derive_theorem1_positive(2, m=m)
    assert der.ok, der.failed_steps()
    rho, eps, B, gamma = sp.symbols("rho epsilon B gamma", positive=True)
    # the derived expression, evaluated at a point, matches the formula evaluated independently
    point = {rho: 3, eps: sp.Rational(1, 10), B: 2, gamma: sp.Rational(3, 2)}
    expected = 1 / (1 + (m - 1) * sp.exp(-3 * (sp.Rational(3, 2) - sp.Rational(2, 5))))
    assert sp.simplify(der.result.subs(point) - expected) == 0


def test_negative_bound_is_derived():
    der = derive_theorem1_negative(2, m=3)
    assert der.ok, der.failed_steps()


@pytest.mark.parametrize("derive", [derive_theorem1_positive, derive_theorem1_negative])
def test_dropping_the_factor_two_breaks_the_derivation(derive):
    der = derive(1)
    assert not der.ok
    assert any(s.name.startswith("constant") for s in der.steps if not s.ok)
    cx = der.counterexample
    assert cx is not None
    attention = float(cx["attention"])
    if "claimed_lower_bound" in cx:
        assert attention < float(cx["claimed_lower_bound"])
    else:
        assert attention > float(cx["claimed_upper_bound"])


def test_theorem1_checks_report_proved_with_controls():
    for check in (check_theorem1_positive, check_theorem1_negative):
        result = check()
        assert result.claim == "theorem1" and result.method == "symbolic"
        assert result.verdict == PROVED and result.negative_control == COUNTEREXAMPLE, result.detail


def test_span_lemma_and_its_controls():
    assert derive_gradient_span("theorem").ok
    outside = derive_gradient_span("outside_term")
    assert not outside.ok and outside.counterexample is not None
    colspan = derive_gradient_span("outside_colspan")
    assert not colspan.ok
    cx = colspan.counterexample
    # the invalid argument's witness: v is outside col Zᵀ and yet moves under gradient descent
    assert cx["v_in_col_Zt"] is False and any(x != "0" for x in cx["inner_products_z_v"])
    # check_gradient_span (these derivations as a registered check) runs in tests/test_claims.py


def test_unknown_span_variant_is_rejected():
    with pytest.raises(ValueError):
        derive_gradient_span("bogus")
