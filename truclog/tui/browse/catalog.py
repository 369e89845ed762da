"""The games of the logs as a list to browse: one light entry a game, found by one pass.

The browser does not keep checked games. One pass over each log (the quick
validation of :mod:`truclog.validate.quick`, which clears plain legal games in C) gives
each game's id, players, score, hands and diagnostics, and a side reader finds
the byte offset of its ``game`` line; a :class:`GameEntry` keeps just that. A
game's hands and steps are checked again only when it is opened
(:func:`open_game`: seek to its offset, check its lines alone), and dropped when
it is left. A log that is not a plain file (a pipe, ``<(cat log)``) is read
once, into a temporary file beside the others (:func:`spool`).

The list itself (:class:`GameEntry`, :class:`Catalog`) needs none of the
validator: this module imports it only where a log is read, so that the browser
draws its first screen without it (the index process reads the logs meanwhile).
"""

from __future__ import annotations

import contextlib
import gc
import io
import operator
import os
import pickle
import select
import signal
import stat
import subprocess
import sys
import tempfile
import threading
import time
import warnings
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any, NoReturn, TypeAlias

import orjson

from truclog.codes import Read
from truclog.engine.sides import partners
from truclog.errors import TruclogError
from truclog.names import name_key

if TYPE_CHECKING:
    import polars as pl

    from truclog.diagnostic import Diagnostic
    from truclog.format.reader import LogLine
    from truclog.validate.checker import CheckedGame
    from truclog.validate.tally import GameTally

BLOCK = 1 << 20
"""Bytes the offset reader takes at a time."""
BATCH_SECONDS = 0.1
"""The child process sends the first game at once, what it found next after this, and
then less and less often (twice the wait each time) down to every
:data:`LONGEST_BATCH_SECONDS`: a screenful comes at once, and the list of a long log is
not drawn again ten times a second."""
LONGEST_BATCH_SECONDS = 0.5
POLL_SECONDS = 0.05
TAIL = 32 << 20
"""Bytes of a grown log read at a time when following it."""

_GAME = b'"game"'


@dataclass(slots=True)
class GameEntry:
    """One row of the games list: where the game is and what it came to."""

    path: str
    line: int
    offset: int | None
    id: str
    players: tuple[str, ...]
    sides: str
    rules: str
    when: str
    score: tuple[int, ...]
    winner: str
    hands: int
    diagnostics: int
    errors: int
    duplicate_of: tuple[str, int] | None = None
    lost: int | None = None
    """The points the game's decisions lost, both hands face up, once the logs are
    reviewed (``None`` until then, and for a copy of a game listed before)."""

    @property
    def score_text(self) -> str:
        """The final score as the list shows it, e.g. ``12–7``."""
        return points_text(self.score)

    def __reduce__(self) -> tuple[type[GameEntry], tuple[Any, ...]]:
        """Pickled as its fields in order: the index process sends entries by the
        thousand, and they are read back several times faster than field by field."""
        return GameEntry, _ENTRY_FIELDS(self)


_ENTRY_FIELDS = operator.attrgetter(*GameEntry.__slots__)


@dataclass(slots=True)
class _GameStart:
    """What the ``game`` line itself says, read apart from the check."""

    offset: int
    data: dict[str, Any]


