"""Leaks: the situations where a player decides, their rate in each against the winning
players' rate, ranked by the points the difference puts at stake.

Every fact comes from the ``actions``, ``seats`` and ``games`` tables
(:mod:`truclog.stats.tables`); ``docs/stats.md`` defines each situation. The tables
are counted batch by batch into one row per player and situation
(:func:`situation_counts`), so a corpus of any size is read with bounded memory;
:func:`leaks` then compares one player with the winning players.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

import polars as pl

from truclog.engine.rules import PRESETS
from truclog.stats.intervals import rate, wilson
from truclog.stats.kept import GameFilter, Tally
from truclog.stats.tables import Tables, table_batches
from truclog.validate.checker import CheckedGame
from truclog.validate.tally import GameTally

MIN_HANDS = 20
"""The hands a player must have played to count among the winning players, unless told."""

SITUATION_COUNTS: dict[str, Any] = {
    "player": pl.Utf8,
    "situation": pl.Utf8,
    "opportunities": pl.Int64,
    "count": pl.Int64,
    "stakes": pl.Int64,
}
"""One player's count in one situation: opportunities, how often the player took the
situation's choice (``count``), and the sum of what each opportunity put at stake."""

HAND_COUNTS: dict[str, Any] = {
    "player": pl.Utf8,
    "hands_played": pl.Int64,
    "points_won": pl.Int64,
}
"""Each player's decided hands and points won, which tell the winning players."""

CHOICE = {"answer": "fold", "raise": "raise", "ask": "ask"}
"""What a situation's rate counts, by its first word."""


@dataclass(slots=True)
class LeakCounts:
    """Counts of a corpus so far, per player: situations, then hands and points."""

    situations: pl.DataFrame
    hands: pl.DataFrame

    @classmethod
    def empty(cls) -> LeakCounts:
        """No counts yet."""
        return cls(pl.DataFrame(schema=SITUATION_COUNTS), pl.DataFrame(schema=HAND_COUNTS))

    def add(self, tables: Tables) -> None:
        """Count a batch of the full tables in."""
        self.situations = _summed(
            [self.situations, situation_counts(tables)], ["player", "situation"]
        )
        self.hands = _summed([self.hands, hand_counts(tables)], ["player"])


def _summed(frames: list[pl.DataFrame], keys: list[str]) -> pl.DataFrame:
    return pl.concat(frames).group_by(keys).agg(pl.all().sum()).sort(keys)


def _score_word() -> pl.Expr:
    ours, theirs = pl.col("score_before"), pl.col("opponent_score_before")
    return (
        pl.when(ours < theirs)
        .then(pl.lit("behind"))
        .when(ours > theirs)
        .then(pl.lit("ahead"))
        .otherwise(pl.lit("level"))
    )


def _answers(actions: pl.DataFrame) -> pl.DataFrame:
    """Each answer to a raise: folded or not, by the raise's size and the score."""
    answers = actions.filter(
        pl.col("type").is_in(["accept", "fold"]) & pl.col("pending").is_not_null()
    )
    return answers.select(
        "player",
        pl.format("answer a raise to {}, {}", pl.col("pending"), _score_word()).alias("situation"),
        (pl.col("type") == "fold").alias("chosen"),
        pl.col("pending").alias("stake"),
    )


def _turns(actions: pl.DataFrame) -> pl.DataFrame:
    """Each turn to play (a player's raises and play in one trick) in which a raise was
    the player's to make: raised or not, as the hand's first raise (nobody raised yet)
    or second (the other side raised last), by the player's place in the trick. A turn
    after the player's own side raised last is no opportunity."""
    hand = ["fingerprint", "hand"]
    ordered = actions.sort("fingerprint", "line").with_columns(
        pl.when(pl.col("type") == "raise").then(pl.col("team")).alias("raiser")
    )
    ordered = ordered.with_columns(pl.col("raiser").forward_fill().over(hand).alias("last"))
    ordered = ordered.with_columns(pl.col("last").shift(1).over(hand).alias("last"))
    rows = ordered.filter(pl.col("type").is_in(["raise", "play"]) & pl.col("trick").is_not_null())
    turns = rows.group_by([*hand, "trick", "player"], maintain_order=True).agg(
        pl.col("last").first(),
        pl.col("team").first(),
        pl.col("value_before").first(),
        pl.col("position").first(),
        (pl.col("type") == "raise").any().alias("chosen"),
    )
    first, theirs = pl.col("last").is_null(), pl.col("last") != pl.col("team")
    kind = pl.when(first).then(pl.lit("raise first")).otherwise(pl.lit("raise second"))
    return turns.filter(first | theirs).select(
        "player",
        pl.format("{} as {}", kind, pl.col("position")).alias("situation"),
        "chosen",
        pl.col("value_before").alias("stake"),
    )


def _redeals(tables: Tables) -> pl.DataFrame:
    """Each two-player hand's non-dealer, in games whose preset lets the non-dealer ask
    for a redeal: asked or not."""
    allowed = [name for name, rules in PRESETS.items() if rules.redeal != "none"]
    games = tables.games.filter(pl.col("preset").is_in(allowed)).select("fingerprint")
    seats = tables.seats.filter((pl.col("size") == 2) & ~pl.col("dealer")).join(
        games, on="fingerprint", how="semi"
    )
    asked = (
        tables.actions.filter(pl.col("type") == "redeal")
        .select("fingerprint", "hand", "player")
        .unique()
        .with_columns(pl.lit(True).alias("chosen"))
    )
    return seats.join(asked, on=["fingerprint", "hand", "player"], how="left").select(
        "player",
        pl.lit("ask for a redeal").alias("situation"),
        pl.col("chosen").fill_null(False),
        pl.lit(1, pl.Int64).alias("stake"),
    )


