"""Tests for survivors of the seed-5 mutation sample (``benchmarks/mutation-report-seed5.md``), second part.

Written after that run listed its survivors (lines 33-47).  Each pins a behaviour the suite did not check:

* geometry: a cell with no training constraint (L0 = 1) has θ*_q = 0 on a point face whose box has the
  face's dimension 0; the exact LP certificate check refuses a dual with a row index outside the program,
  also with nonnegative multipliers;
* kernels: exact kernel values are Fractions, also for a general table of width 0 (as for ``nope``);
* plots: the taxonomy figure's title names the train length;
* resources: byte counts in KiB are written ``KiB``;
* sampling: an instance's JSON keys;
* selection: a constraint of large norm, whose NNLS weight is below the support threshold, still gets
  its exact θ* = z / ‖z‖²; a float Farkas certificate reports its residual under ``farkas_residual``;
* tables: a value quoted in a table error is cut at 80 characters;
* tasks: an unknown task's one-line error;
* ties: the near rivals of an undecided float row come in key order;
* training: the loss is computed with each row's own maximum logit, so it stays finite when rows' maxima
  are far apart.

Expected values are derived in the tests (by hand or from a documented identity), not copied from output.
"""

from __future__ import annotations

from fractions import Fraction as F

import matplotlib.pyplot as plt
import numpy as np
import pytest
from posreal.theory import plots
from posreal.theory.encodings import NoPE
from posreal.theory.tables import TableEncoding, build_table
from posreal.theory.pe_specs import parse_pe
from posreal.theory.errors import SpecError
from posreal.theory.geometry import (Geometry, LPCertificate, exact_norm_program, select_in_geometry,
                                     verify_lp_exact)
from posreal.theory.transfer import exact_transfer
from posreal.theory.resources import human
from posreal.theory.sampling import Instance
from posreal.theory.selection import Optimum, Selection, select
from posreal.theory.tables import FORM, parse_document
from posreal.theory.tasks import TASK_FORMS, parse_task
from posreal.theory.ties import classify
from posreal.theory.training import training_grid


# --------------------------------------------------------------------------- geometry
@pytest.mark.parametrize("geometry", ["l1", "linf"])
def test_unconstrained_cell_has_the_zero_point_face(geometry):
    """relbias at L0 = 1: p = 1, the only row has one key, so there is no constraint and θ*_q = 0.
    The face is that point: no direction (d = 0), and its box [lo, hi] has d = 0 entries."""
    gsel = select_in_geometry("relbias", "position:0", 1, geometry)
    assert gsel.selection.constraints.shape == (0, 1)
    assert list(gsel.theta) == [0.0] and gsel.value == 0.0
    assert gsel.exact_theta == [F(0)]
    face = gsel.face
    assert face.point and face.exact_point
    assert face.directions.shape == (1, 0)
    assert face.lo.shape == face.hi.shape == (0,) == face.r.shape


def test_exact_lp_check_refuses_dual_rows_outside_the_program():
    """ℓ1 program of the one constraint z = (1): variables (θ, s), rows θ ≥ 1, s - θ ≥ 0, s + θ ≥ 0,
    b = (1, 0, 0), c = (0, 1).  Optimum θ = s = 1 (value 1), dual y = {0: 1, 1: 1}: Aᵀy = (1 - 1, 1) = c,
    bᵀy = 1.  A dual naming row 3 (there are 3 rows) or row -1 is refused, even with multiplier 0."""
    program = exact_norm_program([(F(1),)], 1, Geometry.L1)
    assert program.A == ((1, 0), (-1, 1), (1, 1)) and program.b == (1, 0, 0) and program.c == (0, 1)
    primal = [F(1), F(1)]
    assert verify_lp_exact(program, LPCertificate(primal, {0: F(1), 1: F(1)}, F(1)))
    assert not verify_lp_exact(program, LPCertificate(primal, {0: F(1), 1: F(1), 3: F(0)}, F(1)))
    assert not verify_lp_exact(program, LPCertificate(primal, {0: F(1), 1: F(1), -1: F(0)}, F(1)))


