"""The predictions the experiment confronts trained heads with.

α_L^(q) and θ*_q per (PE, task) cell for the geometries q ∈ {l2, linf, l1} (definitions.md#geometry,
definitions.md#alpha-q).

Main definitions:

* :class:`Prediction` — one cell in one geometry: realizable at L0, the interval [lo, hi] of α_L
  per length (lo = hi for ℓ2, whose θ* is unique) and the selected θ*_q;
* :func:`compute_predictions` — every cell of a grid in every declared geometry
  (:mod:`posreal.theory.geometry`), from ``compute_alpha(..., geometry=q).alpha_interval`` and
  ``posreal.theory.faces.select_in_geometry``; a length without a defined α gives no verdict, [0, 1].
  (A summary also accepts a geometry mapped to the reason it is unavailable, never guessed.)

* ``l2-limit`` — α♯_L (definitions.md#alpha-sharp): the interval that predicts lim acc_L of gradient descent
  on the positional loss, with its verdict on every row of R_L (won / lost / undecided, the row's class and the
  evidence that decided it), from :func:`posreal.theory.alpha.compute_alpha` with ``limit=True`` — closed
  forms only (no trajectory evidence, which would be the flow the ``gd-positional`` recipe runs);

* :func:`compute_extension_predictions` — the same under each length-extension method σ
  (α_L^σ,(q): θ*_q selected at L0 without extension, evaluated through T_L^σ), for the PEs σ acts on.

Predictions are computed at summary time from (PE, task, L0, lengths) alone: training never
depends on them, and every record keeps its trained θ so that cosines can be taken later.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from posreal.theory.alpha import compute_alpha
from posreal.theory.defaults import GEOMETRIES
from posreal.theory.geometry import DECLARED, SelectionGeometry, Use

__all__ = ["GEOMETRIES", "LIMIT", "Prediction", "compute_extension_predictions", "compute_predictions",
           "limit_prediction", "prediction_summary"]


@dataclass(frozen=True)
class Prediction:
    """The prediction of one geometry for one (PE, task) cell: α_L^(q) per length and θ*_q."""

    geometry: str
    pe: str
    task: str
    realizable: bool
    alpha: dict[int, tuple[float, float]]   # L -> (lo, hi); empty when not realizable
    theta: np.ndarray | None                # (p,) θ*_q, None when not realizable
    rows: dict[int, dict[int, tuple[str, str, str]]] | None = None   # α♯ only: L -> row -> (verdict, class, evidence)


LIMIT = "l2-limit"
"""The prediction key of α♯_L (the ℓ2 limit of gradient descent)."""


def limit_prediction(pe: str, task: str, train_length: int, lengths: list[int]) -> Prediction:
    """α♯_L of one cell at each length, with its verdict on every row of R_L."""
    from posreal.theory.realization import REALIZED
    result = compute_alpha(pe, task, train_length, lengths, limit=True)
    if not result.realizable or result.limits is None:
        return Prediction(LIMIT, pe, task, False, {}, None)
    alpha, rows = {}, {}
    for L in lengths:
        sharp = result.limits[L]
        alpha[L] = (float(sharp.low), float(sharp.high))
        out = result.outcomes[L]
        kind = "exact" if sharp.exact else "float"
        verdicts = {int(r): ("won", "realized", kind) for r, st in zip(out.rows, out.status) if st == REALIZED}
        for row in sharp.rows:
            verdicts[int(row.row)] = (row.verdict.value, row.cls, row.evidence.value)
        rows[L] = verdicts
    theta = np.asarray(result.selection.theta, dtype=float)   # (p,)
    return Prediction(LIMIT, pe, task, True, alpha, theta, rows)


def _prediction(geometry: SelectionGeometry, pe: str, task: str, train_length: int, lengths: list[int],
             extension: str = "none") -> Prediction:
    """One cell in one geometry: α_L^(q) as [lo, hi] per length (lo = hi for ℓ2) and θ*_q."""
    from posreal.theory.faces import select_in_geometry
    result = compute_alpha(pe, task, train_length, lengths, geometry=geometry, extension=extension)
    if not result.realizable:
        return Prediction(geometry.value, pe, task, False, {}, None)
    intervals = result.alpha_interval   # a length without a defined α gives no verdict: [0, 1]
    alpha = {L: (float(intervals[L][0]), float(intervals[L][1])) if L in intervals else (0.0, 1.0) for L in lengths}
    theta = np.asarray(select_in_geometry(pe, task, train_length, geometry).theta, dtype=float)  # (p,)
    return Prediction(geometry.value, pe, task, True, alpha, theta)


def compute_predictions(pes: tuple[str, ...] | list[str], tasks: tuple[str, ...] | list[str], train_length: int,
                      lengths: list[int], limit: bool = True) -> dict[str, dict[tuple[str, str], Prediction] | str]:
    """geometry -> {(pe, task): Prediction} for every declared geometry.

    ``limit``: α♯ too, after the geometry that allows it (``l2-limit``)."""
    out: dict[str, dict[tuple[str, str], Prediction] | str] = {}
    for geometry in DECLARED.values():
        out[geometry.value] = {(pe, task): _prediction(geometry, pe, task, train_length, lengths)
                               for pe in pes for task in tasks}
        if limit and geometry.allows(Use.LIMIT):
            out[LIMIT] = {(pe, task): limit_prediction(pe, task, train_length, lengths) for pe in pes for task in tasks}
    return out


def compute_extension_predictions(pes: tuple[str, ...] | list[str], tasks: tuple[str, ...] | list[str],
                                train_length: int, lengths: list[int],
                                extensions: tuple[str, ...] | list[str]) -> dict[str, dict[str, dict | str]]:
    """method -> geometry -> {(pe, task): Prediction} under that length extension.

    Only the PEs the method acts on have an entry."""
    from posreal.theory.errors import SpecError
    from posreal.theory.extension import parse_extension
    from posreal.theory.pe_specs import parse_pe
    out: dict[str, dict[str, dict | str]] = {}
    for name in extensions:
        op = parse_extension(name)
        acting = []
        for pe in pes:
            try:
                op.accept(parse_pe(pe), train_length)
            except SpecError:
                continue
            acting.append(pe)
        out[name] = {geometry.value: {(pe, task): _prediction(geometry, pe, task, train_length, lengths, name)
                                      for pe in acting for task in tasks}
                     for geometry in DECLARED.values()}
    return out


def prediction_summary(predictions: dict) -> list[dict]:
    """Per cell: α_L^(q) intervals of every available geometry (JSON)."""
    cells: dict[tuple[str, str], dict] = {}
    for geometry, per_cell in predictions.items():
        if isinstance(per_cell, str):
            continue
        for (pe, task), w in per_cell.items():
            entry = cells.setdefault((pe, task), {"pe": pe, "task": task, "realizable": w.realizable, "alpha": {}})
            entry["alpha"][geometry] = {str(L): list(v) for L, v in w.alpha.items()}
    return list(cells.values())
