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
from dataclasses import dataclass, field
from datetime import date
from typing import Any

import polars as pl

from truclog.actions import Accept, Action, Deal, Fold, Play, Raise, Redeal
from truclog.engine import Outcome, Phase
from truclog.strength import deal_strength, strength_of
from truclog.validate import CheckedGame, CheckedHand, Diagnostic, check_log

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

SCHEMAS = {"games": GAMES, "hands": HANDS, "actions": ACTIONS}

_POSITIONS = ("leader", "follower", "third", "fourth")


@dataclass(slots=True)
class Tables:
    """A batch of the three tables."""

    games: pl.DataFrame
    hands: pl.DataFrame
    actions: pl.DataFrame

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
    duplicate_of: list[tuple[str, str]] = field(default_factory=list)

    def add(self, other: Tally) -> None:
        for name in ("files", "games", "duplicates", "hands", "hands_left_out"):
            setattr(self, name, getattr(self, name) + getattr(other, name))
        self.filtered_out += other.filtered_out
        self.problems += other.problems
        self.duplicate_of.extend(other.duplicate_of)

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
            if step.event.t:
                return _day(step.event.t)
    return None


class TableBuilder:
    """Collects rows of the three tables, game by game, as plain column lists."""

    def __init__(self) -> None:
        self._reset()

    def _reset(self) -> None:
        self.games: dict[str, list] = {name: [] for name in GAMES}
        self.hands: dict[str, list] = {name: [] for name in HANDS}
        self.actions: dict[str, list] = {name: [] for name in ACTIONS}
        self.rows = 0

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
        for name, value in row.items():
            self.games[name].append(value)
        self.rows += 1
        return added, left_out

    def flush(self) -> Tables:
        """The rows collected so far as DataFrames; the builder starts empty again."""
        tables = Tables(
            pl.DataFrame(self.games, schema=GAMES),
            pl.DataFrame(self.hands, schema=HANDS),
            pl.DataFrame(self.actions, schema=ACTIONS),
        )
        self._reset()
        return tables


class _HandReplay:
    """Replays one validated hand through the engine, writing its rows."""

    def __init__(self, out: TableBuilder, game: CheckedGame, hand: CheckedHand, day: date | None):
        self.out, self.game, self.hand, self.day = out, game, hand, day
        self.state = hand.start.copy()
        n = len(game.players)
        self.played: list[list[str]] = [[] for _ in range(n)]
        self.raises: list[tuple[int, int, str, str, str, str | None, bool]] = []
        self.first_row = len(out.actions["type"])
        self.redeal_asked = self.redeal_granted = False
        self.first_trick: str | None = None
        self.score_before: list[int] = []
        self._pending_row = -1

    def run(self) -> None:
        state, actions = self.state, self.out.actions
        for seq, step in enumerate(self.hand.steps):
            action = step.action
            if action is None:
                continue
            if isinstance(action, Deal) and not self.score_before:
                self.score_before = [state.score[t] for t in state.teams]
            self._row(seq, step.line, step.event.t, action)
            if isinstance(action, Deal):
                self.played = [[] for _ in self.played]
            elif isinstance(action, Play):
                self.played[state.seat[action.player]].append(action.card.rank)
            state.push(action)
            if isinstance(action, Play) and len(state.results) == 1 and self.first_trick is None:
                first = state.results[0]
                self.first_trick = "tie" if first is None else state.teams[first]
        self._finish(actions)

    def _row(self, seq: int, line: int, t: str | None, action: Action) -> None:
        state, a = self.state, self.out.actions
        player = action.dealer if isinstance(action, Deal) else action.player
        seat = state.seat[player]
        team = seat % 2
        pending = state.pending
        in_play = state.phase is Phase.PLAY
        kind = type(action).__name__.lower()
        to = reste = accepted = card = position = None
        if isinstance(action, Raise):
            reste = action.reste
            to = state.remainder(player) if action.reste else action.to
            position = _POSITIONS[len(state.trick)]
            self._note_raise(seat)
        elif isinstance(action, Play):
            card = str(action.card)
            position = _POSITIONS[len(state.trick)]
        elif isinstance(action, Redeal):
            accepted = action.accepted
            self.redeal_asked = True
            self.redeal_granted = action.accepted
        elif isinstance(action, Accept | Fold) and pending is not None:
            a["answer"][self._pending_row] = kind
        scores = state._scores
        a["fingerprint"].append(self.game.fingerprint)
        a["game"].append(self.game.id)
        a["date"].append(self.day)
        a["line"].append(line)
        a["hand"].append(self.hand.number)
        a["seq"].append(seq)
        a["type"].append(kind)
        a["player"].append(player)
        a["team"].append(state.teams[team])
        a["opponent"].append(state.teams[1 - team])
        a["card"].append(card)
        a["to"].append(to)
        a["reste"].append(reste)
        a["accepted"].append(accepted)
        a["trick"].append(len(state.results) + 1 if in_play else None)
        a["position"].append(position)
        a["value_before"].append(state.value if in_play else None)
        a["pending"].append(pending.to if pending is not None else None)
        a["pending_raiser"].append(state.players[pending.raiser] if pending is not None else None)
        a["score_before"].append(scores[team])
        a["opponent_score_before"].append(scores[1 - team])
        a["known"].append(None)
        a["strength"].append(None)
        a["answer"].append(None)
        a["hand_won"].append(None)
        a["t"].append(t)
        if isinstance(action, Raise):
            self._pending_row = len(a["type"]) - 1

    def _note_raise(self, seat: int) -> None:
        """Keep the position at a raise, to score it once the hand's cards are known."""
        state = self.state
        theirs = "".join(r for s, ranks in enumerate(self.played) if s != seat for r in ranks)
        results = "".join(
            "T" if r is None else ("W" if r == seat % 2 else "L") for r in state.results
        )
        table = state.trick[0][1].rank if state.trick else None
        row = len(self.out.actions["type"])
        mine = "".join(self.played[seat])
        self.raises.append((row, seat, mine, theirs, results, table, state.dealer == seat))

    def _finish(self, a: dict[str, list]) -> None:
        state, game, rules = self.state, self.game, self.game.rules
        n = len(game.players)
        hands: list[str | None] = []
        for seat in range(n):
            held = state.holdings[seat]
            ranks = "".join(self.played[seat]) + "".join(c.rank for c in held.known)
            hands.append(_ordered(ranks, rules.order) if held.unseen == 0 else None)
        outcome = self.hand.outcome
        winner = outcome.winner if outcome is not None else None
        rows = range(self.first_row, len(a["type"]))
        teams = state.teams
        for row in rows:
            seat = state.seat[a["player"][row]]
            a["known"][row] = hands[seat] is not None
            if winner is not None:
                a["hand_won"][row] = teams[seat % 2] == winner
        two = n == 2
        for row, seat, mine, theirs, results, table, dealer in self.raises:
            full = hands[seat]
            if full is None or not two:
                continue
            left = _minus(full, mine)
            try:
                a["strength"][row] = strength_of(rules, full, left, theirs, results, table, dealer)
            except ValueError:
                a["strength"][row] = None
        strengths: list[float | None] = []
        for seat, dealt in enumerate(hands):
            value: float | None = None
            if two and dealt is not None:
                value = deal_strength(rules, dealt, dealer=state.dealer == seat)
            strengths.append(value)
        self._hand_row(hands, strengths, outcome)

    def _hand_row(
        self, cards: list[str | None], strengths: list[float | None], outcome: Outcome | None
    ) -> None:
        state, h = self.state, self.out.hands
        ending = "unfinished"
        if outcome is not None:
            ending = outcome.ending
            if outcome.reste and ending != "draw":
                ending = "reste"
        h["fingerprint"].append(self.game.fingerprint)
        h["game"].append(self.game.id)
        h["date"].append(self.day)
        h["hand"].append(self.hand.number)
        h["dealer"].append(state.dealer_name)
        h["players"].append(list(state.players))
        seats = range(len(state.players))
        h["teams"].append([state.teams[s % 2] for s in seats])
        h["opponents"].append([state.teams[1 - s % 2] for s in seats])
        h["score_before"].append(self.score_before)
        h["value"].append(state.value)
        h["winner"].append(outcome.winner if outcome is not None else None)
        h["points"].append(outcome.points if outcome is not None else 0)
        h["ending"].append(ending)
        h["reste"].append(bool(outcome is not None and outcome.reste))
        h["redeal_asked"].append(self.redeal_asked)
        h["redeal_granted"].append(self.redeal_granted)
        h["raises"].append(len(self.raises))
        h["tricks"].append(len(state.results))
        h["first_trick"].append(self.first_trick)
        h["cards"].append(cards)
        h["strength"].append(strengths)


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


