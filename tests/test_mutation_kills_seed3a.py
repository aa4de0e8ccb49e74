"""Tests for the survivors of the seed-3 mutation sample, part a (``benchmarks/mutation.py --seed 3``).

Written after that run listed its survivors (``benchmarks/mutation-report-seed3.md``, lines 19-37).
Each pins a behaviour the suite did not check:

* the certificate verifier: a certificate read into ``OrderedDict`` objects is a JSON object like any
  other; the planned work of an instance (fraction entries and elimination steps) from the specs; a
  verdict has no note unless the certificate carries float evidence; a malformed ``instance.length``
  is reported at that path;
* one-line errors: a PE that certified mode cannot bound, a bad table kind, a bad feature table shape
  and a bad feature table entry each name the value and what is accepted;
* a profile v(k) = ⟨θ, f(k)⟩ computes the features of each key once, in chunks of 2²² / p keys;
* the log-time gradient flow follows the exact flow u + e^u = e^τ + 1 of one two-key row at the
  solver's tight tolerances;
* θ*_∞ through its bounded form: the solution and dual when a bound is active, dual simplex without
  presolve actually set on the HiGHS model; the optimal face: a point found by the box is a point,
  a wide face of more than 16 directions keeps its box for later; a point face decided in float is
  not reported as decided in ℚ unless the face is a point in ℚ.

Expected values are derived in the tests (by hand or from a documented identity), not copied from output.
"""

from __future__ import annotations

import copy
import json
from collections import OrderedDict
from fractions import Fraction as F

import highspy
import numpy as np
import pytest
from posreal.counterexamples.verifier import exact_model as em
from posreal.counterexamples.verifier import schema
from posreal.counterexamples.verifier.errors import CertificateError
from posreal.counterexamples.verifier.verify import VERIFIED, planned_work, verify_certificate, verify_document
from posreal.theory import geometry
from posreal.theory.certified import max_abs_feature
from posreal.theory.encodings import OFFSET, ProfileEncoding, RELATIVE
from posreal.theory.tables import build_table
from posreal.theory.pe_specs import parse_learned, parse_pe
from posreal.theory.flow import integrate
from posreal.theory.tasks import parse_task
from scipy.optimize import brentq
from certificate_edits import CERTIFICATES, message as _message, certificate as _certificate, resealed as _resealed


# ------------------------------------------------------------------ certificate verifier
def test_a_json_object_read_as_an_ordered_dict_is_an_object():
    """``typed`` checks the JSON type: an ``OrderedDict`` (``json.load(object_pairs_hook=OrderedDict)``)
    is an object, so a certificate read that way verifies exactly as the plain one."""
    assert schema.typed(OrderedDict(a=1), dict, "instance") == {"a": 1}
    text = (CERTIFICATES / "static_alibi_position_0.json").read_text(encoding="utf-8")
    ordered = json.loads(text, object_pairs_hook=OrderedDict)
    assert isinstance(ordered["instance"], OrderedDict)
    assert verify_certificate(ordered).verdict == VERIFIED


def test_planned_work_counts_entries_and_elimination_steps():
    """planned_work = (2p(pairs + keys), 2(pairs + 2)·p·min(pairs + 2, p)) with pairs = Σ_{i ∈ R_L0} i
    training pairs and keys = Σ_{i ∈ R_L} (i + 1) kernel entries.  alibi (p = 1), offset:0 (rows 0..n-1),
    L0 = 4, L = 8: pairs = 0+1+2+3 = 6, keys = 1+2+...+8 = 36, so entries = 2·(6+36) = 84 and
    elimination = 2·8·1·1 = 16.  relbias:2 (p = 3) at the same sizes: entries = 6·42 = 252, elimination
    = 2·8·3·3 = 144."""
    assert len(em.training_pairs("offset:0", 4)) == 6
    assert planned_work("alibi", "offset:0", 4, 8, {}) == (84, 16)
    assert planned_work("relbias:2", "offset:0", 4, 8, {}) == (252, 144)


def test_a_verdict_without_evidence_has_no_notes():
    """The note on float evidence is added only when the certificate carries evidence."""
    plain = _certificate("static_alibi_position_0.json")
    assert "evidence" not in plain
    verdict = verify_certificate(plain)
    assert verdict.verdict == VERIFIED and verdict.notes == []
    with_evidence = _certificate("dynamic_cxc0x130_reverse.json")
    assert with_evidence.get("evidence")
    assert verify_certificate(with_evidence).notes == [
        "float evidence (log-time gradient flow) is reported, not verified"]


