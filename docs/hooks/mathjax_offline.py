"""mkdocs hook: serve MathJax 3 from the site itself, never from a CDN.

MathJax comes from the pip package ``django-static-mathjax`` (a dev dependency), which ships the
ES5 build under ``mathjax/static/mathjax/es5/``.  After the build, :func:`on_post_build` copies the
parts a page needs into ``<site>/mathjax/``: the ``tex-svg`` component (SVG output draws every glyph
as a path, so no web font is involved), the TeX extensions it loads on demand, and the menu and
accessibility components.  ``mkdocs.yml`` loads ``mathjax/tex-svg.js`` after
``javascripts/mathjax-config.js``.  Nothing is committed to git.
"""

from __future__ import annotations

import importlib.util
import logging
import shutil
from pathlib import Path

from mkdocs.exceptions import PluginError

log = logging.getLogger("mkdocs.hooks.mathjax_offline")

# What the site needs from es5/: the entry point and what it loads lazily.
NEEDED = ("tex-svg.js", "input/tex/extensions", "ui", "a11y", "adaptors")
TARGET = "mathjax"


def mathjax_es5_dir() -> Path:
    """Location of MathJax's ES5 build inside the installed ``django-static-mathjax`` package."""
    spec = importlib.util.find_spec("mathjax")
    if spec is None or not spec.submodule_search_locations:
        raise PluginError("MathJax not found: install the dev extra (pip install -e \".[dev]\"), "
                          "which provides the package django-static-mathjax")
    es5 = Path(list(spec.submodule_search_locations)[0]) / "static" / "mathjax" / "es5"
    if not (es5 / "tex-svg.js").is_file():
        raise PluginError(f"MathJax package found but {es5 / 'tex-svg.js'} is missing; "
                          "reinstall django-static-mathjax>=3.2")
    return es5


def on_post_build(config, **kwargs) -> None:
    es5 = mathjax_es5_dir()
    target = Path(config["site_dir"]) / TARGET
    if target.exists():
        shutil.rmtree(target)
    for part in NEEDED:
        src = es5 / part
        if not src.exists():
            raise PluginError(f"MathJax component {src} is missing from django-static-mathjax")
        dest = target / part
        dest.parent.mkdir(parents=True, exist_ok=True)
        if src.is_dir():
            shutil.copytree(src, dest)
        else:
            shutil.copy2(src, dest)
    log.info("MathJax copied from %s into %s", es5, target)
