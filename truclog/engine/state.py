"""The rules engine: a game state that checks and applies actions.

The state is mutable like a chess board: :meth:`State.push` applies an action
or raises an :class:`~truclog.errors.IllegalActionError` and changes nothing;
:meth:`State.check` and :meth:`State.is_legal` ask first; :meth:`State.legal_actions`
lists what is legal now. :func:`apply` is the pure form, returning a new state.

>>> from truclog.engine.cards import parse_card as c
>>> s = State.new(["Ana", "Marc"], dealer="Marc", rules="classic")
>>> s.push(Deal.of("Marc", {"Ana": [c("7h"), c("Q"), c("9s")]}))
>>> s.to_act, s.value
('Ana', 1)
>>> s.push(Raise("Ana", to=2)); s.push(Accept("Marc"))
>>> for player, card in [("Ana", "7h"), ("Marc", "As"), ("Ana", "Q"), ("Marc", "Jd")]:
...     s.push(Play(player, c(card)))
>>> s.phase, s.outcome.winner, s.outcome.points, s.score
(<Phase.HAND_OVER: 'hand_over'>, 'Ana', 2, {'Ana': 2, 'Marc': 0})
>>> s.push(Raise("Marc", to=3))
Traceback (most recent call last):
...
truclog.errors.IllegalActionError: hand 1 is already decided: no raise may follow
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from truclog.codes import Check, Code
from truclog.diagnostic import score_words
from truclog.engine.actions import (
    Accept,
    Action,
    Deal,
    Fold,
    Play,
    Raise,
    RaiseRange,
    Redeal,
    Show,
)
from truclog.engine.cards import Card, format_card
from truclog.engine.holding import DealCount, Holding, deal_problem
from truclog.engine.records import Reduced, rebuilt
from truclog.engine.rules import Rules, get_rules
from truclog.engine.sides import sides_of
from truclog.engine.trail import Trail
from truclog.engine.trick import TrickResult, all_tied_winner, decide, team_of, trick_winner
from truclog.errors import IllegalActionError


class Phase(StrEnum):
    """Where a game stands: waiting for a deal or a redeal, a hand in play, a hand decided, the game over."""

    DEAL = "deal"  # waiting for the next hand to be dealt
    REDEAL = "redeal"  # a redeal was granted: waiting for the same dealer to deal again
    PLAY = "play"  # a hand is in progress
    HAND_OVER = "hand_over"  # the hand is decided: only show, or the next deal
    GAME_OVER = "game_over"  # someone reached the target: only show


@dataclass(frozen=True, slots=True)
class PendingRaise:
    """A raise waiting for its answer: the raiser's seat, the value raised to, the
    value before it, and whether it is the reste."""

    raiser: int  # seat
    to: int
    previous: int
    reste: bool

    def __reduce__(self) -> Reduced:
        return rebuilt(self)


@dataclass(frozen=True, slots=True)
class Outcome:
    """How a hand ended. ``winner`` is a team name, ``None`` for a drawn hand.

    ``ending`` is ``"tricks"``, ``"fold"`` or ``"draw"``; ``reste`` is true when an
    accepted or refused reste decided what was scored.
    """

    hand: int
    winner: str | None
    points: int
    ending: str
    reste: bool
    score: Mapping[str, int]

    def __reduce__(self) -> Reduced:
        return rebuilt(self)


@dataclass(frozen=True, slots=True)
class View:
    """One player's view of a moment of the game (:meth:`State.view`).

    ``cards`` are the player's own cards still in hand as the log knows them
    (``None`` for a card it never names); of the others, only how many cards
    each holds (``held``), what is on the table and what was shown after the
    hand. Tricks and teams are named, not numbered.
    """

    player: str
    hand: int
    phase: Phase
    dealer: str
    cards: tuple[Card | None, ...]
    held: Mapping[str, int]
    trick: tuple[tuple[str, Card], ...]
    last_trick: tuple[tuple[str, Card], ...]
    results: tuple[str | None, ...]
    """The team that took each finished trick, ``None`` for a tied trick."""
    shown: Mapping[str, tuple[Card, ...]]
    value: int
    raised_by: str | None
    """Who made the raise waiting for an answer."""
    raised_to: int | None
    to_act: str | None
    score: Mapping[str, int]

    def __reduce__(self) -> Reduced:
        return rebuilt(self)


class State:
    """A game of Le Truc for two players, or four in two teams, under one set of rules."""

    def __init__(
        self,
        players: Sequence[str],
        dealer: str,
        rules: Rules | str | Mapping[str, Any] | None = None,
        score: Mapping[str, int] | None = None,
        teams: Mapping[str, Sequence[str]] | None = None,
    ) -> None:
        self.rules = get_rules(rules)
        self.players: tuple[str, ...] = tuple(players)
        if len(self.players) not in (2, 4) or len(set(self.players)) != len(self.players):
            raise IllegalActionError("a game needs two or four distinct players", Check.BAD_GAME)
        self.seat = {name: i for i, name in enumerate(self.players)}
        self.teams: tuple[str, str] = _team_names(self.players, teams)
        if dealer not in self.seat:
            raise IllegalActionError(f"the dealer {dealer!r} is not a player", Check.BAD_GAME)
        self._scores = [0, 0]
        for name, points in (score or {}).items():
            self._scores[self._team_index(name)] = points
        self.start_score = tuple(self._scores)
        self.first_dealer = self.seat[dealer]
        self.dealer = self.first_dealer
        self.hand_no = 0
        self.phase = Phase.GAME_OVER if max(self._scores) >= self.rules.target else Phase.DEAL
        self.history: Trail[Action] = Trail()
        self.outcomes: Trail[Outcome] = Trail()
        self._clear_hand()

    @classmethod
    def new(
        cls,
        players: Sequence[str],
        dealer: str,
        rules: Rules | str | Mapping[str, Any] | None = None,
        score: Mapping[str, int] | None = None,
        teams: Mapping[str, Sequence[str]] | None = None,
    ) -> State:
        """A game at its start, before the first deal."""
        return cls(players, dealer, rules, score, teams)

    def _team_index(self, name: str) -> int:
        if name in self.teams:
            return self.teams.index(name)
        if name in self.seat:
            return team_of(self.seat[name])
        raise IllegalActionError(
            f"{name!r} is neither a player nor a team of this game", Code.UNKNOWN_PLAYER
        )

    def _clear_hand(self, holdings: list[Holding] | None = None) -> None:
        self.value = 1
        self.pending: PendingRaise | None = None
        self.last_raiser_team: int | None = None
        self.reste_accepted = False
        self.redeal_asked = False
        self.acted = False
        self.holdings = holdings if holdings is not None else [Holding() for _ in self.players]
        self.prior: tuple[Card, ...] = ()  # a first deal's cards, which cannot come again
        self.trick: list[tuple[int, Card]] = []
        self.tricks: list[list[tuple[int, Card]]] = []  # the finished tricks of this hand
        self.results: list[TrickResult] = []
        self.leader = (self.dealer + 1) % len(self.players)
        self.turn = self.leader

    def __repr__(self) -> str:
        """The game in one line: rules, players, hand, phase, score and who acts.

        >>> State.new(["Ana", "Marc"], dealer="Marc", score={"Ana": 3})
        <State classic Ana v Marc: hand 0, deal, score Ana 3 · Marc 0, Marc to act>
        """
        score = score_words(self.score, " · ")
        acting = "" if self.to_act is None else f", {self.to_act} to act"
        return (
            f"<State {self.rules.describe()} {' v '.join(self.players)}: hand {self.hand_no}, "
            f"{self.phase.value}, score {score}{acting}>"
        )

    # --- reading the state -------------------------------------------------

    @property
    def score(self) -> dict[str, int]:
        """Points per team (per player in a two-player game)."""
        return dict(zip(self.teams, self._scores, strict=True))

    @property
    def outcome(self) -> Outcome | None:
        """How the last decided hand ended."""
        return self.outcomes[-1] if self.outcomes else None

    @property
    def winner(self) -> str | None:
        """The team (player) that won the game, once it is over."""
        if self.phase is not Phase.GAME_OVER:
            return None
        best = max(range(2), key=lambda t: self._scores[t])
        return self.teams[best] if self._scores[best] >= self.rules.target else None

    @property
    def to_act(self) -> str | None:
        """Who must act next in the hand: the answerer's team is answered by its first member."""
        if self.phase is not Phase.PLAY:
            return self.players[self.dealer] if self.phase in (Phase.DEAL, Phase.REDEAL) else None
        if self.pending is not None:
            return self.players[(self.pending.raiser + 1) % len(self.players)]
        return self.players[self.turn]

    @property
    def dealer_name(self) -> str:
        """The name of the player dealing this hand (``dealer`` is the seat)."""
        return self.players[self.dealer]

    @property
    def next_deal(self) -> Deal:
        """The deal due next, cards unseen: who deals it and the hand number it carries.

        The first dealer deals hand 1; the deal passes to the next player after every
        hand, drawn hands included; a granted redeal is dealt by the same dealer and keeps
        the hand's number. During a hand: the deal after it, if no redeal is granted.

        >>> s = State.new(["Ana", "Marc"], dealer="Marc")
        >>> s.next_deal
        Deal(dealer='Marc', cards=(), hand=1)
        >>> s.push(s.next_deal); s.next_deal
        Deal(dealer='Ana', cards=(), hand=2)
        """
        again = self.phase is Phase.DEAL or self.phase is Phase.REDEAL
        seat = self.dealer if again else (self.dealer + 1) % len(self.players)
        hand = self.hand_no if self.phase is Phase.REDEAL else self.hand_no + 1
        return Deal(self.players[seat], hand=hand)

    @property
    def next_game_dealer(self) -> str:
        """Who deals first in the next game at this table (the next game of a rubber):
        the player after this game's first dealer.

        >>> State.new(["Ana", "Marc", "Lu", "Zoé"], dealer="Zoé").next_game_dealer
        'Ana'
        """
        return self.players[(self.first_dealer + 1) % len(self.players)]

    @property
    def redeal_asker(self) -> str:
        """Who may ask for a redeal: the player after the dealer, who leads the hand."""
        return self.players[(self.dealer + 1) % len(self.players)]

    @property
    def team_names(self) -> dict[str, str]:
        """Player -> team name."""
        return {p: self.teams[team_of(i)] for i, p in enumerate(self.players)}

    def remainder(self, player: str) -> int:
        """Points the player's team still needs to reach the target."""
        return self.rules.target - self._scores[team_of(self.seat[player])]

    @property
    def seen(self) -> set[Card]:
        """The suited cards of this deal known so far, with a first deal's after a redeal."""
        return {card for card in self._deal_cards() if card.suit is not None}

    def known_cards(self, player: str) -> tuple[list[Card], int]:
        """The player's cards still in hand that are known, and how many are unseen."""
        held = self.holdings[self.seat[player]]
        return list(held.known), held.unseen

    def dealt_cards(self, player: str) -> list[Card | None]:
        """The player's three cards of this deal, played or not, as far as the log knows them
        (``None`` for a card still unseen)."""
        return self.holdings[self.seat[player]].cards()

    @property
    def hand_actions(self) -> list[Action]:
        """The actions since the latest deal (empty before the first deal).

        >>> s = State.new(["Ana", "Marc"], dealer="Marc")
        >>> s.push(Deal("Marc")); s.push(Raise("Ana", to=2)); s.push(Accept("Marc"))
        >>> [str(a) for a in s.hand_actions]
        ['Ana raises to 2', 'Marc accepts']
        """
        since: list[Action] = []
        for action in reversed(self.history):
            if isinstance(action, Deal):
                since.reverse()
                return since
            since.append(action)
        return []

    @property
    def last_trick(self) -> list[tuple[int, Card]]:
        """The (seat, card) plays of the hand's last finished trick, empty before the first."""
        return list(self.tricks[-1]) if self.tricks else []

    @property
    def answerers(self) -> list[str]:
        """Who may answer the pending raise: the opponent, or either opponent in team play.

        >>> s = State.new(["Ana", "Marc", "Lu", "Zoé"], dealer="Zoé")
        >>> s.push(Deal("Zoé")); s.push(Raise("Ana", to=2))
        >>> s.answerers
        ['Marc', 'Zoé']
        """
        if self.pending is None:
            return []
        n, raiser = len(self.players), self.pending.raiser
        return [self.players[seat % n] for seat in range(raiser + 1, raiser + n, 2)]

    def view(self, player: str) -> View:
        """What ``player`` can see now: their own cards, the table, the tricks, the score.

        >>> from truclog.engine.cards import parse_card as c
        >>> s = State.new(["Ana", "Marc"], dealer="Marc")
        >>> s.push(Deal.of("Marc", {"Ana": [c("7h"), c("Q"), c("9s")], "Marc": [c("As"), None, None]}))
        >>> s.push(Play("Ana", c("7h")))
        >>> ana = s.view("Ana")
        >>> ana.cards, ana.held, ana.trick, ana.to_act
        ((Card('Q', None), Card('9', 's')), {'Ana': 2, 'Marc': 3}, (('Ana', Card('7', 'h')),), 'Marc')
        >>> s.view("Marc").cards       # what the log knows of Marc's cards
        (Card('A', 's'), None, None)
        """
        if player not in self.seat:
            raise IllegalActionError(
                f"{player!r} is not a player of this game", Code.UNKNOWN_PLAYER
            )
        names = self.players
        pending = self.pending
        return View(
            player=player,
            hand=self.hand_no,
            phase=self.phase,
            dealer=self.dealer_name,
            cards=tuple(self.holdings[self.seat[player]].in_hand()),
            held={name: len(self.holdings[seat]) for seat, name in enumerate(names)},
            trick=tuple((names[seat], card) for seat, card in self.trick),
            last_trick=tuple((names[seat], card) for seat, card in self.last_trick),
            results=tuple(None if r is None else self.teams[r] for r in self.results),
            shown={
                name: tuple(
                    card
                    for card, played in zip(held.revealed, held.played, strict=True)
                    if not played
                )
                for name, held in zip(names, self.holdings, strict=True)
            },
            value=self.value,
            raised_by=None if pending is None else names[pending.raiser],
            raised_to=None if pending is None else pending.to,
            to_act=self.to_act,
            score=self.score,
        )

    def copy(self) -> State:
        """A copy that can be changed without touching this state."""
        new = State(self.players, self.players[self.first_dealer], self.rules)
        new._adopt(self)
        new._scores = list(self._scores)
        new.history = self.history.copy()
        new.outcomes = self.outcomes.copy()
        new.holdings = [h.copy() for h in self.holdings]
        new.trick = list(self.trick)
        new.tricks = list(self.tricks)
        new.results = list(self.results)
        return new

    def __reduce__(self) -> Reduced:
        return _state_from, (
            self.players,
            self.players[self.first_dealer],
            self.rules,
            self._values(),
        )

    def _values(self) -> dict[str, Any]:
        return {name: getattr(self, name) for name in _STATE_ATTRIBUTES}

    def _adopt(self, other: State) -> None:
        """Take every attribute of ``other`` (shallow): compiled, a state has no ``__dict__``."""
        self.rules = other.rules
        self.players = other.players
        self.seat = other.seat
        self.teams = other.teams
        self._scores = other._scores
        self.start_score = other.start_score
        self.first_dealer = other.first_dealer
        self.dealer = other.dealer
        self.hand_no = other.hand_no
        self.phase = other.phase
        self.history = other.history
        self.outcomes = other.outcomes
        self.value = other.value
        self.pending = other.pending
        self.last_raiser_team = other.last_raiser_team
        self.reste_accepted = other.reste_accepted
        self.redeal_asked = other.redeal_asked
        self.acted = other.acted
        self.holdings = other.holdings
        self.prior = other.prior
        self.trick = other.trick
        self.tricks = other.tricks
        self.results = other.results
        self.leader = other.leader
        self.turn = other.turn

    # --- asking ------------------------------------------------------------

    def check(self, action: Action) -> None:
        """Raise :class:`IllegalActionError` if ``action`` is not legal now."""
        self._checked(action)

    def is_legal(self, action: Action) -> bool:
        """Whether ``action`` is legal now (:meth:`check` without the error)."""
        try:
            self._checked(action)
        except IllegalActionError:
            return False
        return True

    def legal_actions(self) -> list[Action]:
        """Every legal action now, but ``show`` (always legal after a hand for held cards).

        Deals are listed with unseen cards; plays from unseen cards as rank-only cards;
        plain raises from :meth:`raise_range` (its ``low`` to its ``listed``: with no
        upper limit, up to the target; every higher value is legal too, as the range
        says). Every action listed is legal, and every legal action but higher raises
        of an unlimited range is listed.
        """
        return [a for a in self._candidates() if self.is_legal(a)]

    def raise_range(self, player: str | None = None) -> RaiseRange | None:
        """The plain raises legal now for ``player`` (default: whoever is to play), as a
        range of values (low, and high unless nothing limits them), or ``None``.

        >>> s = State.new(["Ana", "Marc"], dealer="Marc", rules="classic")
        >>> s.push(Deal("Marc")); s.raise_range()
        RaiseRange(player='Ana', low=2, high=None, listed=12)
        >>> s.push(Raise("Ana", to=2)); s.push(Accept("Marc")); s.raise_range("Ana") is None
        True
        >>> s = State.new(["Ana", "Marc"], dealer="Marc", rules="francais", score={"Ana": 4})
        >>> s.push(Deal("Marc")); s.push(Raise("Ana", to=2)); s.push(Accept("Marc"))
        >>> s.raise_range("Ana")    # double, to 8 at most
        RaiseRange(player='Ana', low=4, high=4, listed=4)
        """
        name = self.players[self.turn] if player is None else player
        if self._raise_error(Raise(name, to=self._lowest_raise())) is not None:
            return None
        low = self._lowest_raise()
        high = low if self.rules.raises == "double" else self._raise_limit(name)
        return RaiseRange(name, low, high, max(low, self.rules.target) if high is None else high)

    def may_raise(self, player: str) -> bool:
        """Whether ``player`` may raise now, to some value or with reste."""
        return self.stake_open(player) and (
            self.raise_range(player) is not None
            or self._raise_error(Raise(player, reste=True)) is None
        )

    def stake_open(self, player: str) -> bool:
        """Whether ``player``'s side may still raise in this hand, whatever the score:
        no reste was accepted, the side did not raise last under ``alternate_raises``,
        and the value is below ``max_value`` (or reste, which goes past it, is allowed).
        :meth:`may_raise` says whether a raise is legal now."""
        if self.reste_accepted:
            return False
        rules = self.rules
        if rules.alternate_raises and self.last_raiser_team == team_of(self.seat[player]):
            return False
        return rules.reste or rules.max_value is None or self.value < rules.max_value

    def may_redeal(self, player: str) -> bool:
        """Whether ``player`` may ask for a redeal now: the player after the dealer,
        before anything else in the hand, once, where the rules allow redeals."""
        return (
            self.phase is Phase.PLAY
            and self.rules.redeal != "none"
            and player == self.redeal_asker
            and not self.redeal_asked
            and not self.acted
        )

    def fold_ends_game(self) -> bool:
        """Whether folding to the pending raise gives the raiser the game
        (:func:`fold_ends_game`); false with no raise pending."""
        return self.pending is not None and fold_ends_game(self.rules, self.pending)

    def _lowest_raise(self) -> int:
        return 2 * self.value if self.rules.raises == "double" else self.value + 1

    def _raise_limit(self, player: str) -> int | None:
        """The highest value a raise may reach: ``max_value``, and under ``cap_at_target``
        the raiser's remainder; ``None``: no limit."""
        limits = [self.rules.max_value] if self.rules.max_value is not None else []
        if self.rules.cap_at_target:
            limits.append(self.remainder(player))
        return min(limits) if limits else None

    def _candidates(self) -> Iterator[Action]:
        if self.phase in (Phase.DEAL, Phase.HAND_OVER, Phase.REDEAL):
            yield self.next_deal
            return
        if self.phase is not Phase.PLAY:
            return
        if self.pending is not None:
            for name in self.players:
                yield Accept(name)
                yield Fold(name)
            return
        if self.rules.fold_anytime:
            yield from (Fold(name) for name in self.players)
        if not self.acted:
            asker = self.redeal_asker
            yield Redeal(asker, True)
            yield Redeal(asker, False)
        player = self.players[self.turn]
        if self._raise_error(Raise(player, reste=True)) is None:
            yield Raise(player, reste=True)
        span = self.raise_range(player)
        if span is not None:
            yield from span.listed_raises()
        held = self.holdings[self.turn]
        cards = held.known
        if held.unseen:
            cards += [Card(r) for r in self.rules.order if r not in {c.rank for c in cards}]
        yield from (Play(player, card) for card in dict.fromkeys(cards))

    # --- applying ----------------------------------------------------------

    def push(self, action: Action) -> None:
        """Apply a legal action, or raise :class:`IllegalActionError` and change nothing."""
        token = self._checked(action)
        self.history.append(action)
        _EFFECTS[type(action)](self, action, token)

    def pop(self) -> Action:
        """Take back the last action (replays the game without it)."""
        if not self.history:
            raise IllegalActionError("there is no action to take back", Code.NOTHING_TO_UNDO)
        last = self.history[-1]
        fresh = self.replay(self.history[:-1])
        self._adopt(fresh)
        return last

    def replay(self, actions: Sequence[Action]) -> State:
        """A new state: this game's start with ``actions`` applied."""
        start = State(
            self.players,
            self.players[self.first_dealer],
            self.rules,
            dict(zip(self.teams, self.start_score, strict=True)),
            self.teams_mapping,
        )
        for action in actions:
            start.push(action)
        return start

    def adopt_score(self, score: Mapping[str, int]) -> None:
        """Go on from a score written down elsewhere (team -> points): the validator
        follows the players' own count after a scorekeeping slip, so it is reported once."""
        self._scores = [score[t] for t in self.teams]
        if max(self._scores) >= self.rules.target:
            self.phase = Phase.GAME_OVER
        elif self.phase is Phase.GAME_OVER:
            self.phase = Phase.HAND_OVER

    @property
    def teams_mapping(self) -> dict[str, list[str]] | None:
        """The teams as a game line names them (``None`` for two players)."""
        if len(self.players) == 2:
            return None
        return {t: [p for p, n in self.team_names.items() if n == t] for t in self.teams}

    # --- checks ------------------------------------------------------------

    def _checked(self, action: Action) -> Any:
        player = action.dealer if isinstance(action, Deal) else action.player
        if player not in self.seat:
            raise IllegalActionError(
                f"{player!r} is not a player of this game ({', '.join(self.players)})",
                Code.UNKNOWN_PLAYER,
            )
        kind = type(action)
        if self.phase is not Phase.PLAY and kind is not Deal and kind is not Show:
            self._check_in_hand(action)
        return _CHECKS[kind](self, action)

    def _fail(self, code: str, message: str) -> IllegalActionError:
        return IllegalActionError(message, code)

    def _rule(self, field: str) -> str:
        return f"({self.rules.describe()}: {field})"

    def _check_in_hand(self, action: Action) -> None:
        if self.phase is Phase.PLAY:
            return
        verb = type(action).__name__.lower()
        if self.phase is Phase.GAME_OVER:
            raise self._fail(Code.GAME_OVER, f"the game is over: no {verb} may follow")
        if self.phase is Phase.HAND_OVER:
            raise self._fail(
                Code.HAND_DECIDED, f"hand {self.hand_no} is already decided: no {verb} may follow"
            )
        if self.phase is Phase.REDEAL:
            raise self._fail(
                Code.NO_HAND, f"a redeal was granted: {self.dealer_name} must deal again"
            )
        if self.phase is Phase.DEAL:
            raise self._fail(Code.NO_HAND, f"no hand is in progress: {verb} before the deal")

    def _check_pending(self, action: Action) -> None:
        if self.pending is not None:
            raiser = self.players[self.pending.raiser]
            raise self._fail(
                Code.RAISE_PENDING if isinstance(action, Raise) else Code.ANSWER_PENDING,
                f"{raiser}'s raise to {self.pending.to} is pending: it must be accepted or "
                "refused first",
            )

    def _check_turn(self, action: Play | Raise) -> None:
        if self.seat[action.player] != self.turn:
            doing = f"play {action.card}" if isinstance(action, Play) else "raise"
            raise self._fail(
                Code.OUT_OF_TURN,
                f"{action.player} cannot {doing}: it is {self.players[self.turn]}'s turn to play",
            )

    def _check_deal(self, deal: Deal) -> None:
        if self.phase is Phase.GAME_OVER:
            raise self._fail(Code.GAME_OVER, "the game is over: no deal may follow")
        if self.phase is Phase.PLAY:
            raise self._fail(
                Code.DEAL_IN_PROGRESS,
                f"hand {self.hand_no} is still in progress: it cannot be dealt again",
            )
        redeal = self.phase is Phase.REDEAL
        dealer = self.next_deal.dealer
        if deal.dealer != dealer:
            passes = "alternates" if len(self.players) == 2 else "passes to the next player"
            why = "a granted redeal is dealt by the same dealer" if redeal else f"the deal {passes}"
            raise self._fail(
                Code.DEAL_WRONG_DEALER,
                f"{deal.dealer} cannot deal: {dealer} deals this hand ({why})",
            )
        number = self.next_number(deal)
        if deal.hand is not None and deal.hand != number:
            raise self._fail(
                Code.DEAL_WRONG_NUMBER,
                f"this deal is hand {number}, not {deal.hand}"
                + (" (a redeal keeps the hand's number)" if redeal else ""),
            )
        self._check_dealt_cards(deal, keep_seen=redeal and self.rules.redeal == "rest")

    def next_number(self, deal: Deal) -> int:
        """The number ``deal`` must carry: a redeal keeps it; a game resumed from a written
        score may start from any number and count on from there."""
        due = self.next_deal.hand
        assert due is not None
        resumed = self.phase is not Phase.REDEAL and not self.hand_no and any(self.start_score)
        return deal.hand if resumed and deal.hand is not None and deal.hand > 0 else due

    def _check_dealt_cards(self, deal: Deal, keep_seen: bool) -> None:
        for player, cards in deal.cards:
            if player not in self.seat:
                raise self._fail(
                    Code.UNKNOWN_PLAYER, f"cards dealt to {player!r}, who is not a player"
                )
            if len(cards) != 3:
                raise self._fail(
                    Code.DEAL_WRONG_COUNT, f"{player} must be dealt 3 cards, not {len(cards)}"
                )
        if not keep_seen and _distinct_in_deck(deal, self.rules.order):
            return
        counted = DealCount(self.rules.order, self._deal_cards() if keep_seen else ())
        for player, cards in deal.cards:
            for card in cards:
                if card is not None:
                    self._refuse(counted.add(card), card, f"dealt to {player}")

    def _deal_cards(self, skip: int | None = None) -> list[Card]:
        """The cards of this deal known so far (and of a first deal that cannot come again)."""
        cards = list(self.prior)
        for seat, held in enumerate(self.holdings):
            if seat != skip:
                cards += held.physical()
        return cards

    def _refuse(self, problem: str | None, card: Card, where: str) -> None:
        """Raise the error for a deal problem found when ``card`` came ``where``."""
        if problem is None:
            return
        kind = problem.partition(":")[0]
        if kind == "deck":
            raise self._fail(
                Code.CARD_NOT_IN_DECK,
                f"{card} {where} is not in the {self.rules.describe()} deck "
                f"(ranks {self.rules.order})",
            )
        if kind == "twice":
            raise self._fail(Code.CARD_TWICE, f"{card} {where} is already out in this deal")
        raise self._fail(
            Code.FIFTH_OF_RANK, f"{card} {where} would be a fifth card of rank {card.rank}"
        )

    def _check_holding(self, seat: int, card: Card, held: Holding, doing: str) -> list[int]:
        """Where ``card`` goes among the seat's dealt cards (see :class:`Holding`)."""
        player = self.players[seat]
        where = f"{doing} by {player}"
        if card.rank not in self.rules.order:
            self._refuse(f"deck:{card}", card, where)
        others: list[list[Card]] = []  # the rest of the deal, looked up only when needed

        def check(cards: list[Card]) -> str | None:
            if not others:
                others.append(self._deal_cards(skip=seat))
            return deal_problem([*others[0], *cards], self.rules.order)

        slots = held.place(card, check)
        if slots is not None:
            return slots
        self._refuse(held.problem(card, check), card, where)
        cards = " ".join(format_card(c) for c in held.in_hand()) or "no cards"
        raise self._fail(Code.CARD_NOT_HELD, f"{player} does not hold {card} (holds {cards})")

    def _check_play(self, play: Play) -> list[int]:
        if self.pending is not None:
            self._check_pending(play)
        seat = self.seat[play.player]
        if seat != self.turn:
            self._check_turn(play)
        held = self.holdings[seat]
        return held.place_dealt(play.card) or self._check_holding(seat, play.card, held, "played")

    def _check_raise(self, action: Raise) -> None:
        self._check_pending(action)
        self._check_turn(action)
        error = self._raise_error(action)
        if error is not None:
            raise error

    def _raise_error(self, action: Raise) -> IllegalActionError | None:
        """Why ``action`` may not be made in this hand, or ``None`` (the hand in play, no
        raise pending and the raiser's turn are checked first, by :meth:`_check_raise`)."""
        player, rules = action.player, self.rules
        if self.phase is not Phase.PLAY or self.pending is not None:
            return self._fail(Code.RAISE_PENDING, f"{player} cannot raise now")
        if self.seat.get(player) != self.turn:
            return self._fail(Code.OUT_OF_TURN, f"{player} cannot raise: not their turn")
        if self.reste_accepted:
            return self._fail(
                Code.RAISE_AFTER_RESTE, f"{player} cannot raise: a reste was accepted this hand"
            )
        team = team_of(self.seat[player])
        if rules.alternate_raises and self.last_raiser_team == team:
            return self._fail(Code.RAISE_TWICE, self._raise_twice(player))
        if action.reste:
            return self._reste_error(player)
        return self._raise_value_error(player, action.to)

    def _raise_twice(self, player: str) -> str:
        """Why ``player`` may not raise under alternate raises: their side raised last."""
        rule = self._rule("alternate raises")
        raiser = next((a.player for a in reversed(self.history) if isinstance(a, Raise)), player)
        if raiser == player:
            return f"{player} cannot raise twice in a row {rule}"
        return (
            f"{player} cannot raise: partner {raiser} raised last, and a side cannot raise "
            f"twice in a row {rule}"
        )

    def _reste_error(self, player: str) -> IllegalActionError | None:
        if not self.rules.reste:
            return self._fail(
                Code.RESTE_NOT_ALLOWED, f"{player} cannot call reste {self._rule('no reste')}"
            )
        remainder = self.remainder(player)
        if remainder <= self.value:
            return self._fail(
                Code.RESTE_NOT_A_RAISE,
                f"{player}'s reste would be {remainder}, not more than the hand's value "
                f"{self.value}: not a raise",
            )
        limit = self.rules.max_value
        if limit is not None and remainder > limit:
            return self._fail(
                Code.RAISE_ABOVE_MAX,
                f"{player}'s reste would raise to {remainder}: a hand is worth at most {limit} "
                f"{self._rule('max value')}",
            )
        return None

    def _raise_value_error(self, player: str, to: int | None) -> IllegalActionError | None:
        rules, value = self.rules, self.value
        if to is None or to <= value:
            return self._fail(
                Code.RAISE_NOT_ABOVE, f"{player}'s raise to {to} is not above the value {value}"
            )
        if rules.raises == "double" and to != 2 * value:
            return self._fail(
                Code.RAISE_NOT_DOUBLE,
                f"{player} must raise to {2 * value}, not {to} {self._rule('raises double')}",
            )
        limit = self._raise_limit(player)
        if limit is None or to <= limit:
            return None
        if rules.max_value is not None and to > rules.max_value:
            return self._fail(
                Code.RAISE_ABOVE_MAX,
                f"{player} cannot raise to {to}: a hand is worth at most {rules.max_value} "
                f"{self._rule('max value')}",
            )
        return self._fail(
            Code.RAISE_PAST_TARGET,
            f"{player} cannot raise to {to}: it would carry them past {rules.target} "
            f"{self._rule('cap at target')}; reste is the way to go higher",
        )

    def _check_answer(self, action: Accept | Fold) -> None:
        verb = "accept" if isinstance(action, Accept) else "fold to"  # for the messages
        if self.pending is None:
            raise self._fail(
                Code.NOTHING_PENDING, f"{action.player} cannot {verb}: no raise is pending"
            )
        if team_of(self.seat[action.player]) == team_of(self.pending.raiser):
            raise self._fail(
                Code.ANSWER_BY_RAISER,
                f"{action.player} cannot {verb} {self.players[self.pending.raiser]}'s raise: "
                "only the other side answers it",
            )

    def _check_fold(self, action: Fold) -> None:
        if self.pending is not None:
            self._check_answer(action)
        elif not self.rules.fold_anytime:
            raise self._fail(
                Code.FOLD_NOT_ALLOWED,
                f"{action.player} cannot fold: no raise is pending {self._rule('no fold anytime')}",
            )

    def _check_redeal(self, action: Redeal) -> None:
        if self.may_redeal(action.player):
            return
        asker = self.redeal_asker
        if self.rules.redeal == "none":
            raise self._fail(
                Code.REDEAL_NOT_ALLOWED, f"no redeal may be asked {self._rule('redeal none')}"
            )
        if action.player != asker:
            raise self._fail(
                Code.REDEAL_WRONG_PLAYER,
                f"{action.player} cannot ask for a redeal: only {asker} "
                + (
                    "(who did not deal) may"
                    if len(self.players) == 2
                    else "(next after the dealer) may"
                ),
            )
        if self.redeal_asked:
            raise self._fail(Code.REDEAL_TWICE, "a redeal may be asked only once per hand")
        if self.acted:
            raise self._fail(
                Code.REDEAL_TOO_LATE, "a redeal must be asked before anything else in the hand"
            )

    def _check_show(self, show: Show) -> Holding:
        if self.phase not in (Phase.HAND_OVER, Phase.GAME_OVER) or not self.hand_no:
            raise self._fail(
                Code.SHOW_TOO_EARLY, f"{show.player} cannot show cards before the hand has ended"
            )
        seat = self.seat[show.player]
        before = self.holdings[seat]
        held = before.copy()
        for card in show.cards:
            if not before.shown_already(card):
                held.reveal(card, False, self._check_holding(seat, card, held, "shown"))
        return held

    # --- effects -----------------------------------------------------------

    def _do_deal(self, deal: Deal, _: None = None) -> None:
        redeal = self.phase is Phase.REDEAL
        prior = tuple(self._deal_cards()) if redeal and self.rules.redeal == "rest" else ()
        asked = self.redeal_asked
        self.dealer = self.seat[deal.dealer]
        self._clear_hand([Holding(deal.cards_of(player)) for player in self.players])
        self.prior = prior
        self.redeal_asked = redeal and asked
        if not redeal:
            self.hand_no = self.next_number(deal)
        self.phase = Phase.PLAY

    def _do_redeal(self, action: Redeal, _: None = None) -> None:
        self.redeal_asked = True
        self.acted = True
        if action.accepted:
            self.phase = Phase.REDEAL

    def _do_raise(self, action: Raise, _: None = None) -> None:
        seat = self.seat[action.player]
        to = self.remainder(action.player) if action.reste else action.to
        assert to is not None
        self.pending = PendingRaise(seat, to, self.value, action.reste)
        self.last_raiser_team = team_of(seat)
        self.acted = True

    def _do_accept(self, action: Accept, _: None = None) -> None:
        assert self.pending is not None
        self.value = self.pending.to
        self.reste_accepted = self.pending.reste
        self.pending = None

    def _do_fold(self, action: Fold, _: None = None) -> None:
        pending = self.pending
        if pending is None:
            self._end_hand(1 - team_of(self.seat[action.player]), "fold", self.reste_accepted)
            return
        team = team_of(pending.raiser)
        to_game = fold_ends_game(self.rules, pending)
        self.value = pending.previous
        self.pending = None
        self._end_hand(team, "fold", pending.reste, to_game=to_game)

    def _do_play(self, play: Play, slots: list[int]) -> None:
        seat = self.seat[play.player]
        self.holdings[seat].reveal(play.card, True, slots)
        self.acted = True
        self.trick.append((seat, play.card))
        if len(self.trick) < len(self.players):
            self.turn = (seat + 1) % len(self.players)
            return
        result, self.leader = trick_winner(self.trick, self.rules.strength)
        self.turn = self.leader
        self.results.append(result)
        self.tricks.append(self.trick)
        self.trick = []
        decided, team = decide(self.results)
        if not decided:
            return
        if team is None:
            team = all_tied_winner(self.rules.all_tied, self.dealer)
        if team is None:
            self._end_hand(None, "draw", self.reste_accepted)
        else:
            self._end_hand(team, "tricks", self.reste_accepted)

    def _do_show(self, show: Show, held: Holding) -> None:
        """Shown cards stay in hand, known."""
        self.holdings[self.seat[show.player]] = held

    def _end_hand(self, team: int | None, ending: str, reste: bool, to_game: bool = False) -> None:
        points = 0
        if team is not None:
            before = self._scores[team]
            points = points_won(self.rules, before, self.value, to_game or self.reste_accepted)
            self._scores[team] = before + points
        self.pending = None
        over = max(self._scores) >= self.rules.target
        self.phase = Phase.GAME_OVER if over else Phase.HAND_OVER
        winner = None if team is None else self.teams[team]
        self.outcomes.append(Outcome(self.hand_no, winner, points, ending, reste, self.score))


