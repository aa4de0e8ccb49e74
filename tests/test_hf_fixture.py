"""The transformers RoPE fixture (``tests/data/hf_rope/frequencies.json``) is intact and self-consistent.

The fixture holds the inverse frequencies and attention factors that transformers itself computes for
``rope_scaling`` configs (its generator, ``tests/data/hf_rope/make_fixture.py``, runs only in a scratch
environment with torch and transformers).  These tests check the file alone, not posreal's implementation:

* its format tag, version and provenance (versions, the generating script, which exists in the repository);
* every case: lengths as declared, one frequency array and one attention factor per length; each array of
  length (rotary width)/2 with the width read from the config as transformers reads it (``head_dim``, else
  ``hidden_size // num_attention_heads``, times ``partial_rotary_factor``, truncated to an int), every entry
  a positive finite float32 (``proportional`` pads with zeros to ``head_dim``/2 past its rotated share);
  ``longrope`` tables of that same length;
* coverage: every ``rope_type`` transformers has today, the legacy key ``type``, and each example config in
  ``examples/configs/`` present verbatim as a case.

Each check runs on the committed file (no problem found) and on corrupted copies (the problem found).
"""

from __future__ import annotations

import copy
import json
import math
import struct
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[1]
FIXTURE = ROOT / "tests" / "data" / "hf_rope" / "frequencies.json"
EXAMPLES = ROOT / "examples" / "configs"
ROPE_TYPES = {"default", "linear", "dynamic", "yarn", "longrope", "llama3", "proportional"}
PROVENANCE_KEYS = ("transformers", "torch", "python", "script", "generated")
MAX_BYTES = 1_000_000


def _is_float32(value: float) -> bool:
    return struct.unpack("f", struct.pack("f", value))[0] == value


def _rope_fields(config: dict[str, Any]) -> tuple[str, dict[str, Any], float]:
    """The rope type (legacy key ``type`` accepted), the scaling dict and partial_rotary_factor of a config."""
    scaling = config.get("rope_scaling") or {}
    rope_type = scaling.get("rope_type", scaling.get("type", "default"))
    partial = float(config.get("partial_rotary_factor", scaling.get("partial_rotary_factor", 1.0)))
    return rope_type, scaling, partial


def _expected_length(config: dict[str, Any]) -> int:
    head_dim = config.get("head_dim") or config["hidden_size"] // config["num_attention_heads"]
    rope_type, _, partial = _rope_fields(config)
    if rope_type == "proportional":
        return head_dim // 2
    return int(head_dim * partial) // 2


