"""The taxonomy's report (posreal.theory.taxonomy_report): ``posreal table --report PART`` prints the text the
docs' Taxonomy page shows, its tables are the cell documents' numbers, and a bad request is a one-line usage error."""

from __future__ import annotations


import pytest
from docs_hooks import hook_module, run_cli

from posreal.runtime.markdown import ReportError
from posreal.theory import taxonomy_report as tr


def _gen():
    return hook_module("posreal_docs_gen")


def test_the_cli_prints_what_the_page_shows(capsys):
    gen = _gen()
    gen.reset_cache()
    try:
        page = {part: gen.GENERATORS[f"taxonomy-{part}"]() for part in ("grid", "duals")}
    finally:
        gen.reset_cache()
    for part, text in page.items():
        code, out, _ = run_cli(capsys, "table", "--report", part)
        assert code == 0 and out == text, part
    assert page["grid"] != page["duals"]                       # control: two parts, two texts
    assert "| `rope:16` (" in page["grid"] and "**NO**" not in page["duals"]   # the shear keeps α (Proposition 4)


def _doc(pe: str, task: str, alpha: float | None) -> dict:
    return {"pe": pe, "task": task, "pe_kind": "relative", "task_class": "fixed-offset",
            "realizable": alpha is not None, "alpha": {"32": alpha}}


def test_the_duals_table_compares_each_cell_with_its_shear():
    same = tr.Documents({"l2": [_doc("relbias", "offset:1", 1.0), _doc("colbias", "position:1", 1.0)]}, [32], 16, 0.0)
    assert "| yes |" in tr.taxonomy_duals(same)
    planted = tr.Documents({"l2": [_doc("relbias", "offset:1", 1.0), _doc("colbias", "position:1", 0.5)]},
                           [32], 16, 0.0)                  # a shear that changed α: the table must say so
    assert "| **NO** |" in tr.taxonomy_duals(planted)
    lonely = tr.Documents({"l2": [_doc("relbias", "offset:1", 1.0)]}, [32], 16, 0.0)
    with pytest.raises(ReportError, match="empty"):        # no pair at all is no table, never an empty one
        tr.taxonomy_duals(lonely)


def test_the_grid_marks_unrealizable_cells():
    docs = tr.Documents({"l2": [_doc("nope", "offset:1", None), _doc("nope", "copy", 0.25)]}, [32], 16, 0.0)
    grid = tr.taxonomy_grid(docs)
    assert "| `nope` (relative) | — | 0.250 |" in grid and "not realizable at L0" in grid


def test_a_bad_report_request_is_a_one_line_usage_error(capsys):
    code, out, err = run_cli(capsys, "table", "--report", "everything")
    assert code == 2 and out == "" and "invalid choice: 'everything'" in err and len(err.strip().splitlines()) == 1
    code, out, err = run_cli(capsys, "table", "--report", "grid", "--json")
    assert code == 2 and out == "" and "--report PART" in err and len(err.strip().splitlines()) == 1
    with pytest.raises(ReportError, match="accepted: taxonomy, grid"):
        tr.report("everything")


@pytest.mark.parametrize("extra", [["--tasks", "copy"], ["--lengths", "32"], ["--train-length", "8"],
                                   ["--geometry", "linf"], ["--exact"], ["--certified"], ["--pes", "t5"]])
def test_report_refuses_an_option_it_would_ignore(capsys, extra):
    code, out, err = run_cli(capsys, "table", "--report", "grid", *extra)
    assert code == 2 and out == "" and "--report PART" in err and len(err.strip().splitlines()) == 1
    assert extra[0] in err


def test_control_report_takes_the_defaults_spelled_out(capsys):
    from posreal.theory.defaults import TRAIN_LENGTH
    code, out, _ = run_cli(capsys, "table", "--report", "duals", "--train-length", str(TRAIN_LENGTH))
    assert code == 0 and out


@pytest.mark.parametrize("task,partner", [("copy", "middle"), ("middle", "copy"), ("offset:2", "position:2"),
                                          ("position:0", "offset:0"), ("reverse", None)])
def test_the_shear_partner_of_a_task(task, partner):
    assert tr._task_partner(task) == partner


# Every table of a part, on hand-made documents: the cells are the documents' numbers.
def _full(pe: str, task: str, alpha: float | None, interval=None, undecided: int = 0, applicable=None) -> dict:
    doc = _doc(pe, task, alpha)
    doc["alpha_interval"] = {"32": interval if interval is not None else (None if alpha is None else [alpha, alpha])}
    doc["rows"] = {"32": {"undecided": undecided}} if alpha is not None else {}
    if applicable is not None:
        doc["applicable"] = applicable
    return doc


