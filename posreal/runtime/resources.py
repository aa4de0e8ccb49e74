"""The resource policy: bounds on every input, and an estimate of the work before it starts.

Standard library only, so that the command line and the certificate verifier can use it without
numpy.  Main definitions:

* input bounds, one constant each: :data:`MAX_SPEC_CHARS`, :data:`MAX_DUAL_DEPTH` (nesting of the shear ``dual:``),
  :data:`MAX_INT_DIGITS`, :data:`MAX_SPEC_INT` (integer parameters of specs), :data:`MAX_LENGTH`,
  :data:`MAX_LENGTHS`, :data:`MAX_STEPS`, :data:`MAX_SAMPLES`, :data:`MAX_INSTANCES`,
  :data:`MAX_JOBS`, :data:`MAX_SEED`, :data:`MAX_COUNT`, :data:`MAX_SECONDS`, :data:`MAX_PATH_COMPONENT`,
  :data:`MAX_FILE_BYTES`, :data:`MAX_RECORDS_BYTES`, :data:`MAX_JSON_DEPTH`, :data:`MAX_JSON_INT_DIGITS`;
* :func:`parse_int` — an integer of ASCII digits within bounds (no Unicode digits, no
  underscores, no unbounded digit strings), else a one-line :class:`~posreal.theory.errors.SpecError`;
* :func:`bad` — the one-line error for a bad value, quoting at most about 80 characters of it
  (:func:`posreal.theory.errors.quote`);
* :func:`dual_depth` / :func:`strip_duals` — the shear prefix counted without recursion;
* :class:`Budget` and :func:`budget` — the memory budget (default :data:`DEFAULT_MAX_MEMORY`,
  raised with ``posreal --max-memory SIZE`` or ``POSREAL_MAX_MEMORY``), :func:`require` refuses
  an :class:`Estimate` above it with a :class:`ResourceError` that says what the work would need
  and how to raise the budget, and announces work above :data:`NOTE_WORK` in one stderr line (:func:`note_work`);
* :func:`cell_estimate` — memory of α_L for one (PE, task) cell: the training differences at L0
  (pairs × p floats) and the transfer at every L (profile, bilinear or dense kernels);
* :func:`check_output_file` / :func:`check_output_directory` — output paths checked before the
  work: empty, over-long, directory, non-regular (a device, a FIFO) or unwritable paths refused;
* :func:`read_text` and :func:`load_json` — regular files only, size-limited, JSON with a
  nesting-depth pre-scan, an integer-digit bound and no key repeated in one object.

See the docs' Command line page, section "Bounds".
"""

from __future__ import annotations

import json
import math
import os
import re
import stat
import sys
import tempfile
from dataclasses import dataclass
from typing import Any

from posreal.theory.errors import SpecError, quote
from posreal.theory.modes import Mode, parse_mode

MAX_SPEC_CHARS = 512           # characters of a PE or task spec
MAX_DUAL_DEPTH = 64            # nested shears dual:dual:...:P
MAX_INT_DIGITS = 12            # digits of an integer argument
MAX_SPEC_INT = 10 ** 9         # integer parameters of specs (offset:c, relbias:D, rope:d, ...)
MAX_LENGTH = 10 ** 7           # a grid length L or L0
MAX_LENGTHS = 256              # how many lengths one command accepts
MAX_COUNT = 10 ** 8            # any other count argument
MAX_STEPS = 10 ** 6            # gradient-descent steps (--gd-steps, --evidence-steps)
MAX_SAMPLES = 10 ** 5          # Monte Carlo samples (--samples)
MAX_INSTANCES = 10 ** 7        # search instances (--budget)
MAX_JOBS = 256                 # worker processes (--jobs)
MAX_SEED = 2 ** 32 - 1         # seeds
MAX_PATH_COMPONENT = 255       # bytes of one path component (the usual file-system bound)
MAX_SECONDS = 10 ** 6          # a timeout or a time budget, in seconds (about 11.6 days)
MAX_FILE_BYTES = 64 * 2 ** 20  # an input file (certificate, run file, table)
MAX_RECORDS_BYTES = 2 ** 30    # a results file that grows with the run (records.jsonl)
MAX_JSON_DEPTH = 64            # nesting of arrays and objects in an input JSON file
MAX_JSON_INT_DIGITS = 400      # digits of one integer in an input JSON file
DEFAULT_MAX_MEMORY = 4 * 2 ** 30
MEMORY_ENV = "POSREAL_MAX_MEMORY"
DEFAULT_MAX_WORK = 10 ** 13    # floating-point operations (order of an hour of numpy on one core)
NOTE_WORK = 6 * 10 ** 10       # work above this (about a minute at 10^9 operations/s) is announced before it starts
OPERATIONS_PER_SECOND = 10 ** 9  # the rate the work estimates are counted at (theory/certified.py: INTERVAL_FLOPS)
WORK_ENV = "POSREAL_MAX_WORK"
FLOAT_BYTES = 8
FRACTION_BYTES = 160           # a small Fraction object with its two ints, as Python stores it

