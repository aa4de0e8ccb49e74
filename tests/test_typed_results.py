"""Results cross module boundaries as dataclasses and Enums, and serialize to one string form each."""

import json
from fractions import Fraction

import numpy as np
import pytest

from posreal.checks.base import CheckResult, Control, Verdict
from posreal.counterexamples.verifier.verify import Outcome, CertificateReport as CertificateVerdict, overall
from posreal.theory import PosrealError, compute_alpha, learned_alpha_interval, parse_pe, select, transfer
from posreal.theory.kernels import BilinearKernel, DenseKernel, ProfileKernel
from posreal.theory.transfer_operator import exact_transfer
from posreal.theory.selection import SelectionStatus
from posreal.theory.underdetermination import COMPLETIONS, CompletionAlpha, MonteCarloAlpha


def test_selection_status_is_an_enum_with_the_json_strings():
    assert [s.value for s in SelectionStatus] == ["realizable", "not realizable", "undecided"]
    realizable, not_realizable = select("relbias", "offset:1", 16), select("relbias", "reverse", 16)
    assert realizable.status is SelectionStatus.REALIZABLE and realizable.realizable and not realizable.undecided
    assert not_realizable.status is SelectionStatus.NOT_REALIZABLE and not not_realizable.realizable
    for sel in (realizable, not_realizable):
        summary = json.loads(json.dumps(sel.summary()))
        assert summary["status"] == sel.status.value and type(sel.summary()["status"]) is str


def test_theta_exists_exactly_on_the_realizable_path():
    sel = select("relbias", "offset:1", 16)
    assert sel.optimum is not None and sel.theta.shape == (16,) and sel.multipliers is not None
    refused = select("relbias", "reverse", 16)
    assert refused.optimum is None and refused.multipliers is None and refused.exact_optimum is None
    with pytest.raises(PosrealError, match="not realizable"):
        _ = refused.theta


def test_exact_optimum_only_with_exact_optimality_data():
    exact = select("relbias", "offset:1", 16, mode="exact").exact_optimum
    assert exact is not None and all(isinstance(x, Fraction) for x in exact.theta)
    assert len(exact.constraints) == select("relbias", "offset:1", 16, mode="exact").constraints.shape[0]
    assert select("rope:16", "offset:1", 16).exact_optimum is None      # float θ*: no ℚ certificate


def test_alpha_json_keeps_plain_strings():
    doc = compute_alpha("relbias", "reverse", 16, [32]).to_json()
    assert doc["selected"]["status"] == "not realizable" and doc["realizable"] is False


def test_check_verdicts_and_controls_are_enums_with_one_json_form():
    result = CheckResult("theorem2", "demo", "property", "passed", "no counterexample")
    assert result.verdict is Verdict.PASSED and result.negative_control is Control.NO_COUNTEREXAMPLE
    assert not result.ok                        # a control that found nothing does not count
    doc = result.to_json()
    assert doc["verdict"] == "passed" and doc["negative_control"] == "no counterexample"
    assert type(doc["verdict"]) is str and type(doc["negative_control"]) is str
    assert CheckResult("theorem2", "demo", "smt", Verdict.PROVED, Control.COUNTEREXAMPLE).ok
    with pytest.raises(ValueError):
        CheckResult("theorem2", "demo", "smt", "provd", None)
    with pytest.raises(ValueError):
        CheckResult("theorem2", "demo", "smt", Verdict.PROVED, "none")


def test_certificate_outcome_is_an_enum_with_one_json_form():
    verdicts = [CertificateVerdict(Outcome.VERIFIED, "a"), CertificateVerdict(Outcome.NOT_CHECKABLE, "b")]
    assert overall(verdicts) is Outcome.NOT_CHECKABLE
    assert overall(verdicts + [CertificateVerdict(Outcome.REFUTED, "c")]) is Outcome.REFUTED
    assert [type(v.to_json()["verdict"]) for v in verdicts] == [str, str]
    assert [v.to_json()["verdict"] for v in verdicts] == ["verified", "not checkable"]


