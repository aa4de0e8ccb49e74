"""The repository's top-level folders are subpackages of posreal only: from the repository root (pytest's
``pythonpath``), ``import theory`` fails with a one-line reason instead of loading a second copy of the module
(``theory.errors.SpecError is posreal.theory.errors.SpecError`` would be False)."""

from __future__ import annotations

import importlib
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
FOLDERS = ("theory", "checks", "counterexamples", "experiment")


@pytest.mark.parametrize("folder", FOLDERS)
def test_a_top_level_folder_does_not_import_on_its_own(folder):
    assert str(ROOT) in [str(Path(p).resolve()) for p in sys.path if p]    # the root is importable here
    sys.modules.pop(folder, None)
    with pytest.raises(ImportError, match=f"import posreal.{folder}, not {folder}"):
        importlib.import_module(folder)
    assert folder not in sys.modules


@pytest.mark.parametrize("folder", FOLDERS)
def test_the_subpackage_imports_as_posreal(folder):
    module = importlib.import_module(f"posreal.{folder}")                  # the control: the one right name
    assert module.__name__ == f"posreal.{folder}"


@pytest.mark.subprocess
def test_from_the_root_in_a_fresh_interpreter():
    done = subprocess.run([sys.executable, "-c", "import theory.errors"], cwd=ROOT, capture_output=True, text=True,
                          timeout=120)
    last = done.stderr.strip().splitlines()[-1]
    assert done.returncode == 1 and last.startswith("ImportError: import posreal.theory")
