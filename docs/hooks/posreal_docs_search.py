"""Generators of the counterexample pages: the committed certificates re-verified now, the open ties,
α♯ against the gradient flow, the designed ties, and the colspan and conjecture searches (``posreal search``).
"""

from __future__ import annotations

import json
import time
from pathlib import Path

from mkdocs.exceptions import PluginError

# sibling module: mkdocs puts docs/hooks on sys.path while it loads the hooks
from posreal_docs_common import (DOCS, ROOT, cached, cli_json, fmt_seconds, md_escape, provenance, rel,
                                 table)

CERTIFICATES = ROOT / "counterexamples" / "certificates"


# --------------------------------------------------------------------------- counterexamples
def _certificate_files() -> list[Path]:
    """The committed certificates; none at all is a build error."""
    files = sorted(CERTIFICATES.glob("*.json")) if CERTIFICATES.is_dir() else []
    if not files:
        raise PluginError(f"no committed certificate in {rel(CERTIFICATES)}/ "
                          "(expected *.json written by posreal search colspan --out / --certify)")
    return files


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


def gen_certificates() -> str:
    """Every committed certificate, re-verified now by the fractions-only verifier."""
    files = _certificate_files()
    from posreal.counterexamples.verifier.certificate import BUNDLE_FORMAT
    from posreal.counterexamples.verifier.verify import verify_certificate
    rows, details = [], []
    for path in files:
        doc = json.loads(path.read_text())
        certs = doc.get("certificates", []) if doc.get("format") == BUNDLE_FORMAT else [doc]
        if not certs:
            raise PluginError(f"certificate file {path.name} holds no certificate")
        for n, cert in enumerate(certs):
            name = path.name if len(certs) == 1 else f"{path.name} #{n}"
            verdict = verify_certificate(cert, name)
            shown = f"**{verdict.verdict}**" if verdict.verdict == "verified" else f"**{verdict.verdict.upper()}**"
            rows.append([f"`{name}`", cert.get("kind", "?"), _instance_text(cert.get("instance", {})),
                         f"{len(verdict.checked)} exact facts", shown])
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


def gen_open_ties() -> str:
    """The open-tie certificates: exact facts, α♯'s verdict and the log-time gradient flow's evidence."""
    files = _certificate_files()
    from posreal.counterexamples.verifier.verify import verify_certificate
    rows = []
    for path in files:
        cert = json.loads(path.read_text())
        if cert.get("kind") != "open-tie":
            continue
        inst, claims, ev = cert["instance"], cert["claims"], cert.get("evidence") or {}
        verdict = verify_certificate(cert, path.name).verdict
        flows = ev.get("gradient_flow")
        if not flows:
            raise PluginError(f"open-tie certificate {path.name} has no gradient_flow evidence "
                              "(regenerate with python -m posreal.counterexamples.shipped)")
        worst = min(flows, key=lambda f: f["value"])
        kind = (inst.get("tables") or {}).get(inst["pe"].removeprefix("dual:"), {}).get("kind")
        pe = f"`{inst['pe']}`" + (f" ({kind} table)" if kind else "")
        rows.append([f"`{path.name}`", pe, f"`{inst['task']}`", inst["train_length"], inst["length"], inst["row"],
                     claims.get("alpha", "—"), ev.get("limit_verdict", "—"),
                     f"{worst['value']:.4g} at τ = {worst['tau']:g}, drift {worst['drift']:.1e} "
                     f"({ev.get('row_verdict', '?')})",
                     ev.get("agreement", "—"),
                     f"**{verdict}**" if verdict == "verified" else f"**{verdict.upper()}**"])
    if not rows:
        return ("No open-tie certificate is committed.\n\n" + provenance("counterexamples/certificates/*.json"))
    return table(["certificate", "PE", "task", "L0", "L", "row", "α_L (exact)", "α♯ (exact sign)",
                  "tie margin of the log-time flow (float)", "α♯ vs flow", "verifier now"], rows,
                 "counterexamples/certificates/*.json (kind open-tie), re-checked by "
                 "posreal.counterexamples.verifier.verify during this build")


@cached("limit-tally")
def limit_tally():
    from posreal.checks.limit_checks import compare_all
    start = time.perf_counter()
    tally, controls, info = compare_all()
    return tally, controls, info, time.perf_counter() - start


