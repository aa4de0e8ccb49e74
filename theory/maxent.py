"""The limit of a tie margin in the residual levels: max-entropy duals, exact or with a certified bound.

Main definitions and results (definitions.md#residual-levels; statement id ``conjecture-limit``):

* the residual of level k, w̃_k ∈ V_k, minimizes the strictly convex
  F_k(w) = Σ_{s ∈ S+_k} n_{k,s} e^{-⟨w, u_{k,s}⟩} + ⟨θ_k, w⟩ over V_k; its weights are
  n_{1,s} = n_s (multiplicities) and n_{k,s} = n_s exp(-Σ_{j<k} ⟨w̃_j, z_s⟩).  Equivalently
  μ_s = n_{k,s} e^{-⟨w̃_k, u_{k,s}⟩} is the maximum-entropy point of Λ_k relative to n_k
  (Σ μ_s u_{k,s} = θ_k is the optimality condition);
* when every level up to the last one that v meets has independent S+, μ = λ (Λ_k is one point),
  ⟨w̃_k, u_{k,s}⟩ = log n_{k,s} - log λ_{k,s}, and lim ⟨θ_t, v⟩ = Σ_k ⟨w̃_k, P_{V_k} v⟩ is a
  rational combination of logarithms of rationals (:class:`LogForm`): its sign is decided in ℚ by
  comparing a product of rational powers with 1 (closed form in ℚ);
* otherwise (a dependent S+ somewhere): :func:`enclose_residual` — damped Newton in high precision
  (mpmath, :data:`DIGITS` digits) for w̃_k = Σ_b a_b u_{k,b}, then a certified ball around it in
  interval arithmetic (mpmath.iv): with g ≥ ‖∇F(a0)‖, m0 ≤ λ_min(H(a0)) (an interval Cholesky of
  H(a0) - m0 I), R ≥ max ‖g_s‖ and ρ = 2g / (m0 e^{-rR}) ≤ r, strong convexity on the r-ball
  (H(a0 + d) ⪰ e^{-‖d‖R} H(a0)) puts the minimizer within ρ of a0, for every weight in the
  interval box of the level.  The limit's enclosure [low, high] then carries the stated error
  bound (closed form with a certified error bound); its sign is certified when 0 ∉ [low, high].

Worked example (definitions.md#residual-levels): z = (-3, 2), (1, 2), (-1, 2), n = 1, θ* = (0, ½),
v = (4, 0): Λ has the vertices (1/16, 3/16, 0) and (0, 1/8, 1/8), whose formulas give -log 3 and 0;
the max-entropy point gives 2 log((√13 - 1)/6) ≈ -1.66823.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from collections.abc import Sequence
from typing import Any

from posreal.theory.levels import Level, Levels, projection

DIGITS = 40                    # working precision of Newton and of the interval enclosures
MAX_PRODUCT_BITS = 200_000     # exact sign of a log-linear form: bits of the compared integers
NEWTON_STEPS = 200


# --------------------------------------------------------------------------- exact log-linear forms
class LogForm:
    """Σ_q a_q log q with rational a_q and rational q > 0 (an exact real number)."""

    def __init__(self, terms: dict[Fraction, Fraction] | None = None):
        self.terms: dict[Fraction, Fraction] = {}
        for q, a in (terms or {}).items():
            self._add(Fraction(q), Fraction(a))

    def _add(self, q: Fraction, a: Fraction) -> None:
        if q <= 0:
            raise ValueError(f"log of a non-positive rational {q}")
        if q == 1 or a == 0:
            return
        total = self.terms.get(q, Fraction(0)) + a
        if total == 0:
            self.terms.pop(q, None)
        else:
            self.terms[q] = total

    @staticmethod
    def log(q: Fraction | int) -> LogForm:
        return LogForm({Fraction(q): Fraction(1)})

    def __add__(self, other: LogForm) -> LogForm:
        out = LogForm(self.terms)
        for q, a in other.terms.items():
            out._add(q, a)
        return out

    def __sub__(self, other: LogForm) -> LogForm:
        return self + other.scaled(Fraction(-1))

    def scaled(self, c: Fraction) -> LogForm:
        return LogForm({q: a * c for q, a in self.terms.items()})

    def sign(self) -> int | None:
        """-1, 0 or +1, exact: compare Π q^{a_q · D} with 1 (D = common denominator of the a_q);
        None when the integers would exceed MAX_PRODUCT_BITS."""
        if not self.terms:
            return 0
        den = 1
        for a in self.terms.values():
            den = den * a.denominator // math.gcd(den, a.denominator)
        bits = sum(abs(a * den) * (q.numerator.bit_length() + q.denominator.bit_length())
                   for q, a in self.terms.items())
        if bits > MAX_PRODUCT_BITS:
            return None
        num, dnm = 1, 1
        for q, a in self.terms.items():
            e = int(a * den)
            if e >= 0:
                num, dnm = num * q.numerator ** e, dnm * q.denominator ** e
            else:
                num, dnm = num * q.denominator ** -e, dnm * q.numerator ** -e
        return (num > dnm) - (num < dnm)

    def interval(self):
        """An mpmath.iv enclosure of the value."""
        iv = _iv()
        total = iv.mpf(0)
        for q, a in self.terms.items():
            total += _ivq(a) * iv.log(_ivq(q))
        return total

    def __float__(self) -> float:
        return float(sum(float(a) * (math.log(q.numerator) - math.log(q.denominator)) for q, a in self.terms.items()))


def _iv():
    from mpmath import iv
    iv.dps = DIGITS
    return iv


def _ivq(x: Fraction):
    iv = _iv()
    return iv.mpf(x.numerator) / iv.mpf(x.denominator)


# --------------------------------------------------------------------------- results
@dataclass(frozen=True)
class LimitValue:
    """lim ⟨θ_t, v⟩ = Σ_k ⟨w̃_k, v⟩ for a direction whose projection lies in the sum of the level spans."""

    sign: int | None            # -1 / 0 / +1 (0 only when exact), None when not certified
    exact: bool                 # decided in ℚ (a log-linear form); else an interval enclosure
    value: float                # midpoint
    bound: float                # certified half-width of the enclosure (0 when exact)
    form: LogForm | None = None  # the exact value, when exact


class ResidualError(ValueError):
    """The max-entropy residual of a level could not be enclosed (Newton or its enclosure failed)."""


# --------------------------------------------------------------------------- the residuals
class Residuals:
    """⟨w̃_k, u_{k,b}⟩ for every level k and basis vector b, exact where the levels allow, else enclosed;
    computed lazily and once per cell."""

    def __init__(self, levels: Levels):
        self.levels = levels
        self._exact: dict[int, dict[int, LogForm] | None] = {}
        self._interval: dict[int, dict[int, Any]] = {}

    # ---- exact chain: every level up to k has independent S+
    def exact_inner(self, depth: int) -> dict[int, LogForm] | None:
        """{b: ⟨w̃_k, u_{k,b}⟩} as log-linear forms, or None when some level ≤ k has dependent S+."""
        if depth in self._exact:
            return self._exact[depth]
        level = self.levels.levels[depth - 1]
        out: dict[int, LogForm] | None = None
        if level.independent and all(self.exact_inner(j) is not None for j in range(1, depth)):
            out = {s: self.exact_weight(depth, s) - LogForm.log(level.split.interior[s]) for s in level.basis}
        self._exact[depth] = out
        return out

    def exact_weight(self, depth: int, s: int) -> LogForm:
        """log n_{k,s} = log n_s - Σ_{j<k} ⟨w̃_j, z_s⟩ (exact chain only)."""
        form = LogForm.log(self.levels.multiplicities[s])
        z = self.levels.constraints[s]
        for j in range(1, depth):
            form = form - self._exact_along(j, z)
        return form

    def _exact_along(self, depth: int, x: Sequence[Fraction]) -> LogForm:
        level = self.levels.levels[depth - 1]
        inner = self.exact_inner(depth)
        assert inner is not None
        c, _ = projection(level.basis_vectors(), x)
        form = LogForm()
        for cb, b in zip(c, level.basis):
            form = form + inner[b].scaled(cb)
        return form

    # ---- enclosures
    def interval_inner(self, depth: int) -> dict[int, Any]:
        """{b: enclosure of ⟨w̃_k, u_{k,b}⟩} (mpmath.iv intervals)."""
        if depth in self._interval:
            return self._interval[depth]
        exact = self.exact_inner(depth)
        if exact is not None:
            out = {b: f.interval() for b, f in exact.items()}
        else:
            level = self.levels.levels[depth - 1]
            weights = {s: self._interval_weight(depth, s) for s in level.split.positive}
            out = enclose_residual(level, weights)
        self._interval[depth] = out
        return out

    def _interval_weight(self, depth: int, s: int):
        iv = _iv()
        log_w = iv.log(_ivq(Fraction(self.levels.multiplicities[s])))
        z = self.levels.constraints[s]
        for j in range(1, depth):
            log_w -= self._interval_along(j, z)
        return iv.exp(log_w)

    def _interval_along(self, depth: int, x: Sequence[Fraction]):
        iv = _iv()
        level = self.levels.levels[depth - 1]
        inner = self.interval_inner(depth)
        c, _ = projection(level.basis_vectors(), x)
        total = iv.mpf(0)
        for cb, b in zip(c, level.basis):
            total += _ivq(cb) * inner[b]
        return total

    # ---- the limit of one direction
    def value(self, coefficients: list[list[Fraction]]) -> LimitValue:
        """Σ_k Σ_b c_{k,b} ⟨w̃_k, u_{k,b}⟩ for the decomposition of :func:`levels.level_span_decomposition`."""
        used = [k + 1 for k, c in enumerate(coefficients) if any(c)]
        if not used:
            return LimitValue(0, True, 0.0, 0.0, LogForm())
        if all(self.exact_inner(k) is not None for k in range(1, max(used) + 1)):
            form = LogForm()
            for k in used:
                inner = self.exact_inner(k)
                assert inner is not None
                for cb, b in zip(coefficients[k - 1], self.levels.levels[k - 1].basis):
                    form = form + inner[b].scaled(cb)
            sign = form.sign()
            if sign is not None:
                return LimitValue(sign, True, float(form), 0.0, form)
        iv = _iv()
        total = iv.mpf(0)
        for k in used:
            enclosed = self.interval_inner(k)
            for cb, b in zip(coefficients[k - 1], self.levels.levels[k - 1].basis):
                total += _ivq(cb) * enclosed[b]
        from mpmath import mp
        mp.dps = DIGITS
        low, high = mp.mpf(total.a), mp.mpf(total.b)
        sign = 1 if low > 0 else (-1 if high < 0 else None)
        return LimitValue(sign, False, float((low + high) / 2), float((high - low) / 2))


def enclose_residual(level: Level, weights: dict[int, Any]) -> dict[int, Any]:
    """{b: enclosure of ⟨w̃_k, u_{k,b}⟩} for one level with interval weights (the certified ball)."""
    from mpmath import mp

    iv = _iv()
    mp.dps = DIGITS
    basis = level.basis_vectors()
    support = list(level.split.positive)
    gs = {s: [_dotq(b, level.vectors[s]) for b in basis] for s in support}          # g_s: (d,) per s
    beta = [_dotq(b, level.theta) for b in basis]                                   # (d,)
    d = len(basis)
    mid = {s: (mp.mpf(w.a) + mp.mpf(w.b)) / 2 for s, w in weights.items()}
    a = _newton(gs, beta, mid, d)
    a_iv = [iv.mpf(x) for x in a]
    # g ≥ ‖∇F(a0)‖ over the weight box
    grad = [iv.mpf(_f(beta[i])) for i in range(d)]
    expo = {s: iv.exp(-sum((a_iv[i] * _ivq(gs[s][i]) for i in range(d)), iv.mpf(0))) for s in support}
    for s in support:
        for i in range(d):
            grad[i] -= weights[s] * expo[s] * _ivq(gs[s][i])
    g = mp.mpf(iv.sqrt(sum((x ** 2 for x in grad), iv.mpf(0))).b)                  # upper bound
    hess = [[sum((weights[s] * expo[s] * _ivq(gs[s][i]) * _ivq(gs[s][j]) for s in support), iv.mpf(0))
             for j in range(d)] for i in range(d)]                                  # (d, d)
    m0 = _certified_min_eig(hess, d)
    if m0 is None:
        raise ResidualError(f"level {level.depth}: the Hessian of the residual problem is not certified positive")
    R = max(mp.mpf(iv.sqrt(sum((_ivq(x) ** 2 for x in gs[s]), iv.mpf(0))).b) for s in support)
    r = max(4 * g / m0, mp.mpf(10) ** (-DIGITS // 2))
    rho = mp.mpf((2 * iv.mpf(g) / (iv.mpf(m0) * iv.exp(-iv.mpf(r) * iv.mpf(R)))).b)   # upper bound
    if not rho < r:
        raise ResidualError(f"level {level.depth}: the residual's enclosure did not close (ρ = {float(rho):.3g})")
    radius = iv.mpf([0, rho])
    out = {}
    for b in level.basis:
        row = [_dotq(level.vectors[b], basis[i]) for i in range(d)]                 # ⟨u_b, u_{b_i}⟩
        center = sum((a_iv[i] * _ivq(row[i]) for i in range(d)), iv.mpf(0))
        norm = iv.sqrt(sum((_ivq(x) ** 2 for x in row), iv.mpf(0)))
        out[b] = center + iv.mpf([-1, 1]) * radius * norm
    return out


def _f(x: Fraction):
    from mpmath import mp
    return mp.mpf(x.numerator) / x.denominator


def _dotq(a: Sequence[Fraction], b: Sequence[Fraction]) -> Fraction:
    return sum((x * y for x, y in zip(a, b)), Fraction(0))


def _newton(gs: dict, beta: list[Fraction], weights: dict, d: int) -> list:
    """argmin F(a) = Σ W_s e^{-⟨a, g_s⟩} + ⟨a, β⟩ by damped Newton in mpmath (strictly convex)."""
    from mpmath import mp, matrix, lu_solve

    G = {s: [_f(x) for x in g] for s, g in gs.items()}
    B = [_f(x) for x in beta]

    def parts(a):
        e = {s: weights[s] * mp.exp(-mp.fsum(a[i] * G[s][i] for i in range(d))) for s in G}
        val = mp.fsum(e.values()) + mp.fsum(a[i] * B[i] for i in range(d))
        grad = [B[i] - mp.fsum(e[s] * G[s][i] for s in G) for i in range(d)]
        return val, grad, e

    a = [mp.mpf(0)] * d
    tol = mp.mpf(10) ** (-(DIGITS - 8))
    for _ in range(NEWTON_STEPS):
        val, grad, e = parts(a)
        if max(abs(x) for x in grad) < tol:
            return a
        H = matrix(d, d)
        for i in range(d):
            for j in range(d):
                H[i, j] = mp.fsum(e[s] * G[s][i] * G[s][j] for s in G)
        step = lu_solve(H, matrix([-x for x in grad]))
        t = mp.mpf(1)
        while t > mp.mpf(10) ** -30:
            trial = [a[i] + t * step[i] for i in range(d)]
            if parts(trial)[0] <= val:
                a = trial
                break
            t /= 2
        else:
            break
    raise ResidualError("the max-entropy residual's Newton iteration did not converge")


def _certified_min_eig(hess: list[list], d: int):
    """m0 > 0 with H - m0 I ⪰ 0 for every matrix of the interval matrix H (interval Cholesky), or None."""
    import numpy as np
    from mpmath import mp

    iv = _iv()
    mid = np.array([[(float(x.a) + float(x.b)) / 2 for x in row] for row in hess])         # (d, d)
    est = float(np.linalg.eigvalsh((mid + mid.T) / 2).min()) if d else 1.0
    if not est > 0:
        return None
    for frac in (0.5, 0.1, 0.01):
        m0 = mp.mpf(est * frac)
        L = [[iv.mpf(0)] * d for _ in range(d)]
        ok = True
        for j in range(d):
            s = hess[j][j] - m0 - sum((L[j][k] ** 2 for k in range(j)), iv.mpf(0))
            if not s.a > 0:
                ok = False
                break
            L[j][j] = iv.sqrt(s)
            for i in range(j + 1, d):
                L[i][j] = (hess[i][j] - sum((L[i][k] * L[j][k] for k in range(j)), iv.mpf(0))) / L[j][j]
        if ok:
            return m0
    return None
