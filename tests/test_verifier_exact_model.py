"""Contract of the certificate verifier (counterexamples/verifier):
exact_model: rows and targets of every task, ψ of every rational PE kind and embedded tables, errors.

Each case is derived by hand in the test, never pasted from a run (tests/verifier_cases.py holds the shared
edits and certificates)."""

from __future__ import annotations

from fractions import Fraction as F
from types import SimpleNamespace
from typing import Any

import pytest

from posreal.counterexamples.verifier import exact_model as em
from posreal.counterexamples.verifier import verify as verifier
from posreal.counterexamples.verifier.errors import CertificateError
from posreal.counterexamples.verifier.verify import (
    verify_document,
)
from posreal.theory.errors import quote
from certificate_edits import certificate as _certificate, message as _message, resealed as _resealed
from verifier_cases import (PE_FORMS, TASK_FORMS)


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
