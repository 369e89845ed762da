"""Logs for the quick validation core's differential tests (tests/test_quick.py).

A log here is a list of raw lines, each with its own line end (``b"\\n"``,
``b"\\r\\n"`` or none for a last line cut short), so that line ends, a BOM and
torn lines can be written exactly. :data:`MUTATIONS` changes a log the ways a
log met in the wild differs from what the writer emits: broken ones (a line
lost, a wrong card, a number past 64 bits...) and legal ones spelled unusually
(keys in another order, spaces, escapes, extensions, rank-only cards...). Each
takes the log and a :class:`random.Random` and returns a new log.

>>> log = [b'{"type":"fold","player":"Ana"}\\n']
>>> spaced(log, Random(0))
[b'{"type": "fold", "player": "Ana"}\\n']
>>> encode(Pairs([("card", "7h"), ("card", Raw(b"2.0"))]))
b'{"card":"7h","card":2.0}'
>>> encode({"player": "Zoé"}, escape=True)
b'{"player":"Zo\\\\u00e9"}'
"""

from __future__ import annotations

import itertools
import json
from collections.abc import Callable
from random import Random
from typing import Any

import orjson

from truclog.format.writer import dumps
from truclog.simulate.run import Simulation, simulate

Log = list[bytes]
Mutation = Callable[[Log, Random], Log]

RANKS = "6789TJQKA"
SUITS = "cdhs"
CARDS = [rank + suit for rank in RANKS for suit in SUITS]
BOM = b"\xef\xbb\xbf"


class Raw:
    """A JSON fragment written as it is (``2.0``, ``1e999``, a huge integer)."""

    def __init__(self, text: bytes) -> None:
        self.text = text

    def __repr__(self) -> str:
        return f"Raw({self.text!r})"


class Pairs(list[tuple[str, Any]]):
    """An object written with its keys in this order, a key possibly twice."""


def encode(
    value: Any, *, colon: bytes = b":", comma: bytes = b",", escape: bool | Random = False
) -> bytes:
    """``value`` as JSON, with these separators; with ``escape``, non-ASCII text as
    ``\\u`` escapes, or (given a :class:`Random`) any character of a string at random."""
    if isinstance(value, Raw):
        return value.text
    if isinstance(value, dict):
        value = Pairs(value.items())
    if isinstance(value, Pairs):
        return (
            b"{"
            + comma.join(
                encode(k, escape=escape)
                + colon
                + encode(v, colon=colon, comma=comma, escape=escape)
                for k, v in value
            )
            + b"}"
        )
    if isinstance(value, list):
        return (
            b"["
            + comma.join(encode(v, colon=colon, comma=comma, escape=escape) for v in value)
            + b"]"
        )
    if isinstance(value, str) and isinstance(escape, Random):
        return b'"' + "".join(spell(c, escape) for c in value).encode() + b'"'
    if isinstance(value, str) and escape:
        return json.dumps(value, ensure_ascii=True).encode()
    return orjson.dumps(value)


SHORT_ESCAPES = {
    '"': '\\"',
    "\\": "\\\\",
    "/": "\\/",
    "\b": "\\b",
    "\f": "\\f",
    "\n": "\\n",
    "\r": "\\r",
    "\t": "\\t",
}


def spell(char: str, rnd: Random) -> str:
    """One character of a JSON string, escaped or not at random (escaped when it must be).

    >>> spell('"', Random(1)) in ('\\\\"', '\\\\u0022')
    True
    """
    must = char in '"\\' or char < " "
    if not must and rnd.random() < 0.6:
        return char
    if char in SHORT_ESCAPES and rnd.random() < 0.5:
        return SHORT_ESCAPES[char]
    units = char.encode("utf-16-be")
    hexes = (f"{units[i]:02x}{units[i + 1]:02x}" for i in range(0, len(units), 2))
    return "".join("\\u" + (h.upper() if rnd.random() < 0.3 else h) for h in hexes)


def split(raw: bytes) -> tuple[bytes, bytes]:
    """A raw line's body and its line end."""
    for end in (b"\r\n", b"\n"):
        if raw.endswith(end):
            return raw[: -len(end)], end
    return raw, b""


def parsed(raw: bytes) -> dict[str, Any] | None:
    """A raw line as an object, or ``None`` when it is not one."""
    body, _ = split(raw)
    try:
        data = orjson.loads(body.removeprefix(BOM))
    except orjson.JSONDecodeError:
        return None
    return data if isinstance(data, dict) else None


def rewrite(raw: bytes, data: Any, **style: Any) -> bytes:
    """The line ``raw`` with ``data`` as its body, keeping its line end (and a BOM)."""
    body, end = split(raw)
    bom = BOM if body.startswith(BOM) else b""
    return bom + encode(data, **style) + end


def of_type(log: Log, *types: str, having: str | None = None) -> list[int]:
    """Indexes of the lines that are objects of one of ``types`` (any type if none)."""
    found = []
    for i, raw in enumerate(log):
        data = parsed(raw)
        if data is None or (types and data.get("type") not in types):
            continue
        if having is None or having in data:
            found.append(i)
    return found


def edit(
    log: Log,
    rnd: Random,
    types: tuple[str, ...],
    change: Callable[[dict[str, Any], Random], Any],
    having: str | None = None,
) -> Log:
    """Change one line of one of ``types`` (chosen at random): ``change`` returns its new body."""
    places = of_type(log, *types, having=having)
    if not places:
        return log
    i = rnd.choice(places)
    data = parsed(log[i])
    assert data is not None
    try:
        body = change(data, rnd)
    except (TypeError, AttributeError, KeyError, IndexError, ValueError):
        return log  # a field of another kind (after an earlier mutation): left alone
    out = list(log)
    out[i] = rewrite(log[i], body)
    return out