_DIGITS = re.compile(r"[0-9]+")
_SIZE = re.compile(r"([0-9]+(?:\.[0-9]+)?)\s*([KMGT]?)(?:i?B)?", re.IGNORECASE)
_UNITS = {"": 1, "K": 2 ** 10, "M": 2 ** 20, "G": 2 ** 30, "T": 2 ** 40}


class ResourceError(SpecError):
    """The requested work needs more than the budget (a usage error: exit code 2)."""


def bad(what: str, value: object, accepted: str) -> SpecError:
    """The one-line error for a bad argument, quoting at most about 80 characters of it (:func:`quote`)."""
    return SpecError(f"invalid {what} {quote(value)}; accepted: {accepted}")


def parse_int(text: str, what: str, minimum: int = 0, maximum: int = MAX_SPEC_INT) -> int:
    """``text`` as an integer of ASCII digits (optionally after one ``-``) in [minimum, maximum]."""
    accepted = f"an integer from {minimum} to {maximum} (ASCII digits)"
    if not isinstance(text, str):
        raise bad(what, text, accepted)
    digits = text.removeprefix("-")
    if len(digits) > MAX_INT_DIGITS or not _DIGITS.fullmatch(digits):
        raise bad(what, text, accepted)
    value = int(text, 10)
    if not minimum <= value <= maximum:
        raise bad(what, text, accepted)
    return value


def parse_number(text: str, what: str, low: float, high: float, low_open: bool = True) -> float:
    """A finite decimal number in (low, high] (or [low, high]); ASCII only, at most 40 characters."""
    accepted = f"a number {'>' if low_open else '>='} {low:g} and <= {high:g}"
    if not isinstance(text, str) or len(text) > 40 or not text.isascii() or "_" in text:
        raise bad(what, text, accepted)
    try:
        value = float(text)
    except ValueError:
        raise bad(what, text, accepted) from None
    if not (value > low if low_open else value >= low) or not value <= high:
        raise bad(what, text, accepted)
    return value


def dual_depth(spec: str) -> int:
    """How many ``dual:`` prefixes a spec has (counted in a loop, never by recursion)."""
    depth, rest = 0, spec
    while rest.startswith("dual:"):
        depth, rest = depth + 1, rest[5:]
    return depth


def check_spec(spec: object, what: str, forms: str) -> str:
    """A spec string within :data:`MAX_SPEC_CHARS` and :data:`MAX_DUAL_DEPTH`; returned stripped."""
    if not isinstance(spec, str) or len(spec) > MAX_SPEC_CHARS:
        raise bad(what, spec, f"{forms} (at most {MAX_SPEC_CHARS} characters)")
    text = spec.strip()
    if dual_depth(text) > MAX_DUAL_DEPTH:
        raise bad(what, spec, f"{forms}, with at most {MAX_DUAL_DEPTH} nested dual: prefixes")
    return text


