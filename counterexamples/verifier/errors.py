"""The counterexamples package's error class.

:class:`CertificateError` (a :class:`posreal.theory.errors.PosrealError`, so the CLI turns it into a
one-line message and exit code 2) is raised for unreadable or malformed certificates, result
files and search arguments.  Messages name the bad part, show its value with ``repr`` and list
the accepted forms.
"""

from __future__ import annotations

from posreal.theory.errors import PosrealError


class CertificateError(PosrealError, ValueError):
    """A certificate, result file or search argument that is not of an accepted form."""
