"""The certificate verifier: re-derives every exact claim with fractions only.

Main function: :func:`verify_document` -> :class:`CertificateReport`, whose :class:`Outcome` is ``verified`` /
``refuted`` / ``not checkable``, and :func:`verify_file`.  It uses :mod:`posreal.counterexamples.verifier.exact_model`
(tasks and rational features from their spec strings) and :mod:`posreal.counterexamples.verifier.qla`
(Gaussian elimination in ℚ) — no numpy, no z3, no ``theory`` computation — so a certificate is
checked independently of the code that wrote it.

Soundness rule: the certificate's fields are fixed per kind (:mod:`posreal.counterexamples.verifier.schema`:
unknown fields and wrong JSON types are refused), and every leaf under ``claims`` must be
compared with a value re-derived from the instance; a leaf that no check covered refutes the
certificate.  What is re-derived, per kind (definitions.md#selection, definitions.md#outside-colspan):

* every kind — θ* is the selected parameters: each support pair is the first training pair at L0
  with its difference z (support listed in that order, no repeats), λ > 0, θ* = Σ λ z, every
  training difference has ⟨θ*, z⟩ ≥ 1 and the support ones = 1 (KKT of the hard-margin SVM,
  sufficient for its unique optimum);
* ``static-colspan`` — the row's exact margin under T_L θ* is the claimed value and > 0, while
  rank [Ψ_i | e_t] = rank Ψ_i + 1 (e_t ∉ col Ψ_i);
* ``dynamic-colspan`` — v = ψ(i,t) - ψ(i,j) and ⟨θ*, v⟩ are the claimed values, ⟨θ*, v⟩ = 0 and
  the row's margin is 0; rank [Z; v] = rank Z + 1 (v ∉ col Zᵀ); the first step θ_1 = -η ∇ℓ(0),
  ∇ℓ(0) = Σ_i (mean_j ψ(i,j) - ψ(i,t)), η = 1/β, β = Σ_i max_j ‖ψ(i,j)‖², lies in col Zᵀ and
  ⟨θ_1, v⟩ is the claimed value ≠ 0;
* ``residual-levels``, ``symmetric-tie`` (format version 2) — see
  :mod:`posreal.counterexamples.verifier.residual`;
* ``open-tie`` — the row's margin is 0, every tied rival's v_j has ⟨θ*, v_j⟩ = 0 and Z v_j ≠ 0
  (not orthogonal: the conjecture's open case), α_L is the claimed fraction, and, when present,
  the exponential-tail prediction lim ⟨θ_k, v_j⟩ = Σ_s c_s log(n_s / λ_s): the multiplicities n_s
  of the support differences among the training pairs, the coefficients c_s (from its hypotheses:
  independent support, strict complementarity, v_j - Σ c_s z_s ⊥ col Zᵀ) and its sign (decided
  in ℚ by comparing Π (n_s/λ_s)^{a_s} with 1); ``predicted_wins`` is present exactly when every
  rival has a prediction.

Bounded work: before anything is built, the verifier estimates the fraction entries and the
elimination steps the instance needs (:func:`planned_work`) and the size of the prediction's
exact product; above :data:`MAX_ENTRIES`, :data:`MAX_ELIMINATION` or :data:`MAX_PRODUCT_BITS`
the certificate is ``not checkable`` (exit 3), never a hang — unless a claim checked before the
budget was reached already failed: the certificate is then refuted.  Float ``evidence`` (log-time gradient-flow
measurements) must be a JSON object and is reported, never verified.  A digest mismatch (an edit
after sealing) refutes the certificate.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from enum import StrEnum
from fractions import Fraction
from pathlib import Path
from typing import Any

from posreal.counterexamples.verifier import exact_model as em
from posreal.counterexamples.verifier import qla, residual, schema
from posreal.counterexamples.verifier.certificate import (
    BUNDLE_FORMAT,
    FORMAT,
    KIND_VERSION,
    KINDS,
    VERSION,
    digest,
    load,
    unq,
    unqvec,
)
from posreal.counterexamples.verifier.errors import CertificateError
from posreal.theory.errors import quote


class Outcome(StrEnum):
    """What the verifier concluded about one certificate (JSON: the value strings)."""

    VERIFIED = "verified"             # every exact claim re-derived
    REFUTED = "refuted"               # some claim (or the digest) does not hold
    NOT_CHECKABLE = "not checkable"   # the instance is outside what fractions alone can check


VERIFIED, REFUTED, NOT_CHECKABLE = Outcome.VERIFIED, Outcome.REFUTED, Outcome.NOT_CHECKABLE
EXIT_CODES = {Outcome.VERIFIED: 0, Outcome.REFUTED: 1, Outcome.NOT_CHECKABLE: 3}
MAX_CHECKED_LENGTH = 4096        # grid sizes the fractions-only verifier accepts
MAX_ENTRIES = 2_000_000          # fraction entries of the features it builds (pairs at L0, rows at L)
MAX_ELIMINATION = 50_000_000     # fraction operations of its Gaussian eliminations
MAX_PRODUCT_BITS = 1_000_000     # bits of the prediction's exact product Π (n_s/λ_s)^{a_s}
MAX_BUNDLE = 10_000              # certificates in one bundle

Path_ = tuple[Any, ...]


@dataclass
class CertificateReport:
    """The verifier's verdict on one certificate, with its failures, checks and notes."""

    verdict: Outcome
    name: str
    failures: list[str] = field(default_factory=list)
    checked: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    def to_json(self) -> dict:
        """The report as a JSON object."""
        return {"verdict": self.verdict.value, "name": self.name, "failures": self.failures,
                "checked": self.checked, "notes": self.notes}


