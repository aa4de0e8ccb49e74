"""The statements of theory/statements.py: results, stable ids, their JSON form, one-line errors."""

import json
from pathlib import Path

import pytest

from posreal.theory.errors import SpecError
from posreal.theory.statements import CONJECTURE, METHODS, REFUTED, STATEMENT_IDS, STATEMENTS, THEOREM, statement

EXPECTED_IDS = ("theorem1", "theorem2", "proposition4", "underdetermination", "expressivity", "conjecture",
                "conjecture-limit", "geometry", "extension", "escape-depth", "escape-content", "escape-induction",
                "escape-averaging")
STATUS = {"conjecture": REFUTED, "conjecture-limit": CONJECTURE}
# the heading ids of the results on the docs' Definitions page
ANCHORS = {"theorem1": "theorem-1", "theorem2": "theorem-2", "proposition4": "proposition-4",
           "underdetermination": "underdetermination", "expressivity": "expressivity", "conjecture": "conjecture",
           "conjecture-limit": "conjecture-prime", "geometry": "geometry", "extension": "length-extension",
           "escape-depth": "escape-depth", "escape-content": "escape-content", "escape-induction": "escape-induction",
           "escape-averaging": "escape-averaging"}
ROOT = Path(__file__).resolve().parents[1]


def test_the_results_in_order():
    assert STATEMENT_IDS == EXPECTED_IDS


@pytest.mark.parametrize("cid", EXPECTED_IDS)
def test_each_statement_is_complete(cid):
    st = statement(cid)
    assert st.id == cid and st is STATEMENTS[cid]
    assert st.name and st.conclusion and st.hypotheses and st.symbols
    assert st.section == f"definitions.md#{ANCHORS[cid]}"
    assert st.status == STATUS.get(cid, THEOREM)
    assert st.checks and set(st.checks) <= set(METHODS)
    doc = st.to_json()
    assert doc["id"] == cid and doc["checks"] == list(st.checks)


def test_unknown_id_is_a_one_line_spec_error():
    with pytest.raises(SpecError) as err:
        statement("theorem3")
    message = str(err.value)
    assert "\n" not in message and "'theorem3'" in message
    assert all(cid in message for cid in EXPECTED_IDS)


def test_non_string_id_is_rejected():
    with pytest.raises(SpecError):
        statement(2)  # type: ignore[arg-type]


def test_each_section_is_a_heading_of_the_definitions_page():
    page = (ROOT / "docs" / "definitions.md").read_text(encoding="utf-8")
    for cid in EXPECTED_IDS:
        anchor = statement(cid).section.split("#", 1)[1]
        assert f"{{#{anchor}}}" in page, f"docs/definitions.md has no heading with id {anchor!r} ({cid})"


def test_check_json_shows_the_section(monkeypatch, capsys):
    """``posreal check --json`` reports each claim's section (the runner is replaced by one instant check)."""
    import posreal.checks.runner as runner
    from posreal.checks.base import CheckResult
    from posreal.cli import main

    def one_check(ids=None, skip_slow=False, on_check=None, solvers=None):
        report = runner.ClaimReport(statement("theorem2"))
        report.results.append(CheckResult(claim="theorem2", name="stand-in", method="registry", verdict="passed",
                                          negative_control=None))
        return [report]

    monkeypatch.setattr(runner, "run_claims", one_check)
    code = main(["check", "--json", "theorem2"])
    doc = json.loads(capsys.readouterr().out)
    assert code == 0
    assert doc["claims"][0]["section"] == "definitions.md#theorem-2"


# --------------------------------------------------------------------------- documents
# Exists because a mutant survived: a statement's JSON keys were unchecked.
def test_statement_json_keys():
    from posreal.theory.statements import Statement

    s = Statement("t9", "Name", "theorem", "definitions.md#geometry", ("h1",), "c", (("θ", "parameters"),),
                  ("smt",), "n")
    assert s.to_json() == {"id": "t9", "name": "Name", "status": "theorem", "section": "definitions.md#geometry",
                           "hypotheses": ["h1"], "conclusion": "c", "symbols": {"θ": "parameters"},
                           "checks": ["smt"], "notes": "n", "uses": [], "coq": None}


def test_the_coq_concordance_is_generated_from_the_statements():
    """Each result names its Coq theorems where it is stated; the concordance holds exactly those."""
    from posreal.checks.coq_concordance import CONCORDANCE
    stated = {cid: st.coq for cid, st in STATEMENTS.items() if st.coq is not None}
    assert set(CONCORDANCE) == set(stated) and {"theorem1", "theorem2", "proposition4"} <= set(stated)
    for cid, names in stated.items():
        proofs = CONCORDANCE[cid]
        assert {t.file for t in proofs.all_theorems()} == {names.file}
        assert [t.name for t in proofs.results] == list(names.results)
        assert [t.name for t in proofs.controls] == list(names.controls)
