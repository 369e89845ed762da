"""Flatten checked games into three polars tables: ``games``, ``hands`` and ``actions``.

Games stream through a :class:`TableBuilder` that keeps plain column lists and
hands them over as DataFrames batch by batch, so a corpus of any size is read
with bounded memory. Only hands the validator passed (``hand.ok``) go into
the tables; the others are counted in ``games.hands_left_out``. A game seen
twice in one run (same fingerprint) is counted once. ``docs/stats.md``
describes every column.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from datetime import date
from functools import lru_cache
from typing import Any, NamedTuple

import polars as pl

from truclog.actions import Accept, Deal, Fold, Play, Raise, Redeal, Show
from truclog.cards import Card
from truclog.engine import Outcome, Phase
from truclog.events import ACTION_TYPES
from truclog.rules import Rules
from truclog.strength import deal_strength, strength_of
from truclog.trick import TrickResult, decide, trick_winner
from truclog.validate import CheckedGame, CheckedHand, Step

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
    "dealer": pl.Boolean,
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
    "hand",
    "to",
    "position",
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

    ``narrow`` builds only what statistics count from: the ``seats`` table, the
    :data:`COUNTED` columns of the ``actions`` rows that a statistic counts
    (raises, accepts, folds and redeals) and, of ``games``, the fingerprint,
    line and hand counts; ``hands`` is left empty.
    """

    def __init__(self, narrow: bool = False) -> None:
        self.narrow = narrow
        self._dealt_strengths: dict[tuple[str, str, str, bool], float] = {}
        self._reset()

    def _dealt_strength(self, rules: Rules, hand: str, dealer: bool) -> float:
        """:func:`~truclog.strength.deal_strength`, remembered for this builder's hands."""
        key = (rules.order, rules.all_tied, hand, dealer)
        strength = self._dealt_strengths.get(key)
        if strength is None:
            strength = self._dealt_strengths[key] = deal_strength(rules, hand, dealer)
        return strength

    def _reset(self) -> None:
        self.games: list[tuple] = []
        self.hands: list[tuple] = []
        self.seats: list[tuple] = []
        self.actions: list[list] = []

    def add(self, game: CheckedGame) -> tuple[int, int]:
        """Add a game's validated hands; returns (hands added, hands left out)."""
        day = game_day(game)
        table = _Table.of(game, day)
        added = left_out = 0
        for hand in game.hands:
            if hand.ok and hand.steps:
                _HandReplay(self, table, hand).run()
                added += 1
            else:
                left_out += 1
        if self.narrow:
            self.games.append(
                (game.fingerprint, game.line, added, left_out, day, list(game.players))
            )
            return added, left_out
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
        if self.narrow:
            games = _frame(self.games, _COUNTED_GAMES)
            actions = _frame(self.actions, _COUNTED_ACTIONS)
            self._reset()
            return Tables(games, empty(HANDS), actions, seats.drop("row"))
        games = _frame(self.games, GAMES)
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


_COUNTED_ACTIONS = {name: ACTIONS[name] for name in COUNTED}
_COUNTED_GAMES = {
    name: GAMES[name]
    for name in ("fingerprint", "line", "hands", "hands_left_out", "date", "players")
}


def _frame(rows: list, schema: dict[str, Any]) -> pl.DataFrame:
    """Rows (tuples or lists in schema order) as a DataFrame, built column by column."""
    if not rows:
        return empty(schema)
    columns = zip(*rows, strict=True)
    return pl.DataFrame(dict(zip(schema, map(list, columns), strict=True)), schema=schema)


@dataclass(slots=True)
class _Table:
    """What every hand of a game shares: who sits where, on which team."""

    fingerprint: str
    game: str
    day: date | None
    rules: Rules
    players: tuple[str, ...]
    seat: dict[str, int]
    team: tuple[str, ...]
    """Each seat's team."""
    opponent: tuple[str, ...]
    """Each seat's opponents (the other team)."""

    @classmethod
    def of(cls, game: CheckedGame, day: date | None) -> _Table:
        seats = range(len(game.players))
        return cls(
            game.fingerprint,
            game.id,
            day,
            game.rules,
            game.players,
            {p: i for i, p in enumerate(game.players)},
            tuple(game.teams[s % 2] for s in seats),
            tuple(game.teams[1 - s % 2] for s in seats),
        )