# --------------------------------------------------------------------------- kernels
def test_exact_kernel_of_a_width_zero_general_table_is_fraction_zero():
    """exact_transfer's values are Fractions (its docstring).  A general table of width 0 has κ ≡ 0, like
    ``nope``: every value is Fraction(0), of the same type as nope's."""
    n = 3
    table = TableEncoding(name="w0", table_kind="general", values=np.zeros((n, n, 0)),
                          exact=tuple(tuple(() for _ in range(n)) for _ in range(n)))
    kernel = exact_transfer(table, [], n, n)
    nope = exact_transfer(NoPE(), [], n, n)
    for i in range(n):
        assert kernel.row(i) == nope.row(i) == [F(0)] * (i + 1)
        assert all(type(v) is F for v in kernel.row(i) + nope.row(i))


# --------------------------------------------------------------------------- plots
def test_taxonomy_figure_title_names_the_train_length(tmp_path, monkeypatch):
    figures: list = []
    close = plt.close
    monkeypatch.setattr(plots.plt, "close", figures.append)          # keep the figure to look at it
    docs = [{"pe": "relbias", "task": "offset:1", "realizable": True, "train_length": 16, "alpha": {"32": 1.0}}]
    plots.plot_taxonomy(docs, [32], str(tmp_path / "t.png"))
    assert figures[0].get_suptitle() == "α_L against L (train length 16)"
    close(figures[0])


# --------------------------------------------------------------------------- resources
def test_human_names_kibibytes():
    """2048 B = 2 · 2¹⁰ B and 1536 B = 1.5 · 2¹⁰ B, below 2²⁰: written in KiB."""
    assert human(2048) == "2 KiB"
    assert human(1536) == "1.5 KiB"


# --------------------------------------------------------------------------- sampling
def test_instance_json_keys():
    inst = Instance(7, "registry", "relbias", "offset:1", 4, 8)
    assert inst.to_json() == {"index": 7, "family": "registry", "pe": "relbias", "task": "offset:1",
                              "train_length": 4, "length": 8}


# --------------------------------------------------------------------------- selection
def test_exact_selection_of_a_constraint_with_a_large_norm():
    """A relative table with f(0) = 10⁷, f(1) = 0 and task offset:0 at L0 = 2: one constraint
    z = f(0) - f(1) = 10⁷.  θ* = z / ‖z‖² = 10⁻⁷ with λ = 1 / ‖z‖² = 10⁻¹⁴ — the NNLS weight
    u = 1 / (1 + ‖z‖²) is below the 10⁻¹² support threshold, so the exact refinement starts from an
    empty active set."""
    pe = build_table("big", [[10 ** 7], [0]], "relative")
    sel = select(pe, "offset:0", 2)
    assert sel.realizable and sel.certificate == {"kkt_exact": True}
    assert sel.exact_theta == [F(1, 10 ** 7)]
    assert sel.exact_optimum is not None and sel.exact_optimum.multipliers == {0: F(1, 10 ** 14)}


def test_float_farkas_certificate_names_its_residual():
    """alibi (ψ(i, j) = -(i - j)), offset:1 at L0 = 3, float mode: row 1 gives z = ψ(1) - ψ(0) = -1,
    row 2 gives z = ψ(1) - ψ(2) = 1 (and -1 again).  Zᵀu = 0 with Σu = 1 forces u = (1/2, 1/2): the
    residual ‖Zᵀu‖ is exactly 0."""
    sel = select("alibi", "offset:1", 3, exact=False)
    assert not sel.realizable and not sel.undecided
    assert sel.certificate == {"farkas_residual": 0.0, "farkas_exact": False}


