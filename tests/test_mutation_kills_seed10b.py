"""Kills of seed-10 surviving mutants (part b).

Pinned here:
- ``alpha.alpha_sweep`` selects θ* in the mode it is asked for (a float sweep of a rational PE uses the
  float selection, as ``compute_alpha`` does), and agrees with ``compute_alpha`` in both modes;
- ``expressivity.static_routing_bound`` by Monte Carlo reports the vocabulary it sampled from;
- the log-time gradient flow's Jacobian (``flow._LogTimeField.jac``) is the derivative of its field,
  checked against central finite differences;
- ``ties.classify`` on a float θ* says ``exact = False`` (a bool, as the search records write it);
- the face LPs' ``linprog`` fallback (no HiGHS Python API) returns the LP's row duals, 0 on slack rows;
- ``kernels.transfer`` of a general feature table, and of its ``dual:``, equals the naive T_L θ.
"""
from __future__ import annotations

import numpy as np
import pytest

from posreal.theory.alpha import alpha_sweep, compute_alpha
from posreal.theory.tables import build_table
from posreal.theory.pe_specs import parse_pe
from posreal.theory.expressivity import static_routing_bound
from posreal.theory.flow import _LogTimeField
from posreal.theory.selection import select
from posreal.theory.tasks import parse_task
from posreal.theory.ties import classify
from posreal.theory.training import training_grid


def test_sweep_selects_in_the_mode_it_is_asked_for() -> None:
    """alpha.x_alpha_sweep__mutmut_36: ``select(pe, task, L0)`` without ``exact=`` selects in ℚ for every
    rational PE, so a float sweep would use the exact θ*.  On a table whose float rows misstate the
    rational ones (2⁵³ + 1 rounds to 2⁵³: the rows (1, 1), (-1, -1) become (1, 1), (-1, 0)) the two
    selections disagree, and the sweep must agree with compute_alpha mode by mode."""
    big = 2 ** 53
    enc = build_table("rounded", [[0, big], [-1, big - 1], [1, big + 1]], "column")
    as_float = compute_alpha(enc, "position:0", 3, [3], mode="float").to_json()
    as_exact = compute_alpha(enc, "position:0", 3, [3], mode="exact").to_json()
    assert as_float["realizable"] is True and as_exact["realizable"] is False      # the modes disagree here
    sweep = alpha_sweep(enc, "position:0", 3, 3, mode="float")
    assert sweep is not None
    assert sweep.alpha[0] == as_float["alpha"]["3"]
    assert sweep.undecided[0] == as_float["rows"]["3"]["undecided"] == 2
    assert alpha_sweep(enc, "position:0", 3, 3, mode="exact") is None


def test_exact_sweep_agrees_with_compute_alpha() -> None:
    sweep = alpha_sweep("relbias", "position:0", 8, 64, mode="exact")
    assert sweep is not None
    lengths = [8, 16, 37, 64]
    expected = compute_alpha("relbias", "position:0", 8, lengths, mode="exact").to_json()
    assert expected["mode"] == "exact"
    for L in lengths:
        k = L - 8                                                   # sweep index of length L
        assert sweep.lengths[k] == L
        assert sweep.alpha[k] == expected["alpha"][str(L)]
    # relbias clips offsets at L0 - 1: from row L0 on, the target (offset i) shares a bucket with
    # offset L0 - 1, so only the rows i < L0 are realized
    assert sweep.realized[[8, 56]].tolist() == [8, 8]


def test_monte_carlo_bound_reports_its_vocabulary() -> None:
    """expressivity.x_static_routing_bound__mutmut_165: the Monte Carlo result carried vocab = None."""
    result = static_routing_bound("copy", 6, 3, method="monte-carlo", samples=200, seed=1)
    assert result.method == "monte-carlo" and result.vocab == 3
    assert result.to_json()["vocab"] == 3


@pytest.mark.parametrize("pe, task, tau", [("relbias", "position:0", 0.0), ("alibi", "offset:1", 1.5),
                                           ("rope:4", "copy", 0.7)])
def test_log_time_field_jacobian_is_the_derivative_of_the_field(pe: str, task: str, tau: float) -> None:
    """flow.x_LogTimeField_jac__mutmut_27: a sign flip in the covariance term (Σ W d dᵀ + e^{-τ}(Σ W d)(Σ W d)ᵀ)
    leaves LSODA converging (a Jacobian only steers its Newton steps) but is not the Jacobian."""
    field = _LogTimeField(training_grid(pe, task, 6, 6))
    p = field.d.shape[2]
    theta = np.random.default_rng(3).normal(size=p)                 # (p,)
    h = 1e-6
    numeric = np.empty((p, p))                                      # (p, p): column q = ∂rhs/∂θ_q
    for q in range(p):
        e = np.zeros(p)
        e[q] = h
        numeric[:, q] = (field.rhs(tau, theta + e) - field.rhs(tau, theta - e)) / (2 * h)
    analytic = field.jac(tau, theta)
    scale = np.abs(numeric).max()
    assert scale > 1e-3                                             # a field that actually moves
    np.testing.assert_allclose(analytic, numeric, rtol=0, atol=1e-6 * scale)