def test_the_taxonomy_table_lists_each_cell_with_its_realizability():
    docs = tr.Documents({"l2": [_doc("nope", "offset:1", None), _doc("relbias", "copy", 0.25)]}, [32], 16, 1.0)
    text = tr.taxonomy_table(docs)
    assert "| `nope` (relative) | `offset:1` (fixed-offset) | no | — |" in text
    assert "| `relbias` (relative) | `copy` (fixed-offset) | yes | 0.250 |" in text and "L0 = 16; 1.0 s" in text


def test_the_geometries_table_puts_the_three_intervals_side_by_side():
    g = tr.Documents({"l2": [_full("relbias", "copy", 0.5), _full("nope", "copy", None)],
                      "linf": [_full("relbias", "copy", 0.25, [0.25, 0.75], undecided=2), _full("nope", "copy", None)],
                      "l1": [_full("relbias", "copy", 0.5), _full("nope", "copy", None)]}, [32], 16, 0.0)
    text = tr.geometries_table(g)
    assert "| `relbias` · `copy` | 0.500 | [0.250, 0.750] (+2 undecided) | 0.500 |" in text
    assert "`nope`" not in text                                       # an unrealizable cell has no row


def test_the_extension_table_marks_methods_that_do_not_act():
    e = tr.Documents({"none": [_full("relbias", "copy", 0.5), _full("nope", "copy", None)],
                      "pi": [_full("relbias", "copy", 0.25, undecided=1), _full("nope", "copy", None)],
                      "ntk": [_full("relbias", "copy", 0.5, applicable=False), _full("nope", "copy", None)]},
                     [32], 16, 0.0)
    text = tr.extension_table(e)
    assert "| `relbias` · `copy` | fixed-offset | 0.500 | 0.250 (+1 u.) | n/a |" in text and "`nope`" not in text


def test_alpha_extensions_holds_compute_alpha_under_each_method():
    from posreal.runtime.markdown import fmt_alpha
    from posreal.theory.alpha import compute_alpha
    from posreal.theory.extension import EXTENSIONS
    text = tr.alpha_extensions("rope:8", "8", "16", "position:0")
    for method in EXTENSIONS:
        result = compute_alpha("rope:8", "position:0", 8, [16], extension=method)
        assert f"| `{method}` | {fmt_alpha(result.alpha(16))}" in text, method
    with pytest.raises(ReportError, match="name at least one task"):
        tr.alpha_extensions("rope:8", "8", "16")


def _doc2(pe: str, task: str, alphas: list[float] | None, kind: str = "relative", cls: str = "fixed-offset") -> dict:
    return {"pe": pe, "task": task, "pe_kind": kind, "task_class": cls, "realizable": alphas is not None,
            "alpha": {} if alphas is None else dict(zip(("32", "64"), alphas))}


# Exists because a mutant survived: the duals table's header (lengths joined by " / ") was unchecked.
def test_the_duals_table_is_the_documented_text_at_two_lengths():
    t = tr.Documents({"l2": [_doc2("relbias", "offset:1", [1.0, 0.5]), _doc2("colbias", "position:1", [1.0, 0.25]),
                             _doc2("rope:16", "copy", [0.5, 0.25]), _doc2("abscol:16", "middle", [0.5, 0.25]),
                             _doc2("relbias", "reverse", [0.5, 0.25])]}, [32, 64], 16, 0.0)
    lines = tr.taxonomy_duals(t).splitlines()
    assert lines[0] == "| cell | α at L = 32 / 64 | its shear | α of the shear | equal |"
    assert lines[1] == "|---|---|---|---|---|"
    # a row per registry PE with a shear partner whose partner cell is there (reverse has none: no row)
    assert lines[2] == ("| `relbias` · `offset:1` | 1.000 / 0.500 | `colbias` · `position:1` | 1.000 / 0.250 "
                        "| **NO** |")
    assert lines[3] == "| `rope:16` · `copy` | 0.500 / 0.250 | `abscol:16` · `middle` | 0.500 / 0.250 | yes |"
    assert lines[4:] == ["", '<p class="posreal-generated">Generated at build time from <code>posreal.theory.taxonomy'
                         '.taxonomy (pairs of registry cells related by the shear)</code>.</p>']


