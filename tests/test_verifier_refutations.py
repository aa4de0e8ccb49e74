"""Contract of the certificate verifier (counterexamples/verifier):
every failed check refutes with exactly its message; verdicts name their checks; edge cases.

Each case is derived by hand in the test, never pasted from a run (tests/verifier_cases.py holds the shared
edits and certificates)."""

from __future__ import annotations

import copy
import json
from collections import OrderedDict

import pytest

from posreal.counterexamples.verifier import exact_model as em
from posreal.counterexamples.verifier import schema
from posreal.counterexamples.verifier.errors import CertificateError
from posreal.counterexamples.verifier.verify import (
    REFUTED,
    VERIFIED,
    planned_work,
    verify_certificate,
    verify_document,
)
from certificate_edits import certificate as _certificate, resealed as _resealed
from verifier_cases import (CERT_DIR, DYNAMIC, Edit, OPEN, STATIC, _designed_open_tie, _drop, _edited, _one,
                            _onehot_static, _prediction, _put, _sealed, _shipped, _support)


# ===================================================================== refusals: refuted (failed checks)
def _static_primal(doc: dict) -> None:
    # θ* = -1/2 = 1/4 · z(2,0,2) with z = -2: ⟨θ*, z⟩ = 1 there, but z(1,0,1) = -1 gives 1/2 < 1; row 4's kernel
    # (4 - j)/2 has margin 2 - 3/2 = 1/2
    doc["claims"]["selected"] = {"theta": ["-1/2"], "support": _support(([2, 0, 2], "1/4"))}
    doc["claims"]["margin"] = "1/2"


def _dynamic_rival_one(doc: dict) -> None:
    # rival 1: v = T0 - T1 = (-1, 0, -2) = z(2,0,1), so ⟨θ*, v⟩ = 1/3 + 2/3 = 1, rank [Z; v] = rank Z = 2 and
    # ⟨θ_1, v⟩ = 2/9 + 2/3 = 8/9; the row's kernel (2/3, -1/3, -1/3, 2/3) is unchanged, its margin 0
    doc["instance"]["rival"] = 1
    doc["claims"].update(tie_direction=["-1/1", "0/1", "-2/1"], theta_dot_v="1/1", rank_with_direction=2,
                         first_step_dot_v="8/9")


def _open_direction(f3: list[str], direction: list[str]) -> Edit:
    # the key-0 feature of row 3 is f(3); the training pairs at L0 = 3 only see f(0..2).  With v_0 ⊥ e1, e2 the
    # coefficients are 0, the product n^0 = 1 and the sign 0, so the row is not predicted to win
    def edit(doc: dict) -> None:
        doc["instance"]["tables"]["logtwo"]["rows"][3] = list(f3)
        rival = doc["claims"]["rivals"][0]
        rival["direction"] = list(direction)
        rival["prediction"].update(coefficients=["0/1", "0/1"], sign=0)
        doc["claims"]["predicted_wins"] = False
    return edit


def _open_rival_one(doc: dict) -> None:
    # v_1 = f(0) - f(2) = e2: ⟨θ*, e2⟩ = 1 (not a tie); c = (0, 1) makes v_1 - c·Z = 0, the product 2^0 · 1^1 = 1
    doc["claims"]["rivals"] = [{"rival": 1, "direction": ["0/1", "1/1", "0/1"],
                                "prediction": {"coefficients": ["0/1", "1/1"], "multiplicities": [2, 1], "sign": 0}}]
    doc["claims"]["predicted_wins"] = False


