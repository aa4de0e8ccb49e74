"""SMT (z3) proofs of the results (definitions.md#results), each with a negative control.

Contract with the claim runner: :data:`SMT_CHECKS` maps a claim id to zero-argument callables,
each returning a :class:`posreal.checks.base.CheckResult` with ``method="smt"`` (one exception, below), a verdict
(proved / counterexample / unknown) and ``negative_control`` ("counterexample" only when the
weakened query's model was re-checked in Python to violate the conclusion).

Modules: :mod:`~posreal.checks.smt.common` (queries, rational model values, the proof pattern),
:mod:`~posreal.checks.smt.theorem2`, :mod:`~posreal.checks.smt.proposition4`,
:mod:`~posreal.checks.smt.underdetermination`, :mod:`~posreal.checks.smt.expressivity` (static routing, the
``middle`` one-row bound), :mod:`~posreal.checks.smt.ceiling` (class ceilings α*_L by MaxSMT),
:mod:`~posreal.checks.smt.extension` (length extension under position interpolation).
``SMT_CHECKS["expressivity"]`` also holds the static-routing β check
(:mod:`~posreal.checks.smt.static_routing`: method ``enumeration``, no solver, verdict passed/failed).
"""

from __future__ import annotations

from collections.abc import Callable

from posreal.checks.base import CheckResult
from posreal.checks.smt import (ceiling, expressivity, extension, proposition4, static_routing, theorem2,
                                underdetermination)

SMT_CHECKS: dict[str, list[Callable[[], CheckResult]]] = {
    "theorem2": theorem2.checks(),
    "proposition4": proposition4.checks(),
    "underdetermination": underdetermination.checks(),
    # the last one is not SMT: the static-routing β enumeration (method "enumeration"), listed
    # here because the runner collects expressivity's enumeration coverage from this table
    "expressivity": expressivity.checks() + ceiling.checks() + static_routing.checks(),
    "extension": extension.checks(),
}

__all__ = ["SMT_CHECKS"]
