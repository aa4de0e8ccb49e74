"""Figures (matplotlib, Agg backend): α_L against L for the taxonomy.

* :func:`plot_taxonomy` — one panel per PE, one curve per realizable task;
* :func:`plot_geometries` — one panel per optimizer geometry, the α interval as a band;
* :func:`plot_extensions` — one panel per (PE, task) cell, one curve per length-extension method.
Each refuses an empty figure (no cells, no geometries, no method) with a one-line :class:`SpecError`.
"""

from __future__ import annotations

import matplotlib
from posreal.theory.errors import SpecError

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def plot_taxonomy(docs: list[dict], lengths: list[int], path: str) -> None:
    """One panel per PE, one curve per realizable task; ``docs`` are ``posreal alpha --json`` objects."""
    if not docs:
        raise SpecError("invalid taxonomy plot: no cells; accepted: one or more posreal alpha --json documents")
    pes = list(dict.fromkeys(d["pe"] for d in docs))
    cols = min(4, len(pes))
    nrows = -(-len(pes) // cols)
    fig, axes = plt.subplots(nrows, cols, figsize=(3.6 * cols, 2.9 * nrows), squeeze=False, sharey=True)
    for ax, pe in zip(axes.flat, pes):
        for d in (d for d in docs if d["pe"] == pe):
            if d["realizable"]:
                ax.plot(lengths, [d["alpha"][str(L)] for L in lengths], marker="o", ms=3, label=d["task"])
        ax.set_title(pe, fontsize=10)
        ax.set_xscale("log", base=2)
        ax.set_ylim(-0.05, 1.05)
        ax.set_xlabel("L")
        if ax.get_legend_handles_labels()[0]:
            ax.legend(fontsize=7)
        else:
            ax.text(0.5, 0.5, "no realizable task", ha="center", va="center", transform=ax.transAxes, fontsize=8)
    for ax in axes.flat[len(pes):]:
        ax.set_visible(False)
    axes[0, 0].set_ylabel("α_L")
    fig.suptitle(f"α_L against L (train length {docs[0]['train_length']})", fontsize=11)
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)


def plot_geometries(by_geometry: dict[str, list[dict]], lengths: list[int], path: str) -> None:
    """α_L of every realizable cell against L, one panel per geometry; an interval [lo, hi] is a band.
    ``by_geometry``: geometry name -> ``posreal alpha --json`` documents of the same cells."""
    names = list(by_geometry)
    if not names:
        raise SpecError("invalid geometry plot: no geometries; accepted: one or more geometry names "
                        "with their posreal alpha --json documents")
    fig, axes = plt.subplots(1, len(names), figsize=(4.2 * len(names), 3.4), squeeze=False, sharey=True)
    for ax, name in zip(axes.flat, names):
        for d in by_geometry[name]:
            if not d["realizable"]:
                continue
            lo = [d["alpha_interval"][str(L)][0] for L in lengths]
            hi = [d["alpha_interval"][str(L)][1] for L in lengths]
            (line,) = ax.plot(lengths, lo, marker="o", ms=2, lw=1, label=f"{d['pe']}·{d['task']}")
            if lo != hi:
                ax.fill_between(lengths, lo, hi, color=line.get_color(), alpha=0.25)
        ax.set_title(f"geometry {name}", fontsize=10)
        ax.set_xscale("log", base=2)
        ax.set_ylim(-0.05, 1.05)
        ax.set_xlabel("L")
    axes[0, 0].set_ylabel("α_L (band: [every, some] optimal θ)")
    handles, labels = axes[0, 0].get_legend_handles_labels()
    fig.legend(handles, labels, fontsize=6, loc="center right", ncol=1)
    fig.tight_layout(rect=(0, 0, 0.84, 1))
    fig.savefig(path, dpi=120)
    plt.close(fig)


EXTENSION_STYLES = {"none": ("k", "o-", 1.1), "pi": ("tab:blue", "s-", 2.6), "ntk": ("tab:orange", "^--", 1.3),
                    "yarn": ("tab:green", "v:", 1.6)}   # colour, style, width: pi wide so that an equal curve shows


def plot_extensions(by_method: dict[str, list[dict]], lengths: list[int], path: str) -> None:
    """α_L against L, one panel per (PE, task) cell that is realizable at L0 and that some method other
    than ``none`` acts on, one curve per method.  ``by_method``: method -> the ``posreal table --extension
    --json`` cells of the same (PE, task) list (a refused cell has ``"applicable": false``)."""
    methods = list(by_method)
    if not methods:
        raise SpecError("invalid extension plot: no methods; accepted: one or more methods with their cells")
    first = by_method[methods[0]]
    shown = [n for n, d in enumerate(first)
             if any(by_method[m][n].get("applicable", True) and by_method[m][n].get("realizable")
                    for m in methods if m != "none")]
    if not shown:
        raise SpecError("invalid extension plot: no realizable cell that an extension acts on; accepted: cells "
                        "of rope, abscol, abssin or alibi that are realizable at L0")
    cols = min(4, len(shown))
    nrows = -(-len(shown) // cols)
    fig, axes = plt.subplots(nrows, cols, figsize=(3.3 * cols, 2.6 * nrows), squeeze=False, sharey=True)
    for ax, n in zip(axes.flat, shown):
        for m in methods:
            d = by_method[m][n]
            if not d.get("applicable", True) or not d.get("realizable"):
                continue
            colour, style, width = EXTENSION_STYLES.get(m, ("tab:gray", "x-", 1.1))
            ax.plot(lengths, [d["alpha"][str(L)] for L in lengths], style, color=colour, ms=3, lw=width, label=m,
                    alpha=0.55 if m == "pi" else 1.0)
        ax.set_title(f"{first[n]['pe']} · {first[n]['task']}", fontsize=9)
        ax.set_xscale("log", base=2)
        ax.set_ylim(-0.05, 1.05)
        ax.tick_params(labelsize=7)
    for ax in axes.flat[len(shown):]:
        ax.set_visible(False)
    for ax in axes[:, 0]:
        ax.set_ylabel("α_L", fontsize=8)
    for ax in axes[-1, :]:
        ax.set_xlabel("L", fontsize=8)
    legend: dict = {}
    for ax in axes.flat[:len(shown)]:
        for handle, label in zip(*ax.get_legend_handles_labels()):
            legend.setdefault(label, handle)
    train_length = next((d["train_length"] for docs in by_method.values() for d in docs if "train_length" in d), "?")
    fig.suptitle(f"α_L under each length extension (train length {train_length})", fontsize=10, y=0.995)
    fig.legend(list(legend.values()), list(legend), fontsize=8, loc="upper center", ncol=len(legend), frameon=False,
               bbox_to_anchor=(0.5, 0.975))
    fig.tight_layout(rect=(0, 0, 1, 0.94))
    fig.savefig(path, dpi=110)
    plt.close(fig)
