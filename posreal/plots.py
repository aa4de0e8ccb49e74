"""Figures (matplotlib, Agg backend): α_L against L for the taxonomy.

* :func:`plot_taxonomy` — one panel per PE, one curve per realizable task;
* :func:`plot_geometries` — one panel per PE, one curve per realizable task and geometry: the ℓ2 value,
  and the [every, some] interval of ℓ∞ and ℓ1 as a vertical bar;
* :func:`plot_extensions` — one panel per (PE, task) cell, one curve per length-extension method.

Conventions shared by all three (and read off by a person, so fixed here once):

* one colour and one marker per task, the same in every panel (:func:`task_styles`); in
  :func:`plot_geometries` one line style and marker per geometry (:data:`GEOMETRY_STYLES`);
* curves that coincide stay visible: each task's points sit slightly left or right of their length
  (a dodge of a few hundredths of a doubling; L is discrete, so nothing is moved in value), and the
  earlier a task is in the list the wider its line, so a line drawn on top leaves the one below showing;
* every panel has both axis labels and the same axes; a panel with nothing to draw says so in its
  middle instead of inventing an axis of its own;
* readable at a glance at page width (:data:`PAGE_PX`, the docs' content width): every figure is
  :data:`WIDTH` inches wide with at most :data:`COLUMNS` panels a row, as many rows as needed, and no text
  smaller than :data:`MIN_POINTS`, so that shown :data:`PAGE_PX` pixels wide its smallest text is
  ``MIN_POINTS / 72 * PAGE_PX / WIDTH`` ≈ 11 px;
* the legends sit in a strip above the panels, below the title (:func:`legends` finds them; constrained layout:
  never on a curve, never cut off), at most eight entries a legend for the registry's tasks and methods;
* one visual encoding per variable: the task is colour (with its marker in :func:`plot_taxonomy`, where no other
  variable is drawn), the geometry is line style and marker, the extension method is colour, line style and
  marker together — never a marker for two variables in one figure;
* titles are wrapped to the width they have (never clipped), and a length axis has at most
  :data:`MAX_TICKS` tick labels (powers of two when there are more lengths), so ``table --plot`` stays readable
  for hundreds of lengths; markers are drawn on at most :data:`MAX_MARKERS` points of a curve.

Each writes through :func:`save_figure` (atomic, never over an existing file unless ``force``) and
refuses an empty figure (no cells, no geometries, no method) with a one-line :class:`SpecError`.
"""

from __future__ import annotations

import math
import textwrap
from dataclasses import dataclass
from typing import Any, cast

import matplotlib
from posreal.theory.errors import SpecError
from posreal.runtime.output_files import atomic_writer

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
from matplotlib.lines import Line2D  # noqa: E402

MARKERS = ("o", "s", "^", "D", "v", "P", "X", "*", "<", ">", "h", "p")
PAGE_PX = 760       # the docs' content width in pixels: the width a figure is read at
WIDTH = 7.6         # inches: every figure (PAGE_PX / WIDTH = 100 page pixels an inch)
COLUMNS = 2         # panels a row
PANEL_HEIGHT = 2.5  # inches a row of panels
MIN_POINTS = 8      # the smallest font size (tick labels): 8 pt is about 11 px at page width
DPI = 150           # the PNG is 1140 px wide: sharp when the page is zoomed
TITLE_LINE = 0.24   # inches a line of the figure's title (36 px at DPI: whole pixels)
LEGEND_TITLE = 0.3  # inches of the legend strip above its first row of entries (the legends' titles)
LEGEND_ROW = 0.2    # inches a row of legend entries
MAX_TICKS = 8       # tick labels on a length axis
MAX_MARKERS = 12    # markers on one curve (about that many, evenly spaced, beyond)
Y_RANGE = (-0.05, 1.05)
DODGE = 0.05   # horizontal offset between tasks at one length, in doublings (log2 units)
GEOMETRY_STYLES: dict[str, tuple[Any, str, str]] = {   # geometry -> (line style, marker, legend label)
    "l2": ("-", "o", "ℓ2 (θ*)"), "linf": ("--", "s", "ℓ∞ [every, some]"), "l1": (":", "^", "ℓ1 [every, some]")}
OTHER_GEOMETRY: tuple[Any, str, str] = ("-.", "x", "")
GEOMETRY_WIDTHS = {"l2": 1.2}   # geometry -> line width (others 1.0): the one-number ℓ2 curve drawn a little wider


@dataclass(frozen=True)
class Style:
    """How one task is drawn in every panel."""

    colour: str
    marker: str
    size: float        # marker size (the same for every task; the markers are hollow and differ in shape)
    width: float       # line width: earlier tasks wider, so a later identical curve leaves them visible


