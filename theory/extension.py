"""Length-extension methods as transfer operators T_L^σ (definitions.md#length-extension).

Main definitions:

* θ is selected at L0 with the plain features; at an evaluation length L with s = L / L0 > 1 an
  extension σ rescales each frequency ω_f = base^(-2f/d) of a sinusoidal PE to ω_f / λ_f(s)
  (:class:`FrequencyRescaling`).  For s ≤ 1 every σ is the identity;
* ``pi`` (position interpolation; Chen, Wong, Chen & Tian 2023): λ_f = s, i.e. positions m → m / s;
* ``ntk`` (NTK-aware scaling, as described in Peng et al. 2023): base → base · s^(d/(d-2)),
  i.e. λ_f = s^(2f/(d-2)) (d = 2: the one frequency f = 0 keeps λ = 1);
* ``yarn`` (Peng, Quesnelle, Fan & Shippole, ICLR 2024, "NTK-by-parts" with its defaults α = 1, β = 32):
  r_f = L0 ω_f / 2π, γ_f = clip((r_f − α)/(β − α), 0, 1), ω'_f = (1 − γ_f) ω_f / s + γ_f ω_f.  Its
  attention temperature t divides the logits: queries and keys are both scaled by √(1/t) = 0.1 ln s + 1, so
  the kernel is multiplied by the positive scalar 1/t = (0.1 ln s + 1)² (:func:`yarn_temperature`,
  :meth:`Extension.logit_scale`), which changes no realized row: α_L^yarn does not depend on it;
* ``factors:FILE``: λ_f given per frequency (a JSON list of numbers or rational strings "p/q" in
  [1e-9, 1e12]), for searched methods such as LongRoPE (Ding et al. 2024);
* which PEs accept which method is the encoding's business (``Encoding.extended``): ``rope``,
  ``abscol``, ``abssin`` and their shears rescale frequencies; ``alibi`` accepts ``pi`` (a positive
  rescaling of -(i - j): no row changes); bucketed and table PEs have nothing to rescale and refuse.

Every rescaled frequency is also enclosed in interval arithmetic (:meth:`FrequencyRescaling.intervals`),
so certified mode decides rows of T_L^σ θ rigorously.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from enum import StrEnum
from functools import partial
from fractions import Fraction
from typing import Any

import numpy as np

import posreal.theory.config_transfer   # noqa: F401  (declares hf:PATH, a model config's rope_scaling)
from posreal.runtime import resources
from posreal.theory.encodings import Encoding
from posreal.theory.errors import SpecError, bad_value, quote
from posreal.theory.declarations import (ExtensionEntry, TransferType, declare_transfer, extension_forms,
                                         named_extensions, transfer_type, transfer_types)
from posreal.theory.transfer_operator import Transfer

YARN_ALPHA = 1.0    # ramp start (YaRN's α): wavelengths longer than L0 / α are interpolated fully
YARN_BETA = 32.0    # ramp end (YaRN's β): wavelengths shorter than L0 / β are extrapolated
MAX_FACTORS = 4096  # entries of a factors file
MAX_FACTORS_BYTES = 2 ** 20   # a factors file: 4096 factors of up to 61 characters fit in 256 KiB
MIN_FACTOR, MAX_FACTOR = Fraction(1, 10 ** 9), Fraction(10 ** 12)   # λ_f range: ω/λ and L·ω/λ stay finite floats
_RATIONAL = re.compile(r"\s*[0-9]{1,30}(?:/[0-9]{1,30})?\s*")      # "p" or "p/q": no exponents (no 10**huge)

class ExtensionMethod(StrEnum):
    """The length-extension methods."""

    NONE = "none"
    PI = "pi"
    NTK = "ntk"
    YARN = "yarn"
    FACTORS = "factors"
    CONFIG = "hf"       # a model config's rope_scaling (:mod:`posreal.theory.rope_scaling`)


def yarn_temperature(scale: float) -> float:
    """YaRN's logit multiplier 1/t at scale s ≥ 1: queries and keys are each scaled by √(1/t) = 0.1 ln s + 1
    (Peng et al. 2024, §3.4), so the kernel is multiplied by (0.1 ln s + 1)², a positive scalar (1 for s ≤ 1)."""
    root = 0.1 * math.log(max(float(scale), 1.0)) + 1.0
    return root * root


@dataclass(frozen=True)
class FrequencyRescaling:
    """ω_f → ω'_f = ω_f / λ_f(s) at one evaluation length: s = length / train_length > 1."""

    method: ExtensionMethod
    length: int
    train_length: int
    factors: tuple[Fraction, ...] = ()     # λ_f of a factors file
    fixed: Fraction | None = None          # a config's fixed factor s (``linear:S``, ``ntk:S``, ``yarn:S``)

    @property
    def scale(self) -> Fraction:
        """s: the fixed factor, else L / L0."""
        return self.fixed if self.fixed is not None else Fraction(self.length, self.train_length)

    def bound(self, width: int, base: float) -> FrequencyRescaling:
        """The rescaling for a PE of rotary width d and base b (these methods need neither)."""
        return self

    def check_width(self, half: int) -> None:
        """A factors file must give one factor per frequency (d/2 of them)."""
        if self.method is ExtensionMethod.FACTORS and len(self.factors) != half:
            raise SpecError(f"invalid factors for a PE with {half} frequencies: the file gives {len(self.factors)}; "
                            f"accepted: a JSON list of {half} positive factors")

    def floats(self, omega: np.ndarray) -> np.ndarray:
        """ω' from ω = base^(-2f/d), f = 0..d/2-1: (d/2,) -> (d/2,)."""
        s = float(self.scale)
        half = omega.size
        if self.method is ExtensionMethod.PI:
            return omega / s
        if self.method is ExtensionMethod.NTK:
            f = np.arange(half)
            exponent = 2.0 * f / (2 * half - 2) if half > 1 else np.zeros(half)    # 2f / (d - 2)
            return omega / np.power(s, exponent)
        if self.method is ExtensionMethod.YARN:
            r = self.train_length * omega / (2.0 * np.pi)                         # (d/2,) periods within L0
            gamma = np.clip((r - YARN_ALPHA) / (YARN_BETA - YARN_ALPHA), 0.0, 1.0)
            return (1.0 - gamma) * omega / s + gamma * omega
        self.check_width(half)
        return omega / np.array([float(x) for x in self.factors])

    def intervals(self, iv: Any, omega: list) -> list:
        """Enclosures of ω' from enclosures of ω (mpmath's ``iv`` context): d/2 intervals."""
        s = iv.mpf(self.scale.numerator) / self.scale.denominator
        half = len(omega)
        if self.method is ExtensionMethod.PI:
            return [w / s for w in omega]
        if self.method is ExtensionMethod.NTK:
            log_s = iv.log(s)
            return [w * iv.exp(-(iv.mpf(2 * f) / (2 * half - 2)) * log_s) if half > 1 else w
                    for f, w in enumerate(omega)]
        if self.method is ExtensionMethod.YARN:
            out = []
            for w in omega:
                t = (self.train_length * w / (2 * iv.pi) - YARN_ALPHA) / (YARN_BETA - YARN_ALPHA)
                gamma = iv.mpf([min(max(float(t.a), 0.0), 1.0), min(max(float(t.b), 0.0), 1.0)])   # clip is monotone
                out.append((1 - gamma) * w / s + gamma * w)
            return out
        self.check_width(half)
        return [w * iv.mpf(x.denominator) / iv.mpf(x.numerator) for w, x in zip(omega, self.factors)]