class GameLines:
    """The byte offset of each ``game`` line of a log, found by a forward pass.

    Lines holding ``"game"`` are noted with their offset as the pass goes, and
    forgotten once asked for, so only the lines between the reader and the
    validator are held. Asking again for an earlier line gives ``None``.
    """

    def __init__(self, path: str) -> None:
        self.path = path
        self.found: dict[int, _GameStart] = {}
        self.line = 1  # number of the line starting at self.base + self.start
        self.base = 0  # byte offset of self.data[0]
        self.data = b""
        self.start = 0
        self.stream: Any = None
        self.done = False
        self.binary: int | None = None
        """The line holding a NUL byte, if the log turned out to be binary data."""
        self.passing = False  # inside a line too long to be read: passed to its end

    def header(self, line: int) -> _GameStart | None:
        """The offset and fields of the game line numbered ``line`` (1-based)."""
        while self.line <= line and not self.done:
            self._read()
        for old in [n for n in self.found if n < line]:
            del self.found[old]
        return self.found.pop(line, None)

    def each(self) -> Iterator[tuple[int, _GameStart]]:
        """Every game line of the log in order: its number, offset and fields."""
        while not self.done:
            self._read()
            yield from sorted(self.found.items())
            self.found.clear()

    def close(self) -> None:
        """Closes the log, if open; the pass is over."""
        if self.stream is not None:
            self.stream.close()
            self.stream = None

    def _read(self) -> None:
        from truclog.format.reader import LONGEST_LINE, open_log

        if self.stream is None:
            self._stream = open_log(self.path)
            self.stream = self._stream.__enter__()
        try:
            chunk = self.stream.read(BLOCK)
        except (OSError, EOFError, ValueError):
            chunk = b""
        rest = self.data[self.start :] + chunk
        if (nul := rest.find(b"\0")) >= 0:  # binary data, not a log: read no further
            self.binary = self.line + rest.count(b"\n", 0, nul)
            chunk = b""
        if not chunk:
            self.done = True
            self.close()
            return
        if self.passing:
            chunk = self._pass(chunk)
        data = self.data[self.start :] + chunk
        self.base += self.start
        end = data.rfind(b"\n") + 1
        self._note(data, end)
        self.data, self.start = data, end
        if len(data) - end > LONGEST_LINE:  # no game line: passed without being kept
            self.base += len(data)
            self.data, self.start, self.passing = b"", 0, True

    def _pass(self, chunk: bytes) -> bytes:
        """What follows the end of the long line being passed in ``chunk`` (nothing
        while it goes on)."""
        cut = chunk.find(b"\n")
        if cut < 0:
            self.base += len(chunk)
            return b""
        self.base += cut + 1
        self.line += 1
        self.passing = False
        return chunk[cut + 1 :]

    def _note(self, data: bytes, end: int) -> None:
        """Note the game lines among the whole lines of ``data[:end]``."""
        counted = 0
        at = data.find(_GAME, 0, end)
        while at >= 0:
            start = data.rfind(b"\n", 0, at) + 1
            stop = data.find(b"\n", at)
            self.line += data.count(b"\n", counted, start)
            counted = start
            try:
                fields = orjson.loads(data[start:stop])
            except orjson.JSONDecodeError:
                fields = None
            if isinstance(fields, dict) and fields.get("type") == "game":
                self.found[self.line] = _GameStart(self.base + start, fields)
            at = data.find(_GAME, stop, end)
        self.line += data.count(b"\n", counted, end)


SAMPLE_DIR = "sample_logs"


def default_sources(cwd: Path | None = None) -> list[str]:
    """The sample logs: ``sample_logs/`` in the current directory, else those installed
    with truclog (:func:`truclog.samples`)."""
    from truclog import samples

    here = (cwd or Path.cwd()) / SAMPLE_DIR
    if here.is_dir():
        return [str(here)]
    return [str(samples())]


def path_problem(path: str, message: str) -> Diagnostic:
    """A diagnostic for a path that cannot be read at all."""
    from truclog.diagnostic import Diagnostic

    return Diagnostic(path, 0, Read.UNREADABLE, "error", message, None, None)


def expand_sources(sources: Sequence[str]) -> tuple[list[str], list[Diagnostic]]:
    """The log files of some paths, and a diagnostic for each path that cannot be read."""
    from truclog.format.reader import log_files

    files: list[str] = []
    problems: list[Diagnostic] = []
    for source in sources:
        try:
            found = log_files([source])
        except (TruclogError, OSError) as exc:
            problems.append(path_problem(str(source), str(exc)))
            continue
        if not found:
            problems.append(path_problem(str(source), "no *.jsonl or *.jsonl.gz log file here"))
        files.extend(str(f) for f in found)
    return files, problems


