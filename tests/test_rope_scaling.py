"""Every rope_scaling type against the frequencies transformers itself computes (tests/data/hf_rope, generated once
by make_fixture.py with transformers and torch, which are not dependencies), to float32 precision; and the reading
of configs: malformed ones are one-line errors."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from posreal.theory.config_transfer import config_transfer, read_rope_scaling
from posreal.theory.errors import SpecError
from posreal.theory.model_config import read_model_config
from posreal.theory.rope_scaling import RopeType

FIXTURE = json.loads((Path(__file__).parent / "data" / "hf_rope" / "frequencies.json").read_text(encoding="utf-8"))
FLOAT32_RTOL = 8 * float(np.finfo(np.float32).eps)   # transformers computes in float32: a few units of its last place


def _config(tmp_path: Path, doc: dict) -> str:
    path = tmp_path / "config.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    return str(path)


def ours(path: str, length: int) -> tuple[np.ndarray, float]:
    """The project's frequencies and logit factor of a config at sequence length L."""
    cfg = read_model_config(path)
    op = config_transfer(cfg)
    pe = op.at_length(cfg.pe, length, cfg.train_length)
    return pe.omegas(), op.logit_scale(length, cfg.train_length)   # type: ignore[attr-defined]


@pytest.mark.parametrize("case", FIXTURE["cases"], ids=[c["name"] for c in FIXTURE["cases"]])
def test_frequencies_are_those_transformers_computes(case, tmp_path):
    path = _config(tmp_path, case["config"])
    for length in case["seq_lens"]:
        want = np.array(case["inv_freq"][str(length)])                          # (h/2,) float32 values
        got, scale = ours(path, length)
        if got.size < want.size:                                                # proportional: the unrotated pairs
            assert np.all(want[got.size:] == 0.0)
            want = want[: got.size]
        np.testing.assert_allclose(got, want, rtol=FLOAT32_RTOL, err_msg=f"L = {length}")
        assert scale == pytest.approx(case["attention_scaling"][str(length)] ** 2, rel=1e-6)


def test_the_fixture_covers_every_type():
    types = {read_model_config_type(c["config"]) for c in FIXTURE["cases"]}
    assert types == set(RopeType)


def read_model_config_type(doc: dict) -> RopeType:
    scaling = doc.get("rope_scaling") or {}
    return RopeType(scaling.get("rope_type", scaling.get("type", "default")))


def test_index_ramp_and_rotation_ramp_differ_between_their_ends(tmp_path):
    """transformers' yarn ramps in the frequency index, the paper's in the rotation count: same ends, other middle."""
    from posreal.theory.extension import Extension, ExtensionMethod
    from fractions import Fraction
    doc = {"head_dim": 64, "rope_theta": 10000.0, "max_position_embeddings": 16384,
           "rope_scaling": {"rope_type": "yarn", "factor": 4.0, "original_max_position_embeddings": 4096}}
    cfg = read_model_config(_config(tmp_path, doc))
    hf = config_transfer(cfg).at_length(cfg.pe, 16384, 4096).omegas()
    paper = Extension("yarn:4", ExtensionMethod.YARN, fixed=Fraction(4)).at_length(cfg.pe, 16384, 4096).omegas()
    assert hf[0] == paper[0] and hf[-1] == pytest.approx(paper[-1])
    assert np.max(np.abs(hf / paper - 1)) > 0.05


@pytest.mark.parametrize("edit, needle", [
    (lambda d: d.pop("rope_theta"), "rope_theta is missing"),
    (lambda d: d["rope_scaling"].update(rope_type="bogus"), "rope_type is 'bogus'"),
    (lambda d: d["rope_scaling"].update(rope_type="longrope", long_factor=[1.0] * 3, short_factor=[1.0] * 32),
     "long_factor is a list of 3 entries"),
    (lambda d: d["rope_scaling"].update(factor=0), "factor is 0"),
    (lambda d: d["rope_scaling"].update(factor=-2.0), "factor is -2.0"),
    (lambda d: d["rope_scaling"].update(factor="8"), "factor is '8'"),
    (lambda d: d.update(head_dim=63), "rotary width 63"),
    (lambda d: d.update(max_position_embeddings=True), "max_position_embeddings is True"),
    (lambda d: d["rope_scaling"].update(rope_type="llama3", low_freq_factor=4.0, high_freq_factor=1.0),
     "high_freq_factor 1 <= low_freq_factor 4"),
    (lambda d: d["rope_scaling"].update(truncate="no"), "truncate is 'no'"),
])
def test_malformed_configs_are_one_line_errors(edit, needle, tmp_path):
    doc = {"head_dim": 64, "rope_theta": 10000.0, "max_position_embeddings": 8192,
           "rope_scaling": {"rope_type": "yarn", "factor": 4.0, "original_max_position_embeddings": 2048}}
    edit(doc)
    with pytest.raises(SpecError, match="^[^\n]*$") as err:
        read_model_config(_config(tmp_path, doc))
    assert needle in str(err.value)


