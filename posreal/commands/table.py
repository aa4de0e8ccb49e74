"""``posreal table``: the taxonomy — α_L for every PE × task cell, as text, JSON, CSV or Markdown,
with an optional figure of α_L against L.  ``--extension METHOD`` evaluates every cell under one
length-extension method, ``--extension all`` under every named method side by side; a cell whose PE
the method cannot act on shows ``n/a`` (its reason is in the JSON).  ``--long`` writes one row per cell and
method instead (text, Markdown or CSV).  Standard output holds only the requested document; messages such
as ``wrote FILE.png`` go to standard error.

The text output fits a terminal of :data:`TEXT_WIDTH` columns (:func:`fitted_table`, :func:`_prose`): a table
wider than that is cut into consecutive blocks of its value columns, each repeating the columns that name the
cell; ``--extension all`` prints the methods side by side when that fits and one table per method otherwise;
prose lines are wrapped.  Only a single cell wider than the terminal (a long ``table:PATH`` spec) can exceed
it.  JSON, CSV and Markdown are never cut."""

from __future__ import annotations

import argparse
import csv
import io
import os
import sys
import textwrap
from functools import partial

from posreal.commands._common import (add_force_option, add_function_pe_options, check_new_output, emit_json,
                                      format_table, geometry_name, int_list, load_function_pes, plot_file, progress,
                                      spec_list, train_length, with_provenance)
from posreal.theory.defaults import LENGTHS as DEFAULT_LENGTHS
from posreal.theory.defaults import REGISTRY_TASKS
from posreal.theory.defaults import TRAIN_LENGTH as DEFAULT_TRAIN_LENGTH
from posreal.theory.errors import SpecError, quote
from posreal.theory.geometry import SelectionGeometry, Use, described, linear_forms
from posreal.theory.taxonomy import taxonomy

ALL_FORMS = "none, pi, ntk, yarn, factors:FILE, or all (none, pi, ntk and yarn side by side)"
TEXT_WIDTH = 100    # columns: every line of the text output fits a terminal this wide
CELL_COLUMNS = 5    # pe, kind, task, class, realizable: the columns that name a cell, repeated in each block
TEXT_HEADERS = {"realizable at L0": "realizable"}   # shorter in the text table (L0 is in its first line)


def add_parser(sub) -> None:
    p = sub.add_parser("table", help="α_L for every PE × task cell (the taxonomy)",
                       description="α_L for every PE × task cell; defaults: every registry PE (the project's "
                                   "idealized ones and the published ones) and every registry task.",
                       epilog="In the text and Markdown tables, — marks a cell not realizable at L0 (there is no "
                              "θ* to transfer); the CSV leaves it empty and the JSON writes null.")
    p.add_argument("--pes", type=spec_list, default=None,
                   help="comma-separated PE specs (registry, dual:, table:PATH, py:MODULE:FUNCTION); default: the "
                        "project's idealized PEs and the published ones")
    add_function_pe_options(p)
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
                   help=f"norm of the selection: {described()} ({linear_forms()}: α_L as an interval)")
    p.add_argument("--limit", action="store_true",
                   help="also α♯_L, the interval predicting lim acc_L(θ_k) for gradient descent (ℓ2 geometry only)")
    p.add_argument("--extension", type=extension_choice, default=None, metavar="METHOD",
                   help="length extension at evaluation: none, pi, ntk, yarn, factors:FILE, or all (every named "
                        "method side by side); default: plain re-evaluation")
    p.add_argument("--long", action="store_true",
                   help="with --extension: one row per cell and method (columns α_L per length) instead of the "
                        "methods side by side; narrow text, and a tidy CSV for pipelines")
    p.add_argument("--plot", type=plot_file, metavar="FILE.png", help="write α_L against L, one curve per cell")
    add_force_option(p, "--plot file")
    from posreal.theory.taxonomy_report import PARTS
    p.add_argument("--report", choices=tuple(PARTS), default=None, metavar="PART",
                   help="print one table of the docs' Taxonomy or Length extension page, in Markdown as the page "
                        "shows it, over the registry at the default lengths: " + ", ".join(PARTS))
    p.set_defaults(run=run, format="text", mode="float")
    # what --report fixes: the page's tables are over the registry at these defaults, so another value is refused
    p.set_defaults(report_fixed={dest: p.get_default(dest) for dest in REPORT_FIXED})


