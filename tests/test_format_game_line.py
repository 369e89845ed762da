"""A ``game`` line written plainly is read without the models, exactly as they read it.

The reader takes a short cut for game lines (:func:`truclog.format.reader.plain_game`): it
must accept only lines the models accept, and give a header with the same values and
the same event, field for field (the fields set, the rules, the extensions); any other
line goes to the models.
"""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic import ValidationError

from truclog.format.events import EVENT_ADAPTER, GameEvent
from truclog.format.header import GAME_FIELDS, PlainHeader
from truclog.format.reader import LARGEST_NUMBER, plain_game, read_log, read_stream

SAMPLES = Path(__file__).resolve().parent.parent / "sample_logs"
NAMES = ["Ana", "Marc", "Lu", "Zoé", "", "Ana+Lu", "Marc+Zoé"]
TIMES = [
    "2026-11-29T20:14:03+01:00",
    "2026-11-29T19:14:03Z",
    "2026-11-29 20:14",
    "2026-02-30T10:00:00Z",
]

ANY = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-3, 3),
    st.just(LARGEST_NUMBER + 1),
    st.just(1.5),
    st.sampled_from(NAMES),
    st.just([]),
    st.just({}),
)


def mostly(valid: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
    """``valid`` nine times in ten, else anything (right or wrong)."""
    return st.integers(0, 9).flatmap(lambda i: valid if i else ANY)


PLAYERS = st.sampled_from(["Ana", "Marc", "Lu", "Zoé"])
REQUIRED: dict[str, st.SearchStrategy[Any]] = {
    "type": mostly(st.just("game")),
    "format": mostly(st.just("truclog/1")),
    "players": mostly(
        st.one_of(
            st.lists(PLAYERS, min_size=2, max_size=2, unique=True),
            st.lists(PLAYERS, min_size=4, max_size=4, unique=True),
            st.lists(st.sampled_from(NAMES), max_size=5),
        )
    ),
    "dealer": mostly(PLAYERS),
}
VALUES: dict[str, st.SearchStrategy[Any]] = {
    "rules": mostly(st.sampled_from(["classic", "sackson", "francais", None])),
    "id": mostly(st.text(max_size=4)),
    "date": mostly(st.just("2026-11-29")),
    "score": mostly(
        st.dictionaries(
            st.sampled_from(["Ana", "Marc", "Lu", "Ana", "Marc", *NAMES]),
            mostly(st.sampled_from([0, 7, LARGEST_NUMBER])),
            max_size=3,
        )
    ),
    "match": mostly(st.just("m1")),
    "source": mostly(st.just("tabletop")),
    "tags": mostly(st.dictionaries(st.sampled_from(["place", "by"]), mostly(st.text(max_size=3)))),
    "teams": st.just({"Us": ["Ana", "Lu"], "Them": ["Marc", "Zoé"]}),
    "t": mostly(st.sampled_from(TIMES)),
    "note": mostly(st.just("a note")),
}
ODD: dict[str, st.SearchStrategy[Any]] = {
    "teams": VALUES.pop("teams"),
    "rules": st.sampled_from(["nope", {"preset": "classic"}, {"preset": "sackson", "target": 8}]),
    "score": st.fixed_dictionaries({"Ana": st.sampled_from([-1, LARGEST_NUMBER + 1, True, 2.0])}),
    "_seat": ANY,
    "seat": ANY,
}


@st.composite
def lines(draw: st.DrawFn) -> dict[str, Any]:
    """A game line's fields, mostly right; its dealer mostly one of its players."""
    odd = draw(st.sampled_from([{}, {}, ODD]))
    fields = draw(st.fixed_dictionaries(REQUIRED, optional={**VALUES, **odd}))
    players = fields["players"]
    if isinstance(players, list) and players and draw(st.booleans()):
        fields["dealer"] = draw(st.sampled_from(players))
    return fields


LINES = lines()


def models(body: bytes) -> Any:
    try:
        return EVENT_ADAPTER.validate_json(body)
    except ValidationError:
        return None


def assert_same(header: PlainHeader, slow: Any) -> None:
    assert isinstance(slow, GameEvent)
    for name in ("type", *GAME_FIELDS, "t", "note"):
        assert getattr(header, name) == getattr(slow, name), name
    assert header.rules_obj is slow.rules_obj
    fast = header.event()
    assert fast == slow
    assert fast.model_fields_set == slow.model_fields_set
    assert fast.model_dump(exclude_unset=True) == slow.model_dump(exclude_unset=True)
    assert fast.rules_obj is slow.rules_obj
    assert fast.extensions == slow.extensions and fast.sides == slow.sides


@settings(max_examples=800, deadline=None)
@given(LINES, st.booleans())
def test_the_short_cut_reads_a_game_line_as_the_models_do_or_not_at_all(
    fields: dict[str, Any], spaced: bool
) -> None:
    body = json.dumps(fields, ensure_ascii=False, separators=(", ", ": ") if spaced else (",", ":"))
    fast = plain_game(body.encode())
    slow = models(body.encode())
    if fast is not None:
        assert_same(fast[0], slow)
        assert fast[1] == json.loads(body)


@settings(max_examples=300, deadline=None)
@given(
    st.lists(st.sampled_from(["Ana", "Marc", "Lu", "Zoé"]), min_size=2, max_size=2, unique=True),
    st.sampled_from(["classic", "gamerules", "sackson", None]),
    st.dictionaries(
        st.sampled_from(["id", "date", "match", "source", "note"]), st.text(max_size=5)
    ),
    st.integers(0, LARGEST_NUMBER),
)
def test_a_plain_game_line_takes_the_short_cut(
    players: list[str], rules: str | None, texts: dict[str, str], points: int
) -> None:
    fields: dict[str, Any] = {"type": "game", "format": "truclog/1", "players": players}
    fields.update(dealer=players[1], rules=rules, score={players[0]: points}, **texts)
    body = json.dumps(fields, ensure_ascii=False).encode()
    fast = plain_game(body)
    assert fast is not None
    assert_same(fast[0], models(body))


def test_the_game_lines_of_the_sample_logs_are_read_as_the_models_read_them() -> None:
    shortcut = 0
    for path in sorted(SAMPLES.glob("*.jsonl")):
        for line in read_log(path):
            if line.type == "game":
                fast = plain_game(line.raw)
                if fast is not None:
                    shortcut += 1
                    assert_same(fast[0], models(line.raw))
                    assert line.parsed == fast[0].event()
    assert shortcut >= 6  # every two-player game (four-player games name their teams)


def test_a_number_past_the_largest_goes_to_the_models_for_e007() -> None:
    body = (
        b'{"type":"game","format":"truclog/1","players":["Ana","Marc"],"dealer":"Ana",'
        b'"score":{"Ana":%d}}\n' % (LARGEST_NUMBER + 1)
    )
    assert plain_game(body.strip()) is None
    (line,) = read_stream(io.BytesIO(body), "x.jsonl")
    assert line.problem is not None and line.problem.code == "E007"


def test_the_model_accepts_the_one_format_name_the_writers_use() -> None:
    """The game line's model takes exactly ``header.FORMAT``, the name every writer puts
    on a game line (a ``Literal`` type cannot name the constant itself)."""
    from typing import get_args

    from truclog.format.events import GameEvent
    from truclog.format.header import FORMAT

    assert get_args(GameEvent.model_fields["format"].annotation) == (FORMAT,)
