"""``truclog simulate``: seeded bots play games and write them as truclog/1 logs."""

from __future__ import annotations

import sys
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from datetime import UTC, datetime
from typing import TypeVar

import click

from truclog.errors import TruclogError
from truclog.simulate.bots import STYLES, Style, parse_style
from truclog.simulate.run import (
    DEFAULT_START,
    TWO_PLAYERS,
    Simulation,
    SimulationTally,
    simulate_to,
)

SPREAD = ("--players", "--style", "--teams")  # options that take several values in a row
REALISTIC_HIDDEN = 0.3
REALISTIC_NOTES = 0.03
T = TypeVar("T")


class _SpreadCommand(click.Command):
    """Lets ``--players Ana Marc`` and ``--style A=bluffer B=cautious`` take several values."""

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        return super().parse_args(ctx, spread_values(args, SPREAD))


def spread_values(args: Sequence[str], options: Sequence[str]) -> list[str]:
    """Repeat a multi-value option before each of the values that follow it.

    >>> spread_values(["--players", "Ana", "Marc", "-o", "-"], ["--players"])
    ['--players', 'Ana', '--players', 'Marc', '-o', '-']
    """
    out: list[str] = []
    current: str | None = None
    taken = 0
    for arg in args:
        if arg.startswith("-"):
            current, taken = (arg if arg in options else None), 0
        elif current is not None:
            if taken:
                out.append(current)
            taken += 1
        out.append(arg)
    return out


@click.command("simulate", cls=_SpreadCommand)
@click.option(
    "-n",
    "--games",
    type=click.IntRange(min=0),
    default=10,
    show_default=True,
    help="Games to play (rubbers with --match).",
)
@click.option(
    "--hands",
    type=click.IntRange(min=1),
    default=None,
    help="Play games until at least this many hands (instead of --games).",
)
@click.option(
    "--rules",
    "rules",
    default="classic",
    show_default=True,
    help='A rules preset (see `truclog rules`) or a JSON object {"preset": ..., overrides}.',
)
@click.option(
    "--seed", type=int, default=0, show_default=True, help="The same seed writes the same bytes."
)
@click.option(
    "--players",
    "players",
    multiple=True,
    metavar="NAME...",
    help="Two names, or four in seating order for team play (default: Ana Marc).",
)
@click.option(
    "--style",
    "styles",
    multiple=True,
    metavar="[NAME=]STYLE[:FIELD=VALUE,...]",
    help="A player's style (e.g. Ana=bluffer:bluff=0.6), or everyone's without NAME=. "
    f"Styles: {', '.join(STYLES)}.",
)
@click.option(
    "--teams",
    "teams",
    multiple=True,
    metavar="NAME NAME",
    help="Four players: name the teams of seats 1 and 3, then 2 and 4 (default: the partners' names joined by +).",
)
@click.option(
    "--hidden",
    type=click.FloatRange(0, 1),
    default=None,
    help="Fraction of deals that record only the first player's cards.",
)
@click.option(
    "--timestamps/--no-timestamps",
    default=None,
    help="Write a `t` time on every line, with plausible thinking times.",
)
@click.option(
    "--start",
    default=None,
    metavar="DATETIME",
    help="When the first game starts (ISO 8601, e.g. 2026-11-29T20:00+01:00); implies --timestamps.",
)
@click.option(
    "--notes",
    type=click.FloatRange(0, 1),
    default=None,
    help="Chance that a line carries a table note.",
)
@click.option(
    "--realistic",
    is_flag=True,
    help=f"Tabletop realism: --hidden {REALISTIC_HIDDEN} --timestamps "
    f"--notes {REALISTIC_NOTES}, unless given otherwise.",
)
@click.option("--match", is_flag=True, help="Play rubbers: games grouped until a side wins two.")
@click.option(
    "--annotate", is_flag=True, help="Add the raiser's strength as `_strength` on every raise line."
)
@click.option(
    "-o",
    "--output",
    required=True,
    metavar="FILE",
    help="Where to write (gzip-compressed when it ends in .gz); - for stdout.",
)
def simulate_command(
    games: int,
    hands: int | None,
    rules: str,
    seed: int,
    players: tuple[str, ...],
    styles: tuple[str, ...],
    teams: tuple[str, ...],
    hidden: float | None,
    timestamps: bool | None,
    start: str | None,
    notes: float | None,
    realistic: bool,
    match: bool,
    annotate: bool,
    output: str,
) -> None:
    """Let seeded bots play Le Truc and write the games as a truclog/1 log.

    \b
    Example:
      truclog simulate --games 100 --rules sackson --seed 7 \\
        --players Ana Marc --style Ana=bluffer Marc=cautious -o games.truclog.jsonl
    """
    try:
        chosen = players or TWO_PLAYERS
        default, per_player = read_styles(styles)
        sim = Simulation(
            games=games,
            hands=hands,
            seed=seed,
            rules=rules,
            players=tuple(chosen),
            styles=per_player,
            default_style=default,
            hidden=_pick(hidden, REALISTIC_HIDDEN if realistic else 0.0),
            timestamps=_pick(timestamps, realistic or start is not None),
            start=read_start(start),
            notes=_pick(notes, REALISTIC_NOTES if realistic else 0.0),
            annotate=annotate,
            match=match,
            teams=teams or None,
        )
        began = time.perf_counter()
        with progress_bar(sim) as progress:
            tally = simulate_to(sim, output, progress)
    except TruclogError as exc:
        raise click.UsageError(exc.message) from None
    took = time.perf_counter() - began
    where = "standard output" if output == "-" else output
    click.echo(
        f"wrote {_count(tally.games, 'game')}, {_count(tally.hands, 'hand')} "
        f"({_count(tally.lines, 'line')}) to {where} "
        f"in {took:.1f} s ({tally.hands / max(took, 1e-9):.0f} hands/s)",
        err=True,
    )


