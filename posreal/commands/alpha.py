"""``posreal alpha``: α_L of one (PE, task) cell at several lengths, from θ* alone."""

from __future__ import annotations

from posreal.commands._common import emit_json, format_table, int_list, samples, seed, train_length, with_provenance
from posreal.theory.defaults import LENGTHS as DEFAULT_LENGTHS
from posreal.theory.defaults import TRAIN_LENGTH as DEFAULT_TRAIN_LENGTH
from posreal.theory.errors import bad_value


def add_parser(sub) -> None:
    p = sub.add_parser("alpha", help="α_L for one PE and task, before any training",
                       description="Compute θ* at the train length and α_L = fraction of scored rows "
                                   "that T_L θ* realizes, at each length.")
    p.add_argument("--pe", required=True, help="PE spec, e.g. rope:16, relbias, dual:abscol:16")
    p.add_argument("--task", required=True, help="task spec, e.g. offset:1, copy, dual:middle")
    p.add_argument("--train-length", type=train_length, default=DEFAULT_TRAIN_LENGTH, help="L0 (default 16)")
    p.add_argument("--lengths", type=int_list, default=list(DEFAULT_LENGTHS),
                   help="comma-separated lengths L >= L0 (default 32,64,128,256)")
    mode = p.add_mutually_exclusive_group()
    mode.add_argument("--exact", action="store_const", dest="mode", const="exact",
                      help="decide every row in ℚ (rational PEs)")
    mode.add_argument("--certified", action="store_const", dest="mode", const="certified",
                      help="re-decide borderline float rows with interval arithmetic")
    p.add_argument("--json", action="store_true", help="print one JSON object")
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
    document = learned_alpha_interval(args.pe, args.task, args.train_length, args.lengths, seed, samples)
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
    from posreal.theory.alpha import compute_alpha
    from posreal.theory.encodings import LearnedAbsolute, parse_pe
    if isinstance(parse_pe(args.pe), LearnedAbsolute):
        return run_learned(args)
    for name in ("seed", "samples"):
        if getattr(args, name) is not None:
            raise bad_value(f"option --{name} for PE", args.pe, "learned:d (α of a linear PE has no randomness)")
    result = compute_alpha(args.pe, args.task, args.train_length, args.lengths, args.mode)
    document = result.to_json()
    if args.json:
        emit_json(with_provenance(document))
        return 0
    head = f"{document['pe']} · {document['task']} · L0 = {args.train_length} · mode {document['mode']}"
    if not result.realizable:
        print(f"{head}\n{result.selection.status} at L0: {result.selection.reason}")
        return 0
    sel = document["selected"]
    print(f"{head}\nθ*: norm {sel['norm']:.6g}, {sel['support']} support vectors of {sel['constraints']} constraints"
          + (" (exact KKT certificate)" if sel["exact"] else "") + (f" — {sel['reason']}" if sel["reason"] else ""))
    rows = []
    for L, counts in document["rows"].items():
        value = document["alpha"][L]
        alpha = document.get("alpha_exact", {}).get(L) or ("—" if value is None else f"{value:.4f}")
        rows.append([L, alpha, counts["realized"], counts["failed"], counts["undecided"], counts["total"],
                     counts["structural_ties"]])
    print(format_table(["L", "alpha", "realized", "failed", "undecided", "total", "structural ties"], rows))
    return 0
