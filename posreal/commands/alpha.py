"""``posreal alpha``: α_L of one (PE, task) cell at several lengths, from θ* alone."""

from __future__ import annotations

from posreal.commands._common import emit_json, format_table, int_list, positive_int, with_provenance
from theory.transfer import DEFAULT_LENGTHS, DEFAULT_TRAIN_LENGTH, compute_alpha


def add_parser(sub) -> None:
    p = sub.add_parser("alpha", help="α_L for one PE and task, before any training",
                       description="Compute θ* at the train length and α_L = fraction of scored rows "
                                   "that T_L θ* realizes, at each length.")
    p.add_argument("--pe", required=True, help="PE spec, e.g. rope:16, relbias, dual:abscol:16")
    p.add_argument("--task", required=True, help="task spec, e.g. offset:1, copy, dual:middle")
    p.add_argument("--train-length", type=positive_int, default=DEFAULT_TRAIN_LENGTH, help="L0 (default 16)")
    p.add_argument("--lengths", type=int_list, default=list(DEFAULT_LENGTHS),
                   help="comma-separated lengths L >= L0 (default 32,64,128,256)")
    mode = p.add_mutually_exclusive_group()
    mode.add_argument("--exact", action="store_const", dest="mode", const="exact",
                      help="decide every row in ℚ (rational PEs)")
    mode.add_argument("--certified", action="store_const", dest="mode", const="certified",
                      help="re-decide borderline float rows with interval arithmetic")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.set_defaults(run=run, mode="float")


def run(args) -> int:
    result = compute_alpha(args.pe, args.task, args.train_length, args.lengths, args.mode)
    document = result.to_json()
    if args.json:
        emit_json(with_provenance(document))
        return 0
    head = f"{document['pe']} · {document['task']} · L0 = {args.train_length} · mode {args.mode}"
    if not result.realizable:
        print(f"{head}\nnot realizable at L0: {result.selection.reason}")
        return 0
    sel = document["selected"]
    print(f"{head}\nθ*: norm {sel['norm']:.6g}, {sel['support']} support vectors of {sel['constraints']} constraints"
          + (" (exact KKT certificate)" if sel["exact"] else ""))
    rows = []
    for L, counts in document["rows"].items():
        alpha = document.get("alpha_exact", {}).get(L) or f"{document['alpha'][L]:.4f}"
        rows.append([L, alpha, counts["realized"], counts["failed"], counts["undecided"], counts["total"],
                     counts["structural_ties"]])
    print(format_table(["L", "alpha", "realized", "failed", "undecided", "total", "structural ties"], rows))
    return 0
