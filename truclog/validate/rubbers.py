"""Rubbers checked across games: the games that share a ``match`` id form a rubber.

A rubber is won by the first side to win two games (:class:`truclog.engine.Rubber`
counts them). Its games are played one after the other, so the validator reports,
on the ``game`` line of a game of a rubber (:func:`check_rubber`):

- ``E222``: the rubber was already won when the game starts;
- ``E223``: the game is out of order: it starts while the rubber's previous game
  stopped unfinished (nobody reached the target and no ``game_end`` closed it), or
  it starts before the previous game did (by the ``t`` of the game lines, else by
  their ``date``);
- ``E224``: the game is played between other sides than the rubber's first game.

A ``match`` id names a rubber within a file. In another file, a game with the same
id goes on with the rubber only when the rubber is unfinished (nobody has won two
games) and the game is played by the same sides; otherwise it starts another
rubber with that id (an id such as ``"m1"`` is reused from one evening to the next).

>>> rubbers = Rubbers()
>>> won = RubberGame("m", ("Ana", "Marc"), "Ana", True, (None, None))
>>> rubbers.see("a", "g1", won), rubbers.see("a", "g2", won)
(None, None)
>>> rubbers.see("a", "g3", won)
('E222', 'game g3 of rubber m comes after the rubber was won: Ana has won 2 games')
>>> rubbers.see("b", "g1", won) is None  # another file: another rubber "m"
True
>>> [(r["match"], r["files"], r["games"], r["winner"]) for r in rubbers.summary()]
[('m', ['a'], 3, 'Ana'), ('m', ['b'], 1, None)]
"""

from __future__ import annotations

from datetime import datetime
from typing import TYPE_CHECKING, Any

from truclog.codes import Check, Code
from truclog.diagnostic import ERROR, Diagnostic

if TYPE_CHECKING:
    from truclog.engine.state import Rubber
    from truclog.format.events import GameEvent
    from truclog.format.header import PlainHeader
    from truclog.validate.checker import CheckedGame
    from truclog.validate.tally import GameTally


class RubberGame:
    """What a rubber needs of one of its games: its rubber (``match``), its sides, its
    winner, whether it is ``closed`` (someone reached the target, or a ``game_end``
    closed it, abandoned), and when it ``start``-ed (the ``t`` and the ``date`` of its
    game line). A plain class: a named tuple took many times as long to make at start-up."""

    __slots__ = ("closed", "match", "sides", "start", "winner")

    def __init__(
        self,
        match: str,
        sides: tuple[str, ...],
        winner: str | None,
        closed: bool,
        start: tuple[datetime | None, str | None],
    ) -> None:
        self.match = match
        self.sides = sides
        self.winner = winner
        self.closed = closed
        self.start = start

    @classmethod
    def of(
        cls,
        header: GameEvent | PlainHeader,
        sides: tuple[str, ...],
        winner: str | None,
        closed: bool,
    ) -> RubberGame | None:
        """The game as its rubber sees it, or ``None`` when it is not part of a rubber."""
        if header.match is None:
            return None
        return cls(header.match, sides, winner, closed, (_when(header.t), header.date))


def _when(t: str | None) -> datetime | None:
    try:
        return None if t is None else datetime.fromisoformat(t)
    except ValueError:
        return None


class _Standing:
    """A rubber so far: its sides, the games each won (counted by the engine), how many
    games it had, its last game that counts, and the files its games are in."""

    def __init__(self, match: str, sides: tuple[str, ...], count: Rubber) -> None:
        self.match = match
        self.sides = sides
        self.count = count
        self.games = 0
        self.last: RubberGame | None = None
        self.last_id = ""
        self.files: list[str] = []

    def goes_on_in(self, path: str, game: RubberGame) -> bool:
        """Whether ``game``, of the file ``path``, is a game of this rubber: always in
        the rubber's last file; in another, only while the rubber is unfinished and
        between the same sides."""
        if path == self.files[-1]:
            return True
        return self.count.winner is None and set(game.sides) == set(self.sides)


