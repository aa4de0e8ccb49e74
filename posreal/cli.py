"""``posreal``: the console script.  The only module that may import every package.

Each subcommand lives in ``posreal/commands/<name>.py`` and exposes ``add_parser(subparsers)``,
which adds its options and sets ``run(args) -> int``.

Exit codes: 0 ok, 1 a claim failed or a counterexample was found (or standard output could not
be written), 2 usage error (one line on stderr, never a traceback; also when stderr itself
fails), 3 a certificate is not checkable, 74 an output file could not be written (a full disk: the
file is named and nothing half-written is left), 130 interrupted (Ctrl-C, at any moment); 70 is an
internal error (a bug, reported in one line; ``POSREAL_DEBUG=1`` shows the traceback).  A closed
pipe on stdout stops the output quietly and keeps the verdict's exit code
(:mod:`posreal.streams`); the console script and ``python -m posreal`` enter through
:mod:`posreal.__main__`, which installs the Ctrl-C handler before anything else is imported.
Resource budgets: ``posreal --max-memory SIZE`` (before or after the subcommand) or the environment
variables ``POSREAL_MAX_MEMORY`` and ``POSREAL_MAX_WORK`` (:mod:`posreal.runtime.resources`).
"""

from __future__ import annotations

import argparse
import errno
import importlib
import os
import sys

from posreal import streams
from posreal.theory.errors import PosrealError, quote
from posreal.runtime.output_files import EXIT_IO, OutputIOError

COMMANDS = ("alpha", "table", "pes", "extensions", "experiment", "ceiling", "search", "verify", "check")
EXIT_OK, EXIT_FAILED, EXIT_USAGE, EXIT_INTERRUPTED, EXIT_INTERNAL = 0, 1, 2, 130, 70


class OneLineParser(argparse.ArgumentParser):
    """argparse that reports usage errors as one line and exit code 2."""

    def error(self, message: str):
        streams.say(f"{self.prog}: error: {message} (see '{self.prog} --help')")
        raise SystemExit(EXIT_USAGE)


def build_parser() -> argparse.ArgumentParser:
    parser = OneLineParser(prog="posreal", description=(
        "posreal — proof companion for positional realizability: compute α_L before training, check the "
        "claims, search counterexamples, run the trained-head experiment."),
        epilog="Exit codes: 0 ok, 1 a claim failed or a counterexample to a claim was found (each search "
               "command's --help says what it counts), 2 usage error, "
               "3 not checkable, 74 an output file could not be written (e.g. a full disk), 130 interrupted, "
               "70 an internal error (a bug; POSREAL_DEBUG=1 shows its "
               "traceback). Global options may also follow the subcommand.")
    parser.add_argument("--version", action=_VersionAction, help="print the installed version and exit")
    _global_options(parser, default=None)
    sub = parser.add_subparsers(dest="command", required=True, parser_class=OneLineParser,
                                metavar="{" + ",".join(COMMANDS) + "}")
    for name in COMMANDS:
        importlib.import_module(f"posreal.commands.{name}").add_parser(sub)
    for command in _subcommands(parser):   # `posreal alpha --max-memory 8G ...` as well as before it
        _global_options(command, default=argparse.SUPPRESS)
    return parser


class _VersionAction(argparse.Action):
    """``posreal --version``: argparse's version action, with the version read only when asked for
    (reading package metadata would slow every other command's start-up)."""

    def __init__(self, option_strings, dest=argparse.SUPPRESS, default=argparse.SUPPRESS, help=None):
        super().__init__(option_strings=option_strings, dest=dest, default=default, nargs=0, help=help)

    def __call__(self, parser, namespace, values, option_string=None):
        import posreal
        parser._print_message(f"posreal {posreal.__version__}\n", sys.stdout)
        parser.exit()


def _global_options(parser: argparse.ArgumentParser, default: object) -> None:
    """The options every command accepts, before or after its name.  A subcommand's copy has no default
    (``argparse.SUPPRESS``), so it never overwrites a value given before the subcommand."""
    from posreal.commands._common import memory_size
    parser.add_argument("--max-memory", type=memory_size, default=default, metavar="SIZE",
                        help="memory budget of the planned work, e.g. 8G (default 4G, or POSREAL_MAX_MEMORY)")


def _subcommands(parser: argparse.ArgumentParser) -> list[argparse.ArgumentParser]:
    """Every parser below ``parser`` (``search colspan`` too), depth first."""
    out: list[argparse.ArgumentParser] = []
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for child in dict.fromkeys(action.choices.values()):   # aliases map to the same parser
                out += [child, *_subcommands(child)]
    return out


def _run(argv: list[str] | None, stdout: streams.GuardedStream) -> int:
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as stop:
        code = stop.code
        return code if isinstance(code, int) else (EXIT_OK if code is None else EXIT_USAGE)
    from posreal.runtime import resources
    resources.configure(args.max_memory)
    try:
        code = int(args.run(args))
        stdout.flush()
        return code
    except OutputIOError as err:   # the disk refused an output file (full, quota): not a usage error
        streams.say(f"posreal {args.command}: error: {err}")
        return EXIT_IO
    except PosrealError as err:
        streams.say(f"posreal {args.command}: error: {err}")
        return EXIT_USAGE
    except streams.OutputFailed as err:
        streams.say(f"posreal {args.command}: error: {err}")
        return EXIT_FAILED
    except MemoryError:
        streams.say(f"posreal {args.command}: error: out of memory although the plan fitted the budget; "
                    "lower the arguments or --max-memory")
        return EXIT_FAILED
    except OSError as err:   # a file that vanished or a disk that filled up while the command ran
        where = f" {quote(err.filename)}" if getattr(err, "filename", None) else ""
        streams.say(f"posreal {args.command}: error: cannot read or write{where}: {err.strerror or err}")
        return EXIT_IO if err.errno in (errno.ENOSPC, errno.EDQUOT, errno.EIO) else EXIT_FAILED
    except (KeyboardInterrupt, SystemExit):
        raise
    except Exception as err:   # a bug: one line (the traceback only on request), and a distinct exit code
        if os.environ.get("POSREAL_DEBUG"):
            raise
        streams.say(f"posreal {args.command}: internal error: {err.__class__.__name__}: {quote(str(err))} "
                    "(a bug; POSREAL_DEBUG=1 shows the traceback)")
        return EXIT_INTERNAL


def main(argv: list[str] | None = None) -> int:
    """Run one command; returns the exit code (see the module docstring).  Called in-process, a
    KeyboardInterrupt is caught (one line, 130); the ``posreal`` entry point never raises one."""
    stdout, _ = streams.guard()
    try:
        code = _run(argv, stdout)
    except KeyboardInterrupt:
        code = EXIT_INTERRUPTED
        streams.say("posreal: interrupted")
    except streams.OutputFailed as err:
        code = EXIT_FAILED
        streams.say(f"posreal: error: {err}")
    try:
        stdout.flush()
    except streams.OutputFailed as err:
        streams.say(f"posreal: error: {err}")
        code = EXIT_FAILED if code != EXIT_USAGE else code
    except KeyboardInterrupt:
        code = EXIT_INTERRUPTED
    return code


if __name__ == "__main__":
    sys.exit(main())
