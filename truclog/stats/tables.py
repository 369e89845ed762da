"""Flatten checked games into three polars tables: ``games``, ``hands`` and ``actions``.

Games stream through a :class:`TableBuilder` that keeps plain column lists and
hands them over as DataFrames batch by batch, so a corpus of any size is read
with bounded memory. Only hands the validator passed (``hand.ok``) go into
the tables; the others are counted in ``games.hands_left_out``. A game seen
twice in one run (same fingerprint) is counted once. ``docs/stats.md``
describes every column.
"""

from __future__ import annotations

import sys
from bisect import bisect_left
from collections.abc import Callable, Generator, Iterable, Iterator, Sequence
from copy import copy
from dataclasses import dataclass, field
from datetime import date
from functools import cache, lru_cache
from itertools import chain, repeat
from typing import TYPE_CHECKING, Any, NamedTuple, TypeVar

import polars as pl

from truclog.build import QUICK_CORE
from truclog.engine.actions import Accept, Action, Deal, Fold, Play, Raise, Redeal
from truclog.engine.cards import Card
from truclog.engine.rules import Rules
from truclog.engine.state import Outcome, PendingRaise, Phase, State, points_won
from truclog.replay import Game, Hand, Paths, game_day, games_of, tally_day
from truclog.solver.answer import AnswerReview, Position, Stakes, stakes
from truclog.solver.answer import judged as judge_ranks
from truclog.solver.grade import Grade, grade_place
from truclog.solver.play import (
    SWAPPED,
    Played,
    PlayReview,
    Seen,
    Worth,
    judge_play,
    play_marks,
    play_positions,
)
from truclog.solver.strength import (
    Odds,
    deal_strength,
    played_this_hand,
    strength_of,
    trick_results,
)
from truclog.stats.kept import Tally
from truclog.terminal import unicode
from truclog.validate.checker import CheckedGame, Step
from truclog.validate.facts import FACT_ACTIONS, GameFacts
from truclog.validate.tally import GameTally

if TYPE_CHECKING:
    from truclog.record.annotations import Notes

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

DECISION_COLUMNS: dict[str, Any] = {
    "lost": pl.Int64,
    "best": pl.List(pl.Utf8),
    "grade": pl.Utf8,
}
"""The review of a decision, a card played or an answer to a raise: the points it lost
(an answer's ``points_given``), the cards or answers that lose nothing, its grade."""

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
    **DECISION_COLUMNS,
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
    "first": pl.Boolean,
    "first_dealt": pl.Boolean,
    "team_first_dealt": pl.Boolean,
}
"""One row per hand and seat (a long view of ``hands``, which statistics count from).
``first``: the seat's first hand of its game in the tables; ``first_dealt`` and
``team_first_dealt``: its first hand with this ``dealer`` (a hand the seat dealt, or
not) of the seat, and of its team (a hand its team dealt, or not). A game's hands may
come in several batches (a very long game): these say which batch counts the game."""

_HAND_ROW: dict[str, Any] = {
    **{k: v for k, v in HANDS.items() if k not in _SEAT_LISTS},
    "score_a": pl.Int64,
    "score_b": pl.Int64,
}

ANNOTATIONS: dict[str, Any] = {
    "fingerprint": pl.Utf8,
    "game": pl.Utf8,
    "date": pl.Date,
    "hand": pl.Int64,
    "step": pl.Int64,
    "line": pl.Int64,
    "source": pl.Utf8,
    "note": pl.Utf8,
    "marks": Strs,
    "t": pl.Utf8,
}
"""One row per note or marks on a line of a counted game (``source`` ``log``), or on
one of its steps in the log's notes file (``notes``): see :mod:`truclog.record.annotations`."""

SCHEMAS = {"games": GAMES, "hands": HANDS, "actions": ACTIONS, "annotations": ANNOTATIONS}

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
    "lost",
)
"""The ``actions`` columns that statistics count from."""

_POSITIONS = ("leader", "follower", "third", "fourth")


@dataclass(slots=True)
class Tables:
    """A batch of the tables: games, hands, actions and annotations (and seats, which
    statistics count from)."""

    games: pl.DataFrame
    hands: pl.DataFrame
    actions: pl.DataFrame
    seats: pl.DataFrame
    annotations: pl.DataFrame = field(default_factory=lambda: empty(ANNOTATIONS))

    def items(self) -> Iterator[tuple[str, pl.DataFrame]]:
        """The tables an export writes, by name."""
        yield from ((name, getattr(self, name)) for name in SCHEMAS)


def empty(schema: dict[str, Any]) -> pl.DataFrame:
    """A table with the columns of ``schema`` and no rows (made once per schema: a
    batch asks for a few of them, and a frame of 34 columns takes a while to make)."""
    made = _EMPTY.get(id(schema))
    if made is None or made[0] is not schema:
        made = _EMPTY[id(schema)] = (schema, pl.DataFrame(schema=schema))
    return made[1].clone()


_EMPTY: dict[int, tuple[dict[str, Any], pl.DataFrame]] = {}
"""The empty tables made so far, by their schema's identity (the schema kept with its table)."""


