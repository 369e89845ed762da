"""A log's lines taken game by game, and the lines outside any game.

Each ``game`` line starts a game that runs to the next one. :func:`check_lines`
gives each game to the line-by-line validator (:mod:`truclog.validate.checker`,
imported when a first game needs it), unless it comes already checked whole by the quick
core (a :class:`~truclog.validate.tally.GameTally`), and reports the lines that belong to
no valid game once per run of them. :func:`check_log` checks a file so, and
:func:`check_logs` files and folders, marking copies of a game and checking rubbers.

A game checked line by line is held in memory up to :data:`HANDS_HELD` hands; the
hands of a longer game are checked again from its log each time they are read
(:class:`HandsOnFile`), one at a time, so that a game of any length is read in the
memory of a hand.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from contextlib import AbstractContextManager
from typing import TYPE_CHECKING, Any, cast, overload

from truclog.codes import Check
from truclog.diagnostic import ERROR, Diagnostic, Lines
from truclog.errors import TruclogError
from truclog.format.copies import duplicate_warning
from truclog.format.parts import Source, game_line, name_of, read_source
from truclog.format.reader import (
    STDIN,
    STDIN_NAME,
    log_files,
    open_log,
    read_stream,
    skip_lines,
)
from truclog.validate.rubbers import Rubbers, check_rubber, rubber_of
from truclog.validate.tally import GameTally

if TYPE_CHECKING:
    from truclog.format.events import GameEvent
    from truclog.format.reader import LogLine
    from truclog.format.spool import InputCopy
    from truclog.validate.checker import CheckedGame, CheckedHand, GameChecker

HANDS_HELD = 1000
"""The hands of a game checked line by line held in memory: the hands of a longer game
are checked again from its log when they are read (:class:`HandsOnFile`)."""


def check_lines(
    path: str, lines: Iterable[LogLine | GameTally], keep_hands: bool = True
) -> Iterator[CheckedGame | GameTally | Diagnostic]:
    """Check the lines of the log ``path`` (read from it, numbered as in it), where some
    games may come checked already (a :class:`GameTally` stands for such a game: all its
    lines, from its game line on). A game checked line by line comes with its hands,
    those of a game of more than :data:`HANDS_HELD` hands as a :class:`HandsOnFile`
    (from standard input, read through an :class:`~truclog.format.spool.InputCopy`, which it
    reads them again from; else held whole). Without ``keep_hands``, it keeps its last
    hands alone (its ``hand_count`` counts them all): what a report needs."""
    checker: GameChecker | None = None
    orphans = _Orphans(path)
    spool: InputCopy | None = None
    hold: int | None = HANDS_HELD if keep_hands else 1
    for line in lines:
        new_game = isinstance(line, GameTally) or _starts_game(line)
        if new_game:
            if checker is not None:
                yield _finished(checker, keep_hands, spool)
                checker = None
            yield from orphans.flush()
        if isinstance(line, GameTally):
            yield line
        elif new_game:
            if path == STDIN and keep_hands:  # read again from its spool, if any
                from truclog.format.spool import reading_spool

                spool = reading_spool()
                hold = None if spool is None else HANDS_HELD
            started = _start(path, line, hold)
            checker = None if isinstance(started, Diagnostic) else started
            if isinstance(started, Diagnostic):
                yield started
                orphans.reason = "after an invalid game line"
        elif checker is not None:
            checker.feed(line)
        elif line.problem is not None:
            yield Diagnostic(path, line.line, line.problem.code, ERROR, line.problem.message)
        else:
            orphans.lines.add(line.line)
    if checker is not None:
        yield _finished(checker, keep_hands, spool)
    yield from orphans.flush()


def _finished(checker: GameChecker, keep_hands: bool, spool: InputCopy | None) -> CheckedGame:
    """The game checked, its hands to be read again from its log (or standard input's
    ``spool``) if it let some go."""
    game = checker.finish()
    if keep_hands and game.hands_let_go:
        game.hands = HandsOnFile.of(game, spool)
        game.hands_let_go = 0
    return game


def check_log(source: Source, keep_hands: bool = True) -> Iterator[CheckedGame | Diagnostic]:
    """Check one file (or ``-``, or a part of a file), yielding each game once its last
    line is read; standard input, with ``keep_hands``, through a
    :class:`~truclog.format.spool.InputCopy`."""
    lines = read_source(source, spool=keep_hands)
    for item in check_lines(name_of(source), lines, keep_hands):
        assert not isinstance(item, GameTally)
        yield item


def check_logs(sources: Iterable[str]) -> Iterator[CheckedGame | Diagnostic]:
    """Check files, directories (recursively), ``.gz`` files or ``-``; duplicates across files."""
    first_seen: dict[str, tuple[str, int]] = {}
    rubbers = Rubbers()
    for path in log_files(sources):
        for item in check_log(path):
            if not isinstance(item, Diagnostic):  # a checked game
                warning = duplicate_warning(
                    first_seen, item.fingerprint, item.path, item.line, item.id
                )
                if warning is not None:
                    item.duplicate_of = first_seen[item.fingerprint]
                    item.diagnostics.append(warning)
                rubber = rubber_of(item)
                if rubber is not None:
                    problem = check_rubber(rubbers, item.path, item.line, item.id, rubber)
                    item.diagnostics.extend([problem] if problem is not None else [])
            yield item


def _starts_game(line: LogLine) -> bool:
    """Whether a line starts a game: a ``game`` line, valid or meant as one."""
    event = line.parsed
    if event is None:
        return game_line(line.raw)
    return event.type == "game"


def _start(path: str, line: LogLine, hold: int | None = None) -> GameChecker | Diagnostic:
    """The checker of the game ``line`` starts, or why the line starts none."""
    header = cast("GameEvent | None", line.event if line.type == "game" else None)
    if header is None:
        assert line.problem is not None
        return Diagnostic(path, line.line, line.problem.code, ERROR, line.problem.message)
    from truclog.validate.checker import GameChecker  # the engine, first needed here

    try:
        return GameChecker(path, line, header, hold)
    except TruclogError as exc:
        return Diagnostic(path, line.line, Check.BAD_GAME, ERROR, f"bad game line: {exc.message}")


class HandsOnFile(Sequence["CheckedHand"]):
    """The hands of a long game, checked again from its log (the lines of the game
    alone, up to its last line when it was first checked) each time they are read:
    iterating holds one hand at a time, indexing goes on from the hand read last or
    reads the game again from its start. A game read from standard input is read again
    from its ``spool``. A log changed since (the game's lines no longer the same)
    raises :class:`~truclog.errors.TruclogError`."""

    __slots__ = ("_read", "fingerprint", "last", "line", "path", "size", "spool")

    def __init__(
        self,
        path: str,
        line: int,
        last: int,
        size: int,
        fingerprint: str,
        spool: InputCopy | None = None,
    ) -> None:
        self.path, self.line, self.last = path, line, last
        self.size, self.fingerprint = size, fingerprint
        self.spool = spool
        self._read: tuple[int, Iterator[CheckedHand]] | None = None
        """The number of the next hand of the reading in progress, and its hands."""

    @classmethod
    def of(cls, game: CheckedGame, spool: InputCopy | None = None) -> HandsOnFile:
        """The hands of ``game``, checked whole already (its hands let go)."""
        return cls(game.path, game.line, game.last_line, game.hand_count, game.fingerprint, spool)

    def __reduce__(self) -> tuple[Any, ...]:
        if self.spool is not None:
            raise TypeError("the hands of a game read from standard input stay in its process")
        return HandsOnFile, (self.path, self.line, self.last, self.size, self.fingerprint)

    def __len__(self) -> int:
        return self.size

    def __iter__(self) -> Iterator[CheckedHand]:
        return self._hands()

    @overload
    def __getitem__(self, index: int) -> CheckedHand: ...
    @overload
    def __getitem__(self, index: slice) -> list[CheckedHand]: ...
    def __getitem__(self, index: int | slice) -> CheckedHand | list[CheckedHand]:
        if isinstance(index, slice):
            return [self[at] for at in range(*index.indices(self.size))]
        at = index + self.size if index < 0 else index
        if not 0 <= at < self.size:
            raise IndexError("hand index out of range")
        if self._read is None or self._read[0] > at:
            self._read = (0, self._hands())
        number, hands = self._read
        for _ in range(number, at):
            next(hands)
        self._read = (at + 1, hands)
        return next(hands)

    def _hands(self) -> Iterator[CheckedHand]:
        from truclog.validate.checker import GameChecker

        with self._opened() as stream:
            found = skip_lines(stream, self.line - 1)
            lines = read_stream(stream, STDIN_NAME if self.path == STDIN else self.path, found)
            first = next(lines, None)
            header = cast("GameEvent | None", None if first is None else first.event)
            if first is None or first.line != self.line or header is None or header.type != "game":
                raise TruclogError(f"{self.path}: line {self.line} is no longer a game line")
            gone: list[CheckedHand] = []
            checker = GameChecker(self.path, first, header, 1, gone)
            for line in lines:
                if line.line > self.last or _starts_game(line):
                    break
                checker.feed(line)
                yield from gone
                gone.clear()
            game = checker.finish()
            if game.fingerprint != self.fingerprint:
                raise TruclogError(f"{self.path}: the game of line {self.line} changed")
            yield from game.hands

    def _opened(self) -> AbstractContextManager[Any]:
        """The log, or what its spool copied of it."""
        return open_log(self.path) if self.spool is None else self.spool.reader()

    def __repr__(self) -> str:
        return f"<{self.size} hands of the game at {self.path}:{self.line}>"


class _Orphans:
    """Lines that belong to no valid game, reported once per run of them."""

    def __init__(self, path: str) -> None:
        self.path = path
        self.reason = "before any game line"
        self.lines = Lines()

    def flush(self) -> Iterator[Diagnostic]:
        if self.lines.count:
            first, count = self.lines.first, self.lines.count
            what = "this line" if count == 1 else f"{count} lines, {self.lines.span},"
            yield Diagnostic(
                self.path,
                first,
                Check.NO_GAME,
                ERROR,
                f"{what} {self.reason}: not checked (no game to belong to)",
            )
        self.lines = Lines()
        self.reason = "before any game line"
