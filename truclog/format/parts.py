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
from typing import Any, cast

import orjson

from truclog import build
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

_quick = build.QUICK_CORE


class Part:
    """The bytes ``start`` to ``stop`` of the log ``path``, after ``line`` lines of it
    (``None``: not counted yet, see :func:`first_line`); ``last``: the part that ends
    the log. A plain class (sent to worker processes)."""

    __slots__ = ("last", "line", "path", "start", "stop")

    def __init__(self, path: str, start: int, stop: int, line: int | None, last: bool) -> None:
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


COUNTING = 0.05
"""About how long counting the lines of a byte takes against checking it (the quick
core's count of a block read against ``truclog validate``, on the compiled build)."""


def offsets(size: int, count: int, counting: float = 0.0) -> list[int]:
    """Where a log of ``size`` bytes cut into ``count`` parts would be cut (each cut then
    moves on to a game line): into parts of :data:`PART_SIZE` bytes when the environment
    says so; else of at least :data:`SMALLEST_PART` (fewer parts when the log is small),
    of the same size, or, with ``counting`` (see :data:`COUNTING`), sized for processes
    that each count the lines before their part first, the first part read by the
    process that cut the log: each part smaller than the one before it by what counting
    the lines before it takes, so that the processes finish together.

    >>> offsets(100_000_000, 2), offsets(100_000_000, 2, 0.05)
    ([50000000], [51282051])
    """
    given = os.environ.get(PART_SIZE, "")
    if given.isdigit() and int(given) > 0:
        return list(range(int(given), size, int(given)))
    count = max(1, min(count, size // SMALLEST_PART))
    if not counting:
        return [size * k // count for k in range(1, count)]
    keep = 1 - counting
    lane = size * counting / (1 - keep**count)  # the work of each process
    return [round(lane * (1 - keep**k) / counting) for k in range(1, count)]


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


def for_jobs(paths: list[str], jobs: int) -> list[Source]:
    """What a run on ``jobs`` processes reads of ``paths``: each large plain file in
    about two parts a process; every file whole on one process, or when one of them is
    standard input (``-``)."""
    if jobs > 1 and "-" not in paths:
        return sources(paths, 2 * jobs)
    return [*paths]


def cut(paths: list[str], count: int, counting: float = 0.0) -> list[str | Cuts]:
    """``paths`` in order, each large plain file with where it is cut into about
    ``count`` parts (sized as :func:`offsets` says with ``counting``): a few lines read
    around each cut, not the file (see :func:`numbered` and :func:`uncounted`)."""
    return [_cuts_of(path, count, counting) if count > 1 else path for path in paths]


def pieces(plan: list[str | Cuts]) -> int:
    """How many files and parts a :func:`cut` makes (binary data may make fewer)."""
    return sum(1 if isinstance(p, str) else len(p.starts) + 1 for p in plan)


def uncounted(plan: list[str | Cuts]) -> Iterator[Source]:
    """The files and parts of a :func:`cut`, in order, the lines before each part left
    for the process that reads it to count (see :func:`first_line`): nothing is read here."""
    for item in plan:
        if isinstance(item, str):
            yield item
            continue
        starts = [0, *item.starts]
        stops = [*item.starts, item.size]
        for start, stop in zip(starts, stops, strict=True):
            yield Part(item.path, start, stop, None if start else 0, stop == item.size)


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


def _cuts_of(path: str, count: int, counting: float = 0.0) -> str | Cuts:
    """Where a log is cut, or the log itself when it stays whole."""
    if path == STDIN or path.endswith(".gz") or remote.is_url(path):
        return path
    try:
        size = os.path.getsize(path)
        with open(path, "rb") as stream:
            starts = _cuts(stream, size, offsets(size, count, counting))
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


def _cuts(stream: io.BufferedReader, size: int, near: list[int]) -> list[int]:
    """Where the parts after the first start: the first game line at or after each
    offset ``near``, each once."""
    cuts: list[int] = []
    for offset in near:
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
    block = bytearray(_BLOCK)
    while at < stop:
        size = stream.readinto(memoryview(block)[: min(_BLOCK, stop - at)])
        if not size:
            break
        lines, binary = _lines_of(block if size == _BLOCK else block[:size])
        if binary:
            return counted, True
        counted += lines
        at += size
    return counted, False


def _lines_of(block: bytearray) -> tuple[int, bool]:
    """The newlines in a block and whether it holds a NUL byte: in one pass of the quick
    core when it was built (about three times as fast)."""
    if _quick is not None:
        return cast("tuple[int, bool]", _quick.lines(block))
    return block.count(b"\n"), b"\0" in block


def _count_before(part: Part) -> int:
    """The lines of the log before ``part``, counted now by the process that reads it
    (the log read up to the part, block by block) and kept in the part. A part after
    binary data is left empty: reading the whole log would have stopped before it
    (``E009``). A log that cannot be read raises :class:`OSError`, as reading it would."""
    if part.line is None:
        with open(part.path, "rb") as stream:
            counted, binary = _lines_in(stream, 0, part.start)
        part.line = counted
        if binary:
            part.stop = part.start
    return part.line


@contextmanager
def open_source(source: Source, spool: bool = False) -> Iterator[io.BufferedIOBase]:
    """The bytes of a log (see :func:`~truclog.format.reader.open_log`, and for ``spool``),
    or of a part."""
    if isinstance(source, Part):
        _count_before(source)
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
    """The lines of the log before the source, counted now if they were not (see
    :func:`uncounted`)."""
    return _count_before(source) if isinstance(source, Part) else 0


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
    "uncounted",
]