def players_of(log: Log) -> list[str]:
    names = [p for i in of_type(log, "game") for p in (parsed(log[i]) or {}).get("players", [])]
    return names or ["Ana", "Marc"]


def games_of(log: Log) -> list[tuple[int, int]]:
    """Where each game is: (first line index, index past its last line)."""
    starts = of_type(log, "game")
    return list(zip(starts, [*starts[1:], len(log)][: len(starts)], strict=True))


# Lines lost, repeated, moved, cut or added.


def delete_line(log: Log, rnd: Random) -> Log:
    i = rnd.randrange(len(log))
    return log[:i] + log[i + 1 :]


def duplicate_line(log: Log, rnd: Random) -> Log:
    i = rnd.randrange(len(log))
    return [*log[: i + 1], _whole(log[i]), *log[i + 1 :]]


def swap_lines(log: Log, rnd: Random) -> Log:
    i = rnd.randrange(len(log))
    j = min(len(log) - 1, i + rnd.choice([1, 1, 2, 5]))
    out = list(log)
    out[i], out[j] = _whole(log[j]), _whole(log[i])
    return out


def _whole(raw: bytes) -> bytes:
    return raw if split(raw)[1] else raw + b"\n"


def truncate_last(log: Log, rnd: Random) -> Log:
    body, _ = split(log[-1])
    return [*log[:-1], body[: rnd.randrange(1, max(2, len(body)))]]


def no_final_newline(log: Log, rnd: Random) -> Log:
    return [*log[:-1], split(log[-1])[0]]


GARBAGE = [
    b"garbage\n",
    b"\xff\xfe\x00\n",
    b"[1, 2]\n",
    b"{}\n",
    b"null\n",
    b'"play"\n',
    b"3\n",
    b'{"type":"nope"}\n',
    b'{"type":"play","player":"Ana"\n',
    b'{"type":"play","player":"Ana","card":"7h"}}\n',
    b'{"type":"play","player":"Ana","card":"7h"} x\n',
    b"[" * 600 + b"]" * 600 + b"\n",
    b'{"type":"accept","player":"Ana"}{"type":"accept","player":"Ana"}\n',
    b'{"type":"game"}\n',
    b"\x00\n",
]


def append_garbage(log: Log, rnd: Random) -> Log:
    junk = rnd.choice([*GARBAGE, rnd.randbytes(rnd.randrange(1, 40)).replace(b"\n", b"") + b"\n"])
    return [*map(_whole, log), junk]


def insert_garbage(log: Log, rnd: Random) -> Log:
    i = rnd.randrange(len(log) + 1)
    return [*log[:i], rnd.choice(GARBAGE), *log[i:]]


def blank_lines(log: Log, rnd: Random) -> Log:
    out = list(log)
    for _ in range(rnd.randrange(1, 4)):
        out.insert(rnd.randrange(len(out)), rnd.choice([b"\n", b"   \n", b"\r\n", b"\t \n"]))
    return out


def crlf(log: Log, rnd: Random) -> Log:
    every = rnd.random() < 0.5
    return [
        split(raw)[0] + b"\r\n" if split(raw)[1] and (every or rnd.random() < 0.3) else raw
        for raw in log
    ]


def bom(log: Log, rnd: Random) -> Log:
    return [BOM + log[0], *log[1:]]


def bom_inside(log: Log, rnd: Random) -> Log:
    i = rnd.randrange(1, len(log)) if len(log) > 1 else 0
    return [*log[:i], BOM + log[i], *log[i + 1 :]]


def padded(log: Log, rnd: Random) -> Log:
    i = rnd.randrange(len(log))
    body, end = split(log[i])
    out = list(log)
    out[i] = b" \t" + body + b"  " + end
    return out


def early_game_end(log: Log, rnd: Random) -> Log:
    names = players_of(log)
    claim: dict[str, Any] = {"type": "game_end"}
    kind = rnd.randrange(4)
    if kind == 0:
        claim["abandoned"] = True
    elif kind == 1:
        claim["winner"] = rnd.choice(names)
    elif kind == 2:
        scores = [parsed(log[i]) or {} for i in of_type(log, "result", having="score")]
        claim["score"] = scores[-1]["score"] if scores else {n: 0 for n in names}
    i = rnd.randrange(1, len(log) + 1)
    return [*map(_whole, log[:i]), encode(claim) + b"\n", *log[i:]]


def copy_game(log: Log, rnd: Random) -> Log:
    start, stop = rnd.choice(games_of(log) or [(0, len(log))])
    copy = [_whole(raw) for raw in log[start:stop]]
    if rnd.random() < 0.5:
        copy = [_retimed(raw) for raw in copy]
    where = rnd.choice([stop, len(log)])
    return [*map(_whole, log[:where]), *copy, *log[where:]]


def _retimed(raw: bytes) -> bytes:
    """The same line at another time, with a note: a copy all the same."""
    data = parsed(raw)
    if data is None or not isinstance(data.get("t"), str):
        return raw
    data["t"] = data["t"].replace("20", "21", 1)
    data["note"] = "copied"
    return rewrite(raw, data)


# Fields changed to other values, right or wrong.


def change_card(log: Log, rnd: Random) -> Log:
    def change(data: dict[str, Any], rnd: Random) -> Any:
        if data["type"] == "play":
            data["card"] = rnd.choice([*CARDS, "??", "5h", "X", "", "7hh", "Ah "])
        else:
            hand = data["cards"][rnd.choice(list(data["cards"]))]
            if hand:
                hand[rnd.randrange(len(hand))] = rnd.choice(CARDS)
        return data

    return edit(log, rnd, ("play", "deal"), change, having="cards" if rnd.random() < 0.3 else None)