def strip_duals(spec: str) -> tuple[int, str]:
    """``(number of dual: prefixes, the base spec)``, bounded by :data:`MAX_DUAL_DEPTH`."""
    depth = dual_depth(spec)
    if depth > MAX_DUAL_DEPTH:
        raise bad("spec", spec, f"at most {MAX_DUAL_DEPTH} nested dual: prefixes")
    return depth, spec[5 * depth:]


# ----------------------------------------------------------------------------- budget
@dataclass(frozen=True)
class Budget:
    """The memory (bytes) one command may plan to use, and where that number came from."""
    memory: int
    source: str


_configured: Budget | None = None


def parse_size(text: str, what: str = "memory size") -> int:
    """``"4G"``, ``"512M"``, ``"2GiB"``, ``"1000000"`` (bytes) -> bytes; at most 1 PiB."""
    accepted = "a size such as 512M, 4G or 2GiB (bytes if no unit), at most 1024T"
    match = _SIZE.fullmatch(text.strip()) if isinstance(text, str) and len(text) <= 32 else None
    if match is None:
        raise bad(what, text, accepted)
    value = int(float(match.group(1)) * _UNITS[match.group(2).upper()])
    if not 0 < value <= 2 ** 50:
        raise bad(what, text, accepted)
    return value


def configure(max_memory: int | None) -> None:
    """Set the budget for this process (``posreal --max-memory``); None restores the default."""
    global _configured
    _configured = None if max_memory is None else Budget(max_memory, "--max-memory")


def budget() -> Budget:
    """The memory budget: ``--max-memory``, else ``POSREAL_MAX_MEMORY``, else the default."""
    if _configured is not None:
        return _configured
    env = os.environ.get(MEMORY_ENV)
    if env:
        return Budget(parse_size(env, f"environment variable {MEMORY_ENV}"), MEMORY_ENV)
    return Budget(DEFAULT_MAX_MEMORY, "the default")


def max_work() -> int:
    """The work budget in floating-point operations: ``POSREAL_MAX_WORK``, else the default."""
    env = os.environ.get(WORK_ENV)
    if env:
        return int(parse_number(env, f"environment variable {WORK_ENV}", 1, 1e18, low_open=False))
    return DEFAULT_MAX_WORK


def human(size: float) -> str:
    """A byte count for messages: three significant digits in the largest unit it reaches (whole
    numbers from 100 of a unit on, so never an exponent: ``1000 MiB``, ``3072 TiB``)."""
    for unit, scale in (("TiB", 2 ** 40), ("GiB", 2 ** 30), ("MiB", 2 ** 20), ("KiB", 2 ** 10)):
        if size >= scale:
            value = size / scale
            return f"{value:.0f} {unit}" if value >= 100 else f"{value:.3g} {unit}"
    return f"{int(size)} B"


@dataclass(frozen=True)
class Estimate:
    """Planned memory (bytes) and work (floating-point operations, 0 if not estimated) of one
    piece of work, and a short description of its largest part."""
    memory: int
    what: str
    work: int = 0


def require(estimate: Estimate) -> None:
    """Refuse ``estimate`` if it exceeds the budget (a one-line ResourceError, exit code 2); work within the
    budget but above :data:`NOTE_WORK` is announced first, one line on stderr (:func:`note_work`)."""
    allowed = budget()
    work_budget = max_work()
    if estimate.work > work_budget:
        raise ResourceError(
            f"refused: {estimate.what} would need about {estimate.work:.2g} floating-point operations, above the "
            f"budget of {work_budget:.2g}; accepted: smaller arguments, or raise the budget with {WORK_ENV}=N")
    if estimate.memory > allowed.memory:
        raise ResourceError(
            f"refused: {estimate.what} would need about {human(estimate.memory)} of memory, above the budget "
            f"of {human(allowed.memory)} ({allowed.source}); accepted: smaller arguments, or raise the budget with "
            f"'posreal --max-memory SIZE ...' or {MEMORY_ENV}=SIZE")
    note_work(estimate)


