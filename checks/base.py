"""The result of one check of one claim — what ``posreal check`` prints and the docs tabulate.

Verdicts (three kinds, never two): ``proved`` (an SMT or symbolic proof), ``passed`` (a finite
or randomized check found no violation), ``failed`` / ``counterexample`` (the claim was
refuted: a witness is in ``detail``), ``unknown`` (the solver gave up or timed out: a failure,
with the solver's reason).  ``negative_control`` records what the same check said after one
hypothesis was dropped or weakened: it must be ``counterexample`` for an SMT proof to count.
Both are Enums (:class:`Verdict`, :class:`Control`) whose values are the JSON strings; reports print a
control in words (:func:`control_words`: a control that is refuted "fails as it should").
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
    COUNTEREXAMPLE = "counterexample"   # the claim was refuted: a witness is in ``detail``
    UNKNOWN = "unknown"                 # the solver gave up or timed out (a failure, with its reason)


class Control(StrEnum):
    """What the negative control (the same check with one hypothesis dropped or weakened) said."""

    COUNTEREXAMPLE = "counterexample"         # refuted, as it must be: the check is not vacuous
    NO_COUNTEREXAMPLE = "no counterexample"   # not refuted: the check may be vacuous
    UNSAT = "unsat"                           # SMT: the dropped hypothesis was not needed
    UNKNOWN = "unknown"                       # SMT: the solver gave up on the control
    REFUSED = "refused"                       # SMT: the control's model is not rational
    UNVERIFIED = "unverified"                 # SMT: sat, but the Python re-check of the model failed
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
GOOD_VERDICTS = (Verdict.PROVED, Verdict.PASSED)


@dataclass
class CheckResult:
    claim: str                     # statement id, e.g. "theorem2"
    name: str                      # what this check establishes, one line
    method: str                    # "smt" | "symbolic" | "property" | "registry" | "training" | "enumeration"
    verdict: Verdict
    negative_control: Control | None   # Control.COUNTEREXAMPLE when the weakened check is refuted; None: n/a
    seconds: float = 0.0
    detail: str = ""
    data: dict = field(default_factory=dict)

    def __post_init__(self) -> None:
        # a verdict or control given by its string form is checked and stored as the Enum
        self.verdict = Verdict(self.verdict)
        if self.negative_control is not None:
            self.negative_control = Control(self.negative_control)

    @property
    def ok(self) -> bool:
        control_ok = self.negative_control in (None, Control.COUNTEREXAMPLE)
        return self.verdict in GOOD_VERDICTS and control_ok

    def to_json(self) -> dict:
        out = asdict(self)
        out["verdict"] = self.verdict.value
        out["negative_control"] = None if self.negative_control is None else self.negative_control.value
        return out


@dataclass(frozen=True)
class RegisteredCheck:
    """One check as the claim runner registers it: the claim it covers, its method, a one-line label,
    the zero-argument callable that runs it, and whether it is slow (skipped by ``--skip-slow``).
    Each engine module lists its checks once, as a tuple of these."""

    claim: str
    method: str
    label: str
    run: Callable[[], CheckResult]
    slow: bool = False


def timed(fn: Callable[[], CheckResult]) -> CheckResult:
    """Run a check and fill in its wall-clock seconds."""
    start = time.perf_counter()
    result = fn()
    result.seconds = round(time.perf_counter() - start, 4)
    return result