def situation_counts(tables: Tables) -> pl.DataFrame:
    """Per player and situation of a batch of the full tables: opportunities, choices
    taken and stakes (:data:`SITUATION_COUNTS`)."""
    parts = [_answers(tables.actions), _turns(tables.actions), _redeals(tables)]
    rows = pl.concat([p.with_columns(pl.col("stake").cast(pl.Int64)) for p in parts])
    return (
        rows.group_by("player", "situation")
        .agg(
            pl.len().cast(pl.Int64).alias("opportunities"),
            pl.col("chosen").cast(pl.Int64).sum().alias("count"),
            pl.col("stake").sum().alias("stakes"),
        )
        .select(list(SITUATION_COUNTS))
    )


def hand_counts(tables: Tables) -> pl.DataFrame:
    """Per player of a batch: decided hands played and points won (as ``truclog stats``
    counts ``hands_played`` and ``points_won``)."""
    seats = tables.seats
    mine = (pl.col("winner") == pl.col("team")).fill_null(False)
    return (
        seats.group_by("player")
        .agg(
            (pl.col("ending") != "unfinished").cast(pl.Int64).sum().alias("hands_played"),
            pl.when(mine)
            .then(pl.col("points"))
            .otherwise(0)
            .cast(pl.Int64)
            .sum()
            .alias("points_won"),
        )
        .select(list(HAND_COUNTS))
    )


def winning_players(hands: pl.DataFrame, min_hands: int = MIN_HANDS) -> list[str]:
    """The players with at least ``min_hands`` decided hands whose points won per hand
    are above the median of those players'."""
    regulars = hands.filter((pl.col("hands_played") >= min_hands) & (pl.col("hands_played") > 0))
    if regulars.is_empty():
        return []
    per_hand = regulars.select("player", (pl.col("points_won") / pl.col("hands_played")).alias("p"))
    median = per_hand["p"].median()
    return sorted(per_hand.filter(pl.col("p") > median)["player"].to_list())


def leaks(
    counts: LeakCounts, player: str, min_hands: int = MIN_HANDS
) -> tuple[list[dict[str, Any]], list[str]]:
    """The player's situations, most points at stake first (situations without a
    comparison last, by opportunities), and the winning players compared with (the
    player left out of them)."""
    winners = [w for w in winning_players(counts.hands, min_hands) if w != player]
    situations = counts.situations
    pooled = (
        situations.filter(pl.col("player").is_in(winners))
        .group_by("situation")
        .agg(pl.col("opportunities").sum(), pl.col("count").sum())
    )
    theirs = {s: (n, c) for s, n, c in pooled.iter_rows()}
    rows = [
        _row(situation, n, c, stakes, theirs.get(situation, (0, 0)))
        for _, situation, n, c, stakes in situations.filter(pl.col("player") == player).iter_rows()
    ]
    rows.sort(
        key=lambda r: (
            r["points"] is None,
            -(r["points"] or 0),
            -r["opportunities"],
            r["situation"],
        )
    )
    return rows, winners


def _row(
    situation: str, opportunities: int, count: int, stakes: int, winners: tuple[int, int]
) -> dict[str, Any]:
    mine = rate(count, opportunities)
    low, high = wilson(count, opportunities)
    their_n, their_count = winners
    theirs = rate(their_count, their_n)
    their_low, their_high = wilson(their_count, their_n)
    stake = stakes / opportunities if opportunities else None
    points = None
    if mine is not None and theirs is not None and stake is not None:
        points = opportunities * abs(mine - theirs) * stake
    return {
        "situation": situation,
        "choice": CHOICE[situation.split()[0]],
        "rate": mine,
        "low": low,
        "high": high,
        "count": count,
        "opportunities": opportunities,
        "winners_rate": theirs,
        "winners_low": their_low,
        "winners_high": their_high,
        "winners_count": their_count,
        "winners_opportunities": their_n,
        "stake": stake,
        "points": points,
    }


def count_leaks(batches: Iterable[Tables]) -> LeakCounts:
    """The leak counts of a stream of full table batches."""
    counts = LeakCounts.empty()
    for tables in batches:
        counts.add(tables)
    return counts


def read_leaks(
    paths: Sequence[str],
    tally: Tally | None = None,
    keep: GameFilter | None = None,
    stop: Callable[[], bool] = lambda: False,
    counted: Callable[[int], None] = lambda hands: None,
) -> LeakCounts:
    """The leak counts of the logs at ``paths``: each game once, only validated hands,
    in batches of about :data:`~truclog.stats.run.COUNT_BATCH` actions. The games the
    quick core clears come with the facts an export takes (their rows as the engine's
    replay gives them), the others are replayed. ``counted`` hears the hands counted so
    far; reading ends early once ``stop()`` says so."""
    from truclog.format.reader import log_files
    from truclog.stats.run import COUNT_BATCH, kept_games
    from truclog.validate.quick import EXPORT_FACTS

    tally = tally if tally is not None else Tally()
    keep = keep or GameFilter()
    seen: set[int] = set()
    counts = LeakCounts.empty()

    def games() -> Iterator[CheckedGame | GameTally]:
        for path in log_files(paths):
            for game in kept_games(str(path), keep, tally, seen, facts=EXPORT_FACTS):
                if stop():
                    return
                yield game

    for tables in table_batches(games(), tally, COUNT_BATCH):
        counts.add(tables)
        counted(tally.hands)
    return counts


__all__ = [
    "MIN_HANDS",
    "LeakCounts",
    "count_leaks",
    "hand_counts",
    "leaks",
    "read_leaks",
    "situation_counts",
    "winning_players",
]
