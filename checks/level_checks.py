"""Exact and symbolic checks of the residual levels on designed instances (statement id ``conjecture-limit``).

Main checks (docs: Results › Conjecture′; Definitions, "Residual levels"), each with a negative control
that must fail:

* :func:`check_max_entropy` — :data:`MAXENT_TIE`: Z = {(-3, 2), (1, 2), (-1, 2)}, n = 1, θ* = (0, ½),
  v = (4, 0), S+ = all three, dependent.  sympy solves the residual's stationarity equations
  (3x⁴ + x² - 1 = 0 for x = e^{w_1}) and gives lim ⟨θ_t, v⟩ = 4 w_1 = 2 log((√13 - 1)/6); the check
  asserts that α♯'s certified enclosure contains it and that its sign decides the row (lost).
  Control: the two vertex formulas Σ c_s log(n_s/λ_s) of Λ's vertices (-log 3 and 0) put in its place
  must fall outside the enclosure;
* :func:`check_second_level` — :data:`LEVEL2_TIE`: relative table f = (0, 0), (-1, 0), (-1, -1), (0, -1),
  ``offset:0``, L0 = 3, L = 4: z_1 = (1, 0) (twice), z_2 = (1, 1), θ* = (1, 0), both active, λ_2 = 0 in
  every λ ∈ Λ (S0 = {z_2}); U = span{e_2}, θ_2 = (0, 1) by hand (sympy: argmin ‖y‖ s.t. ⟨P_U z_2, y⟩ ≥ 1)
  and ⟨θ_2, v⟩ = 1 for v = (0, 1): the row is won, the margin grows like log log t.  Control: f(2) =
  (-2, -1) makes z_2 = (2, 1) inactive — S0 = ∅, no second level, the same assertion fails;
* :func:`check_symmetric_tie` — :data:`SYMMETRIC_TIE`: a general table whose training rows are
  {(1, 1)} and {(1, 0), (0, 1)}, v = (1, -1): the closed form gives the limit 0 exactly and the swap
  Q(a, b) = (b, a) preserves both rows with Qv = -v, so the row is lost (the lemma of
  :mod:`posreal.theory.symmetry`, re-checked here in ℚ).  Control: row 1's difference (2, 1) breaks the
  symmetry — the search must find none.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any
from fractions import Fraction

from posreal.checks.base import FAILED, PASSED, CheckResult, Control, DeclaredCheck, timed
from posreal.checks.declare import claim_check, declared_in
from posreal.theory.limit import Evidence, LimitVerdict, open_tie_limit, prediction_context
from posreal.theory.pe_specs import parse_pe
from posreal.theory.selection import select
from posreal.theory.symmetry import SignedPermutation, find_symmetry, preserves
from posreal.theory.tables import register_pe, unregister_pe
from posreal.theory.tasks import parse_task
from posreal.theory.ties import FailingRow, classify

CLAIM = "conjecture-limit"


@dataclass(frozen=True)
class DesignedTie:
    """A hand-designed open tie: a feature table, its task and lengths, and the tied row."""

    name: str
    kind: str                     # table kind: relative / column / general
    rows: tuple                   # the table (nested ints)
    task: str
    train_length: int
    length: int
    row: int

    def open_row(self):
        """The designed open tie's row, with its table registered by the caller.

        (pe, task, selection, the open-tie FailingRow, its prediction context), with the table registered
        by the caller (:class:`registered_table`)."""
        pe, task = parse_pe(self.name), parse_task(self.task)
        sel = select(pe, task, self.train_length)
        cls = classify(pe, task, sel, self.length)
        row = next((r for r in cls.open_rows if r.row == self.row), None)
        return pe, task, sel, row, prediction_context(pe, task, sel)


class registered_table:
    """Context manager: register a designed table under its name, then remove it."""

    def __init__(self, tie: DesignedTie):
        self.tie = tie

    def __enter__(self) -> DesignedTie:
        register_pe(self.tie.name, self.tie.rows, self.tie.kind)
        return self.tie

    def __exit__(self, *exc) -> None:
        unregister_pe(self.tie.name)


_Z2 = (0, 0)
MAXENT_TIE = DesignedTie("maxenttie", "general", (
    ((0, 0), _Z2, _Z2, _Z2),
    ((3, -2), (0, 0), _Z2, _Z2),
    ((-1, -2), (1, -2), (0, 0), _Z2),
    ((-4, 0), (0, -4), (0, -4), (0, 0))), "offset:0", 3, 4, 3)
LEVEL2_TIE = DesignedTie("leveltwo", "relative", ((0, 0), (-1, 0), (-1, -1), (0, -1)), "offset:0", 3, 4, 3)
LEVEL2_CONTROL = DesignedTie("leveltwoctl", "relative", ((0, 0), (-1, 0), (-2, -1), (0, -1)), "offset:0", 3, 4, 3)
SYMMETRIC_TIE = DesignedTie("symtie", "general", (
    ((0, 0), _Z2, _Z2, _Z2),
    ((-1, -1), (0, 0), _Z2, _Z2),
    ((-1, 0), (0, -1), (0, 0), _Z2),
    ((-1, 1), (0, -5), (-5, 0), (0, 0))), "offset:0", 3, 4, 3)
SYMMETRIC_CONTROL = DesignedTie("symtiectl", "general", (
    ((0, 0), _Z2, _Z2, _Z2),
    ((-2, -1), (0, 0), _Z2, _Z2),
    ((-1, 0), (0, -1), (0, 0), _Z2),
    ((-1, 1), (0, -5), (-5, 0), (0, 0))), "offset:0", 3, 4, 3)
DESIGNED = (MAXENT_TIE, LEVEL2_TIE, SYMMETRIC_TIE)


def _result(name: str, ok: bool, control_failed: bool, detail: str, data: dict) -> CheckResult:
    return CheckResult(claim=CLAIM, name=name, method="symbolic", verdict=PASSED if ok else FAILED,
                       negative_control=Control.COUNTEREXAMPLE if control_failed else Control.NO_COUNTEREXAMPLE,
                       detail=detail, data=data)


# --------------------------------------------------------------------------- the max-entropy residual
def max_entropy_value():
    """The exact limit of the designed max-entropy tie, derived with sympy: 2 log((√13 - 1)/6)."""
    import sympy as sp

    x = sp.symbols("x", positive=True)                       # x = e^{w_1}
    # ∂F/∂w_1 = e^{-2 w_2} (3x³ - 1/x + x) = 0  ⇔  3x⁴ + x² - 1 = 0
    roots = [r for r in sp.solve(sp.Eq(3 * x ** 4 + x ** 2 - 1, 0), x) if r.is_positive]
    (root,) = roots
    return sp.simplify(4 * sp.log(root))                      # ⟨w̃, v⟩ = 4 w_1


@claim_check(CLAIM, "symbolic", "max-entropy residual of a dependent support (designed)")
def check_max_entropy() -> CheckResult:
    """Check that α♯'s enclosure of a max-entropy residual contains the sympy value."""
    import sympy as sp

    def run() -> CheckResult:
        exact = max_entropy_value()
        with registered_table(MAXENT_TIE) as tie:
            _, _, _, row, ctx = tie.open_row()
            assert row is not None, "the designed max-entropy tie has no open-tie row"
            decided = open_tie_limit(ctx, row)
        rival = decided.rivals[0]
        hi = sp.N(exact, 40)
        inside = (rival.value is not None and rival.evidence is Evidence.CERTIFIED
                  and abs(float(hi) - rival.value) <= rival.bound + 1e-15)
        ok = inside and decided.verdict is LimitVerdict.LOST and (hi < 0)
        vertices = {"-log 3": -sp.log(3), "0": sp.Integer(0)}
        outside = {k: abs(float(v) - (rival.value or 0.0)) > rival.bound for k, v in vertices.items()}
        detail = (f"sympy: lim ⟨θ_t, v⟩ = {exact} = {float(hi):.10f}; α♯: {rival.value:.10f} ± {rival.bound:.1e} "
                  f"({rival.evidence.value}), row {decided.verdict.value}; control (vertex formulas "
                  f"-log 3, 0 in its place): outside the enclosure: {outside}")
        return _result("the max-entropy residual of a dependent support: α♯'s enclosure contains the sympy value "
                       "2 log((√13 - 1)/6)", ok, all(outside.values()), detail,
                       {"exact": str(exact), "value": rival.value, "bound": rival.bound})
    return timed(run)


