"""Entry point of ``python -m posreal`` and of the ``posreal`` console script.

The Ctrl-C handler is installed before anything else is imported, so an interrupt during the
imports (numpy, scipy, z3 take about a second) prints one line and exits 130 like any other
interrupt; :func:`posreal.cli.main` then takes over with Python's own handler.
"""

import signal
import sys


def _interrupted(signum: int, frame: object) -> None:
    import os
    try:
        os.write(2, b"posreal: interrupted\n")
    except OSError:
        pass
    os._exit(130)


signal.signal(signal.SIGINT, _interrupted)


def entry() -> int:
    """The console script: ``posreal ...``."""
    from posreal.cli import main
    return main()


if __name__ == "__main__":
    sys.exit(entry())
