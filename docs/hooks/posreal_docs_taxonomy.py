"""Generators of the taxonomy (every registry PE × task): its tables, its shear pairs, the three
geometries side by side, every length extension side by side, and their figures (``posreal.plots``).
"""

from __future__ import annotations

import os
import tempfile
import time
from pathlib import Path

from mkdocs.exceptions import PluginError

# sibling module: mkdocs puts docs/hooks on sys.path while it loads the hooks
from posreal_docs_common import cached, fmt_alpha, progress, interval_text, provenance, table


@cached("taxonomy")
def taxonomy_docs():
    from posreal.theory.taxonomy import taxonomy
    from posreal.theory.defaults import TAXONOMY_PES
    from posreal.theory.defaults import REGISTRY_TASKS
    from posreal.theory.alpha import DEFAULT_LENGTHS, DEFAULT_TRAIN_LENGTH
    lengths = list(DEFAULT_LENGTHS)
    start = time.perf_counter()
    docs = [row.to_json() for row in taxonomy(list(TAXONOMY_PES), list(REGISTRY_TASKS), DEFAULT_TRAIN_LENGTH, lengths,
                                              progress=progress("taxonomy (ℓ2)"))]
    return docs, lengths, DEFAULT_TRAIN_LENGTH, time.perf_counter() - start


def gen_taxonomy_table() -> str:
    docs, lengths, L0, seconds = taxonomy_docs()
    rows = [[f"`{d['pe']}` ({d['pe_kind']})", f"`{d['task']}` ({d['task_class']})", "yes" if d["realizable"] else "no",
             *[fmt_alpha(d["alpha"].get(str(L))) for L in lengths]] for d in docs]
    return table(["PE (kind)", "task (class)", "realizable at L0", *[f"α_{L}" for L in lengths]], rows,
                 f"posreal.theory.taxonomy.taxonomy (every registry PE × task, L0 = {L0}; {seconds:.1f} s)")


def gen_taxonomy_grid() -> str:
    """PE × task at the largest length: the taxonomy at a glance."""
    docs, lengths, L0, _ = taxonomy_docs()
    L = str(max(lengths))
    pes = list(dict.fromkeys(d["pe"] for d in docs))
    tasks = list(dict.fromkeys(d["task"] for d in docs))
    by = {(d["pe"], d["task"]): d for d in docs}
    classes = {d["task"]: d["task_class"] for d in docs}
    kinds = {d["pe"]: d["pe_kind"] for d in docs}
    rows = [["*task class*", *[f"*{classes[t]}*" for t in tasks]]]
    for pe in pes:
        cells = []
        for task in tasks:
            d = by[(pe, task)]
            cells.append("—" if not d["realizable"] else fmt_alpha(d["alpha"][L]))
        rows.append([f"`{pe}` ({kinds[pe]})", *cells])
    header = [f"α_{L} (L0 = {L0})", *[f"`{t}`" for t in tasks]]
    return table(header, rows, "posreal.theory.taxonomy.taxonomy") + \
        "\n—: not realizable at L0 (no θ realizes every training row, so θ* does not exist).\n"


# Registry PEs whose shear is (up to a fixed permutation of coordinates) another registry PE.
SHEAR_PARTNERS = {"relbias": "colbias", "rope:16": "abscol:16"}


def _task_partner(task: str) -> str | None:
    name, _, arg = task.partition(":")
    return {"offset": f"position:{arg}", "position": f"offset:{arg}"}.get(name) if arg else \
        {"copy": "middle", "middle": "copy"}.get(task)


