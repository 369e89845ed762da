"""The browser's screens: games, hands of a game, replay of a hand, players, a player's
costliest answers, a player's leaks, a player's costliest decisions and drills of
them, found hands, diagnostics, help.

Each is imported when first asked for (``from truclog.tui.browse.screens import
HandsScreen``): the games screen comes first, without the others' modules.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from truclog.tui.browse.screens.answers import CostlyAnswersScreen
    from truclog.tui.browse.screens.diagnostics import DiagnosticsScreen
    from truclog.tui.browse.screens.drill import DrillScreen
    from truclog.tui.browse.screens.find import FindHandsScreen
    from truclog.tui.browse.screens.games import GamesScreen
    from truclog.tui.browse.screens.hands import HandsScreen
    from truclog.tui.browse.screens.help import BrowseHelpScreen, GoToHandScreen
    from truclog.tui.browse.screens.leaks import LeaksScreen, PlayerPrompt
    from truclog.tui.browse.screens.mistakes import MistakesScreen
    from truclog.tui.browse.screens.players import PlayersScreen
    from truclog.tui.browse.screens.replay import ReplayScreen

MODULES = {
    "BrowseHelpScreen": "help",
    "CostlyAnswersScreen": "answers",
    "DiagnosticsScreen": "diagnostics",
    "DrillScreen": "drill",
    "FindHandsScreen": "find",
    "GamesScreen": "games",
    "GoToHandScreen": "help",
    "HandsScreen": "hands",
    "MistakesScreen": "mistakes",
    "LeaksScreen": "leaks",
    "PlayerPrompt": "leaks",
    "PlayersScreen": "players",
    "ReplayScreen": "replay",
}
"""The module of each screen."""

__all__ = [
    "BrowseHelpScreen",
    "CostlyAnswersScreen",
    "DiagnosticsScreen",
    "DrillScreen",
    "FindHandsScreen",
    "GamesScreen",
    "GoToHandScreen",
    "HandsScreen",
    "LeaksScreen",
    "MistakesScreen",
    "PlayerPrompt",
    "PlayersScreen",
    "ReplayScreen",
]


def __getattr__(name: str) -> Any:
    if name not in MODULES:
        raise AttributeError(name)
    return getattr(importlib.import_module(f"{__name__}.{MODULES[name]}"), name)


def import_all() -> None:
    """Import every screen's module (the app does it in a worker after its first draw)."""
    for module in sorted(set(MODULES.values())):
        importlib.import_module(f"{__name__}.{module}")
