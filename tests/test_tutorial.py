"""The tutorial page (docs/tutorial.md) runs, and what its prose says about the results holds.

The blocks run as the docs build runs them (markdown-exec's ``exec="on"`` blocks of one ``session``: in order,
in one namespace); the build inserts their output into the page.  The
assertions below check the page's sentences against the computed values, so a change in the code that
makes the prose wrong fails here.
"""

from __future__ import annotations

import contextlib
import io
import os
import re
import tempfile
from fractions import Fraction
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[1]
PAGE = ROOT / "docs" / "tutorial.md"
FENCE = re.compile(r'^```python exec="on" session="tutorial" source="above" result="text"\n(.*?)^```$', re.M | re.S)


def run_blocks(markdown: str, namespace: dict) -> list[str]:
    """Every executed block of the page in order in ``namespace`` (in a scratch folder): what each printed."""
    outputs, here = [], os.getcwd()
    with tempfile.TemporaryDirectory() as scratch:
        os.chdir(scratch)
        try:
            for block in FENCE.findall(markdown):
                out = io.StringIO()
                with contextlib.redirect_stdout(out):
                    exec(compile(block, "<tutorial block>", "exec"), namespace)
                outputs.append(out.getvalue())
        finally:
            os.chdir(here)
    return outputs


@pytest.fixture(scope="module")
def tutorial():
    namespace: dict = {"__name__": "__tutorial__"}
    outputs = run_blocks(PAGE.read_text(encoding="utf-8"), namespace)
    return None, outputs, namespace


def test_every_block_runs_and_prints(tutorial):
    _, outputs, _ = tutorial
    page = PAGE.read_text(encoding="utf-8")
    assert len(outputs) == 4 == page.count("```python")     # every Python block of the page is executed
    assert all(out.strip() for out in outputs)
    plugins = yaml.safe_load((ROOT / "mkdocs.yml").read_text(encoding="utf-8"))["plugins"]
    assert {"markdown-exec": {"languages": ["python"]}} in plugins   # Python only: no pyodide assets (a CDN)


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


@pytest.mark.subprocess   # runs mkdocs
def test_a_failing_block_stops_the_build(tmp_path):
    """Under ``mkdocs build --strict`` (as .ci/run builds) a block that raises fails the build, naming the error;
    the same page without the error builds and shows both outputs (the control)."""
    import subprocess
    import sys
    (tmp_path / "docs").mkdir()
    (tmp_path / "mkdocs.yml").write_text("site_name: t\nplugins:\n  - markdown-exec\nmarkdown_extensions:\n"
                                         "  - pymdownx.superfences\n", encoding="utf-8")
    fence = '```python exec="on" session="tutorial" source="above" result="text"\n'
    page = f"# t\n\n{fence}print('one')\n```\n\n{fence}print('two')\n1 / 0\n```\n"

    def build(text: str) -> subprocess.CompletedProcess:
        (tmp_path / "docs" / "index.md").write_text(text, encoding="utf-8")
        return subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "-d", str(tmp_path / "site")],
                              cwd=tmp_path, capture_output=True, text=True, timeout=300)

    failed = build(page)
    assert failed.returncode != 0 and "ZeroDivisionError" in failed.stderr
    built = build(page.replace("1 / 0\n", ""))
    assert built.returncode == 0, built.stderr[-500:]
    html = (tmp_path / "site" / "index.html").read_text(encoding="utf-8")
    assert "one" in html and "two" in html and "Traceback" not in html
