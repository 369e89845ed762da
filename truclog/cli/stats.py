"""``truclog stats`` and ``truclog export``: player statistics and Parquet tables from logs."""

from __future__ import annotations

import io
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager, nullcontext
from datetime import date
from typing import TYPE_CHECKING, Any

import click
import orjson

from truclog.cli.options import (
    Suggesting,
    bluff_threshold_option,
    cluster,
    format_option,
    game_filter,
    game_filters,
    jobs_option,
    log_paths,
    scheduler_option,
    shows_progress,
)
from truclog.errors import TruclogError, reason
from truclog.names import name_key
from truclog.stats.counts import (
    COUNTS,
    RATES,
    SPLIT_COLUMNS,
    SPLITS,
    CountRows,
    Grouping,
    counted,
    finish,
    flat,
    statistics,
    unknown_names,
)
from truclog.stats.kept import GameFilter, Tally
from truclog.stats.run import auto_jobs, collect, total_size
from truclog.terminal import printable

if TYPE_CHECKING:
    from rich.table import Table

    from truclog.stats.export import Export, Mode

FORMATS = ("table", "json", "csv", "parquet")
_NAMES = ("player",)
SORTABLE = (
    *_NAMES,
    *(
        key
        for key in statistics({"name": "", **dict.fromkeys(COUNTS, 0)})
        if key not in ("player", "win_rate_by_strength")
    ),
)
"""The columns ``--sort`` orders rows by."""


