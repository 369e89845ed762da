"""``truclog rules``: every preset in words, one block each, readable at 80 columns."""

from __future__ import annotations

import re

from click.testing import CliRunner

from truclog.cli import main
from truclog.engine.rules import PRESETS


def run(*args: str) -> str:
    result = CliRunner().invoke(main, ["rules", *args], catch_exceptions=False)
    assert result.exit_code == 0
    return result.output


def blocks() -> dict[str, dict[str, str]]:
    """Each preset's block: rule -> what it says."""
    found: dict[str, dict[str, str]] = {}
    for block in run().strip().split("\n\n"):
        name, *rows = block.splitlines()
        found[name] = dict(re.split(r"\s{2,}", row.strip(), maxsplit=1) for row in rows)
    return found


def test_every_preset_has_a_block_and_every_line_fits_in_80_columns() -> None:
    assert list(blocks()) == list(PRESETS)
    assert max(len(line) for line in run().splitlines()) <= 80


def test_rules_are_words_not_python_values() -> None:
    assert not re.search(r"\b(None|True|False)\b", run())


def test_the_presets_differ_where_the_rules_say() -> None:
    presets = blocks()
    assert presets["classic"]["ranks, high to low"] == "7 8 A K Q J 10 9 (32 cards)"
    assert presets["classic-36"]["ranks, high to low"] == "7 6 A K Q J 10 9 8 (36 cards)"
    assert presets["eight-high"]["ranks, high to low"].startswith("8 7 A")
    assert presets["sackson"]["raise to"] == "exactly double the current value"
    assert presets["sackson"]["past the target"] == "no raise past it"
    assert presets["sackson"]["redeal"] == "once, dealt from a fresh shuffle"
    assert presets["francais"]["highest value"] == "8"
    assert presets["francais"]["reste"] == "no"
    assert presets["gamerules"]["reste"] == "yes; refused: the raiser wins the game"
    assert presets["gamerules"]["fold"] == "at any time"
    assert presets["gamerules"]["all three tied"] == "a draw, nobody scores"
    assert presets["classic"]["all three tied"] == "the non-dealer wins the hand"
    assert presets["classic"]["raise twice"] == "not until the other side raises"
    assert presets["gamerules"]["raise twice"] == "allowed"
    assert {block["target"] for block in presets.values()} == {"12 points"}


def test_one_preset_is_its_block_and_an_unknown_one_is_a_usage_error() -> None:
    assert run("francais") == run().split("\n\n")[3].rstrip("\n") + "\n"
    result = CliRunner().invoke(main, ["rules", "nope"])
    assert result.exit_code == 2
    assert "unknown rules preset 'nope'" in result.output