@contextmanager
def progress_bar(sim: Simulation) -> Iterator[Callable[[SimulationTally], None] | None]:
    """A progress bar on a terminal's stderr (hands, games or rubbers' games), else nothing."""
    if not sys.stderr.isatty():
        yield None
        return
    from rich.console import Console
    from rich.progress import Progress

    with Progress(console=Console(stderr=True), transient=True) as bar:
        if sim.hands is not None:
            task = bar.add_task("simulating hands", total=sim.hands)
            yield lambda tally: bar.update(task, completed=min(tally.hands, sim.hands or 0))
        elif sim.match:
            task = bar.add_task("simulating rubbers' games", total=None)
            yield lambda tally: bar.update(task, completed=tally.games)
        else:
            task = bar.add_task("simulating games", total=sim.games)
            yield lambda tally: bar.update(task, completed=tally.games)


def _count(n: int, thing: str) -> str:
    return f"{n} {thing}" + ("" if n == 1 else "s")


def _pick(given: T | None, default: T) -> T:
    return default if given is None else given


def read_styles(texts: Sequence[str]) -> tuple[Style, dict[str, Style]]:
    """Everyone's style and the per-player ones from ``[NAME=]STYLE[:overrides]`` texts.

    >>> default, per_player = read_styles(["cautious", "Ana=bluffer:bluff=0.5"])
    >>> default.name, per_player["Ana"].bluff
    ('cautious', 0.5)
    """
    default = STYLES["balanced"]
    per_player: dict[str, Style] = {}
    for text in texts:
        name, sep, style = text.partition("=")
        if sep and ":" not in name:
            per_player[name.strip()] = parse_style(style)
        else:
            default = parse_style(text)
    return default, per_player


def read_start(text: str | None) -> datetime:
    """The start time; without an offset it is taken as UTC."""
    if text is None:
        return DEFAULT_START
    try:
        moment = datetime.fromisoformat(text)
    except ValueError:
        raise TruclogError(
            f"--start {text!r} is not a date and time like 2026-11-29T20:00+01:00"
        ) from None
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)
