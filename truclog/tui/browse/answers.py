"""The review of each answer to a raise in a replayed hand: sound, right, the worths."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from rich.text import Text

from truclog.actions import Accept, Fold
from truclog.answer import AnswerReview, review_answer
from truclog.cards import Card
from truclog.engine import State
from truclog.strength import played_this_hand
from truclog.tui.browse.index import Frame, applies


def answer_reviews(frames: Sequence[Frame]) -> dict[int, AnswerReview]:
    """Each answer to a raise among a hand's frames (by index), judged from the
    position just before it with every card the log reveals by the hand's end."""
    reviews: dict[int, AnswerReview] = {}
    for i in range(1, len(frames)):
        step, before = frames[i].step, frames[i - 1]
        action = step.action
        if not isinstance(action, Accept | Fold) or not applies(step):
            continue
        state = before.state
        if state.pending is None:
            continue
        raiser = state.players[state.pending.raiser]
        hand = _hand(state, action.player, before.later)
        review = review_answer(state, action, hand, _hand(state, raiser, before.later))
        if review is not None:
            reviews[i] = review
    return reviews


def _hand(state: State, player: str, later: Mapping[str, Sequence[Card]]) -> str | None:
    """The player's three ranks of this deal, if the log shows them all by the hand's end."""
    known, unseen = state.known_cards(player)
    coming = later.get(player, ())
    if unseen != len(coming):
        return None
    played, _ = played_this_hand(state, player)
    return "".join(card.rank for card in (*known, *coming)) + played


def review_mark(review: AnswerReview) -> Text:
    """A short mark for the event list: sound or not, right or wrong, and the worths.

    >>> from truclog.answer import Stakes
    >>> from truclog.strength import Odds
    >>> review_mark(AnswerReview(False, Stakes(2, 2, 1), Odds(1, 0, 1), 1.0)).plain
    '  unsound · wrong, gave 3 · accept +2.00 / fold -1'
    """
    text = Text()
    if review.sound is not None:
        text.append("  sound" if review.sound else "  unsound", "green" if review.sound else "red")
    if review.right is not None:
        if review.right:
            text.append(" · right", "bold green")
        else:
            text.append(f" · wrong, gave {review.points_given}", "bold red")
    if review.accept_worth is not None:
        text.append(f" · accept {review.accept_worth:+.2f} / fold {review.fold_worth:+d}", "dim")
    return text
