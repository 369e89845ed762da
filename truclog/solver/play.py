"""Cards played: was a play sound, was it right, and how many points did it lose?

A play in a two-player game is judged from the position just before it (the cards
each player still holds, the tricks decided, a card on the table, who leads). After
it, both players play the rest of the hand double-dummy and nobody raises again, so
the hand is worth what it is worth at that moment: its accepted value, or after an
accepted reste what takes the winner to the target.

The **worth** of the finished hand to the player: ``gain`` (what the player's side
scores by winning it) for a win, ``-loss`` (what the other side scores by winning)
for a loss, 0 for a drawn hand. Only the ranks matter.

- **Right** (both hands known by rank): for each distinct rank the player could
  play, the double-dummy worth of the hand after it (:func:`~truclog.solver.strength.outcome_after`).
  ``lost`` is the best of these worths minus the chosen card's, ``right`` is
  ``lost == 0``, and ``best`` the ranks that lose nothing.
- **Sound** (the player's three ranks known): for each of those ranks, the worth
  after it averaged over every holding the other side could still have, drawn
  from the unseen cards of the deck (four of each rank less the player's three and
  the other side's plays this hand), each weighted by the ways to draw it: the
  weighting of raise strength (:func:`~truclog.solver.strength.chances_after`). The
  play is sound when the chosen rank's average is the highest, within 1e-9.

>>> from truclog.engine.rules import get_rules
>>> classic = get_rules("classic")
>>> after_tie = Seen(played="Q", other_played="Q", results="T")   # the next trick decides
>>> review = judge_play(classic, "9", Worth(1, 1), after_tie, "QA9", "QKJ")
>>> review.worths, review.lost, review.right, review.best
((('A', 1), ('9', -1)), 2, False, ('A',))
>>> review.sound                       # the ace wins whatever the other side holds
False
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from functools import lru_cache

from truclog.engine.actions import Play
from truclog.engine.cards import Card
from truclog.engine.rules import Rules
from truclog.engine.state import Phase, State, points_won
from truclog.engine.trick import trick_winner
from truclog.solver.answer import known_hand, left_of
from truclog.solver.grade import Grade, grade_of
from truclog.solver.strength import (
    Odds,
    chances_after,
    outcome_after,
    played_this_hand,
    trick_results,
)

TOLERANCE = 1e-9
"""How close to the best average a sound play's must be."""

Ranked = tuple[tuple[str, float], ...]
"""A value for each rank the player could play, from the highest rank to the lowest."""


@dataclass(frozen=True, slots=True)
class Worth:
    """What the hand is worth to the player's side at the play: ``gain`` if it wins
    the hand, ``-loss`` if the other side does (0 for a draw)."""

    gain: int
    loss: int

    def of(self, outcome: float) -> int:
        """The worth of a finished hand: 1 a win, 0.5 a draw, 0 a loss."""
        if outcome == 0.5:
            return 0
        return self.gain if outcome == 1.0 else -self.loss

    @property
    def at_stake(self) -> int:
        """What separates winning the hand from losing it."""
        return self.gain + self.loss


@dataclass(frozen=True, slots=True)
class Seen:
    """The hand just before the play, from the player's side: the ranks the player and
    the other side played this hand (in order; a card on the table is the last of the
    other side's), the finished tricks (``W`` won, ``L`` lost, ``T`` tied), whether
    the other side's card is on the table, and whether the player dealt."""

    played: str = ""
    other_played: str = ""
    results: str = ""
    on_table: bool = False
    dealer: bool = False

    @property
    def table(self) -> str | None:
        """The card on the table that the player follows, if any."""
        return self.other_played[-1] if self.on_table and self.other_played else None

    def plain(self) -> Seen:
        """The same position with the plays in a set order (the card on the table kept
        last): the order of the cards played does not change a judgement."""
        other = self.other_played
        if self.on_table and other:
            other = "".join(sorted(other[:-1])) + other[-1]
        else:
            other = "".join(sorted(other))
        return Seen("".join(sorted(self.played)), other, self.results, self.on_table, self.dealer)


SWAPPED = str.maketrans("WL", "LW")
"""Tricks won and lost (``W``, ``L``) told from the other side: ``results.translate(SWAPPED)``."""

Played = tuple[int, int, str, int, bool]
"""A play of a hand, for its review: its row, the seat, the rank, the hand's value and
whether an accepted reste rides on it."""


