"""Line shapes: a line read before but for its time, or a deal but for its cards.

In a log most lines repeat but for their ``t`` (``{"type":"play","player":"Ana",
"card":"7h","t":...}``), and deals repeat but for their cards. :class:`Shapes`
remembers the event of each shape that the models have checked and finds a new
line by its bytes, so that it is not parsed again: only its time and a deal's
cards are checked, exactly as the models check them (the time against the same
RFC 3339 pattern, each card against the spellings the models accepted before).

A shape is the line's bytes less the text of the last ``"t":"`` (and, for a
deal, less its ``"cards":{...}`` object). It is kept only when what was cut out
is the event's own ``t`` and cards, so a line found by its shape is the line
that was checked with another time and other cards in those places.

>>> shapes = Shapes()
>>> line = b'{"type":"fold","player":"Ana","t":"2026-11-29T20:14:03Z"}'
>>> shapes.find(line) is None
True
>>> from truclog.format.events import event_to_action, parse_event
>>> event = parse_event(line)
>>> shapes.learn(line, event, {}, event_to_action(event), b'{"player":"Ana","type":"fold"}')
>>> event, action, compared, t, cards = shapes.find(line.replace(b"20:14:03", b"20:15:00"))
>>> action, compared, t
(Fold(player='Ana'), b'{"player":"Ana","type":"fold"}', '2026-11-29T20:15:00Z')
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import orjson

from truclog.engine.actions import Action, Deal
from truclog.engine.cards import UNSEEN, Card, parse_dealt
from truclog.format.copies import comparable, played
from truclog.format.header import timestamp

if TYPE_CHECKING:
    from truclog.format.events import DealEvent, Event

    Found = tuple[Event, Action | None, bytes, str | None, dict[str, list[str]] | None]
    """A line found by its shape: the event of that shape, the line's action, the line
    as compared, and what the line changes in the event: its ``t`` and a deal's cards."""

_T_KEY = b'"t":"'
_CARDS_KEY = b'"cards":{'
_DEAL_START = b'{"type":"deal"'


@dataclass(slots=True)
class _DealShape:
    """A deal shape: its event, and the line as compared, less its cards."""

    event: Any  # its DealEvent (see CheckedGame.header in validate.py: why not typed so)
    compared: dict[str, Any]


class Shapes:
    """The shapes of lines already checked: at most ``limit`` of each kind (it starts
    again when full; with a limit of 0 it remembers nothing). A log's lines come in a
    few hundred shapes; a long game's deals each in its own (their hand numbers), about
    2 KB each: the limit keeps those to 4 MB."""

    def __init__(self, limit: int = 1 << 11) -> None:
        self.limit = limit
        self.lines: dict[bytes, tuple[Event, Action | None, bytes]] = {}
        self.deals: dict[bytes, _DealShape] = {}
        self.dealt: dict[str, tuple[str, Card | None]] = {}  # spelling -> as the models read it

    def find(self, body: bytes) -> Found | None:
        """The line's event if its shape is known and its time (and cards) check."""
        cut = body.rfind(_T_KEY)
        end = body.find(b'"', cut + 5) if cut >= 0 else -1
        if end < 0:
            known = self.lines.get(body)
            return None if known is None else (*known, known[0].t, None)
        try:
            text = body[cut + 5 : end].decode()
        except UnicodeDecodeError:
            return None
        if not timestamp(text):
            return None
        key = body[: cut + 5] + body[end:]
        known = self.lines.get(key)
        if known is not None:
            return (*known, text, None)
        if key.startswith(_DEAL_START):
            return self._find_deal(key, text)
        return None

    def learn(
        self, body: bytes, event: Event, data: Any, action: Action | None, compared: bytes
    ) -> None:
        """Remember a line the models checked: ``data`` is the line as plain JSON,
        ``action`` its engine action and ``compared`` its
        :func:`~truclog.format.copies.comparable` form."""
        key, text = _cut_t(body)
        if event.type == "game" or (
            text is not None and (body.count(_T_KEY) > 1 or event.t != text.decode())
        ):
            return
        if event.type == "deal" and not _all_unseen(event):
            self._learn_deal(key, event, data)
            return
        if len(self.lines) >= self.limit:
            self.lines.clear()
        if self.limit:
            self.lines[key] = (event, action, compared)

    def _find_deal(self, key: bytes, t: str | None) -> Found | None:
        shape, cards_text = _cut_cards(key)
        known = self.deals.get(shape) if cards_text else None
        if known is None:
            return None
        try:
            raw = orjson.loads(cards_text)
        except orjson.JSONDecodeError:
            return None
        read = self._read_cards(raw)
        if read is None:
            return None
        cards, action_cards = read
        event = known.event
        action = Deal(event.dealer, action_cards, event.hand)
        same = comparable({**known.compared, "cards": raw})
        return event, action, same, t, cards

    def _read_cards(
        self, raw: Any
    ) -> tuple[dict[str, list[str]], tuple[tuple[str, tuple[Card | None, ...]], ...]] | None:
        """A deal's cards as the models read them, or None if any is not a spelling seen before."""
        if not isinstance(raw, dict):
            return None
        cards: dict[str, list[str]] = {}
        held: list[tuple[str, tuple[Card | None, ...]]] = []
        dealt = self.dealt
        for player, texts in raw.items():
            if not player or type(texts) is not list or len(texts) != 3:
                return None
            read = [dealt.get(text) if type(text) is str else None for text in texts]
            if None in read:
                return None
            cards[player] = [r[0] for r in read]  # type: ignore[index]
            held.append((player, tuple(r[1] for r in read)))  # type: ignore[index]
        return cards, tuple(held)

    def _learn_deal(self, key: bytes, event: DealEvent, data: Any) -> None:
        shape, cards_text = _cut_cards(key)
        if not cards_text or not isinstance(data, dict) or key.count(_CARDS_KEY) > 1:
            return
        try:
            if orjson.loads(cards_text) != data.get("cards"):
                return
        except orjson.JSONDecodeError:
            return
        assert event.cards is not None
        for player, texts in data["cards"].items():
            for text, card in zip(texts, event.cards[player], strict=True):
                self.dealt[text] = (card, parse_dealt(card))
        if len(self.deals) >= self.limit:
            self.deals.clear()
        if self.limit:
            self.deals[shape] = _DealShape(event, played(data, but="cards"))


def _all_unseen(event: DealEvent) -> bool:
    return all(card == UNSEEN for held in (event.cards or {}).values() for card in held)


def _cut_t(body: bytes) -> tuple[bytes, bytes | None]:
    """The line less the text of its last ``"t":"``, and that text."""
    cut = body.rfind(_T_KEY)
    end = body.find(b'"', cut + 5) if cut >= 0 else -1
    if end < 0:
        return body, None
    return body[: cut + 5] + body[end:], body[cut + 5 : end]


def _cut_cards(key: bytes) -> tuple[bytes, bytes]:
    """A deal line less its ``"cards":{...}`` object, and that object's text."""
    start = key.find(_CARDS_KEY)
    end = key.find(b"]}", start) + 2 if start >= 0 else 1
    if end < 2:
        return key, b""
    return key[: start + 8] + key[end:], key[start + 8 : end]
