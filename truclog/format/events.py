"""truclog/1 events: one pydantic model per line type, a union discriminated on ``type``.

A line of a log is one event. Models check the shape of a line (fields, types,
cards, the ``game`` header's players and rules); whether an event is legal at
its point of the game is the engine's business (:mod:`truclog.engine`).

>>> event = parse_event(b'{"type":"play","player":"Ana","card":"10S","t":"2026-11-29T20:14:03+01:00"}')
>>> event.card, event.t
('Ts', '2026-11-29T20:14:03+01:00')
>>> event_to_action(event)
Play(player='Ana', card=Card('T', 's'))
>>> action_to_event(Raise("Marc", to=3), note="Marc smiles").note
'Marc smiles'

Fields whose name starts with ``_`` are extensions: kept, written back, ignored.
Any other field a model does not know is an error:

>>> parse_event({"type": "accept", "player": "Ana", "_seat": 2}).extensions
{'_seat': 2}
>>> try:
...     parse_event({"type": "accept", "player": "Ana", "seat": 2})
... except ValidationError as exc:
...     print(reasons(exc))
seat: unknown field (an extension field must start with '_')
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from functools import lru_cache
from typing import Annotated, Any, ClassVar, Literal

from pydantic import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    Field,
    PrivateAttr,
    StrictBool,
    StrictInt,
    TypeAdapter,
    ValidationError,
    WithJsonSchema,
    field_validator,
    model_validator,
)
from pydantic_core import PydanticCustomError

from truclog.engine.actions import Accept, Action, Deal, Fold, Play, Raise, Redeal, Show
from truclog.engine.cards import UNSEEN, format_card, parse_card, parse_dealt
from truclog.engine.rules import DEFAULT_PRESET, PRESETS, Rules, get_rules
from truclog.engine.sides import sides_of
from truclog.errors import TruclogError
from truclog.format.header import GAME_FIELDS, TIMESTAMP_PATTERN

EXTENSION_PREFIX = "_"

KNOWN_CARD_PATTERN = r"^([6-9TJQKAtjqka]|10)[cdhsCDHS]?$"
DEALT_CARD_PATTERN = r"^(([6-9TJQKAtjqka]|10)[cdhsCDHS]?|\?\?)$"

_NOT_TIMESTAMP = (
    "'{text}' is not an RFC 3339 timestamp with offset "
    "(like 2026-11-29T20:14:03+01:00 or 2026-11-29T19:14:03Z)"
)


def _invalid(reason: str, field: str | None = None) -> PydanticCustomError:
    """A validation error whose message is ``reason``, about ``field`` of the line if given."""
    context: dict[str, Any] = {"reason": reason}
    if field is not None:
        context["field"] = field
    return PydanticCustomError("truclog", "{reason}", context)


# --- field types ------------------------------------------------------------


@lru_cache(maxsize=1024)
def _known_card(text: str) -> str:
    """A known card, normalised: ``"10S"`` -> ``"Ts"``."""
    if text != text.strip():
        raise _invalid(f"'{text}' is not a card: no spaces around a card")
    try:
        return str(parse_card(text))
    except TruclogError as exc:
        raise _invalid(exc.message) from None


@lru_cache(maxsize=1024)
def _dealt_card(text: str) -> str:
    """A dealt card, normalised; ``"??"`` stays the unseen card."""
    return UNSEEN if text == UNSEEN else _known_card(text)


KnownCard = Annotated[
    str,
    AfterValidator(_known_card),
    WithJsonSchema({"type": "string", "pattern": KNOWN_CARD_PATTERN}),
]
DealtCard = Annotated[
    str,
    AfterValidator(_dealt_card),
    WithJsonSchema({"type": "string", "pattern": DEALT_CARD_PATTERN}),
]
Timestamp = Annotated[
    str,
    Field(pattern=TIMESTAMP_PATTERN),
    WithJsonSchema({"type": "string", "format": "date-time", "pattern": TIMESTAMP_PATTERN}),
]
Name = Annotated[str, Field(min_length=1)]

LONGEST_MARK = 40
"""The most characters a mark may hold: a mark is a short tag (``"bluff?"``, ``"review"``)."""

Mark = Annotated[str, Field(min_length=1, max_length=LONGEST_MARK)]
Points = Annotated[StrictInt, Field(ge=0)]
Score = dict[Name, Points]


# --- the rules a game declares ------------------------------------------------


def _rules_spec_schema(schema: dict[str, Any]) -> None:
    """No override may be null, but ``max_value`` (no limit)."""
    for name, prop in schema["properties"].items():
        branches = [b for b in prop.get("anyOf", []) if b != {"type": "null"}]
        if name != "max_value" and len(branches) == 1:
            del prop["anyOf"]
            prop.update(branches[0])


class RulesSpec(BaseModel):
    """Rules as an object: a preset and the rules that differ from it."""

    model_config = ConfigDict(
        frozen=True, extra="forbid", json_schema_extra=_rules_spec_schema, defer_build=True
    )

    preset: str = Field(
        default=DEFAULT_PRESET,
        description="The preset the overrides start from",
        json_schema_extra={"enum": list(PRESETS)},
    )
    order: str | None = Field(
        default=None,
        description="Ranks from highest to lowest, e.g. '78AKQJT9'",
        json_schema_extra={"pattern": "^([6-9TJQKAtjqka]|10)+$"},
    )
    raises: Literal["any", "double"] | None = None
    max_value: Annotated[StrictInt, Field(ge=1)] | None = None
    cap_at_target: StrictBool | None = None
    alternate_raises: StrictBool | None = None
    reste: StrictBool | None = None
    reste_refused: Literal["previous", "game"] | None = None
    all_tied: Literal["draw", "non_dealer"] | None = None
    fold_anytime: StrictBool | None = None
    redeal: Literal["rest", "reshuffle", "none"] | None = None
    target: Annotated[StrictInt, Field(ge=1)] | None = None

    @classmethod
    def of(cls, rules: Rules) -> str | RulesSpec:
        """How a log declares ``rules``: the preset's name, or the preset and what differs.

        >>> RulesSpec.of(PRESETS["sackson"])
        'sackson'
        >>> RulesSpec.of(get_rules({"preset": "francais", "target": 8})).model_dump(exclude_unset=True)
        {'preset': 'francais', 'target': 8}
        """
        base = PRESETS.get(rules.name, PRESETS[DEFAULT_PRESET])
        if rules == base:
            return base.name
        differ = {
            name: value
            for name, value in rules.as_dict().items()
            if name != "name" and getattr(base, name) != value
        }
        return cls(preset=base.name, **differ)

    @model_validator(mode="after")
    def _no_nulls(self) -> RulesSpec:
        for name in self.model_fields_set - {"max_value"}:
            if getattr(self, name) is None:
                raise _invalid(f"'{name}' cannot be null (leave it out to keep the preset's)")
        return self


# --- events -------------------------------------------------------------------


_UNKNOWN_FIELD = "unknown field (an extension field must start with '_')"


def _event_schema(schema: dict[str, Any]) -> None:
    """One line's schema: ``type`` required, ``_`` extensions allowed, nothing else."""
    schema["required"] = ["type", *[f for f in schema.get("required", []) if f != "type"]]
    schema["additionalProperties"] = False
    schema["patternProperties"] = {"^_": {}}


