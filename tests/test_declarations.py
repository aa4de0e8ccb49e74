"""Declarations (theory/declarations.py): a PE family and a length-extension type, each in one file of its own,
work everywhere a built-in one does — compute_alpha, the CLI's spec parsers, ``posreal pes``, ``posreal
extensions`` and the accepted-forms text of the errors — with no other file edited; and the derived lists agree
with what the parsers accept."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from posreal.theory import declarations
from posreal.theory.extension import EXTENSIONS, parse_extension
from posreal.theory.pe_catalogue import catalogue
from posreal.theory.pe_specs import parse_pe

pytestmark = pytest.mark.subprocess

TOY_PE = '''
"""A toy PE family, declared in this file only: toyhat:w, ψ(n) = [exp(-n/w)]."""
from dataclasses import dataclass

import numpy as np

from posreal.theory.declarations import PEFamily, TaskFamily, declare_pe, declare_task
from posreal.theory.encodings import OFFSET, RELATIVE, ProfileEncoding
from posreal.theory.tasks import FIXED_POSITION, Task
from posreal.theory.pe_catalogue import CatalogueEntry, Parameter
from posreal.theory.spec_args import int_arg, split_args


@dataclass(frozen=True)
class ToyHat(ProfileEncoding):
    w: int = 1
    kind = RELATIVE
    index = OFFSET
    rational = False

    def dim(self, train_length):
        return 1

    def features(self, keys, train_length):
        return np.exp(-np.asarray(keys, dtype=float) / self.w)[:, None]

    def __str__(self):
        return f"toyhat:{self.w}"


def parse(name, rest, spec):
    (w,) = split_args(rest) or ["1"]
    return ToyHat(int_arg(w, spec, 1))


declare_pe(PEFamily(CatalogueEntry("toyhat:w", "relative", "ψ(i, j) = [exp(-n/w)]",
                                   (Parameter("w", "decay length", "1"),), "θ ∈ ℝ", "no", "a test's toy", "toyhat:2"),
                    parse, rank=50))


@dataclass(frozen=True)
class First(Task):
    """A toy task family: every row attends to key 0 (position:0 under another name)."""
    task_class = FIXED_POSITION

    def rows_and_targets(self, length):
        rows = np.arange(0, length, dtype=np.int64)
        return rows, np.zeros_like(rows)

    def __str__(self):
        return "first"


def parse_first(name, rest, spec):
    return First()


declare_task(TaskFamily("first", "first", parse_first, rank=50))
'''

TOY_TRANSFER = '''
"""A toy length-extension type, declared in this file only: halve, which halves the logits (no row changes)."""
from dataclasses import dataclass

from posreal.theory.declarations import ExtensionEntry, TransferType, declare_transfer
from posreal.theory.transfer_operator import Transfer


@dataclass(frozen=True)
class Halve(Transfer):
    def logit_scale(self, length, train_length):
        return 0.5


declare_transfer(TransferType("halve", ("halve",), lambda name, rest, spec: Halve(spec),
                              (ExtensionEntry("halve", "-", "κ / 2", "a test's toy"),), rank=50, in_all=("halve",)))
'''


def _run(tmp_path: Path, *argv: str, plugins: bool = True) -> subprocess.CompletedProcess:
    (tmp_path / "toy_pe.py").write_text(textwrap.dedent(TOY_PE), encoding="utf-8")
    (tmp_path / "toy_transfer.py").write_text(textwrap.dedent(TOY_TRANSFER), encoding="utf-8")
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(tmp_path), *sys.path]))
    env.pop(declarations.PLUGINS_VARIABLE, None)
    if plugins:
        env[declarations.PLUGINS_VARIABLE] = "toy_pe,toy_transfer"
    return subprocess.run([sys.executable, *argv], capture_output=True, text=True, env=env, timeout=300)


ALPHA = ("-m", "posreal", "alpha", "--pe", "toyhat:3", "--task", "offset:0", "--train-length", "8",
         "--lengths", "16,32", "--json")


def test_a_toy_family_and_transfer_work_everywhere_from_their_own_files(tmp_path):
    done = _run(tmp_path, *ALPHA, "--extension", "halve")
    assert done.returncode == 0, done.stderr
    doc = json.loads(done.stdout)
    assert doc["pe"] == "toyhat:3" and doc["extension"] == "halve"
    assert doc["alpha"] == {"16": 1.0, "32": 1.0}        # θ > 0 on a decaying feature: the key itself wins
    code = ("from posreal.theory.alpha import compute_alpha\n"
            "r = compute_alpha('toyhat:3', 'offset:0', 8, [16], extension='halve')\n"
            "print(r.alpha(16), str(r.pe))")
    done = _run(tmp_path, "-c", code)
    assert done.returncode == 0 and done.stdout.split() == ["1.0", "toyhat:3"], done.stderr
    pes = _run(tmp_path, "-m", "posreal", "pes")
    assert "toyhat:w" in pes.stdout and "a test's toy" in pes.stdout
    extensions = _run(tmp_path, "-m", "posreal", "extensions")
    assert "halve" in extensions.stdout and "κ / 2" in extensions.stdout
    bad_pe = _run(tmp_path, "-m", "posreal", "alpha", "--pe", "sinus", "--task", "offset:0")
    assert bad_pe.returncode == 2 and "toyhat:w" in bad_pe.stderr.splitlines()[0]
    bad_ext = _run(tmp_path, *ALPHA, "--extension", "stretch")
    assert bad_ext.returncode == 2 and "halve" in bad_ext.stderr.splitlines()[0]
    code = ("from posreal.theory.alpha import compute_alpha\n"                 # a toy task family, same answers
            "a, b = (compute_alpha('rope:8', t, 8, [16, 32]) for t in ('first', 'position:0'))\n"
            "print(str(a.cell.task), a.alpha(16) == b.alpha(16), a.alpha(32) == b.alpha(32))")
    done = _run(tmp_path, "-c", code)
    assert done.returncode == 0 and done.stdout.split() == ["first", "True", "True"], done.stderr
    bad_task = _run(tmp_path, "-m", "posreal", "alpha", "--pe", "rope:8", "--task", "last")
    assert bad_task.returncode == 2 and "first" in bad_task.stderr.splitlines()[0]


def test_without_the_plugins_the_toy_names_are_refused(tmp_path):
    done = _run(tmp_path, *ALPHA, plugins=False)                         # the control: nothing else knows them
    assert done.returncode == 2 and "error: invalid PE 'toyhat:3'" in done.stderr
    assert "toyhat" not in _run(tmp_path, "-m", "posreal", "pes", plugins=False).stdout


def test_a_plugin_that_does_not_import_is_one_line(tmp_path):
    env = dict(os.environ, **{declarations.PLUGINS_VARIABLE: "no_such_module_here"})
    done = subprocess.run([sys.executable, "-m", "posreal", "pes"], capture_output=True, text=True, env=env,
                          timeout=300)
    assert done.returncode == 2 and len(done.stderr.strip().splitlines()) == 1
    assert "no_such_module_here" in done.stderr and declarations.PLUGINS_VARIABLE in done.stderr


def test_every_declared_example_parses_and_prints_as_written():
    for entry in catalogue():
        if entry.example is not None:
            assert str(parse_pe(entry.example)) == entry.example
    published = [f for f in declarations.pe_families() if f.published]
    assert published and all(str(parse_pe(f.published)) == f.published for f in published)


def test_the_forms_text_names_every_family_and_extension():
    forms = declarations.pe_forms()
    assert all(f.form in forms for f in declarations.pe_families())
    ext = declarations.extension_forms()
    for kind in declarations.transfer_types():
        assert all(form in ext for form in kind.forms)
    for spec in EXTENSIONS:
        assert str(parse_extension(spec)) == spec


def test_a_name_declared_twice_is_refused():
    family = declarations.pe_family("rope")
    assert family is not None
    assert declarations.declare_pe(family) is family                        # the same declaration again: a no-op
    clash = declarations.PEFamily(type(family.entry)(**{**family.entry.to_json(), "form": "rope:q",
                                                         "parameters": ()}), family.parse, rank=99)
    with pytest.raises(Exception, match="declared twice"):
        declarations.declare_pe(clash)
    assert declarations.pe_family("rope") is family                          # nothing was replaced


def test_the_docs_example_of_a_plugin_works_as_written(tmp_path):
    """docs/cli.md's plugin example, extracted and run as its two command lines say."""
    import re
    text = (Path(__file__).resolve().parents[1] / "docs" / "cli.md").read_text(encoding="utf-8")
    code = re.search(r"```python\n# my_pes.py\n(.*?)```", text, re.S)
    assert code is not None
    (tmp_path / "my_pes.py").write_text(code.group(1), encoding="utf-8")
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(tmp_path), *sys.path]),
               **{declarations.PLUGINS_VARIABLE: "my_pes"})
    done = subprocess.run([sys.executable, "-m", "posreal", "alpha", "--pe", "decay:3", "--task", "offset:0",
                           "--json"], capture_output=True, text=True, env=env, timeout=300)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["pe"] == "decay:3"


def test_a_plugin_that_exits_at_import_is_one_line_not_a_silent_exit(tmp_path):
    (tmp_path / "exits_at_import.py").write_text("import sys\nsys.exit(0)\n", encoding="utf-8")
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(tmp_path), *sys.path]),
               **{declarations.PLUGINS_VARIABLE: "exits_at_import"})
    done = subprocess.run([sys.executable, "-m", "posreal", "pes"], capture_output=True, text=True, env=env,
                          timeout=300)
    assert done.returncode == 2 and done.stdout == "" and len(done.stderr.strip().splitlines()) == 1
    assert "SystemExit" in done.stderr and "exits_at_import" in done.stderr
