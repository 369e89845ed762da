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
from functools import lru_cache
from typing import Any, NamedTuple

import polars as pl

from truclog.actions import Accept, Action, Deal, Fold, Play, Raise, Redeal
from truclog.answer import AnswerReview, Position, Stakes, stakes
from truclog.answer import judged as judge_ranks
from truclog.cards import Card
from truclog.engine import Outcome, PendingRaise, Phase, State
from truclog.events import ACTION_TYPES
from truclog.game import Game, Hand, Paths, game_day, games_of, tally_day
from truclog.rules import Rules
from truclog.strength import (
    Odds,
    deal_strength,
    played_this_hand,
    strength_of,
    trick_results,
)
from truclog.terminal import unicode
from truclog.validate import CheckedGame, GameFacts, GameTally, Step

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

ANSWER_COLUMNS: dict[str, Any] = {
    "answer_worth_accept": pl.Float64,
    "answer_worth_fold": pl.Float64,
    "sound": pl.Boolean,
    "right": pl.Boolean,
    "points_given": pl.Int64,
}
"""The review of an accept or a fold to a raise (:func:`answer_columns`)."""

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
    **ANSWER_COLUMNS,
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
    *ANSWER_COLUMNS,
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


class TableBuilder:
    """Collects rows of the tables, game by game, as plain row lists.

    ``narrow`` builds only what statistics count from: the ``seats`` table, the
    :data:`COUNTED` columns of the ``actions`` rows that a statistic counts
    (raises, accepts, folds and redeals) and, of ``games``, the fingerprint,
    line and hand counts; ``hands`` is left empty.
    """

    def __init__(self, narrow: bool = False) -> None:
        self.narrow = narrow
        self.memo = _Memo()
        self._reset()

    def _reset(self) -> None:
        self.games: list[tuple] = []
        self.hands: list[tuple] = []
        self.seats: list[tuple] = []
        self.actions: list[list] = []

    def add(self, game: Game | CheckedGame | GameTally) -> tuple[int, int]:
        """Add a game's validated hands; returns (hands added, hands left out). A game
        the quick core cleared comes with its facts (:class:`~truclog.validate.GameFacts`),
        and only to a narrow builder."""
        if isinstance(game, GameTally):
            return self._add_facts(game)
        if isinstance(game, Game):
            game = game.checked
        day = game_day(game)
        table = _Seating.of(game, day)
        table.rules_key = self.memo.key_of(game.rules)
        added = left_out = 0
        for hand in game.hands:
            if hand.ok and hand.steps:
                start = hand.start.score
                scores = [start[team] for team in table.team[:2]]
                _HandRows(self, table, hand.number, scores).run(Hand(hand))
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
            "file": unicode(game.path),
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

    def _add_facts(self, game: GameTally) -> tuple[int, int]:
        """Add the hands of a game the quick core cleared, from its facts."""
        facts = game.facts
        if facts is None or not self.narrow:
            raise ValueError(f"{game.id}: a game cleared without its facts makes no table rows")
        day = tally_day(game)
        table = _Seating.of_facts(game, facts, day)
        table.rules_key = self.memo.key_of(facts.rules)
        for hand in facts.hands:
            number, dealer, score_a, score_b = hand[:4]
            end = _end_of_facts(hand, table)
            _HandRows(self, table, number, [score_a, score_b]).take(dealer, hand[-1], end)
        added = len(facts.hands)
        self.games.append((game.fingerprint, game.line, added, 0, day, list(game.players)))
        return added, 0

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
class _Seating:
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
    rules_key: int = 0
    """The rules' number in the builder's :class:`_Memo`."""

    @classmethod
    def of(cls, game: CheckedGame, day: date | None) -> _Seating:
        return cls.seated(game.fingerprint, game.id, day, game.rules, game.players, game.teams)

    @classmethod
    def of_facts(cls, game: GameTally, facts: GameFacts, day: date | None) -> _Seating:
        return cls.seated(game.fingerprint, game.id, day, facts.rules, game.players, facts.teams)

    @classmethod
    def seated(
        cls,
        fingerprint: str,
        game: str,
        day: date | None,
        rules: Rules,
        players: tuple[str, ...],
        teams: tuple[str, str],
    ) -> _Seating:
        seats = range(len(players))
        return cls(
            fingerprint,
            game,
            day,
            rules,
            players,
            {p: i for i, p in enumerate(players)},
            tuple(teams[s % 2] for s in seats),
            tuple(teams[1 - s % 2] for s in seats),
        )


