"""Reading truclog/1 logs: a stream of lines, each an event or a precise problem.

Reading never stops on a bad line and holds one line at a time, whatever the
size of the log. Files may be plain, gzip-compressed (``.gz``), whole directories
(every ``*.jsonl`` and ``*.jsonl.gz`` under them) or standard input (``-``).

>>> import io
>>> lines = list(read_stream(io.BytesIO(b'\\xef\\xbb\\xbf{"type":"accept","player":"Ana"}\\r\\n\\n[1]\\n{"type":"fold"'), "x.jsonl"))
>>> [(l.line, l.event.type if l.event else l.problem.code) for l in lines]
[(1, 'accept'), (3, 'E002'), (4, 'E004')]
>>> lines[2].problem.message
'a crash cut this line short: the last line has no newline and is not whole JSON (EOF while parsing an object at column 14)'

Problem codes:

- ``E000`` the file could not be read to its end (a broken or truncated ``.gz``, an I/O error)
- ``E001`` the line is not JSON (with its column)
- ``E002`` the line is not a JSON object, or its ``type`` is missing or unknown
- ``E003`` the line is not a valid event (each field and why)
- ``E004`` the last line has no newline and is not whole JSON: a crash cut it short
- ``E005`` the line is not UTF-8 text
- ``E006`` the line is longer than :data:`LONGEST_LINE` bytes: skipped unread
- ``E007`` a number past :data:`LARGEST_NUMBER`, more than a table column holds
- ``E008`` ``marks`` is not a list of marks (each 1 to 40 characters), all else being right
- ``E009`` the line holds a NUL byte: the file is binary data, not a log, and reading
  it stops there (so a device such as ``/dev/zero`` is one problem, read no further
  than one line's limit)

A line is read into memory only up to :data:`LONGEST_LINE` bytes (1 MiB unless the
environment variable ``TRUCLOG_MAX_LINE`` says how many bytes), whatever the file,
its compression or its source, so memory stays bounded:

>>> long = b'{"type":"accept","player":"' + b"A" * LONGEST_LINE + b'"}'
>>> lines = list(read_stream(io.BytesIO(long + b'\\n{"type":"fold","player":"Ana"}\\n'), "x.jsonl"))
>>> [(l.line, l.type or l.problem.code) for l in lines]
[(1, 'E006'), (2, 'fold')]
"""

from __future__ import annotations

import errno
import gc
import io
import os
import re
import stat
import sys
import zlib
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any, cast

import orjson

from truclog.codes import Read
from truclog.engine.rules import PRESETS
from truclog.errors import PathError, reason
from truclog.format import remote
from truclog.format.copies import comparable
from truclog.format.header import FORMAT, GAME_FIELDS, PlainHeader, timestamp

if TYPE_CHECKING:
    from pathlib import Path

    from pydantic import ValidationError

    from truclog.engine.actions import Action
    from truclog.format.events import Event
    from truclog.format.shapes import Shapes

STDIN = "-"
STDIN_NAME = "<stdin>"
LOG_SUFFIXES = (".jsonl", ".jsonl.gz")
NOTES_SUFFIX = ".notes.jsonl"
"""The end of a log's notes file (``LOG.notes.jsonl``, see :mod:`truclog.annotations`):
named like a log, but never read as one when a folder or a pattern is walked."""
_BOM = b"\xef\xbb\xbf"
_BUFFER = 1 << 16


def notes_path(log: str | Path) -> Path:
    """The notes file of a log: ``LOG.notes.jsonl`` beside it."""
    from pathlib import Path

    return Path(f"{log}{NOTES_SUFFIX}")


def has_notes(log: str) -> bool:
    """Whether a log (a local file) has a notes file beside it (known without importing
    the notes' models: :mod:`truclog.record.annotations` reads it)."""
    return log != STDIN and "://" not in log and os.path.isfile(f"{log}{NOTES_SUFFIX}")


def _longest_line() -> int:
    try:
        return max(int(os.environ.get("TRUCLOG_MAX_LINE", "")), 64)
    except ValueError:
        return 1 << 20


LONGEST_LINE: int = _longest_line()
"""The longest line read, in bytes without its line end: 1 MiB, or ``TRUCLOG_MAX_LINE``."""

LARGEST_NUMBER = 2**53 - 1
"""The largest integer (in size) a line may hold: the largest that JSON readers agree
on, far within a 64-bit column, so that sums of them fit as well."""

