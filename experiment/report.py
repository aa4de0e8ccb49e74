"""The experiment's report in Markdown, written from a summary alone.

The summary is ``summary.json``, the contract of :func:`posreal.experiment.summary.summarize_run`; the report holds the
tables of the docs' Experiment page, and of ``posreal experiment --report SUMMARY``.

Main results:

* :func:`section` — one part of the report (``headline``, ``ladder``, ``agreement``, …; :data:`SECTIONS`);
* :func:`report` — every part in the page's order, each under its own heading;
* :func:`load_summary` — a summary file read and checked against the keys the report needs
  (:class:`ReportError`, naming the file and the key, when it is missing or not a summary).

The prediction of each recipe's own geometry is :data:`posreal.experiment.summary.OWN_PREDICTION`.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

from posreal.experiment.summary import OWN_PREDICTION
from posreal.runtime.markdown import ReportError, provenance, table


SUMMARY_PATH = "docs/data/experiment/summary.json"
REQUIRED_KEYS = ("measurements", "recipes", "threshold", "witness_cells", "provenance", "grid")


def load_summary(path: str | Path) -> dict:
    """The summary written by ``posreal experiment`` (its ``summary.json``), checked for the keys the report reads."""
    path = Path(path)
    if not path.is_file():
        raise ReportError(f"{path} is missing: write it with `posreal experiment --full --recipe all` "
                          "(its summary.json)")
    try:
        doc = json.loads(path.read_text())
    except json.JSONDecodeError as err:
        raise ReportError(f"{path} is not JSON: {err}") from err
    for key in REQUIRED_KEYS:
        if key not in doc:
            raise ReportError(f"{path} has no {key!r} (contract: posreal.experiment.summary.summarize_run)")
    return doc


SUMMARY_SOURCE = "docs/data/experiment/summary.json (written by posreal experiment)"
PREDICTION_LABELS = {"l2": "ℓ2", "l2-limit": "♯", "linf": "ℓ∞", "l1": "ℓ1"}
LADDER_MODEL = {"gd-positional": "positional loss, gradient descent (then the log-time flow)",
                "signum-positional": "positional loss, sign descent (diminishing steps)",
                "gd": "token model, normalized GD", "signum": "token model, Signum", "adam": "token model, Adam"}
LEFT_CAUSES = (("outside_not_converged", "outside α, run not converged"),
               ("outside_not_learned", "outside α, L0 not learned"),
               ("outside_direction", "outside α, converged: the direction trained is not the prediction's"),
               ("threshold_witness_silent", "verdict: interval ends differ (prediction silent)"),
               ("threshold_attention_inside", "verdict: attention inside α, token verdict across the cut"),
               ("threshold_attention_outside", "verdict: attention outside α"))


def _pct(x) -> str:
    return "—" if x is None else f"{100 * x:.1f} %"


def _stat(s: dict) -> str:
    return f"{s['mean']:.3f} [{s['min']:.3f}, {s['max']:.3f}]"


def _interval(a) -> str:
    lo, hi = a
    return f"{lo:.3f}" if lo == hi else f"[{lo:.3f}, {hi:.3f}]"


def _geometries(s: dict) -> list[str]:
    found = {g for rs in s["recipes"].values() for g in rs.get("agreement", {})}
    return [g for g in PREDICTION_LABELS if g in found] + sorted(found - set(PREDICTION_LABELS))


def _in_order(s: dict) -> dict:
    """The summary with its recipes in the grid's order and witnesses in ℓ2, ℓ∞, ℓ1 order (the JSON is key-sorted)."""
    names = [r["name"] for r in s["grid"].get("recipes", [])]
    names = [n for n in names if n in s["recipes"]] + sorted(set(s["recipes"]) - set(names))
    geoms = _geometries(s)
    recipes = {}
    for n in names:
        rs = dict(s["recipes"][n])
        rs["witnesses"] = {g: rs["witnesses"][g] for g in geoms if g in rs["witnesses"]}
        recipes[n] = rs
    return {**s, "recipes": recipes}


