"""Per-player (and per-team) statistics from the tables, split when asked.

Every statistic is a count; a rate is a count over an opportunity count, both
reported, with a Wilson 95% interval (``<rate>_low``, ``<rate>_high``), and
``None`` when there was no opportunity. Counts add up across batches, so a
corpus is summed batch by batch (:func:`count` then :func:`combine`) and the
rates are taken once at the end (:func:`finish`). With ``Grouping.splits``
each row is counted whole and split (by opponent, position, raise size, month
or session). ``docs/stats.md`` defines each name and each split.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from difflib import get_close_matches
from itertools import pairwise
from typing import Any

import polars as pl

from truclog.names import name_key
from truclog.solver.bluff import BLUFF_THRESHOLD
from truclog.stats.intervals import rate, wilson
from truclog.stats.tables import Tables

BANDS = (0.0, 0.25, 0.5, 0.75, 1.0)
"""Edges of the hand-strength bands: [0, .25), [.25, .5), [.5, .75), [.75, 1]."""

ANSWER_COUNTS = (
    "answers_known",
    "answers_sound",
    "answers_judged",
    "answers_right",
    "folds_judged",
    "folds_right",
    "accepts_judged",
    "accepts_right",
    "points_given",
)
"""The review of answers to raises, in two-player games."""

PLAY_COUNTS = (
    "plays_known",
    "plays_sound",
    "plays_judged",
    "plays_right",
    "play_points_lost",
    "review_points_lost",
)
"""The review of cards played, in two-player games, and the points lost by the
player's decisions (plays and answers)."""

ACTION_COUNTS = (
    "raises",
    "raises_faced",
    "accepts",
    "folds_to_raise",
    "folds_unprompted",
    "raises_known",
    "bluffs",
    "bluffs_folded",
    "value_raises",
    "reste_made",
    "reste_won",
    "redeals_asked",
    "redeals_granted",
    *ANSWER_COUNTS,
    *PLAY_COUNTS,
)
BAND_COUNTS = tuple(
    f"{what}_{i}" for i in range(len(BANDS) - 1) for what in ("band_hands", "band_won")
)
HAND_COUNTS = (
    "games",
    "hands_played",
    "hands_won",
    "hands_drawn",
    "hands_known",
    "points_won",
    "points_lost",
    "first_tricks_played",
    "first_tricks_won",
    *BAND_COUNTS,
)
COUNTS = (*HAND_COUNTS, *ACTION_COUNTS)

RATES = (
    ("win_rate", "hands_won", "hands_played"),
    ("fold_rate", "folds_to_raise", "raises_faced"),
    ("accept_rate", "accepts", "raises_faced"),
    ("bluff_rate", "bluffs", "raises_known"),
    ("bluff_success", "bluffs_folded", "bluffs"),
    ("reste_win_rate", "reste_won", "reste_made"),
    ("redeal_grant_rate", "redeals_granted", "redeals_asked"),
    ("first_trick_rate", "first_tricks_won", "first_tricks_played"),
    ("sound_rate", "answers_sound", "answers_known"),
    ("right_rate", "answers_right", "answers_judged"),
    ("fold_right_rate", "folds_right", "folds_judged"),
    ("accept_right_rate", "accepts_right", "accepts_judged"),
    ("play_sound_rate", "plays_sound", "plays_known"),
    ("play_right_rate", "plays_right", "plays_judged"),
)
"""Each rate: its name, its numerator and its denominator."""


SPLITS = ("opponent", "position", "raise-size", "month", "session")
"""What ``--by`` splits a player's row by."""

SPLIT_KEYS = {
    "opponent": pl.Utf8,
    "position": pl.Utf8,
    "raise_size": pl.Int64,
    "month": pl.Utf8,
    "session": pl.Utf8,
}
"""The columns a split row is keyed by (null where the row is not split that way)."""

_VARIANTS = {
    "opponent": (("opponent",),),
    "position": (("dealer",), ("place",)),
    "raise-size": (("raise_size",),),
    "month": (("month",),),
    "session": (("session",),),
}
"""Each split as the ways its rows are keyed: by position, once by the deal (the
player dealt or not) and once by the player's place in the trick at a raise."""

_KEY_OF = {
    "opponent": "opponent",
    "dealer": "position",
    "place": "position",
    "raise_size": "raise_size",
    "month": "month",
    "session": "session",
}
_ACTIONS_ONLY = {"place", "raise_size"}
"""Keys that only raises and answers have: rows keyed by them count no hands."""

KEYS = ("kind", "name", "split", *SPLIT_KEYS)
"""The columns that tell one row of counts from another (``split`` names the
keys of a split row; it is empty for a player's whole row)."""