def _get(d: Any, key: str, kind: type | tuple, where: str) -> Any:
    if not isinstance(d, dict) or key not in d:
        raise CertificateError(f"malformed certificate: missing {where}.{key}")
    return schema.typed(d[key], kind, f"{where}.{key}")


class _Check:
    """Records each check's outcome and which claim leaves the checks covered."""

    def __init__(self) -> None:
        self.failures: list[str] = []
        self.checked: list[str] = []
        self.covered: set[Path_] = set()

    def __call__(self, ok: bool, what: str, *claims: Path_) -> bool:
        (self.checked if ok else self.failures).append(what)
        self.covered.update(claims)
        return ok

    def uncovered(self, claims: dict) -> list[Path_]:
        def walk(node: Any, path: Path_) -> list[Path_]:
            if path in self.covered:
                return []
            if isinstance(node, dict) and node:
                return [p for k, v in node.items() for p in walk(v, path + (k,))]
            if isinstance(node, list) and node:
                return [p for n, v in enumerate(node) for p in walk(v, path + (n,))]
            return [path]
        return walk(claims, ())


def _tables(instance: dict) -> dict:
    raw = instance.get("tables", {})
    if not isinstance(raw, dict):
        raise CertificateError(f"malformed certificate: instance.tables = {quote(raw)}; accepted: an object")
    out = {}
    for name, table in raw.items():
        em.check_table_name(name)   # a table never shadows a registry PE
        schema.keys(table, {"kind", "rows"}, set(), f"tables.{name}")
        kind = _get(table, "kind", str, f"tables.{name}")
        rows = _get(table, "rows", list, f"tables.{name}")
        if kind not in em.TABLE_KINDS:
            raise CertificateError(f"malformed certificate: tables.{name}.kind = {quote(kind)}; "
                                   f"accepted: {', '.join(em.TABLE_KINDS)}")
        parsed: list[Any]   # general: rows of cells; relative/column: one vector per row
        if kind == "general":
            parsed = [[unqvec(cell, f"tables.{name}[{a}][{b}]")
                       for b, cell in enumerate(schema.typed(row, list, "row"))]
                      for a, row in enumerate(rows)]
            widths = {len(cell) for row in parsed for cell in row}
            if any(len(row) < a + 1 for a, row in enumerate(parsed)):
                raise CertificateError(f"malformed certificate: tables.{name}: row i of a general table needs "
                                       "i + 1 cells")
        else:
            parsed = [unqvec(row, f"tables.{name}[{a}]") for a, row in enumerate(rows)]
            widths = {len(row) for row in parsed}
        if len(widths) != 1:
            raise CertificateError(f"malformed certificate: tables.{name}: feature vectors of widths "
                                   f"{sorted(widths)[:5]}; accepted: one width, at least one row")
        out[name] = {"kind": kind, "rows": parsed, "width": widths.pop()}
    return out


