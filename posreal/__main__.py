"""Entry point of ``python -m posreal`` and of the ``posreal`` console script.

The Ctrl-C handler is installed before anything else is imported and stays for the whole run: at
any moment (during the imports of numpy, scipy and z3, in the work, in the last flush) an interrupt
prints one line and exits 130 at once, as a kill would; after the last flush it is ignored.  No
KeyboardInterrupt is raised, so no library can turn it into another error (numpy re-raises one
during its import as ImportError) and Python cannot end the process by SIGINT after the command
caught it.  Results written as they go are resumable after this exit, as after a kill (``search
conjecture --resume``, ``experiment --resume``).  A signal in the first milliseconds, while Python
itself starts and before posreal is loaded, is Python's.
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
    """The console script: ``posreal ...``.  Once the command has returned (after its last flush)
    there is nothing left to interrupt: SIGINT is blocked for the interpreter's shutdown, which
    restores SIGINT's default action and would otherwise let a late Ctrl-C end the process silently
    by the signal instead of with the command's exit code."""
    from posreal.cli import main
    code = main()
    signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    return code


if __name__ == "__main__":
    sys.exit(entry())
