"""θ* in ℚ from nothing but the rational rows: an exact active-set method for the selection's quadratic program.

The selection (definitions.md#selection) is θ* = argmin ‖θ‖₂ subject to Zθ ≥ 1.  The float path starts from a
float NNLS on the float images of the rows; rows whose entries leave the float range (a rational table with
10^400 next to 1, rescaled exactly by 2^-k: its small entries become 0.0) have no faithful float image, and that
start fails.  This module solves the same program in ℚ alone.  Main definitions and results:

* integer rows: Z = N / D with N integer (:func:`~posreal.theory.rational.integer_form`), and Zθ ≥ 1 iff
  N(θ/D) ≥ 1, so θ*_Z = D θ*_N and the KKT multipliers are λ_Z = D² λ_N (θ_Z = Zᵀλ_Z = Nᵀλ_Z / D);
* least-distance programming as NNLS (Lawson & Hanson 1974, ch. 23): u ≥ 0 minimizing ‖E u - f‖² with
  E = [Nᵀ; 1ᵀ] ((p+1, m)) and f = e_{p+1}.  With v = Nᵀu and ρ = 1 - Σu the residual is r = (-v, ρ) and the
  gradient w = Eᵀr has w_k = ρ - n_k·v (positive exactly on the rows θ = v/ρ violates).  At the optimum
  u_k w_k = 0 for every k, so ρ = fᵀr = ‖r‖² + uᵀw = ‖r‖² ≥ 0, and: ρ > 0 gives θ*_N = v/ρ with λ_N = u/ρ;
  ρ = 0 gives r = 0, i.e. Nᵀu = 0 and Σu = 1, an exact Farkas vector (the rows are not realizable);
* :func:`solve_ldp` runs Lawson–Hanson's active-set NNLS in exact arithmetic: the passive set P gains the row of
  largest w_k > 0 (the smallest index among equals, a deterministic Bland-style rule), the least-squares
  solution on P is found in ℚ (the Gram matrix E_PᵀE_P is an integer matrix, positive definite because E_P's
  columns stay independent: a dependent column has w_k = 0 since r ⊥ span E_P), and rows whose weight would
  turn negative leave P on the way.  Termination: in exact arithmetic the entering row's least-squares weight is
  positive (Lawson & Hanson's Lemma 23.17), so each outer step strictly lowers ‖E u - f‖²; the iterate at the
  start of an outer step is the least-squares solution on P, so no P repeats and the method ends after at most
  as many outer steps as there are independent subsets of rows.  :func:`iteration_cap` bounds it in practice
  (3 (m + p + 1) outer steps; a run that reaches it says so: ``stopped``, and the cell stays undecided);
* :func:`work_estimate` — an upper bound on the work in floating-point-operation equivalents (the unit of
  :func:`posreal.runtime.resources.max_work`), from m, p and the bit length of N's entries (Hadamard's bound
  on the Gram determinant sizes every rational the method makes), checked before the method starts;
* :func:`float_image` — θ* and λ as floats for the float side of a result, ±inf beyond the float range.

Nothing here is trusted on its own: the selection checks the result with the same exact KKT or Farkas
certificate as any exact selection (:func:`posreal.theory.selection.verify_kkt_exact`,
:func:`~posreal.theory.selection.verify_farkas_exact`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum
from fractions import Fraction

import numpy as np

from posreal.runtime.resources import Estimate
from posreal.theory.rational import common_denominator, integer_form

OP_FLOPS = 400                # one Python big-integer multiply-add of a few words, in float-operation equivalents
FIXED_FLOPS = 5 * 10 ** 7     # a first call's fixed cost (about 16 ms measured cold on 2 rows), the same units
WORD_BITS = 64


class QPStatus(StrEnum):
    """How the exact active-set method ended."""

    OPTIMAL = "optimal"        # ρ > 0: θ* and its multipliers
    INFEASIBLE = "infeasible"  # ρ = 0: a Farkas vector u ≥ 0, Zᵀu = 0, Σu = 1
    STOPPED = "stopped"        # the iteration cap was reached (no answer; never observed, kept honest)


@dataclass(frozen=True)
class QPOutcome:
    """The method's answer for rows Z (m, p), in ℚ."""

    status: QPStatus
    iterations: int                                   # outer steps taken
    theta: list[Fraction] | None = None               # (p,) θ*_Z when optimal
    multipliers: dict[int, Fraction] | None = None    # λ_Z > 0 on the final passive set, by row index
    farkas: dict[int, Fraction] | None = None         # u ≥ 0 with Zᵀu = 0, Σu = 1, when infeasible


