"""Flatten checked games into three polars tables: ``games``, ``hands`` and ``actions``.

Games stream through a :class:`TableBuilder` that keeps plain column lists and
hands them over as DataFrames batch by batch, so a corpus of any size is read
with bounded memory. Only hands the validator passed (``hand.ok``) go into
the tables; the others are counted in ``games.hands_left_out``. A game seen
twice in one run (same fingerprint) is counted once. ``docs/stats.md``
describes every column.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from datetime import date
from typing import Any

import polars as pl

from truclog.actions import Accept, Action, Deal, Fold, Play, Raise, Redeal, Show
from truclog.cards import Card
from truclog.engine import Outcome, Phase
from truclog.events import ACTION_TYPES
from truclog.strength import deal_strength, strength_of
from truclog.trick import TrickResult, decide, trick_winner
from truclog.validate import CheckedGame, CheckedHand

Strs = pl.List(pl.Utf8)

GAMES: dict[str, Any] = {
    "file": pl.Utf8,
    "line": pl.Int64,
    "game": pl.Utf8,
    "fingerprint": pl.Utf8,
    "date": pl.Date,
    "rules": pl.Utf8,
    "preset": pl.Utf8,
    "players": Strs,
    "teams": Strs,
    "dealer": pl.Utf8,
    "score": pl.List(pl.Int64),
    "winner": pl.Utf8,
    "complete": pl.Boolean,
    "match": pl.Utf8,
    "source": pl.Utf8,
    "hands": pl.Int64,
    "hands_left_out": pl.Int64,
}
"""One row per game counted (a duplicate is not counted again)."""

_SEAT_LISTS = ("players", "teams", "opponents", "score_before", "cards", "strength")

HANDS: dict[str, Any] = {
    "fingerprint": pl.Utf8,
    "game": pl.Utf8,
    "date": pl.Date,
    "hand": pl.Int64,
    "dealer": pl.Utf8,
    "players": Strs,
    "teams": Strs,
    "opponents": Strs,
    "score_before": pl.List(pl.Int64),
    "value": pl.Int64,
    "winner": pl.Utf8,
    "points": pl.Int64,
    "ending": pl.Utf8,
    "reste": pl.Boolean,
    "redeal_asked": pl.Boolean,
    "redeal_granted": pl.Boolean,
    "raises": pl.Int64,
    "tricks": pl.Int64,
    "first_trick": pl.Utf8,
    "cards": Strs,
    "strength": pl.List(pl.Float64),
}
"""One row per hand that passed validation; list columns follow ``players`` seat by seat."""

ACTIONS: dict[str, Any] = {
    "fingerprint": pl.Utf8,
    "game": pl.Utf8,
    "date": pl.Date,
    "line": pl.Int64,
    "hand": pl.Int64,
    "seq": pl.Int64,
    "type": pl.Utf8,
    "player": pl.Utf8,
    "team": pl.Utf8,
    "opponent": pl.Utf8,
    "card": pl.Utf8,
    "to": pl.Int64,
    "reste": pl.Boolean,
    "accepted": pl.Boolean,
    "trick": pl.Int64,
    "position": pl.Utf8,
    "value_before": pl.Int64,
    "pending": pl.Int64,
    "pending_raiser": pl.Utf8,
    "score_before": pl.Int64,
    "opponent_score_before": pl.Int64,
    "known": pl.Boolean,
    "strength": pl.Float64,
    "answer": pl.Utf8,
    "hand_won": pl.Boolean,
    "t": pl.Utf8,
}
"""One row per action line (deal, redeal, raise, accept, fold, play, show) of a counted hand."""

SEATS: dict[str, Any] = {
    "row": pl.UInt32,
    "fingerprint": pl.Utf8,
    "hand": pl.Int64,
    "size": pl.Int64,
    "player": pl.Utf8,
    "team": pl.Utf8,
    "opponent": pl.Utf8,
    "cards": pl.Utf8,
    "strength": pl.Float64,
    "winner": pl.Utf8,
    "points": pl.Int64,
    "ending": pl.Utf8,
    "tricks": pl.Int64,
    "first_trick": pl.Utf8,
}
"""One row per hand and seat (a long view of ``hands``, which statistics count from)."""

_HAND_ROW: dict[str, Any] = {
    **{k: v for k, v in HANDS.items() if k not in _SEAT_LISTS},
    "score_a": pl.Int64,
    "score_b": pl.Int64,
}

SCHEMAS = {"games": GAMES, "hands": HANDS, "actions": ACTIONS}

COUNTED = (
    "fingerprint",
    "type",
    "player",
    "team",
    "opponent",
    "reste",
    "accepted",
    "pending",
    "known",
    "strength",
    "answer",
    "hand_won",
)
"""The ``actions`` columns that statistics count from."""

_POSITIONS = ("leader", "follower", "third", "fourth")


@dataclass(slots=True)
class Tables:
    """A batch of the three tables."""

    games: pl.DataFrame
    hands: pl.DataFrame
    actions: pl.DataFrame
    seats: pl.DataFrame

    def items(self) -> Iterator[tuple[str, pl.DataFrame]]:
        yield from (("games", self.games), ("hands", self.hands), ("actions", self.actions))


@dataclass(slots=True)
class Tally:
    """What a run read and what it left out."""

    files: int = 0
    games: int = 0
    duplicates: int = 0
    hands: int = 0
    hands_left_out: int = 0
    filtered_out: int = 0
    problems: int = 0

    def add(self, other: Tally) -> None:
        for name in self.__slots__:
            setattr(self, name, getattr(self, name) + getattr(other, name))

    def as_dict(self) -> dict[str, int]:
        return {
            "files": self.files,
            "games": self.games,
            "duplicate_games": self.duplicates,
            "games_filtered_out": self.filtered_out,
            "hands": self.hands,
            "hands_left_out": self.hands_left_out,
            "lines_outside_games": self.problems,
        }


def empty(schema: dict[str, Any]) -> pl.DataFrame:
    return pl.DataFrame(schema=schema)


def _day(text: str | None) -> date | None:
    if not text:
        return None
    try:
        return date.fromisoformat(text[:10])
    except ValueError:
        return None


def game_day(game: CheckedGame) -> date | None:
    """The game's date, or the day of its first timestamped line."""
    day = _day(game.header.date) or _day(game.header.t)
    if day is not None:
        return day
    for hand in game.hands:
        for step in hand.steps:
            if step.t:
                return _day(step.t)
    return None


