"""posreal's theory package: definitions and computations of the docs' Definitions page (no z3 here).

Public API: :func:`parse_pe`, :func:`parse_task`, :func:`register_pe`, :func:`select` (θ*),
:func:`transfer` (T_L θ), :func:`compute_alpha` (α_L; with ``limit=True`` also α♯_L),
:func:`limit_interval` (α♯_L), :func:`alpha_sweep`,
:func:`gradient_descent`, :func:`taxonomy` (α_L of every PE × task cell); learned absolute PEs: :func:`parse_learned`,
:func:`learned_alpha_interval` (α_L as an interval).
"""

from __future__ import annotations

if __name__ != "posreal.theory":   # the subpackage posreal.theory (posreal/theory -> ../theory)
    raise ImportError(f"import posreal.theory, not {__name__}: the repository's top-level folders are "
                      "subpackages of posreal, never packages of their own")

import importlib
from typing import TYPE_CHECKING, Any

# Lazy exports (PEP 562): importing ``posreal.theory`` (or a light submodule such as
# ``posreal.theory.errors``) loads neither numpy, scipy nor sympy until a name below is used.
_EXPORTS = {
    "dual_pe": "pe_specs", "parse_pe": "pe_specs", "register_pe": "tables",
    "is_learned": "pe_specs", "parse_learned": "pe_specs",
    "LearnedInterval": "underdetermination", "learned_alpha_interval": "underdetermination",
    "unregister_pe": "tables", "load_table": "tables",
    "Cell": "cell", "Mode": "arithmetic", "Transfer": "transfer_operator", "IntervalAlphaResult": "alpha",
    "PosrealError": "errors", "SpecError": "errors",
    "exact_transfer": "transfer_operator", "transfer": "transfer_operator",
    "Selection": "selection", "select": "selection",
    "dual_task": "tasks", "parse_task": "tasks",
    "gradient_descent": "training",
    "AlphaResult": "alpha", "alpha_sweep": "alpha", "compute_alpha": "alpha", "row_outcomes": "alpha",
    "limit_interval": "limit",
}

# ``taxonomy`` names both a submodule and the function it defines.  A lazy export would lose to the
# submodule once anything imports ``posreal.theory.taxonomy`` directly (the import system then binds the
# module to the package's attribute), so the function is bound here, eagerly: the module imports only the
# standard library at load time.
from posreal.theory.taxonomy import taxonomy  # noqa: E402

__all__ = sorted([*_EXPORTS, "taxonomy"])


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f"{__name__}.{module}"), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted([*globals(), *__all__])


if TYPE_CHECKING:
    from posreal.theory.alpha import AlphaResult, IntervalAlphaResult, alpha_sweep, compute_alpha, row_outcomes
    from posreal.theory.arithmetic import Mode
    from posreal.theory.cell import Cell
    from posreal.theory.transfer_operator import Transfer
    from posreal.theory.limit import limit_interval
    from posreal.theory.pe_specs import dual_pe, is_learned, parse_learned, parse_pe
    from posreal.theory.tables import register_pe, unregister_pe
    from posreal.theory.tables import load_table
    from posreal.theory.errors import PosrealError, SpecError
    from posreal.theory.transfer_operator import exact_transfer, transfer
    from posreal.theory.selection import Selection, select
    from posreal.theory.tasks import dual_task, parse_task
    from posreal.theory.training import gradient_descent
    from posreal.theory.underdetermination import LearnedInterval, learned_alpha_interval