def _raise_schema(schema: dict[str, Any]) -> None:
    _event_schema(schema)
    schema["oneOf"] = [
        {
            "required": ["to"],
            "properties": {"to": {"type": "integer"}, "reste": {"enum": [False, None]}},
        },
        {"required": ["reste"], "properties": {"reste": {"const": True}, "to": {"type": "null"}}},
    ]


def _rules_schema(schema: dict[str, Any]) -> None:
    for branch in schema.get("anyOf", []):
        if branch.get("type") == "string":
            branch["enum"] = list(PRESETS)


class _EventBase(BaseModel):
    """What every event may carry: ``t``, ``note``, ``marks`` and ``_`` extension fields."""

    model_config = ConfigDict(
        frozen=True, extra="allow", json_schema_extra=_event_schema, defer_build=True
    )

    field_order: ClassVar[tuple[str, ...]] = ()
    """Field names in contract order, as writers emit them (after ``type``)."""

    t: Timestamp | None = Field(default=None, description="When it happened (RFC 3339)")
    note: str | None = Field(default=None, description="A comment")
    marks: list[Mark] | None = Field(
        default=None, description="Short tags (1 to 40 characters each), e.g. 'bluff?'"
    )

    @model_validator(mode="after")
    def _only_extensions(self) -> Any:
        self.__pydantic_fields_set__.add("type")  # given or not, every line has one
        extra = self.__pydantic_extra__
        if extra:
            unknown = [name for name in extra if not name.startswith(EXTENSION_PREFIX)]
            if len(unknown) == 1:
                raise _invalid(_UNKNOWN_FIELD, unknown[0])
            if unknown:
                names = ", ".join(f"'{name}'" for name in unknown)
                raise _invalid(f"unknown fields {names} (an extension field must start with '_')")
        return self

    @property
    def extensions(self) -> dict[str, Any]:
        """The ``_``-prefixed fields of this line."""
        return dict(self.__pydantic_extra__ or {})


