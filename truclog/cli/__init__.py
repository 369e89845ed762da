"""The ``truclog`` command line: one click group, one module per command.

A command's module is imported only when that command runs, so that ``truclog
--version`` or ``truclog validate`` does not pay for the statistics or the apps.
"""

from __future__ import annotations

import atexit
import contextlib
import gc
import importlib
import os
import sys

import click

from truclog import __version__
from truclog.build import describe
from truclog.errors import reason
from truclog.terminal import printable

COMMANDS = {
    "rules": ("truclog.cli.rules:rules_command", "List the rule presets, or show one PRESET."),
    "validate": (
        "truclog.cli.validate:validate_command",
        "Check that the games in PATHS were played and scored by their rules.",
    ),
    "browse": (
        "truclog.cli.browse:browse_command",
        "Browse the games of PATHS (files or directories; default: the bundled sample logs).",
    ),
    "record": (
        "truclog.cli.record:record_command",
        "Record a game as it is played into LOG (a truclog/1 file, appended to).",
    ),
    "schema": (
        "truclog.cli.schema:schema_command",
        "Print the JSON Schema of one truclog/1 line, generated from the event models.",
    ),
    "show": (
        "truclog.cli.show:show_command",
        "Print hand N of game ID of the log PATH as readable text.",
    ),
    "share": (
        "truclog.cli.share:share_command",
        "Write a game of PATH as one file to share: a replay page, or a rubber's card.",
    ),
    "simulate": (
        "truclog.cli.simulate:simulate_command",
        "Let seeded bots play Le Truc and write the games as a truclog/1 log.",
    ),
    "stats": (
        "truclog.cli.stats:stats_command",
        "Per-player statistics over the games in PATHS: bluff and fold rates and more.",
    ),
    "export": (
        "truclog.cli.stats:export_command",
        "Write the games, hands and actions tables of PATHS as Parquet, for DuckDB, Spark...",
    ),
    "leaks": (
        "truclog.cli.leaks:leaks_command",
        "Rank the situations where PLAYER decides by the points their play puts at stake.",
    ),
    "review": (
        "truclog.cli.review:review_command",
        "Judge every card played and every answer to a raise in PATHS, like a chess engine's review.",
    ),
    "ratings": (
        "truclog.cli.ratings:ratings_command",
        "Rate the players of the games in PATHS with OpenSkill (Plackett-Luce).",
    ),
}
"""Each command's name, where it is defined (``module:attribute``), and the first
paragraph of its help, which ``truclog --help`` lists without importing the command."""
ONE_THREAD = {"export"}
"""The commands whose polars runs on one thread (see :mod:`truclog.stats.threads`)."""


class LazyGroup(click.Group):
    """A group whose commands are imported when they are asked for."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        """Every command's name, sorted, without importing any command."""
        return sorted(COMMANDS)

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        """The command named ``cmd_name``, its module imported now; None for an unknown name."""
        if cmd_name not in COMMANDS:
            return None
        module, attribute = COMMANDS[cmd_name][0].split(":")
        if cmd_name in ONE_THREAD:
            from truclog.stats.threads import one_thread

            one_thread()  # before the command's module imports polars
        command = getattr(importlib.import_module(module), attribute)
        assert isinstance(command, click.Command)
        return command

    def resolve_command(
        self, ctx: click.Context, args: list[str]
    ) -> tuple[str | None, click.Command | None, list[str]]:
        """The command ``args`` name; an unknown one is an error naming the closest."""
        name = click.utils.make_str(args[0])
        if name not in COMMANDS and not ctx.resilient_parsing and not name.startswith("-"):
            from truclog.cli.options import did_you_mean

            ctx.fail(f"No such command {name!r}{did_you_mean(name, COMMANDS)}.")
        return super().resolve_command(ctx, args)

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        """The commands and their summaries, as click lists them, from :data:`COMMANDS`."""
        limit = formatter.width - 6 - max(map(len, COMMANDS))
        rows = [(name, short_help(COMMANDS[name][1], limit)) for name in self.list_commands(ctx)]
        with formatter.section("Commands"):
            formatter.write_dl(rows)


def short_help(summary: str, limit: int) -> str:
    """A command's summary cut to ``limit`` characters, as click cuts a command's help."""
    return click.Command(None, help=summary).get_short_help_str(limit)


def _print_version(ctx: click.Context, _param: click.Parameter, value: bool) -> None:
    if value and not ctx.resilient_parsing:
        click.echo(f"truclog {__version__} ({describe()})")
        ctx.exit()


@click.group(cls=LazyGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.option(
    "--version",
    is_flag=True,
    expose_value=False,
    is_eager=True,
    callback=_print_version,
    help="Show the version and which build runs, and exit.",
)
def main() -> None:
    """Hand histories for Le Truc: validate, study and replay truclog/1 logs."""


def run(args: list[str] | None = None) -> None:
    """The ``truclog`` program: :func:`main`, and a last resort for a bug. An error
    that no command foresaw ends in one line saying what and where, and exit 3.

    At exit, every object left is frozen out of the garbage collector's walks: the
    interpreter's last collections would walk all of them (the modules and what the
    command made) only to find the few cycles that the end of the process frees
    anyway, for a tenth of the instructions of a small ``truclog validate``."""
    atexit.unregister(gc.freeze)  # registered once, however often it runs in a process
    atexit.register(gc.freeze)
    try:
        main(args, prog_name="truclog")
    except OSError as exc:  # the output could not be written (a full disk, a closed pipe)
        what = printable(str(exc.filename)) if exc.filename else "the output cannot be written"
        with contextlib.suppress(OSError):
            click.echo(f"truclog: {what}: {reason(exc)}", err=True)
        with contextlib.suppress(OSError, ValueError):  # what is left is not flushed at exit
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        sys.exit(1)
    except Exception as exc:
        import traceback

        frame = traceback.extract_tb(exc.__traceback__)[-1]
        where = f"{os.path.basename(frame.filename)}:{frame.lineno}"
        what = printable(f"{type(exc).__name__}: {exc}")[:300]
        click.echo(
            f"truclog: internal error ({what}, at {where}); this is a bug: please report it "
            "on the truclog issue tracker with this line, the command and truclog --version",
            err=True,
        )
        sys.exit(3)
