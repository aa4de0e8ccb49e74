"""Certificates for open ties of the conjecture search (kind ``open-tie``).

Main function: :func:`open_tie_certificate` — for one instance and one open-tie row, the exact
claims (θ* with its KKT multipliers, the row's margin 0 under T_L θ*, each tied rival's direction
v_j with ⟨θ*, v_j⟩ = 0 and Z v_j ≠ 0, α_L in ℚ, and — when its hypotheses hold — the exact sign
of the exponential-tail prediction of lim ⟨θ_k, v_j⟩, see :mod:`posreal.counterexamples.dynamics`), plus
the float evidence: the gradient-descent tie margins and their limit verdict.  A certified
``predicted_wins: true`` together with a ``wins`` trajectory is what makes a row a candidate
counterexample to the Conjecture: lim acc_L(θ_k) > α_L.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from posreal.theory.encodings import parse_pe
from posreal.theory.provenance import versions
from posreal.theory.selection import select
from posreal.theory.tasks import parse_task

from posreal.counterexamples.verifier.certificate import q, qvec, seal
from posreal.counterexamples.classify import classify
from posreal.counterexamples.colspan import selected_claims, tables_json
from posreal.counterexamples.conjecture import registered
from posreal.counterexamples.dynamics import DEFAULT_STEPS, limit_verdict, predict, tie_margins
from posreal.counterexamples.verifier.errors import CertificateError
from posreal.counterexamples.sampling import Instance

SENTENCE = ("Row {i} (target {t}) of the L={L} grid is tied under T_L θ* (margin 0; α_L = {alpha}) and every tied "
            "rival's direction has Z v ≠ 0 — the Conjecture's open case.  {prediction}Gradient descent from 0 "
            "(step 1/β, {steps} steps) gives tie margins {estimates}: {verdict}.")


def open_tie_certificate(inst: Instance, row: int | None = None, gd_steps: int = DEFAULT_STEPS,
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
        traj = tie_margins(pe, task, inst.train_length, [[float(x) for x in r.direction] for r in target_row.rivals],
                           gd_steps)
        rivals, evidence, signs = [], [], []
        for n, rival in enumerate(target_row.rivals):
            entry = {"rival": rival.rival, "direction": qvec(rival.direction)}
            pred = predict(pe, task, sel, rival.direction)
            if pred is not None:
                entry["prediction"] = {"coefficients": qvec(pred["coefficients"]), "sign": pred["sign"],
                                       "multiplicities": pred["multiplicities"]}
                signs.append(pred["sign"])
            rivals.append(entry)
            verdict = limit_verdict(traj.steps, traj.margins[n])
            verdict["rival"] = rival.rival
            verdict["predicted_value"] = None if pred is None else pred["value"]
            evidence.append(verdict)
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
        verdicts = {e["verdict"] for e in evidence}
        overall = "wins" if verdicts == {"wins"} else ("loses" if "loses" in verdicts else "undecided")
        document = {
            "kind": "open-tie",
            "instance": {"pe": inst.pe, "task": inst.task, "train_length": inst.train_length, "length": inst.length,
                         "row": target_row.row, "target": target_row.target, "tables": tables_json(inst),
                         "search_index": inst.index, "family": inst.family},
            "claims": claims,
            "evidence": {"gradient_descent": evidence, "row_verdict": overall, "steps": gd_steps,
                         "note": "float: tie margins ⟨θ_k, v_j⟩ along gradient descent from 0 (not exact claims)"},
            "explanation": SENTENCE.format(i=target_row.row, t=target_row.target, L=inst.length, alpha=cls.alpha,
                                           prediction=prediction, steps=gd_steps,
                                           estimates=", ".join(f"{e['estimate']:.4g}" for e in evidence),
                                           verdict={"wins": "the trained head wins the row (candidate "
                                                    "counterexample: lim acc_L > α_L)",
                                                    "loses": "the trained head loses the row",
                                                    "undecided": "undecided"}[overall]),
            "versions": versions(),
        }
        if name is not None:
            document["name"] = name
        return seal(document)
