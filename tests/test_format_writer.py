"""The canonical writer, durable appends and torn-tail repair."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path
from typing import Any

import orjson
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from truclog.errors import TruclogError
from truclog.format.events import GameEvent, PlayEvent, ResultEvent, parse_event
from truclog.format.reader import read_log
from truclog.format.writer import LogWriter, dumps, repair_torn_tail

SAMPLES = sorted((Path(__file__).parent.parent / "sample_logs").glob("*.jsonl"))


# --- canonical lines ------------------------------------------------------------------


def test_type_first_then_contract_order_then_t_note_extensions() -> None:
    event = parse_event(
        '{"_by": "bot", "note": "n", "t": "2026-11-29T20:14:03+01:00", "card": "7h",'
        ' "player": "Ana", "type": "play"}'
    )
    assert dumps(event) == (
        b'{"type":"play","player":"Ana","card":"7h","t":"2026-11-29T20:14:03+01:00",'
        b'"note":"n","_by":"bot"}\n'
    )


def test_marks_come_after_the_note_and_before_the_extensions() -> None:
    event = parse_event(
        '{"_by": "bot", "marks": ["review", "bluff?"], "note": "n", "card": "7h",'
        ' "player": "Ana", "type": "play"}'
    )
    assert event.marks == ["review", "bluff?"]
    assert dumps(event) == (
        b'{"type":"play","player":"Ana","card":"7h","note":"n","marks":["review","bluff?"],'
        b'"_by":"bot"}\n'
    )


def test_game_fields_follow_the_contract_order() -> None:
    event = GameEvent(
        teams={"nous": ["Ana", "Lu"], "eux": ["Marc", "Zoé"]},
        tags={"k": "v"},
        source="tabletop",
        match="m",
        score={"nous": 1},
        date="2026-11-29",
        id="g",
        rules={"target": 8, "preset": "francais"},  # type: ignore[arg-type]
        dealer="Ana",
        players=["Ana", "Marc", "Lu", "Zoé"],
        format="truclog/1",
    )
    keys = list(orjson.loads(dumps(event)))
    assert keys == [
        "type", "format", "players", "dealer", "rules", "id", "date", "score", "match",
        "source", "tags", "teams",
    ]  # fmt: skip
    assert orjson.loads(dumps(event))["rules"] == {"preset": "francais", "target": 8}


def test_only_given_fields_are_written_and_a_null_winner_is_kept() -> None:
    assert dumps(PlayEvent(player="Ana", card="10S")) == (
        b'{"type":"play","player":"Ana","card":"Ts"}\n'
    )
    drawn = ResultEvent(winner=None, points=0, score={"Ana": 3, "Marc": 4})
    assert (
        dumps(drawn) == b'{"type":"result","winner":null,"points":0,"score":{"Ana":3,"Marc":4}}\n'
    )


def test_output_is_compact_utf8_without_ascii_escapes() -> None:
    line = dumps(parse_event({"type": "fold", "player": "Zoé", "note": "« mon reste » 🃏"}))
    assert line == '{"type":"fold","player":"Zoé","note":"« mon reste » 🃏"}\n'.encode()


def test_huge_integers_are_still_written() -> None:
    event = parse_event({"type": "raise", "player": "A", "to": 10**30})
    assert dumps(event) == b'{"type":"raise","player":"A","to":' + str(10**30).encode() + b"}\n"


# --- round trips --------------------------------------------------------------------


@pytest.mark.parametrize("sample", SAMPLES, ids=lambda p: p.name)
def test_sample_logs_are_canonical_and_round_trip_byte_for_byte(sample: Path) -> None:
    data = sample.read_bytes()
    rewritten = b"".join(dumps(line.event) for line in read_log(sample) if line.event)
    assert rewritten == data


names = st.text(st.characters(blacklist_categories=("Cs",)), min_size=1, max_size=6)
cards = st.builds(
    lambda rank, suit: rank + suit,
    st.sampled_from(["6", "7", "8", "9", "10", "t", "T", "j", "Q", "k", "A"]),
    st.sampled_from(["", "c", "D", "h", "S"]),
)
dealt = st.one_of(cards, st.just("??"))
stamps = st.sampled_from(["2026-11-29T20:14:03+01:00", "2026-01-02T03:04:05.678Z"])
json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=5),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=3), inner, max_size=3)
    ),
    max_leaves=6,
)


def common() -> st.SearchStrategy[dict[str, Any]]:
    return st.fixed_dictionaries(
        {},
        optional={
            "t": stamps,
            "note": st.text(st.characters(blacklist_categories=("Cs",)), max_size=10),
            "marks": st.lists(
                st.text(st.characters(blacklist_categories=("Cs",)), min_size=1, max_size=40),
                max_size=3,
            ),
            "_ext": json_values,
        },
    )


def event_dicts() -> st.SearchStrategy[dict[str, Any]]:
    player = {"player": names}
    kinds = [
        st.fixed_dictionaries(
            {"type": st.just("deal"), "dealer": names},
            optional={
                "cards": st.dictionaries(names, st.lists(dealt, min_size=3, max_size=3)),
                "hand": st.integers(1, 40),
            },
        ),
        st.fixed_dictionaries({"type": st.just("redeal"), **player, "accepted": st.booleans()}),
        st.fixed_dictionaries({"type": st.just("raise"), **player, "to": st.integers(-5, 99)}),
        st.fixed_dictionaries({"type": st.just("raise"), **player, "reste": st.just(True)}),
        st.fixed_dictionaries({"type": st.just("accept"), **player}),
        st.fixed_dictionaries({"type": st.just("fold"), **player}),
        st.fixed_dictionaries({"type": st.just("play"), **player, "card": cards}),
        st.fixed_dictionaries(
            {"type": st.just("show"), **player, "cards": st.lists(cards, min_size=1, max_size=3)}
        ),
        st.fixed_dictionaries(
            {
                "type": st.just("result"),
                "winner": st.none() | names,
                "points": st.integers(0, 24),
                "score": st.dictionaries(names, st.integers(0, 30), max_size=2),
            }
        ),
        st.fixed_dictionaries(
            {"type": st.just("game_end")},
            optional={
                "winner": st.none() | names,
                "score": st.dictionaries(names, st.integers(0, 30), max_size=2),
                "abandoned": st.booleans(),
            },
        ),
        st.fixed_dictionaries(
            {
                "type": st.just("game"),
                "format": st.just("truclog/1"),
                "players": st.just(["Ana", "Marc"]),
                "dealer": st.sampled_from(["Ana", "Marc"]),
            },
            optional={
                "rules": st.sampled_from(["classic", "sackson"])
                | st.fixed_dictionaries(
                    {"preset": st.just("francais")},
                    optional={"target": st.integers(1, 20), "max_value": st.none()},
                ),
                "id": names,
                "date": st.just("2026-11-29"),
                "score": st.fixed_dictionaries({}, optional={"Ana": st.integers(0, 11)}),
                "match": names,
                "source": names,
                "tags": st.dictionaries(names, names, max_size=2),
            },
        ),
    ]
    return st.builds(lambda kind, extra: {**extra, **kind}, st.one_of(kinds), common())


@settings(max_examples=200, deadline=None)
@given(event_dicts())
def test_any_event_round_trips_through_its_canonical_line(data: dict[str, Any]) -> None:
    event = parse_event(data)
    line = dumps(event)
    again = parse_event(line)
    assert again == event
    assert dumps(again) == line
    assert line.endswith(b"\n") and line.count(b"\n") == 1
    written = orjson.loads(line)
    assert next(iter(written)) == "type"
    assert set(written) == set(data)


# --- durable appends ---------------------------------------------------------------------


def test_log_writer_appends_whole_lines_and_fsyncs_each(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "live.truclog.jsonl"
    path.write_bytes(b'{"type":"accept","player":"Ana"}\n')
    synced: list[bytes] = []
    real_fsync = os.fsync
    monkeypatch.setattr(os, "fsync", lambda fd: (synced.append(path.read_bytes()), real_fsync(fd)))
    with LogWriter(path) as log:
        log.write(PlayEvent(player="Ana", card="7h"))
        log.write(PlayEvent(player="Marc", card="as"))
    lines = path.read_bytes().splitlines()
    assert lines[1:] == [
        b'{"type":"play","player":"Ana","card":"7h"}',
        b'{"type":"play","player":"Marc","card":"As"}',
    ]
    assert len(synced) == 2 and synced[0].count(b"\n") == 2


def test_log_writer_creates_the_file(tmp_path: Path) -> None:
    path = tmp_path / "new.jsonl"
    log = LogWriter(path)
    log.write(PlayEvent(player="Ana", card="7h"))
    log.close()
    assert [line.event for line in read_log(path)] == [PlayEvent(player="Ana", card="7h")]
    with pytest.raises(TruclogError):
        log.write(PlayEvent(player="Ana", card="8h"))


def test_log_writer_refuses_a_file_with_a_torn_last_line(tmp_path: Path) -> None:
    path = tmp_path / "torn.jsonl"
    path.write_bytes(b'{"type":"accept","player":"Ana"}\n{"type":"pl')
    with pytest.raises(TruclogError) as caught:
        LogWriter(path)
    assert "cut short" in caught.value.message


# --- torn tails ---------------------------------------------------------------------------


def test_repair_cuts_a_torn_last_line_and_keeps_it_in_torn(tmp_path: Path) -> None:
    path = tmp_path / "crash.jsonl"
    whole = b'{"type":"accept","player":"Ana"}\n'
    path.write_bytes(whole + b'{"type":"play","player":"Ma')
    assert repair_torn_tail(path) == b'{"type":"play","player":"Ma'
    assert path.read_bytes() == whole
    assert Path(f"{path}.torn").read_bytes() == b'{"type":"play","player":"Ma\n'
    assert repair_torn_tail(path) is None
    with LogWriter(path) as log:
        log.write(PlayEvent(player="Ana", card="7h"))
    assert all(line.event for line in read_log(path))


def test_repair_keeps_what_earlier_repairs_saved(tmp_path: Path) -> None:
    path = tmp_path / "crash.jsonl"
    path.write_bytes(b"{")
    repair_torn_tail(path)
    path.write_bytes(b'{"type"')
    repair_torn_tail(path)
    assert path.read_bytes() == b""
    assert Path(f"{path}.torn").read_bytes() == b'{\n{"type"\n'


def test_repair_leaves_an_intact_file_alone(tmp_path: Path) -> None:
    path = tmp_path / "ok.jsonl"
    for data in (b"", b'{"type":"accept","player":"Ana"}\n'):
        path.write_bytes(data)
        assert repair_torn_tail(path) is None
        assert path.read_bytes() == data
    assert not Path(f"{path}.torn").exists()


def test_repair_completes_a_whole_event_that_only_lacks_its_newline(tmp_path: Path) -> None:
    path = tmp_path / "edited.jsonl"
    path.write_bytes(b'{"type":"accept","player":"Ana"}\n{"type":"fold","player":"Marc"}')
    assert repair_torn_tail(path) is None
    assert path.read_bytes().endswith(b'{"type":"fold","player":"Marc"}\n')
    assert not Path(f"{path}.torn").exists()


def test_repair_finds_the_line_start_in_a_long_tail(tmp_path: Path) -> None:
    path = tmp_path / "long.jsonl"
    head = b'{"type":"accept","player":"Ana"}\n'
    tail = b'{"type":"fold","note":"' + b"x" * 200_000
    path.write_bytes(head + tail)
    assert repair_torn_tail(path) == tail
    assert path.read_bytes() == head


def test_repair_of_a_missing_file_is_nothing(tmp_path: Path) -> None:
    assert repair_torn_tail(tmp_path / "none.jsonl") is None
    assert not (tmp_path / "none.jsonl").exists()


CHILD = """
import sys
from truclog.format.events import PlayEvent
from truclog.format.writer import LogWriter
with LogWriter(sys.argv[1]) as log:
    for i in range(100000):
        log.write(PlayEvent(player="Ana", card="7h", note=str(i)))
        print(i, flush=True)
"""


def test_every_acknowledged_event_survives_a_kill(tmp_path: Path) -> None:
    path = tmp_path / "killed.jsonl"
    child = subprocess.Popen(
        [sys.executable, "-c", CHILD, str(path)], stdout=subprocess.PIPE, text=True
    )
    assert child.stdout is not None
    acked = [int(child.stdout.readline()) for _ in range(50)]
    child.send_signal(signal.SIGKILL)
    child.wait()
    repair_torn_tail(path)
    notes = [line.event.note for line in read_log(path) if line.event]
    assert all(line.problem is None for line in read_log(path))
    assert notes[: len(acked)] == [str(i) for i in acked]