REPORT_FIXED = ("tasks", "train_length", "lengths", "geometry", "mode")


def extension_choice(text: str) -> str:
    """``--extension``: ``all`` or one method spec (checked, and a factors file read, when the command runs)."""
    if not text or len(text) > 4096:
        raise argparse.ArgumentTypeError(f"invalid extension {quote(text)}; accepted: {ALL_FORMS}")
    return text


def _alpha_text(doc: dict, L: int) -> str:
    """α_L to 3 decimals; undecided rows are never hidden: "0.051 (+6 undecided)"; ``n/a`` where the
    extension does not apply to the PE."""
    if doc.get("applicable") is False:
        return "n/a"
    value = doc["alpha"].get(str(L))
    if value is None:
        return "—"
    undecided = doc["rows"].get(str(L), {}).get("undecided", 0)
    pair = (doc.get("alpha_interval") or {}).get(str(L))
    text = f"[{pair[0]:.3f}, {pair[1]:.3f}]" if pair is not None and pair[0] != pair[1] else f"{value:.3f}"
    return text + (f" (+{undecided} undecided)" if undecided else "")


def _realizable(doc: dict) -> str:
    return "yes" if doc["realizable"] else "no"


def _limit_text(doc: dict, L: int) -> str:
    """α♯_L as its exact interval "[a, b]"; — where the cell has none (not realizable at L0)."""
    entry = (doc.get("limit") or {}).get(str(L))
    return "—" if entry is None else f"[{entry['interval_exact'][0]}, {entry['interval_exact'][1]}]"


def _cell_row(doc: dict, lengths: list[int], limit: bool = False) -> list[str]:
    alphas = [_alpha_text(doc, L) for L in lengths]
    limits = [_limit_text(doc, L) for L in lengths] if limit else []
    return [doc["pe"], doc["pe_kind"], doc["task"], doc["task_class"], _realizable(doc), *alphas, *limits]


def _csv_header(lengths: list[int], geometry: SelectionGeometry, limit: bool) -> list[str]:
    """ASCII column names: alpha_L (or alpha_low_L, alpha_high_L: the geometry's), undecided_L, alpha_limit_low_L,
    ..."""
    alphas = [name for L in lengths for name in geometry.csv_alpha_header(L)]
    limits = [f"alpha_limit_{b}_{L}" for L in lengths for b in ("low", "high")] if limit else []
    return ["pe", "kind", "task", "class", "realizable_at_L0", *alphas, *[f"undecided_{L}" for L in lengths], *limits]


def _csv_row(doc: dict, lengths: list[int], geometry: SelectionGeometry, limit: bool) -> list[str]:
    """Full precision: exact values as "p/q" when the mode has them, floats as Python's round-trip repr;
    an empty field where the cell has no value (not realizable at L0)."""
    def number(value) -> str:
        return "" if value is None else repr(value) if isinstance(value, float) else str(value)
    out = [doc["pe"], doc["pe_kind"], doc["task"], doc["task_class"], _realizable(doc)]
    for L in lengths:
        out += geometry.csv_alpha(doc, L)
    out += [number(doc["rows"].get(str(L), {}).get("undecided")) for L in lengths]
    if limit:
        for L in lengths:
            entry = (doc.get("limit") or {}).get(str(L))
            out += ["", ""] if entry is None else [str(v) for v in entry["interval_exact"]]
    return out


def _methods(args) -> list[str]:
    """The extension specs asked for (``all``: every named method)."""
    from posreal.theory.extension import EXTENSIONS
    return list(EXTENSIONS) if args.extension == "all" else [args.extension]


def _side_by_side(by_method: dict[str, list[dict]], lengths: list[int], per_length: bool) -> tuple[list, list]:
    """Header and rows with the methods side by side: one column per method holding α at every length
    (``per_length``: one column per method and length, for CSV)."""
    methods = list(by_method)
    first = by_method[methods[0]]
    realizable: list[str] = []
    for n in range(len(first)):   # realizability at L0 does not depend on the method (θ* is selected without it)
        known = [by_method[m][n] for m in methods if by_method[m][n].get("applicable") is not False]
        realizable.append(_realizable(known[0]) if known else "n/a")
    if per_length:
        header = ["pe", "kind", "task", "class", "realizable at L0",
                  *[f"α_{L} ({m})" for m in methods for L in lengths]]
        rows = [[d["pe"], d["pe_kind"], d["task"], d["task_class"], realizable[n],
                 *[_alpha_text(by_method[m][n], L) for m in methods for L in lengths]] for n, d in enumerate(first)]
    else:
        header = ["pe", "kind", "task", "class", "realizable at L0", *methods]
        rows = [[d["pe"], d["pe_kind"], d["task"], d["task_class"], realizable[n],
                 *[" / ".join(_alpha_text(by_method[m][n], L) for L in lengths) for m in methods]]
                for n, d in enumerate(first)]
    return header, rows


