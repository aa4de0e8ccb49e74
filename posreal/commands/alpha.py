"""``posreal alpha``: α_L of one (PE, task) cell at several lengths, from θ* alone (``--extension``: under
a length-extension method, θ* still selected at L0 without it)."""

from __future__ import annotations

from posreal.commands._common import (add_function_pe_options, emit_json, format_table, geometry_name, int_list,
                                      load_function_pes, positive_int, samples, seed, train_length, with_provenance)
from posreal.theory.defaults import LENGTHS as DEFAULT_LENGTHS
from posreal.theory.defaults import TRAIN_LENGTH as DEFAULT_TRAIN_LENGTH
from posreal.theory.defaults import ROWS as DEFAULT_ROWS
from posreal.theory.errors import bad_value
from posreal.theory.geometry import described, linear_forms

CONFIG_MULTIPLES = (2, 8, 16)   # default lengths of an hf: config, in multiples of its original context


ALL_ROWS = 0   # ``--rows all``: no bound (None would read as "not asked for")


def row_count(text: str) -> int:
    """``--rows``: a count K >= 1, or ``all`` (:data:`ALL_ROWS`)."""
    if text == "all":
        return ALL_ROWS
    return positive_int(text)


def resolve_defaults(args) -> None:
    """Fill --train-length, --lengths and --extension: from an hf: config when the PE is one, else the defaults."""
    from posreal.theory.config_transfer import config_transfer
    from posreal.theory.model_config import read_model_config
    config = read_model_config(args.pe[3:]) if args.pe.startswith("hf:") else None
    odd = 1 if config is not None and args.task.strip() == "induction" else 0   # its layout: n = 2m + 1
    if args.train_length is None:
        args.train_length = config.train_length + odd if config is not None else DEFAULT_TRAIN_LENGTH
    if args.lengths is None:
        args.lengths = ([m * (args.train_length - odd) + odd for m in CONFIG_MULTIPLES] if config is not None
                        else list(DEFAULT_LENGTHS))
    if args.extension is None:
        args.extension = config_transfer(config) if config is not None else "none"


def add_parser(sub) -> None:
    p = sub.add_parser("alpha", help="α_L for one PE and task, before any training",
                       description="Compute θ* at the train length and α_L = fraction of scored rows "
                                   "that T_L θ* realizes, at each length.")
    p.add_argument("--pe", required=True,
                   help="PE spec, e.g. rope:16, t5, clipped, dual:abscol:16, hf:CONFIG.json (a model's RoPE and its "
                        "rope_scaling), table:PATH (a JSON feature table), py:MODULE:FUNCTION (with --pe-kind, "
                        "--pe-width); 'posreal pes' lists them all")
    add_function_pe_options(p)
    p.add_argument("--task", required=True, help="task spec, e.g. offset:1, copy, dual:middle")
    p.add_argument("--train-length", type=train_length, default=None,
                   help="L0 (default 16; hf:CONFIG: its original_max_position_embeddings, else "
                        "max_position_embeddings, plus 1 for the induction layout n = 2m + 1)")
    p.add_argument("--lengths", type=int_list, default=None,
                   help="comma-separated lengths L >= L0 (default 32,64,128,256; hf:CONFIG: 2, 8 and 16 × L0, "
                        "plus 1 for induction)")
    mode = p.add_mutually_exclusive_group()
    mode.add_argument("--exact", action="store_const", dest="mode", const="exact",
                      help="decide every row in ℚ (rational PEs)")
    mode.add_argument("--certified", action="store_const", dest="mode", const="certified",
                      help="re-decide borderline float rows with interval arithmetic")
    p.add_argument("--geometry", type=geometry_name, default=None,
                   help=f"norm of the selection: {described()}; {linear_forms()} give α_L as an interval over the "
                        "optimal face")
    p.add_argument("--extension", default=None, metavar="METHOD",
                   help="length extension at evaluation (θ* is selected at L0 without it): none (plain "
                        "re-evaluation; the default, except hf:CONFIG, whose default is its rope_scaling), pi, ntk, "
                        "yarn (s = L/L0), linear:S, ntk:S, yarn:S (a fixed factor S), factors:FILE, hf:PATH (a "
                        "config's rope_scaling); for rope, abscol, abssin, xpos and their duals (alibi: pi, linear:S); "
                        "'posreal extensions' lists them")
    p.add_argument("--fine-tune-length", type=train_length, default=None, metavar="L1",
                   help="select θ* at L1 > L0 with the extended features (extend, then fine-tune), then transfer "
                        "it to each L >= L1 under the same extension")
    p.add_argument("--rows", type=row_count, nargs="?", const=DEFAULT_ROWS, default=None, metavar="K|all",
                   help=f"list why rows fail: the first K failed or undecided rows per length (default {DEFAULT_ROWS}"
                        "; 'all' for every one), each with its target, winning key, margin and, for sinusoidal "
                        "PEs, each frequency's share of the margin")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.add_argument("--limit", action="store_true",
                   help="also α♯_L, the interval predicting lim acc_L(θ_k) for gradient descent (ℓ2 geometry only)")
    p.add_argument("--seed", type=seed, default=None,
                   help="learned:d only: seed of the trained block and of the Monte Carlo (default 0)")
    p.add_argument("--samples", type=samples, default=None,
                   help="learned:d only: Monte Carlo samples of the untrained rows (default 200)")
    p.set_defaults(run=run, mode="float")


