"""Declarations (theory/declarations.py) in this process: a toy PE family declared under a name and an alias is
found under both and refused as a clash, then removed again; and the accepted-forms texts of the errors, word for
word.  (tests/test_declarations.py runs the plugins in child processes.)"""

from __future__ import annotations

import pytest

from posreal.theory import declarations
from posreal.theory.errors import SpecError
from posreal.theory.extension import parse_extension
from posreal.theory.pe_catalogue import CatalogueEntry, Parameter


def _toy(form: str, aliases: tuple[str, ...]) -> declarations.PEFamily:
    entry = CatalogueEntry(form, "relative", "ψ(n) = [1]", (Parameter("w", "a toy width", "1"),), "θ ∈ ℝ", "no",
                           "a test's toy", None, aliases)
    return declarations.PEFamily(entry, lambda name, rest, spec: (name, rest), rank=90)


@pytest.fixture
def scratch_pes(monkeypatch: pytest.MonkeyPatch) -> None:
    """The declared PE names as now; every toy declared in the test is removed again afterwards."""
    declarations.load()
    monkeypatch.setattr(declarations._DECLARED, "pes", dict(declarations._DECLARED.pes))


# Exists because a mutant survived: declare_pe's names (the spec name and its aliases) were unchecked in-process.
def test_a_family_declared_here_is_found_under_its_name_and_alias(scratch_pes: None) -> None:
    assert declarations.pe_family("toyq") is None and declarations.pe_family("toyalias") is None   # control
    toy = _toy("toyq:w", ("toyalias:w",))
    assert declarations.declare_pe(toy) is toy
    assert declarations.pe_family("toyq") is toy and declarations.pe_family("toyalias") is toy
    assert {"toyq", "toyalias"} <= declarations.reserved_pe_names()
    assert "toyq:w (or toyalias)" in declarations.pe_forms()
    assert declarations.pe_families().count(toy) == 1                     # one family, listed once
    clash = _toy("other:w", ("toyalias",))                               # its alias is the toy's: refused whole
    with pytest.raises(SpecError, match=r"^PE name 'toyalias' is declared twice \(toyq:w and other:w\)$"):
        declarations.declare_pe(clash)
    assert declarations.pe_family("other") is None and declarations.pe_family("toyalias") is toy


# Exists because a mutant survived: the separator of the extensions' accepted-forms text was unchecked.
def test_the_extension_forms_text_is_the_declared_forms_comma_separated() -> None:
    forms = [form for kind in declarations.transfer_types() for form in kind.forms]
    assert forms[:3] == ["none", "pi", "ntk"] and "hf:PATH" in forms               # the built-ins, in rank order
    text = declarations.extension_forms()
    assert text == ", ".join(forms) + "; 'posreal extensions' lists them"
    assert text.startswith("none, pi, ntk, ntk:S, yarn, yarn:S, linear:S, ")
    with pytest.raises(SpecError) as err:                                 # the text a bad extension spec shows
        parse_extension("bogus")
    assert str(err.value) == f"invalid extension 'bogus'; accepted: {text}"


def test_the_task_forms_text_ends_with_the_dual_form() -> None:
    text = declarations.task_forms()
    assert text.startswith("offset:c (c an integer >= 0), position:p (p an integer >= 0), copy, ")
    assert text.endswith(", dual:TASK") and text.count("dual:TASK") == 1