def _text(value: object, default: str = "") -> str:
    return value if isinstance(value, str) else default


def _rules_text(rules: object) -> str:
    """``classic``, or ``sackson+`` for a preset with overrides."""
    if isinstance(rules, dict):
        return _text(rules.get("preset"), "classic") + "+"
    return _text(rules, "classic")


def _when(data: dict[str, Any]) -> str:
    """The game's date, else the time of its game line (to the minute)."""
    date = _text(data.get("date"))
    stamp = _text(data.get("t"))
    return (date or stamp.replace("T", " "))[:16]


def points_text(points: Iterable[int]) -> str:
    """Each side's points as the lists show them.

    >>> points_text([12, 7])
    '12–7'
    """
    return "–".join(map(str, points))


def sides_text(teams: Sequence[str], players: Sequence[str]) -> str:
    """Who played against whom: the players, or in team play each team with its
    members (a team is its two players, whatever it was named that evening).

    >>> sides_text(["eux", "nous"], ["Ana", "Marc", "Lu", "Zoé"])
    'eux (Ana & Lu) v nous (Marc & Zoé)'
    >>> sides_text(["Ana+Lu", "Marc+Zoé"], ["Ana", "Marc", "Lu", "Zoé"])
    'Ana+Lu v Marc+Zoé'
    """
    if len(players) != 4:
        return " v ".join(players)
    shown = []
    for team, (first, second) in zip(teams[:2], partners(players), strict=False):
        plain = team in (f"{first}+{second}", f"{second}+{first}")
        shown.append(team if plain else f"{team} ({first} & {second})")
    return " v ".join(shown)


def winner_label(game: CheckedGame | GameTally) -> str:
    """How a game ended, as the browser shows it, whichever validator checked it: its
    winner; ``abandoned`` when a ``game_end`` closed it without one; ``—`` while it is
    unfinished."""
    if game.winner:
        return game.winner
    return "abandoned" if game.ended else "—" if not game.complete else ""


def entry_of(
    item: CheckedGame | GameTally, header: _GameStart | None, shown_path: str, names: dict[str, str]
) -> GameEntry:
    """The list entry of a checked game (``names`` shares equal strings between entries)."""
    from truclog.diagnostic import ERROR
    from truclog.validate.checker import CheckedGame

    data = header.data if header is not None else {}
    if isinstance(item, CheckedGame):
        data = data or item.header.model_dump(exclude_none=True)
        teams: tuple[str, ...] = item.teams
        hands = len(item.hands)
    else:
        teams = item.players if len(item.players) == 2 else tuple(item.score)
        hands = item.hands
    players = tuple(names.setdefault(p, p) for p in item.players)
    winner = winner_label(item)
    sides = sides_text(teams, players)
    return GameEntry(
        path=names.setdefault(shown_path, shown_path),
        line=item.line,
        offset=header.offset if header is not None else None,
        id=item.id,
        players=players,
        sides=sides,
        rules=names.setdefault(r := _rules_text(data.get("rules")), r),
        when=_when(data),
        score=tuple(item.score.get(team, 0) for team in teams),
        winner=names.setdefault(winner, winner),
        hands=hands,
        diagnostics=len(item.diagnostics),
        errors=sum(d.severity == ERROR for d in item.diagnostics),
    )


def index_log(
    path: str,
    shown_path: str,
    seen: dict[str, tuple[str, int]],
    names: dict[str, str],
    stop: Callable[[], bool] = lambda: False,
) -> Iterator[GameEntry | Diagnostic]:
    """The entries of one log's games, and its diagnostics outside games, in reading order.

    ``seen`` maps the fingerprints of games listed so far to where they are, so a
    copy of a game in any log read in the same run is marked as one.
    """
    from truclog.diagnostic import Diagnostic
    from truclog.format.copies import duplicate_warning
    from truclog.validate.quick import check_log as quick_check_log

    lines = GameLines(path)
    try:
        for item in quick_check_log(path):
            if stop():
                return
            if isinstance(item, Diagnostic):
                yield _shown(item, path, shown_path)
                continue
            entry = entry_of(item, lines.header(item.line), shown_path, names)
            warning = duplicate_warning(seen, item.fingerprint, shown_path, item.line, item.id)
            if warning is not None:
                entry.duplicate_of = seen[item.fingerprint]
                entry.diagnostics += 1
            yield entry
    finally:
        lines.close()


