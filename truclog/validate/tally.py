"""A game the quick core cleared whole: what a report needs of it.

The quick core (:mod:`truclog.validate.quick`) checks a plain legal game without a Python
object per line; what a report needs of it is a :class:`GameTally` (its score,
winner, hands and fingerprint), and what statistics count of its hands comes with it
as :class:`~truclog.validate.facts.GameFacts` when asked for. Every other game is checked
line by line and comes as a :class:`~truclog.validate.CheckedGame`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, NamedTuple

from truclog.diagnostic import Diagnostic

if TYPE_CHECKING:
    from truclog.format.events import GameEvent
    from truclog.format.header import PlainHeader
    from truclog.validate.facts import GameFacts


class GameTally(NamedTuple):
    """A game checked whole by the quick core (:mod:`truclog.validate.quick`): all a report needs
    of it. Only a game without an error comes this way; its one possible diagnostic is
    the warning that it stops unfinished. ``ended``: a ``game_end`` line closed the
    game; ``facts``: what statistics count of its hands, when the quick core was asked
    for it. A named tuple, made whole, which is made at start-up in a fraction of the
    time of a dataclass."""

    path: str
    line: int
    id: str
    players: tuple[str, ...]
    score: dict[str, int]
    winner: str | None
    complete: bool
    hands: int
    fingerprint: str
    diagnostics: list[Diagnostic]
    header: GameEvent | PlainHeader | None = None
    ended: bool = False
    facts: GameFacts | None = None

    @property
    def hand_count(self) -> int:
        """How many hands the game has."""
        return self.hands
