"""The tutorial page (docs/tutorial.md) runs, and what its prose says about the results holds.

The blocks run exactly as the docs build runs them (``docs/hooks/tutorial_exec.run_blocks``: in order,
one namespace, a scratch working directory); the build inserts their output into the page.  The
assertions below check the page's sentences against the computed values, so a change in the code that
makes the prose wrong fails here.
"""

from __future__ import annotations

import importlib
import sys
from fractions import Fraction
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PAGE = ROOT / "docs" / "tutorial.md"


def _executor():
    sys.path.insert(0, str(ROOT / "docs" / "hooks"))
    try:
        return importlib.import_module("tutorial_exec")
    finally:
        sys.path.remove(str(ROOT / "docs" / "hooks"))


@pytest.fixture(scope="module")
def tutorial():
    ex = _executor()
    namespace: dict = {}
    runs = ex.run_blocks(PAGE.read_text(encoding="utf-8"), "tutorial.md", namespace)
    return ex, runs, namespace


def test_every_block_runs_and_prints(tutorial):
    _, runs, _ = tutorial
    assert len(runs) == 4
    assert all(run.output.strip() for run in runs)


def test_comparison_covers_every_task_and_says_what_the_prose_says(tutorial):
    from posreal.theory.defaults import REGISTRY_TASKS
    _, _, ns = tutorial
    pes, alpha = ns["PES"], ns["alpha"]
    assert (ns["L0"], ns["L"]) == (32, 1024)
    assert set(alpha) == {(spec, task) for spec in pes.values() for task in REGISTRY_TASKS}
    assert pes == {"RoPE": "rope:16", "T5": "t5", "free slope": "slope", "ALiBi": "alibi-fixed"}
    t5, slope, alibi = pes["T5"], pes["free slope"], pes["ALiBi"]
    # "T5's buckets keep the fixed-offset tasks at every length": Theorem 2 (unique maximizer)
    assert alpha[(t5, "offset:1")] == alpha[(t5, "offset:2")] == 1.0
    # "the free slope realizes position:0 but no offset task"
    assert alpha[(slope, "position:0")] == 1.0
    assert alpha[(slope, "offset:1")] is None and alpha[(slope, "offset:2")] is None
    # "ALiBi with its fixed slope realizes none of these tasks"
    assert all(alpha[(alibi, task)] is None for task in REGISTRY_TASKS)
    # "RoPE loses part of them at 1024"
    assert 0 < alpha[("rope:16", "offset:1")] < 1


def test_own_pe_both_ways_agree_on_three_quarters(tutorial):
    _, _, ns = tutorial
    a = Fraction(ns["exact"].to_json()["alpha_exact"]["4"])
    b = Fraction(ns["from_file"].to_json()["alpha_exact"]["4"])
    assert a == b == Fraction(3, 4)   # the page's sentence "Both ways give the same exact α_4 = 3/4"
    from posreal.theory.tables import registered_pe
    assert registered_pe("mine") is None   # the page unregisters what it registered


def test_theorem2_report_and_certificate_verdicts(tutorial):
    from posreal.counterexamples.verifier.verify import Outcome
    _, _, ns = tutorial
    assert ns["report"].verdict == "holds" and ns["report"].ok
    assert ns["verdict"].verdict is Outcome.VERIFIED
    assert ns["control"].verdict is Outcome.REFUTED   # the tampered, re-sealed certificate


def test_a_failing_block_stops_the_build():
    from mkdocs.exceptions import PluginError
    ex = _executor()
    page = "# t\n\n<!-- execute: python -->\n\n```python\nprint('one')\n```\n\n```python\n1 / 0\n```\n"
    with pytest.raises(ex.BlockFailed, match="block 2 raised ZeroDivisionError"):
        ex.run_blocks(page, "t.md")

    class Page:
        class file:
            src_uri = "t.md"

    with pytest.raises(PluginError, match="t.md: block 2"):
        ex.on_page_markdown(page, Page, {}, None)
    rendered = ex.on_page_markdown(page.replace("1 / 0", "print('two')"), Page, {}, None)
    assert "```text\none\n```" in rendered and "```text\ntwo\n```" in rendered and "execute:" not in rendered
