"""Errors raised by the theory package.

One exception class for the package (:class:`PosrealError`) and one subclass for bad
user input (:class:`SpecError`).  Messages are one line: they name the bad argument,
show its value with ``repr`` and list the accepted forms, so the CLI can print them as
they are and exit with code 2.
"""

from __future__ import annotations


class PosrealError(Exception):
    """Base class of every error that the theory package raises on purpose."""


class SpecError(PosrealError, ValueError):
    """A spec string, length, or argument that is not of an accepted form."""


def bad_value(what: str, value: object, accepted: str) -> SpecError:
    """Build the one-line error for a bad argument: what, its repr, and what is accepted."""
    return SpecError(f"invalid {what} {value!r}; accepted: {accepted}")
