"""``truclog schema``: the JSON Schema of one line of a truclog/1 log."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from truclog.errors import TruclogError, reason
from truclog.format.atomic import write_atomically
from truclog.format.events import json_schema_text

SCHEMA_FILE = Path("schemas") / "truclog-1.schema.json"


@click.command("schema")
@click.option(
    "-o",
    "--output",
    type=click.Path(dir_okay=False, path_type=Path),
    help="Write the schema to FILE instead of standard output.",
)
@click.option(
    "--check",
    is_flag=True,
    help=f"Do not write: fail if FILE (default {SCHEMA_FILE}) differs from the models.",
)
def schema_command(output: Path | None, check: bool) -> None:
    """Print the JSON Schema of one truclog/1 line, generated from the event models."""
    text = json_schema_text()
    if check:
        target = output or SCHEMA_FILE
        try:
            current = target.read_text(encoding="utf-8")
        except OSError as exc:
            raise click.ClickException(f"{target}: cannot read: {reason(exc)}") from None
        if current != text:
            raise click.ClickException(
                f"{target} is out of date with the event models; "
                f"regenerate it with: truclog schema -o {target}"
            )
        click.echo(f"{target} matches the event models")
        return
    if output is None:
        sys.stdout.write(text)
        return
    try:
        output.parent.mkdir(parents=True, exist_ok=True)
        write_atomically(output, text.encode())
    except (OSError, TruclogError) as exc:
        raise click.ClickException(str(exc)) from None
