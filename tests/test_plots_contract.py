"""Module-wide contract of the figures (posreal.plots): every public figure function is run on small
hand-made inputs and the figure it closes is checked as an object.

Two kinds of check:

* what follows from the input is computed here from the input: the plotted points (the dodge of each task
  and geometry), the colour, marker and width of each task, the panel grid and the written PNG's pixel
  size, which cells the extension figure shows, the titles, labels and legend entries, the refusals;
* the pure style details no input determines (font sizes, greys, line widths, marker sizes, alphas) are
  compared with a stored *figure description*: :func:`describe` walks the figure's artists into a
  JSON-able dict holding only properties the module sets (no automatic tick positions, no renderer
  extents), kept per scenario in ``tests/data/plots/figures.json``.

Regenerate the stored descriptions (only after a deliberate change of a figure; commit the JSON on its own
and say why in the message)::

    PYTHONPATH=. python tests/test_plots_contract.py --regenerate
"""

from __future__ import annotations

import json
import struct
import sys
import warnings
from collections.abc import Callable
from pathlib import Path
from typing import Any

import matplotlib.pyplot as plt
import pytest
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.colors import to_hex
from matplotlib.figure import Figure
from matplotlib.text import Text
from posreal import plots
from posreal.theory.errors import SpecError

GOLDEN = Path(__file__).parent / "data" / "plots" / "figures.json"
LENGTHS = [4, 16, 64]


# --------------------------------------------------------------------------- inputs
def _taxonomy_docs() -> list[dict[str, Any]]:
    """Five PEs (a 2 x 3 grid with one hidden panel), three tasks, one PE with nothing realizable."""
    pes = ["relbias", "alibi", "rope", "abscol:16", "nope"]
    tasks = ["offset:1", "position:0", "copy"]
    docs = []
    for p, pe in enumerate(pes):
        for t, task in enumerate(tasks):
            realizable = pe != "nope" and (p, t) != (1, 2)
            alpha = {str(L): round(1.0 / (1 + p + t * k), 4) for k, L in enumerate(LENGTHS)} if realizable else {}
            docs.append({"pe": pe, "task": task, "realizable": realizable, "train_length": 8, "alpha": alpha})
    return docs


def _geometry_docs() -> dict[str, list[dict[str, Any]]]:
    """Four geometries (three styled, one unknown), two tasks, five PEs, intervals both wide and closed."""
    pes = ["relbias", "alibi", "rope", "abscol:16", "nope"]
    tasks = ["offset:1", "copy"]
    by_geometry: dict[str, list[dict[str, Any]]] = {}
    for g, name in enumerate(["l2", "linf", "l1", "l3"]):
        docs = []
        for p, pe in enumerate(pes):
            for t, task in enumerate(tasks):
                realizable = pe != "nope" and (g, p, t) != (1, 1, 0)
                interval = {str(L): [0.25 * ((p + k) % 3), 0.25 * ((p + k) % 3) + (0.25 if (g + t + k) % 2 else 0.0)]
                            for k, L in enumerate(LENGTHS)} if realizable else {}
                docs.append({"pe": pe, "task": task, "realizable": realizable, "alpha_interval": interval})
        by_geometry[name] = docs
    return by_geometry


def _cell(pe: str, task: str, alpha: float | None, *, applicable: bool | None = True,
          train_length: int | None = 8) -> dict[str, Any]:
    """One ``posreal table --extension --json`` cell; ``alpha`` None: not realizable; ``applicable`` None:
    the key is absent (as for the method ``none``)."""
    cell: dict[str, Any] = {"pe": pe, "task": task, "realizable": alpha is not None,
                            "alpha": {} if alpha is None else {str(L): alpha / (k + 1) for k, L in enumerate(LENGTHS)}}
    if applicable is not None:
        cell["applicable"] = applicable
    if train_length is not None:
        cell["train_length"] = train_length
    return cell


