"""Hostile ``py:MODULE:FUNCTION`` PEs (posreal.runtime.user_code): whatever the user's code does, the command
ends in one error line naming the function and exit 2, and ``--json`` standard output stays one document
(here: empty, since the command failed) — never a silent exit 0, a traceback, an exit 70 or a real part
taken silently.

Each hostile function is written into tmp_path as a tiny module and run through ``posreal alpha`` in-process
(:func:`posreal.cli.main`) and, for a few, once as a subprocess.  Controls: a well-behaved function in the
same module exits 0 with one JSON document; Ctrl-C in the function stays an interruption (exit 130).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from collections.abc import Iterator
from pathlib import Path

import pytest
from posreal.cli import main
from posreal.theory.tables import unregister_pe

ROOT = Path(__file__).resolve().parents[1]
MODULE = "kexec_hostile_pe"
SOURCE = textwrap.dedent("""
    import sys
    import warnings

    import numpy as np


    def good(n):
        return np.minimum(n, 3)[:, None]


    def exits_zero(n):
        sys.exit(0)


    def exits_three(n):
        sys.exit(3)


    def generator_exit(n):
        raise GeneratorExit()


    class Custom(BaseException):
        pass


    def base_exception(n):
        raise Custom("below Exception")


    def prints(n):
        print("debugging output")
        return np.minimum(n, 3)[:, None]


    def writes_stdout(n):
        sys.stdout.write("{not json")
        return np.minimum(n, 3)[:, None]


    def warns(n):
        warnings.warn("this PE is experimental")
        return np.minimum(n, 3)[:, None]


    def complex_array(n):
        return n[:, None] * (1 + 1j)


    def complex_list(n):
        return [[complex(int(x), 0.5)] for x in n]


    class Hostile:
        def __array__(self, *args, **kwargs):
            raise RuntimeError("no array for you")


    def array_raises(n):
        return Hostile()


    def interrupted(n):
        raise KeyboardInterrupt
""")
HOSTILE = {   # function -> words the one line must hold (besides the spec)
    "exits_zero": "raised SystemExit",
    "exits_three": "raised SystemExit",
    "generator_exit": "raised GeneratorExit",
    "base_exception": "raised Custom: 'below Exception'",
    "prints": "wrote 'debugging output\\n' to standard output",
    "writes_stdout": "to standard output",
    "warns": "warned UserWarning: 'this PE is experimental'",
    "complex_array": "complex numbers",
    "complex_list": "complex numbers",
    "array_raises": "raised RuntimeError: 'no array for you'",
}


def _argv(function: str, *extra: str) -> list[str]:
    return ["alpha", "--pe", f"py:{MODULE}:{function}", "--pe-kind", "relative", "--pe-width", "1",
            "--task", "offset:1", "--train-length", "4", "--lengths", "8", *extra]


@pytest.fixture
def module_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    (tmp_path / f"{MODULE}.py").write_text(SOURCE, encoding="utf-8")
    monkeypatch.chdir(tmp_path)                     # py:MODULE is imported from the current directory
    monkeypatch.syspath_prepend(str(tmp_path))
    yield tmp_path
    sys.modules.pop(MODULE, None)
    for function in [*HOSTILE, "good", "interrupted"]:
        unregister_pe(f"py:{MODULE}:{function}")


def test_control_a_well_behaved_function_gives_one_json_document(module_dir: Path,
                                                                  capsys: pytest.CaptureFixture) -> None:
    assert main(_argv("good", "--json")) == 0
    out = capsys.readouterr().out
    assert json.loads(out)["pe"] == f"py:{MODULE}:good"


@pytest.mark.parametrize("function", sorted(HOSTILE))
@pytest.mark.parametrize("mode", ["--json", "text"])
def test_a_hostile_function_is_one_line_and_exit_2(module_dir: Path, capsys: pytest.CaptureFixture,
                                                    function: str, mode: str) -> None:
    code = main(_argv(function, *([mode] if mode == "--json" else [])))
    captured = capsys.readouterr()
    assert code == 2, captured
    assert captured.err.count("\n") == 1 and "Traceback" not in captured.err
    assert f"'py:{MODULE}:{function}'" in captured.err and HOSTILE[function] in captured.err, captured.err
    assert captured.out == ""                      # nothing of the user's, nothing half of ours


def test_ctrl_c_in_the_function_stays_an_interruption(module_dir: Path, capsys: pytest.CaptureFixture) -> None:
    assert main(_argv("interrupted", "--json")) == 130
    assert capsys.readouterr().err.strip() == "posreal: interrupted"


def test_the_function_sys_exit_itself_is_refused(capsys: pytest.CaptureFixture) -> None:
    """``--pe py:sys:exit`` exited 1 before: the function is called, raises SystemExit, and is refused."""
    try:
        assert main(["alpha", "--pe", "py:sys:exit", "--pe-kind", "relative", "--pe-width", "1", "--task", "copy",
                     "--train-length", "4", "--lengths", "8", "--json"]) == 2
    finally:
        unregister_pe("py:sys:exit")
    captured = capsys.readouterr()
    assert captured.out == "" and "'py:sys:exit'" in captured.err and "raised SystemExit" in captured.err


@pytest.mark.parametrize(("body", "words"), [("import sys\nsys.exit(5)\n", "raised SystemExit: '5'"),
                                             ("print('loading')\n", "wrote 'loading\\n' to standard output"),
                                             ("raise GeneratorExit\n", "raised GeneratorExit")])
def test_a_module_that_misbehaves_while_imported_is_one_line(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                             capsys: pytest.CaptureFixture, body: str,
                                                             words: str) -> None:
    name = "kexec_hostile_import"
    (tmp_path / f"{name}.py").write_text(body + "def f(n):\n    return n[:, None]\n", encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    monkeypatch.syspath_prepend(str(tmp_path))
    try:
        assert main(["alpha", "--pe", f"py:{name}:f", "--pe-kind", "relative", "--pe-width", "1", "--task",
                     "copy", "--train-length", "4", "--lengths", "8", "--json"]) == 2
    finally:
        sys.modules.pop(name, None)
        unregister_pe(f"py:{name}:f")
    captured = capsys.readouterr()
    assert captured.out == "" and captured.err.count("\n") == 1
    assert f"importing module '{name}' {words}" in captured.err, captured.err


@pytest.mark.subprocess
@pytest.mark.parametrize("function", ["exits_zero", "prints", "generator_exit", "good"])
def test_the_console_script_keeps_the_contract(module_dir: Path, function: str) -> None:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run([sys.executable, "-m", "posreal", *_argv(function, "--json")], capture_output=True,
                          text=True, env=env, cwd=module_dir, timeout=300)
    if function == "good":                          # control
        assert done.returncode == 0 and json.loads(done.stdout)["pe"] == f"py:{MODULE}:good"
        return
    assert done.returncode == 2 and done.stdout == "", done
    assert done.stderr.count("\n") == 1 and HOSTILE[function] in done.stderr
