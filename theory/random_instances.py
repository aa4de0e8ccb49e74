"""The deterministic instance stream of the conjecture search (and of the colspan table search).

Main definitions:

* an *instance* is (PE, task, L0, L), plus the feature table for user PEs;
* :func:`instance` — instance number ``k`` of the stream of seed ``s`` depends on (s, k) only
  (``numpy.random.default_rng([s, k])``), so a stopped search resumes by skipping done indices
  and any index can be recomputed on its own;
* families, by ``k mod 4``: ``registry`` (the enumerated registry grid :func:`registry_grid`
  — every PE with its parameters d, base, D × task × L0 × L — then random registry draws once
  the grid is exhausted), ``relative``, ``column`` and ``general`` small-integer feature tables
  (entries in {-1, 0, 1}, sometimes {-2..2}, width 1–3, size ≤ 7), where exact ties are common.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from posreal.theory.tables import register_pe, unregister_pe
from posreal.theory.errors import SpecError
from posreal.theory.defaults import REGISTRY_TASKS

FAMILIES = ("registry", "relative", "column", "general")
TABLE_TASKS = ("offset:0", "offset:1", "offset:2", "position:0", "position:1", "copy", "middle",
               "reverse", "half")
REGISTRY_GRID_PES = ("nope", "relbias", "relbias:1", "relbias:3", "colbias", "colbias:2", "alibi",
                     "rope:2", "rope:4:100", "rope:16", "abscol:2", "abscol:4:100", "abscol:16",
                     "abssin:2", "abssin:4:100")
REGISTRY_GRID_TASKS = REGISTRY_TASKS + ("offset:0",)
REGISTRY_GRID_L0 = (4, 8, 16)


@dataclass(frozen=True)
class Instance:
    index: int
    family: str
    pe: str
    task: str
    train_length: int
    length: int
    table: tuple | None = None   # nested ints: (N, p) or (N, N, p)
    table_kind: str | None = None

    def to_json(self) -> dict:
        out = {"index": self.index, "family": self.family, "pe": self.pe, "task": self.task,
               "train_length": self.train_length, "length": self.length}
        if self.table is not None:
            out["table"] = {"kind": self.table_kind, "rows": _listify(self.table)}
        return out


def _listify(x):
    return [_listify(y) for y in x] if isinstance(x, tuple) else x


def _tuplify(x):
    return tuple(_tuplify(y) for y in x) if isinstance(x, (list, np.ndarray)) else int(x)


@lru_cache(maxsize=1)
def registry_grid() -> tuple[tuple[str, str, int], ...]:
    """Every registry cell (pe, task, L0): grid PEs and their duals × tasks and their duals × L0.
    Each cell gives two instances, L = 2·L0 and L = 4·L0."""
    pes = [p for base in REGISTRY_GRID_PES for p in (base, f"dual:{base}")]
    tasks = [t for base in REGISTRY_GRID_TASKS for t in (base, f"dual:{base}")]
    return tuple((pe, task, L0) for pe in pes for task in tasks for L0 in REGISTRY_GRID_L0)


@lru_cache(maxsize=4)
def _grid_order(seed: int) -> np.ndarray:
    return np.random.default_rng([seed, 1 << 30]).permutation(len(registry_grid()))


def _random_registry(rng: np.random.Generator) -> tuple[str, str, int, int]:
    L0 = int(rng.integers(2, 17))
    L = int(rng.integers(L0, 4 * L0 + 1))
    kind = rng.choice(["nope", "relbias", "colbias", "alibi", "rope", "abscol", "abssin"])
    if kind in ("relbias", "colbias"):
        D = int(rng.integers(0, L0 + 3))
        pe = kind if rng.random() < 0.3 else f"{kind}:{D}"
    elif kind in ("rope", "abscol", "abssin"):
        d = int(rng.choice([2, 4, 8] if kind == "abssin" else [2, 4, 8, 16]))
        base = int(rng.choice([10, 100, 10000]))
        pe = f"{kind}:{d}:{base}"
    else:
        pe = str(kind)
    if rng.random() < 0.3:
        pe = f"dual:{pe}"
    task = str(rng.choice(list(REGISTRY_GRID_TASKS) + ["offset:3", "position:2", "position:3"]))
    if rng.random() < 0.3:
        task = f"dual:{task}"
    return pe, task, L0, L


def _random_table(rng: np.random.Generator, kind: str) -> tuple[tuple, int]:
    N = int(rng.integers(3, 8))
    p = int(rng.integers(1, 4))
    high = 1 if rng.random() < 0.7 else 2
    shape = (N, N, p) if kind == "general" else (N, p)
    table = rng.integers(-high, high + 1, size=shape)
    if kind == "general":
        table = table * (np.arange(N)[None, :, None] <= np.arange(N)[:, None, None])  # zero for j > i
    return _tuplify(table), N


def instance(seed: int, index: int, families: tuple[str, ...] = FAMILIES) -> Instance:
    """Instance ``index`` of the stream of ``seed``: depends on (seed, index, families) only."""
    family = families[index % len(families)]
    rng = np.random.default_rng([seed, index])
    if family == "registry":
        grid = registry_grid()
        rank_in_family = index // len(families)
        if rank_in_family < 2 * len(grid):
            pe, task, L0 = grid[int(_grid_order(seed)[rank_in_family // 2])]
            L = (2 * L0, 4 * L0)[rank_in_family % 2]
        else:
            pe, task, L0, L = _random_registry(rng)
        return Instance(index, family, pe, task, L0, L)
    table, N = _random_table(rng, family)
    L0 = int(rng.integers(2, N))
    L = int(rng.integers(L0 + 1, N + 1))
    task = str(rng.choice(TABLE_TASKS))
    if rng.random() < 0.3:
        task = f"dual:{task}"
    name = f"cx{family[0]}{seed}x{index}"
    pe = f"dual:{name}" if rng.random() < 0.2 else name
    return Instance(index, family, pe, task, L0, L, table, family)


class registered:
    """Context manager: register an instance's feature table under its name, then remove it."""

    def __init__(self, inst: Instance):
        self.inst = inst
        self.name = inst.pe[5:] if inst.pe.startswith("dual:") else inst.pe

    def __enter__(self) -> registered:
        if self.inst.table is not None:
            if self.inst.table_kind is None:
                raise SpecError(f"invalid instance {self.inst.index}: a feature table without its kind; "
                                "accepted: table_kind relative, column or general")
            register_pe(self.name, self.inst.table, self.inst.table_kind)
        return self

    def __exit__(self, *exc):
        if self.inst.table is not None:
            unregister_pe(self.name)
        return False