def cards_named(data: dict[str, Any]) -> list[str]:
    """The cards a line names (a deal's, a play's, a show's)."""
    cards = data.get("cards")
    if isinstance(cards, dict):
        return [c for hand in cards.values() if isinstance(hand, list) for c in hand]
    return [
        *(cards if isinstance(cards, list) else []),
        *([data["card"]] if "card" in data else []),
    ]


def seen_card(log: Log, rnd: Random) -> Log:
    """A card of a deal, play or show replaced by a card named elsewhere in the log:
    a card twice, not held, dealt again after a redeal, shown after being played..."""
    named = [c for raw in log for c in cards_named(parsed(raw) or {}) if isinstance(c, str)]

    def change(data: dict[str, Any], rnd: Random) -> Any:
        if data["type"] == "play":
            data["card"] = rnd.choice(named)
        elif data["type"] == "show":
            data["cards"][rnd.randrange(len(data["cards"]))] = rnd.choice(named)
        else:
            hand = data["cards"][rnd.choice(list(data["cards"]))]
            hand[rnd.randrange(len(hand))] = rnd.choice(named)
        return data

    if not named:
        return log
    return edit(log, rnd, ("play", "deal", "show"), change)


def change_player(log: Log, rnd: Random) -> Log:
    names = [*players_of(log), "Zed", "ana", ""]

    def change(data: dict[str, Any], rnd: Random) -> Any:
        key = "player" if "player" in data else "dealer"
        data[key] = rnd.choice(names)
        return data

    return edit(log, rnd, ("play", "raise", "accept", "fold", "redeal", "show", "deal"), change)


def change_number(log: Log, rnd: Random) -> Log:
    def change(data: dict[str, Any], rnd: Random) -> Any:
        key = rnd.choice([k for k in ("to", "points", "hand") if type(data.get(k)) is int])
        data[key] = rnd.choice([data[key] + 1, data[key] - 1, data[key] * 2, 0, -1, 100])
        return data

    return edit(log, rnd, ("raise", "result", "deal"), change)


def change_score(log: Log, rnd: Random) -> Log:
    def change(data: dict[str, Any], rnd: Random) -> Any:
        score = data["score"]
        key = rnd.choice(list(score))
        kind = rnd.randrange(4)
        if kind == 0:
            score[key] += rnd.choice([1, -1, 12])
        elif kind == 1:
            del score[key]
        elif kind == 2:
            score["Zed"] = 0
        else:
            data["score"] = dict(reversed(score.items()))
        return data

    return edit(log, rnd, ("result", "game_end", "game"), change, having="score")


def change_winner(log: Log, rnd: Random) -> Log:
    names = [*players_of(log), None, "Zed"]
    teams = [k for i in of_type(log, "result") for k in (parsed(log[i]) or {}).get("score", {})]

    def change(data: dict[str, Any], rnd: Random) -> Any:
        data["winner"] = rnd.choice([*names, *teams])
        return data

    return edit(log, rnd, ("result", "game_end"), change)


def toggle_hand(log: Log, rnd: Random) -> Log:
    def change(data: dict[str, Any], rnd: Random) -> Any:
        if "hand" in data:
            del data["hand"]
        else:
            data["hand"] = rnd.choice([1, 2, 3])
        return data

    return edit(log, rnd, ("deal",), change)


def flip_accepted(log: Log, rnd: Random) -> Log:
    def change(data: dict[str, Any], rnd: Random) -> Any:
        if data["type"] == "redeal":
            data["accepted"] = not data["accepted"]
        elif "reste" in data:
            del data["reste"]
            data["to"] = 2
        else:
            data["reste"] = True
            if rnd.random() < 0.5:
                del data["to"]
        return data

    return edit(log, rnd, ("redeal", "raise"), change)


def drop_field(log: Log, rnd: Random) -> Log:
    def change(data: dict[str, Any], rnd: Random) -> Any:
        keys = [k for k in data if k != "type"]
        if keys:
            del data[rnd.choice(keys)]
        return data

    return edit(log, rnd, (), change)


def retype(log: Log, rnd: Random) -> Log:
    kinds = [
        "play",
        "raise",
        "accept",
        "fold",
        "redeal",
        "show",
        "deal",
        "result",
        "game_end",
        "game",
    ]

    def change(data: dict[str, Any], rnd: Random) -> Any:
        data["type"] = rnd.choice([*kinds, "Play", "t"])
        return data

    return edit(log, rnd, (), change)


def wrong_type(log: Log, rnd: Random) -> Log:
    def change(data: dict[str, Any], rnd: Random) -> Any:
        key = rnd.choice(list(data))
        value = data[key]
        data[key] = rnd.choice([str(value), [value], {"v": value}, True, 1, None])
        return data

    return edit(log, rnd, (), change)


# Numbers spelled otherwise, or past what 64 bits hold.


def odd_number(log: Log, rnd: Random) -> Log:
    def change(data: dict[str, Any], rnd: Random) -> Any:
        places: list[tuple[dict[str, Any], str]] = [
            (data, k) for k in ("to", "points", "hand") if type(data.get(k)) is int
        ]
        places += [(data["score"], k) for k in data.get("score") or {}]
        if not places:
            return data
        where, key = rnd.choice(places)
        value = where[key]
        where[key] = Raw(
            rnd.choice(
                [
                    f"{value}.0",
                    f"{value}e0",
                    f"{value}E+0",
                    "1e999",
                    "-1e999",
                    str(10**30),
                    str(-(10**30)),
                    str(2**63),
                    str(2**64 + value),
                    "-0",
                    f"0{value}",
                    f"{value}.5",
                    "NaN",
                ]
            ).encode()
        )
        return Pairs(data.items())

    return edit(log, rnd, ("raise", "result", "game_end", "deal", "game"), change)


