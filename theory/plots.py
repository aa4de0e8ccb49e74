"""Figures (matplotlib, Agg backend): α_L against L for the taxonomy.

* :func:`plot_taxonomy` — one panel per PE, one curve per realizable task;
* :func:`plot_geometries` — one panel per optimizer geometry, the α interval as a band.

Conventions shared by both (and read off by a person, so fixed here once):

* one colour and one marker per task, the same in every panel (:func:`task_styles`); in
  :func:`plot_geometries` one line style per PE;
* curves that coincide stay visible: the earlier a task is in the list, the larger and more hollow its
  marker and the wider its line, so a curve drawn on top of another leaves the one below showing;
* every panel has both axis labels and the same axes; a panel with nothing to draw says so in its
  middle instead of inventing an axis of its own;
* the legend sits outside every panel (constrained layout: never on a curve, never cut off).

Both refuse an empty figure (no cells, or no geometries) with a one-line :class:`SpecError`.
"""

from __future__ import annotations

from dataclasses import dataclass

import matplotlib
from posreal.theory.errors import SpecError

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
from matplotlib.lines import Line2D  # noqa: E402

MARKERS = ("o", "s", "^", "D", "v", "P", "X", "*", "<", ">", "h", "p")
LINESTYLES = ("-", "--", ":", "-.", (0, (5, 1)), (0, (3, 1, 1, 1, 1, 1)), (0, (1, 3)))
Y_LIMITS = (-0.05, 1.05)


@dataclass(frozen=True)
class Style:
    """How one task is drawn in every panel."""

    colour: str
    marker: str
    size: float        # marker size: earlier tasks larger, so a later identical curve leaves them visible
    width: float       # line width, likewise


def task_styles(tasks: list[str]) -> dict[str, Style]:
    """One colour and marker per task (tab10, then tab20 beyond ten tasks), fixed by the task's place."""
    palette = plt.get_cmap("tab10" if len(tasks) <= 10 else "tab20")
    n = max(1, len(tasks) - 1)
    return {task: Style(matplotlib.colors.to_hex(palette(k % palette.N)), MARKERS[k % len(MARKERS)],
                        size=7.5 - 4.0 * k / n, width=2.6 - 1.6 * k / n)
            for k, task in enumerate(tasks)}


def _length_axis(ax, lengths: list[int], ylabel: str) -> None:
    ax.set_xscale("log", base=2)
    ax.set_xlim(min(lengths) / 1.25, max(lengths) * 1.25)
    ax.set_xticks(lengths)
    ax.set_xticklabels([str(L) for L in lengths], fontsize=7)
    ax.minorticks_off()
    ax.set_ylim(*Y_LIMITS)
    ax.set_xlabel("L", fontsize=8)
    ax.set_ylabel(ylabel, fontsize=8)
    ax.tick_params(labelsize=7)
    ax.grid(True, color="0.92", lw=0.6)


def _empty_note(ax, text: str) -> None:
    ax.text(0.5, 0.5, text, ha="center", va="center", transform=ax.transAxes, fontsize=8, color="0.35",
            style="italic")


def _draw(ax, lengths: list[int], ys: list[float], style: Style, linestyle="-", label: str | None = None):
    return ax.plot(lengths, ys, linestyle=linestyle, color=style.colour, lw=style.width, marker=style.marker,
                   ms=style.size, markerfacecolor="none", markeredgewidth=1.2, label=label)[0]


def plot_taxonomy(docs: list[dict], lengths: list[int], path: str) -> None:
    """One panel per PE, one curve per realizable task; ``docs`` are ``posreal alpha --json`` objects."""
    if not docs:
        raise SpecError("invalid taxonomy plot: no cells; accepted: one or more posreal alpha --json documents")
    pes = list(dict.fromkeys(d["pe"] for d in docs))
    tasks = list(dict.fromkeys(d["task"] for d in docs))
    styles = task_styles(tasks)
    cols = min(4, len(pes))
    nrows = -(-len(pes) // cols)
    fig, axes = plt.subplots(nrows, cols, figsize=(3.3 * cols + 1.9, 2.8 * nrows + 0.5), squeeze=False,
                             layout="constrained")
    for ax, pe in zip(axes.flat, pes):
        drawn = 0
        for d in (d for d in docs if d["pe"] == pe):
            if d["realizable"]:
                _draw(ax, lengths, [d["alpha"][str(L)] for L in lengths], styles[d["task"]])
                drawn += 1
        ax.set_title(pe, fontsize=10)
        _length_axis(ax, lengths, "α_L")
        if not drawn:
            _empty_note(ax, "no task realizable at L0:\nnothing to transfer")
    for ax in axes.flat[len(pes):]:
        ax.set_visible(False)
    handles = [Line2D([], [], color=s.colour, marker=s.marker, markerfacecolor="none", lw=1.5, ms=6, label=task)
               for task, s in styles.items()]
    fig.legend(handles=handles, title="task", loc="outside right center", fontsize=8, title_fontsize=8,
               frameon=False)
    fig.suptitle(f"α_L against L (train length {docs[0]['train_length']}); a task missing from a panel is "
                 "not realizable at L0", fontsize=10)
    fig.savefig(path, dpi=120)
    plt.close(fig)


def plot_geometries(by_geometry: dict[str, list[dict]], lengths: list[int], path: str) -> None:
    """α_L of every realizable cell against L, one panel per geometry; an interval [lo, hi] is a band.
    ``by_geometry``: geometry name -> ``posreal alpha --json`` documents of the same cells.  Colour and
    marker name the task, the line style names the PE (two legends)."""
    names = list(by_geometry)
    if not names:
        raise SpecError("invalid geometry plot: no geometries; accepted: one or more geometry names "
                        "with their posreal alpha --json documents")
    every = [d for name in names for d in by_geometry[name]]
    tasks = list(dict.fromkeys(d["task"] for d in every))
    pes = list(dict.fromkeys(d["pe"] for d in every))
    styles = task_styles(tasks)
    dashes = {pe: LINESTYLES[k % len(LINESTYLES)] for k, pe in enumerate(pes)}
    fig, axes = plt.subplots(1, len(names), figsize=(4.0 * len(names) + 2.2, 3.8), squeeze=False,
                             layout="constrained")
    for ax, name in zip(axes.flat, names):
        drawn = 0
        for d in by_geometry[name]:
            if not d["realizable"]:
                continue
            lo = [d["alpha_interval"][str(L)][0] for L in lengths]
            hi = [d["alpha_interval"][str(L)][1] for L in lengths]
            style = styles[d["task"]]
            _draw(ax, lengths, lo, style, dashes[d["pe"]])
            if lo != hi:
                ax.fill_between(lengths, lo, hi, color=style.colour, alpha=0.18, lw=0)
            drawn += 1
        ax.set_title(f"geometry {name}", fontsize=10)
        _length_axis(ax, lengths, "α_L (band: [every, some] optimal θ)")
        if not drawn:
            _empty_note(ax, "no realizable cell")
    task_handles = [Line2D([], [], color=s.colour, marker=s.marker, markerfacecolor="none", lw=1.5, ms=6, label=t)
                    for t, s in styles.items()]
    pe_handles = [Line2D([], [], color="0.2", linestyle=dashes[pe], lw=1.4, label=pe) for pe in pes]
    fig.legend(handles=task_handles + [Line2D([], [], lw=0, label=" ")] + pe_handles,
               title="task (colour, marker) · PE (line)", loc="outside right center", fontsize=7,
               title_fontsize=7, frameon=False)
    fig.savefig(path, dpi=120)
    plt.close(fig)
