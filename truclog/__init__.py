"""truclog: hand histories for Le Truc.

A rules engine (:mod:`truclog.engine`) that knows every preset of the rule texts,
the truclog/1 line format, a validator, statistics and Textual tools.

The names below are imported when first used, so that ``import truclog`` stays quick.

>>> import truclog
>>> truclog.get_rules("sackson").raises
'double'
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from truclog import build

if TYPE_CHECKING:
    from truclog.actions import Accept, Action, Deal, Fold, Play, Raise, Redeal, Show
    from truclog.cards import Card, parse_card, parse_dealt
    from truclog.engine import Outcome, Phase, State, apply, legal_actions
    from truclog.errors import CardError, IllegalActionError, RulesError, TruclogError
    from truclog.rules import PRESETS, Rules, get_rules

__version__ = "0.1.0"

COMPILED: bool = build.COMPILED
"""Whether the engine and the validator run compiled (mypyc), as ``pip install .`` builds them."""


_EXPORTS = {
    **dict.fromkeys(
        ["Accept", "Action", "Deal", "Fold", "Play", "Raise", "Redeal", "Show"], "truclog.actions"
    ),
    **dict.fromkeys(["Card", "parse_card", "parse_dealt"], "truclog.cards"),
    **dict.fromkeys(["Outcome", "Phase", "State", "apply", "legal_actions"], "truclog.engine"),
    **dict.fromkeys(
        ["CardError", "IllegalActionError", "RulesError", "TruclogError"], "truclog.errors"
    ),
    **dict.fromkeys(["PRESETS", "Rules", "get_rules"], "truclog.rules"),
}
"""Each public name and the module it comes from."""


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'truclog' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted([*globals(), *_EXPORTS])


__all__ = [
    "COMPILED",
    "PRESETS",
    "Accept",
    "Action",
    "Card",
    "CardError",
    "Deal",
    "Fold",
    "IllegalActionError",
    "Outcome",
    "Phase",
    "Play",
    "Raise",
    "Redeal",
    "Rules",
    "RulesError",
    "Show",
    "State",
    "TruclogError",
    "apply",
    "get_rules",
    "legal_actions",
    "parse_card",
    "parse_dealt",
]