class _Memo:
    """Strengths and answer reviews already worked out, by the ranks and stakes they
    were asked of: a corpus asks the same few thousand questions over and over.
    Each table holds at most :data:`REMEMBERED` answers (then it starts again)."""

    REMEMBERED = 1 << 16

    def __init__(self) -> None:
        self.rules: dict[Rules, int] = {}
        self.dealt_strengths: dict[tuple[Any, ...], float] = {}
        self.strengths: dict[tuple[Any, ...], float | None] = {}
        self.stakes: dict[tuple[Any, ...], tuple[Stakes, tuple[int, int, int]]] = {}
        self.judged: dict[tuple[Any, ...], tuple[Odds | None, float | None]] = {}
        self.columns: dict[tuple[Any, ...], tuple[Any, ...]] = {}

    def key_of(self, rules: Rules) -> int:
        """A number for ``rules``, for the questions asked under them."""
        return self.rules.setdefault(rules, len(self.rules))

    def dealt(self, rules: Rules, hand: str, dealer: bool) -> float:
        """:func:`~truclog.strength.deal_strength`."""
        question = (rules.order, rules.all_tied, hand, dealer)
        found = self.dealt_strengths.get(question)
        if found is None:
            found = deal_strength(rules, hand, dealer)
            _remember(self.dealt_strengths, question, found)
        return found

    def strength(
        self,
        rules: Rules,
        key: int,
        hand: str,
        mine: str,
        theirs: str,
        results: str,
        on_table: str | None,
        dealer: bool,
    ) -> float | None:
        """The strength of a raise (:func:`~truclog.strength.strength_of`) by a player
        dealt ``hand`` who played ``mine``; ``None`` for an impossible position."""
        question = (key, hand, mine, theirs, results, on_table, dealer)
        if question in self.strengths:
            return self.strengths[question]
        try:
            found: float | None = strength_of(
                rules, hand, _minus(hand, mine), theirs, results, on_table, dealer
            )
        except ValueError:
            found = None
        _remember(self.strengths, question, found)
        return found

    def review(
        self,
        rules: Rules,
        key: int,
        accepted: bool,
        scores: tuple[int, int, int, int, bool],
        at_raise: _AtRaise,
        hands: tuple[str | None, str | None],
    ) -> tuple[Any, ...]:
        """The :data:`ANSWER_COLUMNS` of an answer (:func:`~truclog.answer.judged`) to a
        raise made at ``at_raise``: ``scores`` are the raiser's and the answerer's
        scores, the raise's ``to`` and ``previous``, and whether it is a reste;
        ``hands`` the answerer's and the raiser's dealt ranks."""
        found = self.stakes.get((key, *scores))
        if found is None:
            at_stake = stakes(rules, *scores)
            found = at_stake, (at_stake.to, at_stake.gain, at_stake.conceded)
            _remember(self.stakes, (key, *scores), found)
        at_stake, points = found
        position = (key, *at_raise, *hands)
        judged = self.judged.get(position)
        if judged is None:
            mine, theirs, results, on_table, dealer = at_raise
            seen = Position(
                theirs, mine, results.translate(_SIDES), on_table is not None, not dealer
            )
            judged = judge_ranks(rules, seen, *hands)
            _remember(self.judged, position, judged)
        question = (accepted, *points, *judged)
        columns = self.columns.get(question)
        if columns is None:
            columns = answer_columns(AnswerReview(accepted, at_stake, *judged))
            _remember(self.columns, question, columns)
        return columns


def _remember(table: dict[tuple[Any, ...], Any], question: tuple[Any, ...], answer: Any) -> None:
    if len(table) >= _Memo.REMEMBERED:
        table.clear()
    table[question] = answer