def gen_taxonomy_duals() -> str:
    """Pairs of registry cells exchanged by the shear (Proposition 4), side by side."""
    docs, lengths, L0, _ = taxonomy_docs()
    by = {(d["pe"], d["task"]): d for d in docs}
    rows = []
    for (pe, task), d in by.items():
        partner_pe, partner_task = SHEAR_PARTNERS.get(pe), _task_partner(task)
        other = by.get((partner_pe, partner_task))
        if other is None:
            continue
        mine = ["—" if not d["realizable"] else fmt_alpha(d["alpha"][str(L)]) for L in lengths]
        theirs = ["—" if not other["realizable"] else fmt_alpha(other["alpha"][str(L)]) for L in lengths]
        rows.append([f"`{pe}` · `{task}`", " / ".join(mine), f"`{partner_pe}` · `{partner_task}`", " / ".join(theirs),
                     "yes" if mine == theirs else "**NO**"])
    return table(["cell", f"α at L = {' / '.join(map(str, lengths))}", "its shear", "α of the shear", "equal"], rows,
                 "posreal.theory.taxonomy.taxonomy (pairs of registry cells related by the shear)")


GEOMETRY_NAMES = ("l2", "linf", "l1")


@cached("taxonomy-geometries")
def taxonomy_geometry_docs():
    """The taxonomy in every geometry: geometry -> documents (the ℓ2 ones are the taxonomy's)."""
    from posreal.theory.taxonomy import taxonomy
    from posreal.theory.defaults import LENGTHS, REGISTRY_TASKS, TAXONOMY_PES, TRAIN_LENGTH
    start = time.perf_counter()
    out = {"l2": taxonomy_docs()[0]}
    for g in GEOMETRY_NAMES[1:]:
        out[g] = [row.to_json() for row in taxonomy(list(TAXONOMY_PES), list(REGISTRY_TASKS), TRAIN_LENGTH,
                                                    list(LENGTHS), geometry=g, progress=progress(f"taxonomy ({g})"))]
    return out, list(LENGTHS), TRAIN_LENGTH, time.perf_counter() - start


def gen_taxonomy_geometries() -> str:
    """α_L per registry cell in the ℓ2, ℓ∞ and ℓ1 geometries, side by side (all lengths)."""
    by, lengths, L0, seconds = taxonomy_geometry_docs()
    rows = []
    for n, d in enumerate(by["l2"]):
        if not d["realizable"]:
            continue
        cells = []
        for g in GEOMETRY_NAMES:
            doc = by[g][n]
            text = " / ".join(interval_text(doc["alpha_interval"][str(L)]) for L in lengths)
            undecided = sum(doc["rows"][str(L)]["undecided"] for L in lengths)
            cells.append(text + (f" (+{undecided} undecided)" if undecided else ""))
        rows.append([f"`{d['pe']}` · `{d['task']}`", *cells])
    return table(["cell", *[f"{g}: α at L = {' / '.join(map(str, lengths))}" for g in GEOMETRY_NAMES]], rows,
                 f"posreal.theory.taxonomy.taxonomy(geometry=...) (registry cells realizable at L0 = {L0}; "
                 f"{seconds:.1f} s)") + "\n[lo, hi]: rows realized by every / by some optimal θ of the face.\n"


def _png(name: str, draw) -> dict[str, bytes]:
    """``draw(path)`` writes a figure; its bytes as the generated file ``generated/NAME``."""
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, name)
        draw(path)
        return {f"generated/{name}": Path(path).read_bytes()}


def asset_taxonomy_geometries() -> dict[str, bytes]:
    from posreal.plots import plot_geometries
    by, lengths, _, _ = taxonomy_geometry_docs()
    return _png("taxonomy_geometries.png", lambda path: plot_geometries(by, lengths, path))


def gen_taxonomy_geometries_figure() -> str:
    return ("![α_L against L in the ℓ2, ℓ∞ and ℓ1 geometries](generated/taxonomy_geometries.png)\n\n"
            + provenance("posreal.plots.plot_geometries over posreal.theory.taxonomy.taxonomy(geometry=...)"))


def asset_taxonomy() -> dict[str, bytes]:
    from posreal.plots import plot_taxonomy
    docs, lengths, _, _ = taxonomy_docs()
    return _png("taxonomy.png", lambda path: plot_taxonomy(docs, lengths, path))