def run_learned(args) -> int:
    """learned:d — α_L is an interval (Underdetermination): both completions named, plus Monte Carlo."""
    from posreal.theory.underdetermination import learned_alpha_interval
    if args.mode != "float":
        raise bad_value("mode", args.mode, "the default float mode for learned:d (its α is an interval)")
    seed = 0 if args.seed is None else args.seed
    samples = 200 if args.samples is None else args.samples
    document = learned_alpha_interval(args.pe, args.task, args.train_length, args.lengths, seed, samples).to_json()
    if args.json:
        emit_json(with_provenance(document))
        return 0
    block = document["block"]
    print(f"{document['pe']} · {document['task']} · L0 = {args.train_length} · learned absolute PE: "
          "α_L is not a function of (Φ, τ) — reported as an interval")
    print(f"trained block: {block['method']}, seed {block['seed']}, {block['steps']} steps, "
          f"min margin at L0 {block['min_train_margin']:.4g}")
    if not document["realizable"]:
        print(f"not realized at L0: {document['reason']}")
        return 0
    rows = []
    for L, a in document["alpha"].items():
        mc = a["monte_carlo"]
        rows.append([L, f"[{a['low']:.4f}, {a['high']:.4f}]", f"{a['completions']['zero']:.4f}",
                     f"{a['completions']['copy_last']:.4f}", f"{mc['mean']:.4f} ± {mc['stderr']:.4f}"])
    print(format_table(["L", "alpha interval", "zero completion", "copy_last completion",
                        f"Monte Carlo mean ± stderr ({samples} samples)"], rows))
    return 0