# --------------------------------------------------------------------------- the second level
def second_level_by_hand():
    """θ_2 of :data:`LEVEL2_TIE`, with sympy: U = span(z_1, z_2) ⊖ span(z_1), u = P_U z_2, θ_2 = u / ‖u‖²."""
    import sympy as sp

    z1, z2 = sp.Matrix([1, 0]), sp.Matrix([1, 1])
    u = z2 - (z2.dot(z1) / z1.dot(z1)) * z1
    return u / u.dot(u)


def _second_level(tie: DesignedTie) -> tuple[bool, str]:
    with registered_table(tie):
        _, _, _, row, ctx = tie.open_row()
        if row is None:
            return False, f"{tie.name}: no open-tie row {tie.row}"
        levels = ctx.levels()
        decided = open_tie_limit(ctx, row)
    hand = second_level_by_hand()
    if levels.depth < 2:
        return False, f"{tie.name}: {levels.depth} level(s), S0 = {levels.levels[0].split.zero} (no θ_2)"
    theta2 = levels.levels[1].theta
    v = row.rivals[0].direction
    same = tuple(theta2) == tuple(Fraction(int(x.p), int(x.q)) for x in hand)
    inner = sum((a * b for a, b in zip(theta2, v)), Fraction(0))
    ok = (same and inner == 1 and decided.verdict is LimitVerdict.WON and decided.rivals[0].level == 2
          and decided.evidence is Evidence.EXACT)
    return ok, (f"{tie.name}: S+ = {levels.levels[0].split.positive}, S0 = {levels.levels[0].split.zero}, θ_2 = "
                f"{tuple(str(x) for x in theta2)} (by hand {tuple(str(x) for x in hand)}), ⟨θ_2, v⟩ = {inner}, "
                f"row {decided.verdict.value}")


