"""Shared helpers of the resources contract tests (tests/test_resources_*.py): the limits' units and
accepted-forms texts, the budget-cleaning fixture, and the exact-message assertion."""

from __future__ import annotations

import re

import pytest
from posreal.runtime import resources

KIB, MIB, GIB, TIB = 2 ** 10, 2 ** 20, 2 ** 30, 2 ** 40
SIZE_ACCEPTED = "a size such as 512M, 4G or 2GiB (bytes if no unit), at most 1024T"
FILE_ACCEPTED = "a writable file path in an existing directory"
DIR_ACCEPTED = "a writable directory (created if missing)"
JSON_ACCEPTED = "a JSON file written by posreal"


@pytest.fixture(autouse=True)
def _clean_budget(monkeypatch):
    """No --max-memory and no budget variables, whatever the calling environment sets."""
    monkeypatch.setattr(resources, "_configured", None)
    monkeypatch.delenv("POSREAL_MAX_MEMORY", raising=False)
    monkeypatch.delenv("POSREAL_MAX_WORK", raising=False)


def _quoted(value: object) -> str:
    """How messages quote a value: its repr, a longer str cut to 80 characters with its length named."""
    if isinstance(value, str) and len(value) > 80:
        return repr(value[:80]) + f"… ({len(value)} characters)"
    return repr(value)


def _raises(exc: type[Exception], message: str, fn, *args, **kwargs) -> None:
    """``fn(*args, **kwargs)`` raises exactly ``exc`` with exactly ``message`` (one line)."""
    assert "\n" not in message
    with pytest.raises(exc, match=r"^" + re.escape(message) + r"$") as info:
        fn(*args, **kwargs)
    assert type(info.value) is exc
