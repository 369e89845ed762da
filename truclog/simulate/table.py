"""One simulated game: bots play it on the engine, and it is told as truclog/1 events.

The engine sees every card (the simulator deals real cards from a shuffled
deck); the log may see less. A :class:`SimulatedTable` fixes the rules, the players and
their styles, and the tabletop realism: hidden deals (only the first player's
cards written, the others ``??`` or left out, a ``show`` at the end some of
the time), ``t`` timestamps with plausible thinking times, and a ``note`` now
and then.

Two random streams keep play apart from realism: ``play`` decides the cards
and every bot decision, ``realism`` only what the log shows and when. So a
seed plays the same games whatever the realism asked for.
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from datetime import datetime, timedelta

from truclog.engine.actions import Action, Deal, Raise, Redeal, Show
from truclog.engine.cards import Card, deck
from truclog.engine.rules import Rules
from truclog.engine.state import Phase, State
from truclog.format.events import ACTION_TYPES, Event, GameEvent, action_to_event
from truclog.format.header import FORMAT
from truclog.format.scorekeeper import game_end, result
from truclog.simulate.bots import Style, decide
from truclog.solver.strength import raise_strength

SHOW_CHANCE = 0.5  # a hidden player shows their unplayed cards at the end this often

# Seconds of thought before each kind of line: (shortest, longest).
THINKING: dict[str, tuple[int, int]] = {
    "deal": (25, 70),
    "redeal": (3, 10),
    "raise": (4, 25),
    "accept": (3, 18),
    "fold": (3, 18),
    "play": (2, 12),
    "show": (2, 6),
    "result": (3, 10),
    "game_end": (0, 2),
}

NOTES: dict[str, tuple[str, ...]] = {
    "deal": ("{who} shuffles twice", "new round of coffees", "a spectator joins the table"),
    "redeal": ("{who} grumbles about the cards",),
    "raise": ("{who} raises without looking up", "{who} taps the table", "long pause first"),
    "accept": ("{who} accepts at once", "{who} thinks it over"),
    "fold": ("{who} throws the cards in", "{who} sighs"),
    "play": ("{who} slaps the card down", "{who} hesitates"),
    "show": ("{who} shows to prove the point",),
    "result": ("score written on the paper tablecloth",),
}


def cards_needed(rules: Rules, players: int) -> int:
    """Cards taken from the top of a shuffled deck for one hand: a deal, and a redeal
    from the rest of the deck where the rules deal it so.

    >>> from truclog.engine.rules import get_rules
    >>> cards_needed(get_rules("classic"), 2), cards_needed(get_rules("sackson"), 4)
    (12, 12)
    """
    return 3 * players * (2 if rules.redeal == "rest" else 1)


@dataclass(frozen=True, slots=True)
class SimulatedTable:
    """What stays the same for every game of a simulation."""

    rules: Rules
    players: tuple[str, ...]
    styles: Mapping[str, Style]
    rules_label: str | dict[str, object] = "classic"  # what the ``game`` lines declare
    hidden: float = 0.0  # fraction of deals that record only the first player's cards
    timestamps: bool = False
    notes: float = 0.0  # chance that a line carries a note
    annotate: bool = False  # ``_strength`` on raise lines
    teams: tuple[str, str] | None = None  # four players: names of seats 1 and 3, and 2 and 4

    def team_members(self) -> dict[str, list[str]] | None:
        """The ``teams`` object of the ``game`` lines, when the teams are named."""
        if self.teams is None:
            return None
        first, second = self.teams
        players = self.players
        return {first: [players[0], players[2]], second: [players[1], players[3]]}


@dataclass(slots=True)
class SimulatedClock:
    """The table's time: thinking times between lines, breaks between games."""

    now: datetime
    rng: random.Random = field(repr=False)

    def think(self, kind: str) -> None:
        """Move the clock on by a plausible thinking time for a line of ``kind``."""
        low, high = THINKING[kind]
        self.now += timedelta(seconds=low + int(self.rng.random() * (high - low + 1)))

    def take_a_break(self) -> None:
        """A few minutes between games; the next evening once it is late."""
        self.now += timedelta(minutes=self.rng.randint(3, 15))
        if self.now.hour >= 23 or self.now.hour < 6:
            evening = (self.now - timedelta(hours=6)).date() + timedelta(days=1)
            start = datetime(
                evening.year, evening.month, evening.day, 19, 30, tzinfo=self.now.tzinfo
            )
            self.now = start + timedelta(minutes=self.rng.randint(0, 75))

    def stamp(self) -> str:
        """The time to write on the next line, as the format writes it."""
        return self.now.isoformat(timespec="seconds")

    def common(self, table: SimulatedTable) -> dict[str, str]:
        """A line's ``t`` now, where the table writes timestamps."""
        return {"t": self.stamp()} if table.timestamps else {}


