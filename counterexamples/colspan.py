"""The invalid "outside-colspan" argument, reproduced on instances with exact certificates.

The invalid "outside-colspan" argument (definitions.md#outside-colspan), reproduced on instances with exact
certificates.

The argument replaces "v ⊥ col Zᵀ" by "v ∉ col Zᵀ".  Both of its forms are refuted here:

* **static form** (:func:`find_static`): "on row i of grid L the target's indicator e_t lies
  outside col Ψ_i, Ψ_i = [ψ(i,j)]_{j≤i}, so no kernel realizes the row".  An instance is a row
  realized by T_L θ* (exact margin > 0) with rank [Ψ_i | e_t] = rank Ψ_i + 1.  Realizing needs
  Ψ_i θ to *peak* at t, not to *equal* e_t.  E.g. ``alibi`` on ``position:0``: Ψ_i = [-(i-j)]_j
  has rank 1, e_0 ∉ col Ψ_i for i ≥ 2, yet θ* = -1 gives κ(i, j) = i - j, peaked at j = 0.
  For one-hot bucket PEs (relbias, colbias) the fallacy never bites: col Ψ_i holds exactly the
  vectors constant on keys with equal features, so e_t ∉ col Ψ_i iff the row has a structural tie;
* **dynamic form** (:func:`find_dynamic`): "the tie direction v = ψ(i,t) - ψ(i,j) (⟨θ*, v⟩ = 0)
  lies outside col Zᵀ, so training cannot move along it".  An instance has rank [Z; v] =
  rank Z + 1 and yet ⟨θ_1, v⟩ ≠ 0 for the first gradient step θ_1 = -∇ℓ(0)/β ∈ col Zᵀ — exact
  in ℚ.  Only v ⊥ col Zᵀ freezes ⟨θ_k, v⟩.  The rational registry cells searched (L0 ∈ {4, 8},
  L ∈ {2·L0, 4·L0}) have no non-structural tie row at all, hence no instance (sinusoidal PEs are
  not exact in ℚ), so the instances come from small integer feature tables (``posreal.theory.register_pe``).

Every instance is a certificate (:mod:`posreal.counterexamples.verifier.certificate`) re-checked by
:mod:`posreal.counterexamples.verifier.verify`.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from fractions import Fraction

from posreal.theory.pe_specs import parse_pe
from posreal.theory.errors import PosrealError
from posreal.theory.transfer_operator import exact_transfer
from posreal.runtime.provenance import versions
from posreal.theory.rational import dot, rank
from posreal.theory.realization import REALIZED, classify_exact, exact_margins, structural_ties
from posreal.theory.selection import ExactOptimum, Selection, select
from posreal.theory.defaults import REGISTRY_TASKS
from posreal.theory.tasks import parse_task

from posreal.counterexamples.certificate_writer import q, qvec, seal
from posreal.theory.ties import classify, exact_feature
from posreal.counterexamples.conjecture import registered
from posreal.counterexamples.dynamics import first_step, limit_verdict, tie_margins
from posreal.theory.random_instances import Instance, instance
from posreal.counterexamples.verifier.errors import CertificateError

RATIONAL_REGISTRY = ("nope", "relbias", "relbias:2", "colbias", "colbias:2", "alibi")
COLSPAN_PES = RATIONAL_REGISTRY + tuple(f"dual:{p}" for p in RATIONAL_REGISTRY)
COLSPAN_TASKS = REGISTRY_TASKS + ("offset:0",) + tuple(f"dual:{t}" for t in REGISTRY_TASKS + ("offset:0",))
COLSPAN_TRAIN_LENGTHS = (4, 8)
TABLE_SEED = 0
TABLE_BUDGET = 4000          # table instances examined at most by the dynamic search
EVIDENCE_STEPS = 20000

STATIC_SENTENCE = ("Row {i} of the L={L} grid is realized by T_L θ* (exact margin {margin} > 0) although "
                   "e_t ∉ col Ψ_i (rank Ψ_i = {r1}, rank [Ψ_i | e_t] = {r2}): this breaks the static step "
                   "'no θ gives Ψ_i θ = e_t, so no kernel realizes the row' — realizing needs Ψ_i θ to peak "
                   "at t, not to equal e_t.")
DYNAMIC_SENTENCE = ("The tie direction v = ψ({i},{t}) - ψ({i},{j}) (⟨θ*, v⟩ = 0) lies outside col Zᵀ "
                    "(rank Z = {r}, rank [Z; v] = {r1}), yet the first gradient step θ_1 = -η∇ℓ(0) ∈ col Zᵀ "
                    "has ⟨θ_1, v⟩ = {ip} ≠ 0: this breaks the dynamic step 'v is outside the span of the "
                    "training differences, so training cannot move along it' — only v ⊥ col Zᵀ would freeze "
                    "⟨θ_k, v⟩.")


def selected_claims(sel: Selection) -> dict:
    """θ* and its KKT multipliers (support pairs) as certificate data."""
    opt = _exact(sel)
    support = [{"pair": [int(x) for x in sel.pairs[k]], "lambda": q(opt.multipliers[k])}
               for k in sorted(opt.multipliers) if opt.multipliers[k] > 0]
    return {"theta": qvec(opt.theta), "support": support}


def _exact(sel: Selection) -> ExactOptimum:
    opt = sel.exact_optimum
    if opt is None:
        raise CertificateError(f"{sel.pe}·{sel.task} at L0 = {sel.train_length}: θ* has no exact certificate "
                               f"({sel.status.value}); accepted: rational, realizable instances")
    return opt


def tables_json(inst: Instance | None) -> dict:
    """The embedded table of an instance as a certificate's ``tables`` field ({} when it has none)."""
    if inst is None or inst.table is None:
        return {}
    name = inst.pe[5:] if inst.pe.startswith("dual:") else inst.pe

    def conv(x):
        return [conv(y) for y in x] if isinstance(x, tuple) else q(x)

    rows = [[conv(cell) for cell in row] for row in inst.table] if inst.table_kind == "general" \
        else [conv(row) for row in inst.table]
    return {name: {"kind": inst.table_kind, "rows": rows}}


