"""Statistics as of a hand: each player's fold and bluff rates over the hands before it.

Hands are ordered by the file they are in (the order the logs were given, a folder's
files sorted), then the line of their game, then their number; a game found twice
counts at its first place. :func:`read_as_of` counts the logs once, in batches, into
one row per player and hand with something to count (an answer to a raise, a raise
with a known hand), adds those up per player (``cum_sum``), and keeps them sorted by
player, then hand (:class:`Running`). The running counts are step functions: only the
hands where a player's counts change have a row, each player's rows one stretch of a
single table; :meth:`AsOf.before` then finds what was counted strictly before a hand
by a binary search in its player's stretch, so no hand ever sees itself or a later one.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

import polars as pl

from truclog.solver.bluff import BLUFF_THRESHOLD
from truclog.stats.intervals import rate, wilson
from truclog.stats.kept import GameFilter, Tally
from truclog.stats.tables import Tables, table_batches
from truclog.validate.checker import CheckedGame
from truclog.validate.tally import GameTally

LINE_BITS = 28
HAND_BITS = 16
COUNTS = ("faced", "folds", "known", "bluffs")
"""Answers to a raise and folds among them; raises with a known hand and bluffs among them."""
COUNT_TYPE = pl.UInt32
STEPS_SCHEMA = {"key": pl.Int64, **dict.fromkeys(COUNTS, COUNT_TYPE)}
PLAYERS_SCHEMA = {"player": pl.Utf8, "rows": pl.UInt32}
"""The columns of :class:`Running`'s two tables."""


def order_key(file: int, line: int, hand: int) -> int:
    """A hand's place in the logs as one number: its file's place, its game's line, its
    number (lines past 2**28 and hands past 2**16 share the last place)."""
    line = min(line, (1 << LINE_BITS) - 1)
    hand = min(max(hand, 0), (1 << HAND_BITS) - 1)
    return (file << (LINE_BITS + HAND_BITS)) | (line << HAND_BITS) | hand


@dataclass(frozen=True, slots=True)
class Before:
    """A player's counts over the hands before one hand, and the rates they give."""

    player: str
    faced: int = 0
    folds: int = 0
    known: int = 0
    bluffs: int = 0

    @property
    def fold_rate(self) -> float | None:
        """Folds over raises faced (``None`` with none faced)."""
        return rate(self.folds, self.faced)

    @property
    def bluff_rate(self) -> float | None:
        """Bluffs over raises made with a known hand (``None`` with none)."""
        return rate(self.bluffs, self.known)

    def __add__(self, other: Before) -> Before:
        """The counts of both (the player's name kept)."""
        return Before(
            self.player,
            self.faced + other.faced,
            self.folds + other.folds,
            self.known + other.known,
            self.bluffs + other.bluffs,
        )

    def as_dict(self) -> dict[str, Any]:
        """The counts and rates, with their Wilson intervals, as plain values."""
        fold_low, fold_high = wilson(self.folds, self.faced)
        bluff_low, bluff_high = wilson(self.bluffs, self.known)
        return {
            "player": self.player,
            "raises_faced": self.faced,
            "folds_to_raise": self.folds,
            "fold_rate": self.fold_rate,
            "fold_rate_low": fold_low,
            "fold_rate_high": fold_high,
            "raises_known": self.known,
            "bluffs": self.bluffs,
            "bluff_rate": self.bluff_rate,
            "bluff_rate_low": bluff_low,
            "bluff_rate_high": bluff_high,
        }


@dataclass(frozen=True, slots=True)
class Running:
    """Every player's running counts, sorted by player, then hand: ``steps`` has the hand's
    ``key`` (:func:`order_key`) and the counts up to and including it, a row only where
    they change; ``players`` has each player's name and number of rows (``rows``), in
    the order of ``steps``."""

    steps: pl.DataFrame
    players: pl.DataFrame


class AsOf:
    """Each player's running counts, hand after hand, in the order of the logs."""

    def __init__(self, running: Running, files: Sequence[str], hands: int) -> None:
        """``running`` (:class:`Running`) for ``files`` in their order, ``hands`` counted."""
        self.files = {path: i for i, path in enumerate(files)}
        self.hands = hands
        self.steps = running.steps.select("key", *COUNTS)
        self.keys = self.steps["key"]
        ends = running.players["rows"].cast(pl.Int64).cum_sum()
        starts = ends - running.players["rows"].cast(pl.Int64)
        self.players: dict[str, tuple[int, int]] = {
            name: (start, end)
            for name, start, end in zip(running.players["player"], starts, ends, strict=True)
        }

    def total(self, player: str) -> Before:
        """What ``player`` did in every hand counted."""
        start, end = self.players.get(player, (0, 0))
        return self._at(player, start, end)

    def before(self, player: str, file: str, line: int, hand: int) -> Before:
        """What ``player`` did in the hands before hand ``hand`` of the game at ``line``
        of ``file`` (nothing when the file is not one of the logs)."""
        at = self.files.get(file)
        start, end = self.players.get(player, (0, 0))
        if at is None or start == end:
            return Before(player)
        rows = self.keys.slice(start, end - start)
        return self._at(
            player, start, start + int(rows.search_sorted(order_key(at, line, hand), side="left"))
        )

    def _at(self, player: str, start: int, end: int) -> Before:
        """The counts of ``player``'s last row before ``end`` (nothing when none is left
        of ``start``)."""
        if end <= start:
            return Before(player)
        _, *counts = self.steps.row(end - 1)
        return Before(player, *(int(count) for count in counts))