def games_of(
    paths: Iterable[str],
    seen: dict[str, tuple[str, int]],
    tally: Tally,
    keep: GameFilter | None = None,
    on_file: Callable[[str], None] | None = None,
) -> Iterator[CheckedGame]:
    """The games of some files, each counted once across the run (by fingerprint)."""
    for path in paths:
        tally.files += 1
        for item in check_log(path):
            if isinstance(item, Diagnostic):
                tally.problems += 1
                continue
            first = seen.setdefault(item.fingerprint, (item.path, item.line))
            if first != (item.path, item.line):
                tally.duplicates += 1
                tally.duplicate_of.append((f"{item.path}:{item.line}", f"{first[0]}:{first[1]}"))
                continue
            if keep is not None and not keep.keeps(item):
                tally.filtered_out += 1
                continue
            yield item
        if on_file is not None:
            on_file(path)


def table_batches(
    games: Iterable[CheckedGame], tally: Tally, batch_rows: int = 200_000
) -> Iterator[Tables]:
    """Tables for a stream of games, in batches of about ``batch_rows`` action rows."""
    builder = TableBuilder()
    for game in games:
        added, left_out = builder.add(game)
        tally.games += 1
        tally.hands += added
        tally.hands_left_out += left_out
        if len(builder.actions["type"]) >= batch_rows:
            yield builder.flush()
    if builder.rows:
        yield builder.flush()


def read_tables(games: Iterable[CheckedGame]) -> Tables:
    """All three tables for some games at once (for small corpora and tests)."""
    tally = Tally()
    batches = list(table_batches(games, tally))
    if not batches:
        return Tables(empty(GAMES), empty(HANDS), empty(ACTIONS))
    return Tables(*(pl.concat([getattr(b, name) for b in batches]) for name in SCHEMAS))


__all__ = [
    "ACTIONS",
    "GAMES",
    "HANDS",
    "GameFilter",
    "TableBuilder",
    "Tables",
    "Tally",
    "game_day",
    "games_of",
    "read_tables",
    "table_batches",
]
