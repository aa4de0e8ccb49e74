"""Lazy imports: ``posreal --help``, ``posreal verify`` and ``posreal pes`` load none of numpy, scipy, sympy, z3
or matplotlib, in a whole fresh process (``python -X importtime -m posreal …``).

The import log of the interpreter itself is read, so an indirect import (through a package
``__init__``) counts as much as a direct one.  The negative control is ``posreal alpha``, which
needs numpy: the same reading must find it there.  Start-up *times* are measured by
``benchmarks/bench_startup.py``, never here.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.subprocess   # every test here starts a process

ROOT = Path(__file__).resolve().parents[1]
HEAVY = ("numpy", "scipy", "sympy", "z3", "matplotlib")
CERTIFICATE = ROOT / "counterexamples" / "certificates" / "open_tie_designed_log2.json"


def imported_modules(*argv: str) -> tuple[int, set[str]]:
    """Exit code and every module that ``python -X importtime -m posreal ARGV`` imported."""
    proc = subprocess.run([sys.executable, "-X", "importtime", "-m", "posreal", *argv], cwd=ROOT,
                          capture_output=True, text=True, timeout=300,
                          env={k: v for k, v in os.environ.items() if k != "PYTHONPROFILEIMPORTTIME"})
    names = set()
    for line in proc.stderr.splitlines():
        if line.startswith("import time:") and line.count("|") == 2:
            name = line.rsplit("|", 1)[1].strip()
            if name != "package":                 # the header line
                names.add(name)
    return proc.returncode, names


def heavy(names: set[str]) -> list[str]:
    return sorted(n for n in names if n.split(".")[0] in HEAVY)


# (``posreal pes`` loads the PE families, which declare their catalogue entries in their own numpy modules)
@pytest.mark.parametrize("argv", [["--help"], ["alpha", "--help"], ["verify", str(CERTIFICATE)],
                                  ["verify", "--json", str(CERTIFICATE)], ["pes", "--help"]])
def test_help_and_verify_import_nothing_heavy(argv):
    code, names = imported_modules(*argv)
    assert code == 0
    assert "posreal.cli" in names, "the import log was not read (posreal.cli missing from it)"
    assert heavy(names) == []


def test_alpha_imports_numpy_so_the_reading_can_fail():
    code, names = imported_modules("alpha", "--pe", "relbias", "--task", "offset:1", "--lengths", "32")
    assert code == 0
    assert "numpy" in heavy(names)


def modules_after(code: str) -> set[str]:
    """The top-level packages in ``sys.modules`` after running ``code`` in a fresh interpreter."""
    probe = f"{code}\nimport sys\nprint('\\n'.join(sorted({{m.split('.')[0] for m in sys.modules}})))"
    proc = subprocess.run([sys.executable, "-c", probe], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    return set(proc.stdout.split())


@pytest.mark.parametrize("module", ["posreal", "posreal.cli", "posreal.__main__",
                                    *(f"posreal.commands.{name}" for name in
                                      ("alpha", "table", "pes", "extensions", "experiment", "ceiling", "search",
                                       "verify", "check", "induction"))])
def test_importing_the_cli_and_its_commands_loads_nothing_heavy(module):
    found = modules_after(f"import {module}")
    assert module.split(".")[0] in found, "the probe did not run"
    assert sorted(found & set(HEAVY)) == []


def test_the_sys_modules_probe_finds_a_heavy_import():
    """Negative control: the same probe after a module that needs numpy at import time."""
    assert "numpy" in modules_after("import posreal.theory.alpha")


def test_a_trivial_alpha_solves_no_program_and_loads_no_scipy():
    """``posreal alpha`` on a cell with nothing to optimise (nope, offset:0, L0 4) loads numpy but not scipy's
    solvers; ``--geometry linf`` solves a linear program and must load scipy (the reading's control)."""
    trivial = ["alpha", "--pe", "nope", "--task", "offset:0", "--train-length", "4", "--lengths", "8"]
    code, names = imported_modules(*trivial)
    assert code == 0 and "numpy" in heavy(names)
    assert [n for n in heavy(names) if n.split(".")[0] != "numpy"] == []
    code, names = imported_modules("alpha", "--pe", "relbias", "--task", "offset:1", "--lengths", "32",
                                   "--geometry", "linf")
    assert code == 0 and "scipy" in heavy(names)