_AtRaise = tuple[str, str, str, str | None, bool]
"""The position at a raise: the ranks the raiser and the others played this deal, the
finished tricks from the raiser's side, the first card on the table, and whether the
raiser dealt."""


class _HandEnd(NamedTuple):
    """A hand after its last line, as its rows tell it."""

    cards: list[str | None]
    """Each seat's dealt ranks, high to low, when all three are known."""
    dealer: int
    winner: str | None
    points: int
    ending: str
    """``tricks``, ``fold``, ``draw``, ``reste`` or ``unfinished``."""
    reste: bool
    tricks: int
    first_trick: str | None
    """The side that took the first trick, ``tie``, or ``None`` before it was played."""


class _HandRows:
    """The rows of one validated hand: from its replay through the engine
    (:meth:`run`), or from the facts the quick core gives of it (:meth:`take`).

    Each action's row is written with the hand as it was before the action;
    a raise keeps the position it was made in, to score its strength once the
    end of the hand shows the cards, and an answer the raise's, to review it.
    A narrow builder gets only the rows statistics count, with the
    :data:`COUNTED` columns.
    """

    __slots__ = (
        "answers",
        "at",
        "narrow",
        "number",
        "out",
        "pending_row",
        "raises",
        "rows",
        "scores",
        "table",
    )

    def __init__(self, out: TableBuilder, table: _Seating, number: int, scores: list[int]):
        self.out, self.table, self.number, self.scores = out, table, number, scores
        self.narrow = out.narrow
        self.at = _NARROW_AT if out.narrow else _FULL_AT
        self.rows: list[list] = []
        self.raises: list[tuple[int, int, _AtRaise]] = []
        self.answers: list[tuple[int, bool, int, int, bool, int]] = []
        self.pending_row = -1

    def run(self, hand: Hand) -> None:
        """The rows of ``hand`` from its replay."""
        narrow, start = self.narrow, hand.start
        pending = start.pending  # the raise waiting for an answer before each step
        place = _place(start)  # the trick on the table before each step
        before = None if narrow else _Moment.of(start)  # what a full row says of the hand
        redeal_asked = redeal_granted = False
        state = start
        for seq, (step, state) in enumerate(hand.replay()):
            action = step.action
            if action is not None and step.applied:
                kind = type(action)
                if kind is Redeal:
                    redeal_asked, redeal_granted = True, action.accepted  # type: ignore[union-attr]
                if not narrow or kind in _COUNTED_KINDS:
                    self._row(seq, step, action, state, pending, place, before)
            pending, place = state.pending, _place(state)
            if not narrow:
                before = _Moment.of(state)
        outcome = hand.outcome
        self._finish(_end_of(state, outcome, self.table), state, redeal_asked, redeal_granted)

    def take(self, dealer: int, events: list[tuple[Any, ...]], end: _HandEnd) -> None:
        """The narrow rows of a hand from the quick core's events (see
        :class:`truclog.validate.GameFacts`): the same rows as :meth:`run` writes."""
        pending: tuple[int, int, bool] | None = None
        for event in events:
            kind, seat = event[0], event[1]
            if kind == _RAISED:
                _, _, to, reste, previous, on_table, mine, theirs, results, first = event
                self._note_raise(seat, mine, theirs, results, first, seat == dealer)
                self._narrow_row("raise", seat, bool(reste), None, None, to, _POSITIONS[on_table])
                pending = (to, previous, bool(reste))
            elif kind == _REDEALT:
                self._narrow_row("redeal", seat, None, bool(event[2]), None, None, None)
            else:
                name, waiting, position = _ANSWERS[kind], None, None
                if event[2]:
                    assert pending is not None
                    waiting, position = pending[0], _POSITIONS[event[3]]
                    self._note_answer(*pending, name, kind == _ACCEPTED)
                self._narrow_row(name, seat, None, None, waiting, None, position)
                pending = None
        self._finish(end)

    def _row(
        self,
        seq: int,
        step: Step,
        action: Action,
        state: State,
        pending: PendingRaise | None,
        place: _Place,
        before: _Moment | None,
    ) -> None:
        """Append the row of an action: ``state`` is the state after it, ``pending`` the
        raise waiting before it, ``place`` the trick on the table before it and
        ``before`` (for a full row) the hand before it."""
        table, kind = self.table, _KIND[type(action)]
        player = action.dealer if isinstance(action, Deal) else action.player
        seat = table.seat[player]
        card = to = reste = accepted = position = None
        on_table = place[0]
        if isinstance(action, Raise):
            assert state.pending is not None
            to, reste = state.pending.to, action.reste
            position = _POSITIONS[on_table]
            mine, theirs = played_this_hand(state, player)
            first = state.trick[0][1].rank if state.trick else None
            results = trick_results(state, seat)
            self._note_raise(seat, mine, theirs, results, first, state.dealer == seat)
        elif isinstance(action, Accept | Fold):
            if pending is not None:
                accepted_ = isinstance(action, Accept)
                self._note_answer(pending.to, pending.previous, pending.reste, kind, accepted_)
                position = _answering(seat, pending, place, len(table.players))
        elif isinstance(action, Redeal):
            accepted = action.accepted
        elif isinstance(action, Play):
            card, position = str(action.card), _POSITIONS[on_table]
        waiting = None if pending is None else pending.to
        if before is None:
            self._narrow_row(kind, seat, reste, accepted, waiting, to, position)
            return
        in_play = before.in_play
        team_at = seat % 2
        self.rows.append(
            [
                table.fingerprint,
                table.game,
                table.day,
                step.line,
                self.number,
                seq,
                kind,
                player,
                table.team[seat],
                table.opponent[seat],
                card,
                to,
                reste,
                accepted,
                before.tricks + 1 if in_play else None,
                position,
                before.value if in_play else None,
                waiting,
                table.players[pending.raiser] if pending is not None else None,
                self.scores[team_at],
                self.scores[1 - team_at],
                None,
                None,
                None,
                None,
                *_NO_REVIEW,
                step.t,
            ]
        )

    def _narrow_row(
        self,
        kind: str,
        seat: int,
        reste: bool | None,
        accepted: bool | None,
        waiting: int | None,
        to: int | None,
        position: str | None,
    ) -> None:
        """Append the :data:`COUNTED` columns of an action's row."""
        table = self.table
        row: list[Any] = [table.fingerprint, kind, table.players[seat], table.team[seat]]
        row += [table.opponent[seat], reste, accepted, waiting, None, None, None, None]
        self.rows.append([*row, *_NO_REVIEW, self.number, to, position])

    def _note_raise(
        self, seat: int, mine: str, theirs: str, results: str, first: str | None, dealer: bool
    ) -> None:
        """Keep the position at a raise (the ranks each side played this deal, the
        finished tricks from the raiser's side, the first card on the table), to
        score it once the hand's cards are known."""
        row = len(self.rows)
        self.raises.append((row, seat, (mine, theirs, results, first, dealer)))
        self.pending_row = row

    def _note_answer(self, to: int, previous: int, reste: bool, kind: str, accepted: bool) -> None:
        """Mark the raise answered; keep the answer to the raise to ``to`` (from
        ``previous``), to review it from the raise's position at the end."""
        self.rows[self.pending_row][self.at.answer] = kind
        if self.raises and len(self.table.players) == 2:
            row = len(self.rows)
            self.answers.append((row, accepted, to, previous, reste, len(self.raises) - 1))

    def _finish(
        self,
        end: _HandEnd,
        state: State | None = None,
        redeal_asked: bool = False,
        redeal_granted: bool = False,
    ) -> None:
        """Fill in what the end of the hand tells (cards known, hand won, strength,
        answer review) and write the hand's rows; ``state`` (the state after the last
        line) and the redeal give a full builder's ``hands`` row."""
        table, rows, at = self.table, self.rows, self.at
        rules, hands, winner = table.rules, end.cards, end.winner
        for values in rows:
            seat = table.seat[values[at.player]]
            values[at.known] = hands[seat] is not None
            if winner is not None:
                values[at.hand_won] = table.team[seat] == winner
        two, memo, key = len(table.players) == 2, self.out.memo, table.rules_key
        for row, seat, at_raise in self.raises:
            full = hands[seat]
            if full is not None and two:
                rows[row][at.strength] = memo.strength(rules, key, full, *at_raise)
        scores = self.scores
        for row, accepted, to, previous, reste, raised in self.answers:
            _, raiser, at_raise = self.raises[raised]
            side = raiser % 2
            stake = (scores[side], scores[1 - side], to, previous, reste)
            review = memo.review(
                rules, key, accepted, stake, at_raise, (hands[1 - raiser], hands[raiser])
            )
            rows[row][at.review : at.review + len(ANSWER_COLUMNS)] = review
        self.out.actions.extend(rows)
        row = len(self.out.hands)
        if state is not None and not self.narrow:
            self._hand_row(end, state, redeal_asked, redeal_granted)
        self._seat_rows(end, row)

    def _hand_row(
        self, end: _HandEnd, state: State, redeal_asked: bool, redeal_granted: bool
    ) -> None:
        table = self.table
        self.out.hands.append(
            (
                table.fingerprint,
                table.game,
                table.day,
                self.number,
                state.dealer_name,
                state.value,
                end.winner,
                end.points,
                end.ending,
                end.reste,
                redeal_asked,
                redeal_granted,
                len(self.raises),
                end.tricks,
                end.first_trick,
                self.scores[0],
                self.scores[1],
            )
        )

    def _seat_rows(self, end: _HandEnd, row: int) -> None:
        table, out = self.table, self.out
        size = len(table.players)
        for seat, player in enumerate(table.players):
            dealt = end.cards[seat]
            strength = None
            if size == 2 and dealt is not None:
                strength = out.memo.dealt(table.rules, dealt, end.dealer == seat)
            out.seats.append(
                (
                    row,
                    table.fingerprint,
                    self.number,
                    size,
                    player,
                    table.team[seat],
                    table.opponent[seat],
                    dealt,
                    strength,
                    end.winner,
                    end.points,
                    end.ending,
                    end.tricks,
                    end.first_trick,
                    end.dealer == seat,
                )
            )


