"""Writing certificates: the producers' side of the format.

The format is that of :mod:`posreal.counterexamples.verifier.certificate` (which holds only what checking needs).

Main functions: :func:`q` / :func:`qvec` (rationals as ``"p/q"`` strings), :func:`seal` (format
header and digest), :func:`bundle` (several certificates in one file), :func:`dumps` and
:func:`write` (the file's text: sorted keys, indent 2, one final newline), and
:func:`check_output_file` / :func:`check_output_directory` (called before long work so that an
unwritable path fails first).  Used by :mod:`~posreal.counterexamples.colspan`,
:mod:`~posreal.counterexamples.certify`, :mod:`~posreal.counterexamples.conjecture`,
:mod:`~posreal.counterexamples.shipped` and ``posreal search``; the verifier never imports it.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from fractions import Fraction
from pathlib import Path
from typing import Any

from posreal.counterexamples.verifier.certificate import BUNDLE_FORMAT, FORMAT, KIND_VERSION, VERSION, digest
from posreal.runtime import output_files, resources


def q(x: Fraction | int) -> str:
    """A rational as ``"p/q"``."""
    x = Fraction(x)
    return f"{x.numerator}/{x.denominator}"


def qvec(values: Iterable) -> list[str]:
    """Each value in the canonical ``"p/q"`` form."""
    return [q(x) for x in values]


def seal(document: dict) -> dict:
    """Add the format header and the digest to a certificate body."""
    out = {"format": FORMAT, "version": KIND_VERSION.get(document.get("kind", ""), VERSION), **document}
    out["digest"] = digest(out)
    return out


def bundle(certificates: list[dict], **extra: Any) -> dict:
    """A bundle of ``certificates`` (format, version, and the ``extra`` fields)."""
    return {"format": BUNDLE_FORMAT, "version": VERSION, "certificates": certificates, **extra}


def dumps(document: dict) -> str:
    """The document as the JSON text of a certificate file (sorted keys, indented)."""
    return json.dumps(document, sort_keys=True, indent=2, ensure_ascii=False) + "\n"


def check_output_file(path: str | Path, what: str = "output file", force: bool = False,
                      accepted: str = f"a new file, or {output_files.FORCE_HINT}") -> Path:
    """``path`` as a Path if a regular file can be written there, else a one-line error.

    Called before long work so that it fails first (:func:`posreal.runtime.resources.check_output_file`; a symlink,
    or an existing file without ``force``: :func:`posreal.runtime.output_files.check_target`)."""
    output_files.check_target(path, what, force, accepted)
    return Path(resources.check_output_file(str(path), what))


def check_output_directory(path: str | Path, what: str = "output directory") -> Path:
    """``path`` as a Path if it is a writable directory or can be created as one, else a one-line error."""
    return Path(resources.check_output_directory(str(path), what))


def write(document: dict, path: str | Path, force: bool = False) -> bool:
    """Write ``document`` to ``path`` atomically.

    Done by :func:`posreal.runtime.output_files.write_atomic`: never over another existing file unless ``force`` (a file
    with exactly this content is left as it is: False), never through a symlink; a full disk is an OutputIOError
    naming the file."""
    return output_files.write_atomic(path, dumps(document), "certificate file", force)