_LONG_DIGITS = rb"[0-9]{%d}" % len(str(LARGEST_NUMBER))
"""A run of digits as long as :data:`LARGEST_NUMBER`: a line without one holds no
number past it (a pattern compiled when the models read a first line)."""


class Problem:
    """Why a line is not an event: a stable ``code`` and a message for the user, with
    the ``column`` and the ``field`` it is about when known. A plain class: a named
    tuple took many times as long to make at start-up."""

    __slots__ = ("code", "column", "field", "message")

    def __init__(
        self, code: str, message: str, column: int | None = None, field: str | None = None
    ) -> None:
        self.code = code
        self.message = message
        self.column = column
        self.field = field

    def __reduce__(self) -> tuple[type[Problem], tuple[Any, ...]]:
        return Problem, (self.code, self.message, self.column, self.field)


class LogLine:
    """One non-blank line of a log (1-based ``line``): its event, or its problem.

    ``raw`` is the line's bytes without its line end (and without a BOM). A plain
    ``game`` line read for the quick core (see :func:`read_line`) is a
    :class:`~truclog.format.header.PlainHeader` until its :attr:`event` is asked for. A line
    of a shape read before (see :mod:`truclog.format.shapes`) is not parsed again:
    ``parsed`` is then that earlier event, the same but for its time (``t`` is
    this line's own) and a deal's cards (``cards``, when they differ);
    :attr:`event` builds the line's own event when asked. ``action`` is the
    event's engine action, ``comparable`` the line as duplicates compare it
    (see :func:`truclog.format.copies.comparable`). A plain class, not a dataclass, which
    would generate and compile its methods when the reader is first imported.
    """

    __slots__ = ("action", "cards", "comparable", "line", "parsed", "path", "problem", "raw", "t")

    def __init__(
        self,
        path: str,
        line: int,
        parsed: Event | PlainHeader | None,
        problem: Problem | None,
        raw: bytes,
        t: str | None = None,
        action: Action | None = None,
        comparable: bytes = b"",
        cards: dict[str, list[str]] | None = None,
    ) -> None:
        self.path = path
        self.line = line
        self.parsed = parsed
        self.problem = problem
        self.raw = raw
        self.t = t
        self.action = action
        self.comparable = comparable
        self.cards = cards

    def __reduce__(self) -> tuple[type[LogLine], tuple[Any, ...]]:
        fields = (self.parsed, self.problem, self.raw, self.t, self.action, self.comparable)
        return LogLine, (self.path, self.line, *fields, self.cards)

    @property
    def event(self) -> Event | None:
        """The line's event (``None`` for a line with a problem)."""
        parsed = self.parsed
        if isinstance(parsed, PlainHeader):
            self.parsed = parsed = parsed.event()
        if parsed is None or (parsed.t == self.t and self.cards is None):
            return parsed
        changes: dict[str, Any] = {"t": self.t}
        if self.cards is not None:
            changes["cards"] = self.cards
        self.parsed, self.cards = parsed.model_copy(update=changes), None
        return self.parsed

    @property
    def type(self) -> str | None:
        """The event's ``type``, or ``None`` for a line with a problem."""
        return None if self.parsed is None else self.parsed.type


def log_files(sources: Iterable[str | Path], problems: list[PathError] | None = None) -> list[str]:
    """The log files named by ``sources``: files as given, directories expanded.

    A directory gives every ``*.jsonl`` and ``*.jsonl.gz`` file under it, sorted,
    less notes files (``*.notes.jsonl``) and those its ``.truclogignore`` names (see :func:`_walk`); ``-`` stands for
    standard input. A URL (``s3://...``, ``file://...``) or a glob pattern names the
    log files it matches (see :mod:`truclog.format.remote`). A path named in ``sources`` that
    is missing or unreadable raises :class:`~truclog.errors.PathError` (code ``E000``).
    So does anything found in a directory that cannot be read (a folder or log file
    without permission, a link to nowhere or in a loop, a FIFO or device named like a
    log), unless ``problems`` is given: such paths are then added to it and the rest is
    listed.
    """
    files: list[str] = []
    for source in sources:
        name = str(source)
        if name == STDIN:
            if sys.stdin is None or sys.stdin.closed:
                raise PathError(STDIN_NAME, "cannot read: standard input is closed")
            files.append(STDIN)
            continue
        if remote.is_url(name) or (remote.has_magic(name) and not os.path.exists(name)):
            files.extend(remote.expand(name, LOG_SUFFIXES, but=NOTES_SUFFIX))
            continue
        mode = _mode(name)
        if mode is None:
            raise PathError(name, "no such file or directory")
        if stat.S_ISDIR(mode):
            files.extend(_walk(name, problems))
        elif not os.access(name, os.R_OK):
            raise PathError(name, "cannot read this file (permission denied)")
        else:
            files.append(name)
    return files


