"""The independent reference values of α_L (tests/cases.py), duality on the registry, the fast paths against
the definitions, and the agreement of the float / exact / certified modes."""

import numpy as np
import pytest

from cases import (LENGTHS, RATIONAL_PES, REFERENCE_ALPHA, REGISTRY_CELLS, SINUSOIDAL_PES, TRAIN_LENGTH,
                   quoted_decimals)
from naive import naive_row_status
from posreal.theory import compute_alpha, dual_pe, dual_task, parse_pe, parse_task, select
from posreal.theory.selection import verify_farkas_exact, verify_kkt_exact
from posreal.theory.alpha import row_outcomes


@pytest.mark.parametrize("cell", sorted(REFERENCE_ALPHA), ids=lambda c: f"{c[0]}-{c[1]}")
def test_reference_values(cell):
    result = compute_alpha(*cell, train_length=TRAIN_LENGTH, lengths=LENGTHS)
    expected = REFERENCE_ALPHA[cell]
    if expected is None:
        assert not result.realizable
        return
    assert result.realizable
    for L, quoted in zip(LENGTHS, expected):
        outcome = result.outcomes[L]
        assert outcome.counts()["undecided"] == 0
        assert round(result.alpha(L), quoted_decimals(quoted)) == pytest.approx(float(quoted), abs=0), (L, quoted)


@pytest.mark.parametrize("cell", REGISTRY_CELLS, ids=lambda c: f"{c[0]}-{c[1]}")
def test_duality_exact_on_registry(cell):
    pe, task = parse_pe(cell[0]), parse_task(cell[1])
    base = compute_alpha(pe, task, TRAIN_LENGTH, LENGTHS)
    dual = compute_alpha(dual_pe(pe), dual_task(task), TRAIN_LENGTH, LENGTHS)
    assert base.realizable == dual.realizable
    for L in LENGTHS if base.realizable else ():
        assert base.outcomes[L].counts() == dual.outcomes[L].counts()
        assert np.array_equal(base.outcomes[L].status, dual.outcomes[L].status)


@pytest.mark.parametrize("cell", REGISTRY_CELLS, ids=lambda c: f"{c[0]}-{c[1]}")
def test_fast_transfer_matches_definition(cell):
    """T_L θ* through the fast kernels and through the materialized features agree row by row,
    for the cell and for its shear (whose features are evaluated as ψ(i, i-j))."""
    for pe, task in ((parse_pe(cell[0]), parse_task(cell[1])),
                     (dual_pe(parse_pe(cell[0])), dual_task(parse_task(cell[1])))):
        sel = select(pe, task, TRAIN_LENGTH, mode="float")
        if not sel.realizable:
            continue
        for L in (TRAIN_LENGTH, 48):
            fast = row_outcomes(pe, task, sel.theta, L, TRAIN_LENGTH).status
            assert np.array_equal(fast, naive_row_status(pe, task, sel.theta, L, TRAIN_LENGTH))


@pytest.mark.parametrize("cell", REGISTRY_CELLS, ids=lambda c: f"{c[0]}-{c[1]}")
def test_realizable_means_every_training_row_realized(cell):
    result = compute_alpha(*cell, train_length=TRAIN_LENGTH, lengths=[TRAIN_LENGTH])
    if result.realizable:
        assert result.alpha(TRAIN_LENGTH) == 1.0


@pytest.mark.parametrize("pe", RATIONAL_PES)
@pytest.mark.parametrize("task", ["offset:1", "offset:2", "position:0", "position:1", "copy", "middle",
                                  "reverse", "half"])
def test_exact_evidence_verifies_and_modes_agree(pe, task):
    sel = select(pe, task, TRAIN_LENGTH, mode="exact")
    if sel.realizable:
        assert verify_kkt_exact(sel)
    else:
        assert "structural tie" in sel.reason or verify_farkas_exact(sel)
    exact = compute_alpha(pe, task, TRAIN_LENGTH, LENGTHS, mode="exact")
    floating = compute_alpha(pe, task, TRAIN_LENGTH, LENGTHS, mode="float")
    assert exact.realizable == floating.realizable == sel.realizable
    for L in LENGTHS if sel.realizable else ():
        decided = floating.outcomes[L].status != 0
        assert np.array_equal(exact.outcomes[L].status[decided], floating.outcomes[L].status[decided])
        assert exact.outcomes[L].counts()["undecided"] == 0


@pytest.mark.parametrize("pe", SINUSOIDAL_PES)
@pytest.mark.parametrize("task", ["offset:1", "position:0", "position:1", "copy", "middle", "half"])
def test_float_kkt_and_certified_agree(pe, task):
    sel = select(pe, task, TRAIN_LENGTH)
    if sel.realizable:
        cert = sel.evidence
        assert cert["primal_min_slack"] >= -1e-6 and cert["dual_min"] >= 0
        assert cert["stationarity"] <= 1e-6 and cert["complementarity"] <= 1e-6
    certified = compute_alpha(pe, task, TRAIN_LENGTH, LENGTHS, mode="certified")
    floating = compute_alpha(pe, task, TRAIN_LENGTH, LENGTHS, mode="float")
    for L in LENGTHS if sel.realizable else ():
        decided = floating.outcomes[L].status != 0
        assert np.array_equal(certified.outcomes[L].status[decided], floating.outcomes[L].status[decided])
        assert certified.outcomes[L].counts()["undecided"] <= floating.outcomes[L].counts()["undecided"]
