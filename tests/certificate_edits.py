"""Shared test helpers: read a shipped certificate, edit it at a path (``put``, ``drop``), re-seal an edited one,
and the one-line message of an expected error (a SpecError unless another error class is given)."""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

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


Edit = Callable[[dict], None]


def put(*path_and_value: Any) -> Edit:
    """An edit setting the document's value at a path (keys and indices) to a copy of the last argument."""
    *path, value = path_and_value

    def edit(doc: dict) -> None:
        node = doc
        for key in path[:-1]:
            node = node[key]
        node[path[-1]] = copy.deepcopy(value)
    return edit


def drop(*path: Any) -> Edit:
    """An edit deleting the document's field at a path."""
    def edit(doc: dict) -> None:
        node = doc
        for key in path[:-1]:
            node = node[key]
        del node[path[-1]]
    return edit
