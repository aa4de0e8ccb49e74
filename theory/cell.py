"""A cell (PE, task, L0), parsed, validated and put in shear normal form once.

Main definitions (definitions.md#transfer-coefficient): α_L(Φ, τ; L0) is a function of the cell;
every computation on a cell starts from :meth:`Cell.parse`, which parses the spec strings (once),
applies S∘S = id (``dual:dual:X`` is X, before any memory estimate) and checks L0.  Lengths are
validated against the cell by :meth:`Cell.check_lengths`, and the planned memory is
:meth:`Cell.estimate` (:mod:`posreal.runtime.resources`).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

import numpy as np

from posreal.theory.encodings import Encoding
from posreal.theory.errors import bad_value
from posreal.theory.modes import Mode, parse_mode
from posreal.theory.pe_specs import parse_pe
from posreal.runtime.resources import Estimate, cell_estimate
from posreal.theory.tasks import Task, parse_task

MAX_EXACT_LENGTH = 2 ** 18   # exact mode keeps one Fraction per key index


def check_train_length(train_length: Any) -> int:
    """L0: an integer ≥ 1."""
    if isinstance(train_length, bool) or not isinstance(train_length, (int, np.integer)) or train_length < 1:
        raise bad_value("train length", train_length, "an integer >= 1")
    return int(train_length)


@dataclass(frozen=True)
class Cell:
    """(Φ, τ, L0): a linear PE and a task in shear normal form, and the training length."""

    pe: Encoding
    task: Task
    train_length: int

    @classmethod
    def parse(cls, pe: str | Encoding, task: str | Task, train_length: Any) -> Cell:
        """The cell of spec strings or objects; the only place a computation parses them."""
        return cls(parse_pe(pe), parse_task(task), check_train_length(train_length))

    def check_lengths(self, lengths: Iterable[int], mode: Mode | str = Mode.FLOAT) -> list[int]:
        """Validate lengths: a non-empty collection of integers ≥ L0 within the PE's bound; sorted, unique."""
        if isinstance(lengths, (str, bytes)) or not isinstance(lengths, Iterable):
            raise bad_value("lengths", lengths, "a non-empty list of integers >= the train length")
        out = []
        for L in lengths:
            if isinstance(L, bool) or not isinstance(L, (int, np.integer)) or L < self.train_length:
                raise bad_value("length", L, f"integers >= the train length {self.train_length}")
            self.pe.check_length(int(L), self.train_length)
            if parse_mode(mode) is Mode.EXACT and L > MAX_EXACT_LENGTH:
                raise bad_value("length", L,
                                f"lengths up to {MAX_EXACT_LENGTH} in exact mode (use float or --certified)")
            out.append(int(L))
        if not out:
            raise bad_value("lengths", lengths, "a non-empty list of integers >= the train length")
        return sorted(set(out))

    def estimate(self, lengths: list[int], mode: Mode | str, complete: bool = False) -> Estimate:
        """The planned memory of α_L for this cell at these lengths.

        The selection holds its distinct training
        differences (:func:`~posreal.theory.selection.selection_size`): O(L0) for offset tasks on a relative PE,
        a working set of constraint generation where they are Θ(L0²) (``complete``: all of them)."""
        from posreal.theory.selection import selection_size
        mode = parse_mode(mode)
        held, what = selection_size(self.pe, self.task, self.train_length, mode, complete)
        return cell_estimate(str(self), self.pe.dim(self.train_length), self.pe.kernel_form.value,
                             held, lengths, mode, what, getattr(self.pe, "peak_copies", 1))

    def __str__(self) -> str:
        return f"{self.pe} · {self.task}"