class TableBuilder:
    """Collects rows of the tables, game by game, as plain row lists.

    ``narrow`` builds only what statistics count from: the ``seats`` table and
    the :data:`COUNTED` columns of ``actions`` (``hands`` is left empty).
    """

    def __init__(self, narrow: bool = False) -> None:
        self.narrow = narrow
        self._reset()

    def _reset(self) -> None:
        self.games: list[tuple] = []
        self.hands: list[tuple] = []
        self.seats: list[tuple] = []
        self.actions: list[list] = []

    def add(self, game: CheckedGame) -> tuple[int, int]:
        """Add a game's validated hands; returns (hands added, hands left out)."""
        day = game_day(game)
        added = left_out = 0
        for hand in game.hands:
            if hand.ok and hand.steps:
                _HandReplay(self, game, hand, day).run()
                added += 1
            else:
                left_out += 1
        header, final = game.header, game.final
        row = {
            "file": game.path,
            "line": game.line,
            "game": game.id,
            "fingerprint": game.fingerprint,
            "date": day,
            "rules": game.rules.describe(),
            "preset": game.rules.name,
            "players": list(game.players),
            "teams": list(game.teams),
            "dealer": header.dealer,
            "score": [final.score[t] for t in game.teams],
            "winner": final.winner,
            "complete": final.phase is Phase.GAME_OVER,
            "match": header.match,
            "source": header.source,
            "hands": added,
            "hands_left_out": left_out,
        }
        self.games.append(tuple(row.values()))
        return added, left_out

    def flush(self) -> Tables:
        """The rows collected so far as DataFrames; the builder starts empty again."""
        seats = _frame(self.seats, SEATS)
        games = _frame(self.games, GAMES)
        if self.narrow:
            actions = _frame(self.actions, ACTIONS, COUNTED)
            self._reset()
            return Tables(games, empty(HANDS), actions, seats.drop("row"))
        hands = _frame(self.hands, _HAND_ROW)
        per_seat = seats.group_by("row", maintain_order=True).agg(
            pl.col("player").alias("players"),
            pl.col("team").alias("teams"),
            pl.col("opponent").alias("opponents"),
            pl.col("cards"),
            pl.col("strength"),
        )
        hands = (
            hands.with_columns(
                pl.int_range(pl.len(), dtype=pl.UInt32).alias("row"),
                pl.concat_list("score_a", "score_b").alias("score_before"),
            )
            .join(per_seat, on="row", how="left")
            .select(list(HANDS))
        )
        tables = Tables(
            games,
            hands,
            _frame(self.actions, ACTIONS),
            seats.drop("row"),
        )
        self._reset()
        return tables


