"""Symbolic derivations (sympy), each with a negative control that must break it.

Symbolic derivations (sympy) of Theorem 1's finite bound and of the span lemma behind the
Conjecture's orthogonal case — each with a negative control that must break it.

Main results (definitions.md#theorem-1, definitions.md#conjecture; statement ids ``theorem1`` and ``conjecture``):

* :func:`derive_theorem1_positive` — for a row with m keys, θ = ρ(u + e), ‖e‖ ≤ ε, B = max ‖ψ(i, j)‖:
  γ > 0 ⇒ attention on the target ≥ 1/(1 + (m-1)·exp(-ρ(γ - 2εB)));
* :func:`derive_theorem1_negative` — γ < 0 ⇒ attention ≤ exp(-ρ(|γ| - 2εB));
* :func:`derive_gradient_span` — ∇ℓ(θ) = Σ_i (E_A[ψ(i, ·)] - ψ(i, t)) = -Σ_i Σ_j A_ij z_ij, so gradient
  descent from θ = 0 stays in col Zᵀ and a tie direction v ⊥ col Zᵀ keeps ⟨θ_k, v⟩ = 0;
* :func:`derive_log2_tie` — the designed open tie (statement ids ``conjecture``, refuted, and
  ``conjecture-limit``): the loss of the table, the flow in A = e^a, B = e^b, the bounds
  A = 2t + O(log t), B = t + O(log t), and the squeeze a - b → log 2.  Negative control: row 1
  dropped from training (the difference e1 occurs once, n_s = 1): the limit log 2 fails (it is 0).

Each derivation is a list of steps, every one checked by sympy: an identity is checked by
simplifying the difference of its sides to 0, a monotonicity by the sign of a derivative under
positivity assumptions, a constant by deciding an inequality for all positive symbols.  The final
bound is *built* from the steps (substitution into the softmax) and only then compared with the
formula of definitions.md#theorem-1.  Negative controls: the factor 2 of 2εB replaced by 1 (the step fails and a
tight instance violates the weakened bound), a loss term outside the span of the differences, and a
tie direction that is outside col Zᵀ without being orthogonal to it (the invalid outside-colspan
argument) — each must produce an exact counterexample.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from dataclasses import dataclass, field

import sympy as sp

from posreal.checks.base import FAILED, PROVED, CheckResult, Control, DeclaredCheck, timed


from posreal.checks.declare import claim_check, declared_in
@dataclass
class Step:
    """One step of a derivation: its name, whether it holds, and a detail."""

    name: str
    ok: bool
    detail: str = ""


@dataclass
class Derivation:
    """A checked derivation: its steps, the derived expression, and a counterexample if one was found."""

    name: str
    steps: list[Step] = field(default_factory=list)
    result: sp.Expr | None = None
    counterexample: dict | None = None

    @property
    def ok(self) -> bool:
        """Whether every step holds and no counterexample was found."""
        return all(s.ok for s in self.steps) and self.counterexample is None

    def check(self, name: str, ok: bool, detail: str = "") -> bool:
        """Record a step; returns whether it holds."""
        self.steps.append(Step(name, bool(ok), detail))
        return bool(ok)

    def failed_steps(self) -> list[str]:
        """The names of the steps that fail."""
        return [s.name for s in self.steps if not s.ok]


def is_zero(expr: sp.Expr) -> bool:
    """True iff sympy simplifies ``expr`` to exactly 0."""
    expr = sp.expand(expr)
    if expr == 0:
        return True
    if sp.expand(sp.numer(sp.together(expr))) == 0:
        return True
    if _nonzero_at_a_point(expr):
        return False
    return sp.simplify(sp.together(expr)) == 0


def _nonzero_at_a_point(expr: sp.Expr) -> bool:
    """True if ``expr`` is certainly nonzero: at a rational point (positive where the symbol must be)
    its value, evaluated to 50 digits with sympy's tracked precision, is clearly away from 0."""
    point = {s: sp.Rational(2 * n + 3, n + 5) * (1 if s.is_positive or s.is_nonnegative else (-1) ** n)
             for n, s in enumerate(sorted(expr.free_symbols, key=str))}
    for s in point:
        if s.is_negative:
            point[s] = -abs(point[s])
    value = expr.subs(point).evalf(50)
    return value.is_number and value.is_comparable and abs(value) > sp.Float("1e-30", 50)


def _vec(name: str, p: int, **assumptions) -> sp.Matrix:
    return sp.Matrix(sp.symbols(f"{name}_0:{p}", real=True, **assumptions))


def _dot(a: sp.Matrix, b: sp.Matrix) -> sp.Expr:
    return (a.T * b)[0, 0]


