"""Figures of the experiment (matplotlib, Agg backend), written from a summary alone.

The docs build can therefore regenerate them from the committed ``docs/data/experiment/summary.json``.

Main result: :func:`write_figures` — small multiples, one panel per (PE, task) cell that is realizable at
L0: α_L of every witness geometry (ℓ2 a line; ℓ∞ and ℓ1 their lo end with the [lo, hi] band) and the
token accuracy of each recipe's trained heads (mean over seeds and (V, d) settings, with its min–max band),
against L on a log scale, with the threshold.  A cell that is not realizable at L0 gets no panel: the figure's
title names those cells in words (their accuracies are in the summary's tables).

Readability at page width: at most :data:`COLUMNS` panels a row and a figure :data:`WIDTH` inches wide, with
no text under 9 pt, so that its text is at least 9.5 px on a 760 px page; one colour per recipe and one line
style and marker per witness, in two legends (recipes, witnesses) below the panels, outside the data
(constrained layout, so nothing is cut off); panel titles wrapped to the panel's width.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt
from matplotlib.lines import Line2D
from posreal.plots import length_ticks, save_figure, wrapped

CELLS_FIGURE = "experiment-cells.png"
COLUMNS = 4      # panels a row
WIDTH = 10.0     # inches: at page width (760 px) a 9 pt label is 9.5 px
RECIPE_COLOURS = {"adam": "tab:blue", "signum": "tab:orange", "gd": "tab:green", "gd-positional": "tab:olive",
                  "signum-positional": "tab:purple"}
# (line width, marker size): a recipe drawn later is thinner, so identical curves leave the earlier one showing
RECIPE_WIDTHS = {"adam": (2.6, 5.0), "signum": (1.6, 3.4), "gd": (0.9, 2.2), "gd-positional": (1.3, 2.8),
                 "signum-positional": (1.0, 2.4)}
PREDICTION_STYLES = {"l2": ("k", "^-", "α_L (ℓ2)"), "linf": ("0.3", "v--", "α_L (ℓ∞) lo–hi"),
                  "l1": ("0.45", "d:", "α_L (ℓ1) lo–hi"), "l2-limit": ("0.6", "s-.", "α♯_L lo–hi")}
# witnesses in black and greys, told apart by line style and marker: colour is the recipe's alone


def _panel(ax: Any, pe: str, task: str, curves: dict[str, dict], prediction: dict | None, threshold: float) -> None:
    first = next(iter(curves.values()))
    L0, lengths = first["train_length"], first["lengths"]
    xs = [L0, *lengths]
    for name, cell in curves.items():
        colour = RECIPE_COLOURS.get(name, "tab:gray")
        tok = [cell["train_token_accuracy"]] + [cell["token_accuracy"][str(L)] for L in lengths]
        ax.fill_between(xs, [t["min"] for t in tok], [t["max"] for t in tok], color=colour, alpha=0.12, lw=0)
        width, size = RECIPE_WIDTHS.get(name, (1.1, 2.5))
        measured = "attention" if name.endswith("-positional") else "token"     # no tokens in a positional run
        ax.plot(xs, [t["mean"] for t in tok], "o-", color=colour, ms=size, lw=width, label=f"{measured} acc. ({name})")
    if prediction is not None and prediction["realizable"]:
        for geometry, per_length in prediction["alpha"].items():
            colour, style, label = PREDICTION_STYLES.get(geometry, ("0.5", "x-", geometry))
            lo = [1.0] + [per_length[str(L)][0] for L in lengths]
            hi = [1.0] + [per_length[str(L)][1] for L in lengths]
            ax.plot(xs, lo, style, color=colour, ms=3, lw=1.0, label=label)
            if hi != lo:
                ax.fill_between(xs, lo, hi, color=colour, alpha=0.15, lw=0)
    elif prediction is not None:
        ax.text(0.5, 0.55, "not realizable\nat L0", ha="center", va="center", transform=ax.transAxes,
                fontsize=9, color="0.35")
    ax.axhline(threshold, color="tab:red", lw=0.7, ls=":", label=f"threshold {threshold}")
    _axes(ax, xs)


def _axes(ax: Any, xs: list[int]) -> None:
    """Both axis labels on every panel, the same log-2 length axis and [0, 1] range everywhere."""
    ax.set_xscale("log", base=2)
    ax.set_xlim(min(xs) / 1.25, max(xs) * 1.25)
    ticks = length_ticks(xs)
    ax.set_xticks(ticks)
    ax.set_xticklabels([str(x) for x in ticks], fontsize=9)
    ax.minorticks_off()
    ax.set_ylim(-0.05, 1.05)
    ax.tick_params(labelsize=9)
    ax.set_xlabel("L", fontsize=9)
    ax.set_ylabel("accuracy, α_L", fontsize=9)


def write_figures(summary: dict, out_dir: str | Path) -> list[Path]:
    """Write the experiment's figure into ``out_dir`` and return the paths.

    Write the experiment's figure into ``out_dir``: one panel per (PE, task) realizable at L0, the mean
    token accuracy of every recipe (min–max band) and α_L of every witness, the cells not realizable named in
    words; returns the paths."""
    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    recipes = summary["recipes"]
    curves: dict[tuple[str, str], dict[str, dict]] = {}
    for name, rs in recipes.items():
        for cell in rs["cells"]:
            curves.setdefault((cell["pe"], cell["task"]), {})[name] = cell
    predictions = {(c["pe"], c["task"]): c for c in summary.get("witness_cells", [])}
    grid = summary.get("grid", {})
    pes = [p for p in grid.get("pes", []) if any(k[0] == p for k in curves)]
    pes += [p for p in dict.fromkeys(k[0] for k in curves) if p not in pes]
    tasks = [t for t in grid.get("tasks", []) if any(k[1] == t for k in curves)]
    tasks += [t for t in dict.fromkeys(k[1] for k in curves) if t not in tasks]
    cells = [(pe, task) for pe in pes for task in tasks if (pe, task) in curves]
    shown = [c for c in cells if predictions.get(c) is None or predictions[c]["realizable"]]
    hidden = [c for c in cells if c not in shown]
    cols = min(COLUMNS, max(1, len(shown)))
    rows = max(1, -(-len(shown) // cols))
    width = WIDTH if cols == COLUMNS else max(5.0, WIDTH * cols / COLUMNS + 1.0)
    fig, axes = plt.subplots(rows, cols, figsize=(width, 2.3 * rows + 2.2), squeeze=False, layout="constrained")
    first = next(iter(next(iter(curves.values())).values()))
    xs = [first["train_length"], *first["lengths"]]
    for ax, (pe, task) in zip(axes.flat, shown):
        _panel(ax, pe, task, curves[(pe, task)], predictions.get((pe, task)), summary["threshold"])
        ax.set_title(wrapped(f"{pe} · {task}", width / cols - 0.3, 9), fontsize=9)
    if not shown:
        _axes(axes[0, 0], xs)
        axes[0, 0].text(0.5, 0.5, "no cell realizable at L0", ha="center", va="center",
                        transform=axes[0, 0].transAxes, fontsize=9, color="0.35", style="italic")
    for ax in axes.flat[max(1, len(shown)):]:
        ax.set_visible(False)
    recipe_handles = [Line2D([], [], color=RECIPE_COLOURS.get(n, "tab:gray"), marker="o", ms=4, lw=2,
                             label=("attention" if n.endswith("-positional") else "token") + f" acc. ({n})")
                      for n in recipes]
    geometries = list(dict.fromkeys(g for w in predictions.values() if w["realizable"] for g in w["alpha"]))
    prediction_handles = [Line2D([], [], color=PREDICTION_STYLES.get(g, ("0.5", "x-", g))[0],
                              linestyle=PREDICTION_STYLES.get(g, ("0.5", "x-", g))[1].lstrip("^vds"),
                              marker=PREDICTION_STYLES.get(g, ("0.5", "x-", g))[1][0], ms=4, lw=1.2,
                              label=PREDICTION_STYLES.get(g, ("0.5", "x-", g))[2]) for g in geometries]
    prediction_handles.append(Line2D([], [], color="tab:red", lw=1, ls=":", label=f"threshold {summary['threshold']}"))
    legend = fig.legend(handles=recipe_handles, title="trained heads (colour)", loc="outside lower left",
                        fontsize=9, title_fontsize=9, ncol=2, frameon=False)
    fig.add_artist(legend)
    fig.legend(handles=prediction_handles, title="witness (line, marker)", loc="outside lower right", fontsize=9,
               title_fontsize=9, ncol=2, frameon=False)
    rates = ", ".join(f"{name} {rs['agreement'].get('l2', 0) or 0:.3f}" for name, rs in recipes.items())
    title = (f"Trained heads against α_L: {summary['measurements']} measurements, threshold {summary['threshold']}. "
             f"Agreement with α_L (ℓ2): {rates}.")
    if hidden:
        title += (f"\nNot realizable at L0, so no panel ({len(hidden)} cell{'s' if len(hidden) > 1 else ''}): "
                  + ", ".join(f"{pe} · {task}" for pe, task in hidden) + ".")
    fig.suptitle(wrapped(title, width - 0.4, 10), fontsize=10)
    path = out_dir / CELLS_FIGURE
    save_figure(fig, path, dpi=100, force=True)   # the run's own figure, redrawn by every run in the directory
    return [path]
