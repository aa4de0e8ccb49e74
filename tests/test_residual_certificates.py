"""Certificates of format version 2 (residual-levels, symmetric-tie): the shipped ones verify, every
tampered claim is refuted, and the version of each kind is enforced (version-1 kinds read as before)."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

from posreal.cli import main
from posreal.counterexamples.certificate_writer import seal
from posreal.counterexamples.residual_certificates import levels_certificate, symmetric_certificate
from posreal.counterexamples.verifier.errors import CertificateError
from posreal.counterexamples.verifier.verify import REFUTED, VERIFIED, verify_document
from posreal.theory.random_instances import instance
from certificate_edits import Edit, drop as _drop, put as _put

ROOT = Path(__file__).resolve().parents[1]
CERTS = ROOT / "counterexamples" / "certificates"
FAMILIES = ("relative", "column", "general")


def _load(name: str) -> dict:
    return json.loads((CERTS / name).read_text())


def _verdict(doc: dict):
    (report,) = verify_document(doc, "c")
    return report


@pytest.mark.parametrize("name", ["residual_levels_seed1_174_row3.json", "residual_levels_seed1_641_row3.json",
                                  "residual_levels_seed1_10091_row3.json", "symmetric_tie_seed1_878_row3.json"])
def test_shipped_version_two_certificates_verify(name):
    doc = _load(name)
    assert doc["version"] == 2
    report = _verdict(doc)
    assert report.verdict == VERIFIED, report.failures
    assert main(["verify", str(CERTS / name)]) == 0


def test_the_max_entropy_sign_is_evidence_and_said_so():
    doc = _load("residual_levels_seed1_10091_row3.json")
    assert "spans" in doc["claims"]["decision"]
    assert doc["evidence"]["limit"]["evidence"] == "certified" and doc["evidence"]["limit"]["value"] < 0
    assert any("needs exp and log" in n for n in _verdict(doc).notes)


def _tampered(doc: dict, edit) -> dict:
    body = copy.deepcopy({k: v for k, v in doc.items() if k not in ("format", "version", "digest")})
    edit(body["claims"])
    return seal(body)


LEVEL_EDITS = {
    "leading sign flipped": lambda c: c["decision"]["leading"].update(sign=-c["decision"]["leading"]["sign"]),
    "leading level moved": lambda c: c["decision"]["leading"].update(level=c["decision"]["leading"]["level"] - 1),
    "interior multiplier halved": lambda c: c["levels"][0]["interior"][0].update(
        **{"lambda": "1/2" if c["levels"][0]["interior"][0]["lambda"] != "1/2" else "1/3"}),
    "a zero constraint called positive": lambda c: c["levels"][0]["positive"].append(
        next(p for p in c["levels"][0]["active"] if p not in c["levels"][0]["positive"])),
    "second level's θ changed": lambda c: c["levels"][1].update(theta=["0/1"] * len(c["levels"][1]["theta"])),
    "complete flipped": lambda c: c.update(complete=not c["complete"]),
}


@pytest.mark.parametrize("edit", sorted(LEVEL_EDITS))
def test_a_tampered_levels_certificate_is_refuted(edit):
    doc = _load("residual_levels_seed1_641_row3.json")      # three levels, decided by ⟨θ_3, v⟩ > 0
    assert _verdict(doc).verdict == VERIFIED and doc["claims"]["decision"]["leading"]["level"] == 3
    report = _verdict(_tampered(doc, LEVEL_EDITS[edit]))
    assert report.verdict == REFUTED and report.failures


def test_a_tampered_span_decomposition_is_refuted():
    doc = _load("residual_levels_seed1_10091_row3.json")

    def edit(c):
        c["decision"]["spans"][0][0]["coefficient"] = "7/1"
    assert _verdict(_tampered(doc, edit)).verdict == REFUTED


SYMMETRY_EDITS = {
    "identity permutation": lambda c: c["symmetry"].update(perm=sorted(c["symmetry"]["perm"]),
                                                           signs=[1] * len(c["symmetry"]["signs"])),
    "a sign flipped": lambda c: c["symmetry"]["signs"].__setitem__(0, -c["symmetry"]["signs"][0]),
    "projection scaled": lambda c: c.update(projection=[x if x == "0/1" else "5/1" for x in c["projection"]]),
    "not a permutation": lambda c: c["symmetry"].update(perm=[0] * len(c["symmetry"]["perm"])),
}


@pytest.mark.parametrize("edit", sorted(SYMMETRY_EDITS))
def test_a_tampered_symmetry_certificate_is_refuted(edit):
    doc = _load("symmetric_tie_seed1_878_row3.json")
    report = _verdict(_tampered(doc, SYMMETRY_EDITS[edit]))
    assert report.verdict == REFUTED and report.failures


def test_each_kind_has_its_own_format_version():
    doc = copy.deepcopy(_load("symmetric_tie_seed1_878_row3.json"))
    doc["version"] = 1
    with pytest.raises(CertificateError, match=r"version 1; accepted: the integer 2 \(the format version of kind "
                                               r"symmetric-tie\)"):
        verify_document(doc, "c")
    old = copy.deepcopy(_load("open_tie_designed_log2.json"))
    assert old["version"] == 1 and _verdict(old).verdict == VERIFIED
    old["version"] = 2
    with pytest.raises(CertificateError, match="accepted: the integer 1$"):
        verify_document(old, "c")


def test_undecided_or_unsymmetric_rivals_get_no_certificate():
    with pytest.raises(CertificateError, match="not decided by the residual levels"):
        levels_certificate(instance(1, 5, FAMILIES), 3)
    with pytest.raises(CertificateError, match="no signed permutation"):
        symmetric_certificate(instance(1, 174, FAMILIES), 3)



# Exists because a mutant survived: a levels certificate whose decision is not an object was refused without its path.
def test_a_levels_certificate_whose_decision_is_not_an_object_is_refused_by_path():
    doc = _tampered(_load("residual_levels_seed1_641_row3.json"), lambda c: c.update(decision=["leading"]))
    with pytest.raises(CertificateError, match=r"^malformed certificate: claims\.decision "):
        _verdict(doc)


# ===================================================================== exact refusals, per claim
SYMMETRIC = "symmetric_tie_seed1_878_row3.json"    # θ* = (-1, -1, 0), v = w = (2, -2, 0), Q swaps e1, e2
LEVELS = "residual_levels_seed1_641_row3.json"     # θ_1..θ_3 = -e1, -e3, -e2; v = -e2: ⟨θ_3, v⟩ = 1 > 0
SPANS = "residual_levels_seed1_10091_row3.json"    # one complete level; v = (4, 0) = -z(1,1,0) + z(2,1,0)
LEVELS2 = "residual_levels_seed1_174_row3.json"    # θ_1 = (1/2, 0) = ¼·(2, 0), θ_2 = e2; v = -e2: ⟨θ_2, v⟩ = -1
LOST = "the tie margin stays 0 along gradient descent: the row is lost"
SIGNED = "Q is a signed permutation of the PE's coordinates"
INTERIOR = "level {}: an interior λ ∈ Λ certifies S+ (λ > 0 on S+, Σ λ u = θ)"
FARKAS = "level {}: θ_{} is a Farkas-type vector of S0 (so S+ is exact)"
KKT = "θ_{0} is the max-margin vector of level {0}'s vectors (KKT)"
ACTIVE = "level {}: the active set is {} constraint(s), in order"
SPAN_CHECK = ("the levels are complete, ⟨θ_m, v⟩ = 0 for m ≥ 2 and v's projection on col Zᵀ lies in V_1 ⊕ V_2 ⊕ … "
              "(a finite limit; its sign is evidence)")
RATIONAL = "accepted: a string 'p/q' in lowest terms (q > 0, zero as '0/1', at most 200 digits each)"


def _forged(name: str, *edits: Edit) -> dict:
    body = copy.deepcopy({k: v for k, v in _load(name).items() if k not in ("format", "version", "digest")})
    for edit in edits:
        edit(body)
    return seal(body)


def _claim(*path_and_value: Any) -> Edit:
    return _put("claims", *path_and_value)


REFUTED_EXACTLY: list[tuple[str, str, list[Edit], list[str]]] = [
    # --- symmetric-tie
    ("sym-margin", SYMMETRIC, [_claim("margin", "1/1")], ["row margin under T_L θ* is 0"]),
    ("sym-tie-direction", SYMMETRIC, [_claim("tie_direction", ["2/1", "-2/1", "1/1"])], ["v = ψ(i,t) - ψ(i,j)"]),
    # w = 0 lies in col Zᵀ and Q0 = -0, but Z(v - 0) = Zv ≠ 0
    ("sym-projection-zero", SYMMETRIC, [_claim("projection", ["0/1", "0/1", "0/1"])], ["Z(v - w) = 0"]),
    # w + e3: Z e3 = 0 keeps Z(v - w) = 0, but e3 ∉ col Zᵀ and Q fixes e3
    ("sym-projection-off-span", SYMMETRIC, [_claim("projection", ["2/1", "-2/1", "1/1"])],
     ["w ∈ col Zᵀ (rank [Z; w] = rank Z)", "Qw = -w", LOST]),
    ("sym-identity", SYMMETRIC, [_claim("symmetry", {"perm": [0, 1, 2], "signs": [1, 1, 1]})], ["Qw = -w", LOST]),
    ("sym-first-sign", SYMMETRIC, [_claim("symmetry", "signs", 0, -1)],
     ["Q maps the multiset of the training rows' differences onto itself", "Qw = -w", LOST]),
    ("sym-sign-two", SYMMETRIC, [_claim("symmetry", "signs", 2, 2)], [SIGNED, LOST]),
    ("sym-signs-short", SYMMETRIC, [_claim("symmetry", "signs", [1, 1])], [SIGNED, LOST]),
    ("sym-perm-repeated", SYMMETRIC, [_claim("symmetry", "perm", [1, 1, 2])], [SIGNED, LOST]),
    ("sym-perm-shifted", SYMMETRIC, [_claim("symmetry", "perm", [1, 2, 3])], [SIGNED, LOST]),
    ("sym-row-not-lost", SYMMETRIC, [_claim("row_lost", False)], [LOST]),
    ("sym-other-rival", SYMMETRIC, [_put("instance", "rival", 1)],
     ["rival 1 is tied with the target under θ*", "v = ψ(i,t) - ψ(i,j)",
      "⟨θ*, v⟩ = 0, v ≠ 0 (a tie, not a structural one)", "Z(v - w) = 0"]),
    # --- residual-levels, decided by the leading level
    ("lev-sign-flipped", LEVELS, [_claim("decision", "leading", "sign", -1)],
     ["⟨θ_m, v⟩ = 0 for 2 ≤ m < 3 and ⟨θ_3, v⟩ has the sign -1: the margin grows like -log^{∘3} t"]),
    ("lev-sign-zero", LEVELS, [_claim("decision", "leading", "sign", 0)],
     ["⟨θ_m, v⟩ = 0 for 2 ≤ m < 3 and ⟨θ_3, v⟩ has the sign 0: the margin grows like -log^{∘3} t"]),
    # ⟨θ_2, v⟩ = ⟨-e3, -e2⟩ = 0: level 2 decides nothing
    ("lev-level-two", LEVELS, [_claim("decision", "leading", "level", 2)],
     ["⟨θ_m, v⟩ = 0 for 2 ≤ m < 2 and ⟨θ_2, v⟩ has the sign 1: the margin grows like +log^{∘2} t"]),
    ("lev-not-complete", LEVELS, [_claim("complete", False)], ["the levels are complete"]),
    ("lev-interior-half", LEVELS, [_claim("levels", 0, "interior", 0, "lambda", "1/2")], [INTERIOR.format(1)]),
    ("lev-interior-negative", LEVELS, [_claim("levels", 0, "interior", 0, "lambda", "-1/1")], [INTERIOR.format(1)]),
    ("lev-active-short", LEVELS, [_claim("levels", 0, "active", [[1, 0, 1], [2, 1, 0]])], [ACTIVE.format(1, 3)]),
    ("lev-active-reordered", LEVELS, [_claim("levels", 0, "active", [[2, 1, 0], [1, 0, 1], [2, 1, 2]])],
     [ACTIVE.format(1, 3)]),
    ("lev-multiplier-doubled", LEVELS, [_claim("levels", 1, "multipliers", 0, "lambda", "2/1")], [KKT.format(2)]),
    ("lev-multiplier-pair", LEVELS, [_claim("levels", 1, "multipliers", 0, "pair", [2, 1, 2])], [KKT.format(2)]),
    # -2 θ_2 has no active constraint: levels 2 and 3 fall through
    ("lev-second-theta", LEVELS, [_claim("levels", 1, "theta", ["0/1", "0/1", "-2/1"])],
     [KKT.format(2), ACTIVE.format(2, 0), INTERIOR.format(2), FARKAS.format(2, 3), KKT.format(3), ACTIVE.format(3, 0),
      INTERIOR.format(3)]),
    ("lev-last-level-emptied", LEVELS, [_claim("levels", 2, "positive", []), _claim("levels", 2, "interior", [])],
     [INTERIOR.format(3), "the levels are not complete"]),
    # --- residual-levels, decided by the spans
    ("span-coefficient", SPANS, [_claim("decision", "spans", 0, 0, "coefficient", "7/1")], [SPAN_CHECK]),
    ("span-one-vector", SPANS, [_claim("decision", "spans", 0, [{"coefficient": "-1/1", "pair": [1, 1, 0]}])],
     [SPAN_CHECK]),
    ("span-not-complete", SPANS, [_claim("complete", False)], ["the levels are complete", SPAN_CHECK]),
    # Exists because a mutant survived: ⟨θ_2, v⟩ ≠ 0 was not checked for a spans decision (only θ_3, θ_4, ...).
    # v = (0, -1) = 0·(2, 0) + (-1)·e2 lies in V_1 ⊕ V_2 (so the decomposition itself is sound), but ⟨θ_2, v⟩ = -1
    ("span-theta-two-nonzero", LEVELS2,
     [_claim("decision", {"spans": [[{"coefficient": "0/1", "pair": [2, 0, 2]}],
                                    [{"coefficient": "-1/1", "pair": [2, 0, 1]}]]})], [SPAN_CHECK]),
    ("span-theta", SPANS, [_claim("levels", 0, "theta", ["0/1", "1/1"])],
     ["θ_1 = θ*", ACTIVE.format(1, 0), INTERIOR.format(1)]),
]


@pytest.mark.parametrize("name, edits, failures", [c[1:] for c in REFUTED_EXACTLY],
                         ids=[c[0] for c in REFUTED_EXACTLY])
def test_each_altered_claim_is_refuted_by_exactly_its_checks(name: str, edits: list[Edit],
                                                             failures: list[str]) -> None:
    """A claim altered by one unit, sign, index or entry: refuted with exactly the checks that re-derive it."""
    report = _verdict(_forged(name, *edits))
    assert (report.verdict, report.failures) == (REFUTED, failures)


MALFORMED: list[tuple[str, str, list[Edit], str]] = [
    ("projection-width", SYMMETRIC, [_claim("projection", ["2/1", "-2/1"])],
     "claims.projection has 2 entries, the PE 3"),
    ("projection-type", SYMMETRIC, [_claim("projection", "x")], "claims.projection = 'x'; accepted: a list"),
    ("symmetry-type", SYMMETRIC, [_claim("symmetry", [1])], "claims.symmetry = [1]; accepted: an object"),
    ("symmetry-unknown", SYMMETRIC, [_claim("symmetry", "order", 2)],
     "unknown field 'order' in claims.symmetry; accepted: perm, signs"),
    ("symmetry-lacks-signs", SYMMETRIC, [_drop("claims", "symmetry", "signs")], "claims.symmetry lacks signs"),
    ("perm-entry", SYMMETRIC, [_claim("symmetry", "perm", 1, "0")],
     "claims.symmetry.perm[1] = '0'; accepted: an integer"),
    ("signs-type", SYMMETRIC, [_claim("symmetry", "signs", {})], "claims.symmetry.signs = {}; accepted: a list"),
    ("signs-entry", SYMMETRIC, [_claim("symmetry", "signs", 1, True)],
     "claims.symmetry.signs[1] = True; accepted: an integer"),
    ("row-lost-type", SYMMETRIC, [_claim("row_lost", "true")], "claims.row_lost = 'true'; accepted: true or false"),
    ("margin-type", SYMMETRIC, [_claim("margin", 0)], "claims.margin = 0; accepted: a string"),
    ("rival-type", SYMMETRIC, [_put("instance", "rival", "0")], "instance.rival = '0'; accepted: an integer"),
    ("levels-empty", LEVELS, [_claim("levels", [])], "claims.levels is empty; accepted: at least one level"),
    ("levels-type", LEVELS, [_claim("levels", {})], "claims.levels = {}; accepted: a list"),
    ("first-level-multipliers", LEVELS, [_claim("levels", 0, "multipliers", [])],
     "unknown field 'multipliers' in claims.levels[0]; accepted: active, interior, positive, theta"),
    ("second-level-lacks-multipliers", LEVELS, [_drop("claims", "levels", 1, "multipliers")],
     "claims.levels[1] lacks multipliers"),
    ("level-theta-width", LEVELS, [_claim("levels", 0, "theta", ["-1/1", "0/1"])],
     "claims.levels[0].theta has 2 entries, the PE 3"),
    # the next level's θ is read for the Farkas check of this one: its width is checked there, by its path
    ("next-level-theta-width", LEVELS, [_claim("levels", 2, "theta", ["-1/1"])],
     "claims.levels[2].theta has 1 entries, the PE 3"),
    ("multiplier-twice", LEVELS, [_claim("levels", 1, "multipliers", [{"lambda": "1/1", "pair": [2, 1, 0]}] * 2)],
     "claims.levels[1].multipliers names the pair [2, 1, 0] twice"),
    ("multiplier-lambda", LEVELS, [_claim("levels", 1, "multipliers", 0, "lambda", 1)],
     "claims.levels[1].multipliers[0].lambda = 1; accepted: a string"),
    ("multipliers-type", LEVELS, [_claim("levels", 1, "multipliers", "x")],
     "claims.levels[1].multipliers = 'x'; accepted: a list"),
    ("multiplier-unknown", LEVELS, [_claim("levels", 1, "multipliers", 0, "weight", 1)],
     "unknown field 'weight' in claims.levels[1].multipliers[0]; accepted: lambda, pair"),
    ("active-type", LEVELS, [_claim("levels", 0, "active", "x")], "claims.levels[0].active = 'x'; accepted: a list"),
    ("active-pair", LEVELS, [_claim("levels", 0, "active", 1, [2, 1])],
     "claims.levels[0].active[1] = [2, 1]; accepted: [i, t, j]"),
    ("positive-pair", LEVELS, [_claim("levels", 1, "positive", 0, [2, 1, True])],
     "claims.levels[1].positive[0][2] = True; accepted: an integer"),
    ("interior-pair", LEVELS, [_claim("levels", 2, "interior", 0, "pair", "x")],
     "claims.levels[2].interior[0].pair = 'x'; accepted: a list"),
    ("next-level-type", LEVELS, [_claim("levels", 2, 5)], "claims.levels[2] = 5; accepted: an object"),
    ("first-level-type", LEVELS, [_claim("levels", 0, 5)], "claims.levels[0] = 5; accepted: an object"),
    ("leading-level-one", LEVELS, [_claim("decision", "leading", "level", 1)],
     "claims.decision.leading.level 1; accepted: a level 2..3"),
    ("leading-level-four", LEVELS, [_claim("decision", "leading", "level", 4)],
     "claims.decision.leading.level 4; accepted: a level 2..3"),
    ("leading-beyond-levels", LEVELS, [lambda doc: doc["claims"]["levels"].pop()],
     "claims.decision.leading.level 3; accepted: a level 2..2"),
    ("leading-level-type", LEVELS, [_claim("decision", "leading", "level", "3")],
     "claims.decision.leading.level = '3'; accepted: an integer"),
    ("leading-sign-type", LEVELS, [_claim("decision", "leading", "sign", "1")],
     "claims.decision.leading.sign = '1'; accepted: an integer"),
    ("leading-unknown", LEVELS, [_claim("decision", "leading", "x", 1)],
     "unknown field 'x' in claims.decision.leading; accepted: level, sign"),
    ("leading-lacks-sign", LEVELS, [_drop("claims", "decision", "leading", "sign")],
     "claims.decision.leading lacks sign"),
    ("leading-type", LEVELS, [_claim("decision", "leading", [])], "claims.decision.leading = []; accepted: an object"),
    ("decision-both", LEVELS, [_claim("decision", "spans", [])],
     "unknown field 'spans' in claims.decision; accepted: leading"),
    ("decision-empty", LEVELS, [_claim("decision", {})], "claims.decision lacks spans"),
    ("complete-type", LEVELS, [_claim("complete", "yes")], "claims.complete = 'yes'; accepted: true or false"),
    ("spans-levels", SPANS, [_claim("decision", "spans", [[], []])],
     "claims.decision.spans has 2 levels, the certificate 1"),
    ("spans-type", SPANS, [_claim("decision", "spans", {})], "claims.decision.spans = {}; accepted: a list"),
    ("spans-twice", SPANS, [_claim("decision", "spans", 0, 1, "pair", [1, 1, 0])],
     "claims.decision.spans[0] names the pair [1, 1, 0] twice"),
    ("spans-coefficient-type", SPANS, [_claim("decision", "spans", 0, 0, "coefficient", 1)],
     "claims.decision.spans[0][0].coefficient = 1; accepted: a string"),
    ("spans-entry-type", SPANS, [_claim("decision", "spans", 0, "x")],
     "claims.decision.spans[0] = 'x'; accepted: a list"),
    ("spans-lacks-coefficient", SPANS, [_drop("claims", "decision", "spans", 0, 0, "coefficient")],
     "claims.decision.spans[0][0] lacks coefficient"),
]
INVALID: list[tuple[str, str, list[Edit], str]] = [
    ("projection-entry", SYMMETRIC, [_claim("projection", 0, "2")], "'2' at claims.projection[0]"),
    ("tie-direction-entry", SYMMETRIC, [_claim("tie_direction", 1, "-2")], "'-2' at claims.tie_direction[1]"),
    ("level-theta-entry", LEVELS, [_claim("levels", 1, "theta", 2, "-1")], "'-1' at claims.levels[1].theta[2]"),
    ("interior-lambda", LEVELS, [_claim("levels", 2, "interior", 0, "lambda", "2/2")],
     "'2/2' at claims.levels[2].interior[0].lambda"),
]


@pytest.mark.parametrize("name, edits, message", [c[1:] for c in MALFORMED], ids=[c[0] for c in MALFORMED])
def test_each_malformed_claim_is_refused_naming_its_json_path(name: str, edits: list[Edit], message: str) -> None:
    """A field missing, unknown, of the wrong JSON type or out of range: one line naming its JSON path."""
    with pytest.raises(CertificateError) as err:
        _verdict(_forged(name, *edits))
    assert str(err.value) == f"malformed certificate: {message}"


@pytest.mark.parametrize("name, edits, where", [c[1:] for c in INVALID], ids=[c[0] for c in INVALID])
def test_each_non_canonical_rational_is_refused_naming_its_json_path(name: str, edits: list[Edit],
                                                                     where: str) -> None:
    """A rational not spelled 'p/q' in lowest terms: refused with its spelling and JSON path."""
    with pytest.raises(CertificateError) as err:
        _verdict(_forged(name, *edits))
    assert str(err.value) == f"invalid rational {where}; {RATIONAL}"


# Exists because a mutant survived: the JSON path in the refusal of a permutation that is not a list.
def test_a_permutation_that_is_not_a_list_is_refused_at_claims_symmetry_perm() -> None:
    """perm = 'x': refused naming claims.symmetry.perm."""
    with pytest.raises(CertificateError) as err:
        _verdict(_forged(SYMMETRIC, _claim("symmetry", "perm", "x")))
    assert str(err.value) == "malformed certificate: claims.symmetry.perm = 'x'; accepted: a list"


TIE = ["row margin under T_L θ* is 0", "rival {} is tied with the target under θ*", "v = ψ(i,t) - ψ(i,j)",
       "⟨θ*, v⟩ = 0, v ≠ 0 (a tie, not a structural one)"]
FLOW_NOTE = "float evidence (gradient flow to log log t) is reported, not verified"
LIMIT_NOTE = ("the sign of the finite limit Σ_k ⟨w̃_k, v⟩ needs exp and log (max-entropy residuals): it is stated in "
              "the evidence with its enclosure, not checked by this fractions-only verifier")


def _tie_checks(rival: int) -> list[str]:
    return [TIE[0], TIE[1].format(rival), *TIE[2:]]


@pytest.mark.parametrize("name, checks, notes", [
    (SYMMETRIC, _tie_checks(0) + ["Z(v - w) = 0", "w ∈ col Zᵀ (rank [Z; w] = rank Z)", SIGNED,
                                  "Q maps the multiset of the training rows' differences onto itself", "Qw = -w",
                                  LOST], [FLOW_NOTE]),
    # three levels, active sets of 3, 2, 1 constraints; decided at level 3 with the sign +1
    (LEVELS, _tie_checks(0) + ["Z v ≠ 0 (not orthogonal: open case)", "θ_1 = θ*", ACTIVE.format(1, 3),
                               INTERIOR.format(1), FARKAS.format(1, 2), KKT.format(2), ACTIVE.format(2, 2),
                               INTERIOR.format(2), FARKAS.format(2, 3), KKT.format(3), ACTIVE.format(3, 1),
                               INTERIOR.format(3), "the levels are complete",
                               "⟨θ_m, v⟩ = 0 for 2 ≤ m < 3 and ⟨θ_3, v⟩ has the sign 1: the margin grows like "
                               "+log^{∘3} t"], [FLOW_NOTE]),
    # two levels, decided at level 2 with the sign -1
    ("residual_levels_seed1_174_row3.json",
     _tie_checks(1) + ["Z v ≠ 0 (not orthogonal: open case)", "θ_1 = θ*", ACTIVE.format(1, 2), INTERIOR.format(1),
                       FARKAS.format(1, 2), KKT.format(2), ACTIVE.format(2, 1), INTERIOR.format(2),
                       "the levels are complete",
                       "⟨θ_m, v⟩ = 0 for 2 ≤ m < 2 and ⟨θ_2, v⟩ has the sign -1: the margin grows like -log^{∘2} t"],
     [FLOW_NOTE]),
    # one complete level, decided by the spans: the limit's sign is a note
    (SPANS, _tie_checks(1) + ["Z v ≠ 0 (not orthogonal: open case)", "θ_1 = θ*", ACTIVE.format(1, 3),
                              INTERIOR.format(1), "the levels are complete", SPAN_CHECK], [FLOW_NOTE, LIMIT_NOTE]),
], ids=["symmetric", "levels-3", "levels-2", "spans"])
def test_a_shipped_certificate_names_each_residual_check_it_passed(name: str, checks: list[str],
                                                                   notes: list[str]) -> None:
    """The checks passed from the tie on, in order, and the notes: each level and decision by its name."""
    report = _verdict(_load(name))
    assert report.verdict == VERIFIED and report.failures == []
    assert report.checked[report.checked.index(TIE[0]):] == checks
    assert report.notes == notes


# ===================================================================== multiplicities of the training differences
# Exists because a mutant survived: the symmetry check could count each training row's differences without their
# multiplicities (every shipped symmetric-tie certificate has each difference once per row).
_A, _B, _C = (1, 0), (0, 1), (1, 1)    # Q = (perm [1, 0], signs [1, 1]) swaps a and b and fixes c


def _symmetric_tie(row3: list[tuple[int, int]]) -> dict:
    """A hand-built symmetric-tie certificate: general table of width 2, position:0, L0 = 4, L = 5.
    ψ(i, 0) = 0, so training row i's differences z(i, 0, j) = -ψ(i, j): row 1 {c}, row 2 {c, c}, row 3 ``row3``.
    With a, b among row 3's differences θ* = a + b = (1, 1) (⟨θ*, a⟩ = ⟨θ*, b⟩ = 1, ⟨θ*, c⟩ = 2).  Row 4 at L = 5:
    ψ(4, 1) = (-1, 1) scores 0 like the target, the other keys -2: rival 1 is tied with v = (1, -1) = w (Z has
    rank 2), and Qw = -w."""
    def q(x: int) -> str:
        return f"{x}/1"

    diffs = {1: [_C], 2: [_C, _C], 3: row3}
    rows = [[(0, 0)] * 5 for _ in range(5)]                                        # (N, N, p) = (5, 5, 2)
    for i, zs in diffs.items():
        for j, z in enumerate(zs, start=1):
            rows[i][j] = (-z[0], -z[1])
    rows[4] = [(0, 0), (-1, 1), (-1, -1), (-1, -1), (-1, -1)]
    pairs = [(i, 0, j) for i in (1, 2, 3) for j in range(1, i + 1)]              # training pairs, in order
    first: dict[tuple[int, int], tuple[int, int, int]] = {}
    for i, t, j in pairs:
        first.setdefault(diffs[i][j - 1], (i, t, j))
    support = sorted((first[_A], first[_B]), key=pairs.index)
    body = {"kind": "symmetric-tie",
            "instance": {"pe": "cxg9x1", "task": "position:0", "train_length": 4, "length": 5, "row": 4, "target": 0,
                         "rival": 1, "tables": {"cxg9x1": {"kind": "general",
                                                           "rows": [[[q(x) for x in f] for f in r] for r in rows]}}},
            "claims": {"selected": {"theta": ["1/1", "1/1"],
                                    "support": [{"pair": list(pair), "lambda": "1/1"} for pair in support]},
                       "margin": "0/1", "tie_direction": ["1/1", "-1/1"], "projection": ["1/1", "-1/1"],
                       "symmetry": {"perm": [1, 0], "signs": [1, 1]}, "row_lost": True}}
    return seal(body)


def test_a_symmetry_keeping_each_rows_differences_with_their_multiplicities_is_verified() -> None:
    """Control: rows {c}, {c, c}, {a, b, c}; Q fixes each row's multiset (c twice in row 2 included)."""
    report = _verdict(_symmetric_tie([_A, _B, _C]))
    assert (report.verdict, report.failures) == (VERIFIED, [])
    assert "Q maps the multiset of the training rows' differences onto itself" in report.checked


def test_a_symmetry_keeping_only_the_set_of_a_rows_differences_is_refuted() -> None:
    """Row 3 {a, a, b} goes to {b, b, a}: the same set, another multiset.  The loss term
    log(1 + 2e^{-θ_1} + e^{-θ_2}) is not symmetric, descent from 0 moves θ_1 faster than θ_2, and the tie margin
    ⟨θ_k, v⟩ = θ_1 - θ_2 leaves 0: the claim is false, and only the multiset check (with the row-lost claim
    resting on it) fails."""
    report = _verdict(_symmetric_tie([_A, _A, _B]))
    assert (report.verdict, report.failures) == (
        REFUTED, ["Q maps the multiset of the training rows' differences onto itself", LOST])
