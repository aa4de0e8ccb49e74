"""Fuzzing the command line: hypothesis builds argument lists for every subcommand from grammars
of valid and invalid pieces and runs the real entry point in a subprocess under a memory limit
(RLIMIT_AS) and a timeout.  Every run must exit 0, 1, 2, 3 or 130, print no traceback, and a
command line holding an invalid piece must be a usage error: exit 2 with one line on stderr.

Profiles:

* default (CI): a few dozen cases of cheap commands, each in a fresh ``python -m posreal``;
* ``POSREAL_FUZZ=thorough`` (on demand; ``POSREAL_FUZZ_CASES`` sets the count, default 10,000):
  every case in a process forked from a parent that has already imported numpy, scipy and z3
  (the child installs the entry point's Ctrl-C handler and calls :func:`posreal.cli.main` with its
  own argv, stdout and stderr, under the same budgets), so ten thousand cases take minutes rather than hours.  It
  prints the tally (cases, exit codes, tracebacks, usage errors with another exit code, timeouts),
  also written as it goes to the file ``POSREAL_FUZZ_REPORT`` names, and fails if any case broke
  the rules.  Run it on one core:
  ``POSREAL_FUZZ=thorough python -m pytest -q -s tests/test_fuzz.py -p no:cacheprovider``.
"""

from __future__ import annotations

import collections
import json
import os
import resource
import select
import signal
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

pytestmark = pytest.mark.subprocess   # every test here starts a process

ROOT = Path(__file__).resolve().parents[1]
THOROUGH = os.environ.get("POSREAL_FUZZ") == "thorough"
CASES = int(os.environ.get("POSREAL_FUZZ_CASES", "10000")) if THOROUGH else 24
MEMORY_BUDGET = 3 * 2 ** 30
TIMEOUT = 120.0
ALLOWED = {0, 1, 2, 3, 130}
SCRATCH = Path(tempfile.mkdtemp(prefix="posreal-fuzz-"))
CERTS = sorted(str(p) for p in (ROOT / "counterexamples" / "certificates").glob("*.json"))


def _hostile_files() -> dict[str, str]:
    files = {"deep.json": "[" * 100_000 + "]" * 100_000, "bigint.json": "1" * 5000, "notjson.json": "{nope",
             "list.json": "[1, 2]", "empty.json": ""}
    out = {}
    for name, text in files.items():
        path = SCRATCH / name
        path.write_text(text)
        out[name] = str(path)
    fifo = SCRATCH / "fifo"
    os.mkfifo(fifo)
    out["fifo"] = str(fifo)
    return out


HOSTILE = _hostile_files()


@dataclass
class Case:
    args: list[str]
    usage: bool = False           # an invalid piece is in the command line: exit 2 expected
    pieces: list[str] = field(default_factory=list)


# ----------------------------------------------------------------------------- grammar
VALID_PES = ["nope", "relbias", "relbias:3", "alibi", "rope:4", "abscol:4", "abssin:2", "colbias", "colbias:5",
             "dual:relbias", "dual:alibi", "dual:dual:colbias"]
INVALID_PES = ["", "rope:3", "relbias:-1", "relbias:1_0", "relbias:١", "rope:4:nan", "rope:4:1e999", "abssin:0",
               "dual:" * 200 + "alibi", "relbias:1000000000", "abssin:100000", "colbias:" + "9" * 40, "x" * 5000,
               "table:/dev/zero", "table:/nonexistent.json", "learned:0", "dual:learned:4", "rope", "ālibi"]
VALID_TASKS = ["offset:0", "offset:1", "offset:3", "position:0", "position:2", "copy", "middle", "reverse", "half",
               "dual:copy", "dual:offset:1"]
INVALID_TASKS = ["", "offset:-1", "offset:1.5", "offset:99999999999999999999", "position:", "dual:" * 200 + "copy",
                 "copy:1", "offset:١", "q" * 5000]
VALID_LENGTHS = ["8", "16", "32", "12,24", "32,64"]
INVALID_LENGTHS = ["0", "-5", "abc", "3_2", "١٦", ",", "", "99999999999", ",".join(["8"] * 300), "7" * 5000]
VALID_TRAIN = ["4", "6", "8"]
INVALID_TRAIN = ["0", "-1", "x", "1e3", "99999999999999", "١"]
VALID_SECONDS = ["1", "0.5", "2"]
INVALID_SECONDS = ["0", "-1", "nan", "inf", "1e306", "x", "1_0"]
INVALID_PATHS = ["", "/dev/full", "/dev/zero", "/proc/posreal-out", "x" * 300, str(SCRATCH), "/nonexistent/dir/f"]