def gen_taxonomy_figure() -> str:
    return ("![α_L against L for every registry PE and realizable task](generated/taxonomy.png)\n\n"
            + provenance("posreal.plots.plot_taxonomy over posreal.theory.taxonomy.taxonomy"))


# --------------------------------------------------------------------------- length extensions
EXTENSION_FIGURE_LENGTHS = (32, 64, 128, 256, 512, 1024)


@cached("extension-taxonomy")
def extension_docs(lengths: tuple[int, ...]):
    """method -> the taxonomy's cell documents under that length extension (every registry PE × task)."""
    from posreal.theory.defaults import REGISTRY_PES, REGISTRY_TASKS, TRAIN_LENGTH
    from posreal.theory.extension import EXTENSIONS
    from posreal.theory.taxonomy import taxonomy
    start = time.perf_counter()
    out = {m: [row.to_json() for row in taxonomy(list(REGISTRY_PES), list(REGISTRY_TASKS), TRAIN_LENGTH,
                                                 list(lengths), extension=m, progress=progress(f"extension {m}"))]
           for m in EXTENSIONS}
    return out, TRAIN_LENGTH, time.perf_counter() - start


def _ext_alpha(doc: dict, L) -> str:
    if doc.get("applicable") is False:
        return "n/a"
    value = doc["alpha"].get(str(L))
    undecided = doc["rows"].get(str(L), {}).get("undecided", 0) if doc["realizable"] else 0
    return fmt_alpha(value) + (f" (+{undecided} u.)" if undecided else "")


def gen_extension_table() -> str:
    """α_L of every registry cell realizable at L0 under every method side by side (as ``posreal table
    --extension all``)."""
    from posreal.theory.defaults import LENGTHS
    by, L0, seconds = extension_docs(tuple(LENGTHS))
    methods = list(by)
    rows = []
    for n, d in enumerate(by["none"]):
        if not d["realizable"]:
            continue
        rows.append([f"`{d['pe']}` · `{d['task']}`", d["task_class"],
                     *[" / ".join(_ext_alpha(by[m][n], L) for L in LENGTHS) for m in methods]])
    out = table(["cell", "task class", *[f"{m}: α at L = {' / '.join(map(str, LENGTHS))}" for m in methods]], rows,
                f"posreal.theory.taxonomy.taxonomy(extension=...) over the registry (L0 = {L0}; {seconds:.1f} s; "
                "the same numbers as `posreal table --extension all`)")
    return out + ("\n*n/a*: the method does not act on the PE (bucketed PEs have no frequencies or positions to "
                  "rescale; `alibi` takes `pi` only). *u.*: rows undecided in float (within tolerance).\n")


def asset_extension() -> dict[str, bytes]:
    from posreal.plots import plot_extensions
    by, _, _ = extension_docs(EXTENSION_FIGURE_LENGTHS)
    return _png("extension.png", lambda path: plot_extensions(by, list(EXTENSION_FIGURE_LENGTHS), path))


def gen_extension_figure() -> str:
    return ("![α_L against L under each length extension, per registry cell](generated/extension.png)\n\n"
            + provenance("posreal.plots.plot_extensions over posreal.theory.taxonomy.taxonomy(extension=...), "
                         f"L = {', '.join(map(str, EXTENSION_FIGURE_LENGTHS))}"))


