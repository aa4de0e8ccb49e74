"""The result of one check of one claim — what ``posreal check`` prints and the docs tabulate.

Verdicts (three kinds, never two): ``proved`` (a symbolic proof, or an SMT proof that *both*
z3 and cvc5 decided unsat), ``passed`` (a finite or randomized check found no violation),
``failed`` / ``counterexample`` (the claim was refuted: a counterexample is in ``detail``; two solvers
that disagree, one sat and one unsat, are a failure too), ``unknown`` (the solver gave up or timed
out: a failure, with the solver's reason).  An SMT proof that only one solver decided is
``proved by z3 only`` / ``proved by cvc5 only``: a verdict of its own, listed as such, and good only
when that one solver was all that was asked for (``posreal check --solver z3``); under the default
``--solver both`` the other solver's unknown or timeout makes it a failure, never a pass.
``kernel-checked``: a Coq proof that ``coqc`` compiled and whose ``Print Assumptions`` lists only the standard
library's axioms of the reals (:mod:`posreal.checks.coq`); ``not run``: its checker is not installed — listed,
never a pass.
``negative_control`` records what the same check said after one hypothesis was dropped or
weakened: it must be ``counterexample`` for an SMT proof to count.  All are Enums
(:class:`Verdict`, :class:`Control`, :class:`SolverStatus`, ...) whose values are the JSON strings.

SMT checks also carry, per solver, the answer and seconds of the proof obligation
(:attr:`CheckResult.solvers`) and of every obligation they posed (:attr:`CheckResult.obligations`:
the encoding, its negative control, the hypotheses alone; their SMT-LIB 2 text is what
``posreal check --export-smtlib DIR`` writes).  Reports print a control in words (:func:`control_words`:
a control that is refuted "fails as it should").
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from enum import StrEnum


class Verdict(StrEnum):
    """What one check concluded about its claim (JSON: the value strings)."""

    PROVED = "proved"                   # an SMT or symbolic proof
    PASSED = "passed"                   # a finite or randomized check found no violation
    FAILED = "failed"                   # the check could not establish the claim
    COUNTEREXAMPLE = "counterexample"   # the claim was refuted: a counterexample is in ``detail``
    UNKNOWN = "unknown"                 # the solver gave up or timed out (a failure, with its reason)
    PROVED_BY_Z3_ONLY = "proved by z3 only"       # z3 unsat; cvc5 not asked, or undecided (never silently a pass)
    PROVED_BY_CVC5_ONLY = "proved by cvc5 only"   # cvc5 unsat; z3 not asked, or undecided
    KERNEL_CHECKED = "kernel-checked"   # a Coq proof compiled by coqc, every assumption in the allowed list
    NOT_RUN = "not run"                 # the checker is not installed (coqc): nothing was checked, never a pass


class Solver(StrEnum):
    """An SMT solver that decides proof obligations (options: :mod:`posreal.checks.smt.solvers`)."""

    Z3 = "z3"
    CVC5 = "cvc5"


class SolverChoice(StrEnum):
    """Which solvers decide the SMT obligations: ``posreal check --solver z3|cvc5|both``."""

    Z3 = "z3"
    CVC5 = "cvc5"
    BOTH = "both"

    @property
    def solvers(self) -> tuple[Solver, ...]:
        """The solvers this choice asks: z3, cvc5, or both."""
        return (Solver.Z3, Solver.CVC5) if self is SolverChoice.BOTH else (Solver(self.value),)


class SolverStatus(StrEnum):
    """One solver's answer to one query."""

    SAT = "sat"
    UNSAT = "unsat"
    UNKNOWN = "unknown"   # gave up, or hit its timeout (``reason`` says which)


class ObligationKind(StrEnum):
    """The three queries of an SMT proof (each one SMT-LIB 2 file)."""

    ENCODING = "encoding"       # hypotheses ∧ ¬conclusion: must be unsat
    CONTROL = "control"         # the same with one hypothesis dropped or weakened: must be sat
    HYPOTHESES = "hypotheses"   # the hypotheses alone: must be sat (the proof is not vacuous)


@dataclass(frozen=True)
class SolverRun:
    """One solver's answer on one obligation, its wall-clock seconds and, when unknown, its reason."""

    solver: Solver
    answer: SolverStatus
    seconds: float
    reason: str = ""

    def to_json(self) -> dict:
        """The run as a JSON object: answer, seconds and reason."""
        return {"answer": self.answer.value, "seconds": self.seconds, "reason": self.reason or None}


@dataclass(frozen=True)
class ObligationRecord:
    """One obligation an SMT check posed: its kind, SMT-LIB file name, expected answer, each solver's run."""

    kind: ObligationKind
    file: str                      # as written by ``posreal check --export-smtlib DIR``
    expected: SolverStatus
    label: str                     # which encoding / which hypothesis was dropped
    runs: tuple[SolverRun, ...]

    def to_json(self) -> dict:
        """The obligation as a JSON object, with each solver's run."""
        return {"kind": self.kind.value, "file": self.file, "expected": self.expected.value, "label": self.label,
                **{run.solver.value: run.to_json() for run in self.runs}}


