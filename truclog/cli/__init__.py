"""The ``truclog`` command line: one click group, one module per command."""

from __future__ import annotations

import click

from truclog import COMPILED, __version__
from truclog.cli.browse import browse_command
from truclog.cli.record import record_command
from truclog.cli.rules import rules_command
from truclog.cli.schema import schema_command
from truclog.cli.show import show_command
from truclog.cli.simulate import simulate_command
from truclog.cli.stats import export_command, stats_command
from truclog.cli.validate import validate_command
from truclog.quick import AVAILABLE as QUICK_CORE
from truclog.quick import STALE

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
main.add_command(show_command)
main.add_command(simulate_command)
main.add_command(stats_command)
main.add_command(export_command)
