"""``truclog record``: log a game at the table, live and crash-safe."""

from __future__ import annotations

import sys
from dataclasses import dataclass, replace
from datetime import datetime
from pathlib import Path
from typing import Any

import click

from truclog.cli.serving import serve, serve_options
from truclog.engine.rules import PRESETS
from truclog.errors import TruclogError
from truclog.record.recorder import Recorder, local_now
from truclog.terminal import printable_lines


@dataclass(frozen=True, slots=True)
class Choices:
    """What the command line chose for the games to record."""

    players: tuple[str, ...]
    rules: str
    dealer: str
    me: str
    match: bool
    no_time: bool
    history: tuple[str, ...] = ()
    hud: bool = True

    def args(self) -> list[str]:
        """The options that make the same choices (for the served recorder)."""
        args = [arg for name in self.players for arg in ("-p", name)]
        args += ["--rules", self.rules, "--dealer", self.dealer, "--me", self.me]
        return [
            *args,
            "--match" if self.match else "--no-match",
            *(["--no-time"] if self.no_time else []),
            *(arg for path in self.history for arg in ("--history", path)),
            *([] if self.hud else ["--no-hud"]),
        ]


@click.command("record")
@click.argument("log", required=False, type=click.Path(dir_okay=False))
@click.option(
    "--resume",
    "resume",
    type=click.Path(dir_okay=False),
    help="Continue the last game of this log (a line torn by a crash is repaired).",
)
@click.option(
    "-p", "--player", "players", multiple=True, metavar="NAME", help="A player, in seating order."
)
@click.option("--rules", type=click.Choice(list(PRESETS)), default="classic", show_default=True)
@click.option("--dealer", default="", metavar="NAME|cut", help="Who deals first, or 'cut'.")
@click.option(
    "--me", default="", metavar="NAME",
    help="Your name: enter only your own cards (kept in the log, so --resume knows it).",
)  # fmt: skip
@click.option("--match/--no-match", default=False, help="Play a rubber (first to two games).")
@click.option("--no-time", is_flag=True, help="Write no timestamps (t) on the lines.")
@click.option(
    "--history",
    multiple=True,
    type=click.Path(exists=True),
    metavar="PATH",
    help="Logs (files or folders) whose hands the HUD counts; default: the log's folder.",
)
@click.option("--hud/--no-hud", default=True, help="Show the players' rates so far (the HUD).")
@click.option("--sheet", is_flag=True, help="Print the score sheet of each game of LOG, and quit.")
@click.option("--fixed-path", is_flag=True, hidden=True, help="The log file cannot be changed.")
@serve_options(sessions=2)
def record_command(
    log: str | None,
    resume: str | None,
    sheet: bool,
    fixed_path: bool,
    served: bool,
    host: str | None,
    port: int,
    sessions: int,
    **choices: Any,
) -> None:
    """Record a game as it is played into LOG (a truclog/1 file, appended to).

    Every entry is checked by the rules engine and is on disk before the screen
    shows it as recorded. Use --resume LOG after a crash or a break. The exit
    status is 1 when the disk refused a write during the session.
    """
    if log is not None and resume is not None:
        raise click.UsageError("give either LOG (to start a game) or --resume LOG, not both")
    if sheet:
        print_sheets(log or resume)
        return
    chosen = Choices(**choices)
    if served:  # a phone's screen has no room for the HUD
        chosen = replace(chosen, hud=False)
        serve(served_args(log, resume, chosen), host, port, sessions, "truclog record")
        return
    run_recorder(log, resume, chosen, fixed_path)


def served_args(log: str | None, resume: str | None, chosen: Choices) -> list[str]:
    """The recorder each page runs: on the log named here (or today's default name, chosen
    now), which the page cannot change."""
    from truclog.tui.record.screens.start import default_path

    if resume is not None:
        return ["record", "--resume", resume, "--fixed-path", *chosen.args()]
    log = log or default_path(datetime.now())
    click.echo(f"recording to {Path(log).resolve()}", err=True)
    return ["record", log, "--fixed-path", *chosen.args()]


def run_recorder(
    log: str | None, resume: str | None, chosen: Choices, fixed_path: bool = False
) -> None:
    """The recorder in this terminal, until it is quit."""
    from truclog.tui.record.app import RecordApp
    from truclog.tui.record.screens.start import Setup, default_path

    me, no_time = chosen.me, chosen.no_time
    clock = None if no_time else local_now
    recorder = None
    if resume is not None:
        try:
            recorder = Recorder.resume(resume, clock=clock, me=me or None)
        except TruclogError as exc:
            raise click.ClickException(str(exc)) from None
        if recorder.repaired:
            click.echo(
                f"{resume}: the last line was cut short by a crash; its "
                f"{len(recorder.repaired)} bytes were moved to {Path(resume).name}.torn",
                err=True,
            )
    setup = Setup(
        path=log or default_path(datetime.now()),
        players=chosen.players,
        rules=chosen.rules,
        dealer=chosen.dealer,
        match=chosen.match,
        me=me,
        date=datetime.now().date().isoformat() if no_time else "",
        fixed_path=fixed_path,
    )
    history = chosen.history if chosen.hud else None
    app = RecordApp(recorder, setup, me=me or None, clock=clock, history=history)
    try:
        app.run()
    finally:
        if app.recorder is not None:
            app.recorder.close()
    if app.recorder is not None:
        lines = len(app.recorder.entries)
        click.echo(f"{app.recorder.path}: {lines} line(s), all on disk.", err=True)
    if app.failures:
        for failure in app.failures:
            click.echo(f"error: {failure}", err=True)
        click.echo(
            f"{len(app.failures)} write(s) refused by the disk during the session "
            "(what the screen showed as recorded is on disk)",
            err=True,
        )
        sys.exit(1)


def print_sheets(path: str | None) -> None:
    """The score sheet of every game of a log."""
    from truclog.record.sheet import sheet_text

    if path is None:
        raise click.UsageError("--sheet needs the LOG to read")
    try:
        states = Recorder.games(path)
        for number, state in enumerate(states, start=1):
            sheet = printable_lines(sheet_text(state))
            click.echo(("\n" if number > 1 else "") + f"Game {number}: {sheet}")
    except TruclogError as exc:
        raise click.ClickException(str(exc)) from None