@dataclass(frozen=True)
class Extension(Transfer):
    """T_L^σ: θ selected at L0, evaluated on the L-grid with the frequencies rescaled by σ."""

    method: ExtensionMethod = ExtensionMethod.PI
    factors: tuple[Fraction, ...] = ()
    fixed: Fraction | None = None      # a fixed factor s: the transfer acts at every length, as a deployed model runs

    def rescaling(self, length: int, train_length: int) -> FrequencyRescaling:
        return FrequencyRescaling(self.method, length, train_length, self.factors, self.fixed)

    def accept(self, pe: Encoding, train_length: int) -> None:
        """Refuse a PE this extension cannot act on, before any work (a one-line error)."""
        pe.extended(self.rescaling(2 * train_length, train_length), train_length)

    def at_length(self, pe: Encoding, length: int, train_length: int) -> Encoding:
        if length <= train_length and self.fixed is None:
            return pe
        return pe.extended(self.rescaling(length, train_length), train_length)

    def logit_scale(self, length: int, train_length: int) -> float:
        """YaRN's attention temperature 1/t at this length (:func:`yarn_temperature`); 1 for the other methods."""
        if self.method is not ExtensionMethod.YARN or (length <= train_length and self.fixed is None):
            return 1.0
        return yarn_temperature(float(self.rescaling(length, train_length).scale))


