"""A log's lines taken game by game, and the lines outside any game.

Each ``game`` line starts a game that runs to the next one. :func:`check_lines`
gives each game to the line-by-line validator (:mod:`truclog.validate.checker`,
imported when a first game needs it), unless it comes already checked whole by the quick
core (a :class:`~truclog.validate.tally.GameTally`), and reports the lines that belong to
no valid game once per run of them. :func:`check_log` checks a file so, and
:func:`check_logs` files and folders, marking copies of a game and checking rubbers.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import TYPE_CHECKING, cast

from truclog.codes import Check
from truclog.diagnostic import ERROR, Diagnostic, Lines
from truclog.errors import TruclogError
from truclog.format.copies import duplicate_warning
from truclog.format.parts import Source, game_line, name_of, read_source
from truclog.format.reader import log_files
from truclog.validate.rubbers import Rubbers, check_rubber, rubber_of
from truclog.validate.tally import GameTally

if TYPE_CHECKING:
    from truclog.format.events import GameEvent
    from truclog.format.reader import LogLine
    from truclog.validate.checker import CheckedGame, GameChecker


def check_lines(
    path: str, lines: Iterable[LogLine | GameTally], keep_hands: bool = True
) -> Iterator[CheckedGame | GameTally | Diagnostic]:
    """Check the lines of one file, where some games may come checked already (a
    :class:`GameTally` stands for such a game: all its lines, from its game line on).
    Without ``keep_hands``, a game checked line by line keeps its last hands alone
    (its ``hand_count`` counts them all): what a report needs."""
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
            started = _start(path, line, keep_hands)
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


def check_log(source: Source, keep_hands: bool = True) -> Iterator[CheckedGame | Diagnostic]:
    """Check one file (or ``-``, or a part of a file), yielding each game once its last
    line is read."""
    for item in check_lines(name_of(source), read_source(source), keep_hands):
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


def _start(path: str, line: LogLine, keep_hands: bool = True) -> GameChecker | Diagnostic:
    """The checker of the game ``line`` starts, or why the line starts none."""
    header = cast("GameEvent | None", line.event if line.type == "game" else None)
    if header is None:
        assert line.problem is not None
        return Diagnostic(path, line.line, line.problem.code, ERROR, line.problem.message)
    from truclog.validate.checker import GameChecker  # the engine, first needed here

    try:
        return GameChecker(path, line, header, keep_hands)
    except TruclogError as exc:
        return Diagnostic(path, line.line, Check.BAD_GAME, ERROR, f"bad game line: {exc.message}")


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
