"""griffe extension for the API pages (mkdocstrings-python reads the code with griffe; ``mkdocs.yml``).

The project's docstrings are written in reStructuredText habits (``:func:`name```, ````code````,
``Example::`` blocks) and in Unicode math (θ*, α_L, ‖θ‖).  mkdocstrings renders a docstring as
Markdown, where ``θ* … θ*`` would turn the text between two asterisks into italics and ``<normalized>``
would vanish as an HTML tag.  :class:`PosrealDocstrings` rewrites every docstring of the loaded
package once, before rendering:

* a role ``:func:`~posreal.theory.alpha.compute_alpha``` becomes the code span ```compute_alpha```
  (``~`` keeps the last component, as Sphinx does);
* an asterisk outside code is escaped (``θ*`` stays θ*), except a list bullet at the start of a line;
  ``[`` and ``<`` outside code are escaped, so ``R[i][j]`` is no link and ``<normalized>`` is shown;
* a paragraph ending in ``::`` is followed by its indented block as a fenced code block;
* a dataclass field or module constant without a docstring gets the comment on its line
  (``name: int   # what it is``) as its description, so field tables say what each field is.

Code spans (single or double backticks) and fenced blocks are left exactly as written, so math
written with ``$…$`` or inside code survives unchanged.
"""

from __future__ import annotations

import io
import re
import tokenize

import griffe

ROLE = re.compile(r":(?:py:)?(?:func|class|meth|mod|data|attr|exc|obj|const|type):`(~?)([^`]+)`")
CODE = re.compile(r"``.+?``|`[^`]+`", re.S)   # code spans (one may run across lines), kept as written


def _role(match: re.Match) -> str:
    tilde, target = match.group(1), match.group(2).strip()
    if "<" in target and target.endswith(">"):           # :func:`text <target>`
        target = target[:target.index("<")].strip()
    return f"`{target.rsplit('.', 1)[-1] if tilde else target}`"


def _escape_prose(text: str) -> str:
    """Escape Markdown's emphasis asterisks, link brackets (``R[i][j]`` is no reference link) and HTML openers
    in text that holds no code span."""
    return text.replace("*", r"\*").replace("[", r"\[").replace("<", "&lt;")


def _line(line: str) -> str:
    """One line of prose whose code spans are already placeholders: escape it, keeping a leading bullet."""
    bullet = re.match(r"^(\s*)\* ", line)
    head, rest = (line[:bullet.end()], line[bullet.end():]) if bullet else ("", line)
    return head + _escape_prose(rest)


def _prose(text: str) -> str:
    """Roles to code spans, then every code span (also one that runs across lines) kept as written while the
    prose around it is escaped line by line."""
    text = ROLE.sub(_role, text)
    spans: list[str] = []

    def keep(match: re.Match) -> str:
        spans.append(match.group(0))
        return f"\x00{len(spans) - 1}\x00"

    hidden = CODE.sub(keep, text)
    escaped = "\n".join(_line(line) for line in hidden.split("\n"))
    return re.sub("\x00(\\d+)\x00", lambda m: spans[int(m.group(1))], escaped)


def docstring_to_markdown(text: str) -> str:
    """One docstring, as Markdown that renders what the plain text says (see the module docstring)."""
    out: list[str] = []
    prose: list[str] = []

    def flush() -> None:
        if prose:
            out.append(_prose("\n".join(prose)))
            prose.clear()

    lines = text.splitlines()
    n = 0
    while n < len(lines):
        line = lines[n]
        if line.lstrip().startswith("```"):               # an existing fence: copy it through
            flush()
            out.append(line)
            n += 1
            while n < len(lines) and not lines[n].lstrip().startswith("```"):
                out.append(lines[n])
                n += 1
            if n < len(lines):
                out.append(lines[n])
            n += 1
            continue
        if line.rstrip().endswith("::"):
            stripped = line.rstrip()[:-2].rstrip()
            indent = len(line) - len(line.lstrip())
            block: list[str] = []
            m = n + 1
            while m < len(lines) and (not lines[m].strip() or len(lines[m]) - len(lines[m].lstrip()) > indent):
                block.append(lines[m])
                m += 1
            while block and not block[-1].strip():
                block.pop()
            while block and not block[0].strip():
                block.pop(0)
            if block:
                width = min(len(b) - len(b.lstrip()) for b in block if b.strip())
                if stripped:
                    prose.append(stripped + ":")
                flush()
                out += ["", " " * indent + "```text", *(" " * indent + b[width:] for b in block),
                        " " * indent + "```", ""]
                n = m
                continue
        prose.append(line)
        n += 1
    flush()
    return "\n".join(out)


def _line_comment(source_line: str) -> str:
    """The ``# comment`` ending a source line ("" if none), read with Python's tokenizer."""
    try:
        tokens = list(tokenize.generate_tokens(io.StringIO(source_line + "\n").readline))
    except (tokenize.TokenError, IndentationError, SyntaxError):
        return ""
    comments = [t.string for t in tokens if t.type == tokenize.COMMENT]
    text = comments[-1].lstrip("#").strip() if comments else ""
    return re.sub(r"^noqa\b.*", "", text).strip()


class PosrealDocstrings(griffe.Extension):
    """Rewrite the docstrings of the loaded package for Markdown, and describe fields by their comments."""

    def on_package(self, *, pkg: griffe.Module, **kwargs) -> None:
        seen: set[int] = set()
        self._visit(pkg, seen)

    def _visit(self, obj: griffe.Object, seen: set[int]) -> None:
        if id(obj) in seen:
            return
        seen.add(id(obj))
        if obj.is_attribute and obj.docstring is None and obj.lineno is not None:
            try:
                comment = _line_comment(obj.lines[0]) if obj.lines else ""
            except Exception:  # noqa: BLE001 — a source that cannot be read has no comment to show
                comment = ""
            if comment:
                obj.docstring = griffe.Docstring(comment, parent=obj)
        if obj.docstring is not None:
            obj.docstring.value = docstring_to_markdown(obj.docstring.value)
        for member in list(obj.members.values()):
            if not member.is_alias:
                self._visit(member, seen)
