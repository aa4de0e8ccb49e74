"""Learned absolute PEs (``learned:d``): α_L is an interval, not a number (Underdetermination).

Main definitions and results (definitions.md#underdetermination; statement id ``underdetermination``):

* the kernel κ(i, j) = E_iᵀ W E_j with a learned table E (rows E_j ∈ ℝ^d) and W ∈ ℝ^{d×d};
* :func:`train_block` — a trained block (W, E_{<L0}): deterministic, seeded gradient descent on the
  positional cross-entropy at L0 from the initialization E_j, W_ab ~ N(0, 1/d) i.i.d.;
* :func:`construct_block` — a realizing block by construction (d ≥ L0): a random kernel K that
  realizes τ at L0, random E_{<L0} of full row rank, W = E⁺ K (E⁺)ᵀ, so E W Eᵀ = K;
* :func:`completion_alpha` — α_L when the untrained rows E_j (j ≥ L0) are completed by
  ``zero`` (E_j = 0; result (a): α_L = |R_L ∩ [0, L0)|/|R_L|), ``copy_last`` (E_j = E_{L0-1};
  result (b): α_L = 1 for position:p, p ≤ L0-2), or a given table, as a :class:`CompletionAlpha`
  (α_L and the row counts);
* :func:`monte_carlo_alpha` — a seeded Monte Carlo estimate of the expected α_L when the untrained
  rows keep their random initialization N(0, 1/d) (result (c)), one :class:`MonteCarloAlpha` per length
  (mean, standard error, range, seed, samples, the initialization law);
* :func:`learned_alpha_interval` — both completions and the Monte Carlo estimate as a
  :class:`LearnedInterval` (one :class:`LengthInterval` per length; ``to_json()``).

Why (a) and (b) hold.  (a) A new row i ≥ L0 has query E_i = 0, so κ(i, ·) ≡ 0 on i + 1 ≥ 2 keys: the
row is tied and fails; rows below L0 are the trained rows.  (b) With E_j = E_{L0-1} for j ≥ L0 a new
row i has the same query and the same key vectors as row L0-1, plus copies of key L0-1; row L0-1 is
realized with target p ≠ L0-1, so κ(L0-1, p) beats every copy of key L0-1 as well.  QED.

Realization uses :mod:`posreal.theory.realization` on the dense kernel; a row whose margin is exactly 0 in
floating point (identical vectors, e.g. the zero completion) is a tie and fails; other rows within
the tolerance are reported as undecided, never counted as realized.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field, replace

import numpy as np

from posreal.theory import realization
from posreal.theory.encodings import POSITION
from posreal.theory.pe_specs import LearnedAbsolute, parse_learned
from posreal.theory.errors import SpecError, bad_value
from posreal.theory.kernels import DenseKernel
from posreal.runtime.resources import learned_estimate, require
from posreal.theory.tasks import Task, parse_task

COMPLETIONS = ("zero", "copy_last")
DEFAULT_SEED = 0
DEFAULT_SAMPLES = 200
MAX_LEARNED_LENGTH = 4096
TRAIN_STEPS = 5000
TRAIN_LR = 0.02
TARGET_MARGIN = 1.0  # training stops once every scored row of L0 has margin ≥ this
MONTE_CARLO_INIT = "E_j ~ N(0, 1/d) i.i.d. for j >= L0"   # the law of the untrained rows in monte_carlo_alpha


@dataclass
class LearnedBlock:
    """A trained block: W (d, d) and the trained rows E_{<L0} (L0, d)."""

    W: np.ndarray        # (d, d)
    E: np.ndarray        # (L0, d)
    task: Task
    train_length: int
    seed: int
    method: str          # "gradient descent" | "construction"
    steps: int = 0
    notes: list[str] = field(default_factory=list)

    @property
    def d(self) -> int:
        return self.W.shape[0]

    def kernel(self, table: np.ndarray) -> np.ndarray:
        """κ = E W Eᵀ for a full table (n, d): (n, n), all entries (mask applied later)."""
        return table @ self.W @ table.T  # (n, d) @ (d, d) @ (d, n) -> (n, n)

    def train_margins(self) -> np.ndarray:
        """Margins of the scored rows of the L0-grid: (|R_L0|,)."""
        return margins_of(self.kernel(self.E), self.task, self.train_length)


def margins_of(K: np.ndarray, task: Task, length: int) -> np.ndarray:
    """Margins γ_i of the scored rows of the ``length``-grid for a dense kernel K (≥ length, ≥ length)."""
    rows, targets = task.rows_and_targets(length)
    kernel = DenseKernel(length, POSITION, np.asarray(K[:length, :length], dtype=float))
    margins, _ = realization.float_margins(kernel, rows, targets)
    return margins


def row_status(K: np.ndarray, task: Task, length: int, tol: float = realization.DEFAULT_TOL) -> np.ndarray:
    """Realized (1) / undecided (0) / failed (-1) per scored row of the ``length``-grid: (|R_L|,).
    An exact float tie (margin == 0 from identical vectors) fails."""
    rows, targets = task.rows_and_targets(length)
    kernel = DenseKernel(length, POSITION, np.asarray(K[:length, :length], dtype=float))
    margins, target_values = realization.float_margins(kernel, rows, targets)
    ties = margins == 0.0                                   # (m,) exact ties
    return realization.classify_float(margins, target_values, ties, tol)


def _check_task(task: Task, train_length: int) -> None:
    rows, _ = task.rows_and_targets(train_length)
    if rows.size == 0:
        raise SpecError(f"invalid task {str(task)!r} at train length {train_length}; accepted: a task with "
                        "at least one scored row at L0")


def _loss_grad(W: np.ndarray, E: np.ndarray, rows: np.ndarray, targets: np.ndarray):
    """Positional cross-entropy at L0 and its gradients in (W, E): scalars/(d, d)/(L0, d)."""
    L0 = E.shape[0]
    K = E @ W @ E.T                                         # (L0, L0)
    mask = np.arange(L0)[None, :] <= rows[:, None]          # (m, L0)
    logits = np.where(mask, K[rows], -np.inf)               # (m, L0)
    top = logits.max(axis=1, keepdims=True)
    expd = np.exp(logits - top)
    total = expd.sum(axis=1, keepdims=True)
    attn = expd / total                                     # (m, L0)
    idx = np.arange(rows.size)
    loss = float(np.sum(np.log(total[:, 0]) + top[:, 0] - logits[idx, targets]))
    G = np.zeros((L0, L0))                                  # dℓ/dK
    np.add.at(G, rows, attn)
    np.add.at(G, (rows, targets), -1.0)
    grad_W = E.T @ G @ E                                    # (d, d)
    grad_E = G @ E @ W.T + G.T @ E @ W                      # (L0, d)
    return loss, grad_W, grad_E


def train_block(task, d: int, train_length: int = 16, seed: int = DEFAULT_SEED, steps: int = TRAIN_STEPS,
                lr: float = TRAIN_LR) -> LearnedBlock:
    """Gradient descent on (W, E_{<L0}) from E_j, W_ab ~ N(0, 1/d) (seeded), fixed step ``lr``,
    stopped once every scored row of the L0-grid has margin ≥ TARGET_MARGIN (or after ``steps``)."""
    task = parse_task(task)
    _check_task(task, train_length)
    rng = np.random.default_rng(seed)
    W = rng.normal(0.0, 1.0 / np.sqrt(d), size=(d, d))              # (d, d)
    E = rng.normal(0.0, 1.0 / np.sqrt(d), size=(train_length, d))   # (L0, d)
    rows, targets = task.rows_and_targets(train_length)
    k = 0
    for k in range(steps + 1):
        K = E @ W @ E.T
        if margins_of(K, task, train_length).min() >= TARGET_MARGIN or k == steps:
            break
        _, gW, gE = _loss_grad(W, E, rows, targets)
        W, E = W - lr * gW, E - lr * gE
    return LearnedBlock(W, E, task, train_length, seed, "gradient descent", k)


def construct_block(task, d: int, train_length: int = 16, seed: int = DEFAULT_SEED,
                    margin: float = 1.0) -> LearnedBlock:
    """A realizing block by construction (needs d ≥ L0): random K with κ(i, t_i) = max_j κ(i, j) + margin
    on scored rows, random E (L0, d) of full row rank, W = E⁺ K (E⁺)ᵀ."""
    task = parse_task(task)
    _check_task(task, train_length)
    if d < train_length:
        raise bad_value("width d", d, f"d >= the train length {train_length} for the construction")
    rng = np.random.default_rng(seed)
    K = rng.normal(size=(train_length, train_length))               # (L0, L0)
    rows, targets = task.rows_and_targets(train_length)
    for i, t in zip(rows.tolist(), targets.tolist()):
        others = [K[i, j] for j in range(i + 1) if j != t]
        if others:
            K[i, t] = max(others) + margin
    E = rng.normal(0.0, 1.0 / np.sqrt(d), size=(train_length, d))   # (L0, d), full row rank a.s.
    pinv = np.linalg.pinv(E)                                        # (d, L0)
    W = pinv @ K @ pinv.T                                           # (d, d)
    return LearnedBlock(W, E, task, train_length, seed, "construction")


def completed_table(block: LearnedBlock, length: int, completion) -> np.ndarray:
    """E for the ``length``-grid: trained rows, then the completion: (length, d).
    ``completion``: "zero", "copy_last", or an array (length - L0, d) of untrained rows."""
    L0, d = block.train_length, block.d
    new = length - L0
    if isinstance(completion, str):
        if completion == "zero":
            tail = np.zeros((new, d))
        elif completion == "copy_last":
            tail = np.repeat(block.E[-1:], new, axis=0)
        else:
            raise bad_value("completion", completion, ", ".join(COMPLETIONS) + " or an array of rows")
    else:
        tail = np.asarray(completion, dtype=float)
        if tail.shape != (new, d):
            raise bad_value("completion shape", tail.shape, f"({new}, {d})")
    return np.concatenate([block.E, tail], axis=0)  # (L, d)


@dataclass(frozen=True)
class CompletionAlpha:
    """α_L of one completion with its row counts: ``realized`` and ``undecided`` of ``total`` scored rows."""

    alpha: float       # realized / total (1.0 when no row is scored)
    realized: int
    undecided: int
    total: int

    def to_json(self) -> dict:
        return {"alpha": self.alpha, "realized": self.realized, "undecided": self.undecided, "total": self.total}


@dataclass(frozen=True)
class MonteCarloAlpha:
    """The Monte Carlo estimate of the expected α_L at one length: mean, standard error and range
    (``min``, ``max``) of α_L over ``samples`` draws (generator seeded with ``seed``) of the untrained
    rows from the law ``init``."""

    mean: float
    stderr: float      # sample std (ddof=1) / sqrt(samples); 0.0 for one sample
    min: float
    max: float
    seed: int
    samples: int
    init: str = MONTE_CARLO_INIT

    def to_json(self) -> dict:
        return {"mean": self.mean, "stderr": self.stderr, "min": self.min, "max": self.max, "seed": self.seed,
                "samples": self.samples, "init": self.init}


def completion_alpha(block: LearnedBlock, length: int, completion) -> CompletionAlpha:
    """α_L and row counts of one completion."""
    if length < block.train_length:
        raise bad_value("length", length, f"integers >= the train length {block.train_length}")
    table = completed_table(block, length, completion)
    status = row_status(block.kernel(table), block.task, length)
    total = status.size
    realized = int(np.sum(status == realization.REALIZED))
    return CompletionAlpha(realized / total if total else 1.0, realized,
                           int(np.sum(status == realization.UNDECIDED)), int(total))


def monte_carlo_alpha(block: LearnedBlock, lengths, samples: int = DEFAULT_SAMPLES,
                      seed: int = DEFAULT_SEED) -> dict[int, MonteCarloAlpha]:
    """Expected α_L when the untrained rows keep their initialization E_j ~ N(0, 1/d) i.i.d.
    (the same initialization :func:`train_block` starts from): mean, standard error, range."""
    lengths = sorted(lengths)
    rng = np.random.default_rng(seed)
    values: dict[int, list[float]] = {L: [] for L in lengths}
    L_max, L0, d = lengths[-1], block.train_length, block.d
    for _ in range(samples):
        tail = rng.normal(0.0, 1.0 / np.sqrt(d), size=(L_max - L0, d))   # (L_max - L0, d)
        K = block.kernel(np.concatenate([block.E, tail], axis=0))        # (L_max, L_max)
        for L in lengths:
            status = row_status(K, block.task, L)
            values[L].append(float(np.mean(status == realization.REALIZED)) if status.size else 1.0)
    out: dict[int, MonteCarloAlpha] = {}
    for L in lengths:
        v = np.asarray(values[L])                                        # (samples,)
        out[L] = MonteCarloAlpha(float(v.mean()), float(v.std(ddof=1) / np.sqrt(v.size)) if v.size > 1 else 0.0,
                                 float(v.min()), float(v.max()), seed, samples, MONTE_CARLO_INIT)
    return out


def zero_completion_formula(task: Task, length: int, train_length: int) -> float:
    """Result (a): |R_L ∩ [0, L0)| / |R_L|."""
    rows = task.rows(length)
    return float(np.sum(rows < train_length)) / rows.size if rows.size else 1.0


@dataclass(frozen=True)
class LengthInterval:
    """α_L of a learned PE at one length: the interval spanned by the named completions and the
    Monte Carlo samples, with each completion's row counts."""

    length: int
    completions: dict[str, CompletionAlpha]   # completion name -> completion_alpha at this length
    monte_carlo: MonteCarloAlpha              # monte_carlo_alpha at this length

    @property
    def low(self) -> float:
        return min(self._values())

    @property
    def high(self) -> float:
        return max(self._values())

    def _values(self) -> list[float]:
        return [c.alpha for c in self.completions.values()] + [self.monte_carlo.min, self.monte_carlo.max]

    def to_json(self) -> dict:
        return {"low": self.low, "high": self.high,
                "completions": {name: c.alpha for name, c in self.completions.items()},
                "monte_carlo": self.monte_carlo.to_json()}

    def rows_json(self) -> dict:
        """Each completion's row counts: its ``to_json()`` without α."""
        return {name: {k: v for k, v in c.to_json().items() if k != "alpha"} for name, c in self.completions.items()}