Found: TypeAlias = "list[GameEntry | Diagnostic]"
Pairs = list[tuple[str, str]]
"""Logs as (path to read, path to show) pairs."""


class Indexer:
    """The child process that lists the games of some logs, and the end of the pipe it
    writes to.

    It is given (path to read, path to show) pairs of sources, files or
    directories, expands them into log files (a log that is not a plain file is
    read once into ``spool_dir``), sends the pairs of files it reads and the
    problems of the sources, then batches of entries as it finds them. On Linux
    the browser forks it as soon as it starts, before Textual is even imported: the
    child reads the logs while the browser draws its first screen. It only reads
    logs and writes to its pipe, and leaves with ``os._exit``. Elsewhere the sources
    are expanded first and the child is started as ``python -m
    truclog.tui.browse.catalog``.
    """

    def __init__(self, sources: Sequence[tuple[str, str]], spool_dir: str | None = None) -> None:
        self.process: subprocess.Popen[bytes] | None = None
        self.pid = 0
        self.problems: list[Diagnostic] = []
        self.stopping = threading.Lock()
        if sys.platform == "linux":
            read, write = os.pipe()
            with warnings.catch_warnings():  # the app's threads stay behind: the child needs none
                warnings.simplefilter("ignore", DeprecationWarning)
                self.pid = os.fork()
            if self.pid == 0:
                os.close(read)
                _run_child(list(sources), spool_dir, write)
            os.close(write)
            self.stream: IO[bytes] = os.fdopen(read, "rb")
        else:
            pairs, self.problems = read_sources(sources, spool_dir)
            paths = [p for pair in pairs for p in pair]
            command = [sys.executable, "-m", __name__, *paths]
            self.process = subprocess.Popen(
                command, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                stderr=subprocess.DEVNULL,
            )  # fmt: skip
            assert self.process.stdout is not None
            self.stream = self.process.stdout

    def files(self, stop: Callable[[], bool] = lambda: False) -> tuple[Pairs, list[Diagnostic]]:
        """The log files the child reads, as (read, show) pairs, and the problems of the
        sources (nothing once ``stop()`` or when the child ended)."""
        for pairs, problems in self._messages(stop):
            return pairs, [*self.problems, *problems]
        return [], list(self.problems)

    def batches(self, stop: Callable[[], bool]) -> Iterator[tuple[Found, float | None]]:
        """Batches of entries and diagnostics, each with how much of the logs is read."""
        yield from self._messages(stop)

    def _messages(self, stop: Callable[[], bool]) -> Iterator[Any]:
        stream = self.stream
        while not stop():
            ready, _, _ = select.select([stream], [], [], POLL_SECONDS)
            if not ready:
                continue
            head = stream.read(8)
            if len(head) < 8:
                return
            yield pickle.loads(stream.read(int.from_bytes(head, "big")))

    def stop(self) -> None:
        """Kill the child (when it is still at work) and collect it, once, whichever
        thread asks first (the app as it closes, or the worker reading)."""
        with self.stopping:
            if self.process is not None:
                self.process.kill()
                self.process.wait()
            elif self.pid:
                with contextlib.suppress(ProcessLookupError):
                    os.kill(self.pid, signal.SIGKILL)
                os.waitpid(self.pid, 0)
                self.pid = 0
            self.stream.close()


def start_index(sources: Sequence[str]) -> tuple[Indexer, tempfile.TemporaryDirectory[str] | None]:
    """Start indexing ``sources`` (files or directories, shown as named), with a folder
    for copies of the logs that are not plain files, if some may be."""
    spool_dir = None
    if not all(os.path.isdir(s) or is_plain_file(s) for s in sources):
        spool_dir = tempfile.TemporaryDirectory(prefix="truclog-browse-")
    indexer = Indexer([(s, s) for s in sources], spool_dir.name if spool_dir else None)
    return indexer, spool_dir