def piece(valid: list[str], invalid: list[str]) -> st.SearchStrategy[tuple[str, bool]]:
    """One value: mostly valid, sometimes invalid (the flag says which)."""
    return st.one_of(st.sampled_from(valid).map(lambda v: (v, False)),
                     st.sampled_from(invalid).map(lambda v: (v, True)))


@st.composite
def alpha_case(draw) -> Case:
    pe, bad_pe = draw(piece(VALID_PES, INVALID_PES))
    task, bad_task = draw(piece(VALID_TASKS, INVALID_TASKS))
    train, bad_train = draw(piece(VALID_TRAIN, INVALID_TRAIN))
    lengths, bad_lengths = draw(piece(VALID_LENGTHS, INVALID_LENGTHS))
    args = ["alpha", "--pe", pe, "--task", task, "--train-length", train, "--lengths", lengths]
    args += draw(st.sampled_from([[], ["--json"], ["--exact"], ["--certified"], ["--json", "--exact"]]))
    return Case(args, bad_pe or bad_task or bad_train or bad_lengths)


@st.composite
def table_case(draw) -> Case:
    pes = draw(st.lists(piece(VALID_PES[:6], INVALID_PES), min_size=1, max_size=2))
    tasks = draw(st.lists(piece(VALID_TASKS, INVALID_TASKS), min_size=1, max_size=2))
    lengths, bad_lengths = draw(piece(["16", "16,32"], INVALID_LENGTHS))
    bad = bad_lengths or any(b and v.strip() for v, b in pes + tasks) or all(not v.strip() for v, _ in pes) \
        or all(not v.strip() for v, _ in tasks)
    args = ["table", "--pes", ",".join(v for v, _ in pes), "--tasks", ",".join(v for v, _ in tasks),
            "--train-length", "8", "--lengths", lengths]
    args += draw(st.sampled_from([[], ["--json"], ["--csv"], ["--markdown"]]))
    plot = draw(st.sampled_from([None, "good", "bad"]))
    if plot == "good":
        args += ["--plot", str(SCRATCH / "fuzz.png")]
    elif plot == "bad":
        args += ["--plot", draw(st.sampled_from(INVALID_PATHS + [".png", str(SCRATCH / ".png")]))]
        bad = True
    return Case(args, bad)


@st.composite
def ceiling_case(draw) -> Case:
    task, bad_task = draw(piece(["copy", "middle", "position:1", "offset:1", "reverse"], INVALID_TASKS))
    length, bad_length = draw(piece(["3", "4", "5"], ["0", "65", "x", "99999999999"]))
    seconds, bad_seconds = draw(piece(VALID_SECONDS, INVALID_SECONDS))
    klass = draw(st.sampled_from([["--kernel", "relative"], ["--kernel", "column"], ["--pe", "relbias:2"],
                                  ["--pe", "alibi"], ["--kernel", "diagonal"], ["--pe", "relbias:1000000000"]]))
    bad_class = klass[1] in ("diagonal", "relbias:1000000000")
    args = ["ceiling", *klass, "--task", task, "--length", length, "--timeout", seconds, "--train-length", "4"]
    args += draw(st.sampled_from([[], ["--json"]]))
    return Case(args, bad_task or bad_length or bad_seconds or bad_class)


@st.composite
def verify_case(draw) -> Case:
    files = draw(st.lists(st.sampled_from(CERTS + list(HOSTILE.values()) + ["/dev/zero", "/dev/urandom", "/proc",
                                                                             "/nonexistent.json", "y" * 3000]),
                          min_size=1, max_size=3))
    bad = any(f not in CERTS for f in files)
    return Case(["verify", *files, *draw(st.sampled_from([[], ["--json"]]))], bad)


@st.composite
def search_case(draw) -> Case:
    kind = draw(st.sampled_from(["conjecture", "conjecture", "colspan"]))
    if kind == "colspan":   # the colspan search takes seconds: only its invalid command lines are fuzzed
        bad = draw(st.sampled_from([["--evidence-steps", v] for v in ("0", "-3", "x", "99999999999", "١")]
                                   + [["--out", p] for p in INVALID_PATHS] + [["--bogus"]]))
        return Case(["search", "colspan", *bad], True)
    budget, bad_budget = draw(piece(["1", "2"], ["0", "-1", "x", "10000000000", "١"]))
    steps, bad_steps = draw(piece(["20", "50"], ["0", "99999999999", "2.5", "x"]))
    seed, bad_seed = draw(piece(["0", "1", "7"], ["-1", "x", "99999999999", "٣"]))
    args = ["search", "conjecture", "--budget", budget, "--gd-steps", steps, "--seed", seed]
    bad = bad_budget or bad_steps or bad_seed
    fam, bad_fam = draw(piece(["registry", "relative", "column,general"], ["", "nonsense", "registry,x"]))
    if draw(st.booleans()):
        args += ["--families", fam]
        bad = bad or bad_fam
    out = draw(st.sampled_from([None, "good", "bad", "certify-bad"]))
    if out == "good":
        args += ["--out", str(SCRATCH / f"conj-{draw(st.integers(0, 10 ** 9))}.jsonl")]
    elif out == "bad":
        args += ["--out", draw(st.sampled_from(INVALID_PATHS))]
        bad = True
    elif out == "certify-bad":
        args += ["--certify", draw(st.sampled_from(["", "/dev/null", "/proc/posreal", "x" * 300]))]
        bad = True
    return Case(args + draw(st.sampled_from([[], ["--json"]])), bad)


