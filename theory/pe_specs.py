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


import posreal.theory.model_config   # noqa: F401  (each family module declares its PEs on import)
import posreal.theory.published      # noqa: F401
import posreal.theory.sinusoids      # noqa: F401
import posreal.theory.tables         # noqa: F401
from posreal.theory.declarations import PEFamily, declare_pe, pe_family, pe_forms
from posreal.theory.encodings import Encoding
from posreal.theory.errors import bad_value
from posreal.theory.pe_catalogue import CatalogueEntry, Parameter
from posreal.runtime.resources import MAX_INT_DIGITS, MAX_SPEC_INT, check_spec, strip_duals
from posreal.theory.tables import registered_pe


def __getattr__(name: str) -> str:
    """``PE_FORMS``: the accepted-forms text of a bad PE spec, derived from the declarations on each use."""
    if name == "PE_FORMS":
        return pe_forms()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


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
        raise bad_value("PE", spec, pe_forms())
    depth, text = strip_duals(check_spec(spec, "PE", pe_forms()))   # a loop, not recursion
    if is_learned(text):
        raise bad_value("PE", spec, "the shear dual:P of a linear PE P (learned:d is not linear)")
    inner = _parse_plain(text, spec)
    return inner.dual() if depth % 2 else inner   # shear normal form: S∘S = id


def _parse_plain(text: str, spec: str) -> Encoding:
    """A spec without ``dual:`` prefixes: a user PE registered under its name, else the declared family's parser."""
    name, sep, tail = text.partition(":")
    rest = sep + tail                                       # ":16:500000", ":" or "" (no parameters)
    user = registered_pe(name) if not sep else None
    if user is not None:
        return user
    family = pe_family(name)
    if family is None or not family.linear:
        raise bad_value("PE", spec, pe_forms())
    return family.parse(name, rest, spec)


def _not_here(name: str, rest: str, spec: str) -> Encoding:
    raise bad_value("PE", spec, pe_forms())     # dual: is stripped before, learned:d is refused before


declare_pe(PEFamily(CatalogueEntry(
    "dual:PE", "the shear's: relative ↔ column", "ψ(i, j) = ψ_PE(i, i - j)", (Parameter("PE", "any linear PE", "—"),),
    "as PE", "as PE", "Proposition 4 (absolute/relative duality)", "dual:t5"), _not_here, rank=12))
declare_pe(PEFamily(CatalogueEntry(
    "learned:d", "—", "κ(i, j) = E_iᵀ W E_j with a learned table E: not linear in one θ",
    (Parameter("d", "width of the position table", "—"),), "—", "—",
    "learned absolute PEs: their α_L is an interval (Underdetermination)", None), _not_here, rank=16,
    never_rational=True, linear=False))