def _row_matrix(pe, i: int, L0: int) -> list[tuple[Fraction, ...]]:
    return [exact_feature(pe, i, j, L0) for j in range(i + 1)]   # (i+1, p): Ψ_i, one key per row


def static_rank(pe, i: int, t: int, L0: int) -> tuple[int, int]:
    """(rank Ψ_i, rank [Ψ_i | e_t]) in ℚ."""
    psi = _row_matrix(pe, i, L0)
    p = len(psi[0])
    r1 = rank(psi, p) if p else 0
    aug = [tuple(row) + (Fraction(int(j == t)),) for j, row in enumerate(psi)]
    return r1, rank(aug, p + 1)


@dataclass
class ColspanReport:
    """The static and dynamic certificates found, and the search statistics."""

    static: list[dict] = field(default_factory=list)      # certificates
    dynamic: list[dict] = field(default_factory=list)     # certificates
    stats: dict = field(default_factory=dict)


@dataclass
class StaticStats:
    """What the static search looked at."""

    cells: int = 0
    realizable_cells: int = 0
    realized_rows_checked: int = 0
    instances: dict[str, int] = field(default_factory=dict)   # "pe · task" -> rows with e_t ∉ col Ψ_i

    def to_json(self) -> dict:
        """The statistics as a JSON object."""
        return asdict(self)


@dataclass
class RegistryStats:
    """What the dynamic search looked at on the registry cells."""

    cells: int = 0
    tie_rivals_checked: int = 0
    outside_colspan: int = 0
    instances: int = 0

    def to_json(self) -> dict:
        """The statistics as a JSON object."""
        return asdict(self)


@dataclass
class TableStats:
    """What the dynamic search looked at on the seeded stream of small integer tables."""

    seed: int
    instances_examined: int = 0
    tie_rivals_checked: int = 0
    outside_colspan: int = 0
    instances: int = 0
    found_at: dict[str, int] = field(default_factory=dict)     # table kind -> stream index of its instance

    def to_json(self) -> dict:
        """The statistics as a JSON object."""
        return asdict(self)


@dataclass
class DynamicStats:
    """Statistics of the dynamic-form search: on the registry and on small tables."""

    registry: RegistryStats
    tables: TableStats

    def to_json(self) -> dict:
        """The statistics as a JSON object."""
        return {"registry": self.registry.to_json(), "tables": self.tables.to_json()}