def _norm(a: sp.Matrix) -> sp.Expr:
    return sp.sqrt(_dot(a, a))


# --------------------------------------------------------------------------- Theorem 1
def _cauchy_schwarz_steps(der: Derivation, p: int) -> None:
    """⟨e, d⟩² ≤ ‖e‖²‖d‖² (Lagrange's identity) and ‖a - b‖ ≤ ‖a‖ + ‖b‖ (triangle), in p coordinates."""
    e, d = _vec("e", p), _vec("d", p)
    lagrange = sum(((e[a] * d[b] - e[b] * d[a]) ** 2 for a, b in itertools.combinations(range(p), 2)), sp.S(0))
    der.check("Cauchy–Schwarz: ‖e‖²‖d‖² - ⟨e,d⟩² = Σ_{a<b}(e_a d_b - e_b d_a)² ≥ 0",
              is_zero(_dot(e, e) * _dot(d, d) - _dot(e, d) ** 2 - lagrange), f"p = {p}")
    a, b = _vec("a", p), _vec("b", p)
    na, nb = sp.Symbol("n_a", nonnegative=True), sp.Symbol("n_b", nonnegative=True)
    # (‖a‖ + ‖b‖)² - ‖a - b‖² = 2(‖a‖‖b‖ + ⟨a, b⟩) ≥ 0, the last by Cauchy–Schwarz applied to (a, -b)
    lhs = (na + nb) ** 2 - _dot(a - b, a - b)
    rhs = 2 * (na * nb + _dot(a, b))
    der.check("triangle: (‖a‖+‖b‖)² - ‖a-b‖² = 2(‖a‖‖b‖ + ⟨a,b⟩)",
              is_zero((lhs - rhs).subs({na ** 2: _dot(a, a), nb ** 2: _dot(b, b)})
                      .subs({na: _norm(a), nb: _norm(b)})), f"p = {p}")


def _constant_step(der: Derivation, constant) -> sp.Expr:
    """|⟨e, ψ_t - ψ_j⟩| ≤ ε(‖ψ_t‖ + ‖ψ_j‖) ≤ 2εB; the claimed constant must dominate 2 for all ε, B > 0.
    Returns the claimed bound on |h| = |⟨e, ψ_t - ψ_j⟩|."""
    eps, B = sp.symbols("epsilon B", positive=True)
    derived = eps * (B + B)                       # ε · (‖ψ_t‖ + ‖ψ_j‖) at its largest, ‖ψ‖ ≤ B
    claimed = constant * eps * B
    verdict = (claimed - derived).is_nonnegative
    der.check(f"constant: {constant}·εB ≥ ε(‖ψ_t‖+‖ψ_j‖) for all ε, B > 0", verdict is True,
              f"(claimed - derived) = {sp.simplify(claimed - derived)}, nonnegative: {verdict}")
    return claimed


def _tight_instance(der: Derivation, p: int) -> None:
    """The 2 is attained: ψ_j = -ψ_t, ‖ψ_t‖ = B, e = -ε d/‖d‖ gives ⟨e, ψ_t - ψ_j⟩ = -2εB."""
    eps, B = sp.symbols("epsilon B", positive=True)
    psi_t = sp.Matrix([B] + [0] * (p - 1))
    psi_j = -psi_t
    d = psi_t - psi_j
    e = -eps * d / _norm(d)
    der.check("tightness: ⟨e, ψ_t - ψ_j⟩ = -2εB at ψ_j = -ψ_t, e = -ε d/‖d‖", is_zero(_dot(e, d) + 2 * eps * B))


