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

Before the interval work starts, its time (key-feature interval products × :data:`INTERVAL_FLOPS`) is
checked against the work budget (``POSREAL_MAX_WORK``, :func:`posreal.runtime.resources.require`): above it
the command is refused in one line.

What it does not certify: the distance between θ̂ and the exact θ* (the KKT residuals of the
selection bound that distance only approximately).  Structural ties stay failed.
"""

from __future__ import annotations

import numpy as np
from mpmath import iv

from posreal.runtime import resources
from posreal.theory.encodings import Encoding
from posreal.theory.rational import point_interval
from posreal.theory.realization import FAILED, REALIZED, RowOutcomes, UNDECIDED
from posreal.theory.kernels import target_keys

UNIT_ROUNDOFF = 2.0 ** -53
BAND_FACTOR = 100.0
DIGITS = 50
INTERVAL_FLOPS = 250_000   # one interval product θ_f·ψ_f(i, k) at 50 digits: ~250 µs measured, as numpy flops at ~1e9/s


def float_error_bound(theta: np.ndarray, p: int, length: int, max_feature: float) -> float:
    """A-priori bound on the float error of one margin: 2E (see module docstring)."""
    entry = 8.0 * (p + length) * UNIT_ROUNDOFF * float(np.abs(theta).sum()) * max(1.0, max_feature)
    return 2.0 * entry


def interval_margin(pe: Encoding, theta: np.ndarray, row: int, key: int, train_length: int):
    """Enclosure of γ_row = κ(row, target) - max over other keys, for parameters θ (exact floats)."""
    keys = list(range(row + 1))
    th = [point_interval(iv, x) for x in theta]
    feats = pe.interval_index_features(row, keys, train_length, iv)
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
    bound = float_error_bound(theta, p, outcomes.length, pe.max_abs_feature(outcomes.length, train_length))
    margins = np.asarray(outcomes.margins, dtype=float)
    keys = target_keys(pe.index, outcomes.rows, outcomes.targets)
    borderline = (~outcomes.ties) & ((np.abs(margins) <= BAND_FACTOR * bound) | (outcomes.status == UNDECIDED))
    evaluations = int(sum(int(outcomes.rows[n]) + 1 for n in np.flatnonzero(borderline))) * max(p, 1)
    resources.require(resources.Estimate(   # the time of the interval work, known before it starts
        0, f"certifying {int(borderline.sum())} borderline rows of {pe} at L = {outcomes.length} ({evaluations} "
           f"interval products of a key's feature, about {evaluations * INTERVAL_FLOPS / 1e9:.3g} s)",
        evaluations * INTERVAL_FLOPS))
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
