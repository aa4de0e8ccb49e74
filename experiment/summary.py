"""The summary of a run: does α_L = 1 separate the measurements that generalize?

Main definitions (THEORY-experiment.md, "Verdict" and "Output"):

* a measurement *generalizes* when its token accuracy at L is ≥ the threshold (0.95 unless the
  recipe says otherwise); its *prediction* is α_L(Φ, τ; L0) = 1;
* the 2×2 contingency table (α_L = 1 or not) × (generalizes or not) over the cells realizable
  at L0; cells not realizable at L0 are counted apart and never enter the table;
* agreement rate = (measurements where prediction = verdict) / (measurements in the table);
  the disagreements are listed one by one and grouped by (PE, task, L);
* stability at (V, d) = (64, 128): per (PE, task, L) the verdict of a setting is that of the
  majority of its seeds (ties count as "generalizes"); the (64, 128) verdicts are compared with
  those of every other setting;
* per-cell curves (α_L and token accuracy against L) for :mod:`posreal.experiment.plots`.
"""

from __future__ import annotations

from collections import defaultdict

import numpy as np

from posreal.experiment.grid import STABILITY_SETTING


def _verdict(record: dict, threshold: float) -> bool:
    return record["token_accuracy"] >= threshold


def _stats(values: list[float]) -> dict:
    a = np.asarray(values, dtype=float)
    return {"mean": float(a.mean()), "min": float(a.min()), "max": float(a.max()), "n": int(a.size)}


def _brief(r: dict) -> dict:
    keys = ("pe", "task", "vocab", "width", "seed", "length", "alpha", "token_accuracy", "attention_accuracy",
            "train_token_accuracy", "theta_norm")
    return {k: r[k] for k in keys}


def contingency(records: list[dict], threshold: float) -> dict:
    """2×2 counts, agreement and disagreements over the measurements realizable at L0."""
    table = {"alpha_one": {"generalizes": 0, "fails": 0}, "alpha_below_one": {"generalizes": 0, "fails": 0}}
    disagreements = []
    for r in records:
        if not r["realizable"]:
            continue
        predicted = r["alpha"] == 1.0
        verdict = _verdict(r, threshold)
        table["alpha_one" if predicted else "alpha_below_one"]["generalizes" if verdict else "fails"] += 1
        if predicted != verdict:
            disagreements.append(r)
    total = sum(sum(row.values()) for row in table.values())
    agreeing = table["alpha_one"]["generalizes"] + table["alpha_below_one"]["fails"]
    return {"table": table, "total": total, "agreeing": agreeing,
            "agreement_rate": agreeing / total if total else None, "disagreements": disagreements}


def _group(records: list[dict], keys: tuple[str, ...]) -> dict[tuple, list[dict]]:
    out: dict[tuple, list[dict]] = defaultdict(list)
    for r in records:
        out[tuple(r[k] for k in keys)].append(r)
    return dict(sorted(out.items(), key=lambda kv: tuple((0, x, "") if isinstance(x, (int, float)) else (1, 0, str(x))
                                                        for x in kv[0])))


def disagreeing_cells(disagreements: list[dict], records: list[dict]) -> list[dict]:
    """Disagreements grouped by (PE, task, L): how many of the cell's measurements disagree."""
    all_by_cell = _group([r for r in records if r["realizable"]], ("pe", "task", "length"))
    out = []
    for (pe, task, L), rs in _group(disagreements, ("pe", "task", "length")).items():
        cell = all_by_cell[(pe, task, L)]
        out.append({"pe": pe, "task": task, "length": L, "alpha": rs[0]["alpha"],
                    "disagreeing": len(rs), "measurements": len(cell),
                    "token_accuracy": _stats([r["token_accuracy"] for r in cell]),
                    "attention_accuracy": _stats([r["attention_accuracy"] for r in cell])})
    return out


