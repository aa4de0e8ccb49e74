"""``posreal search``: counterexample searches, as nested subcommands.

* ``posreal search colspan`` — reproduce both forms of the invalid outside-colspan argument
  (THEORY.md §2) with exact certificates; exit 0 when both forms are found and every certificate
  verifies, 1 otherwise.
* ``posreal search conjecture`` — the seeded, resumable search of the Conjecture's open case;
  results are appended to a JSONL file as found; exit 1 when a candidate counterexample (an open
  tie that gradient descent wins) is among the results, 0 otherwise.
"""

from __future__ import annotations

import sys
import time

from posreal.commands._common import (emit_json, format_table, instances, output_directory, output_file, positive_float,
                                      progress, seed, spec_list, steps, with_provenance)


def add_parser(sub) -> None:
    p = sub.add_parser("search", help="search counterexamples (colspan flaw, open conjecture)",
                       description="Counterexample searches: 'colspan' reproduces the invalid outside-colspan "
                                   "argument, 'conjecture' searches the open case of the Conjecture.")
    inner = p.add_subparsers(dest="search", required=True, parser_class=type(p), metavar="{colspan,conjecture}")

    c = inner.add_parser("colspan", help="both forms of the invalid outside-colspan argument, certified",
                         description="Find rows realized by T_L θ* with e_t outside col Ψ_i (static form) and tie "
                                     "directions outside col Zᵀ that the first gradient step moves (dynamic form); "
                                     "every instance comes with an exact certificate.")
    c.add_argument("--out", type=output_file, metavar="FILE", help="write the certificates as one bundle (posreal verify FILE)")
    c.add_argument("--evidence-steps", type=steps, default=20000,
                   help="gradient-descent steps of the float evidence in dynamic certificates (default 20000)")
    c.add_argument("--json", action="store_true", help="print one JSON object")
    c.set_defaults(run=run_colspan)

    j = inner.add_parser("conjecture", help="seeded, resumable search of the Conjecture's open case",
                         description="Enumerate and sample deterministic linear PEs (registry with parameters, "
                                     "small integer feature tables) with tasks and lengths; classify every failing "
                                     "row of T_L θ*; run gradient descent on open ties and report candidates.")
    j.add_argument("--seed", type=seed, default=0, help="seed of the instance stream (default 0)")
    limit = j.add_mutually_exclusive_group()
    limit.add_argument("--budget", type=instances, help="number of instances (indices 0..N-1; default 500)")
    limit.add_argument("--time", type=positive_float, metavar="SECONDS", help="run for this many seconds")
    j.add_argument("--out", type=output_file, metavar="FILE.jsonl", help="append results to this JSONL file as they are found")
    j.add_argument("--resume", action="store_true", help="continue the search in --out, skipping done indices")
    j.add_argument("--families", type=spec_list, default=None,
                   help="comma-separated families: registry,relative,column,general (default all)")
    j.add_argument("--gd-steps", type=steps, default=20000,
                   help="gradient-descent steps per instance with open ties (default 20000)")
    j.add_argument("--certify", type=output_directory, metavar="DIR", help="write an open-tie certificate for each candidate found")
    j.add_argument("--json", action="store_true", help="print one JSON object (no progress bar)")
    j.set_defaults(run=run_conjecture)


def run_colspan(args) -> int:
    from posreal.counterexamples.verifier.certificate import bundle, check_output_file, write
    from posreal.counterexamples.colspan import find_dynamic, find_static
    from posreal.counterexamples.verifier.verify import VERIFIED, verify_document

    if args.out:
        check_output_file(args.out, "--out file")   # fail before the search, not after it
    start = time.perf_counter()
    static, sstats = find_static()
    dynamic, dstats = find_dynamic(evidence_steps=args.evidence_steps)
    verdicts = [v.verdict for c in static + dynamic for v in verify_document(c)]
    ok = bool(static) and bool(dynamic) and all(v == VERIFIED for v in verdicts)
    if args.out:
        write(bundle(static + dynamic, name="outside-colspan reproductions"), args.out)
    document = {"static": static, "dynamic": dynamic, "stats": {"static": sstats, "dynamic": dstats},
                "verified": sum(v == VERIFIED for v in verdicts), "certificates": len(verdicts),
                "reproduced": ok, "seconds": round(time.perf_counter() - start, 3)}
    if args.json:
        emit_json(with_provenance(document))
        return 0 if ok else 1
    print("Static form — rows realized by T_L θ* although e_t ∉ col Ψ_i:")
    rows = [[c["instance"]["pe"], c["instance"]["task"], c["instance"]["train_length"], c["instance"]["length"],
             c["instance"]["row"], c["claims"]["margin"], f'{c["claims"]["rank_features"]} -> '
                                                           f'{c["claims"]["rank_augmented"]}'] for c in static]
    print(format_table(["pe", "task", "L0", "L", "row", "margin", "rank Ψ_i -> [Ψ_i|e_t]"], rows))
    print(f"  searched {sstats['cells']} rational registry cells ({sstats['realizable_cells']} realizable), "
          f"{sstats['realized_rows_checked']} realized rows checked; instances per cell: "
          + ", ".join(f"{k}: {n}" for k, n in sstats["instances"].items()))
    if static:
        print("  " + static[0]["explanation"])
    print("\nDynamic form — tie directions v ∉ col Zᵀ with ⟨θ_1, v⟩ ≠ 0:")
    rows = [[c["instance"]["pe"], c["instance"]["task"], c["instance"]["train_length"], c["instance"]["length"],
             f'{c["instance"]["row"]}: {c["instance"]["target"]} vs {c["instance"]["rival"]}',
             f'{c["claims"]["rank_differences"]} -> {c["claims"]["rank_with_direction"]}',
             c["claims"]["first_step_dot_v"],
             f'{c["evidence"]["gradient_descent_tie_margin"]["estimate"]:.4g}'] for c in dynamic]
    print(format_table(["pe", "task", "L0", "L", "row: t vs j", "rank Z -> [Z;v]", "<θ_1,v>", "<θ_k,v> at end"], rows))
    reg, tab = dstats["registry"], dstats["tables"]
    print(f"  registry: {reg['cells']} cells, {reg['tie_rivals_checked']} tie rivals, {reg['instances']} instances; "
          f"tables (seed {tab['seed']}): {tab['instances_examined']} examined, {tab['tie_rivals_checked']} tie rivals, "
          f"{tab['outside_colspan']} outside col Zᵀ, {tab['instances']} instances")
    for c in dynamic:
        print("  " + c["explanation"])
    print(f"\n{document['verified']}/{document['certificates']} certificates verified"
          + (f"; bundle written to {args.out}" if args.out else ""))
    return 0 if ok else 1


