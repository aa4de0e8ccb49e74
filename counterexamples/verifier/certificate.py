"""The certificate format: exact claims as data that anyone can re-verify.

A certificate is one JSON object (``sort_keys=True``)::

    {"format": "posreal-certificate", "version": 1, "kind": KIND,
     "instance": {...}, "claims": {...}, "evidence": {...}, "explanation": "...",
     "versions": {tool: version}, "digest": "sha256:..."}

* ``kind`` is ``static-colspan`` or ``dynamic-colspan`` (the two forms of the invalid
  outside-colspan argument, definitions.md#outside-colspan) or ``open-tie`` (a row of the conjecture search whose
  tie the selected θ* leaves open);
* every exact number is a rational string ``"p/q"`` (``posreal.theory.rational.fraction_str`` form);
* ``evidence`` holds float measurements (gradient-descent trajectories): reported, never
  treated as exact claims;
* ``digest`` is the SHA-256 of the canonical JSON of everything else, so a hand edit that does
  not touch an exact claim (an explanation, a float) is still detected.

A file holds one certificate or a bundle ``{"format": "posreal-certificate-bundle",
"version": 1, "certificates": [...]}``.  This module is pure Python (the verifier imports it).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable
from fractions import Fraction
from pathlib import Path
from typing import Any

from posreal.counterexamples.verifier.errors import CertificateError

FORMAT = "posreal-certificate"
BUNDLE_FORMAT = "posreal-certificate-bundle"
VERSION = 1
KINDS = ("static-colspan", "dynamic-colspan", "open-tie")


def q(x: Fraction | int) -> str:
    """A rational as ``"p/q"``."""
    x = Fraction(x)
    return f"{x.numerator}/{x.denominator}"


def unq(text: Any, where: str) -> Fraction:
    """Parse ``"p/q"``; anything else is a malformed certificate."""
    if isinstance(text, str) and text.count("/") == 1:
        num, den = text.split("/")
        try:
            if den.strip() == den and num.strip() == num:
                return Fraction(int(num, 10), int(den, 10))
        except (ValueError, ZeroDivisionError):
            pass
    raise CertificateError(f"invalid rational {text!r} at {where}; accepted: a string 'p/q' with integers p, q != 0")


def qvec(values: Iterable) -> list[str]:
    return [q(x) for x in values]


def unqvec(values: Any, where: str) -> tuple[Fraction, ...]:
    if not isinstance(values, list):
        raise CertificateError(f"invalid vector {values!r} at {where}; accepted: a list of 'p/q' strings")
    return tuple(unq(x, f"{where}[{n}]") for n, x in enumerate(values))


def canonical(document: dict) -> str:
    return json.dumps(document, sort_keys=True, separators=(",", ":"), ensure_ascii=True)


def digest(document: dict) -> str:
    body = {k: v for k, v in document.items() if k != "digest"}
    return "sha256:" + hashlib.sha256(canonical(body).encode("ascii")).hexdigest()


def seal(document: dict) -> dict:
    """Add the format header and the digest to a certificate body."""
    out = {"format": FORMAT, "version": VERSION, **document}
    out["digest"] = digest(out)
    return out


def bundle(certificates: list[dict], **extra: Any) -> dict:
    return {"format": BUNDLE_FORMAT, "version": VERSION, "certificates": certificates, **extra}


def dumps(document: dict) -> str:
    return json.dumps(document, sort_keys=True, indent=2, ensure_ascii=False) + "\n"


def check_output_file(path: str | Path, what: str = "output file") -> Path:
    """``path`` as a Path if a file can be written there (not a directory; its directory exists),
    else a one-line CertificateError — called before long work so that it fails first."""
    path = Path(path)
    if path.is_dir():
        raise CertificateError(f"invalid {what} {str(path)!r}: it is a directory; accepted: a file path")
    parent = path.parent if str(path.parent) else Path(".")
    if not parent.is_dir():
        raise CertificateError(f"invalid {what} {str(path)!r}: directory {str(parent)!r} does not exist; "
                               "accepted: a file path in an existing directory")
    return path


def check_output_directory(path: str | Path, what: str = "output directory") -> Path:
    """``path`` as a Path if it is a directory or can be created as one, else a one-line CertificateError."""
    path = Path(path)
    if path.exists() and not path.is_dir():
        raise CertificateError(f"invalid {what} {str(path)!r}: it exists and is not a directory; "
                               "accepted: a directory (created if missing)")
    for ancestor in path.absolute().parents:
        if ancestor.exists():
            if not ancestor.is_dir():
                raise CertificateError(f"invalid {what} {str(path)!r}: {str(ancestor)!r} is not a directory; "
                                       "accepted: a directory (created if missing)")
            break
    return path


def write(document: dict, path: str | Path) -> None:
    """Write ``document`` to ``path``; a path that cannot be written is a one-line CertificateError."""
    try:
        Path(path).write_text(dumps(document), encoding="utf-8")
    except OSError as err:
        raise CertificateError(f"cannot write certificate file {str(path)!r}: {err.strerror or err}; "
                               "accepted: a writable file path in an existing directory") from None


def load(path: str | Path) -> dict:
    """Read a certificate or bundle file; unreadable or non-JSON input is a CertificateError."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as err:
        raise CertificateError(f"unreadable certificate file {str(path)!r}: {err.__class__.__name__}") from None
    try:
        document = json.loads(text)
    except json.JSONDecodeError as err:
        raise CertificateError(f"malformed certificate file {str(path)!r}: not JSON ({err.msg} at line "
                               f"{err.lineno}); accepted: a {FORMAT} or {BUNDLE_FORMAT} JSON object") from None
    if not isinstance(document, dict):
        raise CertificateError(f"malformed certificate file {str(path)!r}: top level is "
                               f"{type(document).__name__}; accepted: a JSON object")
    return document