def _case_problems(case: dict[str, Any]) -> list[str]:
    name = case.get("name", "?")
    config = case.get("config")
    lengths = case.get("seq_lens")
    if not isinstance(config, dict) or not isinstance(lengths, list) or not lengths:
        return [f"{name}: config or seq_lens missing"]
    if any(not isinstance(n, int) or isinstance(n, bool) or n < 1 for n in lengths):
        return [f"{name}: seq_lens are not positive ints"]
    keys = {str(n) for n in lengths}
    inv_freq, scaling = case.get("inv_freq", {}), case.get("attention_scaling", {})
    problems = []
    if set(inv_freq) != keys or set(scaling) != keys:
        problems.append(f"{name}: inv_freq / attention_scaling keys differ from seq_lens")
    rope_type, rope_scaling, partial = _rope_fields(config)
    width = _expected_length(config)
    rotated = int(partial * (config.get("head_dim") or 0) // 2) if rope_type == "proportional" else width
    for key, values in inv_freq.items():
        if len(values) != width:
            problems.append(f"{name} at {key}: {len(values)} frequencies, rotary width/2 is {width}")
            continue
        if any(not isinstance(v, float) or not math.isfinite(v) or not _is_float32(v) for v in values):
            problems.append(f"{name} at {key}: a frequency is not a finite float32")
            continue
        if any(v <= 0 for v in values[:rotated]) or any(v != 0 for v in values[rotated:]):
            problems.append(f"{name} at {key}: a rotated frequency is not positive (or a padded one not zero)")
    for key, value in scaling.items():
        if not isinstance(value, float) or not math.isfinite(value) or value <= 0:
            problems.append(f"{name} at {key}: attention scaling {value!r} is not positive and finite")
    if rope_type == "longrope":
        for table in ("short_factor", "long_factor"):
            if len(rope_scaling.get(table, [])) != width:
                problems.append(f"{name}: {table} does not have rotary width/2 = {width} entries")
    if case.get("rope_type") != rope_type:
        problems.append(f"{name}: recorded rope_type {case.get('rope_type')!r}, the config says {rope_type!r}")
    return problems


def fixture_problems(data: dict[str, Any]) -> list[str]:
    """Every way the fixture falls short of its contract, one line each (empty: intact)."""
    problems = []
    if data.get("format") != "posreal-hf-rope-fixture" or data.get("version") != 1:
        problems.append("format tag or version")
    provenance = data.get("provenance") or {}
    problems += [f"provenance lacks {key}" for key in PROVENANCE_KEYS if not provenance.get(key)]
    if provenance.get("script") and not (ROOT / provenance["script"]).is_file():
        problems.append(f"provenance script {provenance['script']} is not in the repository")
    cases = data.get("cases") or []
    if not cases:
        problems.append("no cases")
    names = [case.get("name") for case in cases]
    if len(set(names)) != len(names):
        problems.append("case names repeat")
    for case in cases:
        problems += _case_problems(case)
    covered = {case.get("rope_type") for case in cases}
    problems += [f"no case of rope_type {t}" for t in sorted(ROPE_TYPES - covered)]
    if not any("type" in (case.get("config", {}).get("rope_scaling") or {}) for case in cases):
        problems.append("no case uses the legacy key type")
    by_name = {case.get("name"): case for case in cases}
    for path in sorted(EXAMPLES.glob("*.json")):
        case = by_name.get(f"example {path.name}")
        if case is None or case.get("config") != json.loads(path.read_text()):
            problems.append(f"example {path.name} is not a case verbatim")
    return problems


@pytest.fixture(scope="module")
def data() -> dict[str, Any]:
    return json.loads(FIXTURE.read_text())


def test_fixture_is_intact(data):
    assert FIXTURE.stat().st_size < MAX_BYTES
    assert fixture_problems(data) == []


def test_every_example_config_is_listed():
    # the examples the fixture must mirror exist at all (an empty folder would make that check vacuous)
    assert len(list(EXAMPLES.glob("*.json"))) >= 6


def _first(data: dict[str, Any], rope_type: str) -> dict[str, Any]:
    return next(case for case in data["cases"] if case["rope_type"] == rope_type)


def _corrupt_length(d):
    values = _first(d, "yarn")["inv_freq"]
    values[next(iter(values))].pop()


def _corrupt_sign(d):
    values = _first(d, "llama3")["inv_freq"]
    values[next(iter(values))][0] = -1.0


def _corrupt_nan(d):
    values = _first(d, "linear")["inv_freq"]
    values[next(iter(values))][3] = float("nan")


def _corrupt_float64(d):
    values = _first(d, "default")["inv_freq"]
    values[next(iter(values))][1] += 1e-12


def _corrupt_padding(d):
    values = _first(d, "proportional")["inv_freq"]
    values[next(iter(values))][-1] = 0.5


def _corrupt_seq_lens(d):
    _first(d, "dynamic")["seq_lens"].append(123457)


def _corrupt_scaling(d):
    scaling = _first(d, "yarn")["attention_scaling"]
    scaling[next(iter(scaling))] = 0.0


def _corrupt_table(d):
    _first(d, "longrope")["config"]["rope_scaling"]["long_factor"].pop()


def _corrupt_provenance(d):
    del d["provenance"]["transformers"]


def _corrupt_format(d):
    d["version"] = 2


def _corrupt_coverage(d):
    d["cases"] = [case for case in d["cases"] if case["rope_type"] != "proportional"]


def _corrupt_example(d):
    next(c for c in d["cases"] if c["name"].startswith("example "))["config"]["rope_theta"] = 1.0


@pytest.mark.parametrize(("corrupt", "expected"), [
    (_corrupt_length, "rotary width/2 is"),
    (_corrupt_sign, "not positive"),
    (_corrupt_nan, "not a finite float32"),
    (_corrupt_float64, "not a finite float32"),
    (_corrupt_padding, "padded one not zero"),
    (_corrupt_seq_lens, "keys differ from seq_lens"),
    (_corrupt_scaling, "attention scaling"),
    (_corrupt_table, "long_factor does not have"),
    (_corrupt_provenance, "provenance lacks transformers"),
    (_corrupt_format, "format tag or version"),
    (_corrupt_coverage, "no case of rope_type proportional"),
    (_corrupt_example, "is not a case verbatim"),
], ids=lambda v: v.__name__.removeprefix("_corrupt_") if callable(v) else "")
def test_a_corrupted_copy_is_caught(data, corrupt, expected):
    broken = copy.deepcopy(data)
    corrupt(broken)
    problems = fixture_problems(broken)
    assert len(problems) == 1 and expected in problems[0], problems