def note_work(estimate: Estimate) -> None:
    """One line on stderr (best effort) before work estimated above :data:`NOTE_WORK`: what it is and about how
    long it may take at :data:`OPERATIONS_PER_SECOND` (an upper estimate; stdout is untouched)."""
    if estimate.work <= NOTE_WORK:
        return
    seconds = estimate.work / OPERATIONS_PER_SECOND
    try:
        sys.stderr.write(f"posreal: note: {estimate.what} may take up to about {seconds:.3g} s "
                         f"({estimate.work:.2g} operations estimated, within the budget of {max_work():.2g})\n")
        sys.stderr.flush()
    except (OSError, ValueError):
        pass


def training_pairs(rows_and_targets: list[tuple[int, int]]) -> int:
    """How many training differences z = ψ(i,t) - ψ(i,j) (j ≤ i, j ≠ t) the rows give."""
    return sum(i for i, _ in rows_and_targets)


def cell_estimate(label: str, dim: int, kernel: str, pairs: int, lengths: list[int], mode: Mode | str = Mode.FLOAT,
                  held: str = "training differences", profile_copies: int = 1) -> Estimate:
    """Memory of α_L for one cell.

    ``dim`` is p, ``pairs`` the training differences the selection holds (``held`` says which), ``kernel``
    one of ``profile`` (O(L p) per length), ``bilinear`` (Φ_L: O(L √p), row-blocked kernel), ``blocked``
    (ψ evaluated a block of rows at a time: O(2^20 + L p)), ``dense`` (an (L, L) kernel).
    The selection holds a few copies of the (pairs, p) difference matrix.  ``profile_copies`` is how many
    (L, p) float copies a profile PE holds at its peak (its structural ties: np.unique on the features,
    :attr:`posreal.theory.encodings.ProfileEncoding.peak_copies`), measured by benchmarks/bench_memory.py.
    """
    scalar = FRACTION_BYTES if parse_mode(mode) is Mode.EXACT else FLOAT_BYTES   # a Fraction per entry in ℚ
    selection = 4 * pairs * max(dim, 1) * scalar                         # (pairs, p) features, z, E
    largest = max(lengths, default=0)
    if kernel == "dense":
        transfer = largest * largest * (scalar + 2 * FLOAT_BYTES)         # (L, L) values and masks
    elif kernel == "blocked":   # ψ on one block of rows (at most 2^20 entries, a few copies), an (L,) row of values
        transfer = 4 * 2 ** 20 * FLOAT_BYTES + largest * (max(dim, 1) + 16) * scalar
    elif kernel == "bilinear":
        width = max(int(dim ** 0.5), 1)
        transfer = 4 * largest * width * FLOAT_BYTES + 256 * largest * 3 * FLOAT_BYTES   # Φ_L, one row block
    else:   # (L, p) features and (L,) profiles; the structural ties' float copies of the features
        transfer = largest * (max(dim, 1) + 16) * scalar + (profile_copies - 1) * largest * dim * FLOAT_BYTES
    if selection >= transfer:
        what = f"{label}: the selection's {pairs} {held} × p = {dim}"
    else:
        what = f"{label}: the transfer to L = {largest}"
    return Estimate(selection + transfer, what)


def learned_estimate(label: str, width: int, train_length: int, lengths: list[int], steps: int,
                     samples: int) -> Estimate:
    """Memory and work of the learned:d interval: W (d, d), tables (L, d), kernels (L, L); ``steps``
    training steps on the L0 grid and ``samples`` Monte Carlo completions at every L."""
    largest = max(lengths + [train_length])
    work = 6 * steps * (train_length * width * width + train_length ** 2 * width)
    work += 2 * samples * sum(L * width * width + L * L * width for L in lengths)
    return Estimate(FLOAT_BYTES * (4 * width * width + 4 * largest * width + 3 * largest * largest),
                    f"{label}: the (d, d) block with d = {width}, {steps} training steps, {samples} samples "
                    f"and (L, L) kernels up to L = {largest}", work)


