"""A large log cut into parts at its game lines, for several processes to read at once.

Every game runs from its ``game`` line to the next one, so a log cut just before a
game line is cut between two games: each part reads as the whole log would there.
:func:`split_log` cuts a plain file into about ``count`` parts of equal size, each
(but the first) starting at the first game line at or after its byte offset, and
counts the lines before each part, so that every part names its lines as the whole
file does. Reading a log stops at a line holding a NUL byte (binary data, ``E009``):
no part starts after one. ``.gz`` files, standard input and URLs stay whole (they cannot be read
from the middle), and so does a file smaller than :data:`SMALLEST_PART` a part
(:data:`PART_SIZE` in the environment sets another size, for tests).

>>> part = Part("a.jsonl", 100, 250, 7, False)
>>> name_of(part), name_of("b.jsonl"), part.size
('a.jsonl', 'b.jsonl', 150)
"""

from __future__ import annotations

import io
import os
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import orjson

from truclog.format import remote
from truclog.format.reader import (
    LONGEST_LINE,
    STDIN,
    STDIN_NAME,
    LogLine,
    line_body,
    open_log,
    read_stream,
)

SMALLEST_PART = 8 << 20
"""Bytes under which a part is not worth a process of its own."""

PART_SIZE = "TRUCLOG_PART_SIZE"
"""The environment variable that sets the size of the parts, in bytes (tests cut small
logs into many parts with it)."""

_BLOCK = 1 << 20


class Part:
    """The bytes ``start`` to ``stop`` of the log ``path``, after ``line`` lines of it;
    ``last``: the part that ends the log. A plain class (sent to worker processes)."""

    __slots__ = ("last", "line", "path", "start", "stop")

    def __init__(self, path: str, start: int, stop: int, line: int, last: bool) -> None:
        self.path = path
        self.start = start
        self.stop = stop
        self.line = line
        self.last = last

    @property
    def size(self) -> int:
        """How many bytes the part holds."""
        return self.stop - self.start

    def __reduce__(self) -> tuple[Any, ...]:
        return Part, (self.path, self.start, self.stop, self.line, self.last)


Source = str | Part
"""A whole log (its path, or ``-``), or a part of one."""


def name_of(source: Source) -> str:
    """The path of the log a source is (part of)."""
    return source.path if isinstance(source, Part) else source


def part_size(size: int, count: int) -> int:
    """The size of the parts of a log of ``size`` bytes cut into ``count``: at least
    :data:`SMALLEST_PART`, or what :data:`PART_SIZE` says."""
    given = os.environ.get(PART_SIZE, "")
    if given.isdigit() and int(given) > 0:
        return int(given)
    return max(SMALLEST_PART, -(-size // max(count, 1)))


def sources(paths: list[str], count: int) -> list[Source]:
    """``paths`` in order, each large plain file cut into about ``count`` parts."""
    found: list[Source] = []
    for path in paths:
        found.extend(split_log(path, count) if count > 1 else [path])
    return found


def split_log(path: str, count: int) -> list[Source]:
    """The parts of a log, in order (the log itself when it stays whole)."""
    if path == STDIN or path.endswith(".gz") or remote.is_url(path):
        return [path]
    try:
        size = os.path.getsize(path)
        with open(path, "rb") as stream:
            starts = _cuts(stream, size, part_size(size, count))
            if not starts:
                return [path]
            lines, binary = _lines_before(stream, starts)
    except OSError:
        return [path]  # read whole, and said why there
    if binary is not None:  # reading stops at binary data: no part after it is read
        starts = [start for start in starts if start <= binary]
        lines = lines[: len(starts) + 1]
    if not starts:
        return [path]
    bounds = [0, *starts, size]
    return [
        Part(path, bounds[i], bounds[i + 1], lines[i], i == len(starts))
        for i in range(len(starts) + 1)
    ]


def _cuts(stream: io.BufferedReader, size: int, step: int) -> list[int]:
    """Where the parts after the first start: the first game line at or after each
    multiple of ``step``, each once."""
    cuts: list[int] = []
    for offset in range(step, size, step):
        if cuts and cuts[-1] >= offset:
            continue
        found = _game_line_from(stream, offset)
        if found is None:
            break
        if found < size:
            cuts.append(found)
    return cuts


def _game_line_from(stream: io.BufferedReader, offset: int) -> int | None:
    """The offset of the first game line that starts at or after ``offset``."""
    stream.seek(offset - 1)
    stream.readline()  # the rest of the line ``offset`` falls in (or its newline alone)
    limit = LONGEST_LINE + 1
    while True:
        at = stream.tell()
        raw = stream.readline(limit)
        if not raw:
            return None
        if len(raw) == limit and raw[-1:] != b"\n":
            while (more := stream.readline(_BLOCK)) and more[-1:] != b"\n":
                pass
            continue
        body = line_body(raw, 2)
        if body is not None and body[1] and game_line(body[0]):
            return at


def game_line(raw: bytes) -> bool:
    """Whether a line is meant as a ``game`` line: a JSON object of type ``game``."""
    if b"game" not in raw and b"\\u" not in raw:  # no need to parse it to know
        return False
    try:
        data = orjson.loads(raw)
    except orjson.JSONDecodeError:
        return False
    return isinstance(data, dict) and data.get("type") == "game"


def _lines_before(stream: io.BufferedReader, starts: list[int]) -> tuple[list[int], int | None]:
    """The lines of the log before its start and each of ``starts``, and where the
    first NUL byte before the last of them is (the log's reading stops on its line)."""
    stream.seek(0)
    lines, at, counted = [0], 0, 0
    for start in starts:
        while at < start:
            block = stream.read(min(_BLOCK, start - at))
            if not block:
                break
            if b"\0" in block:
                return lines, at + block.index(b"\0")
            counted += block.count(b"\n")
            at += len(block)
        lines.append(counted)
    return lines, None


@contextmanager
def open_source(source: Source) -> Iterator[io.BufferedIOBase]:
    """The bytes of a log (see :func:`~truclog.format.reader.open_log`), or of a part."""
    with open_log(name_of(source)) as stream:
        if not isinstance(source, Part):
            yield stream
            return
        stream.seek(source.start)
        yield io.BufferedReader(_Slice(stream, source.size), _BLOCK)


def starts_log(source: Source) -> bool:
    """Whether a source is a whole log or its first part (what counts the file once)."""
    return not isinstance(source, Part) or source.start == 0


def first_line(source: Source) -> int:
    """The lines of the log before the source."""
    return source.line if isinstance(source, Part) else 0


def read_source(source: Source) -> Iterator[LogLine]:
    """Every non-blank line of a log or a part, numbered as in the whole log."""
    name = name_of(source)
    with open_source(source) as stream:
        shown = STDIN_NAME if name == STDIN else name
        yield from read_stream(stream, shown, first_line(source))


class _Slice(io.RawIOBase):
    """The next ``size`` bytes of a stream."""

    def __init__(self, stream: io.BufferedIOBase, size: int) -> None:
        self.stream, self.left = stream, size

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int:
        if self.left <= 0:
            return 0
        view = memoryview(buffer)[: min(len(buffer), self.left)]
        size = self.stream.readinto(view)
        self.left -= size
        return size


__all__ = [
    "PART_SIZE",
    "SMALLEST_PART",
    "Part",
    "Source",
    "first_line",
    "game_line",
    "name_of",
    "open_source",
    "read_source",
    "sources",
    "split_log",
    "starts_log",
]
