"""``posreal extensions``: every length-extension form ``--extension`` accepts, with what its factor s is, its
formula and its reference (text or ``--json``)."""

from __future__ import annotations

from dataclasses import asdict

from posreal.commands._common import emit_json, with_provenance


def add_parser(sub) -> None:
    p = sub.add_parser("extensions", help="list every length-extension method: factor, formula, reference",
                       description="Every --extension form: the per-length methods (s = L/L0), the fixed-factor "
                                   "forms a deployed model runs with, a factors file, and every rope_scaling type "
                                   "of a model config (hf:PATH), with its formula for the frequencies "
                                   "ω_f = base^(-2f/d) and its reference.")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.set_defaults(run=run)


def run(args) -> int:
    from posreal.theory.extension import extension_catalogue
    entries = extension_catalogue()
    if args.json:
        emit_json(with_provenance({"extensions": [asdict(e) for e in entries]}))
        return 0
    print("Length extensions (θ* is selected at L0 without them; ω_f = base^(-2f/d)):\n")
    print("\n\n".join(f"{e.spec}\n  factor: {e.factor}\n  frequencies: {e.formula}\n  reference: {e.reference}"
                      for e in entries))
    return 0
