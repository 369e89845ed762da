"""Each player's costliest decisions across the logs browsed: the cards played and the
answers to raises that lost the most points, double-dummy.

:func:`review_games` reviews the games one after another
(:meth:`truclog.replay.Hand.review`) and :class:`Mistakes` keeps, per player, the
:data:`KEPT` costliest decisions only (and counts the others), so its memory does not
grow with the logs.
"""

from __future__ import annotations

import heapq
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from truclog.replay import Game
from truclog.solver.grade import Grade
from truclog.tui.browse.catalog import GameEntry
from truclog.tui.browse.judged import JudgedDecision, decisions
from truclog.validate.checker import CheckedGame

KEPT = 200
"""Decisions kept per player; the others are only counted."""


@dataclass(frozen=True, slots=True)
class Mistake:
    """A decision that lost points, and where: the step at ``position`` (0-based) of
    hand ``hand`` (0-based in its game; ``number`` as the log numbers it) of the game
    at ``line`` of ``path``, the ``order``-th game read."""

    player: str
    path: str
    line: int
    game: str
    hand: int
    number: int
    position: int
    step_line: int
    kind: str
    grade: Grade
    lost: int
    best: tuple[str, ...]
    sound: bool | None
    order: int

    def key(self) -> tuple[int, int, int, int]:
        """Costliest first, then in reading order."""
        return (-self.lost, self.order, self.hand, self.position)


@dataclass(slots=True)
class Costs:
    """A player's decisions that lost points: how many, how many points, and the
    costliest kept (a heap, the least costly of them on top)."""

    decisions: int = 0
    points: int = 0
    kept: list[tuple[tuple[int, int, int, int], Mistake]] = field(default_factory=list)


class Mistakes:
    """Each player's costliest decisions, kept as the games are reviewed.

    >>> kept = Mistakes(kept=1)
    >>> def lost(n, order): return Mistake("Ana", "a.jsonl", 1, "g", 0, 1, 2, 3, "play",
    ...     Grade.MISTAKE, n, ("A",), False, order)
    >>> for n, order in ((1, 0), (3, 1), (2, 2)): kept.add(lost(n, order))
    >>> [m.lost for m in kept.of("Ana")], kept.counts("Ana")
    ([3], (3, 6))
    """

    def __init__(self, kept: int = KEPT) -> None:
        self.limit = kept
        self.players: dict[str, Costs] = {}
        self.games = 0

    def add(self, mistake: Mistake) -> None:
        """Counts ``mistake`` for its player, and keeps it if it is among their costliest."""
        costs = self.players.setdefault(mistake.player, Costs())
        costs.decisions += 1
        costs.points += mistake.lost
        item = (_negated(mistake.key()), mistake)
        if len(costs.kept) < self.limit:
            heapq.heappush(costs.kept, item)
        elif item[0] > costs.kept[0][0]:
            heapq.heapreplace(costs.kept, item)

    def of(self, player: str) -> list[Mistake]:
        """``player``'s costliest decisions, most points lost first."""
        costs = self.players.get(player)
        return sorted((m for _, m in costs.kept), key=Mistake.key) if costs else []

    def counts(self, player: str) -> tuple[int, int]:
        """How many of ``player``'s decisions lost points, and how many points."""
        costs = self.players.get(player)
        return (costs.decisions, costs.points) if costs else (0, 0)


def _negated(key: tuple[int, int, int, int]) -> tuple[int, int, int, int]:
    """A key whose largest is the costliest (the heap keeps the smallest on top)."""
    return (-key[0], -key[1], -key[2], -key[3])


def game_mistakes(game: CheckedGame, entry: GameEntry, order: int) -> Iterable[Mistake]:
    """The decisions of ``game`` that lost points."""
    for index, hand in enumerate(Game(game).hands):
        for decision in decisions(hand).values():
            if decision.lost and decision.grade is not None:
                yield mistake_of(decision, entry, index, hand.number, order)


def mistake_of(
    decision: JudgedDecision, entry: GameEntry, hand: int, number: int, order: int
) -> Mistake:
    """The mistake list's row for ``decision``: of hand ``hand`` (0-based; ``number`` as the log
    numbers it) of ``entry``'s game, the ``order``-th game reviewed."""
    d = decision
    lost, grade, best = d.lost or 0, d.grade or Grade.BEST, d.best or ()
    return Mistake(
        d.player, entry.path, entry.line, entry.id, hand, number, d.position, d.line,
        d.kind, grade, lost, best, d.sound, order,
    )  # fmt: skip


def review_games(
    entries: list[GameEntry],
    open_game: Callable[[GameEntry], CheckedGame | None],
    progress: Callable[[int, int], None],
    stop: Callable[[], bool],
    every: int = 50,
) -> Mistakes | None:
    """Review every game of ``entries`` (not the duplicates), calling ``progress(done,
    total)`` every ``every`` games; ``None`` when ``stop()`` says to stop."""
    found = Mistakes()
    games = [e for e in entries if e.duplicate_of is None]
    for order, entry in enumerate(games):
        if stop():
            return None
        if order % every == 0:
            progress(order, len(games))
        game = open_game(entry)
        if game is not None:
            for mistake in game_mistakes(game, entry, order):
                found.add(mistake)
        found.games += 1
    progress(len(games), len(games))
    return found


__all__ = ["KEPT", "Costs", "Mistake", "Mistakes", "game_mistakes", "review_games"]
