"""Depth alone does not escape: K positional-only hard-attention layers with a residual stream
(result E1, definitions.md#what-escapes).

Main definitions and results:

* layer k routes row i to route_k(i) ≤ i, a function of (n, i) alone (static routing, Expressivity (a));
  it appends to row i the stream of row route_k(i): stream_0(i) = (x_i), stream_k(i) =
  (stream_{k-1}(i), stream_{k-1}(route_k(i))) (:func:`streams`);
* route lemma: stream_K(i) is a function of x restricted to S_K(i), where S_0(i) = {i} and
  S_k(i) = S_{k-1}(i) ∪ S_{k-1}(route_k(i)) ⊆ {0..i}; |S_K(i)| ≤ 2^K; S_K depends on (n, i) only
  (:func:`read_sets`).  By induction on K: the step is proved for all n by SMT (``escape-depth``), the
  size bound is |A ∪ B| ≤ |A| + |B|;
* hence the bound β_i^(K) = max_{|S| ≤ 2^K, S ⊆ visible(i)} (Bayes accuracy of predicting F(x)_i from
  x_S) for x uniform on {0..V-1}^n (:func:`depth_bound`): exact by enumeration (Fractions) when V^n ≤
  :data:`posreal.theory.expressivity.MAX_ENUMERATION`, seeded Monte Carlo beyond (a plug-in estimate,
  biased upward: the conservative reading of "< 1").  Bayes accuracy is monotone in S, so subsets of
  size exactly min(2^K, |visible|) suffice.  With K = 0 and no readout the head copies x_j: that is
  :func:`posreal.theory.expressivity.static_routing_bound`'s β_i ≤ β_i^(0).  Sorting and addition keep
  β^(K) < 1 on some row once n outgrows 2^K (one output depends on more than 2^K inputs).
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction

import numpy as np

from posreal.theory.errors import bad_value
from posreal.theory.expressivity import DEFAULT_SAMPLES, DEFAULT_SEED, BetaMethod, beta_inputs, content_task

MAX_SUBSETS = 20_000
"""Subsets S examined per row (C(|visible|, 2^K)); more is refused with a one-line error."""


def check_routes(route_maps: Sequence[Sequence[int]]) -> list[list[int]]:
    """K route maps on one grid, each route_k(i) ∈ {0..i}: a one-line SpecError otherwise."""
    maps = [list(map(int, m)) for m in route_maps]
    if maps and any(len(m) != len(maps[0]) for m in maps):
        raise bad_value("route maps", route_maps, "K maps of one length n")
    for m in maps:
        if any(not 0 <= r <= i for i, r in enumerate(m)):
            raise bad_value("route map", m, "route(i) in {0..i} for every row i (causal)")
    return maps


def read_sets(route_maps: Sequence[Sequence[int]], length: int) -> list[frozenset[int]]:
    """S_K(i) for i = 0..n-1: the positions whose tokens the stream of row i is a function of."""
    sets = [frozenset([i]) for i in range(length)]
    for route in check_routes(route_maps):
        sets = [sets[i] | sets[route[i]] for i in range(length)]
    return sets


def streams(tokens: Sequence[int] | np.ndarray, route_maps: Sequence[Sequence[int]]) -> list[tuple]:
    """The residual streams after K hard-attention layers: nested tuples, one per row."""
    out: list[tuple] = [(int(x),) for x in tokens]
    for route in check_routes(route_maps):
        out = [(out[i], out[route[i]]) for i in range(len(out))]
    return out


@dataclass
class DepthBound:
    """β_i^(K) per output row, with a maximizing set S per row."""

    task: str
    length: int
    vocab: int
    depth: int
    method: BetaMethod
    rows: list[int]
    beta: list                            # Fractions (enumeration) or floats (Monte Carlo)
    argmax: list[tuple[int, ...]]         # a maximizing S per row
    seed: int | None = None
    samples: int | None = None
    stderr: list[float] = field(default_factory=list)

    @property
    def below_one(self) -> bool:
        """Some row has β_i^(K) < 1 (Monte Carlo: by more than three standard errors)."""
        if self.method is BetaMethod.ENUMERATION:
            return any(b < 1 for b in self.beta)
        return any(b + 3 * e < 1 for b, e in zip(self.beta, self.stderr))

    def to_json(self) -> dict:
        fmt = (lambda b: f"{b.numerator}/{b.denominator}") if self.method is BetaMethod.ENUMERATION else float
        return {"task": self.task, "length": self.length, "vocab": self.vocab, "depth": self.depth,
                "method": self.method.value, "rows": self.rows, "beta": [fmt(b) for b in self.beta],
                "argmax": [list(s) for s in self.argmax], "seed": self.seed, "samples": self.samples,
                "stderr": self.stderr or None}


def _bayes_hits(X: np.ndarray, y: np.ndarray, subset: tuple[int, ...], vocab: int) -> int:
    """Σ over values of x_S of the count of the most frequent y: X (B, n), y (B,) -> an int."""
    radix = vocab ** np.arange(len(subset), dtype=np.int64)                 # (|S|,)
    key = X[:, list(subset)] @ radix if subset else np.zeros(X.shape[0], dtype=np.int64)   # (B,)
    ys = int(y.max()) + 1
    joint = key * ys + y                                                    # (B,)
    pairs, counts = np.unique(joint, return_counts=True)
    best: dict[int, int] = {}
    for p, c in zip((pairs // ys).tolist(), counts.tolist()):
        best[p] = max(best.get(p, 0), c)
    return sum(best.values())


def depth_bound(spec: str, length: int, vocab: int, depth: int, method: BetaMethod | str = BetaMethod.AUTO,
                samples: int = DEFAULT_SAMPLES, seed: int = DEFAULT_SEED, visible: str | None = None) -> DepthBound:
    """β_i^(K) for x uniform on {0..vocab-1}^length (the tasks of :func:`~posreal.theory.expressivity.content_task`)."""
    if isinstance(depth, bool) or not isinstance(depth, int) or not 0 <= depth <= 16:
        raise bad_value("depth K", depth, "an integer from 0 to 16")
    task = content_task(spec, length, vocab, visible)
    method, X = beta_inputs(length, vocab, method, samples, seed)                 # (B, n)
    total = X.shape[0]
    Y = task.fn(X)                                                                 # (B, m)
    beta: list = []
    argmax: list[tuple[int, ...]] = []
    stderr: list[float] = []
    for r, row in enumerate(task.rows):
        pool = list(task.visible(row))
        size_s = min(2 ** depth, len(pool))
        if math.comb(len(pool), size_s) > MAX_SUBSETS:
            raise bad_value("subsets per row C(visible, 2^K)", math.comb(len(pool), size_s),
                            f"at most {MAX_SUBSETS} (a smaller length or depth)")
        best = -1
        where: tuple[int, ...] = ()
        for subset in itertools.combinations(pool, size_s):
            hits = _bayes_hits(X, Y[:, r], subset, vocab)
            if hits > best:
                best, where = hits, subset
        if method is BetaMethod.ENUMERATION:
            beta.append(Fraction(best, total))
        else:
            b = best / total
            beta.append(b)
            stderr.append(math.sqrt(b * (1 - b) / total))
        argmax.append(where)
    if method is BetaMethod.ENUMERATION:
        return DepthBound(task.name, length, vocab, depth, method, list(task.rows), beta, argmax)
    return DepthBound(task.name, length, vocab, depth, method, list(task.rows), beta, argmax, seed, samples, stderr)
