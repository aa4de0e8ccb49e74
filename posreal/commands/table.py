"""``posreal table``: the taxonomy — α_L for every PE × task cell, as text, JSON, CSV or Markdown,
with an optional figure of α_L against L."""

from __future__ import annotations

import csv
import io
import os
import sys

from posreal.commands._common import (emit_json, format_table, geometry_name, int_list, plot_file, progress,
                                      spec_list, train_length, with_provenance)
from posreal.theory.defaults import LENGTHS as DEFAULT_LENGTHS
from posreal.theory.defaults import REGISTRY_PES, REGISTRY_TASKS
from posreal.theory.defaults import TRAIN_LENGTH as DEFAULT_TRAIN_LENGTH
from posreal.theory.errors import SpecError, bad_value
from posreal.theory.taxonomy import taxonomy


def add_parser(sub) -> None:
    p = sub.add_parser("table", help="α_L for every PE × task cell (the taxonomy)",
                       description="α_L for every PE × task cell; defaults: every registry PE and task.",
                       epilog="In the text and Markdown tables, — marks a cell not realizable at L0 (there is no "
                              "θ* to transfer); the CSV leaves it empty and the JSON writes null.")
    p.add_argument("--pes", type=spec_list, default=list(REGISTRY_PES),
                   help="comma-separated PE specs (registry, dual:, table:PATH; default "
                        + ",".join(REGISTRY_PES) + ")")
    p.add_argument("--tasks", type=spec_list, default=list(REGISTRY_TASKS),
                   help="comma-separated task specs (default " + ",".join(REGISTRY_TASKS) + ")")
    p.add_argument("--train-length", type=train_length, default=DEFAULT_TRAIN_LENGTH,
                   help=f"L0 (default {DEFAULT_TRAIN_LENGTH})")
    p.add_argument("--lengths", type=int_list, default=list(DEFAULT_LENGTHS),
                   help="comma-separated lengths L >= L0 (default " + ",".join(map(str, DEFAULT_LENGTHS)) + ")")
    fmt = p.add_mutually_exclusive_group()
    fmt.add_argument("--json", dest="format", action="store_const", const="json", help="print one JSON document")
    fmt.add_argument("--csv", dest="format", action="store_const", const="csv",
                     help="CSV at full precision, ASCII headers (alpha_32, ...)")
    fmt.add_argument("--markdown", dest="format", action="store_const", const="markdown", help="a Markdown table")
    mode = p.add_mutually_exclusive_group()
    mode.add_argument("--exact", action="store_const", dest="mode", const="exact",
                      help="decide every row in ℚ (rational PEs only, e.g. --pes nope,relbias,alibi,colbias)")
    mode.add_argument("--certified", action="store_const", dest="mode", const="certified",
                      help="re-decide borderline float rows with interval arithmetic")
    p.add_argument("--geometry", type=geometry_name, default="l2",
                   help="norm of the selection: l2 (default), linf or l1 (α_L as an interval)")
    p.add_argument("--limit", action="store_true",
                   help="also α♯_L, the interval predicting lim acc_L(θ_k) for gradient descent (ℓ2 geometry only)")
    p.add_argument("--plot", type=plot_file, metavar="FILE.png", help="write α_L against L, one curve per cell")
    p.set_defaults(run=run, format="text", mode="float")


def _alpha_text(doc: dict, L: int) -> str:
    """α_L to 3 decimals; undecided rows are never hidden: "0.051 (+6 undecided)"."""
    value = doc["alpha"].get(str(L))
    if value is None:
        return "—"
    undecided = doc["rows"].get(str(L), {}).get("undecided", 0)
    pair = (doc.get("alpha_interval") or {}).get(str(L))
    text = f"[{pair[0]:.3f}, {pair[1]:.3f}]" if pair is not None and pair[0] != pair[1] else f"{value:.3f}"
    return text + (f" (+{undecided} undecided)" if undecided else "")


def _limit_text(doc: dict, L: int) -> str:
    """α♯_L as its exact interval "[a, b]"; — where the cell has none (not realizable at L0)."""
    entry = (doc.get("limit") or {}).get(str(L))
    return "—" if entry is None else f"[{entry['interval_exact'][0]}, {entry['interval_exact'][1]}]"


def _cell_row(doc: dict, lengths: list[int], limit: bool = False) -> list[str]:
    alphas = [_alpha_text(doc, L) for L in lengths]
    limits = [_limit_text(doc, L) for L in lengths] if limit else []
    return [doc["pe"], doc["pe_kind"], doc["task"], doc["task_class"], "yes" if doc["realizable"] else "no", *alphas,
            *limits]


