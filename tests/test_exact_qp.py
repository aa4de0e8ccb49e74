"""The exact active-set selection (theory/exact_qp.py): θ* of rows beyond float's dynamic range, decided in ℚ.

* a table with 10^400 next to 1 (the rows of an α derived by hand below), decided with the α the mathematics
  gives, in the API and on the command line (10^399: the largest integer a JSON input may hold); the control:
  without the exact active set, the same cell ends undecided (the float start has no usable ρ);
* its answer is never trusted on its own: a forged θ or Farkas vector is refused by the exact certificate;
* bounded: its work is estimated before it starts and refused in one line (exit 2) above the work budget when
  nothing else decides the cell; skipped (a float θ proves realizability) when something does; it stops at its
  iteration cap;
* agreement: against brute force over every active set on small random rows, and (hypothesis) with the
  existing exact path on random rational tables in float range (the same θ* and α; λ need not be unique).
"""

from __future__ import annotations

import json
from fractions import Fraction as F
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from posreal.cli import main
from posreal.runtime.resources import WORK_ENV, ResourceError
from posreal.theory import exact_qp
from posreal.theory import selection as sm
from posreal.theory.alpha import compute_alpha
from posreal.theory.exact_qp import QPOutcome, QPStatus, solve_ldp, work_estimate
from posreal.theory.selection import select, verify_farkas_exact, verify_kkt_exact
from posreal.theory.tables import build_table
from test_selection_contract import _brute

B = 10 ** 400


def _wide_rows(big: int) -> list[list[int]]:
    """A relative table R[δ] (offsets 0..5, p = 2) with ``big`` next to 1.

    Under offset:1 at L0 = 3 the scored rows are i = 1 (key offsets {0}) and i = 2 ({0, 2}); the distinct
    training differences are z₁ = R[1] - R[0] = (big, 0) and z₂ = R[1] - R[2] = (0, 1).  They are orthogonal,
    so θ* = (1/big, 1) with both constraints active and λ = (1/big², 1) (θ* = λ₁z₁ + λ₂z₂, Zθ* = (1, 1)).
    The kernel r(δ) = ⟨θ*, R[δ]⟩ is -1, 0, -1, -1, 1/big - 1, 1/big: row i ≥ 1 is realized (offset 1 wins)
    iff r(1) = 0 beats every r(δ), δ ≤ i, δ ≠ 1 — rows 1..4, not row 5 (r(5) = 1/big > 0).  So α_5 = 4/4 = 1
    (rows 1..4) and α_6 = 4/5 (rows 1..5).  Row 5 turns on the 1/big: a float kernel would call it a tie."""
    return [[-big, 0], [0, 0], [0, -1], [big, -2], [1, -1], [1, 0]]


def _hand_alpha(big: int, length: int) -> F:
    """α_L of :func:`_wide_rows` from θ* = (1/big, 1) as derived above, counted here in ℚ."""
    theta = (F(1, big), F(1))
    r = [theta[0] * a + theta[1] * b for a, b in _wide_rows(big)]
    realized = sum(all(r[1] > r[d] for d in range(i + 1) if d != 1) for i in range(1, length))
    return F(realized, length - 1)


def test_a_table_with_10_400_next_to_1_is_decided_exactly() -> None:
    assert (_hand_alpha(B, 5), _hand_alpha(B, 6)) == (1, F(4, 5))
    table = build_table("wide", _wide_rows(B), "relative")
    assert table.feature_scale < 1                            # rescaled by 2^-k: the rows reach the selection scaled
    result = compute_alpha(table, "offset:1", 3, [5, 6], mode="exact")
    sel = result.selection
    assert sel.realizable and sel.evidence["method"] == "exact active set" and verify_kkt_exact(sel)
    scale = table.feature_scale                               # θ* of the rescaled table is θ*(given) / scale
    assert sel.exact_theta == [F(1, B) / scale, 1 / scale]
    assert sel.exact_multipliers == {0: F(1, B * B) / scale ** 2, 1: 1 / scale ** 2}
    assert [result.outcomes[L].exact_alpha for L in (5, 6)] == [_hand_alpha(B, 5), _hand_alpha(B, 6)]


def test_control_without_the_exact_active_set_the_cell_is_undecided(monkeypatch: pytest.MonkeyPatch) -> None:
    """The old path: a float NNLS on rows (2⁻³⁰⁶·10⁴⁰⁰, 0) and (0, 2⁻³⁰⁶) has ρ ≈ 10⁻¹⁸⁴, no usable start."""
    monkeypatch.setattr(sm, "_exact_active_set", lambda *args, **kwargs: None)
    sel = select(build_table("wide", _wide_rows(B), "relative"), "offset:1", 3, mode="exact")
    assert sel.undecided and sel.reason.startswith("undecided: no exact certificate found"), sel.reason