def read_factors(path: str) -> tuple[Fraction, ...]:
    """λ_f from a factors file: a JSON list of numbers or rational strings "p/q", each in [1e-9, 1e12]."""
    what = "factors file"
    accepted = (f"a JSON list of 1 to {MAX_FACTORS} factors, one per frequency, each a number or a rational "
                "string such as \"3/2\" between 1e-9 and 1e12")
    text = resources.read_text(path, what, MAX_FACTORS_BYTES)
    doc = resources.load_json(text, f"{what} {quote(path)}", accepted=accepted)
    if not isinstance(doc, list) or not doc or len(doc) > MAX_FACTORS:
        shape = (f"a list of {len(doc)} entries" if isinstance(doc, list) else f"a JSON {type(doc).__name__}")
        raise SpecError(f"invalid {what} {quote(path)}: {shape}; accepted: {accepted}")
    out = []
    for k, x in enumerate(doc):
        value = _factor(x)
        if value is None or not MIN_FACTOR <= value <= MAX_FACTOR:
            raise SpecError(f"invalid {what} {quote(path)}: entry [{k}] is {quote(x)}; accepted: {accepted}")
        out.append(value)
    return tuple(out)


def _factor(x: Any) -> Fraction | None:
    """A factor as an exact rational; None for anything but a finite number or a "p" / "p/q" string."""
    if isinstance(x, bool):
        return None
    if isinstance(x, int):
        return Fraction(x)
    if isinstance(x, float):
        return Fraction(x) if math.isfinite(x) else None     # a float is an exact binary rational
    if isinstance(x, str) and _RATIONAL.fullmatch(x):
        num, _, den = x.strip().partition("/")
        return None if den and int(den) == 0 else Fraction(int(num), int(den or 1))
    return None


def parse_extension(spec: str | Transfer) -> Transfer:
    """The transfer operator of an extension spec, by the type its name declares (:func:`extension_catalogue`
    lists them): ``none`` (plain re-evaluation), ``pi``, ``ntk``, ``yarn`` (s = L/L0 at each length), ``linear:S``,
    ``ntk:S``, ``yarn:S`` (a config's fixed factor S), ``factors:FILE`` or ``hf:PATH`` (a model config's
    rope_scaling, :mod:`posreal.theory.config_transfer`); a :class:`~posreal.theory.transfer_operator.Transfer` is
    returned as it is."""
    if isinstance(spec, Transfer):
        return spec
    if not isinstance(spec, str) or len(spec) > 4096:
        raise bad_value("extension", spec, extension_forms())
    name, sep, tail = spec.partition(":")
    kind = transfer_type(name)
    if kind is None:
        raise bad_value("extension", spec, extension_forms())
    return kind.parse(name, sep + tail, spec)


def __getattr__(name: str) -> Any:
    """``EXTENSIONS`` (the methods ``--extension all`` runs) and ``EXTENSION_FORMS`` (the accepted-forms text), both
    derived from the declarations on each use."""
    if name == "EXTENSIONS":
        return named_extensions()
    if name == "EXTENSION_FORMS":
        return extension_forms()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


MIN_FIXED = Fraction(1, 1000)


