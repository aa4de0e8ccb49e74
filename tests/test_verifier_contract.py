"""Contract of the certificate verifier (counterexamples/verifier): its observable behaviour, pinned.

What is pinned, each against values derived by hand in the test (never pasted from a run):

* every refusal of :mod:`verify` and :mod:`schema` — a shipped certificate (read with the verifier's own
  ``load``), deep-copied, edited to trigger exactly that refusal and re-sealed with ``seal``; a malformed
  certificate is pinned by its complete one-line message (which names the JSON path), a refuted one by
  its complete list of failed checks (so no other check fails), a not-checkable one by its note;
* the top level: format, version, kind, digest, bundles (size, names ``bundle#n``), the wrapping of a
  stray exception into a one-line error, the evidence note, ``overall``;
* schema typing: ``typed`` per JSON kind (int is never bool, float or Fraction; dict/str subclasses such as
  OrderedDict are objects/strings), ``keys`` (missing before unknown, sorted, the accepted list), and the
  canonical rationals of ``unq``/``unqvec``;
* the work budget: ``planned_work`` for small instances by its formulas, and ``not checkable`` when a
  budget (entries, elimination steps, product bits) is patched one below the planned work, ``verified``
  exactly at it;
* :mod:`qla`: echelon, rank, in_span, transpose on small rational matrices (rank-deficient, zero rows and
  columns, empty and zero-width matrices);
* :mod:`exact_model`: rows and targets of every task kind, ψ of every rational PE kind and of embedded
  tables (relative, column, general, sheared), dimension, training pairs, differences, spec errors.
"""

from __future__ import annotations

import copy
import functools
import json
import re
from collections import OrderedDict
from collections.abc import Callable
from fractions import Fraction as F
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from posreal.counterexamples.verifier import exact_model as em
from posreal.counterexamples.verifier import qla, schema
from posreal.counterexamples.verifier import verify as verifier
from posreal.counterexamples.certificate_writer import seal
from posreal.counterexamples.verifier.certificate import load, unq, unqvec
from posreal.counterexamples.verifier.errors import CertificateError
from posreal.counterexamples.verifier.verify import (
    NOT_CHECKABLE,
    REFUTED,
    VERIFIED,
    CertificateReport,
    overall,
    planned_work,
    verify_certificate,
    verify_document,
    verify_file,
)
from posreal.theory.errors import quote
from certificate_edits import certificate as _certificate, message as _message, resealed as _resealed

CERT_DIR = Path(__file__).resolve().parents[1] / "counterexamples" / "certificates"
# alibi, position:0, L0 = 4, L = 8, row 4, target 0; θ* = (-1), support [1, 0, 1] with λ = 1
STATIC = "static_alibi_position_0.json"
# column table T = (0,-1,-1), (1,-1,1), (1,0,0), (-1,-1,0); reverse, L0 = 3, L = 4, row 3, target 0, rival 3
DYNAMIC = "dynamic_cxc0x130_reverse.json"
# general table, dual PE; reverse, L0 = 3, L = 4
GENERAL = "dynamic_dual_cxg0x1355_reverse.json"
# relative table f = 0, -e1, -e2, (-1,1,-1); offset:0, L0 = 3, L = 4, row 3, target 3, rival 0
OPEN = "open_tie_designed_log2.json"

RATIONAL_FORMS = "accepted: a string 'p/q' in lowest terms (q > 0, zero as '0/1', at most 200 digits each)"
PE_FORMS = ("nope, clipped[:D] (or relbias[:D]), colbias[:D], slope (or alibi), dual:PE, or the name of an "
            "embedded table")   # relbias and alibi: the older names of clipped and slope (both accepted)
TASK_FORMS = "offset:c, position:p, copy, middle, reverse, half, dual:TASK"
EVIDENCE_NOTE = "float evidence (log-time gradient flow) is reported, not verified"

Edit = Callable[[dict], None]


@functools.cache
def _loaded(name: str) -> dict:
    return load(CERT_DIR / name)


def _shipped(name: str) -> dict:
    return copy.deepcopy(_loaded(name))


def _sealed(doc: dict) -> dict:
    return seal({k: v for k, v in doc.items() if k not in ("format", "version", "digest")})


def _edited(name: str, *edits: Edit) -> dict:
    doc = _shipped(name)
    for edit in edits:
        edit(doc)
    return _sealed(doc)


def _put(*path_and_value: Any) -> Edit:
    *path, value = path_and_value

    def edit(doc: dict) -> None:
        node = doc
        for key in path[:-1]:
            node = node[key]
        node[path[-1]] = copy.deepcopy(value)
    return edit


def _drop(*path: Any) -> Edit:
    def edit(doc: dict) -> None:
        node = doc
        for key in path[:-1]:
            node = node[key]
        del node[path[-1]]
    return edit


def _refusal(doc: dict, name: str = "c") -> str:
    with pytest.raises(CertificateError) as err:
        verify_document(doc, name)
    return str(err.value)


def _one(doc: dict) -> CertificateReport:
    (verdict,) = verify_document(doc, "c")
    return verdict


def _support(*entries: tuple[list[int], str]) -> list[dict]:
    return [{"pair": pair, "lambda": lam} for pair, lam in entries]


ONEHOT_TABLE = {"onehot0": {"kind": "column", "rows": [["1/1"], ["0/1"], ["0/1"], ["0/1"]]}}