def find_static(pes=COLSPAN_PES, tasks=COLSPAN_TASKS, train_lengths=COLSPAN_TRAIN_LENGTHS,
                per_cell: int = 1) -> tuple[list[dict], StaticStats]:
    """Realized rows (exact margin > 0) with e_t ∉ col Ψ_i, on registry cells at L = 2·L0.
    Returns (certificates, one per (pe, task) cell at its smallest L0; statistics)."""
    certs: list[dict] = []
    stats = StaticStats()
    seen_cells = set()
    for pe_spec in pes:
        for task_spec in tasks:
            for L0 in train_lengths:
                pe, task = parse_pe(pe_spec), parse_task(task_spec)
                stats.cells += 1
                sel = select(pe, task, L0)
                if not sel.realizable or sel.exact_theta is None:
                    continue
                stats.realizable_cells += 1
                L = 2 * L0
                rows, targets = task.rows_and_targets(L)
                kernel = exact_transfer(pe, sel.exact_theta, L, L0)
                margins, _ = exact_margins(kernel, rows, targets)
                status = classify_exact(margins, structural_ties(pe, rows, targets, L, L0))
                found = 0
                order = sorted(range(rows.size), key=lambda n: (rows[n] < L0, rows[n]))  # new rows first
                for n in order:
                    if status[n] != REALIZED or margins[n] is None:
                        continue
                    i, t = int(rows[n]), int(targets[n])
                    stats.realized_rows_checked += 1
                    r1, r2 = static_rank(pe, i, t, L0)
                    if r2 != r1 + 1:
                        continue
                    key = f"{pe_spec} · {task_spec}"
                    stats.instances[key] = stats.instances.get(key, 0) + 1
                    if (pe_spec, task_spec) not in seen_cells and found < per_cell:
                        certs.append(static_certificate(pe_spec, task_spec, sel, L, i, t, margins[n], r1, r2))
                        found += 1
                    if found >= per_cell:
                        break
                if found:
                    seen_cells.add((pe_spec, task_spec))
    return certs, stats


def static_certificate(pe: str, task: str, sel: Selection, L: int, i: int, t: int, margin: Fraction,
                       r1: int, r2: int, inst: Instance | None = None) -> dict:
    """The sealed ``static-colspan`` certificate of one realized row with e_t outside col Ψ_i."""
    return seal({
        "kind": "static-colspan",
        "instance": {"pe": pe, "task": task, "train_length": sel.train_length, "length": L, "row": i,
                     "target": t, "tables": tables_json(inst)},
        "claims": {"selected": selected_claims(sel), "margin": q(margin), "rank_features": r1,
                   "rank_augmented": r2},
        "explanation": STATIC_SENTENCE.format(i=i, L=L, margin=margin, r1=r1, r2=r2),
        "versions": versions(),
    })


def _dynamic_candidates(pe, task, sel: Selection, L: int):
    """Yield (row, target, rival, v, rank Z, rank [Z; v], grad, beta, ⟨θ_1, v⟩) for tie rivals of
    margin-0 rows with v ∉ col Zᵀ and ⟨θ_1, v⟩ ≠ 0."""
    cls = classify(pe, task, sel, L)
    tie_rows = [r for r in cls.failing if r.cls in ("open_tie", "orthogonal_tie")]
    if not tie_rows:
        return
    opt = _exact(sel)
    zq, p = opt.constraints, len(opt.theta)
    rz = rank(zq, p)
    grad, beta = first_step(pe, task, sel.train_length)
    if beta == 0:
        return  # no training signal: θ_k = 0 for every k
    step = [-g / beta for g in grad]
    for row in tie_rows:
        for rival in row.rivals:
            yield ("checked", row, rival, None)
            rv = rank(list(zq) + [rival.direction], p)
            if rv != rz + 1:
                continue
            ip = dot(step, rival.direction)
            yield ("outside", row, rival, None)
            if ip != 0:
                yield ("instance", row, rival, (rz, rv, grad, beta, step, ip))


