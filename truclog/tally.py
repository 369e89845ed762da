"""A game the quick core cleared whole: its tally, and the facts statistics count of it.

The quick core (:mod:`truclog.quick`) checks a plain legal game without a Python
object per line; what a report needs of it is a :class:`GameTally` (its score,
winner, hands and fingerprint), and what statistics count of its hands comes as
:class:`GameFacts` when asked for. Every other game is checked line by line and
comes as a :class:`~truclog.validate.CheckedGame`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from truclog.diagnostic import Diagnostic
from truclog.rules import Rules

if TYPE_CHECKING:
    from truclog.events import GameEvent
    from truclog.header import PlainHeader


@dataclass(slots=True)
class GameTally:
    """A game checked whole by the quick core (:mod:`truclog.quick`): all a report needs
    of it. Only a game without an error comes this way; its one possible diagnostic is
    the warning that it stops unfinished."""

    path: str
    line: int
    id: str
    players: tuple[str, ...]
    score: dict[str, int]
    winner: str | None
    complete: bool
    hands: int
    fingerprint: str
    diagnostics: list[Diagnostic] = field(default_factory=list)
    header: GameEvent | PlainHeader | None = None
    ended: bool = False
    """A ``game_end`` line closed the game."""
    facts: GameFacts | None = None
    """What statistics count of its hands, when the quick core was asked for it."""

    @property
    def hand_count(self) -> int:
        return self.hands


@dataclass(frozen=True, slots=True)
class GameFacts:
    """What statistics count of a game the quick core cleared, as columns (lists), as
    ``truclog._quick.scan`` gives them: its rules and sides; its ``hands`` (number,
    dealer seat, score before it, winner side (-1 none), points, how it ended, reste,
    tricks, first trick (-1 tied, -2 none), each of four seats' dealt ranks, high to
    low, ``None`` unless all three are known); the ``actions`` statistics count, its
    raises, answers and redeals (the hand's index, the seat, then the columns of
    ``truclog.stats.tables`` but the strength and the review); the questions of the
    raises' strengths (``raises``) and answers' reviews (``answers``), each with the
    index of its action; and the day of its first timed line."""

    rules: Rules
    teams: tuple[str, str]
    hands: tuple[list[Any], ...]
    actions: tuple[list[Any], ...]
    raises: list[tuple[Any, ...]]
    answers: list[tuple[Any, ...]]
    first_day: str | None

    @property
    def hand_count(self) -> int:
        return len(self.hands[0])