REFUTATIONS: list[tuple[str, str, list[Edit], list[str]]] = [
    # --- θ* and its support (every kind)
    ("support-repeated", STATIC, [_put("claims", "selected", "support", _support(([1, 0, 1], "1/2"),
                                                                                  ([1, 0, 1], "1/2")))],
     ["support pair [1, 0, 1] is the first training pair with its difference, listed in order"]),
    ("support-not-first", STATIC, [_put("claims", "selected", "support", 0, "pair", [2, 0, 1])],
     ["support pair [2, 0, 1] is the first training pair with its difference, listed in order"]),
    # listed as (e2, e1), the prediction's lists follow the support: multiplicities (1, 2), coefficients (-1, 1)
    ("support-out-of-order", OPEN, [_put("claims", "selected", "support", _support(([2, 2, 0], "1/1"),
                                                                                   ([1, 1, 0], "1/1"))),
                                    _prediction("multiplicities", [1, 2]),
                                    _prediction("coefficients", ["-1/1", "1/1"])],
     ["support pair [1, 1, 0] is the first training pair with its difference, listed in order"]),
    # an entry that is not a training pair is skipped, so its λ is a claim no check re-derives
    ("support-not-a-pair", STATIC, [_put("claims", "selected", "support", _support(([1, 0, 1], "1/1"),
                                                                                  ([1, 0, 0], "1/1")))],
     ["support pair [1, 0, 0] is a training pair at L0",
      "claim selected.support.1.lambda is not re-derived by any check"]),
    ("support-row-of-L", STATIC, [_put("claims", "selected", "support", _support(([4, 0, 1], "1/1"),
                                                                                ([1, 0, 1], "1/1")))],
     ["support pair [4, 0, 1] is a training pair at L0",
      "claim selected.support.0.lambda is not re-derived by any check"]),
    ("lambda-negative", STATIC, [_put("claims", "selected", "support", 0, "lambda", "-1/1")],
     ["λ > 0 for support pair [1, 0, 1]", "θ* = Σ λ z (stationarity)"]),
    ("complementarity", STATIC, [_put("claims", "selected", "support", _support(([2, 0, 2], "1/2")))],
     ["⟨θ*, z⟩ = 1 on support pair [2, 0, 2] (complementarity)"]),
    ("stationarity", STATIC, [_put("claims", "selected", "support", 0, "lambda", "2/1")],
     ["θ* = Σ λ z (stationarity)"]),
    ("primal", STATIC, [_static_primal], ["⟨θ*, z⟩ ≥ 1 for every training difference (primal)"]),
    # --- the row (every kind) and static-colspan
    ("row-not-scored", STATIC, [_put("instance", "target", 1), _put("claims", "margin", "-1/1")],
     ["row 4 is scored at L=8 with target 1", "the row is realized (margin > 0)"]),
    ("static-margin", STATIC, [_put("claims", "margin", "2/1")], ["margin of row 4 under T_L θ* equals 2"]),
    ("static-row-zero", STATIC, [_put("instance", "row", 0), _put("claims", "rank_features", 0),
                                 _put("claims", "rank_augmented", 1)],
     ["margin of row 0 under T_L θ* equals 1", "the row is realized (margin > 0)"]),
    ("rank-features", STATIC, [_put("claims", "rank_features", 2)], ["rank Ψ_i = 1"]),
    ("rank-augmented", STATIC, [_put("claims", "rank_augmented", 1)], ["rank [Ψ_i | e_t] = 2"]),
    ("target-in-colspan", STATIC, [_onehot_static], ["e_t ∉ col Ψ_i"]),
    # --- dynamic-colspan
    ("tie-direction", DYNAMIC, [_put("claims", "tie_direction", ["0/1", "0/1", "0/1"])], ["v = ψ(i,t) - ψ(i,j)"]),
    ("theta-dot-v", DYNAMIC, [_put("claims", "theta_dot_v", "1/3")], ["⟨θ*, v⟩ = 0"]),
    ("not-a-tie", DYNAMIC, [_dynamic_rival_one],
     ["⟨θ*, v⟩ = 0 with v ≠ 0 (a tie, not a structural one)", "v ∉ col Zᵀ"]),
    ("dynamic-margin", DYNAMIC, [_put("claims", "margin", "1/1")], ["row margin under T_L θ* is 0"]),
    ("rank-differences", DYNAMIC, [_put("claims", "rank_differences", 3)], ["rank Z = 2"]),
    ("rank-with-direction", DYNAMIC, [_put("claims", "rank_with_direction", 2)], ["rank [Z; v] = 3"]),
    # η = 1/2 instead of 1/β = 1/3: θ_1 = -(1/2)(2/3, 1/3, 1) and ⟨θ_1, v⟩ = -1/3 + 1/2 = 1/6 ≠ 1/9
    ("step-size", DYNAMIC, [_put("claims", "step_size", "1/2")],
     ["η = 1/β, β = Σ_i max_j ‖ψ(i,j)‖²", "θ_1 = -η ∇ℓ(0)", "⟨θ_1, v⟩ = 1/9 ≠ 0"]),
    ("gradient", DYNAMIC, [_put("claims", "gradient_at_zero", ["0/1", "0/1", "0/1"])],
     ["∇ℓ(0) = Σ_i (mean_j ψ(i,j) - ψ(i,t))"]),
    ("first-step", DYNAMIC, [_put("claims", "first_step", ["2/9", "1/9", "1/3"])], ["θ_1 = -η ∇ℓ(0)"]),
    ("first-step-dot-v", DYNAMIC, [_put("claims", "first_step_dot_v", "2/9")], ["⟨θ_1, v⟩ = 2/9 ≠ 0"]),
    # --- open-tie
    ("open-margin", OPEN, [_put("claims", "margin", "-1/1")], ["row margin under T_L θ* is 0"]),
    ("no-rivals", OPEN, [_put("claims", "rivals", []), _put("claims", "predicted_wins", False)],
     ["the tied rivals are [0], ascending", "claim rivals is not re-derived by any check"]),
    ("wrong-rival", OPEN, [_open_rival_one], ["the tied rivals are [0], ascending", "⟨θ*, v_1⟩ = 0, v_1 ≠ 0"]),
    ("rival-direction", OPEN, [_put("claims", "rivals", 0, "direction", ["1/1", "-1/1", "0/1"])],
     ["v_0 = ψ(i,t) - ψ(i,0)"]),
    ("zero-direction", OPEN, [_open_direction(["0/1", "0/1", "0/1"], ["0/1", "0/1", "0/1"])],
     ["⟨θ*, v_0⟩ = 0, v_0 ≠ 0", "Z v_0 ≠ 0 (not orthogonal: open case)"]),
    ("orthogonal-direction", OPEN, [_open_direction(["0/1", "0/1", "-1/1"], ["0/1", "0/1", "1/1"])],
     ["Z v_0 ≠ 0 (not orthogonal: open case)"]),
    ("alpha", OPEN, [_put("claims", "alpha", "1/2")], ["α_L = 3/4"]),
    ("wins-missing", OPEN, [_drop("claims", "predicted_wins")],
     ["predicted_wins is stated exactly when every rival has a prediction"]),
    ("wins-false", OPEN, [_put("claims", "predicted_wins", False)], ["predicted row outcome: wins = True"]),
    ("wins-without-prediction", OPEN, [_drop("claims", "rivals", 0, "prediction")],
     ["predicted_wins is stated exactly when every rival has a prediction", "predicted row outcome: wins = False"]),
    ("multiplicities", OPEN, [_prediction("multiplicities", [1, 2])],
     ["claims.rivals[0].prediction: multiplicities of the support differences are [2, 1]"]),
    # c = (1, 1): v - e1 - e2 = (0, -2, 1) is not ⊥ e2, so the prediction is void and the row is not predicted to win
    ("coefficients", OPEN, [_prediction("coefficients", ["1/1", "1/1"])],
     ["claims.rivals[0].prediction: v - Σ c_s z_s ⊥ col Zᵀ", "predicted row outcome: wins = False"]),
    ("sign", OPEN, [_prediction("sign", -1)], ["claims.rivals[0].prediction: sign of the predicted limit is 1"]),
    ("lambda-zero", OPEN, [_put("claims", "selected", "support", 1, "lambda", "0/1")],
     ["λ > 0 for support pair [2, 2, 0]", "θ* = Σ λ z (stationarity)",
      "claims.rivals[0].prediction: sign of the predicted limit is None", "predicted row outcome: wins = False"]),
]