def _mode(name: str) -> int | None:
    """The mode of the file or folder ``name``, ``None`` if there is none (as
    :meth:`pathlib.Path.exists` tells, without the cost of importing pathlib)."""
    try:
        return os.stat(name).st_mode
    except ValueError:  # a name that no file can have
        return None
    except OSError as exc:
        if exc.errno in (errno.ENOENT, errno.ENOTDIR, errno.EBADF, errno.ELOOP):
            return None
        raise PathError(name, f"cannot read: {_why(exc)}") from None


IGNORE_FILE = ".truclogignore"


def _walk(top: str, problems: list[PathError] | None) -> list[str]:
    """Log files under the folder ``top``, sorted, less those its ``.truclogignore`` leaves out;
    what cannot be read goes to ``problems`` (raised, without it).

    ``.truclogignore`` holds one glob a line (``#`` starts a comment), matched
    against paths relative to ``top`` and against each of their folders, so
    ``invalid`` leaves out a whole folder of deliberately broken logs. Links are
    followed while they stay inside ``top`` (never back into a folder above them); a
    link out of it is reported, not followed.
    """
    from pathlib import Path  # only to walk a folder

    root = Path(top)
    inside = os.path.realpath(top)
    found: list[str] = []
    unread: list[PathError] = []
    patterns = _ignored(root, unread)
    folders: list[tuple[Path, frozenset[tuple[int, int]]]] = [(root, frozenset())]
    while folders:
        folder, above = folders.pop()
        try:
            identity = _identity(folder.stat())
            with os.scandir(folder) as scan:
                entries = list(scan)
        except OSError as exc:
            unread.append(PathError(str(folder), f"cannot read this folder: {_why(exc)}"))
            continue
        if identity in above:
            unread.append(PathError(str(folder), "a link back to a folder above it: not read"))
            continue
        for entry in entries:
            path = Path(entry.path)
            if _leaves_out(path.relative_to(root), patterns):
                continue
            if entry.is_symlink() and not _within(os.path.realpath(path), inside):
                unread.append(PathError(str(path), "a link out of the folder named: not read"))
                continue
            if entry.name.endswith(LOG_SUFFIXES) and not entry.name.endswith(NOTES_SUFFIX):
                _add_log(path, found, unread)
            elif _is_folder(entry, unread):
                folders.append((path, above | {identity}))
    if unread and problems is None:
        raise min(unread, key=lambda error: error.path)
    if problems is not None:
        problems.extend(sorted(unread, key=lambda error: error.path))
    return sorted(found)


def _within(path: str, folder: str) -> bool:
    """Whether the resolved ``path`` is ``folder`` or under it."""
    return path == folder or path.startswith(folder.rstrip(os.sep) + os.sep)


def _ignored(root: Path, unread: list[PathError]) -> list[str]:
    """The globs of ``root``'s ``.truclogignore``, if it has one."""
    ignore = root / IGNORE_FILE
    try:
        lines = ignore.read_text("utf-8", errors="replace").splitlines()
    except FileNotFoundError:
        return []
    except OSError as exc:
        unread.append(PathError(str(ignore), f"cannot read: {_why(exc)}"))
        return []
    return [p.strip().rstrip("/") for p in lines if p.strip() and not p.startswith("#")]


def _leaves_out(relative: Path, patterns: list[str]) -> bool:
    from fnmatch import fnmatch  # only to walk a folder

    parts = [relative.as_posix(), *(p.as_posix() for p in relative.parents if p.parts)]
    return any(fnmatch(part, pattern) for part in parts for pattern in patterns)


