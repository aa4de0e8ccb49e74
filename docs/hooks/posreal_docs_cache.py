"""The docs build's results on disk, so that a build of an unchanged tree recomputes nothing.

Every generated block (the Markdown of one ``<!-- posreal: NAME ARG... -->`` marker) and every figure
producer's output is stored under a key: the SHA-256 of its name and arguments and of the *inputs* it
depends on — the bytes of every file under the code and data folders it reads (:data:`CODE` unless the
generator names fewer; the code is read where the imported ``posreal`` lives, the ``docs/`` inputs in the
docs' repository), the Python version, the versions of the numerical packages and solvers, and which
solver executables are on the PATH.  A change to any of them gives a new key, so the result is computed
again; prose edits in ``docs/*.md`` change no key.

Environment:

* ``POSREAL_DOCS_CACHE`` — the folder (default ``.posreal-docs-cache/`` at the repository root, ignored by
  git, so a fresh clone — CI — has none); ``off`` computes everything and stores nothing.
* ``POSREAL_DOCS_FAST=1`` — for prose edits: a block whose inputs changed is *not* recomputed when an
  earlier result of the same name and arguments is stored; it is reused and counted as stale, and the hook
  says so on the page (:class:`Freshness`).
"""

from __future__ import annotations

import hashlib
import os
import pickle
import platform
import shutil
import subprocess
import tempfile
from collections.abc import Callable
from dataclasses import dataclass, field
from enum import Enum
from importlib import metadata
from pathlib import Path
from typing import Any

CODE = ("posreal", "theory", "checks", "counterexamples", "experiment", "proofs", "docs/hooks", "docs/data",
        "pyproject.toml")
"""What a generated result depends on unless its generator names fewer inputs (repository paths)."""
PACKAGES = ("numpy", "scipy", "matplotlib", "z3-solver", "cvc5", "sympy", "mkdocs")
EXECUTABLES = ("coqc", "z3", "cvc5")
DEFAULT_DIR = ".posreal-docs-cache"


class Freshness(Enum):
    """Where a result came from."""

    COMPUTED = "computed"   # computed in this build (and stored)
    REUSED = "reused"       # stored by an earlier build for the same inputs
    STALE = "stale"         # POSREAL_DOCS_FAST: stored for other inputs (the code changed since)


