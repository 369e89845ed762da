"""Per-player (and per-team) statistics from the tables, split when asked.

Every statistic is a count; a rate is a count over an opportunity count, both
reported, with a Wilson 95% interval (``<rate>_low``, ``<rate>_high``), and
``None`` when there was no opportunity. Counts add up across batches, so a
corpus is summed batch by batch (:func:`count` here, in polars, then
:func:`~truclog.stats.counts.combine`) and the rates are taken once at the end
(:func:`~truclog.stats.counts.finish`, which like the names of the counts lives in
:mod:`truclog.stats.counts`, without polars). With ``Grouping.splits`` each row
is counted whole and split (by opponent, position, raise size, month or session). ``docs/stats.md`` defines each name and each split.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import pairwise

import polars as pl

from truclog.stats.counts import (
    _KEY_OF,
    BANDS,
    COUNTED,
    COUNTS,
    LABEL,
    MEMBERS,
    NAMED,
    SPLIT_COLUMNS,
    Grouping,
)
from truclog.stats.tables import Tables

SPLIT_KEYS = dict(zip(SPLIT_COLUMNS, (pl.Utf8, pl.Utf8, pl.Int64, pl.Utf8, pl.Utf8), strict=True))
"""The polars type of each column a split row is keyed by (:data:`SPLIT_COLUMNS`)."""

_ACTIONS_ONLY = {"place", "raise_size"}
"""Keys that only raises and answers have: rows keyed by them count no hands."""


def count(tables: Tables, grouping: Grouping) -> pl.DataFrame:
    """The counts of one batch: rows per player (``kind`` "player") and per team of
    four-player games (``kind`` "team"), with columns :data:`KEYS` and :data:`COUNTS`,
    for each way of :meth:`Grouping.ways`."""
    actions, seats = tables.actions, tables.seats
    parts = [_named(seats)]
    if grouping.opponents:
        against = pl.col("opponent").is_in(list(grouping.opponents))
        actions, seats = actions.filter(against), seats.filter(against)
        parts.append(_counted(seats))
    ways = grouping.ways()
    if len(ways) > 1:
        actions, seats = _keyed(actions, seats, tables.games)
    parts += [_counts(actions, seats, "player", way, grouping) for way in ways]
    if (tables.seats.get_column("size") == 4).any():
        four = tables.seats.filter(pl.col("size") == 4).get_column("fingerprint").unique()
        team_actions = actions.filter(pl.col("fingerprint").is_in(four.implode()))
        team_seats = seats.filter(pl.col("fingerprint").is_in(four.implode()))
        if grouping.players:
            chosen = [
                matching(c, grouping.players, grouping.ignore_case) for c in ("player", "team")
            ]
            teams = team_seats.filter(chosen[0] | chosen[1]).select("fingerprint", "team").unique()
            team_actions = team_actions.join(teams, on=["fingerprint", "team"], how="semi")
            team_seats = team_seats.join(teams, on=["fingerprint", "team"], how="semi")
        dealt = pl.col("dealer").any().over(["fingerprint", "hand", "team"])
        team_seats = team_seats.with_columns(
            dealt.alias("dealer"), pl.col("team_first_dealt").alias("first_dealt")
        )
        if "actor_team_dealt" in team_actions.columns:
            team_actions = team_actions.with_columns(pl.col("actor_team_dealt").alias("dealer"))
        team_seats = team_seats.unique(["fingerprint", "hand", "team"], keep="first")
        team_seats = team_seats.with_columns(pl.lit(None, pl.Float64).alias("strength"))
        pairs = _pairs(tables.seats.filter(pl.col("size") == 4))
        team_actions = team_actions.join(pairs, on=["fingerprint", "team"], how="left")
        team_seats = team_seats.join(pairs, on=["fingerprint", "team"], how="left")
        parts += [
            _counts(team_actions, team_seats, "members", way, grouping, "team") for way in ways
        ]
        played = team_seats.filter("first").select("fingerprint", "team").unique()
        parts.append(_labels(pairs.join(played, on=["fingerprint", "team"], how="semi")))
    return pl.concat(parts, how="vertical")


def _named(seats: pl.DataFrame) -> pl.DataFrame:
    names = pl.concat([seats.get_column("player"), seats.get_column("team")]).unique()
    return _bare(pl.DataFrame({"name": names}), NAMED)


def _counted(seats: pl.DataFrame) -> pl.DataFrame:
    """One row: the games and the hands some play of which was kept."""
    kept = pl.DataFrame(
        {
            "name": [""],
            "games": [seats.filter("first").get_column("fingerprint").n_unique()],
            "hands_played": [seats.select("fingerprint", "hand").n_unique()],
        }
    )
    return _bare(kept, COUNTED)


def _bare(rows: pl.DataFrame, kind: str) -> pl.DataFrame:
    """Rows of ``kind`` in the shape of counts: the ``name`` and counts of ``rows``,
    zero for the rest."""
    return rows.select(
        pl.lit(kind).alias("kind"),
        pl.col("name").cast(pl.Utf8),
        pl.lit("").alias("split"),
        *(pl.lit(None).cast(dtype).alias(name) for name, dtype in SPLIT_KEYS.items()),
        *((pl.col(c) if c in rows.columns else pl.lit(0)).cast(pl.Int64).alias(c) for c in COUNTS),
    )


def _pairs(seats: pl.DataFrame) -> pl.DataFrame:
    """The pair of players of each team of each game, as one key (``members``)."""
    pair = pl.col("player").unique().sort().str.join(MEMBERS)
    return seats.group_by("fingerprint", "team").agg(pair.alias("members"))


def _labels(pairs: pl.DataFrame) -> pl.DataFrame:
    """Rows of kind :data:`LABEL`: for each pair of players and name they played
    under, the games (its ``split`` holds the name)."""
    games = pairs.group_by("members", "team").agg(pl.len().cast(pl.Int64).alias("games"))
    return games.select(
        pl.lit(LABEL).alias("kind"),
        pl.col("members").alias("name"),
        pl.col("team").alias("split"),
        *(pl.lit(None).cast(dtype).alias(name) for name, dtype in SPLIT_KEYS.items()),
        *(pl.col("games") if c == "games" else pl.lit(0, pl.Int64).alias(c) for c in COUNTS),
    )


def _keyed(
    actions: pl.DataFrame, seats: pl.DataFrame, games: pl.DataFrame
) -> tuple[pl.DataFrame, pl.DataFrame]:
    """Actions and seats with every split key as a column."""
    day = pl.col("date")
    session = day.dt.strftime("%Y-%m-%d") + " " + pl.col("players").list.sort().list.join(", ")
    per_game = games.select(
        "fingerprint",
        day.dt.strftime("%Y-%m").alias("month"),
        session.alias("session"),
    )
    seats = seats.join(per_game, on="fingerprint", how="left")
    dealt = seats.group_by("fingerprint", "hand", "team").agg(
        pl.col("dealer").any().alias("actor_team_dealt")
    )
    own = seats.select("fingerprint", "hand", "player", "dealer")
    kind = pl.col("type")
    actions = (
        actions.join(own, on=["fingerprint", "hand", "player"], how="left")
        .join(dealt, on=["fingerprint", "hand", "team"], how="left")
        .join(per_game, on="fingerprint", how="left")
        .with_columns(
            pl.when(kind == "raise")
            .then(pl.col("to"))
            .when(kind.is_in(["accept", "fold"]))
            .then(pl.col("pending"))
            .alias("raise_size"),
            pl.when(kind.is_in(["raise", "accept", "fold"]))
            .then(pl.col("position"))
            .alias("place"),
        )
    )
    return actions, seats


def _counts(
    actions: pl.DataFrame,
    seats: pl.DataFrame,
    entity: str,
    way: tuple[str, ...],
    grouping: Grouping,
    kind: str = "player",
) -> pl.DataFrame:
    """The counts of one way of keying rows (by the column ``entity``), of ``kind``."""
    named = {_KEY_OF[key]: _KEY_EXPRS[key] for key in way}
    keys = [entity, *named]
    actions = actions.with_columns(expr.alias(name) for name, expr in named.items())
    only = sorted(_ACTIONS_ONLY & set(way))
    for key in only:
        actions = actions.filter(pl.col(key).is_not_null())
    merged = _action_counts(actions, keys, grouping)
    if not only:
        seats = seats.with_columns(expr.alias(name) for name, expr in named.items())
        merged = merged.join(_hand_counts(seats, keys), on=keys, how="full", coalesce=True)
    return merged.select(
        pl.lit(kind).alias("kind"),
        pl.col(entity).alias("name"),
        pl.lit("+".join(way)).alias("split"),
        *(
            (pl.col(name) if name in named else pl.lit(None)).cast(dtype).alias(name)
            for name, dtype in SPLIT_KEYS.items()
        ),
        *(
            (pl.col(c).fill_null(0) if c in merged.columns else pl.lit(0)).cast(pl.Int64).alias(c)
            for c in COUNTS
        ),
    )


_KEY_EXPRS = {
    "opponent": pl.col("opponent"),
    "dealer": pl.when(pl.col("dealer")).then(pl.lit("dealer")).otherwise(pl.lit("non-dealer")),
    "place": pl.col("place"),
    "raise_size": pl.col("raise_size"),
    "month": pl.col("month"),
    "session": pl.col("session"),
}
"""How each key of a split row is read from the keyed actions and seats."""


def matching(column: str, names: Sequence[str], ignore_case: bool) -> pl.Expr:
    """Rows whose ``column`` is one of ``names`` (whatever the case, with ``ignore_case``)."""
    if ignore_case:
        return pl.col(column).str.to_lowercase().is_in([n.lower() for n in names])
    return pl.col(column).is_in(list(names))


def _action_counts(actions: pl.DataFrame, keys: list[str], grouping: Grouping) -> pl.DataFrame:
    kind = pl.col("type")
    flags = actions.select(
        *keys,
        "strength",
        "pending",
        "sound",
        "right",
        "points_given",
        "lost",
        *((kind == name).alias(name) for name in ("raise", "accept", "fold", "redeal", "play")),
        (pl.col("answer") == "fold").fill_null(False).alias("answered_fold"),
        *(pl.col(name).fill_null(False) for name in ("known", "reste", "hand_won", "accepted")),
    )  # each string compared once: the counts below are sums of these flags
    is_raise, fold, accept = pl.col("raise"), pl.col("fold"), pl.col("accept")
    answer = (accept | fold) & pl.col("pending").is_not_null()
    known = is_raise & pl.col("known") & pl.col("strength").is_not_null()
    bluff = known & (pl.col("strength") < grouping.threshold)
    reste = is_raise & pl.col("reste")
    redeal = pl.col("redeal")
    counts = {
        "raises": is_raise,
        "raises_faced": answer,
        "accepts": answer & accept,
        "folds_to_raise": answer & fold,
        "folds_unprompted": fold & pl.col("pending").is_null(),
        "raises_known": known,
        "bluffs": bluff,
        "bluffs_folded": bluff & pl.col("answered_fold"),
        "value_raises": known & (pl.col("strength") >= grouping.threshold),
        "reste_made": reste,
        "reste_won": reste & pl.col("hand_won"),
        "redeals_asked": redeal,
        "redeals_granted": redeal & pl.col("accepted"),
        **_answer_counts(answer, fold, accept),
        **_play_counts(pl.col("play"), answer),
    }
    return flags.group_by(keys).agg(
        expr.cast(pl.Int64).sum().alias(name) for name, expr in counts.items()
    )


def _answer_counts(answer: pl.Expr, fold: pl.Expr, accept: pl.Expr) -> dict[str, pl.Expr]:
    right = pl.col("right")
    judged = answer & right.is_not_null()
    folds, accepts = judged & fold, judged & accept
    return {
        **_judged_counts(answer, "answers"),
        "folds_judged": folds,
        "folds_right": folds & right.fill_null(False),
        "accepts_judged": accepts,
        "accepts_right": accepts & right.fill_null(False),
        "points_given": pl.when(judged).then(pl.col("points_given")).otherwise(0),
    }


def _judged_counts(decided: pl.Expr, kind: str) -> dict[str, pl.Expr]:
    """How many of some decisions were judged on the player's view (``known``) and
    sound, judged in hindsight and right."""
    sound, right = pl.col("sound"), pl.col("right")
    judged = decided & right.is_not_null()
    return {
        f"{kind}_known": decided & sound.is_not_null(),
        f"{kind}_sound": decided & sound.fill_null(False),
        f"{kind}_judged": judged,
        f"{kind}_right": judged & right.fill_null(False),
    }


def _play_counts(play: pl.Expr, answer: pl.Expr) -> dict[str, pl.Expr]:
    right = pl.col("right")
    judged = play & right.is_not_null()
    answered = answer & right.is_not_null()
    play_lost = pl.when(judged).then(pl.col("lost")).otherwise(0)
    return {
        **_judged_counts(play, "plays"),
        "play_points_lost": play_lost,
        "review_points_lost": play_lost
        + pl.when(answered).then(pl.col("points_given")).otherwise(0),
    }


def _hand_counts(seats: pl.DataFrame, keys: list[str]) -> pl.DataFrame:
    winner, team = pl.col("winner"), pl.col("team")
    opens = "first_dealt" if _KEY_OF["dealer"] in keys else "first"
    flags = seats.select(
        *keys,
        "fingerprint",
        pl.col(opens).alias("opens"),
        "points",
        "strength",
        (pl.col("ending") != "unfinished").alias("decided"),
        (winner == team).fill_null(False).alias("mine"),
        (winner.is_not_null() & (winner != team)).alias("theirs"),
        winner.is_null().alias("drawn"),
        pl.col("cards").is_not_null().alias("known"),
        (pl.col("tricks") >= 1).alias("first_played"),
        (pl.col("first_trick") == team).fill_null(False).alias("first_won"),
    )  # each string compared once: the counts below are sums of these flags
    decided, mine = pl.col("decided"), pl.col("mine")
    counts: dict[str, pl.Expr] = {
        "hands_played": decided,
        "hands_won": mine,
        "hands_drawn": decided & pl.col("drawn"),
        "hands_known": pl.col("known"),
        "points_won": pl.when(mine).then(pl.col("points")).otherwise(0),
        "points_lost": pl.when(pl.col("theirs")).then(pl.col("points")).otherwise(0),
        "first_tricks_played": pl.col("first_played"),
        "first_tricks_won": pl.col("first_won"),
    }
    strength = pl.col("strength")
    for i, (low, high) in enumerate(pairwise(BANDS)):
        inside = (strength >= low) & ((strength < high) if high < 1 else (strength <= high))
        band = decided & inside.fill_null(False)
        counts[f"band_hands_{i}"] = band
        counts[f"band_won_{i}"] = band & mine
    return flags.group_by(keys).agg(
        pl.col("fingerprint").filter("opens").n_unique().cast(pl.Int64).alias("games"),
        *(expr.cast(pl.Int64).sum().alias(name) for name, expr in counts.items()),
    )


__all__ = ["SPLIT_KEYS", "count", "matching"]