def read_sources(
    sources: Sequence[tuple[str, str]], spool_dir: str | None
) -> tuple[Pairs, list[Diagnostic]]:
    """The log files of (read, show) source pairs, as (read, show) pairs; a file that is
    not a plain one is copied into ``spool_dir`` first and read from there."""
    pairs: Pairs = []
    files, problems = expand_sources([read for read, _ in sources])
    shown = dict(sources)
    for path in files:
        reading = path
        if spool_dir is not None and not is_plain_file(path):
            reading = spool(path, spool_dir)
        pairs.append((reading, shown.get(path, path)))
    return pairs, problems


def _run_child(sources: Pairs, spool_dir: str | None, out: int) -> NoReturn:
    """In the forked child: index, write to ``out``, and leave without the parent's
    clean-up (its app, its threads, its terminal are not the child's)."""
    code = 1
    try:
        gc.freeze()  # the parent's objects stay shared, never scanned
        os.setsid()  # out of the terminal's process group: its signals are the app's
        with contextlib.suppress(ValueError):
            signal.set_wakeup_fd(-1)  # a signal here must not wake the app's event loop
        quiet = os.open(os.devnull, os.O_RDWR)
        for fd in (0, 1, 2):
            os.dup2(quiet, fd)
        with open(out, "wb") as stream:
            _index_files(*read_sources(sources, spool_dir), stream)
        code = 0
    finally:
        os._exit(code)


def index_in_child(
    files: Sequence[tuple[str, str]], stop: Callable[[], bool]
) -> Iterator[tuple[Found, float | None]]:
    """Index logs in a child process (so the browser keeps its core and quits at once):
    batches of entries and diagnostics, each with how much of the logs is read. ``files``
    are (path to read, path to show) pairs; stops, killing the child, once ``stop()``."""
    indexer = Indexer(files)
    try:
        indexer.files(stop)
        yield from indexer.batches(stop)
    finally:
        indexer.stop()


def _index_files(pairs: Pairs, problems: list[Diagnostic], out: IO[bytes]) -> None:
    """In the child: send the (read, show) pairs of log files and the problems of the
    sources, then index each log, writing pickled batches."""
    sizes = [file_size(read) for read, _ in pairs]
    total, before = sum(sizes), 0
    seen: dict[str, tuple[str, int]] = {}
    names: dict[str, str] = {}
    batch: Found = []
    sent, wait = 0.0, 0.0  # the first game goes at once

    def send(message: object) -> None:
        data = pickle.dumps(message, protocol=pickle.HIGHEST_PROTOCOL)
        out.write(len(data).to_bytes(8, "big") + data)
        out.flush()

    send((pairs, problems))
    for (read, shown), size in zip(pairs, sizes, strict=True):
        for item in index_log(read, shown, seen, names):
            batch.append(item)
            if time.monotonic() - sent >= wait:
                done = before + (getattr(item, "offset", None) or 0)
                send((batch, min(done / total, 1.0) if total else None))
                batch, sent = [], time.monotonic()
                wait = min(2 * wait or BATCH_SECONDS, LONGEST_BATCH_SECONDS)
        before += size
    send((batch, 1.0))


def file_size(path: str) -> int:
    """The size of the file at ``path`` in bytes; 0 when it cannot be read."""
    try:
        return os.path.getsize(path)
    except OSError:
        return 0


def _shown(diagnostic: Diagnostic, path: str, shown_path: str) -> Diagnostic:
    from truclog.diagnostic import Diagnostic

    if diagnostic.path != path:
        return diagnostic
    d = diagnostic
    return Diagnostic(shown_path, d.line, d.code, d.severity, d.message, d.game, d.hand, d.legal)