def test_the_command_line_decides_a_400_digit_table(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    big = 10 ** 399                                           # 400 digits: the most a JSON input integer may have
    path = tmp_path / "wide.json"
    path.write_text(json.dumps({"kind": "relative", "rows": _wide_rows(big)}), encoding="utf-8")
    args = ["alpha", "--pe", f"table:{path}", "--task", "offset:1", "--train-length", "3", "--lengths", "5,6"]
    assert main([*args, "--exact", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["alpha_exact"] == {"5": str(_hand_alpha(big, 5)), "6": str(_hand_alpha(big, 6))}
    assert out["selected"]["exact"] is True and out["selected"]["status"] == "realizable"
    assert main(args) == 2                                    # the control: float mode refuses the rescaled table
    assert "exceed the float range" in capsys.readouterr().err


# ----------------------------------------------------------------------------- never trusted on its own
@pytest.mark.parametrize("forged", ["theta", "farkas"])
def test_a_forged_answer_of_the_method_is_refused(monkeypatch: pytest.MonkeyPatch, forged: str) -> None:
    """A θ off by 1/1000 in one entry, or a 'Farkas' vector of a realizable cell: the exact certificate refuses
    both, and the cell ends undecided, never realizable or not realizable on the method's word."""
    honest = solve_ldp([(F(B), F(0)), (F(0), F(1))], 2)
    assert honest.status is QPStatus.OPTIMAL and honest.theta == [F(1, B), F(1)]
    lie = (QPOutcome(QPStatus.OPTIMAL, 1, theta=[F(1, B), F(1001, 1000)], multipliers=honest.multipliers)
           if forged == "theta" else QPOutcome(QPStatus.INFEASIBLE, 1, farkas={0: F(1, 2), 1: F(1, 2)}))
    monkeypatch.setattr(exact_qp, "solve_ldp", lambda zq, p: lie)
    sel = select(build_table("wide", _wide_rows(B), "relative"), "offset:1", 3, mode="exact")
    assert sel.undecided and sel.optimum is None and not verify_farkas_exact(sel)


# ----------------------------------------------------------------------------- bounded
def test_above_the_work_budget_it_is_refused_in_one_line(tmp_path: Path, capsys: pytest.CaptureFixture,
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "wide.json"
    path.write_text(json.dumps({"kind": "relative", "rows": _wide_rows(10 ** 399)}), encoding="utf-8")
    args = ["alpha", "--pe", f"table:{path}", "--task", "offset:1", "--train-length", "3", "--lengths", "6", "--exact"]
    needed = exact_qp.estimate(select(build_table("w", _wide_rows(10 ** 399), "relative"), "offset:1", 3,
                                      mode="exact").exact_constraints, 2, "x").work
    monkeypatch.setenv(WORK_ENV, str(needed - 1))
    assert main(args) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "exact active-set selection" in err and WORK_ENV in err, err
    monkeypatch.setenv(WORK_ENV, str(needed))                 # the control: at the estimate it runs
    assert main(args) == 0
    capsys.readouterr()


def test_over_budget_it_is_skipped_where_a_float_theta_already_decides(monkeypatch: pytest.MonkeyPatch) -> None:
    """relbias · offset:1 without the exact refinement: the float θ proves realizability, so an over-budget
    method is skipped (θ* approximate); within the budget the method gives θ* exactly (the control)."""
    monkeypatch.setattr(sm, "_exact_kkt", lambda zq, u, p: None)
    monkeypatch.setenv(WORK_ENV, "1")
    skipped = select("relbias", "offset:1", 4, mode="exact")
    assert skipped.realizable and skipped.exact_theta is None and skipped.evidence["feasible_exact"] is True
    monkeypatch.delenv(WORK_ENV)
    exact = select("relbias", "offset:1", 4, mode="exact")
    assert exact.evidence["method"] == "exact active set" and verify_kkt_exact(exact)
    assert exact.exact_theta == [F(-1, 4), F(3, 4), F(-1, 4), F(-1, 4)]
    with pytest.raises(ResourceError):                        # not realizable: nothing else decides, so refused
        monkeypatch.setattr(sm, "_exact_farkas", lambda zq, u, p: None)
        monkeypatch.setenv(WORK_ENV, "1")
        select("relbias", "reverse", 6, mode="exact")


def test_the_work_estimate_grows_with_every_size() -> None:
    base = work_estimate(10, 3, 8)
    assert base < work_estimate(20, 3, 8) and base < work_estimate(10, 6, 8) and base < work_estimate(10, 3, 800)


# Exists because a mutant survived: the passive set's size p + 1 in the work estimate was unchecked.
@pytest.mark.parametrize("bits, work", [
    # m = 2 rows, p = 1: k = p + 1 = 2 (bit length 2), s = 2 (2·1 + 2 + 2) = 12 bits; one word each (64 bits):
    # gradient 2·2·(400 + 1·1) = 1604, solves 2·2³·(400 + 1²) = 6416, cap 3 (2 + 1 + 1) = 12 steps
    (1, 5 * 10 ** 7 + 12 * (1604 + 6416)),
    # 100-bit entries: s = 2 (200 + 2 + 2) = 408 (7 words), entries 2 words, s + bits = 508 (8 words):
    # gradient 2·2·(400 + 2·8) = 1664, solves 2·2³·(400 + 7²) = 7184
    (100, 5 * 10 ** 7 + 12 * (1664 + 7184)),
])
def test_the_work_estimate_follows_its_documented_bound(bits: int, work: int) -> None:
    assert work_estimate(2, 1, bits) == work


def test_it_stops_at_its_iteration_cap() -> None:
    rows = [(F(1), F(0), F(0)), (F(0), F(1), F(0)), (F(0), F(0), F(1))]       # θ* = (1, 1, 1): three steps
    assert solve_ldp(rows, 3).iterations == 3
    assert solve_ldp(rows, 3, cap=2).status is QPStatus.STOPPED
    assert solve_ldp(rows, 3, cap=3).status is QPStatus.OPTIMAL


# ----------------------------------------------------------------------------- agreement
@pytest.mark.parametrize("seed", range(12))
def test_it_agrees_with_brute_force_over_every_active_set(seed: int) -> None:
    rng = np.random.default_rng(seed)
    m, p = int(rng.integers(2, 6)), int(rng.integers(1, 4))
    rows = [tuple(F(int(x), int(rng.integers(1, 4))) for x in rng.integers(-3, 4, p)) for _ in range(m)]
    rows = [r if any(r) else (F(1),) + r[1:] for r in rows]
    out, expected = solve_ldp(rows, p), _brute(rows)
    if expected is None:
        assert out.status is QPStatus.INFEASIBLE and out.farkas is not None and sum(out.farkas.values()) == 1
        assert all(sum((v * rows[k][c] for k, v in out.farkas.items()), F(0)) == 0 for c in range(p))
    else:
        assert out.status is QPStatus.OPTIMAL and tuple(out.theta or ()) == expected[0]


rational = st.fractions(min_value=-4, max_value=4, max_denominator=4)


@settings(max_examples=40, deadline=None)
@given(rows=st.tuples(st.integers(4, 7), st.integers(1, 2)).flatmap(
    lambda size: st.lists(st.lists(rational, min_size=size[1], max_size=size[1]), min_size=size[0], max_size=size[0])),
       task=st.sampled_from(["offset:1", "position:0", "copy"]))
def test_it_agrees_with_the_existing_exact_path(rows: list[list[F]], task: str) -> None:
    """On a random rational table in float range: the same θ* and α whether θ* comes from the float start's
    exact refinement or (that refinement and the exact Farkas step switched off) from the exact active set."""
    table = build_table("random", [[str(x) for x in r] for r in rows], "relative")
    lengths = [len(rows)]
    usual = compute_alpha(table, task, 3, lengths, mode="exact")
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(sm, "_exact_kkt", lambda zq, u, p: None)
        mp.setattr(sm, "_exact_farkas", lambda zq, u, p: None)
        forced = compute_alpha(table, task, 3, lengths, mode="exact")
    a, b = usual.selection, forced.selection
    if a.undecided or (not a.realizable and not a.exact):
        return                                                # no exact answer to compare with
    assert a.status == b.status
    if b.realizable:
        assert b.evidence["method"] == "exact active set" and verify_kkt_exact(b)
        assert a.exact_theta is None or b.exact_theta == a.exact_theta
        assert [forced.outcomes[L].exact_alpha for L in lengths] == [usual.outcomes[L].exact_alpha
                                                                         for L in lengths]
    elif not b.evidence.get("negative_scale"):
        assert verify_farkas_exact(b)
