"""Output files: written whole or not at all, never over an existing file unless asked, never through a symlink.

Standard library only.  Every file a command writes (``--out``, ``--plot``, certificates, the
experiment's run files, exported SMT-LIB obligations) goes through this module.  Main definitions:

* :data:`EXIT_IO` (74, ``EX_IOERR`` of sysexits.h) and :class:`OutputIOError` — the disk refused a
  write (a full disk, a quota, an I/O error): one line naming the file, and nothing half-written
  is left (a new file's temporary is removed, an appended line is cut back off);
* :class:`OutputFileError` (a usage error, exit 2) — a symlink as an output path, an existing file
  without ``--force``, a results file locked by another run;
* :func:`check_target` — the rule, checked before any work: a symlink is never followed into a
  write, an existing file is replaced only with ``force``;
* :func:`write_atomic` / :func:`atomic_writer` — a temporary file in the same directory, written,
  fsynced and renamed over the target (``os.replace`` with ``force``; without it ``os.link``,
  which fails if a file appeared meanwhile); a file that already holds exactly these bytes is
  left as it is (rewriting it would change nothing);
* :class:`AppendLog` — a results file (JSON lines) opened for appending: never through a symlink,
  locked with ``flock`` (exclusive, non-blocking) so that a second run on the same file is
  refused in one line, and each line is written whole or cut back off.
"""

from __future__ import annotations

import contextlib
import errno
import fcntl
import os
import stat
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import IO

from posreal.theory.errors import PosrealError, SpecError, quote

EXIT_IO = 74   # EX_IOERR: an output file could not be written (the disk, not the arguments)
FORCE_HINT = "--force to replace it"


class OutputFileError(SpecError):
    """An output path that may not be written as asked (a usage error: exit 2)."""


class OutputIOError(PosrealError):
    """The operating system refused a write (ENOSPC, EDQUOT, EIO, ...): exit :data:`EXIT_IO`."""


_PATH_ERRNOS = (errno.ENOENT, errno.ENOTDIR, errno.EACCES, errno.EPERM, errno.EISDIR, errno.ENAMETOOLONG, errno.ELOOP,
                errno.EROFS)   # the path cannot be written at all: a usage error, not the disk failing


def io_error(path: str | Path, what: str, err: OSError) -> PosrealError:
    """The one-line error of an OSError while writing ``path``: :class:`OutputFileError` when the path
    cannot be written at all (a missing directory, no permission), :class:`OutputIOError` otherwise."""
    reason = err.strerror or errno.errorcode.get(err.errno or 0, "") or str(err)
    if err.errno in _PATH_ERRNOS:
        return OutputFileError(f"cannot write {what} {quote(str(path))}: {reason}; accepted: a writable file path "
                               "in an existing directory")
    return OutputIOError(f"cannot write {what} {quote(str(path))}: {reason}; nothing was left half-written")


def check_target(path: str | Path, what: str, force: bool = False,
                 accepted: str = f"a new file, or {FORCE_HINT}") -> Path:
    """``path`` if it may be written: not a symlink (never followed into a write), and not an existing
    file unless ``force``; else a one-line :class:`OutputFileError` (ending in ``accepted``)."""
    target = Path(path)
    if target.is_symlink():
        raise OutputFileError(f"invalid {what} {quote(str(path))}: it is a symbolic link (never followed into a "
                              "write); accepted: the path of a regular file")
    if target.exists() and not force:
        raise OutputFileError(f"invalid {what} {quote(str(path))}: it exists; accepted: {accepted}")
    return target


def _same_bytes(target: Path, data: bytes) -> bool:
    try:
        info = os.lstat(target)
        return stat.S_ISREG(info.st_mode) and info.st_size == len(data) and target.read_bytes() == data
    except OSError:
        return False


