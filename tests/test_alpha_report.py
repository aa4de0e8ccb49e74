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


# Exists for mutation testing: headers, source lines, footnotes and the branches choosing a cell's text.
def _source(text: str) -> str:
    return f'<p class="posreal-generated">Generated at build time from <code>{text}</code>.</p>'


def test_pe_registry_header_source_and_the_rows_of_each_branch():
    from posreal.runtime.markdown import first_line
    text = ar.pe_registry("16")
    lines = text.splitlines()
    assert lines[0] == "| spec | str(parse_pe(spec)) | kind | key index k | p at L0 = 16 | exact mode | docstring |"
    assert lines[1] == "|---|---|---|---|---|---|---|"
    assert lines[-1] == _source("posreal.theory.pe_specs.parse_pe, posreal.theory.defaults.TAXONOMY_PES")
    doc = first_line(type(parse_pe("rope:16")).__doc__)
    assert f"| `rope:16` | `rope:16` | relative | i − j | 16 | no (certified mode) | {doc} |" in lines
    assert f"| `abscol:16` | `abscol:16` | column | j | 16 | no (certified mode) | {doc} |" in lines
    # control: a rational PE is "yes", a shear names its base, learned:d has no index, p or mode
    shear = "the shear of `relbias`: ψ_S(i, j) = ψ(i, i − j)"
    assert f"| `dual:relbias` | `dual:relbias` | column | j | 16 | yes | {shear} |" in lines
    assert "| `dual:t5` | `dual:t5` | column | j | 32 | yes | the shear of `t5`: ψ_S(i, j) = ψ(i, i − j) |" in lines
    assert any(line.startswith("| `learned:8` | `learned:8` | learned | — | — | — | `learned:d`: ") for line in lines)
    assert "| p at L0 = 8 |" in ar.pe_registry("8")


def test_task_registry_header_source_and_the_rows_of_each_branch():
    lines = ar.task_registry("4").splitlines()
    assert lines[0] == "| spec | str(parse_task(spec)) | class | R_n depends on n | row → target at n = 4 |"
    assert lines[1] == "|---|---|---|---|---|"
    assert lines[-1] == _source("posreal.theory.tasks.parse_task, REGISTRY_TASKS")
    assert "| `offset:2` | `offset:2` | fixed offset | no | 2→0, 3→1 |" in lines          # hand-made: j = i − 2
    assert "| `dual:copy` | `dual:copy` | growing | yes | 2→2, 3→2 |" in lines           # control: R_n depends on n
    assert "| `dual:offset:1` | `dual:offset:1` | fixed position | no | 1→1, 2→1, 3→1 |" in lines
    assert "| `offset:2` | `offset:2` | fixed offset | no | (none) |" in ar.task_registry("2").splitlines()


def test_alpha_geometries_is_the_documented_text():
    text = ar.alpha_geometries("relbias", "offset:1", "6", "12")
    assert text == ("| L | α_L (ℓ2, θ*) | α_L (ℓ∞ face) | α_L (ℓ1 face) | undecided ℓ∞ | undecided ℓ1 |\n"
                    "|---|---|---|---|---|---|\n"
                    "| 12 | 1.000 | 1.000 | 1.000 | 0 | 0 |\n\n"
                    + _source("posreal.theory.compute_alpha('relbias', 'offset:1', train_length=6, geometry=...)")
                    + "\n")


def test_learned_table_without_monte_carlo_is_the_documented_text():
    doc = {"alpha": {"128": {"completions": {"zero": 0.25, "copy_last": 0.125}},
                     "32": {"completions": {"zero": 0.5, "copy_last": 0.25}}}}
    assert ar.learned_table(doc, "learned:16", "copy") == (
        "| L | (a) zeros: $E_j = 0$ | (b) copies: $E_j = E_{L_0-1}$ | (c) random rows: mean ± s.e. [min, max] |\n"
        "|---|---|---|---|\n| 32 | 0.500 | 0.250 | — |\n| 128 | 0.250 | 0.125 | — |\n\n"
        + _source("posreal alpha --pe learned:16 --task copy --json, run during this build") + "\n")
    # control: a Monte Carlo estimate on one length gives its cell and the note
    doc["alpha"]["128"]["monte_carlo"] = {"mean": 0.5, "stderr": 0.0625, "min": 0.25, "max": 0.75, "samples": 4,
                                         "init": "normal", "seed": 7}
    text = ar.learned_table(doc, "learned:16", "copy")
    assert "| 128 | 0.250 | 0.125 | 0.500 ± 0.062 [0.250, 0.750] |\n" in text and "| 32 | 0.500 | 0.250 | — |" in text
    assert text.endswith("</p>\n\nMonte Carlo: 4 draws of the untrained rows (`normal`), seed 7.\n")
    with pytest.raises(ReportError) as err:
        ar.learned_table({"alpha": {}}, "learned:4", "copy")
    assert str(err.value) == "`posreal alpha --pe learned:4 --task copy --json` has no 'alpha' intervals"


