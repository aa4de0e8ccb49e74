"""Tests for the survivors of the seed-5 mutation sample, part a (``benchmarks/mutation.py --seed 5``).

Written after that run listed its survivors (``benchmarks/mutation-report-seed5.md``, lines 18-32).
Each pins a behaviour the suite did not check:

* the certificate verifier: an unwritable certificate path is a one-line error saying what is accepted;
  a support pair that is not a training pair at L0 is reported as such (not as an unchecked claim);
  a claim of the wrong JSON type (``claims.step_size``, ``claims.rank_augmented``) is named at its
  path; a general table whose row i has fewer than i + 1 cells is refused with its one-line error;
* α: the all-lengths sweep in exact mode decides rows with the selection's exact θ*, not its float θ;
  an ℓ∞ result without a geometry selection reports the ℓ2 selection's summary;
* certified mode: the a-priori float error bound 2E, E = 8 (p + L) u ‖θ‖₁ max(1, max|ψ|); the
  interval enclosures of abssin's products φ(i)_a φ(k)_b; max|ψ| of abssin is max|φ|²;
* the gradient flow builds its training grid at L0, so a PE whose width depends on L0 (``relbias``
  without D) flows as its explicit form ``relbias:L0-1``;
* ℓ1 / ℓ∞ geometry: the every/some outcomes over a face that is not a point are int8 arrays; the
  geometry parser shows a bad value of up to 80 characters in full.

Expected values are derived in the tests (by hand or from a documented identity), not copied from output.
"""

from __future__ import annotations

import copy
import dataclasses
import errno
import math
import os
import re

import numpy as np
import pytest
from posreal.counterexamples.certificate_writer import write
from posreal.counterexamples.verifier.errors import CertificateError
from posreal.counterexamples.verifier.verify import REFUTED, verify_certificate
from posreal.theory.alpha import AlphaResult, alpha_sweep
from posreal.theory.certified import UNIT_ROUNDOFF, float_error_bound, interval_index_features, max_abs_feature
from posreal.theory.pe_specs import parse_pe
from posreal.theory.errors import SpecError
from posreal.theory.flow import integrate
from posreal.theory.geometry import Geometry, interval_outcomes, parse_geometry, select_in_geometry
from posreal.theory.selection import select
from posreal.theory.tasks import parse_task
from certificate_edits import certificate as _certificate, resealed as _resealed


# ------------------------------------------------------------------ certificate verifier
def test_writing_a_certificate_into_a_missing_directory_is_a_one_line_error(tmp_path):
    """The error names the path, the OS reason and what is accepted."""
    path = tmp_path / "missing" / "c.json"
    expected = (f"cannot write certificate file {str(path)!r}: {os.strerror(errno.ENOENT)}; "
                "accepted: a writable file path in an existing directory")
    with pytest.raises(CertificateError, match=f"^{re.escape(expected)}$"):
        write(_certificate("static_alibi_position_0.json"), path)
    assert not path.parent.exists()


def test_a_support_pair_outside_the_training_pairs_is_reported_as_such():
    """static alibi·position:0 at L0 = 4 with a second support entry [9, 0, 1] (row 9 is not on the
    L0-grid): θ* = 1·z(1,0,1) still holds, so the only failures are that pair, reported as not a training
    pair at L0 (its ``pair`` claim covered by that check), and its ``lambda``, which no check reads."""
    doc = _certificate("static_alibi_position_0.json")
    doc["claims"]["selected"]["support"].append({"pair": [9, 0, 1], "lambda": "1/1"})
    verdict = verify_certificate(_resealed(doc))
    assert verdict.verdict == REFUTED
    assert verdict.failures == ["support pair [9, 0, 1] is a training pair at L0",
                                "claim selected.support.1.lambda is not re-derived by any check"]


