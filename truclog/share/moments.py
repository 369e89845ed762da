"""Each step of a hand as a shared page shows it: the table after it, from a seat or whole.

Every fact comes from the hand's engine replay (:meth:`truclog.replay.Hand.replay`): the
cards from the state (from a seat, from :meth:`~truclog.engine.State.view`, which
never holds another player's cards in hand), the tricks and who took them, the
value and the raise waiting for an answer, the score, how the hand ended. The page
only draws what this module gives it, as plain values (JSON).

From a seat, a card another player holds is left out until that seat sees it (played
or shown); free text (a note, a mark, a diagnostic) has such a card's name made ``??``
(:func:`~truclog.share.masks.hide_cards`). Without a seat, the table shows every card
the log records at that moment.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from truclog.engine import Phase, State
from truclog.engine.actions import Action, Deal
from truclog.engine.cards import Card
from truclog.engine.trick import team_of
from truclog.errors import TruclogError
from truclog.replay import Game, Hand, Judgement
from truclog.share.masks import NameMask, hide_cards
from truclog.validate import Diagnostic, Step

if TYPE_CHECKING:
    from truclog.record.annotations import Annotation

ShownStep = dict[str, Any]
"""One step as plain values: what the page shows after it."""


@dataclass(slots=True)
class Sight:
    """Who looks (a player, or ``None`` for every card the log records) and how names show."""

    seat: str | None
    names: NameMask

    def cards(self, cards: Iterable[Card | None]) -> list[str | None]:
        """The cards as their codes, ``None`` for a card face down."""
        return [None if card is None else str(card) for card in cards]

    def seats(self, state: State) -> list[dict[str, Any]]:
        """Each player, in seating order: name, side, cards in hand (``None`` face down)."""
        names, players = self.names, state.players
        looking = None if self.seat is None else state.view(self.seat)
        rows = []
        for chair, player in enumerate(players):
            if looking is None or player == self.seat:
                held = self.cards(state.view(player).cards)
            else:
                shown = self.cards(looking.shown[player])
                held = shown + [None] * (looking.held[player] - len(shown))
            rows.append(
                {
                    "name": names.player(player),
                    "team": names.player(state.teams[team_of(chair)]),
                    "cards": held,
                    "dealer": chair == state.dealer,
                }
            )
        return rows

    def seen(self, state: State) -> set[Card]:
        """The cards this seat sees at this moment: its own, the table's, the tricks', the shown."""
        if self.seat is None:
            return set()
        view = state.view(self.seat)
        seen = {card for card in view.cards if card is not None}
        seen.update(card for _, card in state.trick)
        seen.update(card for trick in state.tricks for _, card in trick)
        seen.update(card for cards in view.shown.values() for card in cards)
        return seen

    def others(self, state: State) -> set[Card]:
        """The cards the log knows in the other players' hands of this deal."""
        if self.seat is None:
            return set()
        return {
            card
            for player in state.players
            if player != self.seat
            for card in state.dealt_cards(player)
            if card is not None
        }


def action_words(action: Action, names: NameMask) -> str:
    """An action in words, a deal without its cards (the table shows what may be seen)."""
    if isinstance(action, Deal):
        return f"{names.player(action.dealer)} deals"
    return str(replace(action, player=names.player(action.player)))


def step_words(step: Step, names: NameMask) -> str:
    """What a line says: its action, or the claim of a ``result`` or ``game_end`` line."""
    from truclog.format.events import claim_words, event_to_action

    event = step.source.event
    action = step.action
    if action is None and event is not None:
        try:
            action = event_to_action(event)
        except TruclogError:
            action = None
    if action is not None:
        return action_words(action, names)
    return claim_words(event, names.player)


def _kind(step: Step) -> str:
    event = step.source.event
    return str(getattr(event, "type", "line"))


def ending_words(state: State, names: NameMask) -> str | None:
    """How the hand at this moment ended, ``None`` while it is played."""
    outcome = state.outcome
    over = state.phase in (Phase.HAND_OVER, Phase.GAME_OVER)
    if not over or outcome is None or outcome.hand != state.hand_no:
        return None
    if outcome.winner is None:
        return "drawn hand"
    how = "on a fold" if outcome.ending == "fold" else f"by {outcome.ending}"
    reste = " (reste)" if outcome.reste else ""
    return f"{names.player(outcome.winner)} wins {outcome.points}{reste} {how}"


def raise_words(state: State, names: NameMask) -> str | None:
    """The raise waiting for an answer and who may answer it."""
    pending = state.pending
    if pending is None:
        return None
    raiser = names.player(state.players[pending.raiser])
    kind = f"reste ({pending.to})" if pending.reste else f"to {pending.to}"
    answer = " or ".join(names.player(p) for p in state.answerers)
    return f"{raiser} raises {kind}, {answer} to answer"


