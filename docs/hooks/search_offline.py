"""mkdocs hook: the site's search works from disk (``file://``) and its results read as text, not TeX.

Material's ``offline`` plugin inlines the search index into ``search/search_index.js``, but a browser
refuses ``new Worker(file URL)``, so the search worker still cannot start from disk; the plugin's
answer is a polyfill script from a CDN, which this site must not load.  Instead:

* :func:`on_config` replaces that remote polyfill by ``javascripts/file-worker.js`` (this project's
  own script): from ``file://`` only, it runs the worker script in a hidden same-origin iframe and
  passes messages both ways, which is all Material's search worker needs;
* :func:`on_post_build` (after the search plugin has written ``search_index.json``, before the
  offline plugin inlines it) rewrites the math of every entry: ``\\(\\alpha_L \\ge 1\\)`` becomes
  ``α_L ≥ 1`` (:func:`tex_to_text`), so a result's preview shows what the page shows;
* :func:`on_page_content` does the same for the table-of-contents entries of headings with math.
"""

from __future__ import annotations

import json
import logging
import re
from pathlib import Path

from mkdocs.exceptions import PluginError
from mkdocs.plugins import event_priority

log = logging.getLogger("mkdocs.hooks.search_offline")

SHIM = "javascripts/file-worker.js"

SYMBOLS = {
    "alpha": "α", "beta": "β", "gamma": "γ", "delta": "δ", "epsilon": "ϵ", "varepsilon": "ε", "zeta": "ζ",
    "eta": "η", "theta": "θ", "vartheta": "ϑ", "iota": "ι", "kappa": "κ", "lambda": "λ", "mu": "μ", "nu": "ν",
    "xi": "ξ", "pi": "π", "rho": "ρ", "sigma": "σ", "tau": "τ", "upsilon": "υ", "phi": "ϕ", "varphi": "φ",
    "chi": "χ", "psi": "ψ", "omega": "ω", "Gamma": "Γ", "Delta": "Δ", "Theta": "Θ", "Lambda": "Λ", "Xi": "Ξ",
    "Pi": "Π", "Sigma": "Σ", "Phi": "Φ", "Psi": "Ψ", "Omega": "Ω",
    "le": "≤", "leq": "≤", "ge": "≥", "geq": "≥", "ne": "≠", "neq": "≠", "approx": "≈", "sim": "∼", "equiv": "≡",
    "in": "∈", "notin": "∉", "subseteq": "⊆", "subset": "⊂", "cup": "∪", "cap": "∩", "setminus": "∖",
    "emptyset": "∅", "varnothing": "∅", "infty": "∞", "to": "→", "mapsto": "↦", "rightarrow": "→",
    "Rightarrow": "⇒", "Leftrightarrow": "⇔", "iff": "⇔", "implies": "⇒", "leftarrow": "←",
    "langle": "⟨", "rangle": "⟩", "lVert": "‖", "rVert": "‖", "Vert": "‖", "|": "‖", "lvert": "|", "rvert": "|",
    "lfloor": "⌊", "rfloor": "⌋", "lceil": "⌈", "rceil": "⌉", "{": "{", "}": "}",
    "top": "ᵀ", "perp": "⊥", "sharp": "♯", "ell": "ℓ", "partial": "∂", "nabla": "∇", "cdot": "·", "cdots": "⋯",
    "ldots": "…", "dots": "…", "times": "×", "circ": "∘", "pm": "±", "mp": "∓", "sum": "Σ", "prod": "Π",
    "forall": "∀", "exists": "∃", "neg": "¬", "land": "∧", "lor": "∨", "wedge": "∧", "vee": "∨",
    "square": "□", "star": "⋆", "ast": "∗", "prime": "′", "mid": "|", "colon": ":", "quad": " ", "qquad": " ",
    ",": " ", ";": " ", ":": " ", "!": "", " ": " ", "%": "%", "_": "_", "&": "&", "#": "#", "$": "$",
    "left": "", "right": "", "big": "", "Big": "", "bigl": "", "bigr": "", "Bigl": "", "Bigr": "",
    "displaystyle": "", "limits": "", "nolimits": "",
}
FUNCTIONS = ("log", "exp", "min", "max", "sup", "inf", "lim", "sin", "cos", "arg", "det", "rank", "sign",
             "argmin", "argmax", "dim", "ker", "Pr")
BLACKBOARD = {"R": "ℝ", "Q": "ℚ", "Z": "ℤ", "N": "ℕ", "C": "ℂ", "E": "𝔼", "P": "ℙ"}
STRIP = ("operatorname", "mathrm", "text", "textrm", "mathit", "mathbf", "boldsymbol", "mathsf", "mathtt",
         "textbf", "textit", "mathcal", "mathscr", "tfrac", "dfrac", "frac", "tilde", "hat", "bar", "overline",
         "widetilde", "widehat", "vec", "dot", "sqrt", "mathbb")
ACCENTS = {"tilde": "\u0303", "hat": "\u0302", "bar": "\u0304", "overline": "\u0304", "widetilde": "\u0303",
           "widehat": "\u0302", "vec": "\u20d7", "dot": "\u0307"}
MATH = re.compile(r"\\\((.+?)\\\)|\\\[(.+?)\\\]", re.S)


