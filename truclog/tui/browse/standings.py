"""Player statistics for the browser: the stats tables over the games loaded, and charts.

The numbers come from :mod:`truclog.stats` (only hands the validator passed,
each game once); this module adds what the players screen draws: rates with
their Wilson intervals as bars, and each player's points through the log.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from rich.table import Table
from rich.text import Text

from truclog.stats.players import Grouping, combine, count, finish
from truclog.stats.tables import TableBuilder
from truclog.tui.browse.index import hand_outcome
from truclog.validate import CheckedGame

BATCH = 200


def player_statistics(
    games: Iterable[CheckedGame], tick: Callable[[int], None] | None = None
) -> list[dict[str, Any]]:
    """One dict per player, in name order, as ``truclog stats`` reports them.

    ``tick`` is called with the number of games counted after every batch.
    """
    builder = TableBuilder(narrow=True)  # only what statistics count
    parts = []
    added = 0
    for game in games:
        if game.duplicate_of is not None:
            continue
        builder.add(game)
        added += 1
        if added % BATCH == 0:
            parts.append(count(builder.flush(), Grouping()))
            if tick is not None:
                tick(added)
    parts.append(count(builder.flush(), Grouping()))
    return finish(combine(parts))


def points_over_time(games: Iterable[CheckedGame], players: Sequence[str]) -> dict[str, list[int]]:
    """Each player's running total of points their side won, hand after hand, in log order."""
    totals = {p: [0] for p in players}
    for game in games:
        if game.duplicate_of is not None:
            continue
        sides = {p: team for p, team in game.final.team_names.items() if p in totals}
        for hand in game.hands:
            outcome = hand_outcome(hand)
            for player, team in sides.items():
                won = outcome.points if outcome and outcome.winner == team else 0
                totals[player].append(totals[player][-1] + won)
    return totals


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
