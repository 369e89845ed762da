"""A problem found in a log: where it is, its code, how grave it is, and what it is.

The validator (:mod:`truclog.validate`) reports every illegal line and wrong claim as
a :class:`Diagnostic`; so does quick validation (:mod:`truclog.validate.quick`), which needs
nothing else of the validator for a game the quick core cleared: its one possible
diagnostic is the warning that it stops :func:`unfinished`.

>>> warning = unfinished("a.jsonl", 40, "g1", {"Ana": 7, "Marc": 9}, 12, 5, mid_hand=True)
>>> print(warning)
a.jsonl:40: W801 the game stops in the middle of hand 5 at Ana 7, Marc 9, before anyone reached 12, without a game_end marking it abandoned
>>> warning.severity, warning.hand
('warning', 5)
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import NamedTuple

from truclog.codes import Check

ERROR = "error"
WARNING = "warning"

KEPT_PER_GAME = 1000
"""Diagnostics a game keeps (and unchecked lines a hand keeps); the rest are counted."""


class Diagnostic(NamedTuple):
    """One problem: the file and line it is on, its code (see :mod:`truclog.codes`),
    :data:`ERROR` or :data:`WARNING`, what it is, and the game and hand it is in, with
    what was legal instead of an illegal line. A named tuple: made at start-up in a
    fraction of the time of a dataclass, and sent whole between processes."""

    path: str
    line: int
    code: str
    severity: str
    message: str
    game: str | None = None
    hand: int | None = None
    legal: tuple[str, ...] = ()

    def __str__(self) -> str:
        return f"{self.path}:{self.line}: {self.code} {self.message}"


def unfinished(
    path: str,
    line: int,
    game: str,
    score: Mapping[str, int],
    target: int,
    hand: int,
    mid_hand: bool,
) -> Diagnostic:
    """The warning for a game that stops at ``score`` (after hand ``hand``, or in the
    middle of it when ``mid_hand``), before anyone reached ``target``, without a
    ``game_end`` marking it abandoned (``line``: its last line)."""
    where = f" in the middle of hand {hand}" if mid_hand else ""
    return Diagnostic(
        path,
        line,
        Check.UNFINISHED,
        WARNING,
        f"the game stops{where} at {score_words(score)}, before anyone reached "
        f"{target}, without a game_end marking it abandoned",
        game,
        hand or None,
    )


def score_words(score: Mapping[str, int] | None, sep: str = ", ") -> str:
    """A score in words, each side with its points, for messages, transcripts and screens.

    >>> score_words({"Ana": 7, "Marc": 9}), score_words({"Ana": 7, "Marc": 9}, " · ")
    ('Ana 7, Marc 9', 'Ana 7 · Marc 9')
    """
    return sep.join(f"{name} {points}" for name, points in (score or {}).items())


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
        """Count line ``line`` (line numbers come in increasing order)."""
        if not self.count:
            self.first = line
        self.last = line
        self.count += 1

    @property
    def span(self) -> str:
        """The first and last line counted, as ``first-last``."""
        return f"{self.first}-{self.last}"
