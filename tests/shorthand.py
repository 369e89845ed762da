"""Actions written as short lines, for the engine's scenario tests.

``"Marc deals Ana=7h,Q,9s Marc=??,??,?? #1"``, ``"Ana raise 2"``, ``"Ana raise reste"``,
``"Marc accept"``, ``"Marc fold"``, ``"Ana redeal yes"``, ``"Ana 7h"`` (a play),
``"Ana show Q 9s"``.

>>> action("Ana raise reste")
Raise(player='Ana', to=None, reste=True)
"""

from __future__ import annotations

import pytest

from truclog.engine.actions import Accept, Action, Deal, Fold, Play, Raise, Redeal, Show
from truclog.engine.cards import Card, parse_card, parse_dealt
from truclog.engine.state import State
from truclog.errors import IllegalActionError


def action(line: str) -> Action:
    """The action a short line stands for."""
    player, verb, *rest = line.split()
    if verb == "deals":
        hands: dict[str, list[Card | None]] = {}
        number = None
        for word in rest:
            if word.startswith("#"):
                number = int(word[1:])
            else:
                name, cards = word.split("=")
                hands[name] = [parse_dealt(c) for c in cards.split(",")]
        return Deal.of(player, hands, hand=number)
    if verb == "raise":
        return Raise(player, reste=True) if rest == ["reste"] else Raise(player, to=int(rest[0]))
    if verb == "accept":
        return Accept(player)
    if verb == "fold":
        return Fold(player)
    if verb == "redeal":
        return Redeal(player, rest == ["yes"])
    if verb == "show":
        return Show(player, tuple(parse_card(c) for c in rest))
    return Play(player, parse_card(verb))


def run(state: State, *lines: str) -> State:
    """Push every line in order."""
    for line in lines:
        state.push(action(line))
    return state


def refused(state: State, line: str, code: str) -> IllegalActionError:
    """The action is refused with ``code`` and the state is left as it was."""
    before = (state.phase, dict(state.score), len(state.history), state.value, state.pending)
    with pytest.raises(IllegalActionError) as caught:
        state.push(action(line))
    assert caught.value.code == code, caught.value.message
    assert not state.is_legal(action(line))
    assert (state.phase, state.score, len(state.history), state.value, state.pending) == before
    return caught.value
