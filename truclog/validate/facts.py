"""What statistics count of a game the quick core cleared, as the core gives it.

``truclog stats`` asks the quick core (:mod:`truclog.validate.quick`) for the facts of the
hands of each game it clears (``truclog.validate._quick.scan(..., facts=True)``); they come
as :class:`GameFacts` on the game's :class:`~truclog.validate.tally.GameTally`, already as
the columns ``truclog.stats.tables`` keeps. ``truclog validate`` never asks for
them, nor imports this module.
"""

from __future__ import annotations

from typing import Any, NamedTuple

from truclog.engine.rules import Rules


class GameFacts(NamedTuple):
    """What statistics count of a game the quick core cleared, as columns (lists), as
    ``truclog.validate._quick.scan`` gives them: its rules and sides; its ``hands`` (number,
    dealer seat, score before it, winner side (-1 none), points, how it ended, reste,
    tricks, first trick (-1 tied, -2 none), each of four seats' dealt ranks, high to
    low, ``None`` unless all three are known); the ``actions`` statistics count, its
    raises, answers and redeals (the hand's index, the seat, then the columns of
    ``truclog.stats.tables``, the raises' strengths and the answers' reviews
    included); and the day of its first timed line. A named tuple, made for each game
    in a fraction of the time of a dataclass."""

    rules: Rules
    teams: tuple[str, str]
    hands: tuple[list[Any], ...]
    actions: tuple[list[Any], ...]
    first_day: str | None
    lines: tuple[list[Any], ...] | None = None
    """For an export (``wide``): a row per action line, as columns (its hand's index in
    ``hands``, line number, step in the hand, type, seat, card, to, reste, accepted, trick,
    place in the trick, the hand's value and the raise pending before it, the raiser's
    seat, its row in ``actions`` (``None`` for a deal or a show), its time)."""
    hands_more: tuple[list[Any], ...] | None = None
    """For an export: each hand's value at its end, whether a redeal was asked and granted,
    and its raises."""
    actions_more: tuple[list[Any], ...] | None = None
    """For an export: of each row of ``actions``, the best decisions (ranks highest first,
    or ``accept`` and ``fold``, joined by commas) and the points at stake."""

    @property
    def hand_count(self) -> int:
        """How many hands the facts describe."""
        return len(self.hands[0])