class GameEvent(_EventBase):
    """Starts a game: who plays, who deals first, under which rules."""

    type: Literal["game"] = "game"
    format: Literal["truclog/1"]
    players: list[Name] = Field(
        description="Two names, or four in seating order",
        json_schema_extra={
            "uniqueItems": True,
            "anyOf": [{"minItems": 2, "maxItems": 2}, {"minItems": 4, "maxItems": 4}],
        },
    )
    dealer: Name
    rules: str | RulesSpec | None = Field(
        default=None,
        description="A preset name or {'preset': ..., overrides}; 'classic' when left out",
        json_schema_extra=_rules_schema,
    )
    id: str | None = None
    date: str | None = Field(
        default=None,
        description="When the game was played, as the writer noted it (ISO 8601 advised)",
    )
    score: Score | None = Field(default=None, description="Starting score per player (team)")
    match: str | None = Field(default=None, description="Rubber id shared by its games")
    source: str | None = None
    tags: dict[str, str] | None = None
    teams: dict[Name, list[Name]] | None = Field(
        default=None, description="Four players: team name -> the two partners"
    )

    field_order = GAME_FIELDS
    _rules: Rules = PrivateAttr()

    @field_validator("rules", mode="before")
    @classmethod
    def _rules_spec(cls, value: Any) -> Any:
        if isinstance(value, Rules):
            return RulesSpec.of(value)
        if isinstance(value, Mapping):
            try:
                return RulesSpec.model_validate(value)
            except ValidationError as exc:
                raise _invalid(reasons(exc, tagged=False)) from None
        if value is not None and not isinstance(value, str | RulesSpec):
            raise _invalid("must be a preset name or an object {'preset': ..., overrides}")
        return value

    @model_validator(mode="after")
    def _check_table(self) -> GameEvent:
        players = self.players
        if len(players) not in (2, 4):
            raise _invalid(f"a game has 2 or 4 players, not {len(players)}", "players")
        if len(set(players)) != len(players):
            raise _invalid("the players' names must differ", "players")
        if self.dealer not in players:
            raise _invalid(f"'{self.dealer}' is not one of the players", "dealer")
        if self.teams is not None:
            self._check_teams()
        for name in self.score or {}:
            if name not in self.sides:
                side = "player" if len(players) == 2 else "team"
                raise _invalid(
                    f"'{name}' is not a {side} of this game ({', '.join(self.sides)})", "score"
                )
        spec = self.rules
        try:
            rules = get_rules(
                spec.model_dump(exclude_unset=True) if isinstance(spec, RulesSpec) else spec
            )
        except TruclogError as exc:
            raise _invalid(exc.message.replace("Value error, ", ""), "rules") from None
        self._rules = rules
        return self

    def _check_teams(self) -> None:
        teams, players = self.teams or {}, self.players
        if len(players) != 4:
            raise _invalid("only a four-player game has teams", "teams")
        if len(teams) != 2:
            raise _invalid(f"name exactly two teams, not {len(teams)}", "teams")
        for name, members in teams.items():
            seats = [players.index(m) for m in members if m in players]
            if (
                len(members) != 2
                or len(seats) != 2
                or seats[0] % 2 != seats[1] % 2
                or seats[0] == seats[1]
            ):
                raise _invalid(
                    f"'{name}' must be two partners sitting opposite "
                    f"({players[0]} and {players[2]}, or {players[1]} and {players[3]})",
                    "teams",
                )

    @property
    def rules_obj(self) -> Rules:
        """The rules this game is played under."""
        return self._rules

    @property
    def sides(self) -> tuple[str, ...]:
        """Who scores: the players, or the two teams' names in a four-player game.

        >>> GameEvent(format="truclog/1", players=["Ana", "Marc", "Lu", "Zoé"], dealer="Ana").sides
        ('Ana+Lu', 'Marc+Zoé')
        """
        return sides_of(self.players, self.teams)


