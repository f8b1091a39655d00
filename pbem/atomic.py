"""Files that survive a crash: atomic writes, size-limited reads, an exclusive lock.

``write_atomic`` writes a temporary file in the same directory, flushes and ``fsync``-s it,
renames it over its name (``os.replace``) and ``fsync``-s the directory, so a crash at any point
leaves the old file or the new one, never a part (``docs/pbem-protocol.md``, "The game store").
``FileLock`` is an advisory, re-entrant ``fcntl.flock`` (POSIX only).
"""

from __future__ import annotations

import contextlib
import os
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Final

from pbem.core.errors import PbemError

if sys.platform != "win32":
    import fcntl

TMP_SUFFIX: Final = ".tmp"


class TooBig(PbemError):
    """A file over its size limit."""


def read_limited(
    path: Path, limit: int, what: str, error: Callable[[str], Exception] = TooBig
) -> bytes:
    """The bytes of ``path``; ``error(message)`` (default :class:`TooBig`) when it is over
    ``limit``."""
    with path.open("rb") as fh:
        data = fh.read(limit + 1)
    if len(data) > limit:
        raise error(f"{what} is over {limit} bytes")
    return data


def fsync_dir(path: Path) -> None:
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def write_atomic(path: Path, data: bytes) -> None:
    """Write ``data`` to ``path``: a temporary file in the same directory, flushed and
    ``fsync``-ed, renamed with ``os.replace``, then the directory ``fsync``-ed. On any failure
    the temporary file is removed and ``path`` is as it was."""
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=TMP_SUFFIX)
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
    fsync_dir(path.parent)


def clean_temps(directory: Path, prefix: str = ".") -> None:
    """Remove the temporary files a crashed writer left in ``directory`` (call with the lock)."""
    with contextlib.suppress(FileNotFoundError):
        for entry in os.scandir(directory):
            if entry.name.startswith(prefix) and entry.name.endswith(TMP_SUFFIX):
                with contextlib.suppress(FileNotFoundError):
                    os.unlink(entry.path)


class FileLock:
    """An exclusive ``flock`` on one file, held by one :class:`Store`, re-entrant."""

    def __init__(self, path: Path, label: str, locked: Callable[[str], Exception]) -> None:
        self.path = path
        self.label = label
        self.locked = locked
        self.fd: int | None = None
        self.depth = 0

    def acquire(self, wait: float) -> bool:
        """Take the lock (waiting at most ``wait`` seconds); True on the first acquisition."""
        if self.depth:
            self.depth += 1
            return False
        if sys.platform == "win32":  # pragma: no cover
            raise PbemError("the game store needs POSIX file locks (fcntl.flock)")
        fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o600)
        deadline = time.monotonic() + wait
        while True:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except BlockingIOError:
                if time.monotonic() >= deadline:
                    os.close(fd)
                    raise self.locked(f"{self.label} is open in another process") from None
                time.sleep(0.02)
            except BaseException:
                os.close(fd)
                raise
        self.fd = fd
        self.depth = 1
        return True

    def release(self) -> None:
        self.depth -= 1
        if self.depth == 0 and self.fd is not None:
            os.close(self.fd)  # closing the descriptor releases the flock
            self.fd = None