@st.composite
def usage_case(draw) -> Case:
    """Command lines of the long-running commands (experiment, check, colspan) that must fail as
    usage errors before any work, plus malformed top-level command lines."""
    return Case(draw(st.sampled_from([
        ["experiment", "--out", ""], ["experiment", "--jobs", "0"], ["experiment", "--jobs", "100000"],
        ["experiment", "--threshold", "2"], ["experiment", "--threshold", "nan"], ["experiment", "--bogus"],
        ["experiment", "--out", "/dev/full"], ["experiment", "--out", "x" * 300], ["experiment", "--quick", "--full"],
        ["check", "nonexistent-claim"], ["check", "x" * 5000], ["check", "--bogus"],
        [], ["bogus"], ["--max-memory", "lots", "alpha"], ["--max-memory", "0", "alpha", "--pe", "nope"],
        ["alpha"], ["alpha", "--pe", "relbias"], ["alpha", "--pe", "nope", "--task", "copy", "--seed", "1"],
        ["alpha", "--pe", "learned:2", "--task", "copy", "--exact"],
    ])), True)


COMMAND_LINES = st.one_of(alpha_case(), table_case(), ceiling_case(), verify_case(), search_case(), usage_case())


# ----------------------------------------------------------------------------- running
def _set_budgets() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY_BUDGET, MEMORY_BUDGET))


@dataclass
class Outcome:
    code: int | None            # None: timed out (killed)
    stderr: str


def run_spawned(args: list[str]) -> Outcome:
    """A fresh ``python -m posreal`` (the CI profile)."""
    env = {**os.environ, "OPENBLAS_NUM_THREADS": "1", "OMP_NUM_THREADS": "1", "PYTHONPATH": str(ROOT),
           "POSREAL_HYPOTHESIS_DIR": "none"}
    try:
        proc = subprocess.run([sys.executable, "-m", "posreal", *args], cwd=SCRATCH, env=env, capture_output=True,
                              timeout=TIMEOUT, preexec_fn=_set_budgets, stdin=subprocess.DEVNULL, check=False)
    except subprocess.TimeoutExpired as err:
        return Outcome(None, (err.stderr or b"").decode("utf-8", "replace"))
    return Outcome(proc.returncode, proc.stderr.decode("utf-8", "replace"))


def run_forked(args: list[str]) -> Outcome:
    """The same entry point in a child forked from this (pre-imported) process (the thorough profile)."""
    err_r, err_w = os.pipe()
    pid = os.fork()
    if pid == 0:   # child: its own argv, stdout to /dev/null, stderr to the pipe, the same limits
        try:
            os.close(err_r)
            _set_budgets()
            null = os.open(os.devnull, os.O_RDWR)
            os.dup2(null, 0)
            os.dup2(null, 1)
            os.dup2(err_w, 2)
            os.chdir(SCRATCH)
            sys.stdout = open(1, "w", closefd=False)  # noqa: SIM115  (the child's own streams, for its life)
            sys.stderr = open(2, "w", closefd=False)  # noqa: SIM115
            sys.argv = ["posreal", *args]
            import posreal.__main__ as entry_module
            signal.signal(signal.SIGINT, entry_module._interrupted)
            from posreal.cli import main
            code = main(args)
        except BaseException:   # noqa: BLE001 — a crash of the harness itself is reported as such
            import traceback
            traceback.print_exc()
            code = 99
        os._exit(code)
    os.close(err_w)
    chunks: list[bytes] = []
    deadline = time.monotonic() + TIMEOUT
    while True:
        ready, _, _ = select.select([err_r], [], [], max(0.0, deadline - time.monotonic()))
        if not ready:
            os.kill(pid, signal.SIGKILL)
            os.waitpid(pid, 0)
            os.close(err_r)
            return Outcome(None, b"".join(chunks).decode("utf-8", "replace"))
        data = os.read(err_r, 65536)
        if not data:
            break
        if sum(len(c) for c in chunks) < 1 << 20:
            chunks.append(data)
    os.close(err_r)
    _, status = os.waitpid(pid, 0)
    code = os.waitstatus_to_exitcode(status)
    return Outcome(code, b"".join(chunks).decode("utf-8", "replace"))


