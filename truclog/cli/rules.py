"""``truclog rules``: the rule presets a log can declare, one block of words each."""

from __future__ import annotations

import click

from truclog.engine.rules import PRESETS, Rules, get_rules
from truclog.errors import RulesError

_RAISES = {"any": "any value above the current one", "double": "exactly double the current value"}
_RESTE_REFUSED = {
    "previous": "the raiser scores the value before it",
    "game": "the raiser wins the game",
}
_ALL_TIED = {"draw": "a draw, nobody scores", "non_dealer": "the non-dealer wins the hand"}
_REDEAL = {
    "rest": "once, dealt from the rest of the deck",
    "reshuffle": "once, dealt from a fresh shuffle",
    "none": "not allowed",
}


def describe_rules(rules: Rules) -> list[tuple[str, str]]:
    """Each rule of ``rules`` in words, as ``(rule, what it says)``.

    >>> dict(describe_rules(get_rules("francais")))["highest value"]
    '8'
    >>> dict(describe_rules(get_rules("classic")))["reste"]
    'yes; refused: the raiser scores the value before it'
    """
    order = " ".join("10" if rank == "T" else rank for rank in rules.order)
    reste = f"yes; refused: {_RESTE_REFUSED[rules.reste_refused]}" if rules.reste else "no"
    return [
        ("ranks, high to low", f"{order} ({rules.deck_size} cards)"),
        ("raise to", _RAISES[rules.raises]),
        ("highest value", "no limit" if rules.max_value is None else str(rules.max_value)),
        ("past the target", "no raise past it" if rules.cap_at_target else "allowed"),
        ("raise twice", "not until the other side raises" if rules.alternate_raises else "allowed"),
        ("reste", reste),
        ("all three tied", _ALL_TIED[rules.all_tied]),
        ("fold", "at any time" if rules.fold_anytime else "only to refuse a raise"),
        ("redeal", _REDEAL[rules.redeal]),
        ("target", f"{rules.target} points"),
    ]


def rules_block(rules: Rules) -> str:
    """One preset as a block of lines, no wider than 80 columns.

    >>> print(rules_block(get_rules("sackson")).splitlines()[1])
      ranks, high to low  A K Q J 10 9 8 7 (32 cards)
    """
    rows = describe_rules(rules)
    width = max(len(rule) for rule, _ in rows)
    lines = [click.style(rules.name, bold=True)]
    lines.extend(f"  {rule:<{width}}  {words}" for rule, words in rows)
    return "\n".join(lines)


@click.command("rules")
@click.argument("preset", required=False)
def rules_command(preset: str | None) -> None:
    """List the rule presets, or show one PRESET."""
    if preset is not None:
        try:
            rules = get_rules(preset)
        except RulesError as exc:
            raise click.BadParameter(str(exc), param_hint="PRESET") from None
        click.echo(rules_block(rules))
        return
    click.echo("\n\n".join(rules_block(rules) for rules in PRESETS.values()))
