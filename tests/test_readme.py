"""Every command in the README still works.

Each ``posreal …`` line of the README's bash blocks is either run (the cheap ones, in-process, from
a scratch directory that holds the README's ``t.json`` and a view of ``counterexamples/``) or, for
the long jobs that other tests and CI exercise, parsed by the real argument parser.  Every line
must be in exactly one of the two lists, so a new README command cannot go unchecked.  The Python
example is executed too.  Set-up commands (``pip install``, ``pytest``, ``mkdocs``) are run by CI.
"""

from __future__ import annotations

import ast
import contextlib
import io
import json
import re
import shlex
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from posreal.cli import build_parser, main

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text(encoding="utf-8")

# command (as written, comment stripped) -> the exit codes the README's "Exit codes" line allows for it
RUN = {
    "posreal alpha --pe rope:16 --task offset:1": {0},
    "posreal alpha --pe relbias --task position:0 --exact --json": {0},
    "posreal table --markdown --plot taxonomy.png": {0},
    "posreal ceiling --kernel relative --task middle --length 16": {0},
    "posreal verify counterexamples/certificates/open_tie_designed_log2.json": {0},
    "posreal alpha --pe table:t.json --task offset:0 --train-length 3 --lengths 4 --exact --json": {0},
    "posreal alpha --pe table:t.json --task offset:0 --train-length 3 --lengths 4 --limit": {0},
    "posreal alpha --pe abscol:16 --task position:0 --geometry linf": {0},
    "posreal alpha --pe py:examples.pe_function:recency_and_sink --pe-kind general --pe-width 2 --task position:0 "
    "--exact": {0},
    "posreal pes": {0},
    "posreal table --csv --pes relbias,alibi": {0},
    "posreal --version": {0},
    "posreal alpha --pe rope:32 --task copy --train-length 32 --lengths 1024 --extension pi": {0},
    "posreal table --extension all": {0},
    "posreal alpha --pe hf:examples/configs/llama-3.1-8b.json --task offset:1": {0},
    "posreal alpha --pe rope:16 --task offset:1 --lengths 256 --rows 3": {0},
    "posreal extensions": {0},
}
PARSE_ONLY = {    # long jobs: run by their own tests (test_certificates, test_conjecture_search, test_experiment, …)
    "posreal alpha --pe learned:16 --task position:0",
    "posreal check --skip-slow",
    "posreal search colspan",
    "posreal search conjecture --seed 0 --budget 200 --out search.jsonl",
    "posreal experiment --quick --out runs/quick",
}


def readme_commands() -> list[str]:
    commands = []
    for block in re.findall(r"```bash\n(.*?)```", README, re.S):
        for line in block.splitlines():
            line = line.split("  #", 1)[0].strip()
            if line.startswith("posreal "):
                commands.append(re.sub(r"\s+", " ", line))
    return commands


def test_every_readme_command_is_checked():
    commands = readme_commands()
    assert len(commands) >= 10
    assert set(commands) == set(RUN) | PARSE_ONLY, "a README command is neither run nor parsed by this test"
    assert not set(RUN) & PARSE_ONLY


@pytest.fixture
def scratch(tmp_path, monkeypatch) -> Iterator[Path]:
    """A working directory with the README's t.json, the repository's certificates and examples/."""
    match = re.search(r"`t\.json` holding `(\{.*?\})`", README)
    assert match, "the README no longer shows the contents of t.json"
    (tmp_path / "t.json").write_text(match.group(1))
    json.loads(match.group(1))
    (tmp_path / "counterexamples").symlink_to(ROOT / "counterexamples", target_is_directory=True)
    (tmp_path / "examples").symlink_to(ROOT / "examples", target_is_directory=True)
    monkeypatch.chdir(tmp_path)
    yield tmp_path
    sys.modules.pop("examples.pe_function", None)
    sys.modules.pop("examples", None)


def readme_comments() -> dict[str, str]:
    """Command (as in RUN) -> the comment after it on its README line."""
    out = {}
    for block in re.findall(r"```bash\n(.*?)```", README, re.S):
        for line in block.splitlines():
            command, _, comment = line.partition("  #")
            if command.strip().startswith("posreal "):
                out[re.sub(r"\s+", " ", command.strip())] = comment.strip()
    return out


COMMENTS = readme_comments()


@pytest.mark.parametrize("command", sorted(RUN))
def test_cheap_readme_command_runs(scratch, capsys, command):
    code = main(shlex.split(command)[1:])
    out, err = capsys.readouterr()
    # every decimal number or interval the README's comment quotes is what the command prints
    for quoted in re.findall(r"\[\d+\.\d+, \d+\.\d+\]|\d+\.\d+", COMMENTS.get(command, "")):
        assert re.search(rf"(?<![\d.]){re.escape(quoted)}(?!\d)", out), \
            f"{command}: the README's comment says {quoted!r}, the output does not"
    assert code in RUN[command], f"{command}: exit {code}\n{err[-2000:]}"
    assert "Traceback" not in err
    if "--json" in command:
        doc = json.loads(out)
        if "table:t.json" in command:
            assert doc["alpha_exact"] == {"4": "3/4"}       # as the README's comment says
    if "--plot" in command:
        assert (scratch / "taxonomy.png").stat().st_size > 0
    if "py:examples" in command:   # the sink on key 0 realizes position:0 at every length, decided in ℚ
        assert "mode exact" in out and all(line.split()[1] == "1" for line in out.splitlines()[-4:])
    if command == "posreal pes":
        assert "t5[:B[:M]]" in out and "Raffel" in out


@pytest.mark.parametrize("command", sorted(PARSE_ONLY))
def test_long_readme_command_parses(command):
    parser = build_parser()
    err = io.StringIO()
    with contextlib.redirect_stderr(err):
        try:
            args = parser.parse_args(shlex.split(command)[1:])
        except SystemExit as stop:
            pytest.fail(f"{command}: the parser refuses it (exit {stop.code}): {err.getvalue().strip()}")
    assert callable(args.run)


def test_python_example_runs(capsys):
    block = re.search(r"```python\n(.*?)```", README, re.S)
    assert block, "the README has no Python example"
    from posreal.theory.tables import unregister_pe
    try:
        exec(compile(block.group(1), "README.md", "exec"), {})
    finally:
        unregister_pe("mine")
        unregister_pe("mine_f")
    lines = capsys.readouterr().out.strip().splitlines()
    first = ast.literal_eval(lines[0])          # {'32': 1.0, '256': 0.690...}
    assert first["32"] == 1.0 and abs(first["256"] - 0.690) < 0.0005
    assert lines[1] == "{'4': '3/4'}"
    assert lines[2] == "{'1024': 1.0}"          # the function is FIRE's basis with K = 9, T = 16: as fire:9:16
    from posreal.theory import compute_alpha
    assert compute_alpha("fire:9:16", "position:0", 16, [1024]).alpha(1024) == 1.0
