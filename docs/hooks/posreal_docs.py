"""mkdocs hook: every table and figure of the site is generated here, at build time, from the code.

A page asks for generated content with a marker line of its own::

    <!-- posreal: NAME ARG... -->

and :func:`on_page_markdown` replaces it with the Markdown that ``GENERATORS[NAME]`` returns
(see ``posreal_docs_gen.py``: the package's own reports, which ``posreal ... --report`` prints too).
Figures are added as generated files in :func:`on_files`, so they are written into the site and never into
git.  An unknown marker, a generator that raises, or an empty table (``posreal.runtime.markdown.ReportError``)
is a build ERROR (``PluginError``); a missing source is an error too, never a placeholder.

Links must land: mkdocs checks every link's anchor (``validation`` in ``mkdocs.yml``, an error under ``--strict``);
``tests/definitions_anchors.py`` checks the references to the Definitions page in the code's text.

Results are reused across builds (``posreal_docs_cache``): each marker's Markdown and each figure producer's output
is stored on disk under a key of its name, arguments and the code and data it depends on, so a build of an
unchanged tree recomputes nothing.  ``POSREAL_DOCS_FAST=1`` reuses results stored for older code too (for prose
edits), and a page that shows such a result says so at its top.  The log says, per figure and per block, whether it
was computed (and how long it took) or reused.

Every page also says once, plainly, that the formalization is this project's: at the
``formalization-note`` marker if the page places it, otherwise as a footer line.
"""

from __future__ import annotations

import logging
import re
import time

from mkdocs.exceptions import PluginError
from mkdocs.structure.files import File

import posreal_docs_gen as gen  # sibling modules: mkdocs puts this folder on sys.path while loading
from posreal_docs_cache import CODE, DiskCache, Freshness
from posreal_docs_gen import ROOT, working

from posreal.runtime.markdown import ReportError

log = logging.getLogger("mkdocs.hooks.posreal_docs")

MARKER = re.compile(r"^<!--\s*posreal:\s*([a-z0-9_-]+)((?:\s+[^\s>]+)*)\s*-->[ \t]*$", re.M)
ANY_MARKER = re.compile(r"<!--\s*posreal:", re.M)
NOTE_MARKER = "formalization-note"
FAST_NOTE = ('!!! warning "Fast build: results may be out of date"\n'
             "    This page was built with `POSREAL_DOCS_FAST=1`: {n} of its generated tables and figures were "
             "computed for an earlier state of the code and not recomputed. Build without it before relying "
             "on them.\n\n")

_state: dict = {"cache": None, "stale": set()}   # the build's DiskCache; names of figures reused stale


def _cache() -> DiskCache:
    if _state["cache"] is None:
        _state["cache"] = DiskCache.from_environment(ROOT)
    return _state["cache"]


def on_config(config, **kwargs):
    """A new build: nothing shared with an earlier one in this process; the disk cache as the environment says."""
    gen.reset_cache()
    _state["cache"], _state["stale"] = DiskCache.from_environment(ROOT), set()
    log.info("posreal docs: %s", _cache().describe())
    return config


def on_files(files, config, **kwargs):
    """Render every figure and add it to the site as a generated file."""
    start = time.perf_counter()
    log.info("posreal docs: rendering figures (%d producers)", len(gen.ASSETS))
    for produce in gen.ASSETS:
        name = produce.__name__.removeprefix("asset_")
        one = time.perf_counter()
        try:
            with working(f"figure {name}"):
                produced, fresh = _cache().fetch(f"figure:{name}", (), produce,
                                                gen.INPUTS.get(f"figure:{name}", CODE))
        except PluginError:
            raise
        except Exception as err:  # a figure that cannot be drawn (a ReportError too) is a build error, named
            raise PluginError(f"posreal docs: figures of {produce.__name__} failed: "
                              f"{type(err).__name__}: {err}") from err
        log.info("posreal docs:   figure %s: %s (%.1f s)", ", ".join(produced), fresh.value,
                 time.perf_counter() - one)
        if fresh is Freshness.STALE:
            _state["stale"] |= set(produced)
        for src_uri, content in produced.items():
            files.append(File.generated(config, src_uri, content=content))
    log.info("posreal docs: figures rendered in %.1f s", time.perf_counter() - start)
    return files


def _expand(match: re.Match, page, stale: list[str]) -> str:
    name, args = match.group(1), match.group(2).split()
    if name == NOTE_MARKER:
        return gen.formalization_note(inline=True)
    fn = gen.GENERATORS.get(name)
    if fn is None:
        raise PluginError(f"posreal docs: {page.file.src_uri}: unknown generator {name!r}; "
                          f"known: {', '.join(sorted(gen.GENERATORS))}")
    start = time.perf_counter()
    try:
        with working(f"{page.file.src_uri}: {name} {' '.join(args)}".rstrip()):
            text, fresh = _cache().fetch(name, tuple(args), lambda: fn(*args), gen.INPUTS.get(name, CODE))
        level = logging.INFO if fresh is Freshness.COMPUTED else logging.DEBUG
        log.log(level, "posreal docs:   %s: %s (%.1f s)", " ".join([name, *args]), fresh.value,
                time.perf_counter() - start)
    except (PluginError, ReportError) as err:
        raise PluginError(f"posreal docs: {page.file.src_uri}: {name}: {err}") from err
    except Exception as err:
        raise PluginError(f"posreal docs: {page.file.src_uri}: generator {name} {' '.join(args)} failed: "
                          f"{type(err).__name__}: {err}") from err
    if not text or not text.strip():
        raise PluginError(f"posreal docs: {page.file.src_uri}: generator {name} produced nothing")
    if fresh is Freshness.STALE or any(uri in text for uri in _state["stale"]):
        stale.append(name)
    return text


def on_page_markdown(markdown, page, config, files, **kwargs):
    notes = len(re.findall(rf"<!--\s*posreal:\s*{NOTE_MARKER}\s*-->", markdown))
    if notes > 1:
        raise PluginError(f"posreal docs: {page.file.src_uri} places the formalization note {notes} times")
    count = len(MARKER.findall(markdown))
    start = time.perf_counter()
    stale: list[str] = []
    out = MARKER.sub(lambda m: _expand(m, page, stale), markdown)
    if count:
        log.info("posreal docs: %s: %d generated blocks in %.1f s", page.file.src_uri, count,
                 time.perf_counter() - start)
    if ANY_MARKER.search(out):
        line = out[ANY_MARKER.search(out).start():].splitlines()[0]
        raise PluginError(f"posreal docs: {page.file.src_uri}: malformed marker {line!r} "
                          "(a marker is one line: <!-- posreal: NAME ARG... -->)")
    if stale:
        out = _after_title(out, FAST_NOTE.format(n=len(stale)))
    if notes == 0:
        out = out.rstrip() + "\n\n" + gen.formalization_note(inline=False) + "\n"
    return out


def _after_title(markdown: str, note: str) -> str:
    """``note`` placed after the page's first heading (at the top when it has none)."""
    title = re.search(r"^# .*\n", markdown, re.M)
    cut = title.end() if title else 0
    return markdown[:cut] + "\n" + note + markdown[cut:]