def _fixed_factor(name: str, text: str, spec: str) -> Fraction:
    """The S of ``linear:S``, ``ntk:S``, ``yarn:S``: a number or rational from MIN_FIXED to MAX_FACTOR."""
    factor = _factor(text) if len(text) <= 40 else None
    if factor is None or not MIN_FIXED <= factor <= MAX_FACTOR:
        raise SpecError(f"invalid extension {quote(spec)}: factor {quote(text)}; accepted: {name}:S with a "
                        f"number or rational S from {float(MIN_FIXED):g} to {float(MAX_FACTOR):g}, e.g. {name}:8")
    return factor


def extension_catalogue() -> list[ExtensionEntry]:
    """Every length-extension form the parser accepts, with its formula and reference (``posreal extensions``):
    the declared types' lines, in catalogue order."""
    return [entry for kind in transfer_types() for entry in kind.entries]


# --------------------------------------------------------------------------- declarations (posreal extensions)
_PER_LENGTH = "s = L/L0 at each evaluated length"
_FIXED = "the fixed factor S, at every evaluated length"


def _rescaling_type(name: str, method: ExtensionMethod, rank: float, formula: str, reference: str,
                    fixed_formula: str | None = None) -> TransferType:
    """``name`` (s = L/L0) and, with a ``fixed_formula``, ``name:S`` (a fixed factor) of a frequency rescaling."""
    entries = [ExtensionEntry(name, _PER_LENGTH, formula, reference)]
    if fixed_formula is not None:
        entries.append(ExtensionEntry(f"{name}:S", _FIXED, fixed_formula, reference))
    parse = partial(_parse_rescaling, method, fixed_formula is not None)
    return TransferType(name, tuple(e.spec for e in entries), parse, tuple(entries), rank, in_all=(name,))


def _parse_rescaling(method: ExtensionMethod, takes_fixed: bool, name: str, rest: str, spec: str) -> Transfer:
    """``name`` or, when ``takes_fixed``, ``name:S`` (a module-level function, bound with functools.partial, so
    its lines run when a spec is parsed)."""
    if not rest:
        return Extension(spec, method)
    if not takes_fixed or rest == ":":
        raise bad_value("extension", spec, extension_forms())
    return Extension(spec, method, fixed=_fixed_factor(name, rest[1:], spec))


def _linear(name: str, rest: str, spec: str) -> Transfer:
    if len(rest) < 2:
        raise bad_value("extension", spec, extension_forms())
    return Extension(spec, ExtensionMethod.PI, fixed=_fixed_factor(name, rest[1:], spec))


def _factors(name: str, rest: str, spec: str) -> Transfer:
    if len(rest) < 2:
        raise bad_value("extension", spec, extension_forms())
    return Extension(spec, ExtensionMethod.FACTORS, read_factors(rest[1:]))


declare_transfer(_rescaling_type(
    "pi", ExtensionMethod.PI, 1, "ω_f / s", "Chen, Wong, Chen & Tian 2023 (position interpolation)"))
declare_transfer(_rescaling_type(
    "ntk", ExtensionMethod.NTK, 2, "ω_f / s^(2f/(d-2)) (base · s^(d/(d-2)))", "NTK-aware scaling",
    "ω_f / S^(2f/(d-2))"))
declare_transfer(_rescaling_type(
    "yarn", ExtensionMethod.YARN, 3, "(1-γ_f) ω_f/s + γ_f ω_f, γ_f a ramp linear in the rotation count "
    "L0 ω_f/2π (α = 1, β = 32)", "Peng, Quesnelle, Fan & Shippole, ICLR 2024 (the paper's ramp)",
    "the paper's yarn with s = S"))
declare_transfer(TransferType(
    "linear", ("linear:S",), _linear,
    (ExtensionEntry("linear:S", _FIXED, "ω_f / S", "position interpolation with a config's factor"),), 4))
declare_transfer(TransferType(
    "factors", ("factors:FILE",), _factors,
    (ExtensionEntry("factors:FILE", _PER_LENGTH + " (the file gives λ_f)", "ω_f / λ_f",
                    "searched factors, e.g. LongRoPE (Ding et al. 2024)"),), 5))
