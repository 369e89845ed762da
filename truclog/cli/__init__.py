"""The ``truclog`` command line: one click group, one module per command."""

from __future__ import annotations

import sys
import traceback
from pathlib import Path

import click

from truclog import COMPILED, __version__
from truclog.cli.browse import browse_command
from truclog.cli.record import record_command
from truclog.cli.rules import rules_command
from truclog.cli.schema import schema_command
from truclog.cli.simulate import simulate_command
from truclog.cli.stats import export_command, stats_command
from truclog.cli.validate import validate_command
from truclog.quick import AVAILABLE as QUICK_CORE
from truclog.quick import STALE
from truclog.terminal import printable

_BUILD = ("compiled" if COMPILED else "pure Python") + (
    ", quick core"
    if QUICK_CORE
    else ", quick core out of date (pip install -e . builds it again)"
    if STALE
    else ", no quick core"
)


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(
    __version__,
    prog_name="truclog",
    message=f"%(prog)s %(version)s ({_BUILD})",
)
def main() -> None:
    """Hand histories for Le Truc: validate, study and replay truclog/1 logs."""


main.add_command(rules_command)
main.add_command(validate_command)
main.add_command(browse_command)
main.add_command(record_command)
main.add_command(schema_command)
main.add_command(simulate_command)
main.add_command(stats_command)
main.add_command(export_command)


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
