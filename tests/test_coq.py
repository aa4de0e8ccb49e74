"""The Coq proofs (proofs/), their axiom audit (checks/coq.py), the concordance with the statements
(checks/coq_concordance.py) and the ``coq`` check of ``posreal check`` (checks/coq_checks.py).

Tests marked ``coq`` run coqc and skip only when it is not on PATH (.ci/run installs Debian's coq).
The full audit is shared by every test process (``POSREAL_COQ_AUDIT_CACHE``, set in conftest); the
injection tests audit one modified copy each."""

from __future__ import annotations

import json
import re
import shutil

import pytest

from posreal.checks import coq, runner
from posreal.checks.base import CheckResult, Control, Verdict
from posreal.checks.coq_checks import COQ_CHECKS, coq_claim_check
from posreal.checks.coq_concordance import (CONCORDANCE, NOT_IN_COQ, NOT_YET_IN_COQ, ClaimProofs, CoqTheorem,
                                            concordance_problems, coq_names_for, for_all_claims)
from posreal.cli import main
from posreal.theory.statements import STATEMENTS

pytestmark = [pytest.mark.subprocess]   # the audit runs coqc (the mutation run deselects these)

needs_coqc = [pytest.mark.coq, pytest.mark.skipif(coq.coqc_path() is None, reason="coqc is not on PATH")]


# ------------------------------------------------------------------ the source scan (no coqc)
def test_scan_finds_unfinished_proofs_outside_comments():
    text = "(* Admitted here is prose *)\nLemma a : True.\nProof. admit. Admitted.\nLemma b : True. Abort.\n"
    found = coq.scan_source(text)
    assert [p.split(": ")[1].split()[0] for p in found] == ["admit", "Admitted", "Abort"]
    assert all("line 1" not in p for p in found)


def test_scan_nested_comments_and_strings():
    text = '(* outer (* inner Axiom *) still comment Admitted *)\nDefinition s := "Axiom".\n'
    assert coq.scan_source(text) == []
    assert coq.scan_source(text + "Axiom cheat : False.\n") == ["line 3: Axiom (the project may declare no axiom)"]


def test_scan_section_variables_are_allowed_top_level_ones_are_not():
    inside = "Section S.\nVariable A : Type.\nHypothesis h : A = A.\nEnd S.\n"
    assert coq.scan_source(inside) == []
    outside = inside + "Hypothesis h2 : 1 = 1.\nModule M.\nVariable x : nat.\nEnd M.\n"
    assert coq.scan_source(outside) == ["line 5: Hypothesis outside a Section (a top-level axiom)",
                                        "line 7: Variable outside a Section (a top-level axiom)"]


def test_parse_assumptions():
    assert coq.parse_assumptions("Closed under the global context\n") == ((), "")
    out = ("Axioms:\nClassicalDedekindReals.sig_forall_dec\n  : forall P : nat -> Prop,\n    P 0\n"
           "cheat : False\n")
    assert coq.parse_assumptions(out) == (("ClassicalDedekindReals.sig_forall_dec", "cheat"), "")
    assert coq.parse_assumptions("nonsense")[1]


def test_every_proof_file_is_clean_text():
    files = coq.proof_files()
    assert {p.name for p in files} >= {proofs.file for proofs in CONCORDANCE.values()}
    for path in files:
        text = path.read_text(encoding="utf-8")
        assert coq.scan_source(text) == [], path.name
        assert text.isascii(), f"{path.name}: keep the .v files ASCII"


# ------------------------------------------------------------------ the concordance (no coqc)
def test_every_for_all_claim_has_coq_theorems_and_controls():
    claims = for_all_claims()
    assert "theorem1" in claims and set(claims) <= set(STATEMENTS)
    missing = [cid for cid in claims if cid not in CONCORDANCE or not CONCORDANCE[cid].results]
    assert sorted(missing) == sorted(NOT_YET_IN_COQ), f"for-all statements without a Coq theorem: {missing}"
    assert all(CONCORDANCE[cid].controls for cid in claims if cid not in NOT_YET_IN_COQ)
    assert set(CONCORDANCE) <= set(claims)


def test_named_theorems_exist_in_their_files():
    assert concordance_problems() == []
    for proofs in CONCORDANCE.values():
        assert all(t.name.startswith("control_") for t in proofs.controls)
        assert not any(t.name.startswith("control_") for t in proofs.results)


def test_every_smt_proof_names_its_coq_theorem():
    from posreal.checks.smt import proofs
    names = [name for name, _ in proofs(CONCORDANCE)]
    assert names
    without = [n for n in names if not coq_names_for(n) and not any(n.startswith(k) for k in NOT_IN_COQ)]
    assert not without, f"SMT proofs with no Coq theorem: {without}"


