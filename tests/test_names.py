"""One word, one idea (definitions.md#names): the code's identifiers use "registry", "limit", "certificate",
"witness" and "transfer" only in the meaning the Names table gives them.

Every git-tracked Python file is parsed; its names (variables, arguments, keywords, attributes, functions, classes,
imports) and its module name are split into lower-case words, and each banned combination below fails the test
with the place it occurs.  Each rule has a planted control: a small source whose banned identifier the scan must
report.  Strings are not scanned (JSON keys kept readable for one version are strings; so are messages pinned by
the golden outputs).
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


@dataclass(frozen=True)
class Banned:
    """Identifiers whose words say ``word`` in a meaning the Names table gives to another word."""

    word: str
    pattern: str          # regex on the identifier's words joined by "_" (lower case)
    meaning: str          # the idea the identifier names, and the word it takes
    control: str          # a source line the scan must refuse

    def hits(self, words: str) -> bool:
        return re.search(self.pattern, words) is not None


BANNED = (
    Banned("registry", r"(^|_)registered_checks?(_|$)|(^|_)registers_(its_)?checks?(_|$)|"
                       r"(^|_)declarations?_registry(_|$)|(^|_)registry_of_(checks|declarations)(_|$)",
           "a claim check is declared (DeclaredCheck, declared_checks)",
           "class RegisteredCheck: pass"),
    Banned("limit", r"(^|_)(memory|time|work|byte|bytes|size|depth|digit|count|entry|length|axis|row|"
                    r"file|spec|integer|y)_limits?(_|$)|(^|_)limits?_(memory|time|s|gib|bytes)(_|$)",
           "input sizes are bounds, memory and time are budgets, a plot has a range",
           "MEMORY_LIMIT = 3 * 2 ** 30"),
    Banned("certificate", r"(^|_)(kkt|farkas|lp|optimality|exact)_certificates?(_|$)|"
                          r"(^|_)certificates?_of_the_(empty_)?program(_|$)|(^|_)without_certificate(_|$)",
           "KKT/Farkas data are the selection's evidence, an LP's are its optimality data",
           "def _finish_without_certificate(): pass"),
    Banned("witness", r"(^|_)witness(es|ed)?(_|$)",
           "only the residual levels' S+ / S0 witnesses, which the code names by their levels (interior, farkas)",
           "def compute_witnesses(): pass"),
    Banned("transfer", r"(^|_)transfers_where(_|$)|(^|_)transfer_learning(_|$)|(^|_)data_transfer(_|$)",
           "carrying over is not T_L",
           "def test_linf_witness_transfers_where_the_l2_one_does_not(): pass"),
)

# The allowed residual-level witnesses: the levels' S+ interior point and S0 Farkas-type vector (definitions.md,
# section "residual levels"), which keep the word in these modules only.
WITNESS_HOMES = ("theory/levels.py", "counterexamples/verifier/", "tests/test_levels")


def words(name: str) -> str:
    """``RegisteredCheck`` -> ``registered_check``; ``MEMORY_LIMIT`` -> ``memory_limit``."""
    spaced = re.sub(r"(?<=[a-z0-9])(?=[A-Z])", "_", name)
    return re.sub(r"_+", "_", spaced.lower()).strip("_") if name.strip("_") else name


def identifiers(source: str) -> list[tuple[int, str]]:
    """(line, identifier) of every name the source defines or uses (not its strings)."""
    out: list[tuple[int, str]] = []
    for node in ast.walk(ast.parse(source)):
        line = getattr(node, "lineno", 0)
        if isinstance(node, ast.Name):
            out.append((line, node.id))
        elif isinstance(node, ast.Attribute):
            out.append((line, node.attr))
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            out.append((line, node.name))
        elif isinstance(node, ast.arg):
            out.append((line, node.arg))
        elif isinstance(node, ast.keyword) and node.arg:
            out.append((line, node.arg))
        elif isinstance(node, ast.alias):
            out.extend((line, part) for name in (node.name, node.asname or "") for part in name.split(".") if part)
    return out


def violations(path: str, source: str) -> list[str]:
    """``path:line: identifier (word: what it means instead)`` for each banned identifier of ``source``."""
    found = []
    module = Path(path).stem
    for line, name in [(0, module), *identifiers(source)]:
        w = words(name)
        for rule in BANNED:
            if rule.word == "witness" and path.startswith(WITNESS_HOMES):
                continue
            if rule.hits(w):
                found.append(f"{path}:{line}: {name} ({rule.word}: {rule.meaning})")
    return found


FOLDERS = ("theory", "checks", "counterexamples", "experiment", "posreal", "tests", "docs", "benchmarks", "examples")


def python_files() -> list[str]:
    """The repository's Python files, each once (posreal/'s symlinks to the top-level folders are not followed;
    this test's own controls excepted)."""
    found = set()
    for folder in FOLDERS:
        for path in (ROOT / folder).rglob("*.py"):
            rel = path.relative_to(ROOT)
            if any((ROOT / Path(*rel.parts[:k])).is_symlink() for k in range(1, len(rel.parts) + 1)):
                continue
            if "__pycache__" not in rel.parts and rel.as_posix() != "tests/test_names.py":
                found.add(rel.as_posix())
    return sorted(found)


def test_the_code_uses_each_word_in_its_one_meaning():
    """No identifier of the repository uses a word of the Names table in another meaning."""
    files = python_files()
    assert len(files) > 100                       # the scan saw the repository, not an empty list
    found = [v for p in files for v in violations(p, (ROOT / p).read_text(encoding="utf-8"))]
    assert found == [], "identifiers against definitions.md#names:\n" + "\n".join(found)


@pytest.mark.parametrize("rule", BANNED, ids=lambda r: r.word)
def test_each_rule_catches_its_planted_control(rule):
    """Control: the planted identifier of each rule is reported, under that rule's word."""
    found = violations("theory/planted.py", rule.control + "\n")
    assert any(f"({rule.word}:" in v for v in found), found


@pytest.mark.parametrize("source", ["REGISTRY_PES = ()", "REGISTRY_CHECKS = ()", "limit = True",
                                    "def limit_interval(): pass",
                                    "def verify_certificate(): pass", "class CertificateError(Exception): pass",
                                    "def transfer(): pass", "TransferType = None", "def register_pe(): pass",
                                    "MAX_LIMIT_LENGTH = 4096", "def open_tie_limit(): pass"])
def test_the_chosen_meanings_pass(source):
    """The table's own uses (the registry PEs, α♯, a certificate file, T_L, a user PE's name) are not reported."""
    assert violations("theory/planted.py", source + "\n") == []


def test_a_module_name_is_scanned_and_the_residual_levels_keep_their_witness():
    """A module named for a banned use is reported; the residual levels' witness in its home module is not."""
    assert violations("experiment/witnesses.py", "x = 1\n")
    assert violations("theory/levels.py", "def check_witness(): pass\n") == []
    assert violations("theory/faces.py", "def check_witness(): pass\n")
