"""The seven presets of docs/rules.md, the lookup by name and the overrides."""

import dataclasses
import json
import typing

import pytest
from hypothesis import given
from hypothesis import strategies as st
from strategies import rules_objects

from truclog.engine.overrides import RuleValues, checked
from truclog.engine.rules import PRESETS, Rules, get_rules
from truclog.errors import RulesError, TruclogError

# The presets table of docs/rules.md, column by column.
# fmt: off
TABLE = {
    "classic": ("78AKQJT9", "any", None, False, True, True, "previous", "non_dealer", False, "rest"),
    "gamerules": ("78AKQJT9", "any", None, False, False, True, "game", "draw", True, "rest"),
    "sackson": ("AKQJT987", "double", None, True, False, True, "previous", "draw", False, "reshuffle"),
    "francais": ("76AKQJT9", "double", 8, False, False, False, None, "draw", False, "rest"),
    "classic-36": ("76AKQJT98", "any", None, False, True, True, "previous", "non_dealer", False, "rest"),
    "eight-high": ("87AKQJT9", "any", None, False, True, True, "previous", "non_dealer", False, "rest"),
    "eight-low": ("7AKQJT98", "any", None, False, True, True, "previous", "non_dealer", False, "rest"),
}
# fmt: on


def test_there_are_exactly_the_seven_presets() -> None:
    assert list(PRESETS) == list(TABLE)


@pytest.mark.parametrize("name", list(TABLE))
def test_each_preset_matches_the_table(name: str) -> None:
    order, raises, max_value, cap, alternate, reste, refused, all_tied, fold, redeal = TABLE[name]
    rules = get_rules(name)
    assert rules.name == name
    assert rules.order == order
    assert rules.raises == raises
    assert rules.max_value == max_value
    assert rules.cap_at_target is cap
    assert rules.alternate_raises is alternate
    assert rules.reste is reste
    if refused is not None:
        assert rules.reste_refused == refused
    assert rules.all_tied == all_tied
    assert rules.fold_anytime is fold
    assert rules.redeal == redeal
    assert rules.target == 12


@pytest.mark.parametrize("name", list(TABLE))
def test_each_preset_is_rules_the_checks_accept_as_they_are(name: str) -> None:
    preset = PRESETS[name]
    assert Rules(**checked(preset.as_dict())) == preset


def test_the_checked_values_are_the_fields_of_rules_with_their_defaults() -> None:
    """The pydantic model that checks overrides declares what ``Rules`` declares."""
    fields = dataclasses.fields(Rules)
    assert [f.name for f in fields] == list(RuleValues.model_fields)
    hints = typing.get_type_hints(Rules)
    for field in fields:
        model_field = RuleValues.model_fields[field.name]
        assert model_field.annotation == hints[field.name], field.name
        assert model_field.is_required() is (field.default is dataclasses.MISSING), field.name
        if field.default is not dataclasses.MISSING:
            assert model_field.default == field.default, field.name


def pydantic_json(rules: Rules) -> str:
    """Rules as the pydantic model writes them (how simulations seeded their dice)."""
    return RuleValues.model_construct(**rules.as_dict()).model_dump_json()


@pytest.mark.parametrize("name", list(TABLE))
def test_the_json_of_a_preset_is_the_models_to_the_byte(name: str) -> None:
    rules = PRESETS[name]
    assert rules.as_json() == pydantic_json(rules)
    assert json.loads(rules.as_json()) == rules.as_dict()


@given(rules_objects(orders=st.sampled_from(["78AKQJT9", "76akqj1098", "7AKQJT98"])))
def test_the_json_of_overridden_rules_is_the_models_to_the_byte(spec: dict[str, object]) -> None:
    rules = get_rules(spec)
    assert rules.as_json() == pydantic_json(rules)