def _end_of_facts(hand: tuple[Any, ...], table: _Seating) -> _HandEnd:
    """How a hand stands after its last line, from the quick core's facts of it (see
    :class:`~truclog.validate.GameFacts`)."""
    dealer, winner, points, ending, reste, tricks, first, cards = hand[1:2] + hand[4:11]
    team = table.team
    return _HandEnd(
        list(cards),
        dealer,
        None if winner < 0 else team[winner],
        points,
        "reste" if reste and ending != _DRAWN else _ENDINGS[ending],
        bool(reste),
        tricks,
        None if first == -2 else ("tie" if first < 0 else team[first]),
    )


def _end_of(state: State, outcome: Outcome | None, table: _Seating) -> _HandEnd:
    """How a hand stands after its last line (``state``), from the engine."""
    ending = "unfinished"
    if outcome is not None:
        ending = outcome.ending
        if outcome.reste and ending != "draw":
            ending = "reste"
    results = state.results
    first_trick = None
    if results:
        first_trick = "tie" if results[0] is None else table.team[results[0]]
    return _HandEnd(
        [_known(state.dealt_cards(player), table.rules.order) for player in table.players],
        state.dealer,
        outcome.winner if outcome is not None else None,
        outcome.points if outcome is not None else 0,
        ending,
        bool(outcome is not None and outcome.reste),
        len(results),
        first_trick,
    )