def _exp_headline(s: dict) -> str:
    prov = s["provenance"]
    peak = prov.get("peak_rss_mib") or {}
    loads = [entry for entry in prov.get("load_average", []) if entry]
    rows = [["measurements (all recipes)", s["measurements"]], ["trained models", s.get("models", "—")]]
    rows += [[f"measurements, recipe `{name}`", rs["measurements"]] for name, rs in s["recipes"].items()]
    rows += [["generalizes when token accuracy (positional-loss recipes: attention accuracy) ≥", s["threshold"]],
             ["wall time of the training run(s)", f"{prov['wall_seconds'] / 60:.1f} min"
              + (f" ({prov['runs_that_trained']} runs)" if prov.get("runs_that_trained", 1) > 1 else "")],
             ["CPU time of the training run(s), all processes",
              "not recorded by this run" if prov.get("cpu_seconds") is None else f"{prov['cpu_seconds'] / 60:.1f} min"],
             ["worker processes (--jobs)", ", ".join(str(j) for j in prov.get("jobs", [])) or "—"],
             ["models per minute", prov.get("models_per_minute", "—")],
             ["peak memory (parent + jobs × largest worker)", "—" if peak.get("bound") is None else
              f"{peak['bound']:.0f} MiB (parent {peak['parent']:.0f} MiB, "
              f"largest worker {peak['largest_child']:.0f} MiB)"]]
    if loads:
        rows.append(["load average (1 min) at start → end", "; ".join(
            f"{entry['start'][0]:.1f} → {entry['end'][0]:.1f}" for entry in loads)])
    return table(["", "value"], rows, SUMMARY_SOURCE)


def _frac(inside: int, total: int) -> str:
    return "—" if not total else f"{inside}/{total} ({100 * inside / total:.1f} %)"


def _need(s: dict, key: str) -> None:
    if key not in s:
        raise ReportError(f"{SUMMARY_PATH} has no {key!r}: regenerate it with `posreal experiment --full "
                          "--recipe all` (the attention agreement and the ladder came with issue 25)")


def _exp_ladder(s: dict) -> str:
    _need(s, "ladder")
    rows = []
    for row in s["ladder"]:
        conv = row["by_convergence"]
        thr = row["threshold"]
        left = row.get("left") or {}
        causes = "; ".join(f"{text}: {left[key]}" for key, text in LEFT_CAUSES if left.get(key)) or "nothing"
        rows.append([f"`{row['recipe']}`", LADDER_MODEL.get(row["recipe"], row["model"]),
                     f"α_L^({PREDICTION_LABELS.get(row['witness'], row['witness'])})",
                     _frac(row["inside"], row["measurements"]),
                     "—" if row["mean_absolute_error"] is None else f"{row['mean_absolute_error']:.3f}",
                     _frac(conv["converged"]["inside"], conv["converged"]["total"]),
                     _frac(conv["not converged"]["inside"], conv["not converged"]["total"]),
                     _frac(conv["not recorded"]["inside"], conv["not recorded"]["total"]),
                     f"{_pct(thr['agreement_rate'])} ({thr['agreeing']} of {thr['total']})", causes])
    return table(["recipe", "model and optimizer", "own prediction",
                  f"attention accuracy in α ± {s['attention_tolerance']}", "mean abs. error",
                  "… converged runs", "… not converged", "… not recorded",
                  "threshold verdict agrees", "what is left, by cause (measurements)"], rows, SUMMARY_SOURCE)


def _recipe_by_prediction(s: dict, cell: Callable[[dict | None], str | None], empty: str) -> str:
    """A table of recipes (rows) against the predictions (columns): ``cell`` of each recipe's prediction data, or
    ``empty`` when it gives None; a recipe's own prediction in bold."""
    geoms = _geometries(s)
    rows = []
    for name, rs in s["recipes"].items():
        row = [f"`{name}`"]
        for g in geoms:
            text = cell(rs["witnesses"].get(g))
            row.append(empty if text is None else f"**{text}**" if OWN_PREDICTION.get(name) == g else text)
        rows.append(row)
    return table(["recipe \\ prediction", *[f"α_L^({PREDICTION_LABELS.get(g, g)})" for g in geoms]], rows,
                 SUMMARY_SOURCE)


