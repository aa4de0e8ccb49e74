"""Mutation tests: break a hypothesis inside the code and some check must fail.

1. realization made non-strict (a tie γ = 0 counts as realized: ≥ instead of >);
2. the shear of a task forgets to map t ↦ i - t;
3. gradient descent gets a gradient term outside the span of the training differences.
Each test first confirms the check passes on the intact code, then that it fails on the mutant."""

import numpy as np
import pytest

from posreal.checks.base import GOOD_VERDICTS
from posreal.checks.properties import FALSIFIED, run_property
from posreal.checks.registry_cells import check_duality_registry
from posreal.theory import arithmetic as arithmetic_module
from posreal.theory import realization, tasks, training


def _nonstrict_float(margins, target_values, ties, tol=realization.DEFAULT_TOL):
    scale = tol * np.maximum(1.0, np.abs(target_values))
    status = np.where(margins >= -scale, realization.REALIZED, realization.FAILED)   # ≥: ties realize
    return np.where(ties, realization.FAILED, status).astype(np.int8)


def _nonstrict_exact(margins, ties):
    status = np.array([realization.REALIZED if (g is None or g >= 0) else realization.FAILED for g in margins],
                      dtype=np.int8)
    return np.where(ties, realization.FAILED, status).astype(np.int8)


def _fails(result) -> bool:
    return result.verdict not in GOOD_VERDICTS


def test_nonstrict_realization_is_caught(monkeypatch):
    assert not _fails(run_property("theorem2_rows", max_examples=40, control_examples=50))
    for module in (realization, arithmetic_module):
        monkeypatch.setattr(module, "classify_float", _nonstrict_float)
        monkeypatch.setattr(module, "classify_exact", _nonstrict_exact)
    mutant = run_property("theorem2_rows", max_examples=40, control_examples=50)
    assert _fails(mutant), mutant.detail
    assert f"counterexample: {FALSIFIED}:" in mutant.detail


def test_broken_task_shear_is_caught(monkeypatch):
    intact = run_property("duality_margins", max_examples=40, control_examples=50)
    assert intact.ok, intact.detail

    def unsheared(self, length):
        return self.base.rows_and_targets(length)   # forgets t ↦ i - t
    monkeypatch.setattr(tasks.DualTask, "rows_and_targets", unsheared)
    assert _fails(run_property("duality_margins", max_examples=40, control_examples=50))


@pytest.mark.slow
def test_broken_task_shear_is_caught_on_the_registry(monkeypatch):
    intact = check_duality_registry()
    assert intact.ok, intact.detail
    monkeypatch.setattr(tasks.DualTask, "rows_and_targets", lambda self, n: self.base.rows_and_targets(n))
    assert _fails(check_duality_registry())


def test_gradient_outside_the_span_is_caught(monkeypatch):
    assert not _fails(run_property("orthogonal_tie_persistence", max_examples=30, control_examples=50))
    original = training.TrainingGrid.loss_and_grad

    def drifting(self, theta):
        loss, grad = original(self, theta)
        return loss, grad + 1e-3 * np.arange(1, grad.size + 1)   # a term outside col Zᵀ
    monkeypatch.setattr(training.TrainingGrid, "loss_and_grad", drifting)
    mutant = run_property("orthogonal_tie_persistence", max_examples=30, control_examples=50)
    assert _fails(mutant), mutant.detail
