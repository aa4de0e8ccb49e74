"""Tests of the trained-head experiment (posreal.experiment, ``posreal experiment``):
hand-written gradients against finite differences and the per-sequence reference, the attention
of training against T_L θ from posreal.theory.kernels, Adam's first step, the quick grid's summary
arithmetic recomputed from its records, resume, and CLI usage errors."""

from __future__ import annotations

import json
import shutil

import numpy as np
import pytest
from posreal.experiment.grid import QUICK as QUICK_ADAM
from posreal.experiment.model import (
    PARAMS,
    attention,
    geometry,
    init_params,
    loss_and_grads,
    naive_loss_and_grads,
)
from posreal.experiment.optim import Adam
from posreal.theory.attention import transferred_attention
from posreal.experiment.plots import write_figures
from posreal.experiment.recipes import RECIPES
from posreal.experiment.runner import RECORDS, read_records, record_key, run_grid
from posreal.experiment.summary import stability, summarize
from posreal.theory.alpha import compute_alpha
from posreal.theory.pe_specs import parse_pe
from posreal.theory.errors import SpecError
from posreal.theory.tasks import parse_task

from posreal.cli import main

PES = ("relbias", "alibi", "rope:16", "abscol:16", "abssin:16")
VOLATILE = ("seconds", "timestamp")
QUICK = QUICK_ADAM.with_recipes(tuple(RECIPES.values()))   # what `posreal experiment --quick` runs


def _setup(pe_spec: str, task_spec: str, seed: int, n: int = 8, V: int = 7, d: int = 5, B: int = 4):
    rng = np.random.default_rng(seed)
    pe, task = parse_pe(pe_spec), parse_task(task_spec)
    geom = geometry(pe, task, n, n)
    params = init_params(V, d, pe.dim(n), rng)
    params["theta"] = 0.5 * rng.standard_normal(pe.dim(n))  # away from θ = 0, where A is uniform
    x = rng.integers(0, V, size=(B, n))
    return pe, task, geom, params, x, rng


@pytest.mark.parametrize("pe_spec", PES)
@pytest.mark.parametrize("task_spec", ["offset:1", "copy", "half"])
def test_gradients_match_central_differences(pe_spec, task_spec):
    _, _, geom, params, x, rng = _setup(pe_spec, task_spec, seed=len(pe_spec) * 7 + len(task_spec))
    _, grads = loss_and_grads(params, geom, x)
    h = 1e-6
    for name in PARAMS:
        for _ in range(6):
            idx = tuple(int(rng.integers(0, s)) for s in params[name].shape)
            old = params[name][idx]
            params[name][idx] = old + h
            up, _ = loss_and_grads(params, geom, x)
            params[name][idx] = old - h
            down, _ = loss_and_grads(params, geom, x)
            params[name][idx] = old
            numeric = (up - down) / (2 * h)
            assert abs(numeric - grads[name][idx]) <= 1e-6 * max(1.0, abs(numeric)), (name, idx)


def test_theta_gradient_is_not_zero_and_a_wrong_gradient_is_caught():
    """Negative control of the check above: a gradient with a flipped θ part fails it."""
    _, _, geom, params, x, _ = _setup("rope:16", "offset:1", seed=3)
    _, grads = loss_and_grads(params, geom, x)
    k = int(np.argmax(np.abs(grads["theta"])))
    assert abs(grads["theta"][k]) > 1e-4
    h = 1e-6
    old = params["theta"][k]
    params["theta"][k] = old + h
    up, _ = loss_and_grads(params, geom, x)
    params["theta"][k] = old - h
    down, _ = loss_and_grads(params, geom, x)
    numeric = (up - down) / (2 * h)
    assert abs(numeric - (-grads["theta"][k])) > 1e-3


