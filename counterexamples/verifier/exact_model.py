"""An independent, pure-Python model of the rational objects a certificate speaks about.

The certificate verifier must not trust the numpy code that produced a certificate, so it
re-derives tasks and features from their spec strings here, with :class:`fractions.Fraction`
only (no numpy, no z3, no ``theory`` computation).  Main definitions (definitions.md#positional-task,
definitions.md#linear-pe):

* :func:`rows_and_targets` — scored rows ``R_n`` and targets ``t_n(i)`` of the registry tasks
  ``offset:c``, ``position:p``, ``copy``, ``middle``, ``reverse``, ``half`` and ``dual:T``;
* :func:`feature` — ψ(i, j) ∈ ℚ^p for the rational PEs ``nope``, ``relbias[:D]``,
  ``colbias[:D]``, ``alibi``, the shear ``dual:P`` (ψ_S(i, j) = ψ(i, i - j)) and user feature
  tables embedded in the certificate (relative ``T[i-j]``, column ``T[j]``, general ``T[i][j]``);
* :func:`training_pairs` — every (i, t, j) with i ∈ R_L0, j ≤ i, j ≠ t, ordered by row then key.

The test suite cross-checks this model against ``theory`` on the registry, so the two
implementations guard each other.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from fractions import Fraction

from posreal.counterexamples.verifier.errors import CertificateError

Vector = tuple[Fraction, ...]
TASK_FORMS = "offset:c, position:p, copy, middle, reverse, half, dual:TASK"
PE_FORMS = "nope, relbias[:D], colbias[:D], alibi, dual:PE, or the name of an embedded table"
TABLE_KINDS = ("relative", "column", "general")
IRRATIONAL_NAMES = ("rope", "abscol", "abssin", "learned")


class NotCheckable(CertificateError):
    """A well-formed claim about a PE whose features are not rational (sinusoidal, learned)."""


def _nonneg(text: str, what: str, forms: str) -> int:
    try:
        value = int(text, 10)
    except ValueError:
        value = -1
    if value < 0:
        raise CertificateError(f"invalid {what} {text!r}; accepted: {forms}")
    return value


def rows_and_targets(task: str, n: int) -> list[tuple[int, int]]:
    """Scored rows and targets ``[(i, t_n(i))]`` of a task spec on the n-grid, rows ascending."""
    if not isinstance(task, str):
        raise CertificateError(f"invalid task {task!r}; accepted: {TASK_FORMS}")
    if task.startswith("dual:"):
        return [(i, i - t) for i, t in rows_and_targets(task[5:], n)]
    h = n // 2
    if task == "copy":
        return [(i, i - h) for i in range(h, n)]
    if task == "middle":
        return [(i, h) for i in range(h, n)]
    if task == "reverse":
        return [(i, n - 1 - i) for i in range((n + 1) // 2, n)]
    if task == "half":
        return [(i, i // 2) for i in range(n)]
    name, _, arg = task.partition(":")
    if name == "offset" and arg:
        c = _nonneg(arg, "task", TASK_FORMS)
        return [(i, i - c) for i in range(c, n)]
    if name == "position" and arg:
        p = _nonneg(arg, "task", TASK_FORMS)
        return [(i, p) for i in range(p, n)]
    raise CertificateError(f"invalid task {task!r}; accepted: {TASK_FORMS}")


def _onehot(index: int, size: int) -> Vector:
    return tuple(Fraction(1) if b == index else Fraction(0) for b in range(size))


def feature(pe: str, i: int, j: int, train_length: int,
            tables: Mapping[str, Mapping] | None = None) -> Vector:
    """ψ(i, j) in ℚ for query i and key j ≤ i of a rational PE spec."""
    tables = tables or {}
    if not isinstance(pe, str):
        raise CertificateError(f"invalid PE {pe!r}; accepted: {PE_FORMS}")
    if pe.startswith("dual:"):
        return feature(pe[5:], i, i - j, train_length, tables)
    if pe in tables:
        table = tables[pe]
        kind, rows = table["kind"], table["rows"]
        if kind == "relative":
            return tuple(rows[i - j])
        if kind == "column":
            return tuple(rows[j])
        return tuple(rows[i][j])
    name, _, arg = pe.partition(":")
    if pe == "nope":
        return ()
    if pe == "alibi":
        return (Fraction(-(i - j)),)
    if name in ("relbias", "colbias"):
        D = _nonneg(arg, "PE", PE_FORMS) if arg else train_length - 1
        if D < 0:
            raise CertificateError(f"invalid train length {train_length!r}; accepted: an integer >= 1")
        k = i - j if name == "relbias" else j
        return _onehot(min(k, D), D + 1)
    if name in IRRATIONAL_NAMES:
        raise NotCheckable(f"PE {pe!r} has irrational features; the fractions-only verifier accepts {PE_FORMS}")
    raise CertificateError(f"invalid PE {pe!r}; accepted: {PE_FORMS}")


def row_features(pe: str, i: int, train_length: int, tables: Mapping | None = None) -> list[Vector]:
    """Ψ_i = [ψ(i, j)]_{j ≤ i}: the row's feature matrix, one key per row."""
    return [feature(pe, i, j, train_length, tables) for j in range(i + 1)]


def training_pairs(task: str, train_length: int) -> list[tuple[int, int, int]]:
    """Every (i, t, j) with i ∈ R_L0, j ≤ i, j ≠ t, ordered by row then key."""
    return [(i, t, j) for i, t in rows_and_targets(task, train_length) for j in range(i + 1) if j != t]


def difference(pe: str, i: int, t: int, j: int, train_length: int, tables: Mapping | None = None) -> Vector:
    """z = ψ(i, t) - ψ(i, j)."""
    a = feature(pe, i, t, train_length, tables)
    b = feature(pe, i, j, train_length, tables)
    return tuple(x - y for x, y in zip(a, b))


def dot(a: Sequence[Fraction], b: Sequence[Fraction]) -> Fraction:
    return sum((x * y for x, y in zip(a, b)), Fraction(0))