class _Moment(NamedTuple):
    """What an action's full row says of the hand just before it."""

    in_play: bool
    value: int
    tricks: int

    @classmethod
    def of(cls, state: State) -> _Moment:
        return cls(state.phase is Phase.PLAY, state.value, len(state.results))


_Place = tuple[int, int | None]
"""The trick on the table: how many cards, and the seat that played the first."""


def _place(state: State) -> _Place:
    trick = state.trick
    return len(trick), trick[0][0] if trick else None


def _answering(seat: int, pending: PendingRaise, place: _Place, seats: int) -> str:
    """The place in the trick of ``seat``, answering ``pending``: the trick's leader is
    who played its first card or, with none on the table, the raiser (who raised on
    their turn)."""
    leader = pending.raiser if place[1] is None else place[1]
    return _POSITIONS[(seat - leader) % seats]


_REDEALT, _RAISED, _ACCEPTED, _FOLDED = range(4)
"""The kinds of the quick core's events."""
_ANSWERS = {_ACCEPTED: "accept", _FOLDED: "fold"}
_ENDINGS = ("unfinished", "tricks", "fold", "draw")
"""How a hand ended, by the quick core's number for it."""
_DRAWN = _ENDINGS.index("draw")

_KIND = ACTION_TYPES
_COUNTED_KINDS = frozenset({Raise, Accept, Fold, Redeal})
"""The actions a statistic counts: a narrow builder writes rows for these only."""