def _table_size(pe: str, tables: dict) -> int | None:
    _, base = em.shear_parity(pe, "PE", em.PE_FORMS)
    return len(tables[base]["rows"]) if base in tables else None


def planned_work(pe: str, task: str, train_length: int, length: int, tables: dict) -> tuple[int, int]:
    """(fraction entries of features built, fraction operations of eliminations), from the specs alone."""
    p = max(em.dimension(pe, train_length, tables), 1)
    pairs = sum(i for i, _ in em.rows_and_targets(task, train_length))        # training pairs at L0
    keys = sum(i + 1 for i, _ in em.rows_and_targets(task, length))           # row kernels at L
    entries = 2 * p * (pairs + keys)
    elimination = 2 * (pairs + 2) * p * min(pairs + 2, p)                       # ranks of Z and [Z; v]
    return entries, elimination


class _Instance:
    """The re-derived objects of one certificate's instance (built after the work is budgeted)."""

    def __init__(self, instance: dict):
        self.pe = _get(instance, "pe", str, "instance")
        self.task = _get(instance, "task", str, "instance")
        self.L0 = _get(instance, "train_length", int, "instance")
        self.L = _get(instance, "length", int, "instance")
        self.tables = _tables(instance)
        if not 1 <= self.L0 <= self.L <= MAX_CHECKED_LENGTH:
            raise CertificateError(f"malformed certificate: lengths L0={self.L0!r}, L={self.L!r}; "
                                   f"accepted: 1 <= L0 <= L <= {MAX_CHECKED_LENGTH}")
        size = _table_size(self.pe, self.tables)
        if size is not None and self.L > size:
            raise CertificateError(f"malformed certificate: length {self.L!r} exceeds the table size {size}")
        entries, elimination = planned_work(self.pe, self.task, self.L0, self.L, self.tables)
        if entries > MAX_ENTRIES or elimination > MAX_ELIMINATION:
            raise em.NotCheckable(f"the instance needs about {entries} fraction entries and {elimination} "
                                  f"elimination steps; the verifier's budget is {MAX_ENTRIES} and {MAX_ELIMINATION}")
        self.pairs = em.training_pairs(self.task, self.L0)
        self._z = {}
        for i, t, j in self.pairs:
            self._z[(i, t, j)] = em.difference(self.pe, i, t, j, self.L0, self.tables)
        self.first: dict[tuple, tuple[int, int, int]] = {}
        for pair in self.pairs:
            self.first.setdefault(self._z[pair], pair)
        self.Z = list(self.first)                                  # distinct training differences, first-seen order
        self.counts: dict[tuple, int] = {}
        for z in self._z.values():
            self.counts[z] = self.counts.get(z, 0) + 1

    def psi(self, i: int, j: int) -> tuple[Fraction, ...]:
        return em.feature(self.pe, i, j, self.L0, self.tables)

    def dim(self) -> int:
        return em.dimension(self.pe, self.L0, self.tables)

    def row_kernel(self, theta: tuple[Fraction, ...], i: int) -> list[Fraction]:
        return [em.dot(theta, self.psi(i, j)) for j in range(i + 1)]


def _margin(values: list[Fraction], t: int) -> Fraction | None:
    others = [x for k, x in enumerate(values) if k != t]
    return None if not others else values[t] - max(others)


def _pair(entry: Any, where: str) -> tuple[int, int, int]:
    pair = schema.typed(entry, list, where)
    if len(pair) != 3:
        raise CertificateError(f"malformed certificate: {where} = {quote(pair)}; accepted: [i, t, j]")
    a, b, c = (schema.typed(x, int, f"{where}[{n}]") for n, x in enumerate(pair))
    return a, b, c