@claim_check(CLAIM, "symbolic", "second residual level θ_2 (designed)")
def check_second_level() -> CheckResult:
    """Check the second level on a forced zero multiplier against the hand derivation."""
    def run() -> CheckResult:
        ok, detail = _second_level(LEVEL2_TIE)
        control_ok, control_detail = _second_level(LEVEL2_CONTROL)
        return _result("a forced zero multiplier (S0 ≠ ∅): θ_2 from the projected max-margin problem equals the "
                       "hand derivation and ⟨θ_2, v⟩ decides the row in ℚ", ok, not control_ok,
                       f"{detail}; control (z_2 made inactive): {control_detail}", {})
    return timed(run)


# --------------------------------------------------------------------------- symmetric ties
def _symmetry(tie: DesignedTie) -> tuple[SignedPermutation | None | str, FailingRow | None, Any]:
    with registered_table(tie):
        _, _, _, row, ctx = tie.open_row()
        if row is None or ctx.rows is None:
            return None, row, None
        w = ctx.column_projection(row.rivals[0].direction)
        return find_symmetry(ctx.rows, w), row, (ctx, w, open_tie_limit(ctx, row))
    raise AssertionError("unreachable")


@claim_check(CLAIM, "symbolic", "symmetric tie (designed)")
def check_symmetric_tie() -> CheckResult:
    """Check that a symmetric tie is decided lost by symmetry."""
    def run() -> CheckResult:
        found, row, extra = _symmetry(SYMMETRIC_TIE)
        ok = False
        detail = "no symmetry found"
        if isinstance(found, SignedPermutation) and extra is not None:
            ctx, w, decided = extra
            lemma = preserves(found, ctx.rows) and found.apply(w) == tuple(-x for x in w)
            swap = found.perm == (1, 0) and found.signs == (1, 1)
            ok = lemma and swap and decided.verdict is LimitVerdict.LOST and decided.evidence is Evidence.SYMMETRY
            detail = (f"Q = {found.to_json()}, preserves the rows' multisets and Qw = -w: {lemma}; row "
                      f"{decided.verdict.value} by {decided.evidence.value}")
        control, _, _ = _symmetry(SYMMETRIC_CONTROL)
        return _result("a symmetric tie: a signed permutation preserving every training row's differences with "
                       "Qv = -v keeps the margin ≡ 0 (lost)", ok, control is None,
                       f"{detail}; control (row 1 made asymmetric): search found {control!r}", {})
    return timed(run)


LEVEL_CHECKS: tuple[DeclaredCheck, ...] = declared_in(__name__)   # the @claim_check declarations above
