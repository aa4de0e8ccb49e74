"""The two-layer experiment's summary.

Measured accuracy against α_L^ind and α_L(copy) per cell, the disagreements, and the PI prediction confirmed or refuted
by the data; its markdown table for the docs.

Main definitions:

* a *cell* is (recipe, task, PE, extension σ, factor k); its seeds' token accuracies at n = kL0 (+1) are
  summarized by mean, min and max, and the count that *generalize* (accuracy ≥ the recipe's threshold);
  the cell's measured verdict is the majority of its seeds;
* the prediction of a cell is α = 1 (α_L^ind for ``induction``, α_L(copy) for ``copy``); None when the theory
  makes none (layer 1's offset:1, or copy, not realizable at L0).  A cell *disagrees* when its prediction is
  not None and differs from its measured verdict — every such cell is listed, none tuned away;
* :func:`pi_prediction` — the PI prediction read off the ``mixed`` recipe's induction cells of rope:
  copying survives σ = none and ntk (every k generalizes) and breaks under pi (no k generalizes);
  each part is reported as holding or not, per k;
* :func:`render_markdown` — the docs' table, a pure function of the summary (the docs test compares the
  committed page with the render of the committed records).
"""

from __future__ import annotations

import json
from collections import defaultdict
from typing import Any

from posreal.experiment.two_layer_grid import TwoLayerGrid

CELL_FIELDS = ("recipe", "task", "pe", "extension", "factor")


def _cell_key(r: dict) -> tuple:
    return tuple(r[f] for f in CELL_FIELDS)


def summarize(records: list[dict], grid: TwoLayerGrid) -> dict[str, Any]:
    """Per-cell accuracy against the theory's α, the disagreements and the PI prediction."""
    groups: dict[tuple, list[dict]] = defaultdict(list)
    for r in records:
        groups[_cell_key(r)].append(r)
    copy_alpha = {(k[0], k[2], k[3], k[4]): rs[0]["alpha"] for k, rs in groups.items() if k[1] == "copy"}
    order = {pe: n for n, pe in enumerate(grid.pes)}
    ext_order = {e: n for n, e in enumerate(("none", "pi", "ntk", "yarn"))}
    cells = []
    for key in sorted(groups, key=lambda k: (k[0] != "mixed", k[0], k[1] != "induction", order.get(k[2], 99),
                                             ext_order.get(k[3], 9), k[4])):
        rs = sorted(groups[key], key=lambda r: r["seed"])
        acc = [r["token_accuracy"] for r in rs]
        gen = sum(r["generalizes"] for r in rs)
        measured = 2 * gen > len(rs)
        alpha = rs[0]["alpha"]
        predicted = None if alpha is None else alpha == 1.0
        cells.append({
            **dict(zip(CELL_FIELDS, key)), "length": rs[0]["length"], "seeds": [r["seed"] for r in rs],
            "accuracy": acc, "mean": sum(acc) / len(acc), "min": min(acc), "max": max(acc),
            "generalizing_seeds": gen, "learned_seeds": sum(r["learned"] for r in rs),
            "train_accuracy_min": min(r["train_token_accuracy"] for r in rs),
            "layer1_previous_mean": sum(r["layer1_previous"] for r in rs) / len(rs),
            "alpha": alpha, "alpha_offset1": rs[0]["alpha_offset1"],
            "alpha_copy": copy_alpha.get((key[0], key[2], key[3], key[4])) if key[1] == "induction" else alpha,
            "predicted": predicted, "generalizes": measured,
            "agrees": None if predicted is None else predicted == measured})
    disagreements = [{f: c[f] for f in (*CELL_FIELDS, "alpha", "mean", "generalizing_seeds")}
                     for c in cells if c["agrees"] is False]
    models = {(r["recipe"], r["pe"], r["task"], r["seed"]): r for r in records}
    stamps = sorted(r["timestamp"] for r in records)
    run = {"models": len(models), "first_record": stamps[0] if stamps else None,
           "last_record": stamps[-1] if stamps else None,
           "training_seconds": round(sum(r["seconds"] for r in models.values()), 1),
           "versions": sorted({json.dumps(r["versions"], sort_keys=True) for r in records})}
    return {"grid": grid.to_json(), "threshold": grid.recipes[0].recipe.threshold, "measurements": len(records),
            "run": run,
            "cells": cells, "disagreements": disagreements,
            "agreement": {"cells_with_prediction": sum(c["agrees"] is not None for c in cells),
                          "agreeing": sum(c["agrees"] is True for c in cells)},
            "pi_prediction": pi_prediction(cells)}


def pi_prediction(cells: list[dict]) -> dict[str, Any]:
    """Induction copying survives rope under none and ntk and breaks under pi (mixed recipe, per k)."""
    rope = [c for c in cells if c["recipe"] == "mixed" and c["task"] == "induction" and c["pe"].startswith("rope")]
    by = {(c["extension"], c["factor"]): c["generalizes"] for c in rope}
    factors = sorted({k for _, k in by})
    if not factors:
        return {"status": "not measured"}
    parts = {"survives_none": all(by.get(("none", k), False) for k in factors),
             "survives_ntk": all(by.get(("ntk", k), False) for k in factors),
             "breaks_pi": not any(by.get(("pi", k), True) for k in factors)}
    per_k = {str(k): {e: by.get((e, k)) for e in ("none", "pi", "ntk", "yarn")} for k in factors}
    return {"status": "confirmed" if all(parts.values()) else "refuted", **parts, "generalizes_by_factor": per_k}


def _fmt(x: float | None) -> str:
    return "—" if x is None else f"{x:.3g}"


def render_markdown(summary: dict[str, Any]) -> str:
    """The per-cell table, the disagreements count and the PI verdict, as markdown."""
    head = ("| recipe | task | PE | σ | L | α (theory) | α(offset:1) | α(copy) | accuracy mean [min, max] "
            "| seeds ≥ thr. | L0 acc. min | layer-1 prev. | agrees |")
    lines = [head, "|" + "---|" * 13]
    for c in summary["cells"]:
        agrees = {None: "no prediction", True: "yes", False: "**no**"}[c["agrees"]]
        lines.append(f"| {c['recipe']} | {c['task']} | {c['pe']} | {c['extension']} | {c['length']} "
                     f"| {_fmt(c['alpha'])} | {_fmt(c['alpha_offset1'])} | {_fmt(c['alpha_copy'])} "
                     f"| {c['mean']:.3f} [{c['min']:.3f}, {c['max']:.3f}] "
                     f"| {c['generalizing_seeds']}/{len(c['seeds'])} | {c['train_accuracy_min']:.3f} "
                     f"| {c['layer1_previous_mean']:.3f} | {agrees} |")
    a, pi = summary["agreement"], summary["pi_prediction"]
    lines += ["", f"Cells with a prediction: {a['cells_with_prediction']}; agreeing with the measured majority "
                  f"verdict: {a['agreeing']}; disagreements: {len(summary['disagreements'])}.", ""]
    if pi.get("status") == "not measured":
        lines.append("PI prediction: not measured by this grid.")
    else:
        lines.append(f"PI prediction (mixed recipe, induction, rope): **{pi['status']}** — survives none: "
                     f"{pi['survives_none']}, survives ntk: {pi['survives_ntk']}, breaks under pi: {pi['breaks_pi']}.")
    return "\n".join(lines) + "\n"
