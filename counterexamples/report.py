"""The counterexample searches and certificates in Markdown, as the docs and ``posreal search ... --report`` show them.

These are the tables of the docs' Counterexamples and Conjecture′ pages, and what ``posreal search colspan
--report`` / ``posreal search conjecture --report`` print.

Main results:

* :func:`certificates_report` — every committed certificate, re-verified now by the fractions-only verifier;
* :func:`open_ties_report` — the open-tie certificates: exact facts, α♯'s verdict, the gradient flow's evidence;
* :func:`colspan_report`, :func:`conjecture_report` — the document of ``posreal search colspan --json`` /
  ``posreal search conjecture --json`` as Markdown;
* :func:`limit_evidence_report` — the committed summaries of the conjecture search on two seeds.

A source that is missing or lacks a key the report reads is a :class:`~posreal.runtime.markdown.ReportError`
that names it.
"""

from __future__ import annotations

import json
from pathlib import Path

from posreal.runtime.markdown import ReportError, fmt_seconds, md_escape, provenance, table

CERTIFICATES = Path(__file__).with_name("certificates")


def certificate_files(folder: Path = CERTIFICATES) -> list[Path]:
    """The committed certificates; none at all is a :class:`ReportError`."""
    files = sorted(folder.glob("*.json")) if folder.is_dir() else []
    if not files:
        raise ReportError(f"no committed certificate in {folder}/ "
                          "(expected *.json written by posreal search colspan --out / --certify)")
    return files


def _verdict_text(verdict: str) -> str:
    return f"**{verdict}**" if verdict == "verified" else f"**{verdict.upper()}**"


def _instance_text(inst: dict) -> str:
    if "pe" not in inst or "task" not in inst:
        return "—"
    text = f"`{inst['pe']}` · `{inst['task']}`"
    if "train_length" in inst and "length" in inst:
        text += f", L0 = {inst['train_length']} → L = {inst['length']}"
    if "row" in inst:
        text += f", row {inst['row']}"
        if "target" in inst:
            text += f" (target {inst['target']}" + (f", rival {inst['rival']})" if "rival" in inst else ")")
    return text


def certificates_report(folder: Path = CERTIFICATES) -> str:
    """Every committed certificate, re-verified now, with the exact facts it re-derived (folded)."""
    from posreal.counterexamples.verifier.certificate import BUNDLE_FORMAT
    from posreal.counterexamples.verifier.verify import verify_certificate
    rows, details = [], []
    for path in certificate_files(folder):
        doc = json.loads(path.read_text())
        certs = doc.get("certificates", []) if doc.get("format") == BUNDLE_FORMAT else [doc]
        if not certs:
            raise ReportError(f"certificate file {path.name} holds no certificate")
        for n, cert in enumerate(certs):
            name = path.name if len(certs) == 1 else f"{path.name} #{n}"
            verdict = verify_certificate(cert, name)
            rows.append([f"`{name}`", cert.get("kind", "?"), _instance_text(cert.get("instance", {})),
                         f"{len(verdict.checked)} exact facts", _verdict_text(verdict.verdict)])
            text = md_escape(cert.get("explanation", "")).strip()
            checked = "".join(f"\n    - {md_escape(c)}" for c in verdict.checked[:12])
            more = f"\n    - … and {len(verdict.checked) - 12} more" if len(verdict.checked) > 12 else ""
            failures = "".join(f"\n    - **FAILED:** {md_escape(c)}" for c in verdict.failures)
            details.append(f'??? note "`{name}` — {cert.get("kind", "?")}"\n    {text}\n\n    Re-derived now, in '
                           f"exact arithmetic:{checked}{more}{failures}\n")
    return (table(["certificate", "kind", "instance", "re-derived", "verifier now"], rows,
                  "counterexamples/certificates/*.json, each re-checked by posreal.counterexamples.verifier.verify "
                  "(fractions only) during this build")
            + "\n" + "\n".join(details))


def open_ties_report(folder: Path = CERTIFICATES) -> str:
    """The open-tie certificates: exact facts, α♯'s verdict and the log-time gradient flow's evidence."""
    from posreal.counterexamples.verifier.verify import verify_certificate
    rows = []
    for path in certificate_files(folder):
        cert = json.loads(path.read_text())
        if cert.get("kind") != "open-tie":
            continue
        inst, claims, ev = cert["instance"], cert["claims"], cert.get("evidence") or {}
        flows = ev.get("gradient_flow")
        if not flows:
            raise ReportError(f"open-tie certificate {path.name} has no gradient_flow evidence "
                              "(regenerate with python -m posreal.counterexamples.shipped)")
        worst = min(flows, key=lambda f: f["value"])
        kind = (inst.get("tables") or {}).get(inst["pe"].removeprefix("dual:"), {}).get("kind")
        pe = f"`{inst['pe']}`" + (f" ({kind} table)" if kind else "")
        rows.append([f"`{path.name}`", pe, f"`{inst['task']}`", inst["train_length"], inst["length"], inst["row"],
                     claims.get("alpha", "—"), ev.get("limit_verdict", "—"),
                     f"{worst['value']:.4g} at τ = {worst['tau']:g}, drift {worst['drift']:.1e} "
                     f"({ev.get('row_verdict', '?')})", ev.get("agreement", "—"),
                     _verdict_text(verify_certificate(cert, path.name).verdict)])
    if not rows:
        return "No open-tie certificate is committed.\n\n" + provenance("counterexamples/certificates/*.json")
    return table(["certificate", "PE", "task", "L0", "L", "row", "α_L (exact)", "α♯ (exact sign)",
                  "tie margin of the log-time flow (float)", "α♯ vs flow", "verifier now"], rows,
                 "counterexamples/certificates/*.json (kind open-tie), re-checked by "
                 "posreal.counterexamples.verifier.verify during this build")