def derive_theorem1_positive(constant=2, m: int = 4, p: int = 3) -> Derivation:
    """γ > 0: attention on the target ≥ 1/(1 + (m-1)exp(-ρ(γ - constant·εB))), derived step by step.
    ``constant=2`` is the theorem; any smaller constant is a negative control."""
    der = Derivation(f"Theorem 1, γ > 0 (m = {m}, p = {p}, constant {constant})")
    rho, eps, B, gamma = sp.symbols("rho epsilon B gamma", positive=True)
    kappa = sp.symbols(f"kappa_0:{m}", real=True)           # logits; key 0 is the target
    attn = sp.exp(kappa[0]) / sum(sp.exp(k) for k in kappa)
    rewritten = 1 / (1 + sum(sp.exp(kappa[j] - kappa[0]) for j in range(1, m)))
    der.check("softmax: a_t = 1/(1 + Σ_{j≠t} exp(κ_j - κ_t))", is_zero(attn - rewritten))

    u, e = _vec("u", p), _vec("e", p)
    psi = [_vec(f"psi{j}", p) for j in range(m)]
    logits = [rho * _dot(u + e, psi[j]) for j in range(m)]
    ok = all(is_zero((logits[j] - logits[0]) + rho * (_dot(u, psi[0] - psi[j]) + _dot(e, psi[0] - psi[j])))
             for j in range(1, m))
    der.check("linearity: κ_j - κ_t = -ρ(⟨u, ψ_t - ψ_j⟩ + ⟨e, ψ_t - ψ_j⟩)", ok)

    _cauchy_schwarz_steps(der, p)
    bound_h = _constant_step(der, constant)                 # |h_j| ≤ constant·εB
    _tight_instance(der, p)

    y = sp.symbols(f"y_1:{m}", positive=True)               # y_j = exp(κ_j - κ_t) > 0
    f = 1 / (1 + sum(y))
    der.check("monotone: ∂a_t/∂y_j < 0 for y > 0", all(sp.diff(f, yj).is_negative for yj in y))
    x = sp.Symbol("x", real=True)
    der.check("monotone: d exp(x)/dx > 0", sp.diff(sp.exp(x), x).is_positive is True)
    g, h = sp.symbols("g h", real=True)
    exponent = -rho * (g + h)                               # κ_j - κ_t with g = ⟨u, ·⟩, h = ⟨e, ·⟩
    der.check("monotone: κ_j - κ_t decreases in g and h (ρ > 0)",
              sp.diff(exponent, g).is_negative is True and sp.diff(exponent, h).is_negative is True)
    # g_j ≥ γ (γ is the min over j ≠ t) and h_j ≥ -bound_h, so every exponent is ≤ its value there
    worst = exponent.subs({g: gamma, h: -bound_h})
    derived = f.subs({yj: sp.exp(worst) for yj in y})
    der.result = sp.simplify(derived)
    stated = 1 / (1 + (m - 1) * sp.exp(-rho * (gamma - 2 * eps * B)))
    der.check("derived bound = the stated 1/(1 + (m-1)exp(-ρ(γ - 2εB)))", is_zero(derived - stated))

    # a concrete tight row (m = 2): ψ_t = B, ψ_j = -B, u = 1, e = -ε; compare actual attention and bound
    values = {rho: 1, B: 1, eps: sp.Rational(1, 2)}
    k_t, k_j = rho * (1 - eps) * B, -rho * (1 - eps) * B
    actual = (sp.exp(k_t) / (sp.exp(k_t) + sp.exp(k_j))).subs(values)
    claimed = (1 / (1 + sp.exp(-rho * (2 * B - bound_h)))).subs(values)
    if not bool(actual >= claimed - sp.Rational(1, 10 ** 30)):
        der.counterexample = {"rho": "1/1", "B": "1/1", "epsilon": "1/2", "keys": 2, "gamma": "2/1",
                              "attention": str(sp.N(actual, 20)), "claimed_lower_bound": str(sp.N(claimed, 20))}
    return der