def float_image(values: Sequence[Fraction]) -> np.ndarray:
    """Fractions as floats, ±inf beyond the float range (θ* of rows rescaled by 2^-k can exceed it): (n,) -> (n,)."""
    out = np.empty(len(values))
    for n, x in enumerate(values):
        try:
            out[n] = float(x)
        except OverflowError:
            out[n] = np.inf if x > 0 else -np.inf
    return out


def iteration_cap(m: int, p: int) -> int:
    """Outer steps allowed: 3 (m + p + 1) (Lawson & Hanson's own guard is 3 × the number of variables)."""
    return 3 * (m + p + 1)


def _words(bits: int) -> int:
    return 1 + bits // WORD_BITS


def work_estimate(m: int, p: int, bits: int) -> int:
    """Float-operation equivalents the method may take on m integer rows of width p with entries of ``bits`` bits.

    The passive set holds at most p + 1 rows (E_P has independent columns of length p + 1), so the Gram matrix is
    at most (p+1) × (p+1) with entries below 2^(2·bits + log2(p+1) + 1); Hadamard's bound gives its determinant,
    hence every numerator and denominator of u, at most s = (p+1)(2·bits + log2(p+1) + 2) bits.  Per outer step:
    the gradient (m·(p+1) products of a bits-wide by an s-wide integer) and at most two least-squares solves
    ((p+1)³ eliminations of s-wide integers); cost of one product: OP_FLOPS + words × words; plus FIXED_FLOPS
    once (benchmarks/bench_exact_qp.py compares the bound with measured times)."""
    k = p + 1
    s = k * (2 * bits + k.bit_length() + 2)
    gradient = m * k * (OP_FLOPS + _words(bits) * _words(s + bits))
    solves = 2 * k ** 3 * (OP_FLOPS + _words(s) ** 2)
    return FIXED_FLOPS + iteration_cap(m, p) * (gradient + solves)


def estimate(zq: Sequence[Sequence[Fraction]], p: int, label: str) -> Estimate:
    """The work of :func:`solve_ldp` on these rows, for :func:`posreal.runtime.resources.require`."""
    N, _ = integer_form(zq, p)
    bits = max((abs(int(x)).bit_length() for x in N.reshape(-1)), default=1)
    work = work_estimate(len(zq), p, bits)
    return Estimate(0, f"{label}: the exact active-set selection in ℚ on {len(zq)} distinct training differences "
                       f"× p = {p} with entries of up to {bits} bits", work)


def _bareiss_solve(gram: list[list[int]], rhs: list[int]) -> list[Fraction] | None:
    """The solution of an integer system with nonzero leading principal minors (here: positive definite),
    by fraction-free elimination (every division exact), then back substitution in ℚ; None at a zero pivot."""
    n = len(gram)
    a = [list(row) + [b] for row, b in zip(gram, rhs)]        # (n, n+1) augmented
    previous = 1
    for k in range(n):
        pivot = a[k][k]
        if pivot == 0:
            return None
        for i in range(k + 1, n):
            for j in range(k + 1, n + 1):
                a[i][j] = (a[i][j] * pivot - a[i][k] * a[k][j]) // previous
            a[i][k] = 0
        previous = pivot
    x = [Fraction(0)] * n
    for i in range(n - 1, -1, -1):
        tail = sum((a[i][j] * x[j] for j in range(i + 1, n)), Fraction(0))
        x[i] = (a[i][n] - tail) / a[i][i]
    return x