def test_malformed_length_is_reported_at_instance_length():
    """A length that is not an integer is reported at ``instance.length`` (the field's real path)."""
    doc = copy.deepcopy(_certificate("static_alibi_position_0.json"))
    doc["instance"]["length"] = "8"
    message = _message(lambda: verify_document(_resealed(doc)), CertificateError)
    assert "instance.length = '8'" in message and "XX" not in message
    assert "accepted: an integer" in message


# ------------------------------------------------------------------ one-line errors
def test_certified_bound_of_a_learned_pe_names_the_pe():
    """A PE certified mode cannot bound (a learned PE) is named by its spec in the error."""
    message = _message(lambda: max_abs_feature(parse_learned("learned:3"), 8, 4))
    assert message == ("invalid PE 'learned:3' for certified mode; accepted: registry PEs, feature tables "
                       "and their duals")


def test_bad_table_kind_is_named():
    message = _message(lambda: build_table("t", [[1]], "diagonal"))
    assert message == "invalid table kind 'diagonal'; accepted: relative, column, general"


def test_bad_table_shape_names_the_accepted_shapes():
    """A 1-D table has shape (2,), refused with the accepted shapes spelled out."""
    message = _message(lambda: build_table("t", [1, 2]))
    assert message == ("invalid feature table shape (2,); accepted: (N, p) for relative/column tables, "
                       "(N, N, p) for general ones, N >= 1, p >= 1")


def test_bad_table_entry_names_the_accepted_entries():
    message = _message(lambda: build_table("t", [[1, None]]))
    assert message == ("invalid feature table entry [0][1] None; accepted: int, Fraction, float numbers or rational "
                       "strings 'p/q'")


# ------------------------------------------------------------------ profiles
class _CountingProfile(ProfileEncoding):
    """f(k) = k·1 in width p (as a read-only broadcast view); records the keys of each features call."""

    kind = RELATIVE
    index = OFFSET

    def __init__(self, p: int):
        self.p = p
        self.calls: list[list[int]] = []

    def dim(self, train_length):
        return self.p

    def features(self, keys, train_length):
        self.calls.append(np.asarray(keys).tolist())
        return np.broadcast_to(np.asarray(keys, dtype=float)[:, None], (len(keys), self.p))


def test_profile_computes_each_key_once():
    """With p = 1 the chunk size 2²² exceeds L = 5: one call with keys 0..4; v(k) = ⟨θ, f(k)⟩ = 3k."""
    pe = _CountingProfile(1)
    out = pe.profile(np.array([3.0]), 5, 4)
    assert pe.calls == [[0, 1, 2, 3, 4]]
    assert out.tolist() == [0.0, 3.0, 6.0, 9.0, 12.0]


def test_profile_chunks_the_keys_without_overlap():
    """With p = 2²⁰ the chunk size is 2²² / 2²⁰ = 4 keys: L = 10 splits into 0..3, 4..7, 8..9;
    θ = 1 gives v(k) = k·p."""
    p = 2 ** 20
    pe = _CountingProfile(p)
    out = pe.profile(np.ones(p), 10, 4)
    assert pe.calls == [[0, 1, 2, 3], [4, 5, 6, 7], [8, 9]]
    assert out.tolist() == [float(k * p) for k in range(10)]


# ------------------------------------------------------------------ gradient flow
def test_flow_follows_the_exact_two_key_flow():
    """alibi·position:0 at L0 = 2: row 1 has ψ(1, 0) = -1 (target) and ψ(1, 1) = 0 (row 0 has one key and
    no gradient), so ℓ(θ) = log(1 + e^θ) and dθ/dt = -σ(θ).  With u = -θ: (1 + e^u) du = dt, u(0) = 0, so
    u + e^u = t + 1 = e^τ + 1 in log-time τ = log t.  At RTOL = ATOL = 1e-10 the recorded path is within
    1e-7 of it (the solver's default rtol, 1e-3, is off by about 1e-3)."""
    path = integrate(parse_pe("alibi"), parse_task("position:0"), 2, [[1.0]], tau_max=10.0)
    assert path.success and path.taus[-1] == 10.0 and path.taus.size > 2
    for tau, theta in zip(path.taus, path.thetas):
        u = brentq(lambda v, tau=tau: v + np.exp(v) - np.exp(tau) - 1.0, 0.0, tau + 1.0, xtol=1e-14, rtol=1e-15)
        assert abs(-theta[0] - u) < 1e-7, (tau, theta, u)


