"""``truclog leaks``: where a player's decisions differ most from the winning players'."""

from __future__ import annotations

import sys
from typing import Any

import click
import orjson
from rich import box
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from truclog.cli.options import format_option, log_paths
from truclog.errors import TruclogError
from truclog.stats.leaks import MIN_HANDS, leaks, read_leaks
from truclog.terminal import printable

FORMATS = ("table", "json")
PIPED_WIDTH = 120


@click.command("leaks")
@log_paths
@click.option("--player", required=True, metavar="NAME", help="The player whose leaks to list.")
@format_option(FORMATS, "A table to read, or JSON to process.")
@click.option(
    "--min-hands",
    type=click.IntRange(1),
    default=MIN_HANDS,
    show_default=True,
    metavar="N",
    help="Hands a player must have played to count among the winning players.",
)
def leaks_command(paths: tuple[str, ...], player: str, fmt: str, min_hands: int) -> None:
    """Rank the situations where PLAYER decides by the points their play puts at stake.

    For each situation (answering a raise, by its size and the score; raising first
    or again, as leader or follower; asking for a redeal): the player's rate with its
    Wilson 95% interval, the rate of the winning players (above the median points
    won per hand, among players with at least --min-hands hands), the opportunities,
    and the points at stake: opportunities x |difference| x average stake. Only
    hands that validate are counted; a game found twice counts once. See
    docs/stats.md.
    """
    try:
        counts = read_leaks(paths)
    except TruclogError as exc:
        raise click.ClickException(exc.message) from None
    known = set(counts.hands["player"].to_list()) | set(counts.situations["player"].to_list())
    if player not in known:
        from difflib import get_close_matches

        close = get_close_matches(player, sorted(known), n=3)
        hint = f" (did you mean {' or '.join(close)}?)" if close else ""
        raise click.BadParameter(
            f"no player named '{player}' in these games{hint}", param_hint="--player"
        )
    rows, winners = leaks(counts, player, min_hands)
    if fmt == "json":
        report = {"player": player, "winners": winners, "min_hands": min_hands, "leaks": rows}
        sys.stdout.write(orjson.dumps(report, option=orjson.OPT_INDENT_2).decode() + "\n")
        return
    console = Console()
    if not console.is_terminal:  # a file or a pipe: every column whole
        console = Console(width=PIPED_WIDTH)
    console.print(leaks_table(player, rows, winners, min_hands))


def _percent(value: float | None) -> str:
    return "—" if value is None else f"{100 * value:.0f}%"


def _rate(row: dict[str, Any], prefix: str = "") -> tuple[str, str]:
    """``40% (2/5)`` and ``12–77``: a rate with its counts, and its 95% interval."""
    value = row[f"{prefix}rate"]
    if value is None:
        return "—", ""
    count, n = row[f"{prefix}count"], row[f"{prefix}opportunities"]
    low, high = row[f"{prefix}low"], row[f"{prefix}high"]
    return f"{_percent(value)} ({count}/{n})", f"{100 * low:.0f}–{100 * high:.0f}"


def leaks_table(
    player: str, rows: list[dict[str, Any]], winners: list[str], min_hands: int
) -> Table:
    """The leaks as a table to read."""
    title = f"leaks of {escape(printable(player))}: {len(winners)} winning players to compare with"
    caption = f"winning players: above the median points won per hand, {min_hands}+ hands"
    table = Table(title=title, caption=caption, box=box.SIMPLE_HEAD, padding=(0, 1))
    for name in ("situation", "player", "95%", "winners", "95% ", "stake", "points"):
        table.add_column(name, justify="left" if name == "situation" else "right", no_wrap=True)
    for row in rows:
        stake = "—" if row["stake"] is None else f"{row['stake']:.2f}"
        points = "—" if row["points"] is None else f"{row['points']:.1f}"
        table.add_row(row["situation"], *_rate(row), *_rate(row, "winners_"), stake, points)
    return table