@dataclass(frozen=True)
class LearnedInterval:
    """What ``posreal alpha`` reports for ``learned:d``: the trained block and an interval of α_L per length.

    An interval, never one number.  ``intervals`` is empty when the block does not realize
    the task at L0."""

    pe: LearnedAbsolute
    task: Task
    train_length: int
    lengths: tuple[int, ...]
    block: LearnedBlock
    min_train_margin: float
    intervals: tuple[LengthInterval, ...] = ()

    @property
    def realizable(self) -> bool:
        return self.min_train_margin > 0

    def interval(self, length: int) -> LengthInterval:
        for item in self.intervals:
            if item.length == length:
                return item
        raise bad_value("length", length, f"a length of this result: {list(self.lengths)}" if self.realizable
                        else "none: the task is not realized at L0")

    def to_json(self) -> dict:
        doc: dict = {"pe": str(self.pe), "task": str(self.task), "train_length": self.train_length, "mode": "learned",
                     "block": {"method": self.block.method, "seed": self.block.seed, "steps": self.block.steps,
                               "d": self.pe.d, "init": "E_j, W_ab ~ N(0, 1/d)",
                               "min_train_margin": self.min_train_margin},
                     "realizable": self.realizable}
        if not self.realizable:
            doc["alpha"] = {str(L): None for L in self.lengths}
            doc["reason"] = "gradient descent did not realize the task at L0 within the step budget"
            return doc
        doc["alpha"] = {str(item.length): item.to_json() for item in self.intervals}
        doc["rows"] = {str(item.length): item.rows_json() for item in self.intervals}
        doc["interval"] = "spanned by the completions zero, copy_last and the Monte Carlo samples"
        return doc


