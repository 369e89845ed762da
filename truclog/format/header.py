"""A ``game`` line read without the models: what the format says of it in plain
values, and the light header of a game whose line is written plainly.

The quick core clears most games whole (:mod:`truclog.validate.quick`); of such a game
only its ``game`` line is read in Python, and most are written plainly (see
:func:`truclog.format.reader.plain_game`). :class:`PlainHeader` holds such a line's
values as the models would read them, without importing pydantic or building a
model: validating a log of such games needs neither. :meth:`PlainHeader.event`
makes the line's :class:`~truclog.format.events.GameEvent` when a game needs it.

>>> header = PlainHeader("truclog/1", ["Ana", "Marc"], "Marc")
>>> header.type, header.rules_obj.name, header.match
('game', 'classic', None)
>>> event = header.event()
>>> event.players, event.rules_obj is header.rules_obj, sorted(event.model_fields_set)
(['Ana', 'Marc'], True, ['dealer', 'format', 'players', 'type'])
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from truclog.engine.rules import Rules, get_rules
from truclog.engine.sides import sides_of

if TYPE_CHECKING:
    from truclog.format.events import GameEvent

FORMAT = "truclog/1"
"""The name of the format, which every ``game`` line gives as its ``format``."""

GAME_FIELDS = (
    "format",
    "players",
    "dealer",
    "rules",
    "id",
    "date",
    "score",
    "match",
    "source",
    "tags",
    "teams",
)
"""The fields of a ``game`` line in the format's order, as writers emit them (after ``type``)."""

_MONTH_DAY = r"((0[1-9]|1[0-2])-(0[1-9]|1[0-9]|2[0-9])|(0[13-9]|1[0-2])-30|(0[13578]|1[02])-31)"
_TIME = r"([01][0-9]|2[0-3]):[0-5][0-9]:([0-5][0-9]|60)(\.[0-9]+)?([Zz]|[+-]([01][0-9]|2[0-3]):[0-5][0-9])"
TIMESTAMP_PATTERN = rf"^[0-9]{{4}}-{_MONTH_DAY}[Tt]{_TIME}$"
"""RFC 3339 date-time with offset (a 29 February is not checked against leap years)."""

timestamp = re.compile(TIMESTAMP_PATTERN).fullmatch
"""A match when a text is a timestamp of :data:`TIMESTAMP_PATTERN`, else ``None``."""


class PlainHeader:
    """A ``game`` line written plainly: two or four players without ``teams``, a
    preset's name (or no ``rules``), no ``_`` extension field; ``given``: the fields
    the line gives (``type`` always). A plain class: a named tuple of its thirteen
    fields took many times as long to make at start-up (each annotation compiled)."""

    __slots__ = (
        "date",
        "dealer",
        "format",
        "given",
        "id",
        "marks",
        "match",
        "note",
        "players",
        "rules",
        "score",
        "source",
        "t",
        "tags",
    )

    def __init__(
        self,
        format: str,
        players: list[str],
        dealer: str,
        rules: str | None = None,
        id: str | None = None,
        date: str | None = None,
        score: dict[str, int] | None = None,
        match: str | None = None,
        source: str | None = None,
        tags: dict[str, str] | None = None,
        t: str | None = None,
        note: str | None = None,
        given: frozenset[str] = frozenset({"type", "format", "players", "dealer"}),
    ) -> None:
        self.format = format
        self.players = players
        self.dealer = dealer
        self.rules = rules
        self.id = id
        self.date = date
        self.score = score
        self.match = match
        self.source = source
        self.tags = tags
        self.t = t
        self.note = note
        self.marks = None  # a game line with marks is read by the models
        self.given = given

    @property
    def type(self) -> str:
        """Always ``'game'``, as on the line."""
        return "game"

    @property
    def teams(self) -> None:
        """A line with ``teams`` is read by the models."""
        return None

    @property
    def rules_obj(self) -> Rules:
        """The rules this game is played under."""
        return get_rules(self.rules)

    @property
    def sides(self) -> tuple[str, ...]:
        """Who scores: the players, or the two teams of four players (see
        :func:`~truclog.engine.sides.sides_of`)."""
        return sides_of(self.players)

    def event(self) -> GameEvent:
        """The line's event, as the models make it of the same line."""
        from truclog.format.events import GameEvent

        event = GameEvent.__new__(GameEvent)  # as GameEvent.model_construct makes it, sooner
        setattr_ = object.__setattr__
        setattr_(event, "__dict__", {name: getattr(self, name) for name in GameEvent.model_fields})
        setattr_(event, "__pydantic_fields_set__", set(self.given))
        setattr_(event, "__pydantic_extra__", {})
        setattr_(event, "__pydantic_private__", {"_rules": self.rules_obj})
        return event