def _add_log(path: Path, found: list[str], unread: list[PathError]) -> None:
    """A file named like a log: found if it can be read, else why not."""
    try:
        mode = path.stat().st_mode
    except OSError as exc:
        unread.append(PathError(str(path), _why(exc)))
        return
    if stat.S_ISDIR(mode):
        return
    if not stat.S_ISREG(mode):
        kind = (
            "a FIFO" if stat.S_ISFIFO(mode) else "a socket" if stat.S_ISSOCK(mode) else "a device"
        )
        unread.append(PathError(str(path), f"not a regular file but {kind}: not read"))
    elif not os.access(path, os.R_OK):
        unread.append(PathError(str(path), "cannot read this file (permission denied)"))
    else:
        found.append(str(path))


def _is_folder(entry: os.DirEntry[str], unread: list[PathError]) -> bool:
    try:
        return entry.is_dir()
    except OSError as exc:  # a link in a loop, a folder it may not look into
        unread.append(PathError(entry.path, _why(exc)))
        return False


def _identity(found: os.stat_result) -> tuple[int, int]:
    return found.st_dev, found.st_ino


def _why(exc: OSError) -> str:
    """An OS error in words: a link to nowhere or in a loop, permission denied..."""
    if exc.errno == errno.ENOENT:
        return "a link to nothing (dangling): not read"
    if exc.errno == errno.ELOOP:
        return "a loop of links: not read"
    return reason(exc).lower()


@contextmanager
def rare_collections(young: int = 50_000) -> Iterator[None]:
    """Run the garbage collector less often while reading a whole log: reading makes
    millions of short-lived objects and few cycles, so the default (a collection every
    700 new objects) mostly walks live ones."""
    before = gc.get_threshold()
    gc.set_threshold(young, *before[1:])
    try:
        yield
    finally:
        gc.set_threshold(*before)


def read_logs(sources: Iterable[str | Path]) -> Iterator[LogLine]:
    """Every line of every log named by ``sources`` (see :func:`log_files`)."""
    for path in log_files(sources):
        yield from read_log(path)


def read_log(path: str | Path) -> Iterator[LogLine]:
    """Every non-blank line of one log: a file, a ``.gz`` file, or ``-`` (stdin)."""
    name = str(path)
    with open_log(name) as stream:
        yield from read_stream(stream, STDIN_NAME if name == STDIN else name)


@contextmanager
def open_log(name: str, spool: bool = False) -> Iterator[io.BufferedIOBase]:
    """A log's bytes, decompressed for a ``.gz`` file; ``-`` is standard input (with
    ``spool``, copied as it is read, see :mod:`truclog.format.spool`). A file that
    cannot be opened raises :class:`~truclog.errors.TruclogError` (``E000``)."""
    if name == STDIN:
        if sys.stdin is None or sys.stdin.closed:
            raise PathError(STDIN_NAME, "cannot read: standard input is closed")
        stdin = cast(io.BufferedIOBase, sys.stdin.buffer)
        if not spool:
            yield stdin
            return
        from truclog.format.spool import spooling  # only for games read again

        with spooling(stdin) as copied:
            yield copied
        return
    try:
        raw = (
            remote.open_url(name) if remote.is_url(name) else open(name, "rb", buffering=_BUFFER)  # noqa: SIM115 - closed below
        )
    except OSError as exc:
        raise PathError(name, f"cannot open: {reason(exc)}") from None
    with raw:
        if name.endswith(".gz"):
            import gzip  # only for a compressed log

            yield gzip.GzipFile(fileobj=raw)
        else:
            yield cast(io.BufferedReader, raw)


def read_stream(
    stream: io.BufferedIOBase | io.BytesIO | Iterator[bytes], name: str, first: int = 0
) -> Iterator[LogLine]:
    """Every non-blank line of an open binary stream (or of an iterator of lines, whose
    lines are then whole in memory before the limit applies), named ``name``, after
    ``first`` lines of the log (a part of it, see :mod:`truclog.format.parts`)."""
    number = first
    read = read_line
    if not isinstance(stream, io.IOBase):
        stream = io.BufferedReader(_LineStream(stream))
    readline = stream.readline
    limit = LONGEST_LINE + 1
    try:
        while raw := readline(limit):
            number += 1
            if b"\0" in raw:
                yield not_text(name, number)
                return
            if len(raw) == limit and raw[-1:] != b"\n":
                yield too_long(name, number, limit + _skip_line(stream))
                continue
            body = line_body(raw, number)
            if body is not None:
                yield read(name, number, *body)
    except READ_ERRORS as exc:
        yield unreadable(name, number, exc)


