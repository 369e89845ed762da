"""What a player reviewing a hand reads beside it: how strong each raise was, which
raises were bluffs, whether each answer to a raise was sound and right and what
accepting and folding were worth, and which events a hand holds (to find hands by
them).

Strength is :func:`truclog.solver.strength.raise_strength`, as statistics count it: the
raiser's three cards of the deal must all end up known (dealt face up, played or
shown), and a raise below the bluff threshold (0.5 unless set otherwise, as for
``truclog stats``) is a bluff. Answers are judged by
:func:`truclog.solver.answer.review_answer`, the judgement behind the statistics' answer
columns: sound from the answerer's three cards, right when both hands are known.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from truclog.engine.actions import Accept, Fold, Raise, Redeal
from truclog.solver.answer import AnswerReview, review_answer
from truclog.solver.bluff import BLUFF_THRESHOLD, is_bluff
from truclog.solver.strength import played_this_hand, raise_strength
from truclog.tui.browse.index import Frame, hand_frames
from truclog.validate.checker import CheckedGame, CheckedHand

EVENTS = ("bluff", "reste", "fold to a raise", "redeal", "error")
"""The events hands can be found by."""


@dataclass(frozen=True, slots=True)
class RaiseNote:
    """A raise's strength (``None`` when the raiser's hand is not known) and if a bluff."""

    strength: float | None
    bluff: bool

    def words(self) -> str:
        """``strength 0.83``, ``strength 0.21, bluff``, or ``hand unknown``."""
        if self.strength is None:
            return "hand unknown"
        return f"strength {self.strength:.2f}" + (", bluff" if self.bluff else "")


def dealt_ranks(frame: Frame, player: str) -> str | None:
    """The player's three ranks of this deal as the log ends up knowing them, from the
    table at ``frame``: in hand now, revealed later, played already. ``None`` if unknown."""
    known, unseen = frame.state.known_cards(player)
    later = frame.later.get(player, [])[:unseen]
    if len(later) < unseen:
        return None
    mine, _ = played_this_hand(frame.state, player)
    ranks = "".join(c.rank for c in known) + "".join(c.rank for c in later) + mine
    return ranks if len(ranks) == 3 else None


def raise_notes(
    frames: Sequence[Frame], threshold: float = BLUFF_THRESHOLD
) -> dict[int, RaiseNote]:
    """For each applied raise (by position in the hand), its strength and bluff mark."""
    notes: dict[int, RaiseNote] = {}
    for i in range(1, len(frames)):
        step = frames[i].step
        if not isinstance(step.action, Raise) or not step.applied:
            continue
        before, player = frames[i - 1], step.action.player
        ranks = dealt_ranks(before, player)
        strength = None if ranks is None else raise_strength(before.state, player, ranks)
        notes[i] = RaiseNote(strength, is_bluff(strength, threshold))
    return notes


@dataclass(frozen=True, slots=True)
class AnswerNote:
    """An accept or a fold that answered a raise, with its review (``None`` in a
    four-player game, where answers are not judged)."""

    player: str
    raiser: str
    accepted: bool
    to: int
    review: AnswerReview | None

    def marks(self) -> str:
        """The judgements in a few words: ``sound, right``, ``unsound, wrong: gave 3``,
        ``sound, raiser's hand unknown``, ``hand unknown``."""
        review = self.review
        if review is None:
            return "not judged (four players)"
        if review.sound is None:
            return "hand unknown"
        words = "sound" if review.sound else "unsound"
        if review.right is None:
            return f"{words}, raiser's hand unknown"
        if review.right:
            return f"{words}, right"
        return f"{words}, wrong: gave {review.points_given}"

    def lines(self) -> list[str]:
        """The judgements with the worths behind them, a line each."""
        answer = "accepts" if self.accepted else "folds"
        head = f"{self.player} {answer} {self.raiser}'s raise to {self.to}"
        review = self.review
        if review is None:
            return [f"{head}: answers are not judged in four-player games"]
        fold = _points(review.fold_worth)
        odds = review.odds
        if odds is None or review.accept_worth is None:
            return [f"{head}: {self.player}'s hand is not known, so it is not judged"]
        lines = [
            f"{head}: {'sound' if review.sound else 'unsound'}"
            f" (from {self.player}'s cards: wins {odds.win:.0%}, loses {odds.loss:.0%})",
            f"  worth on average: accept {_worth(review.accept_worth)}, fold {fold}",
        ]
        accept = review.accept_result
        if accept is None:
            lines.append(f"  in hindsight: {self.raiser}'s hand is not known")
            return lines
        verdict = "right" if review.right else f"wrong, gave away {review.points_given}"
        lines.append(f"  in hindsight: accept {_points(accept)}, fold {fold}: {verdict}")
        return lines


