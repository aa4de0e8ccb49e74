"""Tests for survivors of the seed-4 mutation sample (``benchmarks/mutation-report-seed4.md``), second part.

Each pins a behaviour the suite did not check:

* geometry, the optimal face: a skipped box is computed on the face's own warm-started model (its 2d LPs go
  through ``Face.solver``); a block of rows sees every known point of the face, past the first 16; the box
  shows a row lost when every rival's upper bound on the box is below -tol; a row whose best margin seen
  equals the tolerance stays undecided (realized only *above* it); the training-difference bound stays
  sound when a rival direction only rounds to a training difference (its radius covers ‖θ‖ on F);
* limit: without an exact θ* the prediction context has empty support, multipliers and multiplicities
  (one n_s per support entry; the negative control of ``checks.limit_checks`` can be built from it);
* selection: the float KKT stationarity residual is relative to max(1, ‖θ‖);
* resources: ``parse_number`` refuses ``_`` separators and non-ASCII digits (which ``float`` accepts),
  naming the argument; ``check_output_directory`` names the existing ancestor that is not a directory;
* sampling: an instance's table is written as a table document ``{"kind", "rows"}``, which the table
  parser reads back;
* underdetermination: the Monte Carlo α reports the initialization law of the untrained rows;
* the package's lazy exports are cached in the module's namespace on first use.

Expected values are derived in the tests (by hand or from a documented identity), not copied from output.
"""

from __future__ import annotations

import re
from types import SimpleNamespace

import numpy as np
import pytest
import posreal.theory as theory_package
from posreal.theory.errors import SpecError, quote
from posreal.theory.geometry import DualFaceLP, Face, Geometry, GeometrySelection, _Block, _TrainingBound
from posreal.theory.realization import FAILED, REALIZED, UNDECIDED
from posreal.theory.selection import Selection


# --------------------------------------------------------------------------- geometry: the optimal face
class _CountingModel(DualFaceLP):
    """The face's warm-started model, counting the LPs solved on it."""

    def __init__(self, *args):
        super().__init__(*args)
        self.calls = 0

    def minimize(self, c):
        self.calls += 1
        return super().minimize(c)


def test_skipped_box_is_computed_on_the_faces_warm_model():
    """F = {w : w ≥ -2, -w ≥ -3} (d = 1), box skipped (bounds infinite).  ``ensure_box`` solves its 2d = 2 LPs
    on ``face.solver`` (the model the rival LPs warm-start), giving lo = -2, hi = 3 (read off the two rows)."""
    A, r = np.array([[1.0], [-1.0]]), np.array([-2.0, -3.0])
    inf = np.full(1, np.inf)
    model = _CountingModel(A, r, -inf, inf)
    face = Face(np.zeros(1), np.ones((1, 1)), A, r, -inf, inf, False, probes=np.zeros((0, 1)), boxed=False,
                solver=model)
    assert face.ensure_box()
    assert model.calls == 2
    assert face.lp_count == 2 and face.boxed
    assert face.lo.tolist() == pytest.approx([-2.0]) and face.hi.tolist() == pytest.approx([3.0])


def _block(face: Face, g0, a, scale) -> _Block:
    """One block of rows with key 0 the target and key 1 the one rival of each row."""
    g0, a, scale = np.asarray(g0, dtype=float), np.asarray(a, dtype=float), np.asarray(scale, dtype=float)
    b = g0.shape[0]
    rival = np.tile([False, True], (b, 1))
    return _Block(None, face, None, np.ones(b, dtype=int), np.zeros(b, dtype=int), g0, a, rival, scale,
                  np.zeros(b, dtype=bool), np.zeros(b, dtype=np.int8), np.zeros(b, dtype=np.int8))


def _segment_face(probes: np.ndarray) -> Face:
    """A face with one direction w ∈ [-1, 1] (boxed) and the given known points."""
    return Face(np.zeros(1), np.ones((1, 1)), np.zeros((0, 1)), np.zeros(0), np.array([-1.0]), np.array([1.0]),
                False, probes=probes)