def _one_method(docs: list[dict], lengths: list[int]) -> tuple[list, list]:
    """Header and rows of the table under one method: α_L per length, ``n/a`` where it does not act on the PE."""
    header = ["pe", "kind", "task", "class", "realizable at L0", *[f"α_{L}" for L in lengths]]
    rows = [_cell_row(d, lengths) if d.get("applicable") is not False else
            [d["pe"], d["pe_kind"], d["task"], d["task_class"], "n/a", *["n/a"] * len(lengths)] for d in docs]
    return header, rows


def _side_by_side_fits(by_method: dict[str, list[dict]], lengths: list[int]) -> bool:
    """Whether the text table with the methods side by side is at most :data:`TEXT_WIDTH` columns wide."""
    header, rows = _side_by_side(by_method, lengths, per_length=False)
    text = format_table([TEXT_HEADERS.get(h, h) for h in header], rows)
    return max(len(line) for line in text.splitlines()) <= TEXT_WIDTH


def _print_per_method(args, by_method: dict[str, list[dict]], lengths: list[int], note: str) -> None:
    """``--extension all`` as text when the side-by-side table is too wide: one table per method (each the table
    ``--extension METHOD`` prints), headed by the method's name, then the footnotes once."""
    print(_prose(_preamble(args, list(by_method)) + f"\none table per method (side by side they would be wider "
                 f"than {TEXT_WIDTH} columns; --long: one row per cell and method)"))
    every: list[list[str]] = []
    for m, docs in by_method.items():
        header, rows = _one_method(docs, lengths)
        print(f"\nextension {m}:")
        print(fitted_table([TEXT_HEADERS.get(h, h) for h in header], rows, CELL_COLUMNS))
        every += rows
    _print_notes(every, note)


def _cell_major(by_method: dict[str, list[dict]]) -> list[tuple[int, str]]:
    """(cell index, method) pairs, cell by cell: a cell's methods sit on consecutive rows."""
    cells = len(next(iter(by_method.values())))
    return [(n, m) for n in range(cells) for m in by_method]


def _long(by_method: dict[str, list[dict]], lengths: list[int], csv_form: bool,
          geometry: SelectionGeometry) -> tuple[list, list]:
    """Header and rows in long form: one row per cell and method, one column per length.  Text and
    Markdown show α_L as ``_alpha_text`` does (``n/a`` where the method does not act on the PE); the CSV
    has ASCII headers, full-precision values (an interval's two ends in ℓ∞ and ℓ1), an ``applicable``
    column and empty fields where there is no value, as the plain CSV."""
    header = ["pe", "kind", "task", "class", "extension"]
    rows: list[list[str]] = []
    if csv_form:
        header += ["applicable", *_csv_header(lengths, geometry, limit=False)[4:]]
        width = len(header) - len(["pe", "kind", "task", "class", "extension", "applicable", "realizable"])
    else:
        header += ["realizable at L0", *[f"α_{L}" for L in lengths]]
    for n, method in _cell_major(by_method):
        d = by_method[method][n]
        applicable = d.get("applicable") is not False
        if csv_form:
            values = (_csv_row(d, lengths, geometry, limit=False)[4:] if applicable else ["n/a", *[""] * width])
            rows.append([d["pe"], d["pe_kind"], d["task"], d["task_class"], method,
                         "yes" if applicable else "no", *values])
        else:
            rows.append([d["pe"], d["pe_kind"], d["task"], d["task_class"], method,
                         _realizable(d) if applicable else "n/a", *[_alpha_text(d, L) for L in lengths]])
    return header, rows


