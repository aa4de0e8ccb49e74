"""Subcommands of ``posreal``; each module exposes ``add_parser(subparsers)``."""
