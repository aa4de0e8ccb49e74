"""pytest configuration: hypothesis profiles, registered once here, and the per-claim summary.

Hypothesis profiles:

* ``ci`` — hypothesis's built-in CI profile (derandomized, no deadline, failure blobs printed)
  extended with more examples; loaded when the ``CI`` environment variable is set;
* ``thorough`` — for long runs: ``pytest --hypothesis-profile=thorough``;
* ``local`` otherwise: hypothesis's defaults without the per-example deadline (exact arithmetic
  on a loaded machine makes timing meaningless).

The per-claim summary: a test that runs a claim's check passes its ``CheckResult`` to the
``record_check`` fixture, which stores it on the test's report (``user_properties``, so it also
travels back from pytest-xdist workers).  :func:`pytest_terminal_summary` prints, as the last block of
the run, one line per claim: its methods, its verdict and what its negative controls said.
"""

import json
import os
import tempfile

import pytest
from hypothesis import HealthCheck, settings

settings.register_profile("ci", parent=settings.get_profile("ci"), max_examples=150,
                          suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("thorough", max_examples=1000, deadline=None,
                          suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("local", deadline=None)
settings.load_profile("ci" if os.environ.get("CI") else "local")

# the Coq axiom audit (posreal.checks.coq.cached_audit) runs once for all test processes: stored by the hash of
# its inputs, under a file lock
os.environ.setdefault("POSREAL_COQ_AUDIT_CACHE", os.path.join(tempfile.gettempdir(), "posreal-coq-audit"))

PROPERTY = "posreal-check"   # the user_properties key of a recorded CheckResult


@pytest.fixture
def record_check(request):
    """``record_check(result)``: put a claim's CheckResult into this run's per-claim summary."""
    def record(result) -> None:
        payload = {"claim": result.claim, "method": result.method, "name": result.name, "ok": bool(result.ok),
                   "verdict": result.verdict.value,
                   "control": None if result.negative_control is None else result.negative_control.value}
        request.node.user_properties.append((PROPERTY, json.dumps(payload)))
    return record


_RECORDED: list[dict] = []   # recorded payloads, in report order (on the controller under pytest-xdist)


def pytest_runtest_logreport(report):
    if report.when == "call":
        _RECORDED.extend(json.loads(v) for k, v in report.user_properties if k == PROPERTY)


def claim_summary_lines(recorded: list[dict]) -> list[str]:
    """One line per claim (statement order): methods, verdict, controls — what the run established."""
    from posreal.checks.base import CONTROL_WORDS, Control
    from posreal.theory.statements import STATEMENT_IDS, statement
    by_claim: dict[str, list[dict]] = {}
    for r in recorded:
        by_claim.setdefault(r["claim"], []).append(r)
    lines = []
    width = max(len(cid) for cid in STATEMENT_IDS)
    for cid in STATEMENT_IDS:
        results = by_claim.get(cid, [])
        if not results:
            lines.append(f"{cid:<{width}}  not checked in this run")
            continue
        st = statement(cid)
        kernel = lambda r: " (kernel-checked)" if r["verdict"] == "kernel-checked" else ""   # noqa: E731
        methods = ", ".join(dict.fromkeys(r["method"] + kernel(r) for r in results))
        bad = [r for r in results if not r["ok"]]
        count = f"{len(results)} check" + ("s" if len(results) != 1 else "")
        verdict = (f"FAILED ({len(bad)} of {count})" if bad else
                   {"refuted": "refuted", "conjecture": "open: no counterexample"}.get(st.status, "holds")
                   + f" ({count})")
        controls = [r["control"] for r in results if r["control"] is not None]
        good = sum(c == Control.COUNTEREXAMPLE.value for c in controls)
        if not controls:
            control = "no controls"
        elif good == len(controls):
            control = f"{CONTROL_WORDS[Control.COUNTEREXAMPLE]} ({good}/{len(controls)})"
        else:
            failing = sorted({CONTROL_WORDS[Control(c)] for c in controls if c != Control.COUNTEREXAMPLE.value})
            control = f"{len(controls) - good} of {len(controls)} NOT as they should: " + "; ".join(failing)
        lines.append(f"{cid:<{width}}  {verdict:<35}  {methods:<26}  controls: {control}")
    return lines


@pytest.hookimpl(wrapper=True, tryfirst=True)
def pytest_terminal_summary(terminalreporter, exitstatus, config):
    """The last block of the run (after pytest's own short summary, before its closing count line):
    every claim, its methods, its verdict and its negative controls."""
    result = yield
    if not _RECORDED:
        return result
    terminalreporter.section("claims checked in this run (tests/test_claims.py, posreal check)", sep="=")
    for line in claim_summary_lines(_RECORDED):
        terminalreporter.write_line(line)
    return result
