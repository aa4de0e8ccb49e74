"""`posreal alpha` on model configs (--pe hf:PATH), fixed-factor extensions, --fine-tune-length and --rows, through the
command line in-process; the winning key of --rows against brute force on random cells."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from posreal.cli import main
from posreal.theory.alpha import compute_alpha
from posreal.theory.transfer_operator import naive_kernel_matrix

ROOT = Path(__file__).resolve().parent.parent
CONFIGS = ROOT / "examples" / "configs"


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def small_config(tmp_path: Path, scaling: dict | None, original: int = 16) -> str:
    doc = {"head_dim": 16, "rope_theta": 10000.0, "max_position_embeddings": 8 * original}
    if scaling is not None:
        doc["rope_scaling"] = {**scaling, "original_max_position_embeddings": original}
    path = tmp_path / "config.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    return str(path)


def test_a_config_gives_the_pe_the_train_length_the_lengths_and_the_transfer(capsys, tmp_path):
    path = small_config(tmp_path, {"rope_type": "linear", "factor": 4.0})
    code, out, _ = run(capsys, "alpha", "--pe", f"hf:{path}", "--task", "offset:1", "--json")
    doc = json.loads(out)
    assert code == 0 and doc["pe"] == "rope:16:10000" and doc["train_length"] == 16
    assert list(doc["alpha"]) == ["32", "128", "256"] and doc["extension"] == f"hf:{path}"
    assert doc["rope_scaling"]["rope_type"] == "linear" and doc["rope_scaling"]["factor"] == 4.0
    same = compute_alpha("rope:16", "offset:1", 16, [32, 128, 256], extension="linear:4")   # the fixed factor 4
    assert doc["alpha"] == {str(L): same.alpha(L) for L in (32, 128, 256)}
    plain = compute_alpha("rope:16", "offset:1", 16, [32, 128, 256])
    assert doc["alpha"] != {str(L): plain.alpha(L) for L in (32, 128, 256)}   # the scaling acts
    code, out, _ = run(capsys, "alpha", "--pe", f"hf:{path}", "--task", "offset:1", "--extension", "none", "--json")
    assert json.loads(out)["alpha"] == {str(L): plain.alpha(L) for L in (32, 128, 256)}


def test_fixed_factor_acts_at_every_length_per_length_factor_does_not():
    fixed = compute_alpha("rope:16", "offset:1", 16, [16, 64], extension="linear:4")
    per_length = compute_alpha("rope:16", "offset:1", 16, [16, 64], extension="pi")
    assert per_length.alpha(16) == 1.0 and fixed.alpha(16) != per_length.alpha(16)
    assert fixed.alpha(64) == per_length.alpha(64)                   # at L = 4 L0 both use s = 4


def test_fine_tuning_after_extension_changes_alpha():
    """Position interpolation with a fixed factor loses offset:1; selected again on the extended features it
    keeps it."""
    plain = compute_alpha("rope:32", "offset:1", 32, [256, 1024], extension="linear:8")
    tuned = compute_alpha("rope:32", "offset:1", 32, [256, 1024], extension="linear:8", fine_tune_length=64)
    assert plain.alpha(256) < 0.01 and tuned.alpha(256) == 1.0 and tuned.to_json()["fine_tune_length"] == 64


@pytest.mark.parametrize("argv, needle", [
    (["--fine-tune-length", "64"], "fine-tune length with extension"),              # needs an extension
    (["--extension", "linear:8", "--fine-tune-length", "8"], "fine-tune length"),    # not above L0
    (["--extension", "linear:8", "--fine-tune-length", "300"], "lengths >= the fine-tune length"),
    (["--extension", "linear:0"], "invalid extension"),
    (["--extension", "linear:x"], "invalid extension"),
    (["--rows", "0"], "rows"),
])
def test_bad_options_are_one_line_usage_errors(capsys, argv, needle):
    code, out, err = run(capsys, "alpha", "--pe", "rope:16", "--task", "offset:1", "--lengths", "256", *argv)
    assert code == 2 and out == "" and needle in err and err.count("\n") == 1


@pytest.mark.parametrize("text, needle", [
    ("{", "not JSON"), ('{"head_dim": 64}', "rope_theta is missing"),
    ('{"head_dim": 64, "rope_theta": 1e4, "max_position_embeddings": 64, "rope_scaling": {"rope_type": "x"}}',
     "rope_type is 'x'"),
])
def test_malformed_configs_exit_2_in_one_line(capsys, tmp_path, text, needle):
    path = tmp_path / "config.json"
    path.write_text(text, encoding="utf-8")
    code, out, err = run(capsys, "alpha", "--pe", f"hf:{path}", "--task", "offset:1")
    assert code == 2 and out == "" and needle in err and err.count("\n") == 1


def test_rows_explain_the_row_178_case(capsys):
    code, out, _ = run(capsys, "alpha", "--pe", "rope:16", "--task", "offset:1", "--lengths", "256", "--rows", "all",
                       "--json")
    rows = {r["row"]: r for r in json.loads(out)["failing_rows"]["256"]}
    assert code == 0 and len(rows) == 79
    r = rows[178]
    assert r["target"] == 177 and r["winner"] == 1 and r["margin"] < 0        # offset 177 beats offset 1
    shares = r["frequencies"]
    assert abs(sum(s["contribution"] for s in shares) - r["margin"]) < 1e-9   # the shares add up to the margin
    assert {s["f"] for s in shares} == set(range(8))
    f0 = next(s["contribution"] for s in shares if s["f"] == 0)
    assert abs(f0) < 1e-3                                                     # ω₀ = 1 has realigned


@pytest.mark.parametrize("seed", range(6))
def test_winning_key_and_margin_agree_with_brute_force(seed):
    rng = np.random.default_rng(seed)
    pe, task = [("rope:8", "offset:1"), ("abscol:8", "position:0"), ("dual:rope:8", "dual:offset:2"),
                ("abssin:4", "offset:1"), ("rope:4:100", "offset:3"), ("abscol:4:50", "position:2")][seed]
    result = compute_alpha(pe, task, int(rng.integers(8, 14)), [int(rng.integers(40, 80))])
    L = result.lengths[0]
    if not result.realizable:
        pytest.skip("not realizable at L0")
    dense = naive_kernel_matrix(result.pe, result.selection.theta, L, result.train_length)   # (L, L)
    rows = result.failing_rows(L, None)
    assert len(rows) == result.to_json()["rows"][str(L)]["failed"] + result.to_json()["rows"][str(L)]["undecided"]
    for r in rows:
        values = dense[r.row, : r.row + 1].copy()
        target = values[r.target]
        values[r.target] = -np.inf
        assert r.winner == int(np.argmax(values))
        assert r.margin == pytest.approx(target - values.max(), abs=1e-9)


def test_induction_under_a_config_defaults_to_its_odd_layout_lengths(capsys, tmp_path):
    """The induction layout needs n = 2m + 1: from a config, L0 + 1 and k·L0 + 1; α^ind is the induction circuit's
    under the config's own scaling (E3: α(offset:1) = 1 at a length gives α^ind = 1 there)."""
    path = small_config(tmp_path, {"rope_type": "linear", "factor": 4.0})
    code, out, err = run(capsys, "alpha", "--pe", f"hf:{path}", "--task", "induction", "--json")
    assert code == 0, err
    doc = json.loads(out)
    assert doc["train_length"] == 17 and list(doc["alpha"]) == ["33", "129", "257"]
    from posreal.theory.induction import induction_alpha
    direct = induction_alpha("rope:16", 17, [33, 129, 257], extension="linear:4")
    assert doc["alpha"] == {str(L): direct.alpha(L) for L in (33, 129, 257)}
    code, _, err = run(capsys, "alpha", "--pe", f"hf:{path}", "--task", "induction", "--lengths", "64")
    assert code == 2 and "odd length" in err                                    # the control: an even length
