"""The docs build's on-disk cache (docs/hooks/posreal_docs_cache.py) and its use by the hook: a result is
computed once for given inputs, computed again when an input file changes, reused stale only under
POSREAL_DOCS_FAST (and the page says so), and never stored when the cache is off (CI)."""

from __future__ import annotations

from pathlib import Path

import pytest
from docs_hooks import hook_module

ROOT = Path(__file__).resolve().parents[1]
HOOKS = ROOT / "docs" / "hooks"



def _tree(tmp_path: Path) -> Path:
    (tmp_path / "theory").mkdir()
    (tmp_path / "theory" / "a.py").write_text("x = 1\n")
    return tmp_path


class Counter:
    def __init__(self) -> None:
        self.calls = 0

    def __call__(self) -> str:
        self.calls += 1
        return f"result {self.calls}"


def test_a_result_is_computed_once_for_the_same_inputs(tmp_path):
    cache_mod = hook_module("posreal_docs_cache")
    root = _tree(tmp_path)
    compute = Counter()
    first = cache_mod.DiskCache(root, root / "cache")
    value, fresh = first.fetch("alpha", ("16",), compute, ("theory",))
    assert (value, fresh, compute.calls) == ("result 1", cache_mod.Freshness.COMPUTED, 1)
    again = cache_mod.DiskCache(root, root / "cache")          # the next build: a new process, the same disk
    assert again.fetch("alpha", ("16",), compute, ("theory",)) == ("result 1", cache_mod.Freshness.REUSED)
    assert compute.calls == 1
    # other arguments are another result (negative control: the key is not the name alone)
    assert again.fetch("alpha", ("32",), compute, ("theory",))[1] is cache_mod.Freshness.COMPUTED


def test_a_changed_input_file_recomputes_and_a_prose_file_does_not(tmp_path):
    cache_mod = hook_module("posreal_docs_cache")
    root = _tree(tmp_path)
    compute = Counter()
    cache_mod.DiskCache(root, root / "cache").fetch("t", (), compute, ("theory",))
    (root / "docs").mkdir()
    (root / "docs" / "page.md").write_text("prose edited\n")      # not an input: nothing recomputed
    assert cache_mod.DiskCache(root, root / "cache").fetch("t", (), compute, ("theory",))[1].value == "reused"
    (root / "theory" / "a.py").write_text("x = 2\n")
    value, fresh = cache_mod.DiskCache(root, root / "cache").fetch("t", (), compute, ("theory",))
    assert (value, fresh.value, compute.calls) == ("result 2", "computed", 2)


def test_fast_mode_reuses_a_stale_result_and_says_it_is_stale(tmp_path):
    cache_mod = hook_module("posreal_docs_cache")
    root = _tree(tmp_path)
    compute = Counter()
    cache_mod.DiskCache(root, root / "cache").fetch("t", (), compute, ("theory",))
    (root / "theory" / "a.py").write_text("x = 2\n")
    fast = cache_mod.DiskCache(root, root / "cache", fast=True)
    assert fast.fetch("t", (), compute, ("theory",)) == ("result 1", cache_mod.Freshness.STALE)
    assert compute.calls == 1
    # nothing stored for this name yet: even a fast build computes it
    assert fast.fetch("new", (), compute, ("theory",))[1] is cache_mod.Freshness.COMPUTED


def test_cache_off_stores_nothing(tmp_path, monkeypatch):
    cache_mod = hook_module("posreal_docs_cache")
    root = _tree(tmp_path)
    monkeypatch.setenv("POSREAL_DOCS_CACHE", "off")
    off = cache_mod.DiskCache.from_environment(root)
    compute = Counter()
    off.fetch("t", (), compute, ("theory",))
    off.fetch("t", (), compute, ("theory",))
    assert compute.calls == 2 and not (root / cache_mod.DEFAULT_DIR).exists()
    assert "off" in off.describe()


def test_the_default_cache_is_in_the_repository_and_ignored_by_git(monkeypatch):
    cache_mod = hook_module("posreal_docs_cache")
    monkeypatch.delenv("POSREAL_DOCS_CACHE", raising=False)
    assert cache_mod.DiskCache.from_environment(ROOT).directory == ROOT / cache_mod.DEFAULT_DIR
    assert f"/{cache_mod.DEFAULT_DIR}/" in (ROOT / ".gitignore").read_text().splitlines()


