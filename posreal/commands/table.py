"""``posreal table``: the taxonomy — α_L for every PE × task cell, as text, JSON, CSV or Markdown,
with an optional figure of α_L against L."""

from __future__ import annotations

import csv
import io
import os
import sys

from posreal.commands._common import (add_function_pe_options, emit_json, format_table, geometry_name, int_list,
                                      load_function_pes, plot_file, progress, spec_list, train_length, with_provenance)
from posreal.theory.defaults import LENGTHS as DEFAULT_LENGTHS
from posreal.theory.defaults import REGISTRY_TASKS, TAXONOMY_PES
from posreal.theory.defaults import TRAIN_LENGTH as DEFAULT_TRAIN_LENGTH
from posreal.theory.errors import SpecError
from posreal.theory.taxonomy import taxonomy


def add_parser(sub) -> None:
    p = sub.add_parser("table", help="α_L for every PE × task cell (the taxonomy)",
                       description="α_L for every PE × task cell; defaults: every registry PE (the project's "
                                   "idealized ones and the published ones) and every registry task.")
    p.add_argument("--pes", type=spec_list, default=list(TAXONOMY_PES),
                   help="comma-separated PE specs (registry, dual:, table:PATH, py:MODULE:FUNCTION); default: the "
                        "project's idealized PEs and the published ones")
    add_function_pe_options(p)
    p.add_argument("--tasks", type=spec_list, default=list(REGISTRY_TASKS), help="comma-separated task specs")
    p.add_argument("--train-length", type=train_length, default=DEFAULT_TRAIN_LENGTH, help="L0 (default 16)")
    p.add_argument("--lengths", type=int_list, default=list(DEFAULT_LENGTHS), help="comma-separated lengths")
    fmt = p.add_mutually_exclusive_group()
    for name in ("json", "csv", "markdown"):
        fmt.add_argument(f"--{name}", dest="format", action="store_const", const=name, help=f"{name} output")
    p.add_argument("--geometry", type=geometry_name, default="l2",
                   help="norm of the selection: l2 (default), linf or l1 (α_L as an interval)")
    p.add_argument("--plot", type=plot_file, metavar="FILE.png", help="write α_L against L, one curve per cell")
    p.set_defaults(run=run, format="text")


def _alpha_text(doc: dict, L: int) -> str:
    """α_L to 3 decimals; undecided rows are never hidden: "0.051 (+6 undecided)"."""
    value = doc["alpha"].get(str(L))
    if value is None:
        return "—"
    undecided = doc["rows"].get(str(L), {}).get("undecided", 0)
    pair = (doc.get("alpha_interval") or {}).get(str(L))
    text = f"[{pair[0]:.3f}, {pair[1]:.3f}]" if pair is not None and pair[0] != pair[1] else f"{value:.3f}"
    return text + (f" (+{undecided} undecided)" if undecided else "")


def _cell_row(doc: dict, lengths: list[int]) -> list[str]:
    alphas = [_alpha_text(doc, L) for L in lengths]
    return [doc["pe"], doc["pe_kind"], doc["task"], doc["task_class"], "yes" if doc["realizable"] else "no", *alphas]


def run(args) -> int:
    if args.plot and not args.plot.lower().endswith(".png"):
        raise SpecError(f"invalid plot file {args.plot!r}; accepted: a path ending in .png")
    if args.plot and not os.path.isdir(os.path.dirname(os.path.abspath(args.plot))):
        raise SpecError(f"invalid plot file {args.plot!r}: its directory does not exist; accepted: a .png path "
                        "in an existing directory")
    load_function_pes(args.pes, args.pe_kind, args.pe_width)
    lengths = sorted(set(args.lengths))
    quiet = args.format == "json"
    cells = taxonomy(args.pes, args.tasks, args.train_length, lengths, geometry=args.geometry,
                     progress=lambda cells: progress(cells, total=len(cells), desc="cells", quiet=quiet))
    docs = [cell.to_json() for cell in cells]
    header = ["pe", "kind", "task", "class", "realizable at L0", *[f"α_{L}" for L in lengths]]
    rows = [_cell_row(d, lengths) for d in docs]
    if args.format == "json":
        emit_json(with_provenance({"train_length": args.train_length, "lengths": lengths,
                                   "geometry": args.geometry, "cells": docs}))
    elif args.format == "csv":
        buf = io.StringIO()
        writer = csv.writer(buf, lineterminator="\n")
        writer.writerow(header)
        writer.writerows(rows)
        sys.stdout.write(buf.getvalue())
    elif args.format == "markdown":
        print("| " + " | ".join(header) + " |")
        print("|" + "---|" * len(header))
        for r in rows:
            print("| " + " | ".join(r) + " |")
    else:
        if args.geometry == "l2":
            print(f"α_L(Φ, τ; L0 = {args.train_length}) — computed from θ* before any training")
        else:
            print(f"α_L(Φ, τ; L0 = {args.train_length}) in geometry {args.geometry} — [every, some] optimal θ "
                  "of the face, one number when they agree; computed before any training")
        print(format_table(header, rows))
        if any("undecided" in a for r in rows for a in r):
            print("(+k undecided): rows whose float margin is within tolerance; try posreal alpha --certified")
    if args.plot:
        from posreal.theory.plots import plot_taxonomy
        plot_taxonomy(docs, lengths, args.plot)
        print(f"wrote {args.plot}", file=sys.stderr)
    return 0
