"""An independent, pure-Python model of the rational objects a certificate speaks about.

The certificate verifier must not trust the numpy code that produced a certificate, so it
re-derives tasks and features from their spec strings here, with :class:`fractions.Fraction`
only (no numpy, no z3, no ``theory`` computation).  Main definitions (definitions.md#positional-task,
definitions.md#linear-pe):

* :func:`rows_and_targets` — scored rows ``R_n`` and targets ``t_n(i)`` of the registry tasks
  ``offset:c``, ``position:p``, ``copy``, ``middle``, ``reverse``, ``half`` and ``dual:T``;
* :func:`feature` — ψ(i, j) ∈ ℚ^p for the rational PEs ``nope``, ``clipped[:D]`` (and its older
  name ``relbias[:D]``), ``colbias[:D]``, ``slope`` (and its older name ``alibi``), the shear
  ``dual:P`` (ψ_S(i, j) = ψ(i, i - j)) and user feature tables embedded in the certificate
  (relative ``T[i-j]``, column ``T[j]``, general ``T[i][j]``);
* :func:`check_table_name` — an embedded table never takes a registry PE's name (:data:`RESERVED_NAMES`);
* :func:`dimension` — p from the spec alone, so the verifier can budget its work first;
* :func:`training_pairs` — every (i, t, j) with i ∈ R_L0, j ≤ i, j ≠ t, ordered by row then key.

Nested shears are counted in a loop (S∘S = id, so only the parity matters), never by
recursion, and at most :data:`MAX_DUAL_DEPTH` of them are accepted.  The test suite
cross-checks this model against ``theory`` on the registry, so the two implementations guard
each other.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import Any

from posreal.counterexamples.verifier.errors import CertificateError
from posreal.theory.errors import quote

Vector = tuple[Fraction, ...]
TASK_FORMS = "offset:c, position:p, copy, middle, reverse, half, dual:TASK"
PE_FORMS = ("nope, clipped[:D] (or relbias[:D]), colbias[:D], slope (or alibi), dual:PE, or the name of an "
            "embedded table")
CLIPPED_NAMES = ("clipped", "relbias", "colbias")   # relbias: the older name of clipped
SLOPE_NAMES = ("slope", "alibi")                     # alibi: the older name of slope
TABLE_KINDS = ("relative", "column", "general")
IRRATIONAL_NAMES = ("rope", "abscol", "abssin", "learned", "xpos", "kerple-log", "fire", "hf")
"""Names of PEs whose features are never rational: "not checkable" by the fractions-only verifier.  Declared here
and checked against the theory's declarations (``never_rational``) by the tests."""
RESERVED_NAMES = ("nope", "clipped", "relbias", "colbias", "slope", "alibi", "t5", "alibi-fixed", "kerple-log",
                  "rope", "xpos", "abscol", "abssin", "fire", "learned", "dual", "table", "py", "hf")
"""Every name the PE registry gives a meaning (spec forms, their older names, prefixes): an embedded
table may not take one, so that a table can never stand in for a registry PE.  Declared here (the
verifier imports nothing of the theory) and checked against the theory's parser by the tests."""
MAX_DUAL_DEPTH = 64        # nested shears dual:dual:...:X in a certificate's spec
MAX_SPEC_DIGITS = 9        # digits of an integer parameter of a spec (offset:c, relbias:D)
MAX_SPEC_CHARS = 512


class NotCheckable(CertificateError):
    """A well-formed claim that the fractions-only verifier cannot decide.

    Irrational features (sinusoidal, learned), or work above the verifier's budget."""


def _nonneg(text: str, spec: str, what: str, forms: str) -> int:
    """The integer parameter ``text`` of ``spec``: ASCII digits only, at most MAX_SPEC_DIGITS of them
    (the error quotes the whole spec)."""
    if not (0 < len(text) <= MAX_SPEC_DIGITS and text.isascii() and text.isdigit()):
        raise CertificateError(f"invalid {what} {quote(spec)}; accepted: {forms} (integer parameters: at "
                               f"most {MAX_SPEC_DIGITS} ASCII digits)")
    return int(text, 10)


def shear_parity(spec: Any, what: str, forms: str) -> tuple[int, str]:
    """``(number of dual: prefixes mod 2, the base spec)``, counted in a loop (S∘S = id)."""
    if not isinstance(spec, str) or len(spec) > MAX_SPEC_CHARS:
        raise CertificateError(f"invalid {what} {quote(spec)}; accepted: {forms}")
    depth = 0
    while spec.startswith("dual:", 5 * depth):
        depth += 1
        if depth > MAX_DUAL_DEPTH:
            raise CertificateError(f"invalid {what} {quote(spec)}; accepted: {forms}, with at most "
                                   f"{MAX_DUAL_DEPTH} nested dual: prefixes")
    return depth % 2, spec[5 * depth:]


