"""The browser's screens: games, hands of a game, replay of a hand, players, a player's
costliest answers, found hands, diagnostics, help."""

from truclog.tui.browse.screens.answers import CostlyAnswersScreen
from truclog.tui.browse.screens.diagnostics import DiagnosticsScreen
from truclog.tui.browse.screens.find import FindHandsScreen
from truclog.tui.browse.screens.games import GamesScreen
from truclog.tui.browse.screens.hands import HandsScreen
from truclog.tui.browse.screens.help import BrowseHelpScreen, GoToHandScreen
from truclog.tui.browse.screens.players import PlayersScreen
from truclog.tui.browse.screens.replay import ReplayScreen

__all__ = [
    "BrowseHelpScreen",
    "CostlyAnswersScreen",
    "DiagnosticsScreen",
    "FindHandsScreen",
    "GamesScreen",
    "GoToHandScreen",
    "HandsScreen",
    "PlayersScreen",
    "ReplayScreen",
]
