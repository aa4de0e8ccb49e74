"""``--extension`` on ``posreal alpha`` and ``posreal table`` (text, JSON, CSV, Markdown; errors: one line,
exit 2)."""

import csv
import io
import json
import os
import random
import subprocess
import sys

import pytest

from posreal.cli import main
from posreal.theory.extension import EXTENSIONS


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_alpha_json_names_the_extension(capsys):
    code, out, _ = run(capsys, "alpha", "--pe", "rope:16", "--task", "copy", "--extension", "pi", "--json")
    doc = json.loads(out)
    assert code == 0 and doc["extension"] == "pi" and doc["alpha"]["256"] == 1.0
    code, out, _ = run(capsys, "alpha", "--pe", "rope:16", "--task", "copy", "--json")
    assert "extension" not in json.loads(out)                      # plain re-evaluation: the document is unchanged


def test_alpha_text_names_the_extension(capsys):
    code, out, _ = run(capsys, "alpha", "--pe", "abscol:16", "--task", "middle", "--extension", "ntk",
                       "--lengths", "32,64")
    assert code == 0 and "extension ntk (θ* selected at L0 without it)" in out.splitlines()[0]


def test_alpha_geometry_combines_with_an_extension(capsys):
    code, out, _ = run(capsys, "alpha", "--pe", "rope:16", "--task", "offset:1", "--geometry", "linf",
                       "--extension", "pi", "--lengths", "32", "--json")
    doc = json.loads(out)
    assert code == 0 and doc["geometry"] == "linf" and doc["extension"] == "pi"
    lo, hi = doc["alpha_interval"]["32"]
    assert lo <= hi < 1


@pytest.mark.subprocess
def test_the_issue_command_as_a_subprocess():
    """The command of the issue, run as a user would: certified α = 1 (part (b) of the statement)."""
    proc = subprocess.run([sys.executable, "-m", "posreal", "alpha", "--pe", "rope:32", "--task", "copy",
                           "--train-length", "32", "--lengths", "1024", "--extension", "pi", "--certified", "--json"],
                          capture_output=True, text=True, env={**os.environ, "PYTHONPATH": os.getcwd()}, timeout=600)
    doc = json.loads(proc.stdout)
    assert proc.returncode == 0 and doc["mode"] == "certified" and doc["extension"] == "pi"
    assert doc["alpha"]["1024"] == 1.0 and doc["rows"]["1024"]["undecided"] == 0


def _table_file(tmp_path):
    path = tmp_path / "t.json"
    path.write_text(json.dumps({"kind": "relative", "rows": [[0], [1], [2], [3]]}))
    return str(path)


NO_FREQUENCIES = "bucketed, kerple, fire, table and function PEs"    # the refusal names them


@pytest.mark.parametrize("argv, needle", [
    (["alpha", "--pe", "relbias", "--task", "copy", "--extension", "pi"], NO_FREQUENCIES),
    (["alpha", "--pe", "colbias:4", "--task", "middle", "--extension", "yarn"], NO_FREQUENCIES),
    (["alpha", "--pe", "rope:16", "--task", "copy", "--extension", "longrope"], "'longrope'"),
    (["alpha", "--pe", "rope:16", "--task", "copy", "--extension", "factors:"], "'factors:'"),
    (["alpha", "--pe", "rope:16", "--task", "copy", "--extension", "factors:/no/such/file.json"], "no/such"),
    (["alpha", "--pe", "alibi", "--task", "position:0", "--extension", "ntk"], "slope and alibi-fixed (pi)"),
    (["alpha", "--pe", "learned:4", "--task", "offset:1", "--extension", "pi"], "learned"),
    (["alpha", "--pe", "rope:16", "--task", "offset:1", "--extension", "pi", "--limit"], "--limit"),
    (["table", "--pes", "relbias,colbias", "--tasks", "copy", "--extension", "pi"], NO_FREQUENCIES),
    (["table", "--pes", "rope:16", "--tasks", "copy", "--extension", "everything"], "'everything'"),
    (["table", "--pes", "rope:16", "--tasks", "copy", "--extension", ""], "extension"),
])
def test_bad_extension_one_line_exit_2(capsys, argv, needle):
    code, out, err = run(capsys, *argv)
    assert code == 2 and out == ""
    assert len(err.strip().splitlines()) == 1 and needle in err and "Traceback" not in err


