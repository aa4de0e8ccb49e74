"""Shared helpers of the mutation-kill tests: read a shipped certificate, re-seal an edited one, and
the one-line message of an expected error."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from posreal.counterexamples.certificate_writer import seal
from posreal.counterexamples.verifier import exact_model as em
from posreal.counterexamples.verifier import qla
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


def in_span(vector, rows) -> bool:
    """Exact membership of ``vector`` in the span of ``rows`` (by the verifier's rank)."""
    if not rows:
        return all(x == 0 for x in vector)
    return qla.rank(list(rows) + [vector]) == qla.rank(rows)


def transpose(rows) -> list[list]:
    return [list(c) for c in zip(*rows)]


def row_features(pe: str, i: int, train_length: int, tables=None) -> list:
    """Ψ_i = [ψ(i, j)]_{j ≤ i} from the verifier's exact model: the row's feature matrix, one key per row."""
    return [em.feature(pe, i, j, train_length, tables) for j in range(i + 1)]
