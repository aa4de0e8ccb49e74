"""posreal.theory.alpha_report: the registries and single-cell tables of the docs' pages hold the numbers the code
computes (recomputed here), and a document without its fields is a ReportError."""

from __future__ import annotations

import pytest

from posreal.runtime.markdown import ReportError, fmt_alpha, interval_text
from posreal.theory import alpha_report as ar
from posreal.theory.alpha import compute_alpha
from posreal.theory.defaults import REGISTRY_TASKS, TAXONOMY_PES
from posreal.theory.pe_specs import parse_pe
from posreal.theory.tasks import parse_task


def test_pe_registry_lists_every_taxonomy_pe_as_parsed():
    text = ar.pe_registry("16")
    for spec in TAXONOMY_PES:
        pe = parse_pe(spec)
        assert f"| `{spec}` | `{pe}` | {pe.kind} |" in text, spec
        assert f" | {pe.dim(16)} | " in text
    assert "| `learned:8` | `learned:8` |" in text and "p at L0 = 16" in text


def test_task_registry_lists_rows_and_targets_on_the_grid():
    text = ar.task_registry("6")
    for spec in REGISTRY_TASKS:
        rows, targets = parse_task(spec).rows_and_targets(6)
        pairs = ", ".join(f"{i}→{t}" for i, t in zip(rows.tolist(), targets.tolist())) or "(none)"
        assert f"| {pairs} |" in text, spec
    assert "row → target at n = 6" in text


def test_alpha_table_holds_the_row_counts_of_compute_alpha():
    doc = compute_alpha("relbias", "position:0", 8, [16, 32]).to_json()
    text = ar.alpha_table("relbias", "position:0", "8", "32,16")
    for L in ("16", "32"):
        c = doc["rows"][L]
        alpha = doc.get("alpha_exact", {}).get(L) or fmt_alpha(doc["alpha"][L])
        assert (f"| {L} | {alpha} | {c['realized']} | {c['failed']} | {c['undecided']} | {c['structural_ties']} "
                f"| {c['total']} |") in text
    assert c["failed"] > 0                                           # a cell with failed rows, not all ones
    assert "not realizable at L0" in ar.alpha_table("nope", "offset:1", "8", "16")   # control: no θ*


def test_alpha_geometries_holds_each_geometrys_interval():
    docs = {g: compute_alpha("relbias", "offset:1", 6, [12], geometry=g).to_json() for g in ("l2", "linf", "l1")}
    text = ar.alpha_geometries("relbias", "offset:1", "6", "12")
    cells = [interval_text(docs[g]["alpha_interval"]["12"]) for g in ("l2", "linf", "l1")]
    assert f"| 12 | {' | '.join(cells)} |" in text


def test_learned_table_holds_both_completions_and_the_monte_carlo_estimate():
    from posreal.theory.underdetermination import learned_alpha_interval
    doc = learned_alpha_interval("learned:16", "position:0", 16, (32,), samples=3).to_json()
    text = ar.learned_table(doc, "learned:16", "position:0")
    a = doc["alpha"]["32"]
    mc = a["monte_carlo"]
    assert (f"| 32 | {fmt_alpha(a['completions']['zero'])} | {fmt_alpha(a['completions']['copy_last'])} | "
            f"{mc['mean']:.3f} ± {mc['stderr']:.3f} [{mc['min']:.3f}, {mc['max']:.3f}] |") in text
    assert f"Monte Carlo: 3 draws of the untrained rows (`{mc['init']}`), seed {mc['seed']}." in text
    with pytest.raises(ReportError, match="has no 'alpha' intervals"):
        ar.learned_table({"alpha": None}, "learned:16", "position:0")


def test_static_routing_lists_beta_per_row():
    from posreal.theory.expressivity import static_routing_bound
    r = static_routing_bound("reverse", 3, 2)
    text = ar.static_routing("3", "2", "reverse")
    row = ", ".join(f"{i}: {b}" for i, b in zip(r.rows, r.beta))
    assert f"| `reverse` | {r.method} | {row} | {min(r.beta)} |" in text and "all 2^3 inputs" in text


def test_ceilings_table_reads_the_documents_and_flags_an_unverified_optimum():
    docs = {("relative", "copy"): {"realized": 8, "total": 8, "ceiling": "1", "optimal": "proved", "verified": True},
            ("column", "middle"): {"realized": 1, "total": 8, "optimal": "proved", "verified": False}}
    text = ar.ceilings_table(docs, "16")
    assert "| relative | `copy` | 8 of 8 | 1 | proved | yes |" in text
    assert "| column | `middle` | 1 of 8 | — | proved | **NO** |" in text       # planted: not re-checked
    with pytest.raises(ReportError, match="has no 'optimal'"):
        ar.ceilings_table({("relative", "copy"): {"realized": 1, "total": 2}}, "16")


def test_induction_table_holds_alpha_ind_and_copy_or_na():
    from posreal.theory.induction import induction_alpha
    res = induction_alpha("relbias", 8, [17], extension="none")
    text = ar.induction_table("8", "17", "relbias")
    assert f"| `relbias` | {fmt_alpha(res.alpha(17))} ({fmt_alpha(res.copy.alpha(17))}) | n/a | n/a | n/a |" in text


# Exists because a mutant survived: the header words of `posreal alpha`'s table were unchecked.
def test_alpha_table_header_separator_and_source_line_are_the_documented_text():
    text = ar.alpha_table("relbias", "position:0", "8", "32,16")
    lines = text.splitlines()
    # seven columns; the pipes of |R_L| are escaped so the cell stays one cell
    assert lines[0] == r"| L | α_L | realized | failed | undecided | structural ties | \|R_L\| |"
    assert lines[1] == "|" + "|".join(["---"] * 7) + "|"
    assert [line.split(" | ")[0] for line in lines[2:4]] == ["| 16", "| 32"]        # sorted lengths, as given 32,16
    assert lines[-1] == ('<p class="posreal-generated">Generated at build time from <code>posreal.theory.'
                         "compute_alpha('relbias', 'position:0', train_length=8, mode='float')</code>.</p>")
    # control: a cell with no θ* is one sentence with the selection's reason, and the same source line
    doc = compute_alpha("nope", "offset:1", 8, [16]).to_json()
    no = ar.alpha_table("nope", "offset:1", "8", "16")
    assert no.startswith(f"`nope` · `offset:1` at L0 = 8: **not realizable at L0** ({doc['selected']['reason']}).\n\n")
    assert doc["selected"]["reason"] and "| L |" not in no
    assert no.endswith("compute_alpha('nope', 'offset:1', train_length=8, mode='float')</code>.</p>")
