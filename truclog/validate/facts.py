"""What statistics count of a game the quick core cleared, as the core gives it.

``truclog stats`` asks the quick core (:mod:`truclog.validate.quick`) for the facts of the
hands of each game it clears (``truclog.validate._quick.scan(..., facts=...)``); they come
as :class:`GameFacts` on the game's :class:`~truclog.validate.tally.GameTally`, already in
the columns ``truclog.stats.tables`` keeps: as lists, or as rows of C values in a
``truclog.validate._quick.Facts`` (``quick.ROWS_FACTS``), which a batch of statistics
takes whole and hands to polars without a Python object per value. ``truclog
validate`` never asks for them, nor imports this module.
"""

from __future__ import annotations

from typing import Any, NamedTuple

from truclog.engine.rules import Rules

FACT_ACTIONS = (
    "row",
    "seat",
    "type",
    "reste",
    "accepted",
    "pending",
    "strength",
    "answer",
    "answer_worth_accept",
    "answer_worth_fold",
    "sound",
    "right",
    "points_given",
    "to",
    "position",
    "lost",
    "card",
    "value_before",
)
"""The columns of the actions of :class:`GameFacts`, in order: the hand's index in the
game's facts (``row``) and the actor's seat, the ``actions`` columns statistics count
that these do not tell, and a play's rank and the hand's value then (its review is
worked out from them)."""

REVIEW = ("line", "best", "stake")
"""The columns of actions that the review of decisions asks for, after those statistics
count: the line an action is written on; of a decision judged, the ranks (high to low)
or the answers (``accept``, ``fold``) that lose nothing in hindsight (``None`` when not
known), and the points at stake (what separates the decider's side winning the hand
from losing it at its value: for an answer, at the raised value)."""


class GameFacts(NamedTuple):
    """What statistics count of a game the quick core cleared, as columns (lists), as
    ``truclog.validate._quick.scan`` gives them: its rules and sides; its ``hands`` (number,
    dealer seat, score before it, winner side (-1 none), points, how it ended, reste,
    tricks, first trick (-1 tied, -2 none), each of four seats' dealt ranks, high to
    low, ``None`` unless all three are known); the ``actions`` statistics count, its
    raises, answers and redeals (the hand's index, the seat, then the columns of
    ``truclog.stats.tables``, the raises' strengths and the answers' reviews
    included; asked for :data:`~truclog.validate.quick.REVIEW_FACTS`, three columns
    more: each action's line, and a decision's best and stake, see :data:`REVIEW`); and
    the day of its first timed line. Asked for as :data:`~truclog.validate.quick.ROWS_FACTS`,
    the hands and actions are empty and ``rows`` holds them (a ``_quick.Facts``). A named
    tuple, made for each game in a fraction of the time of a dataclass."""

    rules: Rules
    teams: tuple[str, str]
    hands: tuple[list[Any], ...]
    actions: tuple[list[Any], ...]
    first_day: str | None
    rows: Any = None
    """Asked for :data:`~truclog.validate.quick.ROWS_FACTS` or
    :data:`~truclog.validate.quick.EXPORT_FACTS`: the hands and actions, as a
    ``truclog.validate._quick.Facts`` (``hands`` and ``actions`` are then empty)."""
    wide: bool = False
    """Asked for :data:`~truclog.validate.quick.EXPORT_FACTS`: :attr:`rows` holds an
    export's rows too: a row per action line (its hand's row, line number, step in the
    hand, type, seat, card, to, reste, accepted, trick, place in the trick, the hand's
    value and the raise pending before it, the raiser's seat, its action's row
    (``None`` for a deal or a show), its time); of each hand, its value at its end,
    whether a redeal was asked and granted, and its raises; of each action, the best
    decisions (ranks highest first, or ``accept`` and ``fold``, joined by commas) and
    the points at stake."""

    blocks: Any = None
    """Instead of :attr:`rows`, of a long game for an export: its rows told again a
    block of hands at a time, a ``_quick.Facts`` per block (a ``_quick.HandBlocks``,
    whose ``hands`` are the game's), so that they are never all held at once."""

    @property
    def hand_count(self) -> int:
        """How many hands the facts describe."""
        if self.blocks is not None:
            return int(self.blocks.hands)
        return len(self.hands[0]) if self.rows is None else int(self.rows.hands)
