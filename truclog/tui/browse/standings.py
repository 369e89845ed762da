"""Player statistics for the browser: counted in a child process, and drawn as charts.

The numbers come from :mod:`truclog.stats` (only hands the validator passed,
each game once), counted by :func:`count_players` in a process of its own, so
the browser stays quick and quitting never waits for it. The same reading gives
what the statistics do not keep: the OpenSkill
ratings (:mod:`truclog.stats.ratings`, as ``truclog ratings`` gives them, with each
player's ordinal after every game, :data:`TRAIL_POINTS` points at most) and each
player's costliest answers (:mod:`truclog.tui.browse.costly`). This module also
draws what the players screen shows: rates with their Wilson intervals as bars,
and each player's points game after game.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import closing
from dataclasses import dataclass, field
from typing import Any

from rich.table import Table
from rich.text import Text

from truclog.engine.trick import team_of
from truclog.tui.browse.catalog import GameEntry
from truclog.tui.browse.child import Tell, documents, serve
from truclog.tui.browse.costly import GivenAway
from truclog.validate.checker import CheckedGame
from truclog.validate.tally import GameTally

MONTH_KEYS = (
    "player",
    "month",
    *(f"{name}{end}" for name in ("fold_rate", "bluff_rate") for end in ("", "_low", "_high")),
    *("raises_faced", "folds_to_raise", "raises_known", "bluffs"),
)
"""What the players screen charts of each player's month."""
TRAIL_POINTS = 256
"""Points of each player's ordinal history kept for the chart (evenly spread)."""


@dataclass(frozen=True, slots=True)
class Rated:
    """A player's OpenSkill rating, and their ordinal from the start, game after game
    (every ``stride``-th game of a long history)."""

    player: str
    mu: float
    sigma: float
    ordinal: float
    games: int
    wins: int
    trail: list[tuple[int, float]] = field(default_factory=list)
    stride: int = 1


@dataclass(frozen=True, slots=True)
class Hindsight:
    """What the statistics do not keep: every rated player, best ordinal first, and the
    answers each player gave points away with."""

    ratings: list[Rated]
    given: dict[str, GivenAway]
    months: list[dict[str, Any]] = field(default_factory=list)
    """Each player's fold and bluff rates month by month (split rows, :data:`MONTH_KEYS`)."""

    @classmethod
    def of(cls, data: Mapping[str, Any]) -> Hindsight:
        """The hindsight the counting process sent as JSON."""
        ratings = [Rated(**{**r, "trail": [tuple(p) for p in r["trail"]]}) for r in data["ratings"]]
        given = {p: GivenAway.of(g) for p, g in data["given"].items()}
        return cls(ratings, given, list(data.get("months", ())))


def _count(asked: dict[str, Any], tell: Tell) -> None:
    """In the child process: count the paths asked, telling the hands counted as it goes,
    then the rows, then the ratings and costliest answers."""

    def counted(hands: int) -> None:
        tell({"hands": hands})

    tell({"hindsight": standings(asked["paths"], asked["threshold"], counted, tell)})


def standings(
    paths: list[str],
    threshold: float,
    counted: Callable[[int], None],
    tell: Callable[[dict[str, Any]], None],
) -> dict[str, Any]:
    """In the child process: one reading of the logs, each game once, as statistics read
    them (the games the quick core clears come with their facts). Its tables give the
    statistics, told as ``{"rows": ...}`` once read, and each player's costliest
    answers; the games give the matches rated after. ``counted`` hears the hands of
    each batch; returns the ratings and the costliest answers."""
    from truclog.format.reader import log_files, rare_collections
    from truclog.stats.counts import Grouping, combine, finish
    from truclog.stats.kept import GameFilter, Tally
    from truclog.stats.players import count
    from truclog.stats.ratings import Match, match_of, rate
    from truclog.stats.run import COUNT_BATCH, kept_games
    from truclog.stats.tables import table_batches
    from truclog.tui.browse.costly import Costliest

    matches: list[Match] = []
    batch: list[tuple[str, str, int, str, int]] = []
    costliest, tally = Costliest(), Tally()
    seen: set[int] = set()
    grouping = Grouping(threshold=threshold)
    by_month = Grouping(("month",), threshold)
    counts = months = combine([])

    def noted() -> Iterator[CheckedGame | GameTally]:
        games = (
            g
            for p in log_files(paths)
            for g in kept_games(p, GameFilter(), tally, seen, facts=True)
        )
        for order, game in enumerate(games):
            match = match_of(game)
            if match is not None:
                matches.append(match)
            batch.append((game.fingerprint, game.path, game.line, game.id, order))
            yield game

    told = 0
    with rare_collections():
        for tables in table_batches(noted(), tally, COUNT_BATCH, narrow=True):
            counts = combine([counts, count(tables, grouping)])
            months = combine([months, count(tables, by_month)])
            costliest.add(tables.actions, batch)
            batch.clear()  # a batch holds every game read since the last one
            counted(tally.hands - told)
            told = tally.hands
    tell({"rows": finish(counts)})
    board = rate(matches, history=True, cap=TRAIL_POINTS)
    ratings = [{**r.as_dict(), "trail": r.trail(), "stride": r.stride} for r in board.players()]
    given = {player: g.as_dict() for player, g in costliest.given().items()}
    monthly = [{k: row.get(k) for k in MONTH_KEYS} for row in finish(months, split=True)]
    return {"ratings": ratings, "given": given, "months": monthly}


