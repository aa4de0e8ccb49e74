"""Tests for survivors of the seed-2 mutation sample (``benchmarks/mutation-report-seed2.md``), second part.

Each pins a behaviour the suite did not check:

* the flow evidence's verdict is read from the flow's last point; the exact tie classification names
  its structurally tied rows; the interval outcomes' counts are keyed by their documented names;
* exact arithmetic: ``to_domain`` keeps denominators, ``exact_transfer`` of a general table has the
  asked length;
* defaults and scales: steepest descent's ℓ2 step 1/β, ``train_block``'s train length, the (0, 1/d)
  normal draw of the constructed table E, the learned interval's work estimate;
* one-line errors: what is accepted by ``parse_int``, the argument named by task parsing, the
  nesting problem of a table file, the reason a direction has no prediction;
* documents: the provenance timestamp is in UTC; the taxonomy and geometry figures' marker size,
  legend font, panel text and pixel size.

Expected values are derived in the tests (by hand or from a documented identity), not copied from output.
"""

from __future__ import annotations

import struct
from datetime import datetime, timedelta
from fractions import Fraction as F

import numpy as np
import pytest
from posreal.theory.errors import SpecError


# --------------------------------------------------------------------------- flow, ties, outcomes
def test_tie_flow_verdict_is_read_from_the_last_point(monkeypatch):
    """The verdict belongs to the flow's final value (the one reported), not an earlier point."""
    from posreal.theory import flow

    # ⟨θ, v⟩ = θ for v = (1): -0.5 at τ = 100, then 0.5 at τ = 200; the drift over the last
    # STRETCH = 50 compares τ = 200 with itself (no point in [150, 200)), so it is 0
    path = flow.FlowPath(np.array([0.0, 100.0, 200.0]), np.array([[0.0], [-0.5], [0.5]]), True)
    monkeypatch.setattr(flow, "integrate", lambda *args: path)
    (ev,) = flow.tie_flow(None, None, 4, [[1.0]])
    assert (ev.tau, ev.value, ev.drift) == (200.0, 0.5, 0.0)
    assert ev.verdict is flow.FlowVerdict.WINS


def test_exact_classification_names_the_structurally_tied_rows():
    """relbias · position:0 at L0 = 4, L = 8: offsets ≥ 3 share relbias' last bucket, so in rows
    i ≥ 4 the target key 0 (offset i) ties with key i - 3 (offset 3) for every θ: rows 4..7 fail as
    structural ties, each named by its row and target."""
    from posreal.theory.pe_specs import parse_pe
    from posreal.theory.selection import select
    from posreal.theory.tasks import parse_task
    from posreal.theory.ties import classify

    sel = select("relbias", "position:0", 4, exact=True)
    assert sel.exact_theta is not None
    cls = classify(parse_pe("relbias"), parse_task("position:0"), sel, 8)
    assert cls.exact
    assert [(f.row, f.target, f.cls) for f in cls.failing] == [(i, 0, "structural_tie") for i in range(4, 8)]


def test_interval_outcome_counts_use_their_documented_keys():
    """``counts()`` reports rows realized by every optimum under the key ``realized``."""
    from posreal.theory.geometry import IntervalOutcomes

    # every = (1, 0, -1, 1), some = (1, 1, -1, 0): realized by every θ: rows 0, 3; by some θ: rows 0, 1;
    # failed (some == -1): row 2; undecided in either: rows 1 (every) and 3 (some); one tie: row 2
    out = IntervalOutcomes(8, np.arange(4), np.zeros(4, dtype=int), np.array([1, 0, -1, 1], dtype=np.int8),
                           np.array([1, 1, -1, 0], dtype=np.int8), np.array([False, False, True, False]))
    assert out.counts() == {"realized": 2, "realized_by_some": 2, "failed": 1, "undecided": 2, "total": 4,
                            "structural_ties": 1}


# --------------------------------------------------------------------------- exact arithmetic
def test_to_domain_keeps_denominators():
    """A Fraction row goes to QQ with its denominator (1/2 stays 1/2, -3/4 stays -3/4)."""
    from posreal.theory.rational import from_domain, to_domain

    assert from_domain(to_domain([[F(1, 2), F(-3, 4)]])) == [[F(1, 2), F(-3, 4)]]


def test_exact_transfer_of_a_general_table_has_the_asked_length():
    """T_L θ of a general rational table is an L-grid kernel: its length and row i (i + 1 values) by hand."""
    from posreal.theory.tables import register_pe, unregister_pe
    from posreal.theory.transfer import exact_transfer

    triangle = [[[1, 0]], [[0, 2], [1, 1]], [[3, 0], [0, -1], [2, 2]]]
    register_pe("mk2b_general", [row + [[0, 0]] * (3 - len(row)) for row in triangle], "general")
    try:
        kernel = exact_transfer("mk2b_general", [F(1), F(1, 2)], 3, 3)
        assert kernel.length == 3
        # row 2: ψ = (3, 0), (0, -1), (2, 2) · θ = (1, 1/2) -> 3, -1/2, 3
        assert kernel.row(2) == [F(3), F(-1, 2), F(3)]
    finally:
        unregister_pe("mk2b_general")