@pytest.mark.parametrize("name, edits, failures", [c[1:] for c in REFUTATIONS], ids=[c[0] for c in REFUTATIONS])
def test_each_failed_check_refutes_with_exactly_its_message(name: str, edits: list[Edit],
                                                             failures: list[str]) -> None:
    verdict = _one(_edited(name, *edits))
    assert (verdict.verdict, verdict.failures, verdict.name) == (REFUTED, failures, "c")


# Exists because a mutant survived: an open-tie rival's direction on a clipped PE without D (D = L0 - 1) was unchecked.
def test_open_tie_rival_direction_on_clipped_without_bucket_count_uses_l0() -> None:
    """relbias (no D) at L0 = 2: ψ(i, j) = e_min(i - j, 1), offset:0 has the one pair (1, 1, 0) with z = e0 - e1, so
    θ* = z/2 = (1/2, -1/2) with λ = 1/2.  At L = 3, row 2 scores its target (offset 0) 1/2 and keys 1, 0 (offsets 1
    and 2, both in bucket 1) -1/2: margin 1, no tied rival, α_L = 1 (rows 1 and 2 have margin 1, row 0 one key).
    The claimed rival 0 has v = ψ(2, 2) - ψ(2, 0) = (1, -1), which the verifier re-derives (its direction check
    passes), with ⟨θ*, v⟩ = 1 ≠ 0 and z·v = 2 ≠ 0: refuted on the margin, the tied rivals and ⟨θ*, v⟩ only."""
    def clipped(doc: dict) -> None:
        doc["instance"].update(pe="relbias", train_length=2, length=3, row=2, target=2)
        del doc["instance"]["tables"], doc["claims"]["predicted_wins"]
        doc["claims"].update(selected={"theta": ["1/2", "-1/2"], "support": _support(([1, 1, 0], "1/2"))},
                             margin="0/1", rivals=[{"rival": 0, "direction": ["1/1", "-1/1"]}], alpha="1/1")

    verdict = _one(_edited(OPEN, clipped))
    assert (verdict.verdict, verdict.failures) == (
        REFUTED, ["row margin under T_L θ* is 0", "the tied rivals are [], ascending", "⟨θ*, v_0⟩ = 0, v_0 ≠ 0"])