def ceiling_estimate(label: str, dim: int, length: int) -> Estimate:
    """Memory of the MaxSMT encoding: about one z3 term per (key, feature) of every row."""
    terms = max(dim, 1) * length * (length + 1) // 2
    return Estimate(terms * 1000, f"{label}: {terms} z3 terms (p = {dim} features on the n = {length} grid)")


# ----------------------------------------------------------------------------- paths
def _path_problem(text: str) -> str | None:
    """Why ``text`` cannot name a file to create, or None (empty, NUL, over-long component)."""
    if not text:
        return "it is empty"
    if "\0" in text:
        return "it contains a NUL character"
    raw = os.fsencode(text)
    if len(raw) > 4096:
        return f"it is {len(raw)} bytes long (at most 4096)"
    if any(len(c) > MAX_PATH_COMPONENT for c in raw.split(b"/")):
        return f"a component is longer than {MAX_PATH_COMPONENT} bytes"
    return None


def _probe_directory(directory: str) -> str | None:
    """Why no file can be created in ``directory``, or None (creates and removes a probe file)."""
    if not os.path.isdir(directory):
        return f"directory {quote(directory)} does not exist"
    try:
        fd, probe = tempfile.mkstemp(prefix=".posreal-probe-", dir=directory)
    except OSError as err:
        return f"directory {quote(directory)} is not writable ({err.strerror or err})"
    os.close(fd)
    try:
        os.unlink(probe)
    except OSError:
        pass
    return None


def check_output_file(text: str, what: str = "output file", suffix: str | None = None) -> str:
    """``text`` if a regular file can be written there, else a one-line SpecError.

    Refused before any work: an empty or over-long path, a directory, an existing non-regular file
    (a device such as /dev/full, a FIFO), a file or directory that cannot be written, and (with
    ``suffix``) a name that does not end in ``suffix`` after a non-empty stem.
    """
    accepted = "a writable file path in an existing directory" + (f", ending in {suffix}" if suffix else "")
    problem = _path_problem(text)
    name = os.path.basename(text)
    if problem is None and suffix and not (name.lower().endswith(suffix) and len(name) > len(suffix)):
        problem = f"the file name must be a non-empty name followed by {suffix}"
    if problem is None and os.path.isdir(text):
        problem = "it is a directory"
    if problem is None and os.path.lexists(text):
        if not os.path.isfile(text):
            problem = "it exists and is not a regular file"
        elif not os.access(text, os.W_OK):
            problem = "it is not writable"
    if problem is None and not os.path.lexists(text):
        problem = _probe_directory(os.path.dirname(text) or ".")
    if problem is not None:
        raise SpecError(f"invalid {what} {quote(text)}: {problem}; accepted: {accepted}")
    return text


def check_output_directory(text: str, what: str = "output directory") -> str:
    """``text`` if it is a writable directory or can be created as one, else a one-line SpecError."""
    accepted = "a writable directory (created if missing)"
    problem = _path_problem(text)
    if problem is None and os.path.lexists(text) and not os.path.isdir(text):
        problem = "it exists and is not a directory"
    if problem is None:
        existing = os.path.abspath(text)
        while not os.path.lexists(existing):
            existing = os.path.dirname(existing)
        problem = _probe_directory(existing) if os.path.isdir(existing) else f"{quote(existing)} is not a directory"
    if problem is not None:
        raise SpecError(f"invalid {what} {quote(text)}: {problem}; accepted: {accepted}")
    return text


# ----------------------------------------------------------------------------- files
def regular_file(path: str, what: str, max_bytes: int = MAX_FILE_BYTES) -> int:
    """The size of ``path`` if it is a readable regular file within ``max_bytes``, else a SpecError."""
    if not isinstance(path, str) or not path:
        raise bad(what, path, "a path to a regular file")
    try:
        info = os.stat(path)
    except (OSError, ValueError) as err:
        reason = getattr(err, "strerror", None) or str(err) or err.__class__.__name__   # ValueError: embedded NUL
        raise SpecError(f"unreadable {what} {quote(path)}: {reason}; accepted: a path to a regular file") from None
    if not stat.S_ISREG(info.st_mode):
        kind = "a directory" if stat.S_ISDIR(info.st_mode) else "not a regular file"
        raise SpecError(f"invalid {what} {quote(path)}: {kind}; accepted: a regular file")
    if info.st_size > max_bytes:
        raise SpecError(f"invalid {what} {quote(path)}: {human(info.st_size)}; accepted: a file of at most "
                        f"{human(max_bytes)}")
    return info.st_size


