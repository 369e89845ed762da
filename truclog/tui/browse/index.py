"""Replaying the hands of an opened game.

A hand is replayed only within itself, from the state copy its
:class:`~truclog.validate.CheckedHand` starts from, so jumping to any hand
costs the same wherever it is in the game.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from truclog.diagnostic import Diagnostic
from truclog.engine.actions import Deal, Fold, Play, Raise, Redeal, Show
from truclog.engine.cards import Card
from truclog.engine.state import Outcome, State
from truclog.replay import Hand
from truclog.stats.charts import score_by_hand
from truclog.tui.widgets.table import take_matching
from truclog.validate.checker import CheckedGame, CheckedHand, Step


@dataclass(slots=True)
class Frame:
    """The table just after one step of a hand, with the cards the log reveals later."""

    step: Step
    state: State
    later: dict[str, list[Card]]
    diagnostics: list[Diagnostic]


def _later_cards(state: State, coming: Sequence[Step]) -> dict[str, list[Card]]:
    """Per player, cards still in hand now that a later play or show of this deal reveals."""
    later: dict[str, list[Card]] = {p: [] for p in state.players}
    known = {p: state.known_cards(p)[0] for p in state.players}
    for step in coming:
        action = step.action
        if isinstance(action, Deal):
            break
        if not step.applied or not isinstance(action, Play | Show):
            continue
        cards = [action.card] if isinstance(action, Play) else list(action.cards)
        for card in cards:
            if not take_matching(known[action.player], card):
                later[action.player].append(card)
    return later


def hand_frames(game: CheckedGame, hand: CheckedHand) -> list[Frame]:
    """The table after each step of a hand, with what the log reveals later."""
    by_line: dict[int, list[Diagnostic]] = {}
    for diagnostic in game.diagnostics:
        by_line.setdefault(diagnostic.line, []).append(diagnostic)
    return [
        Frame(step, now, _later_cards(now, hand.steps[i + 1 :]), by_line.get(step.line, []))
        for i, (step, now) in enumerate((step, state.copy()) for step, state in Hand(hand).replay())
    ]


@dataclass(frozen=True, slots=True)
class HandSummary:
    """One row of the hands screen."""

    number: int
    dealer: str
    value: int
    winner: str | None
    points: int
    ending: str
    marks: str
    score: dict[str, int]


def hand_marks(hand: CheckedHand) -> str:
    """``R`` raise, ``F`` fold, ``!`` reste, ``D`` redeal asked, ``E`` error or skipped lines."""
    actions = [s.action for s in hand.steps if s.action is not None]
    marks = ""
    if any(isinstance(a, Raise) for a in actions):
        marks += "R"
    if any(isinstance(a, Fold) for a in actions):
        marks += "F"
    if any(isinstance(a, Raise) and a.reste for a in actions):
        marks += "!"
    if any(isinstance(a, Redeal) for a in actions):
        marks += "D"
    if hand.errors or not hand.ok:
        marks += "E"
    return marks


def hand_outcome(hand: CheckedHand) -> Outcome | None:
    """The outcome of this very hand, ``None`` while it is undecided."""
    return Hand(hand).outcome


def summarize_hand(hand: CheckedHand) -> HandSummary:
    """Who dealt, what the hand was worth at the end, who won what and how."""
    played = Hand(hand)
    end = played.final
    outcome = played.outcome
    return HandSummary(
        number=played.number,
        dealer=played.dealer,
        value=end.value,
        winner=played.winner,
        points=played.points,
        ending=(outcome.ending + (" (reste)" if outcome.reste else "")) if outcome else "undecided",
        marks=hand_marks(hand),
        score=played.score if outcome else end.score,
    )


def score_series(game: CheckedGame) -> dict[str, list[int]]:
    """Each side's score at the start and after every hand (an undecided hand changes none)."""
    return score_by_hand(game)