def gen_limit_tally() -> str:
    """α♯'s closed forms against the gradient flow on the certificates and the seeded batches (the slow check)."""
    from posreal.checks.limit_checks import CONTROLS
    tally, controls, info, seconds = limit_tally()
    if tally.rows == 0:
        raise PluginError("the comparison of α♯ with the gradient flow compared no row")
    lim, ev, und = tally.limit, tally.evidence, tally.evidence_when_undecided
    batches = ", ".join(f"{b['rows']} from the first {b['instances']} table instances of seed {s}"
                        for s, b in info["batches"].items())
    out = [f"**{tally.rows} open-tie rows** — {info['certificate_rows']} from {info['certificates']} certificates, "
           f"{batches}.\n",
           table(["α♯'s kind of evidence", "agree", "disagree", "undecided"],
                 [[k, d["agrees"], f"**{d['disagrees']}**", d["undecided"]] for k, d in sorted(tally.by_kind.items())]),
           "\n" + table(["", "rows"], [
               ["α♯ (closed forms): won / lost / undecided", f"{lim['won']} / {lim['lost']} / {lim['undecided']}"],
               ["flow: won / lost / undecided", f"{ev['won']} / {ev['lost']} / {ev['undecided']}"],
               ["flow on the rows α♯ leaves undecided: won / lost / undecided",
                f"{und['won']} / {und['lost']} / {und['undecided']}"],
               ["max |flow slope in log log t − ⟨θ_2, v⟩|",
                f"{max(tally.slope_errors):.2g}" if tally.slope_errors else "—"],
               *[[f"negative control ({name}): disagreements", c.disagrees]
                 for (name, _), c in zip(CONTROLS, controls)]]),
           "\nWhy α♯ left rows undecided:\n",
           table(["reason", "rows"], sorted(tally.reasons.items(), key=lambda kv: -kv[1]) or [["—", 0]],
                 f"posreal.checks.limit_checks.compare_all(), run during this build ({seconds:.1f} s)")]
    return "\n".join(out)


LIMIT_SUMMARY = DOCS / "data" / "limit" / "search_summaries.json"


def gen_limit_evidence() -> str:
    """The conjecture search's open-tie tally by kind of evidence, from the committed summaries of two seeds."""
    if not LIMIT_SUMMARY.is_file():
        raise PluginError(f"{rel(LIMIT_SUMMARY)} is missing: commit the summaries of `posreal search conjecture "
                          "--families relative,column,general --json` for the seeds it names")
    doc = json.loads(LIMIT_SUMMARY.read_text())
    kinds = ("exact", "certified", "symmetry", "trajectory", "undecided")
    out = []
    for run in doc["runs"]:
        s = run["summary"]
        closed, after = s["open_tie_by_evidence"], s["open_tie_with_trajectory"]
        n = sum(s["open_tie_limit_verdicts"].values())
        rows = [[k, *(f"{d.get(k, {}).get('won', 0)} / {d.get(k, {}).get('lost', 0)} / "
                      f"{d.get(k, {}).get('undecided', 0)}" for d in (closed, after))]
                for k in kinds if k in closed or k in after]
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
    return "\n".join(out) + "\n" + provenance(f"{rel(LIMIT_SUMMARY)} — {doc.get('command', '')}")


