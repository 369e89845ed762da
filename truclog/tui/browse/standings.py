"""Player statistics for the browser: counted in a child process, and drawn as charts.

The numbers come from :mod:`truclog.stats` (only hands the validator passed,
each game once), counted by :func:`count_players` in a process of its own, so
the browser stays quick and quitting never waits for it; this module also
draws what the players screen shows: rates with their Wilson intervals as
bars, and each player's points game after game.
"""

from __future__ import annotations

import multiprocessing
import queue
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from rich.table import Table
from rich.text import Text

from truclog.stats.players import Grouping, finish
from truclog.stats.run import collect
from truclog.tui.browse.catalog import GameEntry

POLL_SECONDS = 0.1


class _Stopped(Exception):
    """The counting was asked to stop."""


def _count(paths: list[str], threshold: float, out: Any) -> None:
    """In the child process: count, telling ``out`` the hands counted as it goes."""
    try:
        counts, _ = collect(
            paths,
            Grouping(threshold=threshold),
            progress=lambda _, hands: out.put(("hands", hands)),
        )
        out.put(("rows", finish(counts)))
    except Exception as exc:  # the parent shows it; a child's traceback helps no one
        out.put(("error", str(exc)))


def count_players(
    paths: Sequence[str],
    threshold: float,
    counted: Callable[[int], None],
    stop: Callable[[], bool],
) -> list[dict[str, Any]] | None:
    """Every player's statistics over the logs at ``paths``, counted in a child process;
    ``counted`` hears the hands counted so far; ``None`` once ``stop()`` says so."""
    context = multiprocessing.get_context("spawn")
    out = context.Queue()
    child = context.Process(target=_count, args=(list(paths), threshold, out), daemon=True)
    child.start()
    hands = 0
    try:
        while True:
            if stop():
                return None
            try:
                kind, payload = out.get(timeout=POLL_SECONDS)
            except queue.Empty:
                if not child.is_alive():
                    raise RuntimeError("the statistics process stopped") from None
                continue
            if kind == "hands":
                hands += payload
                counted(hands)
            elif kind == "rows":
                return list(payload)
            else:
                raise RuntimeError(payload)
    finally:
        if child.is_alive():
            child.kill()
        child.join(timeout=1)


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
        side = seat % 2
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