def derive_theorem1_negative(constant=2, m: int = 4, p: int = 3) -> Derivation:
    """γ < 0: attention on the target ≤ exp(-ρ(|γ| - constant·εB)), derived step by step."""
    der = Derivation(f"Theorem 1, γ < 0 (m = {m}, p = {p}, constant {constant})")
    rho, eps, B = sp.symbols("rho epsilon B", positive=True)
    gamma = sp.Symbol("gamma", negative=True)
    y = sp.symbols(f"y_0:{m}", positive=True)               # y_j = exp(κ_j); key 0 target, key 1 the rival r
    total = sum(y)
    der.check("Σ_j exp(κ_j) - exp(κ_r) > 0 (the other terms are positive)", (total - y[1]).is_positive is True)
    D = sp.Symbol("D", positive=True)
    der.check("monotone: exp(κ_t)/D decreases in D > 0", sp.diff(y[0] / D, D).is_negative is True)
    ratio = y[0] / y[1]                                     # a_t ≤ exp(κ_t)/exp(κ_r) = exp(κ_t - κ_r)

    u, e = _vec("u", p), _vec("e", p)
    psi_t, psi_r = _vec("psit", p), _vec("psir", p)
    k_t, k_r = rho * _dot(u + e, psi_t), rho * _dot(u + e, psi_r)
    der.check("linearity: κ_t - κ_r = ρ(⟨u, ψ_t - ψ_r⟩ + ⟨e, ψ_t - ψ_r⟩)",
              is_zero(k_t - k_r - rho * (_dot(u, psi_t - psi_r) + _dot(e, psi_t - psi_r))))
    der.check("exp identity: exp(κ_t)/exp(κ_r) = exp(κ_t - κ_r)",
              is_zero(ratio.subs({y[0]: sp.exp(k_t), y[1]: sp.exp(k_r)}) - sp.exp(k_t - k_r)))

    _cauchy_schwarz_steps(der, p)
    bound_h = _constant_step(der, constant)
    _tight_instance(der, p)
    g, h = sp.symbols("g h", real=True)
    exponent = rho * (g + h)
    der.check("monotone: κ_t - κ_r increases in g and h (ρ > 0)",
              sp.diff(exponent, g).is_positive is True and sp.diff(exponent, h).is_positive is True)
    x = sp.Symbol("x", real=True)
    der.check("monotone: d exp(x)/dx > 0", sp.diff(sp.exp(x), x).is_positive is True)
    # g = ⟨u, ψ_t - ψ_r⟩ = γ for the rival r that attains the margin; h ≤ bound_h
    derived = sp.exp(exponent.subs({g: gamma, h: bound_h}))
    der.result = derived
    stated = sp.exp(-rho * (sp.Abs(gamma) - 2 * eps * B))
    der.check("derived bound = the stated exp(-ρ(|γ| - 2εB))", is_zero(derived - stated))

    # tight row (m = 2): ψ_t = -B, ψ_r = B, u = 1 (γ = -2B), e = -ε
    values = {rho: 1, B: 1, eps: sp.Rational(1, 2)}
    kt, kr = -rho * (1 - eps) * B, rho * (1 - eps) * B
    actual = (sp.exp(kt) / (sp.exp(kt) + sp.exp(kr))).subs(values)
    claimed = sp.exp(-rho * (2 * B - bound_h)).subs(values)
    if not bool(actual <= claimed + sp.Rational(1, 10 ** 30)):
        der.counterexample = {"rho": "1/1", "B": "1/1", "epsilon": "1/2", "keys": 2, "gamma": "-2/1",
                              "attention": str(sp.N(actual, 20)), "claimed_upper_bound": str(sp.N(claimed, 20))}
    return der


# --------------------------------------------------------------------------- span lemma (Conjecture)
SPAN_GRID = (3, ((1, 0), (2, 1)))   # L0 = 3, task offset:1: rows 1, 2 with targets 0, 1
SPAN_DIM = 4                         # feature dimension p: 3 differences in ℝ^4 leave a normal direction


def _cofactor_normal(zs: list[sp.Matrix]) -> sp.Matrix:
    """A vector orthogonal to p-1 vectors in ℝ^p: the cofactors of the last row of [z_1; …; z_{p-1}; ·]."""
    p = zs[0].shape[0]
    M = sp.Matrix.hstack(*zs).T                              # (p-1, p)
    return sp.Matrix([(-1) ** (p - 1 + c) * M[:, [k for k in range(p) if k != c]].det() for c in range(p)])