@pytest.mark.parametrize("pe_spec", PES)
def test_shared_attention_equals_per_sequence_reference(pe_spec):
    _, _, geom, params, x, _ = _setup(pe_spec, "position:1", seed=11, n=10, B=6)
    loss, grads = loss_and_grads(params, geom, x)
    ref_loss, ref_grads = naive_loss_and_grads(params, geom, x)
    assert loss == pytest.approx(ref_loss, rel=1e-12, abs=1e-12)
    for name in PARAMS:
        np.testing.assert_allclose(grads[name], ref_grads[name], rtol=1e-9, atol=1e-13)


@pytest.mark.parametrize("pe_spec", PES)
def test_training_attention_is_the_transferred_kernel(pe_spec):
    """A from the dense pair features equals softmax(T_L θ) from posreal.theory.kernels, at L0 and at L > L0."""
    pe, task, _, params, _, _ = _setup(pe_spec, "middle", seed=5, n=8)
    for L in (8, 24):
        geom = geometry(pe, task, L, 8)
        np.testing.assert_allclose(attention(geom, params["theta"]),
                                   transferred_attention(pe, params["theta"], L, 8, geom.rows), atol=1e-12)


def test_adam_first_step_moves_each_coordinate_by_the_learning_rate():
    params = {"w": np.array([1.0, -2.0, 0.5])}
    Adam(lr=0.1).step(params, {"w": np.array([3.0, -0.01, 0.2])})
    np.testing.assert_allclose(params["w"], [0.9, -1.9, 0.4], atol=1e-6)


# --------------------------------------------------------------------------- the quick grid
@pytest.fixture(scope="module")
def quick_run(tmp_path_factory):
    out = tmp_path_factory.mktemp("quick")
    records = run_grid(QUICK, out)
    return out, records


def test_quick_grid_records_are_complete_and_predictions_are_alpha(quick_run):
    _, records = quick_run
    assert len(records) == QUICK.size
    assert len({record_key(r) for r in records}) == QUICK.size
    for r in records:
        result = compute_alpha(r["pe"], r["task"], r["train_length"], [r["length"]])
        assert r["realizable"] == result.realizable
        assert r["alpha"] == (result.alpha(r["length"]) if result.realizable else None)
        assert r["generalizes"] == ((r["token_accuracy"] if r["token_accuracy"] is not None
                                     else r["attention_accuracy"]) >= QUICK.threshold)
        assert r["recipe"] == RECIPES[r["recipe"]["name"]].to_json() and len(r["theta"]) == parse_pe(r["pe"]).dim(16)
        assert 0.0 <= r["attention_accuracy"] <= 1.0
        if r["model"] == "positional":   # no tokens: the verdict reads the attention accuracy
            assert r["token_accuracy"] is None and (r["vocab"], r["width"], r["seed"]) == (0, 0, 0)
            assert r["generalizes"] == (r["attention_accuracy"] >= QUICK.threshold)
        else:
            assert 0.0 <= r["token_accuracy"] <= 1.0
        assert r["convergence"]["status"] in ("converged", "not converged")
        assert r["versions"]["numpy"] == np.__version__


def test_quick_grid_summary_arithmetic(quick_run):
    _, every = quick_run
    records = [r for r in every if r["recipe"]["name"] == "adam"]
    threshold = QUICK.threshold
    s = summarize(records)
    real = [r for r in records if r["realizable"]]
    t = s["table"]
    cells = [t["alpha_one"]["generalizes"], t["alpha_one"]["fails"],
             t["alpha_below_one"]["generalizes"], t["alpha_below_one"]["fails"]]
    assert sum(cells) == s["realizable_measurements"] == len(real)
    assert s["realizable_measurements"] + s["not_realizable"]["measurements"] == s["measurements"] == len(records)
    assert t["alpha_one"]["generalizes"] + t["alpha_one"]["fails"] == sum(r["alpha"] == 1.0 for r in real)
    assert t["alpha_one"]["generalizes"] + t["alpha_below_one"]["generalizes"] == sum(
        r["token_accuracy"] >= threshold for r in real)
    agreeing = sum((r["alpha"] == 1.0) == (r["token_accuracy"] >= threshold) for r in real)
    assert s["agreeing"] == agreeing == t["alpha_one"]["generalizes"] + t["alpha_below_one"]["fails"]
    assert s["agreement_rate"] == agreeing / len(real)
    expected = {record_key(r) for r in real if (r["alpha"] == 1.0) != (r["token_accuracy"] >= threshold)}
    assert {record_key(r) for r in s["disagreements"]} == expected
    assert sum(c["disagreeing"] for c in s["disagreeing_cells"]) == len(expected)
    unreal = [r for r in records if not r["realizable"]]
    assert s["not_realizable"]["generalizes"] == sum(r["token_accuracy"] >= threshold for r in unreal)
    assert not s["stability"]["available"]   # the quick grid has no (64, 128) setting