def problems(case: Case, outcome: Outcome) -> list[str]:
    """The rules every run must keep (empty when it kept them)."""
    out = []
    if outcome.code is None:
        out.append("timeout")
    elif outcome.code not in ALLOWED:
        out.append(f"exit {outcome.code}")
    if "Traceback" in outcome.stderr:
        out.append("traceback")
    if case.usage and outcome.code is not None and outcome.code != 2:
        out.append(f"usage error with exit {outcome.code}")
    if outcome.code == 2 and len(outcome.stderr.strip().splitlines()) != 1:
        out.append("usage error not one line")
    return out


# ----------------------------------------------------------------------------- tests
@pytest.mark.slow   # a subprocess per fuzzed command line: a minute under load
@pytest.mark.skipif(THOROUGH, reason="the thorough profile runs instead")
@settings(max_examples=CASES, deadline=None, database=None, derandomize=True,
          suppress_health_check=list(HealthCheck), phases=[Phase.generate])
@given(case=st.one_of(alpha_case(), table_case(), verify_case(), search_case(), usage_case()))
def test_fuzzed_command_lines_keep_the_exit_code_rules(case: Case) -> None:
    outcome = run_spawned(case.args)
    assert not problems(case, outcome), (case.args, outcome.code, outcome.stderr[-2000:])


@pytest.mark.skipif(not THOROUGH, reason="on demand: POSREAL_FUZZ=thorough")
def test_thorough_fuzz_tally() -> None:
    os.environ.update(OPENBLAS_NUM_THREADS="1", OMP_NUM_THREADS="1", POSREAL_HYPOTHESIS_DIR="none")
    import numpy  # noqa: F401  (pre-imported once, shared by the forked children)
    import posreal.checks.smt.ceiling
    import posreal.counterexamples.conjecture
    import posreal.counterexamples.verifier.verify
    import posreal.theory.alpha
    import posreal.plots
    import scipy.optimize  # noqa: F401
    import z3  # noqa: F401

    import posreal.cli  # noqa: F401
    tally: collections.Counter = collections.Counter()
    by_command: collections.Counter = collections.Counter()
    failures: list[tuple[list[str], list[str], str]] = []
    start = time.monotonic()

    @settings(max_examples=CASES, deadline=None, database=None, derandomize=False,
              suppress_health_check=list(HealthCheck), phases=[Phase.generate])
    @given(case=COMMAND_LINES)
    def one(case: Case) -> None:
        outcome = run_forked(case.args)
        tally["cases"] += 1
        tally[f"exit {outcome.code}"] += 1
        tally["usage-error lines"] += case.usage
        by_command[case.args[0] if case.args else "(none)"] += 1
        found = problems(case, outcome)
        for p in found:   # "problem: ..." keys, apart from the "exit N" counts
            tally["problem: " + (p.split(" with ")[0] if p.startswith("usage error with") else p)] += 1
        if found:
            failures.append((case.args, found, outcome.stderr[-600:]))
        if tally["cases"] % 250 == 0:
            print(f"  {tally['cases']} cases, {time.monotonic() - start:.0f} s", file=sys.stderr, flush=True)
            write(summary())

    def summary() -> dict:
        return {"cases": tally["cases"], "seconds": round(time.monotonic() - start, 1),
                "exit_codes": {k: v for k, v in sorted(tally.items()) if k.startswith("exit ")},
                "tracebacks": tally["problem: traceback"],
                "usage_errors_with_another_exit": tally["problem: usage error"],
                "usage_errors_not_one_line": tally["problem: usage error not one line"],
                "timeouts": tally["problem: timeout"],
                "exit_codes_outside_0_1_2_3_130": sum(v for k, v in tally.items()
                                                      if k.startswith("problem: exit")),
                "command_lines_with_an_invalid_piece": tally["usage-error lines"], "by_command": dict(by_command),
                "failures": [{"args": [a[:80] for a in args][:12], "problems": p, "stderr": e[-300:]}
                             for args, p, e in failures[:20]]}

    def write(report: dict) -> None:
        if os.environ.get("POSREAL_FUZZ_REPORT"):   # the tally so far, rewritten as the run goes
            Path(os.environ["POSREAL_FUZZ_REPORT"]).write_text(json.dumps(report, indent=2, ensure_ascii=False))

    one()
    report = summary()
    write(report)
    print("\nFUZZ TALLY " + json.dumps(report, indent=2, ensure_ascii=False))
    assert tally["cases"] >= CASES * 0.9
    assert not failures, report["failures"]
