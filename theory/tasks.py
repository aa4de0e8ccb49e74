"""Positional tasks: which rows are scored and which key each scored row must attend to.

Main definitions (definitions.md#positional-task):

* a task ``τ = (t_n)`` gives, for every length ``n``, scored rows ``R_n`` and a target
  ``t_n(i) ∈ {0..i}`` (causal grid);
* the registry ``offset:c``, ``position:p``, ``copy``, ``middle``, ``reverse``, ``half`` and the
  shear ``dual:T`` (Proposition 4): same rows, target ``i - t_n(i)``;
* classes: fixed offset (``i - t`` constant), fixed position (``t`` constant), growing.

Spec strings are parsed only by :func:`parse_task` and round-trip through ``str()``.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import partial

import numpy as np

from posreal.theory.declarations import TaskFamily, declare_task, task_family, task_forms
from posreal.theory.errors import bad_value
from posreal.runtime.resources import MAX_INT_DIGITS, MAX_SPEC_INT, bad, check_spec, strip_duals

FIXED_OFFSET = "fixed offset"
FIXED_POSITION = "fixed position"
GROWING = "growing"

from posreal.theory.defaults import REGISTRY_TASKS  # noqa: E402, F401  (re-exported)


@dataclass(frozen=True)
class Task:
    """A positional task.  Subclasses define :meth:`rows_and_targets`."""

    def rows_and_targets(self, length: int) -> tuple[np.ndarray, np.ndarray]:
        """Scored rows ``R_n`` (ascending) and their targets, both int64 arrays of equal size."""
        raise NotImplementedError

    @property
    def task_class(self) -> str:
        raise NotImplementedError

    @property
    def rows_depend_on_length(self) -> bool:
        """False when ``R_n = R_∞ ∩ [0, n)`` with targets independent of n (one sweep serves all n)."""
        return True

    def rows(self, length: int) -> np.ndarray:
        return self.rows_and_targets(length)[0]

    @property
    def fixed_offset(self) -> int | None:
        """c when i - t_n(i) = c on every row of every length, else None."""
        return None

    @property
    def fixed_position(self) -> int | None:
        """p when t_n(i) = p on every row of every length, else None."""
        return None


def _arange(start: int, stop: int) -> np.ndarray:
    return np.arange(max(start, 0), max(stop, 0), dtype=np.int64)


@dataclass(frozen=True)
class Offset(Task):
    c: int

    def rows_and_targets(self, length):
        rows = _arange(self.c, length)  # (|R_n|,)
        return rows, rows - self.c

    task_class = FIXED_OFFSET
    rows_depend_on_length = False

    @property
    def fixed_offset(self) -> int | None:
        return self.c

    def __str__(self) -> str:
        return f"offset:{self.c}"


@dataclass(frozen=True)
class Position(Task):
    p: int

    def rows_and_targets(self, length):
        rows = _arange(self.p, length)
        return rows, np.full_like(rows, self.p)

    task_class = FIXED_POSITION
    rows_depend_on_length = False

    @property
    def fixed_position(self) -> int | None:
        return self.p

    def __str__(self) -> str:
        return f"position:{self.p}"


@dataclass(frozen=True)
class Copy(Task):
    def rows_and_targets(self, length):
        h = length // 2
        rows = _arange(h, length)
        return rows, rows - h

    task_class = GROWING

    def __str__(self) -> str:
        return "copy"


@dataclass(frozen=True)
class Middle(Task):
    def rows_and_targets(self, length):
        h = length // 2
        rows = _arange(h, length)
        return rows, np.full_like(rows, h)

    task_class = GROWING

    def __str__(self) -> str:
        return "middle"


@dataclass(frozen=True)
class Reverse(Task):
    def rows_and_targets(self, length):
        rows = _arange((length + 1) // 2, length)
        return rows, length - 1 - rows

    task_class = GROWING

    def __str__(self) -> str:
        return "reverse"


@dataclass(frozen=True)
class Half(Task):
    def rows_and_targets(self, length):
        rows = _arange(0, length)
        return rows, rows // 2

    task_class = GROWING
    rows_depend_on_length = False

    def __str__(self) -> str:
        return "half"


_DUAL_CLASS = {FIXED_OFFSET: FIXED_POSITION, FIXED_POSITION: FIXED_OFFSET, GROWING: GROWING}


@dataclass(frozen=True)
class DualTask(Task):
    """The shear S of a task: same rows, target ``i - t_n(i)`` (Proposition 4)."""

    base: Task

    def rows_and_targets(self, length):
        rows, targets = self.base.rows_and_targets(length)
        return rows, rows - targets

    @property
    def task_class(self) -> str:
        return _DUAL_CLASS[self.base.task_class]

    @property
    def rows_depend_on_length(self) -> bool:
        return self.base.rows_depend_on_length

    def __str__(self) -> str:
        return f"dual:{self.base}"

    @property
    def fixed_offset(self) -> int | None:
        return self.base.fixed_position     # i - (i - t) = t

    @property
    def fixed_position(self) -> int | None:
        return self.base.fixed_offset

    def __post_init__(self):
        if isinstance(self.base, DualTask):
            raise TypeError("DualTask(DualTask(T)) is T: build shears with dual_task")


def __getattr__(name: str) -> str:
    """``TASK_FORMS``: the accepted-forms text of a bad task spec, derived from the declarations on each use."""
    if name == "TASK_FORMS":
        return task_forms()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def _nonnegative_int(text: str, what: str, spec: str) -> int:
    if len(text) > MAX_INT_DIGITS or not text.isascii() or not text.isdigit() or int(text, 10) > MAX_SPEC_INT:
        raise bad(what, spec, f"{task_forms()}; c, p in ASCII digits, at most {MAX_SPEC_INT}")
    return int(text, 10)


def _parse_indexed(cls: type, given: str, rest: str, spec: str) -> Task:
    """Parse an indexed family (``offset:c``, ``position:p``); bound to its class with functools.partial."""
    if len(rest) < 2:
        raise bad_value("task", spec, task_forms())
    return cls(_nonnegative_int(rest[1:], "task", spec))


def _parse_constant(task: Task, given: str, rest: str, spec: str) -> Task:
    """Parse a task without parameters (``copy``); bound to the task with functools.partial."""
    if rest:
        raise bad_value("task", spec, task_forms())
    return task


# The built-in task families (each class above), declared once: the parser and TASK_FORMS derive from them.
declare_task(TaskFamily("offset", "offset:c (c an integer >= 0)", partial(_parse_indexed, Offset), 0))
declare_task(TaskFamily("position", "position:p (p an integer >= 0)", partial(_parse_indexed, Position), 1))
for _rank, _task in enumerate((Copy(), Middle(), Reverse(), Half()), start=2):
    declare_task(TaskFamily(str(_task), str(_task), partial(_parse_constant, _task), _rank))


def parse_task(spec: str | Task) -> Task:
    """Parse a task spec string (the only parser of task specs); a Task is returned as it is."""
    if isinstance(spec, Task):
        return spec
    if not isinstance(spec, str):
        raise bad_value("task", spec, task_forms())
    depth, text = strip_duals(check_spec(spec, "task", task_forms()))   # a loop, not recursion
    task = _parse_plain(text, spec)
    return DualTask(task) if depth % 2 else task   # shear normal form: S∘S = id


def _parse_plain(text: str, spec: str) -> Task:
    name, sep, tail = text.partition(":")
    if name in ("match", "induction"):   # token tasks: posreal.theory.token_tasks, never a positional computation
        raise bad_value("task for a positional-only computation", spec,
                        f"{task_forms()} (the token tasks match, induction: posreal alpha --task induction)")
    family = task_family(name)
    if family is None:
        raise bad_value("task", spec, task_forms())
    return family.parse(name, sep + tail, spec)


def dual_task(task: str | Task) -> Task:
    """The shear of a task, simplified so that ``dual(dual(T)) == T``."""
    task = parse_task(task)
    return task.base if isinstance(task, DualTask) else DualTask(task)
