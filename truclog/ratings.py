"""Ratings of the players' skill from the games they finished, with OpenSkill.

Each finished game (someone reached the target; abandoned and unfinished games
are left out) is one match of OpenSkill's Plackett–Luce model with its
defaults (mu 25, sigma 25/3): the winning side ranked first, the other second.
In a four-player game each team is a side of two, and both partners move
together. Games are rated in order of the game line's ``date`` (games without
one after those with one), then file and line; a game found twice counts once.
A player's ``ordinal`` is ``mu - 3 * sigma``: a cautious estimate that grows
as the player wins and as the rating gets surer.

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

from truclog.reader import log_files
from truclog.stats.tables import GameFilter
from truclog.validate import CheckedGame, Diagnostic, check_log


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


def match_of(game: CheckedGame) -> Match | None:
    """The match of a finished game, ``None`` for an abandoned or unfinished one."""
    winner = game.final.winner
    if not game.complete or winner is None:
        return None
    seats = [intern(p) for p in game.players]  # one copy of each name, however many games
    teams = [tuple(p for s, p in enumerate(seats) if s % 2 == t) for t in (0, 1)]
    won = game.teams.index(winner)
    day = None if game.header.date is None else intern(game.header.date)
    return Match(game.id, day, intern(game.path), game.line, (teams[won], teams[1 - won]))


@dataclass(slots=True)
class PlayerRating:
    """A player's rating now, and (when kept) their ordinal after each of their games."""

    player: str
    rating: PlackettLuceRating
    games: int = 0
    wins: int = 0
    history: list[tuple[str, str | None, float]] = field(default_factory=list)
    """(game, date, ordinal after it)."""

    @property
    def mu(self) -> float:
        return float(self.rating.mu)

    @property
    def sigma(self) -> float:
        return float(self.rating.sigma)

    @property
    def ordinal(self) -> float:
        return float(self.rating.ordinal())

    def as_dict(self, history: bool = False) -> dict[str, Any]:
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

    def __init__(self, history: bool = False) -> None:
        self.model = PlackettLuce()
        self.keep_history = history
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
                    rated.history.append((match.game, match.date, rated.ordinal))

    def players(self) -> list[PlayerRating]:
        """Every player, best ordinal first (ties by name)."""
        return sorted(self.ratings.values(), key=lambda r: (-r.ordinal, r.player))


def rate(matches: Iterable[Match], history: bool = False) -> Leaderboard:
    """Rate matches in the order of :meth:`Match.order`. The matches are sorted in
    memory: one small record per finished game (names and files shared)."""
    board = Leaderboard(history)
    for match in sorted(matches, key=Match.order):
        board.record(match)
    return board


def read_matches(sources: Sequence[str], keep: GameFilter | None = None) -> Iterator[Match]:
    """The matches of the finished games in ``sources`` that ``keep`` keeps, each game
    once (by fingerprint). Raises :class:`~truclog.errors.TruclogError` for a path
    that cannot be read."""
    keep = keep or GameFilter()
    seen: set[str] = set()
    for path in log_files(sources):
        for game in check_log(path):
            if isinstance(game, Diagnostic) or game.fingerprint in seen:
                continue
            seen.add(game.fingerprint)
            match = match_of(game) if keep.keeps(game) else None
            if match is not None:
                yield match


__all__ = [
    "Leaderboard",
    "Match",
    "PlayerRating",
    "match_of",
    "rate",
    "read_matches",
]
