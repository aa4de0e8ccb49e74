"""The certificate verifier: re-derives every exact claim with fractions only.

Main function: :func:`verify_document` -> :class:`Verdict`, whose :class:`Outcome` is ``verified`` /
``refuted`` / ``not checkable``, and :func:`verify_file`.  It uses :mod:`posreal.counterexamples.verifier.exact_model`
(tasks and rational features from their spec strings) and :mod:`posreal.counterexamples.verifier.qla`
(Gaussian elimination in ℚ) — no numpy, no z3, no ``theory`` computation — so a certificate is
checked independently of the code that wrote it.

What is re-derived, per kind (definitions.md#selection, definitions.md#outside-colspan):

* every kind — θ* is the selected parameters: each support pair is a training pair at L0,
  λ > 0, θ* = Σ λ z, every training difference has ⟨θ*, z⟩ ≥ 1 and the support ones = 1 (KKT of
  the hard-margin SVM, sufficient for its unique optimum);
* ``static-colspan`` — the row's exact margin under T_L θ* is the claimed value and > 0, while
  rank [Ψ_i | e_t] = rank Ψ_i + 1 (e_t ∉ col Ψ_i);
* ``dynamic-colspan`` — v = ψ(i,t) - ψ(i,j) has ⟨θ*, v⟩ = 0 and the row's margin is 0;
  rank [Z; v] = rank Z + 1 (v ∉ col Zᵀ); the first step θ_1 = -η ∇ℓ(0), ∇ℓ(0) = Σ_i (mean_j ψ(i,j)
  - ψ(i,t)), η = 1/β, β = Σ_i max_j ‖ψ(i,j)‖², lies in col Zᵀ and ⟨θ_1, v⟩ is the claimed value ≠ 0;
* ``open-tie`` — the row's margin is 0, every tied rival's v_j has ⟨θ*, v_j⟩ = 0 and Z v_j ≠ 0
  (not orthogonal: the conjecture's open case), α_L is the claimed fraction, and, when present,
  the sign of the exponential-tail prediction lim ⟨θ_k, v_j⟩ = Σ_s c_s log(n_s / λ_s) (decided in ℚ
  by comparing Π (n_s/λ_s)^{a_s} with 1) with its hypotheses (independent support, strict
  complementarity, v_j - Σ c_s z_s ⊥ col Zᵀ).

Float ``evidence`` (gradient-descent trajectories) is reported as not checkable, never verified.
A digest mismatch (an edit after sealing) refutes the certificate.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from fractions import Fraction
from pathlib import Path
from typing import Any

from posreal.counterexamples.verifier import exact_model as em
from posreal.counterexamples.verifier import qla
from posreal.counterexamples.verifier.certificate import (BUNDLE_FORMAT, FORMAT, KINDS, VERSION, digest, load, unq,
                                                          unqvec)
from posreal.counterexamples.verifier.errors import CertificateError


class Outcome(StrEnum):
    """What the verifier concluded about one certificate (JSON: the value strings)."""

    VERIFIED = "verified"             # every exact claim re-derived
    REFUTED = "refuted"               # some claim (or the digest) does not hold
    NOT_CHECKABLE = "not checkable"   # the instance is outside what fractions alone can check


VERIFIED, REFUTED, NOT_CHECKABLE = Outcome.VERIFIED, Outcome.REFUTED, Outcome.NOT_CHECKABLE
EXIT_CODES = {Outcome.VERIFIED: 0, Outcome.REFUTED: 1, Outcome.NOT_CHECKABLE: 3}
MAX_CHECKED_LENGTH = 4096  # grid sizes the fractions-only verifier accepts


@dataclass
class Verdict:
    verdict: Outcome
    name: str
    failures: list[str] = field(default_factory=list)
    checked: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    def to_json(self) -> dict:
        return {"verdict": self.verdict.value, "name": self.name, "failures": self.failures,
                "checked": self.checked, "notes": self.notes}


def _get(d: Any, key: str, kind: type | tuple, where: str):
    if not isinstance(d, dict) or key not in d:
        raise CertificateError(f"malformed certificate: missing {where}.{key}")
    value = d[key]
    if kind is int and isinstance(value, bool) or not isinstance(value, kind):
        raise CertificateError(f"malformed certificate: {where}.{key} = {value!r}; accepted: {kind}")
    return value


class _Check:
    def __init__(self):
        self.failures: list[str] = []
        self.checked: list[str] = []

    def __call__(self, ok: bool, what: str) -> bool:
        (self.checked if ok else self.failures).append(what)
        return ok


def _tables(instance: dict) -> dict:
    raw = instance.get("tables", {})
    if not isinstance(raw, dict):
        raise CertificateError(f"malformed certificate: instance.tables = {raw!r}; accepted: an object")
    out = {}
    for name, table in raw.items():
        kind = _get(table, "kind", str, f"tables.{name}")
        rows = _get(table, "rows", list, f"tables.{name}")
        if kind not in em.TABLE_KINDS:
            raise CertificateError(f"malformed certificate: tables.{name}.kind = {kind!r}; "
                                   f"accepted: {', '.join(em.TABLE_KINDS)}")
        if kind == "general":
            out[name] = {"kind": kind, "rows": [[unqvec(cell, f"tables.{name}[{a}][{b}]") for b, cell in enumerate(row)]
                                                for a, row in enumerate(rows)]}
        else:
            out[name] = {"kind": kind, "rows": [unqvec(row, f"tables.{name}[{a}]") for a, row in enumerate(rows)]}
    return out


def _table_size(pe: str, tables: dict) -> int | None:
    base = pe
    while base.startswith("dual:"):
        base = base[5:]
    return len(tables[base]["rows"]) if base in tables else None


class _Instance:
    """The re-derived objects of one certificate's instance."""

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
        self.pairs = em.training_pairs(self.task, self.L0)
        self._z = {}
        for i, t, j in self.pairs:
            self._z[(i, t, j)] = em.difference(self.pe, i, t, j, self.L0, self.tables)
        self.Z = list(dict.fromkeys(self._z.values()))          # distinct training differences
        self.counts: dict[tuple, int] = {}
        for z in self._z.values():
            self.counts[z] = self.counts.get(z, 0) + 1

    def psi(self, i: int, j: int):
        return em.feature(self.pe, i, j, self.L0, self.tables)

    def dim(self) -> int:
        return len(em.feature(self.pe, 0, 0, self.L0, self.tables))

    def row_kernel(self, theta, i: int) -> list[Fraction]:
        return [em.dot(theta, self.psi(i, j)) for j in range(i + 1)]


