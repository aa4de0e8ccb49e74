"""Generate ``frequencies.json``: the RoPE frequencies that transformers itself computes, per config and length.

This script is not part of posreal and is never imported by it or by the tests: it needs torch and transformers,
which are not project dependencies.  It is run once, by hand, in a scratch virtual environment outside the
repository, and its output is committed next to it::

    python -m venv "$VENV"                     # any directory outside the repository
    "$VENV/bin/pip" install torch==2.13.0 transformers
    "$VENV/bin/python" tests/data/hf_rope/make_fixture.py      # from the repository root

(``--out PATH`` writes elsewhere; ``--check`` regenerates in memory and exits 1 if the committed file's numbers
differ.)  The file it wrote was made with the versions recorded in its ``provenance``.

What is recorded.  For every case (a transformers-format ``config.json`` dict) and every sequence length ``L``:

* ``inv_freq[L]``: the float32 inverse frequencies the model's rotary-embedding module runs with when the
  largest position id of the batch is ``L - 1``.  The script builds the config the way ``from_pretrained``
  does (``AutoConfig.from_pretrained`` on a directory holding the dict as ``config.json``), builds a *fresh*
  rotary module of the model's own class for each ``L`` and calls its ``forward`` with position ids
  ``[[0, L - 1]]``, so that the runtime updates transformers applies in ``dynamic_rope_update`` happen as they
  do in a model: ``dynamic`` recomputes its base when ``L`` exceeds ``max_position_embeddings``; ``longrope``
  switches from ``short_factor`` to ``long_factor`` when ``L`` exceeds ``original_max_position_embeddings``.
  The buffer ``inv_freq`` is read after that call.
* ``attention_scaling[L]``: the module's ``attention_scaling`` after the same call (the factor transformers
  multiplies cos and sin by: YaRN's mscale ratio, LongRoPE's sqrt(1 + ln s / ln L0), 1 otherwise).

Each case also records ``rope_type`` (after transformers' standardization of the legacy key ``type``),
``rotary_module`` (the class used), ``init_fn_max_rel_diff`` (the largest relative difference, over all ``L``,
between the module's buffer and a direct call ``ROPE_INIT_FUNCTIONS[rope_type](config, None, seq_len=L)``,
or the class's ``compute_default_rope_parameters`` for ``default``), ``softmax_scale_factor`` (what
``yarn_apply_mscale`` multiplies the attention's softmax scale by, for models that call it) and the
transformers warnings the config raised.
"""

from __future__ import annotations

import argparse
import copy
import datetime as _dt
import importlib
import json
import logging
import math
import platform
import sys
import tempfile
from pathlib import Path
from typing import Any

import torch
import transformers
from transformers import AutoConfig
from transformers.utils import logging as hf_logging
from transformers.modeling_rope_utils import ROPE_INIT_FUNCTIONS, yarn_apply_mscale

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[2]
EXAMPLES = ROOT / "examples" / "configs"
OUT = HERE / "frequencies.json"

# model_type -> (module, rotary class) of transformers' own implementation
ROTARY = {
    "llama": ("llama", "LlamaRotaryEmbedding"),
    "phi": ("phi", "PhiRotaryEmbedding"),
    "phi3": ("phi3", "Phi3RotaryEmbedding"),
    "qwen2": ("qwen2", "Qwen2RotaryEmbedding"),
    "mistral": ("mistral", "MistralRotaryEmbedding"),
    "deepseek_v3": ("deepseek_v3", "DeepseekV3RotaryEmbedding"),
    "gpt_oss": ("gpt_oss", "GptOssRotaryEmbedding"),
}
# models whose attention multiplies its softmax scale by yarn_apply_mscale's factor
SOFTMAX_MSCALE = {"deepseek_v3"}

# Synthetic cases: small, realistic widths; every rope_scaling type and the edge cases of config reading.
LLAMA = {"architectures": ["LlamaForCausalLM"], "model_type": "llama"}
PHI = {"architectures": ["PhiForCausalLM"], "model_type": "phi"}
SHORT8 = [1.0, 1.0, 1.25, 1.5, 2.0, 2.5, 3.0, 3.5]
LONG8 = [1.0, 1.5, 2.25, 3.5, 5.0, 7.0, 8.0, 8.5]

