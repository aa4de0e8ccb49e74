"""Golden outputs of the ``posreal`` command line, recorded before the redesign.

Run from anywhere (``python tests/golden/make_golden.py``): every command of :func:`commands` is
run in-process through :func:`posreal.cli.main` with the repository root as the working directory,
and its exit code, standard output and first line of standard error are written to
``tests/data/golden/<id>.json``.  ``tests/test_cli_golden.py`` re-runs the same commands and
compares byte for byte after :func:`normalize`, which replaces run-to-run varying fields (wall-clock
timings and tool versions) by a placeholder; nothing else is normalized.

Options: ``--check`` compares with the stored files instead of writing them (exit 1 on a
difference), ``--reverse`` runs the commands in reverse order (to expose order dependence inside
one process), ``--only SUBSTRING`` restricts to ids containing it, ``--times`` prints each
command's wall-clock seconds on stderr.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import os
import re
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "tests" / "data" / "golden"
if str(ROOT) not in sys.path:   # run as a script from a checkout: import this tree's posreal
    sys.path.insert(0, str(ROOT))

# Registry of the pre-redesign tree (theory/defaults.py REGISTRY_PES / REGISTRY_TASKS), spelled
# out so that the golden set does not move if the registry does.
PES = ("nope", "relbias", "alibi", "rope:16", "abssin:16", "abscol:16", "colbias")
TASKS = ("offset:1", "offset:2", "position:0", "position:1", "copy", "middle", "reverse", "half")
ALL_PES = PES + tuple(f"dual:{p}" for p in PES) + ("learned:16",)
ALL_TASKS = TASKS + tuple(f"dual:{t}" for t in TASKS)

LINEAR_PES = ALL_PES[:-1]
GEOMETRY_TASKS = ("offset:1", "position:0", "copy", "dual:middle")
GEOMETRY_LEFT_OUT = {("linf", "dual:abssin:16", "offset:1")}   # 10-12 s (HiGHS on the face), see README
LIMIT_TASKS = ("offset:2", "middle")
CEILINGS = (("relative", "copy", 8), ("relative", "copy", 16), ("relative", "middle", 32),
            ("relative", "reverse", 24), ("relative", "position:1", 24), ("relative", "half", 12),
            ("relative", "offset:1", 32), ("relative", "dual:middle", 16), ("column", "reverse", 32),
            ("column", "copy", 24), ("column", "offset:2", 24), ("column", "position:1", 12),
            ("relbias", "copy", 8), ("rope:16", "offset:1", 8), ("alibi", "middle", 8),
            ("dual:relbias", "dual:copy", 8), ("abscol:16", "copy", 12), ("colbias", "position:0", 16),
            ("nope", "half", 12))
CERTIFICATES = sorted(p.name for p in (ROOT / "counterexamples" / "certificates").glob("*.json"))

PLACEHOLDER = "<normalized>"
# Keys whose values vary from run to run: wall-clock seconds and rates (search colspan, search
# conjecture, ceiling) and the tool versions every JSON document carries (with_provenance).
TIMING_KEYS = ("seconds", "instances_per_second")
VERSION_KEYS = ("versions",)
_NUMBER = r"-?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?"
_TIMING = re.compile(r'("(?:' + "|".join(TIMING_KEYS) + r')": )(' + _NUMBER + r')')
FLOAT_DIGITS = 12
_FLOAT_VALUE = re.compile(r'(^\s*(?:"[^"\n]*": )?)(-?\d+\.\d+(?:[eE][-+]?\d+)?|-?\d+[eE][-+]?\d+)(?=,?$)', re.M)
_VERSIONS = re.compile(r'("(?:' + "|".join(VERSION_KEYS) + r')": )\{[^{}]*\}')


def normalize(text: str) -> str:
    """Replace the values of the timing and version keys by :data:`PLACEHOLDER`; nothing else.

    Works on the text as printed (``json.dump(indent=2, sort_keys=True)``), so every other byte of
    the output is compared as is.  In JSON text an unescaped ``"seconds": `` can only be a key."""
    text = _TIMING.sub(lambda m: f'{m.group(1)}"{PLACEHOLDER}"', text)
    return _VERSIONS.sub(lambda m: f'{m.group(1)}"{PLACEHOLDER}"', text)


# Float evidence computed with cancellation (a difference of nearly equal log-time quantities): its 9th-10th
# significant digit differs between processors (measured: -1.28446980163e-07 on one machine, -1.28446979275e-07 on
# another, relative 7e-9), so it is compared separately (:func:`processor_values`, relative 1e-6), and the
# certificate digests that cover it are left out of the byte comparison.
PROCESSOR_KEYS = ("drift_last_decade",)
PROCESSOR_RTOL = 1e-6
_PROCESSOR = re.compile(r'("(?:' + "|".join(PROCESSOR_KEYS) + r')": )(' + _NUMBER + r')')
_DIGEST = re.compile(r'("digest": )"sha256:[0-9a-f]{64}"')


def processor_values(text: str) -> list[float]:
    """The values of :data:`PROCESSOR_KEYS` in the order printed."""
    return [float(m.group(2)) for m in _PROCESSOR.finditer(text)]


def comparable(text: str) -> str:
    """:func:`normalize`, then every JSON float value written with :data:`FLOAT_DIGITS` significant digits, and the
    processor-dependent evidence (:data:`PROCESSOR_KEYS`) with the certificate digests covering it replaced.

    The last bits of a float result depend on the processor (numpy's SIMD log, sin and cos, OpenBLAS's
    kernels), so a value printed with 17 digits can differ between machines in its last one or two: the test
    compares both sides through this function, the stored files keep every digit."""
    text = _FLOAT_VALUE.sub(lambda m: f"{m.group(1)}{float(m.group(2)):.{FLOAT_DIGITS}g}", normalize(text))
    if _PROCESSOR.search(text):
        text = _DIGEST.sub(lambda m: f'{m.group(1)}"{PLACEHOLDER}"', text)
    return _PROCESSOR.sub(lambda m: f'{m.group(1)}"{PLACEHOLDER}"', text)


def _slug(argv: list[str]) -> str:
    text = "_".join(a.lstrip("-") for a in argv)
    return re.sub(r"[^A-Za-z0-9.]+", "-", text).strip("-")


def commands() -> list[dict]:
    """Every golden command: ``{"id", "argv", "slow"}``.  ``slow`` is decided here, not measured at
    each run: the commands that took 1-4 s on the shared 2-core machine (search colspan, table in
    l1, the linf/l1 selections of abssin:16 and dual:abssin:16); the others take under 0.6 s."""
    out: list[dict] = []

    def add(argv: list[str], slow: bool = False, name: str | None = None) -> None:
        out.append({"id": name or _slug(argv), "argv": argv, "slow": slow})

    # alpha: every PE x every task, in float (default), --exact and --certified; the refusals
    # (irrational PEs in --exact, learned:16 in either) are outputs too.
    for mode in ((), ("--exact",), ("--certified",)):
        for pe in ALL_PES:
            for task in ALL_TASKS:
                add(["alpha", "--pe", pe, "--task", task, *mode, "--json"])
    # --geometry linf / l1: every linear PE on a representative set of tasks (a fixed offset, a
    # fixed position, a growing task, a dual task), the learned:16 refusal, and the two linf cells
    # where HiGHS cannot bound the optimal face (exit 2).
    for geometry in ("linf", "l1"):
        for pe in LINEAR_PES:
            for task in GEOMETRY_TASKS:
                if (geometry, pe, task) not in GEOMETRY_LEFT_OUT:
                    add(["alpha", "--pe", pe, "--task", task, "--geometry", geometry, "--json"],
                        slow=pe.endswith("abssin:16"))
        add(["alpha", "--pe", "learned:16", "--task", "copy", "--geometry", geometry, "--json"])
    for task in ("position:1", "dual:offset:1"):
        add(["alpha", "--pe", "dual:abssin:16", "--task", task, "--geometry", "linf", "--json"])
    # --limit (alpha-sharp): every linear PE on two tasks, and its refusals
    for pe in LINEAR_PES:
        for task in LIMIT_TASKS:
            add(["alpha", "--pe", pe, "--task", task, "--limit", "--json"])
    add(["alpha", "--pe", "relbias", "--task", "copy", "--limit", "--exact", "--json"])
    add(["alpha", "--pe", "rope:16", "--task", "copy", "--limit", "--certified", "--json"])
    add(["alpha", "--pe", "relbias", "--task", "copy", "--limit", "--geometry", "l1", "--json"])
    add(["alpha", "--pe", "learned:16", "--task", "copy", "--limit", "--json"])
    # table: defaults, and a few options
    add(["table", "--json"])
    add(["table", "--json", "--geometry", "l1"], slow=True)
    add(["table", "--json", "--geometry", "linf", "--pes", "nope,relbias,alibi,rope:16,abscol:16,colbias",
         "--tasks", "offset:1,position:0,copy,middle"])
    add(["table", "--json", "--pes", "relbias,dual:rope:16,abscol:16", "--tasks", "copy,dual:middle,offset:2",
         "--lengths", "20,40", "--train-length", "10"])
    # ceiling: (kernel or PE, task, length) triples that run in well under 2 s, and two refusals
    for cls, task, n in CEILINGS:
        add(["ceiling", "--pe" if cls not in ("relative", "column") else "--kernel", cls, "--task", task,
             "--length", str(n), "--json"])
    add(["ceiling", "--kernel", "relative", "--task", "position:3", "--length", "2", "--json"])
    add(["ceiling", "--kernel", "relative", "--task", "copy", "--length", "65", "--json"])
    # verify: every shipped certificate, one by one, and all of them at once
    for name in CERTIFICATES:
        add(["verify", "--json", f"counterexamples/certificates/{name}"])
    add(["verify", "--json", *(f"counterexamples/certificates/{name}" for name in CERTIFICATES)],
        name="verify-json-every-certificate")
    # search: the outside-colspan reproductions (defaults) and two short conjecture searches
    add(["search", "colspan", "--json"], slow=True)
    add(["search", "conjecture", "--seed", "0", "--budget", "20", "--json"])
    add(["search", "conjecture", "--seed", "1", "--budget", "20", "--families", "relative,column", "--json"])
    return out


def run(argv: list[str]) -> dict:
    """Run ``posreal ARGV`` in-process from the repository root; exit code, stdout, stderr."""
    from posreal.cli import main
    out, err = io.StringIO(), io.StringIO()
    cwd = os.getcwd()
    os.chdir(ROOT)
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            code = main(list(argv))
    finally:
        os.chdir(cwd)
    return {"exit_code": code, "stdout": out.getvalue(), "stderr": err.getvalue()}


def record(command: dict, result: dict) -> dict:
    """The stored form: argv, exit code, normalized stdout as lines ("\\n".join gives it back
    exactly) and the first line of stderr."""
    stderr = result["stderr"].split("\n", 1)[0]
    return {"id": command["id"], "argv": command["argv"], "slow": command["slow"],
            "exit_code": result["exit_code"], "stdout": normalize(result["stdout"]).split("\n"),
            "stderr_first_line": normalize(stderr)}


def path_of(command_id: str) -> Path:
    return DATA / f"{command_id}.json"


def dump(doc: dict) -> str:
    return json.dumps(doc, indent=1, ensure_ascii=False) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true", help="compare with the stored files, write nothing")
    parser.add_argument("--reverse", action="store_true", help="run the commands in reverse order")
    parser.add_argument("--only", default=None, help="only ids containing this substring")
    parser.add_argument("--times", action="store_true", help="print each command's seconds on stderr")
    args = parser.parse_args(argv)
    todo = [c for c in commands() if args.only is None or args.only in c["id"]]
    ids = [c["id"] for c in commands()]
    assert len(ids) == len(set(ids)), "duplicate command ids"
    if args.reverse:
        todo.reverse()
    DATA.mkdir(parents=True, exist_ok=True)
    differ, start = [], time.perf_counter()
    for command in todo:
        t0 = time.perf_counter()
        doc = record(command, run(command["argv"]))
        if args.times:
            print(f"{time.perf_counter() - t0:7.3f}s  {command['id']}", file=sys.stderr)
        target = path_of(command["id"])
        if args.check:
            if not target.is_file() or target.read_text(encoding="utf-8") != dump(doc):
                differ.append(command["id"])
        else:
            target.write_text(dump(doc), encoding="utf-8")
    if not args.check and args.only is None:   # drop files of commands no longer in the list
        for stale in set(DATA.glob("*.json")) - {path_of(i) for i in ids}:
            stale.unlink()
    total = time.perf_counter() - start
    print(f"{len(todo)} commands in {total:.1f} s" + (f"; {len(differ)} differ: {differ}" if args.check else ""),
          file=sys.stderr)
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
