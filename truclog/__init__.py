"""truclog: hand histories for Le Truc.

A rules engine (:mod:`truclog.engine`) that knows every preset of the rule texts,
the truclog/1 line format, a validator, statistics and Textual tools.

Reading and replaying logs (``docs/api.md``): :func:`read_games` gives checked
:class:`Game` objects, :func:`tables` the games, hands and actions tables and
:func:`player_stats` the per-player statistics (both polars DataFrames). These
are imported when first used, so ``import truclog`` stays light.
"""

from typing import TYPE_CHECKING, Any

from truclog import engine as _engine
from truclog.actions import Accept, Action, Deal, Fold, Play, Raise, Redeal, Show
from truclog.cards import Card, parse_card, parse_dealt
from truclog.engine import Outcome, Phase, State, View, apply, legal_actions
from truclog.errors import CardError, IllegalActionError, RulesError, TruclogError
from truclog.rules import PRESETS, Rules, get_rules

__version__ = "0.1.0"

COMPILED = not _engine.__file__.endswith(".py")
"""Whether the engine and the validator run compiled (mypyc), as ``pip install .`` builds them."""

if TYPE_CHECKING:
    from truclog.game import Game, Hand, read_games
    from truclog.stats.run import player_stats
    from truclog.stats.tables import tables

_LAZY = {
    "Game": "truclog.game",
    "Hand": "truclog.game",
    "read_games": "truclog.game",
    "tables": "truclog.stats.tables",
    "player_stats": "truclog.stats.run",
}
"""Names imported on first use: the validator, polars and the statistics are heavy."""


if not TYPE_CHECKING:  # to mypy, the names come from the imports above

    def __getattr__(name: str) -> Any:
        module = _LAZY.get(name)
        if module is None:
            raise AttributeError(f"module 'truclog' has no attribute {name!r}")
        from importlib import import_module

        value = getattr(import_module(module), name)
        globals()[name] = value
        return value


__all__ = [
    "COMPILED",
    "PRESETS",
    "Accept",
    "Action",
    "Card",
    "CardError",
    "Deal",
    "Fold",
    "Game",
    "Hand",
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
    "View",
    "apply",
    "get_rules",
    "legal_actions",
    "parse_card",
    "parse_dealt",
    "player_stats",
    "read_games",
    "tables",
]
