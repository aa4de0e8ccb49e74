"""Argument types and output helpers shared by the subcommands.

Every argument type here is bounded (:mod:`posreal.runtime.resources`): integers are ASCII digits
within a documented range, numbers are finite and bounded, lists are short, and output paths are
checked before any work (:func:`output_file`, :func:`output_directory`, :func:`plot_file`).  A bad
value gives one line that quotes at most about 80 characters of it.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from collections.abc import Callable, Iterable, Iterator
from typing import Any, TypeVar

from posreal.runtime import resources
from posreal.theory.errors import PosrealError, SpecError, quote

T = TypeVar("T")


def _as_type_error(build: Callable[[], T]) -> T:
    try:
        return build()
    except PosrealError as err:
        raise argparse.ArgumentTypeError(str(err)) from None


def bounded_int(minimum: int, maximum: int, what: str = "integer") -> Callable[[str], int]:
    """An argparse type: an integer of ASCII digits in [minimum, maximum]."""
    def parse(text: str) -> int:
        return _as_type_error(lambda: resources.parse_int(text, what, minimum, maximum))
    parse.__name__ = what.replace(" ", "_")
    return parse


positive_int = bounded_int(1, resources.MAX_COUNT)
length = bounded_int(1, resources.MAX_LENGTH, "length")
train_length = bounded_int(1, resources.MAX_LENGTH, "train length")
steps = bounded_int(1, resources.MAX_STEPS, "number of steps")
samples = bounded_int(2, resources.MAX_SAMPLES, "number of samples")
instances = bounded_int(1, resources.MAX_INSTANCES, "number of instances")
jobs = bounded_int(1, resources.MAX_JOBS, "number of jobs")
seed = bounded_int(0, resources.MAX_SEED, "seed")


def int_list(text: str) -> list[int]:
    """``"32,64,128"`` -> [32, 64, 128]: at most MAX_LENGTHS lengths, each 1..MAX_LENGTH."""
    parts = text.split(",", resources.MAX_LENGTHS)
    if len(parts) > resources.MAX_LENGTHS:
        raise argparse.ArgumentTypeError(f"invalid lengths {quote(text)}; accepted: at most "
                                         f"{resources.MAX_LENGTHS} comma-separated integers")
    out = []
    for part in parts:
        try:
            out.append(resources.parse_int(part.strip(), "length", 1, resources.MAX_LENGTH))
        except PosrealError:
            raise argparse.ArgumentTypeError(
                f"invalid length {quote(part.strip())} in {quote(text)}; accepted: comma-separated integers "
                f"from 1 to {resources.MAX_LENGTH} such as 32,64,128") from None
    return out


def spec_list(text: str) -> list[str]:
    """``"rope:16,relbias"`` -> ['rope:16', 'relbias'] (commas separate specs; at most 256 of them)."""
    out = [p.strip() for p in text.split(",", resources.MAX_LENGTHS) if p.strip()]
    if not out or len(out) > resources.MAX_LENGTHS - 1:
        raise argparse.ArgumentTypeError(f"invalid list {quote(text)}; accepted: 1 to {resources.MAX_LENGTHS - 1} "
                                         "comma-separated specs")
    return out


def bounded_float(low: float, high: float, what: str = "number") -> Callable[[str], float]:
    """An argparse type: a finite number in (low, high]."""
    def parse(text: str) -> float:
        return _as_type_error(lambda: resources.parse_number(text, what, low, high))
    parse.__name__ = what.replace(" ", "_")
    return parse


def scheduler(text: str) -> Any:
    """``--scheduler``: ``tcp://HOST:PORT`` or ``local:N`` (Dask; a one-line error naming the extra to
    install when ``distributed`` is missing)."""
    from posreal.runtime.executors import parse_scheduler
    return _as_type_error(lambda: parse_scheduler(text))


def add_executor_arguments(parser: argparse.ArgumentParser) -> None:
    """``--jobs N`` (processes on this machine) or ``--scheduler ADDRESS`` (Dask), one of them."""
    group = parser.add_mutually_exclusive_group()
    group.add_argument("--jobs", type=jobs, default=1,
                       help="worker processes on this machine (default 1: this process)")
    group.add_argument("--scheduler", type=scheduler, default=None, metavar="ADDRESS",
                       help="run the units on Dask: tcp://HOST:PORT of a running scheduler, or local:N for a "
                            "LocalCluster of N processes (needs the 'cluster' extra: pip install -e '.[cluster]')")


def executor_of(args: argparse.Namespace) -> Any:
    """The :class:`~posreal.runtime.executors.ExecutorSpec` of ``--jobs`` / ``--scheduler``."""
    from posreal.runtime.executors import local
    return args.scheduler if args.scheduler is not None else local(args.jobs)


def geometry_name(text: str) -> str:
    """``--geometry``: a declared geometry's name, l2, linf or l1 (checked without loading numpy)."""
    from posreal.theory.geometry import GEOMETRY_FORMS, Geometry
    value = text.strip().lower()
    if value not in {g.value for g in Geometry}:
        raise argparse.ArgumentTypeError(f"invalid geometry {quote(text)}; accepted: {GEOMETRY_FORMS}")
    return value


positive_float = bounded_float(0.0, float(resources.MAX_SECONDS), "number of seconds")


# ----------------------------------------------------------------------------- PEs given as Python functions
FUNCTION_KINDS = ("relative", "column", "general")   # posreal.theory.function_pe.FUNCTION_KINDS, without numpy
pe_width = bounded_int(1, 10 ** 6, "PE width")


