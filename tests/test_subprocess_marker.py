"""Every test that starts another process carries the ``subprocess`` marker.

The mutation run (``benchmarks/mutation/mutation.py``, ``[tool.mutmut]`` in pyproject.toml) deselects
``-m subprocess``: a child ``python -m posreal`` (or a spawned pool worker) does not load mutmut's
trampolined sources, so such a test cannot judge a mutant and breaks mutmut's stats pass.  The plain
``pytest`` run still runs these tests.

A static scan (``ast``) of each test module finds the functions that start a process:

* directly: a call of ``subprocess.*`` (run, Popen, call, check_call, check_output, getoutput,
  getstatusoutput), ``os.system/popen/fork/forkpty/posix_spawn*/exec*/spawn*``, anything of
  ``multiprocessing``, ``asyncio.create_subprocess_*``, or a reference to ``sys.executable``;
* through a function or fixture of the same module (transitively), called or requested by name;
* through the package's own process-starting functions (``LIBRARY_SPAWNERS``; ``run_grid`` only
  when its ``jobs`` is not the literal 1; ``open_pool``, ``search``, ``exhaustive`` and ``run_grid``
  when given an executor other than the literal ``local(1)``).

Known limits, kept simple: helpers imported from other test modules, and the command line run
in-process with an option that starts workers (``main(["experiment", "--jobs", "2", ...])``), are
not followed; tests are top-level ``test*`` functions (the suite has no test classes).
``test_package_spawners_are_known`` keeps ``LIBRARY_SPAWNERS`` in step with the package.
"""

from __future__ import annotations

import ast
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
MARKER = "subprocess"
SUBPROCESS_CALLS = {"run", "Popen", "call", "check_call", "check_output", "getoutput", "getstatusoutput"}
OS_CALLS = {"system", "popen", "fork", "forkpty", "posix_spawn", "posix_spawnp"}
OS_PREFIXES = ("exec", "spawn")
# package functions that start a process when a test calls them (see test_package_spawners_are_known)
LIBRARY_SPAWNERS = {"cli_learned_document", "check_learned_cli",   # checks/registry_cells.py
                    "audit", "audit_file", "cached_audit",          # checks/coq.py: coqc
                    "render_svg", "blueprint"}                      # checks/blueprint.py: graphviz's dot
POOL_RUNNERS = {"run_grid"}                                         # experiment/runner.py: a pool when jobs > 1
# posreal/runtime/executors.py: a pool (or a Dask cluster) when given an executor other than local(1)
EXECUTOR_RUNNERS = {"open_pool", "search", "exhaustive", "run_grid"}
# the package functions that start a process themselves, and what a test calls to reach them
PACKAGE_DIRECT = {"cli_learned_document": "cli_learned_document, check_learned_cli",
                  "_run_coqc": "audit, audit_file, cached_audit (checks/coq.py)",
                  "coqc_version": "audit, audit_file, cached_audit (checks/coq.py)",
                  "render_svg": "render_svg, blueprint (checks/blueprint.py)",
                  "_process_pool": "run_grid(..., jobs > 1), open_pool / search / exhaustive / run_grid(executor=...)"}
PACKAGE_DIRS = ("posreal", "theory", "checks", "counterexamples", "experiment")


def _aliases(tree: ast.AST) -> dict[str, set[str]]:
    """Local names bound to the modules (and to names imported from them) that start processes."""
    out: dict[str, set[str]] = {"subprocess": set(), "os": set(), "multiprocessing": set(), "asyncio": set(),
                                "sys": set(), "from_subprocess": set(), "from_os": set()}
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                top = alias.name.split(".")[0]
                if top in out and top != "from_subprocess":
                    out[top].add(alias.asname or top)
        elif isinstance(node, ast.ImportFrom) and node.module:
            top = node.module.split(".")[0]
            for alias in node.names:
                local = alias.asname or alias.name
                if top == "subprocess" and alias.name in SUBPROCESS_CALLS:
                    out["from_subprocess"].add(local)
                elif top == "os" and (alias.name in OS_CALLS or alias.name.startswith(OS_PREFIXES)):
                    out["from_os"].add(local)
                elif top == "multiprocessing":
                    out["from_os"].add(local)       # Pool, Process, get_context: all start processes
                elif top == "sys" and alias.name == "executable":
                    out["from_os"].add(local)
    return out


def _starts_directly(node: ast.AST, names: dict[str, set[str]], library: bool = True) -> bool:
    for sub in ast.walk(node):
        if isinstance(sub, ast.Attribute) and isinstance(sub.value, ast.Name):
            base, attr = sub.value.id, sub.attr
            if base in names["sys"] and attr == "executable":
                return True
            if base in names["multiprocessing"]:
                return True
            if base in names["subprocess"] and attr in SUBPROCESS_CALLS:
                return True
            if base in names["os"] and (attr in OS_CALLS or attr.startswith(OS_PREFIXES)):
                return True
            if base in names["asyncio"] and attr.startswith("create_subprocess"):
                return True
        if isinstance(sub, ast.Name) and sub.id in names["from_subprocess"] | names["from_os"]:
            return True
        if library and isinstance(sub, ast.Call):
            func = sub.func
            called = func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else ""
            if called in LIBRARY_SPAWNERS:
                return True
            if called in POOL_RUNNERS and any(k.arg == "jobs" and not (isinstance(k.value, ast.Constant)
                                                                       and k.value.value == 1)
                                              for k in sub.keywords):
                return True
            if called in EXECUTOR_RUNNERS:
                given = [k.value for k in sub.keywords if k.arg == "executor"]
                given += sub.args[:1] if called == "open_pool" else []
                if any(not _local_one(v) for v in given):
                    return True
    return False


