"""The command line's reference in Markdown, read from its argparse parsers (:func:`posreal.cli.build_parser`):
one section per command and nested subcommand, with its description, usage and a table of its options.  It is
the docs' CLI page.

Main result: :func:`cli_reference`.
"""

from __future__ import annotations

import argparse

from posreal.runtime.markdown import provenance, rst_to_md, table


def _option_rows(actions: list[argparse.Action]) -> list[list[str]]:
    rows = []
    for a in actions:
        flags = ", ".join(f"`{s}`" for s in a.option_strings) or f"`{a.dest}` (positional)"
        if a.choices:
            value = " \\| ".join(f"`{c}`" for c in a.choices)
        elif a.nargs == 0:
            value = "—"
        else:
            value = f"`{a.metavar or a.dest.upper()}`"
        default = a.default
        if default in (None, argparse.SUPPRESS, False) or a.nargs == 0:
            default_text = "required" if a.required else "—"
        elif isinstance(default, list):
            default_text = "`" + ",".join(map(str, default)) + "`"
        else:
            default_text = f"`{default}`"
        rows.append([flags, value, default_text, (a.help or "").replace("%(default)s", str(default))])
    return rows


def _command_section(command: str, parser: argparse.ArgumentParser, level: int) -> list[str]:
    """One command: description, usage, options; nested subcommands (``posreal search colspan``) below it."""
    out = [f"\n{'#' * level} `{command}` {{#{command.replace(' ', '-')}}}\n"]
    if parser.description:
        out.append(rst_to_md(parser.description) + "\n")
    out.append(f"```text\n{parser.format_usage().strip()}\n```\n")
    nested = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
    options = [a for a in parser._actions if not isinstance(a, (argparse._HelpAction, argparse._SubParsersAction))]
    if options:
        out.append(table(["option", "value", "default", "meaning"], _option_rows(options)))
    for sub in nested:
        for name, child in sub.choices.items():
            out += _command_section(f"{command} {name}", child, min(level + 1, 6))
    return out


def cli_reference() -> str:
    """Every command of ``posreal``: a table of them, then one section each."""
    from posreal.cli import build_parser
    parser = build_parser()
    subs = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    helps = {c.dest: c.help for c in subs._choices_actions}
    out = [f"```text\n{parser.format_usage().strip()}\n```\n", rst_to_md(parser.description or "") + "\n",
           table(["command", "what it does"], [[f"[`posreal {n}`](#posreal-{n})", helps.get(n, "")]
                                               for n in subs.choices], "posreal.cli.build_parser()")]
    for name, sp in subs.choices.items():
        out += _command_section(f"posreal {name}", sp, 2)
    out.append("\n" + provenance("posreal.cli.build_parser() (argparse)"))
    return "\n".join(out)
