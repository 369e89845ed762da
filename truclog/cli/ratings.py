"""``truclog ratings``: the players' OpenSkill ratings from the games they finished."""

from __future__ import annotations

import csv
import io
import sys
from datetime import date

import click
import orjson
from rich.console import Console
from rich.table import Table
from rich.text import Text

from truclog.cli.options import format_option, game_filter, game_filters, log_paths
from truclog.errors import TruclogError
from truclog.stats.kept import Tally
from truclog.stats.ratings import Leaderboard, rate, read_matches
from truclog.terminal import printable

FORMATS = ("table", "json", "csv")
COLUMNS = ("player", "mu", "sigma", "ordinal", "games", "wins")
HISTORY_COLUMNS = ("player", "game", "date", "ordinal")


@click.command("ratings")
@log_paths
@format_option(FORMATS, "A table to read, or JSON or CSV to process.")
@click.option("--history", is_flag=True, help="Also each player's ordinal after each game.")
@game_filters(sources=False)
def ratings_command(
    paths: tuple[str, ...],
    fmt: str,
    history: bool,
    rules: tuple[str, ...],
    since: date | None,
    until: date | None,
) -> None:
    """Rate the players of the games in PATHS with OpenSkill (Plackett-Luce).

    Each finished game is a match, the winner ranked first (four-player games:
    team against team), rated in order of date, then file and line; abandoned
    and unfinished games are not rated, a game found twice counts once. Players
    are listed best first by ordinal = mu - 3 sigma. See docs/stats.md.
    """
    keep = game_filter(rules, since, until)
    tally = Tally()
    try:
        board = rate(read_matches(paths, keep, tally), history)
    except TruclogError as exc:
        raise click.ClickException(exc.message) from None
    if tally.not_logs:
        note = f"{tally.not_logs} file(s) of binary data, not logs, read no further (E009)"
        click.echo(f"truclog: {note}", err=True)
    text = {"json": _json, "csv": _csv, "table": _table}[fmt](board, history)
    sys.stdout.write(text)
    sys.stdout.flush()


def _json(board: Leaderboard, history: bool) -> str:
    players = [rated.as_dict(history) for rated in board.players()]
    return orjson.dumps({"players": players}, option=orjson.OPT_INDENT_2).decode() + "\n"


def _csv(board: Leaderboard, history: bool) -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    if not history:
        writer.writerow(COLUMNS)
        for rated in board.players():
            row = rated.as_dict()
            writer.writerow([row[c] for c in COLUMNS])
        return out.getvalue()
    writer.writerow(HISTORY_COLUMNS)
    for rated in board.players():
        for game, day, ordinal in rated.history:
            writer.writerow([rated.player, game, day or "", ordinal])
    return out.getvalue()


def _table(board: Leaderboard, history: bool) -> str:
    out = io.StringIO()
    console = Console(file=out, width=100)
    players = board.players()
    if not players:
        console.print("no finished games to rate")
        return out.getvalue()
    table = Table(title="ratings · ordinal = mu - 3 sigma, best first")
    for column in ("#", *COLUMNS):
        table.add_column(column, justify="left" if column == "player" else "right")
    for rank, rated in enumerate(players, 1):
        table.add_row(
            str(rank),
            Text(printable(rated.player)),
            f"{rated.mu:.2f}",
            f"{rated.sigma:.2f}",
            f"{rated.ordinal:.2f}",
            str(rated.games),
            str(rated.wins),
        )
    console.print(table)
    if history:
        for rated in players:
            steps = Table(title=Text(f"{printable(rated.player)} · ordinal after each game"))
            for column in ("game", "date", "ordinal"):
                steps.add_column(column, justify="right" if column == "ordinal" else "left")
            for game, day, ordinal in rated.history:
                steps.add_row(Text(printable(game)), day or "–", f"{ordinal:.2f}")
            console.print(steps)
    return out.getvalue()