def learned_alpha_interval(pe: str | LearnedAbsolute, task: str | Task, train_length: int = 16,
                           lengths: Iterable[int] = (32, 64, 128, 256), seed: int = DEFAULT_SEED,
                           samples: int = DEFAULT_SAMPLES) -> LearnedInterval:
    """α_L of a learned PE at each length, as an interval.

    The interval is spanned by the named completions and the Monte Carlo samples, never one number
    (``.to_json()`` is the ``posreal alpha`` document)."""
    learned, task = parse_learned(pe), parse_task(task)
    if isinstance(samples, bool) or not isinstance(samples, (int, np.integer)) or samples < 2:
        raise bad_value("samples", samples, "an integer >= 2")
    sorted_lengths = sorted({int(L) for L in lengths})
    for L in sorted_lengths:
        if L < train_length or L > MAX_LEARNED_LENGTH:
            raise bad_value("length", L, f"integers from the train length {train_length} to {MAX_LEARNED_LENGTH}")
    require(learned_estimate(f"{learned} · {task}", learned.d, train_length, sorted_lengths, TRAIN_STEPS, samples))
    block = train_block(task, learned.d, train_length, seed)
    train_min = float(block.train_margins().min())
    result = LearnedInterval(learned, task, train_length, tuple(sorted_lengths), block, train_min)
    if not result.realizable:
        return result
    mc = monte_carlo_alpha(block, sorted_lengths, samples, seed + 1)
    intervals = tuple(LengthInterval(L, {name: completion_alpha(block, L, name) for name in COMPLETIONS}, mc[L])
                      for L in sorted_lengths)
    return replace(result, intervals=intervals)
