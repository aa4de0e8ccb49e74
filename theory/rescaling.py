"""What a rescalable PE needs of a length extension's frequencies at one evaluated length: the interface that
:class:`~posreal.theory.extension.FrequencyRescaling` and :class:`~posreal.theory.config_transfer.ConfigRescaling`
provide, so that the encodings name it without importing the extensions (definitions.md#length-extension).
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any, Protocol

import numpy as np


class Rescaling(Protocol):
    """ω_f → ω'_f at one evaluated length: floats and interval enclosures of the rescaled frequencies."""

    @property
    def method(self) -> Any:
        """The method (an enum whose ``value`` is its spec name, e.g. ``pi``)."""

    @property
    def scale(self) -> Fraction | float:
        """The factor s of the method at this length."""

    def bound(self, width: int, base: float) -> Rescaling:
        """The rescaling for a PE of rotary width d and base b."""

    def check_width(self, half: int) -> None:
        """Refuse a PE with another number of frequencies than the rescaling gives."""

    def floats(self, omega: np.ndarray) -> np.ndarray:
        """ω' from ω: (d/2,) -> (d/2,)."""

    def intervals(self, iv: Any, omega: list) -> list:
        """Enclosures of ω' from enclosures of ω (mpmath's ``iv`` context)."""