@click.command("stats")
@log_paths
@format_option(FORMATS, "A table to read, or JSON, CSV or Parquet to process.")
@click.option(
    "-o", "--output", type=click.Path(dir_okay=False), help="Write to this file, not stdout."
)
@bluff_threshold_option
@click.option(
    "--player",
    "players",
    multiple=True,
    help="Only this player (and their teams), or this team; repeatable.",
)
@click.option("--ignore-case", is_flag=True, help="Match --player names whatever their case.")
@click.option(
    "--opponent", "opponents", multiple=True, help="Only play against this opponent; repeatable."
)
@game_filters()
@click.option(
    "--mark",
    "marks",
    multiple=True,
    metavar="MARK",
    help="Only hands with this mark (on a line of the log or in its notes file); "
    "repeatable: hands with any of them.",
)
@click.option(
    "--by",
    "splits",
    multiple=True,
    type=click.Choice(SPLITS),
    help="Split each player's row: by opponent, position, raise-size, month or session; "
    "repeatable (splits combine).",
)
@click.option(
    "--sort",
    "sort",
    type=Suggesting(SORTABLE, "a column to sort by"),
    metavar="COLUMN",
    help="Order rows by this statistic (numbers high to low), e.g. hands_played, "
    "fold_rate; default: by player.",
)
@click.option(
    "--min-hands",
    type=click.IntRange(0),
    metavar="N",
    default=0,
    help="Only players (teams) with at least N hands played in all.",
)
@jobs_option(
    "Read files in N processes (default: one per core for several files over 64 MiB, else one).",
    default=None,
)
@click.option(
    "--plot",
    type=click.Path(dir_okay=False),
    metavar="FILE",
    help="Save a plot as FILE (.png or .svg) instead: one --player's fold and bluff rates "
    "by month, or with --game the score of that game hand by hand (needs truclog[plot]).",
)
@click.option("--game", "game_id", metavar="ID", help="With --plot: the game to plot.")
@scheduler_option
def stats_command(
    paths: tuple[str, ...],
    fmt: str,
    output: str | None,
    bluff_threshold: float,
    players: tuple[str, ...],
    ignore_case: bool,
    opponents: tuple[str, ...],
    rules: tuple[str, ...],
    since: date | None,
    until: date | None,
    sources: tuple[str, ...],
    marks: tuple[str, ...],
    splits: tuple[str, ...],
    sort: str | None,
    min_hands: int,
    jobs: int | None,
    plot: str | None,
    game_id: str | None,
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
    keep = game_filter(rules, since, until, sources, marks)
    if plot is not None or game_id is not None:
        _plot(paths, plot, game_id, players, ignore_case, bluff_threshold, opponents, keep, jobs)
        return
    grouping = Grouping(
        splits, bluff_threshold, opponents, players=players, ignore_case=ignore_case
    )
    try:
        jobs = jobs or auto_jobs(paths)
        with (
            progress_bar(paths) as tick,
            cluster(scheduler, paths) if scheduler else nullcontext() as client,
        ):
            each_file = None
            if client is not None:
                from truclog.stats.distributed import counter, workers_of

                each_file, jobs = counter(client, failed_on_cluster), workers_of(client)
            counts, tally = collect(paths, grouping, keep, jobs, tick, each_file)
    except TruclogError as exc:
        raise click.ClickException(exc.message) from None
    note_left_out(tally)
    _check_names(counts, players, ignore_case)
    _check_names(counts, opponents, False, "--opponent")

    def rows(kind: str, names: tuple[str, ...] = ()) -> list[dict[str, Any]]:
        chosen = finish(
            counts, kind, names, split=bool(splits), ignore_case=ignore_case, min_hands=min_hands
        )
        return _sorted(chosen, sort)

    summary = {**tally.as_dict(), "bluff_threshold": bluff_threshold}
    against = counted(counts)
    if against is not None:  # the games and hands some play of which was kept
        summary["games"], summary["hands"] = against
    report = {"players": rows("player", players), "teams": rows("team"), "summary": summary}
    try:
        _write(report, fmt, output)
    except TruclogError as exc:
        raise click.ClickException(exc.message) from None


def _plot(
    paths: tuple[str, ...],
    plot: str | None,
    game_id: str | None,
    players: tuple[str, ...],
    ignore_case: bool,
    threshold: float,
    opponents: tuple[str, ...],
    keep: GameFilter,
    jobs: int | None,
) -> None:
    from truclog.cli.plot import game_plot, rates_plot

    if plot is None:
        raise click.UsageError("--game needs --plot FILE")
    try:
        if game_id is not None:
            game_plot(paths, game_id, plot)
        else:
            args = (ignore_case, threshold, opponents, keep, jobs or auto_jobs(paths))
            rates_plot(paths, plot, players, *args, _check_names)
    except TruclogError as exc:
        raise click.ClickException(exc.message) from None


def _check_names(
    counts: CountRows, players: tuple[str, ...], ignore_case: bool, option: str = "--player"
) -> None:
    """An unknown --player (--opponent) name is a usage error (exit 2) that suggests the
    closest."""
    unknown = unknown_names(counts, players, ignore_case)
    if not unknown:
        return
    said = []
    for name, close in unknown.items():
        hint = f" (did you mean {' or '.join(close)}?)" if close else ""
        said.append(f"'{name}'{hint}")
    raise click.BadParameter(
        f"no player or team named {', '.join(said)} in these games", param_hint=option
    )


def _sorted(rows: list[dict[str, Any]], column: str | None) -> list[dict[str, Any]]:
    """Rows by ``column``: numbers high to low, names A to Z, nothing last."""
    if column is None:
        return rows
    if column in _NAMES:
        return sorted(rows, key=lambda row: name_key(str(row.get(column) or row.get("team") or "")))
    known = [row for row in rows if row.get(column) is not None]
    known.sort(key=lambda row: row[column], reverse=True)
    return known + [row for row in rows if row.get(column) is None]


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
    "--overwrite", is_flag=True, help="Replace the tables already in the folder, as a whole."
)
@click.option("--append", is_flag=True, help="Add the games not yet in the folder's tables.")
@click.option(
    "--partition-by",
    type=click.Choice(["date"]),
    help="Split each table into date=YYYY-MM-DD folders (Hive style).",
)
@game_filters()
@jobs_option("Write in N processes: several files, and the parts of a large file, at once.")
@scheduler_option
def export_command(
    paths: tuple[str, ...],
    to: str,
    overwrite: bool,
    append: bool,
    partition_by: str | None,
    rules: tuple[str, ...],
    since: date | None,
    until: date | None,
    sources: tuple[str, ...],
    jobs: int,
    scheduler: str | None,
) -> None:
    """Write the games, hands and actions tables of PATHS as Parquet, for DuckDB, Spark...

    Only hands that validate go in; a game found twice goes in once. A folder
    that already holds tables is left alone unless --overwrite or --append says
    what to do with them. docs/stats.md describes every column. With --scheduler,
    the tables are always split by date, into a new folder.
    """
    if not to.strip():
        raise click.BadParameter("is empty: name the folder to write into", param_hint="--to")
    if overwrite and append:
        raise click.UsageError("--overwrite and --append do not go together")
    from truclog.stats.export import export  # its tables' models: for an export alone

    mode: Mode = "overwrite" if overwrite else ("append" if append else "new")
    if scheduler and mode != "new":
        raise click.UsageError("--scheduler exports into a new folder: no --overwrite or --append")
    keep = game_filter(rules, since, until, sources)
    by_date = True if partition_by == "date" else (None if append else False)
    try:
        with progress_bar(paths) as tick:
            if scheduler:
                done = _export_on_cluster(scheduler, paths, to, keep, tick)
            else:
                done = export(paths, to, mode, by_date, keep, tick, jobs)
    except TruclogError as exc:
        raise click.ClickException(exc.message) from None
    except OSError as exc:
        raise click.ClickException(f"cannot write to {to}: {reason(exc)}") from None
    note_left_out(done.tally)
    click.echo(_written(done), err=True)