def gen_limit_example(name: str) -> str:
    """One designed tie of posreal.checks.level_checks, decided by α♯ and followed by the flow, during this build."""
    from posreal.checks.level_checks import LEVEL2_TIE, MAXENT_TIE, SYMMETRIC_TIE, registered_table
    from posreal.theory.limit import open_tie_limit
    from posreal.theory.trajectory import pair_data, tie_trajectory
    ties = {"maxent": MAXENT_TIE, "level2": LEVEL2_TIE, "symmetric": SYMMETRIC_TIE}
    if name not in ties:
        raise PluginError(f"unknown designed tie {name!r}; accepted: {', '.join(ties)}")
    with registered_table(ties[name]) as tie:
        pe, task, sel, row, ctx = tie.open_row()
        decided = open_tie_limit(ctx, row)
        (flow,) = tie_trajectory(pair_data(pe, task, tie.train_length, list(sel.exact_theta)),
                                 [[float(x) for x in row.rivals[0].direction]], 0)
        levels = ctx.levels()
    rival = decided.rivals[0]
    rows = [["tie direction v", ", ".join(str(x) for x in row.rivals[0].direction)],
            ["θ*", ", ".join(str(x) for x in sel.exact_theta)],
            ["levels", "; ".join(f"θ_{lv.depth} = ({', '.join(str(x) for x in lv.theta)}), "
                                 f"S+ = {len(lv.split.positive)}, S0 = {len(lv.split.zero)}"
                                 + ("" if lv.independent else " (dependent S+)") for lv in levels.levels)],
            ["α♯ on the row", f"**{decided.verdict.value}** ({decided.evidence.value}) — {rival.detail}"],
            ["gradient flow at τ = e^24", f"⟨θ, v⟩ = {flow.value:.10g} ({flow.verdict.value}, {flow.basis}, slope in "
                                        f"σ {flow.slope:.4g})"]]
    return table(["", name], rows,
                 f"{tie.name} of posreal.checks.level_checks, decided and integrated during this build")


@cached("colspan")
def colspan_document():
    return cli_json(["search", "colspan", "--json"])


def _v(flag: bool | None) -> str:
    return "—" if flag is None else ("**verified**" if flag else "**DID NOT VERIFY**")


def gen_search(kind: str) -> str:
    if kind == "colspan":
        return _gen_colspan()
    if kind == "conjecture":
        return _gen_conjecture()
    raise PluginError(f"unknown search {kind!r}; accepted: colspan, conjecture")


def _verify_all(certs: list[dict]) -> list[bool]:
    from posreal.counterexamples.verifier.verify import VERIFIED, verify_certificate
    return [verify_certificate(c, f"colspan #{n}").verdict == VERIFIED for n, c in enumerate(certs)]


def _gen_colspan() -> str:
    doc = colspan_document()
    for key in ("static", "dynamic", "stats", "reproduced"):
        if key not in doc:
            raise PluginError(f"`posreal search colspan --json` has no {key!r}")
    static, dynamic = doc["static"], doc["dynamic"]
    src = ("posreal search colspan --json, run during this build; every certificate re-verified by "
           "posreal.counterexamples.verifier.verify")
    out = []
    status = ("Both forms reproduced" if doc["reproduced"] else "**NOT REPRODUCED**")
    out.append(f"**{status}** — {doc.get('verified')} of {doc.get('certificates')} certificates verified "
               f"({fmt_seconds(doc.get('seconds'))}).\n")
    out.append("**Static form** — rows that $T_L\\theta^*$ realizes although $e_t \\notin \\operatorname{col}\\Psi_i$ "
               "(the rank grows when $e_t$ is appended):\n")
    ok = _verify_all(static)
    rows = [[f"`{c['instance']['pe']}`", f"`{c['instance']['task']}`", c["instance"]["train_length"],
             c["instance"]["length"], c["instance"]["row"], c["claims"]["margin"],
             f"{c['claims']['rank_features']} → {c['claims']['rank_augmented']}", _v(v)] for c, v in zip(static, ok)]
    out.append(table(["PE", "task", "L0", "L", "row", "exact margin", "rank Ψ_i → [Ψ_i | e_t]", "verifier"], rows))
    st = doc["stats"]["static"]
    out.append(f"\nSearched {st.get('cells')} rational registry cells ({st.get('realizable_cells')} realizable at "
               f"L0) and {st.get('realized_rows_checked')} realized rows.\n")
    out.append("\n**Dynamic form** — tie directions $v \\notin \\operatorname{col} Z^\\top$ with "
               "$\\langle\\theta_1, v\\rangle \\ne 0$ after the first exact gradient step from 0:\n")
    ok = _verify_all(dynamic)
    rows = []
    for c, v in zip(dynamic, ok):
        ev = (c.get("evidence") or {}).get("gradient_descent_tie_margin") or {}
        est = ev.get("estimate")
        rows.append([f"`{c['instance']['pe']}`", f"`{c['instance']['task']}`", c["instance"]["train_length"],
                     c["instance"]["length"],
                     f"{c['instance']['row']}: {c['instance']['target']} vs {c['instance']['rival']}",
                     f"{c['claims']['rank_differences']} → {c['claims']['rank_with_direction']}",
                     c["claims"]["first_step_dot_v"], "—" if est is None else f"{est:.4g} (float)", _v(v)])
    out.append(table(["PE", "task", "L0", "L", "row: target vs rival", "rank Z → [Z; v]", "⟨θ_1, v⟩ (exact)",
                      "⟨θ_k, v⟩ at the end of GD", "verifier"], rows, src))
    dy = doc["stats"]["dynamic"]
    reg, tab = dy.get("registry", {}), dy.get("tables", {})
    out.append(f"\nRegistry: {reg.get('cells')} cells, {reg.get('tie_rivals_checked')} tie rivals, "
               f"{reg.get('instances')} instances. Small integer tables (seed {tab.get('seed')}): "
               f"{tab.get('instances_examined')} examined, {tab.get('outside_colspan')} tie directions outside "
               f"col Zᵀ, {tab.get('instances')} instances.\n")
    if static or dynamic:
        out.append("\nIn the certificates' own words:\n")
        for c in (static[:1] + dynamic[:1]):
            out.append(f"> {md_escape(c.get('explanation', ''))}\n")
    return "\n".join(out)


