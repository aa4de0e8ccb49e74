"""Every figure reads at a glance at the docs' content width (760 px): drawn from inputs of the registry's size
(12 PEs × 8 tasks, three geometries, 16 extension cells × 4 methods, ``table --plot`` at 200 lengths, the
committed experiment summary), its smallest text is at least 9 px high on the page, no text is cut off by the
figure's edge, and no legend has more than eight entries.

The text height on the page is computed here from the figure alone: the smallest font size (points) of any
visible text artist, × dpi / 72 pixels in the PNG, × 760 / the PNG's width when the page shrinks it (a PNG
narrower than the page is shown at its own size).  Controls: the old four-column layout, a planted 6-pt label,
a planted text past the figure's edge and a nine-entry legend are each caught."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import matplotlib.pyplot as plt
import pytest
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure
from matplotlib.text import Text

from posreal import plots

PAGE_PX = 760          # the docs' content width
MIN_PX = 9             # the smallest text a reader takes in at a glance
MAX_LEGEND = 8         # entries a legend
SUMMARY = Path(__file__).resolve().parents[1] / "docs" / "data" / "experiment" / "summary.json"
PES = ["nope", "relbias", "alibi", "rope:16", "abssin:16", "abscol:16", "colbias", "t5", "alibi-fixed",
       "kerple-log", "xpos:16", "fire"]
TASKS = ["offset:1", "offset:2", "position:0", "position:1", "copy", "middle", "reverse", "half"]
LENGTHS = [32, 64, 128, 256]


# --------------------------------------------------------------------------- measuring
def _shown(t: Text) -> bool:
    """A text a reader sees: visible, not empty, and not in a hidden panel."""
    ax = t.axes
    return bool(t.get_visible() and t.get_text().strip() and (ax is None or ax.get_visible()))


def _texts(fig: Figure) -> list[Text]:
    FigureCanvasAgg(fig).draw()                        # tick labels exist once the figure is drawn
    return [t for t in fig.findobj(Text) if _shown(t)]


def page_text_px(fig: Figure, dpi: float) -> float:
    """Height in page pixels of the figure's smallest text, its PNG at ``dpi`` shown at most 760 px wide."""
    smallest = min(t.get_fontsize() for t in _texts(fig))
    png_width = fig.get_figwidth() * dpi
    return smallest / 72 * dpi * min(1.0, PAGE_PX / png_width)


def cut_off(fig: Figure) -> list[str]:
    """The texts that reach past the figure's edge (one pixel of slack for antialiasing)."""
    renderer = fig.canvas.get_renderer()
    whole = fig.bbox
    out = []
    for t in _texts(fig):
        box = t.get_window_extent(renderer)
        if box.x0 < whole.x0 - 1 or box.x1 > whole.x1 + 1 or box.y0 < whole.y0 - 1 or box.y1 > whole.y1 + 1:
            out.append(t.get_text())
    return out


def legend_sizes(fig: Figure) -> list[int]:
    every = [*fig.legends, *(legend for sub in fig.subfigs for legend in sub.legends)]
    return [len(legend.get_texts()) for legend in every]


def check_readable(fig: Figure, dpi: float) -> None:
    assert page_text_px(fig, dpi) >= MIN_PX
    assert cut_off(fig) == []
    assert legend_sizes(fig) and max(legend_sizes(fig)) <= MAX_LEGEND


# --------------------------------------------------------------------------- the figures, at full size
def _taxonomy_docs(lengths: list[int] = LENGTHS, pes: list[str] = PES) -> list[dict[str, Any]]:
    return [{"pe": pe, "task": task, "realizable": pe != "nope" and (p + t) % 3 != 0, "train_length": 16,
             "alpha": {str(L): 1.0 / (1 + (p + t + k) % 5) for k, L in enumerate(lengths)}}
            for p, pe in enumerate(pes) for t, task in enumerate(TASKS)]


def _geometry_docs() -> dict[str, list[dict[str, Any]]]:
    return {g: [{**d, "alpha_interval": {L: [a, min(1.0, a + 0.1 * n)] for L, a in d["alpha"].items()}}
                for d in _taxonomy_docs()] for n, g in enumerate(["l2", "linf", "l1"])}


