"""checks/extension_checks.py and checks/smt/extension.py: the length-extension statement's checks — the hand
formulas they rest on, the properties under the active hypothesis profile, the registry check and its control."""

import math

import numpy as np
import pytest

from posreal.checks import extension_checks as ec
from posreal.checks.base import Control, Verdict


def test_profile_derivative_and_bounds():
    prof = ec.Profile(np.array([1.0, 0.3, 0.05]), np.array([0.5, -1.0, 2.0]), np.array([1.5, 0.2, -0.7]))
    xs = np.linspace(0, 20, 401)
    h = 1e-6
    numeric = (prof.value(xs + h) - prof.value(xs - h)) / (2 * h)
    assert np.allclose(prof.slope(xs), numeric, atol=1e-6)
    second = (prof.slope(xs + h) - prof.slope(xs - h)) / (2 * h)
    assert np.abs(second).max() <= prof.m2 and np.abs(prof.slope(xs)).max() <= prof.m1


def test_hand_lambdas_by_hand():
    # d = 8, s = 4: NTK λ_f = 4^(2f/6); PI 4; YaRN at L0 = 2000 (r_0 = 2000/2π ≈ 318 ≥ 32: ω_0 extrapolated)
    assert np.allclose(ec.hand_lambdas("ntk", 8, 10000.0, 64, 16), [1, 4 ** (1 / 3), 4 ** (2 / 3), 4])
    assert np.allclose(ec.hand_lambdas("pi", 8, 10000.0, 64, 16), [4, 4, 4, 4])
    lam = ec.hand_lambdas("yarn", 8, 10000.0, 8000, 2000)
    r = 2000 * np.array([10000 ** (-f / 4) for f in range(4)]) / (2 * math.pi)     # 318, 31.8, 3.18, 0.318
    assert lam[0] == 1.0 and lam[3] == pytest.approx(4.0)
    g = (r[1:3] - 1) / 31
    assert np.allclose(lam[1:3], 1 / ((1 - g) / 4 + g))
    assert np.all(ec.hand_lambdas("yarn", 8, 10000.0, 16, 16) == 1)              # s = 1: the identity


def test_profile_reads_rope_and_abscol_layouts():
    theta = np.array([1.0, 2.0, 3.0, 4.0])          # d = 4: two frequencies
    rope, col = ec.profile("rope:4:100.0", theta), ec.profile("abscol:4:100.0", theta)
    assert rope.a.tolist() == [1, 2] and rope.b.tolist() == [3, 4]        # [cos] ++ [sin]
    assert col.b.tolist() == [1, 2] and col.a.tolist() == [3, 4]          # [sin] ++ [cos]
    assert ec.theta_of("abscol:4:100.0", col.a, col.b).tolist() == theta.tolist()


def test_offset_threshold_makes_the_slope_keep_its_sign():
    rng = np.random.default_rng(7)
    for _ in range(50):
        omega = np.array([1.0, 0.2, 0.03])
        prof = ec.Profile(omega, rng.normal(size=3), rng.normal(size=3))
        c = int(rng.integers(1, 4))
        L0 = int(rng.integers(c + 1, 20))
        L = math.floor(ec.offset_threshold(prof, c, L0)) + 1
        xs = np.linspace(0, (c + 1) * L0 / L, 2001)
        assert np.all(np.sign(prof.slope(xs)) == np.sign(prof.slope(0.0)[0]))


def test_copy_property():
    from posreal.checks.properties import extension_copy
    extension_copy()


def test_offset_property():
    from posreal.checks.properties import extension_offset
    extension_offset()


def test_position0_property():
    from posreal.checks.properties import extension_position0
    extension_position0()


def test_keep_property():
    from posreal.checks.properties import extension_keep
    extension_keep()


def test_registry_check_passes_and_its_control_refutes():
    result = ec.check_extension_registry()
    assert result.verdict is Verdict.PASSED, result.detail
    assert result.negative_control is Control.COUNTEREXAMPLE and result.ok
    assert result.data["comparisons"] > 100 and not result.data["mismatches"]


def test_registry_predictions_cover_every_part():
    report = ec.extension_registry()
    parts = {c[3] for c in report["compared"]}
    assert {"constant", "half", "half, odd L", "last", "zero"} <= parts
    assert {f"split {m}" for m in ("pi", "ntk", "yarn")} <= parts and {f"keep {m}" for m in ("pi", "ntk")} <= parts


def test_the_runner_lists_the_claim_with_three_methods():
    from posreal.checks.runner import declared_checks
    table, _ = declared_checks()
    assert {c.method for c in table["extension"]} == {"smt", "property", "registry", "coq"}


def test_tiny_random_coefficients_are_decided_at_unit_scale():
    """A case hypothesis found (coefficients of 1.5e-43): every kernel margin fell under the float tolerance
    and row c read as a tie.  Realized rows do not change under θ -> cθ (c > 0); the case is checked at unit
    scale, where the prediction (row c survives PI beyond L_c, V'(0) > 0) holds."""
    from posreal.checks.extension_checks import _offset_assert, offset_setup, offset_threshold
    case = {"pe": "rope", "d": 4, "base": 10.0, "c": 1, "L0": 2, "kind": "random", "a": [0.0, 0.0],
            "b": [0.0, 1.5418611174280304e-43], "amps": [1.0, 1.0], "shift": 0.0, "extra": 0}
    pe, task, theta, prof = offset_setup(case)
    assert float(abs(theta).max()) == 1.0 and prof.slope(0.0)[0] > 0
    L = max(3, int(offset_threshold(prof, 1, 2)) + 1)
    _offset_assert(pe, task, theta, prof, 1, 2, L)


def test_a_factor_near_one_reaches_the_code_unrounded():
    """A case hypothesis found: the check wrote λ = 1.000000000001 to the factors file as a fraction of
    denominator ≤ 1e9, i.e. as 1, and then compared the code's λ with the unrounded formula.  The file now
    holds the doubles themselves, and the code's λ equal them."""
    case = {"pe": "rope", "d": 16, "base": 2.0, "L0": 4, "c": 0, "fixed": "offset", "kind": "random",
            "a": [0.0] * 8, "b": [0.0] * 8, "amps": [1.0] + [0.0] * 7, "method": "factors", "length": 5,
            "factors": [1.0] * 7 + [1.000000000001]}
    ec.keep_body(case)
