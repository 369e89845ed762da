"""A hand as plain text, the kind players paste into a forum or a chat.

The heading says which game and hand, the rules, who deals and the score
before; then each player's cards as the log ends up knowing them (``??`` for a
card never seen), every event in order with the raises' strength and bluff
marks and the answers' review (sound, right), each finished trick with who won
it, and how the hand ended.
"""

from __future__ import annotations

from truclog.diagnostic import score_words
from truclog.engine.actions import Action, Deal, Play
from truclog.engine.cards import Card
from truclog.engine.state import State
from truclog.errors import TruclogError
from truclog.format.events import Event, claim_words, event_to_action
from truclog.solver.bluff import BLUFF_THRESHOLD
from truclog.tui.browse.index import Frame, hand_frames, hand_outcome
from truclog.tui.browse.review import answer_notes, raise_notes
from truclog.validate.checker import CheckedGame, Step


def describe_step(step: Step) -> str:
    """One line for an event: the action in words, or what the line claims."""
    action = step.action if step.action is not None else _action_of(step.event)
    if isinstance(action, Deal):
        return f"{action.dealer} deals" + (f" hand {action.hand}" if action.hand else "")
    if action is not None:
        return str(action)
    return claim_words(step.event)


def _action_of(event: Event | None) -> Action | None:
    """The action a line names, for lines the validator skipped without reading one."""
    if event is None:
        return None
    try:
        return event_to_action(event)
    except TruclogError:
        return None


def trick_line(state: State, number: int, cards: list[tuple[str, Card]]) -> str:
    """``Trick 1: Ana 7h, Marc As -> Ana`` (``tied`` for a tied trick)."""
    played = ", ".join(f"{player} {card}" for player, card in cards)
    result = state.results[number - 1] if number <= len(state.results) else None
    won = "tied" if result is None else state.teams[result]
    return f"Trick {number}: {played} -> {won}"


def cards_line(frame: Frame, players: tuple[str, ...]) -> str:
    """Each player's cards of the deal at ``frame``: known ones, ``??`` for the others."""
    parts = []
    for player in players:
        known, unseen = frame.state.known_cards(player)
        later = list(frame.later.get(player, []))[:unseen]
        cards = [str(c) for c in (*known, *later)] + ["??"] * (unseen - len(later))
        parts.append(f"{player}: {' '.join(cards) or '—'}")
    return "   ".join(parts)


def hand_text(game: CheckedGame, hand_index: int, threshold: float = BLUFF_THRESHOLD) -> str:
    """Hand ``hand_index`` (0-based in the game) as readable text, one event a line."""
    hand = game.hands[hand_index]
    frames = hand_frames(game, hand)
    start = hand.start
    deal = next((s.action for s in hand.steps if isinstance(s.action, Deal)), None)
    dealer = deal.dealer if deal is not None else start.dealer_name
    lines = [
        f"{game.id} · hand {hand.number} · {game.rules.describe()} · {' v '.join(game.players)}",
        f"{dealer} deals · score before: {score_words(start.score)} (target {start.rules.target})",
    ]
    if not frames:
        return "\n".join([*lines, "(no events)"]) + "\n"
    strengths = raise_notes(frames, threshold)
    answers = answer_notes(frames)
    trick: list[tuple[str, Card]] = []
    tricks = 0
    for i, frame in enumerate(frames):
        step = frame.step
        if isinstance(step.action, Deal) and step.applied:
            if i:
                lines.append(describe_step(step))
            lines.append(cards_line(frame, game.players))
            trick, tricks = [], 0
            continue
        line = describe_step(step)
        if i in strengths:
            line += f"  [{strengths[i].words()}]"
        if i in answers:
            line += f"  [{answers[i].marks()}]"
        if step.error is not None:
            line += f"  !! {step.error.code} {step.error.message}"
        note = getattr(step.event, "note", None)
        if note:
            line += f'  "{note}"'
        lines.append(line)
        if isinstance(step.action, Play) and step.error is None:
            trick.append((step.action.player, step.action.card))
            if len(frame.state.results) > tricks:
                tricks = len(frame.state.results)
                lines.append("  " + trick_line(frame.state, tricks, trick))
                trick = []
    lines.append(_ending(game, hand_index))
    return "\n".join(lines) + "\n"


def _ending(game: CheckedGame, hand_index: int) -> str:
    hand = game.hands[hand_index]
    outcome = hand_outcome(hand)
    if outcome is None:
        return "Hand not finished"
    score = score_words(outcome.score)
    if outcome.winner is None:
        return f"Drawn hand · score {score}"
    how = "on a fold" if outcome.ending == "fold" else f"by {outcome.ending}"
    reste = " (reste)" if outcome.reste else ""
    return f"{outcome.winner} wins {outcome.points}{reste} {how} · score {score}"