def _onehot_static(doc: dict) -> None:
    """ψ(i, j) = T[j] with T = (1, 0, 0, 0), position:0 at L0 = 2: the one pair (1, 0, 1) has z = 1, so θ* = 1
    with λ = 1; row 3 has kernel (1, 0, 0, 0), margin 1, and Ψ_3 = e_0 = e_t: rank Ψ = rank [Ψ | e_t] = 1."""
    doc["instance"].update(pe="onehot0", train_length=2, length=4, row=3, target=0, tables=copy.deepcopy(ONEHOT_TABLE))
    doc["claims"].update(selected={"theta": ["1/1"], "support": _support(([1, 0, 1], "1/1"))}, margin="1/1",
                         rank_features=1, rank_augmented=1)


# ===================================================================== refusals: malformed (one-line errors)
def _prediction(field: str, value: Any) -> Edit:
    return _put("claims", "rivals", 0, "prediction", field, value)


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


# ===================================================================== top level, bundles, wrapping, notes
@pytest.mark.parametrize("field, value, message", [
    ("format", "posreal-certificate-bundle-x", "malformed certificate c: format 'posreal-certificate-bundle-x'; "
                                               "accepted: 'posreal-certificate'"),
    ("format", None, "malformed certificate c: format None; accepted: 'posreal-certificate'"),
    ("version", 1.0, "malformed certificate c: version 1.0; accepted: the integer 1"),
    ("version", True, "malformed certificate c: version True; accepted: the integer 1"),
    ("kind", "static", "malformed certificate c: kind 'static'; accepted: static-colspan, dynamic-colspan, open-tie, "
                       "residual-levels, symmetric-tie"),
    ("kind", ["open-tie"], "malformed certificate c: kind ['open-tie']; accepted: static-colspan, dynamic-colspan, "
                           "open-tie, residual-levels, symmetric-tie"),
    ("digest", 5, "malformed certificate: digest = 5; accepted: a string"),
])
def test_header_fields_are_refused_after_sealing(field: str, value: Any, message: str) -> None:
    doc = _sealed(_shipped(STATIC))
    doc[field] = value
    assert _refusal(doc) == message


def test_a_missing_kind_is_refused_before_the_schema() -> None:
    doc = _sealed(_shipped(STATIC))
    del doc["kind"], doc["claims"]
    assert _refusal(doc) == ("malformed certificate c: kind None; accepted: static-colspan, dynamic-colspan, open-tie, "
                             "residual-levels, symmetric-tie")


def test_a_kind_swapped_for_another_is_refused_by_the_schema_of_that_kind() -> None:
    doc = _shipped(STATIC)
    doc["kind"] = "open-tie"
    assert _refusal(_sealed(doc)) == "malformed certificate: claims lacks alpha, rivals"


def test_bundles_name_each_certificate_and_bound_their_size(monkeypatch: pytest.MonkeyPatch) -> None:
    good = _sealed(_shipped(STATIC))
    bundle = {"format": "posreal-certificate-bundle", "version": 1, "certificates": [good, good]}
    verdicts = verify_document(bundle, "b")
    assert [(v.verdict, v.name) for v in verdicts] == [(VERIFIED, "b#0"), (VERIFIED, "b#1")]
    monkeypatch.setattr(verifier, "MAX_BUNDLE", 2)
    assert len(verify_document(bundle, "b")) == 2                    # exactly at the limit
    monkeypatch.setattr(verifier, "MAX_BUNDLE", 1)
    assert _refusal(bundle, "b") == "malformed bundle b: 2 certificates; accepted: 1 to 1"
    assert _refusal({**bundle, "certificates": []}, "b") == "malformed bundle b: 0 certificates; accepted: 1 to 1"
    assert _refusal({**bundle, "certificates": [7]}, "b") == \
        "malformed certificate b#0: format None; accepted: 'posreal-certificate'"
    assert _refusal({"format": "posreal-certificate-bundle"}, "b") == \
        "malformed certificate: bundle b lacks certificates, version"
    assert _refusal({**bundle, "certificates": {}}, "b") == \
        "malformed certificate: bundle certificates = {}; accepted: a list"


def test_overall_outcome_ranks_refuted_over_not_checkable_over_verified() -> None:
    def verdicts(*outcomes: Any) -> list[CertificateReport]:
        return [CertificateReport(o, f"v{n}") for n, o in enumerate(outcomes)]

    assert overall([]) == VERIFIED
    assert overall(verdicts(VERIFIED, VERIFIED)) == VERIFIED
    assert overall(verdicts(VERIFIED, NOT_CHECKABLE)) == NOT_CHECKABLE
    assert overall(verdicts(NOT_CHECKABLE, REFUTED, VERIFIED)) == REFUTED
    assert verifier.EXIT_CODES == {VERIFIED: 0, REFUTED: 1, NOT_CHECKABLE: 3}
    assert CertificateReport(REFUTED, "n", ["f"], ["c"], ["x"]).to_json() == {
        "verdict": "refuted", "name": "n", "failures": ["f"], "checked": ["c"], "notes": ["x"]}


@pytest.mark.parametrize("error, message", [
    (KeyError("x"), "malformed certificate c: KeyError \"'x'\""),
    (IndexError("list index out of range"), "malformed certificate c: IndexError 'list index out of range'"),
    (TypeError("bad"), "malformed certificate c: TypeError 'bad'"),
    (ZeroDivisionError("division by zero"), "malformed certificate c: ZeroDivisionError 'division by zero'"),
    (CertificateError("its own message"), "its own message"),
])
def test_a_stray_error_in_the_checks_is_one_malformed_line(monkeypatch: pytest.MonkeyPatch, error: Exception,
                                                           message: str) -> None:
    def fail(*args: Any) -> None:
        raise error

    monkeypatch.setitem(verifier._KIND_CHECKS, "static-colspan", fail)
    assert _refusal(_sealed(_shipped(STATIC))) == message


