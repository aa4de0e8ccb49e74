"""The residual levels of gradient descent on separable data: the exact part of α♯'s degenerate case.

Main definitions and results (definitions.md#residual-levels; statement id ``conjecture-limit``):

* level 1 has the training differences z_s (s indexes the distinct ones) and θ_1 = θ*; level k has
  vectors u_{k,s} and θ_k, the max-margin vector of its vectors (θ_k = argmin ‖y‖ s.t.
  ⟨u_{k,s}, y⟩ ≥ 1, computed and certified in ℚ by the selection's exact KKT refinement,
  :mod:`posreal.theory.selection`);
* :func:`split_active` — the active set A_k = {s : ⟨θ_k, u_{k,s}⟩ = 1}, its dual face
  Λ_k = {λ ≥ 0 on A_k : Σ λ_s u_{k,s} = θ_k}, S+_k = the s positive in some λ ∈ Λ_k and
  S0_k = A_k ∖ S+_k.  One LP per active constraint (max λ_s over Λ_k, HiGHS) proposes the split;
  ℚ certifies it: every LP vertex is re-solved exactly on its support (λ ∈ Λ_k, λ_s > 0), their
  average is an *interior* λ (positive on all of S+_k), and the next level's θ_{k+1} is the
  Farkas-type vector of S0_k: ⟨u_{k,r}, θ_{k+1}⟩ ≥ 0 on A_k, ⟨θ_k, θ_{k+1}⟩ = 0 and
  ⟨u_{k,s}, θ_{k+1}⟩ ≥ 1 on S0_k, so Σ_r λ_r ⟨u_{k,r}, θ_{k+1}⟩ = 0 forces λ_s = 0 on S0_k for
  every λ ∈ Λ_k (checked in :func:`residual_levels`);
* V_k = span{u_{k,s} : s ∈ S+_k} and U_k = span{u_{k,s} : s ∈ A_k} ⊖ V_k; the next level's
  vectors are u_{k+1,s} = P_{U_k} u_{k,s} for s ∈ S0_k.  The construction stops at the first
  level with S0 = ∅ (``complete``) or after :data:`MAX_DEPTH` levels.

Why (after Soudry, Hoffer, Nacson, Gunasekar & Srebro, JMLR 19(70), 2018, and their treatment of
the degenerate case): in σ = log t the residual h = θ(t) - θ* log t follows
dh/dσ = Σ_{A_1} n_s e^{-⟨h, z_s⟩} z_s - θ* up to forces that decay like t^{-δ}.  Its V_1 part settles
at the max-entropy residual w̃_1 (:mod:`posreal.theory.maxent`); when S0_1 ≠ ∅ the U_1 part is again
an exponential-loss flow, in time σ, on the vectors u_{2,s} with weights n_s e^{-⟨w̃_1, z_s⟩}, so
θ(t) = θ* log t + θ_2 log log t + … and the construction recurses.  This module builds the levels in
ℚ; it does not prove the expansion (see the statement's notes).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from collections.abc import Sequence

import numpy as np

from posreal.theory.rational import dot, pivot_rows, solve, transpose
from posreal.theory.selection import _exact_kkt, _float_rows, _nnls_ldp

Vector = tuple[Fraction, ...]
MAX_DEPTH = 8                # levels built at most
LP_ZERO = 1e-9               # an LP optimum max λ_s at most this (relative) proposes s ∈ S0
SUPPORT_TOL = 1e-12          # float LP entries above this (relative) form a vertex's support


@dataclass(frozen=True)
class ActiveSplit:
    """A_k split into S+_k and S0_k, with the ℚ witness of S+_k (an interior point of Λ_k)."""

    active: tuple[int, ...]              # A_k, constraint indices, ascending
    positive: tuple[int, ...]            # S+_k
    zero: tuple[int, ...]                # S0_k = A_k ∖ S+_k
    interior: dict[int, Fraction]        # λ ∈ Λ_k with λ_s > 0 exactly on S+_k


@dataclass(frozen=True)
class Level:
    """One level of the residual expansion."""

    depth: int                           # k = 1, 2, ...
    vectors: dict[int, Vector]           # s -> u_{k,s} (level 1: the training differences z_s)
    theta: Vector                        # θ_k (level 1: θ*)
    split: ActiveSplit
    basis: tuple[int, ...]               # s ∈ S+_k whose vectors form a basis of V_k (greedy, in order)

    @property
    def independent(self) -> bool:
        """S+_k linearly independent: Λ_k is one point and the residual has a closed form."""
        return len(self.basis) == len(self.split.positive)

    def basis_vectors(self) -> list[Vector]:
        return [self.vectors[s] for s in self.basis]


@dataclass
class Levels:
    """The levels of one selection (computed once per cell)."""

    constraints: list[Vector]            # Z: (m, p) distinct training differences, ℚ
    multiplicities: list[int]            # n_s: (m,)
    levels: list[Level] = field(default_factory=list)
    complete: bool = False               # the last level has S0 = ∅
    failure: str = ""                    # why the construction stopped early ("" if complete)

    @property
    def depth(self) -> int:
        return len(self.levels)


# --------------------------------------------------------------------------- exact linear algebra
def projection(basis: Sequence[Vector], x: Sequence[Fraction]) -> tuple[list[Fraction], Vector]:
    """(c, P_V x): the orthogonal projection of x on V = span(basis), basis independent, in ℚ;
    P_V x = Σ c_b b.  (k, p), (p,) -> (k,), (p,)."""
    p = len(x)
    if not basis:
        return [], tuple(Fraction(0) for _ in range(p))
    gram = [[dot(a, b) for b in basis] for a in basis]                  # (k, k)
    c = solve(gram, [dot(b, x) for b in basis])
    if c is None:
        raise ValueError("projection onto a dependent basis")
    return c, tuple(sum((cb * b[i] for cb, b in zip(c, basis)), Fraction(0)) for i in range(p))


def project_out(basis: Sequence[Vector], x: Sequence[Fraction]) -> Vector:
    """x - P_V x (V = span(basis))."""
    _, px = projection(basis, x)
    return tuple(a - b for a, b in zip(x, px))


def max_margin(vectors: dict[int, Vector], p: int) -> tuple[Vector, dict[int, Fraction]] | None:
    """θ = argmin ‖y‖₂ s.t. ⟨u_s, y⟩ ≥ 1 for every s, with its KKT multipliers, in ℚ — the selection's
    NNLS start and exact active-set refinement; None when it is infeasible or not certified."""
    keys = sorted(vectors)
    rows = [vectors[s] for s in keys]
    if not rows or any(not any(r) for r in rows):
        return None
    u, rho = _nnls_ldp(_float_rows(rows, p))
    if rho <= 1e-14:
        return None
    found = _exact_kkt(rows, u, p)
    if found is None:
        return None
    theta, lam = found
    theta_v = tuple(theta)
    if any(dot(r, theta_v) < 1 for r in rows):
        return None
    return theta_v, {keys[n]: x for n, x in lam.items()}


# --------------------------------------------------------------------------- the split S+ / S0
def _exact_vertex(active: list[int], vectors: dict[int, Vector], theta: Vector, x: np.ndarray,
                  first: int) -> dict[int, Fraction] | None:
    """The exact λ ∈ Λ on the support of a float LP vertex x (``first`` tried first), or None."""
    scale = max(1.0, float(np.max(x, initial=0.0)))
    support = [active[n] for n in np.argsort(-x) if x[n] > SUPPORT_TOL * scale]
    support = sorted(support, key=lambda s: (s != first, s))
    pivots = pivot_rows([vectors[s] for s in support], len(theta))
    basis = [support[n] for n in pivots]
    if not basis:
        return None
    columns = transpose([vectors[s] for s in basis])                    # (p, |B|)
    lam = solve(columns, list(theta))
    if lam is None or any(v < 0 for v in lam):
        return None
    return {s: v for s, v in zip(basis, lam) if v != 0}


def split_active(vectors: dict[int, Vector], theta: Vector) -> ActiveSplit | str:
    """A, S+ and S0 of one level, S+ certified in ℚ by an interior λ (a string names a failure)."""
    from scipy.optimize import linprog

    active = sorted(s for s, u in vectors.items() if dot(u, theta) == 1)
    if not active:
        return "no active constraint (⟨θ, u⟩ = 1 nowhere)"
    p = len(theta)
    Z = _float_rows([vectors[s] for s in active], p)                      # (a, p)
    target = np.array([float(x) for x in theta])                           # (p,)
    vertices: list[dict[int, Fraction]] = []
    positive: set[int] = set()
    for n, s in enumerate(active):
        if s in positive:
            continue
        cost = np.zeros(len(active))
        cost[n] = -1.0
        res = linprog(cost, A_eq=Z.T, b_eq=target, bounds=(0, None), method="highs")
        if res.status != 0:
            return f"the LP max λ_{s} over Λ failed ({res.message})"
        x = np.asarray(res.x, dtype=float)                                 # (a,)
        if x[n] <= LP_ZERO * max(1.0, float(x.sum())):
            continue                                                        # proposed for S0
        vertex = _exact_vertex(active, vectors, theta, x, s)
        if vertex is None or vertex.get(s, Fraction(0)) <= 0:
            return f"the LP vertex with λ_{s} > 0 is not confirmed in ℚ"
        vertices.append(vertex)
        positive |= set(vertex)
    if not vertices:
        return "Λ has no vertex confirmed in ℚ"
    interior = {s: sum((v.get(s, Fraction(0)) for v in vertices), Fraction(0)) / len(vertices)
                for s in sorted(positive)}
    zero = tuple(s for s in active if s not in positive)
    return ActiveSplit(tuple(active), tuple(sorted(positive)), zero, interior)


def _check_interior(level_vectors: dict[int, Vector], split: ActiveSplit, theta: Vector) -> bool:
    """λ ≥ 0, Σ λ_s u_s = θ, λ > 0 exactly on S+: the witness of S+ re-checked in ℚ."""
    lam = split.interior
    if set(lam) != set(split.positive) or any(v <= 0 for v in lam.values()):
        return False
    combo = [sum((v * level_vectors[s][i] for s, v in lam.items()), Fraction(0)) for i in range(len(theta))]
    return tuple(combo) == tuple(theta)


def _check_farkas(level_vectors: dict[int, Vector], split: ActiveSplit, theta: Vector, y: Vector) -> bool:
    """⟨u_r, y⟩ ≥ 0 on A, = 0 on S+, ≥ 1 on S0, ⟨θ, y⟩ = 0: the witness of S0 re-checked in ℚ."""
    if dot(theta, y) != 0:
        return False
    for s in split.active:
        x = dot(level_vectors[s], y)
        if (s in split.zero and x < 1) or (s not in split.zero and x != 0):
            return False
    return True


# --------------------------------------------------------------------------- the levels
def residual_levels(constraints: Sequence[Vector], theta: Sequence[Fraction], multiplicities: Sequence[int],
                    max_depth: int = MAX_DEPTH, project: bool = True) -> Levels:
    """Every level of the expansion of one selection (θ* and Z in ℚ), each certified in ℚ.  ``project=False``
    (only for the negative control of ``posreal.checks.limit_checks``) skips the projection onto U_k and
    the Farkas check, i.e. builds the next level from the raw S0 vectors."""
    out = Levels([tuple(z) for z in constraints], list(multiplicities))
    p = len(theta)
    vectors: dict[int, Vector] = dict(enumerate(out.constraints))
    th: Vector = tuple(theta)
    for depth in range(1, max_depth + 1):
        split = split_active(vectors, th)
        if isinstance(split, str):
            out.failure = f"level {depth}: {split}"
            return out
        if not _check_interior(vectors, split, th):
            out.failure = f"level {depth}: the interior λ of S+ does not check in ℚ"
            return out
        positive = list(split.positive)
        basis = tuple(positive[n] for n in pivot_rows([vectors[s] for s in positive], p))
        level = Level(depth, vectors, th, split, basis)
        out.levels.append(level)
        if not split.zero:
            out.complete = True
            return out
        if depth == max_depth:
            out.failure = f"more than {max_depth} levels"
            return out
        span = level.basis_vectors()
        nxt = {s: project_out(span, vectors[s]) if project else vectors[s] for s in split.zero}
        found = max_margin(nxt, p)
        if found is None:
            out.failure = (f"level {depth + 1}: the projected max-margin problem of S0_{depth} is infeasible or "
                           "not certified in ℚ (the LP split is not confirmed)")
            return out
        if project and not _check_farkas(vectors, split, th, found[0]):
            out.failure = f"level {depth}: θ_{depth + 1} is not a Farkas-type vector of S0 in ℚ"
            return out
        vectors, th = nxt, found[0]
    return out


def level_span_decomposition(levels: Levels, v: Sequence[Fraction]) -> list[list[Fraction]] | None:
    """Per level k, the coefficients c_k of P_{V_k} v in the level's basis, when the projection of v on
    col Zᵀ lies in V_1 ⊕ V_2 ⊕ … (the V_k are mutually orthogonal); None when it leaves that sum
    (the limit then depends on the path)."""
    p = len(v)
    total = [Fraction(0)] * p
    coefficients = []
    for level in levels.levels:
        c, pv = projection(level.basis_vectors(), v)
        coefficients.append(c)
        total = [a + b for a, b in zip(total, pv)]
    rest = [a - b for a, b in zip(v, total)]
    if any(dot(z, rest) != 0 for z in levels.constraints):
        return None
    return coefficients


def leading_level(levels: Levels, v: Sequence[Fraction]) -> tuple[int, int] | None:
    """(k, sign ⟨θ_k, v⟩) for the first level k ≥ 2 with ⟨θ_k, v⟩ ≠ 0, or None."""
    for level in levels.levels[1:]:
        x = dot(level.theta, v)
        if x != 0:
            return level.depth, (1 if x > 0 else -1)
    return None