def _v(flag: bool | None) -> str:
    return "—" if flag is None else ("**verified**" if flag else "**DID NOT VERIFY**")


def _verify_all(certs: list[dict]) -> list[bool]:
    from posreal.counterexamples.verifier.verify import VERIFIED, verify_certificate
    return [verify_certificate(c, f"colspan #{n}").verdict == VERIFIED for n, c in enumerate(certs)]


COLSPAN_SOURCE = ("posreal search colspan --report, run during this build; every certificate re-verified by "
                  "posreal.counterexamples.verifier.verify")


def colspan_report(doc: dict) -> str:
    """Both forms of the outside-colspan search (the document of ``posreal search colspan --json``)."""
    for key in ("static", "dynamic", "stats", "reproduced"):
        if key not in doc:
            raise ReportError(f"`posreal search colspan --json` has no {key!r}")
    static, dynamic = doc["static"], doc["dynamic"]
    status = "Both forms reproduced" if doc["reproduced"] else "**NOT REPRODUCED**"
    out = [f"**{status}** — {doc.get('verified')} of {doc.get('certificates')} certificates verified "
           f"({fmt_seconds(doc.get('seconds'))}).\n",
           "**Static form** — rows that $T_L\\theta^*$ realizes although $e_t \\notin \\operatorname{col}\\Psi_i$ "
           "(the rank grows when $e_t$ is appended):\n"]
    rows = [[f"`{c['instance']['pe']}`", f"`{c['instance']['task']}`", c["instance"]["train_length"],
             c["instance"]["length"], c["instance"]["row"], c["claims"]["margin"],
             f"{c['claims']['rank_features']} → {c['claims']['rank_augmented']}", _v(v)]
            for c, v in zip(static, _verify_all(static))]
    out.append(table(["PE", "task", "L0", "L", "row", "exact margin", "rank Ψ_i → [Ψ_i | e_t]", "verifier"], rows))
    st = doc["stats"]["static"]
    out.append(f"\nSearched {st.get('cells')} rational registry cells ({st.get('realizable_cells')} realizable at "
               f"L0) and {st.get('realized_rows_checked')} realized rows.\n")
    out.append("\n**Dynamic form** — tie directions $v \\notin \\operatorname{col} Z^\\top$ with "
               "$\\langle\\theta_1, v\\rangle \\ne 0$ after the first exact gradient step from 0:\n")
    rows = []
    for c, v in zip(dynamic, _verify_all(dynamic)):
        est = ((c.get("evidence") or {}).get("gradient_descent_tie_margin") or {}).get("estimate")
        rows.append([f"`{c['instance']['pe']}`", f"`{c['instance']['task']}`", c["instance"]["train_length"],
                     c["instance"]["length"],
                     f"{c['instance']['row']}: {c['instance']['target']} vs {c['instance']['rival']}",
                     f"{c['claims']['rank_differences']} → {c['claims']['rank_with_direction']}",
                     c["claims"]["first_step_dot_v"], "—" if est is None else f"{est:.4g} (float)", _v(v)])
    out.append(table(["PE", "task", "L0", "L", "row: target vs rival", "rank Z → [Z; v]", "⟨θ_1, v⟩ (exact)",
                      "⟨θ_k, v⟩ at the end of GD", "verifier"], rows, COLSPAN_SOURCE))
    dy = doc["stats"]["dynamic"]
    reg, tab = dy.get("registry", {}), dy.get("tables", {})
    out.append(f"\nRegistry: {reg.get('cells')} cells, {reg.get('tie_rivals_checked')} tie rivals, "
               f"{reg.get('instances')} instances. Small integer tables (seed {tab.get('seed')}): "
               f"{tab.get('instances_examined')} examined, {tab.get('outside_colspan')} tie directions outside "
               f"col Zᵀ, {tab.get('instances')} instances.\n")
    if static or dynamic:
        out.append("\nIn the certificates' own words:\n")
        out += [f"> {md_escape(c.get('explanation', ''))}\n" for c in static[:1] + dynamic[:1]]
    return "\n".join(out)


