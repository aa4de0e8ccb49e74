"""Verification of the certificate kinds of format version 2: ``residual-levels`` and ``symmetric-tie``.

Fractions only, like :mod:`posreal.counterexamples.verifier.verify` (whose helpers it uses).  What is
re-derived (definitions.md#residual-levels):

* ``symmetric-tie`` — θ* is the selected parameters (KKT); the row's margin under T_L θ* is 0 and the
  rival j is tied (v = ψ(i,t) - ψ(i,j), ⟨θ*, v⟩ = 0); the claimed w is the projection of v on col Zᵀ
  (Z(v - w) = 0 and rank [Z; w] = rank Z); Q = (perm, signs) is a signed permutation, it maps the multiset
  of the training rows' multisets of differences onto itself, and Qw = -w.  By the symmetry lemma the
  margin ⟨θ_k, v⟩ is 0 for every iterate of gradient descent from 0 (any step): ``row_lost``;
* ``residual-levels`` — θ* (KKT), the tie (margin 0, ⟨θ*, v⟩ = 0, Zv ≠ 0: an open tie), and every level:
  its vectors (level 1: the distinct training differences, named by their first pair; level k+1:
  P_{U_k} u_{k,s} for s ∈ S0_k), θ_k (level 1: θ*; k ≥ 2: KKT of the max-margin problem of the level's
  vectors), the active set {⟨θ_k, u⟩ = 1}, S+ ⊂ A with an interior λ (λ > 0 on S+, Σ λ u = θ_k), and
  S0 = A ∖ S+ certified by θ_{k+1} (⟨u_r, θ_{k+1}⟩ = 0 on S+, ≥ 1 on S0, ⟨θ_k, θ_{k+1}⟩ = 0), so S+ is exactly
  the set of constraints positive in some dual solution; ``complete`` iff the last level has S0 = ∅.  The
  decision is either ``leading`` (⟨θ_m, v⟩ = 0 for 2 ≤ m < k and the sign of ⟨θ_k, v⟩: the margin grows like
  ±log^{∘k} t) or ``spans`` (the levels are complete, ⟨θ_m, v⟩ = 0 for every m ≥ 2, and Z(v - Σ_k Σ_b c_{k,b}
  u_{k,b}) = 0 with each level's basis inside its S+ and spanning it: the projection of v lies in
  V_1 ⊕ V_2 ⊕ …, so the margin has a finite limit Σ_k ⟨w̃_k, v⟩).  The *sign* of that limit needs
  exponentials and logarithms (the max-entropy residuals): it is reported in ``evidence`` with its
  certified enclosure, and is not checked here.
"""

from __future__ import annotations

from collections import Counter
from fractions import Fraction
from typing import Any

from posreal.counterexamples.verifier import qla, schema
from posreal.counterexamples.verifier.certificate import unq, unqvec
from posreal.counterexamples.verifier.errors import CertificateError
from posreal.theory.errors import quote

Vec = tuple[Fraction, ...]


def _dot(a, b) -> Fraction:
    return sum((x * y for x, y in zip(a, b, strict=True)), Fraction(0))


def _tie(v_mod, inst, instance: dict, claims: dict, check) -> tuple[tuple, Vec, int, int, int]:
    """θ*, v, (i, t, j): the selected parameters and the tie, with their checks."""
    theta, lams = v_mod._check_selected(inst, claims, check)
    i, t = v_mod._check_row(inst, check, instance)
    j = v_mod._rival(instance, "rival", i, t, "instance")
    kernel = inst.row_kernel(theta, i)
    margin = v_mod._margin(kernel, t)
    check(margin == 0 == unq(v_mod._get(claims, "margin", str, "claims"), "claims.margin"),
          "row margin under T_L θ* is 0", ("margin",))
    check(kernel[j] == kernel[t], f"rival {j} is tied with the target under θ*")
    v = v_mod.em.difference(inst.pe, i, t, j, inst.L0, inst.tables)
    check(v == unqvec(v_mod._get(claims, "tie_direction", list, "claims"), "claims.tie_direction"),
          "v = ψ(i,t) - ψ(i,j)", ("tie_direction",))
    check(any(v) and _dot(theta, v) == 0, "⟨θ*, v⟩ = 0, v ≠ 0 (a tie, not a structural one)")
    return theta, v, i, t, j


def _row_multisets(inst) -> Counter:
    rows: dict[int, Counter] = {}
    for (i, _, _), z in inst._z.items():
        rows.setdefault(i, Counter())[z] += 1
    return Counter(frozenset(c.items()) for c in rows.values())