def test_ci_builds_the_docs_without_the_cache():
    script = (ROOT / ".ci" / "run").read_text()
    build = next(line for line in script.splitlines() if "mkdocs build" in line and not line.lstrip().startswith("#"))
    assert "POSREAL_DOCS_CACHE=off" in build


def test_a_page_with_a_stale_result_says_so(tmp_path, monkeypatch):
    hook = hook_module("posreal_docs")
    cache_mod = hook_module("posreal_docs_cache")
    gen = hook_module("posreal_docs_gen")
    root = _tree(tmp_path)
    calls = []
    monkeypatch.setitem(gen.GENERATORS, "fake-table", lambda: calls.append(1) or "| a |\n|---|\n| 1 |\n")
    monkeypatch.setitem(gen.INPUTS, "fake-table", ("theory",))

    class Page:
        class file:
            src_uri = "fake.md"

    page = "# Title\n\ntext\n\n<!-- posreal: fake-table -->\n"
    monkeypatch.setitem(hook._state, "cache", cache_mod.DiskCache(root, root / "cache"))
    fresh = hook.on_page_markdown(page, Page, {}, None)
    assert "Fast build" not in fresh and calls == [1]
    (root / "theory" / "a.py").write_text("x = 2\n")
    monkeypatch.setitem(hook._state, "cache", cache_mod.DiskCache(root, root / "cache", fast=True))
    stale = hook.on_page_markdown(page, Page, {}, None)
    assert calls == [1], "a fast build recomputed a stored result"
    assert stale.index("# Title") < stale.index("Fast build") < stale.index("text")
    assert "1 of its generated tables and figures" in stale
    monkeypatch.setitem(hook._state, "cache", cache_mod.DiskCache(root, root / "cache"))
    assert "Fast build" not in hook.on_page_markdown(page, Page, {}, None) and calls == [1, 1]


HOOK_FILES = sorted(HOOKS.glob("*.py"))


@pytest.mark.parametrize("path", HOOK_FILES, ids=[p.name for p in HOOK_FILES])
def test_no_docs_hook_is_over_400_lines(path):
    lines = path.read_text().count("\n")
    assert lines <= 400, f"{path.name} has {lines} lines"


def test_the_docs_hooks_are_at_most_1000_lines_together():
    """The generators of project content live in the package (``posreal ... --report``); the hooks only run them."""
    counts = {p.name: p.read_text().count("\n") for p in HOOK_FILES}
    assert len(counts) >= 5 and "posreal_docs.py" in counts     # control: the folder is the hooks' folder
    assert sum(counts.values()) <= 1000, counts


@pytest.mark.subprocess   # runs git
def test_in_a_git_checkout_ignored_artefacts_do_not_change_the_key(tmp_path):
    """Coq's caches, __pycache__ and the like are ignored by git and change no key; a new source file does
    (negative control), and the inputs a key was made of are written beside the results."""
    import shutil
    import subprocess
    if shutil.which("git") is None:
        pytest.skip("git is not installed")
    cache_mod = hook_module("posreal_docs_cache")
    root = _tree(tmp_path)
    subprocess.run(["git", "init", "-q", str(root)], check=True)
    (root / ".gitignore").write_text("*.cache\n")
    first = cache_mod.DiskCache(root, root / "cache").fingerprint(("theory",))
    (root / "theory" / ".lia.cache").write_text("coq wrote this\n")
    assert cache_mod.DiskCache(root, root / "cache").fingerprint(("theory",)) == first
    (root / "theory" / "b.py").write_text("y = 1\n")
    assert cache_mod.DiskCache(root, root / "cache").fingerprint(("theory",)) != first
    manifests = list((root / "cache" / "inputs").glob("*.txt"))
    assert manifests and any("theory/a.py" in m.read_text() for m in manifests)


def test_every_named_input_is_a_path_of_the_repository():
    """A block keyed by fewer inputs than the whole code names paths that exist: a renamed or moved module (the
    reports that moved into the package) would otherwise drop out of the key silently and leave the result stale."""
    cache_mod = hook_module("posreal_docs_cache")
    gen = hook_module("posreal_docs_gen")
    named = {path for paths in gen.INPUTS.values() for path in paths} | set(cache_mod.CODE)
    assert {"counterexamples/report.py", "theory/config_table.py", "posreal/runtime/markdown.py"} <= named
    assert [p for p in named if not (ROOT / p).exists()] == []
    assert not (ROOT / "docs/hooks/config_table.py").exists()   # control: the old place of a moved renderer
