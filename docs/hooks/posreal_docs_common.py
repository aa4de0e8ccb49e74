"""Helpers shared by the generators behind the ``<!-- posreal: NAME ARG... -->`` markers: Markdown tables
(an empty one is a build error), provenance lines, number formats, an in-process memo for a result several
markers share within one build (the on-disk cache across builds is ``posreal_docs_cache``), and the CLI run
in-process for its JSON document.
"""

from __future__ import annotations

import contextlib
import io
import json
import logging
import re
import threading
import time
from collections.abc import Iterable, Iterator
from pathlib import Path

from mkdocs.exceptions import PluginError

log = logging.getLogger("mkdocs.hooks.posreal_docs")   # progress lines of the build (INFO)
ROOT = Path(__file__).resolve().parents[2]          # the repository
DOCS = ROOT / "docs"

_memo: dict = {}


def reset_cache() -> None:
    """Forget the results shared within one build (called when a build starts)."""
    _memo.clear()


def cached(key):
    """Compute once per build: several markers (a table and its figure) share one result."""
    def wrap(fn):
        def inner(*args):
            k = (key, args)
            if k not in _memo:
                _memo[k] = fn(*args)
            return _memo[k]
        inner.__name__ = fn.__name__
        inner.__doc__ = fn.__doc__
        return inner
    return wrap


PROGRESS_SECONDS = 10.0   # a long computation says where it is at least this often (the build's log)
HEARTBEAT_SECONDS = 15.0  # and says that it is still working when one step takes longer (margin: a busy GIL)


class working:
    """While a generator or figure producer runs, a daemon thread logs "still working on LABEL" whenever the
    log has been silent for :data:`HEARTBEAT_SECONDS` (a single slow cell or solver call included), so that the
    cold build prints progress at least every 30 s."""

    _lock = threading.Lock()
    _last = [time.perf_counter()]   # when the build last said something
    _step = [""]                    # what it is at inside the current computation

    def __init__(self, label: str) -> None:
        self.label = label
        self._stop = threading.Event()

    @classmethod
    def said(cls, step: str = "") -> None:
        with cls._lock:
            cls._last[0] = time.perf_counter()
            cls._step[0] = step

    def __enter__(self) -> working:
        self.start = time.perf_counter()
        working.said()
        threading.Thread(target=self._beat, daemon=True).start()
        return self

    def _beat(self) -> None:
        while not self._stop.wait(2.0):
            with working._lock:
                quiet, step = time.perf_counter() - working._last[0], working._step[0]
            if quiet >= HEARTBEAT_SECONDS:
                log.info("posreal docs:   … still working on %s%s (%.0f s)", self.label,
                         f", at {step}" if step else "", time.perf_counter() - self.start)
                working.said(step)

    def __exit__(self, *exc) -> None:
        self._stop.set()


def progress(label: str):
    """A ``progress`` argument of ``posreal.theory.taxonomy.taxonomy``: yields its cells in order and logs the
    cell it is at every :data:`PROGRESS_SECONDS`, so that a long table never leaves the build silent."""
    def wrap(cells: Iterable) -> Iterator:
        cells = list(cells)
        start = last = time.perf_counter()
        for n, cell in enumerate(cells, 1):
            now = time.perf_counter()
            if n == 1 or now - last >= PROGRESS_SECONDS:
                pe, task = cell
                log.info("posreal docs:   %s: cell %d of %d (%s · %s), %.0f s so far", label, n, len(cells), pe,
                         task, now - start)
                last = now
            working.said(f"{label}, cell {n} of {len(cells)} ({pe} · {task})")
            yield cell
    return wrap


def provenance(source: str) -> str:
    return f'<p class="posreal-generated">Generated at build time from <code>{source}</code>.</p>'


def rel(path: Path) -> str:
    """A path relative to the repository when it is inside it."""
    try:
        return str(Path(path).relative_to(ROOT))
    except ValueError:
        return str(path)


def md_escape(text) -> str:
    """One table cell on one line, with its pipes escaped (idempotent: escaped pipes stay as they are)."""
    return re.sub(r"(?<!\\)\|", r"\\|", str(text).replace("\n", " "))


def table(header, rows, source: str | None = None) -> str:
    rows = [list(r) for r in rows]
    if not rows:
        raise PluginError(f"generated table from {source or 'the code'} is empty")
    lines = ["| " + " | ".join(md_escape(h) for h in header) + " |",
             "|" + "|".join("---" for _ in header) + "|"]
    lines += ["| " + " | ".join(md_escape(c) for c in r) + " |" for r in rows]
    out = "\n".join(lines) + "\n"
    if source:
        out += "\n" + provenance(source) + "\n"
    return out


def first_line(doc: str | None) -> str:
    return rst_to_md((doc or "").strip().split("\n\n")[0].replace("\n", " "))


def rst_to_md(text: str) -> str:
    text = re.sub(r":(?:func|class|mod|meth|attr|data|obj):`~?([^`]+)`", r"`\1`", text)
    return text.replace("``", "`")


def fmt_alpha(value) -> str:
    return "—" if value is None else f"{value:.3f}"


def interval_text(pair) -> str:
    """An [every, some] interval of α: one number when its ends agree, "—" when there is none."""
    if pair is None:
        return "—"
    lo, hi = pair
    return fmt_alpha(lo) if lo == hi else f"[{fmt_alpha(lo)}, {fmt_alpha(hi)}]"


def fmt_seconds(value) -> str:
    try:
        return f"{float(value):.2f} s"
    except (TypeError, ValueError):
        return "—"


def cli_json(argv: list[str]):
    """``posreal ARGV`` run in-process: its one JSON document (exit 0 or 1), or a build error naming it."""
    from posreal.cli import main
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(argv)
    text = out.getvalue()
    try:
        doc = json.loads(text)
    except json.JSONDecodeError as exc:
        raise PluginError(f"`posreal {' '.join(argv)}` (exit {code}) did not print one JSON document: {exc}; "
                          f"stderr: {err.getvalue().strip()[:300]}") from exc
    if code not in (0, 1):
        raise PluginError(f"`posreal {' '.join(argv)}` exited with {code}: {err.getvalue().strip()[:300]}")
    return doc
