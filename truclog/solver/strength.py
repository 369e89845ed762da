"""Raise strength: the raiser's chance of winning the hand, double-dummy.

This is the definition of ``docs/stats.md``. At the moment of a raise, the
cards the raiser cannot see are the deck (4 of each rank of the rules' order)
minus the raiser's three cards of this deal minus the cards the opponent has
already played this hand. The opponent's cards still in hand are each
multiset of that many unseen ranks, weighted by how many ways it can be drawn
(a product of binomial counts). For each, the rest of the hand is played with
both hands face up, the raiser playing to win and the opponent to stop it,
from the position at the raise. A win counts 1, a loss 0, a drawn hand 0.5
(three tied tricks under ``all_tied: draw``; under ``all_tied: non_dealer`` the
hand is the non-dealer's, a win or a loss). Strength is the weighted mean.
Further raises and folds are not modelled.

Everything is computed on ranks only and memoised, so a corpus with millions of
raises asks only a few thousand different questions. Each question is solved in C
(``truclog/solver/_solve.c``, one call) when that extension is built; the Python solver
below is the reference (tests compare both) and the fallback of a pure-Python
install. The quick core's facts ask the same C solver (through its capsule) for the
strength of the raises of the games it clears.

>>> from truclog.engine.rules import get_rules
>>> classic = get_rules("classic")
>>> strength_of(classic, "777")           # three of the four sevens: nothing beats them
1.0
>>> strength_of(classic, "999")           # the three lowest cards
0.0
>>> round(strength_of(classic, "799", opponent_played="A", table="A"), 4)  # 53/378
0.1402

Two players only: in four-player games :func:`raise_strength` returns ``None``
(a partner's hand would have to be modelled too).
"""

from __future__ import annotations

from bisect import bisect_left
from collections import Counter
from functools import lru_cache
from itertools import combinations_with_replacement
from math import comb, prod
from typing import TYPE_CHECKING, NamedTuple

from truclog import build
from truclog.engine.cards import Card
from truclog.engine.rules import Rules, rank_power
from truclog.engine.trick import TrickResult, all_tied_winner, decide, trick_winner

if TYPE_CHECKING:  # the engine's state: imported by the strength of a raise in a state alone
    from truclog.engine.state import State

RAISER, OPPONENT = 0, 1
_RESULT = {"W": RAISER, "L": OPPONENT, "T": None}

Cards = tuple[int, ...]  # powers of ranks (``Rules.strength``), sorted
TRICKS = 3  # in a hand, and cards in a player's hand


_solve = build.solver()
"""The C solver, when it was built (from this source): else the Python one below."""


class Odds(NamedTuple):
    """How the rest of a hand goes for a player over the opponent's possible
    holdings: the weights (ways to be dealt) of those the player wins and
    draws, and of all of them."""

    wins: int
    draws: int
    weights: int

    @property
    def win(self) -> float:
        """The chance of winning."""
        return self.wins / self.weights

    @property
    def draw(self) -> float:
        """The chance of a drawn hand."""
        return self.draws / self.weights

    @property
    def loss(self) -> float:
        """The chance of losing."""
        return (self.weights - self.wins - self.draws) / self.weights

    @property
    def strength(self) -> float:
        """Wins count 1, draws 0.5."""
        return (self.wins + 0.5 * self.draws) / self.weights