def _check_selected(inst: _Instance, claims: dict, check: _Check) -> tuple:
    sel = _get(claims, "selected", dict, "claims")
    theta = unqvec(_get(sel, "theta", list, "claims.selected"), "claims.selected.theta")
    support = _get(sel, "support", list, "claims.selected")
    if len(theta) != inst.dim():
        raise CertificateError(f"malformed certificate: θ* has {len(theta)} entries, the PE has dimension {inst.dim()}")
    combo = [Fraction(0)] * len(theta)
    lams: list[tuple[tuple, Fraction]] = []
    order = {z: n for n, z in enumerate(inst.Z)}
    previous = -1
    for n, entry in enumerate(support):
        where = ("selected", "support", n)
        pair = _pair(_get(entry, "pair", list, f"claims.selected.support[{n}]"), f"claims.selected.support[{n}].pair")
        lam = unq(_get(entry, "lambda", str, f"claims.selected.support[{n}]"), f"claims.selected.support[{n}].lambda")
        if pair not in inst._z:
            check(False, f"support pair {list(pair)} is a training pair at L0", where + ("pair",))
            continue
        z = inst._z[pair]
        check(inst.first[z] == pair and order[z] > previous,
              f"support pair {list(pair)} is the first training pair with its difference, listed in order",
              where + ("pair",))
        previous = max(previous, order[z])
        lams.append((z, lam))
        check(lam > 0, f"λ > 0 for support pair {list(pair)}", where + ("lambda",))
        combo = [c + lam * x for c, x in zip(combo, z, strict=True)]
        check(em.dot(theta, z) == 1, f"⟨θ*, z⟩ = 1 on support pair {list(pair)} (complementarity)")
    check(tuple(combo) == theta, "θ* = Σ λ z (stationarity)", ("selected", "theta"))
    check(all(em.dot(theta, z) >= 1 for z in inst.Z), "⟨θ*, z⟩ ≥ 1 for every training difference (primal)")
    return theta, lams


def _check_row(inst: _Instance, check: _Check, instance: dict) -> tuple[int, int]:
    i = _get(instance, "row", int, "instance")
    t = _get(instance, "target", int, "instance")
    if not 0 <= t <= i < inst.L:
        raise CertificateError(f"malformed certificate: row {i!r}, target {t!r} outside the L={inst.L} grid")
    rows = dict(em.rows_and_targets(inst.task, inst.L))
    check(rows.get(i) == t, f"row {i} is scored at L={inst.L} with target {t}")
    return i, t


def _static(inst: _Instance, instance: dict, claims: dict, check: _Check) -> None:
    theta, _ = _check_selected(inst, claims, check)
    i, t = _check_row(inst, check, instance)
    margin = _margin(inst.row_kernel(theta, i), t)
    claimed = unq(_get(claims, "margin", str, "claims"), "claims.margin")
    check(margin is not None and margin == claimed, f"margin of row {i} under T_L θ* equals {claimed}", ("margin",))
    check(margin is not None and margin > 0, "the row is realized (margin > 0)")
    psi = [inst.psi(i, j) for j in range(i + 1)]                      # (i+1, p)
    augmented = [list(r) + [Fraction(int(j == t))] for j, r in enumerate(psi)]
    r1, r2 = qla.rank(psi) if psi[0] else 0, qla.rank(augmented)
    check(r1 == _get(claims, "rank_features", int, "claims"), f"rank Ψ_i = {r1}", ("rank_features",))
    check(r2 == _get(claims, "rank_augmented", int, "claims"), f"rank [Ψ_i | e_t] = {r2}", ("rank_augmented",))
    check(r2 == r1 + 1, "e_t ∉ col Ψ_i")


def _gradient_at_zero(inst: _Instance) -> tuple[list[Fraction], Fraction]:
    p = inst.dim()
    grad = [Fraction(0)] * p
    beta = Fraction(0)
    for i, t in em.rows_and_targets(inst.task, inst.L0):
        feats = [inst.psi(i, j) for j in range(i + 1)]
        mean = [sum((f[c] for f in feats), Fraction(0)) / (i + 1) for c in range(p)]
        grad = [g + m - x for g, m, x in zip(grad, mean, feats[t], strict=True)]
        beta += max((em.dot(f, f) for f in feats), default=Fraction(0))
    return grad, beta


def _rival(instance_or_entry: dict, key: str, i: int, t: int, where: str) -> int:
    j = _get(instance_or_entry, key, int, where)
    if not 0 <= j <= i or j == t:
        raise CertificateError(f"malformed certificate: rival {j!r}; accepted: a key j <= {i}, j != {t}")
    return j


