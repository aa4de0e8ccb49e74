"""Provenance recorded in every result file and certificate: tool versions (read from the
installed distributions' metadata, so nothing heavy is imported) and the time of the run."""

from __future__ import annotations

import platform
from datetime import datetime, UTC
from importlib import metadata

TOOLS = ("positional-realizability", "numpy", "scipy", "sympy", "mpmath", "z3-solver")


def versions() -> dict[str, str]:
    out = {"python": platform.python_version()}
    for name in TOOLS:
        try:
            out[name] = metadata.version(name)
        except metadata.PackageNotFoundError:
            out[name] = "not installed"
    return out


def timestamp() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")