def play_positions(
    rules: Rules, dealer: int, plays: Iterable[Played]
) -> Iterator[tuple[int, int, str, int, bool, Seen]]:
    """Each play of a two-player hand dealt by seat ``dealer`` with the position just
    before it from the player's side: the position follows from the plays before it,
    each trick decided by the engine's :func:`~truclog.engine.trick.trick_winner`."""
    played, results = ["", ""], ""  # results from seat 0's side
    trick: list[tuple[int, Card]] = []
    for row, seat, rank, value, reste in plays:
        ours = results if seat == 0 else results.translate(SWAPPED)
        yield (
            row,
            seat,
            rank,
            value,
            reste,
            Seen(played[seat], played[1 - seat], ours, bool(trick), dealer == seat),
        )
        played[seat] += rank
        trick.append((seat, Card(rank)))
        if len(trick) == 2:
            team, _ = trick_winner(trick, rules.strength)
            results += "T" if team is None else "W" if team == 0 else "L"
            trick = []


@dataclass(frozen=True, slots=True)
class PlayReview:
    """The judgements of one play of ``card`` from the position ``seen``, by players
    dealt ``hand`` and ``other_hand`` (``None`` when not known). ``odds`` (the
    player's, after each rank it could play) and the sound fields are ``None`` when
    the player's hand is not known; ``outcomes`` (after each rank, both hands face
    up) and the right fields when the other side's is not known too."""

    card: str
    worth: Worth
    seen: Seen
    hand: str | None = None
    other_hand: str | None = None
    odds: tuple[tuple[str, Odds], ...] | None = None
    outcomes: Ranked | None = None

    @property
    def averages(self) -> Ranked | None:
        """Each rank's worth averaged over the other side's possible holdings."""
        if self.odds is None:
            return None
        return tuple((rank, self._average(odds)) for rank, odds in self.odds)

    def _average(self, odds: Odds) -> float:
        losses = odds.weights - odds.wins - odds.draws
        return (odds.wins * self.worth.gain - losses * self.worth.loss) / odds.weights

    @property
    def sound(self) -> bool | None:
        """Whether the card played was among the best on the player's odds (within the tolerance)."""
        averages = self.averages
        if averages is None:
            return None
        chosen = dict(averages)[self.card]
        return chosen >= max(value for _, value in averages) - TOLERANCE

    @property
    def worths(self) -> tuple[tuple[str, int], ...] | None:
        """Each rank's double-dummy worth."""
        if self.outcomes is None:
            return None
        return tuple((rank, self.worth.of(outcome)) for rank, outcome in self.outcomes)

    @property
    def lost(self) -> int | None:
        """The points the card played gave away against the best card, both hands face up."""
        worths = self.worths
        if worths is None:
            return None
        return max(value for _, value in worths) - dict(worths)[self.card]

    @property
    def right(self) -> bool | None:
        """Whether the card played lost nothing, both hands face up."""
        lost = self.lost
        return None if lost is None else lost == 0

    @property
    def best(self) -> tuple[str, ...] | None:
        """The ranks that lose nothing, highest first."""
        worths = self.worths
        if worths is None:
            return None
        top = max(value for _, value in worths)
        return tuple(rank for rank, value in worths if value == top)

    @property
    def grade(self) -> Grade | None:
        """The decision's grade, from the points lost and the points at stake."""
        return grade_of(self.lost, self.worth.at_stake)


def judge_play(
    rules: Rules,
    card: str,
    worth: Worth,
    seen: Seen,
    hand: str | None,
    other_hand: str | None = None,
) -> PlayReview:
    """Judge a play of the rank ``card`` from ranks: ``hand`` and ``other_hand`` are
    the three ranks each side was dealt, ``None`` when not known. An impossible
    position (cards the hands do not hold) counts as unknown."""
    odds, outcomes = _judged(rules, card, seen, hand, other_hand)
    return PlayReview(card, worth, seen, hand, other_hand, odds, outcomes)


def play_marks(
    rules: Rules,
    card: str,
    worth: Worth,
    seen: Seen,
    hand: str | None,
    other_hand: str | None = None,
) -> tuple[bool | None, bool | None, int | None]:
    """Sound, right and lost of a play, as :func:`judge_play` finds them (for counting
    many plays: no review is built).

    >>> from truclog.engine.rules import get_rules
    >>> after_tie = Seen(played="Q", other_played="Q", results="T")
    >>> play_marks(get_rules("classic"), "9", Worth(1, 1), after_tie, "QA9", "QKJ")
    (False, False, 2)
    """
    odds, outcomes = judged_play(rules, seen.plain(), _plain(hand), _plain(other_hand))
    if odds is None:
        return None, None, None
    gain, loss = worth.gain, worth.loss
    found = {
        rank: (o.wins * gain - (o.weights - o.wins - o.draws) * loss) / o.weights
        for rank, o in odds
    }
    if card not in found:
        return None, None, None
    sound = found[card] >= max(found.values()) - TOLERANCE
    if outcomes is None:
        return sound, None, None
    values = {rank: worth.of(outcome) for rank, outcome in outcomes}
    lost = max(values.values()) - values[card]
    return sound, lost == 0, lost