def table_of(state: State, sight: Sight) -> dict[str, Any]:
    """The table after a step: seats, trick, finished tricks, value, raise, score, ending."""
    names, players = sight.names, state.players
    results = [None if r is None else names.player(state.teams[r]) for r in state.results]
    winner = state.winner
    return {
        "hand": state.hand_no,
        "phase": str(state.phase),
        "to_act": None if state.to_act is None else names.player(state.to_act),
        "seats": sight.seats(state),
        "trick": [[names.player(players[seat]), str(card)] for seat, card in state.trick],
        "tricks": [
            {
                "cards": [[names.player(players[seat]), str(card)] for seat, card in trick],
                "won": results[i] if i < len(results) else None,
                "tied": i < len(state.results) and state.results[i] is None,
            }
            for i, trick in enumerate(state.tricks)
        ],
        "value": state.value,
        "reste": state.reste_accepted,
        "raise": raise_words(state, names),
        "score": [[names.player(team), points] for team, points in state.score.items()],
        "ending": ending_words(state, names),
        "winner": None if winner is None else f"{names.player(winner)} wins the game",
    }


def decision_words(decision: Judgement, seat: str | None, names: NameMask) -> dict[str, str] | None:
    """A decision's review as the page shows it: its grade (or soundness), in words.

    Without a seat: the grade in hindsight (every card face up) with the points lost
    and the cards (or answer) that lose nothing, and whether it was sound on what the
    player could know. From a seat, only whether that seat's own decisions were
    sound: a grade and the best cards come from cards the seat did not see."""
    sound = decision.sound
    knew = f"on what {names.player(decision.player)} could know"
    said = None if sound is None else ("sound" if sound else "unsound")
    if seat is not None:
        if decision.player != seat or said is None:
            return None
        return {"grade": said, "text": f"{said} {knew}"}
    grade = decision.grade
    words = []
    if grade is not None:
        lost = f": lost {decision.lost}" if decision.lost else ""
        best = f" (best: {' or '.join(decision.best)})" if decision.best and lost else ""
        words.append(f"{grade} in hindsight{lost}{best}")
    if said is not None:
        words.append(f"{said} {knew}")
    if not words:
        return None
    return {"grade": str(grade or said), "text": " · ".join(words)}


def _problems(step: Step, by_line: dict[int, list[Diagnostic]]) -> list[Diagnostic]:
    found = list(by_line.get(step.line, []))
    error = step.error
    if error is not None and not any((d.line, d.code) == (error.line, error.code) for d in found):
        found.insert(0, error)
    return found


def hand_moments(
    game: Game, hand: Hand, sight: Sight, by_line: dict[int, list[Diagnostic]]
) -> dict[str, Any]:
    """The hand's number, dealer and steps, each with the table after it."""
    names = sight.names
    grades = {
        decision.step.line: words
        for decision in hand.review()
        if (words := decision_words(decision, sight.seat, names)) is not None
    }
    steps: list[tuple[ShownStep, set[Card], list[str], int, bool]] = []
    others: set[Card] = set()
    seen: set[Card] = set()
    annotated: dict[int, list[Annotation]] = {}
    for annotation in hand.annotations:
        annotated.setdefault(annotation.step, []).append(annotation)
    for number, (step, state) in enumerate(hand.replay(), 1):
        others |= sight.others(state)
        seen |= sight.seen(state)
        annotations = annotated.get(number, [])
        note = "\n".join(a.note for a in annotations if a.note)
        marks = list(dict.fromkeys(m for a in annotations for m in a.marks))
        problems = [f"{d.code} {d.message}" for d in _problems(step, by_line)]
        texts = [note, *marks, *problems]
        moment: ShownStep = {
            "line": step.line,
            "kind": _kind(step),
            "text": step_words(step, names),
            "error": step.error is not None,
            "skipped": not step.checked,
            "review": grades.get(step.line),
            "table": table_of(state, sight),
        }
        steps.append((moment, set(seen), texts, len(marks), step.applied))
    moments = []
    for moment, seen_then, texts, marked, applied in steps:
        hidden = others - seen_then
        note, *said = (names.text(hide_cards(text, hidden)) for text in texts)
        if not applied:  # a line the engine refused names a card nobody saw played
            moment["text"] = hide_cards(moment["text"], hidden)
        moment["note"] = note or None
        moment["marks"] = said[:marked]
        moment["problems"] = said[marked:]
        moments.append(moment)
    return {
        "number": hand.number,
        "dealer": names.player(hand.dealer),
        "steps": moments,
    }


def problems_by_step(game: Game) -> dict[int, list[Diagnostic]]:
    """The game's diagnostics by the line of the step that shows each: its own line, or
    for a line that is no step (unreadable, between hands) the step before it; one
    before the first step (the ``game`` line's) goes to the first."""
    lines = sorted(step.line for hand in game.hands for step in hand.steps)
    found: dict[int, list[Diagnostic]] = {}
    if lines:
        for diagnostic in game.diagnostics:
            at = lines[max(bisect_right(lines, diagnostic.line) - 1, 0)]
            found.setdefault(at, []).append(diagnostic)
    return found


def game_moments(
    game: Game, numbers: Iterable[int] | None, seat: str | None, names: NameMask
) -> Iterator[dict[str, Any]]:
    """The hands numbered ``numbers`` (every hand when ``None``), step by step."""
    by_line = problems_by_step(game)
    wanted = None if numbers is None else set(numbers)
    sight = Sight(seat, names)
    for hand in game.hands:
        if wanted is None or hand.number in wanted:
            yield hand_moments(game, hand, sight, by_line)
