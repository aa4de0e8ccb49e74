"""Single cells and the registries in Markdown: every PE and task spec parsed by the code, α_L of one cell (also in
every geometry and for learned PEs), the static-routing bound β, the class ceilings, and α^ind of the induction
circuit.  These are tables of the docs' pages (markers ``pe-registry``, ``alpha``, ``induction-table``, …).

Main results:

* :func:`pe_registry`, :func:`task_registry` — every registry spec, parsed and ``str()``-ed (a spec that does
  not round-trip is a :class:`~posreal.runtime.markdown.ReportError`);
* :func:`alpha_table`, :func:`alpha_geometries` — α_L of one cell with its row counts, in the three geometries;
* :func:`learned_table`, :func:`ceilings_table` — tables of the JSON documents of ``posreal alpha --pe learned:d
  --json`` and ``posreal ceiling --json``;
* :func:`static_routing`, :func:`induction_table` — β per scored row; α^ind against α(copy) per PE and method.
"""

from __future__ import annotations

from fractions import Fraction

from posreal.runtime.markdown import ReportError, first_line, fmt_alpha, interval_text, provenance, table


def pe_registry(train_length: str = "16") -> str:
    """Every registry PE (and two shears, and learned:d), parsed and str()-ed by the code."""
    from posreal.theory.defaults import TAXONOMY_PES
    from posreal.theory.encodings import DualOf
    from posreal.theory.pe_specs import LearnedAbsolute, is_learned, parse_learned, parse_pe
    L0 = int(train_length)
    specs = list(TAXONOMY_PES) + ["clipped", "slope", "dual:rope:16", "dual:relbias", "dual:t5", "learned:8"]
    rows = []
    for spec in specs:
        learned = is_learned(spec)
        pe = parse_learned(spec) if learned else parse_pe(spec)
        text = str(pe)
        if str(parse_learned(text) if learned else parse_pe(text)) != text:
            raise ReportError(f"PE spec {spec!r} does not round-trip through str(): {text!r}")
        if not isinstance(pe, LearnedAbsolute):
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


def task_registry(length: str = "8") -> str:
    """Every registry task (and two shears), with its rows and targets on a small grid."""
    from posreal.theory.defaults import REGISTRY_TASKS
    from posreal.theory.tasks import parse_task
    n = int(length)
    rows = []
    for spec in list(REGISTRY_TASKS) + ["dual:copy", "dual:offset:1"]:
        task = parse_task(spec)
        text = str(task)
        if str(parse_task(text)) != text:
            raise ReportError(f"task spec {spec!r} does not round-trip through str(): {text!r}")
        R, t = task.rows_and_targets(n)                     # (rows,), (rows,)
        pairs = ", ".join(f"{i}→{j}" for i, j in zip(R.tolist(), t.tolist()))
        rows.append([f"`{spec}`", f"`{text}`", task.task_class,
                     "no" if not task.rows_depend_on_length else "yes", pairs or "(none)"])
    return table(["spec", "str(parse_task(spec))", "class", "R_n depends on n", f"row → target at n = {n}"],
                 rows, "posreal.theory.tasks.parse_task, REGISTRY_TASKS")


