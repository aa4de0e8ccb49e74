"""SMT (z3) proofs of the results of THEORY.md §2, each with a negative control.

Contract with the claim runner: :data:`SMT_CHECKS` maps a claim id to zero-argument callables,
each returning a :class:`checks.base.CheckResult` with ``method="smt"``, a verdict
(proved / counterexample / unknown) and ``negative_control`` ("counterexample" only when the
weakened query's model was re-checked in Python to violate the conclusion).

Modules: :mod:`~checks.smt.common` (queries, rational model values, the proof pattern),
:mod:`~checks.smt.theorem2`, :mod:`~checks.smt.proposition4`,
:mod:`~checks.smt.underdetermination`, :mod:`~checks.smt.expressivity` (static routing, the
``middle`` one-row bound), :mod:`~checks.smt.ceiling` (class ceilings α*_L by MaxSMT).
:data:`ENUMERATION_CHECKS` holds the static-routing β check (:mod:`~checks.smt.static_routing`,
method ``enumeration``, no solver) for the same runner.
"""

from __future__ import annotations

from typing import Callable

from checks.base import CheckResult
from checks.smt import ceiling, expressivity, proposition4, static_routing, theorem2, underdetermination

SMT_CHECKS: dict[str, list[Callable[[], CheckResult]]] = {
    "theorem2": theorem2.checks(),
    "proposition4": proposition4.checks(),
    "underdetermination": underdetermination.checks(),
    "expressivity": expressivity.checks() + ceiling.checks(),
}

# not SMT, listed separately for the runner: the β enumeration check (method "enumeration")
ENUMERATION_CHECKS: dict[str, list[Callable[[], CheckResult]]] = {
    "expressivity": static_routing.checks(),
}

__all__ = ["ENUMERATION_CHECKS", "SMT_CHECKS"]