def test_a_step_size_of_the_wrong_json_type_is_named_at_its_path():
    doc = _certificate("dynamic_dual_cxg0x1355_reverse.json")
    doc["claims"]["step_size"] = 3
    expected = "malformed certificate: claims.step_size = 3; accepted: a string"
    with pytest.raises(CertificateError, match=f"^{re.escape(expected)}$"):
        verify_certificate(_resealed(doc))


def test_a_rank_of_the_wrong_json_type_is_named_at_its_path():
    doc = _certificate("static_alibi_position_0.json")
    doc["claims"]["rank_augmented"] = "2"
    expected = "malformed certificate: claims.rank_augmented = '2'; accepted: an integer"
    with pytest.raises(CertificateError, match=f"^{re.escape(expected)}$"):
        verify_certificate(_resealed(doc))


def test_a_general_table_row_with_too_few_cells_is_refused():
    """Row i of a general table holds ψ(i, j) for j ≤ i: row 2 cut to one cell is refused (i + 1 = 3 > 1)."""
    doc = _certificate("dynamic_dual_cxg0x1355_reverse.json")
    table = doc["instance"]["tables"]["cxg0x1355"]
    assert table["kind"] == "general"
    short = copy.deepcopy(doc)
    short["instance"]["tables"]["cxg0x1355"]["rows"][2] = table["rows"][2][:1]
    expected = "malformed certificate: tables.cxg0x1355: row i of a general table needs i + 1 cells"
    with pytest.raises(CertificateError, match=f"^{re.escape(expected)}$"):
        verify_certificate(_resealed(short))


# ------------------------------------------------------------------ α
def test_exact_sweep_uses_the_exact_theta_of_the_selection():
    """alibi·position:0 at L0 = 4: ψ(i, j) = -(i - j) and θ* = -1 (exact), so κ(i, j) = i - j peaks only
    at the target j = 0 on every row i ≥ 1 (row 0 has one key and counts as realized): all L rows of R_L
    are realized.  Given a selection whose float θ is +1 instead (κ peaks at j = i), the exact sweep still
    reads the exact θ*."""
    sel = select("alibi", "position:0", 4, exact=True)
    assert sel.optimum is not None and sel.exact_theta == [-1]
    skewed = dataclasses.replace(sel, optimum=dataclasses.replace(sel.optimum, theta=np.array([1.0])))
    sweep = alpha_sweep("alibi", "position:0", 4, 8, mode="exact", selection=skewed)
    assert sweep is not None
    assert sweep.lengths.tolist() == [4, 5, 6, 7, 8]
    assert sweep.realized.tolist() == [4, 5, 6, 7, 8]
    assert sweep.total.tolist() == [4, 5, 6, 7, 8]


def test_linf_result_without_a_geometry_selection_reports_the_l2_selection():
    """``geometry_selection`` defaults to None; ``to_json`` then falls back to the ℓ2 selection's summary
    whatever the geometry (nope·offset:1 is not realizable: a structural tie at row 1)."""
    sel = select("nope", "offset:1", 4)
    assert not sel.realizable
    result = AlphaResult(parse_pe("nope"), parse_task("offset:1"), 4, "float", sel, (8,), geometry=Geometry.LINF)
    doc = result.to_json()
    assert doc["selected"] == sel.summary()
    assert doc["geometry"] == "linf" and doc["rows"] == {} and doc["alpha"] == {"8": None}


# ------------------------------------------------------------------ certified mode
def test_float_error_bound_is_twice_eight_p_plus_l_u_norm_max_feature():
    """2E with E = 8 (p + L) u ‖θ‖₁ max(1, max|ψ|) (module docstring), u = 2⁻⁵³: θ = (0.5, -1.5), p = 2,
    L = 14, max|ψ| = 4 gives 2·8·16·2·4·2⁻⁵³ = 2⁻⁴²; max|ψ| = 0.25 counts as 1: 2⁻⁴⁴."""
    assert UNIT_ROUNDOFF == 2.0 ** -53
    theta = np.array([0.5, -1.5])
    assert float_error_bound(theta, 2, 14, 4.0) == 2.0 ** -42
    assert float_error_bound(theta, 2, 14, 0.25) == 2.0 ** -44