class DealEvent(_EventBase):
    """Starts a hand, or deals it again after an accepted redeal."""

    type: Literal["deal"] = "deal"
    dealer: Name
    cards: dict[Name, Annotated[list[DealtCard], Field(min_length=3, max_length=3)]] | None = Field(
        default=None, description="Player -> 3 cards; '??' or a player left out is unseen"
    )
    hand: Annotated[StrictInt, Field(ge=1)] | None = Field(
        default=None, description="1-based hand number; a redeal keeps it"
    )

    field_order = ("dealer", "cards", "hand")


class RedealEvent(_EventBase):
    """The non-dealer asked for a new deal; ``accepted`` is the dealer's answer."""

    type: Literal["redeal"] = "redeal"
    player: Name
    accepted: StrictBool

    field_order = ("player", "accepted")


class RaiseEvent(_EventBase):
    """A raise: to a value (``to``), or to the raiser's remainder (``reste: true``)."""

    model_config = ConfigDict(json_schema_extra=_raise_schema)

    type: Literal["raise"] = "raise"
    player: Name
    to: StrictInt | None = Field(default=None, description="The new value of the hand")
    reste: StrictBool | None = Field(
        default=None,
        description="true: a raise to the raiser's remainder",
    )

    field_order = ("player", "to", "reste")

    @model_validator(mode="after")
    def _one_kind(self) -> RaiseEvent:
        if (self.to is not None) == (self.reste is True):
            raise _invalid("a raise needs exactly one of 'to' (the new value) or 'reste': true")
        return self


class AcceptEvent(_EventBase):
    """The pending raise is accepted."""

    type: Literal["accept"] = "accept"
    player: Name

    field_order = ("player",)


class FoldEvent(_EventBase):
    """The pending raise is refused, or (fold-anytime rules) the hand is given up."""

    type: Literal["fold"] = "fold"
    player: Name

    field_order = ("player",)


class PlayEvent(_EventBase):
    """A card played to the trick."""

    type: Literal["play"] = "play"
    player: Name
    card: KnownCard

    field_order = ("player", "card")


class ShowEvent(_EventBase):
    """Cards a player still held, shown after the hand ended."""

    type: Literal["show"] = "show"
    player: Name
    cards: Annotated[list[KnownCard], Field(min_length=1, max_length=3)]

    field_order = ("player", "cards")


class ResultEvent(_EventBase):
    """A hand's outcome as the writer saw it (checked against the engine)."""

    type: Literal["result"] = "result"
    winner: Name | None = Field(description="Who won the hand; null for a drawn hand")
    points: Points = Field(description="What the winner scored in this hand")
    score: Score = Field(description="Every player's (team's) score after the hand")

    field_order = ("winner", "points", "score")