def test_not_checkable_from_the_checks_is_a_verdict_with_the_note(monkeypatch: pytest.MonkeyPatch) -> None:
    def fail(*args: Any) -> None:
        raise em.NotCheckable("too much")

    monkeypatch.setitem(verifier._KIND_CHECKS, "open-tie", fail)
    verdict = _one(_sealed(_shipped(OPEN)))
    assert (verdict.verdict, verdict.name, verdict.failures, verdict.checked, verdict.notes) == \
        (NOT_CHECKABLE, "c", [], [], ["too much"])


def test_irrational_pe_is_not_checkable_with_its_note() -> None:
    verdict = _one(_edited(STATIC, _put("instance", "pe", "dual:rope:8")))
    assert verdict.verdict == NOT_CHECKABLE and verdict.failures == []
    assert verdict.notes == [f"PE 'dual:rope:8' has irrational features; the fractions-only verifier accepts "
                             f"{PE_FORMS}"]


@pytest.mark.parametrize("evidence, notes", [(None, []), ({}, []), ({"flow": []}, [EVIDENCE_NOTE])])
def test_the_evidence_note_is_attached_only_to_non_empty_evidence(evidence: Any, notes: list[str]) -> None:
    doc = _shipped(DYNAMIC)
    doc.pop("evidence")
    if evidence is not None:
        doc["evidence"] = evidence
    verdict = _one(_sealed(doc))
    assert (verdict.verdict, verdict.notes) == (VERIFIED, notes)


def test_verify_file_names_the_verdict_after_the_file(tmp_path: Path) -> None:
    path = tmp_path / "mine.json"
    path.write_text((CERT_DIR / OPEN).read_text(encoding="utf-8"), encoding="utf-8")
    (verdict,) = verify_file(path)
    assert (verdict.verdict, verdict.name) == (VERIFIED, "mine.json")


# ===================================================================== schema typing
class _Dict(dict):
    pass


class _Str(str):
    pass


@pytest.mark.parametrize("value, kind", [
    (3, int), (0, int), (-7, int), (True, bool), (False, bool), ("1/2", str), (_Str("x"), str), ([], list),
    ([1, "a"], list), ({}, dict), (OrderedDict(a=1), dict), (_Dict(a=1), dict), (3, (int, str)), ("3", (int, str)),
    (False, (bool, dict)),
])
def test_typed_accepts_the_json_kind_and_returns_the_value(value: Any, kind: Any) -> None:
    assert schema.typed(value, kind, "w") is value


@pytest.mark.parametrize("value, kind, accepted", [
    (True, int, "an integer"), (False, int, "an integer"), (3.0, int, "an integer"), ("3", int, "an integer"),
    (F(3), int, "an integer"), (1, bool, "true or false"), (None, bool, "true or false"), (3, str, "a string"),
    (b"3", str, "a string"), ((1,), list, "a list"), ({}, list, "a list"), ([], dict, "an object"),
    (None, (int, str), "an integer or a string"), (True, (int, list), "an integer or a list"), (1, float, "float"),
    (1, F, "Fraction"),
])
def test_typed_refuses_other_json_kinds_naming_what_is_accepted(value: Any, kind: Any, accepted: str) -> None:
    with pytest.raises(CertificateError) as err:
        schema.typed(value, kind, "a.b[0]")
    assert str(err.value) == f"malformed certificate: a.b[0] = {value!r}; accepted: {accepted}"


def test_keys_returns_the_object_and_reports_missing_before_unknown_fields() -> None:
    obj = {"a": 1, "b": 2}
    assert schema.keys(obj, {"a"}, {"b", "c"}, "w") is obj
    ordered = OrderedDict(a=1)
    assert schema.keys(ordered, {"a"}, set(), "w") is ordered
    cases = [
        (({}, {"b", "a"}, set()), "malformed certificate: w lacks a, b"),
        (({"z": 1}, {"a"}, set()), "malformed certificate: w lacks a"),
        (({"a": 1, "y": 1, "x": 1}, {"a"}, {"b"}), "malformed certificate: unknown field 'x' in w; accepted: a, b"),
        (({"a": 1, 7: 1}, {"a"}, set()), "malformed certificate: unknown field '7' in w; accepted: a"),
        ((["a"], {"a"}, set()), "malformed certificate: w = ['a']; accepted: an object"),
    ]
    for (value, required, optional), message in cases:
        with pytest.raises(CertificateError) as err:
            schema.keys(value, required, optional, "w")
        assert str(err.value) == message


def test_a_certificate_read_into_dict_subclasses_verifies() -> None:
    def convert(node: Any) -> Any:
        if isinstance(node, dict):
            return _Dict({k: convert(v) for k, v in node.items()})
        if isinstance(node, list):
            return [convert(v) for v in node]
        return _Str(node) if isinstance(node, str) else node

    assert _one(convert(_shipped(OPEN))).verdict == VERIFIED


@pytest.mark.parametrize("text, value", [
    ("0/1", F(0)), ("-3/4", F(-3, 4)), ("7/1", F(7)), ("1/" + "9" * 200, F(1, 10 ** 200 - 1)),
    ("-" + "9" * 200 + "/1", F(1 - 10 ** 200)), (_Str("1/2"), F(1, 2)),
    # exists because a mutant survived: the longest canonical spelling (402 characters: sign, 200 + 200 digits)
    ("-" + "9" * 200 + "/" + "9" * 199 + "8", F(1 - 10 ** 200, 10 ** 200 - 2)),
])
def test_unq_accepts_the_canonical_spelling(text: str, value: F) -> None:
    assert unq(text, "w") == value


