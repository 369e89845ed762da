"""The reader parses a line shape once: a line read again but for its ``t`` must read the same.

The reference is the models themselves: whatever the cache does, every line must
give the event (or the problem code) that validating it on its own gives.
"""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic import ValidationError
from test_format_writer import dealt, event_dicts, names

from truclog.format import reader
from truclog.format.events import EVENT_ADAPTER, event_to_action
from truclog.format.reader import LogLine, read_stream
from truclog.format.shapes import Shapes
from truclog.validate import CheckedGame, check_log

STAMP = "2026-11-29T20:14:03+01:00"


def read(*lines: bytes) -> list[LogLine]:
    return list(read_stream(io.BytesIO(b"".join(line + b"\n" for line in lines)), "x"))


def alone(line: bytes) -> object:
    """What validating the line on its own gives: its event, or 'problem'."""
    try:
        return EVENT_ADAPTER.validate_json(line)
    except ValidationError:
        return "problem"


def seen(line: LogLine) -> object:
    return line.event if line.problem is None else "problem"


def with_t(data: dict[str, Any], t: str) -> bytes:
    return json.dumps({**data, "t": t}, ensure_ascii=False, separators=(",", ":")).encode()


def test_a_line_read_again_keeps_its_own_time() -> None:
    first, second = read(
        b'{"type":"play","player":"Ana","card":"7h","t":"2026-11-29T20:14:03+01:00"}',
        b'{"type":"play","player":"Ana","card":"7h","t":"2026-11-29T20:15:09Z"}',
    )
    assert first.t == "2026-11-29T20:14:03+01:00"
    assert second.t == "2026-11-29T20:15:09Z"
    assert second.event is not None and second.event.t == "2026-11-29T20:15:09Z"
    assert second.action == first.action


def test_a_bad_time_in_a_known_shape_is_still_a_problem() -> None:
    good = b'{"type":"fold","player":"Ana","t":"2026-11-29T20:14:03+01:00"}'
    for bad in (b"2026-13-29T20:14:03+01:00", b"", b"yesterday", b"2026-11-29T20:14:03"):
        _, line = read(good, good.replace(b"2026-11-29T20:14:03+01:00", bad))
        assert line.problem is not None and line.problem.code == "E003", bad


def test_an_escaped_time_is_read_as_the_models_read_it() -> None:
    good = b'{"type":"fold","player":"Ana","t":"2026-11-29T20:14:03+01:00"}'
    escaped = b'{"type":"fold","player":"Ana","t":"2026-11-29T20:14:03\\u002b01:00"}'
    _, line = read(good, escaped)
    assert line.event is not None and line.t == "2026-11-29T20:14:03+01:00"


def test_a_time_inside_an_extension_is_not_taken_for_the_lines_own() -> None:
    a = b'{"type":"fold","player":"Ana","t":"2026-11-29T20:14:03Z","_x":{"t":"2026-01-01T00:00:00Z"}}'
    b = b'{"type":"fold","player":"Ana","t":"2026-11-29T20:14:03Z","_x":{"t":"2026-02-02T00:00:00Z"}}'
    first, second = read(a, b)
    assert first.event is not None and second.event is not None
    assert second.event.extensions == {"_x": {"t": "2026-02-02T00:00:00Z"}}
    assert second.t == "2026-11-29T20:14:03Z"


def test_numbers_orjson_cannot_hold_are_read_without_a_crash() -> None:
    for number in (b"1e999", b"-9223372036854775809", b"123456789012345678901234567890"):
        line = b'{"type":"fold","player":"Ana","_x":' + number + b"}"
        (got,) = read(line)
        assert seen(got) == alone(line)


times = st.sampled_from(
    [STAMP, "2026-01-02T03:04:05.678Z", "2026-02-30T00:00:00Z", "2026-11-29 20:14:03Z", "", "x"]
)


@settings(max_examples=300, deadline=None)
@given(event_dicts(), times, times)
def test_every_line_reads_as_the_models_read_it_alone(
    data: dict[str, Any], first: str, second: str
) -> None:
    lines = [with_t(data, first), with_t(data, second), with_t(data, first)]
    for line, got in zip(lines, read(*lines), strict=True):
        assert seen(got) == alone(line)
        if got.event is not None:
            assert got.t == got.event.t


hands = st.dictionaries(
    names,
    st.lists(dealt | st.sampled_from(["x", "", "7hh", 7]), min_size=2, max_size=4),
    max_size=3,
)


@settings(max_examples=300, deadline=None)
@given(event_dicts(), hands, hands, times)
def test_a_deal_read_again_with_other_cards_reads_as_the_models_read_it(
    data: dict[str, Any], first: Any, second: Any, t: str
) -> None:
    deal = {"type": "deal", "dealer": "Marc", "hand": 2, **data, "t": STAMP}
    deal["type"] = "deal"
    lines = [with_t({**deal, "cards": first}, STAMP), with_t({**deal, "cards": second}, t)]
    for line, got in zip(lines, read(*lines), strict=True):
        assert seen(got) == alone(line)
        if got.event is not None:
            assert got.action == event_to_action(got.event)


def test_deal_lines_with_other_cards_give_their_own_cards_and_actions() -> None:
    a = b'{"type":"deal","dealer":"Marc","cards":{"Ana":["Ad","Kc","Jc"],"Marc":["7d","7h","Th"]},"hand":1,"t":"2026-01-02T20:00:57+01:00"}'
    b = b'{"type":"deal","dealer":"Marc","cards":{"Ana":["7d","10c","q"],"Marc":["??","Ah","8S"]},"hand":1,"t":"2026-01-02T20:09:00+01:00"}'
    c = b'{"type":"deal","dealer":"Marc","cards":{"Ana":["q","Ad","8S"],"Marc":["10c","??","Kc"]},"hand":1,"t":"2026-01-02T20:19:00+01:00"}'
    _, second, third = read(a, b, c)
    assert second.event is not None and third.event is not None
    assert second.event.cards == {"Ana": ["7d", "Tc", "Q"], "Marc": ["??", "Ah", "8s"]}
    assert third.event.cards == {"Ana": ["Q", "Ad", "8s"], "Marc": ["Tc", "??", "Kc"]}
    for line, got in ((b, second), (c, third)):
        assert got.event == EVENT_ADAPTER.validate_json(line)
        assert got.action == event_to_action(got.event)


SAMPLES = sorted(Path(__file__).resolve().parent.parent.joinpath("sample_logs").rglob("*.jsonl"))


def checked(path: Path) -> list[str]:
    found = []
    for item in check_log(str(path)):
        if isinstance(item, CheckedGame):
            found.append(f"{item.id} {item.score} {item.fingerprint} {len(item.hands)}")
            found.extend(f"{d.line} {d.code} {d.message}" for d in item.diagnostics)
        else:
            found.append(f"{item.line} {item.code} {item.message}")
    return found


@pytest.mark.parametrize("path", SAMPLES, ids=lambda p: p.name)
def test_a_log_validates_the_same_whatever_shapes_are_known(
    path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(reader, "_SHAPES", Shapes())
    cold = checked(path)
    assert checked(path) == cold
    monkeypatch.setattr(reader, "_SHAPES", Shapes(limit=0))  # every line parsed by the models
    assert checked(path) == cold
    monkeypatch.setattr(reader, "_SHAPES", Shapes(limit=3))  # full, and starting again, often
    assert checked(path) == cold