class GameEndEvent(_EventBase):
    """A game's end as the writer saw it (checked against the engine)."""

    type: Literal["game_end"] = "game_end"
    winner: Name | None = None
    score: Score | None = None
    abandoned: StrictBool | None = Field(
        default=None, description="true: stopped before anyone reached the target"
    )

    field_order = ("winner", "score", "abandoned")


Event = Annotated[
    GameEvent
    | DealEvent
    | RedealEvent
    | RaiseEvent
    | AcceptEvent
    | FoldEvent
    | PlayEvent
    | ShowEvent
    | ResultEvent
    | GameEndEvent,
    Field(discriminator="type"),
]

EVENT_TYPES: dict[str, type[_EventBase]] = {
    "game": GameEvent,
    "deal": DealEvent,
    "redeal": RedealEvent,
    "raise": RaiseEvent,
    "accept": AcceptEvent,
    "fold": FoldEvent,
    "play": PlayEvent,
    "show": ShowEvent,
    "result": ResultEvent,
    "game_end": GameEndEvent,
}

EVENT_ADAPTER: TypeAdapter[Event] = TypeAdapter(Event, config=ConfigDict(defer_build=True))
"""Reads any line. Like the models, it is built once they are all defined (below): a log
whose games the quick core clears never imports this module."""


def _build(names: dict[str, Any]) -> None:
    """Build every model of ``names`` (this module's) and the adapter now, with those names.
    Left to their first use, pydantic would look the names up in the frames of whoever
    used them first, by depth, and a compiled caller has no frames: from a script's top
    level that failed ("call stack is not deep enough")."""
    for value in list(names.values()):
        if (
            isinstance(value, type)
            and issubclass(value, BaseModel)
            and value.__module__ == __name__
        ):
            value.model_rebuild(_types_namespace=names)
    EVENT_ADAPTER.rebuild(_types_namespace=names)


_build(globals())


def parse_event(data: bytes | str | Mapping[str, Any]) -> Event:
    """One event from a JSON line (bytes or str) or a dict; raises ``pydantic.ValidationError``."""
    if isinstance(data, bytes | str):
        return EVENT_ADAPTER.validate_json(data)
    return EVENT_ADAPTER.validate_python(data)


def describe_error(error: Mapping[str, Any]) -> tuple[str | None, str]:
    """The field path and the reason of one pydantic error, as a user reads them.

    >>> describe_error({"type": "int_type", "loc": ("raise", "to"), "msg": "Input should be a valid integer", "input": "3"})
    ('to', "must be an integer, not the string '3'")
    """
    loc = [str(part) for part in error.get("loc", ())[1:]]
    ctx = error.get("ctx") or {}
    if "field" in ctx:
        loc.append(str(ctx["field"]))
    kind = error.get("type", "")
    told = _REASONS.get(kind)
    reason = told(error) if told is not None else str(error.get("msg", kind))
    return (".".join(loc) or None), reason


def _given(value: Any) -> str:
    if isinstance(value, bool) or value is None:
        return {True: "true", False: "false", None: "null"}[value]
    if isinstance(value, str):
        shown = value if len(value) <= 30 else value[:27] + "..."
        return f"the string '{shown}'"
    if isinstance(value, float):
        return f"the number {value}"
    if isinstance(value, int):
        return f"the number {value}" if abs(value) < 10**30 else "a huge number"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dict):
        return "an object"
    return type(value).__name__