def derive_gradient_span(variant: str = "theorem") -> Derivation:
    """∇ℓ = -Σ A_ij z_ij on a symbolic grid, hence θ_k ∈ col Zᵀ and ⟨θ_k, v⟩ = 0 for v ⊥ col Zᵀ.

    ``variant``: "theorem"; "outside_term" (negative control: the loss drops the target term, so the
    gradient contains raw features outside the span); "outside_colspan" (negative control: v is
    outside col Zᵀ but not orthogonal to it — the invalid outside-colspan argument)."""
    if variant not in ("theorem", "outside_term", "outside_colspan"):
        raise ValueError(f"invalid variant {variant!r}; accepted: theorem, outside_term, outside_colspan")
    der = Derivation(f"gradient span lemma ({variant})")
    L0, rows = SPAN_GRID
    p = SPAN_DIM
    psi = {(i, j): _vec(f"psi{i}{j}", p) for i, _ in rows for j in range(i + 1)}
    theta = _vec("theta", p)
    pairs = [(i, t, j) for i, t in rows for j in range(i + 1) if j != t]
    z = {(i, j): psi[(i, t)] - psi[(i, j)] for i, t, j in pairs}

    # the loss and its gradient by differentiation
    loss = sp.S(0)
    for i, t in rows:
        loss += sp.log(sum(sp.exp(_dot(theta, psi[(i, j)])) for j in range(i + 1)))
        if variant != "outside_term":
            loss -= _dot(theta, psi[(i, t)])
    grad = sp.Matrix([sp.diff(loss, th) for th in theta])
    softmax = {}
    for i, _ in rows:
        norm = sum(sp.exp(_dot(theta, psi[(i, j)])) for j in range(i + 1))
        for j in range(i + 1):
            softmax[(i, j)] = sp.exp(_dot(theta, psi[(i, j)])) / norm
    combo = sum((softmax[(i, j)] * z[(i, j)] for i, t, j in pairs), sp.zeros(p, 1))
    # exp(κ_θ(i, j)) > 0 are independent of the identity's structure: name them w_ij (a change of variables)
    w = {sp.exp(_dot(theta, psi[key])): sp.Symbol(f"w_{key[0]}{key[1]}", positive=True) for key in psi}
    ok_softmax = all(is_zero(c.subs(w)) for c in grad + combo)
    der.check("∇ℓ(θ) = -Σ_i Σ_{j≠t} A_ij z_ij with A = softmax(κ_θ)", ok_softmax)

    # the same identity symbolic in A (rows of A sum to 1)
    A = {(i, j): sp.Symbol(f"A_{i}{j}", nonnegative=True) for i, _ in rows for j in range(i + 1)}
    subs_sum = {A[(i, t)]: 1 - sum(A[(i, j)] for j in range(i + 1) if j != t) for i, t in rows}
    grad_A = sum((sum((A[(i, j)] * psi[(i, j)] for j in range(i + 1)), sp.zeros(p, 1))
                  - (psi[(i, t)] if variant != "outside_term" else sp.zeros(p, 1)) for i, t in rows), sp.zeros(p, 1))
    combo_A = sum((A[(i, j)] * z[(i, j)] for i, t, j in pairs), sp.zeros(p, 1))
    ok_A = all(is_zero(c.subs(subs_sum)) for c in grad_A + combo_A)
    der.check("Σ_i (E_A[ψ(i,·)] - ψ(i,t)) = -Σ_i Σ_j A_ij z_ij for every row-stochastic A", ok_A)

    # induction: θ_k = Zᵀc ⇒ θ_{k+1} = θ_k - η∇ℓ = Zᵀ(c + ηA)
    eta = sp.Symbol("eta", positive=True)
    c = {key: sp.Symbol(f"c_{key[0]}{key[1]}", real=True) for key in z}
    theta_k = sum((c[key] * z[key] for key in z), sp.zeros(p, 1))
    theta_next = theta_k - eta * grad_A
    target = sum(((c[key] + eta * A[key]) * z[key] for key in z), sp.zeros(p, 1))
    der.check("induction: θ_k ∈ col Zᵀ ⇒ θ_{k+1} ∈ col Zᵀ (θ_0 = 0)",
              all(is_zero(comp.subs(subs_sum)) for comp in theta_next - target))

    # the tie direction
    zs = [z[key] for key in z]                              # p - 1 = 3 vectors in ℝ^4
    v = _cofactor_normal(zs)
    if variant == "outside_colspan":
        v = v + zs[0]                                       # outside col Zᵀ, not orthogonal to it
    der.check("v ⊥ col Zᵀ: ⟨z, v⟩ = 0 for every training difference", all(is_zero(_dot(zk, v)) for zk in zs))
    step_change = sp.expand(_dot(grad_A, v).subs(subs_sum))
    ok_tie = is_zero(step_change)
    der.check("⟨θ_{k+1}, v⟩ - ⟨θ_k, v⟩ = -η⟨∇ℓ, v⟩ = 0: the tie persists", ok_tie)
    der.result = step_change
    if not ok_tie:
        der.counterexample = _rational_counterexample(step_change, v, zs)
    return der


def _rational_counterexample(expr: sp.Expr, v: sp.Matrix, zs: list[sp.Matrix]) -> dict | None:
    """A small rational point where ``expr`` ≠ 0 (exact), with v's membership in col Zᵀ recorded."""
    symbols = sorted(expr.free_symbols | v.free_symbols, key=str)
    for seed in range(1, 50):
        point = {s: sp.Rational((seed * (7 * n + 3)) % 11 - 5, 1 + (seed + n) % 3) for n, s in enumerate(symbols)}
        for s in symbols:                                   # attention weights must be a distribution
            if str(s).startswith("A_"):
                point[s] = sp.Rational(1, 4)
        value = expr.subs(point)
        if value != 0:
            Zq = sp.Matrix.hstack(*[zk.subs(point) for zk in zs])  # (p, p-1)
            vq = v.subs(point)
            return {"change_of_<theta,v>_per_unit_step": str(value),
                    "v_in_col_Zt": Zq.rank() == sp.Matrix.hstack(Zq, vq).rank(),
                    "v": [str(x) for x in vq],
                    "inner_products_z_v": [str(_dot(zk.subs(point), vq)) for zk in zs]}
    return None


# --------------------------------------------------------------------------- the designed open tie
LOG2_TABLE = ((0, 0, 0), (-1, 0, 0), (0, -1, 0), (-1, 1, -1))   # relative f(δ), offset:0, L0 = 3, L = 4


