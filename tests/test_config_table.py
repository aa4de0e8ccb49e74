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