def task_styles(tasks: list[str]) -> dict[str, Style]:
    """One colour and marker per task (tab10, then tab20 beyond ten tasks), fixed by the task's place."""
    palette = plt.get_cmap("tab10" if len(tasks) <= 10 else "tab20")
    n = max(1, len(tasks) - 1)
    return {task: Style(matplotlib.colors.to_hex(palette(k % palette.N)), MARKERS[k % len(MARKERS)],
                        size=6.0, width=3.0 - 2.0 * k / n)
            for k, task in enumerate(tasks)}


def dodged(lengths: list[int], slot: float) -> list[float]:
    """The lengths shifted by ``slot`` dodge steps (in doublings): side by side, never on top of each other.
    Dense lengths (more than :data:`MAX_MARKERS`) are not shifted: neighbouring lengths would interleave."""
    if len(lengths) > MAX_MARKERS:
        return [float(L) for L in lengths]
    return [L * 2 ** (slot * DODGE) for L in lengths]


def length_ticks(lengths: list[int]) -> list[int]:
    """At most :data:`MAX_TICKS` tick positions: the lengths themselves when few, else powers of two in range
    (every second, fourth, … one when even those are too many)."""
    if len(lengths) <= MAX_TICKS:
        return sorted(lengths)
    lo, hi = math.ceil(math.log2(min(lengths))), math.floor(math.log2(max(lengths)))
    powers = [2 ** k for k in range(lo, hi + 1)] or [min(lengths), max(lengths)]
    step = -(-len(powers) // MAX_TICKS)
    ticks = powers[::step]
    for end in (min(lengths), max(lengths)):   # the ends too, when half a doubling or more from every tick
        if len(ticks) < MAX_TICKS and all(abs(math.log2(end / t)) >= 0.5 for t in ticks):
            ticks.append(end)
    return sorted(ticks)


def wrapped(text: str, width_in: float, fontsize: float) -> str:
    """``text`` broken into lines that fit ``width_in`` inches at ``fontsize`` points (a title never clipped)."""
    chars = max(12, int(width_in * 72 / (0.55 * fontsize)))
    return "\n".join(textwrap.fill(part, chars) for part in text.split("\n"))


def mark_every(n: int) -> int | float:
    """Markers on every point of a curve of at most :data:`MAX_MARKERS` points, else about that many, evenly
    spaced along the drawn line (matplotlib's float ``markevery``: a fraction of the axes' diagonal)."""
    return 1 if n <= MAX_MARKERS else 1.0 / MAX_MARKERS


def _figure(count: int, title: str, legend_rows: int, **kwargs: Any) -> tuple[Any, Any, list[Any]]:
    """A figure :data:`WIDTH` inches wide: ``title`` (wrapped) on top, below it a strip for the legends
    (``legend_rows`` rows of entries), below that ``count`` panels, :data:`COLUMNS` a row, each row
    :data:`PANEL_HEIGHT` tall, the panels past ``count`` hidden.  The strip and the panels are two subfigures
    (constrained layout keeps the title, the legends and the panels apart).  Returns the figure, the legend
    strip and the visible panels in reading order."""
    cols = min(COLUMNS, count)
    rows = -(-count // cols)
    text = wrapped(title, WIDTH - 0.4, 10)
    strip, body = LEGEND_TITLE + LEGEND_ROW * legend_rows, PANEL_HEIGHT * rows
    fig = plt.figure(figsize=(WIDTH, TITLE_LINE * (text.count("\n") + 1) + strip + body), layout="constrained")
    head, panels = cast(Any, fig.subfigures(2, 1, height_ratios=[strip, body]))     # typed as one or many
    axes = panels.subplots(rows, cols, squeeze=False, **kwargs)
    for ax in axes.flat[count:]:
        ax.set_visible(False)
    fig.suptitle(text, fontsize=10)
    return fig, head, list(axes.flat[:count])


def legends(fig: Any) -> list[Any]:
    """Every legend of ``fig``, those of its subfigures (the legend strip) included, left to right."""
    return [*fig.legends, *(legend for sub in fig.subfigs for legend in sub.legends)]


def _top_legends(head: Any, entries: list[tuple[list[Any], str, int]]) -> None:
    """Legends (handles, title, columns) side by side in the strip above the panels: one centred, or two at its
    left and right ends."""
    places = ["upper center"] if len(entries) == 1 else ["upper left", "upper right"]
    for (handles, title, ncol), loc in zip(entries, places):
        head.legend(handles=handles, title=title, loc=loc, fontsize=9, title_fontsize=9, ncol=ncol, frameon=False)


def _panel_title(ax: Any, text: str) -> None:
    ax.set_title(wrapped(text, WIDTH / COLUMNS - 0.4, 10), fontsize=10)


def _length_axis(ax, lengths: list[int], ylabel: str) -> None:
    ax.set_xscale("log", base=2)
    ax.set_xlim(min(lengths) / 1.25, max(lengths) * 1.25)
    ticks = length_ticks(lengths)
    ax.set_xticks(ticks)
    ax.set_xticklabels([str(L) for L in ticks], fontsize=MIN_POINTS)
    ax.minorticks_off()
    ax.set_ylim(*Y_RANGE)
    ax.set_xlabel("L", fontsize=9)
    ax.set_ylabel(ylabel, fontsize=9)
    ax.tick_params(labelsize=MIN_POINTS)
    ax.grid(True, color="0.92", lw=0.6)


def _empty_note(ax, text: str) -> None:
    ax.text(0.5, 0.5, text, ha="center", va="center", transform=ax.transAxes, fontsize=9, color="0.35",
            style="italic")


def _draw(ax, xs: list[float], ys: list[float], style: Style, linestyle="-", marker: str | None = None,
          width: float | None = None):
    return ax.plot(xs, ys, linestyle=linestyle, color=style.colour, lw=style.width if width is None else width,
                   marker=style.marker if marker is None else marker, ms=style.size, markerfacecolor="none",
                   markeredgewidth=1.2, markevery=mark_every(len(xs)))[0]


def plot_taxonomy(docs: list[dict], lengths: list[int], path: str, force: bool = False) -> None:
    """One panel per PE, one curve per realizable task; ``docs`` are ``posreal alpha --json`` objects."""
    if not docs:
        raise SpecError("invalid taxonomy plot: no cells; accepted: one or more posreal alpha --json documents")
    pes = list(dict.fromkeys(d["pe"] for d in docs))
    tasks = list(dict.fromkeys(d["task"] for d in docs))
    styles = task_styles(tasks)
    fig, head, axes = _figure(len(pes), f"α_L against L (train length {docs[0]['train_length']}); a task missing "
                                        "from a panel is not realizable at L0", -(-len(tasks) // 4))
    middle = (len(tasks) - 1) / 2
    for ax, pe in zip(axes, pes):
        drawn = 0
        for d in (d for d in docs if d["pe"] == pe):
            if d["realizable"]:
                slot = tasks.index(d["task"]) - middle
                _draw(ax, dodged(lengths, slot), [d["alpha"][str(L)] for L in lengths], styles[d["task"]])
                drawn += 1
        _panel_title(ax, pe)
        _length_axis(ax, lengths, "α_L")
        if not drawn:
            _empty_note(ax, "no task realizable at L0:\nnothing to transfer")
    handles = [Line2D([], [], color=s.colour, marker=s.marker, markerfacecolor="none", lw=1.5, ms=6, label=task)
               for task, s in styles.items()]
    _top_legends(head, [(handles, "task", min(4, len(handles)))])
    save_figure(fig, path, dpi=DPI, force=force)


def plot_geometries(by_geometry: dict[str, list[dict]], lengths: list[int], path: str, force: bool = False) -> None:
    """α_L of every realizable cell against L in every geometry: one panel per PE, one colour per task (as in
    :func:`plot_taxonomy`, without its marker), one line style and marker per geometry; an interval
    [every, some] is a vertical bar at its length.  ``by_geometry``: geometry name -> ``posreal alpha
    --json`` documents of the same cells."""
    names = list(by_geometry)
    if not names:
        raise SpecError("invalid geometry plot: no geometries; accepted: one or more geometry names "
                        "with their posreal alpha --json documents")
    every = [d for name in names for d in by_geometry[name]]
    tasks = list(dict.fromkeys(d["task"] for d in every))
    pes = list(dict.fromkeys(d["pe"] for d in every))
    styles = task_styles(tasks)
    fig, head, axes = _figure(len(pes), "α_L in every geometry (a bar: the [every, some] interval over the optimal "
                                        "face); a task missing from a panel is not realizable at L0",
                              max(len(names), -(-len(tasks) // 4)))
    middle = (len(tasks) - 1) / 2
    for ax, pe in zip(axes, pes):
        drawn = 0
        for g, name in enumerate(names):
            linestyle, marker, _ = GEOMETRY_STYLES.get(name, OTHER_GEOMETRY)
            for d in (d for d in by_geometry[name] if d["pe"] == pe and d["realizable"]):
                style = styles[d["task"]]
                xs = dodged(lengths, tasks.index(d["task"]) - middle + (g - (len(names) - 1) / 2) * 0.3)
                lo = [d["alpha_interval"][str(L)][0] for L in lengths]
                hi = [d["alpha_interval"][str(L)][1] for L in lengths]
                _draw(ax, xs, lo, style, linestyle, marker, width=GEOMETRY_WIDTHS.get(name, 1.0))
                for x, a, b in zip(xs, lo, hi):
                    if b > a:
                        ax.plot([x, x], [a, b], color=style.colour, lw=1.6, alpha=0.7)
                drawn += 1
        _panel_title(ax, pe)
        _length_axis(ax, lengths, "α_L")
        if not drawn:
            _empty_note(ax, "no task realizable at L0:\nnothing to transfer")
    task_handles = [Line2D([], [], color=s.colour, lw=2.5, label=t) for t, s in styles.items()]
    geometry_handles = [Line2D([], [], color="0.2", linestyle=GEOMETRY_STYLES.get(n, OTHER_GEOMETRY)[0],
                               marker=GEOMETRY_STYLES.get(n, OTHER_GEOMETRY)[1], markerfacecolor="none", lw=1.2,
                               label=GEOMETRY_STYLES.get(n, OTHER_GEOMETRY)[2] or n) for n in names]
    _top_legends(head, [(task_handles, "task (colour)", min(4, len(task_handles))),
                        (geometry_handles, "geometry (line, marker)", 1)])
    save_figure(fig, path, dpi=DPI, force=force)


EXTENSION_STYLES: dict[str, tuple[str, Any, str]] = {
    "none": ("k", "-", "o"), "pi": ("tab:blue", "-", "s"), "ntk": ("tab:orange", "--", "^"),
    "yarn": ("tab:green", ":", "D")}   # method -> colour, line style, marker (together: one encoding)
OTHER_METHOD: tuple[str, Any, str] = ("tab:gray", "-.", "x")


def plot_extensions(by_method: dict[str, list[dict]], lengths: list[int], path: str, force: bool = False) -> None:
    """α_L against L, one panel per (PE, task) cell that is realizable at L0 and that some method other
    than ``none`` acts on, one curve per method (colour, line style and marker together).  Methods sit side by
    side at each length (a small dodge), so a curve equal to another stays visible beside it.  ``by_method``:
    method -> the ``posreal table --extension --json`` cells of the same (PE, task) list (a refused cell has
    ``"applicable": false``)."""
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
    train_length = next((d["train_length"] for docs in by_method.values() for d in docs if "train_length" in d), "?")
    side = "; methods side by side at each L" if len(lengths) <= MAX_MARKERS else ""
    fig, head, axes = _figure(len(shown), f"α_L under each length extension (train length {train_length}){side}", 1,
                              sharey=True)
    middle = (len(methods) - 1) / 2
    drawn: list[str] = []
    for ax, n in zip(axes, shown):
        for k, m in enumerate(methods):
            d = by_method[m][n]
            if not d.get("applicable", True) or not d.get("realizable"):
                continue
            drawn += [m] if m not in drawn else []
            colour, linestyle, marker = EXTENSION_STYLES.get(m, OTHER_METHOD)
            xs = dodged(lengths, (k - middle) * 2.0)
            ax.plot(xs, [d["alpha"][str(L)] for L in lengths], linestyle=linestyle, marker=marker, color=colour,
                    ms=5, lw=1.4, markerfacecolor="none", markeredgewidth=1.2, markevery=mark_every(len(xs)),
                    label=m)
        _panel_title(ax, f"{first[n]['pe']} · {first[n]['task']}")
        _length_axis(ax, lengths, "α_L")
    handles = [Line2D([], [], color=colour, linestyle=linestyle, marker=marker, markerfacecolor="none", lw=1.4,
                      label=m) for m in methods if m in drawn
               for colour, linestyle, marker in [EXTENSION_STYLES.get(m, OTHER_METHOD)]]
    _top_legends(head, [(handles, "extension method", len(handles))])
    save_figure(fig, path, dpi=DPI, force=force)


def save_figure(fig: Any, path: str | Any, dpi: int, force: bool = False) -> None:
    """Write ``fig`` as a PNG to ``path`` atomically (:mod:`posreal.runtime.output_files`: never over an
    existing file unless ``force``, never through a symlink, nothing half-written on a full disk)."""
    try:
        with atomic_writer(path, "plot file", force) as fh:
            fig.savefig(fh, format="png", dpi=dpi)
    finally:
        plt.close(fig)