def _margin(values: list[Fraction], t: int) -> Fraction | None:
    others = [x for k, x in enumerate(values) if k != t]
    return None if not others else values[t] - max(others)


def _check_selected(inst: _Instance, claims: dict, check: _Check) -> tuple:
    sel = _get(claims, "selected", dict, "claims")
    theta = unqvec(_get(sel, "theta", list, "claims.selected"), "claims.selected.theta")
    support = _get(sel, "support", list, "claims.selected")
    if len(theta) != inst.dim():
        raise CertificateError(f"malformed certificate: θ* has {len(theta)} entries, the PE has dimension {inst.dim()}")
    combo = [Fraction(0)] * len(theta)
    lams = []
    for n, entry in enumerate(support):
        pair = tuple(_get(entry, "pair", list, f"support[{n}]"))
        lam = unq(_get(entry, "lambda", str, f"support[{n}]"), f"support[{n}].lambda")
        if pair not in inst._z:
            check(False, f"support pair {list(pair)} is a training pair at L0")
            continue
        z = inst._z[pair]
        lams.append((z, lam))
        check(lam > 0, f"λ > 0 for support pair {list(pair)}")
        combo = [c + lam * x for c, x in zip(combo, z)]
        check(em.dot(theta, z) == 1, f"⟨θ*, z⟩ = 1 on support pair {list(pair)} (complementarity)")
    check(tuple(combo) == theta, "θ* = Σ λ z (stationarity)")
    check(all(em.dot(theta, z) >= 1 for z in inst.Z), "⟨θ*, z⟩ ≥ 1 for every training difference (primal)")
    return theta, lams


