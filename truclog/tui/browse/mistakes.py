"""Each player's costliest decisions across the logs browsed, and the points each game's
decisions lost: the cards played and the answers to raises that lost points,
double-dummy.

The logs are reviewed as ``truclog review`` reviews them
(:func:`truclog.stats.review.review_files`: each game once, the hands the validator
passed), in a child process of its own (:func:`review_in_child`), so that the browser
stays quick while a large corpus is reviewed and stopping it is killing the child. The
child keeps, per player, the :data:`KEPT` costliest decisions only (:class:`Mistakes`;
the others are only counted) and, per game of the games list, the points its decisions
lost; its memory does not grow with the logs.
"""

from __future__ import annotations

import bisect
import heapq
import time
from collections.abc import Callable, Mapping, Sequence
from contextlib import closing
from dataclasses import astuple, dataclass, field
from typing import TYPE_CHECKING, Any

from truclog.solver.grade import Grade
from truclog.tui.browse.child import Tell, documents, serve

if TYPE_CHECKING:
    from truclog.validate.checker import CheckedGame

KEPT = 200
"""Decisions kept per player; the others are only counted."""
PROGRESS_SECONDS = 0.2
"""How often the child tells how much it has read."""


@dataclass(frozen=True, slots=True)
class Mistake:
    """A decision that lost points, and where: the line ``step_line`` of the log ``path``,
    in hand ``number`` of the game ``game`` whose ``game`` line is ``line``; ``order``
    is its place among the decisions read."""

    player: str
    path: str
    line: int
    game: str
    number: int
    step_line: int
    kind: str
    grade: Grade
    lost: int
    best: tuple[str, ...]
    sound: bool | None
    order: int

    def key(self) -> tuple[int, int]:
        """Costliest first, then in reading order."""
        return (-self.lost, self.order)

    def locate(self, game: CheckedGame) -> tuple[int, int] | None:
        """Where the decision is in ``game`` (its game read again): the hand (0-based)
        and the step (0-based among the hand's); ``None`` when it is not there."""
        for index, hand in enumerate(game.hands):
            if hand.number == self.number:
                for position, step in enumerate(hand.steps):
                    if step.line == self.step_line:
                        return index, position
        return None


@dataclass(slots=True)
class Costs:
    """A player's decisions that lost points: how many, how many points, and the
    costliest kept (a heap, the least costly of them on top)."""

    decisions: int = 0
    points: int = 0
    kept: list[tuple[tuple[int, int], Mistake]] = field(default_factory=list)