def test_block_sees_every_known_point_of_the_face():
    """17 known points (more than one chunk of 16): w = 0 sixteen times, then w = 5.  The rival's margin is
    -1 + w: -1 at the first 16 points, 4 at the 17th, so the best margin seen is 4 and some θ realizes the row
    (while the points w = 0 show it lost by every θ)."""
    probes = np.vstack([np.zeros((16, 1)), [[5.0]]])
    blk = _block(_segment_face(probes), [[0.0, -1.0]], [[[0.0], [1.0]]], [1e-7])
    assert blk.best.tolist() == [4.0]
    blk.refresh()
    assert blk.some.tolist() == [REALIZED] and blk.every.tolist() == [FAILED]


def test_box_shows_a_row_lost_by_every_theta():
    """Rival margin -5 + w on the box w ∈ [-1, 1]: at most -4 < -tol, so no θ of F realizes the row."""
    blk = _block(_segment_face(np.zeros((0, 1))), [[0.0, -5.0]], [[[0.0], [1.0]]], [1e-7])
    assert blk.some.tolist() == [UNDECIDED]          # no known point decides it before the box
    proved = blk.box_bounds()
    assert not proved.any()                          # the box proves no rival positive: -5 - 1 < tol
    assert blk.some.tolist() == [FAILED] and blk.every.tolist() == [FAILED]


@pytest.mark.parametrize("g0, some", [(-0.1, UNDECIDED), (-0.5, FAILED)])
def test_a_dual_bound_refutes_a_row_only_below_minus_the_tolerance(g0, some):
    """Rival margin g0 + 0.05 w on w ∈ [-1, 1], tolerance 0.2, no LP budget; one stored dual (μ = 0, A_red has no
    rows) bounds max_F of the margin by g0 + 0.05 through the box.  g0 = -0.1: the bound -0.05 lies within the
    tolerance of 0, which refutes nothing (the row stays undecided; seed-6 mutant finish_some_22 compared with
    +tolerance and called it lost); g0 = -0.5: the bound -0.45 < -0.2 refutes the row for every θ."""
    face = _segment_face(np.zeros((0, 1)))
    face.add_dual(np.zeros(0))
    blk = _block(face, [[0.0, g0]], [[[0.0], [0.05]]], [0.2])
    blk.finish_some()
    assert face.lp_count == 0                          # decided (or left) without an LP: the budget is 0
    assert blk.some.tolist() == [some]


def test_margin_equal_to_the_tolerance_is_undecided():
    """Row 0's best margin seen is exactly its tolerance 0.5 (within it: undecided, as ``_classify``
    decides an LP's value); row 1's is 0.625 > 0.5: realized.  No direction moves the margins (a = 0)."""
    blk = _block(_segment_face(np.zeros((0, 1))), [[0.0, 0.5], [0.0, 0.625]], np.zeros((2, 2, 1)), [0.5, 0.5])
    blk.refresh()
    assert blk.some.tolist() == [UNDECIDED, REALIZED]
    assert blk.every.tolist() == [UNDECIDED, UNDECIDED]


def test_training_bound_is_sound_for_a_near_training_difference():
    """ℓ∞ geometry, one training difference z = (1/4, 0): θ*_∞ = (4, 0), value 4, and the optimal face is
    F = {(4, t) : |t| ≤ 4}.  A rival direction v = (1/4, 1e-12) rounds to z; on F, ⟨v, θ⟩ = 1 + 1e-12 t ≥
    1 - 4e-12.  The bound min(1, ⟨z, θ₀⟩) - ‖v - z‖₁ · radius must not exceed that minimum: radius ≥ 4."""
    features = {0: (0.25, 1e-12), 1: (0.0, 0.0)}          # ψ(i, key) of the one row used, keys 0 and 1
    pe = SimpleNamespace(index_features=lambda rows, keys, L0: np.array([features[int(k)] for k in keys]))
    sel = Selection(pe, None, 2, np.array([[0.25, 0.0]]), np.array([[1, 0, 1]]))
    gsel = GeometrySelection(Geometry.LINF, sel, np.array([4.0, 0.0]), value=4.0)
    bound = _TrainingBound(gsel).lower_bounds(np.array([1]), np.array([0]), np.array([1]))
    assert bound.shape == (1,) and np.isfinite(bound[0])           # v was matched to z
    assert bound[0] <= 1.0 - 4e-12                                 # sound: below the minimum over F
    assert bound[0] > 1.0 - 1e-9                                   # and still a useful bound


