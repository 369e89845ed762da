"""What a player reviewing a hand reads beside it: how strong each raise was, which
raises were bluffs, whether each answer was made against a hand the log knows, and
which events a hand holds (to find hands by them).

Strength is :func:`truclog.strength.raise_strength`, as statistics count it: the
raiser's three cards of the deal must all end up known (dealt face up, played or
shown), and a raise below the bluff threshold (0.5 unless set otherwise, as for
``truclog stats``) is a bluff.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from truclog.actions import Accept, Fold, Raise, Redeal
from truclog.strength import played_this_hand, raise_strength
from truclog.tui.browse.index import Frame, hand_frames
from truclog.validate import CheckedGame, CheckedHand

BLUFF_THRESHOLD = 0.5
"""A raise with a known hand below this strength is a bluff (``--bluff-threshold``)."""

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
        notes[i] = RaiseNote(strength, strength is not None and strength < threshold)
    return notes


def answer_notes(frames: Sequence[Frame]) -> dict[int, bool]:
    """For each answer to a raise (accept or fold), whether the answerer's hand is known."""
    notes: dict[int, bool] = {}
    for i in range(1, len(frames)):
        action = frames[i].step.action
        if isinstance(action, Accept | Fold) and frames[i - 1].state.pending is not None:
            notes[i] = dealt_ranks(frames[i - 1], action.player) is not None
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