def raise_strength(state: State, player: str, hand: str | None = None) -> float | None:
    """The strength of a raise by ``player``, from ``state`` just before the raise.

    ``hand`` gives the raiser's three ranks of this deal when they are known from
    elsewhere (stats fills in cards played or shown later); without it they are
    read from the state. ``None`` when the hand is not fully known by rank, when
    the game has four players, or when it is not ``player``'s turn to play in a
    hand in progress.

    >>> from truclog.engine.actions import Deal, Play
    >>> from truclog.engine.cards import parse_card as c
    >>> from truclog.engine.state import State
    >>> s = State.new(["Ana", "Marc"], dealer="Marc", rules="classic")
    >>> s.push(Deal.of("Marc", {"Ana": [c("7h"), c("7s"), c("7d")]}))
    >>> raise_strength(s, "Ana")
    1.0
    >>> s.push(Play("Ana", c("7h")))
    >>> raise_strength(s, "Marc") is None     # Marc's cards were not dealt face up
    True
    >>> round(raise_strength(s, "Marc", hand="AKQ"), 4)   # 150/378: Ana holds two below A and K
    0.3968
    """
    from truclog.engine.state import Phase

    if len(state.players) != 2 or state.phase is not Phase.PLAY or player not in state.seat:
        return None
    seat = state.seat[player]
    if state.turn != seat or state.pending is not None:
        return None
    mine, theirs = played_this_hand(state, player)
    if hand is None:
        known, unseen = state.known_cards(player)
        if unseen:
            return None
        hand = "".join(card.rank for card in known) + mine
    held = Counter(hand)
    held.subtract(mine)
    if len(hand) != 3 or min(held.values(), default=0) < 0:
        return None
    results = trick_results(state, seat)
    table = state.trick[0][1].rank if state.trick else None
    try:
        return strength_of(
            state.rules,
            hand,
            "".join(held.elements()),
            theirs,
            results,
            table,
            dealer=state.dealer == seat,
        )
    except ValueError:
        return None


def strength_of(
    rules: Rules,
    hand: str,
    held: str | None = None,
    opponent_played: str = "",
    results: str = "",
    table: str | None = None,
    dealer: bool = False,
) -> float:
    """Strength from ranks alone: the helper behind :func:`raise_strength`.

    ``hand`` is the raiser's three ranks of the deal, ``held`` those still in
    hand (default: all of them), ``opponent_played`` the ranks the opponent
    played this hand (the card on the table included), ``results`` each
    finished trick from the raiser's side (``W`` won, ``L`` lost, ``T`` tied),
    ``table`` the opponent's rank on the table when the raiser follows, and
    ``dealer`` whether the raiser dealt this hand (it matters for
    ``all_tied: non_dealer``). A ``ValueError`` says the position is impossible.

    >>> from truclog.engine.rules import get_rules
    >>> gamerules = get_rules("gamerules")     # all tied: a draw
    >>> strength_of(gamerules, "KQA", "A", "KQA", "TT", table="A")
    0.5
    >>> classic = get_rules("classic")         # all tied: the non-dealer's hand
    >>> strength_of(classic, "KQA", "A", "KQA", "TT", "A", dealer=False)
    1.0
    >>> strength_of(classic, "KQA", "A", "KQA", "TT", "A", dealer=True)
    0.0
    """
    return chances_of(rules, hand, held, opponent_played, results, table, dealer).strength


@lru_cache(maxsize=1 << 14)  # at about 250 bytes an answer: 4 MB at most
def _ranks(
    order: str,
    hand: str,
    held: str,
    opponent_played: str,
    results: str,
    table: str | None,
    tied: float,
    to_move: bool = True,
) -> Odds:
    """The odds behind :func:`strength_of` and :func:`chances_of`, memoised on the ranks as given."""
    if _solve is not None:
        return Odds(*_solve.odds(order, hand, held, opponent_played, results, table, tied, to_move))
    power = rank_power(order)
    mine = Counter(hand)
    mine.subtract(held)
    if table is not None:
        played = opponent_played if to_move else list(mine.elements())
        if len(table) != 1 or table not in played:
            whose = "opponent's" if to_move else "player's"
            raise ValueError(f"the card on the table ({table}) is not among the {whose} plays")
    if len(hand) != TRICKS or min(mine.values(), default=0) < 0:
        raise ValueError(f"the raiser holds {held!r}, which is not part of the hand {hand!r}")
    tricks = _results(results)
    return _odds(
        len(order),
        _powers(hand, power),
        _powers(held, power),
        _powers(opponent_played, power),
        tricks,
        None if table is None else power[table],
        tied,
        _leader(to_move, table is not None),
    )


def _results(results: str) -> tuple[TrickResult, ...]:
    """Trick results from the player's side, from ``W``, ``L`` and ``T``: three at most."""
    try:
        outcome = tuple(_RESULT[r] for r in results)
    except KeyError:
        raise ValueError(f"trick results are W, L or T, not {results!r}") from None
    if len(outcome) > TRICKS:
        raise ValueError(f"a hand has three tricks, not {len(outcome)}")
    return outcome


def _leader(to_move: bool, followed: bool) -> int:
    """Who led the trick in progress: the player on turn, unless a card is on the table."""
    on_turn = RAISER if to_move else OPPONENT
    return 1 - on_turn if followed else on_turn


