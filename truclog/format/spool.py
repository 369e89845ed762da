"""Standard input copied, as it is read, to an unnamed temporary file.

Standard input cannot be read again, but the hands of a long game are read again
from its log each time they are read (see :class:`~truclog.validate.games.HandsOnFile`).
A reading of standard input that keeps games' hands goes through an :class:`InputCopy`:
the bytes read are written on to a temporary file (unlinked at once, so gone with the
process), from which a long game's lines are read again, each reading with a position
of its own. The file lives as long as a reading or a game refers to it; it takes on
disk what the input was, and nothing in memory.
"""

from __future__ import annotations

import io
import os
import tempfile
import weakref
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any


class InputCopy:
    """The bytes read from a stream so far, copied to an unnamed temporary file."""

    def __init__(self, stream: io.BufferedIOBase) -> None:
        self.stream = stream
        self.file = tempfile.TemporaryFile()  # noqa: SIM115 - closed with the spool
        self.size = 0
        """The bytes copied so far."""
        weakref.finalize(self, self.file.close)

    def reader(self) -> io.BufferedReader:
        """The bytes copied, read from their start (as copied by then)."""
        return io.BufferedReader(_Copied(self))

    def copy(self, data: bytes | memoryview) -> None:
        """Write bytes just read at the end of the copy."""
        view = memoryview(data)
        while view:
            written = os.pwrite(self.file.fileno(), view, self.size)
            self.size += written
            view = view[written:]


class _Tee(io.RawIOBase):
    """The stream of an :class:`InputCopy`, each block read copied to it."""

    def __init__(self, spool: InputCopy) -> None:
        self.spool = spool

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int:
        view = memoryview(buffer)
        size = self.spool.stream.readinto(view)
        if size:
            self.spool.copy(view[:size])
        return size or 0

    def tell(self) -> int:
        return self.spool.size


class _Copied(io.RawIOBase):
    """What an :class:`InputCopy` copied, read from its start at a position of its own."""

    def __init__(self, spool: InputCopy) -> None:
        self.spool, self.at = spool, 0

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int:
        size = min(len(buffer), self.spool.size - self.at)
        if size <= 0:
            return 0
        data = os.pread(self.spool.file.fileno(), size, self.at)
        buffer[: len(data)] = data
        self.at += len(data)
        return len(data)


_LAST: weakref.ref[InputCopy] | None = None
"""The spool of the reading of standard input in progress begun last, if any."""


@contextmanager
def spooling(stream: io.BufferedIOBase) -> Iterator[io.BufferedReader]:
    """``stream`` read through a new :class:`InputCopy`, which :func:`reading_spool` gives
    while the reading lasts."""
    global _LAST
    spool = InputCopy(stream)
    _LAST = weakref.ref(spool)
    try:
        yield io.BufferedReader(_Tee(spool))
    finally:
        if _LAST is not None and _LAST() is spool:
            _LAST = None


def reading_spool() -> InputCopy | None:
    """The spool of the reading of standard input in progress (begun last), if any."""
    return None if _LAST is None else _LAST()
