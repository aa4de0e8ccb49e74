"""Generators behind the ``<!-- posreal: NAME ARG... -->`` markers (see ``posreal_docs.py``).

Each generator returns Markdown computed from the code at build time: the registries
(``posreal.theory.encodings``, ``posreal.theory.tasks``), α_L (``posreal.theory.alpha``), the taxonomy
(``posreal.theory.taxonomy.taxonomy``, ``posreal.theory.plots.plot_taxonomy``), the claim runner
(``posreal.checks.runner.run_claims``, the engine of ``posreal check``), the statements
(``posreal.theory.statements``), the
counterexample certificates and searches (``counterexamples``), the experiment summary
(``docs/data/experiment/summary.json``) and the argparse parsers (``posreal.cli.build_parser``).
The Python API pages are mkdocstrings' (``docs/api/``), not generated here.

Rules: nothing is pasted by hand; an empty table is an error; a source that is missing or does
not answer as its contract says is an error (``PluginError``) that names it — there is no
placeholder fallback.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import logging
import os
import re
import tempfile
import textwrap
import time
from fractions import Fraction
from pathlib import Path

from mkdocs.exceptions import PluginError

import config_table  # sibling module: the model-config table (mkdocs puts this folder on sys.path)

log = logging.getLogger("mkdocs.hooks.posreal_docs")   # progress lines of the build (INFO)
ROOT = Path(__file__).resolve().parents[2]          # the repository
DOCS = ROOT / "docs"
EXPERIMENT_SUMMARY = DOCS / "data" / "experiment" / "summary.json"
CERTIFICATES = ROOT / "counterexamples" / "certificates"

FORMALIZATION = ("The precise definitions and statements on this site are <strong>this project's "
                 "formalization</strong> of the preprint's public abstract, not the preprint's own "
                 "text: where the abstract is silent, the choices are ours.")

_cache: dict = {}


def reset_cache() -> None:
    _cache.clear()


def cached(key):
    def wrap(fn):
        def inner(*args):
            k = (key, args)
            if k not in _cache:
                _cache[k] = fn(*args)
            return _cache[k]
        inner.__name__ = fn.__name__
        inner.__doc__ = fn.__doc__
        return inner
    return wrap


# --------------------------------------------------------------------------- helpers
def formalization_note(inline: bool) -> str:
    if inline:
        return f'!!! note "Whose formalization"\n    {FORMALIZATION}\n'
    return f'<div class="posreal-formalization" markdown>{FORMALIZATION}</div>'


def provenance(source: str) -> str:
    return f'<p class="posreal-generated">Generated at build time from <code>{source}</code>.</p>'


def _rel(path: Path) -> str:
    """A path relative to the repository when it is inside it."""
    try:
        return str(Path(path).relative_to(ROOT))
    except ValueError:
        return str(path)


def md_escape(text) -> str:
    """One table cell on one line, with its pipes escaped (idempotent: escaped pipes stay as they are)."""
    return re.sub(r"(?<!\\)\|", r"\\|", str(text).replace("\n", " "))


def table(header, rows, source: str | None = None) -> str:
    rows = [list(r) for r in rows]
    if not rows:
        raise PluginError(f"generated table from {source or 'the code'} is empty")
    lines = ["| " + " | ".join(md_escape(h) for h in header) + " |",
             "|" + "|".join("---" for _ in header) + "|"]
    lines += ["| " + " | ".join(md_escape(c) for c in r) + " |" for r in rows]
    out = "\n".join(lines) + "\n"
    if source:
        out += "\n" + provenance(source) + "\n"
    return out


def first_line(doc: str | None) -> str:
    return rst_to_md((doc or "").strip().split("\n\n")[0].replace("\n", " "))


def rst_to_md(text: str) -> str:
    text = re.sub(r":(?:func|class|mod|meth|attr|data|obj):`~?([^`]+)`", r"`\1`", text)
    return text.replace("``", "`")


def fmt_alpha(value) -> str:
    return "—" if value is None else f"{value:.3f}"


def fmt_seconds(value) -> str:
    try:
        return f"{float(value):.2f} s"
    except (TypeError, ValueError):
        return "—"


# --------------------------------------------------------------------------- registries
def gen_pe_registry(train_length: str = "16") -> str:
    """Every registry PE (and two shears, and learned:d), parsed and str()-ed by the code."""
    from posreal.theory.defaults import TAXONOMY_PES
    from posreal.theory.encodings import DualOf
    from posreal.theory.pe_specs import is_learned, parse_learned, parse_pe
    L0 = int(train_length)
    specs = list(TAXONOMY_PES) + ["clipped", "slope", "dual:rope:16", "dual:relbias", "dual:t5", "learned:8"]
    rows = []
    for spec in specs:
        parse = parse_learned if is_learned(spec) else parse_pe
        pe = parse(spec)
        text = str(pe)
        if str(parse(text)) != text:
            raise PluginError(f"PE spec {spec!r} does not round-trip through str(): {text!r}")
        if not is_learned(pe):
            base = pe.base if isinstance(pe, DualOf) else pe   # (a sinusoidal PE's .base is its frequency base)
            index = "i − j" if pe.index == "offset" else "j"
            rows.append([f"`{spec}`", f"`{text}`", pe.kind, index, pe.dim(L0),
                         "yes" if pe.rational else "no (certified mode)",
                         first_line(type(base).__doc__) if base is pe else
                         f"the shear of `{base}`: ψ_S(i, j) = ψ(i, i − j)"])
        else:
            rows.append([f"`{spec}`", f"`{text}`", pe.kind, "—", "—", "—", first_line(type(pe).__doc__)])
    return table(["spec", "str(parse_pe(spec))", "kind", "key index k", f"p at L0 = {L0}", "exact mode",
                  "docstring"], rows, "posreal.theory.pe_specs.parse_pe, posreal.theory.defaults.TAXONOMY_PES")


def gen_task_registry(length: str = "8") -> str:
    """Every registry task (and two shears), with its rows and targets on a small grid."""
    from posreal.theory.defaults import REGISTRY_TASKS
    from posreal.theory.tasks import parse_task
    n = int(length)
    rows = []
    for spec in list(REGISTRY_TASKS) + ["dual:copy", "dual:offset:1"]:
        task = parse_task(spec)
        text = str(task)
        if str(parse_task(text)) != text:
            raise PluginError(f"task spec {spec!r} does not round-trip through str(): {text!r}")
        R, t = task.rows_and_targets(n)
        pairs = ", ".join(f"{i}→{j}" for i, j in zip(R.tolist(), t.tolist()))
        rows.append([f"`{spec}`", f"`{text}`", task.task_class,
                     "no" if not task.rows_depend_on_length else "yes", pairs or "(none)"])
    return table(["spec", "str(parse_task(spec))", "class", "R_n depends on n", f"row → target at n = {n}"],
                 rows, "posreal.theory.tasks.parse_task, REGISTRY_TASKS")


# --------------------------------------------------------------------------- α_L and the taxonomy
def gen_alpha(pe: str, task: str, train_length: str = "16", lengths: str = "32,64,128,256",
              mode: str = "float") -> str:
    """α_L of one cell with the row counts behind it (``posreal alpha``)."""
    from posreal.theory.alpha import compute_alpha
    Ls = [int(x) for x in lengths.split(",")]
    result = compute_alpha(pe, task, int(train_length), Ls, mode)
    doc = result.to_json()
    src = f"posreal.theory.compute_alpha({pe!r}, {task!r}, train_length={train_length}, mode={mode!r})"
    if not result.realizable:
        return (f"`{pe}` · `{task}` at L0 = {train_length}: **not realizable at L0** "
                f"({doc['selected'].get('reason') or 'no θ realizes every training row'}).\n\n" + provenance(src))
    rows = []
    for L in map(str, sorted(Ls)):
        c = doc["rows"][L]
        alpha = doc.get("alpha_exact", {}).get(L) or fmt_alpha(doc["alpha"][L])
        rows.append([L, alpha, c["realized"], c["failed"], c["undecided"], c["structural_ties"], c["total"]])
    return table(["L", "α_L", "realized", "failed", "undecided", "structural ties", "|R_L|"], rows, src)


def _interval_text(pair) -> str:
    if pair is None:
        return "—"
    lo, hi = pair
    return fmt_alpha(lo) if lo == hi else f"[{fmt_alpha(lo)}, {fmt_alpha(hi)}]"


def gen_alpha_geometries(pe: str, task: str, train_length: str = "16", lengths: str = "32,64,128,256") -> str:
    """α_L of one cell in the three geometries side by side (``posreal alpha --geometry``)."""
    from posreal.theory.alpha import compute_alpha
    Ls = [int(x) for x in lengths.split(",")]
    docs = {g: compute_alpha(pe, task, int(train_length), Ls, geometry=g).to_json() for g in ("l2", "linf", "l1")}
    rows = []
    for L in map(str, sorted(Ls)):
        rows.append([L, *[_interval_text(docs[g]["alpha_interval"][L]) for g in docs],
                     *[str(docs[g]["rows"][L]["undecided"]) if docs[g]["rows"] else "—" for g in ("linf", "l1")]])
    return table(["L", "α_L (ℓ2, θ*)", "α_L (ℓ∞ face)", "α_L (ℓ1 face)", "undecided ℓ∞", "undecided ℓ1"], rows,
                 f"posreal.theory.compute_alpha({pe!r}, {task!r}, train_length={train_length}, geometry=...)")


def gen_learned(pe: str, task: str) -> str:
    """α_L of a learned absolute PE as an interval: both completions and the Monte Carlo estimate
    (``posreal alpha --pe learned:d --json``, in-process)."""
    doc = _cli_json(["alpha", "--pe", pe, "--task", task, "--json"])
    alpha = doc.get("alpha")
    if not isinstance(alpha, dict) or not alpha:
        raise PluginError(f"`posreal alpha --pe {pe} --task {task} --json` has no 'alpha' intervals")
    rows = []
    for L in sorted(alpha, key=int):
        a = alpha[L]
        comp, mc = a["completions"], a.get("monte_carlo") or {}
        mc_text = (f"{mc['mean']:.3f} ± {mc['stderr']:.3f} [{mc['min']:.3f}, {mc['max']:.3f}]" if mc else "—")
        rows.append([L, fmt_alpha(comp["zero"]), fmt_alpha(comp["copy_last"]), mc_text])
    mc0 = next((alpha[L].get("monte_carlo") for L in alpha if alpha[L].get("monte_carlo")), {}) or {}
    note = (f"\nMonte Carlo: {mc0.get('samples')} draws of the untrained rows (`{mc0.get('init')}`), "
            f"seed {mc0.get('seed')}.\n" if mc0 else "")
    return table(["L", "(a) zeros: $E_j = 0$", "(b) copies: $E_j = E_{L_0-1}$",
                  "(c) random rows: mean ± s.e. [min, max]"], rows,
                 f"posreal alpha --pe {pe} --task {task} --json, run during this build") + note


def gen_static_routing(length: str = "6", vocab: str = "3", *tasks: str) -> str:
    """β_i = max_j P[x_j = F(x)_i] per scored row (posreal.theory.expressivity.static_routing_bound)."""
    from posreal.theory.expressivity import static_routing_bound
    n, V = int(length), int(vocab)
    rows = []
    for spec in tasks or ("copy", "reverse", "sort", "addition"):
        r = static_routing_bound(spec, n, V)
        betas = [str(b) if isinstance(b, Fraction) else f"{b:.4f}" for b in r.beta]
        rows.append([f"`{spec}`", r.method, ", ".join(f"{i}: {b}" for i, b in zip(r.rows, betas)), str(min(r.beta))])
    return table(["task", "method", "row i: β_i", "min β_i"], rows,
                 f"posreal.theory.expressivity.static_routing_bound(task, length={n}, vocab={V}), "
                 f"exact by enumeration of all {V}^{n} inputs")


def gen_ceilings(length: str = "16", *tasks: str) -> str:
    """Class ceilings of free relative / column kernels (``posreal ceiling --json``, z3 MaxSMT)."""
    rows = []
    for kernel in ("relative", "column"):
        for task in tasks or ("copy", "middle", "reverse", "position:1"):
            doc = _cli_json(["ceiling", "--kernel", kernel, "--task", task, "--length", length, "--json"])
            for key in ("realized", "total", "optimal"):
                if key not in doc:
                    raise PluginError(f"`posreal ceiling --json` has no {key!r}")
            rows.append([kernel, f"`{task}`", f"{doc['realized']} of {doc['total']}", doc.get("ceiling", "—"),
                         doc["optimal"], "yes" if doc.get("verified") else "**NO**"])
    return table(["free kernel", "task", "rows realized at best", "α*", "optimality", "witness re-checked"], rows,
                 f"posreal ceiling --kernel K --task T --length {length} --json (z3 Optimize), run during this build")


@cached("taxonomy")
def taxonomy_docs():
    from posreal.theory.taxonomy import taxonomy
    from posreal.theory.defaults import TAXONOMY_PES
    from posreal.theory.defaults import REGISTRY_TASKS
    from posreal.theory.alpha import DEFAULT_LENGTHS, DEFAULT_TRAIN_LENGTH
    lengths = list(DEFAULT_LENGTHS)
    start = time.perf_counter()
    docs = [row.to_json() for row in taxonomy(list(TAXONOMY_PES), list(REGISTRY_TASKS), DEFAULT_TRAIN_LENGTH, lengths)]
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
                                                    list(LENGTHS), geometry=g)]
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
            text = " / ".join(_interval_text(doc["alpha_interval"][str(L)]) for L in lengths)
            undecided = sum(doc["rows"][str(L)]["undecided"] for L in lengths)
            cells.append(text + (f" (+{undecided} undecided)" if undecided else ""))
        rows.append([f"`{d['pe']}` · `{d['task']}`", *cells])
    return table(["cell", *[f"{g}: α at L = {' / '.join(map(str, lengths))}" for g in GEOMETRY_NAMES]], rows,
                 f"posreal.theory.taxonomy.taxonomy(geometry=...) (registry cells realizable at L0 = {L0}; "
                 f"{seconds:.1f} s)") + "\n[lo, hi]: rows realized by every / by some optimal θ of the face.\n"


def asset_taxonomy_geometries() -> dict[str, bytes]:
    from posreal.theory.plots import plot_geometries
    by, lengths, _, _ = taxonomy_geometry_docs()
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "taxonomy_geometries.png")
        plot_geometries(by, lengths, path)
        return {"generated/taxonomy_geometries.png": Path(path).read_bytes()}


def gen_taxonomy_geometries_figure() -> str:
    return ("![α_L against L in the ℓ2, ℓ∞ and ℓ1 geometries](generated/taxonomy_geometries.png)\n\n"
            + provenance("posreal.theory.plots.plot_geometries over posreal.theory.taxonomy.taxonomy(geometry=...)"))


def asset_taxonomy() -> dict[str, bytes]:
    from posreal.theory.plots import plot_taxonomy
    docs, lengths, _, _ = taxonomy_docs()
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "taxonomy.png")
        plot_taxonomy(docs, lengths, path)
        return {"generated/taxonomy.png": Path(path).read_bytes()}


def gen_taxonomy_figure() -> str:
    return ("![α_L against L for every registry PE and realizable task](generated/taxonomy.png)\n\n"
            + provenance("posreal.theory.plots.plot_taxonomy over posreal.theory.taxonomy.taxonomy"))


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
                                                 list(lengths), extension=m)] for m in EXTENSIONS}
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
    from posreal.theory.plots import plot_extensions
    by, _, _ = extension_docs(EXTENSION_FIGURE_LENGTHS)
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "extension.png")
        plot_extensions(by, list(EXTENSION_FIGURE_LENGTHS), path)
        return {"generated/extension.png": Path(path).read_bytes()}


def gen_extension_figure() -> str:
    return ("![α_L against L under each length extension, per registry cell](generated/extension.png)\n\n"
            + provenance("posreal.theory.plots.plot_extensions over posreal.theory.taxonomy.taxonomy(extension=...), "
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


# --------------------------------------------------------------------------- claims and their checks
def _cli_json(argv: list[str]):
    from posreal.cli import main
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(argv)
    text = out.getvalue()
    try:
        doc = json.loads(text)
    except json.JSONDecodeError as exc:
        raise PluginError(f"`posreal {' '.join(argv)}` (exit {code}) did not print one JSON document: {exc}; "
                          f"stderr: {err.getvalue().strip()[:300]}") from exc
    if code not in (0, 1):
        raise PluginError(f"`posreal {' '.join(argv)}` exited with {code}: {err.getvalue().strip()[:300]}")
    return doc


RUNNER_SOURCE = "posreal.checks.runner.run_claims(skip_slow=True)"


@cached("claims")
def claims_report():
    """The claim runner (the engine of ``posreal check``), run once per build: claim id ->
    ``ClaimReport``, the source named in provenance lines, and the seconds it took.  Every page
    renders from this one result; whether a check is good is the runner's own ``CheckResult.ok``."""
    from posreal.checks.runner import run_claims
    start = time.perf_counter()
    log.info("posreal docs: running every claim's checks (posreal check --skip-slow), once for the whole site")
    reports = {report.statement.id: report for report in run_claims(
        skip_slow=True, on_check=lambda c: log.info("posreal docs:   check %s: %s — %s", c.claim, c.method, c.label))}
    log.info("posreal docs: claim checks done in %.1f s", time.perf_counter() - start)
    return reports, RUNNER_SOURCE, time.perf_counter() - start