def _points(points: int) -> str:
    """``+2``, ``0``, ``-1``."""
    return f"{points:+d}" if points else "0"


def _worth(points: float) -> str:
    """``+1.78``, ``0.00``, ``-2.00``."""
    return f"{points:+.2f}" if round(points, 2) else "0.00"


def answer_notes(frames: Sequence[Frame]) -> dict[int, AnswerNote]:
    """For each accept or fold that answered a raise (by position in the hand), its
    review from the table before it, with each side's cards as the log ends up
    knowing them."""
    notes: dict[int, AnswerNote] = {}
    for i in range(1, len(frames)):
        step, before = frames[i].step, frames[i - 1]
        action, pending = step.action, before.state.pending
        if not isinstance(action, Accept | Fold) or not step.applied or pending is None:
            continue
        raiser = before.state.players[pending.raiser]
        review = review_answer(
            before.state,
            action,
            dealt_ranks(before, action.player),
            dealt_ranks(before, raiser),
        )
        accepted = isinstance(action, Accept)
        notes[i] = AnswerNote(action.player, raiser, accepted, pending.to, review)
    return notes


def hand_events(
    game: CheckedGame, hand: CheckedHand, threshold: float = BLUFF_THRESHOLD
) -> dict[str, set[str]]:
    """Which events of :data:`EVENTS` (and ``raise``) the hand holds, each with the
    players behind it (none for an error: it is the log's). The hand is replayed only
    when it holds a raise, to tell bluffs."""
    found: dict[str, set[str]] = {}
    previous = None
    for step in hand.steps:
        action = step.action
        if not step.applied:
            continue
        if isinstance(action, Raise):
            found.setdefault("raise", set()).add(action.player)
            if action.reste:
                found.setdefault("reste", set()).add(action.player)
        if isinstance(action, Fold) and isinstance(previous, Raise):
            found.setdefault("fold to a raise", set()).add(action.player)
        if isinstance(action, Redeal):
            found.setdefault("redeal", set()).add(action.player)
        previous = action
    if hand.errors or not hand.ok:
        found["error"] = set()
    if "raise" in found:
        frames = hand_frames(game, hand)
        for i, note in raise_notes(frames, threshold).items():
            action = frames[i].step.action
            if note.bluff and isinstance(action, Raise):
                found.setdefault("bluff", set()).add(action.player)
    return found


def event_frame(
    game: CheckedGame,
    hand: CheckedHand,
    event: str,
    player: str = "",
    threshold: float = BLUFF_THRESHOLD,
) -> int:
    """Where the replay of ``hand`` shows ``event`` (of :data:`EVENTS`, or ``raise``)
    by ``player`` (anyone when empty) first: its position; 0 (the deal) when the hand
    holds no such event."""
    frames = hand_frames(game, hand)
    notes = raise_notes(frames, threshold) if event == "bluff" else {}
    previous = None
    for i, frame in enumerate(frames):
        step, action = frame.step, frame.step.action
        if event == "error" and (
            not step.applied or any(d.severity == "error" for d in frame.diagnostics)
        ):
            return i
        if not step.applied:
            continue
        by = getattr(action, "player", None)
        mine = not player or (isinstance(by, str) and by.casefold() == player.casefold())
        if mine and _is_event(event, action, previous, notes.get(i)):
            return i
        previous = action
    return 0


def _is_event(event: str, action: object, previous: object, note: RaiseNote | None) -> bool:
    if event == "raise" or event == "reste":
        return isinstance(action, Raise) and (event == "raise" or action.reste)
    if event == "fold to a raise":
        return isinstance(action, Fold) and isinstance(previous, Raise)
    if event == "redeal":
        return isinstance(action, Redeal)
    return event == "bluff" and note is not None and note.bluff
