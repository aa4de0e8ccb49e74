"""Kills of seed-8 surviving mutants (part b: alpha, expressivity, limit, plots, sampling).

Pinned here:
- ``alpha.row_outcomes`` refuses an unknown mode with the one-line error listing the modes, and its
  exact-mode outcomes carry the length they were computed at;
- ``expressivity.static_routing_bound`` names the refused method in its error, and enumerates exactly
  at V^n = ``MAX_ENUMERATION`` (the bound is inclusive), refusing one input more;
- ``limit.limit_rows`` keeps the class of a float-undecided row (``undecided``) in its α♯ row;
- ``limit.predict_in`` reports the support (constraint indices with λ > 0) its prediction is built on;
- ``limit.prediction_context`` names a failed independence hypothesis ``dependent support vectors``;
- ``plots.plot_geometries`` gives each panel 4.2 in of width (the figure widens with the geometries)
  and draws L on a base-2 log axis;
- ``sampling`` random registry draws give ``abssin`` a width d in {2, 4, 8} (rope and abscol up to 16).
"""
from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import matplotlib.pyplot as plt
import numpy as np
import pytest
from matplotlib.figure import Figure
from matplotlib.scale import LogTransform
from PIL import Image

from posreal.counterexamples.designed import LOG2_TIE
from posreal.theory import plots
from posreal.theory.alpha import MODES, row_outcomes
from posreal.theory.pe_specs import parse_pe
from posreal.theory.expressivity import MAX_ENUMERATION, static_routing_bound
from posreal.theory.limit import (LimitVerdict, Prediction, UndecidedReason, limit_interval, predict_in,
                                  prediction_context)
from posreal.theory.sampling import FAMILIES, instance, registered, registry_grid
from posreal.theory.selection import Optimum, Selection, select
from posreal.theory.tasks import parse_task
from posreal.theory.ties import classify

from certificate_edits import message


# --------------------------------------------------------------------------- alpha
def test_row_outcomes_refuses_an_unknown_mode_listing_the_modes() -> None:
    """alpha.x_row_outcomes__mutmut_15: the accepted modes are joined into the message
    (``", ".join(None)`` would raise a TypeError instead of the SpecError)."""
    text = message(lambda: row_outcomes("relbias", "offset:1", [0.0] * 4, 8, 4, mode="fast"))
    assert text == "invalid mode 'fast'; accepted: float, exact, certified"
    assert ", ".join(MODES) == "float, exact, certified"


def test_exact_row_outcomes_carry_their_length() -> None:
    """alpha.x_row_outcomes__mutmut_53: exact-mode outcomes record the length of R_L (not None)."""
    sel = select("relbias", "offset:1", 4)
    assert sel.exact_theta is not None
    out = row_outcomes("relbias", "offset:1", sel.exact_theta, 8, 4, mode="exact")
    assert (out.length, out.mode) == (8, "exact")
    assert out.status.size == 7                   # offset:1 at L = 8: rows 1..7


# --------------------------------------------------------------------------- expressivity
def test_static_routing_bound_names_the_refused_method() -> None:
    """expressivity.x_static_routing_bound__mutmut_20: the message quotes the method given."""
    text = message(lambda: static_routing_bound("successor", 2, 2, method="exhaustive"))
    assert text == "invalid method 'exhaustive'; accepted: auto, enumeration, monte-carlo"


@pytest.mark.parametrize("method", ["auto", "enumeration"])
def test_enumeration_bound_is_inclusive(method: str) -> None:
    """expressivity.x_static_routing_bound__mutmut_45: V^n = MAX_ENUMERATION (1024² = 2^20) is enumerated.
    successor, causal rows 0 and 1: row 0 sees only x_0 ≠ x_0 + 1, so β_0 = 0; row 1 sees x_0 = x_1 + 1
    (mod V) with probability 1/V, so β_1 = 1/1024, at position 0."""
    assert 1024 ** 2 == MAX_ENUMERATION
    out = static_routing_bound("successor", 2, 1024, method=method)
    assert out.method == "enumeration"
    assert out.beta == [Fraction(0), Fraction(1, 1024)] and out.argmax == [0, 0]


def test_enumeration_refuses_one_more_input_than_the_bound() -> None:
    size = 1025 ** 2
    assert size > MAX_ENUMERATION
    text = message(lambda: static_routing_bound("successor", 2, 1025, method="enumeration"))
    assert text == (f"invalid enumeration size vocab**length {size}; "
                    f"accepted: at most {MAX_ENUMERATION} (use monte-carlo)")


# --------------------------------------------------------------------------- limit
def test_float_undecided_row_keeps_its_class_in_the_limit() -> None:
    """limit.x_limit_rows__mutmut_29: the designed log-2 tie under a float θ* (no exact certificate) is an
    ``undecided`` row; α♯ leaves it undecided (not exact) and keeps its class, also in the JSON."""
    with registered(LOG2_TIE):
        pe, task = parse_pe(LOG2_TIE.pe), parse_task(LOG2_TIE.task)
        sel = select(pe, task, LOG2_TIE.train_length, exact=False)
        sharp = limit_interval(pe, task, sel, LOG2_TIE.length)
    (row,) = sharp.rows
    assert (row.row, row.target, row.cls) == (3, 3, "undecided")
    assert row.verdict is LimitVerdict.UNDECIDED and row.reason is UndecidedReason.NOT_EXACT
    doc = row.to_json()
    assert doc["class"] == "undecided" and doc["reason"] == UndecidedReason.NOT_EXACT.value


