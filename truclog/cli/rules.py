"""``truclog rules``: the rule presets a log can declare."""

from __future__ import annotations

import click
from rich.console import Console
from rich.table import Table

from truclog.errors import RulesError
from truclog.rules import PRESETS, get_rules

_FIELDS = [
    "order",
    "raises",
    "max_value",
    "cap_at_target",
    "alternate_raises",
    "reste",
    "reste_refused",
    "all_tied",
    "fold_anytime",
    "redeal",
    "target",
]


@click.command("rules")
@click.argument("preset", required=False)
def rules_command(preset: str | None) -> None:
    """List the rule presets, or show one PRESET in full."""
    console = Console()
    if preset is not None:
        try:
            rules = get_rules(preset)
        except RulesError as exc:
            raise click.BadParameter(str(exc), param_hint="PRESET") from None
        table = Table("rule", "value", title=f"preset {rules.name}")
        for field in _FIELDS:
            table.add_row(field, str(getattr(rules, field)))
        console.print(table)
        return
    table = Table("preset", *_FIELDS, title="rule presets")
    for rules in PRESETS.values():
        table.add_row(rules.name, *(str(getattr(rules, f)) for f in _FIELDS))
    console.print(table)