def _frame(rows: list, schema: dict[str, Any], only: tuple[str, ...] = ()) -> pl.DataFrame:
    """Rows (tuples or lists in schema order) as a DataFrame, built column by column;
    ``only`` keeps just those columns."""
    if only:
        names = list(schema)
        wanted = {name: schema[name] for name in only}
        if not rows:
            return empty(wanted)
        index = [names.index(name) for name in only]
        data = {name: [row[i] for row in rows] for name, i in zip(only, index, strict=True)}
        return pl.DataFrame(data, schema=wanted)
    if not rows:
        return empty(schema)
    columns = zip(*rows, strict=True)
    return pl.DataFrame(dict(zip(schema, map(list, columns), strict=True)), schema=schema)


class _HandReplay:
    """Follows one validated hand step by step, writing its rows.

    The validator already replayed the hand through the engine and found it
    legal, so this only keeps what the tables need: tricks, value, the pending
    raise and each seat's cards, with the trick rules of :mod:`truclog.trick`.
    """

    def __init__(self, out: TableBuilder, game: CheckedGame, hand: CheckedHand, day: date | None):
        self.out, self.game, self.hand, self.day = out, game, hand, day
        start = hand.start
        self.rules = game.rules
        self.players = game.players
        self.seat = {p: i for i, p in enumerate(self.players)}
        self.teams = game.teams
        self.scores = [start.score[t] for t in self.teams]
        self.rows: list[list] = []
        self.raises: list[tuple[int, int, str, str, str, str | None, bool]] = []
        self.redeal_asked = self.redeal_granted = False
        self.first_trick: str | None = None
        self.pending_row = -1
        self._deal(None)

    def _deal(self, deal: Deal | None) -> None:
        n = len(self.players)
        self.dealer = self.seat[deal.dealer] if deal is not None else -1
        self.dealt: list[list[str]] = [[] for _ in range(n)]
        if deal is not None:
            for seat, player in enumerate(self.players):
                self.dealt[seat] = [c.rank for c in deal.cards_of(player) if c is not None]
        self.unplayed = [list(d) for d in self.dealt]
        self.revealed: list[list[str]] = [[] for _ in range(n)]
        self.played: list[list[str]] = [[] for _ in range(n)]
        self.trick: list[tuple[int, Card]] = []
        self.results: list[TrickResult] = []
        self.leader = (self.dealer + 1) % n
        self.value = 1
        self.pending: tuple[int, int] | None = None  # (raiser seat, to)
        self.in_play = deal is not None

    def run(self) -> None:
        for seq, step in enumerate(self.hand.steps):
            action = step.action
            if action is None:
                continue
            if isinstance(action, Deal):
                self._row(seq, step.line, step.t, action, action.dealer)
                self._deal(action)
                continue
            self._row(seq, step.line, step.t, action, action.player)
            if isinstance(action, Play):
                self._play(action)
            elif isinstance(action, Show):
                for card in action.cards:
                    self._reveal(self.seat[action.player], card.rank)
        self._finish()

    def _reveal(self, seat: int, rank: str) -> None:
        if rank in self.unplayed[seat]:
            self.unplayed[seat].remove(rank)
        else:
            self.revealed[seat].append(rank)

    def _play(self, play: Play) -> None:
        seat = self.seat[play.player]
        self._reveal(seat, play.card.rank)
        self.played[seat].append(play.card.rank)
        self.trick.append((seat, play.card))
        if len(self.trick) < len(self.players):
            return
        result, self.leader = trick_winner(self.trick, self.rules.strength)
        self.results.append(result)
        self.trick = []
        if len(self.results) == 1:
            self.first_trick = "tie" if result is None else self.teams[result]
        if decide(self.results)[0]:
            self.in_play = False

    def _row(self, seq: int, line: int, t: str | None, action: Action, player: str) -> None:
        rows = self.rows
        seat = self.seat[player]
        team = seat % 2
        pending, value, in_play = self.pending, self.value, self.in_play
        kind = ACTION_TYPES[type(action)]
        to = reste = accepted = card = position = None
        if isinstance(action, Raise):
            reste = action.reste
            to = self.rules.target - self.scores[team] if action.reste else action.to
            position = _POSITIONS[len(self.trick)]
            self._note_raise(seat, len(rows))
            self.pending = (seat, to or 0)
        elif isinstance(action, Play):
            card = str(action.card)
            position = _POSITIONS[len(self.trick)]
        elif isinstance(action, Redeal):
            accepted = action.accepted
            self.redeal_asked = True
            self.redeal_granted = action.accepted
            self.in_play = not action.accepted
        elif isinstance(action, Accept) and pending is not None:
            rows[self.pending_row][_ANSWER] = kind
            self.value, self.pending = pending[1], None
        elif isinstance(action, Fold):
            if pending is not None:
                rows[self.pending_row][_ANSWER] = kind
            self.pending, self.in_play = None, False
        rows.append(
            [
                self.game.fingerprint,
                self.game.id,
                self.day,
                line,
                self.hand.number,
                seq,
                kind,
                player,
                self.teams[team],
                self.teams[1 - team],
                card,
                to,
                reste,
                accepted,
                len(self.results) + 1 if in_play else None,
                position,
                value if in_play else None,
                pending[1] if pending is not None else None,
                self.players[pending[0]] if pending is not None else None,
                self.scores[team],
                self.scores[1 - team],
                None,
                None,
                None,
                None,
                t,
            ]
        )

    def _note_raise(self, seat: int, row: int) -> None:
        """Keep the position at a raise, to score it once the hand's cards are known."""
        theirs = "".join(r for s, ranks in enumerate(self.played) if s != seat for r in ranks)
        results = "".join(
            "T" if r is None else ("W" if r == seat % 2 else "L") for r in self.results
        )
        table = self.trick[0][1].rank if self.trick else None
        mine = "".join(self.played[seat])
        self.raises.append((row, seat, mine, theirs, results, table, self.dealer == seat))
        self.pending_row = row

    def _finish(self) -> None:
        rows, rules, teams = self.rows, self.rules, self.teams
        n = len(self.players)
        hands: list[str | None] = []
        for seat in range(n):
            ranks = self.dealt[seat] + self.revealed[seat]
            hands.append(_ordered("".join(ranks), rules.order) if len(ranks) == 3 else None)
        outcome = self.hand.outcome
        winner = outcome.winner if outcome is not None else None
        for values in rows:
            seat = self.seat[values[_PLAYER]]
            values[_KNOWN] = hands[seat] is not None
            if winner is not None:
                values[_HAND_WON] = teams[seat % 2] == winner
        two = n == 2
        for row, seat, mine, theirs, results, table, dealer in self.raises:
            full = hands[seat]
            if full is None or not two:
                continue
            try:
                left = _minus(full, mine)
                rows[row][_STRENGTH] = strength_of(
                    rules, full, left, theirs, results, table, dealer
                )
            except ValueError:
                rows[row][_STRENGTH] = None
        self.out.actions.extend(rows)
        self._hand_rows(hands, outcome)

    def _hand_rows(self, cards: list[str | None], outcome: Outcome | None) -> None:
        ending = "unfinished"
        if outcome is not None:
            ending = outcome.ending
            if outcome.reste and ending != "draw":
                ending = "reste"
        row = len(self.out.hands)
        winner = outcome.winner if outcome is not None else None
        points = outcome.points if outcome is not None else 0
        tricks = len(self.results)
        number, fingerprint = self.hand.number, self.game.fingerprint
        self.out.hands.append(
            (
                fingerprint,
                self.game.id,
                self.day,
                number,
                self.players[self.dealer],
                self.value,
                winner,
                points,
                ending,
                bool(outcome is not None and outcome.reste),
                self.redeal_asked,
                self.redeal_granted,
                len(self.raises),
                tricks,
                self.first_trick,
                self.scores[0],
                self.scores[1],
            )
        )
        two = len(self.players) == 2
        for seat, player in enumerate(self.players):
            dealt = cards[seat]
            strength = None
            if two and dealt is not None:
                strength = deal_strength(self.rules, dealt, dealer=self.dealer == seat)
            team = seat % 2
            self.out.seats.append(
                (
                    row,
                    fingerprint,
                    number,
                    len(self.players),
                    player,
                    self.teams[team],
                    self.teams[1 - team],
                    dealt,
                    strength,
                    winner,
                    points,
                    ending,
                    tricks,
                    self.first_trick,
                )
            )


