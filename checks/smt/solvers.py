"""The two SMT solvers that decide every proof obligation, and the options each one needs.

This module is the **one place** where solver options are set, each with the reason it is
needed.  Every call has a timeout (seconds, :data:`posreal.theory.defaults.SMT_TIMEOUT` unless a
proof says otherwise); ``unknown`` and a timeout come back as :attr:`SolverStatus.UNKNOWN` with
the solver's reason — never as a pass.

Main definitions:

* :data:`Z3_OPTIONS`, :data:`CVC5_OPTIONS` — the options (per obligation kind for cvc5), with reasons;
* :func:`decide_z3` — z3 on the obligation's z3 terms, translated into a z3 context of its own so
  that the answer does not depend on what the process built before (:class:`Z3Model` evaluates
  the caller's terms in its model, for the Python re-check of a negative control);
* :func:`decide_cvc5` — cvc5 on the obligation's SMT-LIB 2 *text*, exactly what
  ``posreal check --export-smtlib`` writes, so that the committed files are what cvc5 decided;
* :class:`Cvc5Model` — cvc5's model seen through z3's ``model.eval`` interface: a ground z3 term is
  printed as SMT-LIB, parsed by cvc5 against the obligation's symbols and evaluated there.  The
  same Python re-check then verifies a cvc5 counterexample as it verifies a z3 one.

References: cvc5 (Barbosa et al., TACAS 2022) and its options ``enum-inst`` (enumerative
instantiation, Reynolds, Barbosa and Fontaine, TACAS 2018) and ``mbqi`` (model-based
instantiation, Ge and de Moura, CAV 2009); z3 (de Moura and Bjørner, TACAS 2008).
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import z3

from posreal.checks.base import ObligationKind, Solver, SolverRun, SolverStatus

# z3: its defaults (E-matching with MBQI) decide every obligation of the project; only the
# timeout is set, per query (``timeout`` in milliseconds).
Z3_OPTIONS: dict[str, str] = {}

# cvc5 1.4 (PyPI ``cvc5``).  Measured on the 23 quantified proofs of theorem2, proposition4,
# underdetermination and expressivity: with cvc5's defaults (E-matching only) 11 of the 23
# encodings come back ``unknown (INCOMPLETE)``, and most negative controls and hypotheses-alone
# queries (satisfiable, quantified) too.
# The timeout is cvc5's ``tlimit-per`` (wall clock, per check-sat).  cvc5 tests it at points of its
# own choosing: on nonlinear arithmetic (no obligation of the project is nonlinear) a 1 s budget was
# measured to end after 1.6-1.9 s, a 10 s budget after 35 s on a heavily loaded machine.
CVC5_COMMON: dict[str, str] = {
    "produce-models": "true",   # a negative control's model is re-checked in Python (Cvc5Model)
}
CVC5_OPTIONS: dict[ObligationKind, dict[str, str]] = {
    # unsat side: enumerative instantiation completes the refutations E-matching gives up on
    # (with it all 23 encodings are unsat, each in well under a second)
    ObligationKind.ENCODING: {"enum-inst": "true"},
    # sat side: a model of a quantified formula needs model-based instantiation (with enum-inst
    # instead, 9 of 23 such queries time out); mbqi-enum adds enumerated candidate terms to MBQI,
    # without which the hypotheses of underdetermination.zero_alpha and .last_realizes time out
    ObligationKind.CONTROL: {"mbqi": "true", "mbqi-enum": "true"},
    ObligationKind.HYPOTHESES: {"mbqi": "true", "mbqi-enum": "true"},
}

# cvc5's budget on the sat side (negative controls, hypotheses alone), fixed once from a measurement
# (2026-12-03, every SMT check of every claim): the slowest cvc5 model on that side took 1.4 s; the only
# sat-side queries that reached the 20 s timeout, the hypotheses of the four `extension` proofs with an
# uninterpreted monotone V, came back unknown, and stayed unknown at 10 s under every option tried (mbqi,
# mbqi-enum, enum-inst, nl-ext=full, nl-cov, finite-model-find).  A sat-side answer never decides a verdict:
# a control's model is re-checked in Python, and an unknown is reported as unknown.  The unsat side (the
# proofs themselves) keeps the full timeout.
CVC5_SAT_SIDE_TIMEOUT = 3.0


def cvc5_budget(kind: ObligationKind, timeout: float) -> float:
    """cvc5's time limit (seconds) on an obligation of this kind whose proof allows ``timeout``."""
    return timeout if kind is ObligationKind.ENCODING else min(timeout, CVC5_SAT_SIDE_TIMEOUT)


def cvc5_command_line(kind: ObligationKind, timeout: float) -> str:
    """The cvc5 command line that decides an obligation file of this kind as :func:`decide_cvc5` does."""
    opts = {**CVC5_OPTIONS[kind], "tlimit-per": str(_millis(cvc5_budget(kind, timeout)))}
    return "cvc5 " + " ".join(f"--{k}" if v == "true" else f"--{k}={v}" for k, v in opts.items()) + " FILE"


def z3_command_line(timeout: float) -> str:
    """The z3 command line of an obligation file with this timeout."""
    return f"z3 -t:{_millis(timeout)} FILE"


def _cvc5():
    """The cvc5 module, loaded only when cvc5 is asked for (it ships no type information)."""
    import cvc5  # type: ignore[import-untyped]
    return cvc5


def _millis(timeout: float) -> int:
    return max(1, int(timeout * 1000))


class AlgebraicValue(ValueError):
    """A model value that is not a rational number (refused, never rounded)."""


