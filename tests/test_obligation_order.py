"""SMT verdicts independent of solver state: the committed SMT-LIB obligations (checks/obligations/) and the
in-process obligations, decided in a seeded shuffled order, each in a fresh context, give the expected answers
whatever the order.

Every solver call of the project goes through :mod:`posreal.checks.smt.solvers`: z3 translates the obligation
into a ``z3.Context`` of its own (:func:`~posreal.checks.smt.solvers.decide_z3`), cvc5 builds a new
``TermManager`` and ``Solver`` for each obligation (:func:`~posreal.checks.smt.solvers.decide_cvc5`).

Why it matters (measured 2026-12-07 with z3 5.4.1): decided one after another in one shared z3 context (a new
``z3.Context()`` per order), the committed files give ``unknown (incomplete quantifiers)`` on
``theorem2.growing_finite.middle.encoding`` in the order of seed 0, in every run of that order (alone, in a
fresh context, it is unsat in 0.1 s), and ``unknown (timeout)`` on ``expressivity.middle_one_row.encoding`` in
the orders of seeds 1 and 2; with z3's main context reused across orders, ``theorem2.shallow_iff``,
``theorem2.growing_finite.reverse`` and ``proposition4.margins`` were lost as well.  In a fresh context per
obligation every order gives every expected answer.
:func:`test_one_shared_context_depends_on_the_order` keeps that measurement (slow): it is the negative control
showing that the shuffled-order tests can see a state-dependent answer.

Budget: z3 decides all 105 files in about 1.3 s, so every default run decides all of them (two seeds, from the
files and from the in-process terms).  cvc5 takes about 50 s for all of them (two fallback encodings run to the
20 s timeout), so the default run decides a seeded sample of the encodings and the slow run all of them.
"""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest
import z3

from posreal.checks.base import ObligationKind, Solver, SolverStatus
from posreal.checks.smt.solvers import decide_cvc5
from posreal.theory.defaults import SMT_TIMEOUT

pytestmark = pytest.mark.smt

COMMITTED = sorted((Path(__file__).resolve().parent.parent / "checks" / "obligations").glob("*.smt2"))
SEEDS = (14, 15)
CVC5_SAMPLE = 24      # encodings per seed in the default run (about 1 s)

# cvc5's answers that are not the expected one, measured in a fresh process, each file alone (2026-12-07, cvc5
# 1.4.2): never a state effect, and never a verdict (z3 decides these; the fallback encodings are tried only
# when the first encoding is undecided, which no proof needs today).
CVC5_UNDECIDED: dict[str, str] = {
    "escape-depth.route_lemma_step.control.smt2": "no model within cvc5's 3 s sat-side budget (z3 finds one)",
    "extension.pi_fixed_offset_decreasing.encoding-2.smt2": "fallback encoding: cvc5 times out at 20 s",
    "extension.pi_fixed_offset_increasing.encoding-2.smt2": "fallback encoding: cvc5 times out at 20 s",
}


def _expected(text: str) -> str:
    match = re.search(r"^\(set-info :status (sat|unsat)\)$", text, flags=re.MULTILINE)
    assert match, "every committed obligation states its expected answer"
    return match.group(1)


def _kind(path: Path) -> ObligationKind:
    """The obligation kind from the file name, ``<check>.<kind>[-k].smt2``."""
    return ObligationKind(path.name.removesuffix(".smt2").rsplit(".", 1)[1].split("-")[0])


def _is_fallback(path: Path) -> bool:
    return re.search(r"\.encoding-\d+\.smt2$", path.name) is not None


def _decide_z3(text: str, ctx: z3.Context | None = None) -> str:
    """z3 on one file, in ``ctx`` (a fresh context unless one is given: nothing decided before is visible)."""
    solver = z3.Solver(ctx=ctx if ctx is not None else z3.Context())
    solver.set("timeout", int(SMT_TIMEOUT * 1000))
    solver.from_string(text)
    answer = solver.check()
    return str(answer) if answer != z3.unknown else f"unknown ({solver.reason_unknown()})"


def _wrong_z3(order: list[Path], ctx: z3.Context | None = None) -> list[str]:
    wrong = []
    for path in order:
        text = path.read_text(encoding="utf-8")
        answer = _decide_z3(text, ctx)
        if answer != _expected(text):
            wrong.append(f"{path.name}: {answer}, expected {_expected(text)}")
    return wrong