def claim_ids() -> list[str]:
    ids = _statement_ids()
    if not ids:
        raise PluginError("posreal.theory.statements declares no statement")
    return ids


def _verdict(result) -> str:
    """The verdict as the runner's JSON writes it, upper-cased when the check is not good."""
    v = str(result.to_json()["verdict"])
    return f"**{v}**" if result.ok else f"**{v.upper()}**"


def _control(result) -> str:
    """The negative control in words (``posreal check``'s wording): "fails as it should" when it was refuted."""
    from posreal.checks.base import control_words
    words = control_words(result.negative_control)
    return "n/a" if result.negative_control is None else (words if result.ok else f"**{words}**")


def _solver(result, solver: str) -> str:
    """One SMT solver's answer on the proof obligation and its time, as the runner's JSON has them ("—": none)."""
    run = result.to_json().get("solvers", {}).get(solver)
    if run is None:
        return "—"
    answer = str(run["answer"])
    shown = answer if answer == "unsat" else f"**{answer}**"
    return f"{shown} ({fmt_seconds(run['seconds'])})"


def gen_checks(claim_id: str) -> str:
    claims, source, seconds = claims_report()
    if claim_id not in claims:
        raise PluginError(f"claim {claim_id!r} is not in the claim report from {source} "
                          f"(it has: {', '.join(claims)})")
    report = claims[claim_id]
    if not report.results:
        raise PluginError(f"claim {claim_id!r} has no checks in the report from {source}")
    rows = []
    for r in report.results:
        detail = str(r.detail or "")
        rows.append([md_escape(r.name), r.method, _verdict(r), _solver(r, "z3"), _solver(r, "cvc5"), _control(r),
                     fmt_seconds(r.seconds), md_escape(textwrap.shorten(detail, 160, placeholder=" …"))])
    ok = sum(r.ok for r in report.results)
    head = (f"**Latest verdicts** — {ok} of {len(report.results)} checks good "
            f"(verdict proved/passed and, where there is one, the negative control — the same check with one "
            f"hypothesis dropped — fails as it should; an SMT proof is *proved* only when z3 and cvc5 both "
            f"answer unsat).\n\n")
    out = head + table(["check", "method", "verdict", "z3", "cvc5", "control", "time", "detail"], rows,
                       f"{source}, run once during this build ({seconds:.1f} s for every claim)")
    if report.skipped:
        out += ("\nSkipped in this build because they are marked slow (run them with `posreal check "
                f"{claim_id}`):\n\n" + "\n".join(f"- {md_escape(x)}" for x in report.skipped) + "\n")
    return out