def _check_row(inst: _Instance, check: _Check, instance: dict) -> tuple[int, int]:
    i = _get(instance, "row", int, "instance")
    t = _get(instance, "target", int, "instance")
    rows = dict(em.rows_and_targets(inst.task, inst.L))
    check(rows.get(i) == t, f"row {i} is scored at L={inst.L} with target {t}")
    if not 0 <= t <= i < inst.L:
        raise CertificateError(f"malformed certificate: row {i!r}, target {t!r} outside the L={inst.L} grid")
    return i, t


def _static(inst, instance, claims, check):
    theta, _ = _check_selected(inst, claims, check)
    i, t = _check_row(inst, check, instance)
    margin = _margin(inst.row_kernel(theta, i), t)
    claimed = unq(_get(claims, "margin", str, "claims"), "claims.margin")
    check(margin is not None and margin == claimed, f"margin of row {i} under T_L θ* equals {claimed}")
    check(margin is not None and margin > 0, "the row is realized (margin > 0)")
    psi = [inst.psi(i, j) for j in range(i + 1)]                      # (i+1, p)
    augmented = [list(r) + [Fraction(int(j == t))] for j, r in enumerate(psi)]
    r1, r2 = qla.rank(psi) if psi[0] else 0, qla.rank(augmented)
    check(r1 == _get(claims, "rank_features", int, "claims"), f"rank Ψ_i = {r1}")
    check(r2 == _get(claims, "rank_augmented", int, "claims"), f"rank [Ψ_i | e_t] = {r2}")
    check(r2 == r1 + 1, "e_t ∉ col Ψ_i")


def _gradient_at_zero(inst: _Instance) -> tuple[list[Fraction], Fraction]:
    p = inst.dim()
    grad = [Fraction(0)] * p
    beta = Fraction(0)
    for i, t in em.rows_and_targets(inst.task, inst.L0):
        feats = [inst.psi(i, j) for j in range(i + 1)]
        mean = [sum((f[c] for f in feats), Fraction(0)) / (i + 1) for c in range(p)]
        grad = [g + m - x for g, m, x in zip(grad, mean, feats[t])]
        beta += max((em.dot(f, f) for f in feats), default=Fraction(0))
    return grad, beta


def _dynamic(inst, instance, claims, check):
    theta, _ = _check_selected(inst, claims, check)
    i, t = _check_row(inst, check, instance)
    j = _get(instance, "rival", int, "instance")
    if not 0 <= j <= i or j == t:
        raise CertificateError(f"malformed certificate: rival {j!r}; accepted: a key j <= {i}, j != {t}")
    v = em.difference(inst.pe, i, t, j, inst.L0, inst.tables)
    check(v == unqvec(_get(claims, "tie_direction", list, "claims"), "claims.tie_direction"),
          "v = ψ(i,t) - ψ(i,j)")
    check(em.dot(theta, v) == 0 and any(v), "⟨θ*, v⟩ = 0 with v ≠ 0 (a tie, not a structural one)")
    margin = _margin(inst.row_kernel(theta, i), t)
    check(margin == 0 == unq(_get(claims, "margin", str, "claims"), "claims.margin"), "row margin under T_L θ* is 0")
    r = qla.rank(inst.Z)
    check(r == _get(claims, "rank_differences", int, "claims"), f"rank Z = {r}")
    rv = qla.rank(inst.Z + [v])
    check(rv == _get(claims, "rank_with_direction", int, "claims"), f"rank [Z; v] = {rv}")
    check(rv == r + 1, "v ∉ col Zᵀ")
    grad, beta = _gradient_at_zero(inst)
    eta = unq(_get(claims, "step_size", str, "claims"), "claims.step_size")
    check(beta > 0 and eta == 1 / beta, "η = 1/β, β = Σ_i max_j ‖ψ(i,j)‖²")
    check(tuple(grad) == unqvec(_get(claims, "gradient_at_zero", list, "claims"), "claims.gradient_at_zero"),
          "∇ℓ(0) = Σ_i (mean_j ψ(i,j) - ψ(i,t))")
    step = tuple(-eta * g for g in grad)
    check(step == unqvec(_get(claims, "first_step", list, "claims"), "claims.first_step"), "θ_1 = -η ∇ℓ(0)")
    check(qla.rank(inst.Z + [step]) == r, "θ_1 ∈ col Zᵀ")
    ip = em.dot(step, v)
    claimed = unq(_get(claims, "first_step_dot_v", str, "claims"), "claims.first_step_dot_v")
    check(ip == claimed and ip != 0, f"⟨θ_1, v⟩ = {claimed} ≠ 0")