def _ratio_nonnegative(expr: sp.Expr, symbols: list[sp.Symbol]) -> bool:
    """A sufficient test that ``expr`` ≥ 0 for all nonnegative ``symbols``: as one fraction, numerator
    and denominator are polynomials in them with nonnegative coefficients (denominator not 0)."""
    num, den = sp.fraction(sp.together(sp.expand(expr)))
    pn, pd = sp.Poly(sp.expand(num), *symbols), sp.Poly(sp.expand(den), *symbols)
    if pd.is_zero:
        return False
    if all(c >= 0 for c in pn.coeffs()) and all(c >= 0 for c in pd.coeffs()):
        return True
    return all(c <= 0 for c in pn.coeffs()) and all(c <= 0 for c in pd.coeffs())


def derive_log2_tie(variant: str = "theorem") -> Derivation:
    """The designed open tie, unconditionally: lim (a - b) = log 2.

    The limit holds along the gradient flow and along gradient descent with any fixed step η > 0, so row 3 of the
    L = 4 grid is won although α_4 = 3/4.

    Steps: the training loss of the table is ℓ = log(1 + e^{-a}) + log(1 + e^{-a} + e^{-b}) in
    θ = (a, b, c) (row 1 has the difference e1, row 2 has e1 and e2), ∂ℓ/∂c = 0; with A = e^a,
    B = e^b the flow is A' = 1/(1 + 1/A) + 1/(1 + 1/A + 1/B), B' = 1/(1 + 1/A + 1/B); so
    A' ≥ 5/6, B' ≥ 1/3 (A, B ≥ 1), 0 ≤ 2 - A' ≤ 2/A + 1/B and 0 ≤ 1 - B' ≤ 1/A + 1/B; integrating,
    |A - 1 - 2t| ≤ R_A(t) and |B - 1 - t| ≤ R_B(t) with R = O(log t); squeezing log(A/B) between
    the bounds gives a - b → log 2; row 3's rivals have margins a, b and a - b + c (c = 0).

    ``variant="single_row"`` is the negative control: row 1 is dropped from training, so e1 occurs once
    (n_s = 1, not 2) and the claimed limit log 2 must fail (the squeeze then gives 0)."""
    if variant not in ("theorem", "single_row"):
        raise ValueError(f"invalid variant {variant!r}; accepted: theorem, single_row")
    der = Derivation(f"designed open tie LOG2_TIE ({variant})")
    a, b, c = sp.symbols("a b c", real=True)
    theta = sp.Matrix([a, b, c])
    f = [sp.Matrix(row) for row in LOG2_TABLE]
    rows = (1, 2) if variant == "theorem" else (2,)
    loss = sp.S(0)
    for i in rows:   # offset:0: target key j = i (offset 0); keys j ≤ i have offsets i - j
        logits = [_dot(theta, f[i - j]) for j in range(i + 1)]
        loss += sp.log(sum(sp.exp(x) for x in logits)) - logits[i]
    closed = sp.log(1 + sp.exp(-a)) + sp.log(1 + sp.exp(-a) + sp.exp(-b))
    if variant == "single_row":
        closed = sp.log(1 + sp.exp(-a) + sp.exp(-b))
    der.check("loss of the table = log(1 + e^{-a}) + log(1 + e^{-a} + e^{-b}) (two copies of e1, one of e2)",
              is_zero(sp.expand_log(sp.simplify(loss - closed), force=True))
              or is_zero(sp.simplify(sp.exp(loss - closed)) - 1))
    der.check("∂ℓ/∂c = 0: c stays 0 from θ = 0", is_zero(sp.diff(loss, c)))
    A, B, t = sp.symbols("A B t", positive=True)
    to_ab = {sp.exp(-a): 1 / A, sp.exp(-b): 1 / B, sp.exp(a): A, sp.exp(b): B}
    dA = sp.simplify((A * -sp.diff(closed, a)).subs(to_ab).subs({a: sp.log(A), b: sp.log(B)}))
    dB = sp.simplify((B * -sp.diff(closed, b)).subs(to_ab).subs({a: sp.log(A), b: sp.log(B)}))
    rate = 2 if variant == "theorem" else 1
    inner = 1 / (1 + 1 / A + 1 / B)
    flow_a = 1 / (1 + 1 / A) + inner if variant == "theorem" else inner
    der.check("flow in A = e^a, B = e^b: A' = A·(-∂ℓ/∂a), B' = B·(-∂ℓ/∂b) equal "
              + ("1/(1 + 1/A) + 1/(1 + 1/A + 1/B)" if variant == "theorem" else "1/(1 + 1/A + 1/B)")
              + " and 1/(1 + 1/A + 1/B)", is_zero(dA - flow_a) and is_zero(dB - inner), f"A' = {dA}, B' = {dB}")
    x, y = sp.symbols("x y", nonnegative=True)
    near = {A: 1 + x, B: 1 + y}
    low_a = sp.Rational(5, 6) if variant == "theorem" else sp.Rational(1, 3)
    der.check(f"A' ≥ {low_a}, B' ≥ 1/3 for A, B ≥ 1",
              _ratio_nonnegative((dA - low_a).subs(near), [x, y])
              and _ratio_nonnegative((dB - sp.Rational(1, 3)).subs(near), [x, y]))
    u, w = sp.symbols("u w", nonnegative=True)    # u = 1/A, w = 1/B
    inv = {A: 1 / u, B: 1 / w}
    bound_a = (2 * u + w) if variant == "theorem" else (u + w)
    der.check(f"0 ≤ {rate} - A' ≤ {bound_a} and 0 ≤ 1 - B' ≤ 1/A + 1/B (u = 1/A, w = 1/B)",
              _ratio_nonnegative((rate - dA).subs(inv), [u, w])
              and _ratio_nonnegative((bound_a - (rate - dA)).subs(inv), [u, w])
              and _ratio_nonnegative((1 - dB).subs(inv), [u, w])
              and _ratio_nonnegative((u + w - (1 - dB)).subs(inv), [u, w]))
    s_ = sp.Symbol("s", positive=True)
    lowA, lowB = 1 + low_a * s_, 1 + s_ / 3
    r_a = sp.integrate(bound_a.subs({u: 1 / lowA, w: 1 / lowB}), (s_, 0, t))
    r_b = sp.integrate((u + w).subs({u: 1 / lowA, w: 1 / lowB}), (s_, 0, t))
    der.check("R_A(t), R_B(t) = O(log t): R/log t has a finite limit", all(
        sp.limit(r / sp.log(t), t, sp.oo).is_finite for r in (r_a, r_b)), f"R_A = {sp.simplify(r_a)}")
    # Gradient descent with any fixed step η > 0 (the same bookkeeping with sums): a ← a + η·(-∂ℓ/∂a)
    # gives A ← A·e^x with x = ηF/A, F = A·(-∂ℓ/∂a) the flow's A' above (likewise B), so
    # A_{k+1} - A_k - ηF = A_k(e^x - 1 - x) ∈ [0, η²F²e^x/(2A_k)] by the two Taylor facts below.
    xs = sp.Symbol("x", nonnegative=True)
    taylor = sp.exp(xs) - 1 - xs                      # ≥ 0: zero value and slope at 0, (·)'' = e^x > 0
    gap = xs ** 2 * sp.exp(xs) / 2 - taylor           # ≥ 0: zero value and slope at 0, (·)'' = e^x(2x + x²/2)
    second = sp.Poly(sp.expand(sp.simplify(sp.diff(gap, xs, 2) * sp.exp(-xs))), xs)
    der.check("GD step: 0 ≤ e^x - 1 - x ≤ x²e^x/2 for x ≥ 0, so A_{k+1} = A_k + ηF(A_k, B_k) + O(η²/A_k) "
              "(F ≤ 2, x ≤ 2η); the same for B",
              all(is_zero(e.subs(xs, 0)) for e in (taylor, sp.diff(taylor, xs), gap, sp.diff(gap, xs)))
              and is_zero(sp.diff(taylor, xs, 2) - sp.exp(xs))
              and all(cf >= 0 for cf in second.coeffs()), f"(gap)''·e^(-x) = {second.as_expr()}")
    # with t = ηk the per-step deviations sum to R_A(t), R_B(t) (decreasing terms: sum ≤ first + integral)
    # plus Σ O(η²/A_j) ≤ K·log(1 + t): the discrete bounds are the flow's with an extra K·log(1 + t).
    K = sp.Symbol("K", positive=True)
    extra = K * sp.log(1 + t)
    gd_low = sp.limit(sp.log((1 + rate * t - r_a - extra) / (1 + t + r_b + extra)), t, sp.oo)
    gd_up = sp.limit(sp.log((1 + rate * t + r_a + extra) / (1 + t - r_b - extra)), t, sp.oo)
    der.check("GD squeeze: with e^{a_k} = 1 + 2ηk ± (R_A + K log(1 + ηk)) and e^{b_k} = 1 + ηk ± (R_B + K log(1 + ηk)) "
              "the limit of a_k - b_k is log 2 for every step η > 0 and every constant K",
              is_zero(gd_low - sp.log(2)) and is_zero(gd_up - sp.log(2)), f"limits {gd_low}, {gd_up}")
    lower = sp.log((1 + rate * t - r_a) / (1 + t + r_b))
    upper = sp.log((1 + rate * t + r_a) / (1 + t - r_b))
    lim_low, lim_up = sp.limit(lower, t, sp.oo), sp.limit(upper, t, sp.oo)
    der.result = lim_low
    der.check("squeeze: lim a - b = log 2 (both bounds)", is_zero(lim_low - sp.log(2)) and is_zero(lim_up - sp.log(2)),
              f"limits {lim_low}, {lim_up}")
    margins = [_dot(sp.Matrix([a, b, 0]), f[0] - f[k]) for k in (1, 2, 3)]
    der.check("row 3's margins against offsets 1, 2, 3 are a, b, a - b (c = 0): all → +∞ or log 2 > 0",
              [sp.simplify(m) for m in margins] == [a, b, a - b] and sp.log(2).is_positive)
    if not der.ok:
        der.counterexample = {"limit_of_a_minus_b": str(lim_low), "claimed": "log(2)",
                              "training_rows": list(rows)}
    return der


