"""The scorekeeper: the lines a table writes down once the engine has decided.

The engine decides each hand and each game; the scorekeeper only tells its
decisions as truclog/1 events: the ``result`` line of a decided hand, the
``game_end`` line of a won or abandoned game, and the ``game`` line of the next
game of a rubber, counted with the engine's :class:`~truclog.engine.Rubber`. The
recorder and the simulator both write these lines through it. ``common`` holds a
line's ``t`` and ``note``.

>>> from truclog.engine.actions import Deal, Fold, Raise
>>> s = State.new(["Ana", "Marc"], dealer="Marc", rules={"preset": "classic", "target": 2})
>>> s.push(Deal("Marc")); s.push(Raise("Ana", to=2)); s.push(Fold("Marc"))
>>> line = result(s); line.winner, line.points, line.score
('Ana', 1, {'Ana': 1, 'Marc': 0})
>>> game_end(s).abandoned
True
>>> s.push(Deal("Ana")); s.push(Raise("Marc", to=2)); s.push(Fold("Ana"))
>>> s.push(Deal("Marc")); s.push(Raise("Ana", to=2)); s.push(Fold("Marc"))
>>> end = game_end(s); end.winner, end.score, end.abandoned
('Ana', {'Ana': 2, 'Marc': 1}, None)
>>> header = GameEvent(format="truclog/1", players=["Ana", "Marc"], dealer="Marc",
...                    id="cafe-07", match="rubber-1")
>>> rubber = Rubber(); rubber.record(s)
>>> second = next_game(header, s, rubber)
>>> second.id, second.dealer, second.match
('cafe-08', 'Ana', 'rubber-1')
"""

from __future__ import annotations

import re
from typing import Any

from truclog.engine.state import Phase, Rubber, State
from truclog.errors import TruclogError
from truclog.format.events import GameEndEvent, GameEvent, ResultEvent

KEPT = frozenset({"format", "players", "rules", "match", "teams", "source", "tags"})
"""What the next game of a rubber keeps of its game line (not ``score``: it starts at 0)."""


def result(state: State, **common: Any) -> ResultEvent:
    """The ``result`` line of the hand the engine decided last."""
    outcome = state.outcome
    if outcome is None:
        raise TruclogError("no hand has been decided yet")
    return ResultEvent(
        winner=outcome.winner, points=outcome.points, score=dict(outcome.score), **common
    )


def game_end(state: State, **common: Any) -> GameEndEvent:
    """The ``game_end`` line of the game: its winner, or ``abandoned`` when nobody won."""
    if state.phase is Phase.GAME_OVER and state.winner is not None:
        return GameEndEvent(winner=state.winner, score=state.score, **common)
    return GameEndEvent(score=state.score, abandoned=True, **common)


def next_game(
    header: GameEvent, state: State, rubber: Rubber, *, date: str | None = None, **common: Any
) -> GameEvent | None:
    """The ``game`` line of the next game of ``header``'s rubber, once ``state`` (that
    game, finished) is counted in ``rubber``; ``None`` when the game is not part of a
    rubber or the rubber is won. The next player deals first, the id counts on, the
    date is ``date`` (else the previous game's)."""
    if header.match is None or rubber.winner is not None:
        return None
    keep = header.model_dump(include=set(KEPT), exclude_none=True)
    if header.id is not None:
        keep["id"] = next_id(header.id)
    if (date or header.date) is not None:
        keep["date"] = date or header.date
    return GameEvent(**keep, dealer=state.next_game_dealer, **common)


def next_id(previous: str) -> str:
    """The id of the next game of a rubber: its last number counted on, zeros kept.

    >>> next_id("cafe-2026-11-29-1"), next_id("sim7-000009"), next_id("rubber")
    ('cafe-2026-11-29-2', 'sim7-000010', 'rubber-2')
    """
    found = re.search(r"(\d+)$", previous)
    if found is None:
        return f"{previous}-2"
    digits = found.group()
    return previous[: found.start()] + str(int(digits) + 1).zfill(len(digits))