def test_float_classification_says_exact_is_false() -> None:
    """ties.x_classify__mutmut_102: the float branch built Classification(exact=None); search records
    copy ``cls.exact`` into their JSON, where it must be ``false``."""
    pe, task = parse_pe("rope:4"), parse_task("offset:1")
    sel = select(pe, task, 8, exact=False)
    assert sel.realizable and sel.exact_theta is None
    cls = classify(pe, task, sel, 16)
    assert cls.exact is False
    assert cls.total == 15 and 0 <= cls.realized <= cls.total


@pytest.mark.parametrize("cls", ["FaceLP", "DualFaceLP"])
def test_linprog_fallback_returns_zero_duals_on_slack_rows(cls: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """geometry.xǁ_WarmLPǁminimize__mutmut_44 (``np.maximum(-marginals, 0.0)`` → ``1.0``): without HiGHS'
    Python API each face LP is one ``linprog``, and its row duals must be the LP's: min w₁ + w₂ over
    w₁ ≥ 1, w₂ ≥ 2, w₁ + w₂ ≥ 0 in the box [-10, 10]² has its optimum (1, 2) with the first two rows tight
    and the third slack (3 > 0), so μ = (1, 1, 0) (c = Aᵀμ on the tight rows, complementary slackness on the
    slack one) — the same as the warm HiGHS model gives.  The mutant floored every dual at 1."""
    from posreal.theory import geometry

    A = np.array([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]])                 # (M, d) = (3, 2)
    r, lo, hi, c = np.array([1.0, 2.0, 0.0]), np.full(2, -10.0), np.full(2, 10.0), np.array([1.0, 1.0])
    warm = getattr(geometry, cls)(A, r, lo, hi)
    monkeypatch.setattr(geometry, "_highs_api", lambda: False)
    cold = getattr(geometry, cls)(A, r, lo, hi)
    assert warm.model is not None and cold.model is None             # the two paths under test
    value, w, mu = cold.minimize(c)
    assert value == 3.0 and w is not None and mu is not None
    np.testing.assert_allclose(w, [1.0, 2.0])
    slack = A @ w - r                                                  # (M,)
    assert slack[2] > 0 and np.allclose(slack[:2], 0)
    np.testing.assert_allclose(A[:2].T @ mu[:2], c)                    # stationarity on the tight rows
    assert mu[2] == 0.0                                                # complementary slackness
    np.testing.assert_allclose(mu, warm.minimize(c)[2])


def test_transfer_of_a_general_table_and_of_its_dual_matches_the_definition() -> None:
    """kernels.x_transfer__mutmut_54 (``DenseKernel(length, pe.index, …)`` → ``DenseKernel(length, None, …)``):
    a general table's kernel is in position form (key index k = j), and its shear's (``dual:``) in offset
    form, flipped from it; with no index the flip has nothing to flip.  Both kernels equal the naive
    T_L θ = ⟨θ, ψ(i, j)⟩ of their PE, entry by entry."""
    from posreal.theory.encodings import OFFSET, POSITION
    from posreal.theory.pe_specs import dual_pe
    from posreal.theory.transfer import naive_kernel_matrix, transfer

    rows = [[[1, 0], [0, 0], [0, 0], [0, 0]], [[0, 2], [1, 1], [0, 0], [0, 0]],
            [[3, 1], [0, -1], [2, 2], [0, 0]], [[1, 1], [2, 0], [0, 3], [1, -2]]]     # (N, N, p) = (4, 4, 2)
    table = build_table("general_4", rows, "general")
    theta = np.array([1.0, -0.5])                                                   # (p,)
    kernel = transfer(table, theta, 4, 4)
    assert kernel.index == POSITION
    np.testing.assert_array_equal(kernel.matrix(), naive_kernel_matrix(table, theta, 4, 4))
    sheared = dual_pe(table)
    dual_kernel = transfer(sheared, theta, 4, 4)
    assert dual_kernel.index == OFFSET
    np.testing.assert_array_equal(dual_kernel.matrix(), naive_kernel_matrix(sheared, theta, 4, 4))
