"""Contract of the certificate verifier (counterexamples/verifier):
every malformed certificate is refused with its one-line message naming the JSON path (verify, schema).

Each case is derived by hand in the test, never pasted from a run (tests/verifier_cases.py holds the shared
edits and certificates)."""

from __future__ import annotations

import copy
import re

import pytest

from posreal.counterexamples.verifier import schema
from posreal.counterexamples.verifier import verify as verifier
from posreal.counterexamples.verifier.errors import CertificateError
from posreal.counterexamples.verifier.verify import (
    verify_certificate,
    verify_document,
)
from certificate_edits import certificate as _certificate, message as _message, resealed as _resealed
from verifier_cases import (DYNAMIC, Edit, GENERAL, OPEN, PE_FORMS, RATIONAL_FORMS, STATIC, TASK_FORMS, _drop,
                            _edited, _prediction, _put, _refusal)


MALFORMED: list[tuple[str, str, list[Edit], str]] = [
    # --- top level and schema.check_document
    ("lacks-claims", STATIC, [_drop("claims")], "malformed certificate: certificate c lacks claims"),
    ("unknown-top", STATIC, [_put("comment", "x")],
     "malformed certificate: unknown field 'comment' in certificate c; accepted: claims, digest, evidence, "
     "explanation, format, instance, kind, name, version, versions"),
    ("explanation-type", STATIC, [_put("explanation", None)],
     "malformed certificate: explanation = None; accepted: a string"),
    ("versions-type", STATIC, [_put("versions", "1")], "malformed certificate: versions = '1'; accepted: an object"),
    ("name-type", STATIC, [_put("name", 3)], "malformed certificate: name = 3; accepted: a string"),
    ("static-has-rival", STATIC, [_put("instance", "rival", 1)],
     "malformed certificate: unknown field 'rival' in instance; accepted: length, pe, row, tables, target, task, "
     "train_length"),
    ("static-has-family", STATIC, [_put("instance", "family", "x")],
     "malformed certificate: unknown field 'family' in instance; accepted: length, pe, row, tables, target, task, "
     "train_length"),
    ("dynamic-lacks-rival", DYNAMIC, [_drop("instance", "rival")], "malformed certificate: instance lacks rival"),
    ("family-type", OPEN, [_put("instance", "family", 3)],
     "malformed certificate: instance.family = 3; accepted: a string"),
    ("search-index-bool", OPEN, [_put("instance", "search_index", True)],
     "malformed certificate: instance.search_index = True; accepted: an integer"),
    ("claims-lack-two", STATIC, [_drop("claims", "rank_features"), _drop("claims", "margin")],
     "malformed certificate: claims lacks margin, rank_features"),
    ("open-claims-unknown", OPEN, [_put("claims", "wins", True)],
     "malformed certificate: unknown field 'wins' in claims; accepted: alpha, margin, predicted_wins, rivals, "
     "selected"),
    ("selected-unknown", STATIC, [_put("claims", "selected", "lambda", "1/1")],
     "malformed certificate: unknown field 'lambda' in claims.selected; accepted: support, theta"),
    ("support-type", STATIC, [_put("claims", "selected", "support", {})],
     "malformed certificate: claims.selected.support = {}; accepted: a list"),
    ("support-entry-type", STATIC, [_put("claims", "selected", "support", ["x"])],
     "malformed certificate: claims.selected.support[0] = 'x'; accepted: an object"),
    ("support-entry-lacks", STATIC, [_drop("claims", "selected", "support", 0, "lambda")],
     "malformed certificate: claims.selected.support[0] lacks lambda"),
    # --- instance values (_Instance, _tables)
    ("pe-type", STATIC, [_put("instance", "pe", 3)], "malformed certificate: instance.pe = 3; accepted: a string"),
    ("task-type", STATIC, [_put("instance", "task", None)],
     "malformed certificate: instance.task = None; accepted: a string"),
    ("train-length-float", STATIC, [_put("instance", "train_length", 4.0)],
     "malformed certificate: instance.train_length = 4.0; accepted: an integer"),
    ("length-bool", STATIC, [_put("instance", "length", True)],
     "malformed certificate: instance.length = True; accepted: an integer"),
    ("target-str", STATIC, [_put("instance", "target", "0")],
     "malformed certificate: instance.target = '0'; accepted: an integer"),
    ("tables-list", STATIC, [_put("instance", "tables", [])],
     "malformed certificate: instance.tables = []; accepted: an object"),
    ("table-list", STATIC, [_put("instance", "tables", {"t": []})],
     "malformed certificate: tables.t = []; accepted: an object"),
    ("table-lacks-rows", STATIC, [_put("instance", "tables", {"t": {"kind": "column"}})],
     "malformed certificate: tables.t lacks rows"),
    ("table-unknown", STATIC, [_put("instance", "tables", {"t": {"kind": "column", "rows": [["1/1"]], "width": 1}})],
     "malformed certificate: unknown field 'width' in tables.t; accepted: kind, rows"),
    ("table-kind-type", STATIC, [_put("instance", "tables", {"t": {"kind": 3, "rows": [["1/1"]]}})],
     "malformed certificate: tables.t.kind = 3; accepted: a string"),
    ("table-rows-type", STATIC, [_put("instance", "tables", {"t": {"kind": "relative", "rows": {}}})],
     "malformed certificate: tables.t.rows = {}; accepted: a list"),
    ("table-no-rows", STATIC, [_put("instance", "tables", {"t": {"kind": "relative", "rows": []}})],
     "malformed certificate: tables.t: feature vectors of widths []; accepted: one width, at least one row"),
    ("table-two-widths", STATIC,
     [_put("instance", "tables", {"t": {"kind": "column", "rows": [["1/1"], ["1/1", "0/1"]]}})],
     "malformed certificate: tables.t: feature vectors of widths [1, 2]; accepted: one width, at least one row"),
    ("column-entry", DYNAMIC, [_put("instance", "tables", "cxc0x130", "rows", 1, 2, "1")],
     f"invalid rational '1' at tables.cxc0x130[1][2]; {RATIONAL_FORMS}"),
    ("general-row-type", GENERAL, [_put("instance", "tables", "cxg0x1355", "rows", 1, "x")],
     "malformed certificate: row = 'x'; accepted: a list"),
    ("general-cell-type", GENERAL, [_put("instance", "tables", "cxg0x1355", "rows", 1, 0, "1/1")],
     "invalid vector '1/1' at tables.cxg0x1355[1][0]; accepted: a list of 'p/q' strings"),
    ("general-cell-entry", GENERAL, [_put("instance", "tables", "cxg0x1355", "rows", 1, 0, 2, "x")],
     f"invalid rational 'x' at tables.cxg0x1355[1][0][2]; {RATIONAL_FORMS}"),
    ("general-short-row", GENERAL, [_put("instance", "tables", "cxg0x1355", "rows", 1, [["0/1", "0/1", "0/1"]])],
     "malformed certificate: tables.cxg0x1355: row i of a general table needs i + 1 cells"),
    ("general-cell-width", GENERAL, [_put("instance", "tables", "cxg0x1355", "rows", 1, 0, ["1/1"])],
     "malformed certificate: tables.cxg0x1355: feature vectors of widths [1, 3]; accepted: one width, at least one "
     "row"),
    ("train-length-zero", STATIC, [_put("instance", "train_length", 0)],
     "malformed certificate: lengths L0=0, L=8; accepted: 1 <= L0 <= L <= 4096"),
    ("length-above-limit", STATIC, [_put("instance", "length", 4097)],
     "malformed certificate: lengths L0=4, L=4097; accepted: 1 <= L0 <= L <= 4096"),
    ("length-beyond-table", DYNAMIC, [_put("instance", "length", 5)],
     "malformed certificate: length 5 exceeds the table size 4"),
    ("unknown-pe", STATIC, [_put("instance", "pe", "sinus")], f"invalid PE 'sinus'; accepted: {PE_FORMS}"),
    ("unknown-task", STATIC, [_put("instance", "task", "first")], f"invalid task 'first'; accepted: {TASK_FORMS}"),
    ("row-above-target", STATIC, [_put("instance", "row", 2), _put("instance", "target", 3)],
     "malformed certificate: row 2, target 3 outside the L=8 grid"),
    ("negative-target", STATIC, [_put("instance", "target", -1)],
     "malformed certificate: row 4, target -1 outside the L=8 grid"),
    # --- claims.selected (_check_selected, _pair)
    ("theta-type", STATIC, [_put("claims", "selected", "theta", "-1/1")],
     "malformed certificate: claims.selected.theta = '-1/1'; accepted: a list"),
    ("theta-entry", STATIC, [_put("claims", "selected", "theta", ["-1"])],
     f"invalid rational '-1' at claims.selected.theta[0]; {RATIONAL_FORMS}"),
    ("theta-width", STATIC, [_put("claims", "selected", "theta", ["-1/1", "0/1"])],
     "malformed certificate: θ* has 2 entries, the PE has dimension 1"),
    ("pair-type", STATIC, [_put("claims", "selected", "support", 0, "pair", "1")],
     "malformed certificate: claims.selected.support[0].pair = '1'; accepted: a list"),
    ("pair-short", STATIC, [_put("claims", "selected", "support", 0, "pair", [1, 0])],
     "malformed certificate: claims.selected.support[0].pair = [1, 0]; accepted: [i, t, j]"),
    ("pair-bool", STATIC, [_put("claims", "selected", "support", 0, "pair", [1, 0, True])],
     "malformed certificate: claims.selected.support[0].pair[2] = True; accepted: an integer"),
    ("lambda-type", STATIC, [_put("claims", "selected", "support", 0, "lambda", 1)],
     "malformed certificate: claims.selected.support[0].lambda = 1; accepted: a string"),
    ("lambda-not-lowest", STATIC, [_put("claims", "selected", "support", 0, "lambda", "2/2")],
     f"invalid rational '2/2' at claims.selected.support[0].lambda; {RATIONAL_FORMS}"),
    # --- static claims
    ("rank-features-bool", STATIC, [_put("claims", "rank_features", True)],
     "malformed certificate: claims.rank_features = True; accepted: an integer"),
    ("static-margin-space", STATIC, [_put("claims", "margin", "1/1 ")],
     f"invalid rational '1/1 ' at claims.margin; {RATIONAL_FORMS}"),
    # --- dynamic claims
    ("dynamic-rival-is-target", DYNAMIC, [_put("instance", "rival", 0)],
     "malformed certificate: rival 0; accepted: a key j <= 3, j != 0"),
    ("dynamic-rival-negative", DYNAMIC, [_put("instance", "rival", -1)],
     "malformed certificate: rival -1; accepted: a key j <= 3, j != 0"),
    ("tie-direction-type", DYNAMIC, [_put("claims", "tie_direction", "x")],
     "malformed certificate: claims.tie_direction = 'x'; accepted: a list"),
    ("theta-dot-v", DYNAMIC, [_put("claims", "theta_dot_v", "0")],
     f"invalid rational '0' at claims.theta_dot_v; {RATIONAL_FORMS}"),
    # Exists because a mutant survived: the JSON path in the refusal of a θ*·v claim that is not a string.
    ("theta-dot-v-type", DYNAMIC, [_put("claims", "theta_dot_v", 0)],
     "malformed certificate: claims.theta_dot_v = 0; accepted: a string"),
    ("rank-differences-str", DYNAMIC, [_put("claims", "rank_differences", "2")],
     "malformed certificate: claims.rank_differences = '2'; accepted: an integer"),
    ("rank-with-direction-float", DYNAMIC, [_put("claims", "rank_with_direction", 3.0)],
     "malformed certificate: claims.rank_with_direction = 3.0; accepted: an integer"),
    ("gradient-entry", DYNAMIC, [_put("claims", "gradient_at_zero", 1, "1")],
     f"invalid rational '1' at claims.gradient_at_zero[1]; {RATIONAL_FORMS}"),
    ("first-step-type", DYNAMIC, [_put("claims", "first_step", 3)],
     "malformed certificate: claims.first_step = 3; accepted: a list"),
    ("first-step-dot-v-type", DYNAMIC, [_put("claims", "first_step_dot_v", 1)],
     "malformed certificate: claims.first_step_dot_v = 1; accepted: a string"),
    # --- open-tie claims
    ("rivals-type", OPEN, [_put("claims", "rivals", {})],
     "malformed certificate: claims.rivals = {}; accepted: a list"),
    ("rival-entry-type", OPEN, [_put("claims", "rivals", [5])],
     "malformed certificate: claims.rivals[0] = 5; accepted: an object"),
    ("rival-entry-lacks-rival", OPEN, [_drop("claims", "rivals", 0, "rival")],
     "malformed certificate: missing claims.rivals[0].rival"),
    ("rival-bool", OPEN, [_put("claims", "rivals", 0, "rival", True)],
     "malformed certificate: claims.rivals[0].rival = True; accepted: an integer"),
    ("rival-is-target", OPEN, [_put("claims", "rivals", 0, "rival", 3)],
     "malformed certificate: rival 3; accepted: a key j <= 3, j != 3"),
    ("rival-beyond-row", OPEN, [_put("claims", "rivals", 0, "rival", 4)],
     "malformed certificate: rival 4; accepted: a key j <= 3, j != 3"),
    ("rival-entry-unknown", OPEN, [_put("claims", "rivals", 0, "extra", 1)],
     "malformed certificate: unknown field 'extra' in claims.rivals[0]; accepted: direction, prediction, rival"),
    ("rival-entry-lacks-direction", OPEN, [_drop("claims", "rivals", 0, "direction")],
     "malformed certificate: claims.rivals[0] lacks direction"),
    ("direction-type", OPEN, [_put("claims", "rivals", 0, "direction", "x")],
     "malformed certificate: claims.rivals[0].direction = 'x'; accepted: a list"),
    ("direction-entry", OPEN, [_put("claims", "rivals", 0, "direction", 0, "1")],
     f"invalid rational '1' at claims.rivals[0].direction[0]; {RATIONAL_FORMS}"),
    ("prediction-type", OPEN, [_put("claims", "rivals", 0, "prediction", [])],
     "malformed certificate: claims.rivals[0].prediction = []; accepted: an object"),
    ("prediction-lacks-sign", OPEN, [_drop("claims", "rivals", 0, "prediction", "sign")],
     "malformed certificate: claims.rivals[0].prediction lacks sign"),
    ("prediction-unknown", OPEN, [_prediction("limit", "0/1")],
     "malformed certificate: unknown field 'limit' in claims.rivals[0].prediction; accepted: coefficients, "
     "multiplicities, sign"),
    ("coefficients-short", OPEN, [_prediction("coefficients", ["1/1"])],
     "malformed certificate: claims.rivals[0].prediction has 1 coefficients and 2 multiplicities, the support has 2"),
    ("multiplicities-long", OPEN, [_prediction("multiplicities", [2, 1, 1])],
     "malformed certificate: claims.rivals[0].prediction has 2 coefficients and 3 multiplicities, the support has 2"),
    ("coefficients-type", OPEN, [_prediction("coefficients", "1/1")],
     "malformed certificate: claims.rivals[0].prediction.coefficients = '1/1'; accepted: a list"),
    ("coefficient-entry", OPEN, [_prediction("coefficients", ["1/1", "-2/2"])],
     f"invalid rational '-2/2' at claims.rivals[0].prediction.coefficients[1]; {RATIONAL_FORMS}"),
    ("multiplicity-float", OPEN, [_prediction("multiplicities", [2, 1.0])],
     "malformed certificate: claims.rivals[0].prediction.multiplicities[1] = 1.0; accepted: an integer"),
    ("sign-str", OPEN, [_prediction("sign", "1")],
     "malformed certificate: claims.rivals[0].prediction.sign = '1'; accepted: an integer"),
    ("predicted-wins-int", OPEN, [_put("claims", "predicted_wins", 1)],
     "malformed certificate: claims.predicted_wins = 1; accepted: true or false"),
    ("alpha-type", OPEN, [_put("claims", "alpha", 1)], "malformed certificate: claims.alpha = 1; accepted: a string"),
    # --- the JSON path of each remaining typed field, per kind
    ("selected-type", STATIC, [_put("claims", "selected", [])],
     "malformed certificate: claims.selected = []; accepted: an object"),
    ("selected-lacks-theta", STATIC, [_drop("claims", "selected", "theta")],
     "malformed certificate: claims.selected lacks theta"),
    ("support-entry-lacks-pair", STATIC, [_drop("claims", "selected", "support", 0, "pair")],
     "malformed certificate: claims.selected.support[0] lacks pair"),
    ("row-str", STATIC, [_put("instance", "row", "4")],
     "malformed certificate: instance.row = '4'; accepted: an integer"),
    ("static-margin-type", STATIC, [_put("claims", "margin", 0)],
     "malformed certificate: claims.margin = 0; accepted: a string"),
    ("dynamic-margin-type", DYNAMIC, [_put("claims", "margin", 0)],
     "malformed certificate: claims.margin = 0; accepted: a string"),
    ("open-margin-type", OPEN, [_put("claims", "margin", 0)],
     "malformed certificate: claims.margin = 0; accepted: a string"),
    ("dynamic-rival-type", DYNAMIC, [_put("instance", "rival", None)],
     "malformed certificate: instance.rival = None; accepted: an integer"),
    ("table-lacks-kind", STATIC, [_put("instance", "tables", {"t": {"rows": [["1/1"]]}})],
     "malformed certificate: tables.t lacks kind"),
    ("table-kind-unknown", STATIC, [_put("instance", "tables", {"t": {"kind": "row", "rows": [["1/1"]]}})],
     "malformed certificate: tables.t.kind = 'row'; accepted: relative, column, general"),
    ("tie-direction-entry", DYNAMIC, [_put("claims", "tie_direction", 0, "0")],
     f"invalid rational '0' at claims.tie_direction[0]; {RATIONAL_FORMS}"),
    ("gradient-type", DYNAMIC, [_put("claims", "gradient_at_zero", "x")],
     "malformed certificate: claims.gradient_at_zero = 'x'; accepted: a list"),
    ("first-step-entry", DYNAMIC, [_put("claims", "first_step", 0, "1")],
     f"invalid rational '1' at claims.first_step[0]; {RATIONAL_FORMS}"),
    ("first-step-dot-v-entry", DYNAMIC, [_put("claims", "first_step_dot_v", "2/4")],
     f"invalid rational '2/4' at claims.first_step_dot_v; {RATIONAL_FORMS}"),
    ("direction-null", OPEN, [_put("claims", "rivals", 0, "direction", None)],
     "malformed certificate: claims.rivals[0].direction = None; accepted: a list"),
    ("multiplicities-type", OPEN, [_prediction("multiplicities", "2")],
     "malformed certificate: claims.rivals[0].prediction.multiplicities = '2'; accepted: a list"),
    ("prediction-lacks-coefficients", OPEN, [_drop("claims", "rivals", 0, "prediction", "coefficients")],
     "malformed certificate: claims.rivals[0].prediction lacks coefficients"),
]