def test_abssin_interval_features_enclose_the_products():
    """abssin:2: ω = 1, φ(x) = (sin x, cos x), ψ(i, k) = vec(φ(i) φ(k)ᵀ) =
    (sin i sin k, sin i cos k, cos i sin k, cos i cos k); the enclosures at row 3, keys 1 and 2 contain
    these products and are tight (at mpmath's working precision)."""
    feats = interval_index_features(parse_pe("abssin:2"), 3, [1, 2], 4)
    assert len(feats) == 2
    for k, cells in zip((1, 2), feats):
        expected = [math.sin(3) * math.sin(k), math.sin(3) * math.cos(k),
                    math.cos(3) * math.sin(k), math.cos(3) * math.cos(k)]
        assert len(cells) == 4
        for cell, value in zip(cells, expected):
            assert float(cell.a) - 1e-15 <= value <= float(cell.b) + 1e-15
            assert float(cell.b - cell.a) < 1e-12


@pytest.mark.parametrize("length", [1, 8])
def test_abssin_max_feature_is_the_square_of_max_phi(length):
    """|ψ(i, k)| = |φ(i)_a φ(k)_b| ≤ max|φ|², and φ(0) = (sin 0, cos 0) = (0, 1) with |sin|, |cos| ≤ 1:
    max|ψ| = 1 on any grid (the bound 2·max|φ| would be 2)."""
    assert max_abs_feature(parse_pe("abssin:2"), length, 4) == 1.0


# ------------------------------------------------------------------ gradient flow
def test_flow_of_relbias_without_d_is_the_flow_of_relbias_l0_minus_1():
    """``relbias`` takes D = L0 - 1 when not given (``Bucket``), so its training grid at L0 = 3 has the
    features of ``relbias:2`` and the two flows are the same path (p = 3)."""
    task = parse_task("position:0")
    implicit = integrate(parse_pe("relbias"), task, 3, [[1.0, -1.0, 0.0]], tau_max=1.0)
    explicit = integrate(parse_pe("relbias:2"), task, 3, [[1.0, -1.0, 0.0]], tau_max=1.0)
    assert implicit.success and explicit.success
    assert implicit.thetas.shape == explicit.thetas.shape and implicit.thetas.shape[1] == 3
    assert np.array_equal(implicit.taus, explicit.taus)
    assert np.array_equal(implicit.thetas, explicit.thetas)


# ------------------------------------------------------------------ ℓ1 / ℓ∞ geometry
def test_face_rows_are_int8_like_point_rows():
    """``IntervalOutcomes.every`` / ``some`` are (m,) int8 (its fields): also over a face that is not a
    point — relbias·position:0 at L0 = 4 in ℓ1, whose optimal face is the segment θ = (a - 1, a, a + 1,
    a + 2), a ∈ [-1, 0]."""
    gsel = select_in_geometry("relbias", "position:0", 4, "l1")
    assert gsel.face is not None and not gsel.face.point
    out = interval_outcomes(gsel, [8])[8]
    assert out.every.dtype == np.int8 and out.some.dtype == np.int8
    assert set(out.some.tolist()) <= {-1, 0, 1}


def test_a_bad_geometry_of_80_characters_is_shown_in_full():
    """repr of 78 letters is 80 characters: shown whole; 79 letters (81): cut to 77 characters + '...'."""
    fits, long = "x" * 78, "y" * 79
    accepted = ", ".join(g.value for g in Geometry)
    with pytest.raises(SpecError, match=f"^{re.escape(f'invalid geometry {fits!r}; accepted: {accepted}')}$"):
        parse_geometry(fits)
    cut = repr(long)[:77] + "..."
    with pytest.raises(SpecError, match=f"^{re.escape(f'invalid geometry {cut}; accepted: {accepted}')}$"):
        parse_geometry(long)