class _LineStream(io.RawIOBase):
    """An iterator of lines as a raw stream."""

    def __init__(self, lines: Iterator[bytes]) -> None:
        self.lines, self.rest = lines, b""

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int:
        if not self.rest:
            self.rest = next(self.lines, b"")
        size = min(len(buffer), len(self.rest))
        buffer[:size], self.rest = self.rest[:size], self.rest[size:]
        return size


def skip_lines(stream: io.BufferedIOBase, count: int) -> int:
    """Read past the next ``count`` lines of a stream, each counted as
    :func:`read_stream` counts it (a line past the limit is one line) but not read
    into an event; how many there were (fewer at the end of the stream)."""
    limit = LONGEST_LINE + 1
    for done in range(count):
        raw = stream.readline(limit)
        if not raw:
            return done
        if len(raw) == limit and raw[-1:] != b"\n":
            _skip_line(stream)
    return count


def _skip_line(stream: Any) -> int:
    """Read on to the end of the line, a block at a time; how many bytes that was."""
    skipped = 0
    while chunk := stream.readline(_BUFFER):
        skipped += len(chunk)
        if chunk[-1:] == b"\n":
            return skipped - 1
    return skipped


def too_long(name: str, number: int, size: int) -> LogLine:
    """The line ``number`` of ``size`` bytes, past :data:`LONGEST_LINE`: not read."""
    message = (
        f"the line is {size:,} bytes long, past the limit of {LONGEST_LINE:,}: not read "
        "(TRUCLOG_MAX_LINE sets the limit)"
    )
    return LogLine(name, number, None, Problem(Read.LINE_TOO_LONG, message), b"")


def not_text(name: str, number: int) -> LogLine:
    """The line ``number`` holds a NUL byte: the file is not a log (read no further)."""
    message = (
        f"line {number} holds a NUL byte: this is binary data, not a truclog log; "
        "the rest of the file is not read"
    )
    return LogLine(name, number, None, Problem(Read.NOT_TEXT, message), b"")


READ_ERRORS = (OSError, EOFError, zlib.error)
"""What reading a log may raise: its file, or its compression, is broken."""


def unreadable(name: str, number: int, exc: Exception) -> LogLine:
    """The line that says a log could not be read past line ``number``."""
    message = f"the file could not be read past line {number}: {exc}"
    return LogLine(name, number + 1, None, Problem(Read.UNREADABLE, message), b"")


def line_body(raw: bytes, number: int) -> tuple[bytes, bool] | None:
    """A raw line (``number``, 1-based) without its line end and BOM, and whether it
    had a line end; ``None`` for a blank line."""
    if raw[-1:] == b"\n":
        body = raw[:-2] if raw[-2:-1] == b"\r" else raw[:-1]
        whole = True
    else:
        body, whole = raw, False
    if number == 1 and body.startswith(_BOM):
        body = body[3:]
    if not body or body.isspace():
        return None
    return body, whole


_SHAPES: Shapes | None = None
"""The shapes of the lines the models read (made when they read a first line)."""


_PROBLEMS: dict[tuple[bytes, bool], Problem] = {}
"""What is wrong with short bad lines seen before (a damaged file repeats them)."""


def read_line(
    name: str, number: int, body: bytes, whole: bool, headers: bool = False, compare: bool = True
) -> LogLine:
    """One non-blank line (its body, see :func:`line_body`) read into a :class:`LogLine`.

    ``headers``: a ``game`` line written plainly (see :func:`plain_game`) is read
    without the models, its ``parsed`` a :class:`~truclog.format.header.PlainHeader`; else
    every line's ``parsed`` is its event. Without ``compare``, such a line comes without
    its ``comparable`` (``b""``), which the quick core writes itself."""
    found = None if _SHAPES is None else _SHAPES.find(body)
    if found is not None:
        event, action, same, t, cards = found
        return LogLine(name, number, event, None, body, t, action, same, cards)
    known = _PROBLEMS.get((body, whole))
    if known is not None:
        return LogLine(name, number, None, known, body)
    if body.startswith(_GAME_START):
        game = plain_game(body)
        if game is not None:
            header, data = game
            same = comparable(data) if compare else b""
            line = LogLine(name, number, header, None, body, header.t, None, same)
            if not headers:
                line.parsed = header.event()
            return line
    return _read_event(name, number, body, whole)


