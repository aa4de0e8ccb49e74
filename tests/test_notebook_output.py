"""Output for notebooks and pipelines: ``AlphaResult``'s one-line ``repr``, ``to_records()`` and ``to_frame()``
(pandas optional), and ``posreal table --extension … --long`` (one row per cell and method)."""

from __future__ import annotations

import csv
import io
import json
import sys
import types
from fractions import Fraction

import pytest

from posreal.cli import main
from posreal.theory import compute_alpha
from posreal.theory.extension import EXTENSIONS


# ----------------------------------------------------------------------------- repr
@pytest.mark.parametrize("geometry", ["l2", "linf", "l1"])
def test_repr_is_one_short_line_in_every_geometry(geometry):
    result = compute_alpha("rope:16", "offset:1", lengths=[32, 64], geometry=geometry)
    text = repr(result)
    assert "\n" not in text and len(text) < 200, text
    assert text.startswith(type(result).__name__ + "(rope:16 · offset:1, L0=16, " + geometry)
    assert "32: " in text and "64: " in text


def test_repr_shows_an_interval_and_a_dash():
    wide = compute_alpha("relbias", "copy", lengths=[32], geometry="linf")   # ties: every θ of the face differ
    interval = wide.alpha_interval[32]
    if interval[0] != interval[1]:
        assert f"[{interval[0]:.4g}, {interval[1]:.4g}]" in repr(wide)
    assert "32: —" in repr(compute_alpha("alibi", "copy", lengths=[32]))        # not realizable at L0


# ----------------------------------------------------------------------------- records
def test_records_match_the_json_document_length_by_length():
    result = compute_alpha("rope:16", "offset:1", lengths=[32, 64, 128], extension="pi")
    doc = result.to_json()
    records = result.to_records()
    assert [r["length"] for r in records] == [32, 64, 128]
    assert len({tuple(r) for r in records}) == 1                      # the same keys in every record
    for r in records:
        L = str(r["length"])
        assert r["alpha"] == doc["alpha"][L] and [r["alpha_low"], r["alpha_high"]] == doc["alpha_interval"][L]
        assert {k: r[k] for k in doc["rows"][L]} == doc["rows"][L]
        assert (r["pe"], r["task"], r["extension"], r["geometry"]) == ("rope:16", "offset:1", "pi", "l2")
    json.dumps(records)                                               # plain values: CSV- and JSON-ready


def test_records_of_an_interval_a_limit_and_an_unrealizable_cell():
    face = compute_alpha("relbias", "copy", lengths=[32], geometry="l1").to_records()[0]
    pair = compute_alpha("relbias", "copy", lengths=[32], geometry="l1").alpha_interval[32]
    assert (face["alpha_low"], face["alpha_high"]) == pair and face["geometry"] == "l1"
    limit = compute_alpha("relbias", "copy", lengths=[32], limit=True)
    record = limit.to_records()[0]
    assert isinstance(record["limit_low"], Fraction)
    assert (record["limit_low"], record["limit_high"]) == (limit.limits[32].low, limit.limits[32].high)
    none = compute_alpha("alibi", "copy", lengths=[32, 64]).to_records()
    assert [r["alpha"] for r in none] == [None, None] and none[0]["realizable"] is False
    assert none[0]["total"] is None


# ----------------------------------------------------------------------------- to_frame
def test_to_frame_without_pandas_says_so_in_one_line(monkeypatch):
    monkeypatch.setitem(sys.modules, "pandas", None)                  # import pandas raises ImportError
    with pytest.raises(ImportError) as info:
        compute_alpha("relbias", "offset:1", lengths=[32]).to_frame()
    message = str(info.value)
    assert "\n" not in message and "needs pandas" in message and "to_records()" in message


def test_to_frame_hands_the_records_to_pandas(monkeypatch):
    """With pandas importable (a stand-in module that records its input), the frame is built from
    ``to_records()``, one row per length."""
    seen = []
    fake = types.ModuleType("pandas")
    fake.DataFrame = types.SimpleNamespace(from_records=lambda records: seen.append(records) or "frame")
    monkeypatch.setitem(sys.modules, "pandas", fake)
    result = compute_alpha("relbias", "offset:1", lengths=[32, 64])
    assert result.to_frame() == "frame" and seen == [result.to_records()]


def test_pandas_is_not_a_dependency():
    from pathlib import Path
    pyproject = (Path(__file__).resolve().parents[1] / "pyproject.toml").read_text(encoding="utf-8")
    assert "pandas" not in pyproject


# ----------------------------------------------------------------------------- table --long
ARGS = ("table", "--pes", "rope:16,relbias,alibi", "--tasks", "offset:1,copy", "--lengths", "32,64",
        "--extension", "all")


def _run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_long_text_has_one_row_per_cell_and_method_and_agrees_with_the_json(capsys):
    code, out, _ = _run(capsys, *ARGS, "--long")
    lines = out.splitlines()
    assert code == 0 and lines[2].split()[:5] == ["pe", "kind", "task", "class", "extension"]
    rows = [line.split() for line in lines[4:] if line.split() and line.split()[0] in ("rope:16", "relbias", "alibi")]
    assert len(rows) == 3 * 2 * len(EXTENSIONS)
    assert max(len(line) for line in lines[2:4 + len(rows)]) < 100    # narrow, unlike the side-by-side table
    _, doc, _ = _run(capsys, *ARGS, "--json")
    by = {(c["extension"], c["pe"], c["task"]): c for c in json.loads(doc)["cells"]}
    for row in rows:
        pe, task, method = row[0], row[2], row[-4]
        cell = by[(method, pe, task)]
        if cell.get("applicable") is False:
            assert row[-3:] == ["n/a", "n/a", "n/a"]
        elif cell["alpha"]["32"] is not None:
            assert row[-2:] == [f"{cell['alpha']['32']:.3f}", f"{cell['alpha']['64']:.3f}"]


def test_long_csv_is_tidy_and_at_full_precision(capsys):
    code, out, _ = _run(capsys, *ARGS, "--long", "--csv")
    rows = list(csv.DictReader(io.StringIO(out)))
    assert code == 0 and len(rows) == 3 * 2 * len(EXTENSIONS)
    assert list(rows[0])[:6] == ["pe", "kind", "task", "class", "extension", "applicable"]
    pi = next(r for r in rows if (r["pe"], r["task"], r["extension"]) == ("rope:16", "offset:1", "pi"))
    assert float(pi["alpha_32"]) == (compute_alpha("rope:16", "offset:1", lengths=[32],
                                                              extension="pi").alpha(32))
    refused = next(r for r in rows if (r["pe"], r["extension"]) == ("relbias", "ntk"))
    assert refused["applicable"] == "no" and refused["alpha_32"] == ""


def test_long_without_an_extension_is_a_usage_error(capsys):
    code, out, err = _run(capsys, "table", "--long")
    assert code == 2 and out == "" and len(err.strip().splitlines()) == 1 and "--extension" in err