def chances_of(
    rules: Rules,
    hand: str,
    held: str | None = None,
    opponent_played: str = "",
    results: str = "",
    table: str | None = None,
    dealer: bool = False,
    to_move: bool = True,
) -> Odds:
    """The player's odds of the rest of the hand, as :func:`strength_of` finds them.

    The same arguments, and ``to_move``: whether the player plays the next card
    (a raiser does; a player answering a raise does not, and then ``table`` is
    the player's own card). :class:`Odds` counts the opponent's holdings, each
    weighted by how many ways it can be drawn, that the player wins, draws and
    loses when both play the rest face up.

    >>> from truclog.engine.rules import get_rules
    >>> gamerules = get_rules("gamerules")     # all tied: a draw
    >>> chances_of(gamerules, "KQA", "A", "KQA", "TT", table="A")
    Odds(wins=0, draws=1, weights=1)
    >>> odds = chances_of(gamerules, "A99", to_move=False)   # the opponent leads
    >>> odds.win + odds.draw + odds.loss
    1.0
    """
    tied = _tied(rules.all_tied, dealer)
    held = hand if held is None else held
    return _ranks(rules.order, hand, held, opponent_played, results, table, tied, to_move)


def deal_strength(rules: Rules, hand: str, dealer: bool) -> float:
    """Strength of a dealt hand before anyone acts: the non-dealer leads the first trick.

    The dealer's value lets the opponent choose the first card knowing both hands.

    >>> from truclog.engine.rules import get_rules
    >>> classic = get_rules("classic")
    >>> deal_strength(classic, "777", dealer=True), deal_strength(classic, "999", dealer=False)
    (1.0, 0.0)
    >>> deal_strength(classic, "AKQ", dealer=False) == strength_of(classic, "AKQ")
    True
    """
    return _dealt(rules.order, hand, _tied(rules.all_tied, dealer), dealer)


@lru_cache(maxsize=1 << 16)
def _dealt(order: str, hand: str, tied: float, dealer: bool) -> float:
    if len(hand) != TRICKS:
        raise ValueError(f"a dealt hand has three cards, not {hand!r}")
    return _ranks(order, hand, hand, "", "", None, tied, not dealer).strength


def _tied(all_tied: str, dealer: bool) -> float:
    """What three tied tricks are worth to the raiser (seat 0 here; seat 1 deals when
    the raiser does not): the engine's rule, as a win, a draw or a loss."""
    winner = all_tied_winner(all_tied, 0 if dealer else 1)
    return 0.5 if winner is None else 1.0 if winner == 0 else 0.0


def strength_cache_info() -> tuple[int, int]:
    """How many strength questions were answered from the cache, and how many computed."""
    info = _ranks.cache_info()
    return info.hits, info.misses


def _powers(ranks: str, power: dict[str, int]) -> Cards:
    try:
        return tuple(sorted(power[r] for r in ranks))
    except KeyError as exc:
        raise ValueError(f"rank {exc.args[0]} is not in this deck") from None


def trick_results(state: State, seat: int) -> str:
    """The finished tricks from the seat's side: ``W`` won, ``L`` lost, ``T`` tied."""
    return "".join(_relative(r, seat) for r in state.results)


def _relative(result: TrickResult, seat: int) -> str:
    if result is None:
        return "T"
    return "W" if result == seat % 2 else "L"


def played_this_hand(state: State, player: str) -> tuple[str, str]:
    """Ranks played since the last deal, in order: by ``player``, and by the others."""
    from truclog.engine.actions import Deal, Play

    mine: list[str] = []
    theirs: list[str] = []
    for action in reversed(state.history):
        if isinstance(action, Deal):
            break
        if isinstance(action, Play):
            (mine if action.player == player else theirs).append(action.card.rank)
    return "".join(reversed(mine)), "".join(reversed(theirs))


