"""The counts of the games the quick core cleared, made in C as each game is read.

``truclog stats`` counts a game that the quick core cleared (a
:class:`~truclog.validate.tally.GameTally` whose facts are rows of C values) without
making table rows of it: a ``truclog.validate._quick.Counts`` adds its facts to the
counts of its players and teams as the game is read, and at the end one row per player
and team comes out (:meth:`ClearedCounts.counts`), in the shape of
:func:`~truclog.stats.players.count`'s rows, which it is summed with. The other games
(checked line by line, or with names the core leaves to the tables) are counted from
the tables. Rows split by ``--by`` and play kept by ``--opponent`` need the tables'
columns: those runs count every game from the tables (:func:`counts_in_core`).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import TYPE_CHECKING, Any

from truclog.build import QUICK_CORE
from truclog.engine.rules import Rules
from truclog.solver.strength import deal_strength
from truclog.stats.counts import (
    COUNTS,
    LABEL,
    MEMBERS,
    NAMED,
    SPLIT_COLUMNS,
    CountRows,
    Grouping,
    matches,
)
from truclog.stats.kept import Tally
from truclog.validate.tally import GameTally

if TYPE_CHECKING:
    from truclog.validate.checker import CheckedGame


def counts_in_core(grouping: Grouping) -> bool:
    """Whether the cleared games of a run grouped so can be counted in C: not split,
    all play counted (no ``--opponent``), the quick core built with its facts."""
    from truclog.validate import quick

    return not grouping.splits and not grouping.opponents and quick.facts_available()


class ClearedCounts:
    """The counts of the cleared games of a file (or a part of one), per player and team."""

    def __init__(self, grouping: Grouping) -> None:
        assert QUICK_CORE is not None
        self.grouping = grouping
        self.rules: list[Rules] = []
        self.keys: dict[Rules, int] = {}
        self.last: tuple[Rules | None, int] = (None, -1)
        self.core = QUICK_CORE.Counts(self._dealt, grouping.threshold)

    def _dealt(self, key: int, hand: str, dealer: bool) -> float:
        return deal_strength(self.rules[key], hand, dealer)

    def _key(self, rules: Rules) -> int:
        if rules is self.last[0]:  # a log's games share their rules: no hashing again
            return self.last[1]
        key = self.keys.get(rules)
        if key is None:
            key = self.keys[rules] = len(self.rules)
            self.rules.append(rules)
        self.last = (rules, key)
        return key

    def others(
        self, games: Iterable[CheckedGame | GameTally], tally: Tally
    ) -> Iterator[CheckedGame | GameTally]:
        """The ``games`` not counted here: each cleared game with its facts as C rows is
        counted (and told to ``tally``, as :func:`~truclog.stats.tables.table_batches`
        tells it), the others go on."""
        add = self.core.add
        for game in games:
            facts = game.facts if isinstance(game, GameTally) else None
            if (
                facts is not None
                and facts.rows is not None
                and not facts.wide
                and add(facts.rows, game.players, facts.teams, self._key(facts.rules))
            ):
                tally.games += 1
                tally.hands += facts.hand_count
            else:
                yield game

    def counts(self) -> CountRows:
        """The counts so far as rows of :func:`~truclog.stats.players.count`: every name
        (kind ``name``), each player, each team (by its two players, under each name it
        played under: kind ``team``) and the games of each team under each name (kind
        ``team name``)."""
        assert QUICK_CORE is not None
        order: tuple[str, ...] = QUICK_CORE.COUNT_NAMES
        players: list[tuple[Any, ...]] = []
        teams: list[tuple[Any, ...]] = []
        for key, *counts in self.core.rows():
            if isinstance(key, str):
                players.append((key, *counts))
            else:
                teams.append((*key, *counts))
        teams = self._chosen(teams)
        games = order.index("games")
        rows: list[tuple[Any, ...]] = [(NAMED, name, "", *_ZERO) for name in self.core.names]
        rows += [("player", name, "", *counts) for name, *counts in players]
        rows += [("team", members, "", *counts) for members, _, *counts in teams]
        rows += [
            (LABEL, members, name, *_games(counts[games], games))
            for members, name, *counts in teams
        ]
        at = [order.index(name) for name in COUNTS]  # the core's order to that of COUNTS
        unsplit = (None,) * len(SPLIT_COLUMNS)
        total = CountRows()
        for kind, name, split, *values in rows:
            total.add((kind, name, split, *unsplit), [values[i] for i in at])
        return total

    def _chosen(self, teams: list[tuple[Any, ...]]) -> list[tuple[Any, ...]]:
        """The teams that ``--player`` keeps: one of its players, or its name, chosen
        (as :func:`~truclog.stats.players.count` chooses them)."""
        chosen, case = self.grouping.players, self.grouping.ignore_case
        if not chosen or not teams:
            return teams
        return [
            row
            for row in teams
            if matches(row[1], chosen, case)
            or any(matches(player, chosen, case) for player in row[0].split(MEMBERS))
        ]


_ZERO = (0,) * len(COUNTS)


def _games(games: int, at: int) -> tuple[int, ...]:
    """The counts of a row that counts games alone (at ``at``)."""
    return (*_ZERO[:at], games, *_ZERO[at + 1 :])


__all__ = ["ClearedCounts", "counts_in_core"]