# Exists because a mutant survived: a failed independence hypothesis could be forgotten by a later passing one.
def test_a_prediction_on_a_dependent_support_predicts_no_win() -> None:
    """The support lists z(1,1,0) = e1 twice (λ = 1/2 each) and z(2,2,0) = e2 (λ = 1): stationarity and
    complementarity still hold, but the three support vectors are dependent, so the prediction's hypotheses fail
    and the row is not predicted to win — although strict complementarity (no difference off the support) and
    v - (e1 - e2) ⊥ col Zᵀ pass after it and the sign Σ c log(n/λ) = log 4 > 0 is the one claimed.  The verifier
    names the independence check and the predicted outcome (predicted_wins stays true in the certificate)."""
    support = _support(([1, 1, 0], "1/2"), ([1, 1, 0], "1/2"), ([2, 2, 0], "1/1"))
    verdict = _one(_edited(OPEN, _put("claims", "selected", "support", support),
                           _prediction("coefficients", ["1/1", "0/1", "-1/1"]),
                           _prediction("multiplicities", [2, 2, 1])))
    assert verdict.verdict == REFUTED
    assert verdict.failures == [
        "support pair [1, 1, 0] is the first training pair with its difference, listed in order",
        "claims.rivals[0].prediction: support vectors linearly independent",
        "predicted row outcome: wins = False"]
    assert "claims.rivals[0].prediction: strict complementarity (⟨θ*, z⟩ > 1 off the support)" in verdict.checked
    assert "claims.rivals[0].prediction: sign of the predicted limit is 1" in verdict.checked


