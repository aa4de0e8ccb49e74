"""The parameters of PE specs: integers and decimals checked once, with one-line errors naming the accepted forms.

Every PE family's parser (declared in its own module, :mod:`posreal.theory.declarations`) reads its parameters
through these, so a bad parameter of any family is refused the same way.
"""

from __future__ import annotations

import math

from posreal.theory.declarations import pe_forms
from posreal.theory.errors import SpecError, bad_value, quote
from posreal.runtime.resources import MAX_INT_DIGITS, MAX_SPEC_INT


def split_args(rest: str) -> list[str]:
    """The parameters after the name (``rest`` keeps its colon): ``":16:500000"`` -> ``["16", "500000"]``,
    ``":"`` -> ``[""]`` (an empty parameter, refused by the parser that reads it), ``""`` -> ``[]``."""
    return rest[1:].split(":") if rest else []


def no_args(rest: str, spec: str) -> None:
    """Refuse parameters on a family that takes none."""
    if rest:
        raise bad_value("PE", spec, pe_forms())


def at_most(args: list[str], count: int, spec: str) -> list[str]:
    """Refuse more than ``count`` parameters."""
    if len(args) > count:
        raise bad_value("PE", spec, pe_forms())
    return args


def int_arg(text: str, spec: str, minimum: int) -> int:
    """An integer parameter in ASCII digits, from ``minimum`` to MAX_SPEC_INT."""
    if len(text) > MAX_INT_DIGITS or not text.isascii() or not text.isdigit():
        raise bad_value("PE", spec, f"{pe_forms()}; integer parameters in ASCII digits")
    value = int(text, 10)
    if not minimum <= value <= MAX_SPEC_INT:
        raise bad_value("PE", spec, f"{pe_forms()}; integer parameters from {minimum} to {MAX_SPEC_INT}")
    return value


def number_arg(text: str, spec: str, what: str, low: float = 0.0, high: float = float("inf")) -> float:
    """A finite decimal parameter in (``low``, ``high``] (ASCII, at most 40 characters)."""
    try:
        value = float(text) if len(text) <= 40 and text.isascii() and "_" not in text else None
    except ValueError:
        value = None
    if value is None:
        raise bad_value("PE", spec, pe_forms())
    if not math.isfinite(value) or value <= low:
        raise SpecError(f"invalid PE {quote(spec)}: {what} {quote(text)} must be a number > {low:g}")
    if value > high:
        raise SpecError(f"invalid PE {quote(spec)}: {what} {quote(text)} must be a number <= {high:g} "
                        f"(accepted: {low:g} < {what} <= {high:g})")
    return value


def width_and_base(args: list[str], spec: str, default_base: float) -> tuple[int, float, bool]:
    """``d[:base]`` of a sinusoidal family: an even width d ≥ 2 and a base > 1 (and whether it was given)."""
    if not 1 <= len(args) <= 2:
        raise bad_value("PE", spec, pe_forms())
    d = int_arg(args[0], spec, 2)
    if d % 2:
        raise SpecError(f"invalid PE {quote(spec)}: width d={d} is odd; accepted: an even width d >= 2")
    if len(args) == 1:
        return d, default_base, False
    return d, number_arg(args[1], spec, "base", low=1.0), True