_PLAYER, _KNOWN, _STRENGTH, _ANSWER, _HAND_WON = (
    list(ACTIONS).index(name) for name in ("player", "known", "strength", "answer", "hand_won")
)


def _ordered(ranks: str, order: str) -> str:
    """Ranks from high to low under the rules' order (``"9A7"`` -> ``"7A9"`` in classic)."""
    return "".join(sorted(ranks, key=order.index))


def _minus(ranks: str, gone: str) -> str:
    left = list(ranks)
    for rank in gone:
        left.remove(rank)
    return "".join(left)


@dataclass(slots=True)
class GameFilter:
    """Which games a run keeps: by rules preset, date range and source."""

    rules: tuple[str, ...] = ()
    since: date | None = None
    until: date | None = None
    sources: tuple[str, ...] = ()

    def keeps(self, game: CheckedGame) -> bool:
        if self.rules and game.rules.name not in self.rules:
            return False
        if self.sources and game.header.source not in self.sources:
            return False
        if self.since is None and self.until is None:
            return True
        day = game_day(game)
        if day is None:
            return False
        return (self.since is None or day >= self.since) and (
            self.until is None or day <= self.until
        )


def table_batches(
    games: Iterable[CheckedGame], tally: Tally, batch_rows: int = 200_000, narrow: bool = False
) -> Iterator[Tables]:
    """Tables for a stream of games, in batches of about ``batch_rows`` action rows."""
    builder = TableBuilder(narrow)
    for game in games:
        added, left_out = builder.add(game)
        tally.games += 1
        tally.hands += added
        tally.hands_left_out += left_out
        if len(builder.actions) >= batch_rows:
            yield builder.flush()
    if builder.games:
        yield builder.flush()


def read_tables(games: Iterable[CheckedGame]) -> Tables:
    """All three tables for some games at once (for small corpora and tests)."""
    tally = Tally()
    batches = list(table_batches(games, tally))
    if not batches:
        return Tables(empty(GAMES), empty(HANDS), empty(ACTIONS), empty(SEATS).drop("row"))
    names = (*SCHEMAS, "seats")
    return Tables(*(pl.concat([getattr(b, name) for b in batches]) for name in names))


__all__ = [
    "ACTIONS",
    "GAMES",
    "HANDS",
    "GameFilter",
    "TableBuilder",
    "Tables",
    "Tally",
    "game_day",
    "read_tables",
    "table_batches",
]
