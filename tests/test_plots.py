"""The figures (posreal.plots): the taxonomy figure (α_L against L per PE) and the geometry figure
(α_L in every geometry per PE) — curves, intervals, colours per task, dodged coincident curves, legends
outside the panels, notes in empty panels, axis labels, sizes and axes — and the refusal to draw nothing.
Each figure is recorded when the plot closes it and inspected afterwards."""

from __future__ import annotations

import struct
from pathlib import Path

import matplotlib.pyplot as plt
import numpy as np
import pytest
from matplotlib.scale import LogTransform
from posreal import plots


def _recorded_figures(monkeypatch) -> list:
    """Record every figure the plots close, and close it (a closed figure stays readable)."""
    figures: list = []
    close = plt.close

    def record(fig=None) -> None:
        figures.append(fig)
        close(fig)

    monkeypatch.setattr(plots.plt, "close", record)         # plots.plt is this pyplot module
    return figures


def _png_size(path) -> tuple[int, int]:
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and data[12:16] == b"IHDR"
    return struct.unpack(">II", data[16:24])


def _geometry_docs() -> list[dict[str, object]]:
    return [{"pe": "relbias", "task": "offset:1", "realizable": True,
             "alpha_interval": {"4": [1.0, 1.0], "16": [0.5, 1.0], "64": [0.25, 0.75]}}]


# --------------------------------------------------------------------------- shared checks
def _boxes_overlap(a, b) -> bool:
    return a.x0 < b.x1 and b.x0 < a.x1 and a.y0 < b.y1 and b.y0 < a.y1