# Exists because a mutant survived: the grid's source line was unchecked.
def test_the_grid_is_the_documented_text_at_its_largest_length():
    t = tr.Documents({"l2": [_doc2("nope", "offset:1", None), _doc2("nope", "copy", [0.5, 0.25], cls="growing"),
                             _doc2("relbias", "offset:1", [1.0, 0.75]), _doc2("relbias", "copy", [1.0, 0.125],
                                                                                cls="growing")]}, [32, 64], 16, 0.0)
    assert tr.taxonomy_grid(t) == (
        "| α_64 (L0 = 16) | `offset:1` | `copy` |\n"
        "|---|---|---|\n"
        "| *task class* | *fixed-offset* | *growing* |\n"
        "| `nope` (relative) | — | 0.250 |\n"
        "| `relbias` (relative) | 0.750 | 0.125 |\n"
        "\n"
        '<p class="posreal-generated">Generated at build time from <code>posreal.theory.taxonomy.taxonomy</code>.</p>\n'
        "\n—: not realizable at L0 (no θ realizes every training row, so θ* does not exist).\n")


# Exists because a mutant survived: geometry_documents ran only in the docs build (every registry PE: slow).
def test_geometry_documents_recompute_each_cell_in_the_other_geometries_at_the_taxonomy_lengths(monkeypatch):
    """On one PE (the registry's list patched down), the ℓ∞ and ℓ1 documents hold, cell by cell, what
    compute_alpha gives in that geometry at the lengths of the ℓ2 documents; the ℓ2 documents are kept as given."""
    from posreal.theory import defaults
    from posreal.theory.alpha import compute_alpha
    monkeypatch.setattr(defaults, "TAXONOMY_PES", ("relbias",))
    l2_docs = [_doc("relbias", task, 1.0) for task in defaults.REGISTRY_TASKS]     # placeholders: kept as given
    g = tr.geometry_documents(tr.Documents({"l2": l2_docs}, [20, 24], defaults.TRAIN_LENGTH, 0.0))
    assert list(g.by) == ["l2", "linf", "l1"] and g.by["l2"] is l2_docs and g.lengths == [20, 24]
    for geometry in ("linf", "l1"):
        assert [d["task"] for d in g.by[geometry]] == list(defaults.REGISTRY_TASKS)
        for d in g.by[geometry]:
            expected = compute_alpha("relbias", d["task"], defaults.TRAIN_LENGTH, [20, 24], geometry=geometry)
            assert d["geometry"] == geometry and d["pe"] == "relbias"
            assert d["alpha"] == {str(L): expected.alpha(L) for L in (20, 24)}, (geometry, d["task"])


# Exists for mutation testing: each table's whole text (header, source line, footnote) on hand-made documents.
def _source(text: str) -> str:
    return f'<p class="posreal-generated">Generated at build time from <code>{text}</code>.</p>'


def test_the_taxonomy_table_is_the_documented_text():
    t = tr.Documents({"l2": [_doc2("nope", "offset:1", None), _doc2("relbias", "copy", [0.5, 0.25], cls="growing")]},
                     [32, 64], 16, 2.345)
    assert tr.taxonomy_table(t) == (
        "| PE (kind) | task (class) | realizable at L0 | α_32 | α_64 |\n|---|---|---|---|---|\n"
        "| `nope` (relative) | `offset:1` (fixed-offset) | no | — | — |\n"
        "| `relbias` (relative) | `copy` (growing) | yes | 0.500 | 0.250 |\n\n"
        + _source("posreal.theory.taxonomy.taxonomy (every registry PE × task, L0 = 16; 2.3 s)") + "\n")


def test_the_geometries_table_is_the_documented_text():
    g = tr.Documents({"l2": [_full("relbias", "copy", 0.5), _full("nope", "copy", None)],
                      "linf": [_full("relbias", "copy", 0.25, [0.25, 0.75], undecided=2), _full("nope", "copy", None)],
                      "l1": [_full("relbias", "copy", 0.5, undecided=0), _full("nope", "copy", None)]},
                     [32], 8, 0.25)
    assert tr.geometries_table(g) == (
        "| cell | l2: α at L = 32 | linf: α at L = 32 | l1: α at L = 32 |\n|---|---|---|---|\n"
        "| `relbias` · `copy` | 0.500 | [0.250, 0.750] (+2 undecided) | 0.500 |\n\n"
        + _source("posreal.theory.taxonomy.taxonomy(geometry=...) (registry cells realizable at L0 = 8; 0.2 s)")
        + "\n\n[lo, hi]: rows realized by every / by some optimal θ of the face.\n")


