"""Ratings of the players' skill from the games they finished, with OpenSkill.

Each finished game (someone reached the target; abandoned and unfinished games
are left out) is one match of OpenSkill's Plackett–Luce model with its
defaults (mu 25, sigma 25/3): the winning side ranked first, the other second.
In a four-player game each team is a side of two, and both partners move
together. Games are rated in order of the game line's ``date`` (games without
one after those with one), then file and line; a game found twice counts once.
A player's ``ordinal`` is ``mu - 3 * sigma``: a cautious estimate that grows
as the player wins and as the rating gets surer.

A history of each player's ordinal, game after game, can be kept whole (for
``truclog ratings --history``) or capped: with ``cap`` points at most, every
other point is dropped each time the cap is passed, so the points kept are
those after every ``stride``-th game of the player, evenly spread however long
the history grows.

>>> matches = [Match("g1", "2026-11-29", "a.jsonl", 1, (("Ana",), ("Marc",)))]
>>> board = rate(matches)
>>> [(r.player, r.games, r.wins) for r in board.players()]
[('Ana', 1, 1), ('Marc', 1, 0)]
>>> ana = board.players()[0]
>>> round(ana.mu, 3), round(ana.sigma, 3), round(ana.ordinal, 3)
(27.635, 8.066, 3.438)
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from sys import intern
from typing import Any

from openskill.models import PlackettLuce, PlackettLuceRating

from truclog.format.reader import log_files
from truclog.names import name_key
from truclog.stats.kept import GameFilter, Tally
from truclog.stats.run import kept_games
from truclog.validate.checker import CheckedGame
from truclog.validate.tally import GameTally


@dataclass(frozen=True, slots=True)
class Match:
    """A finished game as a match: its sides, the winning side first."""

    game: str
    date: str | None
    file: str
    line: int
    sides: tuple[tuple[str, ...], tuple[str, ...]]

    def order(self) -> tuple[bool, str, str, int]:
        """Where the game comes in the rating order: by date (undated last), file, line."""
        return (self.date is None, self.date or "", self.file, self.line)


def match_of(game: CheckedGame | GameTally) -> Match | None:
    """The match of a finished game, ``None`` for an abandoned or unfinished one; a game
    the quick core cleared (:class:`~truclog.validate.GameTally`) gives the same."""
    winner = game.winner
    if not game.complete or winner is None:
        return None
    # a tally's score is keyed by side, in the engine's order of the sides
    sides = game.teams if isinstance(game, CheckedGame) else tuple(game.score)
    seats = [intern(p) for p in game.players]  # one copy of each name, however many games
    teams = [tuple(p for s, p in enumerate(seats) if s % 2 == t) for t in (0, 1)]
    won = sides.index(winner)
    header = game.header
    day = None if header is None or header.date is None else intern(header.date)
    return Match(game.id, day, intern(game.path), game.line, (teams[won], teams[1 - won]))


@dataclass(slots=True)
class PlayerRating:
    """A player's rating now, and (when kept) their ordinal after each of their games."""

    player: str
    rating: PlackettLuceRating
    games: int = 0
    wins: int = 0
    history: list[tuple[str, str | None, float]] = field(default_factory=list)
    """(game, date, ordinal after it): after each game, or every ``stride``-th when capped."""
    stride: int = 1

    def remember(self, game: str, date: str | None, cap: int | None) -> None:
        """Note the ordinal after a game: every ``stride``-th game, and no more than
        ``cap`` points (every other point is dropped when it is passed)."""
        if self.games % self.stride:
            return
        self.history.append((game, date, self.ordinal))
        if cap is not None and len(self.history) > cap:
            del self.history[::2]  # keep the points after games 2s, 4s, ... (s the stride)
            self.stride *= 2

    def trail(self) -> list[tuple[int, float]]:
        """(games played, ordinal) at the start, at each point of the history and now.

        >>> games = [Match(f"g{i}", None, "a", i, (("Ana",), ("Marc",))) for i in range(9)]
        >>> [n for n, _ in rate(games, history=True, cap=2).ratings["Ana"].trail()]
        [0, 4, 8, 9]
        """
        start = (0, float(PlackettLuce().rating().ordinal()))
        points = [
            (self.stride * (i + 1), ordinal) for i, (_, _, ordinal) in enumerate(self.history)
        ]
        if not points or points[-1][0] != self.games:
            points.append((self.games, self.ordinal))
        return [start, *points]

    @property
    def mu(self) -> float:
        """The rating's mean skill."""
        return float(self.rating.mu)

    @property
    def sigma(self) -> float:
        """How uncertain the rating still is."""
        return float(self.rating.sigma)

    @property
    def ordinal(self) -> float:
        """OpenSkill's ordinal: a conservative single figure of the rating."""
        return float(self.rating.ordinal())

    def as_dict(self, history: bool = False) -> dict[str, Any]:
        """The rating as a row of plain values."""
        row: dict[str, Any] = {
            "player": self.player,
            "mu": self.mu,
            "sigma": self.sigma,
            "ordinal": self.ordinal,
            "games": self.games,
            "wins": self.wins,
        }
        if history:
            row["history"] = [
                {"game": game, "date": date, "ordinal": ordinal}
                for game, date, ordinal in self.history
            ]
        return row


