"""What the browser's background workers tell its screens, as typed messages."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from textual.message import Message

if TYPE_CHECKING:
    from truclog.diagnostic import Diagnostic
    from truclog.stats.leaks import LeakCounts
    from truclog.tui.browse.catalog import GameEntry
    from truclog.tui.browse.mistakes import Mistakes
    from truclog.tui.browse.standings import Hindsight
    from truclog.validate.checker import CheckedGame


@dataclass
class GamesRead(Message):
    """The app listed more games (and found diagnostics outside games).

    The app has put the ``entries`` in the catalog from position ``start`` on.
    ``fraction`` is how much of the logs is read (``None`` when unknown);
    ``done`` says that everything is read; ``replaced`` entries stand for the
    last game listed, read again because its log grew.
    """

    entries: list[GameEntry]
    problems: list[Diagnostic]
    fraction: float | None
    done: bool
    start: int
    replaced: bool = False


@dataclass
class LogsOpened(Message):
    """The index worker found the logs to read: (the file read, the log as named) pairs."""

    pairs: list[tuple[str, str]]


@dataclass
class GamesIndexed(Message):
    """The index worker read more games (and diagnostics outside games), for the app to
    list in its catalog (on its own thread) and show as :class:`GamesRead`."""

    entries: list[GameEntry]
    problems: list[Diagnostic]
    fraction: float | None
    done: bool


@dataclass
class LogGrew(Message):
    """The log of the last game listed grew: ``entries`` stand for that game, read again,
    and the games after it; ``game`` is the first of them opened (``None``: unreadable)."""

    last: GameEntry
    entries: list[GameEntry]
    game: CheckedGame | None


@dataclass
class StatsCounted(Message):
    """The statistics worker counted ``hands`` hands of about ``total``."""

    hands: int
    total: int


@dataclass
class StatsReady(Message):
    """Every player's statistics (rows as ``truclog stats`` reports them), then again
    with their ratings and costliest answers (``hindsight``)."""

    rows: list[dict[str, Any]]
    games: int
    hindsight: Hindsight | None = None


@dataclass
class GamesReviewed(Message, bubble=False):
    """The review worker has read ``done`` bytes of the logs' ``total``."""

    done: int
    total: int


@dataclass
class MistakesFound(Message, bubble=False):
    """The review worker judged every game: each player's costliest decisions (and the
    games list's entries have the points their decisions lost)."""

    mistakes: Mistakes


@dataclass
class ReviewStopped(Message, bubble=False):
    """The review stopped before the end: why, in words."""

    why: str


@dataclass
class SituationsCounted(Message):
    """The leaks worker counted the situations of ``hands`` hands of about ``total``."""

    hands: int
    total: int


@dataclass
class LeaksCounted(Message):
    """The leaks worker counted every player's situations in the logs."""

    counts: LeakCounts


@dataclass
class HandsFound(Message):
    """The search worker found these hands (game, hand position and the row to show)
    among the ``searched`` games of ``total``."""

    found: list[tuple[GameEntry, int, tuple[Any, ...]]]
    searched: int
    total: int
    done: bool


@dataclass
class GameGrew(Message):
    """The log of an open game grew: ``game`` is that game read again."""

    game: CheckedGame
    entry: GameEntry