def gen_claims_overview() -> str:
    claims, source, seconds = claims_report()
    names = _statement_names()
    rows = []
    for cid in claim_ids():
        if cid not in claims:
            raise PluginError(f"claim {cid!r} is missing from the claim report ({source})")
        results = claims[cid].results
        methods = ", ".join(dict.fromkeys(r.method for r in results))
        ok = sum(r.ok for r in results)
        status = claims[cid].verdict if results and claims[cid].ok else f"**{len(results) - ok} NOT GOOD**"
        rows.append([f"[{names.get(cid, cid)}](results/{cid}.md)", f"`{cid}`", methods or "—",
                     f"{status}; {ok}/{len(results)} checks as expected"])
    return table(["result", "claim id", "methods", "latest verdicts"], rows, f"{source} ({seconds:.1f} s)")


def gen_claims_overview_from_results() -> str:
    """The same overview, with links relative to results/index.md."""
    return gen_claims_overview().replace("](results/", "](")


# --------------------------------------------------------------------------- statements
def _statements() -> dict:
    """``posreal.theory.statements.STATEMENTS`` (id -> Statement): the one declaration of each result."""
    from posreal.theory.statements import STATEMENTS
    if not STATEMENTS:
        raise PluginError("posreal.theory.statements.STATEMENTS is empty")
    return STATEMENTS


def _statement_ids() -> list[str]:
    return list(_statements())


def _statement_names() -> dict:
    return {cid: st.name for cid, st in _statements().items()}


# --------------------------------------------------------------------------- CLI and API references
def _option_rows(parser: argparse.ArgumentParser):
    rows = []
    for a in parser._actions:
        if isinstance(a, argparse._HelpAction):
            continue
        flags = ", ".join(f"`{s}`" for s in a.option_strings) or f"`{a.dest}` (positional)"
        if a.choices and not isinstance(a, argparse._SubParsersAction):
            value = " \\| ".join(f"`{c}`" for c in a.choices)
        elif a.nargs == 0:
            value = "—"
        else:
            value = f"`{a.metavar or a.dest.upper()}`"
        default = a.default
        if default in (None, argparse.SUPPRESS, False) or a.nargs == 0:
            default_text = "required" if a.required else "—"
        elif isinstance(default, list):
            default_text = "`" + ",".join(map(str, default)) + "`"
        else:
            default_text = f"`{default}`"
        rows.append([flags, value, default_text, (a.help or "").replace("%(default)s", str(default))])
    return rows


def _command_section(command: str, parser: argparse.ArgumentParser, level: int) -> list[str]:
    """One command: description, usage, options; nested subcommands (``posreal search colspan``) below it."""
    anchor = command.replace(" ", "-")
    out = [f"\n{'#' * level} `{command}` {{#{anchor}}}\n"]
    if parser.description:
        out.append(rst_to_md(parser.description) + "\n")
    out.append(f"```text\n{parser.format_usage().strip()}\n```\n")
    nested = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
    shown = [a for a in parser._actions if not isinstance(a, argparse._HelpAction)]
    rows = [r for r, a in zip(_option_rows(parser), shown) if not isinstance(a, argparse._SubParsersAction)]
    if rows:
        out.append(table(["option", "value", "default", "meaning"], rows))
    for sub in nested:
        for name, child in sub.choices.items():
            out += _command_section(f"{command} {name}", child, min(level + 1, 6))
    return out


def gen_cli_reference() -> str:
    from posreal.cli import build_parser
    parser = build_parser()
    subs = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    helps = {c.dest: c.help for c in subs._choices_actions}
    out = [f"```text\n{parser.format_usage().strip()}\n```\n", rst_to_md(parser.description or "") + "\n",
           table(["command", "what it does"], [[f"[`posreal {n}`](#posreal-{n})", helps.get(n, "")]
                                               for n in subs.choices], "posreal.cli.build_parser()")]
    for name, sp in subs.choices.items():
        out += _command_section(f"posreal {name}", sp, 2)
    out.append("\n" + provenance("posreal.cli.build_parser() (argparse)"))
    return "\n".join(out)


# --------------------------------------------------------------------------- counterexamples
def _certificate_files() -> list[Path]:
    """The committed certificates; none at all is a build error."""
    files = sorted(CERTIFICATES.glob("*.json")) if CERTIFICATES.is_dir() else []
    if not files:
        raise PluginError(f"no committed certificate in {_rel(CERTIFICATES)}/ "
                          "(expected *.json written by posreal search colspan --out / --certify)")
    return files


def _instance_text(inst: dict) -> str:
    if "pe" not in inst or "task" not in inst:
        return "—"
    text = f"`{inst['pe']}` · `{inst['task']}`"
    if "train_length" in inst and "length" in inst:
        text += f", L0 = {inst['train_length']} → L = {inst['length']}"
    if "row" in inst:
        text += f", row {inst['row']}"
        if "target" in inst:
            text += f" (target {inst['target']}" + (f", rival {inst['rival']})" if "rival" in inst else ")")
    return text


def gen_certificates() -> str:
    """Every committed certificate, re-verified now by the fractions-only verifier."""
    files = _certificate_files()
    from posreal.counterexamples.verifier.certificate import BUNDLE_FORMAT
    from posreal.counterexamples.verifier.verify import verify_certificate
    rows, details = [], []
    for path in files:
        doc = json.loads(path.read_text())
        certs = doc.get("certificates", []) if doc.get("format") == BUNDLE_FORMAT else [doc]
        if not certs:
            raise PluginError(f"certificate file {path.name} holds no certificate")
        for n, cert in enumerate(certs):
            name = path.name if len(certs) == 1 else f"{path.name} #{n}"
            verdict = verify_certificate(cert, name)
            shown = f"**{verdict.verdict}**" if verdict.verdict == "verified" else f"**{verdict.verdict.upper()}**"
            rows.append([f"`{name}`", cert.get("kind", "?"), _instance_text(cert.get("instance", {})),
                         f"{len(verdict.checked)} exact facts", shown])
            text = md_escape(cert.get("explanation", "")).strip()
            checked = "".join(f"\n    - {md_escape(c)}" for c in verdict.checked[:12])
            more = f"\n    - … and {len(verdict.checked) - 12} more" if len(verdict.checked) > 12 else ""
            failures = "".join(f"\n    - **FAILED:** {md_escape(c)}" for c in verdict.failures)
            details.append(f'??? note "`{name}` — {cert.get("kind", "?")}"\n    {text}\n\n    Re-derived now, in '
                           f"exact arithmetic:{checked}{more}{failures}\n")
    return (table(["certificate", "kind", "instance", "re-derived", "verifier now"], rows,
                  "counterexamples/certificates/*.json, each re-checked by posreal.counterexamples.verifier.verify "
                  "(fractions only) during this build")
            + "\n" + "\n".join(details))