_REASONS: dict[str, Callable[[Mapping[str, Any]], str]] = {
    "missing": lambda e: "required field is missing",
    "int_type": lambda e: f"must be an integer, not {_given(e.get('input'))}",
    "int_from_float": lambda e: f"must be an integer, not {_given(e.get('input'))}",
    "bool_type": lambda e: f"must be true or false, not {_given(e.get('input'))}",
    "string_type": lambda e: f"must be a string, not {_given(e.get('input'))}",
    "list_type": lambda e: f"must be a list, not {_given(e.get('input'))}",
    "dict_type": lambda e: f"must be an object, not {_given(e.get('input'))}",
    "model_type": lambda e: f"must be an object, not {_given(e.get('input'))}",
    "literal_error": lambda e: (
        f"must be {e.get('ctx', {}).get('expected', '?')}, not {_given(e.get('input'))}"
    ),
    "too_short": lambda e: _count_reason(e),
    "too_long": lambda e: _count_reason(e),
    "string_too_short": lambda e: "must not be empty",
    "string_too_long": lambda e: (
        f"holds at most {e.get('ctx', {}).get('max_length')} characters, "
        f"not {len(str(e.get('input', '')))}"
    ),
    "string_pattern_mismatch": lambda e: _pattern_reason(e),
    "greater_than_equal": lambda e: (
        f"must be at least {e.get('ctx', {}).get('ge')}, not {_given(e.get('input'))}"
    ),
    "extra_forbidden": lambda e: (
        "unknown rule (a rules object takes no extension fields)"
        if str(e.get("loc", ("",))[-1]).startswith(EXTENSION_PREFIX)
        else _UNKNOWN_FIELD
    ),
}


def _pattern_reason(error: Mapping[str, Any]) -> str:
    pattern = error.get("ctx", {}).get("pattern")
    if pattern == TIMESTAMP_PATTERN:
        return _NOT_TIMESTAMP.format(text=error.get("input"))
    return str(error.get("msg"))


_CARD_COUNTS = {"deal": "exactly 3 cards", "show": "1 to 3 cards"}


def _count_reason(error: Mapping[str, Any]) -> str:
    ctx = error.get("ctx") or {}
    low, high, actual = ctx.get("min_length"), ctx.get("max_length"), ctx.get("actual_length")
    loc = error.get("loc", ())
    if len(loc) >= 2 and loc[1] == "cards" and loc[0] in _CARD_COUNTS:
        return f"must list {_CARD_COUNTS[loc[0]]}, not {actual}"
    if error.get("type") == "too_short":
        return f"needs at least {_items(low)}, has {actual}"
    return f"holds at most {_items(high)}, has {actual}"


def _items(count: Any) -> str:
    return f"{count} item" if count == 1 else f"{count} items"


def reasons(exc: ValidationError, tagged: bool = True) -> str:
    """Every reason of a validation error of one line, ``field: why``, joined with ``; ``.

    ``tagged``: the error comes from :data:`Event`, whose locations start with the type.
    """
    parts = []
    for error in exc.errors(include_url=False):
        loc = error["loc"] if tagged else ("", *error["loc"])
        where, why = describe_error({**error, "loc": loc})
        parts.append(f"{where}: {why}" if where else why)
    return "; ".join(parts)


# --- events and engine actions ------------------------------------------------


def event_to_action(event: Event) -> Action | None:
    """The engine action of an event; ``None`` for ``game``, ``result`` and ``game_end``.

    >>> event_to_action(parse_event('{"type":"deal","dealer":"Marc","cards":{"Ana":["7h","??","q"]}}'))
    Deal(dealer='Marc', cards=(('Ana', (Card('7', 'h'), None, Card('Q', None))),), hand=None)
    """
    convert = _TO_ACTION.get(event.type)
    return None if convert is None else convert(event)


def claim_words(event: Event | None, player: Callable[[str], str] = str) -> str:
    """What a line without an action claims, in words: who scored a ``result`` (or a
    drawn hand), who won at a ``game_end`` (or that the game was abandoned); else the
    line's type. ``player`` gives the name to show for a winner.

    >>> claim_words(ResultEvent(winner="Ana", points=2, score={"Ana": 2, "Marc": 0}))
    'result: Ana scores 2'
    >>> claim_words(ResultEvent(winner=None, points=0, score={"Ana": 2, "Marc": 0}))
    'result: drawn hand'
    >>> claim_words(GameEndEvent(winner="Marc"), str.upper), claim_words(GameEndEvent(abandoned=True))
    ('game over: MARC wins', 'game abandoned')
    """
    kind = getattr(event, "type", "?")
    winner = getattr(event, "winner", None)
    if kind == "result":
        points = getattr(event, "points", 0)
        return f"result: {player(winner)} scores {points}" if winner else "result: drawn hand"
    if kind == "game_end":
        if getattr(event, "abandoned", False):
            return "game abandoned"
        return f"game over: {player(winner)} wins" if winner else "game over"
    return str(kind)