@pytest.mark.parametrize("text", ["2/4", "0/2", "1/0", "1/-2", "+1/2", "1", "1.5/1", " 1/2", "01/2", "1/02",
                                  "١/2", "", 1, None, F(1, 2), ["1/2"], "1/" + "1" * 202, "1" * 202 + "/1",
                                  # the limit is exact (201 digits passed before), and zero has one spelling
                                  "1/" + "1" * 201, "1" * 201 + "/1", "-" + "1" * 201 + "/1", "-0/1", "-0/3"])
def test_unq_refuses_every_other_spelling(text: Any) -> None:
    with pytest.raises(CertificateError) as err:
        unq(text, "x.y[2]")
    assert str(err.value).endswith(f" at x.y[2]; {RATIONAL_FORMS}")
    assert str(err.value).startswith("invalid rational ")


def test_unqvec_parses_a_list_and_names_the_bad_index() -> None:
    assert unqvec(["1/2", "0/1"], "w") == (F(1, 2), F(0))
    assert unqvec([], "w") == ()
    with pytest.raises(CertificateError) as err:
        unqvec(["1/2", "2/4"], "w")
    assert str(err.value) == f"invalid rational '2/4' at w[1]; {RATIONAL_FORMS}"
    with pytest.raises(CertificateError) as err:
        unqvec(("1/2",), "w")
    assert str(err.value) == "invalid vector ('1/2',) at w; accepted: a list of 'p/q' strings"


# ===================================================================== the work budget
def _widths(**tables: int) -> dict:
    return {name: {"kind": "column", "rows": [], "width": width} for name, width in tables.items()}


@pytest.mark.parametrize("pe, task, train_length, length, tables, expected", [
    # column width p = 3, reverse: R_3 = {2} (pairs 2), R_4 = {2, 3} (keys 3 + 4): entries 2·3·9,
    # elimination 2·(2 + 2)·3·min(4, 3)
    ("t", "reverse", 3, 4, _widths(t=3), (2 * 3 * (2 + 7), 2 * 4 * 3 * 3)),
    # the sheared table has the same width; dual:reverse scores the same rows
    ("dual:t", "dual:reverse", 3, 4, _widths(t=3), (2 * 3 * (2 + 7), 2 * 4 * 3 * 3)),
    # relbias:9, p = 10, copy: R_2 = {1} (pairs 1), R_3 = {1, 2} (keys 2 + 3): min(pairs + 2, p) = 3
    ("relbias:9", "copy", 2, 3, {}, (2 * 10 * (1 + 5), 2 * 3 * 10 * 3)),
    # nope has p = 0, counted as 1; position:1: R_3 = {1, 2} (pairs 3), R_5 = {1, ..., 4} (keys 2 + 3 + 4 + 5)
    ("nope", "position:1", 3, 5, {}, (2 * 1 * (3 + 14), 2 * 5 * 1 * 1)),
    # a task scoring no row: no pairs, no keys, the elimination of the two extra rows only
    ("alibi", "offset:9", 3, 5, {}, (0, 2 * 2 * 1 * 1)),
])
def test_planned_work_by_hand(pe: str, task: str, train_length: int, length: int, tables: dict,
                              expected: tuple[int, int]) -> None:
    assert planned_work(pe, task, train_length, length, tables) == expected


def test_the_entry_budget_refuses_one_below_the_planned_work_and_passes_at_it(monkeypatch: pytest.MonkeyPatch) -> None:
    doc = _sealed(_shipped(DYNAMIC))
    entries, elimination = 2 * 3 * (2 + 7), 2 * 4 * 3 * 3          # as in test_planned_work_by_hand
    monkeypatch.setattr(verifier, "MAX_ENTRIES", entries - 1)
    verdict = _one(doc)
    assert (verdict.verdict, verdict.failures, verdict.checked) == (NOT_CHECKABLE, [], [])
    assert verdict.notes == [f"the instance needs about {entries} fraction entries and {elimination} elimination "
                             f"steps; the verifier's budget is {entries - 1} and 50000000"]
    monkeypatch.setattr(verifier, "MAX_ENTRIES", entries)
    assert _one(doc).verdict == VERIFIED


@pytest.mark.parametrize("pe", ["relbias:", "colbias:", "dual:relbias:"])
def test_a_bucket_pe_with_an_empty_parameter_is_refused_as_theory_parse_pe_does(pe: str) -> None:
    """``relbias:`` was read as ``relbias`` (default D) by the verifier while ``posreal`` refuses the spec."""
    from posreal.theory.pe_specs import parse_pe
    from posreal.theory.errors import SpecError

    with pytest.raises(SpecError):
        parse_pe(pe)
    base = pe.removeprefix("dual:")
    for build in (lambda: em.dimension(pe, 4), lambda: em.feature(pe, 2, 1, 4)):
        with pytest.raises(CertificateError, match=rf"^invalid PE {re.escape(repr(pe))}; accepted: "):
            build()
    assert em.dimension(base.rstrip(":"), 4) == 4                   # the spec without the colon: D = L0 - 1