def log_lines(path: str, offset: int | None, line: int) -> Iterator[LogLine]:
    """The lines of a log from line ``line``, which starts at byte ``offset`` (from the
    start of the log when the offset is unknown)."""
    from truclog.format.reader import open_log, read_stream

    with open_log(path) as stream:
        before = 0
        if offset is not None:
            stream.seek(offset)
            before = line - 1
        for item in read_stream(stream, path):
            item.line += before
            if item.line >= line:
                yield item


def game_lines(path: str, offset: int | None, line: int) -> Iterator[LogLine]:
    """The lines of the game whose ``game`` line is line ``line`` at byte ``offset``,
    up to the next game line."""
    for item in log_lines(path, offset, line):
        if item.line > line and _starts_game(item):
            return
        yield item


def whole_lines(path: str, offset: int, line: int, cap: int = TAIL) -> Iterator[LogLine]:
    """The lines from ``offset`` up to the last line end (a line being written is left
    for later), at most about ``cap`` bytes."""
    from truclog.format.reader import read_stream

    with open(path, "rb") as stream:
        stream.seek(offset)
        data = stream.read(cap)
    data = data[: data.rfind(b"\n") + 1]
    for item in read_stream(io.BytesIO(data), path):
        item.line += line - 1
        yield item


def index_tail(path: str, last: GameEntry) -> Iterator[GameEntry]:
    """The entries of the last listed game and of the games after it, read again from
    a log that grew (nothing when the game's offset is unknown)."""
    from truclog.validate.checker import CheckedGame
    from truclog.validate.games import check_lines

    if last.offset is None:
        return
    names: dict[str, str] = {}
    for item in check_lines(path, whole_lines(path, last.offset, last.line)):
        if isinstance(item, CheckedGame):
            header = _GameStart(last.offset, {}) if item.line == last.line else None
            entry = entry_of(item, header, last.path, names)
            if item.line != last.line:
                entry.offset = _offset_of(path, last.offset, last.line, item.line)
            yield entry


def _offset_of(path: str, offset: int, line: int, target: int) -> int | None:
    """The byte offset of line ``target``, counting lines from ``line`` at ``offset``."""
    with open(path, "rb") as stream:
        stream.seek(offset)
        for raw in stream:
            if line == target:
                return offset
            line += 1
            offset += len(raw)
    return None


def _starts_game(line: LogLine) -> bool:
    """Whether a line starts a game: a ``game`` line, valid or meant as one."""
    from truclog.format.events import GameEvent

    if isinstance(line.parsed, GameEvent):
        return True
    if line.parsed is not None or _GAME not in line.raw:
        return False
    try:
        data = orjson.loads(line.raw)
    except orjson.JSONDecodeError:
        return False
    return isinstance(data, dict) and data.get("type") == "game"


def open_game(entry: GameEntry, path: str) -> CheckedGame | None:
    """The game of ``entry`` checked again in full from its log at ``path`` (where its
    lines are read from; the entry names the log as the user gave it)."""
    from truclog.format.copies import duplicate_warning
    from truclog.validate.checker import CheckedGame
    from truclog.validate.games import check_lines

    for item in check_lines(entry.path, game_lines(path, entry.offset, entry.line)):
        if isinstance(item, CheckedGame):
            item.duplicate_of = entry.duplicate_of
            if entry.duplicate_of is not None:
                first_path, first_line = entry.duplicate_of
                seen = {item.fingerprint: entry.duplicate_of}
                warning = duplicate_warning(seen, item.fingerprint, entry.path, entry.line, item.id)
                if warning is not None and (first_path, first_line) != (entry.path, entry.line):
                    item.diagnostics.append(warning)
            return item
    return None


def find_game(path: str, game_id: str) -> CheckedGame | None:
    """The game of the log at ``path`` with this id (a game without one is named
    ``PATH:LINE``), checked in full; ``None`` when there is none."""
    from truclog.validate.checker import CheckedGame
    from truclog.validate.games import check_lines

    lines = GameLines(path)
    try:
        for line, header in lines.each():
            if header.data.get("id", f"{path}:{line}") == game_id:
                for item in check_lines(path, game_lines(path, header.offset, line)):
                    if isinstance(item, CheckedGame):
                        return item
    finally:
        lines.close()
    if lines.binary is not None:
        from truclog.format.reader import not_text

        problem = not_text(path, lines.binary).problem
        assert problem is not None
        raise TruclogError(f"{path}: {problem.code} {problem.message}")
    return None


