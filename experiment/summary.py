"""The summary of a run.

Does α_L = 1 separate the measurements that generalize — per recipe, against the witness of every geometry?

Main definitions (the docs' Experiment page, "Verdict" and "Output"):

* a measurement *generalizes* when its token accuracy at L is ≥ the threshold (0.95 unless the
  recipe says otherwise); its *prediction* is α_L(Φ, τ; L0) = 1;
* the 2×2 contingency table (α_L = 1 or not) × (generalizes or not) over the cells realizable
  at L0; cells not realizable at L0 are counted apart and never enter the table;
* agreement rate = (measurements where prediction = verdict) / (measurements in the table);
  the disagreements are listed one by one and grouped by (PE, task, L);
* stability at (V, d) = (64, 128): per (PE, task, L) the verdict of a setting is that of the
  majority of its seeds (ties count as "generalizes"); the (64, 128) verdicts are compared with
  those of every other setting;
* per-cell curves (α_L and token accuracy against L) for :mod:`posreal.experiment.plots`;
* :func:`summarize_run` — one summary per recipe under ``"recipes"``: for every witness
  geometry q ∈ {l2, linf, l1} (:mod:`posreal.experiment.predictions`) the 2×2 table of
  (α_L^(q) = 1 or not) × (generalizes or not), where an interval witness [lo, hi] predicts
  only when both ends give the same verdict (lo = 1, or hi < 1); measurements whose ends differ
  count as not agreeing and are listed per cell; the agreement rate over every realizable
  measurement; the cosine of each trained θ to the witness's θ*_q; the (64, 128) stability;
  the models that did not learn the training length within the recipe's budget; and the run's
  provenance (wall time, peak memory, load, models per minute);
* :func:`extension_summary` — the same confrontation under each length-extension method σ: the
  measurements of the heads evaluated through T_L^σ (same θ, same sequences) against the witnesses
  α_L^σ,(q), one 2×2 table per (recipe, witness, extension), with the agreement, the disagreeing
  cells and per cell the predicted α_L^σ beside the measured accuracies (definitions.md#length-extension).
"""

from __future__ import annotations

from collections import defaultdict

import numpy as np
from posreal.experiment.convergence import DRIFT_BOUND, Status, status_of
from posreal.experiment.grid import STABILITY_SETTING
from posreal.experiment.recipes import LADDER

ATTENTION_TOL = 0.02
"""A measurement's attention accuracy lies *inside* its witness when lo - 0.02 ≤ accuracy ≤ hi + 0.02 (fixed before
any run, the same for every recipe, witness and cell)."""

OWN_PREDICTION = {"gd-positional": "l2-limit", "signum-positional": "linf", "gd": "l2", "signum": "linf",
               "adam": "linf"}
"""The witness of each recipe's own geometry: α♯ (the ℓ2 limit) for gradient descent on the positional loss,
α^(2) for normalized GD on the token model, α^(∞) for sign descent, Signum and Adam."""


def measured_accuracy(record: dict) -> float:
    """The accuracy a verdict reads.

    Token accuracy, or attention accuracy for a positional-loss record (it has no tokens)."""
    token = record["token_accuracy"]
    return record["attention_accuracy"] if token is None else token


def train_accuracy(record: dict) -> float:
    """The training accuracy of a record: token accuracy, or attention accuracy without tokens."""
    token = record.get("train_token_accuracy")
    return record["train_attention_accuracy"] if token is None else token


def _verdict(record: dict, threshold: float) -> bool:
    return measured_accuracy(record) >= threshold


def _stats(values: list[float]) -> dict:
    a = np.asarray(values, dtype=float)
    return {"mean": float(a.mean()), "min": float(a.min()), "max": float(a.max()), "n": int(a.size)}


