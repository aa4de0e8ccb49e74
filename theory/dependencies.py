"""The dependency graph of the definitions and results of the docs' Definitions page.

Main definitions:

* :class:`Definition` — one definition the results use: id, name, the anchor of the Definitions page that
  defines it, and the definitions it builds on (``uses``);
* :data:`DEFINITIONS` — the definitions, in page order (``grid`` … ``token-tasks``);
* :class:`Node`, :func:`nodes` — every definition and every result of :data:`posreal.theory.statements.STATEMENTS`
  as one node (kind ``definition`` or ``result``), with its ``uses``;
* :func:`edges` — (used, user) for every entry of a ``uses`` list, read off the declarations only;
* :func:`graph_problems` — every ``uses`` target that names no node, every id that is both a definition and a
  result, every node that uses itself, and every cycle (empty when the graph is a DAG);
* :func:`topological_order` — the node ids, each after everything it uses.

A result's ``uses`` (in :mod:`posreal.theory.statements`) lists what its proof uses: the definitions its
statement is phrased in and the results the proof invokes, as read from the proof on the result's page and
from the ``Formalizes`` header of its Coq file in ``proofs/``.  The docs draw this graph (the blueprint page).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from posreal.theory.statements import STATEMENTS


_SECTION = "definitions.md#"   # + the anchor of the definition on the Definitions page


@dataclass(frozen=True)
class Definition:
    """One definition of the Definitions page that a result builds on."""

    id: str
    name: str
    anchor: str                  # heading id on docs/definitions.md
    uses: tuple[str, ...] = ()   # ids of the definitions it is phrased in

    @property
    def section(self) -> str:
        return _SECTION + self.anchor


DEFINITIONS: dict[str, Definition] = {d.id: d for d in (
    Definition("grid", "Grid (rows i, keys j ≤ i)", "grid"),
    Definition("task", "Positional task τ (rows R_L, targets t_L(i))", "positional-task", ("grid",)),
    Definition("linear-pe", "Linear PE Φ (features ψ, kernel κ)", "linear-pe", ("grid",)),
    Definition("learned-pe", "Learned absolute PE learned:d", "learned-absolute", ("linear-pe",)),
    Definition("margin", "Realization and margin γ_i", "realization-and-margin", ("task", "linear-pe")),
    Definition("structural-tie", "Structural tie", "structural-tie", ("margin",)),
    Definition("selection", "Selected parameters θ* (training differences Z)", "selection", ("margin",)),
    Definition("selection-q", "θ*_q and its optimal face F_q", "geometry", ("selection",)),
    Definition("transfer", "Transfer operator T_L", "transfer-operator", ("linear-pe",)),
    Definition("extension-transfer", "Length extension T_L^σ", "length-extension", ("transfer",)),
    Definition("alpha", "Transfer coefficient α_L", "transfer-coefficient", ("selection", "transfer", "margin")),
    Definition("alpha-q", "α^(q)_L, the interval over F_q", "alpha-q", ("alpha", "selection-q")),
    Definition("alpha-sharp", "Corrected coefficient α♯_L", "alpha-sharp", ("alpha", "structural-tie")),
    Definition("residual-levels", "Residual levels θ_k, w̃_k", "residual-levels", ("alpha-sharp", "selection")),
    Definition("trajectory-evidence", "Trajectory evidence", "trajectory-evidence", ("alpha-sharp",)),
    Definition("token-tasks", "Token tasks and hard attention (match, induction)", "what-escapes", ("grid",)),
)}


class NodeKind(StrEnum):
    DEFINITION = "definition"
    RESULT = "result"


@dataclass(frozen=True)
class Node:
    id: str
    name: str
    kind: NodeKind
    section: str                 # the Definitions page and the anchor that states it
    uses: tuple[str, ...]


def nodes() -> dict[str, Node]:
    """Every definition, then every result, by id (an id declared twice keeps the result; see graph_problems)."""
    out = {d.id: Node(d.id, d.name, NodeKind.DEFINITION, d.section, d.uses) for d in DEFINITIONS.values()}
    out.update({s.id: Node(s.id, s.name, NodeKind.RESULT, s.section, s.uses) for s in STATEMENTS.values()})
    return out


def edges(graph: dict[str, Node] | None = None) -> list[tuple[str, str]]:
    """(used, user) for each entry of each node's ``uses``, in declaration order."""
    graph = nodes() if graph is None else graph
    return [(used, node.id) for node in graph.values() for used in node.uses]


def _cycle(graph: dict[str, Node]) -> list[str]:
    """One cycle as a list of ids (first id repeated at the end), or [] when there is none."""
    state: dict[str, int] = {}   # 1: on the current path, 2: done
    path: list[str] = []

    def visit(nid: str) -> list[str]:
        state[nid] = 1
        path.append(nid)
        for used in graph[nid].uses:
            if used not in graph:
                continue
            if state.get(used) == 1:
                return path[path.index(used):] + [used]
            if used not in state and (found := visit(used)):
                return found
        path.pop()
        state[nid] = 2
        return []

    for nid in graph:
        if nid not in state and (found := visit(nid)):
            return found
    return []


def graph_problems(graph: dict[str, Node] | None = None) -> list[str]:
    """Why the declarations do not form a dependency graph (empty when they do)."""
    graph = nodes() if graph is None else graph
    problems = [f"{cid} is declared both as a definition and as a result" for cid in DEFINITIONS if cid in STATEMENTS]
    for node in graph.values():
        problems += [f"{node.id} uses {used!r}, which is neither a definition nor a result"
                     for used in node.uses if used not in graph]
        if node.id in node.uses:
            problems.append(f"{node.id} uses itself")
        if len(set(node.uses)) != len(node.uses):
            problems.append(f"{node.id} lists a use twice")
    cycle = _cycle(graph)
    if cycle and len(cycle) > 2:
        problems.append("cycle: " + " -> ".join(cycle))
    return problems


def topological_order(graph: dict[str, Node] | None = None) -> list[str]:
    """Node ids, each after everything it uses; a ValueError naming the problems when the graph has any."""
    graph = nodes() if graph is None else graph
    problems = graph_problems(graph)
    if problems:
        raise ValueError("; ".join(problems))
    done: list[str] = []
    seen: set[str] = set()

    def visit(nid: str) -> None:
        if nid in seen:
            return
        seen.add(nid)
        for used in graph[nid].uses:
            visit(used)
        done.append(nid)

    for nid in graph:
        visit(nid)
    return done