# Optional fields, spellings and extensions that a legal log may hold.


def reorder_keys(log: Log, rnd: Random) -> Log:
    def change(data: dict[str, Any], rnd: Random) -> Any:
        items = list(data.items())
        rnd.shuffle(items)
        return Pairs(items)

    out = log
    for _ in range(rnd.randrange(1, 6)):
        out = edit(out, rnd, (), change)
    return out


def spaced(log: Log, rnd: Random) -> Log:
    return [
        rewrite(raw, data, colon=b": ", comma=b", ") if (data := parsed(raw)) is not None else raw
        for raw in log
    ]


NOTES = [
    "bluff?",
    "Zoé hésite",
    'he said "truc"',
    "line\nbreak",
    "tab\there",
    "",
    "\u00e9\u20ac\U0001f0a1",
    '","t":"2026-01-02T20:00:00+01:00',
    "back\\slash",
    "a/b",
]


def add_note(log: Log, rnd: Random) -> Log:
    def change(data: dict[str, Any], rnd: Random) -> Any:
        data["note"] = rnd.choice(NOTES)
        return data

    return edit(log, rnd, (), change)


MARKS: list[Any] = [
    ["bluff?"],
    ["review", "misdeal"],
    [],
    None,
    ["x" * 40],
    ["x" * 41],
    ["é" * 40],
    ["é" * 41],
    ["\U0001f0a1" * 40],
    ["\U0001f0a1" * 41],
    [""],
    ["ok", ""],
    [" "],
    ["a\nb"],
    [3],
    [None],
    [["nested"]],
    "bluff?",
    {"mark": "bluff?"},
    ["\u00e9"],
]
"""Good marks (a list of 1 to 40 characters each, or null) and bad ones, at the edges."""


def add_marks(log: Log, rnd: Random) -> Log:
    def change(data: dict[str, Any], rnd: Random) -> Any:
        data["marks"] = rnd.choice(MARKS)
        return data

    return edit(log, rnd, (), change)


EXTENSIONS: list[Any] = [
    1,
    "x",
    None,
    True,
    [1, "two", None],
    {"by": "Ana", "n": [1, {"deep": True}]},
    {"t": "2026-01-02T20:00:00+01:00"},
    {"cards": {"Ana": ["7h"]}},
    [],
    {},
    "Zoé",
]


def add_extension(log: Log, rnd: Random) -> Log:
    def change(data: dict[str, Any], rnd: Random) -> Any:
        items = list(data.items())
        items.insert(
            rnd.randrange(1, len(items) + 1),
            (rnd.choice(["_x", "_", "_seat 2"]), rnd.choice(EXTENSIONS)),
        )
        return Pairs(items)

    return edit(log, rnd, (), change)


def unknown_field(log: Log, rnd: Random) -> Log:
    def change(data: dict[str, Any], rnd: Random) -> Any:
        data[rnd.choice(["x", "T", "Note", "score"])] = 1
        return data

    return edit(log, rnd, ("play", "accept", "raise", "deal"), change)


def escaped(log: Log, rnd: Random) -> Log:
    """A line with one key or string spelled with a ``\\u`` escape: the same text all the same."""

    def change(data: dict[str, Any], rnd: Random) -> Any:
        items = [[encode(k), encode(v)] for k, v in data.items()]
        pair = rnd.choice(items)
        side = 1 if pair[1].startswith(b'"') and rnd.random() < 0.7 else 0
        pair[side] = _escape_one(pair[side], rnd)
        return Raw(b"{" + b",".join(k + b":" + v for k, v in items) + b"}")

    return edit(log, rnd, (), change)


def spelled_out(log: Log, rnd: Random) -> Log:
    """A line with its keys and strings escaped at random, character by character."""
    places = of_type(log)
    if not places:
        return log
    i = rnd.choice(places)
    data = parsed(log[i])
    return [*log[:i], rewrite(log[i], data, escape=rnd), *log[i + 1 :]]


def _escape_one(spelled: bytes, rnd: Random) -> bytes:
    text = orjson.loads(spelled)
    if not text:
        return spelled
    at = rnd.randrange(len(text))
    units = text[at].encode("utf-16-be")
    escape = "".join(f"\\u{units[i]:02x}{units[i + 1]:02x}" for i in range(0, len(units), 2))
    return (json.dumps(text[:at])[:-1] + escape + json.dumps(text[at + 1 :])[1:]).encode()


NAMES = ["Zoé", "Zoë", "李", "Ana Maria", 'Jo "Le Bluff"', "\U0001f0a1", "Ana+Lu", "7h"]


def renamed(log: Log, rnd: Random) -> Log:
    """A player renamed everywhere (a legal log still): non-ASCII, escaped or odd names."""
    names = players_of(log)
    new = rnd.choice(NAMES)
    if new in names:
        return log
    escape = rnd.random() < 0.5
    return rename(log, rnd.choice(names), new, lambda: escape and rnd.random() < 0.7)


def rename(log: Log, old: str, new: str, escape: Callable[[], bool] = lambda: False) -> Log:
    """The log with ``old`` called ``new`` wherever a player or team is named; a line
    written with ``\\u`` escapes when ``escape()`` says so."""

    def name(value: Any) -> Any:
        if isinstance(value, list):
            return [name(v) for v in value]
        return new if value == old else value

    def change(data: dict[str, Any]) -> Any:
        for key in ("players", "dealer", "player", "winner"):
            if key in data:
                data[key] = name(data[key])
        for key in ("score", "cards"):
            if isinstance(data.get(key), dict):
                data[key] = {name(k): v for k, v in data[key].items()}
        if isinstance(data.get("teams"), dict):
            data["teams"] = {k: name(v) for k, v in data["teams"].items()}
        return data

    return [
        raw if (data := parsed(raw)) is None else rewrite(raw, change(data), escape=escape())
        for raw in log
    ]


