"""Certificates of format version 2 for open ties that the residual levels or a symmetry decide.

Main functions (checked by :mod:`posreal.counterexamples.verifier.residual`; definitions.md#residual-levels):

* :func:`levels_certificate` (kind ``residual-levels``) — one tied rival of an open-tie row: θ* with its
  KKT multipliers, the tie, every residual level (θ_k with its KKT multipliers for k ≥ 2, the active set,
  S+ with an interior dual point; S0 is certified by the next level's θ) and the decision: ``leading``
  (the first level k ≥ 2 with ⟨θ_k, v⟩ ≠ 0 and its sign: decided in ℚ) or ``spans`` (v's projection lies in
  the sum of the level spans: a finite limit Σ_k ⟨w̃_k, v⟩, whose sign — exact log-linear form or certified
  enclosure — is stated in ``evidence`` because the fractions-only verifier cannot evaluate exp and log);
* :func:`symmetric_certificate` (kind ``symmetric-tie``) — θ*, the tie, the projection w of v on col Zᵀ and
  the signed permutation Q with Qw = -w that preserves the training rows' differences: the row is lost.

Both carry the gradient flow's evidence (:mod:`posreal.theory.trajectory`), never verified.
"""

from __future__ import annotations

import math
from fractions import Fraction

from posreal.counterexamples.certificate_writer import q, qvec, seal
from posreal.counterexamples.colspan import selected_claims, tables_json
from posreal.counterexamples.verifier.errors import CertificateError
from posreal.theory.flow import TAU_MAX, tie_flow
from posreal.theory.levels import Levels, level_span_decomposition
from posreal.theory.limit import Evidence, RivalLimit, decide_direction, prediction_context
from posreal.theory.pe_specs import parse_pe
from posreal.runtime.provenance import versions
from posreal.theory.random_instances import Instance, registered
from posreal.theory.selection import Selection, select
from posreal.theory.tasks import parse_task
from posreal.theory.ties import classify


def _tie(inst: Instance, row: int, rival: int | None):
    pe, task = parse_pe(inst.pe), parse_task(inst.task)
    sel = select(pe, task, inst.train_length)
    if sel.exact_theta is None:
        raise CertificateError(f"instance {inst.index}: θ* has no exact certificate; accepted: rational, "
                               "realizable instances")
    rows = [r for r in classify(pe, task, sel, inst.length).open_rows if r.row == row]
    if not rows:
        raise CertificateError(f"instance {inst.index}: no open-tie row {row!r}")
    rivals = [r for r in rows[0].rivals if rival is None or r.rival == rival]
    if not rivals:
        raise CertificateError(f"instance {inst.index}: row {row} has no tied rival {rival!r}")
    ctx = prediction_context(pe, task, sel)
    return pe, task, sel, rows[0], rivals[0], ctx


def _instance(inst: Instance, row, rival) -> dict:
    return {"pe": inst.pe, "task": inst.task, "train_length": inst.train_length, "length": inst.length,
            "row": row.row, "target": row.target, "rival": rival.rival, "tables": tables_json(inst),
            "search_index": inst.index, "family": inst.family}


def _evidence(pe, task, sel: Selection, inst: Instance, v, decided: RivalLimit, tau_max: float) -> dict:
    assert sel.exact_theta is not None
    (flow,) = tie_flow(pe, task, inst.train_length, [[float(x) for x in v]], tau_max, theta=list(sel.exact_theta))
    return {"gradient_flow": flow.to_json(), "limit": decided.to_json(),
            "note": ("float: the tie margin ⟨θ, v⟩ along the gradient flow from 0 (h = θ - θ* τ, σ = log τ); "
                     "'limit' is α♯'s decision on this rival (its value and certified bound where finite)")}


def _pairs(sel: Selection, keys) -> list[list[int]]:
    return [[int(x) for x in sel.pairs[s]] for s in keys]


def _weighted(sel: Selection, weights: dict[int, Fraction], name: str = "lambda") -> list[dict]:
    return [{"pair": [int(x) for x in sel.pairs[s]], name: q(x)} for s, x in sorted(weights.items())]


def _levels_claims(sel: Selection, levels: Levels, multipliers: list[dict[int, Fraction]]) -> list[dict]:
    out = []
    for k, level in enumerate(levels.levels):
        entry: dict = {"theta": qvec(level.theta), "active": _pairs(sel, level.split.active),
                       "positive": _pairs(sel, level.split.positive),
                       "interior": _weighted(sel, level.split.interior)}
        if k:
            entry["multipliers"] = _weighted(sel, multipliers[k])
        out.append(entry)
    return out