@lru_cache(maxsize=1 << 20)
def _odds(
    n_ranks: int,
    hand: Cards,
    held: Cards,
    opponent_played: Cards,
    results: tuple[TrickResult, ...],
    table: int | None,
    tied: float,
    leader: int,
) -> Odds:
    left = [0] + [4] * n_ranks  # unseen cards of each power
    for power in (*hand, *opponent_played):
        left[power] -= 1
    if min(left) < 0:
        raise ValueError("more than four cards of one rank")
    in_hand = 3 - len(opponent_played)
    if in_hand < 0:
        raise ValueError("the opponent played more than three cards")
    mine = _meeting(held, table, leader)
    unseen: Counter[int] = Counter()
    for power, n in enumerate(left):
        if n:
            unseen[_place(power, mine)] += n
    return _expected(
        tuple(_place(p, mine) for p in held),
        tuple(sorted(unseen.items())),
        in_hand,
        results,
        None if table is None else _place(table, mine),
        tied,
        leader,
    )


def _meeting(held: Cards, table: int | None, leader: int) -> list[int]:
    """The player's distinct powers that an opponent's card can still meet:
    those held, and the player's own card on the table."""
    own = () if table is None or leader != RAISER else (table,)
    return sorted(set(held).union(own))


def outcome_of(
    rules: Rules,
    held: str,
    opponent_held: str,
    results: str = "",
    table: str | None = None,
    dealer: bool = False,
    to_move: bool = True,
) -> float:
    """The rest of the hand played with both hands face up: 1 the player wins,
    0 the player loses, 0.5 a draw (from ranks, as :func:`chances_of`;
    ``table`` is the card of whoever is not ``to_move``).

    >>> from truclog.engine.rules import get_rules
    >>> classic = get_rules("classic")
    >>> outcome_of(classic, "A9", "7", "L", table="8")   # 8 beats both A and 9
    0.0
    >>> outcome_of(classic, "A9", "K9", "W", to_move=False)             # the opponent leads K or 9
    1.0
    """
    tied = _tied(rules.all_tied, dealer)
    if _solve is not None:
        value: float = _solve.outcome(
            rules.order, held, opponent_held, results, table, tied, to_move
        )
        return value
    power = rank_power(rules.order)
    tricks = _results(results)
    mine, theirs = _powers(held, power), _powers(opponent_held, power)
    try:
        on_table = None if table is None else power[table]
    except KeyError:
        raise ValueError(f"rank {table} is not in this deck") from None
    if max(len(mine), len(theirs)) > TRICKS:
        raise ValueError("a player holds three cards at most")
    leader = _leader(to_move, table is not None)
    places = _meeting(mine, on_table, leader)
    return _play(
        tuple(_place(p, places) for p in mine),
        tuple(_place(p, places) for p in theirs),
        tricks,
        leader,
        None if on_table is None else _place(on_table, places),
        tied,
    )


class After(NamedTuple):
    """The position just after the player on turn plays a card: the finished tricks
    from the player's side, the card on the table (the player's own, after a lead),
    and whether the player is on turn again."""

    results: str
    table: str | None
    to_move: bool


def after_play(rules: Rules, card: str, results: str = "", table: str | None = None) -> After:
    """The position after the player on turn plays ``card`` (a rank): a lead puts it
    on the table; a card that follows ``table`` (the opponent's) ends the trick, which
    the engine's :func:`~truclog.engine.trick.trick_winner` decides.

    >>> from truclog.engine.rules import get_rules
    >>> classic = get_rules("classic")
    >>> after_play(classic, "A")
    After(results='', table='A', to_move=False)
    >>> after_play(classic, "7", "L", table="A"), after_play(classic, "A", table="A")
    (After(results='LW', table=None, to_move=True), After(results='T', table=None, to_move=False))
    """
    if table is None:
        return After(results, card, False)
    return _followed(rules.order, card, results, table)


@lru_cache(maxsize=1 << 12)
def _followed(order: str, card: str, results: str, table: str) -> After:
    """The trick ``card`` ends by following ``table``, decided by the engine."""
    team, _ = trick_winner([(OPPONENT, Card(table)), (RAISER, Card(card))], rank_power(order))
    won = "T" if team is None else "W" if team == RAISER else "L"
    return After(results + won, None, team == RAISER)


def outcome_after(
    rules: Rules,
    card: str,
    held: str,
    opponent_held: str,
    results: str = "",
    table: str | None = None,
    dealer: bool = False,
) -> float:
    """The rest of the hand face up after the player on turn plays ``card`` from
    ``held``, as :func:`outcome_of` values it (1, 0.5 or 0 for the player);
    ``table`` is the opponent's card when the player follows.

    >>> from truclog.engine.rules import get_rules
    >>> classic = get_rules("classic")
    >>> outcome_after(classic, "A", "A9", "KQ", "T"), outcome_after(classic, "9", "A9", "KQ", "T")
    (1.0, 0.0)
    """
    rest = _left_after(held, card)
    after = after_play(rules, card, results, table)
    return outcome_of(rules, rest, opponent_held, *after[:2], dealer=dealer, to_move=after.to_move)


