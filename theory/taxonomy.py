"""The taxonomy: α_L (definitions.md, α_L) for every PE × task cell, computed from θ* alone.

Main definitions:

* :class:`TaxonomyRow` — one cell: its α_L result with the PE's kind and the task's class;
  :meth:`TaxonomyRow.to_json` is the cell's ``posreal alpha --json`` document plus ``pe_kind``
  and ``task_class`` (the cells of ``posreal table --json``);
* :func:`taxonomy` — the rows of every PE × task cell, PE-major, in the order given; with
  ``extension`` (a length-extension method, :mod:`posreal.theory.extension`) a cell whose PE the
  method cannot act on is a row with no result and the refusal as its reason (data, not an error).

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
    from posreal.theory.transfer_operator import Transfer

Cell = tuple["Encoding", "Task"]


@dataclass(frozen=True)
class TaxonomyRow:
    """One PE × task cell of the taxonomy."""

    result: AlphaResult | None   # α_L at every length of the table (None: the extension refuses the PE)
    pe_kind: str                 # Encoding.kind of the PE
    task_class: str              # Task.task_class of the task
    extension: str | None = None     # the length-extension method asked for (None: not asked, plain T_L)
    pe: str = ""                 # the cell, for a row without a result
    task: str = ""
    reason: str = ""             # why the extension does not apply

    def to_json(self) -> dict:
        """The cell's ``posreal alpha --json`` document with ``pe_kind`` and ``task_class`` appended (and,
        when an extension was asked for, ``extension`` and ``applicable``; a refused cell has ``reason``)."""
        if self.result is None:
            return {"pe": self.pe, "task": self.task, "pe_kind": self.pe_kind, "task_class": self.task_class,
                    "extension": self.extension, "applicable": False, "reason": self.reason}
        doc = self.result.to_json()
        doc["pe_kind"] = self.pe_kind
        doc["task_class"] = self.task_class
        if self.extension is not None:
            doc["extension"] = self.extension
            doc["applicable"] = True
        return doc


def taxonomy(pes: Sequence[str | Encoding], tasks: Sequence[str | Task], train_length: int,
             lengths: Iterable[int], geometry: str = "l2",
             progress: Callable[[list[Cell]], Iterable[Cell]] | None = None,
             extension: str | Transfer | None = None, mode: str = "float",
             limit: bool = False) -> list[TaxonomyRow]:
    """α_L of every PE × task cell (PE-major), as one row per cell.

    ``progress`` wraps the list of cells (e.g. a
    progress bar) and must yield them in order; the default iterates them plainly.  ``extension``:
    the transfer of every cell (:func:`posreal.theory.extension.parse_extension`; None: plain T_L, and
    the rows say nothing about extensions).  ``mode`` and ``limit`` are those of
    :func:`~posreal.theory.alpha.compute_alpha`; a PE the mode cannot decide (an irrational PE in
    ``exact`` mode) is refused before any cell is computed."""
    from posreal.theory.alpha import compute_alpha
    from posreal.theory.arithmetic import arithmetic
    from posreal.theory.errors import SpecError
    from posreal.theory.extension import parse_extension
    from posreal.theory.pe_specs import parse_pe
    from posreal.theory.tasks import parse_task
    from posreal.theory.transfer_operator import REEVALUATION
    encodings = [parse_pe(p) for p in pes]
    parsed = [parse_task(t) for t in tasks]
    arith = arithmetic(mode)
    for pe in encodings:
        arith.accept(pe)
    op = REEVALUATION if extension is None else parse_extension(extension)
    name = None if extension is None else str(op)
    refused: dict[int, str] = {}
    for n, pe in enumerate(encodings):
        try:
            op.accept(pe, train_length)
        except SpecError as err:
            refused[n] = str(err)
    cells: list[Cell] = [(pe, task) for pe in encodings for task in parsed]
    index = {id(pe): n for n, pe in enumerate(encodings)}
    lengths = list(lengths)
    out = []
    for pe, task in (progress(cells) if progress is not None else cells):
        n = index[id(pe)]
        if n in refused:
            out.append(TaxonomyRow(None, pe.kind, task.task_class, name, str(pe), str(task), refused[n]))
            continue
        result = compute_alpha(pe, task, train_length, lengths, mode, geometry=geometry, limit=limit, extension=op)
        out.append(TaxonomyRow(result, pe.kind, task.task_class, name))
    return out