def _prediction_sign(pred: dict, inst: _Instance, theta, lams, v, check, where) -> int | None:
    """Re-derive the exact sign of Σ_s c_s log(n_s/λ_s) and its hypotheses; None if they fail."""
    coeffs = _get(pred, "coefficients", list, where)
    if len(coeffs) != len(lams):
        raise CertificateError(f"malformed certificate: {where}.coefficients has {len(coeffs)} entries, "
                               f"the support has {len(lams)}")
    c = [unq(x, f"{where}.coefficients") for x in coeffs]
    zs = [z for z, _ in lams]
    ok = check(qla.rank(zs) == len(zs), f"{where}: support vectors linearly independent")
    support_set = set(zs)
    ok &= check(all(em.dot(theta, z) > 1 for z in inst.Z if z not in support_set),
                f"{where}: strict complementarity (⟨θ*, z⟩ > 1 off the support)")
    rest = [x - sum((cs * z[n] for cs, z in zip(c, zs)), Fraction(0)) for n, x in enumerate(v)]
    ok &= check(all(em.dot(z, rest) == 0 for z in inst.Z), f"{where}: v - Σ c_s z_s ⊥ col Zᵀ")
    den = 1
    for x in c:
        den = den * x.denominator // _gcd(den, x.denominator)
    product = Fraction(1)
    for (z, lam), x in zip(lams, c):
        a = int(x * den)
        product *= (Fraction(inst.counts[z]) / lam) ** a
    sign = (product > 1) - (product < 1)
    check(sign == _get(pred, "sign", int, where), f"{where}: sign of the predicted limit is {sign}")
    return sign if ok else None


def _gcd(a: int, b: int) -> int:
    while b:
        a, b = b, a % b
    return a