# --------------------------------------------------------------------------- checks
def _derivation_check(claim: str, name: str, build: Callable[[], Derivation],
                      controls: list[Callable[[], Derivation]]) -> CheckResult:
    der = build()
    found = [ctl() for ctl in controls]
    control_ok = all((not c.ok) and c.counterexample is not None for c in found)
    verdict = PROVED if der.ok else FAILED
    detail = (f"{len(der.steps)} steps checked" if der.ok else f"failed steps: {der.failed_steps()}")
    detail += "; negative controls: " + "; ".join(
        f"{c.name}: failed steps {c.failed_steps()}, counterexample {c.counterexample}" for c in found)
    return CheckResult(claim=claim, name=name, method="symbolic", verdict=verdict,
                       negative_control=Control.COUNTEREXAMPLE if control_ok else Control.NO_COUNTEREXAMPLE,
                       detail=detail,
                       data={"steps": [[s.name, s.ok] for s in der.steps], "result": str(der.result),
                             "controls": [{"name": c.name, "failed_steps": c.failed_steps(),
                                           "counterexample": c.counterexample} for c in found]})


@claim_check("theorem1", "symbolic", "Theorem 1 bound, γ > 0")
def check_theorem1_positive() -> CheckResult:
    """Check Theorem 1's finite bound for γ > 0, derived symbolically."""
    return timed(lambda: _derivation_check(
        "theorem1", "finite bound, γ > 0: a_t ≥ 1/(1 + (m-1)exp(-ρ(γ - 2εB))) derived from the softmax",
        lambda: derive_theorem1_positive(2), [lambda: derive_theorem1_positive(1)]))


