"""truclog: hand histories for Le Truc.

A rules engine (:mod:`truclog.engine`) that knows every preset of the rule texts,
the truclog/1 line format, a validator, statistics and Textual tools.
"""

from truclog import engine as _engine
from truclog.actions import Accept, Action, Deal, Fold, Play, Raise, Redeal, Show
from truclog.cards import Card, parse_card, parse_dealt
from truclog.engine import Outcome, Phase, State, apply, legal_actions
from truclog.errors import CardError, IllegalActionError, RulesError, TruclogError
from truclog.rules import PRESETS, Rules, get_rules

__version__ = "0.1.0"

COMPILED = not _engine.__file__.endswith(".py")
"""Whether the engine and the validator run compiled (mypyc), as ``pip install .`` builds them."""

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
