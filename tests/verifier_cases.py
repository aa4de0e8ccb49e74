"""Shared cases of the verifier's contract tests (tests/test_verifier_*.py): the shipped certificates they
edit, the edit helpers and the accepted-forms texts, derived by hand (never pasted from a run)."""

from __future__ import annotations

import copy
import functools
from pathlib import Path
from typing import Any

import pytest

from posreal.counterexamples.certificate_writer import seal
from posreal.counterexamples.verifier.certificate import load
from posreal.counterexamples.verifier.errors import CertificateError
from posreal.counterexamples.verifier.verify import (
    CertificateReport,
    verify_document,
)
from certificate_edits import Edit, drop as _drop, put as _put  # noqa: F401  (re-exported to the tests)
from certificate_edits import certificate as _certificate

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


# ===================================================================== schema typing
class _Dict(dict):
    pass


class _Str(str):
    pass


def _designed_open_tie() -> dict:
    # offset:0 at L0 = 3 on the relative table f(0) = 0, f(1) = -e1, f(2) = -e2: the training differences
    # are z(1,1,0) = f(0) - f(1) = e1, z(2,2,0) = f(0) - f(2) = e2, z(2,2,1) = e1; θ* = (1, 1, 0).
    doc = copy.deepcopy(_certificate("open_tie_designed_log2.json"))
    assert doc["claims"]["selected"]["theta"] == ["1/1", "1/1", "0/1"]
    return doc
