"""The two-layer experiment (experiment/two_layer_*.py): the model's shapes and masking, the task samplers, a tiny
end-to-end training with a negative control, resume, the summary, and the docs table against the committed run."""

from __future__ import annotations

import json
import re
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

jax = pytest.importorskip("jax")

from posreal.experiment.two_layer_grid import FULL, NamedRecipe, TwoLayerGrid, read_records, run_grid  # noqa: E402
from posreal.experiment.two_layer_model import (RECIPE, Kind, evaluate, forward, init_params,  # noqa: E402
                                                position_features, sample, train)
from posreal.experiment.two_layer_summary import pi_prediction, render_markdown, summarize  # noqa: E402
from posreal.theory.errors import SpecError  # noqa: E402
from posreal.theory.extension import parse_extension  # noqa: E402
from posreal.theory.pe_specs import parse_pe  # noqa: E402
from posreal.theory.token_tasks import BOS, check_induction_tokens  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
RECORDS = ROOT / "docs" / "data" / "two-layer" / "records.jsonl"
TINY = replace(RECIPE, vocab=16, width=16, steps=200, chunk=200, eval_sequences=32)


def test_position_features_are_the_pe_under_the_extension() -> None:
    pe = parse_pe("rope:8")
    feats, scale = position_features(pe, parse_extension("none"), 9, 8)
    assert feats.shape == (9, 9, 8) and scale == 1.0
    assert not np.any(feats[np.triu_indices(9, 1)])                         # zero above the diagonal
    np.testing.assert_allclose(feats[5, 2], pe.pair_features(np.array([5]), np.array([2]), 8)[0], rtol=1e-6)
    pi, _ = position_features(pe, parse_extension("pi"), 16, 8)             # PI halves the offsets at 2 L0
    np.testing.assert_allclose(pi[6, 2], pe.pair_features(np.array([2]), np.array([0]), 8)[0], atol=1e-6)
    assert position_features(parse_pe("nope"), parse_extension("none"), 5, 8)[0].shape == (5, 5, 0)


def test_forward_shapes_and_causal_mask() -> None:
    pe = parse_pe("t5")
    feats, _ = position_features(pe, parse_extension("none"), 9, 8)
    params = init_params(jax, jax.random.PRNGKey(0), 16, 8, feats.shape[2])
    x = np.random.default_rng(0).integers(0, 16, size=(3, 9))
    run = jax.jit(lambda p, x: forward(jax, p, x, feats, 1.0, False))
    logits, a1 = run(params, x)
    assert logits.shape == (3, 9, 16) and a1.shape == (3, 9, 9)
    np.testing.assert_allclose(np.asarray(a1).sum(axis=-1), 1.0, rtol=1e-5)
    assert not np.any(np.asarray(a1)[:, np.triu_indices(9, 1)[0], np.triu_indices(9, 1)[1]])
    y = x.copy()
    y[:, 6:] = (y[:, 6:] + 1) % 16                                           # change the future only
    other, _ = run(params, y)
    np.testing.assert_allclose(np.asarray(other)[:, :6], np.asarray(logits)[:, :6], rtol=1e-5, atol=1e-5)
    assert not np.allclose(np.asarray(other)[:, 6:], np.asarray(logits)[:, 6:])


@pytest.mark.parametrize("mixed", [False, True])
def test_induction_sampler_follows_the_layout(mixed: bool) -> None:
    draw = jax.jit(lambda key: sample(jax, key, Kind.INDUCTION, 64, 17, 32, mixed))
    x, tgt, w = (np.asarray(a) for a in draw(jax.random.PRNGKey(1)))
    assert x.shape == tgt.shape == w.shape == (64, 17)
    for b in range(64):
        rows = np.flatnonzero(w[b])
        assert rows.size >= 1
        m = rows[0] - 1                                                      # rows are m+1 .. 2m-1
        assert np.array_equal(rows, np.arange(m + 1, 2 * m))
        seq = np.where(x[b] == 32, BOS, x[b])[:2 * m + 1]
        check_induction_tokens(seq)                                          # BOS, m distinct, their repeat
        assert np.array_equal(x[b, tgt[b, rows]], x[b, rows + 1])            # target key holds the next token
    ms = {int(np.flatnonzero(w[b])[0]) - 1 for b in range(64)}
    assert ms == {8} if not mixed else len(ms) > 3