def hand_counts(tables: Tables, place: pl.DataFrame, threshold: float) -> pl.DataFrame:
    """Per player and hand of a narrow batch: answers to raises, folds, known raises and
    bluffs, with the hand's :func:`order_key` from ``place`` (fingerprint, file, line)."""
    actions = tables.actions
    kind = pl.col("type")
    answer = kind.is_in(["accept", "fold"]) & pl.col("pending").is_not_null()
    known = (kind == "raise") & pl.col("known") & pl.col("strength").is_not_null()
    flags = actions.filter(answer | known).select(
        "fingerprint",
        "hand",
        "player",
        answer.alias("faced"),
        (answer & (kind == "fold")).alias("folds"),
        known.alias("known"),
        (known & (pl.col("strength") < threshold)).alias("bluffs"),
    )
    line = pl.col("line").clip(0, (1 << LINE_BITS) - 1)
    hand = pl.col("hand").clip(0, (1 << HAND_BITS) - 1)
    key = pl.col("file") * (1 << (LINE_BITS + HAND_BITS)) + line * (1 << HAND_BITS) + hand
    keyed = flags.join(place, on="fingerprint", how="inner").with_columns(key.alias("key"))
    sums = (pl.col(name).cast(COUNT_TYPE).sum() for name in COUNTS)
    return keyed.group_by("player", "key").agg(sums)


def running(per_hand: pl.DataFrame) -> Running:
    """Per player and hand of ``per_hand`` (:func:`hand_counts`: the hands where the
    player has something counted, so where their counts change), the counts up to and
    including it (``cum_sum`` per player) (:class:`Running`)."""
    ordered = per_hand.sort("player", "key")
    steps = ordered.select(
        "key", *(pl.col(name).cum_sum().over("player").cast(COUNT_TYPE) for name in COUNTS)
    )
    players = ordered.group_by("player", maintain_order=True).agg(
        pl.len().cast(pl.UInt32).alias("rows")
    )
    return Running(steps, players)


def read_as_of(
    paths: Sequence[str],
    threshold: float = BLUFF_THRESHOLD,
    stop: Callable[[], bool] = lambda: False,
    counted: Callable[[int], None] = lambda hands: None,
) -> AsOf | None:
    """Count the log files at ``paths``, in this order (:class:`AsOf`); ``None`` when
    ``stop()`` said to stop. ``counted`` hears the hands counted so far."""
    found = running_counts(paths, threshold, stop, counted)
    return None if found is None else AsOf(found[0], paths, found[1])


def running_counts(
    paths: Sequence[str],
    threshold: float = BLUFF_THRESHOLD,
    stop: Callable[[], bool] = lambda: False,
    counted: Callable[[int], None] = lambda hands: None,
) -> tuple[Running, int] | None:
    """What :class:`AsOf` is made of: the running counts of the log files at ``paths``,
    in this order, and the hands counted; ``None`` when ``stop()`` said to stop.
    ``counted`` hears the hands counted so far."""
    from truclog.stats.run import COUNT_BATCH, kept_games

    tally = Tally()
    seen: set[int] = set()
    place: list[tuple[str, int, int]] = []
    parts: list[pl.DataFrame] = []
    stopped = False

    def games() -> Iterator[CheckedGame | GameTally]:
        nonlocal stopped
        for file, path in enumerate(paths):
            for game in kept_games(path, GameFilter(), tally, seen, facts=True):
                if stop():
                    stopped = True
                    return
                place.append((game.fingerprint, file, game.line))
                yield game

    schema = {"fingerprint": pl.Utf8, "file": pl.Int64, "line": pl.Int64}
    for tables in table_batches(games(), tally, COUNT_BATCH, narrow=True):
        frame = pl.DataFrame(place, schema=schema, orient="row")
        place.clear()
        parts.append(hand_counts(tables, frame, threshold))
        counted(tally.hands)
    if stopped:
        return None
    empty = pl.DataFrame(schema={"player": pl.Utf8, **STEPS_SCHEMA})
    per_hand = pl.concat([empty, *parts], rechunk=True)  # sorting pieces takes twice more
    parts.clear()
    return running(per_hand), tally.hands


__all__ = ["AsOf", "Before", "Running", "order_key", "read_as_of", "running_counts"]
