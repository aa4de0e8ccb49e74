"""Symmetric ties: a signed permutation that proves a tie margin stays exactly 0 along gradient descent.

Main definitions and results (definitions.md#residual-levels, "Symmetric ties"; statement id
``conjecture-limit``):

* a *signed permutation* Q of ℝ^p, (Qx)_{π(c)} = ε_c x_c with π a permutation and ε_c = ±1, is
  orthogonal;
* :func:`row_multisets` — the training rows' multisets of differences {z_ij : j ≤ i, j ≠ t(i)},
  i ∈ R_L0, in ℚ: the loss ℓ(θ) = Σ_i log(1 + Σ_j e^{-⟨θ, z_ij⟩}) depends on θ only through them;
* **Lemma.** If Q maps the multiset of the rows' multisets onto itself, then ℓ(Qθ) = ℓ(θ) and
  ∇ℓ(Qθ) = Q∇ℓ(θ); gradient descent from θ_0 = 0 (any fixed step) and the gradient flow keep
  Qθ_k = θ_k.  If moreover Qw = -w for the projection w of a tie direction v on col Zᵀ, then
  ⟨θ_k, v⟩ = ⟨θ_k, w⟩ = ⟨Qθ_k, Qw⟩ = -⟨θ_k, v⟩ = 0 for every k: the row stays tied — lost.
  *Proof.* Q permutes the loss's terms; θ_0 = 0 = Q0 and θ_{k+1} = θ_k - η∇ℓ(θ_k) is mapped to
  itself by induction; θ_k ∈ col Zᵀ (the span lemma) gives ⟨θ_k, v⟩ = ⟨θ_k, w⟩.  QED.
* :func:`find_symmetry` — a backtracking search over (π, ε), coordinate by coordinate: each
  coordinate's image must match its per-row value multisets and ε_c w_c = -w_{π(c)}, and every
  partial assignment must map the rows' partial multisets onto themselves; bounded by
  :data:`NODE_BUDGET` nodes (an exhausted budget is reported, never taken as "no symmetry").
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from fractions import Fraction
from collections.abc import Sequence

from posreal.theory.encodings import Encoding
from posreal.theory.selection import exact_difference_vectors, training_pairs
from posreal.theory.tasks import Task

Vector = tuple[Fraction, ...]
RowMultisets = list[Counter]           # one Counter {z: count} per training row
NODE_BUDGET = 200_000


@dataclass(frozen=True)
class SignedPermutation:
    """Q: (Qx)_{perm[c]} = signs[c] · x_c."""

    perm: tuple[int, ...]
    signs: tuple[int, ...]

    def apply(self, x: Sequence[Fraction]) -> Vector:
        out = [Fraction(0)] * len(x)
        for c, (target, sign) in enumerate(zip(self.perm, self.signs)):
            out[target] = sign * x[c]
        return tuple(out)

    def to_json(self) -> dict:
        return {"perm": list(self.perm), "signs": list(self.signs)}


def row_multisets(pe: Encoding, task: Task, train_length: int) -> RowMultisets:
    """Per training row i ∈ R_L0, the multiset of its differences z_ij (j ≠ t), in ℚ."""
    pairs = training_pairs(task, train_length)                           # (N, 3)
    zs = exact_difference_vectors(pe, pairs, train_length)               # N vectors
    rows: dict[int, Counter] = {}
    for (i, _, _), z in zip(pairs.tolist(), zs):
        rows.setdefault(i, Counter())[z] += 1
    return [rows[i] for i in sorted(rows)]


def preserves(q: SignedPermutation, rows: RowMultisets) -> bool:
    """Q maps the multiset of the rows' multisets onto itself (checked in ℚ)."""
    def key(row: Counter) -> frozenset:
        return frozenset(row.items())
    before = Counter(key(r) for r in rows)
    after = Counter(key(Counter({q.apply(z): n for z, n in r.items()})) for r in rows)
    return before == after


def _partial_key(rows: RowMultisets, coords: list[int], signs: list[int]) -> Counter:
    """The multiset over rows of the multisets of (signs · z)[coords]."""
    out: Counter = Counter()
    for row in rows:
        part: Counter = Counter()
        for z, n in row.items():
            part[tuple(s * z[c] for c, s in zip(coords, signs))] += n
        out[frozenset(part.items())] += 1
    return out


def find_symmetry(rows: RowMultisets, w: Sequence[Fraction], budget: int = NODE_BUDGET
                  ) -> SignedPermutation | None | str:
    """A signed permutation preserving the rows' multisets with Qw = -w; None if there is none; a string
    when the node budget ran out first."""
    p = len(w)
    if p == 0 or not any(w):
        return None
    column = [_partial_key(rows, [c], [1]) for c in range(p)]
    negated = [_partial_key(rows, [c], [-1]) for c in range(p)]
    candidates: list[list[tuple[int, int]]] = []
    for c in range(p):
        options = []
        for target in range(p):
            for sign, key in ((1, column[c]), (-1, negated[c])):
                if key == column[target] and sign * w[c] == -w[target]:
                    options.append((target, sign))
        if not options:
            return None
        candidates.append(options)
    order = sorted(range(p), key=lambda c: len(candidates[c]))
    perm: dict[int, tuple[int, int]] = {}
    used: set[int] = set()
    nodes = 0

    def consistent() -> bool:
        coords = list(perm)
        images = [perm[c][0] for c in coords]
        signs = [perm[c][1] for c in coords]
        return _partial_key(rows, coords, signs) == _partial_key(rows, images, [1] * len(images))

    def search(depth: int) -> SignedPermutation | None | str:
        nonlocal nodes
        if depth == p:
            q = SignedPermutation(tuple(perm[c][0] for c in range(p)), tuple(perm[c][1] for c in range(p)))
            return q if preserves(q, rows) and q.apply(w) == tuple(-x for x in w) else None
        c = order[depth]
        for target, sign in candidates[c]:
            if target in used:
                continue
            nodes += 1
            if nodes > budget:
                return f"symmetry search stopped after {budget} nodes"
            perm[c] = (target, sign)
            used.add(target)
            if consistent():
                found = search(depth + 1)
                if found is not None:
                    return found
            del perm[c]
            used.discard(target)
        return None

    return search(0)