def _least_squares(N: np.ndarray, passive: list[int]) -> dict[int, Fraction] | None:
    """argmin ‖E_P s - f‖: the normal equations (N_P N_Pᵀ + 1 1ᵀ) s = 1, in ℚ: passive (k,) -> s by row index."""
    rows = N[passive]                                          # (k, p) integers
    gram = (rows.dot(rows.T) + 1).tolist() if passive else []  # (k, k) = E_Pᵀ E_P
    s = _bareiss_solve([[int(x) for x in row] for row in gram], [1] * len(passive))
    return None if s is None else dict(zip(passive, s))


def _gradient(N: np.ndarray, u: dict[int, Fraction], p: int) -> tuple[np.ndarray, int, int, np.ndarray]:
    """w = Eᵀ(f - E u) scaled by b > 0: returns (b·w (m,), b, b·ρ, b·v (p,)), u = a / b on its support."""
    support = list(u)
    a, b = common_denominator([u[k] for k in support])
    v = N[support].T.dot(a) if support else np.zeros(p, dtype=object)   # (p,) b·Nᵀu
    rho = b - int(sum(int(x) for x in a))                                 # b·(1 - Σu)
    return rho - N.dot(v), b, rho, v                                      # (m,) b·w


def solve_ldp(zq: Sequence[Sequence[Fraction]], p: int, cap: int | None = None) -> QPOutcome:
    """Lawson–Hanson's NNLS for the least-distance program of Z = zq (m, p), in ℚ (see the module docstring)."""
    m = len(zq)
    N, D = integer_form(zq, p)                                 # (m, p) integers, Z = N / D
    cap = iteration_cap(m, p) if cap is None else cap
    u: dict[int, Fraction] = {}                                # the iterate, positive exactly on the passive set
    for step in range(cap + 1):                                # step = the outer steps taken so far
        w, b, rho, v = _gradient(N, u, p)
        entering = [k for k in range(m) if k not in u and w[k] > 0]
        if not entering:
            return _answer(N, D, u, b, rho, v, step)
        if step == cap:
            break
        t = max(entering, key=lambda k: (w[k], -k))            # the largest w_k, the first among equals
        passive = list(u) + [t]
        first = True
        while True:
            s = _least_squares(N, passive)
            if s is None or (first and s[t] <= 0):             # impossible in exact arithmetic (module docstring)
                return QPOutcome(QPStatus.STOPPED, step + 1)
            first = False
            if all(x > 0 for x in s.values()):
                u = s
                break
            blocked = [k for k in passive if s[k] <= 0]        # move from u toward s until a weight reaches 0
            alpha = min(u.get(k, Fraction(0)) / (u.get(k, Fraction(0)) - s[k]) for k in blocked)
            moved = {k: u.get(k, Fraction(0)) + alpha * (s[k] - u.get(k, Fraction(0))) for k in passive}
            passive = [k for k in passive if moved[k] > 0]
            u = {k: moved[k] for k in passive}
    return QPOutcome(QPStatus.STOPPED, cap)


def _answer(N: np.ndarray, D: int, u: dict[int, Fraction], b: int, rho: int, v: np.ndarray,
            steps: int) -> QPOutcome:
    """The NNLS optimum read as the program's answer: θ*_Z = D v / ρ with λ_Z = D² u / ρ, or (ρ = 0) the Farkas u."""
    if rho == 0:                                               # r = 0: Nᵀu = 0 and Σu = 1
        return QPOutcome(QPStatus.INFEASIBLE, steps, farkas=dict(u))
    theta = [Fraction(int(x) * D, rho) for x in v]             # (p,) D (b v) / (b ρ)
    scale = Fraction(b * D * D, rho)                           # λ_Z = D² u / ρ
    return QPOutcome(QPStatus.OPTIMAL, steps, theta=theta, multipliers={k: x * scale for k, x in u.items()})