def test_the_unedited_certificates_of_this_file_verify_and_name_their_checks() -> None:
    """The control: re-sealed without an edit, the three certificates the catalogue edits verify, and the
    refuted messages above are each among the passed checks of the original."""
    passed = set()
    for name in (STATIC, DYNAMIC, OPEN):
        verdict = _one(_sealed(_shipped(name)))
        assert (verdict.verdict, verdict.failures) == (VERIFIED, [])
        passed |= set(verdict.checked)
    assert {"θ_1 ∈ col Zᵀ", "e_t ∉ col Ψ_i", "v ∉ col Zᵀ", "Z v_0 ≠ 0 (not orthogonal: open case)",
            "claims.rivals[0].prediction: support vectors linearly independent", "α_L = 3/4", "rank Z = 2",
            "predicted row outcome: wins = True", "digest matches the content (no edit after sealing)"} <= passed


# --------------------------------------------------------------------------- verdicts name their checks
# Exists because a mutant survived: the names of the checks a verdict passed were unchecked.
@pytest.mark.parametrize("name, named_checks", [
    ("static_alibi_position_0.json", ["θ* = Σ λ z (stationarity)", "rank Ψ_i = 1", "rank [Ψ_i | e_t] = 2",
                                      "e_t ∉ col Ψ_i", "the row is realized (margin > 0)"]),
    ("dynamic_cxc0x130_reverse.json", ["row margin under T_L θ* is 0", "v ∉ col Zᵀ", "θ_1 = -η ∇ℓ(0)",
                                       "η = 1/β, β = Σ_i max_j ‖ψ(i,j)‖²", "θ_1 ∈ col Zᵀ"]),
    ("open_tie_designed_log2.json", ["row margin under T_L θ* is 0", "α_L = 3/4",
                                     "digest matches the content (no edit after sealing)"]),
])
def test_verdict_names_the_checks_it_passed(name, named_checks):
    verdict = verify_document(_certificate(name), name)[0]
    assert verdict.verdict == VERIFIED and not verdict.failures
    for check in named_checks:
        assert check in verdict.checked


# Exists because a mutant survived: a verdict could lose the certificate's name.
def test_verdict_carries_the_certificate_name():
    """The verdict names the certificate it is about (the name the caller gave)."""
    verdict = verify_certificate(_certificate("dynamic_cxc0x130_reverse.json"), "my-certificate")
    assert verdict.verdict == VERIFIED
    assert verdict.name == "my-certificate"
    assert verdict.to_json()["name"] == "my-certificate"


# Exists because a mutant survived: a verdict without float evidence could carry the evidence note.
def test_a_verdict_without_evidence_has_no_notes():
    """The note on float evidence is added only when the certificate carries evidence."""
    plain = _certificate("static_alibi_position_0.json")
    assert "evidence" not in plain
    verdict = verify_certificate(plain)
    assert verdict.verdict == VERIFIED and verdict.notes == []
    with_evidence = _certificate("dynamic_cxc0x130_reverse.json")
    assert with_evidence.get("evidence")
    assert verify_certificate(with_evidence).notes == [
        "float evidence (log-time gradient flow) is reported, not verified"]


