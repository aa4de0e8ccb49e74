"""``posreal alpha --task induction`` and ``posreal table --tasks induction``: α_L^ind of the induction circuit
(layer 1 = θ*(Φ, offset:1; L0) under T_L^σ, layer 2 = content) beside α_L(copy) and α_L(offset:1).

The induction layout needs odd lengths n = 2m + 1: an even requested length is refused with one line; when
``--lengths`` is left at its default (32, 64, 128, 256) the odd lengths 33, 65, 129, 257 are used and a note
on stderr says so.  ``match`` is a token task with no α (its rows depend on the tokens, not on a transferred
head): refused with one line, as are options that α^ind does not have (``--geometry``, ``--limit``,
``learned:d``).
"""

from __future__ import annotations

import sys

from posreal.commands._common import emit_json, format_table, load_function_pes, with_provenance
from posreal.theory.defaults import LENGTHS as DEFAULT_LENGTHS
from posreal.theory.errors import bad_value

ACCEPTED = "induction (α^ind of the two-layer circuit; match is a token task with no α)"


def _lengths(requested: list[int]) -> list[int]:
    """The odd lengths to use: the default even lengths become L + 1 (with a note on stderr)."""
    from posreal.theory.induction import INDUCTION_LENGTHS, check_induction_lengths
    if list(requested) == list(DEFAULT_LENGTHS):
        print(f"note: induction needs n = 2m + 1; default lengths {','.join(map(str, INDUCTION_LENGTHS))}",
              file=sys.stderr)
        return list(INDUCTION_LENGTHS)
    return check_induction_lengths(requested)


def _check_task(spec: str) -> None:
    from posreal.theory.token_tasks import parse_token_task   # numpy: only when a token task is asked for
    task = parse_token_task(spec)                         # a malformed token task: one line
    if task.name != "induction":
        raise bad_value("task", spec, ACCEPTED)


def _refuse_options(args, command: str) -> None:
    from posreal.theory.pe_specs import is_learned
    from posreal.theory.geometry import SelectionGeometry, Use
    if getattr(args, "geometry", None) is not None:
        geometry = SelectionGeometry.parse(args.geometry)
        geometry.require(Use.INDUCTION, f"option --geometry for {command} --task induction")
    if getattr(args, "limit", False):
        raise bad_value(f"option --limit for {command} --task induction", "--limit",
                        "α^ind without --limit (α♯ is derived for one head)")
    for name in ("seed", "samples"):
        if getattr(args, name, None) is not None:
            raise bad_value(f"option --{name} for task", "induction", "no --seed/--samples (α^ind has no randomness)")
    for pe in getattr(args, "pes", None) or [args.pe]:
        if is_learned(pe):
            raise bad_value("PE for task induction", pe, "a linear PE (learned:d has no selection θ*)")


def run_alpha(args) -> int:
    """``posreal alpha --task induction``."""
    from posreal.theory.induction import induction_alpha
    _check_task(args.task)
    load_function_pes([args.pe], args.pe_kind, args.pe_width)
    _refuse_options(args, "posreal alpha")
    lengths = _lengths(args.lengths)
    result = induction_alpha(args.pe, args.train_length, lengths, args.mode, extension=args.extension)
    document = result.to_json()
    if args.json:
        emit_json(with_provenance(document))
        return 0
    head = (f"{document['pe']} · induction (layer 1: offset:1) · L0 = {args.train_length} · mode {document['mode']}"
            f" · extension {document['extension']}")
    if not result.realizable:
        print(f"{head}\nlayer 1: {result.offset1.selection.status} at L0: {result.offset1.selection.reason}")
        return 0
    rows = []
    for L in result.lengths:
        c = document["rows"][str(L)]
        exact = document.get("alpha_exact", {}).get(str(L))
        rows.append([L, exact or f"{document['alpha'][str(L)]:.4f}", c["realized"], c["failed"], c["undecided"],
                     c["total"], c["failed_a"], c["failed_b"], c["failed_c"],
                     _fmt(document["alpha_copy"][str(L)]), _fmt(document["alpha_offset1"][str(L)])])
    print(head)
    print(format_table(["L", "alpha_ind", "realized", "failed", "undecided", "total", "fail (a)", "fail (b)",
                        "fail (c)", "alpha(copy)", "alpha(offset:1)"], rows))
    print("row i (s = i - m) needs (a) route1(s+1) = s, (b) route1(i) != i, (c) no other key j in [s, i] routes "
          "to s; --json lists the failed rows")
    return 0


def _fmt(value: float | None) -> str:
    return "—" if value is None else f"{value:.4f}"


def run_table(args) -> int:
    """``posreal table --tasks induction``: α^ind for every requested PE (one row per PE)."""
    from posreal.theory.errors import SpecError
    from posreal.theory.induction import induction_alpha
    from posreal.theory.token_tasks import TOKEN_TASK_FORMS
    if any(t.strip() != "induction" for t in args.tasks):
        for t in args.tasks:
            if t.strip().partition(":")[0] in ("match", "induction"):
                _check_task(t)
        raise bad_value("tasks with induction", ",".join(args.tasks),
                        f"--tasks induction alone (positional tasks in another run; token tasks: {TOKEN_TASK_FORMS})")
    if args.extension not in (None, "none", "pi", "ntk", "yarn") and not str(args.extension).startswith("factors:"):
        raise bad_value("extension for --tasks induction", args.extension, "none, pi, ntk, yarn or factors:FILE")
    if getattr(args, "plot", None):
        raise bad_value("option --plot for --tasks induction", args.plot, "no --plot (a table only)")
    if args.format not in ("text", "json"):
        raise bad_value("format for --tasks induction", f"--{args.format}", "the text table or --json")
    load_function_pes(args.pes, args.pe_kind, args.pe_width)
    _refuse_options(args, "posreal table")
    lengths = _lengths(args.lengths)
    extension = args.extension or "none"
    docs = []
    for pe in args.pes:
        try:
            docs.append(induction_alpha(pe, args.train_length, lengths, args.mode, extension=extension).to_json())
        except SpecError as err:
            if "extension" not in str(err):
                raise
            docs.append({"pe": pe, "task": "induction", "extension": extension, "applicable": False,
                         "reason": str(err), "alpha": {str(L): None for L in lengths}})
    if args.format == "json":
        emit_json(with_provenance({"train_length": args.train_length, "lengths": lengths, "task": "induction",
                                   "extension": extension, "cells": docs}))
        return 0
    rows = []
    for d in docs:
        cells = []
        for L in lengths:
            if d.get("applicable") is False:
                cells.append("n/a")
                continue
            a = d["alpha"][str(L)]
            cells.append("—" if a is None else f"{a:.3f} (copy {_fmt(d['alpha_copy'][str(L)])}, "
                                                f"offset:1 {_fmt(d['alpha_offset1'][str(L)])})")
        rows.append([d["pe"], *cells])
    print(f"induction · layer 1 offset:1 · L0 = {args.train_length} · extension {extension}")
    print(format_table(["pe", *[f"α^ind_{L}" for L in lengths]], rows))
    print("— : layer 1 (offset:1) not realizable at L0; n/a: the extension does not act on the PE")
    return 0
