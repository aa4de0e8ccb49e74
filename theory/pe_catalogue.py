"""The catalogue of PE spec forms: formula, kind, parameters and reference of every PE (``posreal pes``).

The entry type is standard library only; each PE family declares its entry in its own module
(:mod:`posreal.theory.declarations`) and :func:`catalogue` collects them.  Each
:class:`CatalogueEntry` names a spec form, its older names (aliases: they parse to the same encoding
and print as they were written), the kind of ψ, the formula, the parameters with their defaults, what
θ ranges over, whether exact mode applies, and the paper it follows.  The formulas are those of the
docs' Definitions page (definitions.md#linear-pe, #published-pe, #fixed-bias, #feature-tables,
#function-pe); tests parse every ``example`` with :func:`posreal.theory.pe_specs.parse_pe` and check
its kind, rationality and θ range against the entry.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass


@dataclass(frozen=True)
class Parameter:
    """One parameter of a spec form."""

    name: str
    meaning: str
    default: str


@dataclass(frozen=True)
class CatalogueEntry:
    """One spec form of the PE registry (or of a user PE)."""

    form: str                       # e.g. "t5[:B[:M]]"
    kind: str                       # relative, column, bilinear, general, "the shear's", "—"
    formula: str                    # ψ(i, j), n = i - j
    parameters: tuple[Parameter, ...]
    theta: str                      # what θ ranges over
    exact: str                      # whether --exact applies: yes, no, or when
    reference: str
    example: str | None             # a spec that parses (None: needs a file or a module)
    aliases: tuple[str, ...] = ()

    def to_json(self) -> dict:
        return asdict(self)


FREQUENCY_BASE = Parameter("base", "base of the frequencies ω_f = base^(-2f/d), f = 0..d/2-1", "10000")
WIDTH = Parameter("d", "width: an even number of features", "—")


def catalogue() -> tuple[CatalogueEntry, ...]:
    """Every spec form, in the order ``posreal pes`` prints them: the declarations' entries
    (:mod:`posreal.theory.declarations`; each PE family declares its entry in its own module)."""
    from posreal.theory.declarations import pe_families
    return tuple(family.entry for family in pe_families())