class _Columns(NamedTuple):
    """Where a row of ``actions`` keeps what is filled in once the hand is over."""

    player: int
    known: int
    strength: int
    answer: int
    hand_won: int
    review: int


_FIRST_REVIEW = next(iter(ANSWER_COLUMNS))
_FULL_AT, _NARROW_AT = (
    _Columns(
        *(list(columns).index(_FIRST_REVIEW if n == "review" else n) for n in _Columns._fields)
    )
    for columns in (ACTIONS, COUNTED)
)
_SIDES = str.maketrans("WL", "LW")
_NO_REVIEW = (None,) * len(ANSWER_COLUMNS)


def answer_columns(review: AnswerReview) -> tuple[Any, ...]:
    """The :data:`ANSWER_COLUMNS` of an answer: the worths of accepting and folding
    from the answerer's chances, sound, right and the points given."""
    if review.odds is None:
        return _NO_REVIEW
    return (
        review.accept_worth,
        float(review.fold_worth),
        review.sound,
        review.right,
        review.points_given,
    )


def _known(cards: list[Card | None], order: str) -> str | None:
    """A seat's three ranks from high to low when the log knows them all, else ``None``."""
    if len(cards) != 3 or None in cards:
        return None
    return _ordered("".join(card.rank for card in cards if card is not None), order)


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

    def keeps(self, game: CheckedGame | GameTally) -> bool:
        if isinstance(game, GameTally):
            assert game.facts is not None and game.header is not None
            rules, header = game.facts.rules, game.header
        else:
            rules, header = game.rules, game.header
        if self.rules and rules.name not in self.rules:
            return False
        if self.sources and header.source not in self.sources:
            return False
        if self.since is None and self.until is None:
            return True
        day = tally_day(game) if isinstance(game, GameTally) else game_day(game)
        if day is None:
            return False
        return (self.since is None or day >= self.since) and (
            self.until is None or day <= self.until
        )


def table_batches(
    games: Iterable[Game | CheckedGame | GameTally],
    tally: Tally,
    batch_rows: int = 200_000,
    narrow: bool = False,
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


def tables(source: Paths | Iterable[Game | CheckedGame]) -> Tables:
    """The ``games``, ``hands`` and ``actions`` tables (and ``seats``) of some logs or
    games, built from each game's replay (:meth:`truclog.game.Hand.replay`), each play
    once. ``docs/stats.md`` describes every column.

    >>> t = tables("sample_logs/2026-11-29-cafe-du-port-classic.truclog.jsonl")
    >>> t.games.height, t.hands.height
    (1, 15)
    >>> t.hands.select("hand", "dealer", "winner", "points", "ending", "first_trick").head(2).rows()
    [(1, 'Marc', 'Marc', 2, 'tricks', 'Ana'), (2, 'Ana', 'Ana', 1, 'fold', 'Ana')]
    """
    return read_tables(games_of(source))


def read_tables(games: Iterable[Game | CheckedGame]) -> Tables:
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
    "tables",
]
