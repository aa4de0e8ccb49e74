"""Certified row decisions for PEs with irrational (sinusoidal) features: interval arithmetic.

Main result: for the computed parameters θ̂ (the float θ*, taken as exact binary rationals),
every row is decided rigorously or reported undecided:

* a float margin whose size exceeds the a-priori rounding bound of the float evaluation is
  decided by its sign.  Bound used: one kernel entry ⟨θ̂, ψ(i, j)⟩ is off by at most
  E = 8 (p + L) u ‖θ̂‖₁ max(1, max|ψ|) with u = 2⁻⁵³ and max|ψ| over the whole L-grid (Higham 2002, §3.1, for
  the sum; the argument ω·δ carries a relative error of a few u, hence the L term; numpy's sin/cos/pow are
  assumed faithful to a few ulps), so a margin is off by at most 2E;
* rows with |γ̂| ≤ 100·2E (the borderline band, and every float-undecided row) are
  re-evaluated with mpmath interval arithmetic (``mpmath.iv``, 50 digits): features enclose
  cos/sin(ω k) with ω = exp(-(2f/d) log base); the margin interval
  [κ(i,t)] - max_{k≠t} [κ(i,k)] decides the row when it excludes 0.

What it does not certify: the distance between θ̂ and the exact θ* (the KKT residuals of the
selection bound that distance only approximately).  Structural ties stay failed.
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np
from mpmath import iv

from posreal.theory.encodings import AbsSin, DualOf, Encoding, ProfileEncoding, Sinusoidal, TableEncoding
from posreal.theory.errors import SpecError
from posreal.theory.tasks import shear_normal_form
from posreal.theory.realization import FAILED, REALIZED, UNDECIDED, RowOutcomes, target_keys

UNIT_ROUNDOFF = 2.0 ** -53
BAND_FACTOR = 100.0
DIGITS = 50


def float_error_bound(theta: np.ndarray, p: int, length: int, max_feature: float) -> float:
    """A-priori bound on the float error of one margin: 2E (see module docstring)."""
    entry = 8.0 * (p + length) * UNIT_ROUNDOFF * float(np.abs(theta).sum()) * max(1.0, max_feature)
    return 2.0 * entry


def max_abs_feature(pe: Encoding, length: int, train_length: int) -> float:
    """max |ψ_f(i, k)| over the whole L-grid (the bound must hold for every entry, not a sample)."""
    _, base = shear_normal_form(pe, DualOf)   # every nested shear: features in index form are the base's
    if isinstance(base, AbsSin):
        return float(np.abs(base.phi(np.arange(length))).max(initial=0.0)) ** 2
    if isinstance(base, ProfileEncoding):
        step = max(1, 2 ** 20 // max(1, base.dim(train_length)))
        return max((float(np.abs(base.features(np.arange(a, min(length, a + step)), train_length)).max(initial=0.0))
                    for a in range(0, length, step)), default=0.0)
    if isinstance(base, TableEncoding):
        return float(np.abs(base.values[:length, :length]).max(initial=0.0))
    raise SpecError(f"invalid PE {str(pe)!r} for certified mode; accepted: registry PEs, feature tables and "
                    "their duals")


def _interval(x) -> iv.mpf:
    if isinstance(x, Fraction):
        return iv.mpf(x.numerator) / iv.mpf(x.denominator)
    return iv.mpf(float(x))  # a float is an exact binary rational


def _sinusoid_intervals(x: int, d: int, base: float, sin_first: bool) -> list:
    log_base = iv.log(iv.mpf(float(base)))
    angles = [iv.exp(-(iv.mpf(2 * f) / d) * log_base) * x for f in range(d // 2)]
    sins = [iv.sin(a) for a in angles]
    coss = [iv.cos(a) for a in angles]
    return sins + coss if sin_first else coss + sins


def interval_index_features(pe: Encoding, row: int, keys: list[int], train_length: int) -> list[list]:
    """Enclosures of ψ at (row, key index k) for each k: (len(keys), p) intervals."""
    _, inner = shear_normal_form(pe, DualOf)   # every nested shear: features in index form are the base's
    assert isinstance(inner, Encoding)
    base: Encoding = inner
    if isinstance(base, Sinusoidal):
        return [_sinusoid_intervals(k, base.d, base.base, sin_first=base.name != "rope") for k in keys]
    if isinstance(base, AbsSin):
        left = _sinusoid_intervals(row, base.d, base.base, sin_first=True)
        out = []
        for k in keys:
            right = _sinusoid_intervals(k, base.d, base.base, sin_first=True)
            out.append([a * b for a in left for b in right])
        return out
    if base.rational:
        feats = base.exact_index_features([row] * len(keys), keys, train_length)
    else:
        feats = base.index_features(np.full(len(keys), row), np.array(keys), train_length).tolist()
    return [[_interval(x) for x in f] for f in feats]


def interval_margin(pe: Encoding, theta: np.ndarray, row: int, key: int, train_length: int):
    """Enclosure of γ_row = κ(row, target) - max over other keys, for parameters θ (exact floats)."""
    keys = list(range(row + 1))
    th = [_interval(x) for x in theta]
    feats = interval_index_features(pe, row, keys, train_length)
    values = [iv.fsum(a * b for a, b in zip(th, f)) if th else iv.mpf(0) for f in feats]
    others = [v for k, v in enumerate(values) if k != key]
    if not others:
        return None
    lo = max(v.a for v in others)
    hi = max(v.b for v in others)
    return values[key] - iv.mpf([lo, hi])


def certify_rows(pe: Encoding, theta: np.ndarray, outcomes: RowOutcomes, train_length: int) -> RowOutcomes:
    """Re-decide borderline rows of ``outcomes`` in place with interval arithmetic."""
    iv.dps = DIGITS
    p = theta.size
    bound = float_error_bound(theta, p, outcomes.length, max_abs_feature(pe, outcomes.length, train_length))
    margins = np.asarray(outcomes.margins, dtype=float)
    keys = target_keys(pe.index, outcomes.rows, outcomes.targets)
    borderline = (~outcomes.ties) & ((np.abs(margins) <= BAND_FACTOR * bound) | (outcomes.status == UNDECIDED))
    for n in np.flatnonzero(borderline):
        enclosure = interval_margin(pe, theta, int(outcomes.rows[n]), int(keys[n]), train_length)
        if enclosure is None:
            outcomes.status[n] = REALIZED
        elif enclosure.a > 0:
            outcomes.status[n] = REALIZED
        elif enclosure.b < 0:
            outcomes.status[n] = FAILED
        else:
            outcomes.status[n] = UNDECIDED
    # outside the band the float sign is certified by the bound: decide float-undecided rows there
    outside = (~outcomes.ties) & ~borderline
    outcomes.status[outside] = np.where(margins[outside] > 0, REALIZED, FAILED)
    outcomes.certified_rows = int(borderline.sum())
    outcomes.notes.append(f"certified: margin error bound {bound:.3g}; {int(borderline.sum())} rows re-evaluated "
                          "with interval arithmetic")
    return outcomes
