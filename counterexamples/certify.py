"""Certificates for open ties of the conjecture search (kind ``open-tie``).

Main function: :func:`open_tie_certificate` — for one instance and one open-tie row, the exact
claims (θ* with its KKT multipliers, the row's margin 0 under T_L θ*, each tied rival's direction
v_j with ⟨θ*, v_j⟩ = 0 and Z v_j ≠ 0, α_L in ℚ, and — when its hypotheses hold — the exact sign
of the exponential-tail prediction of lim ⟨θ_k, v_j⟩, see :mod:`posreal.theory.limit`), plus
the float evidence: the log-time gradient flow's tie margins with τ reached, drift and verdict
(:mod:`posreal.theory.flow`), α♯'s verdict on the row and their agreement.  A certified
``predicted_wins: true`` together with a ``wins`` flow is what makes a row a counterexample to the
original Conjecture (lim acc_L(θ_k) > α_L); a ``disagrees`` would be one against Conjecture′.
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any

from posreal.theory.pe_specs import parse_pe
from posreal.runtime.provenance import versions
from posreal.theory.selection import select
from posreal.theory.tasks import parse_task

from posreal.counterexamples.certificate_writer import q, qvec, seal
from posreal.theory.ties import classify
from posreal.counterexamples.colspan import selected_claims, tables_json
from posreal.counterexamples.verifier.errors import CertificateError
from posreal.theory.flow import TAU_MAX, compare, row_verdict, tie_flow
from posreal.theory.limit import open_tie_limit, prediction_context
from posreal.theory.random_instances import Instance, registered

SENTENCE = ("Row {i} (target {t}) of the L={L} grid is tied under T_L θ* (margin 0; α_L = {alpha}) and every tied "
            "rival's direction has Z v ≠ 0 — the Conjecture's open case.  {prediction}The gradient flow "
            "from 0 (LSODA in h = θ - θ* τ and σ = log τ, up to τ = {tau:.3g}) gives tie margins {estimates}: "
            "{verdict}.")


def open_tie_certificate(inst: Instance, row: int | None = None, tau_max: float = TAU_MAX,
                         name: str | None = None) -> dict:
    """The ``open-tie`` certificate of one row (default: the first open-tie row) of an instance."""
    with registered(inst):
        pe, task = parse_pe(inst.pe), parse_task(inst.task)
        sel = select(pe, task, inst.train_length)
        if sel.exact_theta is None:
            raise CertificateError(f"instance {inst.index}: θ* has no exact certificate; accepted: rational, "
                                   "realizable instances")
        cls = classify(pe, task, sel, inst.length)
        rows = [r for r in cls.open_rows if row is None or r.row == row]
        if not rows:
            raise CertificateError(f"instance {inst.index}: no open-tie row {row!r}; open rows: "
                                   f"{[r.row for r in cls.open_rows]}")
        target_row = rows[0]
        flows = tie_flow(pe, task, inst.train_length, [[float(x) for x in r.direction] for r in target_row.rivals],
                         tau_max, theta=list(sel.exact_theta))
        limit = open_tie_limit(prediction_context(pe, task, sel), target_row)
        rivals, evidence, signs = [], [], []
        for rival, rival_limit, flow in zip(target_row.rivals, limit.rivals, flows):
            entry: dict = {"rival": rival.rival, "direction": qvec(rival.direction)}
            pred = rival_limit.prediction
            if pred is not None:
                entry["prediction"] = {"coefficients": qvec(pred.coefficients), "sign": pred.sign,
                                       "multiplicities": list(pred.multiplicities)}
                signs.append(pred.sign)
            rivals.append(entry)
            evidence.append({**flow.to_json(), "rival": rival.rival,
                             "predicted_value": None if pred is None else pred.value,
                             "limit": rival_limit.to_json()})
        if not isinstance(target_row.margin, Fraction):
            raise CertificateError(f"instance {inst.index}: row {target_row.row} has a float margin; accepted: "
                                   "rational instances (open ties are decided in ℚ)")
        claims: dict[str, Any] = {"selected": selected_claims(sel), "margin": q(target_row.margin), "rivals": rivals,
                                  "alpha": q(cls.alpha)}
        prediction = ""
        if len(signs) == len(rivals):
            claims["predicted_wins"] = all(s == 1 for s in signs)
            prediction = ("The exponential-tail prediction of every tie margin's limit is "
                          + ("positive (exact sign). " if claims["predicted_wins"]
                             else "not all positive (exact sign). "))
        overall = row_verdict([f.verdict for f in flows])
        document = {
            "kind": "open-tie",
            "instance": {"pe": inst.pe, "task": inst.task, "train_length": inst.train_length, "length": inst.length,
                         "row": target_row.row, "target": target_row.target, "tables": tables_json(inst),
                         "search_index": inst.index, "family": inst.family},
            "claims": claims,
            "evidence": {"gradient_flow": evidence, "row_verdict": overall.value, "tau_max": tau_max,
                         "limit_verdict": limit.verdict.value, "limit_evidence": limit.evidence.value,
                         "agreement": compare(limit.verdict, overall).value,
                         "note": ("float: tie margins ⟨θ, v_j⟩ along the gradient flow from 0, integrated in "
                                  "h = θ - θ* τ and σ = log τ (τ = log t, LSODA) up to τ = tau_max; a verdict only "
                                  "with a stable slope in σ or log σ, or a settled value (not exact claims)")},
            "explanation": SENTENCE.format(i=target_row.row, t=target_row.target, L=inst.length, alpha=cls.alpha,
                                           prediction=prediction, tau=max(math.exp(f.sigma) for f in flows),
                                           estimates=", ".join(f"{f.value:.4g}" for f in flows),
                                           verdict={"won": "the trained head wins the row (lim acc_L > α_L)",
                                                    "lost": "the trained head loses the row",
                                                    "undecided": "undecided"}[overall.value]),
            "versions": versions(),
        }
        if name is not None:
            document["name"] = name
        return seal(document)