def alpha_table(pe: str, task: str, train_length: str = "16", lengths: str = "32,64,128,256",
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


def alpha_geometries(pe: str, task: str, train_length: str = "16", lengths: str = "32,64,128,256") -> str:
    """α_L of one cell in the three geometries side by side (``posreal alpha --geometry``)."""
    from posreal.theory.alpha import compute_alpha
    Ls = [int(x) for x in lengths.split(",")]
    docs = {g: compute_alpha(pe, task, int(train_length), Ls, geometry=g).to_json() for g in ("l2", "linf", "l1")}
    rows = [[L, *[interval_text(docs[g]["alpha_interval"][L]) for g in docs],
             *[str(docs[g]["rows"][L]["undecided"]) if docs[g]["rows"] else "—" for g in ("linf", "l1")]]
            for L in map(str, sorted(Ls))]
    return table(["L", "α_L (ℓ2, θ*)", "α_L (ℓ∞ face)", "α_L (ℓ1 face)", "undecided ℓ∞", "undecided ℓ1"], rows,
                 f"posreal.theory.compute_alpha({pe!r}, {task!r}, train_length={train_length}, geometry=...)")


def learned_table(doc: dict, pe: str, task: str) -> str:
    """α_L of a learned absolute PE as an interval: both completions and the Monte Carlo estimate, from the
    document of ``posreal alpha --pe learned:d --task T --json``."""
    alpha = doc.get("alpha")
    if not isinstance(alpha, dict) or not alpha:
        raise ReportError(f"`posreal alpha --pe {pe} --task {task} --json` has no 'alpha' intervals")
    rows = []
    for L in sorted(alpha, key=int):
        comp, mc = alpha[L]["completions"], alpha[L].get("monte_carlo") or {}
        mc_text = (f"{mc['mean']:.3f} ± {mc['stderr']:.3f} [{mc['min']:.3f}, {mc['max']:.3f}]" if mc else "—")
        rows.append([L, fmt_alpha(comp["zero"]), fmt_alpha(comp["copy_last"]), mc_text])
    mc0: dict = next((alpha[L].get("monte_carlo") for L in alpha if alpha[L].get("monte_carlo")), {}) or {}
    note = (f"\nMonte Carlo: {mc0.get('samples')} draws of the untrained rows (`{mc0.get('init')}`), "
            f"seed {mc0.get('seed')}.\n" if mc0 else "")
    return table(["L", "(a) zeros: $E_j = 0$", "(b) copies: $E_j = E_{L_0-1}$",
                  "(c) random rows: mean ± s.e. [min, max]"], rows,
                 f"posreal alpha --pe {pe} --task {task} --json, run during this build") + note


def static_routing(length: str = "6", vocab: str = "3", *tasks: str) -> str:
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


CEILING_TASKS = ("copy", "middle", "reverse", "position:1")
CEILING_KERNELS = ("relative", "column")


def ceilings_table(docs: dict[tuple[str, str], dict], length: str) -> str:
    """Class ceilings of free relative / column kernels, from ``posreal ceiling --kernel K --task T --json``
    documents keyed by (kernel, task)."""
    rows = []
    for (kernel, task), doc in docs.items():
        for key in ("realized", "total", "optimal"):
            if key not in doc:
                raise ReportError(f"`posreal ceiling --json` has no {key!r}")
        rows.append([kernel, f"`{task}`", f"{doc['realized']} of {doc['total']}", doc.get("ceiling", "—"),
                     doc["optimal"], "yes" if doc.get("verified") else "**NO**"])
    return table(["free kernel", "task", "rows realized at best", "α*", "optimality", "witness re-checked"], rows,
                 f"posreal ceiling --kernel K --task T --length {length} --json (z3 Optimize), run during this build")


def induction_table(train_length: str = "16", lengths: str = "65,257", *pes: str) -> str:
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
            cells.append(" / ".join(f"{fmt_alpha(res.alpha(L))} ({fmt_alpha(res.copy.alpha(L))})" for L in Ls)
                         if res.realizable else "—")
        rows.append([f"`{pe}`", *cells])
    return (table(["PE", *[f"{m}: α^ind (α copy) at L = {' / '.join(map(str, Ls))}" for m in methods]], rows,
                  f"posreal.theory.induction.induction_alpha(pe, train_length={L0}, lengths={Ls}, extension=...)")
            + "\n—: layer 1 (`offset:1`) is not realizable at $L_0$ (e.g. `nope`, column PEs, a bias that "
              "favours offset 0); — in parentheses: `copy` is not realizable at $L_0$. *n/a*: the method does not "
              "act on the PE.\n")