# The cells, in order, and which methods draw in each: "none" draws whenever realizable; a cell is shown
# only if some method other than "none" is applicable and realizable there.
_EXTENSION_ROWS: list[tuple[str, str, dict[str, tuple[float | None, bool | None]]]] = [
    ("rope", "offset:1", {"none": (1.0, None), "pi": (1.0, True), "ntk": (0.5, True), "yarn": (0.75, True),
                          "window": (0.25, True)}),
    ("rope", "copy", {"none": (0.5, None), "pi": (None, True), "ntk": (0.5, False), "yarn": (None, True),
                      "window": (None, True)}),                                  # nothing but "none": hidden
    ("alibi", "offset:1", {"none": (None, None), "pi": (0.5, True), "ntk": (None, True), "yarn": (1.0, True),
                           "window": (None, True)}),
    ("abscol:16", "position:0", {"none": (0.75, None), "pi": (0.75, False), "ntk": (0.25, True),
                                 "yarn": (0.5, False), "window": (None, True)}),
    ("abssin", "position:0", {"none": (1.0, None), "pi": (None, True), "ntk": (1.0, False), "yarn": (None, True),
                              "window": (1.0, None)}),             # shown only as "applicable" absent means applies
    ("relbias", "offset:1", {"none": (1.0, None), "pi": (1.0, False), "ntk": (1.0, False), "yarn": (1.0, False),
                             "window": (1.0, False)}),                           # refused everywhere: hidden
    ("rope", "position:0", {"none": (0.25, None), "pi": (0.25, True), "ntk": (None, True), "yarn": (0.5, True),
                            "window": (0.5, True)}),
]
_METHODS = ["none", "pi", "ntk", "yarn", "window"]


def _extension_docs(train_length: int | None = 8) -> dict[str, list[dict[str, Any]]]:
    return {m: [_cell(pe, task, row[m][0], applicable=row[m][1], train_length=train_length)
                for pe, task, row in _EXTENSION_ROWS] for m in _METHODS}


def _drawn(d: dict[str, Any]) -> bool:
    return bool(d.get("applicable", True) and d.get("realizable"))


# --------------------------------------------------------------------------- running and describing
def _run(monkeypatch: pytest.MonkeyPatch, plot: Callable[[Path], None], path: Path, *,
         render: bool = True) -> tuple[Figure, dict[str, Any]]:
    """Run ``plot(path)``; return the one figure it closed (recorded, then closed for real) and the keyword
    arguments it saved the figure with; any warning fails.  ``render=False`` records the save without drawing
    (fast: no layout pass, no PNG)."""
    figures: list[Any] = []
    saves: list[dict[str, Any]] = []
    close = plt.close
    savefig = Figure.savefig

    def record(fig: Any = None) -> None:
        figures.append(fig)
        close(fig)

    def save(fig: Figure, fname: Any, **kwargs: Any) -> None:
        saves.append({"fig": fig, "fname": fname, **kwargs})
        if render:
            savefig(fig, fname, **kwargs)

    monkeypatch.setattr(plots.plt, "close", record)
    monkeypatch.setattr(Figure, "savefig", save)
    with warnings.catch_warnings():
        warnings.simplefilter("error")                   # a figure drawn as intended draws without a warning
        plot(path)
    monkeypatch.undo()
    assert len(figures) == 1 and isinstance(figures[0], Figure), "the figure is closed once, by itself"
    (saved,) = saves
    assert saved.pop("fig") is figures[0] and saved.pop("format") == "png", "saved once, as a PNG"
    assert hasattr(saved.pop("fname"), "write") and path.is_file(), "into a file object that became the path given"
    return figures[0], saved


def _png_size(path: Path) -> tuple[int, int]:
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and data[12:16] == b"IHDR"
    return struct.unpack(">II", data[16:24])


def _colour(value: Any) -> str | None:
    return None if value is None else to_hex(value, keep_alpha=True)


def _number(value: Any) -> Any:
    return None if value is None else float(value)


def _text(t: Text, frame: dict[int, str]) -> dict[str, Any]:
    """A text artist; its position only where the module sets it (axes or figure coordinates), not where the
    layout puts an axis label."""
    where = frame.get(id(t.get_transform()), "other")
    return {"text": t.get_text(), "position": None if where == "other" else [float(v) for v in t.get_position()],
            "frame": where, "ha": t.get_horizontalalignment(),
            "va": t.get_verticalalignment(), "fontsize": float(t.get_fontsize()), "colour": _colour(t.get_color()),
            "style": t.get_style(), "visible": t.get_visible()}