@pytest.mark.parametrize("name, edits, message", [c[1:] for c in MALFORMED], ids=[c[0] for c in MALFORMED])
def test_each_malformed_certificate_is_refused_with_its_one_line_message(name: str, edits: list[Edit],
                                                                         message: str) -> None:
    assert _refusal(_edited(name, *edits)) == message


# ------------------------------------------------------ malformed certificates are named at their JSON paths
# Exists because a mutant survived: malformed claims could be reported at another path.
@pytest.mark.parametrize("name, edit, message", [
    ("static_alibi_position_0.json", lambda c: c.pop("selected"), "malformed certificate: claims lacks selected"),
    ("dynamic_cxc0x130_reverse.json", lambda c: c.pop("margin"), "malformed certificate: claims lacks margin"),
    ("dynamic_cxc0x130_reverse.json", lambda c: c.update(step_size="x"), "invalid rational 'x' at claims.step_size"),
    ("open_tie_designed_log2.json", lambda c: c.update(alpha="3/0"), "invalid rational '3/0' at claims.alpha"),
    ("open_tie_designed_log2.json", lambda c: c.update(margin=0), "malformed certificate: claims.margin = 0"),
])
def test_malformed_claims_are_named_in_the_error(name, edit, message):
    doc = _certificate(name)
    edit(doc["claims"])
    with pytest.raises(CertificateError) as err:
        verify_document(_resealed(doc))
    assert str(err.value).startswith(message)


