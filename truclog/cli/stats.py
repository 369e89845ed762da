"""``truclog stats`` and ``truclog export``: player statistics and Parquet tables from logs."""

from __future__ import annotations

import csv
import io
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager, nullcontext
from datetime import date
from pathlib import Path
from typing import Any

import click
import orjson
import polars as pl
from rich.console import Console
from rich.progress import BarColumn, DownloadColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table

from truclog.cli.options import cluster, jobs_option, log_paths, scheduler_option, shows_progress
from truclog.errors import TruclogError
from truclog.rules import PRESETS
from truclog.stats.players import RATES, Grouping, finish, flat
from truclog.stats.run import auto_jobs, collect, export, total_size
from truclog.stats.tables import GameFilter, Tally

FORMATS = ("table", "json", "csv", "parquet")


def _day(ctx: click.Context, param: click.Parameter, value: str | None) -> date | None:
    if value is None:
        return None
    try:
        return date.fromisoformat(value[:10])
    except ValueError:
        raise click.BadParameter(f"'{value}' is not a date like 2026-11-29") from None


def _filters(function: Callable[..., Any]) -> Callable[..., Any]:
    """The game filters both commands share."""
    options = [
        click.option(
            "--rules",
            "rules",
            multiple=True,
            type=click.Choice(list(PRESETS)),
            help="Only games under this rules preset (overrides included); repeatable.",
        ),
        click.option(
            "--since", callback=_day, help="Only games on or after this date (YYYY-MM-DD)."
        ),
        click.option("--until", callback=_day, help="Only games on or before this date."),
        click.option(
            "--source", "sources", multiple=True, help="Only games from this source; repeatable."
        ),
    ]
    for option in reversed(options):
        function = option(function)
    return function


def _game_filter(
    rules: tuple[str, ...], since: date | None, until: date | None, sources: tuple[str, ...]
) -> GameFilter:
    if since is not None and until is not None and since > until:
        raise click.BadParameter(f"--since {since} is after --until {until}")
    return GameFilter(rules, since, until, sources)


@click.command("stats")
@log_paths
@click.option(
    "--format",
    "fmt",
    type=click.Choice(FORMATS),
    default="table",
    show_default=True,
    help="A table to read, or JSON, CSV or Parquet to process.",
)
@click.option(
    "-o", "--output", type=click.Path(dir_okay=False), help="Write to this file, not stdout."
)
@click.option(
    "--bluff-threshold",
    type=click.FloatRange(0.0, 1.0),
    default=0.5,
    show_default=True,
    help="A raise with a known hand weaker than this is a bluff.",
)
@click.option("--player", "players", multiple=True, help="Only this player; repeatable.")
@click.option(
    "--opponent", "opponents", multiple=True, help="Only play against this opponent; repeatable."
)
@_filters
@click.option(
    "--by", type=click.Choice(["opponent"]), help="One row per player and opponent (head to head)."
)
@jobs_option(
    "Read files in N processes (default: one per core for several files over 64 MiB, else one).",
    default=None,
)
@scheduler_option
def stats_command(
    paths: tuple[str, ...],
    fmt: str,
    output: str | None,
    bluff_threshold: float,
    players: tuple[str, ...],
    opponents: tuple[str, ...],
    rules: tuple[str, ...],
    since: date | None,
    until: date | None,
    sources: tuple[str, ...],
    by: str | None,
    jobs: int | None,
    scheduler: str | None,
) -> None:
    """Per-player statistics over the games in PATHS: bluff and fold rates and more.

    PATHS are files, .gz files, directories (searched for *.jsonl and *.jsonl.gz)
    or - for standard input. Only hands that validate are counted; a game found
    twice counts once. Every rate comes with its sample size and a Wilson 95%
    interval. See docs/stats.md for the definitions.
    """
    if fmt == "parquet" and output is None:
        raise click.UsageError("--format parquet needs -o FILE")
    keep = _game_filter(rules, since, until, sources)
    grouping = Grouping(by == "opponent", bluff_threshold, opponents)
    try:
        jobs = jobs or auto_jobs(paths)
        with _progress(paths) as tick, cluster(scheduler) if scheduler else nullcontext() as client:
            each_file = None
            if client is not None:
                from truclog.distributed import counter

                each_file = counter(client, _failed)
            counts, tally = collect(paths, grouping, keep, jobs, tick, each_file)
    except TruclogError as exc:
        raise click.ClickException(exc.message) from None
    report = {
        "players": finish(counts, "player", players),
        "teams": finish(counts, "team"),
        "summary": {**tally.as_dict(), "bluff_threshold": bluff_threshold},
    }
    _note(tally)
    _write(report, fmt, output)


