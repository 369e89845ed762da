"""The ``truclog`` command line: one click group, one module per command.

A command's module is imported only when that command runs, so that ``truclog
--version`` or ``truclog validate`` does not pay for the statistics or the apps.
"""

from __future__ import annotations

import importlib
import sys
import traceback
from pathlib import Path

import click

from truclog import __version__
from truclog.build import describe
from truclog.terminal import printable

COMMANDS = {
    "rules": "truclog.cli.rules:rules_command",
    "validate": "truclog.cli.validate:validate_command",
    "browse": "truclog.cli.browse:browse_command",
    "record": "truclog.cli.record:record_command",
    "schema": "truclog.cli.schema:schema_command",
    "show": "truclog.cli.show:show_command",
    "simulate": "truclog.cli.simulate:simulate_command",
    "stats": "truclog.cli.stats:stats_command",
    "export": "truclog.cli.stats:export_command",
    "ratings": "truclog.cli.ratings:ratings_command",
}
"""Each command's name and where it is defined, ``module:attribute``."""


class LazyGroup(click.Group):
    """A group whose commands are imported when they are asked for."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(COMMANDS)

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name not in COMMANDS:
            return None
        module, attribute = COMMANDS[cmd_name].split(":")
        command = getattr(importlib.import_module(module), attribute)
        assert isinstance(command, click.Command)
        return command


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
    that no command foresaw ends in one line saying what and where, and exit 3."""
    try:
        main(args, prog_name="truclog")
    except Exception as exc:
        frame = traceback.extract_tb(exc.__traceback__)[-1]
        where = f"{Path(frame.filename).name}:{frame.lineno}"
        what = printable(f"{type(exc).__name__}: {exc}")[:300]
        click.echo(
            f"truclog: internal error ({what}, at {where}); this is a bug: please report it "
            "on the truclog issue tracker with this line, the command and truclog --version",
            err=True,
        )
        sys.exit(3)
