"""The table of real model configs (:mod:`posreal.theory.model_config`) in Markdown, rendered from a benchmark file.

The docs' Length extension page shows ``docs/data/configs/alpha-table.json``, written by
``python benchmarks/bench_configs.py --table --write`` (α_L of the six shipped configs in ``examples/configs/``,
float64 beside float32 frequencies, with the versions that computed it); :func:`render` turns such a file into the
page's Markdown table.  A file of another format or version, or with a cell missing, is a
:class:`~posreal.runtime.markdown.ReportError`, never a partial table.
"""

from __future__ import annotations

import json
from pathlib import Path

from posreal.runtime.markdown import ReportError

FORMAT, VERSION = "posreal-config-alpha-table", 1


def _alpha(value: float | None) -> str:
    """α with four significant digits; exactly 0 and 1 as such (a tiny α is not rounded to 0)."""
    if value is None:
        return "undecided"
    return str(int(value)) if value in (0, 1) else f"{value:.4g}"


def render(path: Path) -> str:
    """The Markdown table: one row per (config, task), one column per multiple of the original context."""
    doc = json.loads(path.read_text(encoding="utf-8"))
    if doc.get("format") != FORMAT or doc.get("version") != VERSION:
        raise ReportError(f"{path.name}: not a {FORMAT} file of version {VERSION}")
    multiples = [int(m) for m in doc["multiples"]]
    head = ["model config", "`rope_type`", "L0", "task"] + [f"α at {m}× L0" for m in multiples]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for row in doc["rows"]:
        L0 = int(row["train_length"])
        alphas = [row["alpha"][str(m * L0)] for m in multiples]
        name = Path(row["config"]).stem
        lines.append(f"| `{name}` | `{row['rope_type']}` | {L0:,} | `{row['task']}` | "
                     + " | ".join(_alpha(a) for a in alphas) + " |")
    differs = doc.get("float32_differs", [])
    seconds = sum(float(row["seconds"]) for row in doc["rows"])
    timing = (f"{float(doc['float64_seconds']):.0f} s for the float64 table, " if "float64_seconds" in doc else "")
    note = (f"Computed on {doc['generated']} by `{doc['command']}` (posreal "
            f"{doc['versions'].get('positional-realizability', '?')}; {timing}{seconds:.0f} s with the float32 one "
            "beside it, on 2 shared cores). ")
    note += ("float32 frequencies, as transformers computes them, change no α in this table."
             if not differs else "float32 frequencies change α in: "
             + ", ".join(f"`{c}` · `{t}`" for c, t in differs) + ".")
    return "\n".join(lines) + "\n\n" + note + "\n"