def conjecture_report(doc: dict, source: str = "posreal search conjecture --report, run during this build") -> str:
    """The conjecture search's summary (the document of ``posreal search conjecture --json``)."""
    s = doc.get("summary")
    if not isinstance(s, dict) or "instances" not in s or "open_tie_agreement" not in s:
        raise ReportError(f"conjecture search summary from {source} has no 'summary.instances' / open_tie_agreement")
    out = [f"Seed {doc.get('seed')}, families {', '.join(doc.get('families') or [])}, gradient-flow "
           f"evidence up to τ = {float(doc.get('tau_max') or 0):.3g}: **{s['instances']} instances**"
           + (f" in {fmt_seconds(doc.get('seconds'))}" if doc.get("seconds") is not None else "") + ".\n",
           table(["instance outcome", "instances"], [[k, n] for k, n in sorted(s.get("status", {}).items())]),
           "\n" + table(["failing-row class", "rows"],
                        [[k.replace("_", " "), n] for k, n in s["failing_rows"].items()])]
    v, lim, agr = s["open_tie_evidence"], s["open_tie_limit_verdicts"], s["open_tie_agreement"]
    out.append(f"\nOpen ties: α_L loses all of them; α♯ {lim['won']} won, {lim['lost']} lost, {lim['undecided']} "
               f"undecided; the gradient flow {v['won']} won, {v['lost']} lost, {v['undecided']} undecided; "
               f"α♯ vs the flow: {agr['agrees']} agree, **{agr['disagrees']} disagree**, "
               f"{agr['undecided']} undecided.\n")
    if s.get("families"):
        out.append(table(["family", "instances", "open-tie rows", "won by the flow"],
                         [[f, d["instances"], d["open_tie_rows"], d["candidates"]] for f, d in s["families"].items()]))
    cands = s.get("candidates", [])
    if cands:
        out.append(f"\n**{len(cands)} open tie(s) won by training** — each a counterexample to the original "
                   "Conjecture (the limit accuracy exceeds α_L):\n")
        out.append(table(["index", "PE", "task", "L0", "L", "α_L", "α♯", "row", "tie margin of the flow",
                          "α♯ on the row"],
                         [[c["index"], f"`{c['pe']}`", f"`{c['task']}`", c["train_length"], c["length"],
                           c["alpha"], " – ".join(c.get("limit_interval") or []), c["row"],
                           f"{c['limit_estimate']:.4g}", c["limit_verdict"]] for c in cands]))
    out.append(f"\n**{len(s.get('limit_counterexamples', []))} counterexample(s) to Conjecture′** among these "
               "instances.\n")
    return "\n".join(out) + "\n" + provenance(source)


EVIDENCE_KINDS = ("exact", "certified", "symmetry", "trajectory", "undecided")


def limit_evidence_report(path: Path, name: str | None = None) -> str:
    """The conjecture search's open-tie tally by kind of evidence, from a file of several seeds' summaries.

    The file holds summaries of ``posreal search conjecture --json`` (``{"runs": [{"seed", "instances", "summary",
    ...}], "command"}``); ``name``: the file as the provenance line names it (default: ``path``)."""
    if not path.is_file():
        raise ReportError(f"{path} is missing: commit the summaries of `posreal search conjecture --families "
                          "relative,column,general --json` for the seeds it names")
    doc, source = json.loads(path.read_text()), name or str(path)
    if not isinstance(doc.get("runs"), list) or not doc["runs"]:
        raise ReportError(f"{path} has no 'runs'")
    out = []
    for run in doc["runs"]:
        s = run["summary"]
        closed, after = s["open_tie_by_evidence"], s["open_tie_with_trajectory"]
        n = sum(s["open_tie_limit_verdicts"].values())
        rows = [[k, *(f"{d.get(k, {}).get('won', 0)} / {d.get(k, {}).get('lost', 0)} / "
                      f"{d.get(k, {}).get('undecided', 0)}" for d in (closed, after))]
                for k in EVIDENCE_KINDS if k in closed or k in after]
        agr = s["open_tie_agreement"]
        out.append(f"**Seed {run['seed']}** ({run['instances']} table instances, {n} open-tie rows): decided in "
                   f"closed form or by symmetry **{s['decided_in_closed_form']:.1%}**, once trajectory evidence "
                   f"counts **{s['decided_with_trajectory']:.1%}**; α♯'s closed forms against the gradient flow: "
                   f"{agr['agrees']} agree, **{agr['disagrees']} disagree**, {agr['undecided']} undecided.\n")
        out.append(table(["kind of evidence", "closed forms (won / lost / undecided)",
                          "with trajectory evidence (won / lost / undecided)"], rows))
        left = s.get("open_tie_reasons_with_trajectory") or {}
        same = run.get("descent_vs_flow_on_trajectory_rows", {})
        out.append("\nStill undecided: " + (", ".join(f"{v} {k}" for k, v in sorted(left.items())) or "none")
                   + f". On the rows decided by trajectory evidence, gradient descent's verdict and the gradient "
                   f"flow's are the same {same.get('same', '?')} times and differ {same.get('different', '?')} "
                   "times.\n")
    return "\n".join(out) + "\n" + provenance(f"{source} — {doc.get('command', '')}")