@click.command("export")
@log_paths
@click.option(
    "--to",
    "to",
    required=True,
    type=click.Path(file_okay=False),
    help="Folder to write games/, hands/ and actions/ into.",
)
@click.option(
    "--partition-by",
    type=click.Choice(["date"]),
    help="Split each table into date=YYYY-MM-DD folders (Hive style).",
)
@_filters
@scheduler_option
def export_command(
    paths: tuple[str, ...],
    to: str,
    partition_by: str | None,
    rules: tuple[str, ...],
    since: date | None,
    until: date | None,
    sources: tuple[str, ...],
    scheduler: str | None,
) -> None:
    """Write the games, hands and actions tables of PATHS as Parquet, for DuckDB, Spark...

    Only hands that validate go in; a game found twice goes in once.
    docs/stats.md describes every column. With --scheduler, the tables are always
    split by date.
    """
    keep = _game_filter(rules, since, until, sources)
    try:
        with _progress(paths) as tick:
            if scheduler:
                tally = _export_on_cluster(scheduler, paths, to, keep, tick)
            else:
                tally = export(paths, to, partition_by == "date", keep, tick)
    except TruclogError as exc:
        raise click.ClickException(exc.message) from None
    except OSError as exc:
        raise click.ClickException(f"cannot write to {to}: {exc.strerror or exc}") from None
    _note(tally)
    click.echo(
        f"wrote {tally.games} games, {tally.hands} hands to {to}/(games|hands|actions)", err=True
    )


def _export_on_cluster(
    scheduler: str,
    paths: tuple[str, ...],
    to: str,
    keep: GameFilter,
    tick: Callable[[int, int], None] | None,
) -> Tally:
    from truclog import distributed

    with cluster(scheduler) as client:
        return distributed.export(client, paths, to, keep, tick, _failed)


def _failed(message: str) -> None:
    click.echo(f"truclog: {message} (left out)", err=True)


@contextmanager
def _progress(paths: tuple[str, ...]) -> Iterator[Callable[[int, int], None] | None]:
    """A progress bar on stderr when it is a terminal: bytes file by file, hands as counted."""
    if not shows_progress(paths):
        yield None
        return
    try:
        total = total_size(paths)
    except TruclogError:
        yield None
        return
    columns = (
        TextColumn("[bold]reading logs"),
        BarColumn(),
        DownloadColumn(),
        TextColumn("{task.fields[hands]:,} hands"),
        TimeRemainingColumn(),
    )
    with Progress(*columns, console=Console(stderr=True), transient=True) as bar:
        task = bar.add_task("read", total=total, hands=0)
        counted = 0

        def tick(size: int, hands: int) -> None:
            nonlocal counted
            counted += hands
            bar.update(task, advance=size, hands=counted)

        yield tick


def _note(tally: Tally) -> None:
    """Say on stderr what was left out."""
    said = []
    if tally.duplicates:
        said.append(f"{tally.duplicates} duplicate game(s) counted once")
    if tally.hands_left_out:
        said.append(f"{tally.hands_left_out} hand(s) with errors left out (see truclog validate)")
    if tally.problems:
        said.append(f"{tally.problems} problem(s) outside any game")
    if tally.filtered_out:
        said.append(f"{tally.filtered_out} game(s) filtered out")
    if said:
        click.echo("truclog: " + "; ".join(said), err=True)


def _write(report: dict[str, Any], fmt: str, output: str | None) -> None:
    if fmt == "table":
        _print_table(report, output)
        return
    if fmt == "json":
        data = orjson.dumps(report, option=orjson.OPT_INDENT_2)
        _emit(data + b"\n", output)
        return
    rows = [flat(r) for r in report["players"]] + [flat(r) for r in report["teams"]]
    if fmt == "parquet":
        assert output is not None
        pl.DataFrame(rows, infer_schema_length=None).write_parquet(output)
        return
    _emit(_csv(rows).encode(), output)