def first_game(
    table: SimulatedTable, clock: SimulatedClock, game_id: str, dealer: str, match: str | None
) -> GameEvent:
    """The ``game`` line of a game that starts a rubber (or stands alone), now."""
    extra: dict[str, object] = {}
    if match is not None:
        extra["match"] = match
    if table.teams is not None:
        extra["teams"] = table.team_members()
    extra.update(clock.common(table))
    return GameEvent(
        format=FORMAT,
        id=game_id,
        date=clock.now.date().isoformat(),
        rules=table.rules_label,
        players=list(table.players),
        dealer=dealer,
        source="simulated",
        **extra,
    )


class SimulatedGame:
    """The game that ``header`` starts, played by bots; :meth:`events` plays it and
    yields its log lines. Once the events are consumed, :attr:`state` is the finished game.
    """

    def __init__(
        self,
        table: SimulatedTable,
        play: random.Random,
        realism: random.Random,
        clock: SimulatedClock,
        header: GameEvent,
    ) -> None:
        self.table = table
        self.play = play
        self.realism = realism
        self.clock = clock
        self.header = header
        self.state = State.new(header.players, header.dealer, table.rules, teams=header.teams)
        self.deck = deck(table.rules.order)

    def events(self) -> Iterator[Event]:
        """The game's lines as events: the game line, each hand, the end of the game."""
        yield self.header
        while self.state.phase is not Phase.GAME_OVER:
            yield from self._hand()
        yield game_end(self.state, **self._common("game_end"))

    def _hand(self) -> Iterator[Event]:
        state, rules = self.state, self.table.rules
        hidden = self.realism.random() < self.table.hidden
        cards = self._shuffled()
        yield self._deal(cards, hidden)
        while state.phase is Phase.PLAY:
            action = decide(state, self.table.styles, self.play).action
            strength = None
            if self.table.annotate and isinstance(action, Raise):
                strength = raise_strength(state, action.player)
            state.push(action)
            yield self._event(action, strength)
            if isinstance(action, Redeal) and action.accepted:  # the same dealer deals again
                fresh = rules.redeal == "reshuffle"
                cards = self._shuffled() if fresh else cards[3 * len(state.players) :]
                yield self._deal(cards, hidden)
        if hidden:
            yield from self._shows()
        yield result(state, **self._common("result"))

    def _shuffled(self) -> list[Card]:
        """The top of a shuffled deck: enough for a deal and a redeal from the rest."""
        return self.play.sample(self.deck, cards_needed(self.table.rules, len(self.table.players)))

    def _deal(self, cards: list[Card], hidden: bool) -> Event:
        state = self.state
        due = state.next_deal
        name, hand = due.dealer, due.hand
        hands = {p: cards[3 * i : 3 * i + 3] for i, p in enumerate(state.players)}
        deal = Deal.of(name, hands, hand)
        state.push(deal)
        if not hidden:
            return self._event(deal)
        recorder = state.players[0]
        seen: dict[str, list[Card | None]] = {recorder: list(hands[recorder])}
        if self.realism.random() < 0.5:
            seen.update({p: [None, None, None] for p in state.players[1:]})
        return self._event(Deal.of(name, seen, hand))

    def _shows(self) -> Iterator[Event]:
        state = self.state
        for player in state.players[1:]:
            known, _ = state.known_cards(player)
            if known and self.realism.random() < SHOW_CHANCE:
                show = Show(player, tuple(known))
                state.push(show)
                yield self._event(show)

    def _event(self, action: Action, strength: float | None = None) -> Event:
        common = self._common(ACTION_TYPES[type(action)], getattr(action, "player", None))
        if strength is not None:
            common["_strength"] = round(strength, 4)
        return action_to_event(action, **common)

    def _common(self, kind: str, who: str | None = None) -> dict[str, object]:
        self.clock.think(kind)
        common: dict[str, object] = dict(self.clock.common(self.table))
        if self.table.notes and self.realism.random() < self.table.notes:
            templates = NOTES.get(kind)
            if templates:
                who = who or self.state.players[self.state.dealer]
                common["note"] = self.realism.choice(templates).format(who=who)
        return common
