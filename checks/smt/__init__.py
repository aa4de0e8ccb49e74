"""SMT proofs of the results, each with a negative control, decided by z3 and cvc5.

SMT proofs of the results (definitions.md#results), each with a negative control, decided by
two independent solvers (z3 and cvc5).

Contract with the claim runner: :func:`smt_checks` maps a claim id to zero-argument callables
for a :class:`posreal.checks.base.SolverChoice` (``posreal check --solver``), each returning a
:class:`posreal.checks.base.CheckResult` with ``method="smt"`` (one exception, below), a verdict
(proved / proved by z3 only / proved by cvc5 only / counterexample / failed / unknown), each
solver's answer and time, and ``negative_control`` ("counterexample" only when the weakened
query's models were re-checked in Python to violate the conclusion).  :data:`SMT_CHECKS` is the
table for both solvers.  :func:`all_obligations` gives every query as an SMT-LIB 2 file
(``posreal check --export-smtlib DIR``; committed copies in ``checks/obligations/``).

Modules: :mod:`~posreal.checks.smt.common` (the proof pattern, rational model values),
:mod:`~posreal.checks.smt.solvers` (the solvers and their options, in one place),
:mod:`~posreal.checks.smt.obligations` (SMT-LIB 2 files), :mod:`~posreal.checks.smt.theorem2`,
:mod:`~posreal.checks.smt.proposition4`, :mod:`~posreal.checks.smt.underdetermination`,
:mod:`~posreal.checks.smt.expressivity` (static routing, the ``middle`` one-row bound),
:mod:`~posreal.checks.smt.ceiling` (class ceilings α*_L by MaxSMT) and
:mod:`~posreal.checks.smt.ceiling_check` (their check, cross-checked by cvc5),
:mod:`~posreal.checks.smt.extension` (length extension under position interpolation),
:mod:`~posreal.checks.smt.escape_depth`, :mod:`~posreal.checks.smt.escape_content` and
:mod:`~posreal.checks.smt.escape_induction` (what escapes the positional theory: E1-E3).
``smt_checks()["expressivity"]`` also holds the static-routing β check
(:mod:`~posreal.checks.smt.static_routing`: method ``enumeration``, no solver, verdict passed/failed).

Declaration: a module of this package that declares ``CLAIM = "<claim id>"`` and ``checks(choice)`` is found by
:func:`claim_modules` (a proof module also has ``proofs()``); adding an SMT proof touches its own module (and, for
a claim with Coq theorems, names them in :mod:`posreal.checks.coq_concordance` or says why there are none).
"""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Callable, Iterable
from types import ModuleType

from posreal.checks.base import CheckResult, SolverChoice
from posreal.checks.smt.common import SmtProof, proof_obligations
from posreal.checks.smt.obligations import Obligation
from posreal.theory.statements import STATEMENT_IDS


def claim_modules() -> list[ModuleType]:
    """Every module of this package that declares ``CLAIM`` and ``checks(choice)``.

    Every module of this package that declares ``CLAIM`` (a claim id) and ``checks(choice)``: in statement
    order, a claim's proof module (the one with ``proofs()``) before its other checks, then by name."""
    found = [importlib.import_module(f"{__name__}.{m.name}") for m in pkgutil.iter_modules(__path__)]
    found = [m for m in found if isinstance(getattr(m, "CLAIM", None), str) and callable(getattr(m, "checks", None))]
    order = {cid: n for n, cid in enumerate(STATEMENT_IDS)}
    unknown = [m.__name__ for m in found if m.CLAIM not in order]
    if unknown:
        raise ValueError(f"{', '.join(unknown)} declare a CLAIM that is not a statement id; accepted: "
                         f"{', '.join(STATEMENT_IDS)}")
    return sorted(found, key=lambda m: (order[m.CLAIM], not hasattr(m, "proofs"), m.__name__))


PROOF_MODULES: dict[str, ModuleType] = {m.CLAIM: m for m in claim_modules() if callable(getattr(m, "proofs", None))}


def smt_checks(choice: SolverChoice = SolverChoice.BOTH) -> dict[str, list[Callable[[], CheckResult]]]:
    """Claim id -> the SMT checks of that claim, decided by the chosen solvers.

    Each module's ``checks(choice)`` (expressivity also holds the class ceilings' checks and the static-routing β
    enumeration, method ``enumeration``, no solver)."""
    table: dict[str, list[Callable[[], CheckResult]]] = {}
    for module in claim_modules():
        table.setdefault(module.CLAIM, []).extend(module.checks(choice))
    return table


def proofs(ids: Iterable[str] | None = None) -> list[tuple[str, Callable[[], SmtProof]]]:
    """(check name, proof maker) of every SMT proof of the given claims (all by default)."""
    wanted = set(ids) if ids else set(PROOF_MODULES)
    return [pair for claim, module in PROOF_MODULES.items() if claim in wanted for pair in module.proofs()]


def all_obligations(ids: Iterable[str] | None = None) -> list[Obligation]:
    """Every query of every SMT check of the given claims, as SMT-LIB 2 obligations.

    Every query of every SMT check of the given claims (all by default), as SMT-LIB 2 obligations:
    the proofs' encodings, controls and hypotheses, and the class ceilings' "≥ k + 1 rows" / "≥ k rows"."""
    wanted = set(ids) if ids else set(PROOF_MODULES)
    out = [ob for name, make in proofs(wanted) for ob in proof_obligations(make(), name)]
    if "expressivity" in wanted:
        from posreal.checks.smt import ceiling_check
        out += ceiling_check.reference_obligations()
    return out


SMT_CHECKS: dict[str, list[Callable[[], CheckResult]]] = smt_checks(SolverChoice.BOTH)

__all__ = ["SMT_CHECKS", "smt_checks", "proofs", "all_obligations"]
