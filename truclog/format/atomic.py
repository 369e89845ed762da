"""Outputs written whole or not at all: a temporary file beside the target, renamed over it.

A command that writes a file (``stats -o``, ``export``, ``schema -o``, ``share``) writes
it under a temporary name in the same folder, syncs it to disk and renames it to its
name only once it is whole. A new file gets the permissions the user's umask gives
(as ``open`` would); a file written over keeps its own. A full disk, a read-only folder or a crash part-way leaves
the old file as it was (or no file) and no temporary file behind; the failure is a
:class:`~truclog.errors.PathError` that says where and why in one line. The file gets
the mode any new file gets (0644 under the usual umask 022), or keeps the mode of the
file it replaces: never the private 0600 of a temporary file.

>>> import tempfile, pathlib
>>> folder = pathlib.Path(tempfile.mkdtemp())
>>> write_atomically(folder / "out.json", b"{}")
>>> sorted(p.name for p in folder.iterdir())
['out.json']
"""

from __future__ import annotations

import errno
import io
import os
import stat
import tempfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import BinaryIO

from truclog.errors import PathError, reason


def write_atomically(path: str | Path, data: bytes) -> None:
    """Write ``data`` to ``path`` whole, or not at all: under a temporary name beside
    it, synced to disk, then renamed to ``path``. Errors of the disk become a
    :class:`~truclog.errors.PathError` naming ``path``."""
    with open_atomically(path) as out:
        out.write(data)


@contextmanager
def open_atomically(path: str | Path) -> Iterator[BinaryIO]:
    """A file to write ``path`` through, a part at a time: what is written reaches
    ``path`` whole when the block ends, or not at all if it raises. The file keeps
    the mode of the one it replaces (a new one: the user's umask). Errors of the
    disk become a :class:`~truclog.errors.PathError` naming ``path``."""
    target = Path(path)
    mode = _mode_for(target)
    try:
        fd, name = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".part", dir=target.parent)
    except OSError as exc:
        raise PathError(str(target), f"cannot write: {_why(exc)}") from None
    try:
        with os.fdopen(fd, "wb") as out:
            yield out
            out.flush()
            os.fchmod(out.fileno(), mode)
            os.fsync(out.fileno())
        os.replace(name, target)
    except OSError as exc:
        raise PathError(str(target), f"cannot write: {_why(exc)}") from None
    finally:
        with suppress(OSError):
            os.unlink(name)
    fsync_dir(target.parent)


def _mode_for(target: Path) -> int:
    """The mode of the file ``target`` replaces, else what the user's umask gives a new one."""
    try:
        return stat.S_IMODE(target.stat().st_mode)
    except OSError:
        return 0o666 & ~_umask()


def _umask() -> int:
    """The process's umask, read without changing it where the system tells it:
    ``os.umask`` changes it, for a moment, for every thread (a recorder's or a
    browser's worker writing at the same time)."""
    try:
        with open("/proc/self/status", encoding="ascii") as status:
            for line in status:
                if line.startswith("Umask:"):
                    return int(line.split()[1], 8)
    except (OSError, ValueError):
        pass
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def write_through(path: str | Path, write: Callable[[io.BytesIO], object]) -> None:
    """Write ``path`` whole with a library's writer that takes a file (``write``, such
    as ``DataFrame.write_parquet``): made in memory, then written as
    :func:`write_atomically` does, so that its own errors of the disk cannot slip by."""
    buffer = io.BytesIO()
    write(buffer)
    write_atomically(path, buffer.getvalue())


def _why(exc: OSError) -> str:
    return reason(exc).lower()


def fsync_dir(directory: Path) -> None:
    """Make the names in ``directory`` durable: a file created or renamed there survives a
    crash (a no-op where directories cannot be synced)."""
    try:
        fd = os.open(directory, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


_AT_FDCWD = -100
_RENAME_EXCHANGE = 2


def exchange(first: Path, second: Path) -> bool:
    """Swap two folders (or files) of one file system in one step: a crash leaves each
    name on the one or on the other, never neither (Linux's ``renameat2`` with
    ``RENAME_EXCHANGE``). False, nothing done, where the system or the file system
    cannot; another failure raises :class:`OSError`."""
    import ctypes

    try:
        libc = ctypes.CDLL(None, use_errno=True)
        renameat2 = libc.renameat2
    except (OSError, AttributeError):
        return False
    names = (os.fsencode(first), os.fsencode(second))
    if renameat2(_AT_FDCWD, names[0], _AT_FDCWD, names[1], _RENAME_EXCHANGE) == 0:
        return True
    error = ctypes.get_errno()
    if error in (errno.EINVAL, errno.ENOSYS, errno.ENOTSUP, errno.EOPNOTSUPP):
        return False
    raise OSError(error, os.strerror(error), str(first), None, str(second))


def sync_tree(folder: Path) -> None:
    """Make every file and folder written under ``folder`` durable at once, before
    they are moved into place: one ``syncfs`` of its file system (Linux), else an
    ``fsync`` of each. Errors of the disk become a :class:`~truclog.errors.PathError`."""
    paths = sorted(folder.rglob("*"), reverse=True)  # files before their folders
    files = [path for path in paths if not path.is_dir()]
    if files and _syncfs(files[0]):
        return
    for path in paths:
        if path.is_dir():
            fsync_dir(path)
            continue
        try:
            with open(path, "rb") as written:
                os.fsync(written.fileno())
        except OSError as exc:
            raise PathError(str(path), f"cannot write: {_why(exc)}") from None
    fsync_dir(folder)


def _syncfs(path: Path) -> bool:
    """Sync the whole file system that ``path`` is on (Linux's ``syncfs``); False where
    the system cannot, or it fails (then each file is synced)."""
    import ctypes

    syncfs = getattr(ctypes.CDLL(None, use_errno=True), "syncfs", None)
    if syncfs is None:
        return False
    try:
        with open(path, "rb") as on_it:
            return bool(syncfs(on_it.fileno()) == 0)
    except OSError:
        return False
