"""The certificate format: exact claims as data that anyone can re-verify.

A certificate is one JSON object (``sort_keys=True``)::

    {"format": "posreal-certificate", "version": 1, "kind": KIND,
     "instance": {...}, "claims": {...}, "evidence": {...}, "explanation": "...",
     "versions": {tool: version}, "digest": "sha256:..."}

* ``kind`` is ``static-colspan`` or ``dynamic-colspan`` (the two forms of the invalid
  outside-colspan argument, definitions.md#outside-colspan) or ``open-tie`` (a row of the conjecture search whose
  tie the selected θ* leaves open) — format version 1 — or, since version 2, ``residual-levels`` (an open
  tie decided through the residual levels) or ``symmetric-tie`` (a tie kept at 0 by a signed permutation),
  definitions.md#residual-levels.  Each kind has one version (:data:`KIND_VERSION`): a version-1
  certificate is read as before;
* every exact number is a rational string ``"p/q"`` (``posreal.theory.rational.fraction_str`` form);
* ``evidence`` holds float measurements (gradient-descent trajectories): reported, never
  treated as exact claims;
* ``digest`` is the SHA-256 of the canonical JSON of everything else, so a hand edit that does
  not touch an exact claim (an explanation, a float) is still detected.

A file holds one certificate or a bundle ``{"format": "posreal-certificate-bundle",
"version": 1, "certificates": [...]}``.  This module holds what checking needs — the format's
constants, parsing rationals, the digest and reading a file — in pure Python (the verifier
imports it); writing (``"p/q"`` strings, sealing, bundles, files) is
:mod:`posreal.counterexamples.certificate_writer`.
"""

from __future__ import annotations

import hashlib
import json
import math
import re
from fractions import Fraction
from pathlib import Path
from typing import Any

from posreal.counterexamples.verifier.errors import CertificateError
from posreal.runtime import resources
from posreal.theory.errors import quote

FORMAT = "posreal-certificate"
BUNDLE_FORMAT = "posreal-certificate-bundle"
VERSION = 1                  # the format of the three first kinds (and of bundles)
KIND_VERSION = {"static-colspan": 1, "dynamic-colspan": 1, "open-tie": 1,
                "residual-levels": 2, "symmetric-tie": 2}   # version 2 added the last two kinds
KINDS = tuple(KIND_VERSION)
MAX_RATIONAL_DIGITS = 200   # digits of a numerator or denominator in a certificate
_RATIONAL = re.compile(r"(0|-?[1-9][0-9]*)/([1-9][0-9]*)")   # one spelling of zero: "0/1", never "-0/1"


def unq(text: Any, where: str) -> Fraction:
    """Parse a rational in its canonical form ``"p/q"``.

    The form: q > 0, gcd(p, q) = 1, zero is ``"0/1"``, ASCII digits, at most MAX_RATIONAL_DIGITS each.  Anything
    else is a malformed certificate, so that one number has exactly one spelling."""
    match = _RATIONAL.fullmatch(text) if isinstance(text, str) and len(text) <= 2 * MAX_RATIONAL_DIGITS + 2 else None
    if match is not None and max(len(match.group(1).lstrip("-")), len(match.group(2))) <= MAX_RATIONAL_DIGITS:
        num, den = int(match.group(1), 10), int(match.group(2), 10)
        if math.gcd(num, den) == 1:
            return Fraction(num, den)
    raise CertificateError(f"invalid rational {quote(text)} at {where}; accepted: a string 'p/q' in lowest terms "
                           f"(q > 0, zero as '0/1', at most {MAX_RATIONAL_DIGITS} digits each)")


def unqvec(values: Any, where: str) -> tuple[Fraction, ...]:
    """Parse a list of canonical rationals (:func:`unq`) found at ``where``."""
    if not isinstance(values, list):
        raise CertificateError(f"invalid vector {quote(values)} at {where}; accepted: a list of 'p/q' strings")
    return tuple(unq(x, f"{where}[{n}]") for n, x in enumerate(values))


def canonical(document: dict) -> str:
    """The canonical JSON text of a document (sorted keys, no spaces, ASCII)."""
    return json.dumps(document, sort_keys=True, separators=(",", ":"), ensure_ascii=True)


def digest(document: dict) -> str:
    """The sha256 digest of a document without its ``digest`` field."""
    body = {k: v for k, v in document.items() if k != "digest"}
    return "sha256:" + hashlib.sha256(canonical(body).encode("ascii")).hexdigest()


def load(path: str | Path) -> dict:
    """Read a certificate or bundle file.

    A regular UTF-8 file of at most MAX_FILE_BYTES, JSON nested at most MAX_JSON_DEPTH deep with integers of at most
    MAX_JSON_INT_DIGITS digits; anything else is a one-line error (never a hang on a device or FIFO, never a
    RecursionError)."""
    where = f"certificate file {quote(str(path))}"
    text = resources.read_text(str(path), "certificate file")
    document = resources.load_json(text, where)
    if not isinstance(document, dict):
        raise CertificateError(f"malformed {where}: top level is {type(document).__name__}; accepted: a JSON object")
    return document
