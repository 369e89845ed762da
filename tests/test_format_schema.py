"""The checked-in JSON Schema: in step with the models, and right about real lines."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import orjson
import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st
from jsonschema import Draft202012Validator
from pydantic import ValidationError

from truclog.cli import main
from truclog.format.events import json_schema, json_schema_text, parse_event

ROOT = Path(__file__).parent.parent
SCHEMA_FILE = ROOT / "schemas" / "truclog-1.schema.json"
SAMPLES = sorted((ROOT / "sample_logs").glob("*.jsonl"))
VALIDATOR = Draft202012Validator(json.loads(SCHEMA_FILE.read_text(encoding="utf-8")))


def test_checked_in_schema_matches_the_models() -> None:
    assert SCHEMA_FILE.read_text(encoding="utf-8") == json_schema_text(), (
        "schemas/truclog-1.schema.json drifted from truclog/format/events.py: "
        "run `truclog schema -o schemas/truclog-1.schema.json`"
    )


def test_schema_is_a_valid_draft_2020_12_schema() -> None:
    Draft202012Validator.check_schema(json_schema())


def test_schema_command_prints_writes_and_checks(tmp_path: Path) -> None:
    runner = CliRunner()
    printed = runner.invoke(main, ["schema"])
    assert printed.exit_code == 0 and printed.output == json_schema_text()
    target = tmp_path / "s.json"
    assert runner.invoke(main, ["schema", "-o", str(target)]).exit_code == 0
    assert target.read_text(encoding="utf-8") == json_schema_text()
    assert runner.invoke(main, ["schema", "--check", "-o", str(target)]).exit_code == 0
    target.write_text("{}", encoding="utf-8")
    stale = runner.invoke(main, ["schema", "--check", "-o", str(target)])
    assert stale.exit_code == 1 and "out of date" in stale.output


@pytest.mark.parametrize("sample", SAMPLES, ids=lambda p: p.name)
def test_schema_accepts_every_line_of_every_sample_log(sample: Path) -> None:
    for number, line in enumerate(sample.read_bytes().splitlines(), start=1):
        errors = [e.message for e in VALIDATOR.iter_errors(orjson.loads(line))]
        assert not errors, f"{sample.name}:{number}: {errors}"


ACCEPT = {"type": "accept", "player": "Ana"}
MALFORMED: list[tuple[str, dict[str, Any]]] = [
    ("wrong type", {"type": "bid", "player": "Ana"}),
    ("no type", {"player": "Ana"}),
    ("missing player", {"type": "accept"}),
    ("missing card", {"type": "play", "player": "Ana"}),
    ("missing format", {"type": "game", "players": ["A", "B"], "dealer": "A"}),
    ("missing winner", {"type": "result", "points": 1, "score": {"A": 1}}),
    ("unknown field", {**ACCEPT, "seat": 1}),
    ("bad card", {"type": "play", "player": "Ana", "card": "1x"}),
    ("unseen card played", {"type": "play", "player": "Ana", "card": "??"}),
    ("bad dealt card", {"type": "deal", "dealer": "A", "cards": {"A": ["7h", "Z", "??"]}}),
    ("two dealt cards", {"type": "deal", "dealer": "A", "cards": {"A": ["7h", "??"]}}),
    ("non-boolean accepted", {"type": "redeal", "player": "Ana", "accepted": "yes"}),
    ("integer accepted", {"type": "redeal", "player": "Ana", "accepted": 1}),
    ("non-integer to", {"type": "raise", "player": "Ana", "to": "3"}),
    ("float to", {"type": "raise", "player": "Ana", "to": 2.5}),
    ("to and reste", {"type": "raise", "player": "Ana", "to": 3, "reste": True}),
    ("neither to nor reste", {"type": "raise", "player": "Ana"}),
    ("reste false", {"type": "raise", "player": "Ana", "reste": False}),
    ("bad timestamp", {**ACCEPT, "t": "yesterday"}),
    ("timestamp without offset", {**ACCEPT, "t": "2026-11-29T20:14:03"}),
    ("wrong format", {"type": "game", "format": "truclog/2", "players": ["A", "B"], "dealer": "A"}),
    (
        "unknown preset",
        {"type": "game", "format": "truclog/1", "players": ["A", "B"], "dealer": "A", "rules": "x"},
    ),
    (
        "unknown override",
        {
            "type": "game",
            "format": "truclog/1",
            "players": ["A", "B"],
            "dealer": "A",
            "rules": {"preset": "classic", "colour": "red"},
        },
    ),
    ("negative points", {"type": "result", "winner": "A", "points": -1, "score": {}}),
    ("string score", {"type": "result", "winner": "A", "points": 1, "score": {"A": "1"}}),
    ("empty show", {"type": "show", "player": "Ana", "cards": []}),
    ("empty mark", {**ACCEPT, "marks": ["bluff?", ""]}),
    ("mark of 41 characters", {**ACCEPT, "marks": ["é" * 41]}),
    ("marks not a list", {**ACCEPT, "marks": "bluff?"}),
    ("mark not a string", {**ACCEPT, "marks": [1]}),
    ("not an object", [1, 2]),  # type: ignore[list-item]
    ("one player", {"type": "game", "format": "truclog/1", "players": ["A"], "dealer": "A"}),
    (
        "three players",
        {"type": "game", "format": "truclog/1", "players": ["A", "B", "C"], "dealer": "A"},
    ),
    (
        "same player twice",
        {"type": "game", "format": "truclog/1", "players": ["A", "A"], "dealer": "A"},
    ),
]


@pytest.mark.parametrize(("why", "line"), MALFORMED, ids=[why for why, _ in MALFORMED])
def test_schema_and_models_both_reject_malformed_lines(why: str, line: dict[str, Any]) -> None:
    assert not VALIDATOR.is_valid(line), why
    with pytest.raises(ValidationError):
        parse_event(line)


def test_schema_allows_extension_fields_only() -> None:
    assert VALIDATOR.is_valid({**ACCEPT, "_seat": 2, "_tags": {"a": [1]}})
    assert VALIDATOR.is_valid({**ACCEPT, "t": "2026-11-29T20:14:03+01:00", "note": "x"})
    assert VALIDATOR.is_valid({"type": "raise", "player": "A", "reste": True})
    assert VALIDATOR.is_valid({**ACCEPT, "marks": ["bluff?", "é" * 40, " "], "note": "x"})
    assert VALIDATOR.is_valid({**ACCEPT, "marks": []})
    assert VALIDATOR.is_valid({**ACCEPT, "marks": None})
    assert VALIDATOR.is_valid({"type": "result", "winner": None, "points": 0, "score": {}})


VALUES = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-3, 30),
    # JSON Schema counts 3.0 as an integer; truclog does not (said in the schema's description)
    st.floats(allow_nan=False, allow_infinity=False).filter(lambda x: not x.is_integer()),
    st.sampled_from(["Ana", "", "7h", "10S", "??", "x", "2026-11-29T20:14:03+01:00", "T"]),
    st.lists(st.sampled_from(["7h", "??", "Q", "1x", 3]), max_size=4),
    st.lists(st.text(max_size=42) | st.sampled_from(["x" * 40, "é" * 41, "review"]), max_size=3),
    st.dictionaries(
        st.sampled_from(["Ana", "Marc", ""]),
        st.integers(-1, 3) | st.lists(st.sampled_from(["7h", "??", "Q"]), max_size=4),
        max_size=2,
    ),
)
FIELDS = st.sampled_from(
    [
        "player",
        "to",
        "reste",
        "accepted",
        "card",
        "cards",
        "dealer",
        "hand",
        "winner",
        "points",
        "score",
        "abandoned",
        "t",
        "note",
        "marks",
        "_x",
        "bogus",
    ]
)
TYPES = st.sampled_from(
    ["deal", "redeal", "raise", "accept", "fold", "play", "show", "result", "game_end"]
)


@settings(max_examples=200, deadline=None)
@given(TYPES, st.dictionaries(FIELDS, VALUES, max_size=5))
def test_schema_and_models_agree_on_any_line_but_game(kind: str, fields: dict[str, Any]) -> None:
    line = {**fields, "type": kind}
    try:
        parse_event(line)
        accepted = True
    except ValidationError:
        accepted = False
    assert VALIDATOR.is_valid(line) == accepted