def run(args) -> int:
    from posreal.theory.token_tasks import is_token_task
    resolve_defaults(args)
    if is_token_task(args.task):   # token tasks (induction): posreal.commands.induction
        from posreal.commands.induction import run_alpha
        return run_alpha(args)
    from posreal.theory.alpha import compute_alpha
    from posreal.theory.geometry import DEFAULT_GEOMETRY, SelectionGeometry, Use
    from posreal.theory.pe_specs import is_learned
    load_function_pes([args.pe], args.pe_kind, args.pe_width)
    geometry = DEFAULT_GEOMETRY if args.geometry is None else SelectionGeometry.parse(args.geometry)
    if args.limit:
        geometry.require(Use.LIMIT, "option --limit with geometry")
    if args.limit and str(args.extension) != "none":
        raise bad_value("option --limit with extension", args.extension,
                        "none (α♯ is derived for plain re-evaluation; under an extension use α_L)")
    if is_learned(args.pe):
        if args.geometry is not None:
            raise bad_value("option --geometry for PE", args.pe, "a linear PE (learned:d has no selection: "
                            "its α is the Underdetermination interval)")
        if args.limit:
            raise bad_value("option --limit for PE", args.pe, "a linear PE (learned:d has an α interval already)")
        for name in ("rows", "fine_tune_length"):
            if getattr(args, name) not in (None, False):
                raise bad_value(f"option --{name.replace('_', '-')} for PE", args.pe,
                                "a linear PE (learned:d has no selected θ*: its α is the Underdetermination interval)")
        if str(args.extension) != "none":
            raise bad_value("option --extension for PE", args.pe, "a linear PE with frequencies or positions to "
                            "rescale (rope, abscol, abssin, their duals; alibi with pi)")
        return run_learned(args)
    for name in ("seed", "samples"):
        if getattr(args, name) is not None:
            raise bad_value(f"option --{name} for PE", args.pe, "learned:d (α of a linear PE has no randomness)")
    result = compute_alpha(args.pe, args.task, args.train_length, args.lengths, args.mode, geometry=geometry,
                           limit=args.limit, extension=args.extension, fine_tune_length=args.fine_tune_length)
    document = result.to_json()
    if args.rows is not None:
        geometry.require(Use.FAILING_ROWS, "option --rows with geometry")
        max_rows = None if args.rows == ALL_ROWS else args.rows
        document["failing_rows"] = {str(L): [r.to_json() for r in result.failing_rows(L, max_rows)]
                                    for L in result.lengths} if result.realizable else {}
    if args.json:
        emit_json(with_provenance(document))
        return 0
    head = f"{document['pe']} · {document['task']} · L0 = {args.train_length} · mode {document['mode']}"
    if "extension" in document:
        head += f" · extension {document['extension']} (θ* selected at L0 without it)"
    if not result.realizable:
        print(f"{head}\n{result.selection.status} at L0: {result.selection.reason}")
        return 0
    heading, header, rows, note = geometry.text_summary(head, document)   # in the geometry's shape
    print(heading)
    print(format_table(header, rows))
    if note:
        print(note)
    if args.limit:
        print_limit(document["limit"])
    if args.rows is not None:
        print_failing_rows(document)
    return 0


def print_failing_rows(document: dict) -> None:
    """The failed and undecided rows of each length: target, winner, margin, the frequencies' largest shares."""
    for L, rows in document["failing_rows"].items():
        counts = document["rows"][L]
        bad = counts["failed"] + counts["undecided"]
        if not bad:
            continue
        print(f"\nL = {L}: {len(rows)} of {bad} failed or undecided rows (row i, target key t, winning key w, "
              "margin κ(i,t) - κ(i,w))")
        for r in rows:
            line = (f"  row {r['row']}: target {r['target']}, winner {r['winner']}, margin {r['margin']:.4g} "
                    f"({r['status']})")
            shares = r.get("frequencies", [])[:4]
            if shares:
                line += "; largest frequency shares: " + ", ".join(f"f{s['f']} {s['contribution']:+.3g}"
                                                                     for s in shares)
            print(line)


def print_limit(limits: dict) -> None:
    """α♯_L per length, the kinds of evidence its rows rest on, and the reason of every undecided row."""
    limits = {L: d for L, d in limits.items() if d is not None}
    rows = [[L, f"[{d['interval_exact'][0]}, {d['interval_exact'][1]}]", d["wins"], d["undecided"], d["total"],
             d["open_ties_won"]] for L, d in limits.items()]
    print("\nα♯_L — predicted lim acc_L(θ_k) for gradient descent (ℓ2): [wins, wins + undecided] / |R_L|")
    print(format_table(["L", "alpha♯ interval", "wins", "undecided", "total", "open ties won"], rows))
    kinds = [(L, k, c) for L, d in limits.items() for k, c in d.get("by_evidence", {}).items()]
    if kinds:
        names = next(iter(limits.values())).get("evidence_kinds", {})
        print("rows by kind of evidence (won / lost / undecided; the rows T_L θ* realizes count as won):")
        print(format_table(["L", "evidence", "won / lost / undecided"],
                           [[L, names.get(k, k), f"{c['won']} / {c['lost']} / {c['undecided']}"] for L, k, c in kinds]))
    for L, d in limits.items():
        for r in d.get("rows", []):
            if r["class"] == "open_tie" and r["verdict"] != "undecided":
                print(f"  L = {L}, row {r['row']} (target {r['target']}, open tie): {r['verdict']} — {r['evidence']}"
                      + (f" ({r['detail']})" if r["detail"] else ""))
        for r in d["undecided_rows"]:
            print(f"  L = {L}, row {r['row']} (target {r['target']}, {r['class']}): undecided — {r['reason']}"
                  + (f" ({r['detail']})" if r["detail"] else ""))