def _distinct_in_deck(deal: Deal, order: str) -> bool:
    """Whether a deal's cards are all suited, distinct and of the deck: then all is well."""
    cards = [card for _, held in deal.cards for card in held]
    return (
        None not in cards
        and all(card.suit is not None and card.rank in order for card in cards)  # type: ignore[union-attr]
        and len(set(cards)) == len(cards)
    )


_CHECKS: dict[type, Callable[[State, Any], Any]] = {
    Deal: State._check_deal,
    Show: State._check_show,
    Play: State._check_play,
    Raise: State._check_raise,
    Accept: State._check_answer,
    Fold: State._check_fold,
    Redeal: State._check_redeal,
}
"""What checks each kind of action (a dispatch table: ``push`` is the engine's hot path)."""

_EFFECTS: dict[type, Callable[[State, Any, Any], None]] = {
    Deal: State._do_deal,
    Show: State._do_show,
    Play: State._do_play,
    Raise: State._do_raise,
    Accept: State._do_accept,
    Fold: State._do_fold,
    Redeal: State._do_redeal,
}
"""What applying each kind of action does, once checked."""


RUBBER_WINS = 2


_STATE_ATTRIBUTES = (
    "rules",
    "players",
    "seat",
    "teams",
    "_scores",
    "start_score",
    "first_dealer",
    "dealer",
    "hand_no",
    "phase",
    "history",
    "outcomes",
    "value",
    "pending",
    "last_raiser_team",
    "reste_accepted",
    "redeal_asked",
    "acted",
    "holdings",
    "prior",
    "trick",
    "tricks",
    "results",
    "leader",
    "turn",
)
"""Every attribute of a :class:`State`: what pickling one keeps."""