def symmetric(v_mod, inst, instance: dict, claims: dict, check) -> None:
    """Check the claims of a ``symmetric-tie`` certificate."""
    theta, v, *_ = _tie(v_mod, inst, instance, claims, check)
    p = len(theta)
    w = unqvec(v_mod._get(claims, "projection", list, "claims"), "claims.projection")
    if len(w) != p:
        raise CertificateError(f"malformed certificate: claims.projection has {len(w)} entries, the PE {p}")
    check(all(_dot(z, [a - b for a, b in zip(v, w)]) == 0 for z in inst.Z), "Z(v - w) = 0", ("projection",))
    check(qla.rank(inst.Z + [w]) == qla.rank(inst.Z), "w ∈ col Zᵀ (rank [Z; w] = rank Z)")
    sym = v_mod._get(claims, "symmetry", dict, "claims")
    schema.keys(sym, {"perm", "signs"}, set(), "claims.symmetry")
    perm = [schema.typed(x, int, f"claims.symmetry.perm[{n}]") for n, x in
            enumerate(v_mod._get(sym, "perm", list, "claims.symmetry"))]
    signs = [schema.typed(x, int, f"claims.symmetry.signs[{n}]") for n, x in
             enumerate(v_mod._get(sym, "signs", list, "claims.symmetry"))]
    ok = check(sorted(perm) == list(range(p)) and len(signs) == p and all(s in (1, -1) for s in signs),
               "Q is a signed permutation of the PE's coordinates", ("symmetry", "perm"), ("symmetry", "signs"))

    def q(x) -> Vec:
        out = [Fraction(0)] * p
        for c, (target, sign) in enumerate(zip(perm, signs)):
            out[target] = sign * x[c]
        return tuple(out)

    if ok:
        before = _row_multisets(inst)
        rows: dict[int, Counter] = {}
        for (i, _, _), z in inst._z.items():
            rows.setdefault(i, Counter())[q(z)] += 1
        after = Counter(frozenset(c.items()) for c in rows.values())
        ok &= check(before == after, "Q maps the multiset of the training rows' differences onto itself")
        ok &= check(q(w) == tuple(-x for x in w), "Qw = -w")
    claimed = v_mod._get(claims, "row_lost", bool, "claims")
    check(bool(ok) and claimed is True, "the tie margin stays 0 along gradient descent: the row is lost",
          ("row_lost",))


def _independent(rows: list[Vec]) -> list[int]:
    keep: list[int] = []
    for n, r in enumerate(rows):
        if qla.rank([rows[k] for k in keep] + [r]) > len(keep):
            keep.append(n)
    return keep


def _pairs(value: Any, where: str, v_mod) -> list[tuple[int, int, int]]:
    return [v_mod._pair(x, f"{where}[{n}]") for n, x in enumerate(schema.typed(value, list, where))]


def _weighted(value: Any, where: str, v_mod, key: str = "lambda") -> dict[tuple[int, int, int], Fraction]:
    """A list of {"pair": [i, t, j], key: "p/q"} as a dict (no pair twice)."""
    out = {}
    for n, entry in enumerate(schema.typed(value, list, where)):
        schema.keys(entry, {"pair", key}, set(), f"{where}[{n}]")
        pair = v_mod._pair(entry["pair"], f"{where}[{n}].pair")
        if pair in out:
            raise CertificateError(f"malformed certificate: {where} names the pair {list(pair)} twice")
        out[pair] = unq(schema.typed(entry[key], str, f"{where}[{n}].{key}"), f"{where}[{n}].{key}")
    return out


