"""The whole one-line refusals of theory/tables.py not pinned elsewhere: the accepted form written out, a general
table's row that is no list, a file over the size limit, an entry beyond the float selection's magnitude, the
arguments of register_pe and a py: PE that is not loaded — each with an accepted control."""

from __future__ import annotations

from fractions import Fraction

import pytest

from posreal.theory import tables
from posreal.theory.errors import SpecError
from posreal.theory.pe_specs import parse_pe

FORM = ('a JSON object {"kind": "relative" | "column" | "general", "rows": [...]} whose entries are numbers or '
        'rational strings such as "-1/3"')


def refusal(call) -> str:
    with pytest.raises(SpecError) as err:
        call()
    return str(err.value)


def test_a_general_row_that_is_no_list_names_the_pairs_it_must_hold():
    assert refusal(lambda: tables.parse_document({"kind": "general", "rows": [5]}, "t.json")) == (
        f"invalid feature table file 't.json': rows[0] must list ψ(0, j) for j = 0..0; accepted: {FORM}")
    assert tables.parse_document({"kind": "general", "rows": [[[5]]]}, "t.json") == ("general", [[[Fraction(5)]]])


def test_a_file_over_the_size_bound_is_refused_by_its_size(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(tables, "MAX_TABLE_BYTES", 40)
    (tmp_path / "t.json").write_text('{"kind": "relative", "rows": [[1], [2]]}', encoding="utf-8")   # 40 bytes
    assert tables.load_table("t.json").size == 2                                                      # control
    (tmp_path / "t.json").write_text('{"kind": "relative", "rows": [[1], [22]]}', encoding="utf-8")  # 41 bytes
    assert refusal(lambda: tables.load_table("t.json")) == (
        f"invalid feature table file 't.json': 41 bytes is more than the limit of 40; accepted: {FORM}")


def test_an_entry_beyond_the_selections_magnitude_is_named_with_its_position():
    big = 1.7e308
    assert refusal(lambda: tables.build_table("huge", [[0.5, 1.0], [2.0, big]], "relative")) == (
        "invalid feature table 'huge': entry [1][1] = '1.7e+308' has a magnitude above 8.988e+307, where "
        "differences of entries overflow; accepted: entries of smaller magnitude (rescale the table: α_L does "
        "not change)")
    assert tables.build_table("fine", [[0.5, 1.0], [2.0, 8.9e307]], "relative").dim(2) == 2           # control
    assert tables.build_table("exactbig", [[1], [2 ** 1100]], "relative").rational                      # rescaled


def test_register_pe_needs_exactly_one_of_table_and_psi():
    accepted = "exactly one of a feature table (table=...) and a function (psi=..., width=p)"
    assert refusal(lambda: tables.register_pe("msg_none")) == (
        f"invalid register_pe arguments 'neither table nor psi'; accepted: {accepted}")
    assert refusal(lambda: tables.register_pe("msg_both", [[1]], psi=lambda n: [[1]] * n.size, width=1)) == (
        f"invalid register_pe arguments 'table and psi'; accepted: {accepted}")
    assert tables.registered_pe("msg_none") is None and tables.registered_pe("msg_both") is None
    try:
        assert tables.register_pe("msg_one", [[1]]).dim(1) == 1                                     # control
    finally:
        tables.unregister_pe("msg_one")


def test_a_py_pe_that_is_not_loaded_says_how_to_load_it():
    assert refusal(lambda: parse_pe("py:nosuchmod:f")) == (
        "invalid PE 'py:nosuchmod:f': a py:MODULE:FUNCTION PE is not loaded; accepted: on the command line with "
        "--pe-kind and --pe-width, from Python through posreal.theory.register_pe(name, psi=f, kind=..., width=p)")
