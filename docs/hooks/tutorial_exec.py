"""mkdocs hook: a page marked ``<!-- execute: python -->`` has its Python blocks run at build time.

The ```` ```python ```` blocks of such a page (``docs/tutorial.md``) run in order, in one namespace,
in a scratch working directory; after each block the hook inserts what it printed, as a ```` ```text ````
block.  A block that raises is a build error naming the page and the block (``PluginError``), so the
page cannot rot: the site is not built until the tutorial runs.  ``tests/test_tutorial.py`` runs the
same blocks through :func:`run_blocks` in CI.

What the blocks printed is stored with the docs build's other results (``posreal_docs_cache``), keyed by the
blocks' source and the code: a rebuild with neither changed does not run them again (prose edits around
them change nothing); under ``POSREAL_DOCS_FAST`` outputs of older code are reused and the page says so.
"""

from __future__ import annotations

import contextlib
import hashlib
import io
import logging
import os
import re
import tempfile
import time
import traceback
from dataclasses import dataclass
from pathlib import Path

from mkdocs.exceptions import PluginError

from posreal_docs_cache import DiskCache, Freshness  # sibling module: docs/hooks is on sys.path while loading

log = logging.getLogger("mkdocs.hooks.tutorial_exec")
ROOT = Path(__file__).resolve().parents[2]          # the repository

MARKER = re.compile(r"^<!--\s*execute:\s*python\s*-->[ \t]*\n?", re.M)
BLOCK = re.compile(r"^```python[ \t]*\n(.*?)^```[ \t]*$", re.M | re.S)


@dataclass(frozen=True)
class BlockRun:
    """One executed block: its position in the page, its source and what it printed."""

    start: int      # offset of the block's opening fence in the page
    end: int        # offset just after its closing fence
    source: str
    output: str
    seconds: float


class BlockFailed(Exception):
    """A block raised: which one (1-based), and the traceback of the exception."""


def run_blocks(markdown: str, page: str = "page", namespace: dict | None = None) -> list[BlockRun]:
    """Run every ```python block of ``markdown`` in order in one namespace (a fresh one unless given: a
    caller that passes its own can read the page's variables afterwards); return what each printed."""
    namespace = {"__name__": "__tutorial__"} if namespace is None else namespace
    runs = []
    here = os.getcwd()
    with tempfile.TemporaryDirectory(prefix="posreal-tutorial-") as scratch:
        os.chdir(scratch)
        try:
            for number, match in enumerate(BLOCK.finditer(markdown), start=1):
                source = match.group(1)
                buffer = io.StringIO()
                start = time.perf_counter()
                try:
                    with contextlib.redirect_stdout(buffer):
                        exec(compile(source, f"<{page} block {number}>", "exec"), namespace)
                except Exception as err:
                    raise BlockFailed(f"{page}: block {number} raised {type(err).__name__}: {err}\n"
                                      + "".join(traceback.format_exception(err)[-6:])) from err
                runs.append(BlockRun(match.start(), match.end(), source, buffer.getvalue(),
                                     time.perf_counter() - start))
        finally:
            os.chdir(here)
    return runs


def render(markdown: str, runs: list[BlockRun]) -> str:
    """The page with each block's output inserted after it (the marker line removed)."""
    out, last = [], 0
    for run in runs:
        out.append(markdown[last:run.end])
        text = run.output.rstrip("\n") or "(printed nothing)"
        out.append("\n\n```text\n" + text.replace("```", "` ` `") + "\n```\n")
        last = run.end
    out.append(markdown[last:])
    return MARKER.sub("", "".join(out))


def on_page_markdown(markdown, page, config, files, **kwargs):
    if not MARKER.search(markdown):
        return markdown
    where = page.file.src_uri
    blocks = list(BLOCK.finditer(markdown))
    if not blocks:
        raise PluginError(f"tutorial: {where} is marked for execution but has no ```python block")
    start = time.perf_counter()

    def execute() -> list[str]:
        log.info("tutorial: running the Python blocks of %s", where)
        try:
            return [run.output for run in run_blocks(markdown, where)]
        except BlockFailed as err:
            raise PluginError(f"tutorial: {err}") from err

    sources = hashlib.sha256("\0".join(m.group(1) for m in blocks).encode()).hexdigest()
    outputs, fresh = DiskCache.from_environment(ROOT).fetch("tutorial", (where, sources), execute)
    log.info("tutorial: %s: %d blocks %s in %.1f s", where, len(blocks), fresh.value, time.perf_counter() - start)
    runs = [BlockRun(m.start(), m.end(), m.group(1), out, 0.0) for m, out in zip(blocks, outputs)]
    page_text = render(markdown, runs)
    if fresh is Freshness.STALE:
        page_text = ('!!! warning "Fast build: outputs may be out of date"\n    Built with `POSREAL_DOCS_FAST=1`: the '
                     "outputs below were printed by an earlier state of the code.\n\n" + page_text)
    return page_text