def read_text(path: str, what: str, max_bytes: int = MAX_FILE_BYTES) -> str:
    """The UTF-8 text of a regular file of at most ``max_bytes`` (never a device, FIFO or directory)."""
    regular_file(path, what, max_bytes)
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
        with os.fdopen(fd, "rb") as fh:
            if not stat.S_ISREG(os.fstat(fh.fileno()).st_mode):   # replaced since the stat above
                raise SpecError(f"invalid {what} {quote(path)}: not a regular file; accepted: a regular file")
            data = fh.read(max_bytes + 1)
    except OSError as err:
        raise SpecError(f"unreadable {what} {quote(path)}: {err.strerror or err}; "
                        "accepted: a readable regular file") from None
    if len(data) > max_bytes:
        raise SpecError(f"invalid {what} {quote(path)}: larger than {human(max_bytes)}")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as err:
        raise SpecError(f"unreadable {what} {quote(path)}: not UTF-8 text (byte {err.start}); "
                        "accepted: UTF-8 text") from None


_JSON_TOKEN = re.compile(r'"(?:[^"\\]|\\.)*"|[\[\]{}]')


def json_depth(text: str) -> int:
    """Maximal nesting of arrays and objects in JSON text (brackets inside strings ignored)."""
    depth = deepest = 0
    for match in _JSON_TOKEN.finditer(text):
        ch = match.group()
        if ch in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif ch in "]}":
            depth -= 1
    return deepest


def _bounded_int(text: str) -> int:
    digits = len(text.lstrip("-"))
    if digits > MAX_JSON_INT_DIGITS:
        raise ValueError(f"an integer of {digits} digits (at most {MAX_JSON_INT_DIGITS})")
    return int(text)


def _finite_float(text: str) -> float:
    """A JSON number with a fraction or exponent; one beyond float's range (1e999) is refused, as
    the NaN and Infinity constants are."""
    value = float(text)
    if not math.isfinite(value):
        raise ValueError(f"the number {text[:24]} is beyond the floating-point range")   # quote() keeps 80
    return value


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


def _unique_keys(pairs: list[tuple[str, Any]]) -> dict:
    """One JSON object whose keys are all distinct (a repeated key would hide its first value)."""
    obj = dict(pairs)
    if len(obj) != len(pairs):
        seen: set[str] = set()
        for key, _ in pairs:
            if key in seen:
                raise ValueError(f"the key {key!r} appears twice in one object")
            seen.add(key)
    return obj


def load_json(text: str, what: str, max_depth: int = MAX_JSON_DEPTH,
              accepted: str = "a JSON file written by posreal") -> Any:
    """Parse JSON with a nesting-depth bound and an integer-size bound (NaN and Infinity refused,
    a key repeated in one object refused); ``accepted`` ends the error of text that is not such JSON."""
    deepest = json_depth(text)
    if deepest > max_depth:
        raise SpecError(f"malformed {what}: JSON nested {deepest} levels deep; accepted: at most {max_depth}")
    try:
        return json.loads(text, parse_int=_bounded_int, parse_float=_finite_float, parse_constant=_no_constant,
                          object_pairs_hook=_unique_keys)
    except json.JSONDecodeError as err:
        raise SpecError(f"malformed {what}: not JSON ({err.msg} at line {err.lineno}); accepted: {accepted}") from None
    except (ValueError, RecursionError) as err:
        raise SpecError(f"malformed {what}: {quote(str(err))}; accepted: {accepted}") from None