@claim_check("theorem1", "symbolic", "Theorem 1 bound, γ < 0")
def check_theorem1_negative() -> CheckResult:
    """Check Theorem 1's finite bound for γ < 0, derived symbolically."""
    return timed(lambda: _derivation_check(
        "theorem1", "finite bound, γ < 0: a_t ≤ exp(-ρ(|γ| - 2εB)) derived from the softmax",
        lambda: derive_theorem1_negative(2), [lambda: derive_theorem1_negative(1)]))


@claim_check("conjecture", "symbolic", "gradient span lemma")
def check_gradient_span() -> CheckResult:
    """Check the gradient span lemma symbolically."""
    return timed(lambda: _derivation_check(
        "conjecture", "gradient descent from 0 stays in col Zᵀ; a tie direction v ⊥ col Zᵀ stays tied",
        lambda: derive_gradient_span("theorem"),
        [lambda: derive_gradient_span("outside_term"), lambda: derive_gradient_span("outside_colspan")]))


@claim_check("conjecture", "symbolic", "designed open tie (elementary proof)")
def check_log2_tie(claim: str = "conjecture") -> CheckResult:
    """Check the designed open tie's limit log 2 symbolically (for ``claim``)."""
    name = ("the designed open tie refutes the open case: a_k - b_k → log 2, so lim acc_4 = 1 > α_4 = 3/4"
            if claim == "conjecture" else "on the designed open tie lim acc_4 = 1 = α♯_4 (lo = hi), proved")
    return timed(lambda: _derivation_check(claim, name, lambda: derive_log2_tie("theorem"),
                                           [lambda: derive_log2_tie("single_row")]))


@claim_check("conjecture-limit", "symbolic", "designed open tie: lim acc = α♯")
def check_log2_tie_limit() -> CheckResult:
    """The designed open tie, as a check of Conjecture′ (lim acc = α♯)."""
    return check_log2_tie("conjecture-limit")


SYMBOLIC_CHECKS: tuple[DeclaredCheck, ...] = declared_in(__name__)   # the @claim_check declarations above