def levels(v_mod, inst, instance: dict, claims: dict, check) -> None:
    """Check the claims of a ``residual-levels`` certificate."""
    theta, v, *_ = _tie(v_mod, inst, instance, claims, check)
    check(any(_dot(z, v) != 0 for z in inst.Z), "Z v ≠ 0 (not orthogonal: open case)")
    listed = v_mod._get(claims, "levels", list, "claims")
    if not listed:
        raise CertificateError("malformed certificate: claims.levels is empty; accepted: at least one level")
    vectors: dict[tuple[int, int, int], Vec] = {pair: z for z, pair in inst.first.items()}
    order = {pair: n for n, pair in enumerate(inst.first.values())}
    thetas: list[Vec] = []
    positives: list[dict] = []
    last_zero: list = []
    for k, level in enumerate(listed):
        where = f"claims.levels[{k}]"
        schema.keys(level, {"theta", "active", "positive", "interior"} | ({"multipliers"} if k else set()), set(),
                    where)
        th = unqvec(level["theta"], f"{where}.theta")
        if len(th) != len(theta):
            raise CertificateError(f"malformed certificate: {where}.theta has {len(th)} entries, the PE {len(theta)}")
        if k == 0:
            check(th == theta, "θ_1 = θ*", ("levels", 0, "theta"))
        else:
            mu = _weighted(level["multipliers"], f"{where}.multipliers", v_mod)
            ok = all(pair in vectors for pair in mu) and all(x > 0 for x in mu.values())
            combo = [sum((x * vectors[pair][c] for pair, x in mu.items() if pair in vectors), Fraction(0))
                     for c in range(len(theta))]
            ok = ok and tuple(combo) == th and all(_dot(u, th) >= 1 for u in vectors.values())
            ok = ok and all(_dot(vectors[pair], th) == 1 for pair in mu)
            check(ok, f"θ_{k + 1} is the max-margin vector of level {k + 1}'s vectors (KKT)", ("levels", k, "theta"),
                  ("levels", k, "multipliers"))
        active = sorted((pair for pair, u in vectors.items() if _dot(u, th) == 1), key=order.__getitem__)
        claimed_active = _pairs(level["active"], f"{where}.active", v_mod)
        check(claimed_active == active, f"level {k + 1}: the active set is {len(active)} constraint(s), in order",
              ("levels", k, "active"))
        positive = _pairs(level["positive"], f"{where}.positive", v_mod)
        lam = _weighted(level["interior"], f"{where}.interior", v_mod)
        ok = set(positive) <= set(active) and set(lam) == set(positive) and all(x > 0 for x in lam.values())
        combo = [sum((x * vectors[pair][c] for pair, x in lam.items() if pair in vectors), Fraction(0))
                 for c in range(len(theta))]
        check(ok and tuple(combo) == th, f"level {k + 1}: an interior λ ∈ Λ certifies S+ (λ > 0 on S+, Σ λ u = θ)",
              ("levels", k, "positive"), ("levels", k, "interior"))
        zero = [pair for pair in active if pair not in set(positive)]
        thetas.append(th)
        positives.append({pair: vectors[pair] for pair in positive if pair in vectors})
        last_zero = zero
        if k + 1 < len(listed):
            nxt = unqvec(schema.typed(listed[k + 1], dict, f"claims.levels[{k + 1}]").get("theta"),
                         f"claims.levels[{k + 1}].theta")
            if len(nxt) != len(theta):
                raise CertificateError(f"malformed certificate: claims.levels[{k + 1}].theta has {len(nxt)} entries, "
                                       f"the PE {len(theta)}")
            farkas = (_dot(th, nxt) == 0 and all(_dot(vectors[p], nxt) == 0 for p in positive if p in vectors)
                      and all(_dot(vectors[p], nxt) >= 1 for p in zero))
            check(bool(zero) and farkas, f"level {k + 1}: θ_{k + 2} is a Farkas-type vector of S0 (so S+ is exact)")
            span = [positives[-1][p] for p in positives[-1]]
            basis = [span[n] for n in _independent(span)]
            vectors = {p: tuple(a - b for a, b in zip(vectors[p], qla.project(basis, vectors[p])[1])) for p in zero}
    complete = v_mod._get(claims, "complete", bool, "claims")
    check(complete == (not last_zero), f"the levels are {'complete' if not last_zero else 'not complete'}",
          ("complete",))
    _decision(v_mod, claims, check, v, thetas, positives, inst, complete)


def _decision(v_mod, claims: dict, check, v: Vec, thetas: list[Vec], positives: list[dict], inst,
              complete: bool) -> None:
    decision = v_mod._get(claims, "decision", dict, "claims")
    if "leading" in decision:
        schema.keys(decision, {"leading"}, set(), "claims.decision")
        lead = schema.typed(decision["leading"], dict, "claims.decision.leading")
        schema.keys(lead, {"level", "sign"}, set(), "claims.decision.leading")
        k = schema.typed(lead["level"], int, "claims.decision.leading.level")
        sign = schema.typed(lead["sign"], int, "claims.decision.leading.sign")
        if not 2 <= k <= len(thetas):
            raise CertificateError(f"malformed certificate: claims.decision.leading.level {quote(k)}; accepted: a "
                                   f"level 2..{len(thetas)}")
        inner = [_dot(th, v) for th in thetas]
        got = (inner[k - 1] > 0) - (inner[k - 1] < 0)
        check(all(x == 0 for x in inner[1:k - 1]) and got == sign != 0,
              f"⟨θ_m, v⟩ = 0 for 2 ≤ m < {k} and ⟨θ_{k}, v⟩ has the sign {sign}: the margin grows like "
              f"{'+' if sign > 0 else '-'}log^{{∘{k}}} t", ("decision", "leading", "level"),
              ("decision", "leading", "sign"))
        return
    schema.keys(decision, {"spans"}, set(), "claims.decision")
    spans = schema.typed(decision["spans"], list, "claims.decision.spans")
    if len(spans) != len(thetas):
        raise CertificateError(f"malformed certificate: claims.decision.spans has {len(spans)} levels, the "
                               f"certificate {len(thetas)}")
    x = [Fraction(0)] * len(v)
    ok = complete and all(_dot(th, v) == 0 for th in thetas[1:])
    for k, entry in enumerate(spans):
        where = f"claims.decision.spans[{k}]"
        coeff = _weighted(entry, where, v_mod, "coefficient")
        span = positives[k]
        vecs = [span[p] for p in coeff if p in span]
        ok = ok and len(vecs) == len(coeff) and qla.rank(vecs) == len(vecs) == qla.rank(list(span.values()))
        for p, c in coeff.items():
            if p in span:
                x = [a + c * b for a, b in zip(x, span[p])]
    rest = [a - b for a, b in zip(v, x)]
    check(ok and all(_dot(z, rest) == 0 for z in inst.Z),
          "the levels are complete, ⟨θ_m, v⟩ = 0 for m ≥ 2 and v's projection on col Zᵀ lies in V_1 ⊕ V_2 ⊕ … "
          "(a finite limit; its sign is evidence)", ("decision", "spans"))


KIND_CHECKS = {"residual-levels": levels, "symmetric-tie": symmetric}