def _csv_header(lengths: list[int], interval: bool, limit: bool) -> list[str]:
    """ASCII column names: alpha_L (or alpha_low_L, alpha_high_L), undecided_L, alpha_limit_low_L, ..."""
    alphas = ([f"alpha_{b}_{L}" for L in lengths for b in ("low", "high")] if interval
              else [f"alpha_{L}" for L in lengths])
    limits = [f"alpha_limit_{b}_{L}" for L in lengths for b in ("low", "high")] if limit else []
    return ["pe", "kind", "task", "class", "realizable_at_L0", *alphas, *[f"undecided_{L}" for L in lengths], *limits]


def _csv_row(doc: dict, lengths: list[int], interval: bool, limit: bool) -> list[str]:
    """Full precision: exact values as "p/q" when the mode has them, floats as Python's round-trip repr;
    an empty field where the cell has no value (not realizable at L0)."""
    def number(value) -> str:
        return "" if value is None else repr(value) if isinstance(value, float) else str(value)
    out = [doc["pe"], doc["pe_kind"], doc["task"], doc["task_class"], "yes" if doc["realizable"] else "no"]
    for L in lengths:
        key = str(L)
        if interval:
            pair = (doc.get("alpha_interval_exact") or doc.get("alpha_interval") or {}).get(key)
            out += ["", ""] if pair is None else [number(pair[0]), number(pair[1])]
        else:
            exact = (doc.get("alpha_exact") or {}).get(key)
            out.append(exact if exact is not None else number(doc["alpha"].get(key)))
    out += [number(doc["rows"].get(str(L), {}).get("undecided")) for L in lengths]
    if limit:
        for L in lengths:
            entry = (doc.get("limit") or {}).get(str(L))
            out += ["", ""] if entry is None else [str(v) for v in entry["interval_exact"]]
    return out


def run(args) -> int:
    if args.plot and not args.plot.lower().endswith(".png"):
        raise SpecError(f"invalid plot file {args.plot!r}; accepted: a path ending in .png")
    if args.plot and not os.path.isdir(os.path.dirname(os.path.abspath(args.plot))):
        raise SpecError(f"invalid plot file {args.plot!r}: its directory does not exist; accepted: a .png path "
                        "in an existing directory")
    lengths = sorted(set(args.lengths))
    quiet = args.format == "json"
    if args.limit and args.geometry != "l2":
        raise bad_value("option --limit with geometry", args.geometry,
                        "l2 (α♯ needs the second-order term of gradient descent, derived for ℓ2 only)")
    cells = taxonomy(args.pes, args.tasks, args.train_length, lengths, geometry=args.geometry,
                     progress=lambda cells: progress(cells, total=len(cells), desc="cells", quiet=quiet),
                     mode=args.mode, limit=args.limit)
    docs = [cell.to_json() for cell in cells]
    header = ["pe", "kind", "task", "class", "realizable at L0", *[f"α_{L}" for L in lengths],
              *([f"α♯_{L}" for L in lengths] if args.limit else [])]
    rows = [_cell_row(d, lengths, args.limit) for d in docs]
    if args.format == "json":
        extra = {"mode": args.mode} if args.mode != "float" else {}
        emit_json(with_provenance({"train_length": args.train_length, "lengths": lengths,
                                   "geometry": args.geometry, "cells": docs, **extra}))
    elif args.format == "csv":
        interval = args.geometry != "l2"
        buf = io.StringIO()
        writer = csv.writer(buf, lineterminator="\n")
        writer.writerow(_csv_header(lengths, interval, args.limit))
        writer.writerows(_csv_row(d, lengths, interval, args.limit) for d in docs)
        sys.stdout.write(buf.getvalue())
    elif args.format == "markdown":
        print("| " + " | ".join(header) + " |")
        print("|" + "---|" * len(header))
        for r in rows:
            print("| " + " | ".join(r) + " |")
        if any("—" in a for r in rows for a in r):
            print("\n—: not realizable at L0 (no θ* to transfer)")
    else:
        if args.geometry == "l2":
            print(f"α_L(Φ, τ; L0 = {args.train_length}) — computed from θ* before any training")
        else:
            print(f"α_L(Φ, τ; L0 = {args.train_length}) in geometry {args.geometry} — [every, some] optimal θ "
                  "of the face, one number when they agree; computed before any training")
        print(format_table(header, rows))
        if any("—" in a for r in rows for a in r):
            print("—: not realizable at L0 (no θ* to transfer)")
        if args.limit:
            print("α♯_L: predicted lim acc_L(θ_k) for gradient descent, [wins, wins + undecided] / rows")
        if any("undecided" in a for r in rows for a in r):
            print("(+k undecided): rows whose float margin is within tolerance; try posreal alpha --certified")
    if args.plot:
        from posreal.theory.plots import plot_taxonomy
        plot_taxonomy(docs, lengths, args.plot)
        print(f"wrote {args.plot}", file=sys.stderr)
    return 0