def test_prediction_reports_its_support() -> None:
    """limit.x_predict_in__mutmut_29: the prediction's support is the constraint indices with λ > 0
    (re-derived from the exact optimum), in the order of its coefficients."""
    with registered(LOG2_TIE):
        pe, task = parse_pe(LOG2_TIE.pe), parse_task(LOG2_TIE.task)
        sel = select(pe, task, LOG2_TIE.train_length)
        (row,) = classify(pe, task, sel, LOG2_TIE.length).open_rows
        ctx = prediction_context(pe, task, sel)
    opt = sel.exact_optimum
    assert opt is not None
    support = tuple(sorted(k for k, lam in opt.multipliers.items() if lam > 0))
    out = predict_in(ctx, row.rivals[0].direction)
    assert isinstance(out, Prediction)
    assert out.support == support and len(out.support) == len(out.coefficients) == 2


def test_dependent_support_is_named_as_the_failed_hypothesis() -> None:
    """limit.x_prediction_context__mutmut_55.  A KKT point with a dependent support: z = e_0, e_1 and
    (e_0 + e_1)/2 all tight at θ* = (1, 1, 0), with θ* = ½ e_0 + ½ e_1 + 1 · (e_0 + e_1)/2 (every λ > 0).
    The independence hypothesis fails, and that reason is what every prediction returns."""
    half = Fraction(1, 2)
    zq = [(Fraction(1), Fraction(0), Fraction(0)), (Fraction(0), Fraction(1), Fraction(0)),
          (half, half, Fraction(0))]
    lam = {0: half, 1: half, 2: Fraction(1)}
    theta = [Fraction(1), Fraction(1), Fraction(0)]
    assert all(sum(lam[k] * zq[k][c] for k in lam) == theta[c] for c in range(3))   # stationarity
    assert all(sum(a * b for a, b in zip(z, theta)) == 1 for z in zq)                 # every constraint tight
    with registered(LOG2_TIE):
        pe, task = parse_pe(LOG2_TIE.pe), parse_task(LOG2_TIE.task)
        sel = Selection(pe, task, LOG2_TIE.train_length, np.array(zq, dtype=float), np.zeros((3, 3), dtype=int))
        sel.realize(Optimum(np.array([1.0, 1.0, 0.0]), np.array([0.5, 0.5, 1.0]), theta, lam))
        sel.exact_constraints = zq
        ctx = prediction_context(pe, task, sel)
    assert ctx.support == [0, 1, 2]
    assert ctx.failure == "dependent support vectors"
    assert predict_in(ctx, (Fraction(1), Fraction(-1), Fraction(0))) == "dependent support vectors"


# --------------------------------------------------------------------------- plots
def _kept(monkeypatch: pytest.MonkeyPatch) -> list[Figure]:
    """Record every figure the plot closes (it is still closed: the recorded object stays readable)."""
    figures: list[Figure] = []
    close = plt.close

    def record(fig: Figure) -> None:
        figures.append(fig)
        close(fig)

    monkeypatch.setattr(plt, "close", record)         # plots.plt is this pyplot module
    return figures


def _geometry_docs() -> list[dict[str, object]]:
    return [{"pe": "relbias", "task": "offset:1", "realizable": True,
             "alpha_interval": {"4": [1.0, 1.0], "16": [0.5, 1.0], "64": [0.25, 0.75]}}]


def test_geometry_figure_gives_each_panel_the_same_width(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """plots.x_plot_geometries__mutmut_15: 4.2 in per panel (3.4 in high) at 120 dpi, so two geometries give
    a file twice as wide as one (4.2 / n would make it half as wide)."""
    figures = _kept(monkeypatch)
    widths = []
    for n, names in enumerate((["l2"], ["l2", "linf"]), start=1):
        path = tmp_path / f"g{n}.png"
        plots.plot_geometries({name: _geometry_docs() for name in names}, [4, 16, 64], str(path))
        assert tuple(figures[-1].get_size_inches()) == pytest.approx((4.2 * n, 3.4))
        with Image.open(path) as image:
            widths.append(image.size[0])
            assert image.size == (round(4.2 * n * 120), round(3.4 * 120))
    assert widths[1] == 2 * widths[0]


def test_geometry_figure_has_a_base_two_length_axis(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """plots.x_plot_geometries__mutmut_82: L is drawn on a log axis of base 2 (major ticks at powers of 2)."""
    figures = _kept(monkeypatch)
    plots.plot_geometries({"l2": _geometry_docs()}, [4, 16, 64], str(tmp_path / "g.png"))
    ax = figures[0].axes[0]
    assert ax.get_xscale() == "log"
    transform = ax.xaxis.get_transform()
    assert isinstance(transform, LogTransform) and transform.base == 2
    lo, hi = ax.get_xlim()
    ticks = [t for t in ax.get_xticks() if lo <= t <= hi]
    assert ticks and all(float(np.log2(t)).is_integer() for t in ticks)
    assert {4.0, 16.0, 64.0} <= set(ticks)


# --------------------------------------------------------------------------- sampling
def test_random_registry_draws_abssin_of_width_at_most_eight() -> None:
    """sampling.x__random_registry__mutmut_71: past the enumerated grid, a random ``abssin`` draw has
    d in {2, 4, 8} (its d² features), while rope and abscol draw d from {2, 4, 8, 16}."""
    start = len(FAMILIES) * 2 * len(registry_grid())       # first registry index past the grid
    widths: dict[str, set[int]] = {"abssin": set(), "rope": set(), "abscol": set()}
    for k in range(300):
        inst = instance(0, start + len(FAMILIES) * k)
        assert inst.family == "registry"
        kind, *params = inst.pe.removeprefix("dual:").split(":")
        if kind in widths:
            widths[kind].add(int(params[0]))
    assert widths["abssin"] == {2, 4, 8}
    assert widths["rope"] == widths["abscol"] == {2, 4, 8, 16}
