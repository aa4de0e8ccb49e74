"""The committed SMT-LIB obligations (checks/obligations/) decided by z3 in a shuffled order, each in a fresh
context: the answers are the expected ones whatever the order, so no verdict depends on what the process decided
before (the solver modules build one context per obligation: posreal.checks.smt.solvers.decide_z3)."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest
import z3

from posreal.theory.defaults import SMT_TIMEOUT

pytestmark = pytest.mark.smt

COMMITTED = sorted((Path(__file__).resolve().parent.parent / "checks" / "obligations").glob("*.smt2"))
SEEDS = (14, 15)


def _expected(text: str) -> str:
    match = re.search(r"^\(set-info :status (sat|unsat)\)$", text, flags=re.MULTILINE)
    assert match, "every committed obligation states its expected answer"
    return match.group(1)


def _decide_fresh(text: str) -> str:
    ctx = z3.Context()                       # nothing parsed or decided before is visible here
    solver = z3.Solver(ctx=ctx)
    solver.set("timeout", int(SMT_TIMEOUT * 1000))
    solver.from_string(text)
    answer = solver.check()
    return str(answer) if answer != z3.unknown else f"unknown ({solver.reason_unknown()})"


@pytest.mark.parametrize("seed", SEEDS)
def test_committed_obligations_in_shuffled_order(seed):
    assert len(COMMITTED) > 50
    order = list(COMMITTED)
    random.Random(seed).shuffle(order)
    wrong = []
    for path in order:
        text = path.read_text(encoding="utf-8")
        answer = _decide_fresh(text)
        if answer != _expected(text):
            wrong.append(f"{path.name}: {answer}, expected {_expected(text)}")
    assert not wrong, f"seed {seed}, order {[p.name for p in order][:5]}...: {wrong}"


def test_a_wrong_expectation_is_caught():
    """The comparison can fail: an encoding read as if it expected sat."""
    path = next(p for p in COMMITTED if p.name.endswith(".encoding.smt2"))
    text = path.read_text(encoding="utf-8")
    assert _decide_fresh(text) == _expected(text) == "unsat"
    flipped = text.replace("(set-info :status unsat)", "(set-info :status sat)")
    assert _decide_fresh(flipped) != _expected(flipped)