class Rubbers:
    """The rubbers of a run, fed their games in the order they come."""

    def __init__(self) -> None:
        self.standings: dict[str, _Standing] = {}
        """The latest rubber of each ``match`` id."""
        self.every: list[_Standing] = []
        """Every rubber, in the order first seen (ids may repeat, in other files)."""

    def see(self, path: str, game_id: str, game: RubberGame) -> tuple[str, str] | None:
        """Count ``game``, of the file ``path``, in its rubber; what is wrong with it,
        if anything, as a code and a message (it then does not count)."""
        standing = self.standings.get(game.match)
        if standing is None or not standing.goes_on_in(path, game):
            from truclog.engine.state import Rubber  # counts the games won, if any rubber

            standing = _Standing(game.match, game.sides, Rubber())
            self.standings[game.match] = standing
            self.every.append(standing)
        if standing.files[-1:] != [path]:
            standing.files.append(path)
        standing.games += 1
        problem = self._problem(standing, game_id, game)
        if problem is None and game.winner is not None:
            standing.count.record(game.winner)
        if problem is None or problem[0] == Check.RUBBER_OUT_OF_ORDER:
            standing.last, standing.last_id = game, game_id
        if standing.count.winner is not None:
            standing.last = None  # whatever comes next is after the rubber
        return problem

    def _problem(
        self, standing: _Standing, game_id: str, game: RubberGame
    ) -> tuple[str, str] | None:
        of = f"game {game_id} of rubber {game.match}"
        if standing.count.winner is not None:
            return Code.RUBBER_OVER, f"{of} comes after the rubber was won: {_wins(standing)}"
        if set(game.sides) != set(standing.sides):
            return Check.RUBBER_OTHER_SIDES, (
                f"{of} is played by {' and '.join(game.sides)}, but the rubber is between "
                f"{' and '.join(standing.sides)}"
            )
        last = standing.last
        if last is not None and not last.closed:
            return Check.RUBBER_OUT_OF_ORDER, (
                f"{of} starts while the previous game, {standing.last_id}, stopped unfinished"
            )
        if last is not None and _before(game.start, last.start):
            return Check.RUBBER_OUT_OF_ORDER, (
                f"{of} starts before the previous game, {standing.last_id}, did"
            )
        return None

    def summary(self) -> list[dict[str, Any]]:
        """Each rubber: its ``match`` id, the files its games are in, its games, the
        games each side won, and its winner (or ``None``)."""
        return [
            {
                "match": standing.match,
                "files": list(standing.files),
                "games": standing.games,
                "wins": dict(standing.count.wins),
                "winner": standing.count.winner,
            }
            for standing in self.every
        ]


def _wins(standing: _Standing) -> str:
    winner = standing.count.winner
    return f"{winner} has won {standing.count.wins.get(winner or '', 0)} games"


def _before(
    start: tuple[datetime | None, str | None], previous: tuple[datetime | None, str | None]
) -> bool:
    """Whether a game that started at ``start`` started before ``previous`` (by ``t``
    when both have one, else by ``date``)."""
    (t, date), (last_t, last_date) = start, previous
    if t is not None and last_t is not None:
        try:
            return t < last_t
        except TypeError:  # a time without an offset against one with
            return False
    return date is not None and last_date is not None and date < last_date


def rubber_of(game: CheckedGame | GameTally) -> RubberGame | None:
    """What the rubber of ``game`` needs of it, when it is a game of a rubber."""
    header = game.header
    if header is None:
        return None
    return RubberGame.of(header, tuple(game.score), game.winner, game.complete or game.ended)


def check_rubber(
    rubbers: Rubbers, path: str, line: int, game_id: str, rubber: RubberGame
) -> Diagnostic | None:
    """Count a game in its rubber (see :class:`Rubbers`); the error when it does not fit
    there, reported on its game line."""
    problem = rubbers.see(path, game_id, rubber)
    if problem is None:
        return None
    return Diagnostic(path, line, problem[0], ERROR, problem[1], game_id)