@cached("conjecture")
def conjecture_summary():
    """The conjecture search on its defaults, run during the build (``posreal search conjecture --json``)."""
    doc = cli_json(["search", "conjecture", "--json"])
    return doc, "posreal search conjecture --json (default seed and budget), run during this build"


def _gen_conjecture() -> str:
    doc, src = conjecture_summary()
    s = doc.get("summary")
    if not isinstance(s, dict) or "instances" not in s or "open_tie_agreement" not in s:
        raise PluginError(f"conjecture search summary from {src} has no 'summary.instances' / open_tie_agreement")
    out = [f"Seed {doc.get('seed')}, families {', '.join(doc.get('families') or [])}, gradient-flow "
           f"evidence up to τ = {float(doc.get('tau_max') or 0):.3g}: **{s['instances']} instances**"
           + (f" in {fmt_seconds(doc.get('seconds'))}" if doc.get("seconds") is not None else "") + ".\n"]
    out.append(table(["instance outcome", "instances"], [[k, n] for k, n in sorted(s.get("status", {}).items())]))
    out.append("\n" + table(["failing-row class", "rows"],
                            [[k.replace("_", " "), n] for k, n in s["failing_rows"].items()]))
    v, lim, agr = s["open_tie_evidence"], s["open_tie_limit_verdicts"], s["open_tie_agreement"]
    out.append(f"\nOpen ties: α_L loses all of them; α♯ {lim['won']} won, {lim['lost']} lost, {lim['undecided']} "
               f"undecided; the gradient flow {v['won']} won, {v['lost']} lost, {v['undecided']} undecided; "
               f"α♯ vs the flow: {agr['agrees']} agree, **{agr['disagrees']} disagree**, "
               f"{agr['undecided']} undecided.\n")
    fams = s.get("families", {})
    if fams:
        out.append(table(["family", "instances", "open-tie rows", "won by the flow"],
                         [[f, d["instances"], d["open_tie_rows"], d["candidates"]] for f, d in fams.items()]))
    cands = s.get("candidates", [])
    if cands:
        out.append(f"\n**{len(cands)} open tie(s) won by training** — each a counterexample to the original "
                   "Conjecture (the limit accuracy exceeds α_L):\n")
        out.append(table(["index", "PE", "task", "L0", "L", "α_L", "α♯", "row", "tie margin of the flow",
                          "α♯ on the row"],
                         [[c["index"], f"`{c['pe']}`", f"`{c['task']}`", c["train_length"], c["length"],
                           c["alpha"], " – ".join(c.get("limit_interval") or []), c["row"],
                           f"{c['limit_estimate']:.4g}", c["limit_verdict"]] for c in cands]))
    bad = s.get("limit_counterexamples", [])
    out.append(f"\n**{len(bad)} counterexample(s) to Conjecture′** among these instances.\n")
    return "\n".join(out) + "\n" + provenance(src)


