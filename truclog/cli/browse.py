"""``truclog browse``: the Textual browser of logs."""

from __future__ import annotations

import os
import sys

import click

from truclog.cli.options import bluff_threshold_option
from truclog.cli.serving import serve, serve_options
from truclog.errors import TruclogError


@click.command("browse")
@click.argument("paths", nargs=-1, type=click.Path())
@click.option("--me", default="", metavar="NAME", help="Replay from this player's seat.")
@bluff_threshold_option
@serve_options(sessions=4)
def browse_command(
    paths: tuple[str, ...],
    me: str,
    bluff_threshold: float,
    served: bool,
    host: str | None,
    port: int,
    sessions: int,
) -> None:
    """Browse the games of PATHS (files or directories; default: the bundled sample logs).

    Replay hands event by event (as an onlooker, from a seat, or every card),
    read the validator's diagnostics where they occur, find hands by event, and
    compare players' statistics. A log being written shows its new lines as they
    come. Press ? in the app for every key.
    """
    from truclog.tui.browse.catalog import default_sources, start_index

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
        options = ["--me", me] if me else []
        options += ["--bluff-threshold", str(bluff_threshold)]
        serve(["browse", *options, *sources], host, port, sessions, "truclog browse")
        return
    indexer = start_index(sources)  # reads the logs while Textual starts
    from truclog.tui.browse.app import BrowseApp

    app = BrowseApp(sources, me=me or None, bluff_threshold=bluff_threshold, indexer=indexer)
    app.run()
    leave(app.return_code or 0)


def leave(code: int) -> None:
    """End the process once the app has closed and given the terminal back, without
    Python's clean-up: tearing down the index and every module Textual loaded takes
    longer than the user should wait after pressing ``q``, and nothing is left to
    save (the app's children are stopped, its temporary files deleted)."""
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(code)
