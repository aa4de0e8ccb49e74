"""The Length extension page's table of model configs (posreal.theory.config_table, marker ``config-table``) is the
committed benchmark file, every shipped config and task in it, and a file of another format is refused rather than
half rendered."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from docs_hooks import hook_module

from posreal.runtime.markdown import ReportError
from posreal.theory import config_table

ROOT = Path(__file__).resolve().parents[1]
SOURCE = ROOT / "docs" / "data" / "configs" / "alpha-table.json"


def _module():
    return config_table


def test_the_table_has_every_shipped_config_and_task_with_its_alphas():
    module = _module()
    doc = json.loads(SOURCE.read_text(encoding="utf-8"))
    text = module.render(SOURCE)
    configs = sorted(p.stem for p in (ROOT / "examples" / "configs").glob("*.json"))
    assert sorted({Path(r["config"]).stem for r in doc["rows"]}) == configs
    lines = [line for line in text.splitlines() if line.startswith("| `")]
    assert len(lines) == len(configs) * len(doc["tasks"])
    for row in doc["rows"]:
        L0 = row["train_length"]
        cells = [module._alpha(row["alpha"][str(m * L0)]) for m in doc["multiples"]]
        assert f"| `{row['task']}` | " + " | ".join(cells) + " |" in text


def test_alpha_is_written_without_rounding_a_small_one_to_zero():
    module = _module()
    assert module._alpha(1.0) == "1" and module._alpha(0.0) == "0" and module._alpha(None) == "undecided"
    assert module._alpha(1 / 8184) == "0.0001222"


def test_a_file_of_another_format_is_refused(tmp_path):
    module = _module()
    doc = json.loads(SOURCE.read_text(encoding="utf-8"))
    doc["version"] = 2
    path = tmp_path / "table.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    with pytest.raises(ReportError, match="version 1"):
        module.render(path)


def test_the_page_marker_renders_the_committed_file():
    gen = hook_module("posreal_docs_gen")
    assert gen.CONFIG_TABLE == SOURCE and gen.GENERATORS["config-table"]() == config_table.render(SOURCE)


def test_the_config_table_says_question_mark_for_an_unknown_version(tmp_path):
    doc = json.loads(SOURCE.read_text(encoding="utf-8"))
    version = doc["versions"].pop("positional-realizability")
    path = tmp_path / "table.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    assert "(posreal ?; " in config_table.render(path)
    assert f"(posreal {version}; " in config_table.render(SOURCE)   # the control: the version when it is given


# Exists for mutation testing: the whole table, its source note and its refusal, on hand-made documents.
def _hand_doc(**extra) -> dict:
    doc = {"format": "posreal-config-alpha-table", "version": 1, "multiples": [2, 4], "tasks": ["copy"],
           "generated": "2026-01-02", "command": "python benchmarks/bench_configs.py --table --write",
           "versions": {"positional-realizability": "9.9"},
           "rows": [{"config": "examples/configs/tiny.json", "rope_type": "default", "train_length": 1024,
                     "task": "copy", "alpha": {"2048": 1.0, "4096": 0.00012345}, "seconds": 1.4},
                    {"config": "examples/configs/other.json", "rope_type": "yarn", "train_length": 512,
                     "task": "offset:1", "alpha": {"1024": 0.0, "2048": None}, "seconds": 2.3}]}
    doc.update(extra)
    return doc


def _write(tmp_path, doc) -> Path:
    path = tmp_path / "table.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    return path


def test_the_config_table_is_the_documented_text_on_a_hand_made_file(tmp_path):
    text = config_table.render(_write(tmp_path, _hand_doc()))
    assert text == (
        "| model config | `rope_type` | L0 | task | α at 2× L0 | α at 4× L0 |\n"
        "|---|---|---|---|---|---|\n"
        "| `tiny` | `default` | 1,024 | `copy` | 1 | 0.0001234 |\n"
        "| `other` | `yarn` | 512 | `offset:1` | 0 | undecided |\n"
        "\n"
        "Computed on 2026-01-02 by `python benchmarks/bench_configs.py --table --write` (posreal 9.9; 4 s with "
        "the float32 one beside it, on 2 shared cores). float32 frequencies, as transformers computes them, "
        "change no α in this table.\n")
    # control: float64 timing given and float32 changing two cells give the other texts
    other = config_table.render(_write(tmp_path, _hand_doc(float64_seconds=2.6, float32_differs=[
        ["tiny", "copy"], ["other", "offset:1"]])))
    assert other.endswith(
        "\n\nComputed on 2026-01-02 by `python benchmarks/bench_configs.py --table --write` (posreal 9.9; 3 s for "
        "the float64 table, 4 s with the float32 one beside it, on 2 shared cores). float32 frequencies change α "
        "in: `tiny` · `copy`, `other` · `offset:1`.\n")


@pytest.mark.parametrize("change", [{"format": "other-table"}, {"version": 2}, {"format": None}])
def test_a_hand_made_file_of_another_format_is_refused_with_the_accepted_one(tmp_path, change):
    path = _write(tmp_path, _hand_doc(**change))
    with pytest.raises(ReportError) as err:
        config_table.render(path)
    assert str(err.value) == "table.json: not a posreal-config-alpha-table file of version 1"
    assert config_table.render(_write(tmp_path, _hand_doc()))       # control: the right format renders
