"""Actions written as short lines, for the engine's scenario tests: who acts, then the
engine's short notation (:func:`truclog.engine.notation.parse_action`), or a deal
with each player's cards and the hand's number.

``"Marc deals Ana=7h,Q,9s Marc=??,??,?? #1"``, ``"Ana raise 2"``, ``"Ana raise reste"``,
``"Marc accept"``, ``"Marc fold"``, ``"Ana redeal yes"``, ``"Ana 7h"`` (a play),
``"Ana play A"`` (the ace, where ``a`` alone may accept), ``"Ana show Q 9s"``.

>>> action("Ana raise reste", State.new(["Ana", "Marc"], dealer="Marc"))
Raise(player='Ana', to=None, reste=True)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import pytest

from truclog.engine.actions import Action, Deal
from truclog.engine.cards import Card, parse_dealt
from truclog.engine.notation import parse_action
from truclog.engine.state import State
from truclog.errors import IllegalActionError


def action(line: str, state: State) -> Action:
    """The action a short line stands for in ``state``."""
    player, verb, *rest = line.split()
    if verb != "deals":
        return parse_action(" ".join([verb, *rest]), state, player=player)
    hands: dict[str, list[Card | None]] = {}
    number = None
    for word in rest:
        if word.startswith("#"):
            number = int(word[1:])
        else:
            name, cards = word.split("=")
            hands[name] = [parse_dealt(c) for c in cards.split(",")]
    return Deal.of(player, hands, hand=number)


def game(
    players: Sequence[str],
    rules: str | Mapping[str, Any] = "classic",
    *lines: str,
    dealer: str,
    score: Mapping[str, int] | None = None,
    teams: Mapping[str, Sequence[str]] | None = None,
) -> State:
    """A game of ``players`` under ``rules``, with ``lines`` pushed."""
    return run(State.new(players, dealer=dealer, rules=rules, score=score, teams=teams), *lines)


def run(state: State, *lines: str) -> State:
    """Push every line in order."""
    for line in lines:
        state.push(action(line, state))
    return state


def refused(state: State, line: str, code: str) -> IllegalActionError:
    """The action is refused with ``code`` and the state is left as it was."""
    before = (state.phase, dict(state.score), len(state.history), state.value, state.pending)
    with pytest.raises(IllegalActionError) as caught:
        state.push(action(line, state))
    assert caught.value.code == code, caught.value.message
    assert not state.is_legal(action(line, state))
    assert (state.phase, state.score, len(state.history), state.value, state.pending) == before
    return caught.value