def test_static_routing_is_the_documented_text():
    # by hand, V = 2, n = 3: F(x)_0 = min, P[x_0 = min] = P[x_0 = 0] + P[all ones] = 1/2 + 1/8 = 5/8; row 1 is the
    # median, P[x_0 = median] = 3/4 (x_0 equals one of the other two)
    text = ar.static_routing("3", "2", "sort")
    assert text == ("| task | method | row i: β_i | min β_i |\n|---|---|---|---|\n"
                    "| `sort` | enumeration | 0: 5/8, 1: 3/4, 2: 5/8 | 5/8 |\n\n"
                    + _source("posreal.theory.expressivity.static_routing_bound(task, length=3, vocab=2), exact by "
                              "enumeration of all 2^3 inputs") + "\n")
    default = ar.static_routing("4", "2")                    # control: no task named is the four default tasks
    assert [line.split(" | ")[0] for line in default.splitlines()[2:6]] == ["| `copy`", "| `reverse`", "| `sort`",
                                                                             "| `addition`"]


def test_ceilings_table_is_the_documented_text_and_names_the_missing_field():
    docs = {("column", "middle"): {"realized": 1, "total": 8, "optimal": "proved", "verified": False}}
    assert ar.ceilings_table(docs, "16") == (
        "| free kernel | task | rows realized at best | α* | optimality | witness re-checked |\n"
        "|---|---|---|---|---|---|\n| column | `middle` | 1 of 8 | — | proved | **NO** |\n\n"
        + _source("posreal ceiling --kernel K --task T --length 16 --json (z3 Optimize), run during this build") + "\n")
    for key in ("realized", "total", "optimal"):
        doc = {"realized": 1, "total": 8, "optimal": "proved"}
        del doc[key]
        with pytest.raises(ReportError) as err:
            ar.ceilings_table({("column", "middle"): doc}, "16")
        assert str(err.value) == f"`posreal ceiling --json` has no {key!r}"


def test_induction_table_is_the_documented_text_with_its_footnote():
    from posreal.theory.induction import induction_alpha
    res = induction_alpha("relbias", 8, [17], extension="none")
    cell = f"{fmt_alpha(res.alpha(17))} ({fmt_alpha(res.copy.alpha(17))})"
    head = " | ".join(f"{m}: α^ind (α copy) at L = 17" for m in ("none", "pi", "ntk", "yarn"))
    assert ar.induction_table("8", "17", "relbias", "nope") == (
        f"| PE | {head} |\n|---|---|---|---|---|\n| `relbias` | {cell} | n/a | n/a | n/a |\n"
        "| `nope` | — | n/a | n/a | n/a |\n\n"
        + _source("posreal.theory.induction.induction_alpha(pe, train_length=8, lengths=[17], extension=...)")
        + "\n\n—: layer 1 (`offset:1`) is not realizable at $L_0$ (e.g. `nope`, column PEs, a bias that favours "
          "offset 0); — in parentheses: `copy` is not realizable at $L_0$. *n/a*: the method does not act on the "
          "PE.\n")
    two = ar.induction_table("8", "17,33", "relbias").splitlines()          # control: two lengths joined by " / "
    assert two[0].startswith("| PE | none: α^ind (α copy) at L = 17 / 33 | ")
    res33 = induction_alpha("relbias", 8, [17, 33], extension="none")
    cell33 = f"{fmt_alpha(res33.alpha(33))} ({fmt_alpha(res33.copy.alpha(33))})"
    assert two[2].startswith(f"| `relbias` | {cell} / {cell33} |")