def levels_certificate(inst: Instance, row: int, rival: int | None = None, tau_max: float = TAU_MAX,
                       name: str | None = None) -> dict:
    """The ``residual-levels`` certificate of one rival (default: the first) of an open-tie row."""
    from posreal.theory.levels import max_margin

    with registered(inst):
        pe, task, sel, tied, found, ctx = _tie(inst, row, rival)
        v = found.direction
        decided = decide_direction(ctx, found.rival, v)
        levels = ctx.levels()
        if decided.evidence not in (Evidence.EXACT, Evidence.CERTIFIED) or not levels.levels:
            raise CertificateError(f"instance {inst.index} row {row}: rival {found.rival} is not decided by the "
                                   f"residual levels ({decided.evidence.value}: {decided.detail})")
        multipliers: list[dict[int, Fraction]] = [{}]
        for level in levels.levels[1:]:
            found_theta = max_margin(level.vectors, len(v))
            if found_theta is None:
                raise CertificateError(f"instance {inst.index}: level {level.depth}'s max-margin problem is not "
                                       "certified in ℚ")
            multipliers.append(found_theta[1])
        claims: dict = {"selected": selected_claims(sel), "margin": q(tied.margin), "tie_direction": qvec(v),
                        "levels": _levels_claims(sel, levels, multipliers), "complete": levels.complete}
        if decided.level is not None and decided.level >= 2:
            sign = 1 if decided.verdict.value == "won" else -1
            claims["decision"] = {"leading": {"level": decided.level, "sign": sign}}
            what = (f"⟨θ_{decided.level}, v⟩ {'>' if sign > 0 else '<'} 0: the margin grows like "
                    f"{'+' if sign > 0 else '-'}log^(∘{decided.level}) t (decided in ℚ)")
        else:
            coefficients = level_span_decomposition(levels, v)
            assert coefficients is not None
            claims["decision"] = {"spans": [
                [{"pair": [int(x) for x in sel.pairs[b]], "coefficient": q(c)} for b, c in zip(level.basis, cs)]
                for level, cs in zip(levels.levels, coefficients)]}
            what = (f"v's projection lies in the sum of the level spans: a finite limit Σ_k ⟨w̃_k, v⟩ = "
                    f"{decided.value:.8g}" + ("" if decided.evidence is Evidence.EXACT else f" ± {decided.bound:.1e}")
                    + " (its sign is evidence: exp and log are not checked by the fractions-only verifier)")
        evidence = _evidence(pe, task, sel, inst, v, decided, tau_max)
    document = {"kind": "residual-levels", "instance": _instance(inst, tied, found), "claims": claims,
                "evidence": evidence, "versions": versions(),
                "explanation": (f"Row {tied.row} (target {tied.target}) of the L={inst.length} grid is tied with key "
                                f"{found.rival} under T_L θ* (an open tie, Z v ≠ 0).  {levels.depth} residual "
                                f"level(s), certified in ℚ: {what}.  α♯ says {decided.verdict.value} "
                                f"({decided.evidence.value}); the gradient flow's margin at τ = "
                                f"{math.exp(evidence['gradient_flow']['sigma']):.3g} is "
                                f"{evidence['gradient_flow']['value']:.6g}.")}
    if name is not None:
        document["name"] = name
    return seal(document)


def symmetric_certificate(inst: Instance, row: int, rival: int | None = None, tau_max: float = TAU_MAX,
                          name: str | None = None) -> dict:
    """The ``symmetric-tie`` certificate of one rival (default: the first symmetric one) of an open-tie row."""
    with registered(inst):
        pe, task, sel, tied, found, ctx = _tie(inst, row, rival)
        decided = decide_direction(ctx, found.rival, found.direction)
        if decided.symmetry is None:
            raise CertificateError(f"instance {inst.index} row {row}: no signed permutation keeps rival "
                                   f"{found.rival}'s margin at 0 ({decided.detail})")
        v = found.direction
        w = ctx.column_projection(v)
        evidence = _evidence(pe, task, sel, inst, v, decided, tau_max)
    claims = {"selected": selected_claims(sel), "margin": q(tied.margin), "tie_direction": qvec(v),
              "projection": qvec(w), "symmetry": decided.symmetry.to_json(), "row_lost": True}
    document = {"kind": "symmetric-tie", "instance": _instance(inst, tied, found), "claims": claims,
                "evidence": evidence, "versions": versions(),
                "explanation": (f"Row {tied.row} (target {tied.target}) of the L={inst.length} grid is tied with key "
                                f"{found.rival} under T_L θ*.  The signed permutation {decided.symmetry.to_json()} "
                                "maps every training row's multiset of differences onto the training rows' and "
                                "the tie direction's projection w on col Zᵀ to -w, so gradient descent from 0 keeps "
                                "the margin at 0 for every step size: the row is lost.")}
    if name is not None:
        document["name"] = name
    return seal(document)
