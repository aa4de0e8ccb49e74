"""On-demand mutation run of the trusted core, with mutmut: a seeded sample and a measured score.

Covered modules: ``posreal.theory.*`` and the certificate verifier
``posreal.counterexamples.verifier.*``.  Not part of CI; run from the repository root::

    python benchmarks/mutation/mutation.py --seed 1 --sample 200 --report /tmp/mut-seed1.md

A run's figures go into the table of ``benchmarks/mutation/mutation-summary.md``; its report is not kept.

What it does:

1. **In place.** mutmut runs at the repository root, on the package as pip and mypy see it: the folders
   ``theory/``, ``checks/``, ... are the subpackages ``posreal.theory``, ... through the committed symlinks
   ``posreal/theory -> ../theory`` and so on, so mutmut's path-derived module names (``posreal/theory/alpha.py``
   -> ``posreal.theory.alpha``) equal the import names.  ``[tool.mutmut]`` in ``pyproject.toml`` lists the
   symlinked folders as source paths (mutmut does not follow symlinks below a source path); mutmut writes its
   copy and the mutants to ``mutants/`` (ignored by git).
2. **Generate** every mutant with mutmut (its own mutation operators) and list their names.
3. **Sample** ``--sample`` of them with ``random.Random(--seed)`` from the sorted name list.
4. **Run** ``mutmut run --max-children 1 NAMES...`` (one core; BLAS threads pinned to one; each mutant in a
   child of mutmut's fork server, ``process_isolation = "forkserver"``): each
   mutant is judged by the fast tests (``-m "not slow and not subprocess"``, without the whole-repository
   test files: docs build, packaging, README, start-up, fuzz; see ``[tool.mutmut]``) that
   execute the mutated function, as recorded by mutmut's own stats pass.
5. **Score.** Survivors listed in ``benchmarks/mutation/mutation-equivalent.md`` (matched by mutant name *and*
   by the changed source text, so an edit that renumbers mutants voids an entry) are equivalent and leave the
   denominator; score = killed / (killed + survived), where "survived" includes mutants that no
   selected test executes.  Prints the score and every non-equivalent survivor with its diff.

``--resume`` reuses the run in ``mutants/`` (the sources must be unchanged) with the current tests and re-runs only
the sampled mutants it did not kill — tests added after a run are judged without regenerating
everything; the report says so.

Exit code: 0 when the score reaches ``--min-score`` (default 0.90), 1 below it, 2 usage error.
"""

from __future__ import annotations

import argparse
import datetime as dt
import importlib.util
import json
import os
import platform
import random
import re
import shutil
import subprocess
import sys
import time
from dataclasses import dataclass, field
from enum import Enum
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
EQUIVALENT_LIST = ROOT / "benchmarks" / "mutation" / "mutation-equivalent.md"
SOURCES = ("posreal", "theory", "checks", "counterexamples", "experiment")   # what a run's marker fingerprints
MUTANTS = ROOT / "mutants"                       # mutmut's working copy (ignored by git)
RUN_MARKER = MUTANTS / ".posreal-mutation-run"
IGNORED = shutil.ignore_patterns("__pycache__", "*.pyc", ".hypothesis", ".pytest_cache")
ENTRY = re.compile(r"^- `(?P<name>[^`]+)`: `(?P<old>[^`]*)` → `(?P<new>[^`]*)` — (?P<reason>.+)$")

# Runs at the repository root: mutmut's own generation step (copy sources, write every mutant).
GENERATE = """
import os
from mutmut.__main__ import create_mutants
from mutmut.mutation.trampoline import set_mutant_under_test
from mutmut.utils.file_utils import copy_also_copy_files, copy_src_dir
set_mutant_under_test("mutant_generation")
os.makedirs("mutants", exist_ok=True)
copy_src_dir()
copy_also_copy_files()
create_mutants(1)
"""


class Status(Enum):
    """A sampled mutant's outcome; mutmut's exit-code statuses folded into what the score needs."""

    KILLED = "killed"
    TIMEOUT = "timeout"            # counted as killed: the tests did not pass
    SURVIVED = "survived"
    NO_TESTS = "no tests"          # counted as survived: no selected test executes the function
    EQUIVALENT = "equivalent"      # a survivor recorded in mutation-equivalent.md
    OTHER = "other"                # suspicious / not checked / segfault: counted as survived


@dataclass(frozen=True)
class Mutant:
    name: str                      # mutmut's name, e.g. posreal.theory.selection.x_select__mutmut_3
    status: Status
    old: str = ""                  # the changed source line(s), stripped, before ...
    new: str = ""                  # ... and after the mutation
    reason: str = ""               # why it is equivalent (from the list)


