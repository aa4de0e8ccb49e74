"""The taxonomy's report in Markdown: every registry PE × task, its shear pairs, the three geometries side by side,
every length extension side by side, and the instances of the length-extension statement.

These are the tables of the docs' Taxonomy and Length extension pages, and of ``posreal table --report PART``
(:data:`PARTS`); the figures drawn from the same documents are :mod:`posreal.plots`'.

Main results:

* :func:`taxonomy_documents`, :func:`geometry_documents`, :func:`extension_documents` — the cell documents
  (``posreal alpha --json`` of each cell) in the ℓ2 geometry, in every geometry, under every length extension;
* :func:`taxonomy_table`, :func:`taxonomy_grid`, :func:`taxonomy_duals`, :func:`geometries_table`,
  :func:`extension_table` — their tables; :func:`report` — one part by name;
* :func:`alpha_extensions`, :func:`extension_instances` — single cells under every length extension.

A ``progress`` argument names a computation (``"taxonomy (ℓ2)"``) and returns a wrapper of its cells with the
contract of :func:`posreal.theory.taxonomy.taxonomy`'s ``progress`` (None: no progress is shown).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from posreal.runtime.markdown import ReportError, fmt_alpha, interval_text, table
from posreal.theory.defaults import LENGTHS
from posreal.theory.taxonomy import Cell

Progress = Callable[[str], Callable[[list[Cell]], Iterable[Cell]] | None]
GEOMETRY_NAMES = ("l2", "linf", "l1")
SHEAR_PARTNERS = {"relbias": "colbias", "rope:16": "abscol:16"}
"""Registry PEs whose shear is (up to a fixed permutation of coordinates) another registry PE."""
EXTENSION_FIGURE_LENGTHS = (32, 64, 128, 256, 512, 1024)


@dataclass(frozen=True)
class Documents:
    """Cell documents (``TaxonomyRow.to_json()``, PE-major) per variant ("l2", a geometry or an extension method)."""

    by: dict[str, list[dict]]   # variant -> one document per registry cell, in the same order for every variant
    lengths: list[int]
    train_length: int
    seconds: float


def _none(label: str) -> None:
    return None


def _cells(variants: dict[str, dict], lengths: list[int], pes: Iterable[str], progress: Progress,
           label: str) -> dict[str, list[dict]]:
    from posreal.theory.defaults import REGISTRY_TASKS, TRAIN_LENGTH
    from posreal.theory.taxonomy import taxonomy
    return {name: [row.to_json() for row in taxonomy(list(pes), list(REGISTRY_TASKS), TRAIN_LENGTH, lengths,
                                                     progress=progress(label.format(name)), **kwargs)]
            for name, kwargs in variants.items()}


def taxonomy_documents(progress: Progress = _none) -> Documents:
    """Every taxonomy PE × registry task in the ℓ2 geometry at the default lengths."""
    from posreal.theory.defaults import LENGTHS, TAXONOMY_PES, TRAIN_LENGTH
    start = time.perf_counter()
    by = _cells({"l2": {}}, list(LENGTHS), TAXONOMY_PES, progress, "taxonomy (ℓ2)")
    return Documents(by, list(LENGTHS), TRAIN_LENGTH, time.perf_counter() - start)


def geometry_documents(l2: Documents, progress: Progress = _none) -> Documents:
    """The taxonomy in every geometry (``l2`` is ``l2``'s documents, computed once)."""
    from posreal.theory.defaults import TAXONOMY_PES
    start = time.perf_counter()
    by = {"l2": l2.by["l2"], **_cells({g: {"geometry": g} for g in GEOMETRY_NAMES[1:]}, l2.lengths, TAXONOMY_PES,
                                      progress, "taxonomy ({})")}
    return Documents(by, l2.lengths, l2.train_length, time.perf_counter() - start)


def extension_documents(lengths: tuple[int, ...], progress: Progress = _none) -> Documents:
    """Every registry PE × task under every length extension method (``none`` first)."""
    from posreal.theory.defaults import REGISTRY_PES, TRAIN_LENGTH
    from posreal.theory.extension import EXTENSIONS
    start = time.perf_counter()
    by = _cells({m: {"extension": m} for m in EXTENSIONS}, list(lengths), REGISTRY_PES, progress, "extension {}")
    return Documents(by, list(lengths), TRAIN_LENGTH, time.perf_counter() - start)


def _alpha_at(doc: dict, L: object) -> str:
    return "—" if not doc["realizable"] else fmt_alpha(doc["alpha"][str(L)])


def taxonomy_table(t: Documents) -> str:
    """α_L of every cell at every length, with its realizability at L0."""
    rows = [[f"`{d['pe']}` ({d['pe_kind']})", f"`{d['task']}` ({d['task_class']})", "yes" if d["realizable"] else "no",
             *[fmt_alpha(d["alpha"].get(str(L))) for L in t.lengths]] for d in t.by["l2"]]
    return table(["PE (kind)", "task (class)", "realizable at L0", *[f"α_{L}" for L in t.lengths]], rows,
                 f"posreal.theory.taxonomy.taxonomy (every registry PE × task, L0 = {t.train_length}; "
                 f"{t.seconds:.1f} s)")


def taxonomy_grid(t: Documents) -> str:
    """PE × task at the largest length: the taxonomy at a glance."""
    docs, L = t.by["l2"], max(t.lengths)
    tasks = list(dict.fromkeys(d["task"] for d in docs))
    by = {(d["pe"], d["task"]): d for d in docs}
    classes = {d["task"]: d["task_class"] for d in docs}
    kinds = {d["pe"]: d["pe_kind"] for d in docs}
    rows = [["*task class*", *[f"*{classes[task]}*" for task in tasks]]]
    rows += [[f"`{pe}` ({kinds[pe]})", *[_alpha_at(by[(pe, task)], L) for task in tasks]]
             for pe in dict.fromkeys(d["pe"] for d in docs)]
    header = [f"α_{L} (L0 = {t.train_length})", *[f"`{task}`" for task in tasks]]
    return table(header, rows, "posreal.theory.taxonomy.taxonomy") + \
        "\n—: not realizable at L0 (no θ realizes every training row, so θ* does not exist).\n"


def _task_partner(task: str) -> str | None:
    name, _, arg = task.partition(":")
    return {"offset": f"position:{arg}", "position": f"offset:{arg}"}.get(name) if arg else \
        {"copy": "middle", "middle": "copy"}.get(task)


def taxonomy_duals(t: Documents) -> str:
    """Pairs of registry cells exchanged by the shear (Proposition 4), side by side."""
    by = {(d["pe"], d["task"]): d for d in t.by["l2"]}
    rows = []
    for (pe, task), d in by.items():
        partner_pe, partner_task = SHEAR_PARTNERS.get(pe), _task_partner(task)
        other = by.get((partner_pe, partner_task))
        if other is None:
            continue
        mine = [_alpha_at(d, L) for L in t.lengths]
        theirs = [_alpha_at(other, L) for L in t.lengths]
        rows.append([f"`{pe}` · `{task}`", " / ".join(mine), f"`{partner_pe}` · `{partner_task}`", " / ".join(theirs),
                     "yes" if mine == theirs else "**NO**"])
    return table(["cell", f"α at L = {' / '.join(map(str, t.lengths))}", "its shear", "α of the shear", "equal"], rows,
                 "posreal.theory.taxonomy.taxonomy (pairs of registry cells related by the shear)")


def geometries_table(g: Documents) -> str:
    """α_L per registry cell in the ℓ2, ℓ∞ and ℓ1 geometries, side by side (all lengths)."""
    rows = []
    for n, d in enumerate(g.by["l2"]):
        if not d["realizable"]:
            continue
        cells = []
        for name in GEOMETRY_NAMES:
            doc = g.by[name][n]
            text = " / ".join(interval_text(doc["alpha_interval"][str(L)]) for L in g.lengths)
            undecided = sum(doc["rows"][str(L)]["undecided"] for L in g.lengths)
            cells.append(text + (f" (+{undecided} undecided)" if undecided else ""))
        rows.append([f"`{d['pe']}` · `{d['task']}`", *cells])
    return table(["cell", *[f"{name}: α at L = {' / '.join(map(str, g.lengths))}" for name in GEOMETRY_NAMES]], rows,
                 f"posreal.theory.taxonomy.taxonomy(geometry=...) (registry cells realizable at L0 = {g.train_length}; "
                 f"{g.seconds:.1f} s)") + "\n[lo, hi]: rows realized by every / by some optimal θ of the face.\n"


def _ext_alpha(doc: dict, L: object) -> str:
    if doc.get("applicable") is False:
        return "n/a"
    undecided = doc["rows"].get(str(L), {}).get("undecided", 0) if doc["realizable"] else 0
    return fmt_alpha(doc["alpha"].get(str(L))) + (f" (+{undecided} u.)" if undecided else "")


def extension_table(e: Documents) -> str:
    """α_L of every registry cell realizable at L0 under every method side by side (as ``posreal table
    --extension all``)."""
    rows = [[f"`{d['pe']}` · `{d['task']}`", d["task_class"],
             *[" / ".join(_ext_alpha(e.by[m][n], L) for L in e.lengths) for m in e.by]]
            for n, d in enumerate(e.by["none"]) if d["realizable"]]
    out = table(["cell", "task class", *[f"{m}: α at L = {' / '.join(map(str, e.lengths))}" for m in e.by]], rows,
                f"posreal.theory.taxonomy.taxonomy(extension=...) over the registry (L0 = {e.train_length}; "
                f"{e.seconds:.1f} s; the same numbers as `posreal table --extension all`)")
    return out + ("\n*n/a*: the method does not act on the PE (bucketed PEs have no frequencies or positions to "
                  "rescale; `alibi` takes `pi` only). *u.*: rows undecided in float (within tolerance).\n")


PARTS: dict[str, Callable[[Progress], str]] = {
    "taxonomy": lambda p: taxonomy_table(taxonomy_documents(p)),
    "grid": lambda p: taxonomy_grid(taxonomy_documents(p)),
    "duals": lambda p: taxonomy_duals(taxonomy_documents(p)),
    "geometries": lambda p: geometries_table(geometry_documents(taxonomy_documents(p), p)),
    "extensions": lambda p: extension_table(extension_documents(tuple(LENGTHS), p)),
}
"""The report's parts by name (``posreal table --report PART``), each as the docs page shows it."""


def report(part: str, progress: Progress = _none) -> str:
    """One part of the taxonomy's report (:data:`PARTS`); an unknown part is a :class:`ReportError`."""
    if part not in PARTS:
        raise ReportError(f"unknown taxonomy report part {part!r}; accepted: {', '.join(PARTS)}")
    return PARTS[part](progress)


def alpha_extensions(pe: str, train_length: str, length: str, *tasks: str) -> str:
    """α_L of one PE under every method for several tasks at one length, with the smallest margin of the rows
    realized (how sharp an α = 1 is)."""
    import numpy as np
    from posreal.theory.alpha import compute_alpha
    from posreal.theory.extension import EXTENSIONS
    from posreal.theory.realization import REALIZED
    if not tasks:
        raise ReportError("alpha-extensions: name at least one task")
    L0, L = int(train_length), int(length)
    rows = []
    for method in EXTENSIONS:
        cells = []
        for task in tasks:
            result = compute_alpha(pe, task, L0, [L], extension=method)
            if not result.realizable:
                cells.append("—")
                continue
            outcome = result.outcomes[L]
            won = [float(g) for g, st in zip(outcome.margins, outcome.status)
                   if st == REALIZED and np.isfinite(float(g))]
            undecided = outcome.counts()["undecided"]
            text = fmt_alpha(result.alpha(L)) + (f" (+{undecided} u.)" if undecided else "")
            cells.append(text + (f", min margin {min(won):.2g}" if won else ""))
        rows.append([f"`{method}`", *cells])
    return table(["method", *[f"`{t}`" for t in tasks]], rows,
                 f"posreal.theory.compute_alpha({pe!r}, task, train_length={L0}, lengths=[{L}], extension=...)")


INSTANCES = (
    ("rope:32", "copy", 32, 1023, "pi", "(b) odd L: a kernel symmetric about L0/2 ties every row past ⌊L/2⌋"),
    ("rope:32", "copy", 32, 1024, "pi", "(b) even L: the target sits at x = 16, the maximum of V"),
    ("rope:32", "offset:1", 32, 1024, "pi", "(c) beyond L_c only row c survives: 1/(L - c)"),
    ("rope:16", "position:0", 16, 256, "pi", "(d) p = 0 with V increasing on [0, L0]"),
    ("rope:16", "position:0", 16, 256, "none", "the same cell under T_L"),
    ("rope:32", "offset:8", 32, 1024, "ntk", "(f) rows at or above L0 are not covered"),
    ("rope:32", "offset:1", 32, 1024, "ntk", "the nearby fixed offset"),
    ("rope:16", "copy", 16, 256, "pi", "copy under PI"),
    ("rope:16", "copy", 16, 256, "yarn", "copy under YaRN at L0 = 16 (γ_0 ≈ 0.05)"),
)
"""The instances the length-extension statement's notes name: (PE, task, L0, L, method, the part they show)."""


def extension_instances() -> str:
    """The instances named in the statement's notes, computed now, and why ``rope:32`` · ``copy`` ties at odd L."""
    import numpy as np
    from posreal.theory.alpha import compute_alpha
    from posreal.theory.selection import select
    rows = []
    for pe, task, L0, L, method, note in INSTANCES:
        out = compute_alpha(pe, task, L0, [L], extension=method).outcomes[L]
        c = out.counts()
        rows.append([f"`{pe}` · `{task}`", L0, L, f"`{method}`",
                     f"{c['realized']}/{c['total']} = {fmt_alpha(out.alpha)}", c["undecided"], note])
    th = np.asarray(select("rope:32", "copy", 32).theta, dtype=float)        # (32,): 16 cosine, 16 sine weights
    omega = 10000.0 ** (-np.arange(16) / 16)
    a, b = th[:16], th[16:]
    A = a * np.cos(16 * omega) + b * np.sin(16 * omega)          # cosine coefficients about x = 16
    B = -a * np.sin(16 * omega) + b * np.cos(16 * omega)         # sine coefficients about x = 16
    mirror = float(np.sum(A * (1 - np.cos(16 * omega))))         # margin of the symmetric kernel against offset 0
    text = table(["cell", "L0", "L", "method", "realized / |R_L| = α", "undecided", "part of the statement"], rows,
                 "posreal.theory.compute_alpha(..., extension=...), run during this build")
    return text + (f"\nθ* of `rope:32` · `copy` at L0 = 32, written about x = 16, has sine coefficients at most "
                   f"{float(np.abs(B).max()):.1e} and cosine coefficients up to {float(np.abs(A).max()):.2f}. Why: "
                   "dropping the sine terms gives a kernel no longer than θ* that meets every training constraint "
                   "whose offset 16 ± u has its mirror image among the offsets 0..31 (it averages the two), and the "
                   f"one without a mirror, offset 0, with margin {mirror:.2f} ≥ 1 (in float); θ* is unique, so it is "
                   "that symmetric kernel — which is why the odd lengths tie.\n")