def test_every_multiplicity_is_type_checked_even_after_a_wrong_count() -> None:
    """[3, "x"]: the first count is wrong (it is 2), and the second is no integer: the certificate is malformed
    (before, the check stopped at the first wrong count and the certificate came out refuted); control: [3, 1]
    is well typed and refuted by the count."""
    wrong_then_bad = _edited(OPEN, lambda d: d["claims"]["rivals"][0]["prediction"].update(multiplicities=[3, "x"]))
    with pytest.raises(CertificateError, match=r"multiplicities\[1\]"):
        _one(wrong_then_bad)
    wrong = _one(_edited(OPEN, lambda d: d["claims"]["rivals"][0]["prediction"].update(multiplicities=[3, 1])))
    assert wrong.verdict == REFUTED and any("multiplicities of the support differences are [2, 1]" in f
                                            for f in wrong.failures)


def test_a_failure_found_before_the_budget_stops_checking_refutes(monkeypatch: pytest.MonkeyPatch) -> None:
    """The digest is checked first: an edit after sealing refutes the certificate even when the budget then stops
    the other checks (it came out "not checkable" before, losing the failure); control: the unedited certificate
    under the same budget is "not checkable"."""
    entries, elimination = 2 * 3 * (2 + 7), 2 * 4 * 3 * 3          # as in test_planned_work_by_hand
    monkeypatch.setattr(verifier, "MAX_ENTRIES", entries - 1)
    edited = _sealed(_shipped(DYNAMIC))
    last = edited["digest"][-1]
    edited["digest"] = edited["digest"][:-1] + ("0" if last != "0" else "1")     # as if the content changed
    verdict = _one(edited)
    budget = (f"the instance needs about {entries} fraction entries and {elimination} elimination steps; "
              f"the verifier's budget is {entries - 1} and 50000000")
    assert verdict.verdict == REFUTED
    assert verdict.failures == ["digest matches the content (no edit after sealing)"]
    assert verdict.notes == [f"the remaining claims were not checked: {budget}"]
    assert _one(_sealed(_shipped(DYNAMIC))).verdict == NOT_CHECKABLE


def test_the_elimination_budget_refuses_one_below_the_planned_work_and_passes_at_it(
        monkeypatch: pytest.MonkeyPatch) -> None:
    doc = _sealed(_shipped(DYNAMIC))
    entries, elimination = 54, 72
    monkeypatch.setattr(verifier, "MAX_ELIMINATION", elimination - 1)
    verdict = _one(doc)
    assert verdict.verdict == NOT_CHECKABLE
    assert verdict.notes == [f"the instance needs about {entries} fraction entries and {elimination} elimination "
                             f"steps; the verifier's budget is 2000000 and {elimination - 1}"]
    monkeypatch.setattr(verifier, "MAX_ELIMINATION", elimination)
    assert _one(doc).verdict == VERIFIED