SYNTHETIC: list[tuple[str, dict[str, Any], list[int]]] = [
    ("default, head_dim given (differs from hidden_size / heads)",
     {**LLAMA, "hidden_size": 1024, "num_attention_heads": 8, "head_dim": 64,
      "max_position_embeddings": 4096, "rope_theta": 10000.0}, [1024, 4096]),
    ("default, head_dim absent (hidden_size / num_attention_heads = 64)",
     {**LLAMA, "hidden_size": 1024, "num_attention_heads": 16,
      "max_position_embeddings": 4096, "rope_theta": 10000.0}, [4096]),
    ("linear, factor 4",
     {**LLAMA, "hidden_size": 1024, "num_attention_heads": 16, "head_dim": 64,
      "max_position_embeddings": 8192, "rope_theta": 10000.0,
      "rope_scaling": {"rope_type": "linear", "factor": 4.0}}, [2048, 8192]),
    ("dynamic, factor 2, below, at and above max_position_embeddings",
     {**LLAMA, "hidden_size": 1024, "num_attention_heads": 16, "head_dim": 64,
      "max_position_embeddings": 2048, "rope_theta": 10000.0,
      "rope_scaling": {"rope_type": "dynamic", "factor": 2.0}},
     [512, 2047, 2048, 2049, 3000, 4096, 8192, 32768]),
    ("dynamic, factor 4, original_max_position_embeddings given (transformers uses max_position_embeddings)",
     {**LLAMA, "hidden_size": 1024, "num_attention_heads": 16, "head_dim": 64,
      "max_position_embeddings": 4096, "rope_theta": 10000.0,
      "rope_scaling": {"rope_type": "dynamic", "factor": 4.0, "original_max_position_embeddings": 1024}},
     [1024, 2048, 4096, 4097, 16384]),
    ("yarn, defaults (beta_fast 32, beta_slow 1, truncate true)",
     {**LLAMA, "hidden_size": 1024, "num_attention_heads": 16, "head_dim": 64,
      "max_position_embeddings": 16384, "rope_theta": 10000.0,
      "rope_scaling": {"rope_type": "yarn", "factor": 4.0, "original_max_position_embeddings": 4096}},
     [4096, 16384]),
    ("yarn, beta_fast 16 and beta_slow 2",
     {**LLAMA, "hidden_size": 2048, "num_attention_heads": 16, "head_dim": 128,
      "max_position_embeddings": 16384, "rope_theta": 500000.0,
      "rope_scaling": {"rope_type": "yarn", "factor": 8.0, "original_max_position_embeddings": 2048,
                       "beta_fast": 16, "beta_slow": 2}}, [2048, 16384]),
    ("yarn, truncate false",
     {**LLAMA, "hidden_size": 1024, "num_attention_heads": 16, "head_dim": 64,
      "max_position_embeddings": 32768, "rope_theta": 150000.0,
      "rope_scaling": {"rope_type": "yarn", "factor": 8.0, "original_max_position_embeddings": 4096,
                       "truncate": False}}, [4096, 32768]),
    ("yarn, same numbers with truncate true (control for the case above)",
     {**LLAMA, "hidden_size": 1024, "num_attention_heads": 16, "head_dim": 64,
      "max_position_embeddings": 32768, "rope_theta": 150000.0,
      "rope_scaling": {"rope_type": "yarn", "factor": 8.0, "original_max_position_embeddings": 4096,
                       "truncate": True}}, [4096]),
    ("yarn, mscale 1 and mscale_all_dim 0.5 (attention factor from their ratio)",
     {**LLAMA, "hidden_size": 1024, "num_attention_heads": 16, "head_dim": 64,
      "max_position_embeddings": 65536, "rope_theta": 10000.0,
      "rope_scaling": {"rope_type": "yarn", "factor": 16.0, "original_max_position_embeddings": 4096,
                       "mscale": 1.0, "mscale_all_dim": 0.5}}, [4096, 65536]),
    ("yarn, explicit attention_factor 1.25",
     {**LLAMA, "hidden_size": 1024, "num_attention_heads": 16, "head_dim": 64,
      "max_position_embeddings": 16384, "rope_theta": 10000.0,
      "rope_scaling": {"rope_type": "yarn", "factor": 4.0, "original_max_position_embeddings": 4096,
                       "attention_factor": 1.25}}, [16384]),
    ("llama3, Llama 3.1's numbers",
     {**LLAMA, "hidden_size": 4096, "num_attention_heads": 32, "head_dim": 128,
      "max_position_embeddings": 131072, "rope_theta": 500000.0,
      "rope_scaling": {"rope_type": "llama3", "factor": 8.0, "low_freq_factor": 1.0, "high_freq_factor": 4.0,
                       "original_max_position_embeddings": 8192}}, [8192, 131072]),
    ("longrope, explicit short and long tables (d/2 = 8), factor from max / original",
     {**LLAMA, "hidden_size": 256, "num_attention_heads": 16, "head_dim": 16,
      "max_position_embeddings": 8192, "rope_theta": 10000.0,
      "rope_scaling": {"rope_type": "longrope", "short_factor": SHORT8, "long_factor": LONG8,
                       "original_max_position_embeddings": 2048}}, [1024, 2048, 2049, 8192]),
    ("longrope, explicit factor 2 (attention factor from it, not from max / original)",
     {**LLAMA, "hidden_size": 256, "num_attention_heads": 16, "head_dim": 16,
      "max_position_embeddings": 8192, "rope_theta": 10000.0,
      "rope_scaling": {"rope_type": "longrope", "short_factor": SHORT8, "long_factor": LONG8,
                       "original_max_position_embeddings": 2048, "factor": 2.0}}, [2048, 4096]),
    ("proportional, partial_rotary_factor 0.25 in rope_scaling, no factor",
     {**LLAMA, "hidden_size": 1024, "num_attention_heads": 16, "head_dim": 64,
      "max_position_embeddings": 8192, "rope_theta": 1000000.0,
      "rope_scaling": {"rope_type": "proportional", "partial_rotary_factor": 0.25}}, [8192]),
    ("proportional, partial_rotary_factor 0.5, factor 4",
     {**LLAMA, "hidden_size": 1024, "num_attention_heads": 16, "head_dim": 64,
      "max_position_embeddings": 8192, "rope_theta": 10000.0,
      "rope_scaling": {"rope_type": "proportional", "partial_rotary_factor": 0.5, "factor": 4.0}}, [8192]),
    ("legacy key type: linear, factor 2",
     {**LLAMA, "hidden_size": 1024, "num_attention_heads": 16, "head_dim": 64,
      "max_position_embeddings": 4096, "rope_theta": 10000.0,
      "rope_scaling": {"type": "linear", "factor": 2.0}}, [4096]),
    ("partial_rotary_factor 0.5, default (top-level key)",
     {**PHI, "hidden_size": 1024, "num_attention_heads": 16, "partial_rotary_factor": 0.5,
      "max_position_embeddings": 2048, "rope_theta": 10000.0}, [2048]),
    ("partial_rotary_factor 0.3 of head 96 (int(28.8) = 28: 14 frequencies)",
     {**PHI, "hidden_size": 1536, "num_attention_heads": 16, "partial_rotary_factor": 0.3,
      "max_position_embeddings": 2048, "rope_theta": 10000.0}, [2048]),
    ("partial_rotary_factor 0.5 with yarn factor 4",
     {**PHI, "hidden_size": 1024, "num_attention_heads": 16, "partial_rotary_factor": 0.5,
      "max_position_embeddings": 8192, "rope_theta": 10000.0,
      "rope_scaling": {"rope_type": "yarn", "factor": 4.0, "original_max_position_embeddings": 2048}},
     [2048, 8192]),
    ("partial_rotary_factor 0.75 with dynamic factor 2 (exponent d/(d-2) over the rotary width 96)",
     {**PHI, "hidden_size": 1024, "num_attention_heads": 8, "partial_rotary_factor": 0.75,
      "max_position_embeddings": 2048, "rope_theta": 10000.0,
      "rope_scaling": {"rope_type": "dynamic", "factor": 2.0}}, [2048, 8192]),
]