# Exists because a mutant survived: a malformed instance could be reported at another path.
@pytest.mark.parametrize("edit, message", [
    (lambda i: i.pop("length"), "malformed certificate: instance lacks length"),
    (lambda i: i.update(train_length="3"), "malformed certificate: instance.train_length = '3'"),
    (lambda i: i["tables"]["cxc0x130"].pop("kind"), "malformed certificate: tables.cxc0x130 lacks kind"),
    (lambda i: i["tables"]["cxc0x130"].update(kind="diagonal"),
     "malformed certificate: tables.cxc0x130.kind = 'diagonal'; accepted: relative, column, general"),
])
def test_malformed_instance_is_named_in_the_error(edit, message):
    doc = _certificate("dynamic_cxc0x130_reverse.json")
    edit(doc["instance"])
    with pytest.raises(CertificateError) as err:
        verify_document(_resealed(doc))
    assert str(err.value).startswith(message)


# Exists because a mutant survived: a malformed vector could be reported elsewhere.
def test_certificate_vector_errors_name_the_place():
    doc = _certificate("dynamic_cxc0x130_reverse.json")            # embeds the column table cxc0x130
    doc["instance"]["tables"]["cxc0x130"]["rows"][2] = "1/1"         # a row that is not a vector
    with pytest.raises(CertificateError) as err:
        verify_document(_resealed(doc))
    assert str(err.value) == "invalid vector '1/1' at tables.cxc0x130[2]; accepted: a list of 'p/q' strings"