def _written(done: Export) -> str:
    """What an export wrote where, in a line or two."""
    tally = done.tally
    there = f"; {done.already_there:,} game(s) already in {done.root} left out" * bool(
        done.already_there
    )
    if not done.files:
        return f"no games to write: {done.root} left as it was{there}"
    verb = "added" if done.mode == "append" else "wrote"
    folders = ", ".join(f"{path}/" for path in done.paths)
    return f"{verb} {tally.games:,} games, {tally.hands:,} hands{there}: {folders}"


def _export_on_cluster(
    scheduler: str,
    paths: tuple[str, ...],
    to: str,
    keep: GameFilter,
    tick: Callable[[int, int], None] | None,
) -> Export:
    from pathlib import Path

    from truclog.stats import distributed
    from truclog.stats.export import TABLES, Export

    with cluster(scheduler, paths) as client:
        tally = distributed.export(client, paths, to, keep, tick, failed_on_cluster)
    root = Path(to)
    files = {name: sum(1 for _ in (root / name).rglob("*.parquet")) for name in TABLES}
    return Export(root, "new", tally, files={k: n for k, n in files.items() if n})


def failed_on_cluster(message: str) -> None:
    """Tells on stderr that a file failed on the Dask cluster and is left out of the counts."""
    click.echo(f"truclog: {message} (left out)", err=True)


@contextmanager
def progress_bar(paths: tuple[str, ...]) -> Iterator[Callable[[int, int], None] | None]:
    """A progress bar on stderr when it is a terminal: bytes file by file, hands as counted."""
    if not shows_progress(paths):
        yield None
        return
    try:
        total = total_size(paths)
    except TruclogError:
        yield None
        return
    from rich.console import Console
    from rich.progress import BarColumn, DownloadColumn, Progress, TextColumn, TimeRemainingColumn

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


def note_left_out(tally: Tally) -> None:
    """Say on stderr what was left out."""
    said = []
    if tally.duplicates:
        said.append(f"{tally.duplicates} duplicate game(s) counted once")
    if tally.hands_left_out:
        said.append(f"{tally.hands_left_out} hand(s) with errors left out (see truclog validate)")
    if tally.not_logs:
        said.append(f"{tally.not_logs} file(s) of binary data, not logs, read no further (E009)")
    if tally.problems > tally.not_logs:
        said.append(f"{tally.problems - tally.not_logs} problem(s) outside any game")
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
        import polars as pl

        from truclog.format.atomic import write_through

        assert output is not None
        write_through(output, pl.DataFrame(rows, infer_schema_length=None).write_parquet)
        return
    _emit(_csv(rows).encode(), output)


def _csv(rows: list[dict[str, Any]]) -> str:
    import csv

    names: dict[str, None] = {}
    for row in rows:
        names.update(dict.fromkeys(row))
    text = io.StringIO()
    writer = csv.DictWriter(text, fieldnames=list(names), lineterminator="\n")
    writer.writeheader()
    writer.writerows(
        {k: orjson.dumps(v).decode() if isinstance(v, list) else v for k, v in row.items()}
        for row in rows
    )  # a team's members as a JSON list: ["Ana", "Lu"]
    return text.getvalue()


def _emit(data: bytes, output: str | None) -> None:
    if output is None:
        sys.stdout.buffer.write(data)
        sys.stdout.buffer.flush()
        return
    from truclog.format.atomic import write_atomically  # a file written whole or not at all

    write_atomically(output, data)


_RATE_PARTS = {name: (num, den) for name, num, den in RATES}


def _count(key: str) -> Callable[[dict[str, Any]], str]:
    return lambda row: f"{row[key]:,}"


def _pair(*keys: str) -> Callable[[dict[str, Any]], str]:
    return lambda row: " / ".join(f"{row[k]:,}" for k in keys)


def _ratio(key: str) -> Callable[[dict[str, Any]], str]:
    return lambda row: "–" if row[key] is None else f"{row[key]:.2f}"