def _dynamic(inst: _Instance, instance: dict, claims: dict, check: _Check) -> None:
    theta, _ = _check_selected(inst, claims, check)
    i, t = _check_row(inst, check, instance)
    j = _rival(instance, "rival", i, t, "instance")
    v = em.difference(inst.pe, i, t, j, inst.L0, inst.tables)
    check(v == unqvec(_get(claims, "tie_direction", list, "claims"), "claims.tie_direction"),
          "v = ψ(i,t) - ψ(i,j)", ("tie_direction",))
    theta_v = em.dot(theta, v)
    check(theta_v == unq(_get(claims, "theta_dot_v", str, "claims"), "claims.theta_dot_v"),
          f"⟨θ*, v⟩ = {theta_v}", ("theta_dot_v",))
    check(theta_v == 0 and any(v), "⟨θ*, v⟩ = 0 with v ≠ 0 (a tie, not a structural one)")
    margin = _margin(inst.row_kernel(theta, i), t)
    check(margin == 0 == unq(_get(claims, "margin", str, "claims"), "claims.margin"), "row margin under T_L θ* is 0",
          ("margin",))
    r = qla.rank(inst.Z)
    check(r == _get(claims, "rank_differences", int, "claims"), f"rank Z = {r}", ("rank_differences",))
    rv = qla.rank(inst.Z + [v])
    check(rv == _get(claims, "rank_with_direction", int, "claims"), f"rank [Z; v] = {rv}", ("rank_with_direction",))
    check(rv == r + 1, "v ∉ col Zᵀ")
    grad, beta = _gradient_at_zero(inst)
    eta = unq(_get(claims, "step_size", str, "claims"), "claims.step_size")
    check(beta > 0 and eta == 1 / beta, "η = 1/β, β = Σ_i max_j ‖ψ(i,j)‖²", ("step_size",))
    check(tuple(grad) == unqvec(_get(claims, "gradient_at_zero", list, "claims"), "claims.gradient_at_zero"),
          "∇ℓ(0) = Σ_i (mean_j ψ(i,j) - ψ(i,t))", ("gradient_at_zero",))
    step = tuple(-eta * g for g in grad)
    check(step == unqvec(_get(claims, "first_step", list, "claims"), "claims.first_step"), "θ_1 = -η ∇ℓ(0)",
          ("first_step",))
    check(qla.rank(inst.Z + [step]) == r, "θ_1 ∈ col Zᵀ")
    ip = em.dot(step, v)
    claimed = unq(_get(claims, "first_step_dot_v", str, "claims"), "claims.first_step_dot_v")
    check(ip == claimed and ip != 0, f"⟨θ_1, v⟩ = {claimed} ≠ 0", ("first_step_dot_v",))


def _product_sign(factors: list[tuple[Fraction, int]]) -> int:
    """Sign of log Π r^a (1 if the product exceeds 1), after a bound on the product's size."""
    bits = sum(abs(a) * (r.numerator.bit_length() + r.denominator.bit_length()) for r, a in factors)
    if bits > MAX_PRODUCT_BITS:
        raise em.NotCheckable(f"the prediction's exact product needs about {bits} bits; the verifier's budget is "
                              f"{MAX_PRODUCT_BITS} (coefficients too large)")
    num, den = 1, 1
    for r, a in factors:
        if a >= 0:
            num, den = num * r.numerator ** a, den * r.denominator ** a
        else:
            num, den = num * r.denominator ** -a, den * r.numerator ** -a
    return (num > den) - (num < den)