def test_quick_grid_learns_the_training_length(quick_run):
    """Every realizable quick cell is learned at L0 by every recipe (else the comparison at L says nothing)."""
    _, records = quick_run
    assert all(r["train_token_accuracy"] >= 0.95 for r in records if r["realizable"] and r["model"] == "token")
    assert all(r["train_attention_accuracy"] == 1.0 for r in records if r["realizable"] and r["model"] == "positional")


def test_attention_accuracy_is_acc_L_of_the_recorded_theta(quick_run):
    """A record's θ is the trained head's: the fraction of R_L that T_L θ realizes is its attention accuracy."""
    from posreal.theory.alpha import row_outcomes
    _, records = quick_run
    for r in [r for r in records if r["model"] == "token"][::5]:
        theta = np.asarray(r["theta"])
        acc = row_outcomes(parse_pe(r["pe"]), parse_task(r["task"]), theta, r["length"], r["train_length"]).alpha
        assert acc == r["attention_accuracy"]


def test_records_hold_a_measurement_under_each_extension_that_acts_on_the_pe(quick_run):
    _, records = quick_run
    for r in records:
        # bucketed PEs have nothing to rescale; a positional-loss run has no tokens to measure
        expected = set() if r["pe"] == "relbias" or r["model"] == "positional" else {"pi", "ntk", "yarn"}
        assert set(r["extensions"]) == expected
        for m in r["extensions"].values():
            assert 0.0 <= m["token_accuracy"] <= 1.0 and m["generalizes"] == (m["token_accuracy"] >= QUICK.threshold)


def test_attention_accuracy_under_an_extension_is_alpha_of_the_recorded_theta(quick_run):
    """Under σ the attention accuracy is the fraction of R_L that T_L^σ θ realizes (YaRN's temperature is a
    positive factor: it moves no argmax)."""
    from posreal.theory.alpha import row_outcomes
    _, records = quick_run
    checked = 0
    for r in [r for r in records if r["model"] == "token"][::3]:
        for method, m in r["extensions"].items():
            acc = row_outcomes(parse_pe(r["pe"]), parse_task(r["task"]), np.asarray(r["theta"]), r["length"],
                               r["train_length"], extension=method).alpha
            assert acc == m["attention_accuracy"], (r["pe"], r["task"], r["length"], method)
            checked += 1
    assert checked > 0


@pytest.mark.parametrize("bad", [[1, 2], {"pi": 3}, {"pi": {"token_accuracy": "x", "attention_accuracy": 1.0}},
                                 {"pi": {"token_accuracy": True, "attention_accuracy": 1.0}}])
def test_a_record_with_malformed_extensions_is_a_one_line_error(quick_run, tmp_path, bad):
    _, records = quick_run
    path = tmp_path / RECORDS
    path.write_text(json.dumps({**records[0], "extensions": bad}) + "\n")
    with pytest.raises(SpecError) as err:
        read_records(path)
    assert "'extensions'" in str(err.value) and "\n" not in str(err.value)