def _line(line: Any) -> dict[str, Any]:
    return {"x": [float(v) for v in line.get_xdata()], "y": [float(v) for v in line.get_ydata()],
            "colour": _colour(line.get_color()), "linestyle": line.get_linestyle(), "lw": float(line.get_linewidth()),
            "marker": str(line.get_marker()), "ms": float(line.get_markersize()),
            "mfc": _colour(line.get_markerfacecolor()), "mew": float(line.get_markeredgewidth()),
            "alpha": _number(line.get_alpha()), "label": line.get_label()}


def _tick_params(axis: Any) -> dict[str, Any]:
    params = dict(axis.get_tick_params())
    for key in ("grid_color", "color", "labelcolor"):
        if key in params:
            params[key] = _colour(params[key])
    return {k: (float(v) if isinstance(v, int | float) and not isinstance(v, bool) else v)
            for k, v in sorted(params.items())}


def _axes(ax: Any, index: dict[int, int], fig: Figure) -> dict[str, Any]:
    frame = {id(ax.transAxes): "axes", id(ax.transData): "data", id(fig.transFigure): "figure"}
    x_transform = ax.xaxis.get_transform()
    fixed_ticks = type(ax.xaxis.get_major_locator()).__name__ == "FixedLocator"
    return {
        "visible": ax.get_visible(),
        "title": _text(ax.title, frame),
        "xlabel": _text(ax.xaxis.label, frame), "ylabel": _text(ax.yaxis.label, frame),
        "xscale": ax.get_xscale(), "xbase": _number(getattr(x_transform, "base", None)), "yscale": ax.get_yscale(),
        "xlim": None if ax.get_autoscalex_on() else [float(v) for v in ax.get_xlim()],
        "ylim": None if ax.get_autoscaley_on() else [float(v) for v in ax.get_ylim()],
        "xticks": [float(v) for v in ax.get_xticks()] if fixed_ticks else None,
        "xticklabels": [_text(t, frame) for t in ax.get_xticklabels()] if fixed_ticks else None,
        "xminor": type(ax.xaxis.get_minor_locator()).__name__,
        "xtick_params": _tick_params(ax.xaxis), "ytick_params": _tick_params(ax.yaxis),
        "sharey": sorted(index[id(a)] for a in ax.get_shared_y_axes().get_siblings(ax)),
        "lines": [_line(line) for line in ax.get_lines()],
        "texts": [_text(t, frame) for t in ax.texts],
    }


def _legend(legend: Any, fig: Figure) -> dict[str, Any]:
    frame = {id(fig.transFigure): "figure"}
    anchor = legend.get_bbox_to_anchor().transformed(fig.transFigure.inverted())
    return {"title": _text(legend.get_title(), frame), "texts": [_text(t, frame) for t in legend.get_texts()],
            "handles": [_line(h) for h in legend.legend_handles], "frameon": legend.get_frame_on(),
            "anchor": [round(float(v), 9) for v in anchor.bounds]}


def describe(fig: Figure, saved: dict[str, Any]) -> dict[str, Any]:
    """The figure as JSON-able data: only properties the module sets, no automatic tick positions or extents."""
    index = {id(ax): k for k, ax in enumerate(fig.axes)}
    engine = fig.get_layout_engine()
    return {"savefig": saved, "inches": [float(v) for v in fig.get_size_inches()],
            "layout": None if engine is None else type(engine).__name__,
            "texts": [_text(t, {id(fig.transFigure): "figure"}) for t in fig.texts],
            "legends": [_legend(legend, fig) for legend in plots.legends(fig)],
            "axes": [_axes(ax, index, fig) for ax in fig.axes]}


SCENARIOS: dict[str, Callable[[Path], None]] = {
    "taxonomy": lambda path: plots.plot_taxonomy(_taxonomy_docs(), LENGTHS, str(path)),
    "geometries": lambda path: plots.plot_geometries(_geometry_docs(), LENGTHS, str(path)),
    "extensions": lambda path: plots.plot_extensions(_extension_docs(), LENGTHS, str(path)),
}