def is_plain_file(path: str) -> bool:
    """Whether a log can be read again and sought in (a regular file)."""
    try:
        return stat.S_ISREG(os.stat(path).st_mode)
    except OSError:
        return True  # the reader says what is wrong with it


def spool(path: str, folder: str) -> str:
    """Copy a log that can be read only once (a pipe) into ``folder``; the copy's path."""
    suffix = ".jsonl.gz" if path.endswith(".gz") else ".jsonl"
    handle, copy = tempfile.mkstemp(suffix=suffix, dir=folder)
    with os.fdopen(handle, "wb") as out, open(path, "rb") as source:
        while block := source.read(BLOCK):
            out.write(block)
            if b"\0" in block:  # binary data: the reader stops there too
                break
    return copy


@dataclass(slots=True)
class Catalog:
    """Every game listed so far, the diagnostics outside games, and where each log is read."""

    entries: list[GameEntry] = field(default_factory=list)
    problems: list[Diagnostic] = field(default_factory=list)
    reading: dict[str, str] = field(default_factory=dict)
    """Log as the user named it -> the file its lines are read from (a copy for a pipe)."""
    columns: dict[str, pl.Series] = field(default_factory=dict)
    shared: dict[Any, Any] = field(default_factory=dict)
    lock: threading.Lock = field(default_factory=threading.Lock)
    """Held while the columns change: workers add entries, the list reads them."""

    def open(self, entry: GameEntry) -> CheckedGame | None:
        """The game of ``entry`` read again and checked from its log; ``None`` when it cannot be."""
        return open_game(entry, self.reading.get(entry.path, entry.path))

    def players(self) -> list[str]:
        """Every player of the listed games, in name order."""
        return sorted({p for e in self.entries for p in e.players}, key=name_key)

    def matching(
        self, text: str, start: int = 0, stop: int | None = None, lost: bool = False
    ) -> Sequence[int]:
        """The positions (from ``start`` up to ``stop``) of the entries whose id, sides or
        players contain ``text``, whatever the case; with ``lost``, only the games whose
        decisions lost points."""
        stop = len(self.entries) if stop is None else stop
        needle = text.strip().casefold()
        if not needle and not lost:
            return range(start, stop)
        chosen = None
        if needle:
            chosen = self.whole("search")[start:stop].str.contains(needle, literal=True)
        if lost:
            costly = self.whole("lost")[start:stop].fill_null(0) > 0
            chosen = costly if chosen is None else chosen & costly
        assert chosen is not None
        found = chosen.arg_true()
        if len(found) == stop - start:  # every one: no list of positions to build
            return range(start, stop)
        return (found + start).to_list() if start else found.to_list()

    def ordered(self, shown: Sequence[int], column: str | None, reverse: bool) -> Sequence[int]:
        """``shown`` sorted by a column of the list (reading order when ``None``)."""
        if column is None:
            return shown[::-1] if reverse else shown
        keys = self.whole(column)
        if isinstance(shown, range) and shown == range(len(keys)):
            return keys.arg_sort(descending=reverse, nulls_last=True).to_list()
        import polars as pl

        chosen = pl.Series("i", shown, dtype=pl.UInt32)
        order = keys.gather(chosen).arg_sort(descending=reverse, nulls_last=True)
        return chosen.gather(order).to_list()

    def add(self, entries: list[GameEntry]) -> None:
        """List more games (the values many entries share are kept once); their sort
        keys and filter text are added by :meth:`index_columns`."""
        self.entries.extend(self._shared(entries))

    def _shared(self, entries: list[GameEntry]) -> list[GameEntry]:
        shared = self.shared
        for entry in entries:
            entry.players = shared.setdefault(entry.players, entry.players)
            entry.path = shared.setdefault(entry.path, entry.path)
            entry.sides = shared.setdefault(entry.sides, entry.sides)
            entry.rules = shared.setdefault(entry.rules, entry.rules)
            entry.winner = shared.setdefault(entry.winner, entry.winner)
        return entries

    def index_columns(self) -> None:
        """Bring every list column up to the entries listed (a worker does it as games
        come, so that filtering and sorting find them ready)."""
        for name in SORT_KEYS:
            self.column(name)

    def column(self, name: str) -> pl.Series:
        """Every entry's value for a list column (``search`` or a sort key), as a polars
        series kept and extended as entries come."""
        import polars as pl

        with self.lock:
            count = len(self.entries)
            cached = self.columns.get(name)
            if cached is None:
                dtype = pl.Utf8 if name in TEXT_KEYS else pl.Float64
                cached = pl.Series(name, [], dtype=dtype)
            if len(cached) < count:
                key = SORT_KEYS[name]
                fresh = [key(e) for e in self.entries[len(cached) : count]]
                cached = cached.append(pl.Series(name, fresh, dtype=cached.dtype))
            self.columns[name] = cached
            return cached

    def whole(self, name: str) -> pl.Series:
        """:meth:`column` in one piece, as filtering and sorting read it."""
        column = self.column(name)
        if column.n_chunks() > 1:
            with self.lock:
                column = self.columns[name] = column.rechunk()
        return column

    def take_lost(self, entries: Sequence[GameEntry], lost: dict[str, list[int]]) -> None:
        """Give ``entries`` (the games listed when the review started) the points their
        decisions lost: ``lost`` has, per log, a number for each of its entries in order;
        a copy of a game listed before has none. The ``lost`` column is made again."""
        at: dict[str, int] = {}
        for entry in entries:
            values, k = lost.get(entry.path, []), at.get(entry.path, 0)
            at[entry.path] = k + 1
            if entry.duplicate_of is None and k < len(values):
                entry.lost = values[k]
        with self.lock:
            self.columns.pop("lost", None)
        self.column("lost")

    def entry_at(self, path: str, line: int) -> GameEntry | None:
        """The entry of the game that line ``line`` of log ``path`` belongs to."""
        found = None
        for entry in self.entries:
            if entry.path == path and entry.line <= line:
                found = entry
        return found

    def replace_last(self, entries: list[GameEntry]) -> None:
        """Put ``entries`` in place of the last entry (its log grew)."""
        with self.lock:
            kept = max(len(self.entries) - 1, 0)
            self.entries[kept:] = self._shared(entries)
            for name, column in self.columns.items():
                self.columns[name] = column.head(kept)