def dynamic_certificate(pe_spec: str, task_spec: str, sel: Selection, L: int, row, rival, data,
                        inst: Instance | None = None, evidence_steps: int = EVIDENCE_STEPS) -> dict:
    """The sealed ``dynamic-colspan`` certificate of one tied rival, with its gradient-descent evidence."""
    rz, rv, grad, beta, step, ip = data
    pe, task = parse_pe(pe_spec), parse_task(task_spec)
    traj = tie_margins(pe, task, sel.train_length, [[float(x) for x in rival.direction]], evidence_steps)
    return seal({
        "kind": "dynamic-colspan",
        "instance": {"pe": pe_spec, "task": task_spec, "train_length": sel.train_length, "length": L,
                     "row": row.row, "target": row.target, "rival": rival.rival, "tables": tables_json(inst)},
        "claims": {"selected": selected_claims(sel), "tie_direction": qvec(rival.direction), "theta_dot_v": q(0),
                   "margin": q(row.margin), "rank_differences": rz, "rank_with_direction": rv,
                   "step_size": q(1 / beta), "gradient_at_zero": qvec(grad), "first_step": qvec(step),
                   "first_step_dot_v": q(ip)},
        "evidence": {"gradient_descent_tie_margin": limit_verdict(traj.steps, traj.margins[0]),
                     "note": "float: ⟨θ_k, v⟩ along gradient descent from 0 with step 1/β (not an exact claim)"},
        "explanation": DYNAMIC_SENTENCE.format(i=row.row, t=row.target, j=rival.rival, r=rz, r1=rv, ip=ip),
        "versions": versions(),
    })


def find_dynamic(pes=COLSPAN_PES, tasks=COLSPAN_TASKS, train_lengths=COLSPAN_TRAIN_LENGTHS,
                 table_seed: int = TABLE_SEED, table_budget: int = TABLE_BUDGET,
                 evidence_steps: int = EVIDENCE_STEPS) -> tuple[list[dict], DynamicStats]:
    """Dynamic-form instances: registry cells first, then small integer tables.

    Dynamic-form instances: registry cells first (L = 2·L0 and 4·L0), then small integer tables from the
    seeded instance stream until one instance per table kind is found."""
    certs: list[dict] = []
    reg = RegistryStats()
    for pe_spec in pes:
        for task_spec in tasks:
            for L0 in train_lengths:
                reg.cells += 1
                pe, task = parse_pe(pe_spec), parse_task(task_spec)
                sel = select(pe, task, L0)
                if not sel.realizable or sel.exact_theta is None:
                    continue
                for L in (2 * L0, 4 * L0):
                    for what, row, rival, data in _dynamic_candidates(pe, task, sel, L):
                        if what == "checked":
                            reg.tie_rivals_checked += 1
                        elif what == "outside":
                            reg.outside_colspan += 1
                        else:
                            reg.instances += 1
                            if reg.instances <= 2:
                                certs.append(dynamic_certificate(pe_spec, task_spec, sel, L, row, rival, data,
                                                                 evidence_steps=evidence_steps))
    tab = TableStats(table_seed)
    wanted = {"relative", "column", "general"}
    families = ("relative", "column", "general")
    for k in range(table_budget):
        if not wanted:
            break
        inst = instance(table_seed, k, families)
        if inst.family not in wanted:
            continue
        tab.instances_examined += 1
        with registered(inst):
            pe, task = parse_pe(inst.pe), parse_task(inst.task)
            try:
                sel = select(pe, task, inst.train_length)
            except PosrealError:
                continue
            if not sel.realizable or sel.exact_theta is None:
                continue
            for what, row, rival, data in _dynamic_candidates(pe, task, sel, inst.length):
                if what == "checked":
                    tab.tie_rivals_checked += 1
                elif what == "outside":
                    tab.outside_colspan += 1
                else:
                    tab.instances += 1
                    if inst.family in wanted:
                        wanted.discard(inst.family)
                        tab.found_at[inst.family] = k
                        certs.append(dynamic_certificate(inst.pe, inst.task, sel, inst.length, row, rival, data,
                                                         inst, evidence_steps))
    return certs, DynamicStats(reg, tab)


def reproduce(evidence_steps: int = EVIDENCE_STEPS) -> ColspanReport:
    """Both forms of the flaw, static and dynamic.

    Both forms of the flaw: static instances on the rational registry, dynamic instances on the
    registry (none expected) and on small integer tables."""
    static, sstats = find_static()
    dynamic, dstats = find_dynamic(evidence_steps=evidence_steps)
    return ColspanReport(static, dynamic, {"static": sstats.to_json(), "dynamic": dstats.to_json()})