def _shuffled(items: list, seed: int) -> list:
    order = list(items)
    random.Random(seed).shuffle(order)
    return order


def test_the_kind_is_read_off_the_file_name():
    assert {_kind(p) for p in COMMITTED} == set(ObligationKind)
    assert _kind(Path("extension.pi_fixed_offset_increasing.encoding-2.smt2")) is ObligationKind.ENCODING
    assert all(_is_fallback(COMMITTED[0].parent / name) == ("encoding-" in name) for name in CVC5_UNDECIDED)


@pytest.mark.parametrize("seed", SEEDS)
def test_committed_obligations_in_shuffled_order(seed):
    assert len(COMMITTED) > 50
    order = _shuffled(COMMITTED, seed)
    wrong = _wrong_z3(order)
    assert not wrong, f"seed {seed}, order {[p.name for p in order][:5]}...: {wrong}"


@pytest.mark.parametrize("seed", SEEDS)
def test_in_process_obligations_in_shuffled_order(seed):
    """The path ``posreal check`` takes: z3 on the obligations' own terms (built in the process's main context,
    every proof's terms first), in shuffled order; each answer is the expected one."""
    from posreal.checks.smt import all_obligations
    from posreal.checks.smt.common import decide
    obligations = all_obligations()
    assert {ob.filename for ob in obligations} == {p.name for p in COMMITTED}
    wrong = [f"{ob.filename}: {answer.status.value} ({answer.reason})"
             for ob in _shuffled(obligations, seed)
             if (answer := decide(ob, Solver.Z3)).status is not ob.expected]
    assert not wrong, f"seed {seed}: {wrong}"


def _wrong_cvc5(order: list[Path]) -> list[str]:
    wrong = []
    for path in order:
        text = path.read_text(encoding="utf-8")
        answer = decide_cvc5(text, _kind(path), SMT_TIMEOUT, path.name)
        if answer.status.value == _expected(text):
            continue
        if answer.status is SolverStatus.UNKNOWN and path.name in CVC5_UNDECIDED:
            continue
        wrong.append(f"{path.name}: {answer.status.value} ({answer.reason}), expected {_expected(text)}")
    return wrong


@pytest.mark.parametrize("seed", SEEDS)
def test_cvc5_sample_in_shuffled_order(seed):
    """A seeded sample of the first-tried encodings (the proofs: unsat, with the full timeout; no fallback
    encoding), in that sample's random order.  The sat side (controls, hypotheses alone) has a 3 s budget that a
    loaded machine can exhaust, so it is left to the slow test; z3 decides all of it above."""
    pytest.importorskip("cvc5")
    pool = [p for p in COMMITTED if _kind(p) is ObligationKind.ENCODING and not _is_fallback(p)]
    assert len(pool) >= CVC5_SAMPLE
    order = random.Random(seed).sample(pool, CVC5_SAMPLE)
    wrong = _wrong_cvc5(order)
    assert not wrong, f"seed {seed}: {wrong}"


@pytest.mark.slow
def test_cvc5_every_committed_obligation_in_shuffled_order():
    pytest.importorskip("cvc5")
    wrong = _wrong_cvc5(_shuffled(COMMITTED, SEEDS[0]))
    assert not wrong, wrong


@pytest.mark.slow
def test_one_shared_context_depends_on_the_order():
    """The negative control of the shuffled-order tests: the same comparison with every file decided in one
    shared z3 context (what a fresh context per obligation avoids) finds a wrong answer in the order of seed 0
    (measured: ``theorem2.growing_finite.middle.encoding`` comes back unknown, incomplete quantifiers)."""
    wrong = _wrong_z3(_shuffled(COMMITTED, 0), ctx=z3.Context())
    assert wrong, ("one shared z3 context gave every expected answer in the order of seed 0: the measured state "
                   f"dependence of z3 {z3.get_version_string()} is gone; re-measure before relying on this control")
    assert all("unknown" in w for w in wrong), wrong   # a state effect loses answers, it never flips sat/unsat


def test_a_wrong_expectation_is_caught():
    """The comparison can fail: an encoding read as if it expected sat."""
    path = next(p for p in COMMITTED if p.name.endswith(".encoding.smt2"))
    text = path.read_text(encoding="utf-8")
    assert _decide_z3(text) == _expected(text) == "unsat"
    flipped = text.replace("(set-info :status unsat)", "(set-info :status sat)")
    assert _decide_z3(flipped) != _expected(flipped)