def gen_open_ties() -> str:
    """The open-tie certificates: exact facts, α♯'s verdict and the log-time gradient flow's evidence."""
    files = _certificate_files()
    from posreal.counterexamples.verifier.verify import verify_certificate
    rows = []
    for path in files:
        cert = json.loads(path.read_text())
        if cert.get("kind") != "open-tie":
            continue
        inst, claims, ev = cert["instance"], cert["claims"], cert.get("evidence") or {}
        verdict = verify_certificate(cert, path.name).verdict
        flows = ev.get("gradient_flow")
        if not flows:
            raise PluginError(f"open-tie certificate {path.name} has no gradient_flow evidence "
                              "(regenerate with python -m posreal.counterexamples.shipped)")
        worst = min(flows, key=lambda f: f["value"])
        kind = (inst.get("tables") or {}).get(inst["pe"].removeprefix("dual:"), {}).get("kind")
        pe = f"`{inst['pe']}`" + (f" ({kind} table)" if kind else "")
        rows.append([f"`{path.name}`", pe, f"`{inst['task']}`", inst["train_length"], inst["length"], inst["row"],
                     claims.get("alpha", "—"), ev.get("limit_verdict", "—"),
                     f"{worst['value']:.4g} at τ = {worst['tau']:g}, drift {worst['drift']:.1e} "
                     f"({ev.get('row_verdict', '?')})",
                     ev.get("agreement", "—"),
                     f"**{verdict}**" if verdict == "verified" else f"**{verdict.upper()}**"])
    if not rows:
        return ("No open-tie certificate is committed.\n\n" + provenance("counterexamples/certificates/*.json"))
    return table(["certificate", "PE", "task", "L0", "L", "row", "α_L (exact)", "α♯ (exact sign)",
                  "tie margin of the log-time flow (float)", "α♯ vs flow", "verifier now"], rows,
                 "counterexamples/certificates/*.json (kind open-tie), re-checked by "
                 "posreal.counterexamples.verifier.verify during this build")


@cached("limit-tally")
def limit_tally():
    from posreal.checks.limit_checks import compare_all
    start = time.perf_counter()
    tally, controls, info = compare_all()
    return tally, controls, info, time.perf_counter() - start


def gen_limit_tally() -> str:
    """α♯'s closed forms against the gradient flow on the certificates and the seeded batches (the slow check)."""
    from posreal.checks.limit_checks import CONTROLS
    tally, controls, info, seconds = limit_tally()
    if tally.rows == 0:
        raise PluginError("the comparison of α♯ with the gradient flow compared no row")
    lim, ev, und = tally.limit, tally.evidence, tally.evidence_when_undecided
    batches = ", ".join(f"{b['rows']} from the first {b['instances']} table instances of seed {s}"
                        for s, b in info["batches"].items())
    out = [f"**{tally.rows} open-tie rows** — {info['certificate_rows']} from {info['certificates']} certificates, "
           f"{batches}.\n",
           table(["α♯'s kind of evidence", "agree", "disagree", "undecided"],
                 [[k, d["agrees"], f"**{d['disagrees']}**", d["undecided"]] for k, d in sorted(tally.by_kind.items())]),
           "\n" + table(["", "rows"], [
               ["α♯ (closed forms): won / lost / undecided", f"{lim['won']} / {lim['lost']} / {lim['undecided']}"],
               ["flow: won / lost / undecided", f"{ev['won']} / {ev['lost']} / {ev['undecided']}"],
               ["flow on the rows α♯ leaves undecided: won / lost / undecided",
                f"{und['won']} / {und['lost']} / {und['undecided']}"],
               ["max |flow slope in log log t − ⟨θ_2, v⟩|",
                f"{max(tally.slope_errors):.2g}" if tally.slope_errors else "—"],
               *[[f"negative control ({name}): disagreements", c.disagrees]
                 for (name, _), c in zip(CONTROLS, controls)]]),
           "\nWhy α♯ left rows undecided:\n",
           table(["reason", "rows"], sorted(tally.reasons.items(), key=lambda kv: -kv[1]) or [["—", 0]],
                 f"posreal.checks.limit_checks.compare_all(), run during this build ({seconds:.1f} s)")]
    return "\n".join(out)


LIMIT_SUMMARY = DOCS / "data" / "limit" / "search_summaries.json"


def gen_limit_evidence() -> str:
    """The conjecture search's open-tie tally by kind of evidence, from the committed summaries of two seeds."""
    if not LIMIT_SUMMARY.is_file():
        raise PluginError(f"{_rel(LIMIT_SUMMARY)} is missing: commit the summaries of `posreal search conjecture "
                          "--families relative,column,general --json` for the seeds it names")
    doc = json.loads(LIMIT_SUMMARY.read_text())
    kinds = ("exact", "certified", "symmetry", "trajectory", "undecided")
    out = []
    for run in doc["runs"]:
        s = run["summary"]
        closed, after = s["open_tie_by_evidence"], s["open_tie_with_trajectory"]
        n = sum(s["open_tie_limit_verdicts"].values())
        rows = [[k, *(f"{d.get(k, {}).get('won', 0)} / {d.get(k, {}).get('lost', 0)} / "
                      f"{d.get(k, {}).get('undecided', 0)}" for d in (closed, after))]
                for k in kinds if k in closed or k in after]
        agr = s["open_tie_agreement"]
        out.append(f"**Seed {run['seed']}** ({run['instances']} table instances, {n} open-tie rows): decided in "
                   f"closed form or by symmetry **{s['decided_in_closed_form']:.1%}**, once trajectory evidence "
                   f"counts **{s['decided_with_trajectory']:.1%}**; α♯'s closed forms against the gradient flow: "
                   f"{agr['agrees']} agree, **{agr['disagrees']} disagree**, {agr['undecided']} undecided.\n")
        out.append(table(["kind of evidence", "closed forms (won / lost / undecided)",
                          "with trajectory evidence (won / lost / undecided)"], rows))
        left = s.get("open_tie_reasons_with_trajectory") or {}
        same = run.get("descent_vs_flow_on_trajectory_rows", {})
        out.append("\nStill undecided: " + (", ".join(f"{v} {k}" for k, v in sorted(left.items())) or "none")
                   + f". On the rows decided by trajectory evidence, gradient descent's verdict and the gradient "
                   f"flow's are the same {same.get('same', '?')} times and differ {same.get('different', '?')} "
                   "times.\n")
    return "\n".join(out) + "\n" + provenance(f"{_rel(LIMIT_SUMMARY)} — {doc.get('command', '')}")


def gen_limit_example(name: str) -> str:
    """One designed tie of posreal.checks.level_checks, decided by α♯ and followed by the flow, during this build."""
    from posreal.checks.level_checks import LEVEL2_TIE, MAXENT_TIE, SYMMETRIC_TIE, registered_table
    from posreal.theory.limit import open_tie_limit
    from posreal.theory.trajectory import pair_data, tie_trajectory
    ties = {"maxent": MAXENT_TIE, "level2": LEVEL2_TIE, "symmetric": SYMMETRIC_TIE}
    if name not in ties:
        raise PluginError(f"unknown designed tie {name!r}; accepted: {', '.join(ties)}")
    with registered_table(ties[name]) as tie:
        pe, task, sel, row, ctx = tie.open_row()
        decided = open_tie_limit(ctx, row)
        (flow,) = tie_trajectory(pair_data(pe, task, tie.train_length, list(sel.exact_theta)),
                                 [[float(x) for x in row.rivals[0].direction]], 0)
        levels = ctx.levels()
    rival = decided.rivals[0]
    rows = [["tie direction v", ", ".join(str(x) for x in row.rivals[0].direction)],
            ["θ*", ", ".join(str(x) for x in sel.exact_theta)],
            ["levels", "; ".join(f"θ_{lv.depth} = ({', '.join(str(x) for x in lv.theta)}), "
                                 f"S+ = {len(lv.split.positive)}, S0 = {len(lv.split.zero)}"
                                 + ("" if lv.independent else " (dependent S+)") for lv in levels.levels)],
            ["α♯ on the row", f"**{decided.verdict.value}** ({decided.evidence.value}) — {rival.detail}"],
            ["gradient flow at τ = e^24", f"⟨θ, v⟩ = {flow.value:.10g} ({flow.verdict.value}, {flow.basis}, slope in "
                                        f"σ {flow.slope:.4g})"]]
    return table(["", name], rows,
                 f"{tie.name} of posreal.checks.level_checks, decided and integrated during this build")


@cached("colspan")
def colspan_document():
    return _cli_json(["search", "colspan", "--json"])


def _v(flag: bool | None) -> str:
    return "—" if flag is None else ("**verified**" if flag else "**DID NOT VERIFY**")


def gen_search(kind: str) -> str:
    if kind == "colspan":
        return _gen_colspan()
    if kind == "conjecture":
        return _gen_conjecture()
    raise PluginError(f"unknown search {kind!r}; accepted: colspan, conjecture")


def _verify_all(certs: list[dict]) -> list[bool]:
    from posreal.counterexamples.verifier.verify import VERIFIED, verify_certificate
    return [verify_certificate(c, f"colspan #{n}").verdict == VERIFIED for n, c in enumerate(certs)]


