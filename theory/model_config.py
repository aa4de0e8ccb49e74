"""A model's RoPE from its transformers ``config.json``: the PE, the training length and the transfer it runs.

Main definitions (definitions.md#model-configs):

* :func:`read_model_config` reads ``hf:PATH``: the rotary width d = ``head_dim`` (else ``hidden_size`` /
  ``num_attention_heads``) × ``partial_rotary_factor`` (truncated to an integer, as transformers does; d must be even),
  ``rope_theta`` (top level, or inside transformers 5's ``rope_parameters``), ``max_position_embeddings`` and
  ``rope_scaling`` (or ``rope_parameters``; the key ``rope_type`` or the legacy ``type``).  Anything malformed is a
  one-line :class:`~posreal.theory.errors.SpecError` naming the key and what is accepted;
* :class:`ModelConfig` gives the PE (``rope:d:b``; for ``proportional`` the k rotated pairs with exponents over the
  head width, ``rope:2k:b^(2k/h)``), the default training length (``original_max_position_embeddings``, else
  ``max_position_embeddings``) and its :class:`~posreal.theory.rope_scaling.RopeScaling`, which the transfer of
  :mod:`posreal.theory.config_transfer` applies.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from posreal.runtime import resources
from posreal.theory.encodings import Encoding
from posreal.theory.declarations import PEFamily, declare_pe, pe_forms
from posreal.theory.errors import SpecError, bad_value, quote
from posreal.theory.pe_catalogue import CatalogueEntry, Parameter
from posreal.theory.rope_scaling import RopeScaling, RopeType
from posreal.theory.sinusoids import Sinusoidal

MAX_CONFIG_BYTES = 4 * 2 ** 20        # a config.json with a longrope table is a few KiB
MAX_CONFIG_DEPTH = 8
MAX_POSITIONS = 2 ** 40
CONFIG_FORMS = ("a transformers config.json object with rope_theta, max_position_embeddings, head_dim (or hidden_size "
                "and num_attention_heads) and an optional rope_scaling")
SCALING_FORMS = ("a rope_scaling object with rope_type (or type) one of " + ", ".join(t.value for t in RopeType)
                 + " and that type's keys")


# --------------------------------------------------------------------------- reading
class Reader:
    """Typed access to one JSON object, every error naming the file and the key."""

    def __init__(self, doc: Any, where: str):
        if not isinstance(doc, dict):
            raise SpecError(f"invalid {where}: a JSON {type(doc).__name__}; accepted: a JSON object")
        self.doc, self.where = doc, where

    def has(self, key: str) -> bool:
        return self.doc.get(key) is not None

    def _bad(self, key: str, accepted: str) -> SpecError:
        return SpecError(f"invalid {self.where}: {key} is {quote(self.doc.get(key))}; accepted: {accepted}")

    def number(self, key: str, low: float = 0.0, high: float = 1e15, strict: bool = True,
               default: float | None = None) -> float:
        if not self.has(key):
            if default is not None:
                return default
            raise SpecError(f"invalid {self.where}: {key} is missing; accepted: a number")
        x = self.doc[key]
        ok = isinstance(x, (int, float)) and not isinstance(x, bool) and math.isfinite(x)
        if not ok or not ((x > low) if strict else (x >= low)) or x > high:
            raise self._bad(key, f"a number {'>' if strict else '>='} {low:g} and <= {high:g}")
        return float(x)

    def integer(self, key: str, default: int | None = None) -> int:
        if not self.has(key):
            if default is not None:
                return default
            raise SpecError(f"invalid {self.where}: {key} is missing; accepted: an integer >= 1")
        x = self.doc[key]
        if isinstance(x, bool) or not isinstance(x, (int, float)) or not float(x).is_integer() \
                or not 1 <= x <= MAX_POSITIONS:
            raise self._bad(key, f"an integer from 1 to {MAX_POSITIONS}")
        return int(x)

    def boolean(self, key: str, default: bool) -> bool:
        if not self.has(key):
            return default
        if not isinstance(self.doc[key], bool):
            raise self._bad(key, "true or false")
        return bool(self.doc[key])

    def table(self, key: str, size: int) -> tuple[float, ...]:
        x = self.doc.get(key)
        accepted = f"a list of {size} positive numbers (one per rotary frequency)"
        if not isinstance(x, list) or len(x) != size:
            shown = f"a list of {len(x)} entries" if isinstance(x, list) else quote(x)
            raise SpecError(f"invalid {self.where}: {key} is {shown}; accepted: {accepted}")
        if not all(isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v) and 0 < v <= 1e12
                   for v in x):
            raise self._bad(key, accepted)
        return tuple(float(v) for v in x)


def load_config_json(path: str, what: str) -> Any:
    text = resources.read_text(path, what, MAX_CONFIG_BYTES)
    return resources.load_json(text, f"{what} {quote(path)}", MAX_CONFIG_DEPTH,
                               accepted=CONFIG_FORMS if what == "model config" else SCALING_FORMS)


def rope_type_of(scaling: Reader) -> RopeType:
    key = "rope_type" if scaling.has("rope_type") else "type"
    name = scaling.doc.get(key, "default")
    try:
        return RopeType(name)
    except ValueError:
        raise SpecError(f"invalid {scaling.where}: {key} is {quote(name)}; accepted: "
                        + ", ".join(t.value for t in RopeType)) from None


def scaling_of(scaling: Reader, kind: RopeType, width: int, base: float, original: int | None,
             max_positions: int | None) -> RopeScaling:
    """A validated :class:`RopeScaling` (``original``/``max_positions`` None: filled from the cell later)."""
    needs_factor = kind in (RopeType.LINEAR, RopeType.DYNAMIC, RopeType.YARN, RopeType.LLAMA3)
    factor = scaling.number("factor", high=1e9, default=None if needs_factor else 1.0)
    if kind is RopeType.LONGROPE and not scaling.has("factor") and original and max_positions:
        factor = max_positions / original          # transformers' longrope: the attention factor's s without 'factor'
    extra: dict[str, Any] = {}
    if kind is RopeType.YARN:
        extra.update(beta_fast=scaling.number("beta_fast", default=32.0), beta_slow=scaling.number("beta_slow",
                     default=1.0), truncate=scaling.boolean("truncate", True))
    if kind is RopeType.LLAMA3:
        low = scaling.number("low_freq_factor")
        high = scaling.number("high_freq_factor")
        if high <= low:
            raise SpecError(f"invalid {scaling.where}: high_freq_factor {high:g} <= low_freq_factor {low:g}; "
                            "accepted: high_freq_factor > low_freq_factor")
        extra.update(low_freq_factor=low, high_freq_factor=high)
    if kind is RopeType.LONGROPE:
        extra.update(long_factor=scaling.table("long_factor", width // 2),
                     short_factor=scaling.table("short_factor", width // 2))
    for key in ("attention_factor", "mscale", "mscale_all_dim"):
        if scaling.has(key) and kind in (RopeType.YARN, RopeType.LONGROPE):
            extra[key] = scaling.number(key, high=1e6)
    return RopeScaling(kind, width, base, original or 0, max_positions or 0, factor, **extra)


@dataclass(frozen=True)
class ModelConfig:
    """What a config.json says about RoPE."""

    path: str
    head_dim: int
    width: int              # rotary width d (the PE's features: d/2 frequencies)
    base: float             # the PE's base (rope_theta; b^(2k/h) for proportional)
    train_length: int       # L0: original_max_position_embeddings, else max_position_embeddings
    scaling: RopeScaling

    @property
    def pe(self) -> Encoding:
        return Sinusoidal("rope", self.width, self.base, base_given=True)


def read_model_config(path: str) -> ModelConfig:
    """``hf:PATH``: the RoPE of a transformers config.json (see the module docstring)."""
    top = Reader(load_config_json(path, "model config"), f"model config {quote(path)}")
    params = top.doc.get("rope_scaling") if top.has("rope_scaling") else top.doc.get("rope_parameters")
    scaling = Reader(params if params is not None else {}, f"rope_scaling of {quote(path)}")
    theta_from = top if top.has("rope_theta") or not scaling.has("rope_theta") else scaling
    base = theta_from.number("rope_theta", low=1.0, high=1e30)
    if top.has("head_dim"):
        head = top.integer("head_dim")
    else:
        hidden, heads = top.integer("hidden_size"), top.integer("num_attention_heads")
        if hidden % heads:
            raise SpecError(f"invalid model config {quote(path)}: hidden_size {hidden} is not a multiple of "
                            f"num_attention_heads {heads}; accepted: give head_dim")
        head = hidden // heads
    kind = rope_type_of(scaling)
    prf_from = scaling if kind is RopeType.PROPORTIONAL and scaling.has("partial_rotary_factor") else top
    prf = prf_from.number("partial_rotary_factor", high=1.0, default=1.0)
    if kind is RopeType.PROPORTIONAL:
        pairs = int(prf * head // 2)
        width, base = 2 * pairs, base ** (2 * pairs / head)               # b^(-2i/h) = (b^(2k/h))^(-2i/(2k))
    else:
        width = int(head * prf)
    if width < 2 or width % 2:
        raise SpecError(f"invalid model config {quote(path)}: rotary width {width} (head_dim {head} × "
                        f"partial_rotary_factor {prf:g}); accepted: an even width >= 2")
    max_positions = top.integer("max_position_embeddings")
    original_from = top if kind is RopeType.LONGROPE and top.has("original_max_position_embeddings") else scaling
    original = original_from.integer("original_max_position_embeddings", default=max_positions)
    if kind is RopeType.DYNAMIC:
        original = max_positions                                          # transformers' dynamic type reads Lmax
    rope = scaling_of(scaling, kind, width, base, original, max_positions)
    return ModelConfig(path, head, width, base, original, rope)


# --------------------------------------------------------------------------- declarations (posreal pes)
# Parsers at module level (each line runs when a spec is parsed), declarations as module-level statements.
def _parse_hf(name: str, rest: str, spec: str) -> Encoding:
    if len(rest) < 2:
        raise bad_value("PE", spec, pe_forms())
    return read_model_config(rest[1:]).pe


declare_pe(PEFamily(CatalogueEntry(
    "hf:CONFIG.json", "relative",
    "a model's RoPE: rope:d:b with d = head_dim × partial_rotary_factor and b = rope_theta (proportional: the "
    "rotated pairs with exponents over the head width); its rope_scaling is the default --extension and its "
    "original_max_position_embeddings the default L0",
    (Parameter("CONFIG.json", "a transformers config.json (examples/configs/ has six real ones)", "—"),),
    "θ ∈ ℝ^d", "no (float: the config's frequencies)",
    "transformers' config format and rope_scaling types ('posreal extensions' lists them)", None), _parse_hf, rank=15,
    never_rational=True))
