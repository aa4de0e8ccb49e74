"""The files a newcomer and a citation manager look for: LICENSE (the licence pyproject declares),
CITATION.cff (the preprint and this project, valid Citation File Format keys) and CHANGELOG.md."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[1]
PREPRINT = "A Positional Realizability Theory of Length Generalization in Single-Head Attention"


def test_license_is_the_one_pyproject_declares():
    declared = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["license"]["text"]
    text = (ROOT / "LICENSE").read_text()
    assert declared == "MIT" and text.startswith("MIT License")
    assert "Permission is hereby granted, free of charge" in text and 'THE SOFTWARE IS PROVIDED "AS IS"' in text


def test_citation_cites_the_project_and_the_preprint():
    cff = yaml.safe_load((ROOT / "CITATION.cff").read_text(encoding="utf-8"))
    assert cff["cff-version"] == "1.2.0" and cff["type"] == "software"
    assert {"message", "title", "authors", "version", "license"} <= set(cff)
    version = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["version"]
    assert cff["version"] == version and cff["license"] == "MIT"
    assert all("name" in a or "family-names" in a for a in cff["authors"])
    cited = cff["preferred-citation"]
    assert cited["title"] == PREPRINT and cited["type"] == "article" and cited["authors"]
    assert PREPRINT in " ".join((ROOT / "README.md").read_text().split())


def test_changelog_has_an_unreleased_section_and_the_current_version():
    text = (ROOT / "CHANGELOG.md").read_text()
    version = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["version"]
    assert re.search(r"^## \[Unreleased\]$", text, re.M) and re.search(rf"^## \[{re.escape(version)}\]$", text, re.M)
