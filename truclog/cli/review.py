"""``truclog review``: every card played and every answer to a raise, judged in points."""

from __future__ import annotations

import shutil
import sys
from collections.abc import Iterator
from contextlib import nullcontext
from typing import IO, Any

import click
import orjson
from rich import box
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from truclog.cli.options import cluster, format_option, jobs_option, log_paths, scheduler_option
from truclog.cli.stats import failed_on_cluster, note_left_out, progress_bar
from truclog.errors import TruclogError
from truclog.stats.kept import Tally
from truclog.stats.review import (
    Costly,
    DecisionFilter,
    FileReview,
    FileReviewer,
    Row,
    add_counts,
    decision_lines,
    player_summary,
    review_files,
)
from truclog.stats.run import auto_jobs
from truclog.terminal import printable

FORMATS = ("table", "json")


@click.command("review")
@log_paths
@format_option(FORMATS, "A report to read, or JSON: every decision and the players' counts.")
@click.option(
    "--player", "players", multiple=True, help="Only this player's decisions; repeatable."
)
@click.option("--game", "games", multiple=True, help="Only the game with this id; repeatable.")
@click.option(
    "--min-lost",
    type=click.FloatRange(0.0),
    metavar="POINTS",
    help="List only decisions that lost at least this many points (counts are of all).",
)
@click.option(
    "--top",
    type=click.IntRange(0),
    default=10,
    show_default=True,
    metavar="N",
    help="How many of the costliest decisions the report lists.",
)
@jobs_option(
    "Read files in N processes (default: one per core for several files over 64 MiB, else one).",
    default=None,
)
@scheduler_option
def review_command(
    paths: tuple[str, ...],
    fmt: str,
    players: tuple[str, ...],
    games: tuple[str, ...],
    min_lost: float | None,
    top: int,
    jobs: int | None,
    scheduler: str | None,
) -> None:
    """Judge every card played and every answer to a raise in PATHS, like a chess engine's review.

    Each decision of a two-player game is right (best with every card face up) or
    not, sound (best on what the player could know) or not, and lost so many
    points (double-dummy, no further raise); four-player games are not judged.
    The report gives each player's accuracy and points lost by kind, then the
    costliest decisions with where they are written. See docs/review.md.
    """
    chosen = DecisionFilter(players, games, min_lost)
    try:
        jobs = jobs or auto_jobs(paths)
        with (
            progress_bar(paths) as tick,
            cluster(scheduler, paths) if scheduler else nullcontext() as client,
        ):
            each_file: FileReviewer | None = None
            if client is not None:
                from truclog.stats.distributed import reviewer

                each_file = reviewer(client, fmt == "json", top, failed_on_cluster)
            if fmt == "json":
                out = _Decisions(sys.stdout.buffer)
                done = review_files(
                    paths,
                    chosen=chosen,
                    top=top,
                    jobs=jobs,
                    progress=tick,
                    each_file=each_file,
                    sink=out.write,
                    spool=True,
                )
                tally, counts = _json(done, out)
            else:
                done = review_files(
                    paths,
                    chosen=chosen,
                    rows=False,
                    top=top,
                    jobs=jobs,
                    progress=tick,
                    each_file=each_file,
                )
                tally, counts, costliest = _gathered(done, top)
    except TruclogError as exc:
        raise click.ClickException(exc.message) from None
    note_left_out(tally)
    _check_names(counts, players)
    if fmt == "table":
        _print_report(player_summary(counts), costliest, tally)


Counts = dict[tuple[str, str], list[int]]


def _gathered(done: Iterator[FileReview], top: int) -> tuple[Tally, Counts, list[Costly]]:
    """The run's tally, counts and ``top`` costliest decisions (in log order when alike)."""
    tally, counts, costliest = Tally(), {}, []  # type: tuple[Tally, Counts, list[Costly]]
    for file in done:
        tally.add(file.tally)
        add_counts(counts, file.counts)
        costliest = sorted([*costliest, *file.costliest], key=lambda c: -c.lost)[:top]
    return tally, counts, costliest


