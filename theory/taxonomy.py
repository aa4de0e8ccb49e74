"""The taxonomy: α_L (definitions.md, α_L) for every PE × task cell, computed from θ* alone.

Main definitions:

* :class:`TaxonomyRow` — one cell: its α_L result with the PE's kind and the task's class;
  :meth:`TaxonomyRow.to_json` is the cell's ``posreal alpha --json`` document plus ``pe_kind``
  and ``task_class`` (the cells of ``posreal table --json``);
* :func:`taxonomy` — the rows of every PE × task cell, PE-major, in the order given.

Light on import: numpy and the α_L machinery are loaded on the first call (the command-line
parser imports this module).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from posreal.theory.alpha import AlphaResult
    from posreal.theory.encodings import Encoding
    from posreal.theory.tasks import Task

Cell = tuple["Encoding", "Task"]


@dataclass(frozen=True)
class TaxonomyRow:
    """One PE × task cell of the taxonomy."""

    result: AlphaResult   # α_L at every length of the table
    pe_kind: str          # Encoding.kind of the PE
    task_class: str       # Task.task_class of the task

    def to_json(self) -> dict:
        """The cell's ``posreal alpha --json`` document with ``pe_kind`` and ``task_class`` appended."""
        doc = self.result.to_json()
        doc["pe_kind"] = self.pe_kind
        doc["task_class"] = self.task_class
        return doc


def taxonomy(pes: Sequence[str | Encoding], tasks: Sequence[str | Task], train_length: int,
             lengths: Iterable[int], geometry: str = "l2",
             progress: Callable[[list[Cell]], Iterable[Cell]] | None = None,
             mode: str = "float", limit: bool = False) -> list[TaxonomyRow]:
    """α_L of every PE × task cell (PE-major).  ``progress`` wraps the list of cells (e.g. a
    progress bar) and must yield them in order; the default iterates them plainly.  ``mode`` and
    ``limit`` are those of :func:`~posreal.theory.alpha.compute_alpha`; a PE the mode cannot decide
    (an irrational PE in ``exact`` mode) is refused before any cell is computed."""
    from posreal.theory.alpha import compute_alpha
    from posreal.theory.arithmetic import arithmetic
    from posreal.theory.pe_specs import parse_pe
    from posreal.theory.tasks import parse_task
    encodings = [parse_pe(p) for p in pes]
    parsed = [parse_task(t) for t in tasks]
    arith = arithmetic(mode)
    for pe in encodings:
        arith.accept(pe)
    cells: list[Cell] = [(pe, task) for pe in encodings for task in parsed]
    lengths = list(lengths)
    return [TaxonomyRow(compute_alpha(pe, task, train_length, lengths, mode, geometry=geometry, limit=limit),
                        pe.kind, task.task_class)
            for pe, task in (progress(cells) if progress is not None else cells)]
