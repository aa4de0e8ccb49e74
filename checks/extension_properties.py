"""Hypothesis strategies of the length-extension property checks (claim id ``extension``).

Random smooth kernels V(x) = Σ_f a_f cos ω_f x + b_f sin ω_f x of ``rope:d:base`` and ``abscol:d:base``, random training
lengths, lengths and methods.  The bodies and controls are in :mod:`posreal.checks.extension_checks`; the properties are
registered in :mod:`posreal.checks.properties`.

Each case draws what the body needs and what its control needs (the control keeps the case and drops one
hypothesis), so body and control run on the same distribution.
"""

from __future__ import annotations

import math

from hypothesis import strategies as st

AMP = st.floats(0.5, 2.0)
COEF = st.floats(-2.0, 2.0)


@st.composite
def copy_cases(draw) -> dict:
    """Peaked kernels Σ A_f cos(ω_f (x - L0/2)) with base ≤ 100, d ≤ 8.

    The strict maximum on [0, L0) is at L0/2 (the lowest frequency has ω·L0/2 < 2π), and the margins stay far above
    the float tolerance."""
    d = draw(st.sampled_from([4, 6, 8]))
    L0 = 2 * draw(st.integers(2, 12))
    return {"d": d, "base": draw(st.floats(10.0, 100.0)), "L0": L0,
            "amps": draw(st.lists(AMP, min_size=d // 2, max_size=d // 2)), "shift": 0.0,
            "control_shift": draw(st.floats(0.15, 0.45)),
            "length": draw(st.integers(L0, 8 * L0))}


@st.composite
def offset_cases(draw) -> dict:
    """Random or peaked kernels for a constant target index c ≥ 1 (rope offset:c, abscol position:c)."""
    d = draw(st.sampled_from([4, 6, 8, 16]))
    c = draw(st.integers(1, 4))
    return {"pe": draw(st.sampled_from(["rope", "abscol"])), "d": d, "base": draw(st.floats(10.0, 10000.0)),
            "c": c, "L0": draw(st.integers(c + 1, 24)), "kind": draw(st.sampled_from(["random", "peak"])),
            "a": draw(st.lists(COEF, min_size=d // 2, max_size=d // 2)),
            "b": draw(st.lists(COEF, min_size=d // 2, max_size=d // 2)),
            "amps": draw(st.lists(AMP, min_size=d // 2, max_size=d // 2)),
            "shift": draw(st.floats(-0.3, 0.3)), "extra": draw(st.integers(0, 40))}


@st.composite
def position0_cases(draw) -> dict:
    """Increasing kernels Σ A_f sin ω_f x on the frequencies with ω_f L0 ≤ 0.4π.

    The base makes the lowest frequency π/(2 L0 room); the control adds wiggle × (least slope) · sin(x + φ)
    on ω_0 = 1."""
    d = draw(st.sampled_from([4, 6, 8]))
    L0 = draw(st.integers(3, 20))
    return {"d": d, "L0": L0, "room": draw(st.floats(1.3, 3.0)),
            "amps": draw(st.lists(AMP, min_size=d // 2, max_size=d // 2)),
            "wiggle": draw(st.floats(0.5, 3.0)), "phase": draw(st.floats(0.0, 2 * math.pi)),
            "length": draw(st.integers(2 * L0, 24 * L0))}


@st.composite
def keep_cases(draw) -> dict:
    """Kernels (random, or peaked at c), fixed offsets or positions, and a method with its factors."""
    d = draw(st.sampled_from([4, 6, 8, 16]))
    L0 = draw(st.integers(4, 48))
    method = draw(st.sampled_from(["pi", "ntk", "yarn", "factors"]))
    case = {"pe": draw(st.sampled_from(["rope", "abscol"])), "d": d, "base": draw(st.floats(2.0, 10000.0)),
            "L0": L0, "c": draw(st.integers(0, 3)), "fixed": draw(st.sampled_from(["offset", "position"])),
            "kind": draw(st.sampled_from(["random", "peak"])),
            "a": draw(st.lists(COEF, min_size=d // 2, max_size=d // 2)),
            "b": draw(st.lists(COEF, min_size=d // 2, max_size=d // 2)),
            # peaks weighted toward ω_0 = 1 (the frequency NTK leaves alone): large margins, small Δ_σ
            "amps": [draw(st.floats(1.0, 8.0))] + draw(st.lists(st.floats(0.0, 1.0), min_size=d // 2 - 1,
                                                                   max_size=d // 2 - 1)),
            "method": method,
            "length": draw(st.one_of(st.integers(L0 + 1, 2 * L0), st.integers(L0 + 1, 16 * L0)))}
    if method == "factors":
        case["factors"] = draw(st.lists(st.floats(0.5, 64.0), min_size=d // 2, max_size=d // 2))
    return case
