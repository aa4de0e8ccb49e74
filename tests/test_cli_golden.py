"""Golden outputs: every command of ``tests/golden/make_golden.py``, re-run in-process, prints the
stored document byte for byte (after the one normalizer, which blanks timings and tool versions)
and exits with the stored code.  Regenerate with ``python tests/golden/make_golden.py``; see
``tests/golden/README.md``."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import pytest

from posreal.cli import main

HERE = Path(__file__).resolve().parent
_spec = importlib.util.spec_from_file_location("make_golden", HERE / "golden" / "make_golden.py")
golden = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(golden)

STORED = [json.loads(p.read_text(encoding="utf-8")) for p in sorted(golden.DATA.glob("*.json"))]


def test_stored_set_is_the_command_list():
    """Every command of make_golden.py has a stored output, and nothing else is stored."""
    assert sorted((c["id"], c["argv"], c["slow"]) for c in golden.commands()) == \
        sorted((d["id"], d["argv"], d["slow"]) for d in STORED)


def test_normalizer_blanks_only_timings_and_versions():
    text = ('{\n  "instances_per_second": 55.53,\n  "seconds": 1.5e-05,\n  "seed": 0,\n  "versions": {\n'
            '    "numpy": "2.4.6"\n  },\n  "note": "\\"seconds\\": 3"\n}\n')
    assert golden.normalize(text) == ('{\n  "instances_per_second": "<normalized>",\n  "seconds": "<normalized>",\n'
                                      '  "seed": 0,\n  "versions": "<normalized>",\n  "note": "\\"seconds\\": 3"\n}\n')


def _slow(stored: dict) -> bool:
    """Slow in make_golden.py, or a learned:16 cell in float mode (its Monte Carlo takes seconds per cell)."""
    return stored["slow"] or ("learned:16" in stored["argv"] and stored["exit_code"] == 0)


@pytest.mark.parametrize("stored", [pytest.param(d, id=d["id"], marks=[pytest.mark.slow] if _slow(d) else [])
                                    for d in STORED])
def test_cli_output_is_golden(stored, capsys, monkeypatch):
    monkeypatch.chdir(golden.ROOT)
    code = main(list(stored["argv"]))
    out, err = capsys.readouterr()
    assert golden.comparable(out) == golden.comparable("\n".join(stored["stdout"]))
    ours, theirs = golden.processor_values(out), golden.processor_values("\n".join(stored["stdout"]))
    assert len(ours) == len(theirs)
    assert all(abs(a - b) <= golden.PROCESSOR_RTOL * max(abs(a), abs(b)) for a, b in zip(ours, theirs)), (ours, theirs)
    assert golden.normalize(err.split("\n", 1)[0]) == stored["stderr_first_line"]
    assert code == stored["exit_code"]


def test_processor_dependent_evidence_is_compared_to_its_tolerance_not_byte_for_byte():
    """drift_last_decade differs between processors in its 9th-10th digit: a relative 7e-9 change passes, a
    relative 1e-4 change is caught (the control), and the certificate digest that covers it is left out."""
    text = '{\n  "digest": "sha256:' + "a" * 64 + '",\n  "drift_last_decade": -1.2844698016323264e-07\n}'
    moved = text.replace("-1.2844698016323264e-07", "-1.2844697927505422e-07").replace("a" * 64, "b" * 64)
    assert golden.comparable(text) == golden.comparable(moved)
    (a,), (b,) = golden.processor_values(text), golden.processor_values(moved)
    assert abs(a - b) <= golden.PROCESSOR_RTOL * abs(a)
    far = text.replace("-1.2844698016323264e-07", "-1.2846e-07")
    (c,) = golden.processor_values(far)
    assert abs(a - c) > golden.PROCESSOR_RTOL * abs(a)
    plain = '{\n  "digest": "sha256:' + "a" * 64 + '"\n}'                # no such evidence: digests compared
    assert golden.comparable(plain) != golden.comparable(plain.replace("a" * 64, "b" * 64))
