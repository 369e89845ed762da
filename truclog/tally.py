"""A game the quick core cleared whole: what a report needs of it.

The quick core (:mod:`truclog.quick`) checks a plain legal game without a Python
object per line; what a report needs of it is a :class:`GameTally` (its score,
winner, hands and fingerprint), and what statistics count of its hands comes with it
as :class:`~truclog.facts.GameFacts` when asked for. Every other game is checked
line by line and comes as a :class:`~truclog.validate.CheckedGame`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from truclog.diagnostic import Diagnostic

if TYPE_CHECKING:
    from truclog.events import GameEvent
    from truclog.facts import GameFacts
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
