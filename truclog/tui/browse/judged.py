"""A hand's decisions as the browser shows them: each card played and each answer to a
raise with its grade (a colour and a mark readable without colour), what was best,
the points it lost and whether it was sound, and the hand's worth after each step.

The judgements are :meth:`truclog.replay.Hand.review`'s. The worth after a decision
is the double-dummy worth of the hand to the player under review once it is made
(the decider's chosen card's worth, or the answer's worth in hindsight), the other
side's worth counted against them.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from rich.text import Text

from truclog.replay import Hand, Judgement
from truclog.solver.answer import AnswerReview
from truclog.solver.grade import Grade
from truclog.solver.play import PlayReview

MARKS: dict[Grade, tuple[str, str]] = {
    Grade.BEST: ("✓", "bold green"),
    Grade.INACCURACY: ("?!", "bold yellow"),
    Grade.MISTAKE: ("?", "bold dark_orange"),
    Grade.BLUNDER: ("??", "bold red"),
}
"""Each grade's mark and colour."""


@dataclass(frozen=True, slots=True)
class JudgedDecision:
    """A judged decision of a hand at ``position`` (0-based among its steps)."""

    position: int
    line: int
    player: str
    kind: str
    sound: bool | None
    lost: int | None
    best: tuple[str, ...] | None
    grade: Grade | None
    worth: int | None
    """The hand's double-dummy worth to ``player`` once the decision is made."""
    before: int | None
    """Its worth just before: what the best decision keeps."""

    @classmethod
    def of(cls, position: int, judgement: Judgement) -> JudgedDecision:
        """The decision ``judgement`` judged, at ``position`` in its hand, with the hand's worth
        after it and before it."""
        j = judgement
        worth = chosen_worth(j.review)
        before = None if worth is None or j.lost is None else worth + j.lost
        return cls(
            position, j.step.line, j.player, j.kind, j.sound, j.lost, j.best, j.grade, worth,
            before,
        )  # fmt: skip

    def worth_to(self, player: str, worth: int | None) -> int | None:
        """``worth`` to ``player``: the decider's, or its opposite for the other side."""
        if worth is None:
            return None
        return worth if player == self.player else -worth


def chosen_worth(review: PlayReview | AnswerReview | None) -> int | None:
    """The double-dummy worth of the decision made, to its decider; ``None`` if unknown."""
    if isinstance(review, PlayReview):
        worths = review.worths
        return None if worths is None else dict(worths).get(review.card)
    if isinstance(review, AnswerReview):
        return review.accept_result if review.accepted else review.fold_worth
    return None


def decisions(hand: Hand) -> dict[int, JudgedDecision]:
    """The hand's judged decisions by position among its steps."""
    at = {id(step): i for i, step in enumerate(hand.steps)}
    return {at[id(j.step)]: JudgedDecision.of(at[id(j.step)], j) for j in hand.review()}


def grade_mark(grade: Grade | None) -> Text:
    """``✓ best``, ``?! inaccuracy``, ``? mistake``, ``?? blunder``, in its colour."""
    if grade is None:
        return Text("· not judged", style="dim")
    mark, style = MARKS[grade]
    return Text(f"{mark} {grade.value}", style=style)


def decision_marks(decision: JudgedDecision) -> Text:
    """The event list's marks of a decision: its grade mark, and the points lost."""
    if decision.grade is None:
        return Text("")
    mark, style = MARKS[decision.grade]
    text = Text("  ").append(mark, style=style)
    if decision.lost:
        text.append(f" −{decision.lost}", style=style)
    return text


def decision_text(decision: JudgedDecision) -> Text:
    """The decision's review beside the table: grade, best, points lost, sound."""
    text = Text(f"{decision.player}'s {decision.kind}: ", style="bold").append_text(
        grade_mark(decision.grade)
    )
    if decision.best is not None:
        text.append(f" · best {' '.join(decision.best)}")
    if decision.lost is not None:
        text.append(f" · lost {decision.lost}")
    if decision.sound is not None:
        sound = ("sound", "green") if decision.sound else ("unsound", "red")
        text.append(" · ").append(*sound)
    return text


def worth_trail(found: Iterable[JudgedDecision], player: str) -> list[tuple[int, int]]:
    """``(event number, worth to player)`` before and after each decision whose worth is
    known (the event before it, then its own: a drop is the points it lost)."""
    trail: list[tuple[int, int]] = []
    for decision in found:
        before = decision.worth_to(player, decision.before)
        after = decision.worth_to(player, decision.worth)
        if before is not None and after is not None:
            event = decision.position + 1
            if not trail or trail[-1] != (event - 1, before):
                trail.append((event - 1, before))
            trail.append((event, after))
    return trail


def lost_by(found: Iterable[JudgedDecision], player: str | None = None) -> int:
    """The points lost by ``player``'s decisions (everyone's when ``None``)."""
    return sum(d.lost or 0 for d in found if player is None or d.player == player)


__all__ = [
    "MARKS",
    "JudgedDecision",
    "chosen_worth",
    "decision_marks",
    "decision_text",
    "decisions",
    "grade_mark",
    "lost_by",
    "worth_trail",
]
