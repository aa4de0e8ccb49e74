"""A check declares its claim where it is defined (posreal.checks.declare): the decorator registers it under its
module, the runner finds it with no other file edited, and bad declarations fail at import with one line."""

from __future__ import annotations

import sys
import textwrap

import pytest

import posreal.checks as checks_package
from posreal.checks import declare, runner
from posreal.checks.base import CheckResult
from posreal.theory.errors import SpecError


def test_the_decorator_declares_the_function_under_its_module(monkeypatch):
    monkeypatch.setattr(declare, "_DECLARED", {})

    @declare.claim_check("theorem2", "registry", "a stand-in check")
    def stand_in() -> CheckResult:
        return CheckResult("theorem2", "a stand-in check", "registry", "passed", None)

    (check,) = declare.declared_in(__name__)
    assert (check.claim, check.method, check.label, check.slow) == ("theorem2", "registry", "a stand-in check", False)
    assert check.run is stand_in and stand_in().ok        # the function itself is unchanged


def test_unknown_claim_method_or_a_twice_declared_label_is_refused(monkeypatch):
    monkeypatch.setattr(declare, "_DECLARED", {})
    with pytest.raises(SpecError, match="claim id"):
        declare.claim_check("theorem3", "registry", "x")
    with pytest.raises(ValueError, match="unknown check method 'proof'"):
        declare.claim_check("theorem2", "proof", "x")
    declare.claim_check("theorem2", "registry", "x")(lambda: None)
    with pytest.raises(ValueError, match="twice"):
        declare.claim_check("theorem2", "registry", "x")(lambda: None)


def test_every_engine_check_is_found_by_the_runner():
    """The symbolic, registry, training, dynamics, escape, geometry, extension, property and Coq checks: all come
    from declarations, and every registered check is one of them (besides the SMT package's)."""
    declared, missing = declare.declared_checks()
    assert missing == {}
    table, _ = runner.declared_checks()
    registered = {(c.claim, c.method, c.label) for checks in table.values() for c in checks if c.method != "smt"}
    from_declarations = {(c.claim, c.method, c.label) for c in declared}
    smt_table_enumeration = {k for k in registered if k[1] == "smt" or k[2] == "check_static_routing"}
    assert registered - smt_table_enumeration == from_declarations
    modules = {c.run.__module__ for c in declared if hasattr(c.run, "__module__")}
    assert {"posreal.checks.symbolic", "posreal.checks.escape_checks", "posreal.checks.geometry_checks",
            "posreal.checks.extension_checks", "posreal.checks.training_checks"} <= modules


def test_a_new_check_module_is_found_with_no_other_file_edited(tmp_path, monkeypatch):
    """A module written at test time into the checks package declares a check: the runner runs it."""
    module_dir = tmp_path / "extra"
    module_dir.mkdir()
    (module_dir / "toy_checks.py").write_text(textwrap.dedent('''
        from posreal.checks.base import CheckResult
        from posreal.checks.declare import claim_check

        @claim_check("theorem2", "registry", "toy check written at test time")
        def toy() -> CheckResult:
            return CheckResult("theorem2", "toy check written at test time", "registry", "passed", None)
    '''), encoding="utf-8")
    monkeypatch.setattr(checks_package, "__path__", [*checks_package.__path__, str(module_dir)])
    monkeypatch.setattr(runner, "_smt_checks", lambda choice=None: ([], ""))
    try:
        table, _ = runner.declared_checks()
        toy = [c for c in table["theorem2"] if c.label == "toy check written at test time"]
        assert len(toy) == 1 and toy[0].method == "registry"
    finally:
        sys.modules.pop("posreal.checks.toy_checks", None)
        declare._DECLARED.pop("posreal.checks.toy_checks", None)


# Recorded from the runner's tables before the checks declared their claims (commit ff94147): moving the
# registration must not change which checks `posreal check --json` lists for which claim (only their order).
METHODS_BEFORE = {
    "theorem1": {"coq", "property", "symbolic", "training"}, "theorem2": {"coq", "property", "registry", "smt"},
    "proposition4": {"coq", "property", "registry", "smt"},
    "underdetermination": {"coq", "property", "registry", "smt"},
    "expressivity": {"coq", "smt"}, "conjecture": {"property", "symbolic"},
    "conjecture-limit": {"dynamics", "property", "symbolic"}, "geometry": {"property", "registry"},
    "extension": {"coq", "property", "registry", "smt"}, "escape-depth": {"enumeration", "property", "smt"},
    "escape-content": {"property", "smt"}, "escape-induction": {"property", "registry", "smt"}}
CHECKS_BEFORE = 76
# added since: E4 registered as a claim, checked by enumeration and symbolically; E1-E3 kernel-checked in Coq
ADDED = {"escape-averaging": {"enumeration", "symbolic"}}
KERNEL_CHECKED_SINCE = ("escape-depth", "escape-content", "escape-induction")


def test_the_claims_and_methods_are_those_declared_before():
    table, note = runner.declared_checks()
    assert note == ""
    expected = {**METHODS_BEFORE, **ADDED}
    expected.update({cid: expected[cid] | {"coq"} for cid in KERNEL_CHECKED_SINCE})
    assert {cid: {c.method for c in checks} for cid, checks in table.items()} == expected
    assert sum(len(checks) for checks in table.values()) == (CHECKS_BEFORE + sum(len(m) for m in ADDED.values())
                                                             + len(KERNEL_CHECKED_SINCE))


def test_a_new_smt_module_is_found_by_its_claim(tmp_path, monkeypatch):
    """An SMT-package module written at test time with CLAIM and checks(choice) joins its claim's SMT checks."""
    import posreal.checks.smt as smt
    module_dir = tmp_path / "smt_extra"
    module_dir.mkdir()
    (module_dir / "toy_smt.py").write_text(textwrap.dedent('''
        from posreal.checks.base import CheckResult, SolverChoice

        CLAIM = "escape-content"

        def toy_smt_check() -> CheckResult:
            return CheckResult(CLAIM, "toy", "smt", "proved", "counterexample")

        def checks(choice=SolverChoice.BOTH):
            return [toy_smt_check]
    '''), encoding="utf-8")
    monkeypatch.setattr(smt, "__path__", [*smt.__path__, str(module_dir)])
    try:
        names = [fn.__name__ for fn in smt.smt_checks()["escape-content"]]
        assert names[-1] == "toy_smt_check" and len(names) > 1
    finally:
        sys.modules.pop("posreal.checks.smt.toy_smt", None)