def _gen_colspan() -> str:
    doc = colspan_document()
    for key in ("static", "dynamic", "stats", "reproduced"):
        if key not in doc:
            raise PluginError(f"`posreal search colspan --json` has no {key!r}")
    static, dynamic = doc["static"], doc["dynamic"]
    src = ("posreal search colspan --json, run during this build; every certificate re-verified by "
           "posreal.counterexamples.verifier.verify")
    out = []
    status = ("Both forms reproduced" if doc["reproduced"] else "**NOT REPRODUCED**")
    out.append(f"**{status}** — {doc.get('verified')} of {doc.get('certificates')} certificates verified "
               f"({fmt_seconds(doc.get('seconds'))}).\n")
    out.append("**Static form** — rows that $T_L\\theta^*$ realizes although $e_t \\notin \\operatorname{col}\\Psi_i$ "
               "(the rank grows when $e_t$ is appended):\n")
    ok = _verify_all(static)
    rows = [[f"`{c['instance']['pe']}`", f"`{c['instance']['task']}`", c["instance"]["train_length"],
             c["instance"]["length"], c["instance"]["row"], c["claims"]["margin"],
             f"{c['claims']['rank_features']} → {c['claims']['rank_augmented']}", _v(v)] for c, v in zip(static, ok)]
    out.append(table(["PE", "task", "L0", "L", "row", "exact margin", "rank Ψ_i → [Ψ_i | e_t]", "verifier"], rows))
    st = doc["stats"]["static"]
    out.append(f"\nSearched {st.get('cells')} rational registry cells ({st.get('realizable_cells')} realizable at "
               f"L0) and {st.get('realized_rows_checked')} realized rows.\n")
    out.append("\n**Dynamic form** — tie directions $v \\notin \\operatorname{col} Z^\\top$ with "
               "$\\langle\\theta_1, v\\rangle \\ne 0$ after the first exact gradient step from 0:\n")
    ok = _verify_all(dynamic)
    rows = []
    for c, v in zip(dynamic, ok):
        ev = (c.get("evidence") or {}).get("gradient_descent_tie_margin") or {}
        est = ev.get("estimate")
        rows.append([f"`{c['instance']['pe']}`", f"`{c['instance']['task']}`", c["instance"]["train_length"],
                     c["instance"]["length"],
                     f"{c['instance']['row']}: {c['instance']['target']} vs {c['instance']['rival']}",
                     f"{c['claims']['rank_differences']} → {c['claims']['rank_with_direction']}",
                     c["claims"]["first_step_dot_v"], "—" if est is None else f"{est:.4g} (float)", _v(v)])
    out.append(table(["PE", "task", "L0", "L", "row: target vs rival", "rank Z → [Z; v]", "⟨θ_1, v⟩ (exact)",
                      "⟨θ_k, v⟩ at the end of GD", "verifier"], rows, src))
    dy = doc["stats"]["dynamic"]
    reg, tab = dy.get("registry", {}), dy.get("tables", {})
    out.append(f"\nRegistry: {reg.get('cells')} cells, {reg.get('tie_rivals_checked')} tie rivals, "
               f"{reg.get('instances')} instances. Small integer tables (seed {tab.get('seed')}): "
               f"{tab.get('instances_examined')} examined, {tab.get('outside_colspan')} tie directions outside "
               f"col Zᵀ, {tab.get('instances')} instances.\n")
    if static or dynamic:
        out.append("\nIn the certificates' own words:\n")
        for c in (static[:1] + dynamic[:1]):
            out.append(f"> {md_escape(c.get('explanation', ''))}\n")
    return "\n".join(out)


@cached("conjecture")
def conjecture_summary():
    """The conjecture search on its defaults, run during the build (``posreal search conjecture --json``)."""
    doc = _cli_json(["search", "conjecture", "--json"])
    return doc, "posreal search conjecture --json (default seed and budget), run during this build"


def _gen_conjecture() -> str:
    doc, src = conjecture_summary()
    s = doc.get("summary")
    if not isinstance(s, dict) or "instances" not in s or "open_tie_agreement" not in s:
        raise PluginError(f"conjecture search summary from {src} has no 'summary.instances' / open_tie_agreement")
    out = [f"Seed {doc.get('seed')}, families {', '.join(doc.get('families') or [])}, gradient-flow "
           f"evidence up to τ = {float(doc.get('tau_max') or 0):.3g}: **{s['instances']} instances**"
           + (f" in {fmt_seconds(doc.get('seconds'))}" if doc.get("seconds") is not None else "") + ".\n"]
    out.append(table(["instance outcome", "instances"], [[k, n] for k, n in sorted(s.get("status", {}).items())]))
    out.append("\n" + table(["failing-row class", "rows"],
                            [[k.replace("_", " "), n] for k, n in s["failing_rows"].items()]))
    v, lim, agr = s["open_tie_evidence"], s["open_tie_limit_verdicts"], s["open_tie_agreement"]
    out.append(f"\nOpen ties: α_L loses all of them; α♯ {lim['won']} won, {lim['lost']} lost, {lim['undecided']} "
               f"undecided; the gradient flow {v['won']} won, {v['lost']} lost, {v['undecided']} undecided; "
               f"α♯ vs the flow: {agr['agrees']} agree, **{agr['disagrees']} disagree**, "
               f"{agr['undecided']} undecided.\n")
    fams = s.get("families", {})
    if fams:
        out.append(table(["family", "instances", "open-tie rows", "won by the flow"],
                         [[f, d["instances"], d["open_tie_rows"], d["candidates"]] for f, d in fams.items()]))
    cands = s.get("candidates", [])
    if cands:
        out.append(f"\n**{len(cands)} open tie(s) won by training** — each a counterexample to the original "
                   "Conjecture (the limit accuracy exceeds α_L):\n")
        out.append(table(["index", "PE", "task", "L0", "L", "α_L", "α♯", "row", "tie margin of the flow",
                          "α♯ on the row"],
                         [[c["index"], f"`{c['pe']}`", f"`{c['task']}`", c["train_length"], c["length"],
                           c["alpha"], " – ".join(c.get("limit_interval") or []), c["row"],
                           f"{c['limit_estimate']:.4g}", c["limit_verdict"]] for c in cands]))
    bad = s.get("limit_counterexamples", [])
    out.append(f"\n**{len(bad)} counterexample(s) to Conjecture′** among these instances.\n")
    return "\n".join(out) + "\n" + provenance(src)


# --------------------------------------------------------------------------- experiment
@cached("experiment")
def experiment_summary():
    if not EXPERIMENT_SUMMARY.is_file():
        raise PluginError(f"{_rel(EXPERIMENT_SUMMARY)} is missing: commit the summary written by "
                          "`posreal experiment --full --recipe all` (its summary.json)")
    try:
        doc = json.loads(EXPERIMENT_SUMMARY.read_text())
    except json.JSONDecodeError as err:
        raise PluginError(f"{_rel(EXPERIMENT_SUMMARY)} is not JSON: {err}") from err
    for key in ("measurements", "recipes", "threshold", "witness_cells", "provenance", "grid"):
        if key not in doc:
            raise PluginError(f"{_rel(EXPERIMENT_SUMMARY)} has no {key!r} (contract: "
                              "posreal.experiment.summary.summarize_run)")
    return doc


SUMMARY_SOURCE = "docs/data/experiment/summary.json (written by posreal experiment)"
WITNESS_LABELS = {"l2": "ℓ2", "l2-limit": "♯", "linf": "ℓ∞", "l1": "ℓ1"}
OWN_GEOMETRY = {"adam": "linf", "signum": "linf", "gd": "l2", "gd-positional": "l2-limit", "signum-positional": "linf"}
LADDER_MODEL = {"gd-positional": "positional loss, gradient descent (then the log-time flow)",
                "signum-positional": "positional loss, sign descent (diminishing steps)",
                "gd": "token model, normalized GD", "signum": "token model, Signum", "adam": "token model, Adam"}
LEFT_CAUSES = (("outside_not_converged", "outside α, run not converged"),
               ("outside_not_learned", "outside α, L0 not learned"),
               ("outside_direction", "outside α, converged: the direction trained is not the witness's"),
               ("threshold_witness_silent", "verdict: interval ends differ (witness silent)"),
               ("threshold_attention_inside", "verdict: attention inside α, token verdict across the cut"),
               ("threshold_attention_outside", "verdict: attention outside α"))


def _pct(x) -> str:
    return "—" if x is None else f"{100 * x:.1f} %"


def _stat(s: dict) -> str:
    return f"{s['mean']:.3f} [{s['min']:.3f}, {s['max']:.3f}]"


def _interval(a) -> str:
    lo, hi = a
    return f"{lo:.3f}" if lo == hi else f"[{lo:.3f}, {hi:.3f}]"


def _geometries(s: dict) -> list[str]:
    found = {g for rs in s["recipes"].values() for g in rs.get("agreement", {})}
    return [g for g in WITNESS_LABELS if g in found] + sorted(found - set(WITNESS_LABELS))


def _in_order(s: dict) -> dict:
    """The summary with its recipes in the grid's order and witnesses in ℓ2, ℓ∞, ℓ1 order (the JSON is key-sorted)."""
    names = [r["name"] for r in s["grid"].get("recipes", [])]
    names = [n for n in names if n in s["recipes"]] + sorted(set(s["recipes"]) - set(names))
    geoms = _geometries(s)
    recipes = {}
    for n in names:
        rs = dict(s["recipes"][n])
        rs["witnesses"] = {g: rs["witnesses"][g] for g in geoms if g in rs["witnesses"]}
        recipes[n] = rs
    return {**s, "recipes": recipes}