@dataclass(frozen=True)
class Equivalent:
    name: str                      # the mutant's full name (numbered within its function)
    old: str
    new: str
    reason: str


@dataclass
class Report:
    seed: int
    sample: int
    generated: int
    mutants: list[Mutant]
    seconds: float
    versions: dict[str, str]
    rerun: int = -1                # with --resume: how many survivors were re-run (-1: a fresh run)
    report_only: bool = False      # rendered from an earlier run's results (--report-only)
    commit: str = "unknown"        # the commit the mutated sources were staged from
    tests_commit: str = "unknown"  # ... and the tests that judged them (refreshed by --resume)
    unused_equivalents: list[Equivalent] = field(default_factory=list)

    def count(self, *statuses: Status) -> int:
        return sum(m.status in statuses for m in self.mutants)

    @property
    def killed(self) -> int:
        return self.count(Status.KILLED, Status.TIMEOUT)

    @property
    def survived(self) -> int:
        return self.count(Status.SURVIVED, Status.NO_TESTS, Status.OTHER)

    @property
    def score(self) -> float:
        judged = self.killed + self.survived
        return self.killed / judged if judged else 0.0


def load_equivalents(path: Path = EQUIVALENT_LIST) -> list[Equivalent]:
    """Entries ``- `mutant name`: `old` → `new` — reason`` of the committed list."""
    if not path.is_file():
        return []
    out = []
    for line in path.read_text(encoding="utf-8").splitlines():
        match = ENTRY.match(line.strip())
        if match:
            out.append(Equivalent(match["name"], match["old"], match["new"], match["reason"].strip()))
    return out