def _rate_cell(name: str) -> Callable[[dict[str, Any]], str]:
    num, den = _RATE_PARTS[name]

    def cell(row: dict[str, Any]) -> str:
        if row[name] is None:
            return "–"
        low, high = row[f"{name}_low"], row[f"{name}_high"]
        return f"{row[name]:.0%} ({row[num]:,}/{row[den]:,}) [{low:.0%}–{high:.0%}]"

    return cell


_COLUMNS: tuple[tuple[str, Callable[[dict[str, Any]], str]], ...] = (
    ("fold rate", _rate_cell("fold_rate")),
    ("bluff rate", _rate_cell("bluff_rate")),
    ("hands", _count("hands_played")),
    ("win rate", _rate_cell("win_rate")),
    ("accept rate", _rate_cell("accept_rate")),
    ("raises/hand", _ratio("raises_per_hand")),
    ("games", _count("games")),
    ("won/drawn/lost", _pair("hands_won", "hands_drawn", "hands_lost")),
    ("points won/lost", _pair("points_won", "points_lost")),
    ("raises", _count("raises")),
    ("bluffs that made them fold", _rate_cell("bluff_success")),
    ("reste won", _rate_cell("reste_win_rate")),
    ("first tricks won", _rate_cell("first_trick_rate")),
    ("redeals granted", _rate_cell("redeal_grant_rate")),
    ("answers right", _rate_cell("right_rate")),
    ("answers sound", _rate_cell("sound_rate")),
    ("folds right", _rate_cell("fold_right_rate")),
    ("accepts right", _rate_cell("accept_right_rate")),
    ("points given by answers", _count("points_given")),
)
"""The table's columns after the names, the most asked for first (the fold and bluff
rates, what truclog is for): as many as fit are shown, in this order."""


def _print_table(report: dict[str, Any], output: str | None) -> None:
    from rich.console import Console  # imported for a table alone (JSON and CSV start sooner)

    sink = io.StringIO() if output else None  # written whole at the end
    try:
        console = Console(file=sink) if sink else Console()
        threshold = report["summary"]["bluff_threshold"]
        if not report["players"]:
            console.print("no games to count")
        for kind, head in (("players", "player"), ("teams", "team")):
            if report[kind]:
                title = f"{kind} · a bluff is a known-hand raise below {threshold}"
                console.print(_rows_table(report[kind], head, title, console.width))
        summary = report["summary"]
        console.print(
            f"{summary['games']:,} games, {summary['hands']:,} hands from "
            f"{summary['files']:,} file(s); rates: count/opportunities [Wilson 95% interval]"
        )
        if sink is not None and output is not None:
            from truclog.format.atomic import write_atomically

            write_atomically(output, sink.getvalue().encode())
    finally:
        if sink is not None:
            sink.close()


def _rows_table(rows: list[dict[str, Any]], head: str, title: str, width: int) -> Table:
    """One row per player (or split row), with as many columns as fit in ``width``."""
    from rich import box
    from rich.markup import escape
    from rich.table import Table

    keys = [key for key in SPLIT_COLUMNS if any(key in row for row in rows)]
    columns: list[tuple[str, Callable[[dict[str, Any]], str]]] = [
        (head, lambda row: escape(printable(str(row[head])))),
        *((key.replace("_", " "), _key_cell(key)) for key in keys),
    ]
    cells = [[cell(row) for row in rows] for _, cell in columns]
    used = sum(_width(name, column) for (name, _), column in zip(columns, cells, strict=True))
    left_out: list[str] = []
    for name, cell in _COLUMNS:
        column = [] if left_out else [cell(row) for row in rows]
        if not left_out and used + _width(name, column) <= width + 1:
            used += _width(name, column)
            columns.append((name, cell))
            cells.append(column)
        else:  # the first that does not fit, and all after it: the order stays as documented
            left_out.append(name)
    caption = f"not shown: {', '.join(left_out)} (wider terminal or --format json)" * bool(left_out)
    table = Table(title=title, caption=caption or None, box=box.SIMPLE_HEAD, show_edge=False)
    for i, (name, _) in enumerate(columns):
        table.add_column(name, justify="left" if i <= len(keys) else "right", no_wrap=True)
    for values in zip(*cells, strict=True):
        table.add_row(*values)
    return table


def _key_cell(key: str) -> Callable[[dict[str, Any]], str]:
    from rich.markup import escape

    return lambda row: "–" if row.get(key) is None else escape(f"{row[key]}")


def _width(name: str, column: list[str]) -> int:
    """A column's width in a table: its widest cell or header, its padding and the rule
    between it and the next (the last column has none, hence ``width + 1`` above)."""
    return max(len(name), *(len(cell) for cell in column)) + 3