def gen_experiment(part: str) -> str:
    summary = experiment_summary()
    fn = {"headline": _exp_headline, "recipes": _exp_recipes, "agreement": _exp_agreement,
          "separation": _exp_separation, "disagreements": _exp_disagreements, "ends-differ": _exp_ends_differ,
          "cosines": _exp_cosines, "convergence": _exp_convergence, "stability": _exp_stability,
          "figures": _exp_figures, "extension-agreement": _exp_extension_agreement,
          "extension-cells": _exp_extension_cells,
          "extension-disagreements": _exp_extension_disagreements, "ladder": _exp_ladder,
          "attention-agreement": _exp_attention_agreement, "attention-outside": _exp_attention_outside,
          "convergence-diagnostics": _exp_convergence_diagnostics, "limit-rows": _exp_limit_rows,
          "open-tie-instances": _exp_open_tie_instances, "runs": _exp_runs}.get(part)
    if fn is None:
        raise PluginError(f"unknown experiment part {part!r}")
    return fn(_in_order(summary))


def _exp_headline(s: dict) -> str:
    prov = s["provenance"]
    peak = prov.get("peak_rss_mib") or {}
    loads = [entry for entry in prov.get("load_average", []) if entry]
    rows = [["measurements (all recipes)", s["measurements"]], ["trained models", s.get("models", "—")]]
    rows += [[f"measurements, recipe `{name}`", rs["measurements"]] for name, rs in s["recipes"].items()]
    rows += [["generalizes when token accuracy (positional-loss recipes: attention accuracy) ≥", s["threshold"]],
             ["wall time of the training run(s)", f"{prov['wall_seconds'] / 60:.1f} min"
              + (f" ({prov['runs_that_trained']} runs)" if prov.get("runs_that_trained", 1) > 1 else "")],
             ["CPU time of the training run(s), all processes",
              "not recorded by this run" if prov.get("cpu_seconds") is None else f"{prov['cpu_seconds'] / 60:.1f} min"],
             ["worker processes (--jobs)", ", ".join(str(j) for j in prov.get("jobs", [])) or "—"],
             ["models per minute", prov.get("models_per_minute", "—")],
             ["peak memory (parent + jobs × largest worker)", "—" if peak.get("bound") is None else
              f"{peak['bound']:.0f} MiB (parent {peak['parent']:.0f} MiB, "
              f"largest worker {peak['largest_child']:.0f} MiB)"]]
    if loads:
        rows.append(["load average (1 min) at start → end", "; ".join(
            f"{entry['start'][0]:.1f} → {entry['end'][0]:.1f}" for entry in loads)])
    return table(["", "value"], rows, SUMMARY_SOURCE)


def _frac(inside: int, total: int) -> str:
    return "—" if not total else f"{inside}/{total} ({100 * inside / total:.1f} %)"


def _need(s: dict, key: str) -> None:
    if key not in s:
        raise PluginError(f"{_rel(EXPERIMENT_SUMMARY)} has no {key!r}: regenerate it with `posreal experiment --full "
                          "--recipe all` (the attention agreement and the ladder came with issue 25)")


def _exp_ladder(s: dict) -> str:
    _need(s, "ladder")
    rows = []
    for row in s["ladder"]:
        conv = row["by_convergence"]
        thr = row["threshold"]
        left = row.get("left") or {}
        causes = "; ".join(f"{text}: {left[key]}" for key, text in LEFT_CAUSES if left.get(key)) or "nothing"
        rows.append([f"`{row['recipe']}`", LADDER_MODEL.get(row["recipe"], row["model"]),
                     f"α_L^({WITNESS_LABELS.get(row['witness'], row['witness'])})",
                     _frac(row["inside"], row["measurements"]),
                     "—" if row["mean_absolute_error"] is None else f"{row['mean_absolute_error']:.3f}",
                     _frac(conv["converged"]["inside"], conv["converged"]["total"]),
                     _frac(conv["not converged"]["inside"], conv["not converged"]["total"]),
                     _frac(conv["not recorded"]["inside"], conv["not recorded"]["total"]),
                     f"{_pct(thr['agreement_rate'])} ({thr['agreeing']} of {thr['total']})", causes])
    return table(["recipe", "model and optimizer", "own witness",
                  f"attention accuracy in α ± {s['attention_tolerance']}", "mean abs. error",
                  "… converged runs", "… not converged", "… not recorded",
                  "threshold verdict agrees", "what is left, by cause (measurements)"], rows, SUMMARY_SOURCE)


def _exp_attention_agreement(s: dict) -> str:
    _need(s, "attention_tolerance")
    geoms = _geometries(s)
    rows = []
    for name, rs in s["recipes"].items():
        row = [f"`{name}`"]
        for g in geoms:
            w = rs["witnesses"].get(g)
            a = None if w is None else w.get("attention")
            if not a or not a["measurements"]:
                row.append("—")
                continue
            cell = (f"{_frac(a['inside'], a['measurements'])}, MAE {a['mean_absolute_error']:.3f}; "
                    f"{a['pairs_inside_by_mean']}/{a['pairs']} (cell, L) by mean")
            row.append(f"**{cell}**" if OWN_GEOMETRY.get(name) == g else cell)
        rows.append(row)
    return table(["recipe \\ witness", *[f"α_L^({WITNESS_LABELS.get(g, g)})" for g in geoms]], rows, SUMMARY_SOURCE)


def _exp_attention_outside(s: dict) -> str:
    rows = []
    for name, rs in s["recipes"].items():
        g = OWN_GEOMETRY.get(name)
        w = rs["witnesses"].get(g or "")
        if not w or "attention" not in w:
            continue
        for c in w["attention"]["outside"]:
            rows.append([f"`{name}`", WITNESS_LABELS.get(g, g), f"`{c['pe']}` · `{c['task']}`", c["length"],
                         _interval(c["alpha"]), f"{c['outside']} of {c['measurements']}",
                         _stat(c["attention_accuracy"]), c["not_converged"]])
    if not rows:
        return "**No measurement** outside its own witness.\n\n" + provenance(SUMMARY_SOURCE)
    return table(["recipe", "own witness", "cell", "L", "α_L", "measurements outside", "attention accuracy mean "
                  "[min, max] (all the pair's measurements)", "of them not converged"], rows, SUMMARY_SOURCE)


def _exp_convergence_diagnostics(s: dict) -> str:
    _need(s, "drift_bound")
    rows = []
    for name, rs in s["recipes"].items():
        c = rs["convergence"]
        n = c["counts"]
        drift = c.get("drift")
        growth = c.get("margin_growth")
        where = ", ".join(f"`{x['pe']}` · `{x['task']}` ({x['models']})" for x in c["not_converged_cells"][:10])
        more = len(c["not_converged_cells"]) - 10
        rows.append([f"`{name}`", c["models"], n["converged"], n["not converged"], n["not recorded"],
                     "—" if drift is None else f"{drift['mean']:.2g} (max {drift['max']:.2g})",
                     "—" if growth is None else f"{c['margin_growing']} of {growth['n']}",
                     (where + (f", and {more} more cells" if more > 0 else "")) or "—"])
    return table(["recipe", "runs", "converged", "not converged", "not recorded", "drift 1 - cos(θ_T/2, θ_T), mean",
                  "training margin grew over [T/2, T]", "cells not converged (runs)"], rows, SUMMARY_SOURCE)


def _exp_limit_rows(s: dict) -> str:
    rows, notes = [], []
    for name, rs in s["recipes"].items():
        w = rs["witnesses"].get("l2-limit") or {}
        r = w.get("rows")
        if not r:
            continue
        rows.append([f"`{name}`", r["records"], r["decided_rows"], r["agreeing_rows"], r["exception_rows"],
                     r["undecided_rows"]])
        for e in r["exceptions"][:12]:
            notes.append(f"- `{name}`: `{e['pe']}` · `{e['task']}` at L = {e['length']}, {len(e['rows'])} row(s) "
                         f"({e['rows'][0]}{'…' if len(e['rows']) > 1 else ''}): α♯ says {e['predicted']} "
                         f"({e['class']}, {e['evidence']}), measured {e['measured']}, run {e['convergence']}")
        if len(r["exceptions"]) > 12:
            notes.append(f"- `{name}`: {len(r['exceptions']) - 12} more groups in the summary")
    if not rows:
        raise PluginError("the summary has no row-by-row comparison with α♯ (no positional-loss recipe)")
    out = table(["recipe", "measurements", "rows α♯ decides", "realized exactly when α♯ says won", "exceptions",
                 "rows α♯ leaves undecided"], rows, SUMMARY_SOURCE)
    return out + ("\n" + "\n".join(notes) + "\n" if notes else "")