def test_a_theorem_missing_from_its_file_is_reported(monkeypatch, tmp_path):
    """The concordance check can fail: a renamed theorem, or a file without it."""
    proofs = CONCORDANCE["theorem2"]
    bogus = ClaimProofs("theorem2", proofs.results + (CoqTheorem("Theorem2.v", "deep_row_iff_typo"),),
                        proofs.controls, proofs.smt)
    monkeypatch.setitem(CONCORDANCE, "theorem2", bogus)
    assert concordance_problems() == ["theorem2: Theorem2.v:deep_row_iff_typo is not a Theorem or Corollary of "
                                      "proofs/Theorem2.v"]
    monkeypatch.setitem(CONCORDANCE, "theorem2", proofs)
    (tmp_path / "Theorem2.v").write_text("(* Theorem deep_row_iff : True. *)\n", encoding="utf-8")
    assert any("deep_row_iff is not" in p for p in concordance_problems(tmp_path))


# ------------------------------------------------------------------ the runner without coqc
def test_without_coqc_the_coq_method_is_not_run(monkeypatch):
    monkeypatch.setattr(coq, "coqc_path", lambda: None)
    monkeypatch.setattr(runner, "_smt_checks", lambda choice=None: ([], ""))
    monkeypatch.setattr(runner, "_local_checks", lambda: [])
    report = runner.run_claims(["expressivity"])[0]
    assert report.kernel_checked == [] and all(r.method != "coq" for r in report.results)
    assert [s for s in report.skipped if s.startswith("coq:")] == [
        "coq: kernel check of proofs/Expressivity.v (coqc, Print Assumptions) (not run: coqc is not on PATH "
        "(Debian: apt-get install coq))"]
    direct = coq_claim_check("expressivity")
    assert direct.verdict is Verdict.NOT_RUN and not direct.ok


def test_without_proofs_folder_the_coq_method_is_not_run(monkeypatch, tmp_path):
    from posreal.checks.coq_checks import coq_unavailable
    monkeypatch.setattr(coq, "PROOFS_DIR", tmp_path)
    assert coq_unavailable().startswith("no Coq files in")


def test_kernel_checked_is_a_good_verdict_and_not_run_is_not():
    good = CheckResult("theorem2", "k", "coq", Verdict.KERNEL_CHECKED, Control.COUNTEREXAMPLE)
    assert good.ok
    assert not CheckResult("theorem2", "k", "coq", Verdict.NOT_RUN, None).ok
    assert not CheckResult("theorem2", "k", "coq", Verdict.KERNEL_CHECKED, Control.NO_COUNTEREXAMPLE).ok


# ------------------------------------------------------------------ with coqc
@pytest.fixture(scope="module")
def report():
    if coq.coqc_path() is None:
        pytest.skip("coqc is not on PATH")
    return coq.cached_audit()


@pytest.mark.parametrize("claim", sorted(CONCORDANCE))
@pytest.mark.coq
def test_every_named_theorem_is_kernel_checked(report, claim):
    for thm in CONCORDANCE[claim].all_theorems():
        found = report.find(thm.file, thm.name)
        assert found is not None, f"{thm} was not audited"
        assert found.verdict is coq.AuditVerdict.KERNEL_CHECKED, (str(thm), found.reason)
        assert set(found.assumptions) <= set(coq.ALLOWED_AXIOMS)


@pytest.mark.coq
def test_the_audit_passes_and_lists_every_result(report):
    assert report.ok, [(t.file, t.name, t.reason) for t in report.theorems if t.verdict != "kernel-checked"]
    assert {f.file for f in report.files} == {p.name for p in coq.proof_files()}
    assert len(report.theorems) == sum(len(coq.declared_results(p.read_text(encoding="utf-8")))
                                       for p in coq.proof_files())


@pytest.mark.coq
def test_results_over_nat_or_an_order_use_no_axiom(report):
    """Theorem 2's characterisations and Proposition 4's shear facts are stated over an abstract order or nat:
    Print Assumptions closes them; Theorem 1 goes through the reals and lists their axioms."""
    for file, name in [("Theorem2.v", "deep_row_iff"), ("Theorem2.v", "copy_exact"),
                       ("Proposition4.v", "same_selection"), ("Underdetermination.v", "last_completion_position"),
                       ("Expressivity.v", "middle_one_row"), ("EscapeDepth.v", "route_lemma"),
                       ("EscapeDepth.v", "depth_accuracy_bound"), ("EscapeInduction.v", "alpha_one_implies_induction"),
                       ("EscapeInduction.v", "circuit_row_iff")]:
        assert report.find(file, name).axiom_free, (file, name)
    limit = report.find("Theorem1.v", "theorem1_limit_pos")
    assert not limit.axiom_free and "ClassicalDedekindReals.sig_forall_dec" in limit.assumptions


