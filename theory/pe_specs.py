"""PE spec strings: the one parser of linear PE specs, the shear of a spec, and ``learned:d``.

Main definitions (definitions.md#linear-pe):

* :func:`parse_pe` turns a spec (``rope:16``, ``clipped:7``, ``t5``, ``dual:abscol:16``, ``table:PATH``,
  ``py:MODULE:FUNCTION`` once loaded, a name given to :func:`posreal.theory.tables.register_pe`) into an
  :class:`~posreal.theory.encodings.Encoding`, in shear normal form: ``dual:dual:P`` is P;
  specs round-trip through ``str()``, and an alias prints as it was written (``relbias`` stays
  ``relbias``, ``alibi`` stays ``alibi``: the same encodings as ``clipped`` and ``slope``);
* :func:`dual_pe`: the shear of a spec or encoding (Proposition 4);
* ``learned:d`` (:class:`LearnedAbsolute`) is not linear: :func:`parse_pe` refuses it and
  :func:`parse_learned` parses it for the Underdetermination result (:func:`is_learned` tells the
  two spec kinds apart without parsing).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from posreal.theory.encodings import OFFSET, POSITION, Bucket, Encoding, NoPE, Slope
from posreal.theory.published import (ALIBI_HEAD, ALIBI_HEADS, FIRE_KNOTS, MAX_FIRE_KNOTS, MAX_T5_BUCKETS,
                                      T5_BUCKETS, T5_MAX_DISTANCE, XPOS_SCALE, Fire, FixedALiBi, KerpleLog,
                                      T5Buckets, XPos)
from posreal.theory.errors import SpecError, bad_value, quote
from posreal.theory.sinusoids import DEFAULT_BASE, AbsSin, Sinusoidal
from posreal.theory.resources import MAX_INT_DIGITS, MAX_SPEC_INT, check_spec, strip_duals
from posreal.theory.model_config import read_model_config
from posreal.theory.tables import load_table, registered_pe

PE_FORMS = ("nope, clipped[:D] (or relbias), slope (or alibi), colbias[:D], t5[:B[:M]], alibi-fixed[:H[:h]], "
            "kerple-log[:r], rope:d[:base], xpos:d[:base[:scale]], abscol:d[:base], abssin:d[:base], fire[:K[:T]], "
            "dual:PE, learned:d, hf:CONFIG.json, table:PATH, py:MODULE:FUNCTION, or a register_pe name (d even; "
            "'posreal pes' lists them)")


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


MAX_KERPLE_R = 1e12   # kerple-log's inner scale r: r·L <= 10^19 on the longest grid, so log(1 + r n) stays finite


def _number(text: str, spec: str, what: str, low: float = 0.0, high: float = float("inf")) -> float:
    """A finite decimal parameter in (``low``, ``high``] (ASCII, at most 40 characters)."""
    try:
        value = float(text) if len(text) <= 40 and text.isascii() and "_" not in text else None
    except ValueError:
        value = None
    if value is None:
        raise bad_value("PE", spec, PE_FORMS)
    if not np.isfinite(value) or value <= low:
        raise SpecError(f"invalid PE {quote(spec)}: {what} {quote(text)} must be a number > {low:g}")
    if value > high:
        raise SpecError(f"invalid PE {quote(spec)}: {what} {quote(text)} must be a number <= {high:g} "
                        f"(accepted: {low:g} < {what} <= {high:g})")
    return value


def _sinusoid_args(args: list[str], spec: str) -> tuple[int, float, bool]:
    if not 1 <= len(args) <= 2:
        raise bad_value("PE", spec, PE_FORMS)
    d = _int_arg(args[0], spec, 2)
    if d % 2:
        raise SpecError(f"invalid PE {quote(spec)}: width d={d} is odd; accepted: an even width d >= 2")
    if len(args) == 1:
        return d, DEFAULT_BASE, False
    return d, _number(args[1], spec, "base", low=1.0), True


def _t5(args: list[str], spec: str) -> T5Buckets:
    B = _int_arg(args[0], spec, 2) if args else T5_BUCKETS
    M = _int_arg(args[1], spec, 1) if len(args) > 1 else T5_MAX_DISTANCE
    if B > MAX_T5_BUCKETS or M <= B // 2:
        raise SpecError(f"invalid PE {quote(spec)}: t5 needs 2 <= B <= {MAX_T5_BUCKETS} buckets and a max distance "
                        f"M > B/2 (here B = {B}, M = {M}); accepted: t5[:B[:M]], e.g. t5, t5:32:128")
    return T5Buckets(B, M, given=len(args))


def _alibi_fixed(args: list[str], spec: str) -> FixedALiBi:
    H = _int_arg(args[0], spec, 1) if args else ALIBI_HEADS
    h = _int_arg(args[1], spec, 1) if len(args) > 1 else ALIBI_HEAD
    if h > H:
        raise SpecError(f"invalid PE {quote(spec)}: head h = {h} of H = {H} heads; accepted: alibi-fixed[:H[:h]] "
                        "with 1 <= h <= H (slope 2^(-8h/H))")
    return FixedALiBi(heads=H, head=h, given=len(args))


def _xpos(args: list[str], spec: str) -> XPos:
    if not 1 <= len(args) <= 3:
        raise bad_value("PE", spec, PE_FORMS)
    d, base, _ = _sinusoid_args(args[:2], spec)
    scale = _number(args[2], spec, "scale") if len(args) == 3 else XPOS_SCALE
    return XPos(d=d, base=base, scale=scale, given=len(args))


def _fire(args: list[str], spec: str) -> Fire:
    K = _int_arg(args[0], spec, 2) if args else FIRE_KNOTS
    if K > MAX_FIRE_KNOTS:
        raise SpecError(f"invalid PE {quote(spec)}: K = {K} knots; accepted: fire[:K[:T]] with 2 <= K <= "
                        f"{MAX_FIRE_KNOTS}")
    T = _int_arg(args[1], spec, 1) if len(args) > 1 else None
    return Fire(knots=K, threshold=T, given=len(args))


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
    """Parse a linear PE spec string (the only parser of linear PE specs).

    An Encoding is returned as it is.  ``learned:d`` is not linear: it is refused here (see :func:`parse_learned`)."""
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
    if text.startswith("hf:") and len(text) > 3:
        return read_model_config(text[3:]).pe
    if text.startswith("table:"):
        return load_table(text[len("table:"):])
    if text.startswith("py:"):
        loaded = registered_pe(text)
        if loaded is None:
            raise SpecError(f"invalid PE {quote(spec)}: a py:MODULE:FUNCTION PE is not loaded; accepted: on the "
                            "command line with --pe-kind and --pe-width, from Python through "
                            "posreal.theory.register_pe(name, psi=f, kind=..., width=p)")
        return loaded
    name, *args = text.split(":")
    user = registered_pe(name) if not args else None
    if user is not None:
        return user
    if name == "nope" and not args:
        return NoPE()
    if name in ("clipped", "relbias", "colbias") and len(args) <= 1:
        D = _int_arg(args[0], spec, 0) if args else None
        alias = "relbias" if name == "relbias" else None   # the old name, printed as given
        return Bucket(D=D, index=POSITION if name == "colbias" else OFFSET, alias=alias)
    if name in ("slope", "alibi") and not args:
        return Slope(alias="alibi" if name == "alibi" else None)
    if name == "t5" and len(args) <= 2:
        return _t5(args, spec)
    if name == "alibi-fixed" and len(args) <= 2:
        return _alibi_fixed(args, spec)
    if name == "kerple-log" and len(args) <= 1:
        return KerpleLog(_number(args[0], spec, "inner scale r", high=MAX_KERPLE_R), given=1) if args else KerpleLog()
    if name in ("rope", "abscol"):
        d, base, given = _sinusoid_args(args, spec)
        return Sinusoidal(name=name, d=d, base=base, base_given=given)
    if name == "xpos":
        return _xpos(args, spec)
    if name == "abssin":
        d, base, given = _sinusoid_args(args, spec)
        return AbsSin(d=d, base=base, base_given=given)
    if name == "fire" and len(args) <= 2:
        return _fire(args, spec)
    raise bad_value("PE", spec, PE_FORMS)
