"""PE spec strings: the one parser of linear PE specs, the shear of a spec, and ``learned:d``.

Main definitions (definitions.md#linear-pe):

* :func:`parse_pe` turns a spec (``rope:16``, ``relbias:7``, ``dual:abscol:16``, ``table:PATH``, a
  name given to :func:`posreal.theory.tables.register_pe`) into an
  :class:`~posreal.theory.encodings.Encoding`, in shear normal form: ``dual:dual:P`` is P;
  specs round-trip through ``str()``;
* :func:`dual_pe`: the shear of a spec or encoding (Proposition 4);
* ``learned:d`` (:class:`LearnedAbsolute`) is not linear: :func:`parse_pe` refuses it and
  :func:`parse_learned` parses it for the Underdetermination result (:func:`is_learned` tells the
  two spec kinds apart without parsing).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from posreal.theory.encodings import (DEFAULT_BASE, OFFSET, POSITION, ALiBi, AbsSin, Bucket, Encoding,
                                      NoPE, Sinusoidal)
from posreal.theory.errors import SpecError, bad_value, quote
from posreal.theory.resources import MAX_INT_DIGITS, MAX_SPEC_INT, check_spec, strip_duals
from posreal.theory.tables import load_table, registered_pe

PE_FORMS = ("nope, relbias[:D], alibi, rope:d[:base], abssin:d[:base], abscol:d[:base], "
            "colbias[:D] (d even >= 2, D >= 0, base > 1), dual:PE, learned:d, table:PATH (a JSON feature table), "
            "or a name registered with posreal.theory.register_pe")


@dataclass(frozen=True)
class LearnedAbsolute:
    """``learned:d``: κ(i, j) = E_iᵀ W E_j with a learned table E.  Not linear in one θ, so
    α_L is not a function of (Φ, τ) (Underdetermination): handled only by that result."""

    d: int
    kind = "learned"

    def __str__(self) -> str:
        return f"learned:{self.d}"


# --------------------------------------------------------------------------- the shear and parsing
def dual_pe(pe: str | Encoding) -> Encoding:
    """The shear ψ_S(i, j) = ψ(i, i - j): same row values, flipped key index.  An involution."""
    return parse_pe(pe).dual()


def _int_arg(text: str, spec: str, minimum: int) -> int:
    if len(text) > MAX_INT_DIGITS or not text.isascii() or not text.isdigit():
        raise bad_value("PE", spec, f"{PE_FORMS}; integer parameters in ASCII digits")
    value = int(text, 10)
    if not minimum <= value <= MAX_SPEC_INT:
        raise bad_value("PE", spec, f"{PE_FORMS}; integer parameters from {minimum} to {MAX_SPEC_INT}")
    return value


def _sinusoid_args(args: list[str], spec: str) -> tuple[int, float, bool]:
    if not 1 <= len(args) <= 2:
        raise bad_value("PE", spec, PE_FORMS)
    d = _int_arg(args[0], spec, 2)
    if d % 2:
        raise SpecError(f"invalid PE {quote(spec)}: width d={d} is odd; accepted: an even width d >= 2")
    if len(args) == 1:
        return d, DEFAULT_BASE, False
    try:
        base = float(args[1]) if len(args[1]) <= 40 and args[1].isascii() and "_" not in args[1] else None
    except ValueError:
        base = None
    if base is None:
        raise bad_value("PE", spec, PE_FORMS)
    if not np.isfinite(base) or base <= 1.0:
        raise SpecError(f"invalid PE {quote(spec)}: base {quote(args[1])} must be a number > 1")
    return d, base, True


LEARNED_API = "posreal alpha --pe learned:d, or posreal.theory.learned_alpha_interval and parse_learned"


def is_learned(spec: object) -> bool:
    """True for a ``learned:…`` spec string or a :class:`LearnedAbsolute` (cheap: nothing is parsed)."""
    if isinstance(spec, LearnedAbsolute):
        return True
    return isinstance(spec, str) and spec.strip().split(":", 1)[0] == "learned"


def parse_learned(spec: str | LearnedAbsolute) -> LearnedAbsolute:
    """Parse ``learned:d`` (d >= 1), the one non-linear PE; a :class:`LearnedAbsolute` is returned as it is."""
    if isinstance(spec, LearnedAbsolute):
        return spec
    if not isinstance(spec, str):
        raise bad_value("learned PE", spec, "learned:d with an integer d >= 1")
    name, *args = spec.strip().split(":")
    if name != "learned" or len(args) != 1:
        raise bad_value("learned PE", spec, "learned:d with an integer d >= 1 (linear PEs go through parse_pe)")
    text = args[0]
    if len(text) > MAX_INT_DIGITS or not text.isascii() or not text.isdigit() or not 1 <= int(text, 10) <= MAX_SPEC_INT:
        raise bad_value("learned PE", spec, f"learned:d with d in ASCII digits, 1 <= d <= {MAX_SPEC_INT}")
    return LearnedAbsolute(int(text, 10))


def parse_pe(spec: str | Encoding) -> Encoding:
    """Parse a linear PE spec string (the only parser of linear PE specs); an Encoding is returned
    as it is.  ``learned:d`` is not linear: it is refused here (see :func:`parse_learned`)."""
    if isinstance(spec, Encoding):
        return spec
    if is_learned(spec):
        raise bad_value("PE", spec if isinstance(spec, str) else str(spec),
                        f"a linear PE here; learned:d is not linear (its α_L is an interval): use {LEARNED_API}")
    if not isinstance(spec, str):
        raise bad_value("PE", spec, PE_FORMS)
    depth, text = strip_duals(check_spec(spec, "PE", PE_FORMS))   # a loop, not recursion
    if is_learned(text):
        raise bad_value("PE", spec, "the shear dual:P of a linear PE P (learned:d is not linear)")
    inner = _parse_plain(text, spec)
    return inner.dual() if depth % 2 else inner   # shear normal form: S∘S = id


def _parse_plain(text: str, spec: str) -> Encoding:
    if text.startswith("table:"):
        return load_table(text[len("table:"):])
    name, *args = text.split(":")
    user = registered_pe(name) if not args else None
    if user is not None:
        return user
    if name == "nope" and not args:
        return NoPE()
    if name in ("relbias", "colbias") and len(args) <= 1:
        D = _int_arg(args[0], spec, 0) if args else None
        return Bucket(D=D, index=OFFSET if name == "relbias" else POSITION)
    if name == "alibi" and not args:
        return ALiBi()
    if name in ("rope", "abscol"):
        d, base, given = _sinusoid_args(args, spec)
        return Sinusoidal(name=name, d=d, base=base, base_given=given)
    if name == "abssin":
        d, base, given = _sinusoid_args(args, spec)
        return AbsSin(d=d, base=base, base_given=given)
    raise bad_value("PE", spec, PE_FORMS)
