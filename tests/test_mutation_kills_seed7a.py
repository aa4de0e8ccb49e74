"""Kills of seed-7 surviving mutants (report lines 18-29, part a).

Pinned here:
- the verifier's PE error names the argument ``PE`` (``exact_model.feature``);
- a certificate without ``claims.selected`` is refused naming ``claims.selected`` (``verify._check_selected``);
- ``verify._gradient_at_zero`` refuses feature vectors wider than the PE dimension (``zip(strict=True)``);
- an instance without ``tables`` has no tables (``verify._tables``);
- ``learned:1`` is a valid learned PE (d >= 1, ``encodings.parse_learned``);
- the sort content task is named ``sort`` (``expressivity.content_task``);
- ``flow.integrate`` returns its path (success False) when a chunk's solver fails, and its first,
  ordinary-time phase hands LSODA a working Jacobian (alibi · copy at L0 = 20 is stiff enough to use it);
- ``geometry._face_rows`` settles training rivals through the training bound, without LPs;
- ``geometry._point_rows`` leaves a row with margin 0 at a float θ undecided;
- ``geometry.optimal_face`` accepts a program with no θ coordinates (p = 0).
"""
from __future__ import annotations

from fractions import Fraction
from types import SimpleNamespace

import numpy as np
import pytest

from posreal.counterexamples.verifier import exact_model as em
from posreal.counterexamples.verifier import verify
from posreal.counterexamples.verifier.errors import CertificateError
from posreal.theory.errors import SpecError, quote


# --------------------------------------------------------------------------- verifier
def test_feature_error_names_the_pe_argument():
    """exact_model.x_feature__mutmut_10: the error for a non-string PE says ``invalid PE``."""
    with pytest.raises(CertificateError) as err:
        em.feature(123, 0, 0, 4)  # type: ignore[arg-type]
    assert str(err.value) == f"invalid PE {quote(123)}; accepted: {em.PE_FORMS}"


def test_missing_selected_claim_names_claims_selected():
    """verify.x__check_selected__mutmut_5: the missing key is reported as ``claims.selected``."""
    with pytest.raises(CertificateError) as err:
        verify._check_selected(None, {}, verify._Check())  # type: ignore[arg-type]
    assert str(err.value) == "malformed certificate: missing claims.selected"


def test_gradient_at_zero_refuses_features_narrower_than_the_dimension():
    """verify.x__gradient_at_zero__mutmut_38: zip(..., strict=True) refuses a ψ of width 2 against
    a claimed dimension 1 (strict=None would silently truncate the gradient to width 1)."""
    inst = SimpleNamespace(task="copy", L0=2, dim=lambda: 1, psi=lambda i, j: (Fraction(i - j), Fraction(j)))
    with pytest.raises(ValueError):
        verify._gradient_at_zero(inst)  # type: ignore[arg-type]


def test_instance_without_tables_has_none():
    """verify.x__tables__mutmut_5: an absent ``tables`` key means no tables, not a malformed null."""
    assert verify._tables({}) == {}
    assert verify._tables({"pe": "alibi"}) == {}


# --------------------------------------------------------------------------- encodings, expressivity
def test_learned_one_is_a_valid_learned_pe():
    """encodings.x_parse_learned__mutmut_44: d = 1 is the least accepted width (1 <= d)."""
    from posreal.theory.pe_specs import parse_learned

    assert parse_learned("learned:1").d == 1
    with pytest.raises(SpecError):
        parse_learned("learned:0")


def test_sort_task_is_named_sort():
    """expressivity.x_content_task__mutmut_58: the task's name is its spec."""
    from posreal.theory.expressivity import content_task, static_routing_bound

    assert content_task("sort", 3, 2).name == "sort"
    assert static_routing_bound("sort", 3, 2).task == "sort"