@dataclass
class SolverAnswer:
    """One solver's answer, its model when sat (a z3 ``ModelRef`` or a :class:`Cvc5Model`), its reason."""

    status: SolverStatus
    model: Any
    reason: str = ""
    seconds: float = 0.0

    def run(self, solver: Solver) -> SolverRun:
        """The answer as the SolverRun of ``solver``."""
        return SolverRun(solver, self.status, round(self.seconds, 4), self.reason)


def decide_z3(assertions, timeout: float) -> SolverAnswer:
    """One z3 query with a timeout (seconds), on the assertions translated into a z3 context of its own.

    z3's search depends on its internal term ids, hence on every term the process built before: the
    same query was measured to take 0.06 s in a fresh process and to time out (20 s) after the test
    suite had built thousands of terms.  In a fresh context the answer depends on the query alone."""
    ctx = z3.Context()
    solver = z3.Solver(ctx=ctx)
    solver.set("timeout", _millis(timeout))
    for key, val in Z3_OPTIONS.items():
        solver.set(key, val)
    solver.add(*[a.translate(ctx) for a in assertions])
    start = time.perf_counter()
    answer = solver.check()
    seconds = time.perf_counter() - start
    if answer == z3.unsat:
        return SolverAnswer(SolverStatus.UNSAT, None, "", seconds)
    if answer == z3.sat:
        return SolverAnswer(SolverStatus.SAT, Z3Model(solver.model(), ctx), "", seconds)
    return SolverAnswer(SolverStatus.UNKNOWN, None, solver.reason_unknown() or "unknown", seconds)


class Z3Model:
    """z3's model of a query decided in a context of its own, evaluated on terms of the caller's context."""

    def __init__(self, model: z3.ModelRef, ctx: z3.Context) -> None:
        self._model, self._ctx = model, ctx

    def eval(self, expr: z3.ExprRef, model_completion: bool = True) -> z3.ExprRef:
        """The value of ``expr`` in the model."""
        return self._model.eval(expr.translate(self._ctx), model_completion=model_completion)

    def __repr__(self) -> str:
        return repr(self._model)


def decide_cvc5(text: str, kind: ObligationKind, timeout: float, name: str = "obligation") -> SolverAnswer:
    """cvc5 on one SMT-LIB 2 obligation.

    Its ``check-sat`` is ours: timed, with ``tlimit-per`` set to :func:`cvc5_budget`."""
    cvc5 = _cvc5()

    tm = cvc5.TermManager()
    solver = cvc5.Solver(tm)
    budget = cvc5_budget(kind, timeout)
    for key, val in {**CVC5_COMMON, **CVC5_OPTIONS[kind], "tlimit-per": str(_millis(budget))}.items():
        solver.setOption(key, val)
    start = time.perf_counter()
    try:
        parser = cvc5.InputParser(solver)
        parser.setStringInput(cvc5.InputLanguage.SMT_LIB_2_6, text, name)
        symbols = parser.getSymbolManager()
        while True:
            command = parser.nextCommand()
            if command.isNull():
                break
            # the file's (set-info :status ...) is for readers: given to cvc5 it would make a
            # mismatch an exception instead of an answer; check-sat is ours, below
            if command.getCommandName() not in ("check-sat", "exit", "set-info"):
                command.invoke(solver, symbols)
        start = time.perf_counter()
        result = solver.checkSat()
    except RuntimeError as err:   # a parse error or an internal failure of cvc5: no answer, never a pass
        return SolverAnswer(SolverStatus.UNKNOWN, None, f"cvc5 error: {str(err)[:200]}", time.perf_counter() - start)
    seconds = time.perf_counter() - start
    if result.isUnsat():
        return SolverAnswer(SolverStatus.UNSAT, None, "", seconds)
    if result.isSat():
        return SolverAnswer(SolverStatus.SAT, Cvc5Model(tm, solver, symbols), "", seconds)
    why = str(result.getUnknownExplanation()).removeprefix("UnknownExplanation.")
    return SolverAnswer(SolverStatus.UNKNOWN, None, why.lower() if why else "unknown", seconds)


class Cvc5Model:
    """cvc5's model behind z3's ``model.eval(term, model_completion=True)``: ground terms only.

    The term is printed by z3 as SMT-LIB, parsed by cvc5 with the obligation's own symbols, and its
    value comes back as a z3 numeral or Boolean; any other value (a real that is not rational, an
    element of an uninterpreted sort) is refused (:class:`AlgebraicValue`)."""

    def __init__(self, term_manager, solver, symbols) -> None:
        cvc5 = _cvc5()
        self._keep = term_manager   # the terms live as long as their manager
        self._solver = solver
        self._parser = cvc5.InputParser(solver, symbols)
        self._parser.setIncrementalStringInput(cvc5.InputLanguage.SMT_LIB_2_6, "model")

    def eval(self, expr: z3.ExprRef, model_completion: bool = True) -> z3.ExprRef:
        """The value of ``expr`` in the model, as a z3 value."""
        self._parser.appendIncrementalStringInput(expr.sexpr() + "\n")
        term = self._parser.nextTerm()
        val = self._solver.getValue(term)
        ctx = expr.ctx   # the value is returned in the term's own z3 context
        if val.isBooleanValue():
            return z3.BoolVal(val.getBooleanValue(), ctx)
        if val.isRealValue():   # integers too
            q = Fraction(val.getRealValue())
            if z3.is_real(expr):
                return z3.RealVal(q, ctx)
            if q.denominator == 1:
                return z3.IntVal(int(q), ctx)
        raise AlgebraicValue(f"cvc5 model value {val} of {expr.sexpr()[:80]} is neither a rational number nor a "
                             "Boolean; refused")

    def __repr__(self) -> str:
        return "<cvc5 model>"