# --------------------------------------------------------------------------- defaults and scales
def test_steepest_descent_l2_default_step_is_one_over_beta():
    """Without a step size, ℓ2 steepest descent steps 1/β (β: the grid's smoothness)."""
    from posreal.theory.steepest import steepest_descent
    from posreal.theory.training import training_grid

    beta = training_grid("relbias", "offset:1", 4, 4).smoothness()
    default = steepest_descent("relbias", "offset:1", 4, "l2", steps=1)
    explicit = steepest_descent("relbias", "offset:1", 4, "l2", steps=1, step_size=1.0 / beta)
    assert np.any(default != 0)
    assert np.array_equal(default, explicit)


def test_train_block_default_train_length_is_the_project_default():
    """``train_block``'s L0 defaults to the project's TRAIN_LENGTH (theory.defaults)."""
    from posreal.theory.defaults import TRAIN_LENGTH
    from posreal.theory.underdetermination import train_block

    block = train_block("offset:1", 4, steps=0)
    assert block.train_length == TRAIN_LENGTH and block.E.shape == (TRAIN_LENGTH, 4)


def test_constructed_table_rows_are_centred_with_scale_one_over_root_d():
    """E of ``construct_block`` is drawn N(0, 1/d): with d = 64, L0 = 4 (256 entries) the sample mean is
    near 0 (its sd is 1/8/16 ≈ 0.008) and the sample sd near 1/8 (a draw N(1/8, 1) has sd ≈ 1, mean ≈ 1/8)."""
    from posreal.theory.underdetermination import construct_block

    E = construct_block("offset:1", 64, train_length=4).E
    assert abs(E.mean()) < 0.05
    assert 0.5 < E.std() * np.sqrt(64) < 2.0


def test_learned_estimate_work_by_hand():
    """work = 6·steps·(L0 d² + L0² d) + 2·samples·Σ_L (L d² + L² d)."""
    from posreal.theory.resources import learned_estimate

    # d = 2, L0 = 4, steps = 1: 6·(16 + 32) = 288; samples = 3, L = 8: 2·3·(32 + 128) = 960
    assert learned_estimate("x", 2, 4, [8], 1, 3).work == 288 + 960


# --------------------------------------------------------------------------- one-line errors
@pytest.mark.parametrize("text", [7, "1x", "9"])
def test_parse_int_error_says_what_is_accepted(text):
    """Each refusal (not a string, not digits, out of range) says which integers are accepted."""
    from posreal.theory.resources import parse_int

    with pytest.raises(SpecError) as err:
        parse_int(text, "count", 0, 5)
    assert str(err.value).startswith("invalid count ")
    assert str(err.value).endswith("; accepted: an integer from 0 to 5 (ASCII digits)")


def test_bad_task_parameter_names_the_task_argument():
    """A non-digit offset is refused as an invalid *task* (the argument is named)."""
    from posreal.theory.tasks import parse_task

    with pytest.raises(SpecError) as err:
        parse_task("offset:x")
    assert str(err.value).startswith("invalid task ") and "offset:x" in str(err.value)


def test_table_file_nested_too_deeply_says_so(tmp_path):
    """A table file whose JSON nests deeper than any input file may (64) is refused with its depth."""
    from posreal.theory.tables import load_table

    path = tmp_path / "deep.json"
    path.write_text("[" * 200_000 + "]" * 200_000, encoding="utf-8")
    with pytest.raises(SpecError) as err:
        load_table(str(path))
    assert str(err.value) == (f"malformed feature table file {str(path)!r}: JSON nested 200000 levels deep; "
                              "accepted: at most 64")


def test_direction_outside_the_support_span_has_a_readable_reason():
    """With constraints e_0, e_1 and support {e_0}, v = e_1 is not in the support's span: the reason is given."""
    from posreal.theory.limit import PredictionContext, predict_in

    ctx = PredictionContext([(F(1), F(0)), (F(0), F(1))], [0], [F(1)], [1])
    assert predict_in(ctx, [F(0), F(1)]) == "v's projection on col Zᵀ is not in the span of the support"


# --------------------------------------------------------------------------- documents
def test_provenance_timestamp_is_utc():
    """The timestamp carries the UTC offset (+00:00) and is whole seconds."""
    from posreal.theory.provenance import timestamp

    stamp = timestamp()
    assert stamp.endswith("+00:00")
    when = datetime.fromisoformat(stamp)
    assert when.utcoffset() == timedelta(0) and when.microsecond == 0


def _kept_figures(monkeypatch) -> list:
    from posreal.theory import plots

    figures: list = []
    monkeypatch.setattr(plots.plt, "close", figures.append)          # keep the figure to look at it
    return figures


def _png_size(path) -> tuple[int, int]:
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and data[12:16] == b"IHDR"
    return struct.unpack(">II", data[16:24])


def test_taxonomy_figure_legend_panel_text_and_pixel_size(tmp_path, monkeypatch):
    """Legend in 7 pt, the "no realizable task" note at the panel's centre, written at 120 dpi."""
    import matplotlib.pyplot as plt
    from posreal.theory import plots

    close = plt.close                                                  # the real one, to free the figures
    figures = _kept_figures(monkeypatch)
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


def test_geometry_figure_marker_size(tmp_path, monkeypatch):
    """Each cell's curve has markers of size 2."""
    import matplotlib.pyplot as plt
    from posreal.theory import plots

    figures = _kept_figures(monkeypatch)
    doc = {"pe": "relbias", "task": "offset:1", "realizable": True, "alpha_interval": {"32": [0.5, 1.0]}}
    plots.plot_geometries({"l2": [doc]}, [32], str(tmp_path / "g.png"))
    (line,) = figures[0].axes[0].get_lines()
    assert line.get_marker() == "o" and line.get_markersize() == 2
    plt.close(figures[0])


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