@dataclass
class DiskCache:
    """Results keyed by (name, arguments, inputs); ``directory`` None: nothing is stored or read."""

    root: Path                       # the repository of the docs (docs/... inputs)
    directory: Path | None
    fast: bool = False
    code_root: Path | None = None    # the repository of the imported posreal (the other inputs); default root
    _prints: dict[tuple[str, ...], str] = field(default_factory=dict)

    @classmethod
    def from_environment(cls, root: Path) -> DiskCache:
        where = os.environ.get("POSREAL_DOCS_CACHE", "").strip()
        directory = None if where.lower() == "off" else (Path(where) if where else root / DEFAULT_DIR)
        if directory is not None and not directory.is_absolute():
            directory = root / directory
        import posreal
        code_root = Path(posreal.__file__).resolve().parents[1]   # the code that runs, wherever it is installed
        return cls(root, directory, fast=os.environ.get("POSREAL_DOCS_FAST", "") not in ("", "0"),
                   code_root=code_root)

    def describe(self) -> str:
        if self.directory is None:
            return "cache off (POSREAL_DOCS_CACHE=off): every result is computed"
        code = "" if self.code_root in (None, self.root) else f"; code imported from {self.code_root}"
        stored = len(list((self.directory / "entries").glob("*.pickle"))) if self.directory.is_dir() else 0
        fast = "; POSREAL_DOCS_FAST: results stored for older code are reused" if self.fast else ""
        return f"cache {self.directory} ({stored} results stored){code}{fast}"

    def fingerprint(self, inputs: tuple[str, ...] = CODE) -> str:
        """SHA-256 of the inputs' bytes (file paths and contents, sorted), the interpreter and the tools."""
        if inputs not in self._prints:
            h, listed = hashlib.sha256(), []
            for rel in inputs:
                base = self.root if rel.startswith("docs/") else (self.code_root or self.root)
                for path in self._files(base / rel):
                    data = path.read_bytes()
                    h.update(str(path.relative_to(base)).encode() + b"\0" + data + b"\0")
                    listed.append(f"{hashlib.sha256(data).hexdigest()[:16]}  {path.relative_to(base)}")
            tools = [f"python {platform.python_version()}"]
            for name in PACKAGES:
                try:
                    tools.append(f"{name}={metadata.version(name)}")
                except metadata.PackageNotFoundError:
                    tools.append(f"{name}=absent")
            tools += [f"{exe}:{shutil.which(exe) is not None}" for exe in EXECUTABLES]
            h.update("\n".join(tools).encode())
            self._prints[inputs] = h.hexdigest()
            if self.directory is not None:   # what the key was made of, to tell why a result was recomputed
                self._store(self.directory / "inputs" / f"{self._prints[inputs][:32]}.txt",
                            "\n".join(tools + listed).encode() + b"\n")
        return self._prints[inputs]

    @staticmethod
    def _files(path: Path) -> list[Path]:
        """The source files under ``path``, sorted: in a git checkout the files git tracks or would track (so
        build artefacts git ignores — Coq's caches, __pycache__ — never change a key), else every regular file
        but caches and compiled files.  Symlinks are skipped (posreal/theory -> ../theory is hashed once)."""
        listed = _git_files(path)
        if listed is not None:
            return listed
        if path.is_file() and not path.is_symlink():
            return [path]
        found = []
        for top, dirs, files in os.walk(path):
            dirs[:] = sorted(d for d in dirs if d != "__pycache__" and not os.path.islink(os.path.join(top, d)))
            found += [Path(top) / f for f in sorted(files)
                      if not f.endswith((".pyc", ".vo", ".vok", ".vos", ".glob", ".aux", ".cache"))
                      and not os.path.islink(os.path.join(top, f))]
        return found

    def fetch(self, name: str, args: tuple[str, ...], compute: Callable[[], Any],
              inputs: tuple[str, ...] = CODE) -> tuple[Any, Freshness]:
        """The result of ``compute()`` for (name, args) and the inputs as they are now: stored or computed."""
        if self.directory is None:
            return compute(), Freshness.COMPUTED
        label = hashlib.sha256(repr((name, args)).encode()).hexdigest()[:24]
        key = hashlib.sha256(f"{label}:{self.fingerprint(inputs)}".encode()).hexdigest()[:32]
        entry, latest = self.directory / "entries" / f"{key}.pickle", self.directory / "latest" / label
        if entry.is_file():
            return self._load(entry), Freshness.REUSED
        if self.fast and latest.is_file():
            older = self.directory / "entries" / f"{latest.read_text().strip()}.pickle"
            if older.is_file():
                return self._load(older), Freshness.STALE
        value = compute()
        self._store(entry, pickle.dumps(value))
        self._store(latest, key.encode())
        return value, Freshness.COMPUTED

    @staticmethod
    def _load(path: Path) -> Any:
        with path.open("rb") as f:
            return pickle.load(f)   # our own files, written by _store

    @staticmethod
    def _store(path: Path, data: bytes) -> None:
        """Write atomically: a build killed mid-write leaves no half entry."""
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".tmp-")
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        os.replace(tmp, path)


def _git_files(path: Path) -> list[Path] | None:
    """Files under ``path`` that git tracks or does not ignore (None: not in a git checkout, or no git)."""
    top = path if path.is_dir() else path.parent
    try:
        out = subprocess.run(["git", "-C", str(top), "ls-files", "-z", "--cached", "--others", "--exclude-standard",
                              "--", str(path)], capture_output=True, check=True, timeout=60).stdout
    except (OSError, subprocess.SubprocessError):
        return None
    files = (top / name for name in out.decode().split("\0") if name)
    return sorted(f for f in files if f.is_file() and not f.is_symlink())