class _HandReplay:
    """Follows one validated hand step by step, writing its rows.

    The validator already replayed the hand through the engine and found it
    legal, so this only keeps what the tables need: tricks, value, the pending
    raise and each seat's cards, with the trick rules of :mod:`truclog.trick`.
    A narrow builder gets only the rows statistics count, with the
    :data:`COUNTED` columns.
    """

    __slots__ = (
        "at",
        "dealer",
        "dealt",
        "first_trick",
        "hand",
        "in_play",
        "narrow",
        "out",
        "pending",
        "pending_row",
        "played",
        "raises",
        "redeal_asked",
        "redeal_granted",
        "results",
        "revealed",
        "rows",
        "scores",
        "table",
        "trick",
        "unplayed",
        "value",
    )

    def __init__(self, out: TableBuilder, table: _Table, hand: CheckedHand):
        self.out, self.table, self.hand = out, table, hand
        self.narrow = out.narrow
        self.at = _NARROW_AT if out.narrow else _FULL_AT
        self.scores: list[int] = []
        if not out.narrow:
            self._scores()
        self.rows: list[list] = []
        self.raises: list[tuple[int, int, str, str, str, str | None, bool]] = []
        self.redeal_asked = self.redeal_granted = False
        self.first_trick: str | None = None
        self.pending_row = -1
        self.pending: tuple[int, int] | None = None  # (raiser seat, to)
        self.in_play = False
        if not isinstance(hand.steps[0].action, Deal):
            self._deal(None)

    def _scores(self) -> list[int]:
        """Each team's score before the hand (statistics need it only for a reste)."""
        if not self.scores:
            score = self.hand.start.score
            self.scores = [score[t] for t in self.table.team[:2]]
        return self.scores

    def _deal(self, deal: Deal | None) -> None:
        players = self.table.players
        if deal is None:
            self.dealer = -1
            self.dealt: list[list[str]] = [[] for _ in players]
        else:
            self.dealer = self.table.seat[deal.dealer]
            cards = dict(deal.cards)
            self.dealt = [[c.rank for c in cards.get(p, ()) if c is not None] for p in players]
        self.unplayed = [list(d) for d in self.dealt]
        self.revealed: list[list[str]] = [[] for _ in players]
        self.played: list[list[str]] = [[] for _ in players]
        self.trick: list[tuple[int, str]] = []
        self.results: list[TrickResult] = []
        self.value = 1
        self.pending = None
        self.in_play = deal is not None

    def run(self) -> None:
        for seq, step in enumerate(self.hand.steps):
            action = step.action
            if action is not None:
                _STEPS[type(action)](self, seq, step, action)
        self._finish()

    def _on_deal(self, seq: int, step: Step, deal: Deal) -> None:
        if not self.narrow:
            self._row(seq, step, self.table.seat[deal.dealer], _KIND[Deal])
        self._deal(deal)

    def _on_redeal(self, seq: int, step: Step, redeal: Redeal) -> None:
        self._row(
            seq, step, self.table.seat[redeal.player], _KIND[Redeal], accepted=redeal.accepted
        )
        self.redeal_asked = True
        self.redeal_granted = redeal.accepted
        self.in_play = not redeal.accepted

    def _on_raise(self, seq: int, step: Step, raise_: Raise) -> None:
        seat = self.table.seat[raise_.player]
        to = self.table.rules.target - self._scores()[seat % 2] if raise_.reste else raise_.to
        position = self._place(seat)
        self._note_raise(seat)
        self._row(seq, step, seat, _KIND[Raise], to=to, reste=raise_.reste, position=position)
        self.pending = (seat, to or 0)

    def _place(self, seat: int) -> str:
        """The seat's place in the trick in progress (its leader: who played first, or
        the raiser, who raises on their own turn)."""
        trick, pending = self.trick, self.pending
        leader = trick[0][0] if trick else (pending[0] if pending is not None else seat)
        return _POSITIONS[(seat - leader) % len(self.table.players)]

    def _on_accept(self, seq: int, step: Step, accept: Accept) -> None:
        seat = self.table.seat[accept.player]
        self._row(seq, step, seat, _KIND[Accept], position=self._answer_place(seat))
        pending = self.pending
        if pending is not None:
            self.rows[self.pending_row][self.at.answer] = _KIND[Accept]
            self.value, self.pending = pending[1], None

    def _answer_place(self, seat: int) -> str | None:
        return None if self.pending is None else self._place(seat)

    def _on_fold(self, seq: int, step: Step, fold: Fold) -> None:
        seat = self.table.seat[fold.player]
        self._row(seq, step, seat, _KIND[Fold], position=self._answer_place(seat))
        if self.pending is not None:
            self.rows[self.pending_row][self.at.answer] = _KIND[Fold]
        self.pending, self.in_play = None, False

    def _on_play(self, seq: int, step: Step, play: Play) -> None:
        table, trick = self.table, self.trick
        seat = table.seat[play.player]
        if not self.narrow:
            card, position = str(play.card), _POSITIONS[len(trick)]
            self._row(seq, step, seat, _KIND[Play], card=card, position=position)
        rank = play.card.rank
        self._reveal(seat, rank)
        self.played[seat].append(rank)
        trick.append((seat, rank))
        if len(trick) == len(table.players):
            self._trick_over(_trick_result(table.rules.order, tuple(trick)))

    def _on_show(self, seq: int, step: Step, show: Show) -> None:
        seat = self.table.seat[show.player]
        if not self.narrow:
            self._row(seq, step, seat, _KIND[Show])
        for card in show.cards:
            self._reveal(seat, card.rank)

    def _reveal(self, seat: int, rank: str) -> None:
        unplayed = self.unplayed[seat]
        if rank in unplayed:
            unplayed.remove(rank)
        else:
            self.revealed[seat].append(rank)

    def _trick_over(self, result: TrickResult) -> None:
        results = self.results
        results.append(result)
        self.trick = []
        if len(results) == 1:
            self.first_trick = "tie" if result is None else self.table.team[result]
        if _decided(tuple(results)):
            self.in_play = False

    def _row(
        self,
        seq: int,
        step: Step,
        seat: int,
        kind: str,
        card: str | None = None,
        to: int | None = None,
        reste: bool | None = None,
        accepted: bool | None = None,
        position: str | None = None,
    ) -> None:
        """Append the row of an action, with the hand as it is before the action."""
        table, pending = self.table, self.pending
        waiting = None if pending is None else pending[1]
        if self.narrow:
            team, opponent = table.team[seat], table.opponent[seat]
            row = [table.fingerprint, kind, table.players[seat], team, opponent, reste, accepted]
            extra = [self.hand.number, to, position]
            self.rows.append([*row, waiting, None, None, None, None, *extra])
            return
        in_play = self.in_play
        team_at = seat % 2
        self.rows.append(
            [
                table.fingerprint,
                table.game,
                table.day,
                step.line,
                self.hand.number,
                seq,
                kind,
                table.players[seat],
                table.team[seat],
                table.opponent[seat],
                card,
                to,
                reste,
                accepted,
                len(self.results) + 1 if in_play else None,
                position,
                self.value if in_play else None,
                waiting,
                table.players[pending[0]] if pending is not None else None,
                self.scores[team_at],
                self.scores[1 - team_at],
                None,
                None,
                None,
                None,
                step.t,
            ]
        )

    def _note_raise(self, seat: int) -> None:
        """Keep the position at a raise, to score it once the hand's cards are known."""
        played = self.played
        theirs = "".join(["".join(ranks) for s, ranks in enumerate(played) if s != seat])
        team = seat % 2
        results = "".join(["T" if r is None else ("W" if r == team else "L") for r in self.results])
        table = self.trick[0][1] if self.trick else None
        row = len(self.rows)
        mine = "".join(played[seat])
        self.raises.append((row, seat, mine, theirs, results, table, self.dealer == seat))
        self.pending_row = row

    def _finish(self) -> None:
        table, rows, at = self.table, self.rows, self.at
        rules = table.rules
        hands = [
            _ordered("".join(dealt) + "".join(shown), rules.order)
            if len(dealt) + len(shown) == 3
            else None
            for dealt, shown in zip(self.dealt, self.revealed, strict=True)
        ]
        outcome = self.hand.outcome
        winner = outcome.winner if outcome is not None else None
        seat_of = table.seat
        for values in rows:
            seat = seat_of[values[at.player]]
            values[at.known] = hands[seat] is not None
            if winner is not None:
                values[at.hand_won] = table.team[seat] == winner
        two = len(table.players) == 2
        for row, seat, mine, theirs, results, on_table, dealer in self.raises:
            full = hands[seat]
            if full is None or not two:
                continue
            try:
                left = _minus(full, mine)
                rows[row][at.strength] = strength_of(
                    rules, full, left, theirs, results, on_table, dealer
                )
            except ValueError:
                rows[row][at.strength] = None
        self.out.actions.extend(rows)
        self._hand_rows(hands, outcome)

    def _hand_rows(self, cards: list[str | None], outcome: Outcome | None) -> None:
        ending = "unfinished"
        if outcome is not None:
            ending = outcome.ending
            if outcome.reste and ending != "draw":
                ending = "reste"
        table, out = self.table, self.out
        row = len(out.hands)
        winner = outcome.winner if outcome is not None else None
        points = outcome.points if outcome is not None else 0
        tricks = len(self.results)
        number, fingerprint = self.hand.number, table.fingerprint
        if not self.narrow:
            out.hands.append(
                (
                    fingerprint,
                    table.game,
                    table.day,
                    number,
                    table.players[self.dealer],
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
        size = len(table.players)
        for seat, player in enumerate(table.players):
            dealt = cards[seat]
            strength = None
            if size == 2 and dealt is not None:
                strength = out._dealt_strength(table.rules, dealt, self.dealer == seat)
            out.seats.append(
                (
                    row,
                    fingerprint,
                    number,
                    size,
                    player,
                    table.team[seat],
                    table.opponent[seat],
                    dealt,
                    strength,
                    winner,
                    points,
                    ending,
                    tricks,
                    self.first_trick,
                    self.dealer == seat,
                )
            )


_Step = Callable[[_HandReplay, int, Step, Any], None]
_STEPS: dict[type, _Step] = {
    Deal: _HandReplay._on_deal,
    Redeal: _HandReplay._on_redeal,
    Raise: _HandReplay._on_raise,
    Accept: _HandReplay._on_accept,
    Fold: _HandReplay._on_fold,
    Play: _HandReplay._on_play,
    Show: _HandReplay._on_show,
}
_KIND = ACTION_TYPES


class _Columns(NamedTuple):
    """Where a row of ``actions`` keeps what is filled in once the hand is over."""

    player: int
    known: int
    strength: int
    answer: int
    hand_won: int


_FULL_AT, _NARROW_AT = (
    _Columns(*(list(columns).index(name) for name in _Columns._fields))
    for columns in (ACTIONS, COUNTED)
)


@lru_cache(maxsize=1 << 16)
def _trick_result(order: str, trick: tuple[tuple[int, str], ...]) -> TrickResult:
    """The winning team of a full trick of (seat, rank), ``None`` when tied."""
    return trick_winner([(seat, Card(rank)) for seat, rank in trick], _power(order))[0]


def _power(order: str) -> dict[str, int]:
    """Rank -> power under an order, as :attr:`Rules.strength`."""
    return {rank: len(order) - i for i, rank in enumerate(order)}


@lru_cache(maxsize=256)
def _decided(results: tuple[TrickResult, ...]) -> bool:
    return decide(results)[0]


@lru_cache(maxsize=1 << 12)
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