def test_tiny_training_learns_a_fixed_offset_and_nope_does_not() -> None:
    """copy at L0 = 8 is the fixed offset 4 at that length: t5 learns it; with no PE (i.i.d. tokens, no BOS)
    the rows cannot tell where the target is — the negative control."""
    results = {}
    for spec in ("t5", "nope"):
        pe = parse_pe(spec)
        trained = train(pe, Kind.COPY, 8, 3, TINY)
        results[spec] = evaluate(pe, Kind.COPY, trained.params, 8, 8, parse_extension("none"), 3, TINY).token_accuracy
    assert results["t5"] >= 0.95
    assert results["nope"] < 0.5


def test_run_resumes_and_refuses_an_earlier_run_without_resume(tmp_path: Path) -> None:
    grid = TwoLayerGrid("tiny", (NamedRecipe("mixed", replace(TINY, steps=20, chunk=20), (Kind.COPY,)),), ("t5",), (0,),
                        train_length=8, factors=(2,))
    out = tmp_path / "r.jsonl"
    said: list[str] = []
    first = run_grid(grid, out, progress=said.append)
    assert len(first) == 1 and first[0]["alpha"] == 0.0 and first[0]["length"] == 16
    with pytest.raises(SpecError, match="--resume"):
        run_grid(grid, out, progress=said.append)
    again = run_grid(grid, out, resume=True, progress=said.append)
    assert again == first and "1 already in" in said[-1]
    out.write_text(out.read_text() + '{"cut', encoding="utf-8")              # an interrupted last line
    assert read_records(out) == first


def _cell(ext: str, k: int, gen: bool, alpha: float | None) -> dict:
    return {"recipe": "mixed", "task": "induction", "pe": "rope:16", "extension": ext, "factor": k,
            "generalizes": gen, "alpha": alpha}


def test_pi_prediction_reads_the_rope_cells() -> None:
    ok = [_cell(e, k, e != "pi", None) for e in ("none", "pi", "ntk") for k in (2, 4)]
    assert pi_prediction(ok)["status"] == "confirmed"
    bad = [_cell(e, k, True, None) for e in ("none", "pi", "ntk") for k in (2, 4)]
    verdict = pi_prediction(bad)
    assert verdict["status"] == "refuted" and verdict["breaks_pi"] is False and verdict["survives_none"] is True


def test_summary_lists_a_disagreement() -> None:
    base = {"recipe": "mixed", "task": "copy", "pe": "t5", "extension": "none", "factor": 2, "length": 16,
            "learned": True, "train_token_accuracy": 1.0, "layer1_previous": 0.0, "alpha_offset1": None,
            "seconds": 1.0, "timestamp": "2026-01-01T00:00:00+00:00", "versions": {"jax": "0"}}
    records = [{**base, "seed": s, "token_accuracy": 0.2, "generalizes": False, "alpha": 1.0} for s in range(3)]
    records += [{**base, "factor": 4, "length": 32, "seed": s, "token_accuracy": 0.1, "generalizes": False,
                 "alpha": 0.0} for s in range(3)]
    summary = summarize(records, FULL)
    assert [d["factor"] for d in summary["disagreements"]] == [2]
    assert summary["agreement"] == {"cells_with_prediction": 2, "agreeing": 1}


def test_docs_table_is_the_render_of_the_committed_run() -> None:
    records = read_records(RECORDS)
    assert len(records) == sum(len(FULL.extensions(pe)) * len(FULL.factors)
                               for _, pe, _, _ in FULL.jobs()), "the committed run is incomplete"
    table = render_markdown(summarize(records, FULL))
    page = (ROOT / "docs" / "escape.md").read_text(encoding="utf-8")
    found = re.search(r"<!-- two-layer table -->\n(.*?)<!-- end two-layer table -->", page, re.S)
    assert found is not None and found.group(1) == table
    committed = json.loads((RECORDS.parent / "records.summary.json").read_text(encoding="utf-8"))
    assert committed == json.loads(json.dumps(summarize(records, FULL)))


def test_cli_refuses_an_earlier_run_and_a_malformed_file_in_one_line(tmp_path: Path, capsys) -> None:
    from posreal.cli import main
    earlier = tmp_path / "earlier.jsonl"
    earlier.write_text(RECORDS.read_text(encoding="utf-8").splitlines()[0] + "\n", encoding="utf-8")
    assert main(["experiment", "two-layer", "--quick", "--out", str(earlier)]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "--resume" in err
    bad = tmp_path / "bad.jsonl"
    bad.write_text("[1]\n{}\n", encoding="utf-8")
    assert main(["experiment", "two-layer", "--quick", "--resume", "--out", str(bad)]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "malformed records file" in err
