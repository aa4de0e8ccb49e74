"""``posreal pes``: every PE spec form with its formula, kind, parameters and reference (text or ``--json``)."""

from __future__ import annotations

from posreal.commands._common import emit_json, with_provenance


def add_parser(sub) -> None:
    p = sub.add_parser("pes", help="list every PE: formula, kind, parameters, reference",
                       description="Every PE spec form the other commands accept (registry names and their "
                                   "older aliases, the shear, tables and Python functions), with its formula "
                                   "ψ(i, j) (n = i - j), kind, parameters and defaults, what θ ranges over, "
                                   "whether --exact applies, and the paper it follows.")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.set_defaults(run=run)


def run(args) -> int:
    from posreal.theory.pe_catalogue import catalogue
    if args.json:
        emit_json(with_provenance({"pes": [entry.to_json() for entry in catalogue()]}))
        return 0
    blocks = []
    for entry in catalogue():
        lines = [entry.form + (f"  (also: {', '.join(entry.aliases)})" if entry.aliases else "")]
        lines.append(f"  {entry.formula}")
        lines.append(f"  kind: {entry.kind}; θ: {entry.theta}; exact mode: {entry.exact}")
        if entry.parameters:
            lines.append("  parameters: " + "; ".join(f"{p.name} — {p.meaning}"
                                                      + (f" (default {p.default})" if p.default != "—" else "")
                                                      for p in entry.parameters))
        lines.append(f"  reference: {entry.reference}")
        blocks.append("\n".join(lines))
    print("PE spec forms (n = i - j; an alias parses to the same PE and prints as written):\n")
    print("\n\n".join(blocks))
    return 0