# --------------------------------------------------------------------------- flow
def test_integrate_returns_its_path_when_a_chunk_fails(monkeypatch):
    """flow.x_integrate__mutmut_101 (the ``break`` after a failed chunk): the path so far is
    returned with success False (a ``return`` there would return None)."""
    import scipy.integrate

    from posreal.theory import flow
    from posreal.theory.pe_specs import parse_pe
    from posreal.theory.tasks import parse_task

    real = scipy.integrate.solve_ivp
    calls = []

    def solver(*args, **kwargs):
        calls.append(args[1])
        if len(calls) == 1:                       # the ordinary-time start: the real solver
            return real(*args, **kwargs)
        return SimpleNamespace(success=False)     # every log-time chunk fails

    monkeypatch.setattr(scipy.integrate, "solve_ivp", solver)
    path = flow.integrate(parse_pe("alibi"), parse_task("copy"), 4, [[1.0]], tau_max=50.0)
    assert isinstance(path, flow.FlowPath)
    assert path.success is False
    assert path.taus.tolist() == [0.0] and path.thetas.shape == (1, 1)
    assert len(calls) == 2


def test_integrate_start_phase_jacobian_is_callable():
    """flow.x_integrate__mutmut_53: alibi · copy at L0 = 20 makes LSODA switch to its stiff method in
    the ordinary-time start, so it calls the Jacobian there; a broken one raises TypeError."""
    from posreal.theory import flow
    from posreal.theory.pe_specs import parse_pe
    from posreal.theory.tasks import parse_task

    calls = []
    real_jac = flow._LogTimeField.jac

    def spy(self, tau, theta):
        calls.append(tau)
        return real_jac(self, tau, theta)

    mp = pytest.MonkeyPatch()
    mp.setattr(flow._LogTimeField, "jac", spy)
    try:
        path = flow.integrate(parse_pe("alibi"), parse_task("copy"), 20, [], tau_max=0.0)
    finally:
        mp.undo()
    assert path.success and path.taus.tolist() == [0.0]
    assert calls and all(t == 0.0 for t in calls)     # the start phase used the Jacobian at τ = 0


# --------------------------------------------------------------------------- geometry
def test_face_rows_settle_training_rivals_without_lps():
    """geometry.x__face_rows__mutmut_144: with no LP budget, the rows of R_L0 are realized on the whole
    optimal face because every rival there is a training difference (margin >= 1 on the face), which the
    training bound proves; without it (training=None) such rows stay undecided."""
    from posreal.theory.geometry import Geometry, interval_outcomes, select_in_geometry
    from posreal.theory.realization import REALIZED

    gsel = select_in_geometry("abssin:8", "position:0", 8, Geometry.LINF, exact=False)
    assert gsel.face is not None and not gsel.face.point
    out = interval_outcomes(gsel, [8], max_lps=0)[8]
    assert out.every.tolist() == [REALIZED] * out.rows.size


def test_point_rows_leave_a_zero_margin_undecided():
    """geometry.x__point_rows__mutmut_89: alibi at θ = 0 gives every key the same logit, so each row's
    float margin is 0 (within tolerance) and no key ties structurally: undecided, not a crash."""
    from posreal.theory.pe_specs import parse_pe
    from posreal.theory.geometry import _point_rows
    from posreal.theory.realization import UNDECIDED
    from posreal.theory.tasks import parse_task

    gsel = SimpleNamespace(pe=parse_pe("alibi"), task=parse_task("copy"), train_length=4, exact_theta=None,
                           face=None, theta=np.zeros(1))
    out = _point_rows(gsel, 4, 1e-9)  # type: ignore[arg-type]
    assert not out.ties.any()
    assert out.every.tolist() == [UNDECIDED] * out.rows.size


def test_optimal_face_with_no_theta_coordinates():
    """geometry.x_optimal_face__mutmut_131: p = 0 (only the ℓ∞ bound t, min t s.t. t >= 0), no dual
    support: the face is {t = 0}, θ₀ is empty and the scale of an empty θ is 1 (max with initial=0)."""
    from posreal.theory.geometry import Geometry, LinearProgram, optimal_face

    lp = LinearProgram(Geometry.LINF, np.array([[1.0]]), np.array([0.0]), np.array([1.0]), 0)
    face = optimal_face(lp, np.array([0.0]), np.array([0.0]))
    assert face.theta0.shape == (0,) and face.directions.shape == (0, 1)
