"""User-facing text: whole API summaries and no internal tracker words.

* Every name of the public API (``posreal.theory.__all__``) has a docstring, and its first line — the
  summary the API pages and ``help()`` show — is a whole sentence ending with a full stop; so is the
  first line of every documented public method or property of an exported class.
* The same holds for everything the API pages of ``posreal.checks``, ``posreal.counterexamples`` and
  ``posreal.experiment`` list (mkdocstrings with ``show_submodules``): every module of each package, found
  by walking it with pkgutil, and each module's public functions and classes (names without a leading
  ``_``, defined in that module rather than imported) with their public methods and properties.  Here
  every one of them must have a docstring; a dataclass's generated ``Name(field: type, ...)`` text does
  not count as one (the API pages show no docstring for it).
* A short list of words that belong to the project's tracker, not to its documentation ("issue",
  "session", "turn 4", "TODO", "FIXME") occurs in no prose of the docs pages (``docs/``, ``docs/api/``,
  ``docs/results/``; code blocks and inline code are skipped) and in no public docstring (of
  ``posreal.theory`` and of the three subpackages above).

Each check has its negative control: the same reading flags a summary cut mid-sentence, a missing
docstring, a dataclass's generated text and a tracker word placed in prose (but not in code); the walk is
shown to reach a module two levels down and the methods and properties of a submodule's class.
"""

from __future__ import annotations

import importlib
import inspect
import pkgutil
import re
from collections.abc import Iterator
from types import ModuleType
from pathlib import Path

import pytest

import posreal.theory as theory

ROOT = Path(__file__).resolve().parents[1]
PAGES = [p for folder in ("", "api", "results") for p in sorted((ROOT / "docs" / folder).glob("*.md"))]
TRACKER = re.compile(r"\b(issues?|sessions?|turn \d+|TODO|FIXME|XXX)\b", re.IGNORECASE)


def public_members() -> Iterator[tuple[str, object]]:
    """(qualified name, object) of every exported name and of the public methods and properties defined
    in the exported classes."""
    for name in theory.__all__:
        value = getattr(theory, name)
        yield name, value
        if inspect.isclass(value):
            for attr, member in vars(value).items():
                if not attr.startswith("_") and (inspect.isfunction(member) or isinstance(member, property)):
                    yield f"{name}.{attr}", member


SUBPACKAGES = ("posreal.checks", "posreal.counterexamples", "posreal.experiment")
# A module whose import needs an optional dependency that is not installed is skipped, and only then: the
# two-layer experiment (experiment.two_layer_*) needs jax, the ``experiment`` extra.
OPTIONAL_DEPENDENCIES = ("jax", "jaxlib")


def submodules(package: str) -> Iterator[ModuleType]:
    """The package and every module below it (pkgutil's walk), public names only."""
    root = importlib.import_module(package)
    yield root
    for info in pkgutil.walk_packages(root.__path__, package + "."):
        if any(part.startswith("_") for part in info.name.split(".")):
            continue
        try:
            yield importlib.import_module(info.name)
        except ModuleNotFoundError as error:
            if (error.name or "").split(".")[0] not in OPTIONAL_DEPENDENCIES:
                raise
            SKIPPED[info.name] = f"needs the optional dependency {error.name}"


SKIPPED: dict[str, str] = {}


def module_members(module: ModuleType) -> Iterator[tuple[str, object]]:
    """(qualified name, object) of the module, of its public functions and classes defined in it, and of the
    public methods and properties defined in those classes."""
    yield module.__name__, module
    for name, value in vars(module).items():
        # defined here by a def or class statement of that name: not imported, and not a value a factory made
        if name.startswith("_") or getattr(value, "__module__", None) != module.__name__ \
                or getattr(value, "__name__", None) != name:
            continue
        if not (inspect.isfunction(value) or inspect.isclass(value)):
            continue
        yield f"{module.__name__}.{name}", value
        if inspect.isclass(value):
            for attr, member in vars(value).items():
                if not attr.startswith("_") and (inspect.isfunction(member) or
                                                 isinstance(member, (property, staticmethod, classmethod))):
                    yield f"{module.__name__}.{name}.{attr}", member


def subpackage_members() -> Iterator[tuple[str, object]]:
    for package in SUBPACKAGES:
        for module in submodules(package):
            yield from module_members(module)