def _describe_scenario(name: str, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> dict[str, Any]:
    return describe(*_run(monkeypatch, SCENARIOS[name], tmp_path / f"{name}.png", render=False))


@pytest.fixture(scope="module")
def scenario(tmp_path_factory: pytest.TempPathFactory) -> Callable[[str], tuple[Figure, dict[str, Any]]]:
    """``scenario(name)``: the figure of a scenario and its save arguments, made once per module (read only)."""
    made: dict[str, tuple[Figure, dict[str, Any]]] = {}

    def get(name: str) -> tuple[Figure, dict[str, Any]]:
        if name not in made:
            with pytest.MonkeyPatch.context() as mp:
                made[name] = _run(mp, SCENARIOS[name], tmp_path_factory.mktemp(name) / f"{name}.png", render=False)
        return made[name]

    return get


# --------------------------------------------------------------------------- the stored descriptions
@pytest.mark.parametrize("name", sorted(SCENARIOS))
def test_figure_matches_its_stored_description(name: str, scenario: Callable[[str], Any]) -> None:
    """Every artist property the module sets equals the stored description (regenerate: see the module doc)."""
    expected = json.loads(GOLDEN.read_text(encoding="utf-8"))[name]
    actual = json.loads(json.dumps(describe(*scenario(name))))
    for key in expected:
        if key == "axes":
            assert len(actual["axes"]) == len(expected["axes"])
            for k, (a, e) in enumerate(zip(actual["axes"], expected["axes"])):
                for field in e:
                    assert a[field] == e[field], f"axes {k}: {field}"
        else:
            assert actual[key] == expected[key], key
    assert actual == expected


# --------------------------------------------------------------------------- shared helpers
def _grid(panels: int) -> tuple[int, int]:
    """Columns and rows of the panel grid: at most two columns (page width), as many rows as needed."""
    cols = min(2, panels)
    return cols, -(-panels // cols)


def _inches(fig: Figure, legend_rows: int, panels: int) -> list[float]:
    """The figure's size: 7.6 inches wide (the page's width); high: 0.24 a line of its title, 0.3 + 0.2 a row of
    legend entries for the legend strip, 2.5 a row of panels."""
    lines = fig.get_suptitle().count("\n") + 1
    return [7.6, 0.24 * lines + 0.3 + 0.2 * legend_rows + 2.5 * _grid(panels)[1]]


def _hex(colour: Any) -> str:
    return to_hex(colour, keep_alpha=True)


def _marked(ax: Any) -> list[Any]:
    """The curves of a panel (lines with a marker), not the interval bars."""
    return [line for line in ax.get_lines() if line.get_marker() not in ("None", None, "")]


def _bars(ax: Any) -> list[Any]:
    return [line for line in ax.get_lines() if line.get_marker() in ("None", None, "")]


def _check_grid(fig: Figure, panels: int, titles: list[str]) -> list[Any]:
    """The figure holds a full grid of which exactly the first ``panels`` are visible, titled in order."""
    cols, rows = _grid(panels)
    assert len(fig.axes) == cols * rows
    assert [ax.get_visible() for ax in fig.axes] == [True] * panels + [False] * (cols * rows - panels)
    shown = fig.axes[:panels]
    assert [ax.get_title() for ax in shown] == titles
    return shown


def _check_length_axis(ax: Any, lengths: list[int]) -> None:
    """The shared length axis of the taxonomy and geometry figures: log base 2, ticked and labelled at the
    lengths, a quarter of a length's margin either side, alpha on [-0.05, 1.05], both axes labelled."""
    assert ax.get_xscale() == "log" and ax.xaxis.get_transform().base == 2
    assert list(ax.get_xticks()) == lengths
    assert [t.get_text() for t in ax.get_xticklabels()] == [str(L) for L in lengths]
    assert ax.get_xlim() == (min(lengths) / 1.25, max(lengths) * 1.25)
    assert ax.get_ylim() == (-0.05, 1.05)
    assert (ax.get_xlabel(), ax.get_ylabel()) == ("L", "α_L")


def _check_empty_note(ax: Any, expected: bool) -> None:
    note = "no task realizable at L0:\nnothing to transfer"
    assert [t.get_text() for t in ax.texts] == ([note] if expected else [])


# --------------------------------------------------------------------------- task styles and dodging
@pytest.mark.parametrize("count", [1, 2, 5, 10, 11, 13, 21])
def test_task_styles_follow_the_tasks_place(count: int) -> None:
    """Colour k of tab10 (tab20 beyond ten tasks), marker k of the marker list (cycling), width evenly from 3
    (first task) down to 1 (last), the same marker size for every task."""
    tasks = [f"task{k}" for k in range(count)]
    styles = plots.task_styles(tasks)
    assert list(styles) == tasks
    palette = plt.get_cmap("tab10" if count <= 10 else "tab20")
    assert [s.colour for s in styles.values()] == [to_hex(palette(k % palette.N)) for k in range(count)]
    assert [s.marker for s in styles.values()] == [plots.MARKERS[k % len(plots.MARKERS)] for k in range(count)]
    widths = [s.width for s in styles.values()]
    assert widths[0] == 3.0 and widths[-1] == (1.0 if count > 1 else 3.0)
    if count > 2:
        steps = [a - b for a, b in zip(widths, widths[1:])]
        assert steps == pytest.approx([2.0 / (count - 1)] * (count - 1))
    assert {s.size for s in styles.values()} == {6.0}


def test_dodged_shifts_each_length_by_whole_dodge_steps_in_doublings() -> None:
    lengths = [4, 16, 64]
    assert plots.dodged(lengths, 0) == [4.0, 16.0, 64.0]
    for slot in (1.0, -0.5, 2.0):
        assert plots.dodged(lengths, slot) == pytest.approx([L * 2 ** (slot * plots.DODGE) for L in lengths])
    assert plots.dodged(lengths, 1.0)[0] > 4 > plots.dodged(lengths, -1.0)[0]


# --------------------------------------------------------------------------- the taxonomy figure
def test_taxonomy_figure_plots_its_inputs(scenario: Callable[[str], Any]) -> None:
    """Per PE a panel; per realizable (PE, task) a curve of its alphas at the lengths, dodged by the task's
    place about the middle, in the task's style; the legend lists every task in its style."""
    docs = _taxonomy_docs()
    fig, saved = scenario("taxonomy")
    pes = list(dict.fromkeys(d["pe"] for d in docs))
    tasks = list(dict.fromkeys(d["task"] for d in docs))
    styles = plots.task_styles(tasks)
    middle = (len(tasks) - 1) / 2
    assert saved == {"dpi": 150}
    assert list(fig.get_size_inches()) == pytest.approx(_inches(fig, -(-len(tasks) // 4), len(pes)))
    for ax, pe in zip(_check_grid(fig, len(pes), pes), pes):
        drawn = [d for d in docs if d["pe"] == pe and d["realizable"]]
        lines = ax.get_lines()
        assert len(lines) == len(drawn)
        for line, d in zip(lines, drawn):
            t = tasks.index(d["task"])
            style = styles[d["task"]]
            assert list(line.get_xdata()) == pytest.approx([L * 2 ** ((t - middle) * plots.DODGE) for L in LENGTHS])
            assert list(line.get_ydata()) == [d["alpha"][str(L)] for L in LENGTHS]
            assert (_hex(line.get_color()), line.get_marker()) == (_hex(style.colour), style.marker)
            assert (line.get_linewidth(), line.get_markersize()) == (style.width, style.size)
            assert (line.get_linestyle(), line.get_markerfacecolor()) == ("-", "none")
        _check_length_axis(ax, LENGTHS)
        _check_empty_note(ax, not drawn)
    (legend,) = plots.legends(fig)
    assert legend.get_title().get_text() == "task"
    assert [t.get_text() for t in legend.get_texts()] == tasks
    assert [(_hex(h.get_color()), h.get_marker()) for h in legend.legend_handles] == [
        (_hex(s.colour), s.marker) for s in styles.values()]
    assert fig.get_suptitle() == ("α_L against L (train length 8); a task missing from a panel is not "
                                  "realizable at L0")


@pytest.mark.parametrize("count", [1, 2, 3, 4, 9])
def test_taxonomy_grid_has_at_most_two_columns(count: int, monkeypatch: pytest.MonkeyPatch,
                                               tmp_path: Path) -> None:
    pes = [f"pe{k}" for k in range(count)]
    docs = [{"pe": pe, "task": "copy", "realizable": True, "train_length": 4, "alpha": {"4": 1.0}} for pe in pes]
    fig, _ = _run(monkeypatch, lambda path: plots.plot_taxonomy(docs, [4], str(path)), tmp_path / "t.png",
                  render=False)
    _check_grid(fig, count, pes)
    assert list(fig.get_size_inches()) == pytest.approx(_inches(fig, 1, count))
    assert fig.axes[0].get_lines()[0].get_linewidth() == 3.0          # a lone task is drawn widest


# Exists because a mutant survived: the taxonomy legend's font size was unchecked.
def test_taxonomy_legend_and_empty_note_style(scenario: Callable[[str], Any]) -> None:
    """The legend is 9 pt without a frame; the note of an empty panel is centred, 9 pt, grey 0.35, italic,
    in the panel's own coordinates."""
    fig, _ = scenario("taxonomy")
    (legend,) = plots.legends(fig)
    assert {t.get_fontsize() for t in legend.get_texts()} == {9.0} and legend.get_title().get_fontsize() == 9.0
    assert not legend.get_frame_on()
    empty = fig.axes[4]
    (note,) = empty.texts
    assert note.get_transform() is empty.transAxes and tuple(note.get_position()) == (0.5, 0.5)
    assert (note.get_fontsize(), _hex(note.get_color()), note.get_style()) == (9.0, _hex("0.35"), "italic")
    assert (note.get_horizontalalignment(), note.get_verticalalignment()) == ("center", "center")


# --------------------------------------------------------------------------- the geometry figure
def test_geometry_figure_plots_its_inputs(scenario: Callable[[str], Any]) -> None:
    """Per realizable (PE, task, geometry) a curve of the intervals' lower ends, dodged by the task's and the
    geometry's place, in the task's colour and the geometry's line style and marker (the fallback for an
    unknown geometry), and a bar from lower to upper end wherever they differ."""
    by_geometry = _geometry_docs()
    fig, saved = scenario("geometries")
    names = list(by_geometry)
    every = [d for name in names for d in by_geometry[name]]
    tasks = list(dict.fromkeys(d["task"] for d in every))
    pes = list(dict.fromkeys(d["pe"] for d in every))
    styles = plots.task_styles(tasks)
    middle = (len(tasks) - 1) / 2
    assert saved == {"dpi": 150}
    assert list(fig.get_size_inches()) == pytest.approx(_inches(fig, max(len(names), -(-len(tasks) // 4)), len(pes)))
    for ax, pe in zip(_check_grid(fig, len(pes), pes), pes):
        curves, bars = [], []
        for g, name in enumerate(names):
            linestyle, marker, _ = plots.GEOMETRY_STYLES.get(name, plots.OTHER_GEOMETRY)
            for d in (d for d in by_geometry[name] if d["pe"] == pe and d["realizable"]):
                slot = tasks.index(d["task"]) - middle + (g - (len(names) - 1) / 2) * 0.3
                xs = [L * 2 ** (slot * plots.DODGE) for L in LENGTHS]
                lo, hi = ([d["alpha_interval"][str(L)][end] for L in LENGTHS] for end in (0, 1))
                colour = _hex(styles[d["task"]].colour)
                curves.append((xs, lo, colour, linestyle, marker, 1.2 if name == "l2" else 1.0))
                bars += [([x, x], [a, b], colour) for x, a, b in zip(xs, lo, hi) if b > a]
        got = [(list(c.get_xdata()), list(c.get_ydata()), _hex(c.get_color()), c.get_linestyle(), c.get_marker(),
                c.get_linewidth()) for c in _marked(ax)]
        assert len(got) == len(curves)
        for (gx, *grest), (ex, *erest) in zip(got, curves):
            assert gx == pytest.approx(ex) and grest == erest
        got_bars = [(list(b.get_xdata()), list(b.get_ydata()), _hex(b.get_color())) for b in _bars(ax)]
        assert len(got_bars) == len(bars)
        for (gx, gy, gc), (ex, ey, ec) in zip(got_bars, bars):
            assert gx == pytest.approx(ex) and (gy, gc) == (ey, ec)
        _check_length_axis(ax, LENGTHS)
        _check_empty_note(ax, not curves)
    task_legend, geometry_legend = plots.legends(fig)      # one legend per variable, one encoding each
    assert task_legend.get_title().get_text() == "task (colour)"
    assert geometry_legend.get_title().get_text() == "geometry (line, marker)"
    assert [t.get_text() for t in task_legend.get_texts()] == tasks
    assert [t.get_text() for t in geometry_legend.get_texts()] == ["ℓ2 (θ*)", "ℓ∞ [every, some]",
                                                                   "ℓ1 [every, some]", "l3"]
    handles = task_legend.legend_handles
    assert [_hex(h.get_color()) for h in handles] == [_hex(s.colour) for s in styles.values()]
    assert all(h.get_marker() in ("None", None, "") for h in handles)   # the marker is the geometry's alone
    assert [(h.get_linestyle(), h.get_marker()) for h in geometry_legend.legend_handles] == [
        plots.GEOMETRY_STYLES.get(n, plots.OTHER_GEOMETRY)[:2] for n in names]
    assert fig.get_suptitle().startswith("α_L in every geometry (a bar: the [every, some] interval")


# --------------------------------------------------------------------------- the extension figure
def test_extension_figure_plots_its_inputs(scenario: Callable[[str], Any]) -> None:
    """A panel per cell that some method other than ``none`` draws (applicable, or no ``applicable`` key,
    and realizable); in it a curve per drawing method, in the method's style, dodged by the method's place so
    that equal curves lie side by side; both axes labelled on every panel; one legend of every method drawn."""
    by_method = _extension_docs()
    fig, saved = scenario("extensions")
    first = by_method[_METHODS[0]]
    shown = [n for n in range(len(first)) if any(_drawn(by_method[m][n]) for m in _METHODS if m != "none")]
    assert shown == [0, 2, 3, 4, 6]                                    # the inputs' hidden cells: 1 and 5
    assert saved == {"dpi": 150}
    assert list(fig.get_size_inches()) == pytest.approx(_inches(fig, 1, len(shown)))
    axes = _check_grid(fig, len(shown), [f"{first[n]['pe']} · {first[n]['task']}" for n in shown])
    drawn_methods: list[str] = []
    for ax, n in zip(axes, shown):
        methods = [m for m in _METHODS if _drawn(by_method[m][n])]
        drawn_methods += [m for m in methods if m not in drawn_methods]
        lines = ax.get_lines()
        assert [line.get_label() for line in lines] == methods
        middle = (len(_METHODS) - 1) / 2
        for line, m in zip(lines, methods):
            slot = (_METHODS.index(m) - middle) * 2.0
            assert list(line.get_xdata()) == pytest.approx([L * 2 ** (slot * plots.DODGE) for L in LENGTHS])
            assert list(line.get_ydata()) == [by_method[m][n]["alpha"][str(L)] for L in LENGTHS]
        assert ax.get_xscale() == "log" and ax.xaxis.get_transform().base == 2
        assert ax.get_ylim() == (-0.05, 1.05)
    for ax in fig.axes[:len(shown)]:
        assert (ax.get_ylabel(), ax.get_xlabel()) == ("α_L", "L")
        assert ax.get_shared_y_axes().joined(ax, fig.axes[0])
    (legend,) = plots.legends(fig)
    assert [t.get_text() for t in legend.get_texts()] == drawn_methods
    assert fig.get_suptitle() == ("α_L under each length extension (train length 8); methods side by side at "
                                  "each L")


def test_extension_method_styles(scenario: Callable[[str], Any]) -> None:
    """Each known method in its colour, line style and marker together (one encoding of one variable); an
    unknown method grey, dash-dot, crosses; one width, hollow markers, nothing translucent."""
    fig, _ = scenario("extensions")
    for line in fig.axes[0].get_lines():
        colour, linestyle, marker = plots.EXTENSION_STYLES.get(line.get_label(), ("tab:gray", "-.", "x"))
        assert (_hex(line.get_color()), line.get_marker(), line.get_linestyle(), line.get_linewidth()) == (
            _hex(colour), marker, linestyle, 1.4)
        assert line.get_markersize() == 5 and line.get_markerfacecolor() == "none"
        assert line.get_alpha() is None


def test_extension_title_without_a_train_length(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """The train length is read from the first cell of any method that has one; without one the title says "?"."""
    def title(docs: dict[str, list[dict[str, Any]]]) -> str:
        fig, _ = _run(monkeypatch, lambda path: plots.plot_extensions(docs, [4], str(path), force=True),
                      tmp_path / "e.png", render=False)
        return fig.get_suptitle()

    docs = {"none": [_cell("rope", "offset:1", 1.0, applicable=None, train_length=None)],
            "pi": [_cell("rope", "offset:1", 1.0, train_length=None)]}
    assert title(docs).replace("\n", " ").startswith("α_L under each length extension (train length ?);")
    docs["pi"][0]["train_length"] = 12                   # only the last method's cell carries it
    assert title(docs).replace("\n", " ").startswith("α_L under each length extension (train length 12);")


def test_extension_figure_written_with_legend_between_title_and_panels(monkeypatch: pytest.MonkeyPatch,
                                                                        tmp_path: Path) -> None:
    """One panel: 7.6 x 3.24 inches at 150 dpi (constrained layout); the legend (one row, centred) sits above the
    panels and below the title, inside the figure."""
    cell = _cell("rope", "offset:1", 1.0)
    docs = {"none": [_cell("rope", "offset:1", 0.5, applicable=None)], "pi": [cell], "yarn": [cell]}
    path = tmp_path / "e.png"
    fig, _ = _run(monkeypatch, lambda p: plots.plot_extensions(docs, LENGTHS, str(p)), path)
    assert "\n" not in fig.get_suptitle()
    assert _png_size(path) == tuple(round(v * 150) for v in _inches(fig, 1, 1))
    (ax,) = fig.axes
    canvas = FigureCanvasAgg(fig)                          # a closed figure keeps only a bare canvas
    canvas.draw()
    renderer = canvas.get_renderer()
    panel = ax.get_window_extent(renderer).transformed(fig.transFigure.inverted())
    (legend,) = plots.legends(fig)
    box = legend.get_window_extent(renderer).transformed(fig.transFigure.inverted())
    assert box.y0 >= panel.y1 and box.y1 <= 1 and 0 < box.x0 < box.x1 < 1
    assert box.x0 + box.x1 == pytest.approx(1.0, abs=0.02)                 # centred
    assert len({round(t.get_window_extent(renderer).y0) for t in legend.get_texts()}) == 1   # one row
    title = fig._suptitle.get_window_extent(renderer).transformed(fig.transFigure.inverted())
    assert title.y0 >= box.y1 and title.y1 <= 1 and title.x0 >= 0 and title.x1 <= 1


# --------------------------------------------------------------------------- refusals
def test_every_figure_refuses_to_draw_nothing(tmp_path: Path) -> None:
    """No cells, no geometries, no methods, no cell that an extension acts on: a one-line SpecError naming
    what was missing and what is accepted; nothing is written."""
    cases: list[tuple[Callable[[], None], str]] = [
        (lambda: plots.plot_taxonomy([], [4], str(tmp_path / "t.png")),
         "invalid taxonomy plot: no cells; accepted: one or more posreal alpha --json documents"),
        (lambda: plots.plot_geometries({}, [4], str(tmp_path / "g.png")),
         "invalid geometry plot: no geometries; accepted: one or more geometry names with their posreal alpha "
         "--json documents"),
        (lambda: plots.plot_extensions({}, [4], str(tmp_path / "e.png")),
         "invalid extension plot: no methods; accepted: one or more methods with their cells"),
    ]
    only_none = {"none": [_cell("rope", "offset:1", 1.0, applicable=None)]}
    refused = {"none": [_cell("rope", "copy", 1.0, applicable=None)],
               "pi": [_cell("rope", "copy", 1.0, applicable=False)], "ntk": [_cell("rope", "copy", None)]}
    for docs in (only_none, refused):
        cases.append((lambda docs=docs: plots.plot_extensions(docs, [4], str(tmp_path / "e.png")),
                      "invalid extension plot: no realizable cell that an extension acts on; accepted: cells of "
                      "rope, abscol, abssin or alibi that are realizable at L0"))
    for call, message in cases:
        with pytest.raises(SpecError) as caught:
            call()
        assert str(caught.value) == message and "\n" not in message
    assert not list(tmp_path.iterdir())


def _regenerate() -> None:
    """Rewrite the stored descriptions from the current module."""
    import tempfile

    descriptions = {}
    with tempfile.TemporaryDirectory() as tmp, pytest.MonkeyPatch.context() as mp:
        for name in sorted(SCENARIOS):
            descriptions[name] = _describe_scenario(name, mp, Path(tmp))
    GOLDEN.parent.mkdir(parents=True, exist_ok=True)
    GOLDEN.write_text(json.dumps(descriptions, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"wrote {GOLDEN}")


if __name__ == "__main__":
    if sys.argv[1:] != ["--regenerate"]:
        sys.exit("usage: PYTHONPATH=. python tests/test_plots_contract.py --regenerate")
    _regenerate()