def null_optional(log: Log, rnd: Random) -> Log:
    def change(data: dict[str, Any], rnd: Random) -> Any:
        optional = {
            "game": [
                "t",
                "note",
                "id",
                "date",
                "rules",
                "score",
                "match",
                "source",
                "tags",
                "teams",
            ],
            "deal": ["t", "note", "hand", "cards"],
            "result": ["t", "winner"],
            "game_end": ["t", "winner", "score", "abandoned"],
        }.get(data["type"], ["t", "note", "reste", "to"])
        data[rnd.choice(optional)] = None
        return data

    return edit(log, rnd, (), change)


def card_spelling(log: Log, rnd: Random) -> Log:
    """A card written another way: rank only, ``10`` for ``T``, other case, unseen."""

    def respell(card: str) -> str:
        if card == "??" or not card:
            return card
        kind = rnd.randrange(5)
        if kind == 0:
            return card[0]
        if kind == 1:
            return card.replace("T", "10")
        if kind == 2:
            return card.lower()
        if kind == 3:
            return card.upper()
        return "??"

    def change(data: dict[str, Any], rnd: Random) -> Any:
        if data["type"] == "play":
            data["card"] = respell(data["card"])
        else:
            cards = data.get("cards") or {}
            for hand in cards.values() if isinstance(cards, dict) else [cards]:
                if hand:
                    i = rnd.randrange(len(hand))
                    hand[i] = respell(hand[i])
        return data

    return edit(log, rnd, ("play", "deal", "show"), change)


def duplicate_key(log: Log, rnd: Random) -> Log:
    def change(data: dict[str, Any], rnd: Random) -> Any:
        items = list(data.items())
        key, value = rnd.choice(items)
        again = value if rnd.random() < 0.5 else rnd.choice(["Zed", 3, None, "7h"])
        items.insert(rnd.randrange(len(items) + 1), (key, again))
        return Pairs(items)

    return edit(log, rnd, (), change)


OVERRIDES: list[dict[str, Any]] = [
    {},
    {"target": 7},
    {"fold_anytime": True},
    {"raises": "double", "max_value": 4},
    {"alternate_raises": False, "all_tied": "draw"},
    {"order": "78AKQJT9", "redeal": "none"},
    {"reste": False},
    {"target": "12"},
    {"colour": "red"},
]


def rules_object(log: Log, rnd: Random) -> Log:
    def change(data: dict[str, Any], rnd: Random) -> Any:
        rules = data.get("rules", "classic")
        preset = rules if isinstance(rules, str) else rules.get("preset", "classic")
        data["rules"] = {"preset": preset, **rnd.choice(OVERRIDES)}
        return data

    return edit(log, rnd, ("game",), change)


def resumed(log: Log, rnd: Random) -> Log:
    def change(data: dict[str, Any], rnd: Random) -> Any:
        results = [parsed(log[i]) or {} for i in of_type(log, "result", having="score")]
        keys = list(results[0]["score"]) if results else data["players"]
        data["score"] = {k: rnd.choice([0, 1, 5, 11, 12, -1]) for k in keys}
        return data

    return edit(log, rnd, ("game",), change)


TIMES: list[Any] = [
    "2026-01-02T20:00:00Z",
    "2026-01-02T20:00:00.125+01:00",
    "2026-01-02t20:00:00z",
    "2026-01-02 20:00:00+01:00",
    "2026-01-02T20:00:00",
    "2026-13-02T20:00:00+01:00",
    "2026-00-02T20:00:00+01:00",
    "2026-02-29T20:00:00+01:00",
    "2026-02-30T20:00:00+01:00",
    "2026-04-31T20:00:00+01:00",
    "2026-12-31T20:00:00+01:00",
    "2026-01-00T20:00:00+01:00",
    "2026-01-32T20:00:00+01:00",
    "2026-01-02T24:00:00+01:00",
    "2026-01-02T20:60:00+01:00",
    "2026-01-02T23:59:60Z",
    "2026-01-02T23:59:61Z",
    "2026-01-02T20:00:00+24:00",
    "2026-01-02T20:00:00+01:60",
    "2026-01-02T20:00:00+0100",
    "2026-01-02T20:00:00-00:00",
    "2026-01-02T20:00:00.Z",
    "2026-01-02T20:00:00.123456789+01:00",
    "2026-01-02T20:00:00Z ",
    "0000-01-02T20:00:00Z",
    "12026-01-02T20:00:00Z",
    "2026-1-02T20:00:00Z",
    "２026-01-02T20:00:00Z",
    "yesterday",
    "",
    Raw(b'"\\u0032026-01-02T20:00:00+01:00"'),
    Raw(b'"2026-01-02T20:00:00+01:00\\n"'),
    Raw(b"20260102"),
]
"""Times right and wrong by RFC 3339 (an offset required)."""


def retimed(log: Log, rnd: Random) -> Log:
    return edit(log, rnd, (), lambda data, rnd: Pairs({**data, "t": rnd.choice(TIMES)}.items()))