# Exists because a mutant survived: a malformed row could be reported elsewhere.
def test_malformed_row_is_reported_at_instance_row():
    """A row that is not an integer is reported at ``instance.row`` (the field's real path)."""
    doc = copy.deepcopy(_certificate("static_alibi_position_0.json"))
    doc["instance"]["row"] = "4"
    message = _message(lambda: verify_document(_resealed(doc)), CertificateError)
    assert "instance.row" in message and "XX" not in message


# Exists because a mutant survived: a malformed length could be reported elsewhere.
def test_malformed_length_is_reported_at_instance_length():
    """A length that is not an integer is reported at ``instance.length`` (the field's real path)."""
    doc = copy.deepcopy(_certificate("static_alibi_position_0.json"))
    doc["instance"]["length"] = "8"
    message = _message(lambda: verify_document(_resealed(doc)), CertificateError)
    assert "instance.length = '8'" in message and "XX" not in message
    assert "accepted: an integer" in message


# Exists because a mutant survived: a malformed dynamic margin could be reported elsewhere.
def test_malformed_margin_of_a_dynamic_certificate_is_reported_at_claims_margin():
    """A dynamic certificate's margin that is not a rational string is reported at ``claims.margin``."""
    doc = copy.deepcopy(_certificate("dynamic_cxc0x130_reverse.json"))
    doc["claims"]["margin"] = "abc"
    message = _message(lambda: verify_document(_resealed(doc)), CertificateError)
    assert "at claims.margin;" in message


