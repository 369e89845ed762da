"""One writer per log: an exclusive lock held for as long as a recorder has the log open.

The lock is an ``fcntl.flock`` on ``<log>.lock``, a small file beside the log (the
file a symbolic link leads to: every name of a log takes the same lock) that holds
the process id of the recorder holding it. It is a file of its own because undo and
edits replace the log by renaming a new file over it, and a lock on the old file
would be lost with it. The log's own file is locked too, when it exists: another
name of it (a hard link, whose ``.lock`` is another file) then finds it taken. The
kernel drops the locks when their holder dies, even by SIGKILL, so a crash never
leaves a log locked.

>>> import tempfile, pathlib
>>> log = pathlib.Path(tempfile.mkdtemp()) / "cafe.truclog.jsonl"
>>> first = LogLock.acquire(log)
>>> try:
...     LogLock.acquire(log)
... except LogLockedError as exc:
...     print(exc.message.replace(str(log), "LOG").replace(str(os.getpid()), "PID"))
LOG is already being recorded by another recorder (process PID): one log has one recorder at a time
>>> first.release()
>>> LogLock.acquire(log).release()
"""

from __future__ import annotations

import fcntl
import os
import time
from contextlib import suppress
from pathlib import Path

from truclog.codes import Tool
from truclog.errors import TruclogError


class LogLockedError(TruclogError):
    """Another recorder holds the log."""

    code = Tool.RECORDER


class LogLock:
    """The held lock of one log; :meth:`release` gives it up (and removes the lock file)."""

    def __init__(self, path: Path, fd: int, log_fd: int | None = None) -> None:
        self.path = path
        self._fd: int | None = fd
        self._log_fd = log_fd

    @classmethod
    def acquire(cls, log: str | Path, wait: float = 0.0) -> LogLock:
        """Take the log's lock, or raise :class:`LogLockedError` naming who holds it;
        ``wait``: seconds to wait for a holder to let it go first (a short edit).

        An ``OSError`` (a read-only folder, a full disk) is left to the caller.
        """
        path = Path(f"{os.path.realpath(log)}.lock")
        deadline = time.monotonic() + wait
        while True:
            fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                holder = _holder(fd)
                os.close(fd)
                if time.monotonic() < deadline:
                    time.sleep(0.01)
                    continue
                raise LogLockedError(
                    f"{log} is already being recorded by another recorder (process {holder}): "
                    "one log has one recorder at a time"
                ) from None
            except BaseException:
                os.close(fd)
                raise
            if _same_file(fd, path):
                break
            os.close(fd)  # the holder before us removed this lock file: take the new one
        held = cls(path, fd)
        try:
            held._log_fd = _lock_log(log)
        except BaseException:
            held.release()
            raise
        with suppress(OSError):  # a full disk: the lock holds, only the process id is not noted
            os.ftruncate(fd, 0)
            os.write(fd, f"{os.getpid()}\n".encode())
        return held

    def take_log(self, log: str | Path) -> None:
        """Lock the log's own file too, once it exists (a new log: after its first write)."""
        if self._log_fd is None:
            self._log_fd = _lock_log(log)

    def release(self) -> None:
        """Give up the lock, so that another writer may open the log."""
        if self._log_fd is not None:
            os.close(self._log_fd)
            self._log_fd = None
        if self._fd is not None:
            with suppress(OSError):  # a folder made read-only: a stale lock file locks nothing
                self.path.unlink(missing_ok=True)
            os.close(self._fd)
            self._fd = None


def _lock_log(log: str | Path) -> int | None:
    """The log's own file locked (``None`` for a log not written yet), or
    :class:`LogLockedError` when another of its names holds it."""
    try:
        fd = os.open(log, os.O_RDWR)  # a log is opened to write: it can be written
    except FileNotFoundError:
        return None
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        os.close(fd)
        raise LogLockedError(
            f"{log} is already being recorded by another recorder under another name "
            "(a hard link to the same file): one log has one recorder at a time"
        ) from None
    except BaseException:
        os.close(fd)
        raise
    return fd


def _holder(fd: int) -> str:
    try:
        text = os.pread(fd, 32, 0).decode(errors="replace").strip()
    except OSError:
        text = ""
    return text or "unknown"


def _same_file(fd: int, path: Path) -> bool:
    try:
        mine, now = os.fstat(fd), os.stat(path)
    except FileNotFoundError:
        return False
    return (mine.st_dev, mine.st_ino) == (now.st_dev, now.st_ino)