def count_players(
    paths: Sequence[str],
    threshold: float,
    counted: Callable[[int], None],
    ready: Callable[[list[dict[str, Any]], Hindsight | None], None],
    stop: Callable[[], bool],
) -> None:
    """Every player's statistics over the logs at ``paths``, counted in a child process,
    with their ratings and costliest answers: ``counted`` hears the hands counted so far,
    ``ready`` the statistics once the logs are read, then again with the ratings rated.
    Returns early once ``stop()`` says so."""
    asked = {"paths": list(paths), "threshold": threshold}
    hands = 0
    rows: list[dict[str, Any]] = []
    with closing(documents(__name__, asked, stop, "statistics")) as news:
        for document in news:
            if "hands" in document:
                hands += document["hands"]
                counted(hands)
            elif "rows" in document:
                rows = list(document["rows"])
                ready(rows, None)
            elif "hindsight" in document:
                ready(rows, Hindsight.of(document["hindsight"]))
                return


def points_by_game(entries: Iterable[GameEntry], players: Sequence[str]) -> dict[str, list[int]]:
    """Each player's running total of the points their side ended games with, game after
    game in log order (copies of a game count once)."""
    totals = {p: [0] for p in players}
    for entry in entries:
        if entry.duplicate_of is not None:
            continue
        for player, points in _sides_points(entry):
            if player in totals:
                totals[player].append(totals[player][-1] + points)
    return totals


def _sides_points(entry: GameEntry) -> Iterable[tuple[str, int]]:
    for seat, player in enumerate(entry.players):
        side = team_of(seat)
        if side < len(entry.score):
            yield player, entry.score[side]


def _percent(value: float | None) -> str:
    return "—" if value is None else f"{100 * value:.0f}%"


def interval_bar(rate: float | None, low: float | None, high: float | None, width: int) -> Text:
    """A rate on a 0–100 % track: ``─`` spans the interval, ``●`` marks the rate.

    >>> interval_bar(0.5, 0.25, 0.75, 8).plain
    '··──●──··'
    >>> interval_bar(None, None, None, 4).plain
    '·····'
    """
    track = ["·"] * (width + 1)
    if rate is None or low is None or high is None:
        return Text("".join(track), style="dim")
    for i in range(round(low * width), round(high * width) + 1):
        track[i] = "─"
    track[round(rate * width)] = "●"
    text = Text("".join(track), style="cyan")
    text.stylize("bold yellow", round(rate * width), round(rate * width) + 1)
    return text


def rate_chart(
    rows: Sequence[Mapping[str, Any]], rate: str, count: str, out_of: str, width: int = 24
) -> Table:
    """Per player: the count out of its opportunities, the rate and its 95 % interval."""
    title = rate.replace("_", " ")
    table = Table(title=f"{title} (95% interval)", box=None, padding=(0, 1), title_style="bold")
    table.add_column("player", no_wrap=True)
    table.add_column("n", justify="right")
    table.add_column("rate", justify="right")
    table.add_column(f"0{' ' * (width - 5)}100%", no_wrap=True)
    for row in rows:
        table.add_row(
            str(row["player"]),
            f"{row[count]}/{row[out_of]}",
            _percent(row[rate]),
            interval_bar(row[rate], row[f"{rate}_low"], row[f"{rate}_high"], width),
        )
    return table


def rate_cell(row: Mapping[str, Any], rate: str) -> str:
    """``60% [23–88]``: a rate and its interval, for the statistics table."""
    if row.get(rate) is None:
        return "—"
    low, high = row[f"{rate}_low"], row[f"{rate}_high"]
    return f"{_percent(row[rate])} [{100 * low:.0f}–{100 * high:.0f}]"


if __name__ == "__main__":
    serve(_count)
