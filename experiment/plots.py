"""Figures of the experiment (matplotlib, Agg backend), written from a summary alone so that the
docs build can regenerate them from the committed ``docs/data/experiment/summary.json``.

Main result: :func:`write_figures` — one panel per (PE, task) cell: α_L of every witness
geometry (ℓ2 a line; ℓ∞ and ℓ1 their lo end with the [lo, hi] band) and the token accuracy of
each recipe's trained heads (mean over seeds and (V, d) settings, with its min–max band),
against L on a log scale, with the threshold.  One colour per recipe and one style per witness geometry in
every panel; both axis labels on every panel; the legend below the panels, outside the data (constrained
layout, so it is never cut off).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt
from posreal.theory.plots import save_figure

CELLS_FIGURE = "experiment-cells.png"
RECIPE_COLOURS = {"adam": "tab:blue", "signum": "tab:orange", "gd": "tab:green", "gd-positional": "tab:olive",
                  "signum-positional": "tab:purple"}
# (line width, marker size): a recipe drawn later is thinner, so identical curves leave the earlier one showing
RECIPE_WIDTHS = {"adam": (2.6, 5.0), "signum": (1.6, 3.4), "gd": (0.9, 2.2), "gd-positional": (1.3, 2.8),
                 "signum-positional": (1.0, 2.4)}
WITNESS_STYLES = {"l2": ("k", "^-", "α_L (ℓ2)"), "linf": ("tab:purple", "v--", "α_L (ℓ∞) lo–hi"),
                  "l1": ("tab:brown", "d:", "α_L (ℓ1) lo–hi"), "l2-limit": ("0.45", "s--", "α♯_L lo–hi")}


def _panel(ax: Any, pe: str, task: str, curves: dict[str, dict], witness: dict | None, threshold: float) -> None:
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
    if witness is not None and witness["realizable"]:
        for geometry, per_length in witness["alpha"].items():
            colour, style, label = WITNESS_STYLES.get(geometry, ("0.5", "x-", geometry))
            lo = [1.0] + [per_length[str(L)][0] for L in lengths]
            hi = [1.0] + [per_length[str(L)][1] for L in lengths]
            ax.plot(xs, lo, style, color=colour, ms=3, lw=1.0, label=label)
            if hi != lo:
                ax.fill_between(xs, lo, hi, color=colour, alpha=0.15, lw=0)
    elif witness is not None:
        ax.text(0.5, 0.55, "not realizable\nat L0", ha="center", va="center", transform=ax.transAxes,
                fontsize=7, color="0.35")
    ax.axhline(threshold, color="tab:red", lw=0.7, ls=":", label=f"threshold {threshold}")
    _axes(ax, xs)


def _axes(ax: Any, xs: list[int]) -> None:
    """Both axis labels on every panel, the same log-2 length axis and [0, 1] range everywhere."""
    ax.set_xscale("log", base=2)
    ax.set_xlim(min(xs) / 1.25, max(xs) * 1.25)
    ax.set_xticks(xs)
    ax.set_xticklabels([str(x) for x in xs], fontsize=6)
    ax.minorticks_off()
    ax.set_ylim(-0.05, 1.05)
    ax.tick_params(labelsize=6)
    ax.set_xlabel("L", fontsize=7)
    ax.set_ylabel("accuracy, α_L", fontsize=7)


def write_figures(summary: dict, out_dir: str | Path) -> list[Path]:
    """Write the experiment's figure into ``out_dir``: one panel per (PE, task), the mean token
    accuracy of every recipe (min–max band) and α_L of every witness; returns the paths."""
    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    recipes = summary["recipes"]
    curves: dict[tuple[str, str], dict[str, dict]] = {}
    for name, rs in recipes.items():
        for cell in rs["cells"]:
            curves.setdefault((cell["pe"], cell["task"]), {})[name] = cell
    witnesses = {(c["pe"], c["task"]): c for c in summary.get("witness_cells", [])}
    grid = summary.get("grid", {})
    pes = [p for p in grid.get("pes", []) if any(k[0] == p for k in curves)]
    pes += [p for p in dict.fromkeys(k[0] for k in curves) if p not in pes]
    tasks = [t for t in grid.get("tasks", []) if any(k[1] == t for k in curves)]
    tasks += [t for t in dict.fromkeys(k[1] for k in curves) if t not in tasks]
    fig, axes = plt.subplots(len(pes), len(tasks), figsize=(max(6.5, 2.3 * len(tasks) + 0.8), 1.9 * len(pes) + 1.8),
                             squeeze=False, layout="constrained")
    first = next(iter(next(iter(curves.values())).values()))
    xs = [first["train_length"], *first["lengths"]]
    for r, pe in enumerate(pes):
        for c, task in enumerate(tasks):
            ax = axes[r, c]
            if (pe, task) in curves:
                _panel(ax, pe, task, curves[(pe, task)], witnesses.get((pe, task)), summary["threshold"])
            else:
                _axes(ax, xs)
                ax.text(0.5, 0.5, "not measured", ha="center", va="center", transform=ax.transAxes, fontsize=7,
                        color="0.35", style="italic")
            ax.set_title(f"{pe} · {task}", fontsize=8)
    best = max(axes.flat, key=lambda ax: len(ax.get_legend_handles_labels()[0]))
    handles, labels = best.get_legend_handles_labels()
    fig.legend(handles, labels, loc="outside lower center", fontsize=7, ncol=min(4, max(1, len(labels))),
               frameon=False)
    rates = ", ".join(f"{name} {rs['agreement'].get('l2', 0) or 0:.3f}" for name, rs in recipes.items())
    fig.suptitle(f"trained heads against α_L: {summary['measurements']} measurements, threshold "
                 f"{summary['threshold']}\nagreement with α_L (ℓ2): {rates}", fontsize=9)
    path = out_dir / CELLS_FIGURE
    save_figure(fig, path, dpi=130, force=True)   # the run's own figure, redrawn by every run in the directory
    return [path]
