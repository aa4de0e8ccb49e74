"""``posreal``: the console script.  The only module that may import every package.

Each subcommand lives in ``posreal/commands/<name>.py`` and exposes ``add_parser(subparsers)``,
which registers its options and sets ``run(args) -> int``.  Exit codes: 0 ok, 1 a claim failed
or a counterexample was found, 2 usage error (one line on stderr, never a traceback).
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys

from posreal.theory.errors import PosrealError

COMMANDS = ("alpha", "table", "experiment", "ceiling", "search", "verify", "check")


class OneLineParser(argparse.ArgumentParser):
    """argparse that reports usage errors as one line and exit code 2."""

    def error(self, message: str):
        self.exit(2, f"{self.prog}: error: {message} (see '{self.prog} --help')\n")


def build_parser() -> argparse.ArgumentParser:
    parser = OneLineParser(prog="posreal", description=(
        "posreal — proof companion for positional realizability: compute α_L before training, check the "
        "claims, search counterexamples, run the trained-head experiment."),
        epilog="Exit codes: 0 ok, 1 a claim failed or a counterexample was found, 2 usage error.")
    sub = parser.add_subparsers(dest="command", required=True, parser_class=OneLineParser,
                                metavar="{" + ",".join(COMMANDS) + "}")
    for name in COMMANDS:
        importlib.import_module(f"posreal.commands.{name}").add_parser(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as stop:
        return int(stop.code or 0)
    try:
        return int(args.run(args))
    except PosrealError as err:
        print(f"posreal {args.command}: error: {err}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print(f"posreal {args.command}: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        # the reader closed the pipe (e.g. `posreal table | head`): stop quietly, as Unix tools do
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0


if __name__ == "__main__":
    sys.exit(main())
