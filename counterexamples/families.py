"""Finite families of table instances: what the exhaustive search mode enumerates.

A family spec ``KIND:NxP:LOW..HIGH[:TASKS]`` names every feature table of one kind (``relative``:
f(δ) for offsets δ < N; ``column``: f(j) for positions j < N; ``general``: ψ(i, j) for j ≤ i < N)
with p features and integer entries in {LOW, ..., HIGH}, crossed with the tasks (a comma-separated
list; default the nine table tasks of :data:`posreal.theory.random_instances.TABLE_TASKS`) and every pair
of lengths 2 ≤ L0 < L ≤ N the table supports.

Main definitions:

* :func:`parse_family` — the only parser of the spec (one-line :class:`SpecError` otherwise);
  ``str()`` of a :class:`TableFamily` is its canonical spec;
* :meth:`TableFamily.instance` — instance ``k`` in **index order**: k = (t · |tasks| + i) · |pairs| + j
  for table t (its entries, read as digits base HIGH − LOW + 1 with the first entry most
  significant, are LOW + digit), task i and length pair j; :attr:`TableFamily.size` instances;
* the instances are :class:`posreal.theory.random_instances.Instance` objects, evaluated by
  :func:`posreal.counterexamples.conjecture.evaluate` like the sampled stream's.
"""

from __future__ import annotations

from dataclasses import dataclass

from posreal.runtime import resources
from posreal.theory.errors import PosrealError, SpecError, quote
from posreal.theory.random_instances import TABLE_TASKS, Instance
from posreal.theory.tasks import parse_task

KINDS = ("relative", "column", "general")
MAX_ROWS = 12             # N: offsets or positions of the table
MAX_WIDTH = 8             # p: features
MAX_ENTRY = 9             # |LOW|, |HIGH|
MAX_SIZE = 10 ** 15       # instances of a family
ACCEPTED = ("KIND:NxP:LOW..HIGH[:TASK,TASK,...] with KIND relative, column or general, 3 <= N <= "
            f"{MAX_ROWS}, 1 <= P <= {MAX_WIDTH}, -{MAX_ENTRY} <= LOW < HIGH <= {MAX_ENTRY}, at most "
            f"{MAX_SIZE:.0e} instances, e.g. relative:3x4:-2..2 or relative:3x3:-1..1:offset:1,copy")


@dataclass(frozen=True)
class TableFamily:
    """A family of small integer tables: kind, N rows, width p, entry bounds and tasks."""

    kind: str
    rows: int                     # N
    width: int                    # p
    low: int
    high: int
    tasks: tuple[str, ...] = TABLE_TASKS

    @property
    def cells(self) -> list[tuple[int, int]]:
        """The free (row, column) places of a table, in digit order.

        (i, j) with j ≤ i for ``general`` (row-major), else (δ, ·) / (j, ·) rows; each holds p entries."""
        if self.kind == "general":
            return [(i, j) for i in range(self.rows) for j in range(i + 1)]
        return [(i, 0) for i in range(self.rows)]

    @property
    def entries(self) -> int:
        """Free entries of one table."""
        return len(self.cells) * self.width

    @property
    def base(self) -> int:
        """The number of values an entry takes: high - low + 1."""
        return self.high - self.low + 1

    @property
    def tables(self) -> int:
        """The number of tables of the family."""
        return self.base ** self.entries

    @property
    def pairs(self) -> tuple[tuple[int, int], ...]:
        """(L0, L) with 2 ≤ L0 < L ≤ N."""
        return tuple((L0, L) for L0 in range(2, self.rows) for L in range(L0 + 1, self.rows + 1))

    @property
    def size(self) -> int:
        """The number of instances of the family: tables × tasks × length pairs."""
        return self.tables * len(self.tasks) * len(self.pairs)

    def __str__(self) -> str:
        text = f"{self.kind}:{self.rows}x{self.width}:{self.low}..{self.high}"
        return text if self.tasks == TABLE_TASKS else text + ":" + ",".join(self.tasks)

    def table(self, t: int) -> tuple:
        """Table number ``t`` (0 ≤ t < tables): nested int tuples, (N, p) or (N, N, p)."""
        digits = []
        for _ in range(self.entries):
            t, d = divmod(t, self.base)
            digits.append(self.low + d)
        values = digits[::-1]                                      # first entry most significant
        p = self.width
        if self.kind != "general":
            return tuple(tuple(values[r * p:(r + 1) * p]) for r in range(self.rows))
        place = {cell: n for n, cell in enumerate(self.cells)}
        zero = (0,) * p
        return tuple(tuple(tuple(values[place[(i, j)] * p:(place[(i, j)] + 1) * p]) if j <= i else zero
                           for j in range(self.rows)) for i in range(self.rows))

    def instance(self, k: int) -> Instance:
        """Instance ``k`` of the family in index order (0 ≤ k < size)."""
        if isinstance(k, bool) or not isinstance(k, int) or not 0 <= k < self.size:
            raise SpecError(f"invalid instance index {quote(k)} of family {self}; accepted: 0 to {self.size - 1}")
        rest, j = divmod(k, len(self.pairs))
        t, i = divmod(rest, len(self.tasks))
        L0, L = self.pairs[j]
        return Instance(k, str(self), f"ex{self.kind[0]}{k}", self.tasks[i], L0, L, self.table(t), self.kind)


def parse_family(text: str) -> TableFamily:
    """``relative:3x4:-2..2`` (every task) or ``relative:3x4:-2..2:offset:1,copy`` -> a :class:`TableFamily`."""
    def bad(why: str = "") -> SpecError:
        return SpecError(f"invalid family {quote(text)}{': ' + why if why else ''}; accepted: {ACCEPTED}")

    if not isinstance(text, str) or len(text) > 1000:
        raise bad()
    parts = text.strip().split(":", 3)
    if len(parts) < 3 or parts[0] not in KINDS or "x" not in parts[1] or ".." not in parts[2]:
        raise bad()
    try:
        n_text, p_text = parts[1].split("x", 1)
        low_text, high_text = parts[2].split("..", 1)
        rows = resources.parse_int(n_text, "table rows N", 3, MAX_ROWS)
        width = resources.parse_int(p_text, "table width P", 1, MAX_WIDTH)
        low, high = (_signed(s) for s in (low_text, high_text))
    except PosrealError as err:
        raise bad(str(err).split(";")[0]) from None
    if not -MAX_ENTRY <= low < high <= MAX_ENTRY:
        raise bad(f"entries {low}..{high}")
    tasks: tuple[str, ...] = TABLE_TASKS
    if len(parts) == 4:
        names = [t.strip() for t in parts[3].split(",", 64)]
        if not names or len(names) > 64 or len(set(names)) != len(names):
            raise bad("tasks must be 1 to 64 distinct task specs")
        for name in names:
            try:
                parse_task(name)
            except PosrealError as err:
                raise bad(str(err).split(";")[0]) from None
        tasks = tuple(names)
    family = TableFamily(parts[0], rows, width, low, high, tasks)
    if family.size > MAX_SIZE:
        raise bad(f"{family.size:.3g} instances")
    return family


def _signed(text: str) -> int:
    negative = text.startswith("-")
    value = resources.parse_int(text[1:] if negative else text, "table entry bound", 0, MAX_ENTRY)
    return -value if negative else value
