"""Command-line conventions people expect: ``--version`` (and ``posreal.__version__``), global options
after the subcommand too, CSV at full precision with ASCII headers, JSON length keys in numeric order,
``search colspan`` exit codes as its help says, exit 70 in ``--help``, and ``table --exact/--certified/--limit``
with its defaults shown."""

from __future__ import annotations

import csv
import io
import json
import re
from fractions import Fraction
from importlib.metadata import version

import pytest

import posreal
from posreal.cli import main
from posreal.runtime import resources


def test_version_is_the_package_metadata(capsys):
    assert posreal.__version__ == version("positional-realizability")
    assert main(["--version"]) == 0
    assert capsys.readouterr().out == f"posreal {posreal.__version__}\n"


@pytest.mark.parametrize("argv", [["--max-memory", "1K", "alpha", "--pe", "relbias", "--task", "offset:1"],
                                  ["alpha", "--pe", "relbias", "--task", "offset:1", "--max-memory", "1K"],
                                  ["search", "colspan", "--max-memory", "1K", "--evidence-steps", "10"]])
def test_max_memory_before_or_after_the_subcommand(argv, capsys, monkeypatch):
    seen = []
    monkeypatch.setattr(resources, "configure", lambda budget: seen.append(budget))
    monkeypatch.setattr("posreal.commands.alpha.run", lambda args: 0)
    import posreal.commands.search as search
    monkeypatch.setattr(search, "run_colspan", lambda args: 0)
    main(argv)
    assert seen == [1024]


def test_max_memory_given_before_is_not_reset_by_the_subcommand(monkeypatch):
    """The subcommand's copy has no default, so it never overwrites a value given before it."""
    seen = []
    monkeypatch.setattr(resources, "configure", lambda budget: seen.append(budget))
    monkeypatch.setattr("posreal.commands.alpha.run", lambda args: 0)
    main(["--max-memory", "2K", "alpha", "--pe", "relbias", "--task", "offset:1"])
    main(["alpha", "--pe", "relbias", "--task", "offset:1"])
    assert seen == [2048, None]


def test_help_lists_exit_70_and_global_options(capsys):
    assert main(["--help"]) == 0
    text = " ".join(capsys.readouterr().out.split())
    assert "70 an internal error" in text and "--version" in text and "follow the subcommand" in text


def test_json_length_keys_are_in_numeric_order(capsys):
    assert main(["alpha", "--pe", "relbias", "--task", "offset:1", "--lengths", "128,32,256,64", "--json"]) == 0
    out = capsys.readouterr().out
    doc = json.loads(out)
    assert list(doc["alpha"]) == ["32", "64", "128", "256"]
    # the printed text, not only the parsed object: "32" is printed before "128"
    block = out[out.index('"alpha": {'):]
    assert block.index('"32"') < block.index('"128"')
    # every other key stays sorted as text
    assert [k for k in doc if not k.isdigit()] == sorted(k for k in doc if not k.isdigit())


def test_table_csv_full_precision_ascii_headers(capsys):
    assert main(["table", "--pes", "rope:16,relbias", "--tasks", "offset:1,middle", "--lengths", "32,256",
                 "--csv"]) == 0
    out = capsys.readouterr().out
    assert out.isascii()
    rows = list(csv.DictReader(io.StringIO(out)))
    assert list(rows[0]) == ["pe", "kind", "task", "class", "realizable_at_L0", "alpha_32", "alpha_256",
                             "undecided_32", "undecided_256"]
    assert main(["alpha", "--pe", "rope:16", "--task", "offset:1", "--lengths", "32,256", "--json"]) == 0
    alpha = json.loads(capsys.readouterr().out)["alpha"]
    rope = next(r for r in rows if r["pe"] == "rope:16" and r["task"] == "offset:1")
    assert float(rope["alpha_256"]) == alpha["256"]                       # every digit, not 3 decimals
    assert len(rope["alpha_256"]) > 6
    unrealizable = next(r for r in rows if r["pe"] == "relbias" and r["task"] == "middle")
    assert (unrealizable["realizable_at_L0"], unrealizable["alpha_32"]) == ("no", "")


def test_table_exact_gives_rationals_and_refuses_irrational_pes_before_any_work(capsys):
    assert main(["table", "--pes", "relbias,alibi", "--tasks", "offset:1,position:0", "--lengths", "32",
                 "--csv", "--exact"]) == 0
    rows = list(csv.DictReader(io.StringIO(capsys.readouterr().out)))
    values = {(r["pe"], r["task"]): r["alpha_32"] for r in rows}
    # by hand, L0 = 16, L = 32.  relbias·offset:1: the bucket of offset 1 wins on every row (Theorem 2, δ* = 1): 1.
    # relbias·position:0: row i's target is offset i; realizable at 16 with θ increasing over buckets 0..15; on the
    # 32-grid rows 16..31 put their target in the clipped bucket 15 together with offsets 15..i (a tie, lost),
    # rows 0..15 keep theirs: 16/32 = 1/2.  alibi·position:0: a negative slope θ makes the kernel grow with the
    # offset, so key 0 wins on every row: 1.  alibi·offset:1: one slope cannot single out offset 1: not realizable.
    assert values == {("relbias", "offset:1"): "1", ("relbias", "position:0"): "1/2",
                      ("alibi", "offset:1"): "", ("alibi", "position:0"): "1"}
    assert Fraction(values[("relbias", "position:0")]) == Fraction(16, 32)
    assert main(["table", "--pes", "relbias,rope:16", "--exact"]) == 2
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1 and "rope:16" in err and "--certified" in err


def test_table_limit_and_certified(capsys):
    assert main(["table", "--pes", "relbias", "--tasks", "offset:1", "--lengths", "32", "--limit"]) == 0
    out = capsys.readouterr().out
    assert "α♯_32" in out and "[1/1, 1/1]" in out and "predicted lim acc_L" in out
    assert main(["table", "--pes", "relbias", "--tasks", "offset:1", "--lengths", "32", "--certified",
                 "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["cells"][0]["mode"] == "certified"
    assert main(["table", "--limit", "--geometry", "linf"]) == 2


def test_table_help_shows_its_defaults_and_explains_the_dash(capsys):
    assert main(["table", "--help"]) == 0
    text = " ".join(capsys.readouterr().out.split())
    assert "(default 32,64,128,256)" in text and "(default 16)" in text
    assert "--exact" in text and "--certified" in text and "--limit" in text
    assert re.search(r"— marks a cell not realizable at L0", text)


def test_search_colspan_exit_codes_are_as_its_help_says(capsys, monkeypatch):
    assert main(["search", "colspan", "--help"]) == 0
    text = " ".join(capsys.readouterr().out.split())
    assert "Exit codes: 0 both forms reproduced and every certificate verified" in text
    import posreal.counterexamples.colspan as colspan
    from posreal.counterexamples.colspan import StaticStats
    real_static = colspan.find_static
    # reproduced (instances found, certificates verified): exit 0, as the help says
    assert main(["search", "colspan", "--json", "--evidence-steps", "100"]) == 0
    capsys.readouterr()
    # the control: no static instance found means the reproduction failed, exit 1
    monkeypatch.setattr(colspan, "find_static", lambda *a, **k: ([], StaticStats()))
    assert main(["search", "colspan", "--json", "--evidence-steps", "100"]) == 1
    assert json.loads(capsys.readouterr().out)["reproduced"] is False
    assert real_static is not colspan.find_static
