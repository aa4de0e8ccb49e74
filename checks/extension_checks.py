"""Checks of the length-extension statement (claim id ``extension``; definitions.md#length-extension).

The statement speaks about the continuous profile V(x) = Σ_f a_f cos ω_f x + b_f sin ω_f x of a
sinusoidal profile PE (``rope``: key index k = i - j; ``abscol``: k = j).  This module computes V, its
derivatives and the factors λ_f(s) of each method *by hand* — from ω_f = base^(-2f/d) and the formulas of
the methods, not through :mod:`posreal.theory.extension` — and confronts the statement's predictions with
the rows the project decides (:func:`posreal.theory.alpha.row_outcomes`, :func:`posreal.theory.alpha.compute_alpha`
with ``extension=``).

Main checks:

* property bodies over random smooth kernels (their strategies are in :mod:`posreal.checks.properties`),
  each with a control that drops one hypothesis:
  - :func:`copy_body` (b): a kernel with its strict maximum at L0/2 keeps every row of ``copy`` at even L
    under PI, and ties every row past ⌊L/2⌋ at odd L when it is symmetric about L0/2.  Control
    (:func:`copy_control`): the maximum moved between two integers (training still realized) — PI loses rows;
  - :func:`offset_body` (c): beyond L_c = (c+1)·L0·M2/|V'(0)| exactly row c survives, iff V'(0) > 0.  Control:
    L below the threshold, with kernels that realize the task at L0;
  - :func:`position0_body` (d): V strictly increasing on [0, L0] keeps every row of ``position:0`` at every L.
    Control: V increasing on the integers only (a wiggle of frequency ω_0 = 1 added);
  - :func:`keep_body` (e, f): the factors λ_f of the code's rescaling equal the hand formulas and split as the
    statement says; θ on extrapolated (interpolated) frequencies only gives T_L's (PI's) rows; and a row
    i < L0 with 2i·Δ_σ < γ_i stays realized.  Control: the bound 2i·Δ_σ weakened to i·Δ_σ/8;
* :func:`check_extension_registry` (registry): on the realizable registry cells of ``rope:16`` and
  ``abscol:16`` (L0 = 16) and of ``rope:32`` (L0 = 32), each part's prediction from θ*'s profile against
  ``compute_alpha(..., extension=...)``, and the instances named in the statement's notes; control: the same
  predictions against plain re-evaluation (the extension dropped) must fail somewhere.
"""

from __future__ import annotations

import json
import math
import os
import tempfile
from dataclasses import dataclass

import numpy as np

from posreal.checks.base import FAILED, PASSED, CheckResult, Control, DeclaredCheck, timed
from posreal.checks.declare import claim_check, declared_in
from posreal.theory.alpha import compute_alpha, row_outcomes
from posreal.theory.realization import REALIZED
from posreal.theory.selection import select

YARN_ALPHA, YARN_BETA = 1.0, 32.0      # YaRN's ramp (Peng et al. 2024), written here independently
EXTENSION_PES = ("rope", "abscol")


# --------------------------------------------------------------------------- the profile, by hand
@dataclass(frozen=True)
class Profile:
    """V(x) = Σ_f a_f cos ω_f x + b_f sin ω_f x: ω (h,), a (h,), b (h,)."""

    omega: np.ndarray
    a: np.ndarray
    b: np.ndarray

    @property
    def amplitude(self) -> np.ndarray:
        """The amplitude ‖(a_f, b_f)‖ of each frequency, shape (h,)."""
        return np.hypot(self.a, self.b)                                    # (h,) ‖(a_f, b_f)‖

    def value(self, x) -> np.ndarray:
        """V(x) at each point of ``x``, shape (m,)."""
        t = np.outer(np.atleast_1d(np.asarray(x, dtype=float)), self.omega)   # (m, h)
        return np.cos(t) @ self.a + np.sin(t) @ self.b                         # (m,)

    def slope(self, x) -> np.ndarray:
        """V'(x) at each point of ``x``, shape (m,)."""
        t = np.outer(np.atleast_1d(np.asarray(x, dtype=float)), self.omega)
        return np.cos(t) @ (self.b * self.omega) - np.sin(t) @ (self.a * self.omega)

    @property
    def m1(self) -> float:
        """A bound on |V'|: Σ_f ω_f‖(a_f, b_f)‖."""
        return float(np.sum(self.omega * self.amplitude))

    @property
    def m2(self) -> float:
        """A bound on |V''|: Σ_f ω_f²‖(a_f, b_f)‖."""
        return float(np.sum(self.omega ** 2 * self.amplitude))

    def delta(self, lam: np.ndarray) -> float:
        """Δ_σ = Σ_f ω_f‖(a_f, b_f)‖·|1 - 1/λ_f|."""
        return float(np.sum(self.omega * self.amplitude * np.abs(1.0 - 1.0 / lam)))


