"""The whole one-line refusals of theory/model_config.py: the Reader's key kinds (number, integer, boolean, table),
the rope type, and read_model_config's branches (head_dim vs hidden_size / num_attention_heads,
partial_rotary_factor, proportional, longrope's original length, dynamic), each with a control that is accepted."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from posreal.theory.errors import SpecError, quote
from posreal.theory.model_config import Reader, read_model_config, rope_type_of

W = "model config 'c.json'"
TYPES = "default, linear, dynamic, yarn, longrope, llama3, proportional"


def _refused(call, message: str) -> None:
    with pytest.raises(SpecError) as err:
        call()
    assert str(err.value) == message


def _path(tmp_path: Path, doc: dict) -> str:
    path = tmp_path / "config.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    return str(path)


# --------------------------------------------------------------------------- the Reader
def test_a_reader_refuses_what_is_not_an_object():
    _refused(lambda: Reader([1], W), f"invalid {W}: a JSON list; accepted: a JSON object")
    _refused(lambda: Reader("x", W), f"invalid {W}: a JSON str; accepted: a JSON object")
    assert Reader({}, W).doc == {} and Reader({}, W).where == W                      # control


def test_number_messages_and_bounds():
    r = lambda doc: Reader(doc, W)                                                  # noqa: E731
    _refused(lambda: r({}).number("x"), f"invalid {W}: x is missing; accepted: a number")
    _refused(lambda: r({"x": None}).number("x"), f"invalid {W}: x is missing; accepted: a number")
    _refused(lambda: r({"x": 0}).number("x"), f"invalid {W}: x is 0; accepted: a number > 0 and <= 1e+15")
    _refused(lambda: r({"x": -1}).number("x", strict=False),
             f"invalid {W}: x is -1; accepted: a number >= 0 and <= 1e+15")
    _refused(lambda: r({"x": 2.5}).number("x", low=1.0, high=2.0),
             f"invalid {W}: x is 2.5; accepted: a number > 1 and <= 2")
    _refused(lambda: r({"x": True}).number("x"), f"invalid {W}: x is True; accepted: a number > 0 and <= 1e+15")
    _refused(lambda: r({"x": "8"}).number("x"), f"invalid {W}: x is '8'; accepted: a number > 0 and <= 1e+15")
    _refused(lambda: r({"x": float("inf")}).number("x", high=float("inf")),
             f"invalid {W}: x is inf; accepted: a number > 0 and <= inf")
    # controls: the bounds themselves, defaults only when the key is absent
    assert r({"x": 0}).number("x", strict=False) == 0.0
    assert r({"x": 2}).number("x", low=1.0, high=2.0) == 2.0
    assert r({"x": 1e15}).number("x") == 1e15
    assert r({}).number("x", default=2.5) == 2.5
    assert r({"x": 3}).number("x", default=2.5) == 3.0


def test_integer_messages_and_bounds():
    r = lambda doc: Reader(doc, W)                                                  # noqa: E731
    accepted = "an integer from 1 to 1099511627776"
    _refused(lambda: r({}).integer("n"), f"invalid {W}: n is missing; accepted: an integer >= 1")
    for bad, shown in ((0, "0"), (2.5, "2.5"), (2 ** 40 + 1, "1099511627777"), (False, "False"), ("3", "'3'")):
        _refused(lambda bad=bad: r({"n": bad}).integer("n"), f"invalid {W}: n is {shown}; accepted: {accepted}")
    assert r({"n": 1}).integer("n") == 1 and r({"n": 2 ** 40}).integer("n") == 2 ** 40
    got = r({"n": 3.0}).integer("n")
    assert got == 3 and type(got) is int
    assert r({}).integer("n", default=7) == 7 and r({"n": 5}).integer("n", default=7) == 5


def test_boolean_messages():
    r = lambda doc: Reader(doc, W)                                                  # noqa: E731
    _refused(lambda: r({"b": "no"}).boolean("b", True), f"invalid {W}: b is 'no'; accepted: true or false")
    _refused(lambda: r({"b": 0}).boolean("b", True), f"invalid {W}: b is 0; accepted: true or false")
    assert r({}).boolean("b", True) is True and r({}).boolean("b", False) is False
    assert r({"b": False}).boolean("b", True) is False and r({"b": True}).boolean("b", False) is True


def test_table_messages():
    r = lambda doc: Reader(doc, W)                                                  # noqa: E731
    accepted = "a list of 2 positive numbers (one per rotary frequency)"
    _refused(lambda: r({"t": 5}).table("t", 2), f"invalid {W}: t is 5; accepted: {accepted}")
    _refused(lambda: r({}).table("t", 2), f"invalid {W}: t is None; accepted: {accepted}")
    _refused(lambda: r({"t": [1.0]}).table("t", 2), f"invalid {W}: t is a list of 1 entries; accepted: {accepted}")
    for bad in ([1.0, 0], [1.0, True], [1.0, 1e13], [1.0, "2"], [float("nan"), 1.0]):
        _refused(lambda bad=bad: r({"t": bad}).table("t", 2), f"invalid {W}: t is {bad!r}; accepted: {accepted}")
    assert r({"t": [1, 1e12]}).table("t", 2) == (1.0, 1e12)


def test_rope_type_names_the_key_it_read():
    _refused(lambda: rope_type_of(Reader({"type": "bogus"}, W)), f"invalid {W}: type is 'bogus'; accepted: {TYPES}")
    _refused(lambda: rope_type_of(Reader({"rope_type": "x", "type": "linear"}, W)),
             f"invalid {W}: rope_type is 'x'; accepted: {TYPES}")
    assert rope_type_of(Reader({"type": "linear"}, W)).value == "linear"
    assert rope_type_of(Reader({"rope_type": "yarn", "type": "bogus"}, W)).value == "yarn"
    assert rope_type_of(Reader({}, W)).value == "default"


# --------------------------------------------------------------------------- read_model_config's branches
BASE = {"rope_theta": 10000.0, "max_position_embeddings": 4096}


def test_head_dim_comes_first_else_hidden_size_over_heads(tmp_path):
    cfg = read_model_config(_path(tmp_path, {**BASE, "head_dim": 16, "hidden_size": 96, "num_attention_heads": 3}))
    assert (cfg.head_dim, cfg.width, cfg.base, cfg.train_length) == (16, 16, 10000.0, 4096)
    cfg = read_model_config(_path(tmp_path, {**BASE, "hidden_size": 96, "num_attention_heads": 3}))
    assert (cfg.head_dim, cfg.width) == (32, 32)
    path = _path(tmp_path, {**BASE, "hidden_size": 100, "num_attention_heads": 3})
    _refused(lambda: read_model_config(path), f"invalid model config {quote(path)}: hidden_size 100 is not a "
             "multiple of num_attention_heads 3; accepted: give head_dim")
    path = _path(tmp_path, {**BASE, "hidden_size": 96})
    _refused(lambda: read_model_config(path),
             f"invalid model config {quote(path)}: num_attention_heads is missing; accepted: an integer >= 1")


def test_partial_rotary_factor_and_the_rotary_width(tmp_path):
    cfg = read_model_config(_path(tmp_path, {**BASE, "head_dim": 64, "partial_rotary_factor": 0.5}))
    assert (cfg.head_dim, cfg.width) == (64, 32)
    path = _path(tmp_path, {**BASE, "head_dim": 10, "partial_rotary_factor": 0.5})
    _refused(lambda: read_model_config(path), f"invalid model config {quote(path)}: rotary width 5 (head_dim 10 × "
             "partial_rotary_factor 0.5); accepted: an even width >= 2")
    path = _path(tmp_path, {**BASE, "head_dim": 10, "partial_rotary_factor": 0.1})
    _refused(lambda: read_model_config(path), f"invalid model config {quote(path)}: rotary width 1 (head_dim 10 × "
             "partial_rotary_factor 0.1); accepted: an even width >= 2")
    assert read_model_config(_path(tmp_path, {**BASE, "head_dim": 10, "partial_rotary_factor": 0.2})).width == 2
    path = _path(tmp_path, {**BASE, "head_dim": 64, "partial_rotary_factor": 1.5})
    _refused(lambda: read_model_config(path), f"invalid model config {quote(path)}: partial_rotary_factor is 1.5; "
             "accepted: a number > 0 and <= 1")
    # a non-proportional type reads the top level's factor, never the rope_scaling's
    cfg = read_model_config(_path(tmp_path, {**BASE, "head_dim": 64, "partial_rotary_factor": 0.5,
                                             "rope_scaling": {"rope_type": "default", "partial_rotary_factor": 0.25}}))
    assert cfg.width == 32


def test_proportional_rotates_pairs_with_exponents_over_the_head(tmp_path):
    doc = {**BASE, "head_dim": 64, "partial_rotary_factor": 0.5,
           "rope_parameters": {"rope_type": "proportional", "partial_rotary_factor": 0.25}}
    cfg = read_model_config(_path(tmp_path, doc))
    assert (cfg.width, cfg.base) == (16, pytest.approx(10.0))                       # 10^4^(16/64) = 10
    doc["rope_parameters"].pop("partial_rotary_factor")                              # control: the top level's 0.5
    cfg = read_model_config(_path(tmp_path, doc))
    assert (cfg.width, cfg.base) == (32, pytest.approx(100.0))                      # 10^4^(32/64) = 100
    path = _path(tmp_path, {**BASE, "head_dim": 4, "rope_parameters": {"rope_type": "proportional",
                                                                       "partial_rotary_factor": 0.25}})
    _refused(lambda: read_model_config(path), f"invalid model config {quote(path)}: rotary width 0 (head_dim 4 × "
             "partial_rotary_factor 0.25); accepted: an even width >= 2")


def test_rope_theta_from_the_top_level_else_from_the_parameters(tmp_path):
    doc = {"max_position_embeddings": 64, "head_dim": 8, "rope_parameters": {"rope_type": "default",
                                                                             "rope_theta": 500.0}}
    assert read_model_config(_path(tmp_path, doc)).base == 500.0
    assert read_model_config(_path(tmp_path, {**doc, "rope_theta": 20.0})).base == 20.0
    doc["rope_parameters"]["rope_theta"] = 1.0
    path = _path(tmp_path, doc)
    _refused(lambda: read_model_config(path), f"invalid rope_scaling of {quote(path)}: rope_theta is 1.0; accepted: "
             "a number > 1 and <= 1e+30")


def test_the_training_length_by_type(tmp_path):
    top = {**BASE, "head_dim": 8, "original_max_position_embeddings": 1024}
    longrope = {"rope_type": "longrope", "long_factor": [1, 2, 3, 4], "short_factor": [1, 1, 1, 1],
                "original_max_position_embeddings": 512}
    cfg = read_model_config(_path(tmp_path, {**top, "rope_scaling": longrope}))
    assert (cfg.train_length, cfg.scaling.original) == (1024, 1024)                  # longrope: the top level's
    cfg = read_model_config(_path(tmp_path, {**top, "rope_scaling": {**longrope, "rope_type": "linear",
                                                                     "factor": 2}}))
    assert cfg.train_length == 512                                                   # other types: rope_scaling's
    cfg = read_model_config(_path(tmp_path, {**BASE, "head_dim": 8, "rope_scaling": longrope}))
    assert cfg.train_length == 512
    assert read_model_config(_path(tmp_path, {**BASE, "head_dim": 8})).train_length == 4096
    cfg = read_model_config(_path(tmp_path, {**BASE, "head_dim": 8, "rope_scaling": {
        "rope_type": "dynamic", "factor": 2, "original_max_position_embeddings": 512}}))
    assert (cfg.train_length, cfg.scaling.original, cfg.scaling.max_positions) == (4096, 4096, 4096)


def test_scaling_messages(tmp_path):
    path = _path(tmp_path, {**BASE, "head_dim": 8, "rope_scaling": {"rope_type": "linear"}})
    _refused(lambda: read_model_config(path),
             f"invalid rope_scaling of {quote(path)}: factor is missing; accepted: a number")
    path = _path(tmp_path, {**BASE, "head_dim": 8, "rope_scaling": {"rope_type": "llama3", "factor": 8,
                                                                    "low_freq_factor": 4, "high_freq_factor": 4}})
    _refused(lambda: read_model_config(path), f"invalid rope_scaling of {quote(path)}: high_freq_factor 4 <= "
             "low_freq_factor 4; accepted: high_freq_factor > low_freq_factor")
    ok = read_model_config(_path(tmp_path, {**BASE, "head_dim": 8, "rope_scaling": {
        "rope_type": "llama3", "factor": 8, "low_freq_factor": 1, "high_freq_factor": 4}}))
    assert (ok.scaling.low_freq_factor, ok.scaling.high_freq_factor, ok.scaling.factor) == (1.0, 4.0, 8.0)
    longrope = {"rope_type": "longrope", "long_factor": [1, 2, 3, 4], "short_factor": [1]}
    path = _path(tmp_path, {**BASE, "head_dim": 8, "rope_scaling": longrope})
    _refused(lambda: read_model_config(path), f"invalid rope_scaling of {quote(path)}: short_factor is a list of 1 "
             "entries; accepted: a list of 4 positive numbers (one per rotary frequency)")
