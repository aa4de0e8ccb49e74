"""Shared test helpers: read a shipped certificate, re-seal an edited one, and the one-line message of
an expected error (a SpecError unless another error class is given)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from posreal.counterexamples.certificate_writer import seal
from posreal.theory.errors import SpecError

CERTIFICATES = Path(__file__).resolve().parents[1] / "counterexamples" / "certificates"


def message(call, error=SpecError) -> str:
    with pytest.raises(error) as err:
        call()
    return str(err.value)


def certificate(name: str) -> dict:
    return json.loads((CERTIFICATES / name).read_text(encoding="utf-8"))


def resealed(doc: dict) -> dict:
    return seal({k: v for k, v in doc.items() if k not in ("format", "version", "digest")})