def _fsync_directory(directory: Path) -> None:
    try:
        fd = os.open(directory, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass   # not every file system syncs directories; the rename itself is already atomic
    finally:
        os.close(fd)


def _publish(tmp: str, target: Path, what: str, force: bool) -> None:
    """Rename the finished temporary ``tmp`` to ``target`` (replacing it only with ``force``)."""
    if force:
        os.replace(tmp, target)
        return
    try:
        os.link(tmp, target)          # fails if ``target`` appeared since the check: never replaced
    except FileExistsError:
        raise OutputFileError(f"invalid {what} {quote(str(target))}: it exists; accepted: a new file, or "
                              f"{FORCE_HINT}") from None
    except OSError as err:
        if err.errno not in (errno.EPERM, errno.EOPNOTSUPP, errno.EXDEV, errno.EMLINK):
            raise
        check_target(target, what, force)   # no hard links here: check again, then rename
        os.replace(tmp, target)
        return
    os.unlink(tmp)


@contextlib.contextmanager
def atomic_writer(path: str | Path, what: str, force: bool = False) -> Iterator[IO[bytes]]:
    """A binary file to write ``path``'s new content into; on a clean exit it is fsynced and renamed
    over ``path`` (see :func:`check_target`); on any error the temporary file is removed and ``path``
    is untouched.  An OSError while writing is an :class:`OutputIOError` naming ``path``."""
    target = check_target(path, what, force)
    directory = target.parent if str(target.parent) else Path(".")
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{target.name[:200]}.", suffix=".tmp", dir=directory)
    except OSError as err:
        raise io_error(path, what, err) from None
    try:
        with os.fdopen(fd, "wb") as fh:
            yield fh
            fh.flush()
            os.fsync(fh.fileno())
        os.chmod(tmp, 0o666 & ~_umask())
        _publish(tmp, target, what, force)
    except OSError as err:
        _remove(tmp)
        raise io_error(path, what, err) from None
    except BaseException:
        _remove(tmp)
        raise
    _fsync_directory(directory)


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def _remove(tmp: str) -> None:
    with contextlib.suppress(OSError):
        os.unlink(tmp)


def write_atomic(path: str | Path, data: bytes | str, what: str, force: bool = False) -> bool:
    """Write ``data`` (text is UTF-8) to ``path`` atomically; False if ``path`` already held exactly
    these bytes (nothing written), True otherwise."""
    raw = data.encode("utf-8") if isinstance(data, str) else data
    target = Path(path)
    if not force and not target.is_symlink() and _same_bytes(target, raw):
        return False
    with atomic_writer(target, what, force) as fh:
        fh.write(raw)
    return True


class AppendLog:
    """A results file opened for appending lines, locked against a second run (see the module docstring)."""

    def __init__(self, path: str | Path, what: str = "result file") -> None:
        self.path, self.what = Path(path), what
        flags = os.O_WRONLY | os.O_APPEND | os.O_CREAT | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0)
        if self.path.is_symlink():
            check_target(self.path, what, force=True)   # the symlink refusal
        try:
            self.fd = os.open(self.path, flags, 0o666)
        except OSError as err:
            if err.errno == errno.ELOOP:
                check_target(self.path, what, force=True)
            raise io_error(self.path, what, err) from None
        try:
            if not stat.S_ISREG(os.fstat(self.fd).st_mode):
                raise OutputFileError(f"invalid {what} {quote(str(path))}: not a regular file; accepted: a "
                                      "regular file")
            fcntl.flock(self.fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            os.close(self.fd)
            raise OutputFileError(f"invalid {what} {quote(str(path))}: another run is writing it (it is locked); "
                                  "accepted: wait for that run to finish, or another --out file") from None
        except BaseException:
            os.close(self.fd)
            raise

    def size(self) -> int:
        return os.fstat(self.fd).st_size

    def truncate(self, size: int) -> None:
        """Cut the file back to ``size`` bytes (an interrupted last line)."""
        try:
            os.ftruncate(self.fd, size)
        except OSError as err:
            raise io_error(self.path, self.what, err) from None

    def write(self, text: str) -> None:
        """Append ``text`` whole: on an OSError the file is cut back to its previous size."""
        data = memoryview(text.encode("utf-8"))
        before = self.size()
        try:
            while data:
                data = data[os.write(self.fd, data):]
        except OSError as err:
            with contextlib.suppress(OSError):
                os.ftruncate(self.fd, before)
            raise io_error(self.path, self.what, err) from None

    def flush(self) -> None:
        """Lines are written with os.write, unbuffered: nothing to flush (file-object compatibility)."""

    def close(self) -> None:
        if self.fd < 0:
            return
        fd, self.fd = self.fd, -1
        try:
            os.fsync(fd)
        except OSError as err:
            raise io_error(self.path, self.what, err) from None
        finally:
            os.close(fd)   # closing releases the lock

    def __enter__(self) -> AppendLog:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