def _group(text: str, start: int) -> tuple[str, int]:
    """The braced group (or single token) starting at ``start``: (its content, the index after it)."""
    while start < len(text) and text[start] == " ":
        start += 1
    if start >= len(text):
        return "", start
    if text[start] != "{":
        if text[start] == "\\":
            m = re.match(r"\\([A-Za-z]+|.)", text[start:])
            return (m.group(0), start + m.end()) if m else (text[start], start + 1)
        return text[start], start + 1
    depth, n = 0, start
    while n < len(text):
        if text[n] == "\\":
            n += 2
            continue
        depth += {"{": 1, "}": -1}.get(text[n], 0)
        if depth == 0:
            return text[start + 1:n], n + 1
        n += 1
    return text[start + 1:], len(text)


def _convert(tex: str) -> str:
    """TeX math -> plain Unicode text, as close to the rendered formula as a line of text gets."""
    out: list[str] = []
    n = 0
    while n < len(tex):
        ch = tex[n]
        if ch == "\\":
            m = re.match(r"\\([A-Za-z]+|.)", tex[n:])
            name = m.group(1) if m else ""
            n += m.end() if m else 1
            if name in ("frac", "tfrac", "dfrac"):
                num, n = _group(tex, n)
                den, n = _group(tex, n)
                out.append(f"{_wrap(_convert(num))}/{_wrap(_convert(den))}")
            elif name == "sqrt":
                arg, n = _group(tex, n)
                out.append(f"√{_wrap(_convert(arg))}")
            elif name == "mathbb":
                arg, n = _group(tex, n)
                out.append("".join(BLACKBOARD.get(c, c) for c in arg))
            elif name in ACCENTS:
                arg, n = _group(tex, n)
                inner = _convert(arg)
                out.append(inner + ACCENTS[name] if len(inner) == 1 else inner)
            elif name in STRIP:
                arg, n = _group(tex, n)
                out.append(_convert(arg) + (_operator_space(tex, n) if name == "operatorname" else ""))
            elif name in SYMBOLS:
                out.append(SYMBOLS[name])
            elif name in FUNCTIONS:
                out.append(name + _operator_space(tex, n))
            else:
                out.append(name)
        elif ch in "^_":
            arg, n = _group(tex, n + 1)
            inner = _convert(arg)
            if ch == "^" and inner in ("*", "∗", "⋆"):
                out.append("*")
            elif ch == "^" and inner in ("ᵀ", "′", "♯"):
                out.append(inner)
            else:
                out.append(ch + _wrap(inner))
        elif ch in "{}":
            n += 1
        elif ch == "~":
            out.append(" ")
            n += 1
        elif ch in " \t\n":   # spaces in TeX math are insignificant; relations get theirs below
            n += 1
        else:
            out.append(ch)
            n += 1
    text = "".join(out)
    text = re.sub(r"\s*([=<>≤≥≠≈∈∉⊆⊂→⇒⇔↦∼≡])\s*", r" \1 ", text)   # relations spaced, as MathJax spaces them
    text = re.sub(r",(?=\S)", ", ", text)
    return re.sub(r"[ \t]{2,}", " ", text)


def _operator_space(tex: str, n: int) -> str:
    """The space after an operator name (log, col, …) when a letter or a command follows it."""
    rest = tex[n:].lstrip()
    return " " if rest[:1].isalnum() or rest[:1] == "\\" else ""


def _wrap(text: str) -> str:
    """Parenthesize a sub/superscript or fraction part longer than one symbol."""
    text = text.strip()
    return text if len(text) <= 1 or re.fullmatch(r"\w+|\(.*\)", text) else f"({text})"


def tex_to_text(text: str) -> str:
    """Every ``\\(…\\)`` and ``\\[…\\]`` formula of ``text`` as plain Unicode text; the rest unchanged."""
    return MATH.sub(lambda m: _convert(m.group(1) if m.group(1) is not None else m.group(2)).strip(), text)


def _plain_toc(items) -> None:
    for item in items:
        if "\\(" in item.title or "\\[" in item.title:
            item.title = tex_to_text(item.title)
        _plain_toc(item.children)


def on_page_content(html, page, config, files, **kwargs):
    """A heading with math (``Length extension: $T_L^\\sigma$``) has its table-of-contents entry as text: the
    sidebar is outside MathJax's reach, so it would show raw TeX."""
    _plain_toc(page.toc.items)
    return html


def on_config(config, **kwargs):
    """Our own file:// worker shim instead of the offline plugin's remote polyfill."""
    polyfills = [p for p in config.extra.get("polyfills", []) if "://" not in str(p)]
    config.extra["polyfills"] = [*polyfills, SHIM]
    return config


@event_priority(-50)   # after the search plugin wrote the index (0), before the offline plugin inlines it (-100)
def on_post_build(config, **kwargs) -> None:
    path = Path(config["site_dir"]) / "search" / "search_index.json"
    if not path.is_file():
        raise PluginError(f"search_offline: the search plugin wrote no index at {path}")
    index = json.loads(path.read_text(encoding="utf-8"))
    changed = 0
    for doc in index.get("docs", []):
        for key in ("title", "text"):
            value = doc.get(key)
            if isinstance(value, str) and ("\\(" in value or "\\[" in value):
                doc[key] = tex_to_text(value)
                changed += 1
    path.write_text(json.dumps(index, ensure_ascii=False, separators=(",", ":")), encoding="utf-8")
    log.info("search index: math as text in %d of %d entries", changed, len(index.get("docs", [])))
