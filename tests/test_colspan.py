"""The invalid outside-colspan argument: both forms reproduced, each instance certified and verified."""

from __future__ import annotations

import json
from fractions import Fraction

import pytest

from posreal.counterexamples.colspan import _dynamic_candidates, find_dynamic, find_static, static_rank
from posreal.counterexamples.conjecture import registered
from posreal.counterexamples.designed import LOG2_TIE, ORTHOGONAL_TIE
from posreal.counterexamples.verifier.verify import VERIFIED, verify_document
from posreal.cli import main
from posreal.theory import parse_pe, parse_task, select
from posreal.theory.realization import structural_ties


@pytest.fixture(scope="module")
def static_result():
    return find_static(train_lengths=(4,))


@pytest.fixture(scope="module")
def dynamic_result():
    return find_dynamic(train_lengths=(4,), evidence_steps=200)


def test_static_form_found_and_verified(static_result):
    certs, stats = static_result
    assert certs, "no static instance found"
    cells = {(c["instance"]["pe"], c["instance"]["task"]) for c in certs}
    assert ("alibi", "position:0") in cells
    for cert in certs:
        assert cert["claims"]["rank_augmented"] == cert["claims"]["rank_features"] + 1
        assert Fraction(cert["claims"]["margin"]) > 0
        assert "breaks the static step" in cert["explanation"]
        assert [v.verdict for v in verify_document(cert)] == [VERIFIED]


def test_alibi_position0_by_hand():
    """θ* = -1 (min |θ| with -jθ ≥ 1 for j = 1..L0-1), κ(i, j) = i - j peaks at j = 0 with margin 1,
    while Ψ_i = [-(i-j)]_j has rank 1 and e_0 is not proportional to it once i ≥ 2."""
    sel = select("alibi", "position:0", 4)
    assert sel.exact_theta == [Fraction(-1)]
    pe = parse_pe("alibi")
    for i in range(2, 9):
        assert static_rank(pe, i, 0, 4) == (1, 2)
    assert static_rank(pe, 1, 0, 4) == (1, 1)   # i = 1: Ψ_1 = (-1, 0)ᵀ, e_0 is in its span


@pytest.mark.parametrize("spec", ["relbias", "relbias:2", "colbias", "colbias:2", "dual:relbias"])
def test_bucket_pes_static_fallacy_is_exactly_the_structural_tie(spec):
    """For one-hot buckets col Ψ_i = vectors constant on equal-feature keys, so e_t ∉ col Ψ_i iff the
    row has a structural tie — the static fallacy never bites these PEs."""
    pe, L0, L = parse_pe(spec), 4, 12
    for task_spec in ("offset:1", "position:0", "copy", "half"):
        task = parse_task(task_spec)
        rows, targets = task.rows_and_targets(L)
        ties = structural_ties(pe, rows, targets, L, L0)
        for i, t, tie in zip(rows.tolist(), targets.tolist(), ties.tolist()):
            r1, r2 = static_rank(pe, i, t, L0)
            assert (r2 == r1 + 1) == tie, (spec, task_spec, i)


def test_dynamic_form_found_and_verified(dynamic_result):
    certs, stats = dynamic_result
    kinds = {next(iter(c["instance"]["tables"].values()))["kind"] for c in certs if c["instance"]["tables"]}
    assert kinds == {"relative", "column", "general"}
    assert stats.tables.instances >= 3 and stats.to_json()["tables"]["instances"] == stats.tables.instances
    for cert in certs:
        claims = cert["claims"]
        assert claims["rank_with_direction"] == claims["rank_differences"] + 1
        assert Fraction(claims["first_step_dot_v"]) != 0 and Fraction(claims["theta_dot_v"]) == 0
        assert "breaks the dynamic step" in cert["explanation"]
        assert [v.verdict for v in verify_document(cert)] == [VERIFIED]


def test_designed_dynamic_instance_by_hand():
    """LOG2_TIE: ∇ℓ(0) = -(5/6, 1/3, 0), β = 2, θ_1 = (5/12, 1/6, 0), v = (1, -1, 1), ⟨θ_1, v⟩ = 1/4."""
    with registered(LOG2_TIE):
        pe, task = parse_pe(LOG2_TIE.pe), parse_task(LOG2_TIE.task)
        sel = select(pe, task, LOG2_TIE.train_length)
        found = [x for x in _dynamic_candidates(pe, task, sel, LOG2_TIE.length) if x[0] == "instance"]
    assert len(found) == 1
    _, row, rival, (rz, rv, grad, beta, step, ip) = found[0]
    assert (row.row, row.target, rival.rival) == (3, 3, 0)
    assert rival.direction == (1, -1, 1)
    assert (rz, rv, beta) == (2, 3, 2)
    assert grad == [Fraction(-5, 6), Fraction(-1, 3), 0]
    assert step == [Fraction(5, 12), Fraction(1, 6), 0]
    assert ip == Fraction(1, 4)


def test_orthogonal_tie_is_not_a_dynamic_instance():
    """v ⊥ col Zᵀ: v ∉ col Zᵀ too, but ⟨θ_1, v⟩ = 0 — the valid case is not reported as a flaw."""
    with registered(ORTHOGONAL_TIE):
        pe, task = parse_pe(ORTHOGONAL_TIE.pe), parse_task(ORTHOGONAL_TIE.task)
        sel = select(pe, task, ORTHOGONAL_TIE.train_length)
        events = [x[0] for x in _dynamic_candidates(pe, task, sel, ORTHOGONAL_TIE.length)]
    assert events == ["checked", "outside"]


def test_cli_search_colspan_json_out_and_verify(tmp_path, capsys):
    out = tmp_path / "colspan.json"
    code = main(["search", "colspan", "--json", "--out", str(out), "--evidence-steps", "100"])
    doc = json.loads(capsys.readouterr().out)
    assert code == 0 and doc["reproduced"] and doc["verified"] == doc["certificates"] > 0
    assert doc["static"] and doc["dynamic"] and "versions" in doc
    assert main(["verify", str(out)]) == 0


@pytest.mark.parametrize("where, needle", [("dir", "is a directory"), ("missing", "does not exist")])
def test_cli_search_colspan_bad_out_is_refused_before_the_search(where, needle, tmp_path, capsys, monkeypatch):
    import posreal.counterexamples.colspan as colspan

    def no_search(*args, **kwargs):
        raise AssertionError("the search ran although --out cannot be written")
    monkeypatch.setattr(colspan, "find_static", no_search)
    out = tmp_path if where == "dir" else tmp_path / "missing" / "c.json"
    assert main(["search", "colspan", "--json", "--out", str(out)]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and needle in err and "Traceback" not in err


def test_certificate_write_error_is_one_line(tmp_path):
    from posreal.counterexamples.certificate_writer import write
    from posreal.theory.errors import PosrealError
    with pytest.raises(PosrealError, match="cannot write certificate file") as info:
        write({"format": "x"}, tmp_path / "missing" / "c.json")   # no such directory: the OSError is one line
    assert "\n" not in str(info.value)
    with pytest.raises(PosrealError, match="it exists"):
        write({"format": "x"}, tmp_path)                           # an existing path is never replaced
