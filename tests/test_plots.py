"""The figures (posreal.theory.plots): the taxonomy figure (α_L against L per PE) and the geometry figure
(the α interval per geometry) — curves, bands, legends, titles, sizes and axes — and the refusal to draw
nothing.  Each figure is recorded when the plot closes it and inspected afterwards."""

from __future__ import annotations

import struct
from pathlib import Path

import matplotlib.pyplot as plt
import numpy as np
import pytest
from PIL import Image
from matplotlib.lines import Line2D
from matplotlib.scale import LogTransform
from posreal.theory import plots


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


# --------------------------------------------------------------------------- the taxonomy figure
# Exists because a mutant survived: the taxonomy figure's curves were unchecked.
def test_taxonomy_figure_draws_marked_curves_on_the_unit_interval(tmp_path, monkeypatch):
    import matplotlib.pyplot as plt
    from posreal.theory import plots

    figures = _recorded_figures(monkeypatch)
    docs = [{"pe": "relbias", "task": "offset:1", "realizable": True, "train_length": 16,
             "alpha": {"32": 1.0, "64": 1.0}},
            {"pe": "relbias", "task": "copy", "realizable": False, "train_length": 16, "alpha": {}}]
    plots.plot_taxonomy(docs, [32, 64], str(tmp_path / "t.png"))
    assert (tmp_path / "t.png").stat().st_size > 0
    ax = figures[0].axes[0]
    (line,) = ax.get_lines()                                        # one curve: the realizable task
    assert line.get_marker() == "o" and line.get_label() == "offset:1"
    assert list(line.get_ydata()) == [1.0, 1.0]
    assert ax.get_ylim() == pytest.approx((-0.05, 1.05))
    plt.close(figures[0])


# Exists because a mutant survived: the taxonomy figure's title was unchecked.
def test_taxonomy_figure_title_names_the_train_length(tmp_path, monkeypatch):
    close = plt.close
    figures = _recorded_figures(monkeypatch)
    docs = [{"pe": "relbias", "task": "offset:1", "realizable": True, "train_length": 16, "alpha": {"32": 1.0}}]
    plots.plot_taxonomy(docs, [32], str(tmp_path / "t.png"))
    assert figures[0].get_suptitle() == "α_L against L (train length 16)"
    close(figures[0])


# Exists because a mutant survived: the taxonomy panels' titles and x labels were unchecked.
def test_taxonomy_panels_are_titled_by_pe_with_x_label_L(monkeypatch, tmp_path):
    figures = _recorded_figures(monkeypatch)
    docs = [{"pe": pe, "task": "position:0", "train_length": 4, "realizable": True, "alpha": {"4": 1.0, "8": 0.5}}
            for pe in ("relbias", "alibi")]
    plots.plot_taxonomy(docs, [4, 8], str(tmp_path / "t.png"))
    axes = [ax for ax in figures[0].axes if ax.get_visible()]
    assert [ax.get_title() for ax in axes] == ["relbias", "alibi"]
    assert [ax.get_xlabel() for ax in axes] == ["L", "L"]


# Exists because a mutant survived: a taxonomy panel without a realizable task was never drawn.
def test_taxonomy_panel_without_a_realizable_task_says_so(tmp_path, monkeypatch):
    import matplotlib.pyplot as plt
    from posreal.theory import plots

    figures = _recorded_figures(monkeypatch)
    docs = [{"pe": "relbias", "task": "offset:1", "realizable": True, "train_length": 16, "alpha": {"32": 1.0}},
            {"pe": "nope", "task": "copy", "realizable": False, "train_length": 16, "alpha": {}}]
    plots.plot_taxonomy(docs, [32], str(tmp_path / "t.png"))
    ax = figures[0].axes[1]
    (text,) = ax.texts
    assert text.get_text() == "no realizable task"
    assert (text.get_horizontalalignment(), text.get_verticalalignment()) == ("center", "center")
    plt.close(figures[0])


# Exists because a mutant survived: the taxonomy figure's legend font, note and pixel size were unchecked.
def test_taxonomy_figure_legend_panel_text_and_pixel_size(tmp_path, monkeypatch):
    """Legend in 7 pt, the "no realizable task" note at the panel's centre, written at 120 dpi."""
    import matplotlib.pyplot as plt
    from posreal.theory import plots

    close = plt.close                                                  # the real one, to free the figures
    figures = _recorded_figures(monkeypatch)
    docs = [{"pe": "relbias", "task": "offset:1", "realizable": True, "train_length": 16, "alpha": {"32": 1.0}}]
    plots.plot_taxonomy(docs, [32], str(tmp_path / "one.png"))
    # one panel: figsize (3.6, 2.9) inches at 120 dpi = 432 × 348 pixels
    assert _png_size(tmp_path / "one.png") == (432, 348)
    (text,) = figures[0].axes[0].get_legend().get_texts()
    assert text.get_text() == "offset:1" and text.get_fontsize() == 7
    close(figures[0])

    docs = [{"pe": "nope", "task": "copy", "realizable": False, "train_length": 16, "alpha": {}}]
    plots.plot_taxonomy(docs, [32], str(tmp_path / "none.png"))
    (note,) = figures[1].axes[0].texts
    assert note.get_text() == "no realizable task" and tuple(note.get_position()) == (0.5, 0.5)
    assert note.get_fontsize() == 8
    close(figures[1])


