"""``truclog record``: log a game at the table, live and crash-safe."""

from __future__ import annotations

from datetime import datetime
from pathlib import Path

import click

from truclog.errors import TruclogError
from truclog.record import Recorder, local_now
from truclog.rules import PRESETS


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
@click.option("--me", default="", metavar="NAME", help="Your name: enter only your own cards.")
@click.option("--match/--no-match", default=False, help="Play a rubber (first to two games).")
@click.option("--no-time", is_flag=True, help="Write no timestamps (t) on the lines.")
def record_command(
    log: str | None,
    resume: str | None,
    players: tuple[str, ...],
    rules: str,
    dealer: str,
    me: str,
    match: bool,
    no_time: bool,
) -> None:
    """Record a game as it is played into LOG (a truclog/1 file, appended to).

    Every entry is checked by the rules engine and is on disk before the screen
    shows it as recorded. Use --resume LOG after a crash or a break.
    """
    from truclog.tui.record.app import RecordApp
    from truclog.tui.record.screens.start import Setup, default_path

    if log is not None and resume is not None:
        raise click.UsageError("give either LOG (to start a game) or --resume LOG, not both")
    clock = None if no_time else local_now
    recorder = None
    if resume is not None:
        try:
            recorder = Recorder.resume(resume, clock=clock)
        except TruclogError as exc:
            raise click.ClickException(str(exc)) from None
        if recorder.repaired:
            click.echo(
                f"{resume}: the last line was cut short by a crash; its "
                f"{len(recorder.repaired)} bytes were moved to {Path(resume).name}.torn",
                err=True,
            )
        name = me or None
        if name is not None and recorder.state is not None and name not in recorder.state.players:
            recorder.close()
            raise click.BadParameter(f"{name!r} is not a player of this game", param_hint="--me")
    setup = Setup(
        path=log or default_path(datetime.now()),
        players=players,
        rules=rules,
        dealer=dealer,
        match=match,
        me=me,
    )
    app = RecordApp(recorder, setup, me=me or None, clock=clock)
    try:
        app.run()
    finally:
        if app.recorder is not None:
            app.recorder.close()
    if app.recorder is not None:
        lines = len(app.recorder.entries)
        click.echo(f"{app.recorder.path}: {lines} line(s), all on disk.", err=True)