def _attention_cell(w: dict | None) -> str | None:
    a = None if w is None else w.get("attention")
    if not a or not a["measurements"]:
        return None
    return (f"{_frac(a['inside'], a['measurements'])}, MAE {a['mean_absolute_error']:.3f}; "
            f"{a['pairs_inside_by_mean']}/{a['pairs']} (cell, L) by mean")


def _agreement_cell(w: dict | None) -> str | None:
    if w is None:
        return None
    text = f"{_pct(w['agreement_rate'])} ({w['agreeing']} of {w['total']}"
    return text + (f"; {w['ends_differ']['measurements']} ends differ)" if w["ends_differ"]["measurements"] else ")")


def _exp_attention_agreement(s: dict) -> str:
    _need(s, "attention_tolerance")
    return _recipe_by_prediction(s, _attention_cell, "—")


def _exp_attention_outside(s: dict) -> str:
    rows = []
    for name, rs in s["recipes"].items():
        g = OWN_PREDICTION.get(name, "")
        w = rs["witnesses"].get(g)
        if not w or "attention" not in w:
            continue
        for c in w["attention"]["outside"]:
            rows.append([f"`{name}`", PREDICTION_LABELS.get(g, g), f"`{c['pe']}` · `{c['task']}`", c["length"],
                         _interval(c["alpha"]), f"{c['outside']} of {c['measurements']}",
                         _stat(c["attention_accuracy"]), c["not_converged"]])
    if not rows:
        return "**No measurement** outside its own witness.\n\n" + provenance(SUMMARY_SOURCE)
    return table(["recipe", "own prediction", "cell", "L", "α_L", "measurements outside", "attention accuracy mean "
                  "[min, max] (all the pair's measurements)", "of them not converged"], rows, SUMMARY_SOURCE)


def _exp_convergence_diagnostics(s: dict) -> str:
    _need(s, "drift_bound")
    rows = []
    for name, rs in s["recipes"].items():
        c = rs["convergence"]
        n = c["counts"]
        drift = c.get("drift")
        growth = c.get("margin_growth")
        where = ", ".join(f"`{x['pe']}` · `{x['task']}` ({x['models']})" for x in c["not_converged_cells"][:10])
        more = len(c["not_converged_cells"]) - 10
        rows.append([f"`{name}`", c["models"], n["converged"], n["not converged"], n["not recorded"],
                     "—" if drift is None else f"{drift['mean']:.2g} (max {drift['max']:.2g})",
                     "—" if growth is None else f"{c['margin_growing']} of {growth['n']}",
                     (where + (f", and {more} more cells" if more > 0 else "")) or "—"])
    return table(["recipe", "runs", "converged", "not converged", "not recorded", "drift 1 - cos(θ_T/2, θ_T), mean",
                  "training margin grew over [T/2, T]", "cells not converged (runs)"], rows, SUMMARY_SOURCE)


def _exp_limit_rows(s: dict) -> str:
    rows, notes = [], []
    for name, rs in s["recipes"].items():
        w = rs["witnesses"].get("l2-limit") or {}
        r = w.get("rows")
        if not r:
            continue
        rows.append([f"`{name}`", r["records"], r["decided_rows"], r["agreeing_rows"], r["exception_rows"],
                     r["undecided_rows"]])
        for e in r["exceptions"][:12]:
            notes.append(f"- `{name}`: `{e['pe']}` · `{e['task']}` at L = {e['length']}, {len(e['rows'])} row(s) "
                         f"({e['rows'][0]}{'…' if len(e['rows']) > 1 else ''}): α♯ says {e['predicted']} "
                         f"({e['class']}, {e['evidence']}), measured {e['measured']}, run {e['convergence']}")
        if len(r["exceptions"]) > 12:
            notes.append(f"- `{name}`: {len(r['exceptions']) - 12} more groups in the summary")
    if not rows:
        raise ReportError("the summary has no row-by-row comparison with α♯ (no positional-loss recipe)")
    out = table(["recipe", "measurements", "rows α♯ decides", "realized exactly when α♯ says won", "exceptions",
                 "rows α♯ leaves undecided"], rows, SUMMARY_SOURCE)
    return out + ("\n" + "\n".join(notes) + "\n" if notes else "")


