"""The counterexample pages' report (posreal.counterexamples.report): ``posreal search conjecture --report`` prints
the Markdown of the search's JSON document, the committed certificates are re-verified (a tampered one is shown
refuted), and a source without what the report reads is an error naming it."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest
from docs_hooks import run_cli

from posreal.counterexamples import report as cr
from posreal.runtime.markdown import ReportError

ROOT = Path(__file__).resolve().parents[1]


def _untimed(text: str) -> str:
    return re.sub(r"\d+\.\d+ s\b", "T s", text)


def test_the_conjecture_report_is_the_json_document_as_markdown(capsys):
    code, shown, _ = run_cli(capsys, "search", "conjecture", "--budget", "4", "--report")
    code_json, out, _ = run_cli(capsys, "search", "conjecture", "--budget", "4", "--json")
    doc = json.loads(out)
    source = "posreal search conjecture --report (seed 0, 4 instances), run during this build"
    assert code == code_json and _untimed(shown) == _untimed(cr.conjecture_report(doc, source))
    assert f"**{doc['summary']['instances']} instances**" in shown and "Seed 0" in shown
    code, out, err = run_cli(capsys, "search", "conjecture", "--budget", "4", "--report", "--json")
    assert code == 2 and out == "" and "not allowed with argument" in err


def test_every_committed_certificate_is_verified_and_a_tampered_one_is_refuted(tmp_path):
    text = cr.certificates_report()
    files = sorted(p.name for p in cr.CERTIFICATES.glob("*.json"))
    assert files and all(f"`{name}" in text for name in files) and "**REFUTED**" not in text
    folder = tmp_path / "certificates"
    folder.mkdir()
    source = next(p for p in cr.CERTIFICATES.glob("*.json") if json.loads(p.read_text()).get("kind") == "open-tie")
    shutil.copy(source, folder / source.name)
    assert "**verified**" in cr.open_ties_report(folder)
    cert = json.loads(source.read_text())
    cert["claims"]["alpha"] = "1/1"                        # a false claim: the verifier must refuse it
    (folder / source.name).write_text(json.dumps(cert))
    assert "**REFUTED**" in cr.certificates_report(folder) and "**REFUTED**" in cr.open_ties_report(folder)


def test_missing_sources_are_errors_naming_them(tmp_path):
    with pytest.raises(ReportError, match="no committed certificate"):
        cr.certificates_report(tmp_path)
    with pytest.raises(ReportError, match="has no 'dynamic'"):
        cr.colspan_report({"static": [], "stats": {}, "reproduced": True})
    with pytest.raises(ReportError, match="summary.instances"):
        cr.conjecture_report({"summary": {}})
    (tmp_path / "summaries.json").write_text('{"runs": []}')
    with pytest.raises(ReportError, match="has no 'runs'"):
        cr.limit_evidence_report(tmp_path / "summaries.json")
    with pytest.raises(ReportError, match="is missing"):
        cr.limit_evidence_report(tmp_path / "none.json")


def test_the_committed_search_summaries_are_reported_per_seed():
    path = ROOT / "docs" / "data" / "limit" / "search_summaries.json"
    doc = json.loads(path.read_text())
    text = cr.limit_evidence_report(path)
    assert [f"**Seed {run['seed']}**" in text for run in doc["runs"]] == [True] * len(doc["runs"]) != []