class Leaderboard:
    """The ratings of every player, updated one match at a time."""

    def __init__(self, history: bool = False, cap: int | None = None) -> None:
        self.model = PlackettLuce()
        self.keep_history = history
        self.cap = cap
        self.ratings: dict[str, PlayerRating] = {}

    def _of(self, player: str) -> PlayerRating:
        rated = self.ratings.get(player)
        if rated is None:
            rated = self.ratings[player] = PlayerRating(player, self.model.rating(name=player))
        return rated

    def record(self, match: Match) -> None:
        """Rate one match: the winning side ranked first."""
        sides = [[self._of(p) for p in side] for side in match.sides]
        new = self.model.rate([[r.rating for r in side] for side in sides])
        for won, side, ratings in zip((True, False), sides, new, strict=True):
            for rated, rating in zip(side, ratings, strict=True):
                rated.rating = rating
                rated.games += 1
                rated.wins += won
                if self.keep_history:
                    rated.remember(match.game, match.date, self.cap)

    def players(self) -> list[PlayerRating]:
        """Every player, best ordinal first (ties by name)."""
        return sorted(self.ratings.values(), key=lambda r: (-r.ordinal, name_key(r.player)))


def rate(matches: Iterable[Match], history: bool = False, cap: int | None = None) -> Leaderboard:
    """Rate matches in the order of :meth:`Match.order`, keeping each player's
    history (``cap`` points at most) if asked. The matches are sorted in memory: one
    small record per finished game (names and files shared)."""
    board = Leaderboard(history, cap)
    for match in sorted(matches, key=Match.order):
        board.record(match)
    return board


def read_matches(
    sources: Sequence[str], keep: GameFilter | None = None, tally: Tally | None = None
) -> Iterator[Match]:
    """The matches of the finished games in ``sources`` that ``keep`` keeps, each game
    once (by fingerprint); ``tally`` counts what was left out. Raises
    :class:`~truclog.errors.TruclogError` for a path that cannot be read."""
    for game in each_game_once(sources, keep, tally):
        match = match_of(game)
        if match is not None:
            yield match


def each_game_once(
    sources: Sequence[str], keep: GameFilter | None = None, tally: Tally | None = None
) -> Iterator[CheckedGame | GameTally]:
    """The games of ``sources`` that ``keep`` keeps, a game found twice (same
    fingerprint) once, in file order, read as ``truclog stats`` reads them: the games
    the quick core clears come as :class:`~truclog.validate.GameTally`. ``tally``
    counts what was left out (files of binary data among them)."""
    keep, seen = keep or GameFilter(), set[int]()
    tally = Tally() if tally is None else tally
    for path in log_files(sources):
        yield from kept_games(path, keep, tally, seen, facts=True)


__all__ = [
    "Leaderboard",
    "Match",
    "PlayerRating",
    "each_game_once",
    "match_of",
    "rate",
    "read_matches",
]
