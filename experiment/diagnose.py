"""Why a measurement disagrees with α_L: compare the trained θ with the selected θ*.

Main definitions:

* :func:`diagnose` retrains one model of a record (training is a pure function of the record's
  key and recipe, so this reproduces its θ exactly) and reports cos(θ, θ*), ‖θ‖, ‖θ*‖ and
  acc_L(θ) = the fraction of R_L that T_L θ realizes (definitions.md#conjecture) at each length,
  next to α_L = acc_L(θ*);
* :func:`diagnose_disagreements` does so for one representative measurement of every (PE, task)
  cell that has a disagreement (the first in sorted order).

Theorem 1 and the Conjecture speak about θ_k whose direction tends to θ*/‖θ*‖; a trained θ
whose cosine with θ* is far from 1 is outside their hypotheses, and acc_L(θ) then says what the
trained head itself realizes.
"""

from __future__ import annotations

import numpy as np

from posreal.experiment.train import Recipe, stable_seed, train_model
from posreal.theory.encodings import parse_pe
from posreal.theory.selection import select
from posreal.theory.tasks import parse_task
from posreal.theory.alpha import row_outcomes


def diagnose(pe_spec: str, task_spec: str, vocab: int, width: int, seed: int, recipe: Recipe,
             lengths: list[int]) -> dict:
    """Retrain the model of key (pe, task, V, d, seed) and compare its θ with θ*."""
    pe, task = parse_pe(pe_spec), parse_task(task_spec)
    L0 = recipe.train_length
    params, loss = train_model(pe, task, vocab, width, recipe, stable_seed(pe_spec, task_spec, vocab, width, seed))
    theta = params["theta"]                                                  # (p,)
    sel = select(pe, task, L0)
    out = {"pe": pe_spec, "task": task_spec, "vocab": vocab, "width": width, "seed": seed, "final_loss": loss,
           "theta_norm": float(np.linalg.norm(theta)),
           "trained_acc": {str(L): row_outcomes(pe, task, theta, L, L0).alpha for L in [L0, *lengths]}}
    if sel.realizable:
        star = np.asarray(sel.theta, dtype=float)                            # (p,)
        out["selected_norm"] = float(np.linalg.norm(star))
        out["cosine_to_selected"] = float(theta @ star / (np.linalg.norm(theta) * np.linalg.norm(star)))
        out["alpha"] = {str(L): row_outcomes(pe, task, star, L, L0).alpha for L in lengths}
    return out


def diagnose_disagreements(disagreements: list[dict], recipe: Recipe, lengths: list[int]) -> list[dict]:
    """One diagnosis per (PE, task) cell with a disagreement."""
    seen, out = set(), []
    for r in sorted(disagreements, key=lambda r: (r["pe"], r["task"], r["vocab"], r["width"], r["seed"])):
        if (r["pe"], r["task"]) in seen:
            continue
        seen.add((r["pe"], r["task"]))
        out.append(diagnose(r["pe"], r["task"], r["vocab"], r["width"], r["seed"], recipe, lengths))
    return out