# Exists because a mutant survived: typed could refuse an OrderedDict as a JSON object.
def test_a_json_object_read_as_an_ordered_dict_is_an_object():
    """``typed`` checks the JSON type: an ``OrderedDict`` (``json.load(object_pairs_hook=OrderedDict)``)
    is an object, so a certificate read that way verifies exactly as the plain one."""
    assert schema.typed(OrderedDict(a=1), dict, "instance") == {"a": 1}
    text = (CERT_DIR / "static_alibi_position_0.json").read_text(encoding="utf-8")
    ordered = json.loads(text, object_pairs_hook=OrderedDict)
    assert isinstance(ordered["instance"], OrderedDict)
    assert verify_certificate(ordered).verdict == VERIFIED


# Exists because a mutant survived: planned_work's entry and elimination counts were unchecked.
def test_planned_work_counts_entries_and_elimination_steps():
    """planned_work = (2p(pairs + keys), 2(pairs + 2)·p·min(pairs + 2, p)) with pairs = Σ_{i ∈ R_L0} i
    training pairs and keys = Σ_{i ∈ R_L} (i + 1) kernel entries.  alibi (p = 1), offset:0 (rows 0..n-1),
    L0 = 4, L = 8: pairs = 0+1+2+3 = 6, keys = 1+2+...+8 = 36, so entries = 2·(6+36) = 84 and
    elimination = 2·8·1·1 = 16.  relbias:2 (p = 3) at the same sizes: entries = 6·42 = 252, elimination
    = 2·8·3·3 = 144."""
    assert len(em.training_pairs("offset:0", 4)) == 6
    assert planned_work("alibi", "offset:0", 4, 8, {}) == (84, 16)
    assert planned_work("relbias:2", "offset:0", 4, 8, {}) == (252, 144)


# --------------------------------------------------------------------- edge cases of the grid and the claims
# Exists because a mutant survived: a task that scores no row at L was never verified.
def test_open_tie_on_a_task_with_no_scored_row_has_the_vacuous_alpha_one():
    """position:5 scores no row on the 4-grid: α_4 = 1 (no row fails), as everywhere in the project; the
    certificate is refuted by its checks (the row is not scored), never reported malformed by a crash."""
    doc = json.loads((CERT_DIR / "open_tie_designed_log2.json").read_text(encoding="utf-8"))
    doc = copy.deepcopy(doc)
    doc["instance"]["task"] = "position:5"
    for rival in doc["claims"]["rivals"]:
        rival.pop("prediction")
    doc["claims"].pop("predicted_wins")
    doc["claims"]["alpha"] = "1/1"
    (verdict,) = verify_document(_resealed(doc))
    assert verdict.verdict == REFUTED
    assert "row 3 is scored at L=4 with target 3" in verdict.failures
    assert "α_L = 1" in verdict.checked                        # the claimed vacuous α is re-derived
    doc["claims"]["alpha"] = "3/4"
    (verdict,) = verify_document(_resealed(doc))
    assert "α_L = 1" in verdict.failures


# Exists because a mutant survived: a static certificate of a width-0 PE was never verified.
def test_static_certificate_of_a_zero_dimensional_pe_has_rank_zero_features():
    # nope: Ψ_i has no columns, so rank Ψ_i = 0 and rank [Ψ_i | e_t] = 1; θ* = () cannot realize the row
    doc = _certificate("static_alibi_position_0.json")
    doc["instance"]["pe"] = "nope"
    doc["claims"].update({"selected": {"theta": [], "support": []}, "margin": "0/1",
                          "rank_features": 0, "rank_augmented": 1})
    verdict = verify_document(_resealed(doc))[0]
    assert verdict.verdict == REFUTED
    assert {"rank Ψ_i = 0", "rank [Ψ_i | e_t] = 1", "e_t ∉ col Ψ_i"} <= set(verdict.checked)
    assert "the row is realized (margin > 0)" in verdict.failures