def _prediction(pred: dict, inst: _Instance, theta: tuple, lams: list, v: tuple, check: _Check,
                where: str, path: Path_) -> int | None:
    """Re-derive the prediction's multiplicities, coefficients (through its hypotheses) and exact
    sign of Σ_s c_s log(n_s/λ_s); None when a hypothesis fails."""
    coeffs = _get(pred, "coefficients", list, where)
    mults = _get(pred, "multiplicities", list, where)
    if len(coeffs) != len(lams) or len(mults) != len(lams):
        raise CertificateError(f"malformed certificate: {where} has {len(coeffs)} coefficients and {len(mults)} "
                               f"multiplicities, the support has {len(lams)}")
    c = [unq(x, f"{where}.coefficients[{n}]") for n, x in enumerate(coeffs)]
    n_s = [inst.counts[z] for z, _ in lams]
    typed = [schema.typed(m, int, f"{where}.multiplicities[{n}]") for n, m in enumerate(mults)]   # all, first
    check(all(m == k for m, k in zip(typed, n_s)),
          f"{where}: multiplicities of the support differences are {n_s}", path + ("multiplicities",))
    zs = [z for z, _ in lams]
    ok = check(qla.rank(zs) == len(zs), f"{where}: support vectors linearly independent")
    support_set = set(zs)
    ok &= check(all(em.dot(theta, z) > 1 for z in inst.Z if z not in support_set),
                f"{where}: strict complementarity (⟨θ*, z⟩ > 1 off the support)")
    rest = [x - sum((cs * z[k] for cs, z in zip(c, zs)), Fraction(0)) for k, x in enumerate(v)]
    ok &= check(all(em.dot(z, rest) == 0 for z in inst.Z), f"{where}: v - Σ c_s z_s ⊥ col Zᵀ",
                path + ("coefficients",))
    lam_ok = all(lam > 0 for _, lam in lams)
    sign = None
    if lam_ok:
        den = 1
        for x in c:
            den = den * x.denominator // _gcd(den, x.denominator)
        sign = _product_sign([(Fraction(k) / lam, int(x * den)) for k, (_, lam), x in zip(n_s, lams, c)])
    claimed = _get(pred, "sign", int, where)
    check(sign is not None and sign == claimed, f"{where}: sign of the predicted limit is {sign}", path + ("sign",))
    return sign if ok and sign is not None else None


def _gcd(a: int, b: int) -> int:
    while b:
        a, b = b, a % b
    return a


def _open_tie(inst: _Instance, instance: dict, claims: dict, check: _Check) -> None:
    theta, lams = _check_selected(inst, claims, check)
    i, t = _check_row(inst, check, instance)
    kernel = inst.row_kernel(theta, i)
    margin = _margin(kernel, t)
    check(margin == 0 == unq(_get(claims, "margin", str, "claims"), "claims.margin"), "row margin under T_L θ* is 0",
          ("margin",))
    tied = [j for j in range(i + 1) if j != t and kernel[j] == kernel[t]]
    rivals = _get(claims, "rivals", list, "claims")
    listed = [_rival(schema.typed(r, dict, f"claims.rivals[{n}]"), "rival", i, t, f"claims.rivals[{n}]")
              for n, r in enumerate(rivals)]
    check(listed == tied, f"the tied rivals are {tied}, ascending",
          *[("rivals", n, "rival") for n in range(len(rivals))])
    signs = []
    for n, (entry, j) in enumerate(zip(rivals, listed)):
        schema.keys(entry, schema.RIVAL_REQUIRED, schema.RIVAL_OPTIONAL, f"claims.rivals[{n}]")
        v = em.difference(inst.pe, i, t, j, inst.L0, inst.tables)
        check(v == unqvec(_get(entry, "direction", list, f"claims.rivals[{n}]"), f"claims.rivals[{n}].direction"),
              f"v_{j} = ψ(i,t) - ψ(i,{j})", ("rivals", n, "direction"))
        check(any(v) and em.dot(theta, v) == 0, f"⟨θ*, v_{j}⟩ = 0, v_{j} ≠ 0")
        check(any(em.dot(z, v) != 0 for z in inst.Z), f"Z v_{j} ≠ 0 (not orthogonal: open case)")
        if "prediction" in entry:
            pred = _get(entry, "prediction", dict, f"claims.rivals[{n}]")
            schema.keys(pred, schema.PREDICTION_FIELDS, set(), f"claims.rivals[{n}].prediction")
            signs.append(_prediction(pred, inst, theta, lams, v, check, f"claims.rivals[{n}].prediction",
                                     ("rivals", n, "prediction")))
    realized = 0
    rows = em.rows_and_targets(inst.task, inst.L)
    for r, tr in rows:
        g = _margin(inst.row_kernel(theta, r), tr)
        realized += g is None or g > 0
    alpha = Fraction(realized, len(rows)) if rows else Fraction(1)
    check(alpha == unq(_get(claims, "alpha", str, "claims"), "claims.alpha"), f"α_L = {alpha}", ("alpha",))
    every = len(signs) == len(rivals)
    check(("predicted_wins" in claims) == every, "predicted_wins is stated exactly when every rival has a prediction")
    if "predicted_wins" in claims:
        wins = bool(signs) and every and all(s == 1 for s in signs)
        check(wins == _get(claims, "predicted_wins", bool, "claims"), f"predicted row outcome: wins = {wins}",
              ("predicted_wins",))