class _Decisions:
    """The JSON document, written as the decisions come (then the players)."""

    def __init__(self, out: IO[bytes]) -> None:
        self.out, self.first = out, True
        out.write(b'{"decisions": [')

    def write(self, rows: list[Row]) -> None:
        """Write some decisions (a game's), one a line."""
        self.out.write(self._comma() + decision_lines(rows))

    def copy(self, spooled: str) -> None:
        """Write the decisions a file's review spooled (see :func:`decision_lines`)."""
        with open(spooled, "rb") as lines:
            if lines.read(1):
                lines.seek(0)
                self.out.write(self._comma())
                shutil.copyfileobj(lines, self.out, 1 << 20)

    def _comma(self) -> bytes:
        comma, self.first = b"\n  " if self.first else b",\n  ", False
        return comma

    def end(self, players: list[dict[str, Any]]) -> None:
        self.out.write(b"],\n" if self.first else b"\n],\n")
        self.out.write(b'"players": ' + orjson.dumps(players, option=orjson.OPT_INDENT_2) + b"}\n")
        self.out.flush()


def _json(done: Iterator[FileReview], out: _Decisions) -> tuple[Tally, Counts]:
    """Write the decisions file by file (those of files read elsewhere), then the players."""
    tally: Tally = Tally()
    counts: Counts = {}
    for file in done:
        tally.add(file.tally)
        add_counts(counts, file.counts)
        if file.spooled is not None:
            out.copy(file.spooled)
        elif file.rows:
            out.write(file.rows)
    out.end(player_summary(counts))
    return tally, counts


def _check_names(counts: Counts, players: tuple[str, ...]) -> None:
    """A --player name that made no decision in these games is a usage error."""
    known = {player for player, _ in counts}
    unknown = [name for name in players if name not in known]
    if unknown:
        said = ", ".join(f"'{name}'" for name in unknown)
        raise click.BadParameter(f"no decision by {said} in these games", param_hint="--player")


def _print_report(summary: list[dict[str, Any]], costliest: list[Costly], tally: Tally) -> None:
    console = Console()
    if not summary:
        console.print("no decisions to review")
    else:
        console.print(_players_table(summary))
    if costliest:
        console.print("[bold]costliest decisions[/bold]")
        for costly in costliest:
            console.print(escape(printable(_costly_line(costly))), highlight=False)
    console.print(
        f"{tally.games:,} games, {tally.hands:,} hands from {tally.files:,} file(s); "
        "accuracy: right / judged; four-player games are not judged"
    )


def _players_table(summary: list[dict[str, Any]]) -> Table:
    table = Table(title="decisions reviewed", box=box.SIMPLE_HEAD, show_edge=False)
    heads = ("player", "judged", "right", "sound", "lost: plays", "answers", "B / M / I")
    for i, head in enumerate(heads):
        table.add_column(head, justify="left" if i == 0 else "right", no_wrap=i == 0)
    for row in summary:
        kinds = row["kinds"]
        answers = kinds["accept"]["points_lost"] + kinds["fold"]["points_lost"]
        table.add_row(
            escape(printable(row["player"])),
            f"{row['judged']:,}/{row['decisions']:,}",
            _share(row["right"], row["judged"]),
            _share(row["sound"], row["known"]),
            f"{kinds['play']['points_lost']:,}",
            f"{answers:,}",
            f"{row['blunder']:,} / {row['mistake']:,} / {row['inaccuracy']:,}",
        )
    table.caption = (
        "judged: decisions judged with every card known / all; right: accuracy (nothing "
        "lost); sound: best on the player's view; B / M / I: blunders, mistakes, inaccuracies"
    )
    return table


def _share(count: int, out_of: int) -> str:
    return "–" if not out_of else f"{count / out_of:.0%}"


def _costly_line(costly: Costly) -> str:
    path, line, game, hand, *_ = costly.row
    lost, best, grade = costly.row[8], costly.row[9], costly.row[10]
    best_words = ", ".join(best or ()) or "–"
    return (
        f"{path}:{line}: game {game}, hand {hand}: {costly.words}; lost {lost} ({grade}); "
        f"best: {best_words}"
    )