def test_learned_interval_is_a_dataclass_with_its_document():
    result = learned_alpha_interval("learned:16", "position:0", 16, (32,), samples=4)
    assert result.realizable and [i.length for i in result.intervals] == [32]
    interval = result.interval(32)
    assert interval.low <= interval.completions["zero"].alpha <= interval.high
    doc = result.to_json()
    assert doc["alpha"]["32"] == json.loads(json.dumps(interval.to_json()))
    assert doc["rows"]["32"]["zero"]["total"] == interval.completions["zero"].total


def test_underdetermination_results_are_frozen_dataclasses_with_the_old_documents():
    result = learned_alpha_interval("learned:16", "position:0", 16, (32,), samples=4)
    interval = result.interval(32)
    completions, mc = interval.completions, interval.monte_carlo
    assert list(completions) == list(COMPLETIONS)
    assert all(isinstance(c, CompletionAlpha) for c in completions.values()) and isinstance(mc, MonteCarloAlpha)
    with pytest.raises(AttributeError):
        mc.mean = 0.0  # type: ignore[misc]
    for c in completions.values():
        assert list(c.to_json()) == ["alpha", "realized", "undecided", "total"]
        assert c.to_json() == {"alpha": c.alpha, "realized": c.realized, "undecided": c.undecided, "total": c.total}
        assert c.alpha == c.realized / c.total and [type(n) for n in (c.realized, c.undecided, c.total)] == [int] * 3
    assert list(mc.to_json()) == ["mean", "stderr", "min", "max", "seed", "samples", "init"]
    assert mc.to_json() == {"mean": mc.mean, "stderr": mc.stderr, "min": mc.min, "max": mc.max, "seed": mc.seed,
                            "samples": mc.samples, "init": mc.init}
    assert mc.min <= mc.mean <= mc.max and mc.samples == 4
    # the whole document, built by hand from the fields, in the order of keys it had when these were dicts
    alphas = [c.alpha for c in completions.values()]
    block = result.block
    expected = {
        "pe": "learned:16", "task": "position:0", "train_length": 16, "mode": "learned",
        "block": {"method": block.method, "seed": block.seed, "steps": block.steps, "d": block.d,
                  "init": "E_j, W_ab ~ N(0, 1/d)", "min_train_margin": result.min_train_margin},
        "realizable": True,
        "alpha": {"32": {"low": min(alphas + [mc.min]), "high": max(alphas + [mc.max]),
                         "completions": {name: c.alpha for name, c in completions.items()},
                         "monte_carlo": {"mean": mc.mean, "stderr": mc.stderr, "min": mc.min, "max": mc.max,
                                         "seed": mc.seed, "samples": mc.samples, "init": mc.init}}},
        "rows": {"32": {name: {"realized": c.realized, "undecided": c.undecided, "total": c.total}
                        for name, c in completions.items()}},
        "interval": "spanned by the completions zero, copy_last and the Monte Carlo samples",
    }
    doc = result.to_json()
    text = json.dumps(doc)                     # serializable: no dataclass or numpy scalar left inside
    assert json.loads(text) == doc == expected
    assert text == json.dumps(expected)        # same keys in the same order, at every level


@pytest.mark.parametrize("spec", ["relbias", "rope:8", "abssin:4", "dual:rope:8", "colbias"])
def test_every_kernel_row_agrees_with_row_values(spec):
    pe = parse_pe(spec)
    theta = np.random.default_rng(0).normal(size=pe.dim(8))              # (p,)
    kernel = transfer(pe, theta, 12, 8)
    assert isinstance(kernel, (ProfileKernel, BilinearKernel, DenseKernel))
    values = kernel.row_values(np.arange(12))                             # (12, 12)
    for i in range(12):
        assert np.allclose(kernel.index_row(i), values[i, : i + 1])


def test_exact_kernel_rows_keep_fractions():
    theta = [Fraction(k, 3) for k in range(8)]
    kernel = exact_transfer("relbias", theta, 10, 8)
    assert kernel.index_row(9) == [theta[min(k, 7)] for k in range(10)]
