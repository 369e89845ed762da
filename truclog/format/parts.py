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


class Cuts:
    """Where a log is cut: its size and the offsets of the parts after the first."""

    __slots__ = ("path", "size", "starts")

    def __init__(self, path: str, size: int, starts: list[int]) -> None:
        self.path = path
        self.size = size
        self.starts = starts


def sources(paths: list[str], count: int) -> list[Source]:
    """``paths`` in order, each large plain file cut into about ``count`` parts."""
    return list(numbered(cut(paths, count)))


def cut(paths: list[str], count: int) -> list[str | Cuts]:
    """``paths`` in order, each large plain file with where it is cut into about
    ``count`` parts: a few lines read around each cut, not the file (see
    :func:`numbered`)."""
    return [_cuts_of(path, count) if count > 1 else path for path in paths]


def pieces(plan: list[str | Cuts]) -> int:
    """How many files and parts a :func:`cut` makes (binary data may make fewer)."""
    return sum(1 if isinstance(p, str) else len(p.starts) + 1 for p in plan)


def numbered(plan: list[str | Cuts]) -> Iterator[Source]:
    """The files and parts of a :func:`cut`, in order, each part given as soon as the
    lines before it and its own are counted (the first after a quarter of the log cut
    in four): a process can read it while the rest is counted."""
    for item in plan:
        if isinstance(item, str):
            yield item
        else:
            yield from _numbered(item)


def split_log(path: str, count: int) -> list[Source]:
    """The parts of a log, in order (the log itself when it stays whole)."""
    return list(numbered([_cuts_of(path, count)]))


def _cuts_of(path: str, count: int) -> str | Cuts:
    """Where a log is cut, or the log itself when it stays whole."""
    if path == STDIN or path.endswith(".gz") or remote.is_url(path):
        return path
    try:
        size = os.path.getsize(path)
        with open(path, "rb") as stream:
            starts = _cuts(stream, size, part_size(size, count))
    except OSError:
        return path  # read whole, and said why there
    return Cuts(path, size, starts) if starts else path


def _numbered(cuts: Cuts) -> Iterator[Source]:
    """The parts of a cut log, each given once the lines of those before it are counted.
    Reading a log stops at binary data: the part a NUL byte is in is its last. A log
    that cannot be read now is read whole from the part being counted on (and said why
    there)."""
    path, starts = cuts.path, [0, *cuts.starts]
    line, part = 0, 0
    try:
        with open(path, "rb") as stream:
            for part, start in enumerate(starts[:-1]):
                counted, binary = _lines_in(stream, start, starts[part + 1])
                if binary:
                    break
                yield Part(path, start, starts[part + 1], line, False)
                line += counted
            else:
                part = len(starts) - 1
    except OSError:
        pass
    yield Part(path, starts[part], cuts.size, line, True) if part else path


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


def _lines_in(stream: io.BufferedReader, start: int, stop: int) -> tuple[int, bool]:
    """The lines of the log from byte ``start`` to ``stop``, and whether a NUL byte is
    among them (the log's reading stops on its line)."""
    stream.seek(start)
    counted, at = 0, start
    while at < stop:
        block = stream.read(min(_BLOCK, stop - at))
        if not block:
            break
        if b"\0" in block:
            return counted, True
        counted += block.count(b"\n")
        at += len(block)
    return counted, False


@contextmanager
def open_source(source: Source, spool: bool = False) -> Iterator[io.BufferedIOBase]:
    """The bytes of a log (see :func:`~truclog.format.reader.open_log`, and for ``spool``),
    or of a part."""
    with open_log(name_of(source), spool) as stream:
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


def read_source(source: Source, spool: bool = False) -> Iterator[LogLine]:
    """Every non-blank line of a log or a part, numbered as in the whole log (standard
    input copied as it is read with ``spool``, see :mod:`truclog.format.spool`)."""
    name = name_of(source)
    with open_source(source, spool) as stream:
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