def test_the_maximum_length_is_accepted_then_budgeted() -> None:
    """L = 4096 passes the length check and is refused by the budget: alibi, position:0 at L0 = 4 needs
    2·(6 + 4096·4097/2) entries (L = 4097 is malformed, test above)."""
    verdict = _one(_edited(STATIC, _put("instance", "length", 4096)))
    entries = 2 * (6 + 4096 * 4097 // 2)
    assert verdict.verdict == NOT_CHECKABLE
    assert verdict.notes == [f"the instance needs about {entries} fraction entries and 16 elimination steps; the "
                             "verifier's budget is 2000000 and 50000000"]


def test_the_product_budget_refuses_one_bit_below_and_passes_at_it(monkeypatch: pytest.MonkeyPatch) -> None:
    """The designed prediction multiplies (2/1)^1 · (1/1)^-1: 1·(2 + 1) + 1·(1 + 1) = 5 bits."""
    doc = _sealed(_shipped(OPEN))
    monkeypatch.setattr(verifier, "MAX_PRODUCT_BITS", 4)
    verdict = _one(doc)
    assert (verdict.verdict, verdict.notes) == (NOT_CHECKABLE, [
        "the prediction's exact product needs about 5 bits; the verifier's budget is 4 (coefficients too large)"])
    monkeypatch.setattr(verifier, "MAX_PRODUCT_BITS", 5)
    assert _one(doc).verdict == VERIFIED


@pytest.mark.parametrize("factors, sign", [
    ([], 0), ([(F(2), 1)], 1), ([(F(1, 2), 1)], -1), ([(F(2), 1), (F(1, 2), 1)], 0),
    ([(F(3, 2), 2), (F(2), -1)], 1),                     # 9/4 / 2 = 9/8
    ([(F(2, 3), -1)], 1), ([(F(3, 2), -3), (F(4, 3), 1)], -1),  # 8/27 · 4/3 = 32/81
    ([(F(4, 9), 1), (F(3, 2), 2)], 0), ([(F(5), 0)], 0),
])
def test_product_sign_is_exact(factors: list[tuple[F, int]], sign: int) -> None:
    assert verifier._product_sign(factors) == sign


def test_product_sign_budget_counts_bits_of_numerators_and_denominators(monkeypatch: pytest.MonkeyPatch) -> None:
    factors = [(F(3, 2), 2), (F(1, 4), -1)]              # 2·(2 + 2) + 1·(1 + 3) = 12 bits
    monkeypatch.setattr(verifier, "MAX_PRODUCT_BITS", 12)
    assert verifier._product_sign(factors) == 1          # 9/4 · 4 = 9
    monkeypatch.setattr(verifier, "MAX_PRODUCT_BITS", 11)
    with pytest.raises(em.NotCheckable) as err:
        verifier._product_sign(factors)
    assert str(err.value) == ("the prediction's exact product needs about 12 bits; the verifier's budget is 11 "
                              "(coefficients too large)")


def test_margin_and_gcd_helpers() -> None:
    assert verifier._margin([F(1), F(3), F(2)], 1) == 1
    assert verifier._margin([F(1), F(3), F(3)], 2) == 0
    assert verifier._margin([F(0), F(-1)], 1) == -1
    assert verifier._margin([F(5)], 0) is None
    assert [verifier._gcd(12, 18), verifier._gcd(18, 12), verifier._gcd(5, 0), verifier._gcd(0, 7)] == [6, 6, 5, 7]


# ===================================================================== qla
def test_echelon_eliminates_below_each_pivot_in_order() -> None:
    # [[2, 1], [1, 3]]: pivot (2, 1), then (1, 3) - 1/2 (2, 1) = (0, 5/2)
    assert qla.echelon([[2, 1], [1, 3]]) == [[F(2), F(1)], [F(0), F(5, 2)]]
    # the pivot is the first row with a non-zero entry in the column; rows with a zero there are kept as they are
    assert qla.echelon([[0, 1], [3, 0]]) == [[F(3), F(0)], [F(0), F(1)]]
    # a zero first column is skipped; the dependent row vanishes
    assert qla.echelon([[0, 1, 2], [0, 2, 4], [0, 0, 1]]) == [[F(0), F(1), F(2)], [F(0), F(0), F(1)]]
    rows = [[1, 2], [2, 4]]
    assert qla.echelon(rows) == [[F(1), F(2)]] and rows == [[1, 2], [2, 4]]      # the input is not modified
    assert all(type(x) is F for row in qla.echelon([[1, 2], [3, 5]]) for x in row)


@pytest.mark.parametrize("rows, rank", [
    ([], 0), ([[]], 0), ([[], []], 0), ([[0, 0, 0]], 0), ([[0], [0]], 0), ([[F(1, 3)]], 1),
    ([[1, 2], [2, 4]], 1), ([[1, 2], [2, 4], [0, 0]], 1), ([[1, 0], [0, 1], [1, 1]], 2),
    ([[1, 2, 3], [4, 5, 6], [7, 8, 9]], 2), ([[1, 2, 3], [4, 5, 6], [7, 8, 10]], 3),
    ([[F(1, 2), F(1, 3)], [F(3, 2), 1]], 1), ([[0, 0, 1], [0, 1, 0], [1, 0, 0]], 3), ([[1, 1, 1, 1]], 1),
])
def test_rank_of_small_rational_matrices(rows: list, rank: int) -> None:
    assert qla.rank(rows) == rank
    transposed = [list(column) for column in zip(*rows)]
    assert qla.rank(transposed) == (rank if rows and rows[0] else 0)


# Exists because a mutant survived: the refusal of a projection onto a dependent basis was never read.
def test_projection_onto_a_dependent_basis_is_refused_by_name() -> None:
    # P x onto span{(1, 1)} is (1/2)(1, 1) for x = e1; with (2, 2) added the Gram matrix is singular: refused
    assert qla.project([[1, 1]], [1, 0]) == ([F(1, 2)], [F(1, 2), F(1, 2)])
    with pytest.raises(ValueError, match="^projection onto a dependent basis$"):
        qla.project([[1, 1], [2, 2]], [1, 0])


# Exists because a mutant survived: the empty system (no equations, no unknowns) was never solved.
@pytest.mark.parametrize("a, b, x", [
    ([], [], []), ([[2]], [3], [F(3, 2)]), ([[1, 1], [1, -1]], [3, 1], [F(2), F(1)]),
    ([[1, 0], [0, 1], [1, 1]], [1, 2, 3], [F(1), F(2)]), ([[1, 0], [0, 1], [1, 1]], [1, 2, 4], None),
    ([[1, 1], [2, 2]], [1, 2], None), ([[0, 1]], [1], None),
])
def test_solve_gives_the_unique_solution_or_none(a: list, b: list, x: list | None) -> None:
    """Unique: the empty system's is [] (the solution of 0 equations in 0 unknowns); inconsistent or
    underdetermined: None."""
    assert qla.solve(a, b) == x


# ===================================================================== exact_model
@pytest.mark.parametrize("task, n, rows", [
    ("copy", 5, [(2, 0), (3, 1), (4, 2)]), ("copy", 4, [(2, 0), (3, 1)]), ("copy", 1, [(0, 0)]),
    ("middle", 5, [(2, 2), (3, 2), (4, 2)]), ("reverse", 5, [(3, 1), (4, 0)]), ("reverse", 4, [(2, 1), (3, 0)]),
    ("reverse", 1, []),                                   # rows i > n - 1 - i only: none on the 1-grid
    ("half", 4, [(0, 0), (1, 0), (2, 1), (3, 1)]), ("offset:0", 3, [(0, 0), (1, 1), (2, 2)]),
    ("offset:2", 4, [(2, 0), (3, 1)]), ("offset:5", 4, []), ("position:1", 3, [(1, 1), (2, 1)]),
    ("position:000000003", 4, [(3, 3)]), ("dual:position:1", 3, [(1, 0), (2, 1)]), ("dual:copy", 4, [(2, 2), (3, 2)]),
    ("dual:dual:copy", 4, [(2, 0), (3, 1)]), ("dual:" * 64 + "half", 3, [(0, 0), (1, 0), (2, 1)]),
])
def test_rows_and_targets_of_each_task_kind(task: str, n: int, rows: list[tuple[int, int]]) -> None:
    assert em.rows_and_targets(task, n) == rows


@pytest.mark.parametrize("task, message", [
    ("Copy", f"invalid task 'Copy'; accepted: {TASK_FORMS}"),
    ("offset:", f"invalid task 'offset:'; accepted: {TASK_FORMS}"),
    ("dual:offset", f"invalid task 'dual:offset'; accepted: {TASK_FORMS}"),
    ("offset:-1", f"invalid task 'offset:-1'; accepted: {TASK_FORMS} (integer parameters: at most 9 ASCII digits)"),
    ("position:1234567890", f"invalid task 'position:1234567890'; accepted: {TASK_FORMS} (integer parameters: "
                            "at most 9 ASCII digits)"),
    ("position:١", f"invalid task 'position:١'; accepted: {TASK_FORMS} (integer parameters: at most 9 ASCII digits)"),
    (5, f"invalid task 5; accepted: {TASK_FORMS}"),
    ("dual:" * 65 + "copy", f"invalid task '{'dual:' * 16}'… ({5 * 65 + 4} characters); accepted: {TASK_FORMS}, with "
                            "at most 64 nested dual: prefixes"),
])
def test_task_spec_errors(task: Any, message: str) -> None:
    with pytest.raises(CertificateError) as err:
        em.rows_and_targets(task, 4)
    assert str(err.value) == message


def test_a_spec_longer_than_512_characters_is_refused_before_counting_shears() -> None:
    assert em.shear_parity("x" * 512, "PE", "forms") == (0, "x" * 512)
    with pytest.raises(CertificateError) as err:
        em.shear_parity("x" * 513, "PE", "forms")
    assert str(err.value) == f"invalid PE {'x' * 80!r}… (513 characters); accepted: forms"
    assert em.shear_parity("dual:dual:dual:alibi", "PE", "f") == (1, "alibi")
    assert em.shear_parity("dualalibi", "PE", "f") == (0, "dualalibi")


TABLES = {
    "rel": {"kind": "relative", "rows": [(F(1), F(0)), (F(2), F(-1)), (F(3), F(1, 2))], "width": 2},
    "col": {"kind": "column", "rows": [(F(5),), (F(6),), (F(7),)], "width": 1},
    "gen": {"kind": "general", "rows": [[(F(1),)], [(F(2),), (F(3),)], [(F(4),), (F(5),), (F(6),)]], "width": 1},
    "alibi": {"kind": "column", "rows": [(F(9),), (F(8),), (F(7),)], "width": 1},
}


@pytest.mark.parametrize("pe, i, j, psi", [
    ("nope", 3, 1, ()), ("alibi", 3, 1, (F(-2),)), ("alibi", 2, 2, (F(0),)), ("dual:alibi", 3, 1, (F(-1),)),
    ("relbias:2", 3, 0, (F(0), F(0), F(1))), ("relbias:2", 3, 2, (F(0), F(1), F(0))), ("relbias:0", 5, 1, (F(1),)),
    ("relbias", 2, 0, (F(0), F(0), F(1), F(0))),          # D = L0 - 1 = 3 at L0 = 4
    ("relbias", 6, 0, (F(0), F(0), F(0), F(1))), ("colbias:1", 3, 0, (F(1), F(0))), ("colbias:1", 3, 2, (F(0), F(1))),
    ("dual:colbias:1", 3, 3, (F(1), F(0))), ("dual:relbias:2", 3, 3, (F(0), F(0), F(1))),
    ("rel", 2, 0, (F(3), F(1, 2))), ("rel", 2, 2, (F(1), F(0))), ("dual:rel", 2, 0, (F(1), F(0))),
    ("col", 2, 1, (F(6),)), ("dual:col", 2, 0, (F(7),)), ("gen", 2, 1, (F(5),)), ("dual:gen", 2, 0, (F(6),)),
    ("alibi", 2, 0, (F(-2),)),
])
def test_feature_of_each_pe_kind(pe: str, i: int, j: int, psi: tuple) -> None:
    tables = TABLES if pe.removeprefix("dual:") in ("rel", "col", "gen") else None
    assert em.feature(pe, i, j, 4, tables) == psi


def test_an_embedded_table_shadows_a_builtin_name() -> None:
    assert em.feature("alibi", 2, 0, 4, TABLES) == (F(9),)
    assert em.dimension("alibi", 4, TABLES) == 1 and em.dimension("rel", 4, TABLES) == 2


@pytest.mark.parametrize("pe, train_length, p", [
    ("nope", 4, 0), ("alibi", 4, 1), ("dual:alibi", 4, 1), ("relbias:3", 9, 4), ("relbias", 6, 6),
    ("colbias:0", 4, 1), ("dual:colbias", 2, 2), ("relbias:000000007", 2, 8),
])
def test_dimension_from_the_spec(pe: str, train_length: int, p: int) -> None:
    assert em.dimension(pe, train_length) == p
    assert len(em.feature(pe, train_length - 1, 0, train_length)) == p


@pytest.mark.parametrize("pe, train_length, error, message", [
    ("sinus", 4, CertificateError, f"invalid PE 'sinus'; accepted: {PE_FORMS}"),
    ("rope:4", 4, em.NotCheckable, f"PE 'rope:4' has irrational features; the fractions-only verifier accepts "
                                   f"{PE_FORMS}"),
    ("dual:learned:3", 4, em.NotCheckable, f"PE 'dual:learned:3' has irrational features; the fractions-only verifier "
                                           f"accepts {PE_FORMS}"),
    ("abscol", 4, em.NotCheckable, f"PE 'abscol' has irrational features; the fractions-only verifier accepts "
                                   f"{PE_FORMS}"),
    ("relbias:x", 4, CertificateError, f"invalid PE 'relbias:x'; accepted: {PE_FORMS} (integer parameters: at "
                                       "most 9 ASCII digits)"),
    ("relbias", 0, CertificateError, "invalid train length 0; accepted: an integer >= 1"),
])
def test_pe_spec_errors(pe: str, train_length: int, error: type, message: str) -> None:
    with pytest.raises(error) as err:
        em.dimension(pe, train_length)
    assert str(err.value) == message
    with pytest.raises(error) as err:
        em.feature(pe, 1, 0, train_length)
    assert str(err.value) == message


def test_training_pairs_differences_and_dot() -> None:
    # position:0 at L0 = 3: rows 1 and 2, target 0, every other key
    assert em.training_pairs("position:0", 3) == [(1, 0, 1), (2, 0, 1), (2, 0, 2)]
    assert em.training_pairs("offset:0", 1) == [] and em.training_pairs("reverse", 2) == [(1, 0, 1)]
    # alibi: z = ψ(i, t) - ψ(i, j) = -(i - t) + (i - j) = t - j
    assert [em.difference("alibi", i, t, j, 3) for i, t, j in em.training_pairs("position:0", 3)] == \
        [(F(-1),), (F(-1),), (F(-2),)]
    assert em.difference("relbias:1", 2, 2, 0, 3) == (F(1), F(-1))
    assert em.difference("nope", 2, 2, 0, 3) == ()
    assert em.dot((F(1, 2), F(3)), (F(4), F(-1, 3))) == F(1) and em.dot((), ()) == 0
    assert type(em.dot((), ())) is F


def _designed_open_tie() -> dict:
    # offset:0 at L0 = 3 on the relative table f(0) = 0, f(1) = -e1, f(2) = -e2: the training differences
    # are z(1,1,0) = f(0) - f(1) = e1, z(2,2,0) = f(0) - f(2) = e2, z(2,2,1) = e1; θ* = (1, 1, 0).
    doc = copy.deepcopy(_certificate("open_tie_designed_log2.json"))
    assert doc["claims"]["selected"]["theta"] == ["1/1", "1/1", "0/1"]
    return doc


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
def test_row_on_the_last_line_of_the_grid_is_the_limit():
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


# ------------------------------------------------------------------------- the exact model and its PE errors
def test_feature_is_psi_of_the_row_at_every_key():
    """ψ(i, j) of the exact model; for alibi ψ(i, j) = -(i - j), so row 2 is [(-2,), (-1,), (0,)]."""
    assert [em.feature("alibi", 2, j, 4) for j in range(3)] == [(F(-2),), (F(-1),), (F(0),)]
    # relbias:1 at L0 = 4 is the one-hot of min(i - j, 1) in width 2
    assert [em.feature("relbias:1", 2, j, 4) for j in range(3)] == [(F(0), F(1)), (F(0), F(1)), (F(1), F(0))]


# Exists because a mutant survived: dot could truncate to the shorter vector.
def test_dot_refuses_vectors_of_different_widths():
    assert em.dot((F(1), F(2)), (F(3), F(-1, 2))) == F(2)
    with pytest.raises(ValueError):
        em.dot((F(1), F(2)), (F(1),))                            # never truncated to the shorter vector


# Exists because a mutant survived: _gradient_at_zero could truncate features wider than the dimension.
def test_gradient_at_zero_refuses_features_narrower_than_the_dimension():
    """zip(..., strict=True) refuses a ψ of width 2 against a claimed dimension 1 (a zip that is not
    strict would silently truncate the gradient to width 1)."""
    inst = SimpleNamespace(task="copy", L0=2, dim=lambda: 1, psi=lambda i, j: (F(i - j), F(j)))
    with pytest.raises(ValueError):
        verifier._gradient_at_zero(inst)  # type: ignore[arg-type]


# Exists because a mutant survived: an instance without tables could be malformed.
def test_instance_without_tables_has_none():
    """An absent ``tables`` key means no tables, not a malformed null."""
    assert verifier._tables({}) == {}
    assert verifier._tables({"pe": "alibi"}) == {}


# Exists because a mutant survived: the exact model's errors could name another argument than the PE.
def test_model_errors_name_the_pe():
    assert _message(lambda: em.dimension("dual:" * 65 + "nope", 4), CertificateError).startswith("invalid PE '")
    assert _message(lambda: em.dimension(5, 4), CertificateError) == (
        "invalid PE 5; accepted: nope, clipped[:D] (or relbias[:D]), colbias[:D], slope (or alibi), dual:PE, or the "
        "name of an embedded table")


# Exists because a mutant survived: feature's error could name another argument.
def test_feature_error_names_the_pe_argument():
    """The error for a non-string PE says ``invalid PE``."""
    with pytest.raises(CertificateError) as err:
        em.feature(123, 0, 0, 4)  # type: ignore[arg-type]
    assert str(err.value) == f"invalid PE {quote(123)}; accepted: {em.PE_FORMS}"


# Exists because a mutant survived: the error for too many dual: prefixes could drop the PE forms.
def test_too_deep_dual_pe_error_lists_the_pe_forms() -> None:
    """The first reader of the instance's PE (the table-size check) refuses 65 nested ``dual:``
    prefixes with the accepted PE forms, not ``None``."""
    doc = _certificate("dynamic_cxc0x130_reverse.json")
    pe = "dual:" * (em.MAX_DUAL_DEPTH + 1) + doc["instance"]["pe"]
    doc["instance"]["pe"] = pe
    text = _message(lambda: verify_document(_resealed(doc)), CertificateError)
    assert text == (f"invalid PE {quote(pe)}; accepted: {em.PE_FORMS}, with at most {em.MAX_DUAL_DEPTH} "
                    "nested dual: prefixes")