def stability(records: list[dict], threshold: float, reference: tuple[int, int] = STABILITY_SETTING) -> dict:
    """Majority verdicts per (PE, task, L) at the reference (V, d) against every other setting."""
    by_setting = _group(records, ("vocab", "width"))
    if tuple(reference) not in by_setting:
        return {"reference": list(reference), "available": False,
                "reason": f"no measurement at (V, d) = {tuple(reference)} in this grid"}

    def majority(rs: list[dict]) -> dict[tuple, bool]:
        cells = _group(rs, ("pe", "task", "length"))
        return {k: 2 * sum(_verdict(r, threshold) for r in v) >= len(v) for k, v in cells.items()}

    ref = majority(by_setting[tuple(reference)])
    settings, mismatches = [], []
    for setting, rs in by_setting.items():
        table = contingency(rs, threshold)
        entry = {"vocab": setting[0], "width": setting[1], "measurements": len(rs),
                 "agreement_rate": table["agreement_rate"], "table": table["table"]}
        if setting != tuple(reference):
            other = majority(rs)
            shared = sorted(set(ref) & set(other), key=str)
            differ = [k for k in shared if ref[k] != other[k]]
            entry.update({"cells_compared": len(shared), "verdicts_matching_reference": len(shared) - len(differ)})
            mismatches += [{"pe": k[0], "task": k[1], "length": k[2], "vocab": setting[0], "width": setting[1],
                            "reference_generalizes": ref[k], "setting_generalizes": other[k]} for k in differ]
        settings.append(entry)
    compared = sum(s.get("cells_compared", 0) for s in settings)
    return {"reference": list(reference), "available": True, "settings": settings,
            "cell_verdicts_compared": compared, "cell_verdicts_matching": compared - len(mismatches),
            "all_match": not mismatches, "mismatches": mismatches}


def cell_curves(records: list[dict]) -> list[dict]:
    """Per (PE, task): α_L and token/attention accuracy (over seeds and settings) per length,
    with the accuracy at L0 and the mean token accuracy per (V, d) setting."""
    out = []
    for (pe, task), rs in _group(records, ("pe", "task")).items():
        by_length = _group(rs, ("length",))
        lengths = sorted(k[0] for k in by_length)
        L0 = rs[0]["train_length"]
        first_per_model = list(_group(rs, ("vocab", "width", "seed")).values())
        per_setting = {}
        for (V, d), srs in _group(rs, ("vocab", "width")).items():
            per_setting[f"{V}x{d}"] = {str(L): float(np.mean([r["token_accuracy"] for r in srs if r["length"] == L]))
                                       for L in lengths}
        out.append({
            "pe": pe, "task": task, "realizable": rs[0]["realizable"], "train_length": L0,
            "lengths": lengths,
            "alpha": {str(L): by_length[(L,)][0]["alpha"] for L in lengths},
            "train_token_accuracy": _stats([m[0]["train_token_accuracy"] for m in first_per_model]),
            "token_accuracy": {str(L): _stats([r["token_accuracy"] for r in by_length[(L,)]]) for L in lengths},
            "attention_accuracy": {str(L): _stats([r["attention_accuracy"] for r in by_length[(L,)]])
                                   for L in lengths},
            "token_accuracy_by_setting": per_setting,
        })
    return out


def summarize(records: list[dict], threshold: float | None = None) -> dict:
    """The summary document of a set of records (threshold: from the records' recipe by default)."""
    if not records:
        return {"measurements": 0, "reason": "no records"}
    if threshold is None:
        found = {r["recipe"]["threshold"] for r in records}
        if len(found) != 1:
            raise ValueError(f"records with several thresholds {sorted(found)}; pass one explicitly")
        threshold = found.pop()
    records = sorted(records, key=lambda r: (r["pe"], r["task"], r["vocab"], r["width"], r["seed"], r["length"]))
    main = contingency(records, threshold)
    unreal = [r for r in records if not r["realizable"]]
    n_unreal_gen = sum(_verdict(r, threshold) for r in unreal)
    return {
        "threshold": threshold,
        "measurements": len(records),
        "models": len({(r["pe"], r["task"], r["vocab"], r["width"], r["seed"]) for r in records}),
        "realizable_measurements": main["total"],
        "not_realizable": {"measurements": len(unreal), "generalizes": n_unreal_gen,
                           "fails": len(unreal) - n_unreal_gen,
                           "cells": sorted({f"{r['pe']} · {r['task']}" for r in unreal})},
        "table": main["table"],
        "agreeing": main["agreeing"],
        "agreement_rate": main["agreement_rate"],
        "disagreements": [_brief(r) for r in main["disagreements"]],
        "disagreeing_cells": disagreeing_cells(main["disagreements"], records),
        "stability": stability(records, threshold),
        "cells": cell_curves(records),
        "recipe": records[0]["recipe"],
        "model_seconds": round(sum(r["seconds"] for r in
                                   {(r["pe"], r["task"], r["vocab"], r["width"], r["seed"]): r
                                    for r in records}.values()), 2),
    }
