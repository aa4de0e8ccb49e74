"""The checks of E1-E3: each proves or passes and its negative control fails as it should; the circuit on
tokens that the controls rely on is itself right."""

import pytest

from posreal.checks.base import Control, Verdict
from posreal.checks.escape_checks import ESCAPE_CHECKS, circuit_every_choice, circuit_on_tokens
from posreal.checks.smt import escape_content, escape_depth, escape_induction
from posreal.checks.smt.common import run_proof


def test_circuit_on_tokens():
    n = 9                                                        # m = 4, rows 5..7
    prev = [0] + list(range(n - 1))
    assert all(circuit_on_tokens(prev, i) for i in (5, 6, 7))
    self_route = prev.copy()
    self_route[6] = 6                                            # (b): row 6 routes to itself
    assert not circuit_on_tokens(self_route, 6) and circuit_on_tokens(self_route, 5)
    extra = prev.copy()
    extra[4] = 2                                                 # (c): row 4 also routes to s = 2 of row 6
    assert not circuit_on_tokens(extra, 6)
    sets = [(k,) for k in prev]
    sets[3] = (2, 1)                     # row t = 3 of row 6 is tied; one choice routes it to s = 1 of row 5
    assert not circuit_every_choice(sets, 6) and not circuit_every_choice(sets, 5)
    assert circuit_every_choice(sets, 7)                         # row 7 (s = 3) never sees the tie's keys


@pytest.mark.parametrize("check", ESCAPE_CHECKS, ids=lambda c: f"{c.claim}-{c.method}")
def test_local_checks_pass_with_working_controls(check):
    result = check.run()
    assert result.verdict is Verdict.PASSED and result.negative_control is Control.COUNTEREXAMPLE, result.detail


@pytest.mark.smt
@pytest.mark.parametrize("module", [escape_depth, escape_content, escape_induction], ids=lambda m: m.CLAIM)
def test_smt_proofs_with_controls(module):
    for name, make in module.proofs():
        result = run_proof(make(), check=name)
        assert result.verdict is Verdict.PROVED and result.negative_control is Control.COUNTEREXAMPLE, result.detail
