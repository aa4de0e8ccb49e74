"""Tests for survivors of the seed-6 mutation sample (``benchmarks/mutation-report-seed6.md``), second part.

Written after that run listed its survivors (lines 33-46).  Each pins a behaviour the suite did not check:

* kernels: the exact kernel of a general encoding asks its features with one row index per key index and
  the train length it was given (an ``Encoding`` subclass that checks both);
* plots: the taxonomy figure's panel titles (the PE) and x labels (``L``); the geometry figure's legend
  pairs each cell's label with its line, also when a panel has bands;
* selection: the one-line error for a bad train length; a float selection with one structural tie among
  nonzero training differences reports that tie;
* steepest descent: the one-line error for a bad step size;
* underdetermination: the construction is reproducible from its seed; asking a length of a learned result
  that does not realize the task at L0 gives the one-line error saying so.

Expected values are derived in the tests (by hand or from a documented identity), not copied from output.
"""

from __future__ import annotations

from fractions import Fraction as F

import matplotlib.pyplot as plt
import numpy as np
import pytest
from matplotlib.lines import Line2D
from posreal.theory import plots
from posreal.theory.encodings import Encoding
from posreal.theory.pe_specs import LearnedAbsolute
from posreal.theory.errors import SpecError
from posreal.theory.transfer import exact_transfer
from posreal.theory.selection import select
from posreal.theory.steepest import steepest_descent
from posreal.theory.tasks import parse_task
from posreal.theory.underdetermination import LearnedInterval, construct_block


class _CheckedGeneral(Encoding):
    """A rational general PE ψ(i, j) = (i, j, L0): refuses rows and keys of different lengths."""

    kind = "general"
    index = "position"
    rational = True

    def dim(self, train_length):
        return 3

    def index_features(self, rows, keys, train_length):
        rows, keys = np.asarray(rows), np.asarray(keys)
        assert rows.shape == keys.shape
        return np.stack([rows, keys, np.full(rows.shape, train_length)], axis=1).astype(float)

    def exact_index_features(self, rows, keys, train_length):
        assert len(rows) == len(keys), (len(rows), len(keys))
        return [(F(i), F(k), F(train_length)) for i, k in zip(rows, keys)]

    def __str__(self):
        return "checked-general"


def test_exact_kernel_of_a_general_encoding_uses_one_row_per_key_and_the_train_length():
    theta = [F(1), F(10), F(100)]
    kernel = exact_transfer(_CheckedGeneral(), theta, 3, 5)
    for i in range(3):
        assert kernel.row(i)[: i + 1] == [i + 10 * j + 100 * 5 for j in range(i + 1)]


def _captured(monkeypatch) -> list:
    figures: list = []
    close = plt.close
    monkeypatch.setattr(plots.plt, "close", lambda fig=None: (figures.append(fig), close(fig)))
    return figures


def test_taxonomy_panels_are_titled_by_pe_with_x_label_L(monkeypatch, tmp_path):
    figures = _captured(monkeypatch)
    docs = [{"pe": pe, "task": "position:0", "train_length": 4, "realizable": True, "alpha": {"4": 1.0, "8": 0.5}}
            for pe in ("relbias", "alibi")]
    plots.plot_taxonomy(docs, [4, 8], str(tmp_path / "t.png"))
    axes = [ax for ax in figures[0].axes if ax.get_visible()]
    assert [ax.get_title() for ax in axes] == ["relbias", "alibi"]
    assert [ax.get_xlabel() for ax in axes] == ["L", "L"]


def test_geometry_legend_pairs_each_label_with_its_line(monkeypatch, tmp_path):
    figures = _captured(monkeypatch)
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


def test_select_bad_train_length_message():
    with pytest.raises(SpecError) as err:
        select("relbias", "position:0", 0)
    assert str(err.value) == "invalid train length 0; accepted: an integer >= 1"


def test_float_select_reports_one_structural_tie_among_nonzero_differences():
    # relbias:1 clips offsets at 1: at row 1 target 0 (offset 1) and key 1 (offset 0) differ, at row 2 target 0
    # (offset 2) and key 1 (offset 1) have the same feature: one zero training difference among nonzero ones
    sel = select("relbias:1", "position:0", 4, exact=False)
    assert sel.reason == "structural tie at row 2 of the L0-grid: keys 0 (target) and 1 have equal features"


def test_steepest_descent_bad_step_size_message():
    with pytest.raises(SpecError) as err:
        steepest_descent("relbias", "position:0", 4, "l2", steps=1, step_size=-1.0)
    assert str(err.value) == "invalid step size -1.0; accepted: a finite number > 0"


def test_construction_is_reproducible_from_its_seed():
    a = construct_block("position:0", 4, train_length=4, seed=3)
    b = construct_block("position:0", 4, train_length=4, seed=3)
    assert np.array_equal(a.W, b.W) and np.array_equal(a.E, b.E)


def test_length_of_an_unrealized_learned_result_message():
    result = LearnedInterval(LearnedAbsolute(2), parse_task("position:0"), 4, (8,), None, -1.0)  # type: ignore[arg-type]
    assert not result.realizable
    with pytest.raises(SpecError) as err:
        result.interval(8)
    assert str(err.value) == "invalid length 8; accepted: none: the task is not realized at L0"
