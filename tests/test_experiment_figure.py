"""The experiment's figure (posreal.experiment.plots.write_figures) on the committed summary: small multiples
of the realizable cells only, the others named in words; text readable at page width; one colour per recipe
and greys for the witnesses; legends of at most eight entries."""

from __future__ import annotations

import json
from pathlib import Path

import matplotlib.pyplot as plt
import pytest
from matplotlib.colors import to_hex

from posreal.experiment import plots

SUMMARY = Path(__file__).resolve().parents[1] / "docs" / "data" / "experiment" / "summary.json"


@pytest.fixture(scope="module")
def drawn(tmp_path_factory):
    """The figure object (kept open) and the summary it was drawn from."""
    summary = json.loads(SUMMARY.read_text())
    kept = []
    real_save = plots.save_figure
    plots.save_figure = lambda fig, path, dpi, force=False: (kept.append((fig, dpi)), real_save(fig, path, dpi,
                                                                                                 force))
    try:
        (path,) = plots.write_figures(summary, tmp_path_factory.mktemp("fig"))
    finally:
        plots.save_figure = real_save
    yield kept[0], summary, path
    plt.close("all")


def test_only_realizable_cells_get_a_panel_and_the_others_are_named(drawn):
    (fig, _), summary, path = drawn
    realizable = [(c["pe"], c["task"]) for c in summary["witness_cells"] if c["realizable"]]
    hidden = [(c["pe"], c["task"]) for c in summary["witness_cells"] if not c["realizable"]]
    assert realizable and hidden                                       # the committed grid has both kinds
    visible = [ax for ax in fig.axes if ax.get_visible()]
    assert [ax.get_title().replace("\n", " ") for ax in visible] == [f"{pe} · {task}" for pe, task in realizable]
    title = fig.get_suptitle().replace("\n", " ")
    assert f"Not realizable at L0, so no panel ({len(hidden)} cells)" in title
    assert all(f"{pe} · {task}" in title for pe, task in hidden)
    assert path.stat().st_size > 10_000


def test_text_is_readable_at_page_width(drawn):
    """At most four panels a row in a 10-inch figure: a 750 px page shows 8 pt text at about 8 px or more."""
    (fig, dpi), _, _ = drawn
    width_in = fig.get_size_inches()[0]
    assert width_in <= plots.WIDTH and plots.COLUMNS == 4
    smallest = min(t.get_fontsize() for ax in fig.axes if ax.get_visible()
                   for t in [ax.title, ax.xaxis.label, ax.yaxis.label, *ax.get_xticklabels()])
    assert smallest >= 8
    assert smallest * 750 / (width_in * 72) >= 8


def test_colour_is_the_recipe_and_legends_are_short(drawn):
    (fig, _), summary, _ = drawn
    recipes, predictions = fig.legends
    assert len(recipes.get_texts()) == len(summary["recipes"]) <= 8
    assert len(predictions.get_texts()) <= 8
    recipe_colours = {to_hex(h.get_color()) for h in recipes.legend_handles}
    prediction_colours = {to_hex(h.get_color()) for h in predictions.legend_handles if "threshold" not in h.get_label()}
    assert not recipe_colours & prediction_colours                # a witness is never drawn in a recipe's colour