def _state_from(
    players: tuple[str, ...], dealer: str, rules: Rules, values: dict[str, Any]
) -> State:
    """A state made again from its attributes (see :meth:`State.__reduce__`)."""
    state = State(players, dealer, rules)
    for name, value in values.items():
        setattr(state, name, value)
    return state


@dataclass
class Rubber:
    """A rubber (match): games between the same sides until one has won two.

    >>> rubber = Rubber()
    >>> rubber.record("Ana"); rubber.record("Marc"); rubber.winner
    >>> rubber.record("Ana"); rubber.winner, rubber.wins
    ('Ana', {'Ana': 2, 'Marc': 1})
    """

    wins: dict[str, int] = field(default_factory=dict)

    @property
    def winner(self) -> str | None:
        """The side that has won the rubber, once one has."""
        return next((side for side, won in self.wins.items() if won >= RUBBER_WINS), None)

    def record(self, game: State | str) -> None:
        """Count a game won: a finished :class:`State`, or the winning side's name."""
        if self.winner is not None:
            raise IllegalActionError(
                f"the rubber is over: {self.winner} has won {RUBBER_WINS} games", Code.RUBBER_OVER
            )
        side = game if isinstance(game, str) else game.winner
        if side is None:
            raise IllegalActionError(
                "only a game won by reaching the target counts in a rubber",
                Code.RUBBER_GAME_NOT_OVER,
            )
        self.wins[side] = self.wins.get(side, 0) + 1

    def __reduce__(self) -> Reduced:
        return rebuilt(self)


