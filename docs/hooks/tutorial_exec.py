"""mkdocs hook: a page marked ``<!-- execute: python -->`` has its Python blocks run at build time.

The ```` ```python ```` blocks of such a page (``docs/tutorial.md``) run in order, in one namespace,
in a scratch working directory; after each block the hook inserts what it printed, as a ```` ```text ````
block.  A block that raises is a build error naming the page and the block (``PluginError``), so the
page cannot rot: the site is not built until the tutorial runs.  ``tests/test_tutorial.py`` runs the
same blocks through :func:`run_blocks` in CI.
"""

from __future__ import annotations

import contextlib
import io
import logging
import os
import re
import tempfile
import time
import traceback
from dataclasses import dataclass

from mkdocs.exceptions import PluginError

log = logging.getLogger("mkdocs.hooks.tutorial_exec")

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
    log.info("tutorial: running the Python blocks of %s", where)
    start = time.perf_counter()
    try:
        runs = run_blocks(markdown, where)
    except BlockFailed as err:
        raise PluginError(f"tutorial: {err}") from err
    if not runs:
        raise PluginError(f"tutorial: {where} is marked for execution but has no ```python block")
    log.info("tutorial: %s: %d blocks ran in %.1f s", where, len(runs), time.perf_counter() - start)
    return render(markdown, runs)