def docstring(obj: object) -> str:
    if isinstance(obj, property):
        obj = obj.fget
    elif isinstance(obj, (staticmethod, classmethod)):
        obj = obj.__func__
    text = inspect.cleandoc(getattr(obj, "__doc__", None) or "")
    if inspect.isclass(obj) and "__doc__" in vars(obj) and text.startswith(f"{obj.__name__}("):
        return ""   # the text @dataclass generates from the signature when the class has no docstring
    return text


def summary_problem(name: str, obj: object, required: bool) -> str | None:
    """Why the summary of ``obj`` is not a whole sentence (None when it is)."""
    text = docstring(obj)
    if not text:
        return f"{name}: no docstring" if required else None
    first = text.splitlines()[0].rstrip()
    if not first.endswith((".", ".)")):
        return f"{name}: summary cut mid-sentence: {first!r}"
    return None


def test_every_public_name_has_a_whole_sentence_summary():
    problems = [p for name, obj in public_members()
                if (p := summary_problem(name, obj, required="." not in name)) is not None]
    assert problems == []


def test_every_member_of_the_api_pages_has_a_whole_sentence_summary():
    members = dict(subpackage_members())
    problems = [p for name, obj in members.items() if (p := summary_problem(name, obj, required=True)) is not None]
    assert problems == []
    assert set(SKIPPED) <= {f"posreal.experiment.{m}" for m in ("two_layer_grid", "two_layer_model",
                                                                  "two_layer_summary")}, SKIPPED


def test_the_walk_reaches_submodules_and_their_members():
    names = dict(subpackage_members())
    # a module two levels down, a function of a sub-subpackage, a method and a property of a dataclass
    assert "posreal.checks.smt.ceiling" in names
    assert "posreal.counterexamples.verifier.qla.solve" in names
    assert "posreal.checks.runner.ClaimReport.verdict" in names
    assert "posreal.experiment.grid.Grid.size" in names
    # an imported name is not listed under the importing module
    assert "posreal.checks.runner.dataclass" not in names


def test_a_generated_dataclass_text_is_no_docstring():
    from dataclasses import dataclass

    @dataclass
    class Bare:
        x: int

    @dataclass
    class Told:
        """One x."""

        x: int

    assert summary_problem("Bare", Bare, True) == "Bare: no docstring"
    assert summary_problem("Told", Told, True) is None


def test_taxonomy_used_by_the_tutorial_is_public():
    import importlib
    module = importlib.import_module("posreal.theory.taxonomy")   # the submodule of the same name, directly
    from posreal.theory import taxonomy
    assert "taxonomy" in theory.__all__ and taxonomy is module.taxonomy and callable(taxonomy)
    tutorial = (ROOT / "docs" / "tutorial.md").read_text(encoding="utf-8")
    imported = set(re.findall(r"from posreal\.theory(?:\.\w+)? import (\w+)", tutorial))
    assert "taxonomy" in imported


def test_the_summary_reading_flags_a_cut_summary_and_a_missing_docstring():
    def cut():
        """α_L at each length: the rows of R_L decided under T_L θ*, each with
        its margin."""

    def whole():
        """α_L at each length.

        The rows of R_L decided under T_L θ*."""

    def bare():
        pass

    assert summary_problem("cut", cut, True) is not None
    assert summary_problem("bare", bare, True) is not None
    assert summary_problem("whole", whole, True) is None


# ----------------------------------------------------------------------------- tracker words
def prose(markdown: str) -> str:
    """The text of a Markdown page without fenced code blocks and inline code."""
    text = re.sub(r"^(```|~~~).*?^\1", "", markdown, flags=re.MULTILINE | re.DOTALL)
    return re.sub(r"`[^`\n]*`", "", text)


def tracker_words(text: str) -> list[str]:
    return [m.group(0) for m in TRACKER.finditer(text)]


@pytest.mark.parametrize("page", PAGES, ids=lambda p: str(p.relative_to(ROOT)))
def test_no_tracker_word_in_the_prose_of_a_docs_page(page: Path):
    assert tracker_words(prose(page.read_text(encoding="utf-8"))) == []


def test_no_tracker_word_in_a_public_docstring():
    found = {name: words for name, obj in (*public_members(), *subpackage_members())
             if (words := tracker_words(docstring(obj)))}
    assert found == {}


def test_the_tracker_reading_finds_a_word_in_prose_but_not_in_code():
    page = "Some prose.\n\n```python\n# TODO: in code\n```\n\nInline `issue` code, and then an issue in prose.\n"
    assert tracker_words(prose(page)) == ["issue"]
    assert tracker_words("as decided in turn 4 of the session") == ["turn 4", "session"]
    assert PAGES and all(p.is_file() for p in PAGES)
