"""Figures of the experiment (matplotlib, Agg backend), written from a summary alone so that the
docs build can regenerate them from the committed ``docs/data/experiment/summary.json``.

Main result: :func:`write_figures` — one panel per (PE, task) cell: α_L of every witness
geometry (ℓ2 a line; ℓ∞ and ℓ1 their lo end with the [lo, hi] band) and the token accuracy of
each recipe's trained heads (mean over seeds and (V, d) settings, with its min–max band),
against L on a log scale, with the threshold.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt

CELLS_FIGURE = "experiment-cells.png"
RECIPE_COLOURS = {"adam": "tab:blue", "signum": "tab:orange", "gd": "tab:green"}
WITNESS_STYLES = {"l2": ("k", "^-", "α_L (ℓ2)"), "linf": ("tab:purple", "v--", "α_L (ℓ∞) lo–hi"),
                  "l1": ("tab:brown", "d:", "α_L (ℓ1) lo–hi")}


def _panel(ax: Any, pe: str, task: str, curves: dict[str, dict], witness: dict | None, threshold: float) -> None:
    first = next(iter(curves.values()))
    L0, lengths = first["train_length"], first["lengths"]
    xs = [L0, *lengths]
    for name, cell in curves.items():
        colour = RECIPE_COLOURS.get(name, "tab:gray")
        tok = [cell["train_token_accuracy"]] + [cell["token_accuracy"][str(L)] for L in lengths]
        ax.fill_between(xs, [t["min"] for t in tok], [t["max"] for t in tok], color=colour, alpha=0.12, lw=0)
        ax.plot(xs, [t["mean"] for t in tok], "o-", color=colour, ms=2.5, lw=1.1, label=f"token acc. ({name})")
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
    ax.axhline(threshold, color="tab:red", lw=0.7, ls=":")
    ax.set_xscale("log", base=2)
    ax.set_xticks(xs)
    ax.set_xticklabels([str(x) for x in xs], fontsize=6)
    ax.set_ylim(-0.05, 1.05)
    ax.tick_params(labelsize=6)


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
    fig, axes = plt.subplots(len(pes), len(tasks), figsize=(max(5.5, 1.9 * len(tasks) + 0.8), 1.6 * len(pes) + 1.4),
                             squeeze=False, sharex=True, sharey=True)
    for r, pe in enumerate(pes):
        for c, task in enumerate(tasks):
            ax = axes[r, c]
            if (pe, task) in curves:
                _panel(ax, pe, task, curves[(pe, task)], witnesses.get((pe, task)), summary["threshold"])
            else:
                ax.set_visible(False)
            if r == 0:
                ax.set_title(task, fontsize=8)
            if c == 0:
                ax.set_ylabel(pe, fontsize=8)
            if r == len(pes) - 1:
                ax.set_xlabel("L", fontsize=7)
    best = max(axes.flat, key=lambda ax: len(ax.get_legend_handles_labels()[0]))
    handles, labels = best.get_legend_handles_labels()
    fig.legend(handles, labels, loc="lower center", fontsize=7, ncol=min(6, max(1, len(labels))), frameon=False)
    rates = ", ".join(f"{name} {rs['agreement'].get('l2', 0) or 0:.3f}" for name, rs in recipes.items())
    fig.suptitle(f"trained heads against α_L: {summary['measurements']} measurements, threshold "
                 f"{summary['threshold']}\nagreement with α_L (ℓ2): {rates}", fontsize=9, x=0.02, ha="left")
    fig.tight_layout(rect=(0, 0.07, 1, 0.95))
    path = out_dir / CELLS_FIGURE
    fig.savefig(path, dpi=130)
    plt.close(fig)
    return [path]
