"""truclog: hand histories for Le Truc.

A rules engine (:mod:`truclog.engine`) that knows every preset of the rule texts,
the truclog/1 line format, a validator, statistics and Textual tools.

Reading and replaying logs (``docs/api.md``): :func:`read_games` gives checked
:class:`Game` objects, :func:`tables` the games, hands and actions tables and
:func:`player_stats` the per-player statistics (both polars DataFrames). Every
name below is imported when first used, so ``import truclog`` stays light.

>>> import truclog
>>> truclog.get_rules("sackson").raises
'double'
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from truclog import build
from truclog.exports import exports

if TYPE_CHECKING:
    from pathlib import Path

    from truclog.engine.actions import Accept, Action, Deal, Fold, Play, Raise, Redeal, Show
    from truclog.engine.cards import Card, parse_card, parse_dealt
    from truclog.engine.rules import PRESETS, Rules, get_rules
    from truclog.engine.state import Outcome, Phase, State, View, apply, legal_actions
    from truclog.errors import CardError, IllegalActionError, RulesError, TruclogError
    from truclog.record.annotations import Annotation, annotate, read_notes
    from truclog.replay import Game, Hand, Judgement, read_games
    from truclog.stats.review import review
    from truclog.stats.run import player_stats
    from truclog.stats.tables import tables

__version__ = "0.1.0"

COMPILED: bool = build.COMPILED
"""Whether the engine and the validator run compiled (mypyc), as ``pip install .`` builds them."""


def samples() -> Path:
    """The folder of the sample logs installed with truclog: legal logs of every rules
    preset, two and four players, and ``invalid/`` (one broken log per check, left out
    unless named, by the folder's ``.truclogignore``). In a checkout, its
    ``sample_logs/``.

    >>> sorted(p.name for p in samples().glob("*sackson*"))[:1]
    ['2026-12-06-sackson-rubber.truclog.jsonl']
    """
    from pathlib import Path

    from truclog.errors import PathError

    package = Path(__file__).resolve().parent
    for place in (package / "samples", package.parent / "sample_logs"):
        if place.is_dir():
            return place
    raise PathError(str(package / "samples"), "the sample logs are not installed")


_LAZY = {
    **dict.fromkeys(
        ["Accept", "Action", "Deal", "Fold", "Play", "Raise", "Redeal", "Show"],
        "truclog.engine.actions",
    ),
    **dict.fromkeys(["Card", "parse_card", "parse_dealt"], "truclog.engine.cards"),
    **dict.fromkeys(
        ["Outcome", "Phase", "State", "View", "apply", "legal_actions"], "truclog.engine.state"
    ),
    **dict.fromkeys(
        ["CardError", "IllegalActionError", "RulesError", "TruclogError"], "truclog.errors"
    ),
    **dict.fromkeys(["Judgement", "Game", "Hand", "read_games"], "truclog.replay"),
    **dict.fromkeys(["Annotation", "annotate", "read_notes"], "truclog.record.annotations"),
    **dict.fromkeys(["PRESETS", "Rules", "get_rules"], "truclog.engine.rules"),
    "tables": "truclog.stats.tables",
    "player_stats": "truclog.stats.run",
    "review": "truclog.stats.review",
}
"""Each public name and the module it comes from, imported on first use: the engine,
the models, the validator, polars and the statistics are heavy."""


if not TYPE_CHECKING:  # to mypy, the names come from the imports above
    __getattr__ = exports(globals(), _LAZY)


def __dir__() -> list[str]:
    return sorted([*globals(), *_LAZY])


__all__ = [
    "COMPILED",
    "PRESETS",
    "Accept",
    "Action",
    "Annotation",
    "Card",
    "CardError",
    "Deal",
    "Fold",
    "Game",
    "Hand",
    "IllegalActionError",
    "Judgement",
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
    "annotate",
    "apply",
    "get_rules",
    "legal_actions",
    "parse_card",
    "parse_dealt",
    "player_stats",
    "read_games",
    "read_notes",
    "review",
    "samples",
    "tables",
]