def test_a_table_pe_refuses_extensions(capsys, tmp_path):
    code, out, err = run(capsys, "alpha", "--pe", f"table:{_table_file(tmp_path)}", "--task", "offset:0",
                         "--extension", "pi", "--train-length", "2", "--lengths", "4")
    assert code == 2 and len(err.strip().splitlines()) == 1 and NO_FREQUENCIES in err


@pytest.mark.parametrize("content", ["", "[", "[]", "[[2]]", "[NaN]", "[1e999]", "[0]", "[-1]", "[\"2/0\"]",
                                     "[\"9e99999999\"]", "[1, 2, 3]", "[" + ",".join(["2"] * 8000) + "]",
                                     "[" * 500 + "]" * 500])
def test_hostile_factors_files_exit_2(capsys, tmp_path, content):
    path = tmp_path / "f.json"
    path.write_text(content)
    code, out, err = run(capsys, "alpha", "--pe", "rope:16", "--task", "copy", "--extension", f"factors:{path}")
    assert code == 2 and out == "" and len(err.strip().splitlines()) == 1 and "Traceback" not in err


# a seeded random blob: the same test ids on every xdist worker
@pytest.mark.parametrize("blob", [b"[1, \xfe]", b"\xff" * 100,
                                  bytes(random.Random(0).randrange(256) for _ in range(64))])
def test_binary_factors_files_exit_2(capsys, tmp_path, blob):
    path = tmp_path / "f.json"
    path.write_bytes(blob)
    code, _, err = run(capsys, "alpha", "--pe", "rope:16", "--task", "copy", "--extension", f"factors:{path}")
    assert code == 2 and len(err.strip().splitlines()) == 1


def test_huge_factors_file_exit_2(capsys, tmp_path):
    path = tmp_path / "f.json"
    with open(path, "w") as fh:
        fh.write("[" + "1," * (2 ** 20) + "1]")                   # 2 MiB: refused by size before parsing
    code, _, err = run(capsys, "alpha", "--pe", "rope:16", "--task", "copy", "--extension", f"factors:{path}")
    assert code == 2 and len(err.strip().splitlines()) == 1 and "at most 1 MiB" in err


def test_a_directory_as_factors_file_exit_2(capsys, tmp_path):
    code, _, err = run(capsys, "alpha", "--pe", "rope:16", "--task", "copy", "--extension", f"factors:{tmp_path}")
    assert code == 2 and len(err.strip().splitlines()) == 1


def test_valid_factors_file(capsys, tmp_path):
    path = tmp_path / "f.json"
    path.write_text(json.dumps(["2"] * 8))                       # λ_f = 2 for every frequency: PI at L = 2·L0
    code, out, _ = run(capsys, "alpha", "--pe", "rope:16", "--task", "copy", "--extension", f"factors:{path}",
                       "--lengths", "32", "--json")
    doc = json.loads(out)
    _, out_pi, _ = run(capsys, "alpha", "--pe", "rope:16", "--task", "copy", "--extension", "pi", "--lengths", "32",
                       "--json")
    assert code == 0 and doc["extension"] == f"factors:{path}" and doc["rows"] == json.loads(out_pi)["rows"]


# --------------------------------------------------------------------------- table
ARGS = ("table", "--pes", "rope:16,relbias,alibi", "--tasks", "offset:1,position:0,copy", "--lengths", "32,64")