KEYS = [
    "type",
    "player",
    "dealer",
    "card",
    "cards",
    "hand",
    "to",
    "reste",
    "accepted",
    "winner",
    "points",
    "score",
    "abandoned",
    "players",
    "format",
    "t",
    "note",
    "_x",
    "id",
]
VALUES: list[Any] = [
    0,
    1,
    2,
    3,
    12,
    -1,
    True,
    False,
    None,
    "",
    "Ana",
    "Marc",
    "A",
    "B",
    "C",
    "D",
    "7h",
    "T",
    "??",
    ["7h", "8h", "9h"],
    ["??", "??", "??"],
    [],
    {},
    {"Ana": 1},
    {"Ana": ["7h", "Q", "9s"]},
    "2026-01-02T20:00:00+01:00",
    "game",
    "play",
]


def set_field(log: Log, rnd: Random) -> Log:
    """Any field of any line set to any value another field might hold."""

    def change(data: dict[str, Any], rnd: Random) -> Any:
        data[rnd.choice(KEYS)] = rnd.choice(VALUES)
        return data

    return edit(log, rnd, (), change)


MUTATIONS: dict[str, Mutation] = {
    f.__name__: f
    for f in (
        delete_line,
        duplicate_line,
        swap_lines,
        truncate_last,
        no_final_newline,
        append_garbage,
        insert_garbage,
        blank_lines,
        crlf,
        bom,
        bom_inside,
        padded,
        early_game_end,
        copy_game,
        change_card,
        seen_card,
        change_player,
        change_number,
        change_score,
        change_winner,
        toggle_hand,
        flip_accepted,
        drop_field,
        retype,
        wrong_type,
        set_field,
        odd_number,
        reorder_keys,
        spaced,
        add_note,
        add_marks,
        add_extension,
        unknown_field,
        escaped,
        spelled_out,
        renamed,
        null_optional,
        card_spelling,
        duplicate_key,
        rules_object,
        resumed,
        retimed,
    )
}


def simulated(sim: Simulation) -> Log:
    """The lines a simulation writes."""
    return [dumps(event) for event in simulate(sim)]


def lines(data: bytes) -> Log:
    """Raw lines of a file's bytes, each with its line end."""
    return data.splitlines(keepends=True)


# Whole logs spelled another way, each change named (deterministic).


def every_line(log: Log, change: Callable[[dict[str, Any]], Any], **style: Any) -> Log:
    """Each object line changed by ``change`` (which returns its new body), written in ``style``."""
    return [
        raw if (data := parsed(raw)) is None else rewrite(raw, change(data), **style) for raw in log
    ]


def first(log: Log, kind: str, change: Callable[[dict[str, Any]], Any]) -> Log:
    """The first line of type ``kind`` changed by ``change``."""
    i = of_type(log, kind)[0]
    data = parsed(log[i])
    assert data is not None
    return [*log[:i], rewrite(log[i], change(data)), *log[i + 1 :]]


def each_card(log: Log, respell: Callable[[str], str]) -> Log:
    """Every card of every ``deal``, ``play`` and ``show`` line respelled."""

    def change(data: dict[str, Any]) -> Any:
        if data["type"] == "play":
            data["card"] = respell(data["card"])
        elif data["type"] == "show":
            data["cards"] = [respell(c) for c in data["cards"]]
        elif data["type"] == "deal" and data.get("cards"):
            data["cards"] = {p: [respell(c) for c in cs] for p, cs in data["cards"].items()}
        return data

    return every_line(log, change)


def setting(key: str, value: Any) -> Callable[[dict[str, Any]], Any]:
    """A change that sets ``key`` to ``value`` (a :class:`Raw` is written as it is)."""

    def change(data: dict[str, Any]) -> Any:
        data[key] = value
        return Pairs(data.items())

    return change


def with_note(text: str) -> Callable[[dict[str, Any]], Any]:
    return setting("note", text)


def extended(log: Log) -> Log:
    """An extension on every line, each of :data:`EXTENSIONS` in turn."""
    values = itertools.cycle(EXTENSIONS)
    return every_line(log, lambda data: Pairs([*data.items(), ("_x", next(values))]))


def unseen_deal(data: dict[str, Any]) -> Any:
    if data["type"] == "deal" and data.get("cards"):
        data["cards"] = {p: ["??"] * len(cards) for p, cards in data["cards"].items()}
    return data


def resumed_at(points: int) -> Callable[[dict[str, Any]], Any]:
    """A game line resumed with its first side at ``points``, as its results key sides."""

    def change(data: dict[str, Any]) -> Any:
        players = data["players"]
        names = list(data.get("teams") or {}) or (
            players
            if len(players) == 2
            else [f"{players[0]}+{players[2]}", f"{players[1]}+{players[3]}"]
        )
        data["score"] = {names[0]: points, names[1]: 3}
        return data

    return change


def renumbered(data: dict[str, Any]) -> Any:
    """A deal numbered six hands on, as a game resumed from a written score may be."""
    if data["type"] == "deal" and type(data.get("hand")) is int:
        data["hand"] += 6
    return data


def hand_after(log: Log, i: int) -> list[dict[str, Any]]:
    """The object lines after line ``i`` up to the next deal or game."""
    found = []
    for raw in log[i + 1 :]:
        data = parsed(raw) or {}
        if data.get("type") in ("deal", "game"):
            break
        found.append(data)
    return found


def dealt_again(log: Log) -> Log:
    """After a granted redeal, a card of the first deal dealt again, in place of a card
    that is never played or shown (legal with ``reshuffle``, not with ``rest``)."""
    deals = of_type(log, "deal")
    for asked in of_type(log, "redeal"):
        if not (parsed(log[asked]) or {}).get("accepted"):
            continue
        before = (parsed(log[max(i for i in deals if i < asked)]) or {})["cards"]
        again = min(i for i in deals if i > asked)
        deal = parsed(log[again]) or {}
        later = {c for data in hand_after(log, again) for c in cards_named(data)}
        dealt = {c for hand in deal["cards"].values() for c in hand}
        cards = [c for hand in before.values() for c in hand if c not in later | dealt | {"??"}]
        places = [
            (p, i)
            for p, hand in deal["cards"].items()
            for i, c in enumerate(hand)
            if c not in later
        ]
        if cards and places:
            player, at = places[0]
            deal["cards"][player][at] = cards[0]
            return [*log[:again], rewrite(log[again], deal), *log[again + 1 :]]
    return log