def _extension_docs() -> dict[str, list[dict[str, Any]]]:
    cells = [(pe, task) for pe in ("rope:16", "abssin:16", "abscol:16", "xpos:16") for task in TASKS[:4]]
    return {m: [{"pe": pe, "task": task, "realizable": True, "train_length": 16, "applicable": m != "ntk" or k % 2 == 0,
                 "alpha": {str(L): 1.0 / (1 + (k + j) % 4) for j, L in enumerate(LENGTHS)}}
                for k, (pe, task) in enumerate(cells)] for m in ("none", "pi", "ntk", "yarn")}


MANY = list(range(17, 217))   # ``table --plot`` at 200 lengths
FIGURES: dict[str, Callable[[str], None]] = {
    "taxonomy": lambda path: plots.plot_taxonomy(_taxonomy_docs(), LENGTHS, path),
    "geometries": lambda path: plots.plot_geometries(_geometry_docs(), LENGTHS, path),
    "extensions": lambda path: plots.plot_extensions(_extension_docs(), LENGTHS, path),
    "table --plot, 200 lengths": lambda path: plots.plot_taxonomy(_taxonomy_docs(MANY, PES[:3]), MANY, path),
}


@pytest.fixture
def drawn(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Iterator[Callable[[Any, Callable], tuple]]:
    """``drawn(module, draw)``: the figure ``draw`` hands to ``module.save_figure`` (kept open) and its dpi."""
    kept: list[tuple[Figure, float]] = []

    def get(module: Any, draw: Callable[[str], Any]) -> tuple[Figure, float]:
        monkeypatch.setattr(module, "save_figure", lambda fig, path, dpi, force=False: kept.append((fig, dpi)))
        draw(str(tmp_path / "figure.png"))
        return kept[-1]

    yield get
    plt.close("all")


@pytest.mark.parametrize("name", sorted(FIGURES))
def test_figure_reads_at_page_width(name: str, drawn) -> None:
    fig, dpi = drawn(plots, FIGURES[name])
    check_readable(fig, dpi)


def test_experiment_figure_reads_at_page_width(drawn, tmp_path: Path) -> None:
    from posreal.experiment import plots as experiment_plots
    summary = json.loads(SUMMARY.read_text(encoding="utf-8"))
    fig, dpi = drawn(experiment_plots, lambda path: experiment_plots.write_figures(summary, tmp_path / "run"))
    check_readable(fig, dpi)


# --------------------------------------------------------------------------- controls
def test_the_old_four_column_layout_is_caught(drawn) -> None:
    """The taxonomy figure at its old width (four 3.3-inch panels and a 1.9-inch legend column): text under
    9 px on the page; at its own width the same figure passes."""
    fig, dpi = drawn(plots, FIGURES["taxonomy"])
    assert page_text_px(fig, dpi) >= MIN_PX
    fig.set_size_inches(3.3 * 4 + 1.9, fig.get_figheight())
    assert page_text_px(fig, dpi) < MIN_PX


def test_a_planted_small_font_is_caught(drawn) -> None:
    fig, dpi = drawn(plots, FIGURES["table --plot, 200 lengths"])
    fig.axes[1].text(0.5, 0.5, "planted", fontsize=6, transform=fig.axes[1].transAxes)
    assert page_text_px(fig, dpi) < MIN_PX
    with pytest.raises(AssertionError):
        check_readable(fig, dpi)


def test_text_past_the_edge_and_a_long_legend_are_caught(drawn) -> None:
    fig, dpi = drawn(plots, FIGURES["table --plot, 200 lengths"])
    assert cut_off(fig) == []
    fig.text(0.98, 0.5, "a title running off the edge", fontsize=10)
    assert cut_off(fig) == ["a title running off the edge"]
    nine = [f"task{k}" for k in range(9)]
    docs = [{"pe": "relbias", "task": t, "realizable": True, "train_length": 16, "alpha": {"32": 1.0}} for t in nine]
    fig, dpi = drawn(plots, lambda path: plots.plot_taxonomy(docs, [32], path))
    assert legend_sizes(fig) == [9]
    with pytest.raises(AssertionError):
        check_readable(fig, dpi)