@dataclass(frozen=True, slots=True)
class Grouping:
    """What one row of statistics is about: players or teams, maybe split."""

    splits: tuple[str, ...] = ()
    """Names from :data:`SPLITS`; each row is counted whole too."""
    threshold: float = BLUFF_THRESHOLD
    opponents: tuple[str, ...] = ()
    players: tuple[str, ...] = ()
    """Only teams with one of these players count (players are chosen by :func:`finish`)."""
    ignore_case: bool = False

    def ways(self) -> list[tuple[str, ...]]:
        """The ways rows are keyed: the whole row, then each combination of splits."""
        ways: list[tuple[str, ...]] = [()]
        if not self.splits:
            return ways
        combos: list[tuple[str, ...]] = [()]
        for split in dict.fromkeys(self.splits):
            combos = [c + v for c in combos for v in _VARIANTS[split]]
        return ways + combos


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


NAMED = "name"
"""The ``kind`` of the rows that list every player and team name of the games read,
before ``--opponent`` keeps some play: what a name given on the command line is
checked against."""

COUNTED = "counted"
"""The ``kind`` of the row that counts the games and hands ``--opponent`` keeps."""


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


MEMBERS = "\x1f"
"""What joins the two players of a team into the key of its rows (never shown)."""

LABEL = "team name"
"""The ``kind`` of the rows that count the games a pair of players played under each
team name: their row's ``team`` is the name they used most."""


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


def combine(parts: Iterable[pl.DataFrame]) -> pl.DataFrame:
    """Add up the counts of several batches."""
    frames = [p for p in parts if p.height]
    if not frames:
        return _empty()
    return (
        pl.concat(frames, how="vertical").group_by(list(KEYS)).agg(pl.col(c).sum() for c in COUNTS)
    )


def _empty() -> pl.DataFrame:
    schema: dict[str, Any] = {"kind": pl.Utf8, "name": pl.Utf8, "split": pl.Utf8}
    schema.update(SPLIT_KEYS)
    schema.update({c: pl.Int64 for c in COUNTS})
    return pl.DataFrame(schema=schema)


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


def finish(
    counts: pl.DataFrame,
    kind: str = "player",
    names: Sequence[str] = (),
    *,
    split: bool = False,
    ignore_case: bool = False,
    min_hands: int = 0,
) -> list[dict[str, Any]]:
    """One dict per player (or team) with its counts and rates, in name order
    (:func:`~truclog.names.name_key`: whatever the case and accents).

    ``names`` keeps only those players (teams), ``min_hands`` only those who
    played that many hands in all; ``split`` gives their split rows instead of
    their whole rows.
    """
    rows = counts.filter(pl.col("kind") == kind)
    whole = rows.filter(pl.col("split") == "")
    if names:
        whole = whole.filter(matching("name", names, ignore_case))
    if min_hands:
        whole = whole.filter(pl.col("hands_played") >= min_hands)
    if split:
        rows = rows.filter(pl.col("split") != "").join(whole.select("name"), on="name", how="semi")
    else:
        rows = whole
    rows = rows.sort(["name", "split", *SPLIT_KEYS], nulls_last=True)
    out = [statistics(row, kind) for row in rows.iter_rows(named=True)]
    if kind == "team":
        labels = team_names(counts)
        out = [_team_row(row, labels) for row in out]
    out.sort(key=lambda row: name_key(row[kind]))  # stable: split rows stay in order
    return out


def team_names(counts: pl.DataFrame) -> dict[str, str]:
    """Each pair of players' team name: the one they played most games under (of
    names used as often, the first in :func:`~truclog.terminal.name_key` order)."""
    used = (
        counts.filter(pl.col("kind") == LABEL).group_by("name", "split").agg(pl.col("games").sum())
    )
    best: dict[str, tuple[int, str]] = {}
    for pair, name, games in used.iter_rows():
        if pair not in best or (-games, name_key(name)) < (-best[pair][0], name_key(best[pair][1])):
            best[pair] = (games, name)
    return {pair: name for pair, (_, name) in best.items()}


def _team_row(row: dict[str, Any], labels: dict[str, str]) -> dict[str, Any]:
    """A team's row named by its team name, with ``members`` (its two players) next."""
    pair = row["team"]
    members = sorted(pair.split(MEMBERS), key=name_key)
    row["team"] = labels.get(pair, " & ".join(members))
    return {"team": row.pop("team"), "members": members, **row}


def counted(counts: pl.DataFrame) -> tuple[int, int] | None:
    """The games and hands of which ``--opponent`` kept some play (``None`` without it)."""
    rows = counts.filter(pl.col("kind") == COUNTED)
    if not rows.height:
        return None
    return int(rows.get_column("games").sum()), int(rows.get_column("hands_played").sum())


