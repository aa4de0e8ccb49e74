"""``posreal search``: counterexample searches, as nested subcommands.

* ``posreal search colspan`` — reproduce both forms of the invalid outside-colspan argument
  (definitions.md#outside-colspan) with exact certificates; exit 0 when both forms are found and every certificate
  verifies, 1 otherwise.
* ``posreal search conjecture`` — the seeded, resumable search of the Conjecture's open case;
  results are appended to a JSONL file as found.  Every open-tie row is reported with α_L's
  verdict, α♯'s verdict and the kind of evidence it rests on (closed form in ℚ, with a certified
  bound, symmetry; trajectory evidence of gradient descent for the rows the closed forms leave open),
  and the gradient flow's evidence followed to log log t.  Exit 1 when a counterexample
  to Conjecture′ (a row α♯ decides and the evidence decides the other way) is among the results,
  0 otherwise; such a counterexample is always written as a certificate.  Open ties that training
  wins against α_L (the original Conjecture is refuted) are listed as candidates and certified
  with ``--certify DIR``; they do not change the exit code.  ``--family SPEC --exhaustive``
  evaluates every instance of a finite table family in index order instead of the sampled stream
  and ends with "every instance of FAMILY evaluated" and its counts.  The units run in this
  process, on ``--jobs N`` processes, or on Dask (``--scheduler``); the records are the same.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

from posreal.commands._common import (add_executor_arguments, add_force_option, as_printed, bounded_float, bounded_int,
                                      emit_json, executor_of, format_table, instances, output_directory,
                                      output_file, positive_float, seed, spec_list, steps, with_provenance)
from posreal.theory.defaults import TAU_MAX


def add_parser(sub) -> None:
    p = sub.add_parser("search", help="search counterexamples (colspan flaw, open conjecture)",
                       description="Counterexample searches: 'colspan' reproduces the invalid outside-colspan "
                                   "argument, 'conjecture' searches the open case of the Conjecture.")
    inner = p.add_subparsers(dest="search", required=True, parser_class=type(p), metavar="{colspan,conjecture}")

    c = inner.add_parser("colspan", help="both forms of the invalid outside-colspan argument, certified",
                         description="Find rows realized by T_L θ* with e_t outside col Ψ_i (static form) and tie "
                                     "directions outside col Zᵀ that the first gradient step moves (dynamic form); "
                                     "every instance comes with an exact certificate.",
                         epilog="Exit codes: 0 both forms reproduced and every certificate verified (the expected "
                                "outcome: the instances refute an argument, not a claim of the theory); 1 a form "
                                "was not reproduced or a certificate did not verify; 2 usage error.")
    c.add_argument("--out", type=output_file, metavar="FILE",
                   help="write the certificates as one bundle (posreal verify FILE)")
    add_force_option(c, "--out file")
    c.add_argument("--evidence-steps", type=steps, default=20000,
                   help="gradient-descent steps of the float evidence in dynamic certificates (default 20000)")
    shown = c.add_mutually_exclusive_group()
    shown.add_argument("--json", action="store_true", help="print one JSON object")
    shown.add_argument("--report", action="store_true",
                   help="print the Markdown report the docs' Counterexamples page shows")
    c.set_defaults(run=run_colspan)

    j = inner.add_parser("conjecture", help="seeded, resumable search of the Conjecture's open case",
                         description="Enumerate and sample deterministic linear PEs (registry with parameters, "
                                     "small integer feature tables) with tasks and lengths; classify every failing "
                                     "row of T_L θ*; decide open ties by α♯ and integrate the gradient flow in "
                                     "log-time on them; report candidates and counterexamples to Conjecture′.",
                         epilog="Exit codes: 0 no counterexample to Conjecture′ among the results (candidates "
                                "against the original Conjecture, refuted in its open case, do not change it); 1 a "
                                "counterexample to Conjecture′ was found (always written as a certificate); 2 usage "
                                "error.")
    j.add_argument("--seed", type=seed, default=None, help="seed of the instance stream (default 0)")
    limit = j.add_mutually_exclusive_group()
    limit.add_argument("--budget", type=instances, help="number of instances (indices 0..N-1; default 500)")
    limit.add_argument("--time", type=positive_float, metavar="SECONDS", help="run for this many seconds")
    j.add_argument("--out", type=output_file, metavar="FILE.jsonl",
                   help="append results to this JSONL file as they are found")
    j.add_argument("--resume", action="store_true", help="continue the search in --out, skipping done indices")
    add_force_option(j, "--out file (the search starts it over) or certificate")
    j.add_argument("--families", type=spec_list, default=None,
                   help="comma-separated families: registry,relative,column,general (default all)")
    j.add_argument("--tau-max", type=log_time, default=None, metavar="TAU",
                   help="largest log-time τ = log t of the trajectory evidence (default and at most e^24 ≈ 2.6e10, "
                        "where a log log t term has moved by O(1))")
    j.add_argument("--certify", type=output_directory, metavar="DIR",
                   help="write an open-tie certificate for each candidate (an open tie training wins) into DIR; a "
                        "counterexample to Conjecture′ is always certified (into DIR, else next to --out, else here)")
    j.add_argument("--family", type=family_spec, default=None, metavar="SPEC",
                   help="with --exhaustive: a finite table family KIND:NxP:LOW..HIGH[:TASKS], e.g. "
                        "relative:3x4:-2..2 (every table with entries in -2..2, every table task, every 2 <= L0 < L "
                        "<= N)")
    j.add_argument("--exhaustive", action="store_true",
                   help="evaluate every instance of --family in index order (resumable; --time stops early)")
    add_executor_arguments(j)
    j.add_argument("--chunk", type=bounded_int(1, 10 ** 6, "chunk size"), default=None, metavar="N",
                   help="instances per unit of work (default: 1 in this process, 8 sampled or 1000 exhaustive on "
                        "workers)")
    shown = j.add_mutually_exclusive_group()
    shown.add_argument("--json", action="store_true", help="print one JSON object (no progress bar)")
    shown.add_argument("--report", action="store_true",
                   help="print the Markdown report the docs' Counterexamples page shows (no progress bar)")
    j.set_defaults(run=run_conjecture)


def run_colspan(args) -> int:
    from posreal.counterexamples.certificate_writer import bundle, check_output_file, write
    from posreal.counterexamples.colspan import find_dynamic, find_static
    from posreal.counterexamples.verifier.verify import VERIFIED, verify_document

    if args.out:
        check_output_file(args.out, "--out file", args.force)   # fail before the search, not after it
    start = time.perf_counter()
    static, sstats = find_static()
    dynamic, dstats = find_dynamic(evidence_steps=args.evidence_steps)
    verdicts = [v.verdict for c in static + dynamic for v in verify_document(c)]
    ok = bool(static) and bool(dynamic) and all(v == VERIFIED for v in verdicts)
    if args.out:
        write(bundle(static + dynamic, name="outside-colspan reproductions"), args.out, args.force)
        print(f"wrote {args.out} (the certificate bundle)", file=sys.stderr)
    stats = {"static": sstats.to_json(), "dynamic": dstats.to_json()}
    document = {"static": static, "dynamic": dynamic, "stats": stats,
                "verified": sum(v == VERIFIED for v in verdicts), "certificates": len(verdicts),
                "reproduced": ok, "seconds": round(time.perf_counter() - start, 3)}
    if args.report or args.json:
        from posreal.counterexamples.report import colspan_report
        if args.json:
            emit_json(with_provenance(document))
        else:
            print(colspan_report(as_printed(document)), end="")
        return 0 if ok else 1
    print("Static form — rows realized by T_L θ* although e_t ∉ col Ψ_i:")
    rows = [[c["instance"]["pe"], c["instance"]["task"], c["instance"]["train_length"], c["instance"]["length"],
             c["instance"]["row"], c["claims"]["margin"], f'{c["claims"]["rank_features"]} -> '
                                                           f'{c["claims"]["rank_augmented"]}'] for c in static]
    print(format_table(["pe", "task", "L0", "L", "row", "margin", "rank Ψ_i -> [Ψ_i|e_t]"], rows))
    print(f"  searched {sstats.cells} rational registry cells ({sstats.realizable_cells} realizable), "
          f"{sstats.realized_rows_checked} realized rows checked; instances per cell: "
          + ", ".join(f"{k}: {n}" for k, n in sstats.instances.items()))
    if static:
        print("  " + static[0]["explanation"])
    print("\nDynamic form — tie directions v ∉ col Zᵀ with ⟨θ_1, v⟩ ≠ 0:")
    rows = [[c["instance"]["pe"], c["instance"]["task"], c["instance"]["train_length"], c["instance"]["length"],
             f'{c["instance"]["row"]}: {c["instance"]["target"]} vs {c["instance"]["rival"]}',
             f'{c["claims"]["rank_differences"]} -> {c["claims"]["rank_with_direction"]}',
             c["claims"]["first_step_dot_v"],
             f'{c["evidence"]["gradient_descent_tie_margin"]["estimate"]:.4g}'] for c in dynamic]
    print(format_table(["pe", "task", "L0", "L", "row: t vs j", "rank Z -> [Z;v]", "<θ_1,v>", "<θ_k,v> at end"], rows))
    reg, tab = dstats.registry, dstats.tables
    print(f"  registry: {reg.cells} cells, {reg.tie_rivals_checked} tie rivals, {reg.instances} instances; "
          f"tables (seed {tab.seed}): {tab.instances_examined} examined, {tab.tie_rivals_checked} tie rivals, "
          f"{tab.outside_colspan} outside col Zᵀ, {tab.instances} instances")
    for c in dynamic:
        print("  " + c["explanation"])
    print(f"\n{document['verified']}/{document['certificates']} certificates verified")
    return 0 if ok else 1


log_time = bounded_float(0.0, TAU_MAX, "log-time τ")   # ``--tau-max``: (0, e^24]


def family_spec(text: str):
    """``--family``: a finite table family (:func:`posreal.counterexamples.families.parse_family`)."""
    import argparse

    from posreal.counterexamples.families import parse_family
    from posreal.theory.errors import PosrealError
    try:
        return parse_family(text)
    except PosrealError as err:
        raise argparse.ArgumentTypeError(str(err)) from None


def bar_factory(quiet: bool):
    """(total, done) -> a tqdm bar with rate and ETA over the whole stream or family (terminals only)."""
    def make(total: int | None, done: int):
        from posreal.counterexamples.search_runner import _NoBar
        if quiet or not sys.stderr.isatty():
            return _NoBar()
        from tqdm import tqdm
        return tqdm(total=total, initial=done, desc="instances", unit="inst", file=sys.stderr, leave=False,
                    smoothing=0.05)
    return make


def _usage(args) -> None:
    """Options that belong to one mode only: one-line errors before any work."""
    from posreal.theory.errors import SpecError
    if args.exhaustive and args.family is None:
        raise SpecError("invalid --exhaustive without --family; accepted: --family KIND:NxP:LOW..HIGH --exhaustive")
    if args.family is not None and not args.exhaustive:
        raise SpecError("invalid --family without --exhaustive; accepted: --family SPEC --exhaustive (or --families "
                        "for the sampled stream)")
    if args.exhaustive:
        for flag, value in (("--seed", args.seed), ("--families", args.families), ("--budget", args.budget),
                            ("--report", args.report or None)):
            if value is not None:
                raise SpecError(f"invalid {flag} with --exhaustive; accepted: --family SPEC --exhaustive with --time "
                                "SECONDS to stop early and --resume to continue")


def _certify(wanted, instance_of, name, directory, args) -> list[str]:
    from posreal.counterexamples.certificate_writer import write
    from posreal.counterexamples.certify import open_tie_certificate
    from posreal.counterexamples.verifier.errors import CertificateError
    if not wanted:
        return []
    if directory is None:   # a counterexample to Conjecture′ is always certified: next to --out, else here
        directory = Path(args.out).resolve().parent if args.out else Path.cwd()
    try:
        directory.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise CertificateError(f"invalid certificate directory {str(directory)!r}: {exc.strerror or exc}; "
                               "accepted: a writable directory (created if missing)") from None
    written = []
    for index, row in sorted(wanted):
        path = directory / f"open_tie_{name}_{index}_row{row}.json"
        write(open_tie_certificate(instance_of(index), row, args.tau_max_value), path, args.force)
        written.append(str(path))
    return written


def run_conjecture(args) -> int:
    from posreal.counterexamples.certificate_writer import check_output_directory, check_output_file
    from posreal.counterexamples.search_runner import search
    from posreal.counterexamples.conjecture import summarize
    from posreal.counterexamples.verifier.errors import CertificateError
    from posreal.theory.random_instances import FAMILIES, instance

    _usage(args)
    if args.resume and not args.out:
        raise CertificateError("invalid --resume without --out; accepted: --resume --out FILE.jsonl")
    if args.out:   # an existing file is continued (--resume) or started over (--force), never appended to blindly
        check_output_file(args.out, "--out file", force=args.force or args.resume,
                          accepted="--resume to continue it, --force to start it over, or a new --out file")
    directory = check_output_directory(args.certify, "--certify directory") if args.certify else None
    from posreal.theory.flow import TAU_MAX
    tau_max = args.tau_max_value = TAU_MAX if args.tau_max is None else args.tau_max
    bar = bar_factory(args.json or args.report)
    if args.exhaustive:
        return _run_exhaustive(args, directory, tau_max, bar)
    args.seed = 0 if args.seed is None else args.seed
    families = tuple(args.families) if args.families else FAMILIES
    budget = args.budget if (args.budget or args.time) else 500
    run = search(seed=args.seed, budget=budget, seconds=args.time, out=args.out, resume=args.resume,
                 families=families, tau_max=tau_max, progress=bar, executor=executor_of(args), chunk=args.chunk,
                 force=args.force)
    summary = summarize(run.records)
    wanted = {(c["index"], c["row"]) for c in summary["limit_counterexamples"]}
    if directory is not None:
        wanted |= {(c["index"], c["row"]) for c in summary["candidates"]}
    certified = _certify(wanted, lambda k: instance(args.seed, k, families), f"seed{args.seed}", directory, args)
    document = {"seed": args.seed, "families": list(families), "tau_max": tau_max, "out": args.out,
                "evaluated_this_run": run.evaluated, "skipped_already_done": run.skipped_done,
                "seconds": round(run.elapsed, 3), "instances_per_second": round(run.throughput, 2),
                "summary": summary, "certificates": certified, "executor": run.executor}
    code = 1 if summary["limit_counterexamples"] else 0
    if args.report or args.json:
        from posreal.counterexamples.report import conjecture_report
        if args.json:
            emit_json(with_provenance(document))
        else:
            defaults = args.seed == 0 and args.budget is None and args.time is None and args.families is None
            shown = "default seed and budget" if defaults else f"seed {args.seed}, {summary['instances']} instances"
            source = f"posreal search conjecture --report ({shown}), run during this build"
            print(conjecture_report(as_printed(document), source), end="")
        return code
    print(f"seed {args.seed}: {summary['instances']} instances in the results "
          f"({run.evaluated} evaluated now, {run.skipped_done} already done) in {run.elapsed:.1f} s — "
          f"{run.throughput:.1f} instances/s")
    _print_summary(summary, run.records, tau_max)
    for written in certified:
        print(f"certificate: {written}", file=sys.stderr)
    return code


def _run_exhaustive(args, directory, tau_max, bar) -> int:
    from posreal.counterexamples.search_runner import exhaustive
    family = args.family
    run = exhaustive(family, out=args.out, resume=args.resume, tau_max=tau_max, seconds=args.time, progress=bar,
                     executor=executor_of(args), chunk=args.chunk, force=args.force)
    summary = run.summary
    counterexamples = summary["limit_counterexamples"] if summary else []
    wanted = {(c["index"], c["row"]) for c in counterexamples}
    if directory is not None and summary:
        wanted |= {(c["index"], c["row"]) for c in summary["candidates"]}
    slug = str(family).split(":")[0] + "_" + str(family).split(":")[1]
    certified = _certify(wanted, family.instance, slug, directory, args)
    verdict = (f"every instance of {family} evaluated" if run.complete else
               f"{run.done} of {family.size} instances of {family} evaluated; --resume continues the pass")
    document = {"family": str(family), "size": family.size, "done": run.done, "complete": run.complete,
                "verdict": verdict, "tau_max": tau_max, "out": args.out, "evaluated_this_run": run.evaluated,
                "seconds": round(run.elapsed, 3), "instances_per_second": round(run.throughput, 2),
                "summary": summary, "hits": run.hits, "certificates": certified, "executor": run.executor,
                "runs": run.runs}
    code = 1 if counterexamples else 0
    if args.json:
        emit_json(with_provenance(document))
        return code
    print(f"{verdict}: {run.done} instances ({run.evaluated} evaluated now in {run.elapsed:.1f} s — "
          f"{run.throughput:.1f} instances/s on {run.executor['workers']} {run.executor['executor']} worker(s))")
    if summary:
        _print_summary(summary, {h["index"]: h for h in run.hits}, tau_max)
    for written in certified:
        print(f"certificate: {written}", file=sys.stderr)
    return code


def _print_summary(summary: dict, records: dict, tau_max: float) -> None:
    """The text report of a summary; ``records`` holds at least the records with open ties to list."""
    print("instances: " + ", ".join(f"{k} {n}" for k, n in sorted(summary["status"].items())))
    print(format_table(["failing-row class", "rows"], list(summary["failing_rows"].items())))
    ev, lim, agr = summary["open_tie_evidence"], summary["open_tie_limit_verdicts"], summary["open_tie_agreement"]
    print(f"open ties: α_L loses all {sum(ev.values())}; α♯ (closed forms) {lim['won']} won, {lim['lost']} lost, "
          f"{lim['undecided']} undecided; gradient flow (τ ≤ {tau_max:.3g}) {ev['won']} won, {ev['lost']} lost, "
          f"{ev['undecided']} undecided; α♯ vs flow: {agr['agrees']} agree, {agr['disagrees']} disagree, "
          f"{agr['undecided']} undecided")
    print_by_evidence(summary)
    fv = summary["float_tie_evidence"]
    print(f"float near-ties (irrational PEs, tie not certified; α♯ undecided) under the gradient flow: "
          f"{fv['won']} won, {fv['lost']} lost, {fv['undecided']} undecided")
    open_rows = [[k, records[k]["pe"], records[k]["task"], records[k]["train_length"], records[k]["length"], t["row"],
                  records[k]["alpha"], t["alpha_verdict"], _limit_cell(t), _trajectory_cell(t),
                  f"{t['evidence_verdict']} ({t['limit_estimate']:.4g})", t["agreement"]]
                 for k in sorted(records) for t in records[k].get("open_ties", [])]
    if open_rows:
        print("\nevery open-tie row (α_L: margin 0, lost; α♯: closed forms, then with trajectory evidence; the flow):")
        print(format_table(["index", "pe", "task", "L0", "L", "row", "alpha", "α_L", "α♯ (closed form)",
                            "α♯ with trajectory", "flow (tie margin)", "α♯ vs flow"], open_rows))
    if summary["float_candidates"]:
        rows = [[c["index"], c["pe"], c["task"], c["train_length"], c["length"], ",".join(map(str, c["rows_won"])),
                 f"{c['limit_estimate']:.4g}"] for c in summary["float_candidates"]]
        print("float candidates (won near-ties; exactness of the tie not certified):")
        print(format_table(["index", "pe", "task", "L0", "L", "rows won", "lim tie margin (flow)"], rows))
    if summary["candidates"]:
        print(f"\ncandidates against the original Conjecture ({len(summary['candidates'])}): open ties the trained "
              "head wins, so lim acc_L(θ_k) > α_L (expected: the Conjecture is refuted in its open case)")
    if summary["limit_counterexamples"]:
        print(f"\nCOUNTEREXAMPLES to Conjecture′ ({len(summary['limit_counterexamples'])}): α♯ decides the row, "
              "the gradient flow decides it the other way")
        rows = [[c["index"], c["pe"], c["task"], c["train_length"], c["length"], c["row"], c["limit_verdict"],
                 c["evidence_verdict"], f"{c['limit_estimate']:.4g}"] for c in summary["limit_counterexamples"]]
        print(format_table(["index", "pe", "task", "L0", "L", "row", "α♯", "flow", "lim tie margin (flow)"], rows))


def _limit_cell(tie: dict) -> str:
    kind = tie.get("limit_evidence", "exact" if tie["limit_verdict"] != "undecided" else "undecided")
    if tie["limit_verdict"] == "undecided":
        return f"undecided ({tie['limit_reason']})" if tie.get("limit_reason") else "undecided"
    return f"{tie['limit_verdict']} ({kind})"


def _trajectory_cell(tie: dict) -> str:
    after = tie.get("with_trajectory") or {}
    verdict = after.get("verdict", tie["limit_verdict"])
    if verdict == "undecided":
        return f"undecided ({after.get('reason')})" if after.get("reason") else "undecided"
    return f"{verdict} ({after.get('evidence', '?')})"


def print_by_evidence(summary: dict) -> None:
    """The open ties' tally by kind of evidence, before and after trajectory evidence, and the reasons left."""
    closed, after = summary.get("open_tie_by_evidence", {}), summary.get("open_tie_with_trajectory", {})
    kinds = [k for k in ("exact", "certified", "symmetry", "trajectory", "undecided") if k in closed or k in after]
    if not kinds:
        return
    rows = [[k, *(f"{d.get(k, {}).get('won', 0)} / {d.get(k, {}).get('lost', 0)} / {d.get(k, {}).get('undecided', 0)}"
                  for d in (closed, after))] for k in kinds]
    print("α♯ on the open ties by kind of evidence (won / lost / undecided): exact = closed form in ℚ, certified = "
          "closed form with a certified error bound, symmetry = a signed permutation keeps the margin ≡ 0, "
          "trajectory = gradient descent at the project's step, followed to log log t")
    print(format_table(["evidence", "closed forms", "with trajectory evidence"], rows))
    share, both = summary.get("decided_in_closed_form"), summary.get("decided_with_trajectory")
    if share is not None:
        print(f"decided in closed form or by symmetry: {share:.1%}; with trajectory evidence: {both:.1%}")
    reasons = summary.get("open_tie_reasons_with_trajectory") or {}
    if reasons:
        print("still undecided: " + ", ".join(f"{n} {r}" for r, n in sorted(reasons.items())))