def rows_and_targets(task: str, n: int) -> list[tuple[int, int]]:
    """Scored rows and targets ``[(i, t_n(i))]`` of a task spec on the n-grid, rows ascending."""
    parity, base = shear_parity(task, "task", TASK_FORMS)
    rows = _plain_rows(base, task, n)
    return [(i, i - t) for i, t in rows] if parity else rows


def _plain_rows(task: str, spec: str, n: int) -> list[tuple[int, int]]:
    """Rows and targets of the base task ``task`` (``spec`` without dual: prefixes, quoted in errors)."""
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
        c = _nonneg(arg, spec, "task", TASK_FORMS)
        return [(i, i - c) for i in range(c, n)]
    if name == "position" and arg:
        p = _nonneg(arg, spec, "task", TASK_FORMS)
        return [(i, p) for i in range(p, n)]
    raise CertificateError(f"invalid task {quote(spec)}; accepted: {TASK_FORMS}")


def _onehot(index: int, size: int) -> Vector:
    return tuple(Fraction(1) if b == index else Fraction(0) for b in range(size))


def _bucket_clip(arg: str, pe: str, train_length: int) -> int:
    D = _nonneg(arg, pe, "PE", PE_FORMS) if arg else train_length - 1
    if D < 0:
        raise CertificateError(f"invalid train length {train_length!r}; accepted: an integer >= 1")
    return D


def _unknown(pe: str, base: str) -> CertificateError:
    """The refusal of a PE spec whose base (``base``, the spec without dual: prefixes) is not rational."""
    if base.partition(":")[0] in IRRATIONAL_NAMES:
        return NotCheckable(f"PE {quote(pe)} has irrational features; the fractions-only verifier accepts {PE_FORMS}")
    return CertificateError(f"invalid PE {quote(pe)}; accepted: {PE_FORMS}")


def check_table_name(name: Any) -> str:
    """``name`` if an embedded table may be called so, else malformed.

    ``name`` if an embedded table may be called so: an ASCII identifier (so never a spec with
    parameters such as ``rope:16``) that is none of :data:`RESERVED_NAMES`; else malformed."""
    if not (isinstance(name, str) and name.isascii() and name.isidentifier() and name not in RESERVED_NAMES
            and len(name) <= MAX_SPEC_CHARS):
        raise CertificateError(f"malformed certificate: table name {quote(name)}; accepted: an ASCII identifier "
                               f"that names no registry PE (not {', '.join(RESERVED_NAMES)})")
    return name


def feature(pe: str, i: int, j: int, train_length: int,
            tables: Mapping[str, Mapping] | None = None) -> Vector:
    """ψ(i, j) in ℚ for query i and key j ≤ i of a rational PE spec."""
    tables = tables or {}
    parity, base = shear_parity(pe, "PE", PE_FORMS)
    if parity:
        j = i - j                                   # ψ_S(i, j) = ψ(i, i - j)
    if base in tables:
        table = tables[base]
        kind, rows = table["kind"], table["rows"]
        if kind == "relative":
            return tuple(rows[i - j])
        if kind == "column":
            return tuple(rows[j])
        return tuple(rows[i][j])
    name, _, arg = base.partition(":")
    if base == "nope":
        return ()
    if base in SLOPE_NAMES:
        return (Fraction(-(i - j)),)
    if name in CLIPPED_NAMES and (arg or base == name):   # "clipped:" (no D) is no spec
        D = _bucket_clip(arg, pe, train_length)
        k = j if name == "colbias" else i - j
        return _onehot(min(k, D), D + 1)
    raise _unknown(pe, base)


def dimension(pe: str, train_length: int, tables: Mapping[str, Mapping] | None = None) -> int:
    """p, the width of ψ, from the spec alone (nothing is built: the verifier budgets its work first)."""
    _, base = shear_parity(pe, "PE", PE_FORMS)
    if tables and base in tables:
        return int(tables[base]["width"])
    name, _, arg = base.partition(":")
    if base == "nope":
        return 0
    if base in SLOPE_NAMES:
        return 1
    if name in CLIPPED_NAMES and (arg or base == name):
        return _bucket_clip(arg, pe, train_length) + 1
    raise _unknown(pe, base)


def training_pairs(task: str, train_length: int) -> list[tuple[int, int, int]]:
    """Every (i, t, j) with i ∈ R_L0, j ≤ i, j ≠ t, ordered by row then key."""
    return [(i, t, j) for i, t in rows_and_targets(task, train_length) for j in range(i + 1) if j != t]


def difference(pe: str, i: int, t: int, j: int, train_length: int, tables: Mapping | None = None) -> Vector:
    """z = ψ(i, t) - ψ(i, j)."""
    a = feature(pe, i, t, train_length, tables)
    b = feature(pe, i, j, train_length, tables)
    return tuple(x - y for x, y in zip(a, b, strict=True))


def dot(a: Sequence[Fraction], b: Sequence[Fraction]) -> Fraction:
    """The exact dot product of two vectors of equal length."""
    return sum((x * y for x, y in zip(a, b, strict=True)), Fraction(0))