@pytest.mark.parametrize("text, needle", [
    ("{not json", "not JSON"),
    ("[" * 5000 + "]" * 5000, "nested"),
    ("[1, 2]", "a JSON list"),
])
def test_unparsable_configs_are_one_line_errors(text, needle, tmp_path):
    path = tmp_path / "config.json"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(SpecError, match="^[^\n]*$") as err:
        read_model_config(str(path))
    assert needle in str(err.value)


def test_a_huge_config_is_refused_before_it_is_read(tmp_path):
    path = tmp_path / "config.json"
    with open(path, "wb") as fh:
        fh.truncate(100 * 2 ** 20)                                                 # a 100 MB sparse file
    with pytest.raises(SpecError, match="at most 4 MiB"):
        read_model_config(str(path))


def test_a_bare_rope_scaling_takes_width_and_base_from_the_pe(tmp_path):
    path = _config(tmp_path, {"rope_type": "linear", "factor": 4})
    op = read_rope_scaling(path)
    from posreal.theory.pe_specs import parse_pe
    pe = parse_pe("rope:16")
    assert np.allclose(op.at_length(pe, 64, 16).omegas(), pe.omegas() / 4)   # type: ignore[attr-defined]
    yarn = read_rope_scaling(_config(tmp_path, {"rope_type": "yarn", "factor": 4}))
    got = yarn.at_length(parse_pe("rope:16:500"), 64, 16).omegas()             # type: ignore[attr-defined]
    assert got[0] == parse_pe("rope:16:500").omegas()[0]                       # type: ignore[attr-defined]


# Exists because a mutant survived: a bare rope_scaling's original_max_position_embeddings was never read.
def test_a_bare_rope_scaling_keeps_its_own_l0_and_else_takes_the_cells(tmp_path):
    given = read_rope_scaling(_config(tmp_path, {"rope_type": "yarn", "factor": 4,
                                                 "original_max_position_embeddings": 4096}))
    assert given.scaling.original == 4096 and given.scaling.max_positions == 4096
    assert given.to_json(16)["original_max_position_embeddings"] == 4096          # not the cell's L0 = 16
    absent = read_rope_scaling(_config(tmp_path, {"rope_type": "yarn", "factor": 4}))   # control: no L0 of its own
    assert absent.scaling.original == 0 and absent.to_json(16)["original_max_position_embeddings"] == 16
    with pytest.raises(SpecError, match="original_max_position_embeddings is 'x'"):   # the key is read and checked
        read_rope_scaling(_config(tmp_path, {"rope_type": "yarn", "factor": 4,
                                             "original_max_position_embeddings": "x"}))


# Exists because a mutant survived: yarn's attention factor for 1 < s <= 2 was unchecked (the fixture has s >= 4).
@pytest.mark.parametrize("factor", [1.0, 1.5, 2.0, 4.0])
def test_yarn_attention_factor_is_one_tenth_log_s_plus_one_above_s_one(factor, tmp_path):
    """transformers' get_mscale: a = 1 for s <= 1, else 0.1·m·ln s + 1 (m = 1 unless mscale is given); with mscale
    and mscale_all_dim both set, a is the ratio of the two.  Checked on the fixture at s = 4 (1.1386...)."""
    import math
    doc = {"rope_type": "yarn", "factor": factor, "original_max_position_embeddings": 64}
    want = 1.0 if factor <= 1 else 0.1 * math.log(factor) + 1.0
    assert read_rope_scaling(_config(tmp_path, doc)).scaling.attention(128) == pytest.approx(want, rel=1e-15)
    ratio = read_rope_scaling(_config(tmp_path, {**doc, "mscale": 1.0, "mscale_all_dim": 0.5})).scaling.attention(128)
    assert ratio == pytest.approx((0.1 * math.log(factor) + 1) / (0.05 * math.log(factor) + 1), rel=1e-15)
    if factor == 4.0:                                          # the formula is transformers' at the fixture's s = 4
        yarn4 = next(c for c in FIXTURE["cases"] if c["name"].startswith("yarn, defaults"))
        assert want == pytest.approx(yarn4["attention_scaling"]["4096"], rel=1e-12)