def test_the_geometries_table_joins_two_lengths_and_sums_their_undecided_rows():
    def two(interval32, interval64, u32, u64):
        return {"pe": "relbias", "task": "copy", "realizable": True,
                "alpha_interval": {"32": interval32, "64": interval64},
                "rows": {"32": {"undecided": u32}, "64": {"undecided": u64}}}
    g = tr.Documents({"l2": [two([1.0, 1.0], [0.5, 0.5], 0, 0)], "linf": [two([1.0, 1.0], [0.25, 0.5], 1, 2)],
                      "l1": [two([1.0, 1.0], [0.5, 0.5], 0, 0)]}, [32, 64], 16, 0.0)
    lines = tr.geometries_table(g).splitlines()
    assert lines[0] == "| cell | l2: α at L = 32 / 64 | linf: α at L = 32 / 64 | l1: α at L = 32 / 64 |"
    assert lines[2] == "| `relbias` · `copy` | 1.000 / 0.500 | 1.000 / [0.250, 0.500] (+3 undecided) | 1.000 / 0.500 |"


def test_the_extension_table_is_the_documented_text():
    e = tr.Documents({"none": [_full("relbias", "copy", 0.5), _full("nope", "copy", None)],
                      "pi": [_full("relbias", "copy", 0.25, undecided=1), _full("nope", "copy", None)],
                      "ntk": [_full("relbias", "copy", 0.5, applicable=True), _full("nope", "copy", None)],
                      "yarn": [_full("relbias", "copy", 0.5, applicable=False), _full("nope", "copy", None)]},
                     [32], 16, 12.34)
    assert tr.extension_table(e) == (
        "| cell | task class | none: α at L = 32 | pi: α at L = 32 | ntk: α at L = 32 | yarn: α at L = 32 |\n"
        "|---|---|---|---|---|---|\n"
        "| `relbias` · `copy` | fixed-offset | 0.500 | 0.250 (+1 u.) | 0.500 | n/a |\n\n"
        + _source("posreal.theory.taxonomy.taxonomy(extension=...) over the registry (L0 = 16; 12.3 s; the same "
                  "numbers as `posreal table --extension all`)")
        + "\n\n*n/a*: the method does not act on the PE (bucketed PEs have no frequencies or positions to rescale; "
          "`alibi` takes `pi` only). *u.*: rows undecided in float (within tolerance).\n")


def test_an_unknown_report_part_names_every_accepted_part():
    with pytest.raises(ReportError) as err:
        tr.report("everything")
    assert str(err.value) == ("unknown taxonomy report part 'everything'; accepted: taxonomy, grid, duals, "
                              "geometries, extensions")


def test_report_runs_the_named_part_with_the_progress_given(monkeypatch):
    seen = []
    monkeypatch.setitem(tr.PARTS, "grid", lambda p: seen.append(p) or "grid text")
    progress = lambda label: None                                  # noqa: E731
    assert tr.report("grid", progress) == "grid text" and seen == [progress]
    assert tr.report("grid") == "grid text" and seen[-1] is tr._none      # control: no progress, the default
    assert tr._none("taxonomy (ℓ2)") is None


def test_alpha_extensions_is_the_documented_text_with_unrealizable_cells():
    from posreal.theory.alpha import compute_alpha
    from posreal.theory.realization import REALIZED
    text = tr.alpha_extensions("abscol:8", "8", "16", "position:0", "offset:1")
    rows = []
    for method in ("none", "pi", "ntk", "yarn"):
        result = compute_alpha("abscol:8", "position:0", 8, [16], extension=method)
        out = result.outcomes[16]
        assert out.counts()["undecided"] == 0
        won = min(float(g) for g, st in zip(out.margins, out.status) if st == REALIZED)
        rows.append(f"| `{method}` | {result.alpha(16):.3f}, min margin {won:.2g} | — |\n")
    assert not compute_alpha("abscol:8", "offset:1", 8, [16]).realizable          # a column PE: offset:1 has no θ*
    assert text == ("| method | `position:0` | `offset:1` |\n|---|---|---|\n" + "".join(rows) + "\n"
                    + _source("posreal.theory.compute_alpha('abscol:8', task, train_length=8, lengths=[16], "
                              "extension=...)") + "\n")
    # control: the unrealizable task first; its "—" does not end the row
    swapped = tr.alpha_extensions("abscol:8", "8", "16", "offset:1", "position:0").splitlines()
    assert swapped[2:6] == [f"| {r.split(' | ')[0][2:]} | — | {r.split(' | ')[1]} |" for r in rows]
    with pytest.raises(ReportError) as err:
        tr.alpha_extensions("abscol:8", "8", "16")
    assert str(err.value) == "alpha-extensions: name at least one task"
