"""Class ceilings α*_n (MaxSMT): the reference ceilings of definitions.md#class-ceiling reproduced by the code, the
witness re-counted here without z3 or theory, cross-checks against α_L and the shear, and the
``posreal ceiling`` CLI (JSON shape, bad input → exit 2)."""

import json
import subprocess
import sys
from fractions import Fraction

import pytest

from posreal.checks.smt.ceiling import compute_ceiling
from posreal.cli import main
from posreal.theory.rational import parse_fraction
from posreal.theory.alpha import compute_alpha

pytestmark = pytest.mark.smt

# definitions.md#class-ceiling, free relative (Toeplitz) kernel at n = 16, computed independently of the project
REFERENCE_RELATIVE_16 = {"copy": (8, 8), "middle": (1, 8), "reverse": (4, 8), "position:1": (8, 15)}


def realized_rows_by_hand(r, task_rows):
    """Rows i (target t) with r(i - t) > r(i - j) for all other j ≤ i: plain Python, no theory."""
    return [i for i, t in task_rows if all(r[i - t] > r[i - j] for j in range(i + 1) if j != t)]


def rows_of(task, n):
    from posreal.theory.tasks import parse_task
    rows, targets = parse_task(task).rows_and_targets(n)
    return list(zip(rows.tolist(), targets.tolist()))


@pytest.mark.parametrize("task", sorted(REFERENCE_RELATIVE_16))
def test_reference_ceilings_of_free_relative_kernels(task):
    c = compute_ceiling(task, 16, kernel="relative")
    assert (c.realized, c.total) == REFERENCE_RELATIVE_16[task]
    assert c.optimal == "proved" and c.verified
    assert all(isinstance(w, Fraction) for w in c.best_kernel) and len(c.best_kernel) == 16
    assert realized_rows_by_hand(c.best_kernel, rows_of(task, 16)) == c.realized_rows


def test_middle_has_one_row_at_every_small_length():
    for n in range(2, 13):
        c = compute_ceiling("middle", n, kernel="relative")
        assert c.realized == 1 and c.optimal == "proved", n


@pytest.mark.parametrize("task", ["copy", "reverse", "half", "offset:2"])
def test_shear_duality_of_ceilings(task):
    # Proposition 4: column kernels on dual:T do exactly what relative kernels do on T
    rel = compute_ceiling(task, 10, kernel="relative")
    col = compute_ceiling(f"dual:{task}", 10, kernel="column")
    assert (rel.realized, rel.total) == (col.realized, col.total)


def test_shear_duality_of_pe_ceilings():
    a = compute_ceiling("reverse", 12, pe="relbias", train_length=8)
    b = compute_ceiling("dual:reverse", 12, pe="dual:relbias", train_length=8)
    assert (a.realized, a.total) == (b.realized, b.total) and a.verified and b.verified


@pytest.mark.parametrize("pe,task", [("relbias", "position:0"), ("alibi", "position:0"), ("colbias", "position:0")])
def test_alpha_never_exceeds_the_ceiling(pe, task):
    alpha = compute_alpha(pe, task, 16, [32], "exact").to_json()
    c = compute_ceiling(task, 32, pe=pe, train_length=16)
    counts = alpha["rows"]["32"]
    assert c.total == counts["total"] and c.optimal == "proved" and c.verified
    assert counts["realized"] <= c.realized


def test_structural_ties_and_one_key_rows():
    assert compute_ceiling("offset:1", 8, pe="nope").realized == 0          # every row tied
    one = compute_ceiling("position:0", 8, pe="nope")
    assert (one.realized, one.realized_rows) == (1, [0])                   # row 0 has one key


def test_irrational_pe_uses_rationalized_features_and_says_so():
    c = compute_ceiling("offset:1", 8, pe="rope:4", train_length=8)
    assert c.features.startswith("float64") and c.notes and c.verified and c.optimal == "proved"


def test_cli_json_shape(capsys):
    code = main(["ceiling", "--kernel", "relative", "--task", "reverse", "--length", "16", "--json"])
    out = capsys.readouterr().out
    doc = json.loads(out)
    assert code == 0 and doc["realized"] == 4 and doc["total"] == 8
    best_kernel = [parse_fraction(w) for w in doc["witness"]]
    assert realized_rows_by_hand(best_kernel, rows_of("reverse", 16)) == doc["realized_rows"]


@pytest.mark.parametrize("argv", [
    ["--kernel", "relative", "--task", "copy", "--length", "65"],
    ["--kernel", "relative", "--task", "copy", "--length", "0"],
    ["--kernel", "diagonal", "--task", "copy", "--length", "8"],
    ["--pe", "learned:4", "--task", "copy", "--length", "8"],
    ["--pe", "rope:3", "--task", "copy", "--length", "8"],
    ["--kernel", "relative", "--task", "sideways", "--length", "8"],
    ["--kernel", "relative", "--pe", "relbias", "--task", "copy", "--length", "8"],
    ["--task", "copy", "--length", "8"],
    ["--kernel", "relative", "--task", "copy", "--length", "8", "--timeout", "-1"],
    ["--kernel", "relative", "--task", "position:20", "--length", "8"],   # R_n empty: α*_n undefined
])
def test_cli_bad_input_is_one_line_and_exit_2(argv, capsys):
    assert main(["ceiling", *argv]) == 2
    err = capsys.readouterr().err.strip()
    assert err and "\n" not in err and "Traceback" not in err


def test_a_task_with_no_scored_row_is_refused_not_a_ceiling_of_one(capsys):
    from posreal.theory.errors import SpecError
    with pytest.raises(SpecError, match="scores no row"):
        compute_ceiling("position:20", 8, kernel="relative")
    assert main(["ceiling", "--kernel", "relative", "--task", "position:20", "--length", "8"]) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and len(captured.err.strip().splitlines()) == 1 and "no row" in captured.err


@pytest.mark.subprocess
def test_cli_as_a_subprocess():
    done = subprocess.run([sys.executable, "-m", "posreal", "ceiling", "--kernel", "column", "--task", "middle",
                           "--length", "8", "--json"], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    doc = json.loads(done.stdout)
    assert (doc["realized"], doc["total"]) == (4, 4)    # column kernel peaked at h: every middle row


def test_timeout_is_unknown_and_exit_1(capsys):
    # abssin:4 on copy at n = 16 does not finish in half a second: a lower bound only, never a pass
    code = main(["ceiling", "--pe", "abssin:4", "--task", "copy", "--length", "16", "--timeout", "0.5", "--json"])
    captured = capsys.readouterr()
    doc = json.loads(captured.out)
    assert code == 1 and doc["optimal"] == "unknown" and doc["reason"]
    assert "not certified" in captured.err