def _exp_open_tie_instances(s: dict) -> str:
    _need(s, "positional_instances")
    rows = []
    for inst in s["positional_instances"]:
        if not inst.get("realizable"):
            rows.append([f"`{inst['certificate']}`", "not realizable", "", "", "", "", ""])
            continue
        per = []
        for name in ("gd-positional", "signum-positional"):
            e = inst["recipes"].get(name)
            if e is None:
                per.append("—")
                continue
            bad = e["against_alpha_sharp"]["disagreeing_rows"]
            per.append(f"{e['attention_accuracy']:.3f} ({e['convergence']['status']}; rows against α♯: "
                       f"{', '.join(map(str, bad)) if bad else 'none'})")
        rows.append([f"`{inst['certificate']}`", f"`{inst['task']}`", f"{inst['train_length']} → {inst['length']}",
                     f"{inst['alpha']:.3f}", _interval(inst["alpha_sharp"]), _interval(inst["alpha_linf"]), *per])
    return table(["certificate", "task", "L0 → L", "α_L", "α♯_L", "α_L^(∞)", "`gd-positional`: attention acc.",
                  "`signum-positional`: attention acc."], rows, SUMMARY_SOURCE)


def _exp_runs(s: dict) -> str:
    rows = []
    for r in s["runs"]:
        if not r.get("models_trained"):
            continue
        load = r.get("load_average") or {}
        rows.append([", ".join(f"`{n}`" for n in r.get("recipes", [])) or "—", r.get("included_from") or "this run",
                     r.get("started", "—"), r["models_trained"], f"{r['wall_seconds'] / 60:.1f} min",
                     "—" if r.get("cpu_seconds") is None else f"{r['cpu_seconds'] / 60:.1f} min", r.get("jobs", "—"),
                     "—" if not load else f"{load['start'][0]:.1f} → {load['end'][0]:.1f}"])
    return table(["recipes", "run", "started", "models (runs) trained", "wall time", "CPU time", "--jobs",
                  "load average (1 min) start → end"], rows, SUMMARY_SOURCE)


def _exp_recipes(s: dict) -> str:
    rows = []
    for name, rs in s["recipes"].items():
        r = rs["recipe"]
        opt = r.get("optimizer")
        if opt in ("gd-flow", "sign-descent"):     # the positional-loss recipes: θ alone, no tokens
            step = (f"{r['lr']}/β, then the log-time flow" if opt == "gd-flow"
                    else f"{r['lr']} (t + 1)^(-1/2)")
            steps = f"{r['steps']} (then σ = 8, 16, 24)" if opt == "gd-flow" else f"up to {r['steps']}"
            rows.append([f"`{name}`", opt, step, steps, "—", "— (no tokens)", r.get("dtype", "—"),
                         "ℓ2 (its limit: α♯)" if opt == "gd-flow" else "ℓ∞"])
            continue
        rows.append([f"`{name}`", r.get("optimizer", "—"), r.get("lr", "—"), r.get("steps", "—"),
                     r.get("momentum", "—") if r.get("optimizer") != "gd" else "—", r.get("batch", "—"),
                     r.get("dtype", "—"), WITNESS_LABELS.get(OWN_GEOMETRY.get(name, ""), "—")])
    return table(["recipe", "optimizer", "step size", "steps", "momentum", "batch", "arithmetic",
                  "implicit-bias geometry"], rows, SUMMARY_SOURCE)


def _exp_agreement(s: dict) -> str:
    geoms = _geometries(s)
    rows = []
    for name, rs in s["recipes"].items():
        row = [f"`{name}`"]
        for g in geoms:
            w = rs["witnesses"].get(g)
            if w is None:
                row.append("not available")
                continue
            cell = f"{_pct(w['agreement_rate'])} ({w['agreeing']} of {w['total']}"
            cell += f"; {w['ends_differ']['measurements']} ends differ)" if w["ends_differ"]["measurements"] else ")"
            row.append(f"**{cell}**" if OWN_GEOMETRY.get(name) == g else cell)
        rows.append(row)
    out = table(["recipe \\ witness", *[f"α_L^({WITNESS_LABELS.get(g, g)})" for g in geoms]], rows, SUMMARY_SOURCE)
    missing = {g: reason for rs in s["recipes"].values() for g, reason in rs.get("unavailable_witnesses", {}).items()}
    for g, reason in missing.items():
        out += f"\nWitness {WITNESS_LABELS.get(g, g)} not available in this summary: {reason}.\n"
    return out


def _exp_separation(s: dict) -> str:
    rows = []
    for name, rs in s["recipes"].items():
        for g, w in rs["witnesses"].items():
            t = w["table"]
            rows.append([f"`{name}`", WITNESS_LABELS.get(g, g), t["alpha_one"]["generalizes"], t["alpha_one"]["fails"],
                         t["alpha_below_one"]["generalizes"], t["alpha_below_one"]["fails"],
                         f"{w['ends_differ']['measurements']} ({w['ends_differ']['generalizes']} generalize)"])
    out = table(["recipe", "witness", "α = 1, generalizes", "α = 1, fails", "α < 1, generalizes", "α < 1, fails",
                 "ends differ"], rows, SUMMARY_SOURCE)
    first = next(iter(s["recipes"].values()))
    nr = first.get("not_realizable") or {}
    if nr.get("measurements"):
        out += ("\nNot realizable at L0 (outside every table; the same cells in every geometry): "
                + ", ".join(f"`{c}`" for c in nr.get("cells", []))
                + "; " + "; ".join(f"`{name}`: {rs['not_realizable']['generalizes']} of "
                                   f"{rs['not_realizable']['measurements']} generalize"
                                   for name, rs in s["recipes"].items()) + ".\n")
    return out


def _exp_disagreements(s: dict) -> str:
    rows = []
    for name, rs in s["recipes"].items():
        for g, w in rs["witnesses"].items():
            for c in w["disagreeing_cells"]:
                kind = "α = 1, fails" if c["kind"] == "alpha_one_fails" else "α < 1, generalizes"
                rows.append([f"`{name}`", WITNESS_LABELS.get(g, g), f"`{c['pe']}`", f"`{c['task']}`", c["length"],
                             _interval(c["alpha"]), kind, c["disagreeing"], _stat(c["token_accuracy"])])
    if not rows:
        return "**No disagreement** for any recipe and witness.\n\n" + provenance(SUMMARY_SOURCE)
    return table(["recipe", "witness", "PE", "task", "L", "α_L", "kind", "disagreeing measurements",
                  "their token accuracy mean [min, max]"], rows, SUMMARY_SOURCE)


def _exp_ends_differ(s: dict) -> str:
    seen: dict[tuple, list] = {}
    for name, rs in s["recipes"].items():
        for g, w in rs["witnesses"].items():
            for c in w["ends_differ"]["cells"]:
                seen.setdefault((g, c["pe"], c["task"], c["length"], tuple(c["alpha"])), []).append(
                    f"`{name}` {c['generalizes']}/{c['measurements']}")
    if not seen:
        return "No interval witness has ends that differ on this grid.\n\n" + provenance(SUMMARY_SOURCE)
    rows = [[WITNESS_LABELS.get(g, g), f"`{pe}`", f"`{task}`", L, _interval(a), "; ".join(v)]
            for (g, pe, task, L, a), v in seen.items()]
    return table(["witness", "PE", "task", "L", "α_L [lo, hi]", "generalize, per recipe"], rows, SUMMARY_SOURCE)


def _exp_cosines(s: dict) -> str:
    geoms = _geometries(s)
    rows = []
    for name, rs in s["recipes"].items():
        row = [f"`{name}`"]
        for g in geoms:
            c = rs["witnesses"].get(g, {}).get("cosine") if g in rs["witnesses"] else None
            row.append("—" if not c or c["median"] is None else f"{c['median']:.3f} (min {c['min']:.3f})")
        rows.append(row)
    out = table(["recipe", *[f"cos(θ, θ*_{WITNESS_LABELS.get(g, g)}) median" for g in geoms]], rows, SUMMARY_SOURCE)
    cells: dict[tuple, dict] = {}
    for name, rs in s["recipes"].items():
        for g, w in rs["witnesses"].items():
            for c in w["cosine"]["cells"]:
                cells.setdefault((c["pe"], c["task"]), {})[(name, g)] = c["mean"]
    cols = [(name, g) for name in s["recipes"] for g in geoms]
    rows = [[f"`{pe}` · `{task}`", *[("—" if (n, g) not in v else f"{v[(n, g)]:.3f}") for n, g in cols]]
            for (pe, task), v in cells.items()]
    if rows:
        out += "\nPer cell, mean over its models:\n\n" + table(
            ["cell", *[f"{n} · {WITNESS_LABELS.get(g, g)}" for n, g in cols]], rows, SUMMARY_SOURCE)
    return out


def _exp_convergence(s: dict) -> str:
    rows = []
    for name, rs in s["recipes"].items():
        nl = rs["not_learned_at_train_length"]
        where = ", ".join(f"`{c['pe']}` · `{c['task']}` ({c['models']})" for c in nl["cells"]) or "—"
        rows.append([f"`{name}`", f"{nl['models']} of {nl['of']}", where])
    return table(["recipe", "realizable models below the threshold at L0", "cells (models)"], rows, SUMMARY_SOURCE)