# --------------------------------------------------------------------------- limit
def test_prediction_context_without_exact_theta_is_empty():
    """No θ* at all (the selection was never realized): no support, so no λ_s and no n_s either."""
    from posreal.checks.limit_checks import wrong_multiplicities
    from posreal.theory.pe_specs import parse_pe
    from posreal.theory.limit import prediction_context
    from posreal.theory.tasks import parse_task

    pe, task = parse_pe("relbias"), parse_task("offset:0")
    sel = Selection(pe, task, 4, np.zeros((0, 4)), np.zeros((0, 3), dtype=int))
    ctx = prediction_context(pe, task, sel)
    assert ctx.failure == "no exact θ* (KKT certificate in ℚ)"
    assert (ctx.constraints, ctx.support, ctx.multipliers, ctx.multiplicities) == ([], [], [], [])
    assert wrong_multiplicities(ctx).multiplicities == []


# --------------------------------------------------------------------------- selection
def test_float_kkt_stationarity_is_relative_to_the_norm_of_theta():
    """z = (1), θ = (2), λ = (1): ‖θ - Zᵀλ‖ = 1, relative to max(1, ‖θ‖) = 2: 1/2.
    Slack z·θ - 1 = 1, so the complementarity residual is |λ · 1| / max(1, max λ) = 1."""
    from posreal.theory.selection import _float_kkt

    cert = _float_kkt(np.array([[1.0]]), np.array([2.0]), np.array([1.0]))
    assert cert["stationarity"] == 0.5
    assert cert["primal_min_slack"] == 0.0 and cert["dual_min"] == 0.0 and cert["complementarity"] == 1.0


# --------------------------------------------------------------------------- resources
@pytest.mark.parametrize("text", ["1_0", "\u0663"])     # float() reads both: 10.0, and the Arabic-Indic digit 3
def test_parse_number_refuses_separators_and_non_ascii_digits(text):
    from posreal.theory.resources import parse_number

    assert 0 < float(text) <= 100
    with pytest.raises(SpecError, match=r"^invalid step size " + re.escape(repr(text))
                       + r"; accepted: a number > 0 and <= 100$"):
        parse_number(text, "step size", 0, 100)


def test_output_directory_under_a_file_names_the_file(tmp_path):
    """out/sub with ``out`` a regular file: the nearest existing ancestor is ``out``, not a directory."""
    from posreal.theory.resources import check_output_directory

    blocker = tmp_path / "out"
    blocker.write_text("")
    text = str(blocker / "sub")
    message = (f"invalid output directory {quote(text)}: {quote(str(blocker))} is not a directory; "
               "accepted: a writable directory (created if missing)")
    with pytest.raises(SpecError, match=r"^" + re.escape(message) + r"$"):
        check_output_directory(text)


# --------------------------------------------------------------------------- sampling
def test_instance_table_is_a_table_document():
    """A relative-table instance writes its table as {"kind", "rows"}, the form ``parse_document`` reads."""
    from posreal.theory.sampling import Instance
    from posreal.theory.tables import parse_document

    inst = Instance(0, "relative", "t", "offset:0", 4, 8, table=((1, 0), (0, -1)), table_kind="relative")
    doc = inst.to_json()["table"]
    assert doc == {"kind": "relative", "rows": [[1, 0], [0, -1]]}
    assert parse_document(doc, "instance table") == ("relative", [[1, 0], [0, -1]])


# --------------------------------------------------------------------------- underdetermination
def test_monte_carlo_alpha_reports_the_initialization_law():
    """The untrained rows j ≥ L0 are drawn as at initialization: E_j ~ N(0, 1/d) i.i.d. (its docstring)."""
    from posreal.theory.underdetermination import construct_block, monte_carlo_alpha

    block = construct_block("position:0", 4, 4, seed=1)
    out = monte_carlo_alpha(block, [6], samples=1, seed=2)
    assert out[6].init == "E_j ~ N(0, 1/d) i.i.d. for j >= L0"
    assert (out[6].samples, out[6].seed) == (1, 2)


# --------------------------------------------------------------------------- lazy exports
def test_lazy_export_is_cached_in_the_package(monkeypatch):
    """PEP 562: the first ``posreal.theory.load_table`` imports it and stores it in the package's namespace,
    so later look-ups (and ``from posreal.theory import load_table``) find the function itself."""
    from posreal.theory import tables

    monkeypatch.delitem(theory_package.__dict__, "load_table", raising=False)
    first = theory_package.load_table
    assert first is tables.load_table
    assert theory_package.__dict__["load_table"] is tables.load_table
    assert theory_package.load_table is tables.load_table