def _team_names(
    players: tuple[str, ...], teams: Mapping[str, Sequence[str]] | None
) -> tuple[str, str]:
    """The two sides (:func:`~truclog.engine.sides.sides_of`), once ``teams`` are checked to be
    both pairs of partners sitting opposite."""
    if len(players) == 2 or not teams:
        sides = sides_of(players)
        return sides[0], sides[1]
    for name, members in teams.items():
        seats = sorted(players.index(m) for m in members if m in players)
        if len(members) != 2 or len(seats) != 2 or seats[1] - seats[0] != 2:
            raise IllegalActionError(
                f"team {name!r} must be two partners sitting opposite (seats 1 and 3, or 2 and 4)",
                Check.BAD_GAME,
            )
    named = {players.index(members[0]) % 2 for members in teams.values()}
    if len(teams) != 2 or named != {0, 1} or not all(teams):
        raise IllegalActionError("teams must name both pairs of partners", Check.BAD_GAME)
    sides = sides_of(players, teams)
    return sides[0], sides[1]


def points_won(rules: Rules, before: int, value: int, to_target: bool = False) -> int:
    """What a side with ``before`` points scores by winning a hand worth ``value``;
    ``to_target`` when the hand decides the game (an accepted reste, or a refused
    one under ``reste_refused: game``): the side then goes to the target.

    >>> classic = get_rules("classic")
    >>> points_won(classic, 5, 3), points_won(classic, 5, 7, to_target=True)
    (3, 7)
    """
    goal = rules.target if to_target else before + value
    return max(goal, before) - before


def fold_ends_game(rules: Rules, pending: PendingRaise) -> bool:
    """Whether folding to this raise gives the raiser the game (a refused reste
    under ``reste_refused: game``)."""
    return pending.reste and rules.reste_refused == "game"


def apply(state: State, action: Action) -> State:
    """The state after ``action``, leaving ``state`` as it was."""
    new = state.copy()
    new.push(action)
    return new


def legal_actions(state: State) -> list[Action]:
    """What is legal now (see :meth:`State.legal_actions`)."""
    return state.legal_actions()
