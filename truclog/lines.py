"""A log's lines taken game by game, and the lines outside any game.

Each ``game`` line starts a game that runs to the next one. :func:`check_lines`
gives each game to the line-by-line validator (:mod:`truclog.validate`, imported
when a first game needs it), unless it comes already checked whole by the quick
core (a :class:`~truclog.tally.GameTally`), and reports the lines that belong to
no valid game once per run of them.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import TYPE_CHECKING, cast

import orjson

from truclog.codes import Check
from truclog.diagnostic import ERROR, Diagnostic
from truclog.errors import TruclogError
from truclog.tally import GameTally

if TYPE_CHECKING:
    from truclog.events import GameEvent
    from truclog.reader import LogLine
    from truclog.validate import CheckedGame, GameChecker


def check_lines(
    path: str, lines: Iterable[LogLine | GameTally]
) -> Iterator[CheckedGame | GameTally | Diagnostic]:
    """Check the lines of one file, where some games may come checked already (a
    :class:`GameTally` stands for such a game: all its lines, from its game line on)."""
    checker: GameChecker | None = None
    orphans = _Orphans(path)
    for line in lines:
        new_game = isinstance(line, GameTally) or _starts_game(line)
        if new_game:
            if checker is not None:
                yield checker.finish()
                checker = None
            yield from orphans.flush()
        if isinstance(line, GameTally):
            yield line
        elif new_game:
            started = _start(path, line)
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
        yield checker.finish()
    yield from orphans.flush()


def _starts_game(line: LogLine) -> bool:
    """Whether a line starts a game: a ``game`` line, valid or meant as one."""
    event = line.parsed
    if event is None:
        return _looks_like_game(line.raw)
    return event.type == "game"


def _looks_like_game(raw: bytes) -> bool:
    """Whether a line that is not a valid event was meant as a ``game`` line."""
    if b"game" not in raw and b"\\u" not in raw:  # no need to parse it to know
        return False
    try:
        data = orjson.loads(raw)
    except orjson.JSONDecodeError:
        return False
    return isinstance(data, dict) and data.get("type") == "game"


def _start(path: str, line: LogLine) -> GameChecker | Diagnostic:
    """The checker of the game ``line`` starts, or why the line starts none."""
    header = cast("GameEvent | None", line.event if line.type == "game" else None)
    if header is None:
        assert line.problem is not None
        return Diagnostic(path, line.line, line.problem.code, ERROR, line.problem.message)
    from truclog.validate import GameChecker  # the engine and its records, first needed here

    try:
        return GameChecker(path, line, header)
    except TruclogError as exc:
        return Diagnostic(path, line.line, Check.BAD_GAME, ERROR, f"bad game line: {exc.message}")


class Lines:
    """Line numbers in increasing order, kept as their first, last and count.

    >>> lines = Lines()
    >>> for number in (4, 5, 9):
    ...     lines.add(number)
    >>> lines.count, lines.span
    (3, '4-9')
    """

    def __init__(self) -> None:
        self.first = 0
        self.last = 0
        self.count = 0

    def add(self, line: int) -> None:
        if not self.count:
            self.first = line
        self.last = line
        self.count += 1

    @property
    def span(self) -> str:
        return f"{self.first}-{self.last}"


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
