"""The geometry of the selection: which norm θ*_q minimizes, as one object per norm (ℓ2, ℓ∞, ℓ1).

Main definitions (definitions.md#geometry, definitions.md#alpha-q):

* :class:`Geometry` names the geometries (``l2``, ``linf``, ``l1``); :func:`parse_geometry` reads a name;
* one object per geometry (:class:`SelectionGeometry`, built by :meth:`SelectionGeometry.parse`), the only
  place that knows how the geometries differ — as :mod:`posreal.theory.arithmetic` is for the arithmetics:

  - its selection program (:attr:`~SelectionGeometry.program`): ℓ2 is the quadratic program of
    :func:`posreal.theory.selection.select`, whose optimum θ* is one point (the norm is strictly convex);
    ℓ∞ and ℓ1 are linear programs (their variables: :meth:`~SelectionGeometry.lp_columns`) whose optimum is
    a face F_q, so α_L^(q) is an interval (:mod:`posreal.theory.faces`, :mod:`posreal.theory.face_rows`);
  - how a row is decided on the face: its norm and dual norm (:attr:`~SelectionGeometry.order`,
    :attr:`~SelectionGeometry.dual_order`), which bound a rival's margin on F_q;
  - its steepest-descent step (:meth:`~SelectionGeometry.direction`, step size and schedule), whose
    implicit bias is θ*_q (:mod:`posreal.theory.steepest`);
  - which combinations it allows (:class:`Use`, :meth:`~SelectionGeometry.require`): α♯ (``limit``), the
    diagnosis of failing rows, fine-tuning and the induction head need one θ*, derived for ℓ2 only;
  - the shape of its answers: the ``selected`` block of the JSON document
    (:meth:`~SelectionGeometry.selected_summary`) and the text and CSV forms of α_L
    (:meth:`~SelectionGeometry.text_summary`, :meth:`~SelectionGeometry.csv_alpha`).

Nothing else branches on which geometry it has: callers ask the object (a test reads the source for
comparisons against the names).  This module loads neither numpy nor the LP machinery (the CLI checks
``--geometry`` with it before numpy is loaded); the modules that compute with a geometry import it, never
the reverse.

References: Gunasekar, Lee, Soudry & Srebro (ICML 2018) for steepest descent in a norm; Zhang, Zou & Cao
(NeurIPS 2024) and Baek, Song & Yun (2025) for Adam and Signum (ℓ∞).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from enum import StrEnum
from typing import Any, ClassVar

from posreal.theory.errors import PosrealError, SpecError, bad_value

DEFAULT_SIGN_STEP = 0.01   # η₀ of the normalized (ℓ∞, ℓ1) steepest-descent steps
SIGN_STEP_DECAY = 0.5      # a in the ℓ∞ steps η_t = η₀ (t + 1)^(-a): diminishing, as the ℓ∞ theorem assumes


class Geometry(StrEnum):
    """The name of a geometry: ℓ2 (gradient descent), ℓ∞ (sign descent, Adam), ℓ1 (coordinate descent)."""

    L2 = "l2"
    LINF = "linf"
    L1 = "l1"

    def __str__(self) -> str:
        return self.value


class Program(StrEnum):
    """The kind of program that selects θ*_q."""

    QUADRATIC = "quadratic"   # a strictly convex norm: one optimal θ
    LINEAR = "linear"         # a polyhedral norm: a linear program, whose optimal set is a face


class Use(StrEnum):
    """What a computation does with the selected θ, beyond α_L; each geometry says which it allows."""

    LIMIT = "limit"                   # α♯_L, the predicted limit of gradient descent
    FAILING_ROWS = "failing rows"     # why the rows of θ* fail (one θ to diagnose)
    FINE_TUNE = "fine-tune"           # θ* selected again on the extended features at L1
    INDUCTION = "induction"           # layer 1 of the two-layer induction head is θ*


# Why a use needs the geometries that allow it: the accepted-forms text of a refusal ({labels}: theirs)
_WHY: dict[Use, str] = {
    Use.LIMIT: "α♯ needs the second-order term of gradient descent, derived for {labels} only",
    Use.FAILING_ROWS: "the rows of θ*",
    Use.FINE_TUNE: "fine-tuning selects θ* on the extended features",
    Use.INDUCTION: "layer 1 is the {labels} selection θ*",
}


class SelectionGeometry:
    """One geometry: the norm θ*_q minimizes, and everything that depends on it.  Subclasses: one per
    :class:`Geometry`, built once (:data:`DECLARED`)."""

    name: ClassVar[Geometry]
    label: ClassVar[str]              # ℓ2, ℓ∞, ℓ1
    optimizer: ClassVar[str]          # the descent whose implicit bias this geometry is
    program: ClassVar[Program]
    order: ClassVar[float]            # q of ‖·‖_q
    dual_order: ClassVar[float]       # q* of the dual norm ‖·‖_q*
    uses: ClassVar[frozenset[Use]] = frozenset()
    bounded_form: ClassVar[bool] = False   # its LP is solved first in the bounded form of θ*_∞ (box constraints)
    rival: ClassVar[Geometry]         # a geometry whose optimum differs in general (a negative control's)
    step_decay: ClassVar[float] = 0.0  # a in the steps η_t = η₀ (t + 1)^(-a) of its steepest descent

    # ------------------------------------------------------------------ names
    @property
    def value(self) -> str:
        return self.name.value

    def __str__(self) -> str:
        return self.name.value

    def __repr__(self) -> str:
        return f"{type(self).__name__}()"

    @classmethod
    def parse(cls, geometry: str | Geometry | SelectionGeometry) -> SelectionGeometry:
        """The geometry object of a name (``"l2"``, ``"linf"``, ``"l1"``, any case), a :class:`Geometry` or an
        object; anything else is a one-line :class:`~posreal.theory.errors.SpecError` naming the accepted forms."""
        if isinstance(geometry, SelectionGeometry):
            return geometry
        return DECLARED[parse_geometry(geometry)]

    @property
    def complete(self) -> bool:
        """Whether its program needs every distinct training difference (a linear program's face does)."""
        return self.program is Program.LINEAR

    # ------------------------------------------------------------------ the combinations it allows
    def allows(self, use: Use) -> bool:
        return use in self.uses

    def require(self, use: Use, argument: str) -> None:
        """Refuse, in one line naming ``argument`` and the geometries that allow it, a use this geometry does
        not allow (the only place such a rule is stated)."""
        if not self.allows(use):
            raise bad_value(argument, self.value, allowing(use))

    # ------------------------------------------------------------------ its program
    def lp_columns(self, p: int) -> tuple[int, list[int]]:
        """Variables of its linear program over θ ∈ ℝ^p: their number n, and for each coordinate c the
        column of the auxiliary variable that bounds |θ_c| (rows aux - θ_c ≥ 0, aux + θ_c ≥ 0)."""
        raise PosrealError(f"the {self.label} selection is a quadratic program (posreal.theory.selection.select)")

    # ------------------------------------------------------------------ its steepest descent
    def direction(self, grad: Any) -> Any:
        """The steepest-descent step direction of the norm for the gradient g: (p,) -> (p,)."""
        raise NotImplementedError

    def default_step(self, smoothness: Callable[[], float]) -> float:
        """η (or η₀) when none is given; ``smoothness`` gives the loss's smoothness β (computed only if used)."""
        return DEFAULT_SIGN_STEP

    # ------------------------------------------------------------------ the shape of its answers
    def selected_summary(self, gsel: Any) -> dict:
        """The ``selected`` block of the JSON document of a :class:`~posreal.theory.faces.GeometrySelection`."""
        raise NotImplementedError

    def text_summary(self, head: str, document: dict) -> tuple[str, list[str], list[list], str | None]:
        """Text of a ``posreal alpha`` document: (the heading with θ*, the header and rows of the per-length
        table, a footnote or None)."""
        raise NotImplementedError

    def table_preamble(self, train_length: int) -> str:
        """The first line of ``posreal table``'s text output."""
        raise NotImplementedError

    def csv_alpha_header(self, length: int) -> list[str]:
        """The CSV columns of α at one length."""
        raise NotImplementedError

    def csv_alpha(self, doc: dict, length: int) -> list[str]:
        """The CSV fields of α at one length, at full precision (exact values as "p/q" when the mode has them)."""
        raise NotImplementedError


def _number(value: Any) -> str:
    """A CSV field: empty for None, Python's round-trip repr for a float."""
    return "" if value is None else repr(value) if isinstance(value, float) else str(value)


class L2Geometry(SelectionGeometry):
    """ℓ2: θ* of gradient descent, one point."""

    name = Geometry.L2
    label = "ℓ2"
    optimizer = "gradient descent"
    program = Program.QUADRATIC
    order = dual_order = 2.0
    uses = frozenset(Use)
    rival = Geometry.LINF

    def direction(self, grad):
        return -grad

    def default_step(self, smoothness):
        return 1.0 / max(smoothness(), 1e-12)

    def selected_summary(self, gsel):
        return gsel.selection.summary()

    def text_summary(self, head, document):
        sel = document["selected"]
        heading = (f"{head}\nθ*: norm {sel['norm']:.6g}, {sel['support']} support vectors of {sel['constraints']} "
                   "constraints" + (" (exact KKT certificate)" if sel["exact"] else "")
                   + (f" — {sel['reason']}" if sel["reason"] else ""))
        rows = []
        for L, counts in document["rows"].items():
            value = document["alpha"][L]
            alpha = document.get("alpha_exact", {}).get(L) or ("—" if value is None else f"{value:.4f}")
            rows.append([L, alpha, counts["realized"], counts["failed"], counts["undecided"], counts["total"],
                         counts["structural_ties"]])
        return heading, ["L", "alpha", "realized", "failed", "undecided", "total", "structural ties"], rows, None

    def table_preamble(self, train_length):
        return f"α_L(Φ, τ; L0 = {train_length}) — computed from θ* before any training"

    def csv_alpha_header(self, length):
        return [f"alpha_{length}"]

    def csv_alpha(self, doc, length):
        exact = (doc.get("alpha_exact") or {}).get(str(length))
        return [exact if exact is not None else _number(doc["alpha"].get(str(length)))]


class _FaceGeometry(SelectionGeometry):
    """A polyhedral norm: θ*_q is a linear program's optimum, in general a face F_q; α_L is an interval."""

    program = Program.LINEAR

    def selected_summary(self, gsel):
        face = gsel.face
        return {"geometry": self.value, "value": gsel.value, "status": gsel.status,
                "constraints": int(gsel.selection.constraints.shape[0]), "exact": gsel.exact,
                "face": None if face is None else ("point" if face.point else "face"),
                "face_dimension": None if face is None else face.dimension,
                "reason": (gsel.reason or gsel.selection.reason) or None}

    def text_summary(self, head, document):
        sel = document["selected"]
        face = "one point" if sel["face"] == "point" else f"a face (dimension ≤ {sel['face_dimension']})"
        heading = (f"{head} · geometry {sel['geometry']}\nθ*_q: ‖θ‖ = {sel['value']:.6g}, optimal set {face}"
                   + (" (exact LP certificate)" if sel["exact"] else "") + (f" — {sel['reason']}" if sel["reason"]
                                                                           else ""))
        rows = []
        for L, counts in document["rows"].items():
            pair = document["alpha_interval"][L]
            text = "—" if pair is None else f"[{pair[0]:.4f}, {pair[1]:.4f}]"
            rows.append([L, text, counts["realized"], counts["realized_by_some"], counts["failed"],
                         counts["undecided"], counts["total"], counts["structural_ties"]])
        header = ["L", "alpha interval", "every θ", "some θ", "no θ", "undecided", "total", "structural ties"]
        note = ("alpha interval: [rows realized by every optimal θ, rows realized by some optimal θ] / rows "
                "(\"some\" is per row)")
        return heading, header, rows, note

    def table_preamble(self, train_length):
        return (f"α_L(Φ, τ; L0 = {train_length}) in geometry {self.value} — [every, some] optimal θ "
                "of the face, one number when they agree; computed before any training")

    def csv_alpha_header(self, length):
        return [f"alpha_{b}_{length}" for b in ("low", "high")]

    def csv_alpha(self, doc, length):
        pair = (doc.get("alpha_interval_exact") or doc.get("alpha_interval") or {}).get(str(length))
        return ["", ""] if pair is None else [_number(pair[0]), _number(pair[1])]


class LinfGeometry(_FaceGeometry):
    """ℓ∞: θ*_∞ of sign descent and full-batch Adam; LP variables (θ, t), t ≥ |θ_c|."""

    name = Geometry.LINF
    label = "ℓ∞"
    optimizer = "sign descent, Adam"
    order, dual_order = math.inf, 1.0
    bounded_form = True
    rival = Geometry.L2
    step_decay = SIGN_STEP_DECAY

    def lp_columns(self, p):
        return p + 1, [p] * p

    def direction(self, grad):
        import numpy as np
        return -np.sign(grad)


class L1Geometry(_FaceGeometry):
    """ℓ1: θ*_1 of coordinate descent; LP variables (θ, s), s_c ≥ |θ_c|."""

    name = Geometry.L1
    label = "ℓ1"
    optimizer = "coordinate descent"
    order, dual_order = 1.0, math.inf
    rival = Geometry.LINF

    def lp_columns(self, p):
        return 2 * p, [p + c for c in range(p)]

    def direction(self, grad):
        import numpy as np
        out = np.zeros_like(grad)
        if grad.size:
            c = int(np.argmax(np.abs(grad)))
            out[c] = -np.sign(grad[c])
        return out


DECLARED: dict[Geometry, SelectionGeometry] = {g.name: g for g in (L2Geometry(), LinfGeometry(), L1Geometry())}
"""Every geometry, in the order of :class:`Geometry` (the default first)."""

DEFAULT_GEOMETRY: SelectionGeometry = DECLARED[Geometry.L2]
"""The default geometry: gradient descent's."""

GEOMETRY_FORMS = ", ".join(g.value for g in Geometry)
LINEAR_GEOMETRIES: tuple[SelectionGeometry, ...] = tuple(g for g in DECLARED.values() if g.program is Program.LINEAR)
"""The geometries whose selection is a linear program (an optimal face, an exact LP certificate)."""


def allowing(use: Use) -> str:
    """The accepted-forms text of a refused use: the geometries that allow it, and why."""
    why = _WHY[use].format(labels=allowing_labels(use))
    return f"{', '.join(g.value for g in DECLARED.values() if g.allows(use))} ({why})"


def allowing_labels(use: Use) -> str:
    """The geometries that allow a use, as the prose names them (ℓ2)."""
    return ", ".join(g.label for g in DECLARED.values() if g.allows(use))


def described() -> str:
    """The geometries as ``--geometry``'s help names them: ``l2 (gradient descent; the default), …, l1 (…)``."""
    texts = [f"{g.value} ({g.optimizer}{'; the default' if g is DEFAULT_GEOMETRY else ''})" for g in DECLARED.values()]
    return ", ".join(texts[:-1]) + " or " + texts[-1]


def linear_forms() -> str:
    """``linf or l1``: the geometries with an optimal face, as a refusal names them."""
    return " or ".join(g.value for g in LINEAR_GEOMETRIES)


def parse_geometry(text: str | Geometry) -> Geometry:
    """``"l2"`` / ``"linf"`` / ``"l1"`` (any case, surrounding spaces ignored) -> :class:`Geometry`; a one-line
    :class:`~posreal.theory.errors.SpecError` otherwise."""
    if isinstance(text, Geometry):
        return text
    if isinstance(text, SelectionGeometry):
        return text.name
    if isinstance(text, str):
        for g in Geometry:
            if text.strip().lower() == g.value:
                return g
    shown = repr(text)
    shown = shown if len(shown) <= 80 else shown[:77] + "..."
    raise SpecError(f"invalid geometry {shown}; accepted: {GEOMETRY_FORMS}")