def _judged(
    rules: Rules, card: str, seen: Seen, hand: str | None, other_hand: str | None
) -> tuple[tuple[tuple[str, Odds], ...] | None, Ranked | None]:
    """:func:`judged_play` of the position in a set order; nothing known when the
    player could not play ``card``."""
    odds, outcomes = judged_play(rules, seen.plain(), _plain(hand), _plain(other_hand))
    if odds is None or card not in dict(odds):
        return None, None
    return odds, outcomes


def _plain(hand: str | None) -> str | None:
    return None if hand is None else "".join(sorted(hand))


@lru_cache(maxsize=1 << 12)  # at about 0.9 KB an answer: 4 MB at most
def judged_play(
    rules: Rules, seen: Seen, hand: str | None, other_hand: str | None
) -> tuple[tuple[tuple[str, Odds], ...] | None, Ranked | None]:
    """What :func:`judge_play` finds whatever the card and the stakes: the player's odds
    and the face-up outcome after each rank the player could play, each ``None``
    when not known.

    >>> from truclog.engine.rules import get_rules
    >>> judged_play(get_rules("classic"), Seen(), "779", "99A")[1]   # a seven wins twice
    (('7', 1.0), ('9', 1.0))
    """
    held = None if hand is None else left_of(hand, seen.played)
    if hand is None or not held:
        return None, None
    ranks = sorted(set(held), key=rules.order.index)
    args = (seen.results, seen.table, seen.dealer)
    try:
        odds = tuple(
            (rank, chances_after(rules, rank, hand, held, seen.other_played, *args))
            for rank in ranks
        )
    except ValueError:
        return None, None
    other_held = None if other_hand is None else left_of(other_hand, seen.other_played)
    if other_held is None:
        return odds, None
    try:
        outcomes = tuple(
            (rank, outcome_after(rules, rank, held, other_held, *args)) for rank in ranks
        )
    except ValueError:
        return odds, None
    return odds, outcomes


def review_play(
    state: State, play: Play, hand: str | None = None, other_hand: str | None = None
) -> PlayReview | None:
    """Review ``play`` from ``state``, the position just before it.

    ``hand`` and ``other_hand`` give each side's three ranks of this deal when they
    are known from elsewhere (cards played or shown later); without them they are
    read from the state. ``None`` when the game has four players or the play is
    not the player's on turn.

    >>> from truclog.engine.actions import Deal
    >>> from truclog.engine.cards import parse_card as c
    >>> s = State.new(["Ana", "Marc"], dealer="Marc", rules="classic")
    >>> s.push(Deal.of("Marc", {"Ana": [c("7h"), c("9s"), c("9d")]}))
    >>> review = review_play(s, Play("Ana", c("9s")), other_hand="AKQ")
    >>> review.best, review.lost, review.right, review.grade   # the seven first wins
    (('7', '9'), 0, True, <Grade.BEST: 'best'>)
    """
    player = play.player
    if len(state.players) != 2 or state.phase is not Phase.PLAY or state.pending is not None:
        return None
    seat = state.seat.get(player)
    if seat is None or state.turn != seat:
        return None
    other = state.players[1 - seat]
    mine, theirs = played_this_hand(state, player)
    seen = Seen(mine, theirs, trick_results(state, seat), bool(state.trick), state.dealer == seat)
    hand = hand or known_hand(state, player)
    other_hand = other_hand or known_hand(state, other)
    return judge_play(state.rules, play.card.rank, worth_at(state, seat), seen, hand, other_hand)


def worth_at(state: State, seat: int) -> Worth:
    """What the hand in progress is worth to ``seat``'s side, no further raise made."""
    team, other = state.teams[seat], state.teams[1 - seat]
    rules, value, reste = state.rules, state.value, state.reste_accepted
    return Worth(
        points_won(rules, state.score[team], value, reste),
        points_won(rules, state.score[other], value, reste),
    )


__all__ = [
    "PlayReview",
    "Seen",
    "Worth",
    "judge_play",
    "judged_play",
    "play_marks",
    "review_play",
    "worth_at",
]