def _exp_open_tie_instances(s: dict) -> str:
    _need(s, "positional_instances")
    rows = []
    for inst in s["positional_instances"]:
        if not inst.get("realizable"):
            rows.append([f"`{inst['certificate']}`", "not realizable", "", "", "", "", ""])
            continue
        per = []
        for name in ("gd-positional", "signum-positional"):
            e = inst["recipes"].get(name)
            if e is None:
                per.append("—")
                continue
            bad = e["against_alpha_sharp"]["disagreeing_rows"]
            per.append(f"{e['attention_accuracy']:.3f} ({e['convergence']['status']}; rows against α♯: "
                       f"{', '.join(map(str, bad)) if bad else 'none'})")
        rows.append([f"`{inst['certificate']}`", f"`{inst['task']}`", f"{inst['train_length']} → {inst['length']}",
                     f"{inst['alpha']:.3f}", _interval(inst["alpha_sharp"]), _interval(inst["alpha_linf"]), *per])
    return table(["certificate", "task", "L0 → L", "α_L", "α♯_L", "α_L^(∞)", "`gd-positional`: attention acc.",
                  "`signum-positional`: attention acc."], rows, SUMMARY_SOURCE)


def _exp_runs(s: dict) -> str:
    rows = []
    for r in s["runs"]:
        if not r.get("models_trained"):
            continue
        load = r.get("load_average") or {}
        rows.append([", ".join(f"`{n}`" for n in r.get("recipes", [])) or "—", r.get("included_from") or "this run",
                     r.get("started", "—"), r["models_trained"], f"{r['wall_seconds'] / 60:.1f} min",
                     "—" if r.get("cpu_seconds") is None else f"{r['cpu_seconds'] / 60:.1f} min", r.get("jobs", "—"),
                     "—" if not load else f"{load['start'][0]:.1f} → {load['end'][0]:.1f}"])
    return table(["recipes", "run", "started", "models (runs) trained", "wall time", "CPU time", "--jobs",
                  "load average (1 min) start → end"], rows, SUMMARY_SOURCE)


def _exp_recipes(s: dict) -> str:
    rows = []
    for name, rs in s["recipes"].items():
        r = rs["recipe"]
        opt = r.get("optimizer")
        if opt in ("gd-flow", "sign-descent"):     # the positional-loss recipes: θ alone, no tokens
            step = (f"{r['lr']}/β, then the log-time flow" if opt == "gd-flow"
                    else f"{r['lr']} (t + 1)^(-1/2)")
            steps = f"{r['steps']} (then σ = 8, 16, 24)" if opt == "gd-flow" else f"up to {r['steps']}"
            rows.append([f"`{name}`", opt, step, steps, "—", "— (no tokens)", r.get("dtype", "—"),
                         "ℓ2 (its limit: α♯)" if opt == "gd-flow" else "ℓ∞"])
            continue
        rows.append([f"`{name}`", r.get("optimizer", "—"), r.get("lr", "—"), r.get("steps", "—"),
                     r.get("momentum", "—") if r.get("optimizer") != "gd" else "—", r.get("batch", "—"),
                     r.get("dtype", "—"), PREDICTION_LABELS.get(OWN_PREDICTION.get(name, ""), "—")])
    return table(["recipe", "optimizer", "step size", "steps", "momentum", "batch", "arithmetic",
                  "implicit-bias geometry"], rows, SUMMARY_SOURCE)


def _exp_agreement(s: dict) -> str:
    out = _recipe_by_prediction(s, _agreement_cell, "not available")
    missing = {g: reason for rs in s["recipes"].values() for g, reason in rs.get("unavailable_witnesses", {}).items()}
    for g, reason in missing.items():
        out += f"\nWitness {PREDICTION_LABELS.get(g, g)} not available in this summary: {reason}.\n"
    return out