# --------------------------------------------------------------------------- the geometry figure
# Exists because a mutant survived: the geometry figure's lower ends, bands and layout were unchecked.
def test_geometry_figure_draws_lower_ends_and_bands_inside_the_figure(tmp_path, monkeypatch):
    import matplotlib.pyplot as plt
    from posreal.theory import plots

    figures = _recorded_figures(monkeypatch)
    band = {"pe": "abscol:16", "task": "position:0", "realizable": True,
            "alpha_interval": {"32": [0.25, 0.75], "64": [0.5, 1.0]}}
    point = {"pe": "relbias", "task": "offset:1", "realizable": True,
             "alpha_interval": {"32": [1.0, 1.0], "64": [1.0, 1.0]}}
    off = {"pe": "nope", "task": "copy", "realizable": False, "alpha_interval": {}}
    plots.plot_geometries({"l2": [point, off], "linf": [band, point]}, [32, 64], str(tmp_path / "g.png"))
    assert (tmp_path / "g.png").stat().st_size > 0
    fig = figures[0]
    left, right = fig.axes[:2]
    assert [line.get_label() for line in left.get_lines()] == ["relbias·offset:1"]
    assert [list(line.get_ydata()) for line in right.get_lines()] == [[0.25, 0.5], [1.0, 1.0]]  # the lower ends
    assert len(right.collections) == 1 and len(left.collections) == 0   # a band only where lo ≠ hi
    for ax in (left, right):
        assert ax.get_ylim() == pytest.approx((-0.05, 1.05))
        box = ax.get_position()
        assert 0 <= box.x0 < box.x1 <= 0.84 and 0 <= box.y0 < box.y1 <= 1   # panels left of the legend
    assert [t.get_text() for t in fig.legends[0].get_texts()] == ["relbias·offset:1"]
    plt.close(fig)


# Exists because a mutant survived: the geometry figure's marker size was unchecked.
def test_geometry_figure_marker_size(tmp_path, monkeypatch):
    """Each cell's curve has markers of size 2."""
    import matplotlib.pyplot as plt
    from posreal.theory import plots

    figures = _recorded_figures(monkeypatch)
    doc = {"pe": "relbias", "task": "offset:1", "realizable": True, "alpha_interval": {"32": [0.5, 1.0]}}
    plots.plot_geometries({"l2": [doc]}, [32], str(tmp_path / "g.png"))
    (line,) = figures[0].axes[0].get_lines()
    assert line.get_marker() == "o" and line.get_markersize() == 2
    plt.close(figures[0])


# Exists because a mutant survived: the geometry legend could pair a label with another line.
def test_geometry_legend_pairs_each_label_with_its_line(monkeypatch, tmp_path):
    figures = _recorded_figures(monkeypatch)
    docs = [{"pe": "relbias", "task": "position:0", "realizable": True,
             "alpha_interval": {"4": [0.5, 1.0], "8": [0.25, 0.75]}},      # a band: fill_between after the line
            {"pe": "alibi", "task": "position:0", "realizable": True,
             "alpha_interval": {"4": [1.0, 1.0], "8": [1.0, 1.0]}}]
    plots.plot_geometries({"linf": docs, "l1": docs}, [4, 8], str(tmp_path / "g.png"))
    fig = figures[0]
    legend = fig.legends[0]
    assert [t.get_text() for t in legend.get_texts()] == ["relbias·position:0", "alibi·position:0"]
    lines = fig.axes[0].get_lines()
    assert all(isinstance(h, Line2D) for h in legend.legend_handles)
    assert [h.get_color() for h in legend.legend_handles] == [line.get_color() for line in lines]


# Exists because a mutant survived: the geometry figure's width per panel was unchecked.
def test_geometry_figure_gives_each_panel_the_same_width(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """4.2 in per panel (3.4 in high) at 120 dpi, so two geometries give a file twice as wide as one
    (4.2 / n would make it half as wide)."""
    figures = _recorded_figures(monkeypatch)
    widths = []
    for n, names in enumerate((["l2"], ["l2", "linf"]), start=1):
        path = tmp_path / f"g{n}.png"
        plots.plot_geometries({name: _geometry_docs() for name in names}, [4, 16, 64], str(path))
        assert tuple(figures[-1].get_size_inches()) == pytest.approx((4.2 * n, 3.4))
        with Image.open(path) as image:
            widths.append(image.size[0])
            assert image.size == (round(4.2 * n * 120), round(3.4 * 120))
    assert widths[1] == 2 * widths[0]


# Exists because a mutant survived: the base of the geometry figure's log axis was unchecked.
def test_geometry_figure_has_a_base_two_length_axis(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """L is drawn on a log axis of base 2 (major ticks at powers of 2)."""
    figures = _recorded_figures(monkeypatch)
    plots.plot_geometries({"l2": _geometry_docs()}, [4, 16, 64], str(tmp_path / "g.png"))
    ax = figures[0].axes[0]
    assert ax.get_xscale() == "log"
    transform = ax.xaxis.get_transform()
    assert isinstance(transform, LogTransform) and transform.base == 2
    lo, hi = ax.get_xlim()
    ticks = [t for t in ax.get_xticks() if lo <= t <= hi]
    assert ticks and all(float(np.log2(t)).is_integer() for t in ticks)
    assert {4.0, 16.0, 64.0} <= set(ticks)


# --------------------------------------------------------------------------- nothing to draw
# Exists because a mutant survived: a figure of no cells was never refused.
def test_figures_refuse_to_draw_nothing(tmp_path):
    """No cells (or no geometries) is a one-line error, not a ZeroDivisionError from the panel grid,
    and no file is written."""
    from posreal.theory import plots
    from posreal.theory.errors import SpecError

    with pytest.raises(SpecError, match="^invalid taxonomy plot: no cells; accepted: one or more posreal alpha"):
        plots.plot_taxonomy([], [32], str(tmp_path / "t.png"))
    with pytest.raises(SpecError, match="^invalid geometry plot: no geometries; accepted: one or more geometry"):
        plots.plot_geometries({}, [32], str(tmp_path / "g.png"))
    assert not list(tmp_path.iterdir())
