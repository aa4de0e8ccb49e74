"""The experiment's report (posreal.experiment.report): the docs' Experiment page and
``posreal experiment --report`` print the same tables from the committed summary; a file that is not a
summary is a usage error naming what it lacks."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from posreal.cli import main
from posreal.experiment.report import SECTIONS, ReportError, load_summary, report, section
from posreal.experiment.summary import OWN_PREDICTION

ROOT = Path(__file__).resolve().parents[1]
SUMMARY = ROOT / "docs" / "data" / "experiment" / "summary.json"


def test_every_section_renders_from_the_committed_summary():
    summary = load_summary(SUMMARY)
    for part in SECTIONS:
        text = section(part, summary)
        assert text.strip() and "|" in text or "No " in text, part


def test_the_cli_prints_every_section(capsys):
    assert main(["experiment", "--report", str(SUMMARY)]) == 0
    out = capsys.readouterr().out
    summary = load_summary(SUMMARY)
    for part in SECTIONS:
        assert f"## {part}" in out
        assert section(part, summary) in out


def test_the_own_prediction_column_is_the_summary_modules(capsys):
    """The report bolds each recipe's own witness from posreal.experiment.summary.OWN_PREDICTION (no copy)."""
    summary = load_summary(SUMMARY)
    text = section("agreement", summary)
    for name, geometry in OWN_PREDICTION.items():
        if name in summary["recipes"] and geometry in summary["recipes"][name]["witnesses"]:
            row = next(line for line in text.splitlines() if line.startswith(f"| `{name}`"))
            assert row.count("**") == 2, row


def test_a_file_that_is_not_a_summary_is_a_usage_error(tmp_path, capsys):
    bad = tmp_path / "summary.json"
    bad.write_text(json.dumps({"measurements": 1}))
    assert main(["experiment", "--report", str(bad)]) == 2
    err = capsys.readouterr().err
    assert "has no 'recipes'" in err and "Traceback" not in err
    assert main(["experiment", "--report", str(tmp_path / "missing.json")]) == 2
    assert "invalid summary file" in capsys.readouterr().err
    with pytest.raises(ReportError, match="unknown experiment part"):
        section("no-such-part", load_summary(SUMMARY))


def test_a_missing_part_is_named_in_the_full_report():
    summary = load_summary(SUMMARY)
    trimmed = {k: v for k, v in summary.items() if k != "ladder"}
    assert "Not in this summary" in report(trimmed)
