"""Standard output and error that fail in one known way (used by :mod:`posreal.cli`).

* A closed pipe on stdout (``posreal verify X | head -c 5``): output stops quietly, the command
  keeps running to its verdict, and the exit code is still the verdict's.
* Any other write error on stdout (``> /dev/full``) or a closed stdout (``>&-``) raises
  :class:`OutputFailed` at the first write; the CLI prints one line and exits 1.
* stderr is best effort: a failing stderr never changes the exit code.

After a failure the stream's file descriptor is pointed at ``/dev/null``, so the interpreter's
final flush cannot fail again (which would print "Exception ignored" and exit 120).
"""

from __future__ import annotations

import errno
import io
import os
import sys
from typing import Any, TextIO


class OutputFailed(Exception):
    """Standard output cannot be written (no space, closed, bad descriptor)."""


def _silence(fd: int) -> None:
    try:
        null = os.open(os.devnull, os.O_WRONLY)
        os.dup2(null, fd)
        os.close(null)
    except OSError:
        pass


class GuardedStream(io.TextIOBase):
    """A text stream around ``target`` that turns write errors into one known outcome."""

    def __init__(self, target: TextIO | None, fd: int, strict: bool):
        self.target = target
        self.fd = fd
        self.strict = strict          # stdout: a non-pipe error raises OutputFailed; stderr: ignored
        self.broken = False           # the reader closed the pipe: discard the rest
        self.failure: str | None = None

    def _fail(self, err: BaseException | None) -> None:
        if isinstance(err, BrokenPipeError) or getattr(err, "errno", None) == errno.EPIPE:
            self.broken = True
        elif self.strict and self.failure is None:
            self.failure = "standard output is closed" if err is None else (
                f"cannot write to standard output: {getattr(err, 'strerror', None) or err}")
        self.target = None
        _silence(self.fd)
        if self.strict and self.failure is not None:
            raise OutputFailed(self.failure)

    def write(self, text: str) -> int:
        if self.target is None:
            if self.strict and not self.broken:
                self._fail(None)
            return len(text)
        try:
            self.target.write(text)
        except (OSError, ValueError) as err:
            self._fail(err)
        return len(text)

    def flush(self) -> None:
        if self.target is None:
            return
        try:
            self.target.flush()
        except (OSError, ValueError) as err:
            self._fail(err)

    def isatty(self) -> bool:
        try:
            return self.target is not None and self.target.isatty()
        except (OSError, ValueError):
            return False

    def fileno(self) -> int:
        return self.fd

    @property
    def encoding(self) -> Any:  # type: ignore[override]
        return getattr(self.target, "encoding", "utf-8")

    def writable(self) -> bool:
        return True


def guard() -> tuple[GuardedStream, GuardedStream]:
    """Replace sys.stdout/sys.stderr with guarded streams (idempotent); a closed descriptor 1 or 2
    is first pointed at /dev/null, so that files opened later never take its number."""
    streams = []
    for name, fd, strict in (("stdout", 1, True), ("stderr", 2, False)):
        current = getattr(sys, name)
        if isinstance(current, GuardedStream):
            streams.append(current)
            continue
        try:
            os.fstat(fd)
            target = current
        except OSError:
            _silence(fd)
            target = None
        stream = GuardedStream(target, fd, strict)
        setattr(sys, name, stream)
        streams.append(stream)
    return streams[0], streams[1]


def say(line: str) -> None:
    """One line on stderr, best effort (never raises)."""
    try:
        sys.stderr.write(line.rstrip("\n") + "\n")
        sys.stderr.flush()
    except (OSError, ValueError, OutputFailed):
        pass