class Control(StrEnum):
    """What the negative control (the same check with one hypothesis dropped or weakened) said."""

    COUNTEREXAMPLE = "counterexample"         # refuted, as it must be: the check is not vacuous
    NO_COUNTEREXAMPLE = "no counterexample"   # not refuted: the check may be vacuous
    UNSAT = "unsat"                           # SMT: the dropped hypothesis was not needed
    UNKNOWN = "unknown"                       # SMT: the solver gave up on the control
    REFUSED = "refused"                       # SMT: the control's model is not rational
    UNVERIFIED = "unverified"                 # SMT: sat, but the Python re-check of the model failed
    DISAGREEMENT = "solvers disagree"         # SMT: one solver sat, the other unsat
    CRASHED = "crashed"                       # the control raised


CONTROL_WORDS: dict[Control | None, str] = {
    Control.COUNTEREXAMPLE: "fails as it should",
    Control.NO_COUNTEREXAMPLE: "DID NOT FAIL (the check may be vacuous)",
    Control.UNSAT: "DID NOT FAIL (the dropped hypothesis was not needed)",
    Control.UNKNOWN: "UNKNOWN (the solver gave up)",
    Control.REFUSED: "REFUSED (the control's model is not rational)",
    Control.UNVERIFIED: "UNVERIFIED (the re-check of the control's model failed)",
    Control.CRASHED: "CRASHED",
    None: "none",
}
"""How reports read a control (``posreal check``, the docs, the pytest summary): the JSON keeps the Enum values."""


def control_words(control: Control | None) -> str:
    """``"control: fails as it should"`` reads right; ``"negative control: counterexample"`` read like a failure."""
    return CONTROL_WORDS[control]


PROVED, PASSED, FAILED, COUNTEREXAMPLE, UNKNOWN = (Verdict.PROVED, Verdict.PASSED, Verdict.FAILED,
                                                   Verdict.COUNTEREXAMPLE, Verdict.UNKNOWN)
GOOD_VERDICTS = (Verdict.PROVED, Verdict.PASSED, Verdict.KERNEL_CHECKED)
# a one-solver verdict is good only when that solver alone was asked for
ONE_SOLVER_VERDICTS = {Verdict.PROVED_BY_Z3_ONLY: SolverChoice.Z3, Verdict.PROVED_BY_CVC5_ONLY: SolverChoice.CVC5}


@dataclass
class CheckResult:
    """The outcome of one check of a claim: verdict, negative control, solver runs and obligations."""

    claim: str                     # statement id, e.g. "theorem2"
    name: str                      # what this check establishes, one line
    method: str                    # "smt" | "symbolic" | "property" | "registry" | "training" | "enumeration"
    verdict: Verdict
    negative_control: Control | None   # Control.COUNTEREXAMPLE when the weakened check is refuted; None: n/a
    seconds: float = 0.0
    detail: str = ""
    data: dict = field(default_factory=dict)
    solver_choice: SolverChoice | None = None       # SMT checks: which solvers were asked (None: no solver)
    solvers: dict[Solver, SolverRun] = field(default_factory=dict)   # SMT: each solver on the proof obligation
    obligations: list[ObligationRecord] = field(default_factory=list)

    def __post_init__(self) -> None:
        # a verdict or control given by its string form is checked and stored as the Enum
        self.verdict = Verdict(self.verdict)
        if self.negative_control is not None:
            self.negative_control = Control(self.negative_control)
        if self.solver_choice is not None:
            self.solver_choice = SolverChoice(self.solver_choice)

    @property
    def ok(self) -> bool:
        """Whether the check counts as good: a good verdict and a negative control that was refuted (or none)."""
        control_ok = self.negative_control in (None, Control.COUNTEREXAMPLE)
        verdict_ok = (self.verdict in GOOD_VERDICTS
                      or (self.verdict in ONE_SOLVER_VERDICTS
                          and ONE_SOLVER_VERDICTS[self.verdict] is self.solver_choice))
        return verdict_ok and control_ok

    @property
    def one_solver(self) -> bool:
        """True when the verdict rests on one solver only (listed as such by ``posreal check``)."""
        return self.verdict in ONE_SOLVER_VERDICTS

    def to_json(self) -> dict:
        """The result as a JSON object (enums by value)."""
        out = asdict(self)
        out["verdict"] = self.verdict.value
        out["negative_control"] = None if self.negative_control is None else self.negative_control.value
        out["solver_choice"] = None if self.solver_choice is None else self.solver_choice.value
        out["solvers"] = {solver.value: run.to_json() for solver, run in self.solvers.items()}
        out["obligations"] = [o.to_json() for o in self.obligations]
        return out


@dataclass(frozen=True)
class DeclaredCheck:
    """One check as its module declares it.

    The claim it covers, its method, a one-line label, the zero-argument callable that runs it, whether it is slow
    (skipped by ``--skip-slow``), and, for a check that needs an outside tool, ``unavailable``: a callable that says
    why it cannot run here ("" when it can; the runner then lists it as not run).  A check module declares each of
    its checks where it defines it (:func:`posreal.checks.declare.claim_check`)."""

    claim: str
    method: str
    label: str
    run: Callable[[], CheckResult]
    slow: bool = False
    unavailable: Callable[[], str] | None = None


def timed(fn: Callable[[], CheckResult]) -> CheckResult:
    """Run a check and fill in its wall-clock seconds."""
    start = time.perf_counter()
    result = fn()
    result.seconds = round(time.perf_counter() - start, 4)
    return result
