"""The counts of statistics summed in Python, and the rows of statistics made of them.

A run's counts (:class:`CountRows`) are one row of :data:`COUNTS` per player, team
and split, keyed by :data:`KEYS`: the counts of each batch of tables
(:func:`truclog.stats.players.count`, in polars) and of the games the quick core
cleared (:mod:`truclog.stats.cleared`, in C) are added up here (:func:`combine`), and
the rates are taken once at the end (:func:`finish`). Nothing here imports polars: a
run whose games the quick core all clears makes its report without it.
``docs/stats.md`` defines each name and each split.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from truclog.names import name_key
from truclog.solver.bluff import BLUFF_THRESHOLD
from truclog.stats.intervals import rate, wilson

if TYPE_CHECKING:
    import polars as pl

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

SPLIT_COLUMNS = ("opponent", "position", "raise_size", "month", "session")
"""The columns a split row is keyed by (null where the row is not split that way)."""

KEYS = ("kind", "name", "split", *SPLIT_COLUMNS)
"""The columns that tell one row of counts from another (``split`` names the
keys of a split row; it is empty for a player's whole row)."""

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


NAMED = "name"
"""The ``kind`` of the rows that list every player and team name of the games read,
before ``--opponent`` keeps some play: what a name given on the command line is
checked against."""

COUNTED = "counted"
"""The ``kind`` of the row that counts the games and hands ``--opponent`` keeps."""


MEMBERS = "\x1f"
"""What joins the two players of a team into the key of its rows (never shown)."""

LABEL = "team name"
"""The ``kind`` of the rows that count the games a pair of players played under each
team name: their row's ``team`` is the name they used most."""


Key = tuple[Any, ...]
"""A row's values of :data:`KEYS`."""


class CountRows:
    """Counts per player, team and split: one list of :data:`COUNTS` per key of
    :data:`KEYS`, added up as batches and files come (see :func:`combine`)."""

    __slots__ = ("counts",)

    def __init__(self) -> None:
        self.counts: dict[Key, list[int]] = {}

    def add(self, key: Key, counts: Sequence[int | None]) -> None:
        """Add one row's counts (``None`` as 0) to those of its key."""
        mine = self.counts.get(key)
        if mine is None:
            self.counts[key] = [c or 0 for c in counts]
        else:
            for at, c in enumerate(counts):
                if c:
                    mine[at] += c

    def add_all(self, other: CountRows | pl.DataFrame) -> None:
        """Add the rows of other counts, or of a frame of counts (columns :data:`KEYS`
        and :data:`COUNTS`, as :func:`truclog.stats.players.count` makes)."""
        if isinstance(other, CountRows):
            for key, counts in other.counts.items():
                self.add(key, counts)
            return
        width = len(KEYS)
        for row in other.select(*KEYS, *COUNTS).iter_rows():
            self.add(row[:width], row[width:])

    def rows(self, kind: str | None = None) -> Iterator[dict[str, Any]]:
        """Each row (of ``kind`` only, when given) as a dict of :data:`KEYS` and
        :data:`COUNTS`."""
        for key, counts in self.counts.items():
            if kind is None or key[0] == kind:
                yield dict(zip(KEYS, key, strict=True)) | dict(zip(COUNTS, counts, strict=True))

    def frame(self) -> pl.DataFrame:
        """The counts as a polars frame, one row per key, in no particular order."""
        import polars as pl

        from truclog.stats.players import SPLIT_KEYS

        schema: dict[str, Any] = {"kind": pl.Utf8, "name": pl.Utf8, "split": pl.Utf8}
        schema |= SPLIT_KEYS
        schema |= {c: pl.Int64 for c in COUNTS}
        rows = [(*key, *counts) for key, counts in self.counts.items()]
        return pl.DataFrame(rows, schema=schema, orient="row")

    def __len__(self) -> int:
        return len(self.counts)


def combine(parts: Iterable[CountRows | pl.DataFrame]) -> CountRows:
    """Add up the counts of several batches (or files)."""
    total = CountRows()
    for part in parts:
        total.add_all(part)
    return total


def matches(name: str, names: Sequence[str], ignore_case: bool) -> bool:
    """Whether ``name`` is one of ``names`` (whatever the case, with ``ignore_case``)."""
    if ignore_case:
        return name.lower() in {n.lower() for n in names}
    return name in names


def _summed(counts: CountRows | pl.DataFrame) -> CountRows:
    """Counts as :class:`CountRows` (a frame of counts added up)."""
    return counts if isinstance(counts, CountRows) else combine([counts])


def _order(row: dict[str, Any]) -> tuple[Any, ...]:
    """A row's place among rows: by name, split and split keys, nothing last."""
    return (row["name"], row["split"], *((row[k] is None, row[k]) for k in SPLIT_COLUMNS))


def finish(
    counts: CountRows | pl.DataFrame,
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
    counts = _summed(counts)
    rows = list(counts.rows(kind))
    whole = [row for row in rows if row["split"] == ""]
    if names:
        whole = [row for row in whole if matches(row["name"], names, ignore_case)]
    if min_hands:
        whole = [row for row in whole if row["hands_played"] >= min_hands]
    if split:
        kept = {row["name"] for row in whole}
        rows = [row for row in rows if row["split"] != "" and row["name"] in kept]
    else:
        rows = whole
    rows.sort(key=_order)
    out = [statistics(row, kind) for row in rows]
    if kind == "team":
        labels = team_names(counts)
        out = [_team_row(row, labels) for row in out]
    out.sort(key=lambda row: name_key(row[kind]))  # stable: split rows stay in order
    return out


def team_names(counts: CountRows | pl.DataFrame) -> dict[str, str]:
    """Each pair of players' team name: the one they played most games under (of
    names used as often, the first in :func:`~truclog.terminal.name_key` order)."""
    used: dict[tuple[str, str], int] = {}
    for row in _summed(counts).rows(LABEL):
        label = (row["name"], row["split"])
        used[label] = used.get(label, 0) + row["games"]
    best: dict[str, tuple[int, str]] = {}
    for (pair, name), games in sorted(used.items()):
        if pair not in best or (-games, name_key(name)) < (-best[pair][0], name_key(best[pair][1])):
            best[pair] = (games, name)
    return {pair: name for pair, (_, name) in best.items()}


def _team_row(row: dict[str, Any], labels: dict[str, str]) -> dict[str, Any]:
    """A team's row named by its team name, with ``members`` (its two players) next."""
    pair = row["team"]
    members = sorted(pair.split(MEMBERS), key=name_key)
    row["team"] = labels.get(pair, " & ".join(members))
    return {"team": row.pop("team"), "members": members, **row}


def counted(counts: CountRows | pl.DataFrame) -> tuple[int, int] | None:
    """The games and hands of which ``--opponent`` kept some play (``None`` without it)."""
    rows = list(_summed(counts).rows(COUNTED))
    if not rows:
        return None
    return sum(row["games"] for row in rows), sum(row["hands_played"] for row in rows)


def unknown_names(
    counts: CountRows | pl.DataFrame, names: Sequence[str], ignore_case: bool = False
) -> dict[str, list[str]]:
    """The ``names`` that are no player's or team's, each with the closest names there are."""
    if not names:
        return {}
    from difflib import get_close_matches

    known = sorted({row["name"] for row in _summed(counts).rows(NAMED)})
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


__all__ = [
    "ACTION_COUNTS",
    "BANDS",
    "COUNTED",
    "COUNTS",
    "KEYS",
    "LABEL",
    "MEMBERS",
    "NAMED",
    "RATES",
    "SPLITS",
    "SPLIT_COLUMNS",
    "CountRows",
    "Grouping",
    "combine",
    "counted",
    "finish",
    "flat",
    "matches",
    "statistics",
    "team_names",
    "unknown_names",
]