def _legend_outside_and_unclipped(fig) -> None:
    """Every legend overlaps no panel and lies wholly inside the figure (nothing cut off)."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    canvas = FigureCanvasAgg(fig)                      # a closed figure keeps only a bare canvas
    canvas.draw()
    renderer = canvas.get_renderer()
    assert plots.legends(fig)
    for legend in plots.legends(fig):
        box = legend.get_window_extent(renderer)
        whole = fig.bbox
        assert whole.x0 <= box.x0 and box.x1 <= whole.x1 and whole.y0 <= box.y0 and box.y1 <= whole.y1
        for ax in fig.axes:
            if ax.get_visible():
                assert not _boxes_overlap(box, ax.get_window_extent(renderer)), "legend on a panel"


def _taxonomy_docs(pes=("relbias", "alibi"), tasks=("offset:1", "position:0"), alpha=None) -> list[dict]:
    alpha = alpha or {"32": 1.0, "64": 0.5}
    return [{"pe": pe, "task": task, "realizable": True, "train_length": 16, "alpha": dict(alpha)}
            for pe in pes for task in tasks]


# --------------------------------------------------------------------------- the taxonomy figure
# Exists because a mutant survived: the taxonomy figure's curves were unchecked.
def test_taxonomy_figure_draws_marked_curves_on_the_unit_interval(tmp_path, monkeypatch):
    figures = _recorded_figures(monkeypatch)
    docs = [{"pe": "relbias", "task": "offset:1", "realizable": True, "train_length": 16,
             "alpha": {"32": 1.0, "64": 1.0}},
            {"pe": "relbias", "task": "copy", "realizable": False, "train_length": 16, "alpha": {}}]
    plots.plot_taxonomy(docs, [32, 64], str(tmp_path / "t.png"))
    assert (tmp_path / "t.png").stat().st_size > 0
    ax = figures[0].axes[0]
    (line,) = ax.get_lines()                                        # one curve: the realizable task
    assert line.get_marker() == "o" and line.get_markerfacecolor() == "none"
    assert list(line.get_ydata()) == [1.0, 1.0]
    # the first of two tasks sits half a dodge step left of each length: 2 ** (-0.5 * DODGE) times L
    assert list(line.get_xdata()) == pytest.approx([L * 2 ** (-0.5 * plots.DODGE) for L in (32, 64)])
    assert ax.get_ylim() == pytest.approx((-0.05, 1.05))


# Exists because a mutant survived: the taxonomy figure's title was unchecked.
def test_taxonomy_figure_title_names_the_train_length(tmp_path, monkeypatch):
    figures = _recorded_figures(monkeypatch)
    docs = [{"pe": "relbias", "task": "offset:1", "realizable": True, "train_length": 16, "alpha": {"32": 1.0}}]
    plots.plot_taxonomy(docs, [32], str(tmp_path / "t.png"))
    assert figures[0].get_suptitle().startswith("α_L against L (train length 16)")


# Exists because a mutant survived: the taxonomy panels' titles and x labels were unchecked.
def test_taxonomy_panels_are_titled_by_pe_with_both_axis_labels(monkeypatch, tmp_path):
    figures = _recorded_figures(monkeypatch)
    docs = [{"pe": pe, "task": "position:0", "train_length": 4, "realizable": True, "alpha": {"4": 1.0, "8": 0.5}}
            for pe in ("relbias", "alibi")]
    plots.plot_taxonomy(docs, [4, 8], str(tmp_path / "t.png"))
    axes = [ax for ax in figures[0].axes if ax.get_visible()]
    assert [ax.get_title() for ax in axes] == ["relbias", "alibi"]
    assert [ax.get_xlabel() for ax in axes] == ["L", "L"]
    assert [ax.get_ylabel() for ax in axes] == ["α_L", "α_L"]


def test_one_colour_and_marker_per_task_in_every_panel(tmp_path, monkeypatch):
    figures = _recorded_figures(monkeypatch)
    plots.plot_taxonomy(_taxonomy_docs(), [32, 64], str(tmp_path / "t.png"))
    left, right = figures[0].axes[:2]
    styles = [[(line.get_color(), line.get_marker()) for line in ax.get_lines()] for ax in (left, right)]
    assert styles[0] == styles[1]                                    # offset:1, position:0 alike in both panels
    assert len(set(styles[0])) == 2                                  # and the two tasks differ


def test_coincident_curves_are_side_by_side_not_on_top(tmp_path, monkeypatch):
    """Two tasks with the same α_L: same values, x positions one dodge step apart."""
    figures = _recorded_figures(monkeypatch)
    plots.plot_taxonomy(_taxonomy_docs(pes=("relbias",)), [32, 64], str(tmp_path / "t.png"))
    first, second = figures[0].axes[0].get_lines()
    assert list(first.get_ydata()) == list(second.get_ydata())
    ratio = np.asarray(second.get_xdata()) / np.asarray(first.get_xdata())
    assert ratio == pytest.approx([2 ** plots.DODGE] * 2)


# Exists because a mutant survived: a taxonomy panel without a realizable task was never drawn.
def test_empty_panel_says_so_and_shares_the_length_axis(tmp_path, monkeypatch):
    figures = _recorded_figures(monkeypatch)
    docs = [{"pe": "relbias", "task": "offset:1", "realizable": True, "train_length": 16,
             "alpha": {"32": 1.0, "256": 1.0}},
            {"pe": "nope", "task": "offset:1", "realizable": False, "train_length": 16, "alpha": {}}]
    plots.plot_taxonomy(docs, [32, 256], str(tmp_path / "t.png"))
    full, empty = figures[0].axes[:2]
    (text,) = empty.texts
    assert text.get_text().startswith("no task realizable at L0")
    assert (text.get_horizontalalignment(), text.get_verticalalignment()) == ("center", "center")
    assert tuple(text.get_position()) == (0.5, 0.5) and not empty.get_lines()
    assert empty.get_xlim() == full.get_xlim() and empty.get_xlabel() == "L" and empty.get_ylabel() == "α_L"


def test_taxonomy_legend_is_outside_the_panels_and_not_clipped(tmp_path, monkeypatch):
    figures = _recorded_figures(monkeypatch)
    plots.plot_taxonomy(_taxonomy_docs(pes=("a", "b", "c", "d", "e")), [32, 64], str(tmp_path / "t.png"))
    _legend_outside_and_unclipped(figures[0])
    assert [t.get_text() for t in plots.legends(figures[0])[0].get_texts()] == ["offset:1", "position:0"]


def _inches(title_lines: int, legend_rows: int, panel_rows: int) -> tuple[float, float]:
    """A figure's size: 7.6 inches wide (page width); high: 0.24 a title line, 0.3 + 0.2 a row of legend
    entries for the legend strip, 2.5 a row of panels (whole pixels at 150 dpi)."""
    return 7.6, 0.24 * title_lines + 0.3 + 0.2 * legend_rows + 2.5 * panel_rows


# Exists because a mutant survived: the taxonomy figure's pixel size was unchecked.
def test_taxonomy_figure_pixel_size(tmp_path, monkeypatch):
    """One title line, one row of two tasks, one panel, at 150 dpi: 1140 × 486 pixels."""
    figures = _recorded_figures(monkeypatch)
    plots.plot_taxonomy(_taxonomy_docs(pes=("relbias",)), [32], str(tmp_path / "one.png"))
    assert "\n" not in figures[0].get_suptitle()
    width, height = _inches(1, 1, 1)
    assert _png_size(tmp_path / "one.png") == (round(width * 150), round(height * 150)) == (1140, 486)


# --------------------------------------------------------------------------- the geometry figure
# Exists because a mutant survived: the geometry figure's lower ends, bands and layout were unchecked.
def test_geometry_figure_draws_lower_ends_and_interval_bars(tmp_path, monkeypatch):
    figures = _recorded_figures(monkeypatch)
    band = {"pe": "abscol:16", "task": "position:0", "realizable": True,
            "alpha_interval": {"32": [0.25, 0.75], "64": [0.5, 1.0]}}
    point = {"pe": "abscol:16", "task": "offset:1", "realizable": True,
             "alpha_interval": {"32": [1.0, 1.0], "64": [1.0, 1.0]}}
    off = {"pe": "nope", "task": "copy", "realizable": False, "alpha_interval": {}}
    plots.plot_geometries({"l2": [point, off], "linf": [band, point]}, [32, 64], str(tmp_path / "g.png"))
    fig = figures[0]
    abscol, nope = fig.axes[:2]
    assert [ax.get_title() for ax in (abscol, nope)] == ["abscol:16", "nope"]
    lines = abscol.get_lines()
    curves = [list(line.get_ydata()) for line in lines if line.get_marker() not in ("None", None, "")]
    assert curves == [[1.0, 1.0], [0.25, 0.5], [1.0, 1.0]]          # l2 offset:1; linf position:0, offset:1
    bars = [list(line.get_ydata()) for line in lines if line.get_marker() in ("None", None, "")]
    assert bars == [[0.25, 0.75], [0.5, 1.0]]                         # a bar only where lo < hi
    assert nope.texts and not nope.get_lines()
    assert abscol.get_ylim() == pytest.approx((-0.05, 1.05))
    _legend_outside_and_unclipped(fig)


def test_geometry_figure_has_one_style_per_geometry_and_one_colour_per_task(tmp_path, monkeypatch):
    figures = _recorded_figures(monkeypatch)
    docs = [{"pe": "relbias", "task": task, "realizable": True, "alpha_interval": {"4": [1.0, 1.0]}}
            for task in ("offset:1", "copy")]
    plots.plot_geometries({"l2": docs, "linf": docs, "l1": docs}, [4], str(tmp_path / "g.png"))
    lines = figures[0].axes[0].get_lines()
    styles = [(line.get_linestyle(), line.get_marker()) for line in lines]
    assert styles == [("-", "o")] * 2 + [("--", "s")] * 2 + [(":", "^")] * 2
    colours = [line.get_color() for line in lines]
    assert colours[0::2] == [colours[0]] * 3 and colours[1::2] == [colours[1]] * 3 and colours[0] != colours[1]
    tasks, geometries = ([t.get_text() for t in legend.get_texts()] for legend in plots.legends(figures[0]))
    assert tasks == ["offset:1", "copy"]
    assert geometries == ["ℓ2 (θ*)", "ℓ∞ [every, some]", "ℓ1 [every, some]"]
    # one encoding per variable: a task's legend entry is a colour without a marker; markers are the geometry's
    task_legend, geometry_legend = plots.legends(figures[0])
    assert all(h.get_marker() in ("None", None, "") for h in task_legend.legend_handles)
    assert [h.get_marker() for h in geometry_legend.legend_handles] == ["o", "s", "^"]


# Exists because a mutant survived: a geometry without a style of its own was never drawn.
def test_a_geometry_outside_the_style_table_is_drawn_and_named(tmp_path, monkeypatch):
    """A geometry name the style table does not know (here "l3") gets the fallback style (dash-dot, x) and
    its own name in the legend; the known one keeps its style and label."""
    figures = _recorded_figures(monkeypatch)
    plots.plot_geometries({"l2": _geometry_docs(), "l3": _geometry_docs()}, [4, 16], str(tmp_path / "g.png"))
    assert (tmp_path / "g.png").stat().st_size > 0
    lines = [line for line in figures[0].axes[0].get_lines() if line.get_marker() not in ("None", None, "")]
    assert [(line.get_linestyle(), line.get_marker()) for line in lines] == [("-", "o"), ("-.", "x")]
    labels = [t.get_text() for t in plots.legends(figures[0])[1].get_texts()]
    assert labels == ["ℓ2 (θ*)", "l3"]


# Exists because a mutant survived: the geometry figure's pixel size was unchecked.
def test_geometry_figure_pixel_size(tmp_path, monkeypatch):
    """Two title lines and a legend strip of one row (one task, one geometry) above the panels, at 150 dpi:
    one panel is 1140 × 522 pixels (3.48 inches high); five PEs take 2 columns and 3 rows; three geometries make
    the strip three rows high."""
    figures = _recorded_figures(monkeypatch)
    plots.plot_geometries({"l2": _geometry_docs()}, [4], str(tmp_path / "one.png"))
    assert figures[-1].get_suptitle().count("\n") == 1
    width, height = _inches(2, 1, 1)
    assert _png_size(tmp_path / "one.png") == (round(width * 150), round(height * 150))
    docs = [{**_geometry_docs()[0], "pe": pe} for pe in ("a", "b", "c", "d", "e")]
    plots.plot_geometries({"l2": docs}, [4], str(tmp_path / "five.png"))
    width, height = _inches(2, 1, 3)
    assert _png_size(tmp_path / "five.png") == (round(width * 150), round(height * 150))
    plots.plot_geometries({"l2": docs, "linf": docs, "l1": docs}, [4], str(tmp_path / "three.png"))
    width, height = _inches(2, 3, 3)
    assert _png_size(tmp_path / "three.png") == (round(width * 150), round(height * 150))


# Exists because a mutant survived: the base of the geometry figure's log axis was unchecked.
def test_geometry_figure_has_a_base_two_length_axis(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """L is drawn on a log axis of base 2, ticked at the lengths."""
    figures = _recorded_figures(monkeypatch)
    plots.plot_geometries({"l2": _geometry_docs()}, [4, 16, 64], str(tmp_path / "g.png"))
    ax = figures[0].axes[0]
    assert ax.get_xscale() == "log"
    transform = ax.xaxis.get_transform()
    assert isinstance(transform, LogTransform) and transform.base == 2
    assert list(ax.get_xticks()) == [4.0, 16.0, 64.0]
    assert [ax.get_xlabel(), ax.get_ylabel()] == ["L", "α_L"]


# --------------------------------------------------------------------------- nothing to draw
# Exists because a mutant survived: a figure of no cells was never refused.
def test_figures_refuse_to_draw_nothing(tmp_path):
    """No cells (or no geometries) is a one-line error, not a ZeroDivisionError from the panel grid,
    and no file is written."""
    from posreal import plots
    from posreal.theory.errors import SpecError

    with pytest.raises(SpecError, match="^invalid taxonomy plot: no cells; accepted: one or more posreal alpha"):
        plots.plot_taxonomy([], [32], str(tmp_path / "t.png"))
    with pytest.raises(SpecError, match="^invalid geometry plot: no geometries; accepted: one or more geometry"):
        plots.plot_geometries({}, [32], str(tmp_path / "g.png"))
    assert not list(tmp_path.iterdir())


# Exists because a mutant survived: the geometry figure's margins, bars, spacer, empty note and title were unchecked.
def test_geometry_figure_margins_bars_legends_empty_note_and_title(tmp_path, monkeypatch):
    """The length axis runs from min L / 1.25 to max L · 1.25; an interval bar is drawn at alpha 0.7; tasks and
    geometries have a legend each, titled by their encoding; a PE without a realizable cell says so; the title is
    10 pt."""
    figures = _recorded_figures(monkeypatch)
    docs = _geometry_docs() + [{"pe": "nope", "task": "offset:1", "realizable": False, "alpha_interval": {}}]
    plots.plot_geometries({"l2": docs}, [4, 16, 64], str(tmp_path / "g.png"))
    fig = figures[0]
    full, empty = fig.axes[:2]
    assert full.get_xlim() == pytest.approx((4 / 1.25, 64 * 1.25))
    bars = [line for line in full.get_lines() if line.get_marker() in ("None", None, "")]
    assert len(bars) == 2 and all(line.get_alpha() == 0.7 for line in bars)
    (text,) = empty.texts
    assert text.get_text() == "no task realizable at L0:\nnothing to transfer"
    assert [legend.get_title().get_text() for legend in plots.legends(fig)] == ["task (colour)",
                                                                                "geometry (line, marker)"]
    assert fig.get_suptitle().replace("\n", " ").endswith("is not realizable at L0")
    assert fig._suptitle.get_fontsize() == 10


# Exists because a mutant survived: ten tasks could be drawn from the twenty-colour palette.
def test_ten_tasks_take_the_ten_colour_palette_and_eleven_the_twenty(tmp_path):
    ten = plots.task_styles([f"t{k}" for k in range(10)])
    assert [s.colour for s in ten.values()] == [plt.matplotlib.colors.to_hex(c) for c in plt.get_cmap("tab10").colors]
    eleven = plots.task_styles([f"t{k}" for k in range(11)])
    assert eleven["t1"].colour == plt.matplotlib.colors.to_hex(plt.get_cmap("tab20")(1))


# Exists because a mutant survived: the extension figure's axis labels were unchecked.
def test_extension_figure_labels_both_axes(tmp_path, monkeypatch):
    figures = _recorded_figures(monkeypatch)
    cell = {"pe": "rope", "task": "offset:1", "train_length": 4, "realizable": True, "alpha": {"4": 1.0, "8": 0.5}}
    plots.plot_extensions({"none": [cell], "pi": [cell]}, [4, 8], str(tmp_path / "e.png"))
    (ax,) = [ax for ax in figures[0].axes if ax.get_visible()]
    assert (ax.get_xlabel(), ax.get_ylabel()) == ("L", "α_L")


# --------------------------------------------------------------------------- many lengths, long titles
def test_many_lengths_get_few_ticks_and_markers(tmp_path, monkeypatch):
    """``table --plot`` with 200 lengths: at most MAX_TICKS tick labels (powers of two and the ends), no dodge
    (dense lengths would interleave), and markers thinned; with few lengths every length is a tick (control)."""
    figures = _recorded_figures(monkeypatch)
    lengths = list(range(17, 217))
    docs = [{"pe": "relbias", "task": "offset:1", "realizable": True, "train_length": 16,
             "alpha": {str(L): 1.0 for L in lengths}}]
    plots.plot_taxonomy(docs, lengths, str(tmp_path / "t.png"))
    ax = figures[0].axes[0]
    ticks = [int(t) for t in ax.get_xticks()]
    assert ticks == [17, 32, 64, 128, 216] and len(ticks) <= plots.MAX_TICKS
    (line,) = [line for line in ax.get_lines() if line.get_marker() not in ("None", None, "")]
    assert list(line.get_xdata()) == lengths and line.get_markevery() == 1 / plots.MAX_MARKERS
    assert plots.length_ticks([32, 64, 128]) == [32, 64, 128]
    assert plots.dodged([32, 64], 1) != [32, 64]


def test_a_long_title_is_wrapped_to_the_figure_not_clipped(tmp_path, monkeypatch):
    """The geometry figure's title is longer than a line of the page-wide figure: it breaks into lines, each no
    wider than the figure."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    figures = _recorded_figures(monkeypatch)
    plots.plot_geometries({"l2": _geometry_docs()}, [4, 16], str(tmp_path / "g.png"))
    fig = figures[0]
    assert "\n" in fig.get_suptitle()
    canvas = FigureCanvasAgg(fig)
    canvas.draw()
    box = fig._suptitle.get_window_extent(canvas.get_renderer())
    assert fig.bbox.x0 <= box.x0 and box.x1 <= fig.bbox.x1
    assert plots.wrapped("short", 5, 10) == "short"