def _brief(r: dict) -> dict:
    keys = ("pe", "task", "vocab", "width", "seed", "length", "alpha", "token_accuracy", "attention_accuracy",
            "train_token_accuracy", "theta_norm", "recipe")
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
                    "token_accuracy": _stats([measured_accuracy(r) for r in cell]),
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
    """Per (PE, task): α_L and token/attention accuracy per length.

    Per (PE, task): α_L and token/attention accuracy (over seeds and settings) per length,
    with the accuracy at L0 and the mean token accuracy per (V, d) setting."""
    out = []
    for (pe, task), rs in _group(records, ("pe", "task")).items():
        by_length = _group(rs, ("length",))
        lengths = sorted(k[0] for k in by_length)
        L0 = rs[0]["train_length"]
        first_per_model = list(_group(rs, ("vocab", "width", "seed")).values())
        per_setting = {}
        for (V, d), srs in _group(rs, ("vocab", "width")).items():
            per_setting[f"{V}x{d}"] = {str(L): float(np.mean([measured_accuracy(r) for r in srs if r["length"] == L]))
                                       for L in lengths}
        out.append({
            "pe": pe, "task": task, "realizable": rs[0]["realizable"], "train_length": L0,
            "lengths": lengths,
            "alpha": {str(L): by_length[(L,)][0]["alpha"] for L in lengths},
            "train_token_accuracy": _stats([train_accuracy(m[0]) for m in first_per_model]),
            "token_accuracy": {str(L): _stats([measured_accuracy(r) for r in by_length[(L,)]]) for L in lengths},
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


# --------------------------------------------------------------------------- recipes × witnesses
def prediction_table(records: list[dict], prediction: dict, threshold: float) -> dict:
    """2×2 table of one recipe's realizable measurements against one geometry's witness.

    ``prediction`` maps (pe, task) to a :class:`~posreal.experiment.predictions.Prediction`."""
    table = {"alpha_one": {"generalizes": 0, "fails": 0}, "alpha_below_one": {"generalizes": 0, "fails": 0}}
    differ: dict[tuple, list[dict]] = defaultdict(list)
    disagreements = []
    cosines: dict[tuple, list[float]] = defaultdict(list)
    seen_models = set()
    for r in records:
        if not r["realizable"]:
            continue
        w = prediction[(r["pe"], r["task"])]
        lo, hi = w.alpha[r["length"]]
        verdict = _verdict(r, threshold)
        model = (r["pe"], r["task"], r["vocab"], r["width"], r["seed"])
        if model not in seen_models and w.theta is not None:
            seen_models.add(model)
            cos = cosine(r["theta"], w.theta)
            if cos is not None:
                cosines[(r["pe"], r["task"])].append(cos)
        if (lo == 1.0) != (hi == 1.0):
            differ[(r["pe"], r["task"], r["length"])].append(r)
            continue
        predicted = lo == 1.0
        table["alpha_one" if predicted else "alpha_below_one"]["generalizes" if verdict else "fails"] += 1
        if predicted != verdict:
            disagreements.append(r)
    by_status: dict[str, dict[str, int]] = {st.value: {"agreeing": 0, "total": 0} for st in Status}
    for r in records:
        if r["realizable"]:
            lo, hi = prediction[(r["pe"], r["task"])].alpha[r["length"]]
            entry = by_status[status_of(r).value]
            entry["total"] += 1
            entry["agreeing"] += (lo == 1.0) == (hi == 1.0) and (lo == 1.0) == _verdict(r, threshold)
    determined = sum(sum(row.values()) for row in table.values())
    n_differ = sum(len(v) for v in differ.values())
    total = determined + n_differ
    agreeing = table["alpha_one"]["generalizes"] + table["alpha_below_one"]["fails"]
    cells = []
    for (pe, task, L), rs in _group(disagreements, ("pe", "task", "length")).items():
        lo, hi = prediction[(pe, task)].alpha[L]
        cells.append({"pe": pe, "task": task, "length": L, "alpha": [lo, hi], "disagreeing": len(rs),
                      "kind": "alpha_one_fails" if lo == 1.0 else "alpha_below_one_generalizes",
                      "token_accuracy": _stats([measured_accuracy(r) for r in rs])})
    all_cos = [c for v in cosines.values() for c in v]
    return {
        "geometry": next(iter(prediction.values())).geometry if prediction else None,
        "table": table, "determined": determined, "agreeing": agreeing, "total": total,
        "agreement_rate": agreeing / total if total else None,
        "ends_differ": {"measurements": n_differ,
                        "generalizes": sum(_verdict(r, threshold) for v in differ.values() for r in v),
                        "cells": [{"pe": k[0], "task": k[1], "length": k[2],
                                   "alpha": list(prediction[k[:2]].alpha[k[2]]), "measurements": len(v),
                                   "generalizes": sum(_verdict(r, threshold) for r in v)}
                                  for k, v in sorted(differ.items(), key=lambda kv: str(kv[0]))]},
        "disagreeing_cells": cells,
        "by_convergence": by_status,
        "cosine": {"median": float(np.median(all_cos)) if all_cos else None,
                   "mean": float(np.mean(all_cos)) if all_cos else None,
                   "min": float(np.min(all_cos)) if all_cos else None, "models": len(all_cos),
                   "cells": [{"pe": k[0], "task": k[1], **_stats(v)} for k, v in sorted(cosines.items())]},
    }


def cosine(a: list[float] | np.ndarray, b: np.ndarray) -> float | None:
    """cos(a, b); None when either is zero."""
    u, v = np.asarray(a, dtype=float), np.asarray(b, dtype=float)   # (p,), (p,)
    nu, nv = float(np.linalg.norm(u)), float(np.linalg.norm(v))
    if nu == 0.0 or nv == 0.0 or u.shape != v.shape:
        return None
    return float(u @ v / (nu * nv))


def not_learned(records: list[dict], threshold: float) -> dict:
    """Realizable models whose token accuracy at L0 stays below the threshold (not converged within budget)."""
    models = {(r["pe"], r["task"], r["vocab"], r["width"], r["seed"]): r for r in records if r["realizable"]}
    low = [r for r in models.values() if train_accuracy(r) < threshold]
    by_cell = _group(low, ("pe", "task"))
    return {"models": len(low), "of": len(models), "threshold": threshold,
            "cells": [{"pe": k[0], "task": k[1], "models": len(v),
                       "train_token_accuracy": _stats([train_accuracy(r) for r in v])}
                      for k, v in by_cell.items()]}


def attention_verdict(records: list[dict], prediction: dict, threshold: float) -> dict:
    """The 2×2 table with the attention verdict in place of the token verdict.

    The 2×2 table with the attention verdict (the argmax on the target on ≥ threshold of the rows) in place of
    the token verdict: what α_L counts, while token accuracy also needs the softmax to concentrate on the target."""
    by_attention = prediction_table([{**r, "token_accuracy": r["attention_accuracy"]} for r in records], prediction,
                                 threshold)
    return {"table": by_attention["table"], "agreement_rate": by_attention["agreement_rate"]}


def extension_records(records: list[dict], method: str) -> list[dict]:
    """The records measured under ``method``, with their accuracies and verdict replaced by those under it."""
    out = []
    for r in records:
        m = r.get("extensions", {}).get(method)
        if m is not None:
            out.append({**r, "token_accuracy": m["token_accuracy"], "attention_accuracy": m["attention_accuracy"]})
    return out


def extension_cells(projected: list[dict], plain: list[dict], prediction: dict, threshold: float) -> list[dict]:
    """Per (PE, task, L) realizable at L0: α_L^σ beside the measured accuracies under σ.

    Per (PE, task, L) realizable at L0: α_L^σ of the ℓ2 witness beside the measured token and attention
    accuracy under σ, and the token accuracy of the same heads without extension (T_L)."""
    plain_by = _group([r for r in plain if r["realizable"]], ("pe", "task", "length"))
    out = []
    for (pe, task, L), rs in _group([r for r in projected if r["realizable"]], ("pe", "task", "length")).items():
        lo, hi = prediction[(pe, task)].alpha[L]
        out.append({"pe": pe, "task": task, "length": L, "alpha": [lo, hi], "measurements": len(rs),
                    "token_accuracy": _stats([r["token_accuracy"] for r in rs]),
                    "attention_accuracy": _stats([r["attention_accuracy"] for r in rs]),
                    "generalizes": sum(_verdict(r, threshold) for r in rs),
                    "token_accuracy_without_extension": _stats([r["token_accuracy"]
                                                                for r in plain_by.get((pe, task, L), rs)])})
    return out


def extension_summary(records: list[dict], method: str, predictions: dict, threshold: float) -> dict:
    """One recipe under one length extension.

    Per witness geometry the 2×2 table of α_L^σ,(q) = 1 against "generalizes under σ", and the per-cell predictions
    beside the measurements."""
    projected = extension_records(records, method)
    out: dict = {"method": method, "measurements": len(projected), "witnesses": {}, "agreement": {},
                 "unavailable_witnesses": {}}
    for geometry, prediction in predictions.items():
        if isinstance(prediction, str):
            out["unavailable_witnesses"][geometry] = prediction
            out["agreement"][geometry] = None
            continue
        table = prediction_table(projected, prediction, threshold)
        table.pop("cosine")      # the same θ as without extension: the cosines are the plain summary's
        table["attention_verdict"] = attention_verdict(projected, prediction, threshold)
        out["witnesses"][geometry] = table
        out["agreement"][geometry] = table["agreement_rate"]
    l2 = predictions.get("l2")
    out["cells"] = extension_cells(projected, records, l2, threshold) if isinstance(l2, dict) else []
    return out


def summarize_recipe(records: list[dict], predictions: dict, threshold: float,
                     extension_predictions: dict | None = None) -> dict:
    """One recipe's summary.

    ``predictions`` maps a geometry name to its per-cell witnesses (or to a reason string when that geometry is
    unavailable); ``extension_predictions`` maps a length-extension method to such a mapping
    (:func:`posreal.experiment.predictions.compute_extension_predictions`)."""
    base = summarize(records, threshold)
    out = {k: base[k] for k in ("measurements", "models", "realizable_measurements", "not_realizable", "recipe",
                                "cells", "stability", "model_seconds")}
    out["witnesses"] = {}
    out["agreement"] = {}
    out["unavailable_witnesses"] = {}
    for geometry, prediction in predictions.items():
        if isinstance(prediction, str):
            out["unavailable_witnesses"][geometry] = prediction
            out["agreement"][geometry] = None
            continue
        table = prediction_table(records, prediction, threshold)
        table["attention_verdict"] = attention_verdict(records, prediction, threshold)
        table["left"] = residuals(records, prediction, threshold)
        out["witnesses"][geometry] = table
        out["agreement"][geometry] = table["agreement_rate"]
    out["model"] = "positional" if records and records[0].get("model") == "positional" else "token"
    for geometry, prediction in predictions.items():
        if isinstance(prediction, str):
            continue
        out["witnesses"][geometry]["attention"] = attention_agreement(records, prediction)
        rows = row_agreement(records, prediction)
        if rows is not None:
            out["witnesses"][geometry]["rows"] = rows
    out["convergence"] = convergence_summary(records)
    out["not_learned_at_train_length"] = not_learned(records, threshold)
    out["extensions"] = {method: extension_summary(records, method, per, threshold)
                         for method, per in (extension_predictions or {}).items()
                         if base["recipe"].get("optimizer") not in ("gd-flow", "sign-descent")}   # no tokens: none
    return out


def provenance(runs: list[dict]) -> dict:
    """Totals over the runs that trained models: wall time, models per minute, peak memory, load."""
    trained = [r for r in runs if r.get("models_trained")]
    wall = sum(r["wall_seconds"] for r in trained)
    models = sum(r["models_trained"] for r in trained)
    peaks = [r["peak_rss_mib"] for r in trained if isinstance(r.get("peak_rss_mib"), dict)]
    return {
        "runs_that_trained": len(trained), "models_trained": models, "wall_seconds": round(wall, 2),
        "cpu_seconds": (round(sum(r["cpu_seconds"] for r in trained), 2)
                        if trained and all("cpu_seconds" in r for r in trained) else None),
        "models_per_minute": round(60 * models / wall, 2) if wall > 0 else None,
        "jobs": sorted({r["jobs"] for r in trained}),
        "peak_rss_mib": {"parent": max((p["parent"] for p in peaks), default=None),
                         "largest_child": max((p["largest_child"] for p in peaks), default=None),
                         "bound": max((p["parent"] + r["jobs"] * p["largest_child"]
                                       for r, p in zip(trained, peaks)), default=None)},
        "load_average": [r.get("load_average") for r in trained],
    }


def summarize_run(records: list[dict], grid, runs: list[dict], predictions: dict | None = None,
                  extension_predictions: dict | None = None) -> dict:
    """The summary document of a run: every recipe against every witness, with provenance.

    ``grid`` is the :class:`~posreal.experiment.grid.Grid` (its PEs, tasks, lengths, threshold);
    ``predictions`` defaults to :func:`posreal.experiment.predictions.compute_predictions` over it, and
    ``extension_predictions`` to :func:`posreal.experiment.predictions.compute_extension_predictions` for the grid's
    length extensions that the records were measured under."""
    from posreal.experiment.predictions import compute_extension_predictions, compute_predictions, prediction_summary
    threshold = grid.threshold
    if predictions is None:
        predictions = compute_predictions(grid.pes, grid.tasks, grid.train_length, grid.lengths)
    if extension_predictions is None:
        measured = sorted({m for r in records for m in r.get("extensions", {})})
        names = [m for m in getattr(grid, "extensions", ()) if m in measured]
        extension_predictions = compute_extension_predictions(grid.pes, grid.tasks, grid.train_length, grid.lengths,
                                                          names)
    by_recipe: dict[str, list[dict]] = defaultdict(list)
    for r in records:
        by_recipe[r["recipe"]["name"]].append(r)
    order = [r.name for r in grid.recipes] + sorted(set(by_recipe) - {r.name for r in grid.recipes})
    recipes = {name: summarize_recipe(by_recipe[name], predictions, threshold, extension_predictions)
               for name in order if by_recipe.get(name)}
    return {
        "threshold": threshold,
        "measurements": len(records),
        "models": len({(r["recipe"]["name"], r["pe"], r["task"], r["vocab"], r["width"], r["seed"]) for r in records}),
        "grid": grid.to_json(),
        "recipes": recipes,
        "ladder": ladder(recipes, LADDER),
        "attention_tolerance": ATTENTION_TOL,
        "drift_bound": DRIFT_BOUND,
        "witness_cells": prediction_summary(predictions),
        "runs": runs,
        "provenance": provenance(runs),
    }


# --------------------------------------------------------------------------- attention accuracy against α, as numbers
def distance_to(value: float, interval: tuple[float, float]) -> float:
    """How far ``value`` lies outside [lo, hi] (0 inside)."""
    lo, hi = interval
    return max(0.0, lo - value, value - hi)


def attention_agreement(records: list[dict], prediction: dict, tol: float = ATTENTION_TOL) -> dict:
    """Attention accuracy against α_L^(q) of one witness, over the realizable measurements.

    The fraction inside [lo - tol, hi + tol], the mean absolute error (distance to the interval), per convergence
    status, and the (cell, length) pairs with a measurement outside (how many, their mean accuracy).  Measurements
    where α_L is not defined (a length without a value: NaN) are counted apart."""
    inside = total = 0
    errors: list[float] = []
    counts = {st.value: [0, 0] for st in Status}                 # status -> [inside, total]
    status_errors: dict[str, list[float]] = {st.value: [] for st in Status}
    outside: dict[tuple, list[dict]] = defaultdict(list)
    per_pair: dict[tuple, list[dict]] = defaultdict(list)
    undefined = 0
    for r in records:
        if not r["realizable"]:
            continue
        lo, hi = prediction[(r["pe"], r["task"])].alpha[r["length"]]
        if not (np.isfinite(lo) and np.isfinite(hi)):
            undefined += 1
            continue
        err = distance_to(r["attention_accuracy"], (lo, hi))
        ok = err <= tol
        total += 1
        inside += ok
        errors.append(err)
        st = status_of(r).value
        counts[st][0] += ok
        counts[st][1] += 1
        status_errors[st].append(err)
        per_pair[(r["pe"], r["task"], r["length"])].append(r)
        if not ok:
            outside[(r["pe"], r["task"], r["length"])].append(r)
    pairs_inside = sum(distance_to(float(np.mean([r["attention_accuracy"] for r in rs])),
                                   prediction[k[:2]].alpha[k[2]]) <= tol for k, rs in per_pair.items())
    return {
        "tolerance": tol, "measurements": total, "inside": inside,
        "fraction_inside": inside / total if total else None,
        "mean_absolute_error": float(np.mean(errors)) if errors else None,
        "undefined": undefined,
        "pairs": len(per_pair), "pairs_inside_by_mean": pairs_inside,
        "by_convergence": {k: {"inside": v[0], "total": v[1],
                               "mean_absolute_error": float(np.mean(status_errors[k])) if status_errors[k] else None}
                           for k, v in counts.items()},
        "outside": [{"pe": k[0], "task": k[1], "length": k[2], "alpha": list(prediction[k[:2]].alpha[k[2]]),
                     "outside": len(v), "measurements": len(per_pair[k]),
                     "attention_accuracy": _stats([r["attention_accuracy"] for r in per_pair[k]]),
                     "not_converged": sum(status_of(r) is Status.NOT_CONVERGED for r in v)}
                    for k, v in sorted(outside.items(), key=lambda kv: str(kv[0]))],
    }


def row_agreement(records: list[dict], prediction: dict) -> dict | None:
    """Row by row, whether each row the witness decides is realized exactly when it is won.

    Row by row, for records that list their realized rows and a witness with per-row verdicts (α♯): on every row
    the witness decides (won / lost), is the row realized exactly when it is won?  Exceptions listed with the row's
    class and the evidence that decided it.  None when no record or witness has rows."""
    decided = agreeing = undecided = checked = 0
    exceptions: dict[tuple, list[int]] = defaultdict(list)
    for r in records:
        if not r["realizable"] or "realized_rows" not in r:
            continue
        w = prediction[(r["pe"], r["task"])]
        verdicts = (w.rows or {}).get(r["length"])
        if verdicts is None:
            continue
        checked += 1
        realized = set(r["realized_rows"])
        for row, (verdict, cls, evidence) in verdicts.items():
            if verdict == "undecided":
                undecided += 1
                continue
            decided += 1
            if (row in realized) == (verdict == "won"):
                agreeing += 1
            else:
                key = (r["pe"], r["task"], r["length"], verdict, cls, evidence, status_of(r).value)
                exceptions[key].append(row)
    if not checked:
        return None
    return {"records": checked, "decided_rows": decided, "agreeing_rows": agreeing, "undecided_rows": undecided,
            "exception_rows": sum(len(v) for v in exceptions.values()),
            "exceptions": [{"pe": k[0], "task": k[1], "length": k[2], "predicted": k[3],
                            "measured": "lost" if k[3] == "won" else "won", "class": k[4], "evidence": k[5],
                            "convergence": k[6], "rows": v}
                           for k, v in sorted(exceptions.items(), key=lambda kv: str(kv[0]))]}


def convergence_summary(records: list[dict]) -> dict:
    """Per run (model): converged, not converged or not recorded, with drift and margin-growth statistics."""
    models = {(r["pe"], r["task"], r["vocab"], r["width"], r["seed"]): r for r in records}
    counts = {st.value: 0 for st in Status}
    drifts, growth = [], []
    not_converged = []
    for r in models.values():
        st = status_of(r)
        counts[st.value] += 1
        conv = r.get("convergence")
        if isinstance(conv, dict):
            if conv.get("drift") is not None:
                drifts.append(conv["drift"])
            if conv.get("margin_mid") is not None and conv.get("margin_end") is not None:
                growth.append(conv["margin_end"] - conv["margin_mid"])
            if st is Status.NOT_CONVERGED:
                not_converged.append((r["pe"], r["task"]))
    cells: dict[tuple, int] = defaultdict(int)
    for k in not_converged:
        cells[k] += 1
    return {"drift_bound": DRIFT_BOUND, "models": len(models), "counts": counts,
            "drift": _stats(drifts) if drifts else None,
            "margin_growth": _stats(growth) if growth else None,
            "margin_growing": sum(g > 0 for g in growth),
            "not_converged_cells": [{"pe": k[0], "task": k[1], "models": v} for k, v in sorted(cells.items())]}


def ladder(recipes: dict, order: tuple[str, ...]) -> list[dict]:
    """One row per recipe of ``order`` present in ``recipes``.

    ``recipes`` holds summaries of :func:`summarize_recipe`.  Each row gives the recipe's own witness, the attention
    accuracy against it (fraction inside, mean absolute error, converged apart), the threshold agreement, and what
    is left, by cause: measurements outside the witness that did not converge, that did not learn L0, or neither
    (the direction the run took is not the witness's); threshold disagreements where the witness is silent (interval
    ends differ), where the attention accuracy is inside the witness (the token verdict's cut and readout) and where
    it is not."""
    out = []
    for name in order:
        rs = recipes.get(name)
        if rs is None:
            continue
        geometry = OWN_PREDICTION.get(name, "l2")
        w = rs["witnesses"].get(geometry)
        if w is None:
            continue
        att = w["attention"]
        out.append({
            "recipe": name, "witness": geometry, "model": rs.get("model", "token"),
            "measurements": att["measurements"], "inside": att["inside"], "fraction_inside": att["fraction_inside"],
            "mean_absolute_error": att["mean_absolute_error"], "by_convergence": att["by_convergence"],
            "pairs_outside": len(att["outside"]),
            "threshold": {"agreeing": w["agreeing"], "total": w["total"], "agreement_rate": w["agreement_rate"],
                          "ends_differ": w["ends_differ"]["measurements"]},
            "rows": w.get("rows"), "left": w.get("left"),
        })
    return out


def residuals(records: list[dict], prediction: dict, threshold: float, tol: float = ATTENTION_TOL) -> dict:
    """What is left against one witness, by cause (see :func:`ladder`)."""
    out = {"outside_not_converged": 0, "outside_not_learned": 0, "outside_direction": 0,
           "threshold_witness_silent": 0, "threshold_attention_inside": 0, "threshold_attention_outside": 0}
    for r in records:
        if not r["realizable"]:
            continue
        lo, hi = prediction[(r["pe"], r["task"])].alpha[r["length"]]
        if not (np.isfinite(lo) and np.isfinite(hi)):
            continue
        inside = distance_to(r["attention_accuracy"], (lo, hi)) <= tol
        if not inside:
            if status_of(r) is Status.NOT_CONVERGED:
                out["outside_not_converged"] += 1
            elif train_accuracy(r) < threshold:
                out["outside_not_learned"] += 1
            else:
                out["outside_direction"] += 1
        if (lo == 1.0) != (hi == 1.0):
            out["threshold_witness_silent"] += 1
        elif (lo == 1.0) != _verdict(r, threshold):
            out["threshold_attention_inside" if inside else "threshold_attention_outside"] += 1
    return out