def omegas(d: int, base: float) -> np.ndarray:
    """The frequencies base^(-2f/d), f = 0 .. d/2 - 1."""
    return np.array([float(base) ** (-2.0 * f / d) for f in range(d // 2)])


def pe_spec(name: str, d: int, base: float) -> str:
    """``name:d:base`` with the base written exactly (repr round-trips the float)."""
    return f"{name}:{d}:{float(base)!r}"


def split_pe(spec: str) -> tuple[str, int, float]:
    """(name, d, base) of ``rope:d[:base]`` / ``abscol:d[:base]``."""
    parts = spec.split(":")
    return parts[0], int(parts[1]), float(parts[2]) if len(parts) > 2 else 10000.0


def profile(spec: str, theta) -> Profile:
    """V of θ for ``rope`` (features [cos ωk] ++ [sin ωk]) or ``abscol`` ([sin ωk] ++ [cos ωk])."""
    name, d, base = split_pe(spec)
    th = np.asarray(theta, dtype=float)
    h = d // 2
    first, second = th[:h], th[h:]
    a, b = (first, second) if name == "rope" else (second, first)
    return Profile(omegas(d, base), a, b)


def theta_of(spec: str, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """θ with cosine coefficients a and sine coefficients b (the inverse of :func:`profile`)."""
    name = split_pe(spec)[0]
    return np.concatenate([a, b] if name == "rope" else [b, a])


def unit_scale(a: np.ndarray, b: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """a and b divided by their largest |entry| (unchanged when all are 0).

    The realized rows of θ and of cθ (c > 0) are the same, but the float decision of a row uses absolute tolerances:
    coefficients drawn at 1e-43 made every margin a tie.  Random coefficients are therefore compared at unit scale.
    """
    top = float(max(np.abs(a).max(initial=0.0), np.abs(b).max(initial=0.0)))
    return (a / top, b / top) if top > 0 else (a, b)


def peak_at(omega: np.ndarray, amps: np.ndarray, m: float) -> tuple[np.ndarray, np.ndarray]:
    """Coefficients of Σ_f A_f cos(ω_f (x - m)): a_f = A_f cos ω_f m, b_f = A_f sin ω_f m."""
    return amps * np.cos(omega * m), amps * np.sin(omega * m)


def hand_lambdas(method: str, d: int, base: float, length: int, train_length: int,
                 factors: list[float] | None = None) -> np.ndarray:
    """λ_f(s) of a method from its published formula (s = L/L0; every method is the identity for s ≤ 1)."""
    h, s = d // 2, length / train_length
    if s <= 1:
        return np.ones(h)
    if method == "pi":
        return np.full(h, s)
    if method == "ntk":                 # base · s^(d/(d-2)): ω'_f = ω_f s^(-2f/(d-2))
        return np.array([s ** (2.0 * f / (d - 2)) if d > 2 else 1.0 for f in range(h)])
    if method == "yarn":
        out = []
        for w in omegas(d, base):
            r = train_length * w / (2 * math.pi)
            g = min(1.0, max(0.0, (r - YARN_ALPHA) / (YARN_BETA - YARN_ALPHA)))
            out.append(w / ((1 - g) * w / s + g * w))
        return np.array(out)
    if method == "factors":
        return np.asarray(factors, dtype=float)
    raise ValueError(f"unknown method {method!r}")


def realized_rows(outcomes) -> set[int]:
    """The rows whose outcome is realized."""
    return {int(r) for r, st in zip(outcomes.rows, outcomes.status) if st == REALIZED}


def _extension_spec(method: str, factors: list[float] | None, tmpdir: str) -> str:
    if method != "factors":
        return method
    path = os.path.join(tmpdir, "factors.json")
    with open(path, "w") as fh:
        json.dump([float(x) for x in factors or []], fh)     # shortest repr: the same doubles back (a factor
        # rounded to a fraction of denominator ≤ 1e9 read 1.000000000001 as 1, and the comparison failed)
    return f"factors:{path}"


# --------------------------------------------------------------------------- (b) copy under PI
def copy_case_theta(case: dict) -> tuple[str, np.ndarray]:
    """The rope spec and θ of a copy case (kernel peaked at L0/2 plus the shift)."""
    pe = pe_spec("rope", case["d"], case["base"])
    omega = omegas(case["d"], case["base"])
    a, b = peak_at(omega, np.asarray(case["amps"], dtype=float), case["L0"] / 2 + case["shift"])
    return pe, theta_of(pe, a, b)


def copy_body(case: dict) -> None:
    """The copy case: L0 even and V's strict maximum on [0, L0) at L0/2.

    L0 even and V's strict maximum on [0, L0) at L0/2 (shift 0): every row of copy at even L; at odd L
    the kernel is symmetric about L0/2, so every row past ⌊L/2⌋ ties (never realized)."""
    pe, theta = copy_case_theta(case)
    L0, L = case["L0"], case["length"]
    out = row_outcomes(pe, "copy", theta, L, L0, extension="pi")
    got = realized_rows(out)
    if L % 2 == 0:
        assert got == set(out.rows.tolist()), (f"{pe}, peak at {L0 / 2 + case['shift']}, L0 = {L0}, even L = {L}: "
                                               f"rows {sorted(set(out.rows.tolist()) - got)[:6]} not realized")
    else:
        late = {i for i in got if i > L // 2}
        assert case["shift"] != 0 or not late, (f"{pe}, symmetric about L0/2 = {L0 / 2}, odd L = {L}: rows "
                                                f"{sorted(late)[:6]} realized although they tie")


def copy_control(case: dict) -> None:
    """The maximum of V moved between two integers (training still sees the target win): PI loses rows."""
    from hypothesis import assume
    shifted = {**case, "shift": case["control_shift"], "length": 2 * (case["length"] // 2)}
    pe, theta = copy_case_theta(shifted)
    at_l0 = row_outcomes(pe, "copy", theta, case["L0"], case["L0"])
    assume(realized_rows(at_l0) == set(at_l0.rows.tolist()))       # realized at L0: the integers look fine
    copy_body(shifted)


# --------------------------------------------------------------------------- (c) fixed target index under PI
def offset_setup(case: dict) -> tuple[str, str, np.ndarray, Profile]:
    """The spec, task, θ and profile of a fixed-offset case."""
    name = case["pe"]
    pe = pe_spec(name, case["d"], case["base"])
    task = f"offset:{case['c']}" if name == "rope" else f"position:{case['c']}"
    omega = omegas(case["d"], case["base"])
    if case["kind"] == "peak":
        a, b = peak_at(omega, np.asarray(case["amps"], dtype=float), case["c"] + case["shift"])
    else:
        a, b = unit_scale(np.asarray(case["a"], dtype=float), np.asarray(case["b"], dtype=float))
    theta = theta_of(pe, a, b)
    return pe, task, theta, profile(pe, theta)


def offset_threshold(prof: Profile, c: int, L0: int) -> float:
    """L_c = (c+1)·L0·M2/|V'(0)|: beyond it V' keeps the sign of V'(0) on [0, (c+1)L0/L]."""
    return (c + 1) * L0 * prof.m2 / abs(float(prof.slope(0.0)[0]))


def _offset_assert(pe: str, task: str, theta: np.ndarray, prof: Profile, c: int, L0: int, L: int) -> None:
    out = row_outcomes(pe, task, theta, L, L0, extension="pi")
    expected = {c} if prof.slope(0.0)[0] > 0 else set()
    got = realized_rows(out)
    assert got == expected, (f"{pe} · {task}, L0 = {L0}, L = {L} (L_c = {offset_threshold(prof, c, L0):.1f}), "
                             f"V'(0) = {prof.slope(0.0)[0]:.3g}: realized rows {sorted(got)[:6]}, predicted "
                             f"{sorted(expected)}")


def offset_body(case: dict) -> None:
    """Beyond L_c exactly row c survives PI, iff V'(0) > 0: α^pi_L = [V'(0) > 0]/(L - c)."""
    from hypothesis import assume
    pe, task, theta, prof = offset_setup(case)
    c, L0 = case["c"], case["L0"]
    assume(prof.m1 > 0 and abs(float(prof.slope(0.0)[0])) >= 0.05 * prof.m1)
    L = max(L0 + 1, math.floor(offset_threshold(prof, c, L0)) + 1) + case["extra"]
    assume(L <= 4096)
    _offset_assert(pe, task, theta, prof, c, L0, L)


def offset_control(case: dict) -> None:
    """The threshold dropped: L just above L0, with kernels that realize the task at L0."""
    from hypothesis import assume
    pe, task, theta, prof = offset_setup({**case, "kind": "peak"})
    c, L0 = case["c"], case["L0"]
    assume(prof.m1 > 0 and abs(float(prof.slope(0.0)[0])) >= 0.05 * prof.m1)
    at_l0 = row_outcomes(pe, task, theta, L0, L0)
    assume(realized_rows(at_l0) == set(at_l0.rows.tolist()))
    _offset_assert(pe, task, theta, prof, c, L0, L0 + 1 + case["extra"] % 4)


# --------------------------------------------------------------------------- (d) position:0 under PI
def position0_setup(case: dict, wiggle: float) -> tuple[str, np.ndarray, Profile]:
    """The spec, θ and profile of a position:0 case, with ``wiggle`` added on ω_0 = 1."""
    d, L0 = case["d"], case["L0"]
    base = (2 * L0 / math.pi * case["room"]) ** (d / (d - 2))     # ω_{d/2-1} = π/(2 L0 room) ≤ π/(2 L0)
    pe = pe_spec("rope", d, base)
    omega = omegas(d, base)
    amps = np.where(omega * L0 <= 0.4 * math.pi, np.asarray(case["amps"], dtype=float), 0.0)
    a, b = np.zeros_like(omega), amps.copy()                      # Σ A_f sin ω_f x: V' > 0 on [0, L0]
    a[0] += wiggle * math.sin(case["phase"])                      # + wiggle·sin(x + φ) on ω_0 = 1
    b[0] += wiggle * math.cos(case["phase"])
    theta = theta_of(pe, a, b)
    return pe, theta, profile(pe, theta)


def _position0_assert(pe: str, theta: np.ndarray, L0: int, L: int) -> None:
    out = row_outcomes(pe, "position:0", theta, L, L0, extension="pi")
    lost = sorted(set(out.rows.tolist()) - realized_rows(out))
    assert not lost, f"{pe} · position:0, L0 = {L0}, L = {L}: rows {lost[:6]} not realized under PI"


def position0_body(case: dict) -> None:
    """V strictly increasing on [0, L0]: every row of position:0 realized under PI at every L."""
    pe, theta, prof = position0_setup(case, 0.0)
    xs = np.linspace(0, case["L0"], 4001)
    assert float(prof.slope(xs).min()) > 0, "the planted kernel is not increasing (strategy bug)"
    _position0_assert(pe, theta, case["L0"], case["length"])


def position0_control(case: dict) -> None:
    """V increasing on the integers 0..L0-1 only (a wiggle on ω_0 = 1): PI can lose rows between them."""
    from hypothesis import assume
    pe, theta, prof = position0_setup(case, case["wiggle"] * float(position0_setup(case, 0.0)[2].slope(
        np.linspace(0, case["L0"], 4001)).min()))
    ints = prof.value(np.arange(case["L0"]))
    assume(bool(np.all(np.diff(ints) > 1e-6)))
    _position0_assert(pe, theta, case["L0"], case["length"])


# --------------------------------------------------------------------------- (e), (f) NTK, YaRN: split and keep
def keep_setup(case: dict) -> tuple[str, str, np.ndarray, Profile]:
    """The spec, task, θ and profile of a case of the bound on the trained rows kept."""
    name, d, base = case["pe"], case["d"], case["base"]
    pe = pe_spec(name, d, base)
    c = case["c"]
    if name == "rope":
        task = f"offset:{c}" if case["fixed"] == "offset" else f"position:{c}"
    else:
        task = f"position:{c}" if case["fixed"] == "offset" else f"offset:{c}"
    omega = omegas(d, base)
    if case["kind"] == "peak":
        a, b = peak_at(omega, np.asarray(case["amps"], dtype=float), c)
    else:
        a, b = unit_scale(np.asarray(case["a"], dtype=float), np.asarray(case["b"], dtype=float))
    theta = theta_of(pe, a, b)
    return pe, task, theta, profile(pe, theta)


def _split_facts(method: str, d: int, base: float, lam: np.ndarray, code: np.ndarray, L: int, L0: int) -> None:
    s = L / L0
    assert np.allclose(code, lam, rtol=1e-12, atol=0), (f"{method}: the code's λ {code.round(6).tolist()} differ "
                                                        f"from the formula's {lam.round(6).tolist()}")
    if method == "ntk" and d >= 4:
        assert lam[0] == 1.0 and math.isclose(lam[-1], s, rel_tol=1e-12), f"ntk λ {lam.tolist()} at s = {s}"
        assert np.all((lam[1:-1] > 1) & (lam[1:-1] < s)), f"ntk λ between {lam.tolist()} at s = {s}"
    if method == "yarn":
        r = L0 * omegas(d, base) / (2 * math.pi)
        assert np.all((lam == 1.0) == (r >= YARN_BETA)), f"yarn λ = 1 exactly where r_f ≥ 32: r {r.tolist()}"
        assert np.all(np.isclose(lam, s, rtol=1e-12) == (r <= YARN_ALPHA)), f"yarn λ = s where r_f ≤ 1: {r.tolist()}"


def keep_body(case: dict, weaken: bool = False) -> None:
    """(e) the split and its two reductions, (f) the trained rows a bound keeps.

    ``weaken``: the control's bound i·Δ/8 in place of 2i·Δ.
    """
    from posreal.theory.extension import parse_extension
    pe, task, theta, prof = keep_setup(case)
    method, d, base, L0, L = case["method"], case["d"], case["base"], case["L0"], case["length"]
    lam = hand_lambdas(method, d, base, L, L0, case.get("factors"))
    with tempfile.TemporaryDirectory() as tmp:
        spec = _extension_spec(method, case.get("factors"), tmp)
        op = parse_extension(spec)
        from posreal.theory.pe_specs import parse_pe
        extended = op.at_length(parse_pe(pe), L, L0)
        code = prof.omega / np.asarray(extended.omegas())      # type: ignore[attr-defined]
        if not weaken:
            _split_facts(method, d, base, lam, code, L, L0)
            for keep, reference in ((np.isclose(lam, 1.0, rtol=0, atol=0), "none"),
                                    (np.isclose(lam, L / L0, rtol=1e-12), "pi")):
                if keep.any() and not keep.all():
                    h = d // 2
                    mask = np.concatenate([keep, keep])                  # (d,) the same frequencies in both halves
                    part = np.where(mask, theta, 0.0)
                    mine = row_outcomes(pe, task, part, L, L0, extension=op)
                    ref = row_outcomes(pe, task, part, L, L0, extension=reference)
                    assert np.array_equal(mine.status, ref.status), (
                        f"{pe} · {task}, θ on the frequencies with λ_f = {'1' if reference == 'none' else 's'} "
                        f"({np.flatnonzero(keep[:h]).tolist()}): {method} rows differ from {reference}'s")
        before = row_outcomes(pe, task, theta, L0, L0)
        after = row_outcomes(pe, task, theta, L, L0, extension=op)
    delta = prof.delta(lam)
    status_after = dict(zip(after.rows.tolist(), after.status.tolist()))
    for i, gamma, st in zip(before.rows.tolist(), np.asarray(before.margins, dtype=float).tolist(),
                            before.status.tolist()):
        bound = i * delta / 8 if weaken else 2 * i * delta
        if st == REALIZED and i < L0 and bound < gamma:
            assert status_after[i] == REALIZED, (
                f"{pe} · {task}, {method} at L = {L} (L0 = {L0}): row {i} with γ = {gamma:.4g} > "
                f"{'iΔ/8' if weaken else '2iΔ'} = {bound:.4g} (Δ = {delta:.4g}) is not realized")


def keep_control(case: dict) -> None:
    """The control of :func:`keep_body`: the bound weakened."""
    keep_body(case, weaken=True)


# --------------------------------------------------------------------------- registry cells
REGISTRY_CELLS = (("rope:16", 16, ("offset:1", "offset:2", "position:0", "copy")),
                  ("abscol:16", 16, ("position:0", "position:1", "middle")),
                  ("rope:32", 32, ("offset:1", "offset:8", "position:0", "copy")))
GRID_POINTS = 1 << 16


def _target_index(pe: str, task: str) -> str:
    """Which part of the statement a registry cell falls under."""
    name = split_pe(pe)[0]
    kind, _, arg = task.partition(":")
    if task in ("copy", "middle"):
        return "half"
    if (name == "rope") == (kind == "offset"):
        return "constant" if int(arg) > 0 else "zero"
    return "last" if int(arg) == 0 else "last-minus-p"


def _sup_gap(prof: Profile, at: float, L0: int) -> float:
    """V(at) - max of V over [0, L0) except a shrinking neighbourhood of ``at`` (dense grid; negative: beaten)."""
    xs = np.linspace(0, L0, GRID_POINTS, endpoint=False)
    far = np.abs(xs - at) > 1e-3
    return float(prof.value(at)[0] - prof.value(xs[far]).max())


def _predict(pe: str, task: str, prof: Profile, L0: int, L: int, method: str) -> tuple[str, float | None]:
    """(which part, predicted α_L^σ or None where the statement predicts no single number)."""
    part = _target_index(pe, task)
    if method != "pi":
        return part, None
    if part == "half":
        if L % 2 == 0 and L0 % 2 == 0:
            return part, 1.0 if _sup_gap(prof, L0 / 2, L0) > 0 else None
        return part, None
    if part == "constant":
        c = int(task.partition(":")[2])
        if abs(prof.slope(0.0)[0]) > 0 and L > offset_threshold(prof, c, L0):
            return part, (1.0 if prof.slope(0.0)[0] > 0 else 0.0) / (L - c)
        return part, None
    if part == "zero":
        return part, 1.0 if _sup_gap(prof, 0.0, L0) > 0 and prof.slope(0.0)[0] < 0 else None
    if part == "last":
        xs = np.linspace(0, L0, GRID_POINTS + 1)
        step = L0 / GRID_POINTS
        increasing = float(prof.slope(xs).min()) - prof.m2 * step / 2 > 0     # V' > 0 on all of [0, L0]
        return part, 1.0 if increasing else None
    return part, None


def extension_registry(against: str | None = None) -> dict:
    """Each registry cell's prediction from θ*'s profile against compute_alpha under the method.

    ``against``: the control's transfer in the method's place."""
    compared, mismatches, instances = [], [], []
    for pe, L0, tasks in REGISTRY_CELLS:
        lengths = sorted({2 * L0, 4 * L0, 8 * L0, 16 * L0, 64 * L0, 2 * L0 + 1, 4 * L0 + 1})
        for task in tasks:
            sel = select(pe, task, L0)
            if not sel.realizable:
                continue
            prof = profile(pe, sel.theta)
            for method in ("pi",):
                result = compute_alpha(pe, task, L0, lengths, extension=against or method)
                for L in lengths:
                    part, predicted = _predict(pe, task, prof, L0, L, method)
                    if predicted is None:
                        continue
                    got = result.alpha(L)
                    compared.append((pe, task, L, part))
                    if got is None or abs(got - predicted) > 1e-12:
                        mismatches.append(f"{pe}·{task} L = {L} ({part}): α = {got}, predicted {predicted:.6g}")
            if _target_index(pe, task) == "half" and against is None:
                # odd L: symmetric about L0/2 ⇒ every row past ⌊L/2⌋ ties
                sym = float(np.max(np.abs(prof.a * np.sin(prof.omega * L0 / 2) - prof.b * np.cos(prof.omega * L0 / 2))))
                if sym < 1e-9 * float(np.abs(sel.theta).max()):
                    for L in (n for n in lengths if n % 2 == 1):
                        out = compute_alpha(pe, task, L0, [L], extension="pi").outcomes[L]
                        late = [int(i) for i, st in zip(out.rows, out.status) if i > L // 2 and st == REALIZED]
                        compared.append((pe, task, L, "half, odd L"))
                        if late:
                            mismatches.append(f"{pe}·{task} odd L = {L}: rows {late[:4]} realized, yet they tie")
                        instances.append(f"{pe}·{task} α^pi_{L} = {out.alpha:.4g} ({out.counts()['undecided']} "
                                         "rows undecided: exact ties of a symmetric kernel)")
            if against is None:
                instances += _split_and_keep(pe, task, sel, prof, L0, lengths, mismatches, compared)
    return {"compared": compared, "mismatches": mismatches, "instances": instances}


def _split_and_keep(pe: str, task: str, sel, prof: Profile, L0: int, lengths: list[int], mismatches: list,
                    compared: list) -> list[str]:
    """(e) the code's factors against the formulas; (f) the rows below L0 that the bound 2iΔ < γ_i keeps."""
    from posreal.theory.extension import parse_extension
    from posreal.theory.pe_specs import parse_pe
    _, d, base = split_pe(pe)
    notes = []
    before = row_outcomes(pe, task, sel.theta, L0, L0)
    fixed = _target_index(pe, task) != "half"
    for method in ("pi", "ntk", "yarn"):
        op = parse_extension(method)
        for L in lengths:
            lam = hand_lambdas(method, d, base, L, L0)
            code = prof.omega / np.asarray(op.at_length(parse_pe(pe), L, L0).omegas())   # type: ignore[attr-defined]
            compared.append((pe, task, L, f"split {method}"))
            if not np.allclose(code, lam, rtol=1e-12, atol=0):
                mismatches.append(f"{pe} {method} L = {L}: code λ {code.round(4).tolist()} ≠ {lam.round(4).tolist()}")
            if not fixed:
                continue
            delta = prof.delta(lam)
            after = row_outcomes(pe, task, sel.theta, L, L0, extension=op)
            status = dict(zip(after.rows.tolist(), after.status.tolist()))
            kept = [i for i, g, st in zip(before.rows.tolist(), np.asarray(before.margins, float).tolist(),
                                          before.status.tolist()) if st == REALIZED and i < L0 and 2 * i * delta < g]
            compared.append((pe, task, L, f"keep {method}"))
            lost = [i for i in kept if status[i] != REALIZED]
            if lost:
                mismatches.append(f"{pe}·{task} {method} L = {L}: rows {lost} covered by 2iΔ < γ_i not realized")
            if L == lengths[-1]:
                notes.append(f"{pe}·{task} {method} L = {L}: Δ = {delta:.3g}, bound covers {len(kept)} trained rows")
    return notes


@claim_check("extension", "registry", "length extension: predictions from θ*'s profile on registry cells")
def check_extension_registry() -> CheckResult:
    """Check each registry cell's prediction from θ*'s profile against α_L^σ, with a control."""
    def run() -> CheckResult:
        report = extension_registry()
        control = extension_registry(against="none")
        ok = not report["mismatches"] and len(report["compared"]) > 0
        refuted = len(control["mismatches"]) > 0
        parts = sorted({c[3] for c in report["compared"]})
        return CheckResult(
            claim="extension", name="registry cells: each part's prediction from θ*'s profile against α_L^σ",
            method="registry", verdict=PASSED if ok else FAILED,
            negative_control=Control.COUNTEREXAMPLE if refuted else Control.NO_COUNTEREXAMPLE,
            detail=(f"{len(report['compared'])} comparisons ({', '.join(parts)}), "
                    f"{len(report['mismatches'])} mismatches" + (f": {report['mismatches'][:4]}" if report["mismatches"]
                                                                else "")
                    + f"; control (the same PI predictions against plain re-evaluation): "
                    f"{len(control['mismatches'])} of {len(control['compared'])} refuted"
                    + (f", e.g. {control['mismatches'][0]}" if control["mismatches"] else "")
                    + (f"; instances: {'; '.join(report['instances'][:3])}" if report["instances"] else "")),
            data={"mismatches": report["mismatches"], "instances": report["instances"],
                  "control_mismatches": control["mismatches"][:20], "comparisons": len(report["compared"])})
    return timed(run)


EXTENSION_REGISTRY_CHECKS: tuple[DeclaredCheck, ...] = declared_in(__name__)   # the @claim_check declarations above
