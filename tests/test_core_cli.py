"""``posreal alpha`` and ``posreal table`` — in-process, and once as a subprocess."""

import json
import subprocess
import sys

import pytest

from posreal.cli import main


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_alpha_json_shape(capsys):
    code, out, err = run(capsys, "alpha", "--pe", "rope:16", "--task", "offset:1", "--json")
    assert code == 0
    doc = json.loads(out)
    assert doc["pe"] == "rope:16" and doc["task"] == "offset:1" and doc["train_length"] == 16
    assert doc["realizable"] is True
    assert set(doc["alpha"]) == {"32", "64", "128", "256"}
    for L, counts in doc["rows"].items():
        assert set(counts) >= {"realized", "failed", "undecided", "total"}
        assert counts["realized"] + counts["failed"] + counts["undecided"] == counts["total"]
        assert doc["alpha"][L] == counts["realized"] / counts["total"]
    assert doc["selected"]["norm"] > 0 and doc["selected"]["support"] >= 1
    assert "numpy" in doc["versions"]


def test_alpha_json_not_realizable_has_null_alpha(capsys):
    code, out, _ = run(capsys, "alpha", "--pe", "relbias", "--task", "reverse", "--lengths", "32,64", "--json")
    doc = json.loads(out)
    assert code == 0 and doc["realizable"] is False and doc["alpha"] == {"32": None, "64": None}


def test_alpha_exact_reports_rationals(capsys):
    code, out, _ = run(capsys, "alpha", "--pe", "relbias", "--task", "position:0", "--exact", "--json")
    doc = json.loads(out)
    assert code == 0 and doc["alpha_exact"]["64"] == "1/4" and doc["selected"]["exact"] is True


@pytest.mark.parametrize("argv, needle", [
    (["alpha", "--pe", "bogus", "--task", "copy"], "'bogus'"),
    (["alpha", "--pe", "rope:15", "--task", "copy"], "odd"),
    (["alpha", "--pe", "rope:16", "--task", "nope"], "'nope'"),
    (["alpha", "--pe", "rope:16", "--task", "copy", "--lengths", "8"], "8"),
    (["alpha", "--pe", "rope:16", "--task", "copy", "--lengths", "32,x"], "'x'"),
    (["alpha", "--pe", "rope:16", "--task", "copy", "--train-length", "1.5"], "'1.5'"),
    (["alpha", "--pe", "abssin:16", "--task", "copy", "--lengths", "100000"], "100000"),
    (["alpha", "--pe", "rope:16", "--task", "copy", "--exact"], "exact"),
    (["table", "--pes", "rope:16", "--tasks", "copy", "--plot", "out.txt"], "out.txt"),
    (["table", "--pes", "rope:16", "--tasks", "copy", "--plot", "/nonexistent/dir/x.png"], "does not exist"),
    (["alpha", "--pe", "relbias", "--task", "offset:40"], "offset:40"),
])
def test_bad_input_one_line_exit_2(capsys, argv, needle):
    code, out, err = run(capsys, *argv)
    assert code == 2
    lines = err.strip().splitlines()
    assert len(lines) == 1 and needle in lines[0] and "Traceback" not in err


def test_table_formats_and_plot(capsys, tmp_path):
    args = ["table", "--pes", "relbias,rope:16", "--tasks", "offset:1,copy", "--lengths", "32,64"]
    code, out, _ = run(capsys, *args, "--json")
    doc = json.loads(out)
    assert code == 0 and len(doc["cells"]) == 4
    code, out, _ = run(capsys, *args, "--csv")
    assert out.splitlines()[0].startswith("pe,kind,task,class") and len(out.splitlines()) == 5
    code, out, _ = run(capsys, *args, "--markdown")
    assert out.startswith("| pe |") and out.count("\n") == 6
    png = tmp_path / "alpha.png"
    code, out, err = run(capsys, *args, "--plot", str(png))
    assert code == 0 and png.read_bytes()[:4] == b"\x89PNG"


@pytest.mark.subprocess
def test_subprocess_entry_point():
    proc = subprocess.run([sys.executable, "-m", "posreal", "alpha", "--pe", "alibi", "--task", "position:0",
                           "--lengths", "32", "--json"], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["alpha"] == {"32": 1.0}
    bad = subprocess.run([sys.executable, "-m", "posreal", "alpha", "--pe", "x", "--task", "copy"],
                         capture_output=True, text=True, timeout=120)
    assert bad.returncode == 2 and len(bad.stderr.strip().splitlines()) == 1


def test_table_never_hides_undecided_rows(capsys):
    """rope:2 · offset:0 at L0 = 8 has float-undecided rows (r(1) = r(8) exactly in ℝ): shown."""
    code, out, _ = run(capsys, "table", "--pes", "rope:2", "--tasks", "offset:0", "--train-length", "8",
                       "--lengths", "32", "--json")
    undecided = json.loads(out)["cells"][0]["rows"]["32"]["undecided"]
    assert code == 0 and undecided > 0
    code, out, _ = run(capsys, "table", "--pes", "rope:2", "--tasks", "offset:0", "--train-length", "8",
                       "--lengths", "32")
    assert f"(+{undecided} undecided)" in out


@pytest.mark.subprocess
def test_closed_pipe_stops_quietly():
    """`posreal table | head` style: the reader goes away before the output is written."""
    proc = subprocess.Popen([sys.executable, "-m", "posreal", "table", "--pes", "relbias", "--tasks", "copy"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    proc.stdout.close()                      # nobody reads: every write gets EPIPE
    _, err = proc.communicate(timeout=120)
    assert proc.returncode == 0 and b"Traceback" not in err and b"Exception ignored" not in err, err