def unknown_names(
    counts: pl.DataFrame, names: Sequence[str], ignore_case: bool = False
) -> dict[str, list[str]]:
    """The ``names`` that are no player's or team's, each with the closest names there are."""
    known = counts.filter(pl.col("kind") == NAMED).get_column("name").unique().to_list()
    fold = str.lower if ignore_case else str
    folded = {fold(name): name for name in known}
    return {
        name: [folded[n] for n in get_close_matches(fold(name), folded, n=3)]
        for name in names
        if fold(name) not in folded
    }


def statistics(row: dict[str, Any], kind: str = "player") -> dict[str, Any]:
    """Counts and rates of one player, in the order of ``docs/stats.md``."""
    out: dict[str, Any] = {kind: row["name"]}
    for key in filter(None, (row.get("split") or "").split("+")):
        out[_KEY_OF[key]] = row[_KEY_OF[key]]
    c = {name: int(row[name]) for name in COUNTS}
    out["games"] = c["games"]
    for name in ("hands_played", "hands_won", "hands_drawn"):
        out[name] = c[name]
    out["hands_lost"] = c["hands_played"] - c["hands_won"] - c["hands_drawn"]
    _rate(out, c, "win_rate")
    out["points_won"], out["points_lost"] = c["points_won"], c["points_lost"]
    out["raises"] = c["raises"]
    out["raises_per_hand"] = rate(c["raises"], c["hands_played"])
    for name in ("raises_faced", "folds_to_raise"):
        out[name] = c[name]
    _rate(out, c, "fold_rate")
    out["accepts"] = c["accepts"]
    _rate(out, c, "accept_rate")
    out["folds_unprompted"] = c["folds_unprompted"]
    out["raises_known"], out["bluffs"] = c["raises_known"], c["bluffs"]
    _rate(out, c, "bluff_rate")
    out["bluffs_folded"] = c["bluffs_folded"]
    _rate(out, c, "bluff_success")
    out["value_raises"] = c["value_raises"]
    out["reste_made"], out["reste_won"] = c["reste_made"], c["reste_won"]
    _rate(out, c, "reste_win_rate")
    out["redeals_asked"], out["redeals_granted"] = c["redeals_asked"], c["redeals_granted"]
    _rate(out, c, "redeal_grant_rate")
    out["first_tricks_played"] = c["first_tricks_played"]
    out["first_tricks_won"] = c["first_tricks_won"]
    _rate(out, c, "first_trick_rate")
    out["hands_known"] = c["hands_known"]
    _answers(out, c)
    if kind == "player":
        out["win_rate_by_strength"] = [_band(c, i) for i in range(len(BANDS) - 1)]
    return out


_RATE = {name: (num, den) for name, num, den in RATES}


def _answers(out: dict[str, Any], c: dict[str, int]) -> None:
    """The review of the player's answers to raises."""
    out["answers_known"], out["answers_sound"] = c["answers_known"], c["answers_sound"]
    _rate(out, c, "sound_rate")
    out["answers_judged"], out["answers_right"] = c["answers_judged"], c["answers_right"]
    _rate(out, c, "right_rate")
    out["folds_judged"], out["folds_right"] = c["folds_judged"], c["folds_right"]
    _rate(out, c, "fold_right_rate")
    out["accepts_judged"], out["accepts_right"] = c["accepts_judged"], c["accepts_right"]
    _rate(out, c, "accept_right_rate")
    out["points_given"] = c["points_given"]
    out["plays_known"], out["plays_sound"] = c["plays_known"], c["plays_sound"]
    _rate(out, c, "play_sound_rate")
    out["plays_judged"], out["plays_right"] = c["plays_judged"], c["plays_right"]
    _rate(out, c, "play_right_rate")
    out["play_points_lost"] = c["play_points_lost"]
    out["review_points_lost"] = c["review_points_lost"]


def _rate(out: dict[str, Any], c: dict[str, int], name: str) -> None:
    num, den = _RATE[name]
    out[name] = rate(c[num], c[den])
    out[f"{name}_low"], out[f"{name}_high"] = wilson(c[num], c[den])


def _band(c: dict[str, int], i: int) -> dict[str, Any]:
    won, hands = c[f"band_won_{i}"], c[f"band_hands_{i}"]
    low, high = wilson(won, hands)
    return {
        "band": f"{BANDS[i]:.2f}-{BANDS[i + 1]:.2f}",
        "hands": hands,
        "won": won,
        "rate": rate(won, hands),
        "rate_low": low,
        "rate_high": high,
    }


def flat(row: dict[str, Any]) -> dict[str, Any]:
    """A row with the strength bands spread into columns, for CSV and Parquet."""
    out = {k: v for k, v in row.items() if k != "win_rate_by_strength"}
    for band in row.get("win_rate_by_strength", []):
        tag = band["band"].replace(".", "").replace("-", "_")
        for key in ("hands", "won", "rate", "rate_low", "rate_high"):
            out[f"strength_{tag}_{key}"] = band[key]
    return out
