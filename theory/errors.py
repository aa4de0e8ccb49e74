"""Errors raised by the theory package.

One exception class for the package (:class:`PosrealError`) and one subclass for bad
user input (:class:`SpecError`).  Messages are one line: they name the bad argument,
show its value with ``repr`` (cut to about 80 characters) and list the accepted forms, so the CLI can print them as
they are and exit with code 2.
"""

from __future__ import annotations


class PosrealError(Exception):
    """Base class of every error that the theory package raises on purpose."""


class SpecError(PosrealError, ValueError):
    """A spec string, length, or argument that is not of an accepted form."""


MAX_QUOTE = 80
"""Characters of a bad value that an error message quotes (a 100 KB value gives a short line)."""


def quote(value: object, max_chars: int = MAX_QUOTE) -> str:
    """``repr(value)``, cut to about ``max_chars`` characters, with the full size named."""
    if isinstance(value, (str, bytes)) and len(value) > max_chars:
        return repr(value[:max_chars]) + f"… ({len(value)} characters)"
    text = repr(value)
    return text if len(text) <= max_chars else text[:max_chars] + f"… ({len(text)} characters)"


def bad_value(what: str, value: object, accepted: str) -> SpecError:
    """Build the one-line error for a bad argument: what, its repr (at most about 80 characters),
    and what is accepted."""
    return SpecError(f"invalid {what} {quote(value)}; accepted: {accepted}")
