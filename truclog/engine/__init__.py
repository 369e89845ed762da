"""The rules engine: the cards, the rules of each preset, the actions and the state
of a game, deciding every hand and game. It does no I/O.

:mod:`~truclog.engine.cards`, :mod:`~truclog.engine.rules` (and the rules given as
values, :mod:`~truclog.engine.overrides`), :mod:`~truclog.engine.sides`,
:mod:`~truclog.engine.actions`, :mod:`~truclog.engine.trick`,
:mod:`~truclog.engine.holding`, :mod:`~truclog.engine.state` and the short notation
of actions (:mod:`~truclog.engine.notation`), whose names are importable from here, each when first used (the rules alone stay light):

>>> from truclog.engine import State
>>> State.new(["Ana", "Marc"], dealer="Marc").phase
<Phase.DEAL: 'deal'>
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from truclog.exports import exports

if TYPE_CHECKING:
    from truclog.codes import Code
    from truclog.engine.actions import RaiseRange
    from truclog.engine.notation import NotationError, parse_action
    from truclog.engine.state import (
        RUBBER_WINS,
        Outcome,
        PendingRaise,
        Phase,
        Rubber,
        State,
        View,
        apply,
        fold_ends_game,
        legal_actions,
        points_won,
    )

__all__ = [
    "RUBBER_WINS",
    "Code",
    "NotationError",
    "Outcome",
    "PendingRaise",
    "Phase",
    "RaiseRange",
    "Rubber",
    "State",
    "View",
    "apply",
    "fold_ends_game",
    "legal_actions",
    "parse_action",
    "points_won",
]

_HOMES = {
    "Code": "truclog.codes",
    "RaiseRange": "truclog.engine.actions",
    "NotationError": "truclog.engine.notation",
    "parse_action": "truclog.engine.notation",
}

if not TYPE_CHECKING:  # to mypy, the names come from the imports above
    __getattr__ = exports(
        globals(),
        {name: _HOMES.get(name, "truclog.engine.state") for name in __all__},
    )