def test_resume_gives_the_same_records(quick_run, tmp_path):
    out, records = quick_run
    copy = tmp_path / "run"
    shutil.copytree(out, copy)
    lines = (copy / RECORDS).read_text().splitlines(keepends=True)
    per_model = len(QUICK.multipliers)
    # drop the last model and one measurement of the one before, and leave a torn line
    kept = lines[: -per_model - 1]
    (copy / RECORDS).write_text("".join(kept) + lines[-1][:25])
    assert len(read_records(copy / RECORDS)[0]) == len(kept)
    resumed = run_grid(QUICK, copy, resume=True)
    on_disk, broken = read_records(copy / RECORDS)
    assert not broken and len(on_disk) == len(records)

    def strip(rs):
        return sorted(json.dumps({k: v for k, v in r.items() if k not in VOLATILE}, sort_keys=True) for r in rs)

    assert strip(resumed) == strip(on_disk) == strip(records)
    with pytest.raises(SpecError, match="--resume"):
        run_grid(QUICK, copy)
    with pytest.raises(SpecError, match="same grid"):
        run_grid(QUICK.with_recipe(steps=10), copy, resume=True)


def test_stability_compares_majority_verdicts():
    def rec(V, d, seed, acc, task="offset:1"):
        return {"pe": "relbias", "task": task, "vocab": V, "width": d, "seed": seed, "length": 32,
                "realizable": True, "alpha": 1.0, "token_accuracy": acc}
    records = [rec(64, 128, 0, 1.0), rec(64, 128, 1, 0.2), rec(64, 128, 2, 0.99),   # majority: generalizes
               rec(8, 16, 0, 0.1), rec(8, 16, 1, 0.2), rec(8, 16, 2, 0.99),         # majority: fails
               rec(16, 32, 0, 0.97), rec(16, 32, 1, 0.96), rec(16, 32, 2, 0.1)]     # majority: generalizes
    s = stability(records, 0.95)
    assert s["available"] and s["cell_verdicts_compared"] == 2 and s["cell_verdicts_matching"] == 1
    assert s["mismatches"] == [{"pe": "relbias", "task": "offset:1", "length": 32, "vocab": 8, "width": 16,
                                "reference_generalizes": True, "setting_generalizes": False}]


