"""``posreal ceiling``: the class ceiling α*_n — the most rows of a task any kernel of a class
realizes at one length (MaxSMT with z3, optimality certified, witness re-counted in ℚ)."""

from __future__ import annotations

import sys

from posreal.commands._common import (add_function_pe_options, emit_json, length, load_function_pes, positive_float,
                                      train_length, with_provenance)
from posreal.theory.defaults import KERNEL_CLASSES, MAX_CEILING_LENGTH
from posreal.theory.defaults import SMT_TIMEOUT as DEFAULT_TIMEOUT
from posreal.theory.defaults import TRAIN_LENGTH as DEFAULT_TRAIN_LENGTH


def add_parser(sub) -> None:
    p = sub.add_parser("ceiling", help="class ceiling α*_n of a kernel class on a task (z3 MaxSMT)",
                       description="Maximum number of scored rows of TASK at length N that one kernel of the "
                                   "class realizes: free relative / column kernels, or a linear PE with free θ.")
    cls = p.add_mutually_exclusive_group(required=True)
    cls.add_argument("--kernel", choices=KERNEL_CLASSES, help="a free relative or column kernel")
    cls.add_argument("--pe", help="a linear PE with free parameters θ, e.g. clipped, t5, rope:16, table:PATH, "
                                  "py:MODULE:FUNCTION (with --pe-kind, --pe-width)")
    add_function_pe_options(p)
    p.add_argument("--task", required=True, help="task spec, e.g. copy, middle, position:1")
    p.add_argument("--length", required=True, type=length, help=f"grid length n (1..{MAX_CEILING_LENGTH})")
    p.add_argument("--train-length", type=train_length, default=DEFAULT_TRAIN_LENGTH,
                   help=f"L0, for PEs whose features depend on it (default {DEFAULT_TRAIN_LENGTH})")
    p.add_argument("--timeout", type=positive_float, default=DEFAULT_TIMEOUT,
                   help=f"seconds per z3 query (default {DEFAULT_TIMEOUT:g})")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.set_defaults(run=run)


def run(args) -> int:
    from posreal.checks.smt.ceiling import compute_ceiling
    load_function_pes([args.pe], args.pe_kind, args.pe_width)
    result = compute_ceiling(args.task, args.length, kernel=args.kernel, pe=args.pe,
                             train_length=args.train_length, timeout=args.timeout)
    ok = result.optimal == "proved" and result.verified
    if args.json:
        emit_json(with_provenance(result.to_json()))
    else:
        print(f"{result.kernel} kernels · {result.task} · n = {result.length}: ceiling "
              f"{result.realized}/{result.total} "
              f"({'optimal, proved' if result.optimal == 'proved' else result.optimal})")
        print(f"realized rows: {result.realized_rows}")
        print(f"witness ({result.features}): {[str(w) for w in result.best_kernel]}")
        print(f"witness re-counted in ℚ without z3: {'agrees' if result.verified else 'DISAGREES'}; "
              f"{result.seconds:.3g} s")
        for note in result.notes + ([result.reason] if result.reason else []):
            print(f"note: {note}")
    if not ok:
        print(f"posreal ceiling: not certified: optimality {result.optimal}"
              + (f" ({result.reason})" if result.reason else "") + f", witness verified {result.verified}",
              file=sys.stderr)
    return 0 if ok else 1