def source_fingerprint() -> str:
    """SHA-256 over the package's Python sources (what ``--resume`` requires unchanged)."""
    import hashlib
    digest = hashlib.sha256()
    for name in SOURCES:
        for path in sorted((ROOT / name).rglob("*.py")):
            if "__pycache__" not in path.parts:
                digest.update(str(path.relative_to(ROOT)).encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()


def one_core_env() -> dict[str, str]:
    env = dict(os.environ)
    for var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
        env[var] = "1"
    env.pop("MUTANT_UNDER_TEST", None)
    return env


def generated_names(workdir: Path) -> list[str]:
    """Every mutant mutmut wrote, from its per-file ``.meta`` records, sorted."""
    names: list[str] = []
    for meta in sorted((workdir / "mutants").rglob("*.py.meta")):
        names.extend(json.loads(meta.read_text(encoding="utf-8"))["exit_code_by_key"])
    return sorted(names)


def exit_codes(workdir: Path) -> dict[str, int | None]:
    codes: dict[str, int | None] = {}
    for meta in (workdir / "mutants").rglob("*.py.meta"):
        codes.update(json.loads(meta.read_text(encoding="utf-8"))["exit_code_by_key"])
    return codes


def classify(code: int | None) -> Status:
    from mutmut.stats import (
        status_by_exit_code,  # the tool's own reading of its exit codes
    )

    text = status_by_exit_code[code]
    if text == "killed":
        return Status.KILLED
    if text == "timeout":
        return Status.TIMEOUT
    if text == "survived":
        return Status.SURVIVED
    if text == "no tests":
        return Status.NO_TESTS
    return Status.OTHER


def changed_lines(workdir: Path, name: str, env: dict[str, str]) -> tuple[str, str]:
    """The mutated line(s) before and after, from ``mutmut show`` (stripped, joined by ' / ')."""
    diff = subprocess.run([sys.executable, "-m", "mutmut", "show", name], check=False, cwd=workdir, env=env,
                          capture_output=True, text=True).stdout
    old = [ln[1:].strip() for ln in diff.splitlines() if ln.startswith("-") and not ln.startswith("---")]
    new = [ln[1:].strip() for ln in diff.splitlines() if ln.startswith("+") and not ln.startswith("+++")]
    return " / ".join(old), " / ".join(new)


def versions() -> dict[str, str]:
    from importlib.metadata import version

    out = {"python": platform.python_version()}
    for package in ("mutmut", "pytest", "hypothesis", "numpy", "scipy", "sympy"):
        try:
            out[package] = version(package)
        except Exception:   # noqa: BLE001 - a missing package is reported, not fatal
            out[package] = "not installed"
    return out


def git_commit() -> str:
    """HEAD's short hash, with " (with uncommitted changes)" when the working tree differs from it."""
    result = subprocess.run(["git", "rev-parse", "--short", "HEAD"], check=False, cwd=ROOT,
                            capture_output=True, text=True)
    dirty = subprocess.run(["git", "status", "--porcelain", "--untracked-files=no"], check=False, cwd=ROOT,
                           capture_output=True, text=True)
    return (result.stdout.strip() or "unknown") + (" (with uncommitted changes)" if dirty.stdout.strip() else "")


def staged_commit(workdir: Path) -> str:
    """The commit the mutants were generated from, as the run's marker recorded it."""
    for line in RUN_MARKER.read_text(encoding="utf-8").splitlines():
        if line.startswith("commit: "):
            return line.removeprefix("commit: ")
    return "unknown"


def sources_unchanged(workdir: Path) -> bool:
    """Whether the sources equal those the mutants were generated from (the condition for ``--resume``)."""
    return RUN_MARKER.is_file() and f"sources: {source_fingerprint()}" in RUN_MARKER.read_text(encoding="utf-8")


def refresh_tests(workdir: Path) -> None:
    """Replace mutmut's copy of the tests by the repository's."""
    shutil.rmtree(MUTANTS / "tests", ignore_errors=True)
    shutil.copytree(ROOT / "tests", MUTANTS / "tests", ignore=IGNORED)


def run(seed: int, sample: int, workdir: Path, max_children: int, log: Path, resume: bool = False,
        report_only: bool = False) -> Report:
    env = one_core_env()
    start = time.monotonic()
    if report_only:
        if not RUN_MARKER.is_file() or not log.is_file():
            raise SystemExit("error: invalid --report-only: no finished run in mutants/; accepted: after a run")
        # the run's wall time: from generation to the last write of its log
        start -= log.stat().st_mtime - RUN_MARKER.stat().st_mtime
    elif resume:
        if not sources_unchanged(workdir):
            raise SystemExit("error: invalid --resume: no run in mutants/, or the sources changed since; "
                             "accepted: --resume after a run of the same sources")
        refresh_tests(workdir)
    else:
        shutil.rmtree(MUTANTS, ignore_errors=True)      # a fresh run: mutmut regenerates every mutant
        subprocess.run([sys.executable, "-c", GENERATE], cwd=workdir, env=env, check=True,
                       stdout=subprocess.DEVNULL)
        RUN_MARKER.write_text(f"generated by benchmarks/mutation/mutation.py\ncommit: {git_commit()}\n"
                              f"sources: {source_fingerprint()}\n", encoding="utf-8")
    names = generated_names(workdir)
    chosen = sorted(random.Random(seed).sample(names, min(sample, len(names))))
    todo = [] if report_only else chosen
    if resume:   # tests were only added or changed: re-run what the earlier run did not kill
        previous = exit_codes(workdir)
        todo = [n for n in chosen if classify(previous.get(n)) not in (Status.KILLED, Status.TIMEOUT)]
    print(f"mutmut generated {len(names)} mutants; sample of {len(chosen)} (seed {seed}); running {len(todo)}; "
          f"log: {log}", flush=True)
    if todo:
        with log.open("w", encoding="utf-8") as out:
            done = subprocess.run([sys.executable, "-m", "mutmut", "run", "--max-children", str(max_children),
                                   *todo], check=False, cwd=workdir, env=env, stdout=out, stderr=subprocess.STDOUT)
        if done.returncode != 0:
            raise SystemExit(f"error: mutmut run failed with exit code {done.returncode}; see {log}")
    codes = exit_codes(workdir)
    equivalents = load_equivalents()
    used: set[Equivalent] = set()
    mutants = []
    for name in chosen:
        status = classify(codes.get(name))
        old = new = reason = ""
        if status in (Status.SURVIVED, Status.NO_TESTS, Status.OTHER):
            old, new = changed_lines(workdir, name, env)
            # both the name and the changed text must match: an edit that renumbers mutants voids the entry
            match = next((e for e in equivalents if (e.name, e.old, e.new) == (name, old, new)), None)
            if match is not None and status is Status.SURVIVED:
                status, reason = Status.EQUIVALENT, match.reason
                used.add(match)
        mutants.append(Mutant(name, status, old, new, reason))
    return Report(seed, len(chosen), len(names), mutants, time.monotonic() - start, versions(),
                  rerun=len(todo) if resume else -1, report_only=report_only, commit=staged_commit(workdir),
                  tests_commit=git_commit() if resume else staged_commit(workdir),
                  unused_equivalents=[e for e in equivalents if e not in used])


def test_selection() -> str:
    """The pytest arguments that select the tests judging the mutants, as pyproject.toml sets them."""
    import shlex
    import tomllib

    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["mutmut"]
    return shlex.join(config["pytest_add_cli_args_test_selection"])


def render(report: Report) -> str:
    """The report as Markdown (also what is printed)."""
    lines = [
        "# Mutation run of the trusted core",
        "",
        (f"- date: {dt.datetime.now(dt.UTC).strftime('%Y-%m-%d %H:%M UTC')}; "
         f"sources staged from commit: {report.commit}; tests from commit: {report.tests_commit}"),
        f"- tool: mutmut {report.versions.get('mutmut')} (run by `benchmarks/mutation/mutation.py`, one worker); "
        + ", ".join(f"{k} {v}" for k, v in report.versions.items() if k != "mutmut"),
        "- covered modules: `posreal.theory.*`, `posreal.counterexamples.verifier.*`",
        (f"- tests: `pytest -x {test_selection()}` (pyproject `[tool.mutmut]`), only the tests that execute the "
        "mutated function (mutmut's stats pass)"),
        (f"- seed: {report.seed}; mutants generated: {report.generated}; sampled: {report.sample}; "
        f"wall time: {report.seconds / 60:.1f} min"),
        (f"- resumed (`--resume`): the {report.rerun} sampled mutants the earlier run of the same sources did not "
         "kill were re-run with the current tests; the others keep the earlier run's verdict (killed)"
         if report.rerun >= 0 else "- a fresh run: every sampled mutant was run"),
        *(["- this report was rendered afterwards from the run's results (`--report-only`); the wall time is "
           "from staging to the run log's last write"] if report.report_only else []),
        "",
        "| killed | survived | of which no test runs it | equivalent | score (killed / (killed + survived)) |",
        "|---:|---:|---:|---:|---:|",
        (f"| {report.killed} | {report.survived} | {report.count(Status.NO_TESTS)} | "
        f"{report.count(Status.EQUIVALENT)} | {report.score:.3f} |"),
        "",
        (f"Timeouts (counted as killed): {report.count(Status.TIMEOUT)}; "
        f"other outcomes (suspicious, counted as survived): {report.count(Status.OTHER)}."),
        "",
        "## Survivors (not equivalent)",
        "",
    ]
    survivors = [m for m in report.mutants if m.status in (Status.SURVIVED, Status.NO_TESTS, Status.OTHER)]
    lines += [f"- `{m.name}` ({m.status.value}): `{m.old}` → `{m.new}`" for m in survivors] or ["none"]
    lines += ["", "## Equivalent (from `benchmarks/mutation/mutation-equivalent.md`)", ""]
    equivalent = [m for m in report.mutants if m.status is Status.EQUIVALENT]
    lines += [f"- `{m.name}`: `{m.old}` → `{m.new}` — {m.reason}" for m in equivalent] or ["none"]
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--seed", type=int, default=0, help="sampling seed (default 0)")
    parser.add_argument("--sample", type=int, default=250, help="number of mutants to run (default 250)")
    parser.add_argument("--max-children", type=int, default=1, help="mutmut workers (default 1: one core)")
    parser.add_argument("--report", type=Path, help="also write the Markdown report here")
    parser.add_argument("--min-score", type=float, default=0.90, help="exit 1 below this score (default 0.90)")
    parser.add_argument("--resume", action="store_true",
                        help="reuse the run in mutants/ (same sources) with the current tests: "
                             "re-run only the sampled mutants it did not kill")
    parser.add_argument("--report-only", action="store_true",
                        help="run nothing: print (and write) the report of the run already in mutants/")
    args = parser.parse_args(argv)
    if args.resume and args.report_only:
        parser.error("invalid options: --resume with --report-only; accepted: at most one of them")
    if args.sample < 1:
        parser.error(f"invalid --sample {args.sample}; accepted: an integer >= 1")
    if args.max_children < 1:
        parser.error(f"invalid --max-children {args.max_children}; accepted: an integer >= 1")
    if importlib.util.find_spec("mutmut") is None:
        parser.error("mutmut is not installed; accepted: an environment with the `mutation` extra "
                     "(pip install -e \".[mutation]\")")
    log = MUTANTS / ("mutmut-resume.log" if args.resume else "mutmut.log")
    report = run(args.seed, args.sample, ROOT, args.max_children, log, args.resume, args.report_only)
    text = render(report)
    print(text)
    for entry in report.unused_equivalents:
        print(f"note: equivalent-list entry not met in this sample: {entry.name}: {entry.old} → {entry.new}")
    if args.report is not None:
        args.report.write_text(text, encoding="utf-8")
    return 0 if report.score >= args.min_score else 1


if __name__ == "__main__":
    sys.exit(main())