def _exp_separation(s: dict) -> str:
    rows = []
    for name, rs in s["recipes"].items():
        for g, w in rs["witnesses"].items():
            t = w["table"]
            rows.append([f"`{name}`", PREDICTION_LABELS.get(g, g), t["alpha_one"]["generalizes"],
                         t["alpha_one"]["fails"], t["alpha_below_one"]["generalizes"], t["alpha_below_one"]["fails"],
                         f"{w['ends_differ']['measurements']} ({w['ends_differ']['generalizes']} generalize)"])
    out = table(["recipe", "prediction", "α = 1, generalizes", "α = 1, fails", "α < 1, generalizes", "α < 1, fails",
                 "ends differ"], rows, SUMMARY_SOURCE)
    first = next(iter(s["recipes"].values()))
    nr = first.get("not_realizable") or {}
    if nr.get("measurements"):
        out += ("\nNot realizable at L0 (outside every table; the same cells in every geometry): "
                + ", ".join(f"`{c}`" for c in nr.get("cells", []))
                + "; " + "; ".join(f"`{name}`: {rs['not_realizable']['generalizes']} of "
                                   f"{rs['not_realizable']['measurements']} generalize"
                                   for name, rs in s["recipes"].items()) + ".\n")
    return out


def _exp_disagreements(s: dict) -> str:
    rows = []
    for name, rs in s["recipes"].items():
        for g, w in rs["witnesses"].items():
            for c in w["disagreeing_cells"]:
                kind = "α = 1, fails" if c["kind"] == "alpha_one_fails" else "α < 1, generalizes"
                rows.append([f"`{name}`", PREDICTION_LABELS.get(g, g), f"`{c['pe']}`", f"`{c['task']}`", c["length"],
                             _interval(c["alpha"]), kind, c["disagreeing"], _stat(c["token_accuracy"])])
    if not rows:
        return "**No disagreement** for any recipe and witness.\n\n" + provenance(SUMMARY_SOURCE)
    return table(["recipe", "prediction", "PE", "task", "L", "α_L", "kind", "disagreeing measurements",
                  "their token accuracy mean [min, max]"], rows, SUMMARY_SOURCE)


def _exp_ends_differ(s: dict) -> str:
    seen: dict[tuple, list] = {}
    for name, rs in s["recipes"].items():
        for g, w in rs["witnesses"].items():
            for c in w["ends_differ"]["cells"]:
                seen.setdefault((g, c["pe"], c["task"], c["length"], tuple(c["alpha"])), []).append(
                    f"`{name}` {c['generalizes']}/{c['measurements']}")
    if not seen:
        return "No interval witness has ends that differ on this grid.\n\n" + provenance(SUMMARY_SOURCE)
    rows = [[PREDICTION_LABELS.get(g, g), f"`{pe}`", f"`{task}`", L, _interval(a), "; ".join(v)]
            for (g, pe, task, L, a), v in seen.items()]
    return table(["prediction", "PE", "task", "L", "α_L [lo, hi]", "generalize, per recipe"], rows, SUMMARY_SOURCE)


def _exp_cosines(s: dict) -> str:
    geoms = _geometries(s)
    rows = []
    for name, rs in s["recipes"].items():
        row = [f"`{name}`"]
        for g in geoms:
            c = rs["witnesses"].get(g, {}).get("cosine") if g in rs["witnesses"] else None
            row.append("—" if not c or c["median"] is None else f"{c['median']:.3f} (min {c['min']:.3f})")
        rows.append(row)
    out = table(["recipe", *[f"cos(θ, θ*_{PREDICTION_LABELS.get(g, g)}) median" for g in geoms]], rows, SUMMARY_SOURCE)
    cells: dict[tuple, dict] = {}
    for name, rs in s["recipes"].items():
        for g, w in rs["witnesses"].items():
            for c in w["cosine"]["cells"]:
                cells.setdefault((c["pe"], c["task"]), {})[(name, g)] = c["mean"]
    cols = [(name, g) for name in s["recipes"] for g in geoms]
    rows = [[f"`{pe}` · `{task}`", *[("—" if (n, g) not in v else f"{v[(n, g)]:.3f}") for n, g in cols]]
            for (pe, task), v in cells.items()]
    if rows:
        out += "\nPer cell, mean over its models:\n\n" + table(
            ["cell", *[f"{n} · {PREDICTION_LABELS.get(g, g)}" for n, g in cols]], rows, SUMMARY_SOURCE)
    return out