class Mistakes:
    """Each player's costliest decisions, kept as the games are reviewed.

    >>> kept = Mistakes(kept=1)
    >>> def lost(n, order): return Mistake("Ana", "a.jsonl", 1, "g", 1, 3, "play",
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
        lost, order = mistake.key()
        item = ((-lost, -order), mistake)  # the heap keeps the least costly on top
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

    def as_dict(self) -> dict[str, Any]:
        """What the child sends: the games reviewed, and per player the counts and the
        decisions kept (the games' points lost go apart)."""
        players = {
            player: [costs.decisions, costs.points, [astuple(m) for _, m in costs.kept]]
            for player, costs in self.players.items()
        }
        return {"games": self.games, "players": players}

    @classmethod
    def of_dict(cls, data: Mapping[str, Any], shown: Mapping[str, str]) -> Mistakes:
        """The mistakes the child sent, each log named as the user named it (``shown``:
        the path read -> the path shown)."""
        found = cls()
        found.games = data["games"]
        for player, (decisions, points, kept) in data["players"].items():
            costs = found.players[player] = Costs(decisions, points)
            for row in kept:
                player, path, line, game, number, step_line, kind, grade, lost, best, sound, order = row  # fmt: skip
                mistake = Mistake(
                    player, shown.get(path, path), line, game, number, step_line, kind,
                    Grade(grade), lost, tuple(best), sound, order,
                )  # fmt: skip
                costs.kept.append(((-lost, -order), mistake))
            heapq.heapify(costs.kept)
        return found


@dataclass(slots=True)
class GameLost:
    """The points lost by the decisions of each game of one log, by the line of its
    ``game`` line (given, in order, by the games list)."""

    lines: Sequence[int]
    lost: list[int]

    def add(self, step_line: int, lost: int) -> int:
        """Count ``lost`` to the game that line ``step_line`` is in; that game's line (0
        for a line before the first game)."""
        at = bisect.bisect_right(self.lines, step_line) - 1
        if at < 0:
            return 0
        self.lost[at] += lost
        return self.lines[at]


def review_logs(paths: Sequence[str], lines: Mapping[str, Sequence[int]], tell: Callable[[dict[str, Any]], None]) -> None:  # fmt: skip
    """In the child: review every decision of the logs at ``paths``, each game once,
    telling ``{"read": bytes}`` as it reads, then ``{"found": ...}`` (see
    :meth:`Mistakes.as_dict`) with ``"lost"``: per log, the points lost by the games
    whose ``game`` lines ``lines`` gives for it, in that order."""
    from truclog.stats.review import DecisionFilter, review_files
    from truclog.terminal import unicode

    found = Mistakes()
    games = {unicode(p): GameLost(lines.get(p, ()), [0] * len(lines.get(p, ()))) for p in paths}
    read, told, order = 0, time.monotonic(), 0
    named = {unicode(p): p for p in paths}

    def progress(size: int, hands: int) -> None:
        nonlocal read, told
        read += size
        if time.monotonic() - told >= PROGRESS_SECONDS:
            tell({"read": read})
            told = time.monotonic()

    def sink(rows: list[tuple[Any, ...]]) -> None:
        nonlocal order
        for row in rows:
            path, step_line, game, number, player, kind, sound, _right, lost, best, grade = row
            if not lost or grade is None:
                continue
            line = games[path].add(step_line, lost)
            found.add(Mistake(player, named[path], line, game, number, step_line, kind, Grade(grade), lost, tuple(best or ()), sound, order))  # fmt: skip
            order += 1

    for done in review_files(paths, chosen=DecisionFilter(min_lost=1), top=0, progress=progress, sink=sink):  # fmt: skip
        found.games += done.tally.games
    result = found.as_dict()
    result["lost"] = {named[p]: log.lost for p, log in games.items()}
    tell({"found": result})


def _review(asked: dict[str, Any], tell: Tell) -> None:
    """In the child process: review the paths asked, for the game lines asked."""
    review_logs(asked["paths"], asked["lines"], tell)


def review_in_child(
    reading: Mapping[str, str],
    lines: Mapping[str, Sequence[int]],
    progress: Callable[[int], None],
    stop: Callable[[], bool],
) -> tuple[Mistakes, dict[str, list[int]]] | None:
    """Review the logs (``reading``: each log as the user named it -> the file its lines
    are read from) in a child process: ``progress`` hears the bytes read so far. Gives
    the mistakes found and, per log (as named), the points lost by each game whose
    ``game`` line ``lines`` gives for it; ``None`` once ``stop()`` says to stop (the
    child is killed). Raises ``RuntimeError`` when the review fails."""
    shown = {read: named for named, read in reading.items()}
    asked = {"paths": list(shown), "lines": {reading[n]: list(ls) for n, ls in lines.items()}}
    with closing(documents(__name__, asked, stop, "review")) as news:
        for document in news:
            if "read" in document:
                progress(document["read"])
            elif "found" in document:
                data = document["found"]
                lost = {shown.get(p, p): values for p, values in data["lost"].items()}
                return Mistakes.of_dict(data, shown), lost
    return None


__all__ = ["KEPT", "Costs", "GameLost", "Mistake", "Mistakes", "review_in_child", "review_logs"]


if __name__ == "__main__":
    serve(_review)