def shown_not_held(log: Log) -> Log:
    """The first show line showing, first, a card another player played before it."""
    at = of_type(log, "show")[0]
    show = parsed(log[at]) or {}
    plays = [parsed(log[i]) or {} for i in of_type(log, "play") if i < at]
    show["cards"][0] = next(p["card"] for p in reversed(plays) if p["player"] != show["player"])
    return [*log[:at], rewrite(log[at], show), *log[at + 1 :]]


def reversed_keys(data: dict[str, Any]) -> Any:
    return Pairs(reversed(data.items()))


def game_copied(log: Log) -> Log:
    start, stop = games_of(log)[0]
    return [*log, *log[start:stop]]


LEGAL_SPELLINGS: dict[str, Callable[[Log], Log]] = {
    "crlf": lambda log: [split(raw)[0] + b"\r\n" for raw in log],
    "bom": lambda log: [BOM + log[0], *log[1:]],
    "blank-lines": lambda log: [x for raw in log for x in (raw, b"\n", b"  \r\n")],
    "spaces": lambda log: spaced(log, Random(0)),
    "keys-reversed": lambda log: every_line(log, reversed_keys),
    "notes": lambda log: every_line(log, with_note('Zoé says "truc"')),
    "notes-escaped": lambda log: every_line(log, with_note("Zoé hésite"), escape=True),
    "marks": lambda log: every_line(log, setting("marks", ["bluff?", "Zoé hésite"])),
    "marks-longest": lambda log: every_line(log, setting("marks", ["é" * 40, "x" * 40])),
    "marks-escaped": lambda log: every_line(log, setting("marks", ["Zoé", 'a"b']), escape=True),
    "marks-null": lambda log: every_line(log, setting("marks", None)),
    "extensions": extended,
    "extension-with-t-and-note": lambda log: every_line(
        log, setting("_x", {"t": "2026-01-02T20:00:00Z", "note": "in", "_y": [{"t": 1}]})
    ),
    "name-zoe": lambda log: rename(log, players_of(log)[0], "Zoé"),
    "name-zoe-escaped": lambda log: rename(log, players_of(log)[0], "Zoé", lambda: True),
    "names-like-keys": lambda log: rename(
        rename(log, players_of(log)[0], "t"), players_of(log)[1], "type"
    ),
    "cards-rank-only": lambda log: each_card(log, lambda c: c if c == "??" else c[0]),
    "cards-10": lambda log: each_card(log, lambda c: c.replace("T", "10")),
    "cards-lower": lambda log: each_card(log, str.lower),
    "cards-upper": lambda log: each_card(log, str.upper),
    "deal-unseen": lambda log: every_line(log, unseen_deal),
    "deal-without-cards": lambda log: every_line(
        log, lambda d: {k: v for k, v in d.items() if (k, d["type"]) != ("cards", "deal")}
    ),
    "rules-object": lambda log: first(log, "game", setting("rules", {"preset": "classic"})),
    "rules-object-same-values": lambda log: first(
        log, "game", setting("rules", {"preset": "classic", "target": 12, "reste": True})
    ),
    "t-zulu": lambda log: every_line(log, setting("t", "2026-01-02T19:00:00Z")),
    "t-fraction": lambda log: every_line(log, setting("t", "2026-01-02T20:00:00.5+01:00")),
    "no-final-newline": lambda log: [*log[:-1], split(log[-1])[0]],
    "game-copied": game_copied,
    "game-without-id": lambda log: every_line(
        log, lambda d: {k: v for k, v in d.items() if k != "id"}
    ),
}
"""Legal logs (per format.md) spelled as the writer never does: they validate clean."""


