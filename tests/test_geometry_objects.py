"""The geometry objects of posreal.theory.geometry: one per name, parsed from every accepted form, each
owning its LP layout, norm orders, steepest-descent step and the combinations it allows; the CLI's choices
and refusals come from these declarations."""

from __future__ import annotations

import math

import numpy as np
import pytest
from posreal.cli import main
from posreal.theory.alpha import compute_alpha
from posreal.theory.errors import PosrealError, SpecError
from posreal.theory.geometry import (DECLARED, DEFAULT_GEOMETRY, GEOMETRY_FORMS, LINEAR_GEOMETRIES, Geometry, Program,
                                     SelectionGeometry, Use, allowing, linear_forms)


def test_one_object_per_name_in_declaration_order() -> None:
    assert list(DECLARED) == list(Geometry) and [g.name for g in DECLARED.values()] == list(Geometry)
    assert DEFAULT_GEOMETRY is DECLARED[Geometry.L2] and GEOMETRY_FORMS == "l2, linf, l1"
    assert [g.value for g in LINEAR_GEOMETRIES] == ["linf", "l1"] and linear_forms() == "linf or l1"


@pytest.mark.parametrize("form", ["linf", " LINF ", Geometry.LINF, DECLARED[Geometry.LINF]])
def test_parse_accepts_every_form_and_round_trips(form) -> None:
    rule = SelectionGeometry.parse(form)
    assert rule is DECLARED[Geometry.LINF] and str(rule) == "linf" and SelectionGeometry.parse(str(rule)) is rule


@pytest.mark.parametrize("bad", ["l3", "", 2, None])
def test_parse_refuses_other_values_in_one_line(bad) -> None:
    with pytest.raises(SpecError) as err:
        SelectionGeometry.parse(bad)
    assert str(err.value) == f"invalid geometry {bad!r}; accepted: l2, linf, l1"


def test_the_lp_layout_is_the_geometrys_and_l2_has_none() -> None:
    assert DECLARED[Geometry.LINF].lp_columns(3) == (4, [3, 3, 3])          # (θ, t): one bound t for all
    assert DECLARED[Geometry.L1].lp_columns(3) == (6, [3, 4, 5])            # (θ, s): s_c for each θ_c
    with pytest.raises(PosrealError, match="the ℓ2 selection is a quadratic program"):
        DECLARED[Geometry.L2].lp_columns(3)
    assert {g.program for g in DECLARED.values()} == set(Program)


def test_norm_and_dual_norm_orders_are_dual() -> None:
    for g in DECLARED.values():
        assert 1 / g.order + 1 / g.dual_order == pytest.approx(1.0)
    assert DECLARED[Geometry.LINF].order == math.inf and DECLARED[Geometry.L1].dual_order == math.inf


def test_steepest_directions_are_the_norms_unit_vectors_most_aligned_with_minus_the_gradient() -> None:
    g = np.array([0.5, -2.0, 0.0])
    assert DECLARED[Geometry.L2].direction(g).tolist() == [-0.5, 2.0, -0.0]
    assert DECLARED[Geometry.LINF].direction(g).tolist() == [-1.0, 1.0, 0.0]
    assert DECLARED[Geometry.L1].direction(g).tolist() == [0.0, 1.0, 0.0]
    assert DECLARED[Geometry.L2].default_step(lambda: 4.0) == 0.25
    assert DECLARED[Geometry.L1].default_step(lambda: 1 / 0) == 0.01          # β is not computed for ℓ1


def test_limit_needs_l2_stated_once_for_the_api_and_the_cli(capsys) -> None:
    """One rule, two callers: the refusals differ only in what they name."""
    accepted = allowing(Use.LIMIT)
    assert accepted == "l2 (α♯ needs the second-order term of gradient descent, derived for ℓ2 only)"
    with pytest.raises(SpecError) as err:
        compute_alpha("relbias", "offset:1", 4, [8], geometry="l1", limit=True)
    assert str(err.value) == f"invalid geometry with limit=True 'l1'; accepted: {accepted}"
    for command in (["alpha", "--pe", "relbias", "--task", "offset:1"], ["table"]):
        assert main([*command, "--geometry", "linf", "--limit"]) == 2
        assert f"invalid option --limit with geometry 'linf'; accepted: {accepted}" in capsys.readouterr().err
    DECLARED[Geometry.L2].require(Use.LIMIT, "anything")                     # control: ℓ2 allows it
    assert all(not g.allows(use) for g in LINEAR_GEOMETRIES for use in Use)


def test_the_cli_choices_are_the_declared_names(capsys) -> None:
    assert main(["alpha", "--pe", "relbias", "--task", "offset:1", "--geometry", "l3"]) == 2
    assert "invalid geometry 'l3'; accepted: l2, linf, l1" in capsys.readouterr().err