def _csv(rows: list[dict[str, Any]]) -> str:
    names: dict[str, None] = {}
    for row in rows:
        names.update(dict.fromkeys(row))
    text = io.StringIO()
    writer = csv.DictWriter(text, fieldnames=list(names), lineterminator="\n")
    writer.writeheader()
    writer.writerows(rows)
    return text.getvalue()


def _emit(data: bytes, output: str | None) -> None:
    if output is None:
        sys.stdout.buffer.write(data)
        sys.stdout.buffer.flush()
        return
    try:
        Path(output).write_bytes(data)
    except OSError as exc:
        raise click.ClickException(f"cannot write {output}: {exc.strerror or exc}") from None


_LINES = (
    ("games", "games", None),
    ("hands played", "hands_played", None),
    ("won / drawn / lost", None, None),
    ("win rate", "win_rate", "win_rate"),
    ("points won / lost", None, None),
    ("raises", "raises", None),
    ("raises per hand", "raises_per_hand", None),
    ("raises faced", "raises_faced", None),
    ("folds to a raise", "folds_to_raise", None),
    ("fold rate", "fold_rate", "fold_rate"),
    ("raises with a known hand", "raises_known", None),
    ("bluffs", "bluffs", None),
    ("bluff rate", "bluff_rate", "bluff_rate"),
    ("bluffs that made them fold", "bluff_success", "bluff_success"),
    ("value raises", "value_raises", None),
    ("reste won / made", None, None),
    ("redeals granted / asked", None, None),
    ("first tricks won", "first_trick_rate", "first_trick_rate"),
)
_PAIRS = {
    "won / drawn / lost": ("hands_won", "hands_drawn", "hands_lost"),
    "points won / lost": ("points_won", "points_lost"),
    "reste won / made": ("reste_won", "reste_made"),
    "redeals granted / asked": ("redeals_granted", "redeals_asked"),
}
_PER_TABLE = 5
_RATE_PARTS = {name: (num, den) for name, num, den in RATES}


def _cell(row: dict[str, Any], title: str, key: str | None, ci: str | None) -> str:
    if key is None:
        return " / ".join(str(row[k]) for k in _PAIRS[title])
    value = row[key]
    if value is None:
        return "–"
    if ci is None:
        return f"{value:.2f}" if isinstance(value, float) else str(value)
    num, den = _RATE_PARTS[ci]
    low, high = row[f"{ci}_low"], row[f"{ci}_high"]
    return f"{value:.0%} ({row[num]}/{row[den]}) [{low:.0%}–{high:.0%}]"


def _band_cell(band: dict[str, Any]) -> str:
    if band["rate"] is None:
        return "–"
    return (
        f"{band['rate']:.0%} ({band['won']}/{band['hands']}) "
        f"[{band['rate_low']:.0%}–{band['rate_high']:.0%}]"
    )


def _print_table(report: dict[str, Any], output: str | None) -> None:
    sink = open(output, "w", encoding="utf-8") if output else None  # noqa: SIM115
    try:
        console = Console(file=sink) if sink else Console()
        threshold = report["summary"]["bluff_threshold"]
        for kind, head in (("players", "player"), ("teams", "team")):
            rows = report[kind]
            if not rows and kind == "teams":
                continue
            if not rows:
                console.print("no games to count")
            for start in range(0, len(rows), _PER_TABLE):
                group = rows[start : start + _PER_TABLE]
                table = Table(title=f"{kind} · a bluff is a known-hand raise below {threshold}")
                table.add_column("statistic")
                for row in group:
                    name = row[head] + (f" vs {row['opponent']}" if "opponent" in row else "")
                    table.add_column(name, justify="right")
                for line in _LINES:
                    table.add_row(line[0], *(_cell(row, *line) for row in group))
                if kind == "players":
                    for i, band in enumerate(group[0]["win_rate_by_strength"]):
                        cells = (_band_cell(row["win_rate_by_strength"][i]) for row in group)
                        table.add_row(f"won with a hand of {band['band']}", *cells)
                console.print(table)
        summary = report["summary"]
        console.print(
            f"{summary['games']} games, {summary['hands']} hands from {summary['files']} file(s); "
            "rates: count/opportunities [Wilson 95% interval]"
        )
    finally:
        if sink is not None:
            sink.close()
