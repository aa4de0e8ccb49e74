"""The arithmetic of a computation, named once: float (with its tolerance), exact ℚ, certified intervals
(definitions.md#tolerance).

:class:`Mode` travels from the command line down to the selection, the memory estimate and the row decisions;
the arithmetic objects (:mod:`posreal.theory.arithmetic`) act on it.  A selection is exact (in ℚ) only in
:attr:`Mode.EXACT`: the certified mode selects in float and certifies the row decisions.  Standard library only.
"""

from __future__ import annotations

from enum import StrEnum

from posreal.theory.errors import bad_value


class Mode(StrEnum):
    """The arithmetic of a computation."""

    FLOAT = "float"
    EXACT = "exact"
    CERTIFIED = "certified"

    @property
    def exact_selection(self) -> bool:
        """θ* in ℚ (only the exact mode; certified selects in float and certifies the rows)."""
        return self is Mode.EXACT


MODE_FORMS = ", ".join(m.value for m in Mode)


def parse_mode(mode: str | Mode) -> Mode:
    """A :class:`Mode` from its name; anything else is a one-line error naming the accepted ones."""
    if isinstance(mode, Mode):
        return mode
    if isinstance(mode, str) and mode in Mode.__members__.values():
        return Mode(mode)
    raise bad_value("mode", mode, MODE_FORMS)