# Example configs: lengths at 1x, 2x, 8x and 16x the original context.
EXAMPLE_FILES = [
    "llama-3.1-8b.json", "qwen2.5-7b-instruct-yarn.json", "mistral-7b-v0.1.json",
    "phi-3.5-mini-instruct.json", "deepseek-v3.json", "gpt-oss-20b.json",
]


def original_context(config: dict[str, Any]) -> int:
    """The train length a config declares: original_max_position_embeddings (top level first, as Phi-3 stores
    it), else max_position_embeddings."""
    scaling = config.get("rope_scaling") or {}
    value = config.get("original_max_position_embeddings", scaling.get("original_max_position_embeddings"))
    return int(value if value is not None else config["max_position_embeddings"])


class _Collect(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.messages: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.messages.append(record.getMessage())


def load_config(config: dict[str, Any], collect: _Collect) -> Any:
    """The config object from_pretrained makes of this dict saved as config.json (no network: a local dir)."""
    with tempfile.TemporaryDirectory() as tmp:
        (Path(tmp) / "config.json").write_text(json.dumps(config))
        return AutoConfig.from_pretrained(tmp)


def rotary_class(model_type: str) -> Any:
    module, name = ROTARY[model_type]
    return getattr(importlib.import_module(f"transformers.models.{module}.modeling_{module}"), name)


def run_case(name: str, config: dict[str, Any], seq_lens: list[int], collect: _Collect) -> dict[str, Any]:
    """One case: a fresh module per length, its buffer after a forward at max position L - 1."""
    collect.messages.clear()
    hf_logging.warning_once.cache_clear()  # each case reports its own warnings, not only the first case's
    cls = rotary_class(config["model_type"])
    inv_freq: dict[str, list[float]] = {}
    scaling: dict[str, float] = {}
    worst = 0.0
    rope_type = None
    softmax = None
    for length in seq_lens:
        hf_config = load_config(copy.deepcopy(config), collect)
        rope_type = hf_config.rope_parameters["rope_type"]
        module = cls(hf_config)
        x = torch.zeros(1, dtype=torch.float32)
        position_ids = torch.tensor([[0, length - 1]], dtype=torch.int64)       # (batch 1, 2 positions)
        with torch.no_grad():
            module(x, position_ids)
        buffer = module.inv_freq.detach().to(torch.float32).cpu()              # (rotary width / 2,)
        inv_freq[str(length)] = [float(v) for v in buffer.tolist()]
        scaling[str(length)] = float(module.attention_scaling)
        # the same frequencies from the init function called directly with an int seq_len
        if rope_type == "default":
            direct, _ = cls.compute_default_rope_parameters(hf_config)
        else:
            direct, _ = ROPE_INIT_FUNCTIONS[rope_type](hf_config, None, seq_len=length)
        direct = direct.to(torch.float32)
        nonzero = buffer != 0
        if buffer.shape != direct.shape:
            raise SystemExit(f"{name}: module and init function disagree on the width at L={length}")
        if bool(((direct == 0) != ~nonzero).any()):
            raise SystemExit(f"{name}: module and init function disagree on which frequencies are zero")
        if bool(nonzero.any()):
            rel = ((buffer[nonzero] - direct[nonzero]).abs() / buffer[nonzero]).max().item()
            worst = max(worst, rel)
        if config["model_type"] in SOFTMAX_MSCALE:
            softmax = float(yarn_apply_mscale(hf_config.rope_parameters, 1.0))
    case: dict[str, Any] = {
        "name": name,
        "config": config,
        "seq_lens": seq_lens,
        "inv_freq": inv_freq,
        "attention_scaling": scaling,
        "rope_type": rope_type,
        "rotary_module": cls.__name__,
        "init_fn_max_rel_diff": worst,
        "transformers_warnings": sorted(set(collect.messages)),
    }
    if softmax is not None:
        case["softmax_scale_factor"] = softmax
    return case


def all_cases(collect: _Collect) -> list[dict[str, Any]]:
    cases = [run_case(name, cfg, lens, collect) for name, cfg, lens in SYNTHETIC]
    if "proportional" not in ROPE_INIT_FUNCTIONS:  # pragma: no cover - only on older transformers
        raise SystemExit("this transformers has no 'proportional' RoPE type")
    for file in EXAMPLE_FILES:
        config = json.loads((EXAMPLES / file).read_text())
        base = original_context(config)
        cases.append(run_case(f"example {file}", config, [base, 2 * base, 8 * base, 16 * base], collect))
    return cases


def build() -> dict[str, Any]:
    collect = _Collect()
    logging.getLogger("transformers").addHandler(collect)
    transformers.logging.set_verbosity_warning()
    try:
        cases = all_cases(collect)
    finally:
        logging.getLogger("transformers").removeHandler(collect)
    return {
        "format": "posreal-hf-rope-fixture",
        "version": 1,
        "provenance": {
            "transformers": transformers.__version__,
            "torch": torch.__version__,
            "python": platform.python_version(),
            "script": "tests/data/hf_rope/make_fixture.py",
            "generated": _dt.datetime.now(_dt.UTC).date().isoformat(),
            "method": "inv_freq buffer and attention_scaling of a fresh rotary module per length after "
                      "forward(x, position_ids=[[0, L-1]]); config via AutoConfig.from_pretrained",
        },
        "cases": cases,
    }


def _numbers(data: dict[str, Any]) -> list[Any]:
    return [(c["name"], c["inv_freq"], c["attention_scaling"]) for c in data["cases"]]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=OUT)
    parser.add_argument("--check", action="store_true", help="compare with the committed file instead of writing")
    args = parser.parse_args(argv)
    data = build()
    if args.check:
        committed = json.loads(OUT.read_text())
        same = _numbers(committed) == _numbers(data)
        print("same numbers as the committed fixture" if same else "the numbers differ from the committed fixture")
        return 0 if same else 1
    args.out.write_text(json.dumps(data, indent=1) + "\n")
    for case in data["cases"]:
        widths = {len(v) for v in case["inv_freq"].values()}
        print(f"{case['rope_type']:>12} width/2={sorted(widths)} diff={case['init_fn_max_rel_diff']:.2e} "
              f"scale={sorted(set(case['attention_scaling'].values()))} {case['name']}")
    size = args.out.stat().st_size
    print(f"wrote {args.out} ({size} bytes, {len(data['cases'])} cases)")
    if not all(math.isfinite(v) for c in data["cases"] for vs in c["inv_freq"].values() for v in vs):
        print("non-finite frequency", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
