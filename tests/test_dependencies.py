"""The dependency graph of definitions and results (posreal.theory.dependencies) and the blueprint drawn from it
(posreal.checks.blueprint): edges come from ``uses`` only, every target exists, no cycle, and the drawing
colours each result by its strongest verdict."""

from __future__ import annotations

import re
import shutil
from dataclasses import replace
from pathlib import Path

import pytest

from posreal.theory import dependencies as dep
from posreal.theory.statements import STATEMENTS

ROOT = Path(__file__).resolve().parents[1]


def test_edges_are_exactly_the_uses_declarations():
    expected = {(u, s.id) for s in STATEMENTS.values() for u in s.uses}
    expected |= {(u, d.id) for d in dep.DEFINITIONS.values() for u in d.uses}
    assert set(dep.edges()) == expected and len(dep.edges()) == len(expected)


def test_every_result_declares_what_it_uses():
    assert all(s.uses for s in STATEMENTS.values())


def test_the_declared_graph_has_no_problem():
    assert dep.graph_problems() == []
    order = dep.topological_order()
    assert sorted(order) == sorted(dep.nodes())
    position = {nid: n for n, nid in enumerate(order)}
    assert all(position[a] < position[b] for a, b in dep.edges())


def test_every_definition_anchor_is_a_heading_of_the_definitions_page():
    page = (ROOT / "docs" / "definitions.md").read_text(encoding="utf-8")
    for d in dep.DEFINITIONS.values():
        assert f"{{#{d.anchor}}}" in page, d


def _with(cid: str, uses: tuple[str, ...]) -> dict[str, dep.Node]:
    graph = dep.nodes()
    graph[cid] = replace(graph[cid], uses=uses)
    return graph


def test_a_missing_target_is_named():
    problems = dep.graph_problems(_with("theorem2", ("grid", "no-such-definition")))
    assert problems == ["theorem2 uses 'no-such-definition', which is neither a definition nor a result"]


def test_a_cycle_is_found():
    # theorem2 -> proposition4 already (proposition4 uses theorem2): close the loop
    problems = dep.graph_problems(_with("theorem2", ("proposition4",)))
    assert len(problems) == 1 and problems[0].startswith("cycle: ")
    assert "theorem2" in problems[0] and "proposition4" in problems[0]
    with pytest.raises(ValueError, match="cycle"):
        dep.topological_order(_with("theorem2", ("proposition4",)))


def test_a_self_use_and_a_duplicate_are_found():
    assert "grid uses itself" in dep.graph_problems(_with("grid", ("grid",)))
    assert "theorem2 lists a use twice" in dep.graph_problems(_with("theorem2", ("grid", "grid")))


# --------------------------------------------------------------------------- the drawing
def _render():
    from posreal.checks import blueprint
    return blueprint


def _reports(verdicts: dict[str, tuple[str, str]]):
    """One claim report per result, holding one check with the given (method, verdict) (default: passed)."""
    from posreal.checks.base import CheckResult
    from posreal.checks.runner import ClaimReport
    out = {}
    for cid, st in STATEMENTS.items():
        method, verdict = verdicts.get(cid, ("property", "passed"))
        out[cid] = ClaimReport(st, [CheckResult(cid, "stand-in", method, verdict, None)])
    return out


def test_node_level_is_the_strongest_good_verdict():
    render = _render()
    reports = _reports({"theorem1": ("coq", "kernel-checked"), "theorem2": ("smt", "proved"),
                        "conjecture-limit": ("symbolic", "proved"), "geometry": ("smt", "proved by z3 only")})
    assert render.node_level(reports["theorem1"]) == "kernel"
    assert render.node_level(reports["theorem2"]) == "smt"
    assert render.node_level(reports["proposition4"]) == "tested"
    assert render.node_level(reports["conjecture"]) == "refuted"
    assert render.node_level(reports["conjecture-limit"]) == "open"
    assert render.node_level(reports["geometry"]) == "failed"   # one solver under --solver both is not good


def test_the_dot_source_has_one_edge_per_use_and_the_verdict_colours():
    render = _render()
    reports = _reports({"theorem1": ("coq", "kernel-checked")})
    source = render.blueprint_dot(reports, "")
    drawn = set(re.findall(r'^\s*"([^"]+)" -> "([^"]+)";$', source, re.M))
    assert drawn == set(dep.edges())
    kernel_fill = next(fill for key, _, fill, _ in render.LEVELS if key == "kernel")
    line = next(ln for ln in source.splitlines() if ln.strip().startswith('"theorem1" ['))
    assert f'fillcolor="{kernel_fill}"' in line and "coq: kernel-checked" in line
    assert 'URL="results/theorem1.html"' in line


def test_a_claim_missing_from_the_report_is_a_build_error():
    from posreal.runtime.markdown import ReportError
    render = _render()
    reports = _reports({})
    del reports["theorem2"]
    with pytest.raises(ReportError, match="theorem2"):
        render.blueprint_dot(reports, "")


@pytest.mark.subprocess   # graphviz's dot
@pytest.mark.skipif(shutil.which("dot") is None, reason="graphviz's dot is not installed (apt-get install graphviz)")
def test_dot_draws_every_node_as_inline_svg():
    render = _render()
    svg = render.render_svg(render.blueprint_dot(_reports({}), ""))
    assert svg.startswith("<svg") and "\n\n" not in svg and "<!--" not in svg
    assert svg.count('class="node"') == len(dep.nodes())
    assert svg.count('class="edge"') == len(dep.edges())