def _exp_stability(s: dict) -> str:
    rows, notes = [], []
    for name, rs in s["recipes"].items():
        st = rs["stability"]
        if not st.get("available"):
            rows.append([f"`{name}`", "—", st.get("reason", "no reference setting")])
            continue
        rows.append([f"`{name}`", f"{st['cell_verdicts_matching']} of {st['cell_verdicts_compared']}",
                     "all match" if st.get("all_match") else f"{len(st.get('mismatches', []))} differ"])
        for m in st.get("mismatches", [])[:12]:
            notes.append(f"- `{name}`: `{m['pe']}` · `{m['task']}` at L = {m['length']}: reference "
                         f"{'generalizes' if m['reference_generalizes'] else 'fails'}, V = {m['vocab']}, "
                         f"d = {m['width']} {'generalizes' if m['setting_generalizes'] else 'fails'}")
    ref = next((rs["stability"]["reference"] for rs in s["recipes"].values() if rs["stability"].get("available")), None)
    head = f"majority verdicts per (PE, task, L) matching V = {ref[0]}, d = {ref[1]}" if ref else "matching"
    out = table(["recipe", head, ""], rows, SUMMARY_SOURCE)
    return out + ("\n" + "\n".join(notes) + "\n" if notes else "")


def _extensions(s: dict) -> list[str]:
    """The length extensions the summary holds (none: a summary written before extensions: a build error)."""
    found = list(dict.fromkeys(m for rs in s["recipes"].values() for m in rs.get("extensions", {})))
    order = [m for m in s["grid"].get("extensions", []) if m in found]
    found = order + [m for m in found if m not in order]          # the grid's order (the JSON is key-sorted)
    if not found:
        raise PluginError(f"{_rel(EXPERIMENT_SUMMARY)} holds no measurement under a length extension: regenerate it "
                          "with `posreal experiment --full --recipe all` (every head is evaluated under pi, ntk, yarn)")
    return found


def _exp_extension_agreement(s: dict) -> str:
    geoms = _geometries(s)
    rows = []
    for name, rs in s["recipes"].items():
        plain = [f"{_pct(rs['witnesses'][g]['agreement_rate'])} ({rs['witnesses'][g]['agreeing']} of "
                 f"{rs['witnesses'][g]['total']})" if g in rs["witnesses"] else "—" for g in geoms]
        att = rs["witnesses"].get("l2", {}).get("attention_verdict", {})
        rows.append([f"`{name}`", "none ($T_L$)", rs["measurements"], *plain, _pct(att.get("agreement_rate"))])
        for m in _extensions(s):
            e = rs["extensions"].get(m)
            if e is None:
                continue
            cells = []
            for g in geoms:
                w = e["witnesses"].get(g)
                cells.append("—" if w is None else
                             f"{_pct(w['agreement_rate'])} ({w['agreeing']} of {w['total']})")
            att = e["witnesses"].get("l2", {}).get("attention_verdict", {})
            rows.append([f"`{name}`", f"`{m}`", e["measurements"], *cells, _pct(att.get("agreement_rate"))])
    return table(["recipe", "extension", "measurements", *[f"agreement, α^σ,({WITNESS_LABELS.get(g, g)})"
                                                          for g in geoms],
                  "agreement with the attention verdict, α^σ,(ℓ2)"], rows, SUMMARY_SOURCE)


def _exp_extension_cells(s: dict) -> str:
    recipes = list(s["recipes"])
    by: dict[tuple, dict] = {}
    for name, rs in s["recipes"].items():
        for m, e in rs.get("extensions", {}).items():
            for c in e["cells"]:
                key = (m, c["pe"], c["task"], c["length"])
                by.setdefault(key, {"alpha": c["alpha"]})[name] = c
    if not by:
        raise PluginError("the summary has no per-cell measurement under an extension")
    rank = {m: n for n, m in enumerate(_extensions(s))}
    rows = []
    for (m, pe, task, L), v in sorted(by.items(), key=lambda kv: (rank.get(kv[0][0], 99), *kv[0][1:])):
        per = []
        for name in recipes:
            c = v.get(name)
            per.append("—" if c is None else
                       f"{c['token_accuracy']['mean']:.2f} / {c['attention_accuracy']['mean']:.2f} "
                       f"({c['token_accuracy_without_extension']['mean']:.2f})")
        rows.append([f"`{m}`", f"`{pe}` · `{task}`", L, _interval(v["alpha"]), *per])
    return table(["extension", "cell", "L", "α_L^σ (ℓ2)", *[f"`{n}`: token / attention acc. (token acc. under T_L)"
                                                            for n in recipes]], rows, SUMMARY_SOURCE)


def _exp_extension_disagreements(s: dict) -> str:
    rows = []
    for name, rs in s["recipes"].items():
        for m in _extensions(s):
            e = rs.get("extensions", {}).get(m)
            if e is None:
                continue
            for g in _geometries(s):
                w = e["witnesses"].get(g)
                if w is None:
                    continue
                for c in w["disagreeing_cells"]:
                    kind = "α = 1, fails" if c["kind"] == "alpha_one_fails" else "α < 1, generalizes"
                    rows.append([f"`{name}`", f"`{m}`", WITNESS_LABELS.get(g, g), f"`{c['pe']}` · `{c['task']}`",
                                 c["length"], _interval(c["alpha"]), kind, c["disagreeing"],
                                 _stat(c["token_accuracy"])])
    if not rows:
        return "**No disagreement** under any length extension.\n\n" + provenance(SUMMARY_SOURCE)
    return table(["recipe", "extension", "witness", "cell", "L", "α_L^σ", "kind", "disagreeing measurements",
                  "their token accuracy mean [min, max]"], rows, SUMMARY_SOURCE)


@cached("experiment-figures")
def experiment_figures():
    summary = experiment_summary()
    from posreal.experiment.plots import write_figures
    with tempfile.TemporaryDirectory() as tmp:
        paths = write_figures(summary, tmp)
        if not paths:
            raise PluginError("posreal.experiment.plots.write_figures wrote no figure")
        return {f"generated/experiment/{Path(p).name}": Path(p).read_bytes() for p in paths}


def asset_experiment():
    return experiment_figures()


def _exp_figures(s: dict) -> str:
    figs = experiment_figures()
    out = [f"![experiment figure {Path(uri).name}]({uri})\n" for uri in figs]
    return "\n".join(out) + "\n" + provenance("posreal.experiment.plots.write_figures over " + SUMMARY_SOURCE)


# --------------------------------------------------------------------------- what escapes (E1-E3)
def gen_induction_table(train_length: str = "16", lengths: str = "65,257", *pes: str) -> str:
    """α_L^ind against α_L(copy) per PE under none/pi/ntk/yarn (as ``posreal alpha --task induction``)."""
    from posreal.theory.defaults import TAXONOMY_PES
    from posreal.theory.errors import SpecError
    from posreal.theory.induction import induction_alpha
    L0, Ls = int(train_length), [int(x) for x in lengths.split(",")]
    methods = ("none", "pi", "ntk", "yarn")
    rows = []
    for pe in pes or TAXONOMY_PES:
        cells = []
        for method in methods:
            try:
                res = induction_alpha(pe, L0, Ls, extension=method)
            except SpecError:
                cells.append("n/a")
                continue
            if not res.realizable:
                cells.append("—")
                continue
            cells.append(" / ".join(f"{fmt_alpha(res.alpha(L))} ({fmt_alpha(res.copy.alpha(L))})" for L in Ls))
        rows.append([f"`{pe}`", *cells])
    return (table(["PE", *[f"{m}: α^ind (α copy) at L = {' / '.join(map(str, Ls))}" for m in methods]], rows,
                  f"posreal.theory.induction.induction_alpha(pe, train_length={L0}, lengths={Ls}, extension=...)")
            + "\n—: layer 1 (`offset:1`) is not realizable at $L_0$ (e.g. `nope`, column PEs, a bias that "
              "favours offset 0); — in parentheses: `copy` is not realizable at $L_0$. *n/a*: the method does not "
              "act on the PE.\n")


GENERATORS = {
    "pe-registry": gen_pe_registry,
    "task-registry": gen_task_registry,
    "alpha": gen_alpha,
    "learned": gen_learned,
    "static-routing": gen_static_routing,
    "ceilings": gen_ceilings,
    "taxonomy-table": gen_taxonomy_table,
    "taxonomy-grid": gen_taxonomy_grid,
    "taxonomy-figure": gen_taxonomy_figure,
    "taxonomy-duals": gen_taxonomy_duals,
    "taxonomy-geometries": gen_taxonomy_geometries,
    "taxonomy-geometries-figure": gen_taxonomy_geometries_figure,
    "alpha-geometries": gen_alpha_geometries,
    "checks": gen_checks,
    "claims-overview": gen_claims_overview,
    "claims-overview-here": gen_claims_overview_from_results,
    "cli-reference": gen_cli_reference,
    "certificates": gen_certificates,
    "open-ties": gen_open_ties,
    "limit-tally": gen_limit_tally,
    "limit-evidence": gen_limit_evidence,
    "limit-example": gen_limit_example,
    "search": gen_search,
    "experiment": gen_experiment,
    "extension-table": gen_extension_table,
    "extension-figure": gen_extension_figure,
    "alpha-extensions": gen_alpha_extensions,
    "extension-instances": gen_extension_instances,
    "induction-table": gen_induction_table,
    "config-table": config_table.render,
}

# Figure producers: each returns {src_uri: PNG bytes}; a source that cannot be read is a build error.
ASSETS = (asset_taxonomy, asset_taxonomy_geometries, asset_experiment, asset_extension)