def _copy_proofs(tmp_path):
    target = tmp_path / "proofs"
    shutil.copytree(coq.PROOFS_DIR, target, ignore=shutil.ignore_patterns(".*"))
    return target


def _swap_last_qed(text: str, theorem: str, replacement: str) -> str:
    start = text.index(f"Theorem {theorem} ")
    end = text.index("Qed.", start)
    return text[:end] + replacement + text[end + len("Qed."):]


@pytest.mark.coq
@pytest.mark.skipif(coq.coqc_path() is None, reason="coqc is not on PATH")
def test_an_injected_admitted_fails_the_audit(tmp_path):
    proofs = _copy_proofs(tmp_path)
    path = proofs / "Expressivity.v"
    path.write_text(_swap_last_qed(path.read_text(encoding="utf-8"), "static_routing_bound", "Admitted."),
                    encoding="utf-8")
    before = sorted(p.name for p in proofs.iterdir())
    rep = coq.audit(proofs, files=[path])
    assert not rep.ok
    audited = rep.find("Expressivity.v", "static_routing_bound")
    assert audited.verdict is coq.AuditVerdict.FAILED
    assert "static_routing_bound" in audited.assumptions          # Print Assumptions names the admitted proof
    assert any("Admitted" in p for p in rep.files[0].problems)     # and the scan finds it
    assert sorted(p.name for p in proofs.iterdir()) == before      # nothing written beside the sources


@pytest.mark.coq
@pytest.mark.skipif(coq.coqc_path() is None, reason="coqc is not on PATH")
def test_an_injected_axiom_fails_the_audit(tmp_path):
    proofs = _copy_proofs(tmp_path)
    path = proofs / "Expressivity.v"
    text = path.read_text(encoding="utf-8")
    text = text.replace("Require Import Arith Lia List Reals Lra.",
                        "Require Import Arith Lia List Reals Lra.\nAxiom posreal_cheat : forall P : Prop, P.", 1)
    text = _swap_last_qed(text, "positional_beta_full", "Qed.")   # unchanged proof, then one using the axiom
    text += "\nTheorem uses_cheat : 1 = 2.\nProof. apply posreal_cheat. Qed.\n"
    path.write_text(text, encoding="utf-8")
    rep = coq.audit(proofs, files=[path], per_result=False)   # one Print Assumptions: the file's union
    assert not rep.ok
    cheat = rep.find("Expressivity.v", "uses_cheat")
    assert cheat.verdict is coq.AuditVerdict.FAILED and any(a.endswith("posreal_cheat") for a in cheat.assumptions)
    assert any("Axiom" in p for p in rep.files[0].problems)


@pytest.mark.coq
@pytest.mark.skipif(coq.coqc_path() is None, reason="coqc is not on PATH")
def test_a_broken_proof_fails_the_audit(tmp_path):
    proofs = _copy_proofs(tmp_path)
    path = proofs / "Expressivity.v"
    path.write_text(re.sub(r"Proof\. intros D F route i H\.", "Proof. intros D F route i H. exact I.",
                           path.read_text(encoding="utf-8")), encoding="utf-8")
    rep = coq.audit(proofs, files=[path], per_result=False)
    assert not rep.ok and rep.files[0].returncode != 0
    assert all(t.verdict is coq.AuditVerdict.FAILED for t in rep.files[0].theorems)


@pytest.mark.coq
def test_posreal_check_json_lists_kernel_checked_methods(report, capsys, monkeypatch):
    monkeypatch.setattr(runner, "_smt_checks", lambda choice=None: ([], ""))
    monkeypatch.setattr(runner, "_local_checks", lambda: [])
    code = main(["check", "underdetermination", "--json"])
    doc = json.loads(capsys.readouterr().out)
    claim = doc["claims"][0]
    assert claim["kernel_checked"] == ["coq"]
    coq_results = [c for c in claim["checks"] if c["method"] == "coq"]
    assert [c["verdict"] for c in coq_results] == ["kernel-checked"]
    assert coq_results[0]["negative_control"] == "counterexample"
    names = {t["name"] for t in coq_results[0]["data"]["theorems"]}
    assert names == {t.name for t in CONCORDANCE["underdetermination"].all_theorems()}
    # the stubbed SMT/property methods the statement lists are reported missing: the exit code says so
    assert code == 1 and claim["ok"] is False


def test_one_coq_check_per_concordance_claim():
    assert [c.claim for c in COQ_CHECKS] == list(CONCORDANCE)
    assert all(c.method == "coq" and c.unavailable is not None for c in COQ_CHECKS)