def add_function_pe_options(parser: argparse.ArgumentParser) -> None:
    """``--pe-kind`` and ``--pe-width``: how to call a ``py:MODULE:FUNCTION`` PE."""
    parser.add_argument("--pe-kind", choices=FUNCTION_KINDS, default=None,
                        help="with a py:MODULE:FUNCTION PE: what the function takes — relative (offsets n = i - j), "
                             "column (key positions j) or general (pairs i, j)")
    parser.add_argument("--pe-width", type=pe_width, default=None, metavar="P",
                        help="with a py:MODULE:FUNCTION PE: the number p of features it returns per offset or pair")


def load_function_pes(specs: Iterable[str | None], kind: str | None, width: int | None) -> None:
    """Import and register every ``py:MODULE:FUNCTION`` among ``specs`` (also under ``dual:``), so that the
    spec parses; ``--pe-kind``/``--pe-width`` without such a PE, or such a PE without them, is refused."""
    functions = [s for s in specs if isinstance(s, str) and resources.strip_duals(s.strip())[1].startswith("py:")]
    if not functions:
        if kind is not None or width is not None:
            raise SpecError(f"invalid option {'--pe-kind' if kind is not None else '--pe-width'} without a "
                            "py:MODULE:FUNCTION PE; accepted: --pe-kind and --pe-width with --pe py:MODULE:FUNCTION")
        return
    if kind is None or width is None:
        raise SpecError(f"invalid PE {quote(functions[0])}: a py:MODULE:FUNCTION PE needs --pe-kind (relative, "
                        "column or general) and --pe-width P (its number of features)")
    from posreal.theory.function_pe import load_python_pe
    from posreal.theory.tables import register_loaded
    for spec in functions:
        register_loaded(load_python_pe(resources.strip_duals(spec.strip())[1], kind, width))


def memory_size(text: str) -> int:
    """``--max-memory``: ``512M``, ``4G``, ``2GiB`` or bytes."""
    return _as_type_error(lambda: resources.parse_size(text, "--max-memory"))


# ----------------------------------------------------------------------------- output paths
def add_force_option(parser: argparse.ArgumentParser, what: str) -> None:
    """``--force``: the one rule of every command that writes (:mod:`posreal.runtime.output_files`): an
    existing output file is replaced only when asked."""
    parser.add_argument("--force", action="store_true",
                        help=f"replace an existing {what} (without it an existing file is refused; a symlink is "
                             "always refused)")


def check_new_output(path: str | None, what: str, force: bool) -> None:
    """Before any work: ``path`` (if given) is no symlink and, without ``force``, no existing file."""
    if path:
        from posreal.runtime.output_files import check_target
        check_target(path, what, force)


def output_file(text: str) -> str:
    """argparse type of ``--out FILE``."""
    return _as_type_error(lambda: resources.check_output_file(text, "--out file"))


def output_directory(text: str) -> str:
    """argparse type of ``--out DIR`` / ``--certify DIR``."""
    return _as_type_error(lambda: resources.check_output_directory(text, "directory"))


def plot_file(text: str) -> str:
    """argparse type of ``--plot FILE.png``."""
    return _as_type_error(lambda: resources.check_output_file(text, "--plot file", ".png"))


# ----------------------------------------------------------------------------- output
def _key_order(key: Any) -> tuple[int, int, str]:
    """Keys that are lengths (ASCII digits) first, in numeric order; every other key after them, sorted as text."""
    text = str(key)
    return (0, int(text), "") if text.isascii() and text.isdigit() else (1, 0, text)


def json_order(document: Any) -> Any:
    """The document with every object's keys in :func:`_key_order` (``"32"`` before ``"128"``), and every float
    that is not finite written ``null``: strict JSON has no Infinity or NaN (a float copy of an exact value
    beyond float's range, e.g. θ* of a table with 10^400 next to 1, overflows; the exact value is in its ``p/q``
    field)."""
    if isinstance(document, dict):
        return {k: json_order(document[k]) for k in sorted(document, key=_key_order)}
    if isinstance(document, list | tuple):
        return [json_order(v) for v in document]
    if isinstance(document, float) and not math.isfinite(document):
        return None
    return document


def emit_json(document: Any) -> None:
    """Print exactly one strict JSON document on stdout, keys sorted, lengths in numeric order."""
    json.dump(json_order(document), sys.stdout, indent=2, default=str, allow_nan=False)
    sys.stdout.write("\n")


def as_printed(document: Any) -> Any:
    """The document as :func:`emit_json` prints it, read back: what ``--json`` users, and ``--report``, see."""
    return json.loads(json.dumps(json_order(document), default=str))


def with_provenance(document: dict, **extra: Any) -> dict:
    from posreal.runtime.provenance import versions   # importlib.metadata: only when a JSON document is written
    return {**document, "versions": versions(), **extra}


def format_table(header: Iterable[Any], rows: Iterable[Iterable[Any]]) -> str:
    """A plain aligned text table."""
    head = [str(h) for h in header]
    cells = [[str(c) for c in r] for r in rows]
    widths = [max([len(h)] + [len(r[n]) for r in cells]) for n, h in enumerate(head)]
    lines = ["  ".join(h.ljust(w) for h, w in zip(head, widths)).rstrip(),
             "  ".join("-" * w for w in widths)]
    lines += ["  ".join(c.ljust(w) for c, w in zip(r, widths)).rstrip() for r in cells]
    return "\n".join(lines)


def progress(iterable: Iterable[T], total: int | None = None, desc: str = "",
             quiet: bool = False) -> Iterable[T] | Iterator[T]:
    """tqdm progress bar on stderr when it is a terminal; the plain iterable otherwise."""
    if quiet or not sys.stderr.isatty():
        return iterable
    from tqdm import tqdm
    return tqdm(iterable, total=total, desc=desc, file=sys.stderr, leave=False)
