"""``posreal alpha --task induction`` and ``posreal table --tasks induction`` in-process: α^ind per length under
"alpha" beside α(copy) and α(offset:1); every bad input one line on stderr, exit 2."""

import json

import pytest

from posreal.cli import main
from posreal.theory.alpha import compute_alpha
from posreal.theory.induction import induction_alpha


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_alpha_json_gives_alpha_ind_per_length_beside_copy_and_offset1(capsys):
    code, out, _ = run(capsys, "alpha", "--pe", "rope:16", "--task", "induction", "--extension", "pi",
                       "--lengths", "33,65", "--json")
    doc = json.loads(out)
    assert code == 0 and doc["task"] == "induction" and doc["extension"] == "pi"
    api = induction_alpha("rope:16", 16, [33, 65], extension="pi")
    assert doc["alpha"] == {str(L): api.alpha(L) for L in (33, 65)}
    for L in (33, 65):
        assert doc["alpha_copy"][str(L)] == compute_alpha("rope:16", "copy", 16, [L], extension="pi").alpha(L)
        assert doc["alpha_offset1"][str(L)] == compute_alpha("rope:16", "offset:1", 16, [L], extension="pi").alpha(L)
    assert "versions" in doc


def test_alpha_text_and_default_lengths(capsys):
    code, out, err = run(capsys, "alpha", "--pe", "relbias", "--task", "induction", "--exact")
    assert code == 0 and "alpha_ind" in out and "alpha(copy)" in out and "alpha(offset:1)" in out
    assert "33,65,129,257" in err                         # the default lengths, said on stderr
    assert out.splitlines()[0].startswith("relbias · induction")


@pytest.mark.parametrize("argv,needle", [
    (["alpha", "--pe", "rope:16", "--task", "induction", "--lengths", "32"], "2m + 1"),
    (["alpha", "--pe", "rope:16", "--task", "induction", "--lengths", "33,64"], "2m + 1"),
    (["alpha", "--pe", "rope:16", "--task", "induction:2"], "token task"),
    (["alpha", "--pe", "rope:16", "--task", "match"], "induction"),
    (["alpha", "--pe", "rope:16", "--task", "induction", "--geometry", "linf"], "l2"),
    (["alpha", "--pe", "rope:16", "--task", "induction", "--limit"], "--limit"),
    (["alpha", "--pe", "learned:16", "--task", "induction"], "linear PE"),
    (["table", "--tasks", "copy,induction"], "induction alone"),
    (["table", "--tasks", "induction", "--lengths", "64"], "2m + 1"),
    (["table", "--tasks", "induction", "--lengths", "33", "--csv"], "--json"),
    (["table", "--tasks", "induction:1"], "token task"),
    (["ceiling", "--task", "induction", "--length", "8", "--kernel", "relative"], "positional-only"),
    (["alpha", "--pe", "rope:16", "--task", "dual:match"], "positional-only"),
])
def test_bad_input_is_one_line_exit_2(capsys, argv, needle):
    code, out, err = run(capsys, *argv)
    lines = [x for x in err.splitlines() if x.strip()]
    assert code == 2 and out == "" and len(lines) == 1 and needle in lines[0], (argv, err)


def test_table_tasks_induction(capsys):
    code, out, _ = run(capsys, "table", "--tasks", "induction", "--pes", "rope:16,relbias,abscol:16",
                       "--lengths", "33", "--json")
    doc = json.loads(out)
    assert code == 0 and [c["pe"] for c in doc["cells"]] == ["rope:16", "relbias", "abscol:16"]
    assert doc["cells"][0]["alpha"]["33"] == induction_alpha("rope:16", 16, [33]).alpha(33)
    assert doc["cells"][2]["alpha"]["33"] is None          # offset:1 not realizable for a column PE
    code, out, _ = run(capsys, "table", "--tasks", "induction", "--pes", "rope:16,relbias", "--lengths", "33",
                       "--extension", "pi")
    assert code == 0 and "n/a" in out and "rope:16" in out


def test_positional_tasks_are_unchanged(capsys):
    code, out, _ = run(capsys, "alpha", "--pe", "rope:16", "--task", "offset:1", "--lengths", "32", "--json")
    assert code == 0 and json.loads(out)["alpha"] == {"32": compute_alpha("rope:16", "offset:1", 16, [32]).alpha(32)}