def _exp_convergence(s: dict) -> str:
    rows = []
    for name, rs in s["recipes"].items():
        nl = rs["not_learned_at_train_length"]
        where = ", ".join(f"`{c['pe']}` · `{c['task']}` ({c['models']})" for c in nl["cells"]) or "—"
        rows.append([f"`{name}`", f"{nl['models']} of {nl['of']}", where])
    return table(["recipe", "realizable models below the threshold at L0", "cells (models)"], rows, SUMMARY_SOURCE)


def _exp_stability(s: dict) -> str:
    rows, notes = [], []
    for name, rs in s["recipes"].items():
        st = rs["stability"]
        if not st.get("available"):
            rows.append([f"`{name}`", "—", st.get("reason", "no reference setting")])
            continue
        rows.append([f"`{name}`", f"{st['cell_verdicts_matching']} of {st['cell_verdicts_compared']}",
                     "all match" if st.get("all_match") else f"{len(st.get('mismatches', []))} differ"])
        for m in st.get("mismatches", [])[:12]:
            notes.append(f"- `{name}`: `{m['pe']}` · `{m['task']}` at L = {m['length']}: reference "
                         f"{'generalizes' if m['reference_generalizes'] else 'fails'}, V = {m['vocab']}, "
                         f"d = {m['width']} {'generalizes' if m['setting_generalizes'] else 'fails'}")
    ref = next((rs["stability"]["reference"] for rs in s["recipes"].values() if rs["stability"].get("available")), None)
    head = f"majority verdicts per (PE, task, L) matching V = {ref[0]}, d = {ref[1]}" if ref else "matching"
    out = table(["recipe", head, ""], rows, SUMMARY_SOURCE)
    return out + ("\n" + "\n".join(notes) + "\n" if notes else "")


def _extensions(s: dict) -> list[str]:
    """The length extensions the summary holds (none: a summary written before extensions: a build error)."""
    found = list(dict.fromkeys(m for rs in s["recipes"].values() for m in rs.get("extensions", {})))
    order = [m for m in s["grid"].get("extensions", []) if m in found]
    found = order + [m for m in found if m not in order]          # the grid's order (the JSON is key-sorted)
    if not found:
        raise ReportError(f"{SUMMARY_PATH} holds no measurement under a length extension: regenerate it "
                          "with `posreal experiment --full --recipe all` (every head is evaluated under pi, ntk, yarn)")
    return found


def _exp_extension_agreement(s: dict) -> str:
    geoms = _geometries(s)
    rows = []
    for name, rs in s["recipes"].items():
        plain = [f"{_pct(rs['witnesses'][g]['agreement_rate'])} ({rs['witnesses'][g]['agreeing']} of "
                 f"{rs['witnesses'][g]['total']})" if g in rs["witnesses"] else "—" for g in geoms]
        att = rs["witnesses"].get("l2", {}).get("attention_verdict", {})
        rows.append([f"`{name}`", "none ($T_L$)", rs["measurements"], *plain, _pct(att.get("agreement_rate"))])
        for m in _extensions(s):
            e = rs["extensions"].get(m)
            if e is None:
                continue
            cells = []
            for g in geoms:
                w = e["witnesses"].get(g)
                cells.append("—" if w is None else
                             f"{_pct(w['agreement_rate'])} ({w['agreeing']} of {w['total']})")
            att = e["witnesses"].get("l2", {}).get("attention_verdict", {})
            rows.append([f"`{name}`", f"`{m}`", e["measurements"], *cells, _pct(att.get("agreement_rate"))])
    return table(["recipe", "extension", "measurements", *[f"agreement, α^σ,({PREDICTION_LABELS.get(g, g)})"
                                                          for g in geoms],
                  "agreement with the attention verdict, α^σ,(ℓ2)"], rows, SUMMARY_SOURCE)


