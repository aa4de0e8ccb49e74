"""Kills of seed-8 surviving mutants (part a).

Pinned here:
- ``geometry._face_rows`` on a zero-dimensional face (no directions) gives the outcomes of the point
  itself, as ``geometry._point_rows`` does;
- ``geometry._max_min_over_face`` charges each of its LPs to the face's ``lp_count``;
- ``geometry.exact_certificate`` states the value of the empty ℓ1 program (p = 0, no rows) as the
  Fraction 0;
- ``geometry.Face.minimize`` keeps its minimizer as a probe and its dual in the pool of bounds;
- ``selection.select`` in exact mode decides the structural-tie check in ℚ: a training difference that
  is nonzero in ℚ but rounds to the float 0 is not a structural tie;
- the verifier's PE error from too many nested ``dual:`` prefixes lists the accepted PE forms
  (``verify._table_size``).
"""
from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest

from posreal.counterexamples.verifier import exact_model as em
from posreal.counterexamples.verifier.errors import CertificateError
from posreal.counterexamples.verifier.verify import verify_document
from posreal.theory.errors import quote
from posreal.theory.geometry import (
    LP_TOL,
    Face,
    Geometry,
    GeometrySelection,
    _face_rows,
    _max_min_over_face,
    _point_rows,
    exact_certificate,
    exact_norm_program,
    norm_program,
    select_in_geometry,
    verify_lp_exact,
)
from certificate_edits import certificate, message, resealed


def _wide_face() -> Face:
    """The optimal ℓ∞ face of abssin:8 · position:0 at L0 = 8: 12-dimensional, its box computed."""
    gsel = select_in_geometry("abssin:8", "position:0", 8, Geometry.LINF, exact=False)
    assert gsel.face is not None and not gsel.face.point and gsel.face.directions.shape[1] == 12
    return gsel.face


# --------------------------------------------------------------------------- geometry
def test_face_rows_on_a_point_face_agree_with_the_point() -> None:
    """geometry.x__face_rows__mutmut_119: with no face directions (d = 0) the rival directions are an
    empty (b, L, 0) array, and the face computation reduces to the margins at θ₀ itself, i.e. to
    ``_point_rows`` (abssin:4 · position:0 at L = 16: 13 rows realized, 3 lost)."""
    gsel: GeometrySelection = select_in_geometry("abssin:4", "position:0", 8, Geometry.LINF, exact=False)
    assert gsel.face is not None and gsel.face.point and gsel.face.directions.shape == (16, 0)
    face = _face_rows(gsel, 16, LP_TOL)
    point = _point_rows(gsel, 16, LP_TOL)
    assert face.every.tolist() == point.every.tolist() and face.some.tolist() == point.some.tolist()
    assert face.counts() == point.counts()
    assert 0 < face.counts()["realized"] < face.counts()["total"]       # both outcomes occur


def test_max_min_over_face_counts_every_lp() -> None:
    """geometry.x__max_min_over_face__mutmut_44: each max-min LP adds one to ``lp_count`` (the count
    the LP budget of ``interval_outcomes`` is checked against); ``= 1`` would reset it."""
    face = _wide_face()
    d = face.directions.shape[1]
    before = face.lp_count
    assert before > 0                                   # the box's LPs are already counted
    u = np.random.default_rng(1).normal(size=(2, d))
    for n in range(3):
        _max_min_over_face(face, np.zeros(2), u * (n + 1))
    assert face.lp_count == before + 3


def test_minimize_keeps_its_minimizer_and_dual() -> None:
    """geometry.xǁFaceǁminimize__mutmut_17: after one LP the minimizer is the newest probe and its
    dual joins the pool, so the dual bound of the same direction is the LP's minimum (the pool was
    empty before: -inf)."""
    face = _wide_face()
    a = np.asarray(np.random.default_rng(2).normal(size=face.directions.shape[1]), dtype=float)
    assert face.dual_bounds(a[None, :])[0] == -np.inf
    probes, lps = face.probes.shape[0], face.lp_count
    value, w = face.minimize(a)
    assert w is not None and np.isfinite(value)
    assert face.lp_count == lps + 1
    assert face.probes.shape[0] == probes + 1 and face.probes[-1].tolist() == w.tolist()
    assert len(face.dual_rows) == len(face.dual_values) == 1
    assert float(face.dual_bounds(a[None, :])[0]) == pytest.approx(value, abs=1e-7)
    assert float(a @ w) == pytest.approx(value, abs=1e-9)


def test_exact_certificate_of_the_empty_program_is_a_fraction() -> None:
    """geometry.x_exact_certificate__mutmut_87: the ℓ1 program with p = 0 and no training rows has no
    variables; its value, an empty sum in ℚ, is Fraction(0) (``sum`` without the start would give the
    int 0)."""
    program = exact_norm_program([], 0, Geometry.L1)
    lp = norm_program(np.zeros((0, 0)), Geometry.L1)
    cert = exact_certificate(program, lp, np.zeros(0), np.zeros(0))
    assert cert is not None and cert.primal == [] and cert.dual == {}
    assert type(cert.value) is Fraction and cert.value == 0
    assert verify_lp_exact(program, cert)


# --------------------------------------------------------------------------- selection
def test_exact_selection_does_not_call_a_float_zero_difference_a_tie() -> None:
    """selection.x_select__mutmut_126: a column table with features j / 2^1100 (j = 0..3) has nonzero
    exact training differences that are all 0.0 as floats; float mode sees equal features (a
    structural tie), exact mode must not (the check reads the exact rows)."""
    from posreal.theory.tables import build_table
    from posreal.theory.selection import select

    tiny = Fraction(1, 2 ** 1100)
    enc = build_table("tiny_steps", [[j * tiny] for j in range(4)], "column")
    assert enc.rational and enc.values.ravel().tolist() == [0.0] * 4

    float_sel = select(enc, "position:0", 4, exact=False)
    assert float_sel.reason == "structural tie at row 1 of the L0-grid: keys 0 (target) and 1 have equal features"

    sel = select(enc, "position:0", 4, exact=True)
    assert sel.exact_constraints is not None
    assert all(any(x != 0 for x in row) for row in sel.exact_constraints)     # no tie in ℚ
    assert not np.any(sel.constraints)                                       # ... all zero as floats
    assert not sel.reason.startswith("structural tie")
    # the float search on all-zero rows finds a float Farkas certificate, which proves nothing in ℚ
    # (the cell is realizable: θ = -2^1101 gives every row z·θ ≥ 1); exact mode says undecided
    assert sel.status == "undecided" and sel.optimum is None
    assert sel.reason.startswith("undecided: no exact certificate found (KKT or Farkas); "
                                 "the float search says not realizable")
    assert all(sum(a * b for a, b in zip(row, [Fraction(-2 ** 1101)])) >= 1 for row in sel.exact_constraints)


# --------------------------------------------------------------------------- verifier
def test_too_deep_dual_pe_error_lists_the_pe_forms() -> None:
    """verify.x__table_size__mutmut_4: the first reader of the instance's PE (the table-size check)
    refuses 65 nested ``dual:`` prefixes with the accepted PE forms, not ``None``."""
    doc = certificate("dynamic_cxc0x130_reverse.json")
    pe = "dual:" * (em.MAX_DUAL_DEPTH + 1) + doc["instance"]["pe"]
    doc["instance"]["pe"] = pe
    text = message(lambda: verify_document(resealed(doc)), CertificateError)
    assert text == (f"invalid PE {quote(pe)}; accepted: {em.PE_FORMS}, with at most {em.MAX_DUAL_DEPTH} "
                    "nested dual: prefixes")