_KIND_CHECKS: dict[str, Callable[[_Instance, dict, dict, _Check], None]] = {
    "static-colspan": _static, "dynamic-colspan": _dynamic, "open-tie": _open_tie}


def verify_certificate(document: dict, name: str = "certificate") -> CertificateReport:
    """Verify one certificate object; malformed input raises CertificateError."""
    if document.get("format") != FORMAT:
        raise CertificateError(f"malformed certificate {name}: format {quote(document.get('format'))}; "
                               f"accepted: {FORMAT!r}")
    version = document.get("version")
    kind = document.get("kind")
    expected = KIND_VERSION.get(kind, VERSION) if isinstance(kind, str) else VERSION
    if type(version) is not int or version != expected:   # neither true nor 1.0
        raise CertificateError(f"malformed certificate {name}: version {quote(version)}; "
                               f"accepted: the integer {expected}"
                               + (f" (the format version of kind {kind})" if expected != VERSION else ""))
    if not isinstance(kind, str) or kind not in KINDS:
        raise CertificateError(f"malformed certificate {name}: kind {quote(kind)}; accepted: {', '.join(KINDS)}")
    schema.check_document(document, kind, name)
    instance = _get(document, "instance", dict, "certificate")
    claims = _get(document, "claims", dict, "certificate")
    check = _Check()
    check(document.get("digest") == digest(document), "digest matches the content (no edit after sealing)")
    try:
        inst = _Instance(instance)
        if kind in _KIND_CHECKS:
            _KIND_CHECKS[kind](inst, instance, claims, check)
        else:   # the version-2 kinds, with this module's helpers
            residual.KIND_CHECKS[kind](sys.modules[__name__], inst, instance, claims, check)
    except em.NotCheckable as err:
        if check.failures:   # a claim (or the digest) already failed: refuted, whatever was left unchecked
            return CertificateReport(REFUTED, name, check.failures, check.checked,
                           [f"the remaining claims were not checked: {err}"])
        return CertificateReport(NOT_CHECKABLE, name, notes=[str(err)])
    except (KeyError, IndexError, TypeError, ValueError, ZeroDivisionError) as err:
        if isinstance(err, CertificateError):
            raise
        raise CertificateError(f"malformed certificate {name}: {err.__class__.__name__} {quote(str(err))}") from None
    for path in check.uncovered(claims):
        check(False, f"claim {'.'.join(map(str, path))} is not re-derived by any check")
    flow = "log-time gradient flow" if expected == VERSION else "gradient flow to log log t"
    notes = [f"float evidence ({flow}) is reported, not verified"] if document.get("evidence") else []
    if kind == "residual-levels" and "spans" in claims.get("decision", {}):
        notes.append("the sign of the finite limit Σ_k ⟨w̃_k, v⟩ needs exp and log (max-entropy residuals): it is "
                     "stated in the evidence with its enclosure, not checked by this fractions-only verifier")
    verdict = VERIFIED if not check.failures else REFUTED
    return CertificateReport(verdict, name, check.failures, check.checked, notes)


def verify_document(document: dict, name: str = "certificate") -> list[CertificateReport]:
    """Verify a certificate or a bundle; returns one verdict per certificate."""
    if document.get("format") == BUNDLE_FORMAT:
        certs = schema.check_bundle(document, name, VERSION)
        if not certs or len(certs) > MAX_BUNDLE:
            raise CertificateError(f"malformed bundle {name}: {len(certs)} certificates; accepted: 1 to {MAX_BUNDLE}")
        return [verify_certificate(c if isinstance(c, dict) else {}, f"{name}#{n}") for n, c in enumerate(certs)]
    return [verify_certificate(document, name)]


def overall(verdicts: list[CertificateReport]) -> Outcome:
    """The verdict over several certificates: refuted, else not checkable, else verified."""
    kinds = {v.verdict for v in verdicts}
    if REFUTED in kinds:
        return REFUTED
    if NOT_CHECKABLE in kinds:
        return NOT_CHECKABLE
    return VERIFIED


def verify_file(path: str | Path) -> list[CertificateReport]:
    """Verify every certificate of a certificate or bundle file."""
    return verify_document(load(path), Path(path).name)