def test_table_all_json(capsys):
    code, out, _ = run(capsys, *ARGS, "--extension", "all", "--json")
    doc = json.loads(out)
    assert code == 0 and doc["extensions"] == list(EXTENSIONS)
    assert len(doc["cells"]) == len(EXTENSIONS) * 9
    by = {(c["extension"], c["pe"], c["task"]): c for c in doc["cells"]}
    refused = by[("ntk", "relbias", "copy")]
    assert refused["applicable"] is False and "bucketed" in refused["reason"]
    assert by[("pi", "alibi", "position:0")]["applicable"] is True
    assert by[("ntk", "alibi", "position:0")]["applicable"] is False
    for method in EXTENSIONS:       # each applicable cell is the alpha command's document under that method
        cell = by[(method, "rope:16", "copy")]
        _, single, _ = run(capsys, "alpha", "--pe", "rope:16", "--task", "copy", "--lengths", "32,64",
                           "--extension", method, "--json")
        assert cell["alpha"] == json.loads(single)["alpha"]


def test_table_all_text_and_markdown(capsys):
    """Side by side when that fits in 100 columns (one length); one table per method when it does not (two
    lengths: 4 × "1.000 / 1.000" beside the cell's columns is wider)."""
    code, out, _ = run(capsys, *ARGS[:-1], "32", "--extension", "all")
    lines = out.splitlines()
    assert code == 0 and "none, pi, ntk, yarn" in lines[1] and "α_L at L = 32" in lines[2]
    head = lines[3].split()
    assert head[-4:] == list(EXTENSIONS)
    relbias = next(line for line in lines if line.startswith("relbias") and "copy" in line)
    assert relbias.split()[-3:] == ["n/a"] * 3                  # pi, ntk, yarn do not act on relbias
    note = out.replace("\n", " ")                              # the note is wrapped to 100 columns
    assert "relbias (pi, ntk, yarn)" in note and "alibi (ntk, yarn)" in note
    code, out, _ = run(capsys, *ARGS, "--extension", "all")
    lines = out.splitlines()
    assert code == 0 and "none, pi, ntk, yarn" in lines[1] and "one table per method" in lines[2]
    assert [line for line in lines if line.startswith("extension ")] == [f"extension {m}:" for m in EXTENSIONS]
    heads = [line.split() for line in lines if line.startswith("pe ")]
    assert heads == [["pe", "kind", "task", "class", "realizable", "α_32", "α_64"]] * len(EXTENSIONS)
    relbias = [line.split()[-2:] for line in lines if line.startswith("relbias") and "copy" in line]
    assert relbias == [["0.000", "0.000"]] + [["n/a", "n/a"]] * 3
    assert "relbias (pi, ntk, yarn)" in out.replace("\n", " ") and "alibi (ntk, yarn)" in out.replace("\n", " ")
    code, out, _ = run(capsys, *ARGS, "--extension", "all", "--markdown")
    header = "| pe | kind | task | class | realizable at L0 | none | pi | ntk | yarn |"
    assert code == 0 and out.splitlines()[0] == header
    assert sum(line.startswith("|") for line in out.splitlines()) == 2 + 9
    assert out.splitlines()[-1] == "—: not realizable at L0 (no θ* to transfer)"


def test_table_all_csv(capsys):
    code, out, _ = run(capsys, *ARGS, "--extension", "all", "--csv")
    rows = list(csv.reader(io.StringIO(out)))
    assert code == 0 and rows[0][5:] == [f"α_{L} ({m})" for m in EXTENSIONS for L in (32, 64)]
    assert len(rows) == 1 + 9 and all(len(r) == 5 + 8 for r in rows)
    rope_copy = next(r for r in rows if r[0] == "rope:16" and r[2] == "copy")
    assert rope_copy[5:7] == ["0.000", "0.000"] and rope_copy[7:9] == ["1.000", "1.000"]     # none, then pi


def test_table_one_method(capsys, tmp_path):
    code, out, _ = run(capsys, *ARGS, "--extension", "pi")
    assert code == 0 and "evaluated under pi" in out.splitlines()[1]
    plot = tmp_path / "ext.png"
    code, _, err = run(capsys, *ARGS, "--extension", "all", "--plot", str(plot))
    assert code == 0 and plot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