def _read_event(name: str, number: int, body: bytes, whole: bool) -> LogLine:
    """A line read by the models (imported when a first line needs them)."""
    from pydantic import ValidationError

    from truclog.format.events import EVENT_ADAPTER, event_to_action

    try:
        event = EVENT_ADAPTER.validator.validate_json(body)
    except ValidationError as exc:
        problem = _problem(body, exc, whole)
        if len(body) <= 64:
            if len(_PROBLEMS) >= 1024:
                _PROBLEMS.clear()
            _PROBLEMS[body, whole] = problem
        return LogLine(name, number, None, problem, body)
    action = event_to_action(event)
    large = _too_large(event) if re.search(_LONG_DIGITS, body) else None
    if large is not None:
        return LogLine(name, number, None, large, body)
    try:
        data = orjson.loads(body)
    except orjson.JSONDecodeError:  # numbers orjson cannot hold: compared as written
        return LogLine(name, number, event, None, body, event.t, action, body)
    same = comparable(data)
    _shapes().learn(body, event, data, action, same)
    return LogLine(name, number, event, None, body, event.t, action, same)


def _shapes() -> Shapes:
    global _SHAPES
    if _SHAPES is None:
        from truclog.format.shapes import Shapes

        _SHAPES = Shapes()
    return _SHAPES


_GAME_START = b'{"type":"game"'
_GAME_FIELDS = frozenset(["type", *GAME_FIELDS, "t", "note"]) - {"teams"}
_TEXT_FIELDS = ("id", "date", "match", "source", "note")


def plain_game(body: bytes) -> tuple[PlainHeader, dict[str, Any]] | None:
    """The header of a ``game`` line written plainly, read without the models, and the
    line as parsed JSON; ``None`` for any other line, which the models read. Plainly:
    fields of the format only (no ``teams``, no ``_`` extension), a preset's name (or no
    ``rules``), a starting score only for two players, and every value as the models
    would accept it, so the header's event is theirs to the letter
    (``tests/test_format_reader.py`` holds the two together).

    >>> header, _ = plain_game(b'{"type":"game","format":"truclog/1","players":["Ana","Marc"],"dealer":"Marc"}')
    >>> header.rules_obj.name, sorted(header.event().model_fields_set)
    ('classic', ['dealer', 'format', 'players', 'type'])
    >>> plain_game(b'{"type":"game","format":"truclog/1","players":["Ana","Marc"],"dealer":"Lu"}') is None
    True
    """
    try:
        data = orjson.loads(body)
    except orjson.JSONDecodeError:
        return None
    if type(data) is not dict or not data.keys() <= _GAME_FIELDS:
        return None
    players, dealer, rules = data.get("players"), data.get("dealer"), data.get("rules", None)
    if (
        data["type"] != "game"
        or data.get("format") != FORMAT
        or type(players) is not list
        or len(players) not in (2, 4)
        or any(type(name) is not str or not name for name in players)
        or len(set(players)) != len(players)
        or type(dealer) is not str
        or dealer not in players
        or not (rules is None or (type(rules) is str and rules in PRESETS))
        or any(type(data.get(key, "")) not in (str, type(None)) for key in _TEXT_FIELDS)
        or not _plain_time(data.get("t"))
        or not _plain_tags(data.get("tags"))
        or not _plain_score(data.get("score"), players)
    ):
        return None
    header = PlainHeader(
        data["format"],
        players,
        dealer,
        rules,
        data.get("id"),
        data.get("date"),
        data.get("score"),
        data.get("match"),
        data.get("source"),
        data.get("tags"),
        data.get("t"),
        data.get("note"),
        frozenset(data),  # "type" among them: the line starts with it
    )
    return header, data


def _plain_time(t: object) -> bool:
    return t is None or (type(t) is str and timestamp(t) is not None)


def _plain_tags(tags: object) -> bool:
    return tags is None or (type(tags) is dict and all(type(v) is str for v in tags.values()))


def _plain_score(score: object, players: list[str]) -> bool:
    """No starting score, or one of two players that the models accept, each number
    within :data:`LARGEST_NUMBER` (four players score as teams: the models read it)."""
    return score is None or (
        type(score) is dict
        and len(players) == 2
        and all(
            name in players and type(points) is int and 0 <= points <= LARGEST_NUMBER
            for name, points in score.items()
        )
    )


