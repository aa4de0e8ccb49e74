"""The checks of E4, claim ``escape-averaging``, each with a negative control.

The checks of E4, claim ``escape-averaging`` (soft averaging with BOS and no PE,
:mod:`posreal.theory.soft_averaging`), each with a negative control.

* :func:`check_soft_averaging` [enumeration]:

  every sequence over V = 2 up to n = 9 rows (BOS + 8 tokens): :func:`~posreal.theory.soft_averaging.recover`
  returns the row and the counts exactly; the least ℓ∞ distance between two same-row outputs with different
  counts is exactly 1/(i + 1), the least BOS-coordinate gap to a later row exactly 1/((i + 1)(i + 2)); the
  readout h[a] - h[b] has the sign of ``majority`` on every row with c_a ≠ c_b, margin ≥ 1/(i + 1), attained;
  long sequences (seeded, n = 2049, V = 3): recovery is exact at every row and the float64 uniform softmax of the
  same rows recovers them by rounding;
  negative controls: without BOS, and with a BOS equal to token 0, two prefixes of different rows average to
  the same vector, so recovery of the position must fail (a collision is found);
* :func:`check_soft_averaging_symbolic` [symbolic]: for symbolic i, i', c_a (sympy), the recovery identities
  i = 1/h[BOS] - 1 and c_a = h[a]/h[BOS] simplify to 0, the BOS gap 1/(i + 1) - 1/(i' + 1) equals
  (i' - i)/((i + 1)(i' + 1)) and increases in i' (derivative 1/(i' + 1)² > 0), so its least value over i' > i is
  at i' = i + 1, 1/((i + 1)(i + 2)); control: without BOS, a sequence of one repeated token reads h_i[a] = i/i,
  whose derivative in i is 0 — every row gives the same output, so the position cannot be recovered.
"""

from __future__ import annotations

import itertools
from fractions import Fraction

import numpy as np

from posreal.checks.base import FAILED, PASSED, CheckResult, Control, timed
from posreal.checks.declare import claim_check
from posreal.theory.attention import softmax_rows
from posreal.theory.soft_averaging import (averaged_stream, count_margin, majority_readout, position_margin,
                                           recover)

SEED = 20261207
CLAIM = "escape-averaging"


def _exhaustive(vocab: int = 2, tokens: int = 8) -> list[str]:
    problems: list[str] = []
    by_row: dict[int, set[tuple[Fraction, ...]]] = {}
    for seq in itertools.product(range(vocab), repeat=tokens):
        rows = averaged_stream(list(seq), vocab)
        for i, h in enumerate(rows):
            by_row.setdefault(i, set()).add(h)
            counts = tuple(list(seq[:i]).count(a) for a in range(vocab))
            if recover(h) != (i, counts):
                problems.append(f"recovery of {seq[:i]} row {i}")
            if counts[0] != counts[1]:
                r = majority_readout(h, 0, 1)
                if (r > 0) != (counts[0] > counts[1]) or abs(r) < count_margin(i):
                    problems.append(f"majority readout on {seq[:i]}")
    for i, outs in by_row.items():
        pairs = [max(abs(u - v) for u, v in zip(p, q)) for p, q in itertools.combinations(outs, 2)]
        if pairs and min(pairs) != count_margin(i):
            problems.append(f"row {i}: least count gap {min(pairs)} != {count_margin(i)}")
        later = [abs(next(iter(by_row[i]))[-1] - next(iter(by_row[j]))[-1]) for j in by_row if j > i]
        if later and min(later) != position_margin(i):
            problems.append(f"row {i}: least position gap {min(later)} != {position_margin(i)}")
    return problems


def _long(rng: np.random.Generator, length: int = 2048, vocab: int = 3) -> list[str]:
    seq = rng.integers(0, vocab, size=length).tolist()
    rows = averaged_stream(seq, vocab)
    problems = [f"long row {i}" for i, h in enumerate(rows)
                if recover(h) != (i, tuple(seq[:i].count(a) for a in range(vocab)))]
    n = length + 1
    values = np.eye(vocab + 1)[[vocab, *seq]]                                      # (n, V + 1) one-hot
    kappa = np.where(np.tril(np.ones((n, n), dtype=bool)), 0.0, -np.inf)           # zero scores, causal
    h = softmax_rows(kappa) @ values                                               # (n, V + 1), float64
    i_hat = np.rint(1.0 / h[:, -1] - 1).astype(int)
    c_hat = np.rint(h[:, :-1] / h[:, -1:]).astype(int)
    exact = np.cumsum(values[:, :-1], axis=0).astype(int)                          # (n, V)
    if not (np.array_equal(i_hat, np.arange(n)) and np.array_equal(c_hat, exact)):
        problems.append("float64 uniform softmax does not recover the rows by rounding")
    return problems


