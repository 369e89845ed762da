"""Outputs written whole or not at all: a temporary file beside the target, renamed over it.

A command that writes a file (``stats -o``, ``export``, ``schema -o``) writes it under
a temporary name in the same folder, syncs it to disk and renames it to its name
only once it is whole. A full disk, a read-only folder or a crash part-way leaves
the old file as it was (or no file) and no temporary file behind; the failure is a
:class:`~truclog.errors.PathError` that says where and why in one line.

>>> import tempfile, pathlib
>>> folder = pathlib.Path(tempfile.mkdtemp())
>>> write_atomically(folder / "out.json", b"{}")
>>> sorted(p.name for p in folder.iterdir())
['out.json']
"""

from __future__ import annotations

import io
import os
import tempfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from pathlib import Path

from truclog.errors import PathError
from truclog.writer import _fsync_dir


@contextmanager
def replacing(path: str | Path) -> Iterator[Path]:
    """A temporary path beside ``path`` to write the new file to: renamed to ``path``
    when the block ends, removed if it raises. Errors of the disk become a
    :class:`~truclog.errors.PathError` naming ``path``."""
    target = Path(path)
    try:
        fd, name = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".part", dir=target.parent)
    except OSError as exc:
        raise PathError(str(target), f"cannot write: {_why(exc)}") from None
    os.close(fd)
    temporary = Path(name)
    try:
        yield temporary
        _sync(temporary)
        os.replace(temporary, target)
    except OSError as exc:
        raise PathError(str(target), f"cannot write: {_why(exc)}") from None
    finally:
        with suppress(OSError):
            temporary.unlink()
    _fsync_dir(target)


def write_atomically(path: str | Path, data: bytes) -> None:
    """Write ``data`` to ``path`` whole, or not at all (see :func:`replacing`)."""
    with replacing(path) as temporary:
        temporary.write_bytes(data)


def write_through(path: str | Path, write: Callable[[io.BytesIO], object]) -> None:
    """Write ``path`` whole with a library's writer that takes a file (``write``, such
    as ``DataFrame.write_parquet``): made in memory, then written as
    :func:`write_atomically` does, so that its own errors of the disk cannot slip by."""
    buffer = io.BytesIO()
    write(buffer)
    write_atomically(path, buffer.getvalue())


def _sync(path: Path) -> None:
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def _why(exc: OSError) -> str:
    return (exc.strerror or str(exc)).lower()
