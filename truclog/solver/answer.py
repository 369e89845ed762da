"""Answers to raises: was an accept or a fold sound, and was it right?

Two judgements of each answer (accept or fold) to a pending raise in a
two-player game, from the position at the answer (the raiser is on turn; a
card on the table is the answerer's). The stakes are:

- ``to``: what the raiser's side scores by winning the hand at the raised value;
- ``gain``: what the answerer's side scores by winning it (the raised value too,
  but for a reste, where each side's gain takes it to the target);
- ``conceded``: what the raiser's side scores if the answer is a fold (the
  value before the raise, or, for a reste under ``reste_refused: game``, what
  takes the raiser to the target).

**Sound**, from the answerer's cards only (their three ranks known): the
answerer's chances ``w`` and ``l`` of winning and losing are those of
:func:`truclog.solver.strength.chances_of` (the raiser's unknown cards drawn from the
deck minus the answerer's three minus what the raiser played this hand, the
rest played double-dummy). Accepting is worth ``w * gain - l * to``, folding
``-conceded``; the answer is sound when its worth is at least the other's.

**Right**, in hindsight (both hands known): the rest of the hand is played
double-dummy with both hands face up. Accepting is worth ``+gain`` for a win,
``-to`` for a loss, ``0`` for a draw; folding ``-conceded``. The answer is
right when its worth is at least the other's, and ``points_given`` is how much
more the other answer was worth (0 when it was not).

Further raises are not modelled. Everything is on ranks, and the odds are memoised
like the raise strength. :class:`AnswerReview` is the definition of the worths, sound,
right and points given: the quick core's facts (``answer_review`` in
``truclog/validate/_quick.c``) work them out in C for ``truclog stats``, and
``tests/test_solve.py`` wants the same columns from both on random positions.

>>> from truclog.engine.rules import get_rules
>>> classic = get_rules("classic")
>>> fold = judge(classic, False, Stakes(2, 2, 1), Position(), "999", "777")
>>> fold.sound, fold.right, fold.points_given     # nothing beats three sevens
(True, True, 0)
>>> accept = judge(classic, True, Stakes(2, 2, 1), Position(), "999", "777")
>>> accept.accept_worth, accept.sound, accept.right, accept.points_given
(-2.0, False, False, 1)
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from truclog.engine.actions import Accept, Fold
from truclog.engine.rules import Rules
from truclog.engine.state import PendingRaise, State, fold_ends_game, points_won
from truclog.solver.grade import Grade, grade_of
from truclog.solver.strength import Odds, chances_of, outcome_of, played_this_hand, trick_results


@dataclass(frozen=True, slots=True)
class Stakes:
    """What each answer puts at stake, in points (see the module's docstring)."""

    to: int
    gain: int
    conceded: int


@dataclass(frozen=True, slots=True)
class Position:
    """The hand at the answer, from the answerer's side: the ranks the answerer
    and the raiser played this hand (in order; a card on the table is the last
    of the answerer's), the finished tricks (``W`` won, ``L`` lost, ``T``
    tied), whether the answerer's card is on the table, and whether the
    answerer dealt."""

    played: str = ""
    raiser_played: str = ""
    results: str = ""
    on_table: bool = False
    dealer: bool = False


@dataclass(frozen=True, slots=True)
class AnswerReview:
    """The judgements of one answer. ``odds`` and the sound fields are ``None``
    when the answerer's hand is not known; ``outcome`` (1 the answerer wins, 0.5
    a draw, 0 a loss, both hands face up) and the right fields when the raiser's
    is not known too."""

    accepted: bool
    stakes: Stakes
    odds: Odds | None = None
    outcome: float | None = None

    @property
    def fold_worth(self) -> int:
        """What folding is worth to the answerer: the points it concedes, as a loss."""
        return -self.stakes.conceded

    @property
    def accept_worth(self) -> float | None:
        """Accepting's worth from the answerer's chances: ``w * gain - l * to``."""
        if self.odds is None:
            return None
        return self._accept_points(self.odds) / self.odds.weights

    @property
    def sound(self) -> bool | None:
        """Whether the answer was worth at least the other answer on the odds the answerer had."""
        if self.odds is None:
            return None
        accept = self._accept_points(self.odds)
        fold = self.fold_worth * self.odds.weights  # compared in whole numbers
        return accept >= fold if self.accepted else fold >= accept

    def _accept_points(self, odds: Odds) -> int:
        losses = odds.weights - odds.wins - odds.draws
        return odds.wins * self.stakes.gain - losses * self.stakes.to

    @property
    def accept_result(self) -> int | None:
        """What accepting was worth in hindsight: ``+gain``, ``-to`` or 0."""
        if self.outcome is None:
            return None
        if self.outcome == 0.5:
            return 0
        return self.stakes.gain if self.outcome == 1.0 else -self.stakes.to

    @property
    def right(self) -> bool | None:
        """Whether the answer was the better one with both hands face up."""
        accept = self.accept_result
        if accept is None:
            return None
        return accept >= self.fold_worth if self.accepted else self.fold_worth >= accept

    @property
    def points_given(self) -> int | None:
        """How much more the other answer was worth in hindsight, or 0."""
        accept = self.accept_result
        if accept is None:
            return None
        chosen, other = (accept, self.fold_worth) if self.accepted else (self.fold_worth, accept)
        return max(other - chosen, 0)

    @property
    def best(self) -> tuple[str, ...] | None:
        """The answers (``accept``, ``fold``) that give nothing away in hindsight."""
        accept = self.accept_result
        if accept is None:
            return None
        top = max(accept, self.fold_worth)
        worths = (("accept", accept), ("fold", self.fold_worth))
        return tuple(answer for answer, worth in worths if worth == top)

    @property
    def grade(self) -> Grade | None:
        """The grade of the points given against what was at stake (``gain + to``)."""
        return grade_of(self.points_given, self.stakes.gain + self.stakes.to)


def stakes(
    rules: Rules, raiser_score: int, answerer_score: int, to: int, previous: int, reste: bool
) -> Stakes:
    """The stakes of a raise to ``to`` from ``previous``, by the engine's scoring.

    >>> from truclog.engine.rules import get_rules
    >>> stakes(get_rules("classic"), 4, 9, to=8, previous=2, reste=True)   # 12 - 4 = 8
    Stakes(to=8, gain=3, conceded=2)
    >>> stakes(get_rules("gamerules"), 4, 9, to=8, previous=2, reste=True)  # refused: the game
    Stakes(to=8, gain=3, conceded=8)
    """
    to_game = fold_ends_game(rules, PendingRaise(0, to, previous, reste))
    return Stakes(
        points_won(rules, raiser_score, to, reste),
        points_won(rules, answerer_score, to, reste),
        points_won(rules, raiser_score, previous, to_game),
    )


def judge(
    rules: Rules,
    accepted: bool,
    at_stake: Stakes,
    position: Position,
    hand: str | None,
    raiser_hand: str | None = None,
) -> AnswerReview:
    """Judge an answer from ranks: ``hand`` and ``raiser_hand`` are the three ranks
    each was dealt, ``None`` when not known. An impossible position (cards that
    the hands do not hold) counts as unknown."""
    odds, outcome = judged(rules, position, hand, raiser_hand)
    return AnswerReview(accepted, at_stake, odds, outcome)


def judged(
    rules: Rules, position: Position, hand: str | None, raiser_hand: str | None
) -> tuple[Odds | None, float | None]:
    """What :func:`judge` finds whatever the stakes: the answerer's odds and the
    face-up outcome for the answerer, each ``None`` when not known.

    >>> from truclog.engine.rules import get_rules
    >>> judged(get_rules("classic"), Position(), "999", "777")
    (Odds(wins=0, draws=0, weights=3654), 0.0)
    """
    if hand is None:
        return None, None
    held = left_of(hand, position.played)
    if held is None:
        return None, None
    table = None
    if position.on_table:
        table = position.played[-1:] or None
    args = (position.results, table, position.dealer)
    try:
        odds = chances_of(rules, hand, held, position.raiser_played, *args, to_move=False)
    except ValueError:
        return None, None
    raiser_held = None if raiser_hand is None else left_of(raiser_hand, position.raiser_played)
    if raiser_held is None:
        return odds, None
    try:
        return odds, outcome_of(rules, held, raiser_held, *args, to_move=False)
    except ValueError:
        return odds, None


@lru_cache(maxsize=1 << 12)
def left_of(hand: str, played: str) -> str | None:
    """The ranks of ``hand`` not in ``played``, ``None`` if it did not hold them."""
    left = list(hand)
    for rank in played:
        if rank not in left:
            return None
        left.remove(rank)
    return "".join(left) if len(hand) == 3 else None


def review_answer(
    state: State,
    answer: Accept | Fold,
    hand: str | None = None,
    raiser_hand: str | None = None,
) -> AnswerReview | None:
    """Review ``answer`` to the raise pending in ``state`` (the position at the answer).

    ``hand`` and ``raiser_hand`` give each side's three ranks of this deal when
    they are known from elsewhere (cards played or shown later); without them
    they are read from the state. ``None`` when no raise is pending, the game
    has four players, or ``answer`` is not the answerer's.

    >>> from truclog.engine.actions import Deal, Raise
    >>> from truclog.engine.cards import parse_card as c
    >>> s = State.new(["Ana", "Marc"], dealer="Marc", rules="classic")
    >>> s.push(Deal.of("Marc", {"Marc": [c("9h"), c("9s"), c("Jd")]}))
    >>> s.push(Raise("Ana", to=2))
    >>> review = review_answer(s, Fold("Marc"))
    >>> review.sound, review.right                  # Ana's hand is not known
    (True, None)
    >>> review = review_answer(s, Fold("Marc"), raiser_hand="QJ9")   # Ana's Q wins a trick
    >>> review.right, review.accept_result, review.points_given     # and then J ties J
    (True, -2, 0)
    >>> review = review_answer(s, Fold("Marc"), raiser_hand="TT9")   # Marc's J wins a trick
    >>> review.right, review.accept_result, review.points_given     # and the 9s hold the rest
    (False, 2, 3)
    """
    pending = state.pending
    if len(state.players) != 2 or pending is None:
        return None
    raiser = state.players[pending.raiser]
    player = answer.player
    if player not in state.answerers:
        return None
    mine, theirs = played_this_hand(state, player)
    hand = hand or known_hand(state, player)
    raiser_hand = raiser_hand or known_hand(state, raiser)
    seat = state.seat[player]
    on_table = bool(state.trick) and state.trick[0][0] == seat
    position = Position(mine, theirs, trick_results(state, seat), on_table, state.dealer == seat)
    score = state.score
    at_stake = stakes(
        state.rules,
        score[state.teams[pending.raiser]],
        score[state.teams[seat]],
        pending.to,
        pending.previous,
        pending.reste,
    )
    return judge(state.rules, isinstance(answer, Accept), at_stake, position, hand, raiser_hand)


def known_hand(state: State, player: str) -> str | None:
    """The player's three ranks of this deal, if the state knows them all."""
    cards = state.dealt_cards(player)
    if len(cards) != 3 or any(card is None for card in cards):
        return None
    return "".join(card.rank for card in cards if card is not None)


__all__ = [
    "AnswerReview",
    "Position",
    "Stakes",
    "judge",
    "judged",
    "known_hand",
    "left_of",
    "review_answer",
    "stakes",
]