def _deal_action(event: DealEvent) -> Deal:
    cards = tuple((p, tuple(map(parse_dealt, held))) for p, held in (event.cards or {}).items())
    return Deal(event.dealer, cards, event.hand)


_TO_ACTION: dict[str, Callable[[Any], Action]] = {
    "play": lambda e: Play(e.player, parse_card(e.card)),
    "raise": lambda e: Raise(e.player, to=e.to, reste=bool(e.reste)),
    "accept": lambda e: Accept(e.player),
    "fold": lambda e: Fold(e.player),
    "deal": _deal_action,
    "redeal": lambda e: Redeal(e.player, e.accepted),
    "show": lambda e: Show(e.player, tuple(parse_card(c) for c in e.cards)),
}
"""Event type -> its engine action (a dispatch table: the validator calls it for every line)."""

ACTION_TYPES: dict[type[Action], str] = {
    Deal: "deal",
    Redeal: "redeal",
    Raise: "raise",
    Accept: "accept",
    Fold: "fold",
    Play: "play",
    Show: "show",
}
"""Engine action class -> the ``type`` of the line it is written as."""


def action_to_event(action: Action, **common: Any) -> Event:
    """The event of an engine action; ``common`` adds ``t``, ``note``, ``marks`` and ``_`` extensions.

    >>> action_to_event(Play("Ana", parse_card("7h")), t="2026-11-29T20:14:03+01:00")
    PlayEvent(t='2026-11-29T20:14:03+01:00', note=None, marks=None, type='play', player='Ana', card='7h')
    """
    fields: dict[str, Any]
    if isinstance(action, Play):
        fields = {"type": "play", "player": action.player, "card": str(action.card)}
    elif isinstance(action, Raise):
        fields = {"type": "raise", "player": action.player}
        fields.update({"reste": True} if action.reste else {"to": action.to})
    elif isinstance(action, Accept):
        fields = {"type": "accept", "player": action.player}
    elif isinstance(action, Fold):
        fields = {"type": "fold", "player": action.player}
    elif isinstance(action, Deal):
        fields = {"type": "deal", "dealer": action.dealer}
        if action.cards:
            fields["cards"] = {p: [format_card(c) for c in held] for p, held in action.cards}
        if action.hand is not None:
            fields["hand"] = action.hand
    elif isinstance(action, Redeal):
        fields = {"type": "redeal", "player": action.player, "accepted": action.accepted}
    else:
        fields = {"type": "show", "player": action.player, "cards": [str(c) for c in action.cards]}
    return EVENT_ADAPTER.validate_python({**fields, **common})


# --- the JSON Schema of one line ----------------------------------------------


def json_schema() -> dict[str, Any]:
    """The JSON Schema (draft 2020-12) of one line of a truclog/1 log, from the models."""
    schema = EVENT_ADAPTER.json_schema(mode="validation")
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": "truclog/1 event",
        "description": (
            "One line of a truclog/1 log (JSON Lines): an event of a game of Le Truc. "
            "Fields starting with '_' are extensions; any other unknown field is an error. "
            "truclog also checks what spans fields of a game line (the dealer is a player, "
            "score keys and teams name its players) and that a whole number is not "
            "written as 3.0."
        ),
        **schema,
    }


def json_schema_text() -> str:
    """:func:`json_schema` as the text of ``schemas/truclog-1.schema.json``."""
    return json.dumps(json_schema(), indent=2, ensure_ascii=False) + "\n"
