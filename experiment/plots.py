"""Figures of the experiment (matplotlib, Agg backend), written from a summary alone so that the
docs build can regenerate them from the committed ``docs/data/experiment/summary.json``.

Main result: :func:`write_figures` — one panel per (PE, task) cell: α_L (the prediction, from
θ*), the token accuracy of the trained heads (mean over seeds and (V, d) settings, with its
min–max band) and their attention accuracy, against L on a log scale, with the threshold.
"""

from __future__ import annotations

from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

CELLS_FIGURE = "experiment-cells.png"


def _panel(ax, cell: dict, threshold: float) -> None:
    L0 = cell["train_length"]
    lengths = cell["lengths"]
    xs = [L0, *lengths]
    tok = [cell["train_token_accuracy"]] + [cell["token_accuracy"][str(L)] for L in lengths]
    ax.fill_between(xs, [t["min"] for t in tok], [t["max"] for t in tok], color="tab:blue", alpha=0.18, lw=0)
    ax.plot(xs, [t["mean"] for t in tok], "o-", color="tab:blue", ms=3, lw=1.2, label="token acc.")
    ax.plot(lengths, [cell["attention_accuracy"][str(L)]["mean"] for L in lengths], "s--", color="tab:green",
            ms=2.5, lw=0.9, label="attention acc.")
    if cell["realizable"]:
        ax.plot(xs, [1.0] + [cell["alpha"][str(L)] for L in lengths], "k^-", ms=3.5, lw=1.2, label="α_L")
    else:
        ax.text(0.5, 0.55, "not realizable\nat L0", ha="center", va="center", transform=ax.transAxes,
                fontsize=7, color="0.35")
    ax.axhline(threshold, color="tab:red", lw=0.7, ls=":")
    ax.set_xscale("log", base=2)
    ax.set_xticks(xs)
    ax.set_xticklabels([str(x) for x in xs], fontsize=6)
    ax.set_ylim(-0.05, 1.05)
    ax.tick_params(labelsize=6)


def write_figures(summary: dict, out_dir: str | Path) -> list[Path]:
    """Write the experiment's figures into ``out_dir``; returns their paths."""
    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    cells = summary["cells"]
    grid = summary.get("grid", {})  # the grid's order when the summary records it
    pes = [p for p in grid.get("pes", []) if any(c["pe"] == p for c in cells)]
    pes += [p for p in dict.fromkeys(c["pe"] for c in cells) if p not in pes]
    tasks = [t for t in grid.get("tasks", []) if any(c["task"] == t for c in cells)]
    tasks += [t for t in dict.fromkeys(c["task"] for c in cells) if t not in tasks]
    lookup = {(c["pe"], c["task"]): c for c in cells}
    fig, axes = plt.subplots(len(pes), len(tasks), figsize=(max(5.5, 1.9 * len(tasks) + 0.8), 1.6 * len(pes) + 1.2),
                             squeeze=False, sharex=True, sharey=True)
    for r, pe in enumerate(pes):
        for c, task in enumerate(tasks):
            ax = axes[r, c]
            if (pe, task) in lookup:
                _panel(ax, lookup[(pe, task)], summary["threshold"])
            else:
                ax.set_visible(False)
            if r == 0:
                ax.set_title(task, fontsize=8)
            if c == 0:
                ax.set_ylabel(pe, fontsize=8)
            if r == len(pes) - 1:
                ax.set_xlabel("L", fontsize=7)
    handles, labels = next((ax.get_legend_handles_labels() for ax in axes.flat
                            if len(ax.get_legend_handles_labels()[0]) == 3), axes[0, 0].get_legend_handles_labels())
    fig.legend(handles, labels, loc="lower center", fontsize=7, ncol=3, frameon=False)
    rate = summary.get("agreement_rate")
    rate_text = "n/a" if rate is None else f"{rate:.3f}"
    fig.suptitle(f"α_L against trained heads ({summary['measurements']} measurements; agreement {rate_text}; "
                 f"threshold {summary['threshold']})", fontsize=9, x=0.02, ha="left")
    fig.tight_layout(rect=(0, 0.05, 1, 0.95))
    path = out_dir / CELLS_FIGURE
    fig.savefig(path, dpi=130)
    plt.close(fig)
    return [path]
