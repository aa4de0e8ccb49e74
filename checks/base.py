"""The result of one check of one claim — what ``posreal check`` prints and the docs tabulate.

Verdicts (three kinds, never two): ``proved`` (an SMT or symbolic proof), ``passed`` (a finite
or randomized check found no violation), ``failed`` / ``counterexample`` (the claim was
refuted: a witness is in ``detail``), ``unknown`` (the solver gave up or timed out: a failure,
with the solver's reason).  ``negative_control`` records what the same check said after one
hypothesis was dropped or weakened: it must be ``counterexample`` for an SMT proof to count.
"""

from __future__ import annotations

import time
from dataclasses import asdict, dataclass, field
from typing import Callable

PROVED, PASSED, FAILED, COUNTEREXAMPLE, UNKNOWN = "proved", "passed", "failed", "counterexample", "unknown"
GOOD_VERDICTS = (PROVED, PASSED)


@dataclass
class CheckResult:
    claim: str                     # statement id, e.g. "theorem2"
    name: str                      # what this check establishes, one line
    method: str                    # "smt" | "symbolic" | "property" | "registry" | "training" | "enumeration"
    verdict: str                   # proved | passed | failed | counterexample | unknown
    negative_control: str | None   # "counterexample" when the weakened query is refuted as it must be; None: n/a
    seconds: float = 0.0
    detail: str = ""
    data: dict = field(default_factory=dict)

    @property
    def ok(self) -> bool:
        control_ok = self.negative_control in (None, COUNTEREXAMPLE)
        return self.verdict in GOOD_VERDICTS and control_ok

    def to_json(self) -> dict:
        return asdict(self)


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
