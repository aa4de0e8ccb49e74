"""``posreal verify FILE...``: re-derive every exact claim of certificates with fractions only.

Exit codes: 0 every certificate verified, 1 one refuted (a claim does not re-derive, or the file
was edited after sealing), 3 not checkable (e.g. irrational features), 2 malformed or unreadable
(one-line error).
"""

from __future__ import annotations

from posreal.commands._common import emit_json, with_provenance


def add_parser(sub) -> None:
    p = sub.add_parser("verify", help="verify certificates (verified / refuted / not checkable)",
                       description="Re-derive every exact claim of certificate files with fractions only. "
                                   "Exit 0 verified, 1 refuted, 2 malformed/unreadable, 3 not checkable.")
    p.add_argument("files", nargs="+", metavar="FILE", help="certificate or bundle JSON files")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.set_defaults(run=run)


def run(args) -> int:
    from posreal.counterexamples.verifier.verify import EXIT_CODES, overall, verify_file

    verdicts = [v for path in args.files for v in verify_file(path)]
    result = overall(verdicts)
    if args.json:
        emit_json(with_provenance({"verdict": result.value, "certificates": [v.to_json() for v in verdicts]}))
        return EXIT_CODES[result]
    for v in verdicts:
        print(f"{v.name}: {v.verdict} ({len(v.checked)} claims re-derived"
              + (f", {len(v.failures)} failed" if v.failures else "") + ")")
        for failure in v.failures:
            print(f"  refuted: {failure}")
        for note in v.notes:
            print(f"  note: {note}")
    print(result)
    return EXIT_CODES[result]