def _local_one(node: ast.AST) -> bool:
    """``local(1)``: the executor that computes in the calling process."""
    return (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "local"
            and len(node.args) == 1 and isinstance(node.args[0], ast.Constant) and node.args[0].value == 1)


def _is_marker(node: ast.AST) -> bool:
    """``pytest.mark.subprocess`` (bare or called)."""
    if isinstance(node, ast.Call):
        node = node.func
    return (isinstance(node, ast.Attribute) and node.attr == MARKER and isinstance(node.value, ast.Attribute)
            and node.value.attr == "mark")


def _module_marked(tree: ast.Module) -> bool:
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == "pytestmark"
                                                for t in node.targets):
            values = node.value.elts if isinstance(node.value, ast.List | ast.Tuple) else [node.value]
            if any(_is_marker(v) for v in values):
                return True
    return False


def unmarked_spawning_tests(source: str) -> list[str]:
    """Names of the module's tests that start a process (as above) without the ``subprocess`` marker."""
    tree = ast.parse(source)
    names = _aliases(tree)
    functions = {node.name: node for node in tree.body if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)}
    spawning = {name for name, node in functions.items() if _starts_directly(node, names)}
    changed = True
    while changed:   # helpers and fixtures that reach a spawning function of the module
        changed = False
        for name, node in functions.items():
            if name in spawning:
                continue
            used = {n.id for n in ast.walk(node) if isinstance(n, ast.Name)}
            requested = {a.arg for a in node.args.args + node.args.kwonlyargs}
            if (used | requested) & spawning:
                spawning.add(name)
                changed = True
    if _module_marked(tree):
        return []
    return sorted(name for name in spawning if name.startswith("test")
                  and not any(_is_marker(d) for d in functions[name].decorator_list))


def test_every_process_starting_test_is_marked():
    missing = []
    for path in sorted((ROOT / "tests").glob("*.py")):
        missing += [f"{path.name}::{name}" for name in unmarked_spawning_tests(path.read_text(encoding="utf-8"))]
    assert not missing, f"tests that start a process without @pytest.mark.{MARKER}: {missing}"


def test_the_scan_finds_unmarked_tests():
    """The guard can fail: direct calls, a helper, a fixture, an aliased import, a library spawner."""
    source = '''
import subprocess as sp
import sys
import pytest
from posreal.experiment.runner import run_grid

def helper():
    return sp.run(["true"])

@pytest.fixture
def built():
    return helper()

def test_direct():
    sp.check_output([sys.executable, "-c", "pass"])

def test_through_a_helper():
    helper()

def test_through_a_fixture(built):
    pass

def test_a_pool(tmp_path):
    run_grid(None, tmp_path, jobs=2)

def test_one_job(tmp_path):
    run_grid(None, tmp_path, jobs=1)

def test_an_executor():
    with open_pool(local(2)) as pool:
        pass

def test_a_search_on_dask(address):
    search(budget=2, executor=parse_scheduler(address))

def test_in_this_process():
    with open_pool(local(1)) as pool:
        pass

def test_the_cli_check():
    from posreal.checks.registry_cells import check_learned_cli
    check_learned_cli()

def test_a_fork():
    import os
    os.fork()

@pytest.mark.subprocess
def test_marked():
    helper()

def test_in_process():
    assert sum([1, 2]) == 3
'''
    assert unmarked_spawning_tests(source) == ["test_a_fork", "test_a_pool", "test_a_search_on_dask",
                                               "test_an_executor", "test_direct", "test_the_cli_check",
                                               "test_through_a_fixture", "test_through_a_helper"]
    assert unmarked_spawning_tests("import pytest\npytestmark = [pytest.mark.subprocess]\n" + source) == []


def test_package_spawners_are_known():
    """The package functions that start a process are the ones LIBRARY_SPAWNERS and POOL_RUNNERS cover."""
    found = set()
    for folder in PACKAGE_DIRS:
        for path in sorted((ROOT / folder).rglob("*.py")):
            tree = ast.parse(path.read_text(encoding="utf-8"))
            names = _aliases(tree)
            found |= {node.name for node in ast.walk(tree) if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
                      and _starts_directly(node, names, library=False)}
    assert found == set(PACKAGE_DIRECT), (f"functions of the package that start a process: {sorted(found)}; "
                                          "teach LIBRARY_SPAWNERS / POOL_RUNNERS what a test calls to reach a new one")


def test_the_mutation_run_deselects_the_marker():
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    markers = config["tool"]["pytest"]["ini_options"]["markers"]
    assert any(m.startswith(f"{MARKER}:") for m in markers)
    selection = config["tool"]["mutmut"]["pytest_add_cli_args_test_selection"]
    expression = selection[selection.index("-m") + 1]
    assert f"not {MARKER}" in expression and "not slow" in expression, expression
    assert not any(arg.startswith("--deselect") for arg in selection), "select by marker, not by node id"