# ------------------------------------------------------------------ θ*_∞ and its optimal face
def test_bounded_linf_solve_with_the_bound_active():
    """z = [[1]]: min t s.t. θ ≥ 1, t ≥ ±θ has θ* = t* = 1 and the unique dual y = (1, 1, 0) (θ-column
    y0 - y1 + y2 = 0, t-column y1 + y2 = 1, maximize y0).  In the bounded form max s s.t. φ ≥ s,
    |φ| ≤ B, φ = s = B sits at its upper bound, whose reduced cost gives y1."""
    lp = geometry.norm_program(np.array([[1.0]]), geometry.Geometry.LINF)
    solved = geometry._solve_linf(lp, 2.0)
    assert solved is not None
    x, y, t, stable = solved
    assert x == pytest.approx([1.0, 1.0], abs=1e-9) and t == pytest.approx(1.0, abs=1e-9)
    assert y.dtype == np.float64 and y == pytest.approx([1.0, 1.0, 0.0], abs=1e-9)
    assert stable


def test_bounded_linf_solve_sets_dual_simplex_without_presolve(monkeypatch):
    """The bounded form is solved by dual simplex with presolve off (as its docstring says): the options
    are read back from the HiGHS model it used."""
    models = []

    class Recording(highspy._Highs):
        def __init__(self):
            super().__init__()
            models.append(self)

    assert geometry._highs_api()
    monkeypatch.setattr(highspy, "_Highs", Recording)
    lp = geometry.norm_program(np.array([[1.0, 0.0], [0.0, 1.0]]), geometry.Geometry.LINF)
    assert geometry._solve_linf(lp, 2.0) is not None
    assert len(models) == 1
    assert models[0].getOptionValue("presolve")[1] == "off"
    assert models[0].getOptionValue("simplex_strategy")[1] == 1


def test_a_face_the_box_shows_to_be_a_point_is_a_point():
    """z = [(1, 0), (1, 1), (1, -1)]: θ* = (1, 0), t* = 1 (θ1 ≥ 1, and θ1 ± θ2 ≥ 1 with |θ| ≤ 1 force θ2 = 0).
    y = e_0 + e_{upper 0} is an optimal dual (a0 + (t - θ1 row) = (0, 0, 1) = c, bᵀy = 1) of rank 2 < 3, so
    the face read off its support has one direction (θ2); the box over it has width 0: a point."""
    lp = geometry.norm_program(np.array([[1.0, 0.0], [1.0, 1.0], [1.0, -1.0]]), geometry.Geometry.LINF)
    y = np.array([1.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0])     # rows: z (3), upper (2), lower (2)
    assert lp.A.T @ y == pytest.approx(lp.c) and float(lp.b @ y) == 1.0
    face = geometry.optimal_face(lp, np.array([1.0, 0.0, 1.0]), y)
    assert face.directions.shape == (2, 1)
    assert face.point is True and face.dimension == 0


def test_a_wide_face_of_many_directions_keeps_its_box_for_later():
    """z = [e_1] in p = 20: θ1 = t = 1 and θ2..θ20 ∈ [-1, 1], a face of 19 > 16 directions, wide along
    any direction: the 2d box LPs are skipped (``boxed`` False), and ``ensure_box`` computes them later."""
    p = 20
    z = np.zeros((1, p))
    z[0, 0] = 1.0
    lp = geometry.norm_program(z, geometry.Geometry.LINF)
    x, y, value = geometry.solve_program(lp)
    assert value == pytest.approx(1.0)
    face = geometry.optimal_face(lp, x, y)
    assert face.directions.shape == (p, p - 1)
    assert face.boxed is False and not face.point
    assert np.all(np.isinf(face.lo)) and np.all(np.isinf(face.hi))
    assert face.ensure_box() is True
    assert face.boxed and np.all(np.isfinite(face.lo)) and np.all(np.isfinite(face.hi))
    assert np.all(face.hi - face.lo > 1.0)


def test_a_float_point_face_is_not_decided_in_exact_arithmetic():
    """relbias:2·offset:0 at L0 = 4 in ℓ∞: z ∈ {e1 - e2, e1 - e3}, θ* = (1/2, -1/2, -1/2) is the unique
    optimum (θ1 - θ2 ≥ 1 needs t ≥ 1/2), but its optimal duals are y_{e1-e2} + y_{e1-e3} = 1/2 (with the
    norm rows fixed by them), and a vertex dual has a support of rank 3 < 4 = n: the certificate is exact,
    the face is a point only by the float box.  Its rows are then decided in float (``exact`` False);
    every row i ≥ 1 has margin θ1 - θ2 = 1 on every rival."""
    gsel = geometry.select_in_geometry("relbias:2", "offset:0", 4, "linf")
    assert gsel.exact_theta == [F(1, 2), F(-1, 2), F(-1, 2)]
    assert gsel.face is not None and gsel.face.point and not gsel.face.exact_point
    out = geometry.interval_outcomes(gsel, [8])[8]
    assert out.exact is False
    assert list(out.every[1:]) == [1] * 7 and list(out.some[1:]) == [1] * 7
