"""Running the user's own code (a ``py:MODULE:FUNCTION`` PE, a ``psi`` given to ``register_pe``) inside
posreal's contract: whatever the code does, the command ends in one error line and exit 2, naming the PE.

Main definition: :func:`contained` runs one call and turns into one
:class:`~posreal.theory.errors.SpecError` line

* any exception, including ``SystemExit`` (``sys.exit`` in the user's function), ``GeneratorExit`` and
  every other ``BaseException`` — except ``KeyboardInterrupt``: Ctrl-C stays an interruption (exit 130);
* a write to standard output: ``sys.stdout`` is redirected while the code runs, so that posreal's
  standard output (one JSON document with ``--json``) is never mixed with the user's;
* a warning (with ``warnings=True``): recorded while the code runs, instead of printed.

Standard library only.  Writes below Python's ``sys.stdout`` (``os.write(1, ...)``, C extensions) are not
intercepted.
"""

from __future__ import annotations

import contextlib
import io
import warnings
from collections.abc import Callable
from typing import TypeVar

from posreal.theory.errors import SpecError, quote

T = TypeVar("T")


def contained(call: Callable[[], T], name: str, on: str, accepted: str, *, warn: bool = True,
              action: str = "its function") -> T:
    """``call()`` with stdout redirected and warnings recorded; any exception but KeyboardInterrupt, any
    output on stdout and (with ``warn``) any warning is a one-line SpecError about PE ``name``:
    "invalid PE NAME: ACTION raised/wrote/warned ... [on ON]; accepted: ACCEPTED"."""
    where = f" on {on}" if on else ""
    printed = io.StringIO()
    recording: contextlib.AbstractContextManager[list[warnings.WarningMessage] | None] = (
        warnings.catch_warnings(record=True) if warn else contextlib.nullcontext([]))
    with recording as caught:
        if warn:
            warnings.simplefilter("always")
        try:
            with contextlib.redirect_stdout(printed):
                result = call()
        except KeyboardInterrupt:
            raise
        except BaseException as err:   # the user's code: SystemExit and GeneratorExit are bad input too
            raise SpecError(f"invalid PE {name!r}: {action} raised {type(err).__name__}: {quote(str(err))}"
                            f"{where}; accepted: {accepted}") from None
    text = printed.getvalue()
    if text:
        raise SpecError(f"invalid PE {name!r}: {action} wrote {quote(text)} to standard output{where}; accepted: "
                        f"{accepted}, printing nothing (standard output holds posreal's results)")
    if caught:
        first = caught[0]
        raise SpecError(f"invalid PE {name!r}: {action} warned {first.category.__name__}: {quote(str(first.message))} "
                        f"{where}; accepted: {accepted}, without warnings")
    return result