def _exp_extension_cells(s: dict) -> str:
    recipes = list(s["recipes"])
    by: dict[tuple, dict] = {}
    for name, rs in s["recipes"].items():
        for m, e in rs.get("extensions", {}).items():
            for c in e["cells"]:
                key = (m, c["pe"], c["task"], c["length"])
                by.setdefault(key, {"alpha": c["alpha"]})[name] = c
    if not by:
        raise ReportError("the summary has no per-cell measurement under an extension")
    rank = {m: n for n, m in enumerate(_extensions(s))}
    rows = []
    for (m, pe, task, L), v in sorted(by.items(), key=lambda kv: (rank.get(kv[0][0], 99), *kv[0][1:])):
        per = []
        for name in recipes:
            c = v.get(name)
            per.append("—" if c is None else
                       f"{c['token_accuracy']['mean']:.2f} / {c['attention_accuracy']['mean']:.2f} "
                       f"({c['token_accuracy_without_extension']['mean']:.2f})")
        rows.append([f"`{m}`", f"`{pe}` · `{task}`", L, _interval(v["alpha"]), *per])
    return table(["extension", "cell", "L", "α_L^σ (ℓ2)", *[f"`{n}`: token / attention acc. (token acc. under T_L)"
                                                            for n in recipes]], rows, SUMMARY_SOURCE)


def _exp_extension_disagreements(s: dict) -> str:
    rows = []
    for name, rs in s["recipes"].items():
        for m in _extensions(s):
            e = rs.get("extensions", {}).get(m)
            if e is None:
                continue
            for g in _geometries(s):
                w = e["witnesses"].get(g)
                if w is None:
                    continue
                for c in w["disagreeing_cells"]:
                    kind = "α = 1, fails" if c["kind"] == "alpha_one_fails" else "α < 1, generalizes"
                    rows.append([f"`{name}`", f"`{m}`", PREDICTION_LABELS.get(g, g), f"`{c['pe']}` · `{c['task']}`",
                                 c["length"], _interval(c["alpha"]), kind, c["disagreeing"],
                                 _stat(c["token_accuracy"])])
    if not rows:
        return "**No disagreement** under any length extension.\n\n" + provenance(SUMMARY_SOURCE)
    return table(["recipe", "extension", "prediction", "cell", "L", "α_L^σ", "kind", "disagreeing measurements",
                  "their token accuracy mean [min, max]"], rows, SUMMARY_SOURCE)


SECTIONS: dict[str, Callable[[dict], str]] = {
    "headline": _exp_headline, "runs": _exp_runs, "recipes": _exp_recipes, "ladder": _exp_ladder,
    "attention-agreement": _exp_attention_agreement, "attention-outside": _exp_attention_outside,
    "convergence-diagnostics": _exp_convergence_diagnostics, "limit-rows": _exp_limit_rows,
    "open-tie-instances": _exp_open_tie_instances, "agreement": _exp_agreement, "separation": _exp_separation,
    "disagreements": _exp_disagreements, "ends-differ": _exp_ends_differ, "cosines": _exp_cosines,
    "convergence": _exp_convergence, "stability": _exp_stability,
    "extension-agreement": _exp_extension_agreement, "extension-cells": _exp_extension_cells,
    "extension-disagreements": _exp_extension_disagreements,
}
"""Part name -> its renderer (a summary in, Markdown out), in the report's order."""


def section(part: str, summary: dict) -> str:
    """One part of the report, from a summary read by :func:`load_summary`."""
    fn = SECTIONS.get(part)
    if fn is None:
        raise ReportError(f"unknown experiment part {part!r}; accepted: {', '.join(SECTIONS)}")
    return fn(_in_order(summary))


def report(summary: dict, source: str = SUMMARY_PATH) -> str:
    """Every part of the report in order, each under a heading; a part the summary cannot give is named, not dropped."""
    out = [f"# Experiment report\n\nFrom `{source}`.\n"]
    for part in SECTIONS:
        try:
            text = section(part, summary)
        except ReportError as err:
            text = f"Not in this summary: {err}\n"
        out.append(f"## {part}\n\n{text}")
    return "\n".join(out)
