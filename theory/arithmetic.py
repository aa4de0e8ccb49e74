"""The arithmetic that decides rows: float with a tolerance, exact ℚ, or certified intervals.

Main definitions (definitions.md#realization-and-margin, definitions.md#tolerance):

* :class:`Mode` names the three arithmetics; a mode asked for is never rewritten;
* one object per mode (:func:`arithmetic`): it says which parameters it needs from a selection
  (:meth:`Arithmetic.parameters`), builds the kernel of θ on the L-grid and decides every scored row
  (:meth:`Arithmetic.decide`), recording in the :class:`~posreal.theory.realization.RowOutcomes`
  the arithmetic the rows were actually decided in;
* :class:`FloatArithmetic`: realized iff γ_i > tol·max(1, |κ(i, t)|), failed iff below the
  negative, *undecided* in between;
* :class:`ExactArithmetic`: every row in ℚ (rational PEs; γ_i = 0 fails).  When the selection has
  no exact θ*, its rows are decided in float, and the outcome says so;
* :class:`CertifiedArithmetic`: float, then every borderline row re-decided by interval
  arithmetic (:mod:`posreal.theory.certified`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import numpy as np

from posreal.theory.encodings import Encoding
from posreal.theory.errors import SpecError, bad_value
from posreal.theory.kernels import target_keys
from posreal.theory.modes import MODE_FORMS, Mode, parse_mode  # noqa: F401  (re-exported)
from posreal.theory.realization import DEFAULT_TOL, RowOutcomes, classify_exact, classify_float
from posreal.theory.tasks import Task


def check_tol(tol: Any) -> float:
    """A tolerance: a finite number ≥ 0."""
    if isinstance(tol, bool) or not isinstance(tol, (int, float, np.floating)) or not 0 <= tol < np.inf:
        raise bad_value("tolerance", tol, "a finite number >= 0")
    return float(tol)


@dataclass(frozen=True)
class Arithmetic:
    """Decides the rows of one grid.  Subclasses: one per :class:`Mode`."""

    tol: float = DEFAULT_TOL

    @property
    def mode(self) -> Mode:
        raise NotImplementedError

    @property
    def exact_selection(self) -> bool:
        """Whether θ* must be selected (and certified) in ℚ."""
        return False

    def accept(self, pe: Encoding) -> None:
        """Refuse a PE this arithmetic cannot decide (a one-line error): float and certified modes refuse a table
        whose entries had to be rescaled into float range (its small entries may have underflowed)."""
        if pe.feature_scale != 1:
            raise SpecError(f"invalid mode {self.mode.value!r} for PE {str(pe)!r}: its entries exceed the float "
                            "range (they were rescaled exactly by "
                            f"2^-{pe.feature_scale.denominator.bit_length() - 1} for ℚ); accepted: --exact")

    def parameters(self, theta: np.ndarray, exact_theta: Sequence[Fraction] | None) -> tuple[Arithmetic, Any]:
        """(the arithmetic that decides the rows, the parameters it decides them with)."""
        return self, theta

    def decide(self, pe: Encoding, task: Task, theta: Any, length: int, train_length: int) -> RowOutcomes:
        """Outcome of every row of R_length under the kernel of θ with the features of ``pe``."""
        raise NotImplementedError


@dataclass(frozen=True)
class FloatArithmetic(Arithmetic):
    """Float margins and the tolerance rule."""

    @property
    def mode(self) -> Mode:
        return Mode.FLOAT

    def decide(self, pe, task, theta, length, train_length):
        rows, targets = task.rows_and_targets(length)                       # (m,), (m,)
        keys = target_keys(pe.index, rows, targets)                          # (m,)
        vec = np.asarray(theta, dtype=float)                                 # (p,)
        margins, values, ties = pe.float_row_margins(vec, rows, keys, length, train_length)   # (m,) each
        status = classify_float(margins, values, ties, self.tol)
        return RowOutcomes(length, self.mode, rows, targets, margins, status, ties, self.tol)


@dataclass(frozen=True)
class CertifiedArithmetic(FloatArithmetic):
    """Float, with borderline rows re-decided by interval arithmetic."""

    @property
    def mode(self) -> Mode:
        return Mode.CERTIFIED

    def decide(self, pe, task, theta, length, train_length):
        from posreal.theory.certified import certify_rows  # mpmath only when asked for
        outcomes = super().decide(pe, task, theta, length, train_length)
        return certify_rows(pe, np.asarray(theta, dtype=float), outcomes, train_length)


@dataclass(frozen=True)
class ExactArithmetic(Arithmetic):
    """Every row decided in ℚ."""

    @property
    def mode(self) -> Mode:
        return Mode.EXACT

    @property
    def exact_selection(self) -> bool:
        return True

    def accept(self, pe):
        if not pe.rational:
            raise SpecError(f"invalid mode 'exact' for PE {str(pe)!r}; accepted: --exact for rational PEs "
                            "(relbias, colbias, alibi, nope, rational tables, their duals), --certified otherwise")

    def parameters(self, theta, exact_theta):
        if exact_theta is None:   # no exact evidence for θ*: the rows can only be decided in float
            return FloatArithmetic(self.tol), theta
        return self, exact_theta

    def decide(self, pe, task, theta, length, train_length):
        rows, targets = task.rows_and_targets(length)
        keys = target_keys(pe.index, rows, targets)
        ties = pe.structural_ties(rows, keys, length, train_length)
        exact_theta = [x if isinstance(x, Fraction) else Fraction(x) for x in theta]   # a float is a binary rational
        margins, _ = pe.exact_kernel(exact_theta, length, train_length).exact_margins(rows, keys)
        return RowOutcomes(length, self.mode, rows, targets, margins, classify_exact(margins, ties), ties, self.tol)


_CLASSES: dict[Mode, type[Arithmetic]] = {Mode.FLOAT: FloatArithmetic, Mode.EXACT: ExactArithmetic,
                                         Mode.CERTIFIED: CertifiedArithmetic}


def arithmetic(mode: str | Mode = Mode.FLOAT, tol: float = DEFAULT_TOL) -> Arithmetic:
    """The arithmetic object of a mode (validated)."""
    return _CLASSES[parse_mode(mode)](check_tol(tol))