def _open_tie(inst, instance, claims, check):
    theta, lams = _check_selected(inst, claims, check)
    i, t = _check_row(inst, check, instance)
    kernel = inst.row_kernel(theta, i)
    margin = _margin(kernel, t)
    check(margin == 0 == unq(_get(claims, "margin", str, "claims"), "claims.margin"), "row margin under T_L θ* is 0")
    tied = [j for j in range(i + 1) if j != t and kernel[j] == kernel[t]]
    rivals = _get(claims, "rivals", list, "claims")
    check(sorted(_get(r, "rival", int, "claims.rivals[]") for r in rivals) == tied,
          f"the tied rivals are {tied}")
    signs = []
    for n, entry in enumerate(rivals):
        j = _get(entry, "rival", int, f"claims.rivals[{n}]")
        if not 0 <= j <= i or j == t:
            raise CertificateError(f"malformed certificate: rival {j!r}; accepted: a key j <= {i}, j != {t}")
        v = em.difference(inst.pe, i, t, j, inst.L0, inst.tables)
        check(v == unqvec(_get(entry, "direction", list, f"rivals[{n}]"), f"rivals[{n}].direction"),
              f"v_{j} = ψ(i,t) - ψ(i,{j})")
        check(any(v) and em.dot(theta, v) == 0, f"⟨θ*, v_{j}⟩ = 0, v_{j} ≠ 0")
        check(any(em.dot(z, v) != 0 for z in inst.Z), f"Z v_{j} ≠ 0 (not orthogonal: open case)")
        if "prediction" in entry:
            signs.append(_prediction_sign(_get(entry, "prediction", dict, f"rivals[{n}]"), inst, theta, lams, v,
                                          check, f"rivals[{n}].prediction"))
    realized = 0
    rows = em.rows_and_targets(inst.task, inst.L)
    for r, tr in rows:
        g = _margin(inst.row_kernel(theta, r), tr)
        realized += g is None or g > 0
    alpha = Fraction(realized, len(rows)) if rows else Fraction(1)
    check(alpha == unq(_get(claims, "alpha", str, "claims"), "claims.alpha"), f"α_L = {alpha}")
    if "predicted_wins" in claims:
        wins = bool(signs) and len(signs) == len(rivals) and all(s == 1 for s in signs)
        check(wins == _get(claims, "predicted_wins", bool, "claims"), f"predicted row outcome: wins = {wins}")


_KIND_CHECKS = {"static-colspan": _static, "dynamic-colspan": _dynamic, "open-tie": _open_tie}


def verify_certificate(document: dict, name: str = "certificate") -> Verdict:
    """Verify one certificate object; malformed input raises CertificateError."""
    if document.get("format") != FORMAT:
        raise CertificateError(f"malformed certificate {name}: format {document.get('format')!r}; accepted: {FORMAT!r}")
    if document.get("version") != VERSION:
        raise CertificateError(f"malformed certificate {name}: version {document.get('version')!r}; "
                               f"accepted: {VERSION}")
    kind = document.get("kind")
    if kind not in KINDS:
        raise CertificateError(f"malformed certificate {name}: kind {kind!r}; accepted: {', '.join(KINDS)}")
    instance = _get(document, "instance", dict, "certificate")
    claims = _get(document, "claims", dict, "certificate")
    check = _Check()
    check(document.get("digest") == digest(document), "digest matches the content (no edit after sealing)")
    try:
        inst = _Instance(instance)
        _KIND_CHECKS[kind](inst, instance, claims, check)
    except em.NotCheckable as err:
        return Verdict(NOT_CHECKABLE, name, notes=[str(err)])
    except (KeyError, IndexError, TypeError, ValueError) as err:
        if isinstance(err, CertificateError):
            raise
        raise CertificateError(f"malformed certificate {name}: {err.__class__.__name__} {err}") from None
    notes = ["float evidence (gradient descent) is reported, not verified"] if document.get("evidence") else []
    verdict = VERIFIED if not check.failures else REFUTED
    return Verdict(verdict, name, check.failures, check.checked, notes)


def verify_document(document: dict, name: str = "certificate") -> list[Verdict]:
    """Verify a certificate or a bundle; returns one verdict per certificate."""
    if document.get("format") == BUNDLE_FORMAT:
        certs = _get(document, "certificates", list, "bundle")
        if not certs:
            raise CertificateError(f"malformed bundle {name}: no certificates")
        return [verify_certificate(c if isinstance(c, dict) else {}, f"{name}#{n}") for n, c in enumerate(certs)]
    return [verify_certificate(document, name)]


def overall(verdicts: list[Verdict]) -> Outcome:
    kinds = {v.verdict for v in verdicts}
    if REFUTED in kinds:
        return REFUTED
    if NOT_CHECKABLE in kinds:
        return NOT_CHECKABLE
    return VERIFIED


def verify_file(path: str | Path) -> list[Verdict]:
    return verify_document(load(path), Path(path).name)
