"""Static routing bound β for content-dependent tasks (Expressivity bound (a)); no z3 here.

Main definitions and results (definitions.md#expressivity):

* a positional-only head's attention on row i depends on n alone (static routing, proved in
  :mod:`posreal.checks.smt.expressivity`); a hard-attention head therefore copies one fixed input
  position j(i) on row i, and its accuracy on a task y = F(x) with x ~ D is
  P[x_{j(i)} = F(x)_i] ≤ β_i = max_{j visible from i} P[x_j = F(x)_i];
* x is i.i.d. uniform over a vocabulary {0..V-1}.  β_i is computed **exactly** (Fractions) by
  enumerating all V^n inputs when V^n ≤ :data:`MAX_ENUMERATION`, and by seeded Monte Carlo
  beyond (the seed, sample count and the standard error of the maximizing proportion are
  reported; the max of estimates is biased upward, so an upper confidence value is the
  conservative reading of "β < 1");
* tasks: every positional task of the registry (F(x)_i = x_{t_n(i)} on scored rows, causal
  visibility j ≤ i) has β = 1; ``sort`` (ascending) and ``addition`` (two k-digit numbers,
  little-endian digits a_0..a_{k-1} b_0..b_{k-1}, output the k+1 digits of a + b) have
  β < 1.  For these sequence-to-sequence tasks every input position is visible by default
  (``visible="all"``), a superset of the causal prefix, so β < 1 there implies β < 1 causally;
* controls: ``permutation`` (F(x)_i = x_{(i+1) mod n}: content-independent, must give β = 1)
  and ``successor`` (F(x)_i = x_i + 1 mod V: content-dependent, must give β < 1).

:func:`static_routing_bound` returns per-row β; the check of claim ``expressivity`` built on it
is :func:`posreal.checks.smt.static_routing.beta_check` (the SMT half is in :mod:`posreal.checks.smt.expressivity`).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field
from enum import StrEnum
from fractions import Fraction

import numpy as np

from posreal.theory.errors import SpecError, bad_value
from posreal.theory.tasks import parse_task

MAX_ENUMERATION = 2 ** 20        # inputs enumerated exactly (V^n)
DEFAULT_SAMPLES = 200_000
DEFAULT_SEED = 20240601
TASK_FORMS = "a positional task spec (copy, offset:1, ...), sort, addition, successor, permutation"
VISIBILITY = ("causal", "all")


@dataclass(frozen=True)
class ContentTask:
    """y = F(x) on inputs of length n: ``fn`` maps (B, n) int arrays to (B, m) outputs; output
    row ``rows[r]`` may read the input positions ``visible(r)``."""

    name: str
    length: int
    rows: tuple[int, ...]
    fn: Callable[[np.ndarray], np.ndarray]
    visible: Callable[[int], range]


class BetaMethod(StrEnum):
    """How β is computed (JSON: the value strings); ``auto`` picks one of the other two by V^n."""

    AUTO = "auto"
    ENUMERATION = "enumeration"       # every input, exact Fractions
    MONTE_CARLO = "monte-carlo"       # seeded samples, floats with a standard error


@dataclass
class BetaResult:
    task: str
    length: int
    vocab: int
    method: BetaMethod                # ENUMERATION or MONTE_CARLO (never AUTO)
    rows: list[int]
    beta: list                        # Fractions (enumeration) or floats (Monte Carlo)
    argmax: list[int]                 # a maximizing input position per row
    seed: int | None = None
    samples: int | None = None
    stderr: list[float] = field(default_factory=list)

    def to_json(self) -> dict:
        fmt = (lambda b: f"{b.numerator}/{b.denominator}") if self.method is BetaMethod.ENUMERATION else float
        return {"task": self.task, "length": self.length, "vocab": self.vocab, "method": self.method.value,
                "rows": self.rows, "beta": [fmt(b) for b in self.beta], "argmax": self.argmax,
                "seed": self.seed, "samples": self.samples, "stderr": self.stderr or None}


# ------------------------------------------------------------------ tasks
def _causal(row: int) -> range:
    return range(row + 1)


def content_task(spec: str, length: int, vocab: int, visible: str | None = None) -> ContentTask:
    """The task ``spec`` on inputs of ``length`` tokens over {0..vocab-1}."""
    if not isinstance(length, int) or length < 1:
        raise bad_value("length", length, "an integer >= 1")
    if not isinstance(vocab, int) or vocab < 2:
        raise bad_value("vocabulary size", vocab, "an integer >= 2")
    if visible is not None and visible not in VISIBILITY:
        raise bad_value("visibility", visible, ", ".join(VISIBILITY))
    everything = lambda row: range(length)
    if spec == "sort":
        return ContentTask("sort", length, tuple(range(length)), lambda X: np.sort(X, axis=1),
                           _causal if visible == "causal" else everything)
    if spec == "addition":
        if length % 2:
            raise bad_value("length for addition", length, "an even length 2k (two k-digit numbers)")
        return ContentTask("addition", length, tuple(range(length // 2 + 1)), _adder(length // 2, vocab),
                           _causal if visible == "causal" else everything)
    if spec == "successor":
        return ContentTask("successor", length, tuple(range(length)), lambda X: (X + 1) % vocab,
                           everything if visible == "all" else _causal)
    if spec == "permutation":
        order = np.roll(np.arange(length), -1)           # F(x)_i = x_{(i+1) mod n}
        return ContentTask("permutation", length, tuple(range(length)), lambda X: X[:, order],
                           _causal if visible == "causal" else everything)
    try:
        task = parse_task(spec)
    except SpecError:
        raise bad_value("task", spec, TASK_FORMS) from None
    rows, targets = task.rows_and_targets(length)
    return ContentTask(str(task), length, tuple(rows.tolist()), lambda X: X[:, targets],
                       everything if visible == "all" else _causal)


def _adder(k: int, base: int) -> Callable[[np.ndarray], np.ndarray]:
    def add(X: np.ndarray) -> np.ndarray:
        a, b = X[:, :k], X[:, k:]                        # (B, k) little-endian digits
        out = np.zeros((X.shape[0], k + 1), dtype=np.int64)
        carry = np.zeros(X.shape[0], dtype=np.int64)
        for d in range(k):
            total = a[:, d] + b[:, d] + carry            # (B,)
            out[:, d], carry = total % base, total // base
        out[:, k] = carry
        return out
    return add


# ------------------------------------------------------------------ β
def _hits(task: ContentTask, X: np.ndarray) -> list[np.ndarray]:
    """For each output row r: counts over visible j of [x_j = F(x)_r]: list of (|visible|,)."""
    Y = task.fn(X)                                       # (B, m)
    return [np.sum(X[:, list(task.visible(row))] == Y[:, r:r + 1], axis=0) for r, row in enumerate(task.rows)]


def parse_beta_method(method: object) -> BetaMethod:
    """A :class:`BetaMethod` or its value string; anything else is the one-line SpecError."""
    if isinstance(method, str) and method in {m.value for m in BetaMethod}:
        return BetaMethod(method)
    raise bad_value("method", method, ", ".join(m.value for m in BetaMethod))


def beta_inputs(length: int, vocab: int, method: BetaMethod | str, samples: int, seed: int
                ) -> tuple[BetaMethod, np.ndarray]:
    """The inputs β is taken over: every x ∈ {0..V-1}^n (enumeration, up to :data:`MAX_ENUMERATION`) or ``samples``
    seeded uniform draws (Monte Carlo); ``auto`` picks by size.  Returns the method used and X: (B, n) int64."""
    method = parse_beta_method(method)
    size = vocab ** length
    if method is BetaMethod.AUTO:
        method = BetaMethod.ENUMERATION if size <= MAX_ENUMERATION else BetaMethod.MONTE_CARLO
    if method is BetaMethod.ENUMERATION:
        if size > MAX_ENUMERATION:
            raise bad_value("enumeration size vocab**length", size, f"at most {MAX_ENUMERATION} (use monte-carlo)")
        digits = vocab ** np.arange(length - 1, -1, -1, dtype=np.int64)          # (n,) mixed radix
        return method, (np.arange(size, dtype=np.int64)[:, None] // digits[None, :]) % vocab   # (V^n, n)
    if not isinstance(samples, int) or samples < 1:
        raise bad_value("samples", samples, "an integer >= 1")
    return method, np.random.default_rng(seed).integers(0, vocab, size=(samples, length), dtype=np.int64)


def static_routing_bound(spec: str, length: int, vocab: int, method: BetaMethod | str = BetaMethod.AUTO,
                         samples: int = DEFAULT_SAMPLES, seed: int = DEFAULT_SEED,
                         visible: str | None = None) -> BetaResult:
    """Per-row β_i = max_{j visible} P[x_j = F(x)_i] for x uniform on {0..vocab-1}^length."""
    task = content_task(spec, length, vocab, visible)
    method, X = beta_inputs(length, vocab, method, samples, seed)                 # (B, n)
    hits = _hits(task, X)
    if method is BetaMethod.ENUMERATION:                 # exact integer counts
        beta = [Fraction(int(h.max()), X.shape[0]) for h in hits]
        argmax = [int(task.visible(row)[int(np.argmax(h))]) for h, row in zip(hits, task.rows)]
        return BetaResult(task.name, length, vocab, method, list(task.rows), beta, argmax)
    estimate = [float(h.max()) / samples for h in hits]
    stderr = [math.sqrt(b * (1 - b) / samples) for b in estimate]
    argmax = [int(task.visible(row)[int(np.argmax(h))]) for h, row in zip(hits, task.rows)]
    return BetaResult(task.name, length, vocab, method, list(task.rows), estimate, argmax, seed, samples, stderr)