def position_collision(bos_token: int | None, vocab: int = 2, tokens: int = 6) -> tuple | None:
    """Two prefixes of different rows with the same averaged output.

    BOS is absent (``bos_token`` None) or equals ``bos_token``; a collision means the position is then not
    recoverable.  None when no collision exists up to ``tokens``."""
    seen: dict[tuple[Fraction, ...], tuple[int, ...]] = {}
    for n in range(1, tokens + 1):
        for seq in itertools.product(range(vocab), repeat=n):
            full = list(seq) if bos_token is None else [bos_token, *seq]
            h = averaged_stream(full, vocab, bos=False)[-1]
            if h in seen and len(seen[h]) != len(full):
                return seen[h], tuple(full)
            seen.setdefault(h, tuple(full))
    return None


@claim_check(CLAIM, "enumeration", "E4: recovery and margins by enumeration, controls without BOS")
def check_soft_averaging() -> CheckResult:
    """Check E4 by enumeration: BOS with uniform attention recovers position and counts."""
    def body() -> CheckResult:
        problems = _exhaustive() + _long(np.random.default_rng(SEED))
        collisions = {"no BOS": position_collision(None), "BOS = token 0": position_collision(0)}
        control = all(c is not None for c in collisions.values())
        return CheckResult(
            CLAIM, "uniform attention with BOS and no PE recovers position and counts at every row; margins "
                   "1/(i+1) (counts) and 1/((i+1)(i+2)) (position), exactly", "enumeration",
            PASSED if not problems else FAILED, Control.COUNTEREXAMPLE if control else Control.NO_COUNTEREXAMPLE,
            detail="; ".join(problems[:5]) + ("; " if problems else "")
                   + "every sequence V = 2, 8 tokens, and seeded n = 2049, V = 3 (exact and float64); control: "
                   + ", ".join(f"{k}: {'collision ' + repr(v) if v else 'none found'}" for k, v in collisions.items()))
    return timed(body)


@claim_check(CLAIM, "symbolic", "E4: recovery identities and the least position gap, for symbolic i")
def check_soft_averaging_symbolic() -> CheckResult:
    """Check E4's recovery identities and least position gap for symbolic i."""
    def body() -> CheckResult:
        import sympy as sp
        i, j, c = sp.symbols("i j c", positive=True, integer=True)               # rows i < j, a count c ≤ i
        bos, token = 1 / (i + 1), c / (i + 1)                                    # h_i[BOS], h_i[a]
        recovery = [sp.simplify(1 / bos - 1 - i), sp.simplify(token / bos - c)]
        gap = 1 / (i + 1) - 1 / (j + 1)                                          # BOS coordinate of row i minus j
        closed = sp.simplify(gap - (j - i) / ((i + 1) * (j + 1)))
        slope = sp.simplify(sp.diff(gap, j))                                     # 1/(j + 1)², > 0
        least = sp.simplify(gap.subs(j, i + 1) - 1 / ((i + 1) * (i + 2)))
        ok = recovery == [0, 0] and closed == 0 and least == 0 and bool(slope.is_positive)
        # control: no BOS and one repeated token a: h_i[a] = c/i with c = i, the same vector at every row
        repeated = sp.simplify(sp.diff((c / i).subs(c, i), i))
        control = repeated == 0
        return CheckResult(
            CLAIM, "i = 1/h[BOS] - 1, c_a = h[a]/h[BOS]; BOS gap (j - i)/((i+1)(j+1)) increasing in j, least "
                   "1/((i+1)(i+2)) at j = i + 1", "symbolic", PASSED if ok else FAILED,
            Control.COUNTEREXAMPLE if control else Control.NO_COUNTEREXAMPLE,
            detail=f"recovery residuals {recovery}, gap identity {closed}, d gap/dj = {slope}, least - bound = "
                   f"{least}; control: without BOS, one repeated token gives d h_i[a]/di = {repeated} "
                   "(every row alike)")
    return timed(body)
