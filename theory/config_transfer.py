"""The transfer of a model config's ``rope_scaling``: θ* selected at L0, evaluated with the config's frequencies.

Main definitions (definitions.md#model-configs):

* :class:`ConfigTransfer`: θ* is selected at L0 with the plain features; at every evaluated length L the features
  use the config's frequencies at L (:meth:`~posreal.theory.rope_scaling.RopeScaling.frequencies`) with its fixed
  factor — as the deployed model runs, so a fixed-factor type acts at L0 too, ``dynamic`` acts only above Lmax and
  ``longrope`` uses its short table up to L0;
* :func:`config_transfer` is the transfer of ``--pe hf:PATH`` (its config, :mod:`posreal.theory.model_config`);
  :func:`read_rope_scaling` reads ``--extension hf:PATH``: a bare ``rope_scaling`` object, for any RoPE-family PE
  (the rotary width and base then come from the PE, L0 from the object or the cell), or a whole config;
* the attention factor (``yarn``, ``longrope``) multiplies the logits by a positive constant: it changes no realized
  row and is reported in the JSON (:meth:`ConfigTransfer.to_json`).

Certified mode needs interval enclosures of the frequencies; these types are evaluated in float64 only.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from enum import StrEnum
from typing import Any

import numpy as np

from posreal.theory.encodings import Encoding
from posreal.theory.declarations import ExtensionEntry, TransferType, declare_transfer, extension_forms
from posreal.theory.errors import SpecError, bad_value, quote
from posreal.theory.model_config import (ModelConfig, Reader, load_config_json, read_model_config, rope_type_of,
                                         scaling_of)
from posreal.theory.rope_scaling import ROPE_TYPES, RopeScaling, RopeType
from posreal.theory.transfer_operator import Transfer


class ConfigMethod(StrEnum):
    """The method name a config's rescaling carries into error messages."""

    CONFIG = "hf"


def config_transfer(config: ModelConfig) -> ConfigTransfer:
    """The transfer a model config runs (``--pe hf:PATH``)."""
    return ConfigTransfer(f"hf:{config.path}", config.scaling)


def read_rope_scaling(path: str) -> ConfigTransfer:
    """``--extension hf:PATH``: a bare rope_scaling object, or a whole config whose rope_scaling is taken."""
    doc = load_config_json(path, "rope_scaling file")
    if isinstance(doc, dict) and ("max_position_embeddings" in doc or "rope_theta" in doc):
        return config_transfer(read_model_config(path))
    scaling = Reader(doc, f"rope_scaling file {quote(path)}")
    kind = rope_type_of(scaling)
    if kind is RopeType.LONGROPE:
        raise SpecError(f"invalid rope_scaling file {quote(path)}: longrope's tables need the rotary width; "
                        "accepted: the whole config.json (--pe hf:PATH)")
    original = scaling.integer("original_max_position_embeddings", default=0) or None
    rope = scaling_of(scaling, kind, 2, math.e, original, original)
    return ConfigTransfer(f"hf:{path}", rope, bare=True)




@dataclass(frozen=True)
class ConfigRescaling:
    """A config's frequencies at one evaluated length (the rescaling a Rescalable PE evaluates with)."""

    scaling: RopeScaling
    length: int
    train_length: int
    method = ConfigMethod.CONFIG

    @property
    def scale(self) -> float:
        return self.scaling.factor

    def bound(self, width: int, base: float) -> ConfigRescaling:
        """Take the rotary width and base from the PE being rescaled (a bare rope_scaling has neither)."""
        return replace(self, scaling=replace(self.scaling, width=width, base=base))

    def check_width(self, half: int) -> None:
        tables = (self.scaling.long_factor, self.scaling.short_factor)
        if self.scaling.type is RopeType.LONGROPE and any(len(t) != half for t in tables):
            raise SpecError(f"invalid longrope tables for a PE with {half} frequencies: the config gives "
                            f"{len(tables[0])} and {len(tables[1])}; accepted: {half} factors each")

    def floats(self, omega: np.ndarray) -> np.ndarray:
        return self.scaling.frequencies(omega, self.length)

    def intervals(self, iv: Any, omega: list) -> list:
        raise SpecError(f"invalid mode 'certified' with a model config's rope_scaling "
                        f"({self.scaling.type.value}); accepted: float (its frequencies are float64)")


@dataclass(frozen=True)
class ConfigTransfer(Transfer):
    """T_L^σ of a model config: the config's frequencies at L, with its fixed factor (module docstring)."""

    scaling: RopeScaling = RopeScaling(RopeType.DEFAULT, 2, math.e, 0, 0)
    bare: bool = False       # from a bare rope_scaling object (L0 and Lmax may come from the cell)

    def _filled(self, train_length: int) -> RopeScaling:
        s = self.scaling
        return replace(s, original=s.original or train_length, max_positions=s.max_positions or train_length)

    def accept(self, pe: Encoding, train_length: int) -> None:
        pe.extended(ConfigRescaling(self._filled(train_length), 2 * train_length, train_length),
                    train_length)

    def at_length(self, pe: Encoding, length: int, train_length: int) -> Encoding:
        if self.scaling.type is RopeType.DEFAULT:
            return pe
        return pe.extended(ConfigRescaling(self._filled(train_length), length, train_length),
                           train_length)

    def logit_scale(self, length: int, train_length: int) -> float:
        return self._filled(train_length).logit_scale(length)

    def to_json(self, train_length: int) -> dict:
        out = self._filled(train_length).to_json()
        out["attention_factor"] = self._filled(train_length).attention(train_length)
        return out


def rope_type_catalogue() -> list[dict]:
    """One entry per rope_type: name, formula, reference, keys (``posreal extensions``)."""
    return [{"name": f"hf:PATH ({t.value})", "formula": info.formula, "reference": info.reference,
             "keys": list(info.keys)} for t, info in ROPE_TYPES.items()]


# --------------------------------------------------------------------------- declarations (posreal extensions)
# Parsers at module level (each line runs when a spec is parsed), declarations as module-level statements.
def _parse_hf(name: str, rest: str, spec: str) -> Transfer:
    if len(rest) < 2:
        raise bad_value("extension", spec, extension_forms())
    return read_rope_scaling(rest[1:])


declare_transfer(TransferType("hf", ("hf:PATH",), _parse_hf, tuple(
    ExtensionEntry(f"hf:PATH ({kind.value})", "the config's factor; dynamic: also L", info.formula, info.reference)
    for kind, info in ROPE_TYPES.items()), rank=6))
