"""``truclog browse``: the Textual browser of logs."""

from __future__ import annotations

import click

from truclog.cli.serving import serve, serve_options
from truclog.errors import TruclogError


@click.command("browse")
@click.argument("paths", nargs=-1, type=click.Path())
@serve_options
def browse_command(paths: tuple[str, ...], served: bool, host: str | None, port: int) -> None:
    """Browse the games of PATHS (files or directories; default: the bundled sample logs).

    Replay hands event by event, read the validator's diagnostics where they
    occur, and compare players' statistics. Press ? in the app for every key.
    """
    from truclog.tui.browse.app import BrowseApp
    from truclog.tui.browse.index import default_sources

    if "-" in paths:
        raise click.BadParameter(
            "the browser needs the keyboard, so it cannot read a log from standard input; "
            "save the log to a file and browse that",
            param_hint="PATHS",
        )
    try:
        sources = list(paths) or default_sources()
    except TruclogError as exc:
        raise click.ClickException(str(exc)) from None
    if served:
        serve(["browse", *sources], host, port, "truclog browse")
        return
    BrowseApp(sources).run()
