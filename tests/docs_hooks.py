"""The docs hooks (``docs/hooks/``) imported as mkdocs imports them: the folder on ``sys.path`` while loading."""

from __future__ import annotations

import importlib
import sys
from pathlib import Path
from types import ModuleType

HOOKS = Path(__file__).resolve().parents[1] / "docs" / "hooks"


def hook_module(name: str) -> ModuleType:
    """One module of docs/hooks (``posreal_docs_gen``, ``posreal_docs_cache``, …)."""
    sys.path.insert(0, str(HOOKS))
    try:
        return importlib.import_module(name)
    finally:
        sys.path.remove(str(HOOKS))


def run_cli(capsys, *argv: str) -> tuple[int, str, str]:
    """``posreal ARGV`` in-process, as a page's marker runs it: (exit code, stdout, stderr)."""
    from posreal.cli import main
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err