def chances_after(
    rules: Rules,
    card: str,
    hand: str,
    held: str,
    opponent_played: str = "",
    results: str = "",
    table: str | None = None,
    dealer: bool = False,
) -> Odds:
    """The player's odds (as :func:`chances_of`) after the player on turn plays
    ``card`` from ``held``, over the opponent's holdings from the unseen cards.

    >>> from truclog.engine.rules import get_rules
    >>> classic = get_rules("classic")
    >>> chances_after(classic, "9", "999", "999").weights == chances_of(classic, "999").weights
    True
    """
    rest = _left_after(held, card)
    after = after_play(rules, card, results, table)
    return chances_of(
        rules, hand, rest, opponent_played, *after[:2], dealer=dealer, to_move=after.to_move
    )


def _left_after(held: str, card: str) -> str:
    """``held`` less one ``card``; a ``ValueError`` when it is not held."""
    at = held.find(card)
    if at < 0:
        raise ValueError(f"the player does not hold {card!r} in {held!r}")
    return held[:at] + held[at + 1 :]


def _place(power: int, mine: list[int]) -> int:
    """Where a card falls among the raiser's distinct powers ``mine`` (sorted):
    ``2 * i + 1`` for the ``i``-th of them, ``2 * i`` just below it.

    Only the raiser's cards and the opponent's meet in a trick, so the play
    depends only on these places: two opponent cards between the same two of
    the raiser's are alike, and the weights of a place add up (Vandermonde).

    >>> _place(5, [3, 5]), _place(4, [3, 5]), _place(9, [3, 5]), _place(1, [3, 5])
    (3, 2, 4, 0)
    """
    below = bisect_left(mine, power)
    return 2 * below + (below < len(mine) and mine[below] == power)


@lru_cache(maxsize=1 << 16)
def _expected(
    mine: Cards,
    unseen: tuple[tuple[int, int], ...],
    in_hand: int,
    results: tuple[TrickResult, ...],
    table: int | None,
    tied: float,
    leader: int,
) -> Odds:
    """The outcomes of the rest of the hand over the opponent's possible
    holdings of ``in_hand`` cards, drawn from ``unseen`` (place, cards left)."""
    cards = dict(unseen)
    wins = draws = weights = 0
    for holding in combinations_with_replacement(sorted(cards), in_hand):
        weight = prod(comb(cards[p], holding.count(p)) for p in set(holding))
        if weight:
            value = _play(mine, holding, results, leader, table, tied)
            if value == 1.0:
                wins += weight
            elif value == 0.5:
                draws += weight
            weights += weight
    if not weights:
        raise ValueError("the opponent cannot hold that many unseen cards")
    return Odds(wins, draws, weights)


@lru_cache(maxsize=1 << 20)
def _play(
    raiser: Cards,
    opponent: Cards,
    results: tuple[TrickResult, ...],
    leader: int,
    table: int | None,
    tied: float,
) -> float:
    """The value of the rest of the hand, both hands face up, for the raiser."""
    decided, team = decide(results)
    if decided:
        if team is None:
            return tied
        return 1.0 if team == RAISER else 0.0
    to_move = leader if table is None else 1 - leader
    cards = raiser if to_move == RAISER else opponent
    values = []
    for card in set(cards):
        rest = _without(cards, card)
        mine, theirs = (rest, opponent) if to_move == RAISER else (raiser, rest)
        if table is None:
            values.append(_play(mine, theirs, results, leader, card, tied))
            continue
        if table == card:
            won, next_leader = None, leader
        else:
            next_leader = leader if table > card else to_move
            won = next_leader
        values.append(_play(mine, theirs, (*results, won), next_leader, None, tied))
    if not values:
        raise ValueError("a player has no card left to play")
    return max(values) if to_move == RAISER else min(values)


def _without(cards: Cards, card: int) -> Cards:
    i = cards.index(card)
    return cards[:i] + cards[i + 1 :]