# --------------------------------------------------------------------------- tables
def test_table_error_cuts_a_quoted_value_at_80_characters():
    """repr of a 79-character kind has 81 characters: cut to its first 79 and "…" (80); a 78-character
    kind (repr of 80) is shown whole."""
    long, fits = "k" * 79, "k" * 78
    tail = "is not one of relative, column, general; accepted: " + FORM
    with pytest.raises(SpecError) as err:
        parse_document({"kind": long, "rows": [[1]]}, "t.json")
    assert str(err.value) == "invalid feature table file 't.json': kind '" + "k" * 78 + "… " + tail
    with pytest.raises(SpecError) as err:
        parse_document({"kind": fits, "rows": [[1]]}, "t.json")
    assert str(err.value) == "invalid feature table file 't.json': kind '" + fits + "' " + tail


# --------------------------------------------------------------------------- tasks
@pytest.mark.parametrize("spec", ["shuffle", "dual:shuffle", "offset"])
def test_unknown_task_error(spec):
    with pytest.raises(SpecError) as err:
        parse_task(spec)
    assert str(err.value) == f"invalid task '{spec}'; accepted: {TASK_FORMS}"


# --------------------------------------------------------------------------- ties
def test_near_rivals_of_undecided_rows_in_key_order():
    """relbias at L0 = 4 (ψ(i, j) = e_min(i - j, 3)), float θ = (0, 1, 1, 1), task offset:1 at L = 5.
    Row i's target is key i - 1 (offset 1, value 1); key i (offset 0) has value 0 and every key j ≤ i - 2
    (offsets 2, 3, ...: buckets 2, 3) value 1.  Margins are 0 with no structural tie (the target's bucket
    1 is nobody else's): rows 2, 3, 4 are undecided, with near rivals j = 0..i-2 in increasing order,
    directions e_1 - e_min(i - j, 3), none orthogonal to the constraint z = e_1 - e_0 (z·v = 1)."""
    pe, task = parse_pe("relbias"), parse_task("offset:1")
    z = np.array([[-1.0, 1.0, 0.0, 0.0]])
    sel = Selection(pe, task, 4, z, np.array([[1, 0, 1]]))
    sel.realize(Optimum(np.array([0.0, 1.0, 1.0, 1.0]), np.array([1.0])))
    cls = classify(pe, task, sel, 5)
    assert not cls.exact and (cls.total, cls.realized) == (4, 1)
    assert [(r.row, r.target, r.cls) for r in cls.failing] == [(i, i - 1, "undecided") for i in (2, 3, 4)]

    def e(k):
        return tuple(1.0 if c == k else 0.0 for c in range(4))

    for r in cls.failing:
        i = r.row
        assert [x.rival for x in r.rivals] == list(range(i - 1))
        for x in r.rivals:
            expected = tuple(a - b for a, b in zip(e(1), e(min(i - x.rival, 3))))
            assert x.direction == expected and not x.orthogonal


# --------------------------------------------------------------------------- training
def test_loss_uses_each_rows_own_max_logit():
    """colbias:1 (ψ(i, j) = e_min(j, 1)), position:0 at length 2: row 0 has the one key 0, row 1 keys 0, 1,
    target key 0.  At θ = (0, 1000): row 0's loss is log e⁰ - 0 = 0; row 1's is log(e⁰ + e¹⁰⁰⁰) - 0 =
    1000 + log(1 + e⁻¹⁰⁰⁰) = 1000 in floats.  Gradient Σ_i (Σ_j a_ij ψ(i, j) - ψ(i, t)): row 0 gives
    e_0 - e_0 = 0, row 1 (a = (e⁻¹⁰⁰⁰, 1) / (1 + e⁻¹⁰⁰⁰)) gives e_1 - e_0 up to e⁻¹⁰⁰⁰."""
    grid = training_grid("colbias:1", "position:0", 2, 2)
    loss, grad = grid.loss_and_grad(np.array([0.0, 1000.0]))
    assert loss == pytest.approx(1000.0, rel=1e-15)
    assert grad == pytest.approx([-1.0, 1.0], abs=1e-15)