# Exists because a mutant survived: the row limit of the L-grid was not checked on both sides.
def test_row_on_the_last_line_of_the_grid_is_the_bound():
    doc = _certificate("static_alibi_position_0.json")             # L0 = 4, L = 8, row 4, target 0
    doc["instance"]["row"] = 8                                      # row L is outside the L-grid
    with pytest.raises(CertificateError, match=r"row 8, target 0 outside the L=8 grid"):
        verify_document(_resealed(doc))
    doc["instance"]["row"] = 7                                      # row L - 1 is on it
    assert verify_document(_resealed(doc))[0].verdict in (VERIFIED, REFUTED)


# Exists because a mutant survived: L = L0 was not shown to be accepted (and L < L0 refused).
def test_a_certificate_may_claim_the_training_length_itself():
    doc = _certificate("static_alibi_position_0.json")
    doc["instance"].update({"length": 4, "row": 3})                 # L = L0 = 4 is accepted
    assert verify_document(_resealed(doc))[0].verdict in (VERIFIED, REFUTED)
    doc["instance"].update({"length": 3, "row": 2})                 # L < L0 is malformed
    with pytest.raises(CertificateError, match=r"lengths L0=4, L=3; accepted: 1 <= L0 <= L <= "):
        verify_document(_resealed(doc))


# Exists because a mutant survived: a support pair off the L0-grid could be reported as an unchecked claim.
def test_a_support_pair_outside_the_training_pairs_is_reported_as_such():
    """static alibi·position:0 at L0 = 4 with a second support entry [9, 0, 1] (row 9 is not on the
    L0-grid): θ* = 1·z(1,0,1) still holds, so the only failures are that pair, reported as not a training
    pair at L0 (its ``pair`` claim covered by that check), and its ``lambda``, which no check reads."""
    doc = _certificate("static_alibi_position_0.json")
    doc["claims"]["selected"]["support"].append({"pair": [9, 0, 1], "lambda": "1/1"})
    verdict = verify_certificate(_resealed(doc))
    assert verdict.verdict == REFUTED
    assert verdict.failures == ["support pair [9, 0, 1] is a training pair at L0",
                                "claim selected.support.1.lambda is not re-derived by any check"]


# Exists because a mutant survived: strict complementarity could accept a product of exactly 1.
def test_strict_complementarity_fails_for_an_off_support_difference_with_product_one():
    """Dropping z = e2 from the support leaves it off the support with ⟨θ*, e2⟩ = 1 exactly: strict
    complementarity (⟨θ*, z⟩ > 1 off the support) must fail, not pass."""
    doc = _designed_open_tie()
    doc["claims"]["selected"]["support"] = doc["claims"]["selected"]["support"][:1]   # keep pair [1, 1, 0]
    pred = doc["claims"]["rivals"][0]["prediction"]
    pred["coefficients"], pred["multiplicities"] = pred["coefficients"][:1], pred["multiplicities"][:1]
    verdict = verify_certificate(_resealed(doc))
    what = "claims.rivals[0].prediction: strict complementarity (⟨θ*, z⟩ > 1 off the support)"
    assert what in verdict.failures and what not in verdict.checked


# Exists because a mutant survived: the prediction's sign could use another denominator than the common one.
def test_prediction_sign_uses_the_common_denominator_of_the_coefficients():
    """The sign of Σ c_s log(n_s/λ_s) is exact: with n = (2, 1), λ = (1, 1) and c = (1/4, 1/3) it is
    sign(1/4 · log 2 + 1/3 · log 1) = +1 (the exponents need the common denominator 12, not the last
    coefficient's 3, which would round 1/4 · 3 down to 0)."""
    doc = _designed_open_tie()
    pred = doc["claims"]["rivals"][0]["prediction"]
    assert pred["multiplicities"] == [2, 1]
    assert [s["lambda"] for s in doc["claims"]["selected"]["support"]] == ["1/1", "1/1"]
    pred["coefficients"] = ["1/4", "1/3"]
    pred["sign"] = 1
    verdict = verify_certificate(_resealed(doc))
    what = "claims.rivals[0].prediction: sign of the predicted limit is 1"
    assert what in verdict.checked and what not in verdict.failures