def _number(value: int) -> float:
    """A count as a sort key: any size (a score past 64 bits) orders right or near it."""
    return float(max(min(value, 10**300), -(10**300)))


SORT_KEYS: dict[str, Callable[[GameEntry], Any]] = {
    "search": lambda e: f"{e.id}\t{e.sides}\t{' '.join(e.players)}".casefold(),
    "id": lambda e: e.id,
    "file": lambda e: f"{e.path}\0{e.line:015d}",
    "time": lambda e: e.when,
    "players": lambda e: name_key(e.sides),
    "rules": lambda e: e.rules,
    "score": lambda e: _number(max(e.score, default=0)),
    "winner": lambda e: name_key(e.winner),
    "hands": lambda e: _number(e.hands),
    "diagnostics": lambda e: _number(e.diagnostics),
    "lost": lambda e: None if e.lost is None else _number(e.lost),
}
"""The key of each list column (and of the filter's ``search`` text)."""
TEXT_KEYS = frozenset({"search", "id", "file", "time", "players", "rules", "winner"})


if __name__ == "__main__":  # the child of index_in_child: its classes under their own name
    from truclog.tui.browse.catalog import _index_files as index_files

    arguments = sys.argv[1:]
    index_files(list(zip(arguments[::2], arguments[1::2], strict=True)), [], sys.stdout.buffer)