def test_figures_are_written_from_a_summary(quick_run, tmp_path):
    _, records = quick_run
    from posreal.experiment.summary import summarize_run
    paths = write_figures(summarize_run(records, QUICK, []), tmp_path)
    assert paths and all(p.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" for p in paths)


# --------------------------------------------------------------------------- CLI
@pytest.mark.parametrize("argv, needle", [
    (["--jobs", "0"], "--jobs"),
    (["--quick", "--full"], "not allowed"),
    (["--threshold", "1.5"], "threshold"),
    (["--threshold", "abc"], "threshold"),
    (["--recipe", "sgd"], "--recipe"),
    (["--recipe", "gd,gd"], "--recipe"),
    (["--pes", "relbias,,alibi"], "--pes"),
    (["--pes", "nope"], "--pes"),
    (["--include", "/nonexistent/run"], "--include"),
    (["--memory-mib", "0"], "--memory-mib"),
])
def test_cli_bad_input_exits_2_with_one_line(argv, needle, tmp_path, capsys):
    assert main(["experiment", "--out", str(tmp_path / "x"), *argv]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and needle in err


def test_cli_refuses_to_overwrite_records(quick_run, tmp_path, capsys):
    out, _ = quick_run
    copy = tmp_path / "run"
    shutil.copytree(out, copy)
    assert main(["experiment", "--quick", "--out", str(copy)]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "--resume" in err
    (tmp_path / "file").write_text("")
    assert main(["experiment", "--out", str(tmp_path / "file")]) == 2


@pytest.mark.parametrize("content, needle", [
    ("{not json", "not JSON"),
    ('{"runs": []}', "'grid'"),
    ('{"grid": [1], "runs": []}', "'grid' is not an object"),
    ("[1]", "malformed run file"),
])
def test_cli_resume_with_a_malformed_run_file_exits_2(content, needle, tmp_path, capsys):
    out = tmp_path / "run"
    out.mkdir()
    (out / "run.json").write_text(content)
    assert main(["experiment", "--quick", "--out", str(out), "--resume", "--json"]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and needle in err and "Traceback" not in err
    assert not (out / RECORDS).exists()   # refused before any training


def test_cli_resume_of_a_finished_run_prints_its_summary(quick_run, tmp_path, capsys):
    out, records = quick_run
    copy = tmp_path / "run"
    shutil.copytree(out, copy)
    assert main(["experiment", "--quick", "--out", str(copy), "--resume", "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["measurements"] == len(records) and set(doc["recipes"]) == set(RECIPES)
    adam = [r for r in records if r["recipe"]["name"] == "adam"]
    assert doc["recipes"]["adam"]["agreement"]["l2"] == summarize(adam)["agreement_rate"]
    assert (copy / "summary.json").exists() and (copy / "experiment-cells.png").exists()


def test_cli_include_summarizes_an_earlier_runs_other_recipes(quick_run, tmp_path, capsys):
    out, records = quick_run
    mine, earlier = tmp_path / "mine", tmp_path / "earlier"
    shutil.copytree(out, earlier)
    argv = ["experiment", "--quick", "--recipe", "adam", "--out", str(mine), "--json"]
    assert main(argv + ["--include", str(earlier)]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert main(argv + ["--resume"]) == 0
    alone = json.loads(capsys.readouterr().out)
    assert set(alone["recipes"]) == {"adam"}      # control: without --include only this run's recipe is summarized
    assert set(doc["recipes"]) == set(RECIPES) and doc["measurements"] == len(records)
    assert doc["recipes"]["adam"] == alone["recipes"]["adam"]        # this run's own records, not the earlier run's
    for name in set(RECIPES) - {"adam"}:
        theirs = [r for r in records if r["recipe"]["name"] == name]
        assert doc["recipes"][name]["measurements"] == len(theirs)
    included = [r for r in doc["runs"] if "included_from" in r]
    assert included and all(r["included_from"] == "earlier" for r in included)
    assert all(r["recipes"] == sorted(set(RECIPES) - {"adam"}) for r in included)
    assert all("included_from" not in r for r in alone["runs"])


def test_cli_include_of_another_training_length_exits_2(quick_run, tmp_path, capsys):
    out, _ = quick_run
    earlier = tmp_path / "earlier"
    shutil.copytree(out, earlier)
    lines = (earlier / RECORDS).read_text().splitlines()
    (earlier / RECORDS).write_text("".join(json.dumps({**json.loads(x), "train_length": 32}) + "\n" for x in lines))
    argv = ["experiment", "--quick", "--recipe", "adam", "--out", str(tmp_path / "mine"), "--json",
            "--include", str(earlier)]
    assert main(argv) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "another training length or threshold" in err
    assert not (tmp_path / "mine").exists()       # refused before anything was trained or written


@pytest.mark.subprocess
def test_cli_usage_error_as_a_subprocess(tmp_path):
    import subprocess
    import sys
    done = subprocess.run([sys.executable, "-m", "posreal", "experiment", "--jobs", "0", "--out", str(tmp_path)],
                          check=False, capture_output=True, text=True, timeout=120)
    assert done.returncode == 2 and done.stdout == ""
    assert len(done.stderr.strip().splitlines()) == 1 and "--jobs" in done.stderr


def test_progress_bar_counts_models_with_rate_and_eta(monkeypatch):
    import io

    from posreal.commands.experiment import ModelBar
    stream = io.StringIO()
    stream.isatty = lambda: True  # type: ignore[method-assign]
    monkeypatch.setattr("sys.stderr", stream)
    bar = ModelBar(quiet=False)
    bar.start(10)
    bar.advance(4)
    bar.close()
    text = stream.getvalue()
    assert "4/10" in text and "models/min" in text and "ETA" in text
    quiet = ModelBar(quiet=True)          # --json
    quiet.start(10)
    quiet.advance(4)
    quiet.close()
    assert stream.getvalue() == text
