"""Argument types and output helpers shared by the subcommands."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterable
from typing import Any

from posreal.theory.provenance import versions


def _integer(text: str, minimum: int) -> int:
    try:
        value = int(text, 10)
    except ValueError:
        value = None
    if value is None or value < minimum:
        raise argparse.ArgumentTypeError(f"invalid integer {text!r}; accepted: an integer >= {minimum}")
    return value


def positive_int(text: str) -> int:
    return _integer(text, 1)


def nonnegative_int(text: str) -> int:
    return _integer(text, 0)


def int_list(text: str) -> list[int]:
    """``"32,64,128"`` -> [32, 64, 128]."""
    out = []
    for part in text.split(","):
        try:
            out.append(int(part.strip(), 10))
        except ValueError:
            raise argparse.ArgumentTypeError(
                f"invalid length {part.strip()!r} in {text!r}; accepted: comma-separated integers such as 32,64,128"
            ) from None
    return out


def spec_list(text: str) -> list[str]:
    """``"rope:16,relbias"`` -> ['rope:16', 'relbias'] (commas separate specs)."""
    out = [p.strip() for p in text.split(",") if p.strip()]
    if not out:
        raise argparse.ArgumentTypeError(f"invalid list {text!r}; accepted: comma-separated specs")
    return out


def positive_float(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        value = None
    if value is None or not 0 < value < float("inf"):
        raise argparse.ArgumentTypeError(f"invalid number {text!r}; accepted: a finite number > 0")
    return value


def geometry_name(text: str) -> str:
    """``--geometry``: one of l2, linf, l1 (checked without loading numpy)."""
    from posreal.theory.defaults import GEOMETRIES
    value = text.strip().lower()
    if value not in GEOMETRIES:
        shown = repr(text) if len(repr(text)) <= 80 else repr(text)[:77] + "..."
        raise argparse.ArgumentTypeError(f"invalid geometry {shown}; accepted: {', '.join(GEOMETRIES)}")
    return value


def emit_json(document: Any) -> None:
    """Print exactly one JSON document on stdout."""
    json.dump(document, sys.stdout, indent=2, sort_keys=True, default=str)
    sys.stdout.write("\n")


def with_provenance(document: dict, **extra: Any) -> dict:
    return {**document, "versions": versions(), **extra}


def format_table(header: Iterable[str], rows: Iterable[Iterable[Any]]) -> str:
    """A plain aligned text table."""
    head = [str(h) for h in header]
    cells = [[str(c) for c in r] for r in rows]
    widths = [max([len(h)] + [len(r[n]) for r in cells]) for n, h in enumerate(head)]
    lines = ["  ".join(h.ljust(w) for h, w in zip(head, widths)).rstrip(),
             "  ".join("-" * w for w in widths)]
    lines += ["  ".join(c.ljust(w) for c, w in zip(r, widths)).rstrip() for r in cells]
    return "\n".join(lines)


def progress(iterable, total: int | None = None, desc: str = "", quiet: bool = False):
    """tqdm progress bar on stderr when it is a terminal; the plain iterable otherwise."""
    if quiet or not sys.stderr.isatty():
        return iterable
    from tqdm import tqdm
    return tqdm(iterable, total=total, desc=desc, file=sys.stderr, leave=False)
