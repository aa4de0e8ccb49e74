"""Where a check declares the claim it covers: at its own definition.

Main definitions:

* :func:`claim_check` — decorator: ``@claim_check("theorem1", "symbolic", "Theorem 1 bound, γ > 0")`` above a
  zero-argument check function registers it (a :class:`~posreal.checks.base.DeclaredCheck`) under its module;
* :func:`declare` — the same for checks built from a table of the module itself (one per property, one Coq
  check per claim of the concordance);
* :func:`declared_in` — the checks a module declared, in definition order;
* :func:`check_modules`, :func:`declared_checks` — every module of the ``posreal.checks`` package (not its
  sub-packages: the SMT proofs keep their own per-claim modules, decided by the chosen solvers), imported in
  name order, and every check they declared.  A module that cannot be imported (``properties`` needs
  hypothesis, the dev extra) is skipped with its reason.

Adding a check therefore touches its own module only: the claim runner (:mod:`posreal.checks.runner`) reads
:func:`declared_checks`; nothing else lists checks.
"""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Callable
from typing import TypeVar

from posreal.checks.base import CheckResult, DeclaredCheck

F = TypeVar("F", bound=Callable[..., CheckResult])   # a check: callable with no argument (others have defaults)

_DECLARED: dict[str, list[DeclaredCheck]] = {}   # module name -> its checks, in definition order

# modules of posreal.checks that hold no check (infrastructure): not imported by the discovery
NOT_CHECK_MODULES = frozenset({"base", "declare", "runner", "coq", "coq_concordance"})


def declare(module: str, *checks: DeclaredCheck) -> None:
    """Register checks under ``module`` (its ``__name__``); declaring the same label twice is an error."""
    known = _DECLARED.setdefault(module, [])
    for check in checks:
        if any((c.claim, c.method, c.label) == (check.claim, check.method, check.label) for c in known):
            raise ValueError(f"{module} declares the check {check.claim}/{check.method}/{check.label!r} twice")
        known.append(check)


def claim_check(claim: str, method: str, label: str, *, slow: bool = False,
                unavailable: Callable[[], str] | None = None) -> Callable[[F], F]:
    """Decorator: the decorated zero-argument function is a check of ``claim`` by ``method`` (see module doc)."""
    from posreal.theory.statements import METHODS, statement
    statement(claim)   # one-line SpecError for an unknown claim id, at import
    if method not in (*METHODS, "coq"):
        raise ValueError(f"unknown check method {method!r}; accepted: {', '.join((*METHODS, 'coq'))}")

    def wrap(fn: F) -> F:
        declare(fn.__module__, DeclaredCheck(claim, method, label, fn, slow, unavailable))
        return fn
    return wrap


def declared_in(module: str) -> tuple[DeclaredCheck, ...]:
    """The checks declared in module ``module``, in declaration order."""
    return tuple(_DECLARED.get(module, ()))


def check_modules() -> tuple[list[str], dict[str, str]]:
    """The check modules of ``posreal.checks`` (imported, name order) and the ones that could not be imported."""
    import posreal.checks as package
    names = sorted(m.name for m in pkgutil.iter_modules(package.__path__)
                   if not m.ispkg and not m.name.startswith("_") and m.name not in NOT_CHECK_MODULES)
    loaded, missing = [], {}
    for name in names:
        full = f"{package.__name__}.{name}"
        try:
            importlib.import_module(full)
        except ImportError as exc:   # properties without hypothesis (the dev extra)
            missing[full] = f"{type(exc).__name__}: {exc}"
            continue
        loaded.append(full)
    return loaded, missing


def declared_checks() -> tuple[list[DeclaredCheck], dict[str, str]]:
    """Every declared check of every check module, and module -> why it could not be imported."""
    loaded, missing = check_modules()
    return [c for module in loaded for c in declared_in(module)], missing