def test_the_json_of_rules_lists_every_field_in_order() -> None:
    rules = get_rules({"preset": "francais", "target": 8, "max_value": None})
    assert rules.as_json() == (
        '{"name":"francais","order":"76AKQJT9","raises":"double","max_value":null,'
        '"cap_at_target":false,"alternate_raises":false,"reste":false,'
        '"reste_refused":"previous","all_tied":"draw","fold_anytime":false,'
        '"redeal":"rest","target":8}'
    )


@pytest.mark.parametrize("name", list(TABLE))
def test_each_rank_beats_every_rank_after_it_in_the_order(name: str) -> None:
    rules = get_rules(name)
    for i, high in enumerate(rules.order):
        assert not rules.beats(high, high)
        for low in rules.order[i + 1 :]:
            assert rules.beats(high, low)
            assert not rules.beats(low, high)


def test_no_name_means_classic() -> None:
    assert get_rules() is PRESETS["classic"]
    assert get_rules({}) == PRESETS["classic"]


def test_an_unknown_preset_is_refused_with_the_known_names() -> None:
    with pytest.raises(RulesError) as caught:
        get_rules("belote")
    message = str(caught.value)
    assert "belote" in message
    for name in TABLE:
        assert name in message
    assert isinstance(caught.value, TruclogError)


def test_a_rules_object_is_its_own_rules() -> None:
    rules = get_rules({"preset": "sackson", "target": 21})
    assert get_rules(rules) is rules


def test_overrides_change_only_the_fields_named() -> None:
    rules = get_rules({"preset": "francais", "max_value": None, "target": 24, "redeal": "none"})
    assert (rules.max_value, rules.target, rules.redeal) == (None, 24, "none")
    base = PRESETS["francais"]
    for field in ("order", "raises", "reste", "all_tied", "fold_anytime", "alternate_raises"):
        assert getattr(rules, field) == getattr(base, field)
    assert rules.describe() == "francais*"
    assert base.describe() == "francais"


def test_a_preset_named_with_no_overrides_is_the_preset() -> None:
    assert get_rules({"preset": "eight-low"}) == PRESETS["eight-low"]


def test_the_order_may_be_written_with_10_and_in_any_case() -> None:
    assert get_rules({"order": "78akqj109"}).order == "78AKQJT9"


@pytest.mark.parametrize(
    "overrides",
    [
        {"order": "78AKQJT7"},
        {"order": "78AKQJT1"},
        {"order": ""},
        {"raises": "triple"},
        {"max_value": 0},
        {"target": 0},
        {"reste_refused": "never"},
        {"all_tied": "dealer"},
        {"redeal": "always"},
        {"trumps": True},
        {"name": "mine"},
    ],
)
def test_bad_overrides_are_refused_with_a_rules_error(overrides: dict[str, object]) -> None:
    with pytest.raises(RulesError):
        get_rules({"preset": "classic", **overrides})


@pytest.mark.parametrize(
    ("overrides", "message"),
    [
        ({"target": 0}, "target: Input should be greater than or equal to 1"),
        ({"trumps": True}, "trumps: Extra inputs are not permitted"),
        ({"order": "78AKQJT7"}, "order: order must list distinct ranks of 6789TJQKA, high to low"),
        (
            {"raises": "triple", "max_value": 0},
            "raises: Input should be 'any' or 'double'; "
            "max_value: Input should be greater than or equal to 1",
        ),
    ],
)
def test_a_bad_override_is_named_with_why(overrides: dict[str, object], message: str) -> None:
    with pytest.raises(RulesError) as caught:
        get_rules(overrides)
    assert str(caught.value) == f"bad rule override: {message}"


def test_overrides_are_read_as_the_model_reads_them() -> None:
    rules = get_rules({"preset": "sackson", "target": "15", "reste": "false"})
    assert (rules.target, rules.reste) == (15, False)


def test_rules_are_frozen() -> None:
    rules = get_rules("classic")
    with pytest.raises(dataclasses.FrozenInstanceError):
        rules.target = 5  # type: ignore[misc]
    assert isinstance(rules, Rules)
    assert hash(rules) == hash(get_rules({"preset": "classic", "target": 12}))
