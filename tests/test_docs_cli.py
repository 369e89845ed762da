"""docs/cli.md stays true to the commands: every command and option is described."""

from __future__ import annotations

from pathlib import Path

import click
import pytest

from truclog.cli import COMMANDS, main

DOC = (Path(__file__).resolve().parent.parent / "docs" / "cli.md").read_text("utf-8")


@pytest.mark.parametrize("name", sorted(COMMANDS))
def test_every_command_and_option_is_in_docs_cli(name: str) -> None:
    command = main.get_command(click.Context(main), name)
    assert command is not None
    assert f"## {name}" in DOC
    for param in command.params:
        if isinstance(param, click.Option):
            names = [n for n in param.opts + param.secondary_opts if n.startswith("--")]
            names = [n for n in names if n != "--help"]
            assert any(n in DOC for n in names), f"{name}: {param.opts} is not in docs/cli.md"