# Exists because a mutant survived: a support pair of the wrong JSON type could be reported elsewhere.
def test_a_support_pair_that_is_not_a_list_is_named_at_its_path():
    """``claims.selected.support[n].pair`` must be a JSON list [i, t, j]; a string there is reported at that path."""
    doc = copy.deepcopy(_certificate("static_alibi_position_0.json"))
    doc["claims"]["selected"]["support"][0]["pair"] = "x"
    expected = r"^malformed certificate: claims\.selected\.support\[0\]\.pair = 'x'; accepted: a list$"
    with pytest.raises(CertificateError, match=expected):
        verify_document(_resealed(doc))


# Exists because a mutant survived: a rank of differences of the wrong JSON type could be reported elsewhere.
def test_a_rank_of_differences_that_is_not_an_integer_is_named_at_its_path():
    """A dynamic certificate's ``claims.rank_differences`` must be a JSON integer; "2" is reported there."""
    doc = copy.deepcopy(_certificate("dynamic_cxc0x130_reverse.json"))
    doc["claims"]["rank_differences"] = "2"
    with pytest.raises(CertificateError,
                       match=r"^malformed certificate: claims\.rank_differences = '2'; accepted: an integer$"):
        verify_document(_resealed(doc))


# Exists because a mutant survived: a step size of the wrong JSON type could be reported elsewhere.
def test_a_step_size_of_the_wrong_json_type_is_named_at_its_path():
    doc = _certificate("dynamic_dual_cxg0x1355_reverse.json")
    doc["claims"]["step_size"] = 3
    expected = "malformed certificate: claims.step_size = 3; accepted: a string"
    with pytest.raises(CertificateError, match=f"^{re.escape(expected)}$"):
        verify_certificate(_resealed(doc))


