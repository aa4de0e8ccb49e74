"""The import layers of the package (read from the source, every import, lazy ones included): no import cycle
between modules; the theory imports only itself and the runtime; the runtime imports of posreal only the theory's
two standard-library leaf modules (errors, modes); checks, counterexamples and experiment never import each other
or the command line.  Each rule is also run on a planted graph that breaks it (the controls)."""

from __future__ import annotations

import ast
import os
from collections.abc import Mapping
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
RUNTIME_MAY_IMPORT = {"posreal.theory.errors", "posreal.theory.modes"}
SIBLINGS = ("posreal.checks", "posreal.counterexamples", "posreal.experiment")
ABOVE_ALL = ("posreal.cli", "posreal.commands", "posreal.__main__")


def _modules() -> dict[str, Path]:
    """Every module of the package, named as Python imports it (the symlinked subpackages followed)."""
    found: dict[str, Path] = {}
    for folder, _, names in os.walk(ROOT / "posreal", followlinks=True):
        for name in names:
            if name.endswith(".py"):
                parts = list((Path(folder) / name).relative_to(ROOT).with_suffix("").parts)
                if parts[-1] == "__init__":
                    parts.pop()
                found[".".join(parts)] = Path(folder) / name
    return found


MODULES = _modules()


def _imports(name: str, path: Path) -> set[str]:
    """The posreal modules that ``name`` imports anywhere in its source (top level, functions, TYPE_CHECKING)."""
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names |= {f"{node.module}.{a.name}" if f"{node.module}.{a.name}" in MODULES else node.module
                      for a in node.names}
    return {n for n in names if n in MODULES and n != name}


GRAPH = {name: _imports(name, path) for name, path in MODULES.items()}


def cycles(graph: Mapping[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan's algorithm, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    for root in graph:
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, edges = work[-1]
            nxt = next((w for w in edges if w not in index or w in on_stack), None)
            if nxt is not None and nxt not in index:
                index[nxt] = low[nxt] = len(index)
                stack.append(nxt)
                on_stack.add(nxt)
                work.append((nxt, iter(sorted(graph.get(nxt, ())))))
                continue
            if nxt is not None:
                low[node] = min(low[node], index[nxt])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    found.append(sorted(component))
    return found


def layer_breaches(graph: Mapping[str, set[str]]) -> list[tuple[str, str]]:
    """Every import that points up or sideways across the layers named in the module docstring."""
    breaches = []
    for module, targets in graph.items():
        for target in sorted(targets):
            if module.startswith("posreal.theory") and not target.startswith(("posreal.theory", "posreal.runtime")):
                breaches.append((module, target))
            elif module.startswith("posreal.runtime") and not (target.startswith("posreal.runtime")
                                                                or target in RUNTIME_MAY_IMPORT):
                breaches.append((module, target))
            elif module.startswith(SIBLINGS) and target.startswith(SIBLINGS + ABOVE_ALL) and \
                    target.split(".")[1] != module.split(".")[1]:
                breaches.append((module, target))
    return breaches


def test_the_module_list_reaches_every_layer():
    for prefix in ("posreal.theory.alpha", "posreal.runtime.resources", "posreal.plots", "posreal.checks.runner",
                   "posreal.counterexamples.verifier", "posreal.experiment.runner", "posreal.cli"):
        assert prefix in MODULES, prefix
    assert "posreal.theory.errors" in GRAPH["posreal.runtime.resources"]   # the reader sees the imports


def test_no_import_cycle_between_modules():
    assert cycles(GRAPH) == []


def test_no_import_crosses_a_layer():
    assert layer_breaches(GRAPH) == []


@pytest.mark.parametrize("planted", [
    {"a": {"b"}, "b": {"c"}, "c": {"a"}},
    {"a": {"a", "b"}, "b": {"a"}},
])
def test_control_a_planted_cycle_is_found(planted):
    assert cycles(planted) != []


def test_control_the_package_with_one_planted_cycle_has_it():
    planted = {m: set(t) for m, t in GRAPH.items()}
    planted["posreal.theory.errors"].add("posreal.theory.alpha")
    assert any("posreal.theory.errors" in c and "posreal.theory.alpha" in c for c in cycles(planted))


@pytest.mark.parametrize("module,target", [
    ("posreal.theory.alpha", "posreal.plots"),
    ("posreal.theory.alpha", "posreal.checks.runner"),
    ("posreal.runtime.resources", "posreal.theory.alpha"),
    ("posreal.checks.runner", "posreal.counterexamples.verifier"),
    ("posreal.experiment.runner", "posreal.cli"),
])
def test_control_a_planted_layer_breach_is_found(module, target):
    planted = {m: set(t) for m, t in GRAPH.items()}
    planted[module].add(target)
    assert layer_breaches(planted) == [(module, target)]