def _too_large(event: Event) -> Problem | None:
    """E007 for an event holding an integer past :data:`LARGEST_NUMBER` (its ``_``
    extension fields aside), which no table column could hold."""
    for field, value in _numbers(event.model_dump(exclude_unset=True), ""):
        if abs(value) > LARGEST_NUMBER:
            return Problem(
                Read.NUMBER_TOO_LARGE,
                f"{field}: the number {_shorten(value)} is past the largest a log may hold "
                f"({LARGEST_NUMBER:,})",
                field=field,
            )
    return None


def _numbers(value: object, where: str) -> Iterator[tuple[str, int]]:
    """The integers in ``value`` (of a dumped event), with the field each is in."""
    if isinstance(value, bool):
        return
    if isinstance(value, int):
        yield where, value
    elif isinstance(value, dict):
        for key, item in value.items():
            if not str(key).startswith("_"):
                yield from _numbers(item, f"{where}.{key}" if where else str(key))
    elif isinstance(value, list | tuple):
        for item in value:
            yield from _numbers(item, where)


def _shorten(value: int) -> str:
    """A huge number as its first digits and how many there are.

    >>> _shorten(10**40)
    '1000000000... (41 digits)'
    """
    sign = "-" if value < 0 else ""
    if value.bit_length() > 10_000:  # too long to write out in full
        return f"{sign}10^{int(value.bit_length() * 0.30103)} or so"
    digits = str(abs(value))
    return sign + digits if len(digits) <= 20 else f"{sign}{digits[:10]}... ({len(digits)} digits)"


def _problem(body: bytes, exc: ValidationError, whole: bool) -> Problem:
    """What is wrong with a line that did not validate."""
    from truclog.format.events import EVENT_TYPES, describe_error, reasons

    errors = exc.errors(include_url=False)
    first = errors[0]
    kind = first["type"]
    if kind == "json_invalid":
        return _json_problem(body, str(first.get("ctx", {}).get("error", first["msg"])), whole)
    if kind == "dict_type" and not first["loc"]:
        return Problem(Read.NOT_OBJECT, f"the line is not a JSON object but {_json_kind(body)}")
    if kind == "union_tag_not_found":
        return Problem(Read.NOT_OBJECT, "the object has no 'type' field", field="type")
    if kind == "union_tag_invalid":
        tag = first.get("ctx", {}).get("tag", "?")
        known = ", ".join(EVENT_TYPES)
        return Problem(
            Read.NOT_OBJECT, f"unknown type '{tag}' (known types: {known})", field="type"
        )
    field, _ = describe_error(first)
    kind_name = " ".join(str(part) for part in first["loc"][:1])
    if all(error["loc"][1:2] == ("marks",) for error in errors):
        return Problem(
            Read.BAD_MARK,
            f"bad marks in this {kind_name} line: {reasons(exc)} "
            "(marks are a list of short tags, each 1 to 40 characters)",
            field=field,
        )
    return Problem(Read.NOT_EVENT, f"not a valid {kind_name} event: {reasons(exc)}", field=field)


def _json_problem(body: bytes, error: str, whole: bool) -> Problem:
    """E001 (not JSON), E004 (a last line cut short) or E005 (not UTF-8)."""
    try:
        body.decode()
    except UnicodeDecodeError as bad:
        if whole:
            return Problem(
                Read.NOT_UTF8, f"the line is not UTF-8 text (byte {bad.start + 1})", bad.start + 1
            )
    reason, _, where = error.rpartition(" at line ")
    column = int(where.rpartition(" ")[2]) if where[-1:].isdigit() else None
    reason = reason or error
    if column is not None:
        reason = f"{reason} at column {column}"
    if not whole:
        return Problem(
            Read.TORN,
            f"a crash cut this line short: the last line has no newline and is not whole JSON ({reason})",
            column,
        )
    return Problem(Read.NOT_JSON, f"the line is not JSON: {reason}", column)


def _json_kind(body: bytes) -> str:
    first = body.lstrip()[:1]
    kinds = {b"[": "an array", b'"': "a string", b"t": "true", b"f": "false", b"n": "null"}
    return kinds.get(first, "a number")