def fitted_table(header: list[str], rows: list[list[str]], keys: int, width: int = TEXT_WIDTH) -> str:
    """``format_table`` cut to ``width`` columns: when the whole table is wider, its value columns (those after
    the first ``keys``) go into consecutive blocks, as many per block as fit beside the ``keys`` columns (at
    least one), each block a table of its own headed by the ``keys`` columns; blocks are separated by a blank
    line.  A table that fits is returned as ``format_table`` writes it."""
    cells = [[str(c) for c in r] for r in rows]
    widths = [max([len(str(h))] + [len(r[n]) for r in cells]) for n, h in enumerate(header)]   # one per column

    def span(columns: list[int]) -> int:            # a line's length: the columns and two spaces between each
        return sum(widths[n] for n in columns) + 2 * (len(columns) - 1)

    key, values = list(range(keys)), list(range(keys, len(header)))
    if span(key + values) <= width or len(values) <= 1:
        return format_table(header, cells)
    greedy: list[list[int]] = [[]]                  # as many columns a block as fit: the fewest blocks
    for n in values:
        if greedy[-1] and span(key + greedy[-1] + [n]) > width:
            greedy.append([])
        greedy[-1].append(n)
    size = -(-len(values) // len(greedy))           # as many blocks, evenly filled, when that fits too
    even = [values[k:k + size] for k in range(0, len(values), size)]
    blocks = even if len(even) == len(greedy) and all(span(key + b) <= width for b in even) else greedy
    return "\n\n".join(format_table([header[n] for n in key + b], [[r[n] for n in key + b] for r in cells])
                       for b in blocks)


def _prose(text: str) -> str:
    """A line of explanation wrapped to :data:`TEXT_WIDTH` (names such as ``alibi-fixed`` are not broken)."""
    return "\n".join(textwrap.fill(line, TEXT_WIDTH, break_on_hyphens=False, break_long_words=False)
                     for line in text.split("\n"))


def run(args) -> int:
    if args.report is not None:
        from posreal.theory.taxonomy_report import report
        changed = any(getattr(args, dest) != value for dest, value in args.report_fixed.items())
        if changed or args.pes or args.format != "text" or args.plot or args.extension or args.limit or args.long:
            raise SpecError("option --report PART prints a page's table over the registry at the default lengths; "
                            "it takes none of --pes, --tasks, --train-length, --lengths, --geometry, --exact, "
                            "--certified, --json, --csv, --markdown, --plot, --extension, --limit, --long")
        print(report(args.report), end="")
        return 0
    if args.long and args.extension is None:
        raise SpecError("option --long needs --extension METHOD (it writes one row per cell and method); "
                        f"accepted methods: {ALL_FORMS}")
    from posreal.theory.token_tasks import is_token_task
    if args.pes is None:                              # the taxonomy's PEs, from the declarations (loads numpy)
        from posreal.theory.defaults import TAXONOMY_PES
        args.pes = list(TAXONOMY_PES)
    if any(is_token_task(t) for t in args.tasks):   # token tasks (induction): posreal.commands.induction
        from posreal.commands.induction import run_table
        return run_table(args)
    if args.plot and not args.plot.lower().endswith(".png"):
        raise SpecError(f"invalid plot file {args.plot!r}; accepted: a path ending in .png")
    if args.plot and not os.path.isdir(os.path.dirname(os.path.abspath(args.plot))):
        raise SpecError(f"invalid plot file {args.plot!r}: its directory does not exist; accepted: a .png path "
                        "in an existing directory")
    check_new_output(args.plot, "--plot file", args.force)
    load_function_pes(args.pes, args.pe_kind, args.pe_width)
    if args.extension is not None:
        return run_extensions(args)
    lengths = sorted(set(args.lengths))
    quiet = args.format == "json"
    geometry = SelectionGeometry.parse(args.geometry)
    if args.limit:
        geometry.require(Use.LIMIT, "option --limit with geometry")
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
        buf = io.StringIO()
        writer = csv.writer(buf, lineterminator="\n")
        writer.writerow(_csv_header(lengths, geometry, args.limit))
        writer.writerows(_csv_row(d, lengths, geometry, args.limit) for d in docs)
        sys.stdout.write(buf.getvalue())
    else:
        note = ("α♯_L: predicted lim acc_L(θ_k) for gradient descent, [wins, wins + undecided] / rows"
                if args.limit else "")
        _print_rows(args, header, rows, _preamble(args), note)
    if args.plot:
        from posreal.plots import plot_taxonomy
        plot_taxonomy(docs, lengths, args.plot, force=args.force)
        print(f"wrote {args.plot}", file=sys.stderr)
    return 0


def _preamble(args, methods: list[str] | None = None) -> str:
    text = SelectionGeometry.parse(args.geometry).table_preamble(args.train_length)
    if methods is not None:
        text += f"\nθ selected at L0 without extension, evaluated under {', '.join(methods)}"
    return text


def _print_rows(args, header: list, rows: list, preamble: str, note: str = "", keys: int = CELL_COLUMNS) -> None:
    """Text, CSV or Markdown output of a table; the text one fitted to :data:`TEXT_WIDTH` columns (``keys``: the
    leading columns that name a row, repeated in each block of a table cut to width)."""
    if args.format == "csv":
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
        if any("—" in a for r in rows for a in r):
            print("\n—: not realizable at L0 (no θ* to transfer)")
    else:
        print(_prose(preamble))
        print(fitted_table([TEXT_HEADERS.get(h, h) for h in header], rows, keys))
        _print_notes(rows, note)


def _print_notes(rows: list, note: str) -> None:
    """The text table's footnotes: the marks its cells use, and ``note``; wrapped to :data:`TEXT_WIDTH`."""
    if any("undecided" in a for r in rows for a in r):
        print(_prose("(+k undecided): rows whose float margin is within tolerance; try posreal alpha --certified"))
    if any("—" in a for r in rows for a in r):
        print("—: not realizable at L0 (no θ* to transfer)")
    if note:
        print(_prose(note))


def _bar(cells: list, desc: str, quiet: bool):
    return progress(cells, total=len(cells), desc=desc, quiet=quiet)


def run_extensions(args) -> int:
    """``--extension``: the table under one method, or every named method side by side (``all``)."""
    from posreal.theory.extension import parse_extension
    lengths = sorted(set(args.lengths))
    quiet = args.format == "json"
    methods = _methods(args)
    operators = [parse_extension(m) for m in methods]          # an unknown method or a bad file: one line, here
    by_method: dict[str, list[dict]] = {}
    for m, op in zip(methods, operators):
        bar = partial(_bar, desc=f"cells ({m})", quiet=quiet)
        cells = taxonomy(args.pes, args.tasks, args.train_length, lengths, geometry=args.geometry, extension=op,
                         progress=bar)
        by_method[str(op)] = [cell.to_json() for cell in cells]
    if all(d.get("applicable") is False for docs in by_method.values() for d in docs):
        first = next(iter(by_method.values()))[0]
        raise SpecError(first["reason"])                           # nothing to show: the refusal, as one line
    refused: dict[str, list[str]] = {}
    for m, docs in by_method.items():
        for pe in dict.fromkeys(d["pe"] for d in docs if d.get("applicable") is False):
            refused.setdefault(pe, []).append(m)
    note = ("n/a: the method does not act on the PE (bucketed and table PEs have no frequencies or positions to "
            "rescale; the linear biases slope and alibi-fixed take pi only): "
            + "; ".join(f"{pe} ({', '.join(ms)})" for pe, ms in refused.items())
            if refused else "")
    if args.format == "json":
        emit_json(with_provenance({"train_length": args.train_length, "lengths": lengths, "geometry": args.geometry,
                                   "extensions": list(by_method),
                                   "cells": [d for docs in by_method.values() for d in docs]}))
    elif args.long:
        header, rows = _long(by_method, lengths, csv_form=args.format == "csv",
                             geometry=SelectionGeometry.parse(args.geometry))
        _print_rows(args, header, rows, _preamble(args, list(by_method)), note, keys=CELL_COLUMNS + 1)
    elif len(by_method) == 1:
        header, rows = _one_method(next(iter(by_method.values())), lengths)
        _print_rows(args, header, rows, _preamble(args, list(by_method)), note)
    elif args.format == "text" and not _side_by_side_fits(by_method, lengths):
        _print_per_method(args, by_method, lengths, note)
    else:
        header, rows = _side_by_side(by_method, lengths, per_length=args.format == "csv")
        preamble = (_preamble(args, list(by_method)) + "\neach method's column: α_L at L = "
                    + " / ".join(str(L) for L in lengths) + " (--long: one row per cell and method)")
        _print_rows(args, header, rows, preamble, note)
    if args.plot:
        from posreal.plots import plot_extensions
        plot_extensions(by_method, lengths, args.plot, force=args.force)
        print(f"wrote {args.plot}", file=sys.stderr)
    return 0