# Exists because a mutant survived: a rank of the wrong JSON type could be reported elsewhere.
def test_a_rank_of_the_wrong_json_type_is_named_at_its_path():
    doc = _certificate("static_alibi_position_0.json")
    doc["claims"]["rank_augmented"] = "2"
    expected = "malformed certificate: claims.rank_augmented = '2'; accepted: an integer"
    with pytest.raises(CertificateError, match=f"^{re.escape(expected)}$"):
        verify_certificate(_resealed(doc))


# Exists because a mutant survived: a general table row with too few cells was never refused.
def test_a_general_table_row_with_too_few_cells_is_refused():
    """Row i of a general table holds ψ(i, j) for j ≤ i: row 2 cut to one cell is refused (i + 1 = 3 > 1)."""
    doc = _certificate("dynamic_dual_cxg0x1355_reverse.json")
    table = doc["instance"]["tables"]["cxg0x1355"]
    assert table["kind"] == "general"
    short = copy.deepcopy(doc)
    short["instance"]["tables"]["cxg0x1355"]["rows"][2] = table["rows"][2][:1]
    expected = "malformed certificate: tables.cxg0x1355: row i of a general table needs i + 1 cells"
    with pytest.raises(CertificateError, match=f"^{re.escape(expected)}$"):
        verify_certificate(_resealed(short))


# Exists because a mutant survived: a missing claims.selected could be reported under another name.
def test_missing_selected_claim_names_claims_selected():
    """The missing key is reported as ``claims.selected``."""
    with pytest.raises(CertificateError) as err:
        verifier._check_selected(None, {}, verifier._Check())  # type: ignore[arg-type]
    assert str(err.value) == "malformed certificate: missing claims.selected"


# Exists because a mutant survived: a missing claims.selected.support could be reported under another name.
def test_selected_claim_without_support_names_claims_selected_support() -> None:
    """The missing key is reported as ``claims.selected.support``."""
    claims = {"selected": {"theta": ["1/1"]}}
    with pytest.raises(CertificateError) as err:
        verifier._check_selected(None, claims, verifier._Check())  # type: ignore[arg-type]
    assert str(err.value) == "malformed certificate: missing claims.selected.support"


# Exists because a mutant survived: the error for an unknown field could drop the field.
def test_unknown_field_error_names_the_field():
    """An unknown field in a certificate object is named in the error, with the accepted fields."""
    message = _message(lambda: schema.keys({"row": 1, "rowz": 2}, {"row"}, set(), "instance"), CertificateError)
    assert "'rowz'" in message and "in instance" in message and "accepted: row" in message