ODD_CASES: dict[str, Callable[[Log], Log]] = {
    "to-float": lambda log: first(log, "raise", setting("to", Raw(b"2.0"))),
    "to-exponent": lambda log: first(log, "raise", setting("to", Raw(b"2e0"))),
    "to-1e999": lambda log: first(log, "raise", setting("to", Raw(b"1e999"))),
    "points-huge": lambda log: first(log, "result", setting("points", Raw(str(10**30).encode()))),
    "hand-2-64": lambda log: first(log, "deal", setting("hand", Raw(str(2**64 + 1).encode()))),
    "hand-minus-zero": lambda log: first(log, "deal", setting("hand", Raw(b"-0"))),
    "t-null": lambda log: first(log, "play", setting("t", None)),
    "hand-null": lambda log: first(log, "deal", setting("hand", None)),
    "cards-null": lambda log: first(log, "deal", setting("cards", None)),
    "note-null": lambda log: first(log, "accept", setting("note", None)),
    "score-null": lambda log: first(log, "game", setting("score", None)),
    "duplicate-key-same": lambda log: first(
        log, "play", lambda d: Pairs([*d.items(), ("card", d["card"])])
    ),
    "duplicate-key-other": lambda log: first(
        log, "play", lambda d: Pairs([*d.items(), ("player", "Zed")])
    ),
    "key-past-a-word": lambda log: first(
        log, "play", lambda d: Pairs([*d.items(), ("cards", [d["card"]])])
    ),
    "key-near-a-word": lambda log: first(log, "play", lambda d: Pairs([*d.items(), ("cardz", 1)])),
    "key-a-word-of-another-type": lambda log: first(log, "accept", setting("card", "7h")),
    "duplicate-key-escaped": lambda log: first(
        log,
        "play",
        lambda d: Raw(encode(Pairs(d.items()))[:-1] + b',"c\\u0061rd":"7h"}'),
    ),
    "duplicate-type": lambda log: first(
        log, "play", lambda d: Pairs([("type", "fold"), *d.items()])
    ),
    "rules-overrides": lambda log: first(
        log, "game", setting("rules", {"preset": "classic", "target": 5, "raises": "double"})
    ),
    "resumed": lambda log: first(log, "game", resumed_at(11)),
    "resumed-numbering-on": lambda log: every_line(first(log, "game", resumed_at(4)), renumbered),
    "resumed-numbering-gap": lambda log: first(
        first(log, "game", resumed_at(4)), "deal", renumbered
    ),
    "numbering-on-unresumed": lambda log: every_line(log, renumbered),
    "resumed-at-target": lambda log: first(log, "game", resumed_at(12)),
    "resumed-past-target": lambda log: first(log, "game", resumed_at(40)),
    "resumed-at-a-trillion": lambda log: first(log, "game", resumed_at(10**12 - 1)),
    "resumed-past-a-trillion": lambda log: first(log, "game", resumed_at(10**12 + 1)),
    "resumed-wrong-names": lambda log: first(log, "game", setting("score", {"Zed": 1})),
    "game-end-early": lambda log: [*log[:6], b'{"type":"game_end","abandoned":true}\n', *log[6:]],
    "played-unseen": lambda log: first(log, "play", setting("card", "??")),
    "escaped-key": lambda log: [*log[:3], b'{"\\u0074ype":"accept","player":"Marc"}\n', *log[3:]],
    "spelled-out": lambda log: every_line(log, lambda d: d, escape=Random(5)),
    "note-control-escapes": lambda log: first(
        log, "play", setting("note", Raw(b'"\\u0000\\u001f\\b\\f\\n\\r\\t\\u007f\x7f"'))
    ),
    "note-lone-surrogate": lambda log: first(log, "play", setting("note", Raw(b'"\\ud800"'))),
    "note-low-surrogate": lambda log: first(log, "play", setting("note", Raw(b'"\\udca1x"'))),
    "note-surrogate-pair": lambda log: first(
        log, "play", setting("note", Raw(b'"\\ud83c\\udca1 \\uD83C\\uDCA1"'))
    ),
    "note-bad-escape": lambda log: first(log, "play", setting("note", Raw(b'"\\x41"'))),
    "note-short-u": lambda log: first(log, "play", setting("note", Raw(b'"\\u00e"'))),
    "note-long": lambda log: first(log, "play", setting("note", "\u00e9" * 5000 + "\\n")),
    "game-note-long": lambda log: first(log, "game", setting("note", "\u00e9" * 5000 + "\\n")),
    "t-escaped-key": lambda log: first(
        log,
        "play",
        lambda d: Raw(encode(Pairs(d.items()))[:-1] + b',"\\u0074":"2026-01-02T20:00:00Z"}'),
    ),
    "note-escaped-key": lambda log: first(
        log, "play", lambda d: Raw(encode(Pairs(d.items()))[:-1] + b',"not\\u0065":"x"}')
    ),
    "duplicate-escaped-key": lambda log: first(
        log, "play", lambda d: Raw(encode(Pairs(d.items()))[:-1] + b',"c\\u0061rd":"8h"}')
    ),
    "card-escaped": lambda log: first(
        log,
        "play",
        lambda d: setting(
            "card",
            Raw(encode(d["card"])[:-2] + b"\\u00" + f"{ord(d['card'][-1]):02x}".encode() + b'"'),
        )(d),
    ),
    "extension-float": lambda log: first(log, "play", setting("_x", Raw(b"1.5"))),
    # read by the core in the C locale without the GIL: the same doubles, the same infinities
    "extension-float-infinite": lambda log: first(log, "play", setting("_x", Raw(b"1e999"))),
    "extension-float-underflow": lambda log: first(log, "play", setting("_x", Raw(b"-1e-999"))),
    "extension-float-largest": lambda log: first(
        log, "play", setting("_x", Raw(b"1.7976931348623158e308"))
    ),
    "extension-float-past-largest": lambda log: first(
        log, "play", setting("_x", Raw(b"1.797693134862315808e308"))
    ),
    "type-escaped": lambda log: first(log, "play", setting("type", Raw(b'"pl\\u0061y"'))),
    "escaped-slash": lambda log: first(log, "play", setting("note", Raw(b'"a\\/b"'))),
    "bom-inside": lambda log: [*log[:2], BOM + log[2], *log[3:]],
    "lines-before-the-game": lambda log: [log[3], log[4], *log],
    "bad-game-line-between": lambda log: [
        *log,
        b'{"type":"game","players":["Ana","Marc"]}\n',
        *log[1:],
    ],
    "game-line-with-a-float": lambda log: [*log, *first(log, "game", setting("_x", Raw(b"1.5")))],
    "game-line-duplicate-type": lambda log: [*log, b'{"type":"play","type":"game"}\n', *log[1:]],
    "game-line-escaped-type": lambda log: [
        *log,
        log[0].replace(b'"type":"game"', b'"t\\u0079pe":"g\\u0061me"'),
        *log[1:],
    ],
    "truncated-last": lambda log: [*log[:-1], log[-1][: len(log[-1]) // 2]],
    "garbage-last": lambda log: [*log, b"\xff garbage"],
}
"""Logs whose reading the contract leaves to the validator, or that break it."""
