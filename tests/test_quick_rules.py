"""The rules reach the C quick core from one declared table (truclog/validate/quick_rules.py).

Every field of ``Rules`` must be in that table, in the tests' rule strategy and in the
format's rule overrides; the core's own declaration of what it reads must be the
table's; a value the core does not know sends the game to the Python validator.
"""

from __future__ import annotations

import dataclasses
import types
import typing
from pathlib import Path
from typing import Any, Literal

import pytest
from hypothesis import find
from hypothesis import strategies as st
from strategies import rule_overrides

from truclog.engine.rules import PRESETS, Rules, get_rules
from truclog.format.events import GameEvent, RulesSpec
from truclog.simulate.run import Simulation, simulate_to
from truclog.validate import CheckedGame, Diagnostic, GameTally, quick
from truclog.validate.quick_rules import CORE_RULES, NOT_PASSED, core_rules
from truclog.validate.report import report_file, report_json

FIELDS = {field.name for field in dataclasses.fields(Rules)}
HINTS = typing.get_type_hints(Rules)


def choices(annotation: Any) -> set[Any] | None:
    """The values a field may take when they are few (a Literal, a bool), else None."""
    if typing.get_origin(annotation) is typing.Annotated:
        return choices(typing.get_args(annotation)[0])
    if annotation is bool:
        return {False, True}
    if typing.get_origin(annotation) is Literal:
        return set(typing.get_args(annotation))
    if typing.get_origin(annotation) in (typing.Union, types.UnionType):
        inner = [a for a in typing.get_args(annotation) if a is not type(None)]
        return choices(inner[0]) if len(inner) == 1 else None
    return None


ENUMERATED = {
    name: values
    for name, annotation in HINTS.items()
    if (values := choices(annotation)) is not None
}


def test_every_rule_is_passed_to_the_core_or_declared_not_needed() -> None:
    assert set(CORE_RULES) | NOT_PASSED == FIELDS
    assert not set(CORE_RULES) & NOT_PASSED


def test_the_core_table_lists_no_value_a_rule_cannot_take() -> None:
    for name, passed in CORE_RULES.items():
        if name in ENUMERATED:
            assert isinstance(passed, dict), f"{name}: give each of its values a number"
            assert set(passed) <= ENUMERATED[name], name
            assert sorted(passed.values()) == list(range(len(passed))), name


def test_the_core_reads_the_rules_as_the_table_declares_them() -> None:
    """``truclog.validate._quick.RULES`` is the C side of the table: the same fields in the same
    order, each value known by the number the table gives it."""
    if quick._quick is None:
        pytest.skip("the quick core is not built")
    declared = {}
    for word in quick._quick.RULES.split():
        name, _, values = word.partition("=")
        declared[name] = values.split(",") if values else None
    assert list(declared) == list(CORE_RULES)
    for name, passed in CORE_RULES.items():
        if isinstance(passed, dict):
            c_names = declared[name]
            assert c_names is not None, name
            by_number = sorted(passed, key=passed.__getitem__)
            assert [str(v).lower() for v in by_number] == c_names, name
        else:
            assert declared[name] is None, name


def test_every_preset_reaches_the_core() -> None:
    for rules in PRESETS.values():
        assert core_rules(rules) is not None, rules.name


def test_every_rule_is_drawn_by_the_tests_rule_strategy() -> None:
    overrides = rule_overrides(orders=st.just("78AKQJT9"))
    assert set(overrides) == FIELDS - {"name"}
    for name, values in ENUMERATED.items():
        for value in values:
            find(overrides[name], lambda drawn, value=value: drawn == value)


def test_every_rule_can_be_overridden_in_a_log() -> None:
    overridable = set(RulesSpec.model_fields) - {"preset"}
    assert overridable == FIELDS - {"name"}
    for name, values in ENUMERATED.items():
        assert choices(RulesSpec.model_fields[name].annotation) == values, name


@pytest.mark.parametrize(
    ("field", "value"), [("raises", "triple"), ("redeal", "cut"), ("all_tied", "dealer")]
)
def test_a_value_the_core_does_not_know_goes_to_python(field: str, value: str) -> None:
    rules = dataclasses.replace(get_rules("classic"), **{field: value})
    assert core_rules(rules) is None
    header = GameEvent(format="truclog/1", players=["Ana", "Marc"], dealer="Marc")
    header._rules = rules
    assert quick.table(header) is None


def test_games_under_a_value_unknown_to_the_core_are_checked_line_by_line_alike(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """As if ``redeal: none`` were new to the core: those games are checked by the
    Python validator, the others still in C, and the report is the same."""
    path = tmp_path / "mixed.truclog.jsonl"
    simulate_to(Simulation(games=3, seed=4, rules={"preset": "classic", "redeal": "none"}), path)
    other = tmp_path / "other.truclog.jsonl"
    simulate_to(Simulation(games=2, seed=5, rules="classic"), other)
    path.write_bytes(path.read_bytes() + other.read_bytes())
    expected = report_json([report_file(str(path), quick=False)])
    monkeypatch.setitem(CORE_RULES, "redeal", {"rest": 0, "reshuffle": 1})
    games = [g for g in quick.check_log(str(path)) if not isinstance(g, Diagnostic)]
    kinds = [type(g) for g in games]
    if quick.AVAILABLE:
        assert kinds == [CheckedGame] * 3 + [GameTally] * 2
    assert report_json([report_file(str(path))]) == expected