def gen_alpha_extensions(pe: str, train_length: str, length: str, *tasks: str) -> str:
    """α_L of one PE under every method for several tasks at one length, with the smallest margin of the rows
    realized (how sharp an α = 1 is)."""
    import numpy as np
    from posreal.theory.alpha import compute_alpha
    from posreal.theory.extension import EXTENSIONS
    from posreal.theory.realization import REALIZED
    if not tasks:
        raise PluginError("alpha-extensions: name at least one task")
    L0, L = int(train_length), int(length)
    rows = []
    for method in EXTENSIONS:
        cells = []
        for task in tasks:
            result = compute_alpha(pe, task, L0, [L], extension=method)
            if not result.realizable:
                cells.append("—")
                continue
            out = result.outcomes[L]
            won = [float(g) for g, st in zip(out.margins, out.status) if st == REALIZED and np.isfinite(float(g))]
            text = fmt_alpha(result.alpha(L)) + (f" (+{out.counts()['undecided']} u.)" if out.counts()["undecided"]
                                                 else "")
            cells.append(text + (f", min margin {min(won):.2g}" if won else ""))
        rows.append([f"`{method}`", *cells])
    return table(["method", *[f"`{t}`" for t in tasks]], rows,
                 f"posreal.theory.compute_alpha({pe!r}, task, train_length={L0}, lengths=[{L}], extension=...)")


def gen_extension_instances() -> str:
    """The instances named in the statement's notes, computed now."""
    import numpy as np
    from posreal.theory.alpha import compute_alpha
    from posreal.theory.selection import select
    checks = [
        ("rope:32", "copy", 32, 1023, "pi", "(b) odd L: a kernel symmetric about L0/2 ties every row past ⌊L/2⌋"),
        ("rope:32", "copy", 32, 1024, "pi", "(b) even L: the target sits at x = 16, the maximum of V"),
        ("rope:32", "offset:1", 32, 1024, "pi", "(c) beyond L_c only row c survives: 1/(L - c)"),
        ("rope:16", "position:0", 16, 256, "pi", "(d) p = 0 with V increasing on [0, L0]"),
        ("rope:16", "position:0", 16, 256, "none", "the same cell under T_L"),
        ("rope:32", "offset:8", 32, 1024, "ntk", "(f) rows at or above L0 are not covered"),
        ("rope:32", "offset:1", 32, 1024, "ntk", "the nearby fixed offset"),
        ("rope:16", "copy", 16, 256, "pi", "copy under PI"),
        ("rope:16", "copy", 16, 256, "yarn", "copy under YaRN at L0 = 16 (γ_0 ≈ 0.05)"),
    ]
    rows = []
    for pe, task, L0, L, method, note in checks:
        out = compute_alpha(pe, task, L0, [L], extension=method).outcomes[L]
        c = out.counts()
        rows.append([f"`{pe}` · `{task}`", L0, L, f"`{method}`",
                     f"{c['realized']}/{c['total']} = {fmt_alpha(out.alpha)}", c["undecided"], note])
    sel = select("rope:32", "copy", 32)
    th = np.asarray(sel.theta, dtype=float)
    omega = 10000.0 ** (-np.arange(16) / 16)
    a, b = th[:16], th[16:]
    A = a * np.cos(16 * omega) + b * np.sin(16 * omega)          # cosine coefficients about x = 16
    B = -a * np.sin(16 * omega) + b * np.cos(16 * omega)         # sine coefficients about x = 16
    mirror = float(np.sum(A * (1 - np.cos(16 * omega))))         # margin of the symmetric kernel against offset 0
    out = table(["cell", "L0", "L", "method", "realized / |R_L| = α", "undecided", "part of the statement"], rows,
                "posreal.theory.compute_alpha(..., extension=...), run during this build")
    return out + (f"\nθ* of `rope:32` · `copy` at L0 = 32, written about x = 16, has sine coefficients at most "
                  f"{float(np.abs(B).max()):.1e} and cosine coefficients up to {float(np.abs(A).max()):.2f}. Why: "
                  "dropping the sine terms gives a kernel no longer than θ* that meets every training constraint "
                  "whose offset 16 ± u has its mirror image among the offsets 0..31 (it averages the two), and the "
                  f"one without a mirror, offset 0, with margin {mirror:.2f} ≥ 1 (in float); θ* is unique, so it is "
                  "that symmetric kernel — which is why the odd lengths tie.\n")