def run_conjecture(args) -> int:
    from posreal.counterexamples.verifier.certificate import check_output_directory, check_output_file, write
    from posreal.counterexamples.certify import open_tie_certificate
    from posreal.counterexamples.conjecture import search, summarize
    from posreal.counterexamples.verifier.errors import CertificateError
    from posreal.counterexamples.sampling import FAMILIES, instance

    if args.resume and not args.out:
        raise CertificateError("invalid --resume without --out; accepted: --resume --out FILE.jsonl")
    if args.out:
        check_output_file(args.out, "--out file")
    directory = check_output_directory(args.certify, "--certify directory") if args.certify else None
    families = tuple(args.families) if args.families else FAMILIES
    budget = args.budget if (args.budget or args.time) else 500
    quiet = args.json

    def bar(stream, total):
        return progress(stream, total=total, desc="instances", quiet=quiet)

    run = search(seed=args.seed, budget=budget, seconds=args.time, out=args.out, resume=args.resume,
                 families=families, gd_steps=args.gd_steps, progress=bar)
    summary = summarize(run.records)
    certified = []
    if directory is not None:
        try:
            directory.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise CertificateError(f"invalid --certify directory {args.certify!r}: {exc.strerror or exc}; "
                                   "accepted: a directory (created if missing)") from None
        for cand in summary["candidates"]:
            inst = instance(args.seed, cand["index"], families)
            path = directory / f"open_tie_seed{args.seed}_{cand['index']}.json"
            write(open_tie_certificate(inst, cand["row"], args.gd_steps), path)
            certified.append(str(path))
    document = {"seed": args.seed, "families": list(families), "gd_steps": args.gd_steps, "out": args.out,
                "evaluated_this_run": run.evaluated, "skipped_already_done": run.skipped_done,
                "seconds": round(run.elapsed, 3), "instances_per_second": round(run.throughput, 2),
                "summary": summary, "certificates": certified}
    code = 1 if summary["candidates"] else 0
    if args.json:
        emit_json(with_provenance(document))
        return code
    print(f"seed {args.seed}: {summary['instances']} instances in the results "
          f"({run.evaluated} evaluated now, {run.skipped_done} already done) in {run.elapsed:.1f} s — "
          f"{run.throughput:.1f} instances/s")
    print("instances: " + ", ".join(f"{k} {n}" for k, n in sorted(summary["status"].items())))
    print(format_table(["failing-row class", "rows"], list(summary["failing_rows"].items())))
    v = summary["open_tie_verdicts"]
    print(f"open ties under gradient descent: {v['wins']} won, {v['loses']} lost, {v['undecided']} undecided; "
          f"prediction disagreements: {len(summary['prediction_disagreements'])}")
    fv = summary["float_tie_verdicts"]
    print(f"float near-ties (irrational PEs, tie not certified) under gradient descent: {fv['wins']} won, "
          f"{fv['loses']} lost, {fv['undecided']} undecided")
    if summary["float_candidates"]:
        rows = [[c["index"], c["pe"], c["task"], c["train_length"], c["length"], ",".join(map(str, c["rows_won"])),
                 f"{c['limit_estimate']:.4g}", c["predicted_wins"]] for c in summary["float_candidates"]]
        print("float candidates (won near-ties; exactness of the tie not certified):")
        print(format_table(["index", "pe", "task", "L0", "L", "rows won", "lim tie margin (GD)",
                            "predicted wins (float)"], rows))
    if summary["candidates"]:
        print(f"\nCANDIDATE COUNTEREXAMPLES to the Conjecture ({len(summary['candidates'])}): open ties the trained "
              "head wins, so lim acc_L(θ_k) > α_L")
        rows = [[c["index"], c["pe"], c["task"], c["train_length"], c["length"], c["alpha"], c["row"],
                 f"{c['limit_estimate']:.4g}", c["predicted_wins"]] for c in summary["candidates"]]
        print(format_table(["index", "pe", "task", "L0", "L", "alpha", "row", "lim tie margin (GD)",
                            "predicted wins (exact sign)"], rows))
    for path in certified:
        print(f"certificate: {path}", file=sys.stderr)
    return code