class TableBuilder:
    """Collects rows of the tables, game by game, as plain row lists.

    Every hand, whether replayed by the engine or told by the quick core, is kept as
    one row of :data:`_FACTS` (its number, dealer, score before it, how it ended and
    each seat's dealt ranks); the ``seats`` table (and, of a full builder, the
    per-hand columns of ``hands``) is made from these rows batch by batch, in polars.

    ``narrow`` builds only what statistics count from: the ``seats`` table, the
    :data:`COUNTED` columns of the ``actions`` rows that a statistic counts
    (raises, accepts, folds and redeals) and, of ``games``, the fingerprint,
    line and hand counts; ``hands`` is left empty. With the quick core built, a narrow
    builder keeps the facts of its hands and actions as rows of C values (a
    ``truclog.validate._quick.Facts``), which polars takes whole.

    A full builder without ``seats`` (an export's) leaves the ``seats`` table empty:
    which of a seat's hands is its first of the game, that statistics need, is not
    worked out.
    """

    def __init__(self, narrow: bool = False, seats: bool = True) -> None:
        self.narrow = narrow
        self.seats = seats or narrow
        self.memo = _Memo()
        self._notes_of: tuple[str, Notes | None] | None = None
        self.rows: Any = QUICK_CORE.Facts() if QUICK_CORE is not None else None
        """The facts of the hands (and a narrow builder's actions), as rows of C values
        (``None``: in :attr:`facts` and :attr:`counted`); of a full builder, with the rows
        of ``actions`` of the games the quick core cleared as it tells them (see
        :attr:`~truclog.validate.facts.GameFacts.wide`)."""
        self.continued = _NO_SEATS
        """Of a game whose hands go on in the next batch: its seats' rows seen so far
        (one per seat and ``dealer``, with the team's ``side_dealt``)."""
        self._open = ""
        """The fingerprint of the game in progress, while one is added part by part."""
        self._spare: list[Any] = []
        """The C rows of batches detached and flushed (see :meth:`detach`), emptied, their
        room kept for the batches to come."""
        self._detached = False
        self._reset()

    def _reset(self) -> None:
        self.games: list[tuple[Any, ...]] = []
        self.seating: list[tuple[Any, ...]] = []
        self.facts: tuple[list[Any], ...] = tuple([] for _ in _FACTS)
        """The :data:`_FACTS` of the hands, column by column."""
        self.fact_games: list[int] = []
        """The number of each hand's game in :attr:`seating`."""
        self.counted: tuple[list[Any], ...] = tuple([] for _ in _NARROW_ACTIONS)
        """A narrow builder's rows of ``actions``, column by column."""
        self.hands: list[tuple[Any, ...]] = []
        self.actions: list[list[Any]] = []
        self.annotations: list[tuple[Any, ...]] = []
        self.runs: list[list[int]] = []
        """The ``actions`` rows in the order of the games: runs of [1 for those the quick
        core told (in :attr:`rows`), 0 for :attr:`actions`, how many rows]."""

    def add(self, game: Game | CheckedGame | GameTally) -> tuple[int, int]:
        """Add a game's validated hands; returns (hands added, hands left out). A game
        the quick core cleared comes with its facts (:class:`~truclog.validate.GameFacts`),
        and only to a narrow builder."""
        parts = self.parts(game)
        while True:
            try:
                next(parts)
            except StopIteration as done:
                added: tuple[int, int] = done.value
                return added

    def parts(
        self, game: Game | CheckedGame | GameTally, batch_rows: int | None = None
    ) -> Generator[None, None, tuple[int, int]]:
        """Add a game as :meth:`add` does; given ``batch_rows``, stop (yield) as soon as
        the batch has that many ``actions`` rows, within a game checked line by line too,
        for the caller to take the batch (:meth:`flush` or :meth:`detach`) before going
        on: a game of any length is counted (and exported) in the memory of a batch. A
        narrow builder's row of ``games`` for such a game is then in each of its
        batches, with the hands of that batch; a full builder's is in its last, with all
        its hands counted."""
        if isinstance(game, GameTally):
            facts = game.facts
            if facts is not None and facts.wide and not self.narrow:
                if facts.blocks is not None:  # in batches of ``batch_rows``, if given
                    yield from self.pieces(game, batch_rows or sys.maxsize)
                    return facts.hand_count, 0
                return self._add_cleared(game, facts)
            if facts is None or not self.narrow:
                raise ValueError(f"{game.id}: a game cleared without its facts makes no table rows")
            day, added = tally_day(game), facts.hand_count
            if batch_rows is not None and _fact_rows(facts) > batch_rows:
                return (yield from self._cleared_parts(game, facts, day, batch_rows))
            self.take(self._seat_row(game, day, facts.rules, facts.teams), facts)
            self.games.append((game.fingerprint, game.line, added, 0, day))
            return added, 0
        annotated = game if isinstance(game, Game) else None
        if isinstance(game, Game):
            game = game.checked
        day = game_day(game)
        if not self.narrow:
            self._annotate(annotated or Game(game, self._notes(game.path)), day)
        table = _Seating.seated(
            self._seat_row(game, day, game.rules, game.teams),
            game,
            day,
            game.rules,
            game.teams,
            self.memo,
        )
        told: list[tuple[tuple[Any, ...], list[tuple[Any, ...]]]] = []
        added = left_out = 0  # of this batch
        earlier = (0, 0)  # hands added and left out in the batches before
        self._open = game.fingerprint
        limit = (
            batch_rows if batch_rows is None or not self.narrow else min(batch_rows, LONG_GAME_ROWS)
        )
        for hand in game.hands:
            if not (hand.ok and hand.steps):
                left_out += 1
                continue
            start = hand.start.score
            scores = start[table.team[0]], start[table.team[1]]
            rows = _HandRows(self, table, hand.number, scores).run(Hand(hand))
            if self.narrow:
                told.append(rows)
                if batch_rows is None or len(told) < _PART_HANDS:
                    continue
                self.take(table.g, _facts_of(table, told))
                added += len(told)
                told = []
            else:  # its rows kept as made
                added += 1
            if limit is not None and self.fill >= limit:
                if self.narrow:
                    self._counted(game, table, added, left_out)
                else:
                    self._replayed()
                earlier = (earlier[0] + added, earlier[1] + left_out)
                added = left_out = 0
                yield  # the batch taken
                table.g = self._seat_row(game, day, game.rules, game.teams)
        self._open = ""
        if self.narrow:
            self.take(table.g, _facts_of(table, told))
            added, left_out = self._counted(game, table, added + len(told), left_out)
            return earlier[0] + added, earlier[1] + left_out
        self._replayed()
        return self._counted(game, table, earlier[0] + added, earlier[1] + left_out)

    def _cleared_parts(
        self, game: GameTally, facts: GameFacts, day: date | None, batch_rows: int
    ) -> Generator[None, None, tuple[int, int]]:
        """Add the facts of a cleared game of more than ``batch_rows`` rows of ``actions``
        to a narrow builder a few hands at a time, stopping as each batch fills, with
        the game's row of ``games`` and its seating (as for a game checked line by line)."""
        count, per_hand = facts.hand_count, max(1, _fact_rows(facts) // max(facts.hand_count, 1))
        start, taken, g = 0, 0, -1
        self._open = game.fingerprint
        while start < count:
            if g < 0:
                g, taken = self._seat_row(game, day, facts.rules, facts.teams), 0
            stop = min(count, start + max(1, (batch_rows - self.fill) // per_hand))
            self.take(g, facts, range(start, stop))
            taken += stop - start
            start = stop
            if start == count or self.fill >= batch_rows:
                self.games.append((game.fingerprint, game.line, taken, 0, day))
            if start < count and self.fill >= batch_rows:
                yield  # the batch taken
                g = -1
        self._open = ""
        return count, 0

    def _replayed(self) -> None:
        """Note the rows of ``actions`` of the replayed game not noted yet (and move its
        hands' facts into :attr:`rows`, if kept there)."""
        self._ran(0, len(self.actions) - sum(n for quick, n in self.runs if not quick))
        if self.rows is None or not self.fact_games:
            return
        more = [list(column) for column in zip(*self.hands, strict=True)]
        self.rows.take_lists(self.facts, _NO_ACTIONS, self.fact_games[0], more)
        self.facts = tuple([] for _ in _FACTS)
        self.fact_games, self.hands = [], []

    def _ran(self, quick: int, rows: int) -> None:
        """Note the next ``rows`` rows of ``actions`` (of :attr:`lines` if ``quick``)."""
        if self.runs and self.runs[-1][0] == quick:
            self.runs[-1][1] += rows
        elif rows:
            self.runs.append([quick, rows])

    def _add_cleared(
        self,
        game: GameTally,
        facts: GameFacts,
        told: Any = None,
        hands: range | None = None,
        first: bool = True,
    ) -> tuple[int, int]:
        """Add the rows of a game the quick core cleared, with an export's rows in its
        facts (or in ``told``, a block of them): of its ``hands`` (by index; all of them
        by default), with the game's row of ``games`` if they are its ``first``."""
        told = facts.rows if told is None else told
        hands = range(int(told.hands)) if hands is None else hands
        day = tally_day(game)
        if first:
            self.games.append(_cleared_game(game, day, facts, self.memo))
        g = self._seat_row(game, day, facts.rules, facts.teams)
        self._ran(1, self.rows.take_hands(told, g, hands.start, hands.stop))
        return len(hands), 0

    def pieces(self, game: GameTally, rows: int) -> Iterator[None]:
        """Add a cleared game with an export's rows of more than ``rows`` rows of
        ``actions`` a few hands at a time, stopping as each batch of about ``rows`` rows
        fills, for the caller to take it (the rest stays in the builder); of a long
        game, its rows as the quick core tells them again, a block of hands at a time."""
        facts = game.facts
        assert facts is not None and facts.wide
        first = True
        for told in (facts.rows,) if facts.blocks is None else facts.blocks:
            at_hand, start, count = told.line_hands(), 0, int(told.hands)
            while start < count:
                line = bisect_left(at_hand, start) + max(1, rows - self.fill)
                stop = at_hand[line - 1] + 1 if line <= len(at_hand) else count
                self._add_cleared(game, facts, told, range(start, max(stop, start + 1)), first)
                first, start = False, max(stop, start + 1)
                if self.fill >= rows:
                    yield  # the batch taken

    def _annotate(self, game: Game, day: date | None) -> None:
        """Keep the rows of ``annotations`` of a game: of its lines and its notes file."""
        fingerprint = game.fingerprint
        for hand in game.hands:
            steps = hand.steps
            for a in hand.annotations:
                line = steps[a.step - 1].line if a.step <= len(steps) else None
                row = (fingerprint, a.game, day, a.hand, a.step, line, a.source, a.note)
                self.annotations.append((*row, list(a.marks), a.t))

    def _notes(self, log: str) -> Notes | None:
        """The notes file of the log of the games being added (read once per log)."""
        if self._notes_of is None or self._notes_of[0] != log:
            from truclog.record.annotations import has_notes, read_notes

            self._notes_of = (log, read_notes(log) if has_notes(log) else None)
        return self._notes_of[1]

    def _seat_row(
        self, game: CheckedGame | GameTally, day: date | None, rules: Rules, teams: tuple[str, str]
    ) -> int:
        """Keep the seating of a game for its hands' rows; its number in the batch."""
        players = game.players
        names = (*players, None, None) if len(players) == 2 else players
        key = self.memo.key_of(rules)
        self.seating.append((game.fingerprint, game.id, day, len(players), key, *teams, *names))
        return len(self.seating) - 1

    def _counted(
        self, game: CheckedGame, table: _Seating, added: int, left_out: int
    ) -> tuple[int, int]:
        """Write the game's row of ``games``."""
        if self.narrow:
            self.games.append((game.fingerprint, game.line, added, left_out, table.day))
            return added, left_out
        header, final = game.header, game.final
        row = {
            "file": unicode(game.path),
            "line": game.line,
            "game": game.id,
            "fingerprint": game.fingerprint,
            "date": table.day,
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

    def take(self, g: int, facts: GameFacts, hands: range | None = None) -> None:
        """Keep the facts of the hands of the batch's game ``g`` and the narrow rows of
        their actions (their raises' strengths and the reviews of their answers and
        plays already in them): of its ``hands`` (by index; all by default)."""
        if self.rows is not None:
            if facts.rows is not None:
                whole = (0, facts.hand_count) if hands is None else (hands.start, hands.stop)
                self.rows.take(facts.rows, g, *whole)
            else:
                self.rows.take_lists(*_some_hands(facts, hands), g)
            return
        assert hands is None, "facts without the quick core are a game's whole"
        start = len(self.fact_games)
        for column, values in zip(self.facts, facts.hands, strict=True):
            column.extend(values)
        self.fact_games.extend(repeat(g, facts.hand_count))
        counted, hand_of = self.counted, facts.actions[0]
        counted[0].extend([hand + start for hand in hand_of] if start else hand_of)
        for column, values in zip(counted[1:], facts.actions[1:], strict=True):
            column.extend(values)

    @property
    def action_rows(self) -> int:
        """The ``actions`` rows collected so far."""
        if self.narrow:
            return len(self.counted[0]) if self.rows is None else int(self.rows.actions)
        return len(self.actions) + (0 if self.rows is None else int(self.rows.lines))

    @property
    def fill(self) -> int:
        """How full the batch is, in rows of ``actions``: a full builder's rows of
        replayed games count three times (Python values until the batch is written,
        where a cleared game's are C values: 4,000 more of them added 16 MB to an
        export's peak, 4,000 more of a cleared game's 6 to 8 MB), so that an export's
        batch holds 4,000 of them at most, as many as when it held 8,000 of a cleared
        game's."""
        if self.narrow:
            return self.action_rows
        return 3 * len(self.actions) + (0 if self.rows is None else int(self.rows.lines))

    def _facts_frames(self) -> tuple[pl.DataFrame, pl.DataFrame]:
        """The :data:`_FACTS` of the hands (with ``g``, the game's number in
        :attr:`seating`) and a narrow builder's :data:`_NARROW_ACTIONS` rows."""
        if self.rows is not None:
            hands, actions = self.rows.flush()
            return pl.DataFrame(hands), pl.DataFrame(actions)
        facts = _columns(self.facts, _FACTS).with_columns(
            pl.Series("g", self.fact_games, pl.UInt32)
        )
        return facts, _columns(self.counted, _NARROW_ACTIONS)

    def flush(self) -> Tables:
        """The rows collected so far as DataFrames; the builder starts empty again."""
        if not self.narrow and self.rows is not None:
            return self._told()
        seating = _frame(self.seating, _SEATING)
        facts, counted = self._facts_frames()
        hands = _named_hands(facts, seating)
        if not self.narrow:  # without the quick core
            seats = self._seats(seating, hands) if self.seats else empty(SEATS)
            more = _frame(self.hands, _HAND_MORE)
            return self._wide(_wide_hands(hands, more, self.memo), None, seats)
        names = _Names.of(seating, hands)
        seats, self.continued = _firsts(_seats(hands, names, self.memo), self.continued, self._open)
        seats = seats.drop("row")
        players = pl.concat_list(_PLAYERS).list.drop_nulls().alias("players")
        games = _frame(self.games, _NARROW_GAMES).with_columns(seating.select(players))
        actions = _counted_actions(counted, hands, names)
        self._reset()
        return Tables(games, empty(HANDS), actions, seats)

    def detach(self) -> TableBuilder:
        """The rows collected so far as a builder of their own, whose :meth:`flush` makes
        their tables (on another thread, see :func:`gathered_batches`, while this one goes
        on); this one starts empty again, with C rows that a batch detached before gave
        back once flushed. Of a full builder without ``seats`` (an export's): a narrow
        builder's seats, and a full one's, carry on from one batch to the next."""
        assert not self.narrow and not self.seats, "a batch with seats is flushed in place"
        held = copy(self)  # its lists, its C rows; the memo (and the spare rows) shared
        held._detached = True
        if self.rows is not None and QUICK_CORE is not None:
            self.rows = self._spare.pop() if self._spare else QUICK_CORE.Facts()
        self._reset()
        return held

    def _seats(self, seating: pl.DataFrame, hands: pl.DataFrame) -> pl.DataFrame:
        """The ``seats`` rows of a full builder's batch: of its ``seating`` and named
        ``hands`` (see :func:`_named_hands`)."""
        names = _Names.of(seating, hands)
        seats, self.continued = _firsts(_seats(hands, names, self.memo), self.continued, self._open)
        return seats.drop("row")

    def _told(self) -> Tables:
        """A full builder's tables with the quick core: the rows of ``hands`` and those of
        ``actions`` of the batch's cleared games made by the quick core column by column
        from the rows it told of their lines, hands and reviewed actions and from the
        batch's seating (see ``truclog/validate/_wide.h``), and taken by polars whole; a
        dealt hand's strength asked of :attr:`memo` (:meth:`_Memo.dealt_number`). The
        rows told are emptied, their room kept for the next batch (of a builder with
        ``seats``, once these are made)."""
        assert QUICK_CORE is not None
        days = [None if row[2] is None else row[2].toordinal() - _EPOCH for row in self.seating]
        memo, rows = self.memo, self.rows
        cleared = pl.DataFrame(
            QUICK_CORE.wide_actions(rows, self.seating, days, grade_place, _GRADES)
        )
        hands = pl.DataFrame(
            QUICK_CORE.wide_hands(
                rows, self.seating, days, memo.dealt_numbers, memo.dealt_number, not self.seats
            )
        )
        seats = empty(SEATS)
        if self.seats:
            seating = _frame(self.seating, _SEATING)
            seats = self._seats(seating, _named_hands(self._facts_frames()[0], seating))
        return self._wide(hands, cleared, seats)

    def _wide(
        self, hands: pl.DataFrame, cleared: pl.DataFrame | None, seats: pl.DataFrame
    ) -> Tables:
        """The full tables of the batch's ``hands`` (and the rows of ``actions`` of its
        ``cleared`` games); the builder starts empty again."""
        tables = Tables(
            _made(self.games, GAMES) if self.rows is not None else _frame(self.games, GAMES),
            hands,
            self._actions(cleared),
            seats,
            _frame(self.annotations, ANNOTATIONS),
        )
        self._reset()
        if self._detached and self.rows is not None and len(self._spare) < 2:
            self._spare.append(self.rows)  # emptied: its room serves a batch to come
            self.rows = None
        return tables

    def _actions(self, cleared: pl.DataFrame | None) -> pl.DataFrame:
        """The batch's ``actions``: the rows of replayed games and of ``cleared`` games,
        in the order of the games."""
        made = [_frame(self.actions, ACTIONS), empty(ACTIONS)]
        if cleared is not None and cleared.height:
            made[1] = cleared
        if len(self.runs) == 1:
            return made[self.runs[0][0]]
        at = [0, 0]
        pieces = []
        for quick, rows in self.runs:
            pieces.append(made[quick].slice(at[quick], rows))
            at[quick] += rows
        return pl.concat(pieces) if pieces else empty(ACTIONS)


_NARROW_GAMES = {
    name: GAMES[name] for name in ("fingerprint", "line", "hands", "hands_left_out", "date")
}
"""A narrow builder's ``games`` row; the players come from the game's seating."""

_NARROW_ACTIONS: dict[str, Any] = {
    "row": pl.UInt32,
    "seat": pl.Int64,
    **{name: ACTIONS[name] for name in FACT_ACTIONS[2:]},
}
"""A narrow builder's ``actions`` row: the facts' actions (:data:`FACT_ACTIONS`: its
hand's ``row``, the actor's seat, the :data:`COUNTED` columns that these do not tell, see
:func:`_counted_actions`, and a play's rank and the hand's value then)."""
_NARROW_AT = {name: at for at, name in enumerate(_NARROW_ACTIONS)}
_REVIEW_AT = _NARROW_AT[next(iter(ANSWER_COLUMNS))]

_FACTS: dict[str, Any] = {
    "hand": pl.Int64,
    "dealer": pl.Int64,
    "score_a": pl.Int64,
    "score_b": pl.Int64,
    "winner": pl.Int64,
    "points": pl.Int64,
    "ending": pl.Int64,
    "reste": pl.Int64,
    "tricks": pl.Int64,
    "first_trick": pl.Int64,
    **{f"cards_{seat}": pl.Utf8 for seat in range(4)},
}
"""A hand as it ended, as the quick core tells it (``truclog.validate._quick.scan``'s facts, but
the events) and as :func:`_fact_of` reads it from the engine: its number, dealer seat,
the score before it, winner side (-1 none), points, how it ended (:data:`_ENDINGS`),
reste (0 or 1), tricks, first trick (its side, -1 tied, -2 none) and each of four seats'
dealt ranks, high to low (``None`` unless all three are known, or past the seats)."""

_SEATING: dict[str, Any] = {
    "fingerprint": pl.Utf8,
    "game": pl.Utf8,
    "date": pl.Date,
    "size": pl.Int64,
    "rules_key": pl.Int64,
    "team_a": pl.Utf8,
    "team_b": pl.Utf8,
    **{f"player_{seat}": pl.Utf8 for seat in range(4)},
}
_PLAYERS = [f"player_{seat}" for seat in range(4)]
"""A game of a batch, as its hands' rows need it (see :meth:`TableBuilder._seat`)."""

_HAND_MORE: dict[str, Any] = {
    "value": pl.Int64,
    "redeal_asked": pl.Boolean,
    "redeal_granted": pl.Boolean,
    "raises": pl.Int64,
}
"""What a full builder's ``hands`` row says beyond the hand's :data:`_FACTS`."""


_NO_ACTIONS: tuple[list[Any], ...] = tuple([] for _ in _NARROW_ACTIONS)
"""No :data:`_NARROW_ACTIONS` rows (a full builder keeps its own rows of ``actions``)."""

_CARDS = [f"cards_{seat}" for seat in range(4)]

_EPOCH = date(1970, 1, 1).toordinal()
_GRADES = tuple(str(grade) for grade in Grade)
"""The grades' names, best first (as :func:`~truclog.solver.grade.grade_of` tells them)."""


def _cleared_game(
    game: GameTally, day: date | None, facts: GameFacts, memo: _Memo
) -> tuple[Any, ...]:
    """The ``games`` row of a game the quick core cleared (its file's name and its rules'
    label as ``memo`` last made them: the games of a log share them)."""
    header, teams, rules = game.header, facts.teams, facts.rules
    assert header is not None
    if game.path != memo.path[0]:
        memo.path = (game.path, unicode(game.path))
    if rules is not memo.described[0]:
        memo.described = (rules, rules.describe())
    return (
        memo.path[1],
        game.line,
        game.id,
        game.fingerprint,
        day,
        memo.described[1],
        rules.name,
        game.players,  # tuples: the quick core makes the frame (see _made)
        teams,
        header.dealer,
        (game.score[teams[0]], game.score[teams[1]]),
        game.winner,
        game.complete,
        header.match,
        header.source,
        facts.hand_count,
        0,
    )


def _frame(rows: list[Any], schema: dict[str, Any]) -> pl.DataFrame:
    """Rows (tuples or lists in schema order) as a DataFrame, built column by column."""
    if not rows:
        return empty(schema)
    columns = zip(*rows, strict=True)
    return pl.DataFrame(
        [
            _series(name, list(values), schema[name])
            for name, values in zip(schema, columns, strict=True)
        ]
    )


def _made(rows: list[Any], schema: dict[str, Any]) -> pl.DataFrame:
    """Rows (tuples in schema order) as a DataFrame made by the quick core
    (``_quick.wide_rows``), column by column, without a polars call per column."""
    assert QUICK_CORE is not None
    if not rows:
        return empty(schema)
    return pl.DataFrame(
        QUICK_CORE.wide_rows(rows, tuple(schema), _row_kinds(tuple(schema.items())))
    )


@cache
def _row_kinds(schema: tuple[tuple[str, Any], ...]) -> str:
    """The kinds of the columns of ``schema`` as ``_quick.wide_rows`` is told them."""
    kinds = {pl.Utf8: "t", pl.Int64: "i", pl.Boolean: "b", pl.Date: "d", Strs: "T"}
    return "".join(kinds.get(kind, "I" if kind == pl.List(pl.Int64) else "?") for _, kind in schema)


def _series(name: str, values: list[Any], kind: Any) -> pl.Series:
    """A column of ``values``; a column of lists, none empty, made from their items
    (polars makes a list column from Python lists one list at a time, far slower)."""
    if not isinstance(kind, pl.List) or not all(values):
        return pl.Series(name, values, kind)
    items = pl.Series(name, list(chain.from_iterable(values)), kind.inner)
    width = len(values[0])
    if all(len(value) == width for value in values):  # lists of one length: cut in rows
        return items.reshape((len(values), width)).cast(kind)
    rows = pl.Series("row", [row for row, value in enumerate(values) for _ in value], pl.UInt32)
    lists = pl.DataFrame([rows, items]).group_by("row", maintain_order=True).agg(name)
    return lists.get_column(name)


def _columns(columns: tuple[list[Any], ...], schema: dict[str, Any]) -> pl.DataFrame:
    """Columns (lists in schema order) as a DataFrame."""
    return pl.DataFrame(dict(zip(schema, columns, strict=True)), schema=schema)


def _side(column: str) -> pl.Expr:
    """A side's number (0, 1) as its team's name; ``None`` for any other number."""
    side = pl.col(column)
    return pl.when(side == 0).then(pl.col("team_a")).when(side == 1).then(pl.col("team_b"))


def _named_hands(facts: pl.DataFrame, seating: pl.DataFrame) -> pl.DataFrame:
    """The :data:`_FACTS` of a batch's hands (each with ``g``, its game's number) with
    their game's seating, each told in words as in ``hands``: winner (its side kept as
    ``side``), ending and first trick; ``row`` numbers the hands."""
    ending = pl.col("ending")
    games = seating[facts.get_column("g")]  # each hand's game, taken by its number
    return pl.concat(
        [facts.with_columns(pl.int_range(pl.len(), dtype=pl.UInt32).alias("row")), games],
        how="horizontal",
    ).with_columns(
        pl.col("winner").alias("side"),
        _side("winner").alias("winner"),
        pl.when((pl.col("reste") != 0) & (ending != _DRAWN))
        .then(pl.lit("reste"))
        .otherwise(ending.replace_strict(dict(enumerate(_ENDINGS)), return_dtype=pl.Utf8))
        .alias("ending"),
        pl.when(pl.col("first_trick") == -1)
        .then(pl.lit("tie"))
        .otherwise(_side("first_trick"))
        .alias("first_trick"),
    )


def _wide_hands(hands: pl.DataFrame, more: pl.DataFrame, memo: _Memo) -> pl.DataFrame:
    """The ``hands`` rows of a batch's named hands (see :func:`_named_hands`) with
    ``more`` beside them (:data:`_HAND_MORE`), in few polars calls: each hand's lists
    (``players``, ``teams``, ``opponents``, ``score_before``, ``cards`` and
    ``strength``) made across its own columns, seat by seat, and each seat's dealt
    strength joined from those ``memo`` knows, made again when a batch deals new ranks
    (see :func:`_dealt`). Each polars call costs about as much as its work on a few
    thousand rows, so there are few."""
    size = hands.get_column("size")
    same = hands.height == 0 or size.min() == size.max()
    width = int(size[0]) if hands.height and same else 4

    def seated(columns: list[pl.Expr]) -> pl.Expr:
        lists = pl.concat_arr(columns[:width]).arr.to_list()
        return lists if same else lists.list.head(pl.col("size"))

    a, b = pl.col("team_a"), pl.col("team_b")
    two = pl.col("size") == 2
    nothing = pl.lit(None, pl.Float64)
    dealt = [(pl.col("dealer") == seat).alias(f"dealt_{seat}") for seat in (0, 1)]
    table = hands.hstack(more).with_columns(dealt)
    joined = None if memo.dealt_table is None else _with_dealt(table, memo.dealt_table)
    if joined is None or any(  # a seat's ranks not asked yet
        joined.get_column(f"strength_{seat}").null_count()
        != joined.get_column(f"cards_{seat}").null_count()
        for seat in (0, 1)
    ):
        memo.dealt_table = _dealt(hands, memo)
        joined = _with_dealt(table, memo.dealt_table)
    players = seated([pl.col(name) for name in _PLAYERS])
    lists = {
        "players": players,
        "teams": seated([a, b, a, b]),
        "opponents": seated([b, a, b, a]),
        "score_before": pl.concat_arr("score_a", "score_b").arr.to_list(),
        "cards": seated([pl.col(name) for name in _CARDS]),
        "strength": seated(
            [pl.when(two).then(f"strength_{seat}") for seat in (0, 1)] + [nothing, nothing]
        ),
    }
    made = {
        **lists,
        "dealer": players.list.get(pl.col("dealer")),
        "reste": pl.col("reste") != 0,
    }
    return joined.select(made[name].alias(name) if name in made else name for name in HANDS)


def _with_dealt(table: pl.DataFrame, known: pl.DataFrame) -> pl.DataFrame:
    """``table`` (hands, with ``dealt_0`` and ``dealt_1``, whether seat 0 or 1 dealt)
    with ``strength_0`` and ``strength_1``, the strengths ``known`` gives of the ranks
    dealt to seats 0 and 1 (null where it has none)."""
    for seat in (0, 1):
        table = table.join(
            known.rename({"strength": f"strength_{seat}"}),
            left_on=["rules_key", f"cards_{seat}", f"dealt_{seat}"],
            right_on=["rules_key", "cards", "dealer"],
            how="left",
            maintain_order="left",
        )
    return table


def _dealt(hands: pl.DataFrame, memo: _Memo) -> pl.DataFrame:
    """The strength of each hand dealt to seat 0 or 1 of ``hands`` whose ranks are
    known (a four-player hand's too, which ``hands`` leaves out), and of those ``memo``
    already holds in its ``dealt_table`` (up to :data:`_Memo.REMEMBERED` of them): a
    table of ``rules_key``, ``cards``, ``dealer`` (whether the seat dealt) and
    ``strength``, each asked of ``memo`` once. A corpus deals a few hundred ranks at
    most under each rules, so the table is made again only where a batch deals new ones."""
    key = pl.col("rules_key")
    asked = pl.concat(
        hands.select(key, pl.col(f"cards_{seat}").alias("cards"), pl.col("dealer") == seat)
        for seat in (0, 1)
    )
    asked = asked.filter(pl.col("cards").is_not_null()).unique()
    rules = list(memo.rules)
    strengths = [memo.dealt(rules[k], cards, dealer) for k, cards, dealer in asked.iter_rows()]
    found = asked.hstack([pl.Series("strength", strengths, pl.Float64)])
    before = memo.dealt_table
    if before is None or before.height + found.height > _Memo.REMEMBERED:
        return found
    return pl.concat([before, found]).unique(["rules_key", "cards", "dealer"])


def _stacked(table: pl.DataFrame, columns: list[str]) -> pl.Series:
    """The ``columns`` of ``table`` one after another: the k-th's row r at
    ``k * table.height + r``."""
    return pl.concat([table.get_column(name) for name in columns], rechunk=True)


class _Names(NamedTuple):
    """Who sat where in a batch's games, and each hand's seats' cards, taken by number
    (see :func:`_stacked`): of ``games`` games and ``hands`` hands."""

    players: pl.Series
    teams: pl.Series
    cards: pl.Series
    games: int
    hands: int

    @classmethod
    def of(cls, seating: pl.DataFrame, hands: pl.DataFrame) -> _Names:
        players, teams = _stacked(seating, _PLAYERS), _stacked(seating, ["team_a", "team_b"])
        return cls(players, teams, _stacked(hands, _CARDS), seating.height, hands.height)

    def seated(self, g: pl.Series, row: pl.Series, seat: pl.Series) -> dict[str, pl.Series]:
        """The player, team, opponent and dealt ranks of each seat ``seat`` of hand row
        ``row`` of game ``g``."""
        g, seat = g.cast(pl.Int64), seat.cast(pl.Int64)
        side = seat % 2
        return {
            "player": self.players.gather(seat * self.games + g),
            "team": self.teams.gather(side * self.games + g),
            "opponent": self.teams.gather((1 - side) * self.games + g),
            "cards": self.cards.gather(seat * self.hands + row.cast(pl.Int64)),
        }


def _counted_actions(counted: pl.DataFrame, hands: pl.DataFrame, names: _Names) -> pl.DataFrame:
    """A narrow builder's ``actions`` rows (:data:`_NARROW_ACTIONS`) with the
    :data:`COUNTED` columns their hand (in ``hands``, named) and seat tell."""
    row, seat = counted.get_column("row"), counted.get_column("seat")
    hand = hands.select("fingerprint", "hand", "side", "g")[row]
    seated = names.seated(hand.get_column("g"), row, seat)
    side = pl.col("side")
    return (
        pl.concat([counted, hand.drop("g")], how="horizontal")
        .with_columns(
            seated["player"].alias("player"),
            seated["team"].alias("team"),
            seated["opponent"].alias("opponent"),
            seated["cards"].is_not_null().alias("known"),
            pl.when(side >= 0).then(side == pl.col("seat") % 2).alias("hand_won"),
            pl.when(pl.col("type").is_in(["accept", "fold"]))
            .then(pl.col("points_given"))
            .otherwise(pl.col("lost"))
            .alias("lost"),
        )
        .select(COUNTED)
    )


_PART_HANDS = 256
"""Hands of a game checked line by line turned into rows at a time, when its rows may
go in several batches."""

LONG_GAME_ROWS = 5_000
"""Rows of ``actions`` at most in a narrow builder's batch that a game checked line by
line fills (one of more than :data:`_PART_HANDS` hands): such a game's batches are
counted one after the other, and each 5,000 rows more of a batch took about 5 MB more
at the peak of ``truclog stats`` (a batch of 20,000: 17 MB more on a game of 100,000
hands), for no CPU time saved. Batches of many games keep their size."""

_FIRSTS = ("row", "first", "first_dealt", "team_first_dealt")
"""The columns of ``seats`` :func:`_firsts` adds (and ``row``, which comes first)."""

_NO_SEATS = pl.DataFrame(
    schema={"fingerprint": pl.Utf8, "seat": pl.Int8, "dealer": pl.Boolean, "side_dealt": pl.Boolean}
)


def _firsts(
    seats: pl.DataFrame, continued: pl.DataFrame, open_game: str
) -> tuple[pl.DataFrame, pl.DataFrame]:
    """A batch's ``seats`` with their ``first``, ``first_dealt`` and ``team_first_dealt``,
    less what the batch before saw of the game it ``continued``; and what this batch
    and those before saw of the game still ``open`` (its fingerprint, or empty)."""
    side_dealt = pl.col("dealer").any().over("row", pl.col("seat") % 2).alias("side_dealt")
    seats = seats.with_columns(side_dealt)
    seen = continued.with_columns(pl.lit(True).alias("seen"))
    dealt = seen.select("fingerprint", "seat", "dealer", "seen").unique()
    sides = seen.select(
        "fingerprint",
        (pl.col("seat") % 2).alias("side"),
        "side_dealt",
        pl.col("seen").alias("side_seen"),
    ).unique()
    marked = (
        seats.with_columns((pl.col("seat") % 2).alias("side"))
        .join(dealt, on=["fingerprint", "seat", "dealer"], how="left", maintain_order="left")
        .join(sides, on=["fingerprint", "side", "side_dealt"], how="left", maintain_order="left")
        .with_columns(
            (
                pl.struct("fingerprint", "seat").is_first_distinct()
                & ~pl.col("fingerprint").is_in(
                    continued.get_column("fingerprint").unique().implode()
                )
            ).alias("first"),
            (
                pl.struct("fingerprint", "seat", "dealer").is_first_distinct()
                & pl.col("seen").is_null()
            ).alias("first_dealt"),
            (
                pl.struct("fingerprint", "side", "side_dealt").is_first_distinct()
                & pl.col("side_seen").is_null()
            ).alias("team_first_dealt"),
        )
    )
    still = pl.DataFrame(schema=_NO_SEATS.schema)
    if open_game:
        mine = pl.col("fingerprint") == open_game
        here = marked.filter(mine).select(_NO_SEATS.columns)
        before = continued.filter(mine)
        still = pl.concat([before, here.cast(_NO_SEATS.schema)]).unique(maintain_order=True)
    return marked.select(*SEATS), still


def _seats(hands: pl.DataFrame, names: _Names, memo: _Memo) -> pl.DataFrame:
    """The ``seats`` rows of a batch's named hands (with ``row``, the hand's), seat by
    seat, each dealt hand's strength asked of ``memo`` once per batch."""
    places = hands.select("row", pl.int_ranges(0, "size", dtype=pl.Int64).alias("seat"))
    places = places.explode("seat")
    row, seat = places.get_column("row"), places.get_column("seat")
    told = ("fingerprint", "hand", "size", "g", "winner", "points", "ending", "tricks")
    hand = hands.select(*told, "first_trick", "dealer", "rules_key")[row]
    seated = names.seated(hand.get_column("g"), row, seat)
    seats = pl.DataFrame(
        {
            "row": row,
            **{name: hand.get_column(name) for name in ("fingerprint", "hand", "size")},
            **seated,
            **{name: hand.get_column(name) for name in told[4:]},
            "first_trick": hand.get_column("first_trick"),
            "dealer": hand.get_column("dealer") == seat,
            "rules_key": hand.get_column("rules_key"),
            "seat": seat.cast(pl.Int8),
        }
    )
    keys = ["size", "rules_key", "cards", "dealer"]
    asked = seats.filter((pl.col("size") == 2) & pl.col("cards").is_not_null()).select(keys)
    asked = asked.unique(maintain_order=True)
    rules = list(memo.rules)
    strengths = [memo.dealt(rules[key], cards, dealer) for _, key, cards, dealer in asked.rows()]
    asked = asked.with_columns(pl.Series("strength", strengths, pl.Float64))
    seats = seats.join(asked, on=keys, how="left", maintain_order="left", nulls_equal=False)
    return seats.select("row", *(name for name in SEATS if name not in _FIRSTS), "seat")


@dataclass(slots=True)
class _Seating:
    """What every hand of a game shares: who sits where, on which team."""

    g: int
    """The game's number in the builder's batch."""
    fingerprint: str
    day: date | None
    rules: Rules
    players: tuple[str, ...]
    seat: dict[str, int]
    team: tuple[str, ...]
    """Each seat's team."""
    opponent: tuple[str, ...]
    """Each seat's opponents (the other team)."""
    memo: _Memo
    """The builder's strengths and reviews already worked out."""
    rules_key: int
    """The rules' number in ``memo``."""
    game: str = ""

    @classmethod
    def seated(
        cls,
        g: int,
        game: CheckedGame,
        day: date | None,
        rules: Rules,
        teams: tuple[str, str],
        memo: _Memo,
    ) -> _Seating:
        players = game.players
        seats = range(len(players))
        return cls(
            g,
            game.fingerprint,
            day,
            rules,
            players,
            {p: i for i, p in enumerate(players)},
            tuple(teams[s % 2] for s in seats),
            tuple(teams[1 - s % 2] for s in seats),
            memo,
            memo.key_of(rules),
            game.id,
        )

    def strength(self, cards: Sequence[str | None], seat: int, at_raise: _AtRaise) -> float | None:
        """The strength of the raise ``seat`` made at ``at_raise``, in a two-player game
        whose end shows the raiser's ``cards``."""
        dealt = cards[seat]
        if dealt is None or len(self.players) != 2:
            return None
        return self.memo.strength(self.rules, self.rules_key, dealt, *at_raise)

    def answer(
        self,
        scores: Sequence[int],
        cards: Sequence[str | None],
        accepted: bool,
        raiser: int,
        at_raise: _AtRaise,
        to: int,
        previous: int,
        reste: bool,
    ) -> AnswerReview | None:
        """The review of an answer to the raise to ``to`` (from ``previous``) that
        ``raiser`` made at ``at_raise``: ``scores`` are each side's before the hand,
        ``cards`` each seat's dealt ranks; ``None`` in a four-player game."""
        if len(self.players) != 2:
            return None
        side = raiser % 2
        stake = (scores[side], scores[1 - side], to, previous, reste)
        hands = (cards[1 - raiser], cards[raiser])
        return self.memo.answer(self.rules, self.rules_key, accepted, stake, at_raise, hands)


class _Memo:
    """Strengths and answer reviews already worked out, by the ranks and stakes they
    were asked of: a corpus asks the same few thousand questions over and over.
    Each table holds at most :data:`REMEMBERED` answers (then it starts again): 150 to
    300 bytes an answer, 7 MB in all at most, however many positions a corpus (or one
    long game) has."""

    REMEMBERED = 1 << 12

    def __init__(self) -> None:
        self.rules: dict[Rules, int] = {}
        self.last_rules: Rules | None = None
        self.last_key = -1
        self.dealt_strengths: dict[tuple[Any, ...], float] = {}
        self.strengths: dict[tuple[Any, ...], float | None] = {}
        self.stakes: dict[tuple[Any, ...], tuple[Stakes, tuple[int, int, int]]] = {}
        self.judged: dict[tuple[Any, ...], tuple[Odds | None, float | None]] = {}
        self.columns: dict[tuple[Any, ...], tuple[Any, ...]] = {}
        self.plays: dict[tuple[Any, ...], _Marks] = {}
        self.worths: dict[tuple[Any, ...], Worth] = {}
        self.path: tuple[str, str] = ("", "")
        """The last file named in a ``games`` row, and its name as written there."""
        self.described: tuple[Rules | None, str] = (None, "")
        """The last rules of a ``games`` row, and their label (``Rules.describe``)."""
        self.dealt_table: pl.DataFrame | None = None
        """The dealt strengths a full builder's batches asked so far, as a table (see
        :func:`_dealt`): without the quick core."""
        self.dealt_numbers: dict[int, float] = {}
        """The dealt strengths the quick core asked (:meth:`dealt_number`), by the number
        of their question."""

    def key_of(self, rules: Rules) -> int:
        """A number for ``rules``, for the questions asked under them."""
        if rules is self.last_rules:  # games of a log share their rules: no hashing again
            return self.last_key
        self.last_rules, self.last_key = rules, self.rules.setdefault(rules, len(self.rules))
        return self.last_key

    def dealt(self, rules: Rules, hand: str, dealer: bool) -> float:
        """:func:`~truclog.solver.strength.deal_strength`."""
        question = (rules.order, rules.all_tied, hand, dealer)
        found = self.dealt_strengths.get(question)
        if found is None:
            found = deal_strength(rules, hand, dealer)
            _remember(self.dealt_strengths, question, found)
        return found

    def dealt_number(self, question: int) -> float:
        """:meth:`dealt` of a question the quick core numbers (``_quick.wide_hands``):
        the key of its rules (:meth:`key_of`) << 32, whether the seat dealt << 24, and
        its three ranks' bytes, high to low from the lowest byte; kept in
        :attr:`dealt_numbers` (up to :data:`REMEMBERED` of them)."""
        known = list(self.rules.items())  # at once: another thread may add rules meanwhile
        rules = next(rules for rules, key in known if key == question >> 32)
        hand = bytes((question & 0xFF, question >> 8 & 0xFF, question >> 16 & 0xFF)).decode()
        found = self.dealt(rules, hand, bool(question >> 24 & 1))
        if len(self.dealt_numbers) >= _Memo.REMEMBERED:
            self.dealt_numbers.clear()
        self.dealt_numbers[question] = found
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
        """The strength of a raise (:func:`~truclog.solver.strength.strength_of`) by a player
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

    def play(
        self,
        rules: Rules,
        key: int,
        card: str,
        seen: Seen,
        hands: tuple[str | None, str | None],
        worth: tuple[int, int, int, bool],
        full: bool = False,
    ) -> _Marks:
        """The review of a play of ``card`` (:func:`~truclog.solver.play.judge_play`) from
        ``seen`` by a player dealt ``hands[0]`` against ``hands[1]``; ``worth`` is each
        side's score before the hand (the player's first), the hand's value and whether
        an accepted reste rides on it. Sound, right and lost only, but ``full``."""
        at = self._worth(rules, key, worth)
        question = (key, card, seen, *hands, at, full)  # the scores count by what they make won
        found = self.plays.get(question)
        if found is None:
            if full:
                found = _play_marks(judge_play(rules, card, at, seen, *hands))
            else:
                found = (*play_marks(rules, card, at, seen, *hands), None, None)
            _remember(self.plays, question, found)
        return found

    def _worth(self, rules: Rules, key: int, worth: tuple[int, int, int, bool]) -> Worth:
        """The :class:`~truclog.solver.play.Worth` of a hand to a player whose side has
        ``worth[0]`` points against ``worth[1]``, at the value ``worth[2]`` (an accepted
        reste riding on it: ``worth[3]``)."""
        found = self.worths.get((key, *worth))
        if found is None:
            mine, theirs, value, reste = worth
            found = Worth(
                points_won(rules, mine, value, reste), points_won(rules, theirs, value, reste)
            )
            _remember(self.worths, (key, *worth), found)
        return found

    def answer(
        self,
        rules: Rules,
        key: int,
        accepted: bool,
        scores: tuple[int, int, int, int, bool],
        at_raise: _AtRaise,
        hands: tuple[str | None, str | None],
    ) -> AnswerReview:
        """The review of an answer (see :meth:`review`)."""
        at_stake, _ = self._stakes(rules, key, scores)
        return AnswerReview(accepted, at_stake, *self._judged(rules, key, at_raise, hands))

    def _stakes(
        self, rules: Rules, key: int, scores: tuple[int, int, int, int, bool]
    ) -> tuple[Stakes, tuple[int, int, int]]:
        found = self.stakes.get((key, *scores))
        if found is None:
            at_stake = stakes(rules, *scores)
            found = at_stake, (at_stake.to, at_stake.gain, at_stake.conceded)
            _remember(self.stakes, (key, *scores), found)
        return found

    def _judged(
        self, rules: Rules, key: int, at_raise: _AtRaise, hands: tuple[str | None, str | None]
    ) -> tuple[Odds | None, float | None]:
        position = (key, *at_raise, *hands)
        judged = self.judged.get(position)
        if judged is None:
            mine, theirs, results, on_table, dealer = at_raise
            seen = Position(
                theirs, mine, results.translate(SWAPPED), on_table is not None, not dealer
            )
            judged = judge_ranks(rules, seen, *hands)
            _remember(self.judged, position, judged)
        return judged

    def review(
        self,
        rules: Rules,
        key: int,
        accepted: bool,
        scores: tuple[int, int, int, int, bool],
        at_raise: _AtRaise,
        hands: tuple[str | None, str | None],
    ) -> tuple[Any, ...]:
        """The :data:`ANSWER_COLUMNS` of an answer (:func:`~truclog.solver.answer.judged`) to a
        raise made at ``at_raise``: ``scores`` are the raiser's and the answerer's
        scores, the raise's ``to`` and ``previous``, and whether it is a reste;
        ``hands`` the answerer's and the raiser's dealt ranks."""
        at_stake, points = self._stakes(rules, key, scores)
        judged = self._judged(rules, key, at_raise, hands)
        question = (accepted, *points, *judged)
        columns = self.columns.get(question)
        if columns is None:
            columns = answer_columns(AnswerReview(accepted, at_stake, *judged))
            _remember(self.columns, question, columns)
        return columns


_Marks = tuple[bool | None, bool | None, int | None, list[str] | None, str | None]
"""A decision's sound, right, points lost, best cards or answers, and grade."""
_NO_MARKS: _Marks = (None, None, None, None, None)


def _judged_plays(
    memo: _Memo,
    rules: Rules,
    key: int,
    fact: tuple[Any, ...],
    plays: list[Played],
    full: bool = False,
) -> Iterator[tuple[int, _Marks]]:
    """The review of each play of a two-player hand (its :data:`_FACTS` in ``fact``), in
    order (see :func:`play_positions`)."""
    scores, cards = fact[2:4], fact[10:12]
    for row, seat, rank, value, reste, seen in play_positions(rules, fact[1], plays):
        other = 1 - seat
        worth = (scores[seat], scores[other], value, reste)
        yield row, memo.play(rules, key, rank, seen, (cards[seat], cards[other]), worth, full)


def _play_marks(review: PlayReview) -> _Marks:
    best = review.best
    grade = review.grade
    return (
        review.sound,
        review.right,
        review.lost,
        None if best is None else list(best),
        None if grade is None else str(grade),
    )


def _answer_marks(review: AnswerReview) -> _Marks:
    if review.odds is None:
        return _NO_MARKS
    best, grade = review.best, review.grade
    return (
        review.sound,
        review.right,
        review.points_given,
        None if best is None else list(best),
        None if grade is None else str(grade),
    )


def _remember(table: dict[tuple[Any, ...], Any], question: tuple[Any, ...], answer: Any) -> None:
    if len(table) >= _Memo.REMEMBERED:
        table.clear()
    table[question] = answer


_AtRaise = tuple[str, str, str, str | None, bool]
"""The position at a raise: the ranks the raiser and the others played this deal, the
finished tricks from the raiser's side, the first card on the table, and whether the
raiser dealt."""


class _HandRows:
    """The rows of one validated hand, from its replay through the engine.

    Each action's row is written with the hand as it was before the action; a
    raise's strength is scored from the position it was made in, and an answer
    reviewed from the raise's, once the end of the hand shows the cards. A narrow
    builder gets only the rows statistics count, made by
    :meth:`TableBuilder.take` from the hand's facts, which the replay gives in the
    quick core's shape; a full builder's rows are made along the replay and
    finished by :meth:`_finish`.
    """

    __slots__ = (
        "answers",
        "number",
        "out",
        "pending_row",
        "plays",
        "raises",
        "rows",
        "scores",
        "table",
    )

    def __init__(
        self, out: TableBuilder, table: _Seating, number: int, scores: tuple[int, int]
    ) -> None:
        self.out, self.table, self.number, self.scores = out, table, number, scores
        self.rows: list[list[Any]] = []
        self.raises: list[tuple[int, int, _AtRaise]] = []
        self.answers: list[tuple[int, bool, int, int, bool, int]] = []
        self.plays: list[Played] = []
        self.pending_row = -1

    def run(self, hand: Hand) -> tuple[tuple[Any, ...], list[tuple[Any, ...]]]:
        """The rows of ``hand`` from its replay, for a full builder; its :data:`_FACTS`
        and its events, in the quick core's shape."""
        narrow, start, seats = self.out.narrow, hand.start, len(self.table.players)
        pending = start.pending  # the raise waiting for an answer before each step
        place = _place(start)  # the trick on the table before each step
        before = None if narrow else _Moment.of(start)  # what a full row says of the hand
        redeal_asked = redeal_granted = False
        events: list[tuple[Any, ...]] = []
        state = start
        for seq, (step, state) in enumerate(hand.replay()):
            action = step.action
            if action is not None and step.applied:
                kind = type(action)
                event = None
                if kind in _COUNTED_KINDS:
                    event = _event(action, state, pending, place, seats)
                    events.append(event)
                if kind is Redeal:
                    redeal_asked, redeal_granted = True, action.accepted  # type: ignore[union-attr]
                if before is not None:
                    self._row(seq, step, action, state, pending, place, before, event)
            pending, place = state.pending, _place(state)
            if before is not None:
                before = _Moment.of(state)
        fact = _fact_of(self.number, self.scores, state, hand.outcome, self.table)
        if not narrow:
            self._finish(fact)
            self.out.hands.append((state.value, redeal_asked, redeal_granted, len(self.raises)))
        return fact, events

    def _row(
        self,
        seq: int,
        step: Step,
        action: Action,
        state: State,
        pending: PendingRaise | None,
        place: _Place,
        before: _Moment,
        event: tuple[Any, ...] | None,
    ) -> None:
        """Append the full row of an action: ``state`` is the state after it,
        ``pending`` the raise waiting before it, ``place`` the trick on the table and
        ``before`` the hand before it, ``event`` the action in the quick core's shape
        when a statistic counts it."""
        table, kind = self.table, _kinds()[type(action)]
        player = action.dealer if isinstance(action, Deal) else action.player
        seat = table.seat[player]
        card = to = reste = accepted = position = None
        if isinstance(action, Raise):
            assert event is not None
            to, reste, position = event[2], action.reste, _POSITIONS[place[0]]
            row = len(self.rows)
            self.raises.append((row, seat, (*event[6:10], state.dealer == seat)))
            self.pending_row = row
        elif isinstance(action, Accept | Fold):
            if pending is not None:
                assert event is not None
                self.rows[self.pending_row][_FULL_AT.answer] = kind
                if self.raises:
                    answer = (isinstance(action, Accept), pending.to, pending.previous)
                    self.answers.append(
                        (len(self.rows), *answer, pending.reste, len(self.raises) - 1)
                    )
                position = _POSITIONS[event[3]]
        elif isinstance(action, Redeal):
            accepted = action.accepted
        elif isinstance(action, Play):
            card, position, reste = str(action.card), _POSITIONS[place[0]], state.reste_accepted
            self.plays.append((len(self.rows), seat, action.card.rank, before.value, reste))
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
                None if pending is None else pending.to,
                table.players[pending.raiser] if pending is not None else None,
                self.scores[team_at],
                self.scores[1 - team_at],
                None,
                None,
                None,
                None,
                *_NO_REVIEW,
                *_NO_MARKS[2:],
                step.t,
            ]
        )

    def _finish(self, hand: tuple[Any, ...]) -> None:
        """Fill in what the end of the hand (its :data:`_FACTS`) tells the full rows
        (cards known, hand won, strength, answer review) and keep them."""
        table, rows, at, out = self.table, self.rows, _FULL_AT, self.out
        winner, cards = hand[4], hand[10:14]
        for values in rows:
            seat = table.seat[values[at.player]]
            values[at.known] = cards[seat] is not None
            if winner >= 0:
                values[at.hand_won] = seat % 2 == winner
        for row, seat, at_raise in self.raises:
            rows[row][at.strength] = table.strength(cards, seat, at_raise)
        for row, accepted, to, previous, reste, raised in self.answers:
            _, raiser, at_raise = self.raises[raised]
            review = table.answer(
                self.scores, cards, accepted, raiser, at_raise, to, previous, reste
            )
            if review is not None:
                rows[row][at.review : at.review + len(ANSWER_COLUMNS)] = answer_columns(review)
                _mark(rows[row], _answer_marks(review))
        if len(table.players) == 2:
            memo, rules = table.memo, table.rules
            key = table.rules_key
            for row, marks in _judged_plays(memo, rules, key, hand, self.plays, full=True):
                _mark(rows[row], marks)
        out.actions.extend(rows)
        for column, value in zip(out.facts, hand, strict=True):
            column.append(value)
        out.fact_games.append(table.g)


def _facts_of(
    table: _Seating, hands: list[tuple[tuple[Any, ...], list[tuple[Any, ...]]]]
) -> GameFacts:
    """The facts of a game's hands (each its :data:`_FACTS` and its events) as the
    quick core gives them (``hand_actions`` in ``truclog/validate/_quick.c``): the hands' and
    the actions' columns, with the raises' strengths and the answers' reviews."""
    facts = GameFacts(
        table.rules,
        (table.team[0], table.team[1]),
        tuple([] for _ in _FACTS),
        tuple([] for _ in _NARROW_ACTIONS),
        None,
    )
    memo, rules, key = table.memo, table.rules, table.rules_key
    two, at, answer_at = len(table.players) == 2, _NARROW_AT, _NARROW_AT["answer"]
    for hand, (fact, events) in enumerate(hands):
        for column, value in zip(facts.hands, fact, strict=True):
            column.append(value)
        dealer, cards, scores = fact[1], fact[10:14], fact[2:4]
        raised: tuple[int, int, _AtRaise, int, int, bool] | None = None
        plays: list[Played] = []
        for event in events:
            kind, seat = event[0], event[1]
            row = len(facts.actions[0])
            values: list[Any] = [hand, seat, _TYPES[kind], *(None,) * (len(_NARROW_ACTIONS) - 3)]
            if kind == _RAISED:
                _, _, to, reste, previous, on_table, mine, theirs, results, first = event
                at_raise = (mine, theirs, results, first, seat == dealer)
                raised = (row, seat, at_raise, to, previous, bool(reste))
                values[at["reste"]], values[at["to"]] = bool(reste), to
                values[at["position"]] = _POSITIONS[on_table]
                if two and cards[seat] is not None:
                    values[at["strength"]] = memo.strength(rules, key, cards[seat], *at_raise)
            elif kind == _REDEALT:
                values[at["accepted"]] = bool(event[2])
            elif kind == _PLAYED:
                _, _, card, value, reste, on_table = event
                values[at["reste"]], values[at["position"]] = bool(reste), _POSITIONS[on_table]
                values[at["card"]], values[at["value_before"]] = card, value
                plays.append((row, seat, card, value, bool(reste)))
            elif event[2] and raised is not None:
                raised_row, raiser, at_raise, to, previous, reste = raised
                facts.actions[answer_at][raised_row] = _TYPES[kind]
                values[at["pending"]], values[at["position"]] = to, _POSITIONS[event[3]]
                if two:
                    side = raiser % 2
                    stake = (scores[side], scores[1 - side], to, previous, reste)
                    dealt = (cards[1 - raiser], cards[raiser])
                    review = memo.review(rules, key, kind == _ACCEPTED, stake, at_raise, dealt)
                    values[_REVIEW_AT : _REVIEW_AT + len(ANSWER_COLUMNS)] = review
            for column, value in zip(facts.actions, values, strict=True):
                column.append(value)
        if two:
            _judge_plays(facts.actions, memo, rules, key, fact, plays)
    return facts


def _judge_plays(
    actions: tuple[list[Any], ...],
    memo: _Memo,
    rules: Rules,
    key: int,
    fact: tuple[Any, ...],
    plays: list[Played],
) -> None:
    """Set the sound, right and lost of a two-player hand's ``plays`` in its rows of
    ``actions`` (as the quick core's ``play_review`` does)."""
    sound, right, lost = (actions[_NARROW_AT[name]] for name in ("sound", "right", "lost"))
    for row, marks in _judged_plays(memo, rules, key, fact, plays):
        sound[row], right[row], lost[row] = marks[0], marks[1], marks[2]


def _event(
    action: Action, state: State, pending: PendingRaise | None, place: _Place, seats: int
) -> tuple[Any, ...]:
    """A raise, an answer or a redeal of a replay, in the shape the quick core tells it
    (see :class:`~truclog.validate.GameFacts`): ``state`` is the state after it,
    ``pending`` the raise waiting before it and ``place`` the trick on the table."""
    if isinstance(action, Raise):
        seat, raised = state.seat[action.player], state.pending
        assert raised is not None
        mine, theirs = played_this_hand(state, action.player)
        first = state.trick[0][1].rank if state.trick else None
        results = trick_results(state, seat)
        reste = int(action.reste)
        return (
            _RAISED,
            seat,
            raised.to,
            reste,
            raised.previous,
            place[0],
            mine,
            theirs,
            results,
            first,
        )
    if isinstance(action, Redeal):
        return (_REDEALT, state.seat[action.player], int(action.accepted))
    if isinstance(action, Play):  # a play leaves the hand's value as it was
        seat = state.seat[action.player]
        return (_PLAYED, seat, action.card.rank, state.value, int(state.reste_accepted), place[0])
    assert isinstance(action, Accept | Fold)
    seat, kind = state.seat[action.player], _ACCEPTED if isinstance(action, Accept) else _FOLDED
    if pending is None:
        return (kind, seat, 0, -1)
    # the trick's leader: who played its first card or, with none on the table, the raiser
    leader = pending.raiser if place[1] is None else place[1]
    return (kind, seat, 1, (seat - leader) % seats)


def _fact_of(
    number: int,
    scores: tuple[int, int],
    state: State,
    outcome: Outcome | None,
    table: _Seating,
) -> tuple[Any, ...]:
    """The :data:`_FACTS` of a hand, from the engine: ``state`` is the state after its last line."""
    winner, points, ending, reste = -1, 0, 0, 0
    if outcome is not None:
        if outcome.winner is not None:
            winner = table.team.index(outcome.winner)
        points, ending, reste = outcome.points, _ENDINGS.index(outcome.ending), int(outcome.reste)
    results = state.results
    first = -2 if not results else -1 if results[0] is None else results[0]
    order = table.rules.order
    cards = [_known(state.dealt_cards(player), order) for player in table.players]
    cards += [None] * (4 - len(cards))
    return (
        number,
        state.dealer,
        *scores,
        winner,
        points,
        ending,
        reste,
        len(results),
        first,
        *cards,
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


_REDEALT, _RAISED, _ACCEPTED, _FOLDED, _PLAYED = range(5)
"""The kinds of the quick core's events."""
_TYPES = ("redeal", "raise", "accept", "fold", "play")
"""The quick core's events by kind, as the ``type`` of their rows."""
_ENDINGS = ("unfinished", "tricks", "fold", "draw")
"""How a hand ended, by the quick core's number for it."""
_DRAWN = _ENDINGS.index("draw")


@lru_cache(maxsize=1)
@cache
def _kinds() -> dict[type[Action], str]:
    """The ``type`` of each action's line, for a full builder's rows (the format's
    models are imported then: statistics alone never need them)."""
    from truclog.format.events import ACTION_TYPES

    return ACTION_TYPES


_COUNTED_KINDS = frozenset({Raise, Accept, Fold, Redeal, Play})
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
_FULL_AT = _Columns(
    *(list(ACTIONS).index(_FIRST_REVIEW if n == "review" else n) for n in _Columns._fields)
)
_NO_REVIEW = (None,) * len(ANSWER_COLUMNS)


_SOUND = _FULL_AT.review + list(ANSWER_COLUMNS).index("sound")
_LOST = _FULL_AT.review + len(ANSWER_COLUMNS)


def _mark(row: list[Any], marks: _Marks) -> None:
    """Write a decision's review into its full row."""
    row[_SOUND], row[_SOUND + 1] = marks[0], marks[1]
    row[_LOST : _LOST + len(DECISION_COLUMNS)] = marks[2:]


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


def _fact_rows(facts: GameFacts) -> int:
    """The rows of ``actions`` a narrow builder takes of a game's facts."""
    return int(facts.rows.actions) if facts.rows is not None else len(facts.actions[0])


def _some_hands(
    facts: GameFacts, hands: range | None
) -> tuple[tuple[list[Any], ...], tuple[list[Any], ...]]:
    """The columns of the facts of some ``hands`` of a game (all by default) and of their
    actions, these counting hands from the first of them."""
    if hands is None:
        return facts.hands, facts.actions
    at_hand = facts.actions[0]
    first, last = bisect_left(at_hand, hands.start), bisect_left(at_hand, hands.stop)
    return tuple(column[hands.start : hands.stop] for column in facts.hands), (
        [hand - hands.start for hand in at_hand[first:last]],
        *(column[first:last] for column in facts.actions[1:]),
    )


def _longer(game: GameTally, rows: int) -> bool:
    """Whether a cleared game has more than ``rows`` rows of ``actions`` for an export."""
    facts = game.facts
    if facts is None or not facts.wide:
        return False
    return facts.blocks is not None or int(facts.rows.lines) > rows


def table_batches(
    games: Iterable[Game | CheckedGame | GameTally],
    tally: Tally,
    batch_rows: int = 200_000,
    narrow: bool = False,
    seats: bool = True,
) -> Iterator[Tables]:
    """Tables for a stream of games, in batches of about ``batch_rows`` action rows
    (built as :class:`TableBuilder` ``narrow`` and with ``seats`` says)."""
    return _batches(TableBuilder(narrow, seats), games, tally, batch_rows, TableBuilder.flush)


def gathered_batches(
    games: Iterable[Game | CheckedGame | GameTally], tally: Tally, batch_rows: int
) -> Iterator[TableBuilder]:
    """The batches of :func:`table_batches` of a full builder without ``seats`` (an
    export's), each as the builder of its rows (see :meth:`TableBuilder.detach`), whose
    :meth:`~TableBuilder.flush` makes its tables: the games are gathered into batches on
    one thread and the batches' tables made on another."""
    return _batches(TableBuilder(seats=False), games, tally, batch_rows, TableBuilder.detach)


_B = TypeVar("_B")


def _batches(
    builder: TableBuilder,
    games: Iterable[Game | CheckedGame | GameTally],
    tally: Tally,
    batch_rows: int,
    take: Callable[[TableBuilder], _B],
) -> Iterator[_B]:
    """The games added to ``builder``, each batch of about ``batch_rows`` action rows
    taken from it by ``take`` as it fills."""
    narrow = builder.narrow
    for game in games:
        facts = game.facts if isinstance(game, GameTally) and not narrow else None
        if isinstance(game, GameTally) and facts is not None and facts.wide:
            if _longer(game, batch_rows):
                for _ in builder.pieces(game, batch_rows):
                    yield take(builder)
                tally.hands += game.hands
            else:
                tally.hands += builder._add_cleared(game, facts)[0]  # its rows taken whole
            tally.games += 1
            if builder.fill >= batch_rows:
                yield take(builder)
            continue
        parts = builder.parts(game, batch_rows)
        while True:
            try:
                next(parts)
            except StopIteration as done:
                added, left_out = done.value
                break
            yield take(builder)
        tally.games += 1
        tally.hands += added
        tally.hands_left_out += left_out
        if builder.fill >= batch_rows:
            yield take(builder)
    if builder.seating:  # a game, or the last hands of one
        yield take(builder)


def tables(source: Paths | Iterable[Game | CheckedGame]) -> Tables:
    """The ``games``, ``hands`` and ``actions`` tables (and ``seats``) of some logs or
    games, built from each game's replay (:meth:`truclog.replay.Hand.replay`), each play
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
    return Tables(**{name: pl.concat([getattr(b, name) for b in batches]) for name in names})


__all__ = [
    "ACTIONS",
    "ANNOTATIONS",
    "GAMES",
    "HANDS",
    "TableBuilder",
    "Tables",
    "game_day",
    "gathered_batches",
    "read_tables",
    "table_batches",
    "tables",
]
