"""The quick tier, ``pytest -m quick`` (well under a minute on a quiet machine): the install works and every
command gives one answer that the theory fixes independently of the code.

Each expected value is derived in the comment beside it (not read off a previous run).  The full
checks of each answer are elsewhere in the default run; this file only says "the install works".
"""

from __future__ import annotations

import csv
import io
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from posreal.cli import COMMANDS, main

pytestmark = pytest.mark.quick

ROOT = Path(__file__).resolve().parents[1]
CERTIFICATE = str(ROOT / "counterexamples" / "certificates" / "open_tie_designed_log2.json")


def run(capsys, *argv: str) -> tuple[int, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    assert "Traceback" not in err
    return code, out


@pytest.mark.subprocess
def test_the_console_script_is_installed_and_runs():
    """The ``posreal`` entry point is on PATH (the install) and answers ``--version`` with the package's
    metadata; ``python -m posreal`` works from the checkout too."""
    from importlib.metadata import version
    script = shutil.which("posreal", path=os.path.dirname(sys.executable) + os.pathsep + os.environ.get("PATH", ""))
    assert script is not None, "the posreal console script is not installed (pip install -e '.[dev]')"
    done = subprocess.run([script, "--version"], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0 and done.stdout == f"posreal {version('positional-realizability')}\n"
    done = subprocess.run([sys.executable, "-m", "posreal", "pes"], cwd=ROOT, capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0 and "rope:d" in done.stdout


def test_alpha(capsys):
    # Theorem 2: a relative bias has a unique maximizer at offset 1, so it keeps offset:1 at every length.
    code, out = run(capsys, "alpha", "--pe", "relbias", "--task", "offset:1", "--lengths", "256", "--json")
    assert code == 0 and json.loads(out)["alpha"] == {"256": 1.0}


def test_table(capsys):
    # relbias keeps offset:1 (Theorem 2); a single slope cannot prefer offset 1 over both 0 and 2 (a linear
    # function of the offset is monotone), so alibi · offset:1 is not realizable: an empty CSV field.
    code, out = run(capsys, "table", "--pes", "relbias,alibi", "--tasks", "offset:1", "--lengths", "64", "--csv")
    rows = {r["pe"]: r for r in csv.DictReader(io.StringIO(out))}
    assert code == 0 and float(rows["relbias"]["alpha_64"]) == 1.0
    assert rows["alibi"]["realizable_at_L0"] == "no" and rows["alibi"]["alpha_64"] == ""


def test_pes_and_extensions(capsys):
    code, out = run(capsys, "pes", "--json")
    assert code == 0 and "rope" in json.dumps(json.loads(out))
    code, out = run(capsys, "extensions", "--json")
    assert code == 0 and {"none", "pi", "ntk", "yarn"} <= set(json.dumps(json.loads(out)).replace('"', " ").split())


def test_ceiling(capsys):
    # position:1 at L = 3 with a relative kernel: row 1 needs κ(0) > κ(1), row 2 needs κ(1) > κ(0) — at most
    # one of the two rows, and one is reachable: the ceiling is 1/2.
    code, out = run(capsys, "ceiling", "--kernel", "relative", "--task", "position:1", "--length", "3", "--json")
    doc = json.loads(out)
    assert code == 0 and doc["ceiling"] == "1/2" and doc["optimal"] == "proved"


def test_verify(capsys):
    code, out = run(capsys, "verify", "--json", CERTIFICATE)
    assert code == 0 and "verified" in out


def test_check(capsys):
    code, out = run(capsys, "check", "theorem1", "--skip-slow", "--json")
    doc = json.loads(out)
    assert code == 0 and doc["ok"] and [c["id"] for c in doc["claims"]] == ["theorem1"]


def test_search(capsys, tmp_path):
    # The outside-colspan argument is invalid (the preprint's own counterexamples): both forms are reproduced
    # and every certificate verifies — exit 0 by the command's contract.
    code, out = run(capsys, "search", "colspan", "--evidence-steps", "10", "--json")
    doc = json.loads(out)
    assert code == 0 and doc["reproduced"] and doc["verified"] == doc["certificates"] > 0
    code, out = run(capsys, "search", "conjecture", "--seed", "0", "--budget", "2", "--families", "registry",
                    "--out", str(tmp_path / "s.jsonl"), "--json")
    assert code == 0 and json.loads(out)["summary"]["instances"] == 2


def test_experiment(capsys, tmp_path):
    # One PE, one recipe of the quick grid: the run trains, records and summarizes.
    code, out = run(capsys, "experiment", "--quick", "--recipe", "gd-positional", "--pes", "relbias",
                    "--out", str(tmp_path / "run"), "--json")
    doc = json.loads(out)
    assert code == 0 and doc["measurements"] > 0 and set(doc["recipes"]) == {"gd-positional"}
    assert (tmp_path / "run" / "summary.json").is_file()


def test_every_command_is_asked_here():
    """Each command of the CLI gets an answer in this file (read from its source, so that it holds however
    pytest-xdist spreads the tests)."""
    asked = set(re.findall(r'run\(capsys, "([a-z]+)"', Path(__file__).read_text(encoding="utf-8")))
    assert sorted(set(COMMANDS) - asked) == []
