"""The browser app: loads logs in a background worker and moves between screens."""

from __future__ import annotations

import time
from collections.abc import Iterable, Sequence
from typing import ClassVar

from textual import events
from textual.app import App, SystemCommand
from textual.binding import Binding, BindingType
from textual.screen import Screen
from textual.worker import get_current_worker

from truclog.tui.browse.index import LoadProgress, LogIndex, load
from truclog.tui.browse.screens import (
    BrowseHelpScreen,
    DiagnosticsScreen,
    GamesScreen,
    GoToHandScreen,
    HandsScreen,
    PlayersScreen,
    ReplayScreen,
)
from truclog.validate import CheckedGame, Diagnostic

BATCH_SECONDS = 0.1
QUIET_SECONDS = 0.5  # loading pauses this long after each key or click, so the UI stays quick


class BrowseApp(App[None]):
    """Browse truclog logs: games, hands, replays, players."""

    CSS_PATH = "browse.tcss"
    TITLE = "truclog browse"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("question_mark,f1", "help", "Help", id="app.help"),
        Binding("q", "quit", "Quit", id="app.quit"),
    ]

    def __init__(self, sources: Sequence[str]) -> None:
        super().__init__()
        self.sources = list(sources)
        self.index = LogIndex()
        self.progress = LoadProgress()
        self.loaded = False
        self.busy_until = 0.0

    def on_mount(self) -> None:
        self.push_screen(GamesScreen())
        self.run_worker(self.read_logs, thread=True, group="load", exit_on_error=False)

    # --- loading -----------------------------------------------------------

    def read_logs(self) -> None:
        """Check the logs in this worker thread, passing games to the UI in timed batches."""
        worker = get_current_worker()
        batch: list[CheckedGame | Diagnostic] = []
        sent = 0.0
        try:
            for item in load(self.sources, self.progress, stop=lambda: worker.is_cancelled):
                self.wait_for_quiet()
                batch.append(item)
                if time.monotonic() - sent >= BATCH_SECONDS:
                    self.call_from_thread(self.receive, batch)
                    batch, sent = [], time.monotonic()
            if not worker.is_cancelled:
                self.call_from_thread(self.receive, batch, True)
        except RuntimeError:  # the app closed while reading
            return

    def wait_for_quiet(self) -> None:
        """In a worker thread: wait while the user is typing or clicking."""
        worker = get_current_worker()
        while time.monotonic() < self.busy_until and not worker.is_cancelled:
            time.sleep(0.02)

    async def on_event(self, event: events.Event) -> None:
        if isinstance(event, events.Key | events.MouseDown):
            self.busy_until = time.monotonic() + QUIET_SECONDS
        await super().on_event(event)

    def receive(self, batch: Iterable[CheckedGame | Diagnostic], last: bool = False) -> None:
        """Take a batch of checked games and diagnostics into the index and the games screen."""
        self.index.add(batch)
        self.loaded = last
        for screen in self.screen_stack:
            if isinstance(screen, GamesScreen) and screen.is_mounted:
                screen.add_games()
                screen.show_progress(self.progress)

    # --- moving between screens -------------------------------------------

    def open_game(self, index: int) -> None:
        self.push_screen(HandsScreen(self.index.games[index]))

    def open_hand(self, game: CheckedGame, hand: int, position: int = 0) -> None:
        """Replay a hand (0-based in the game); from the hands screen or another replay."""
        if isinstance(self.screen, ReplayScreen) and self.screen.game is game:
            self.screen.load_hand(hand, position)
            return
        self.push_screen(ReplayScreen(game, hand, position))

    def show_diagnostics(self, game: CheckedGame | None) -> None:
        if game is None:
            self.push_screen(DiagnosticsScreen(self.index.diagnostics(), "all logs"))
        else:
            self.push_screen(DiagnosticsScreen(list(game.diagnostics), game.id))

    def open_diagnostic(self, diagnostic: Diagnostic) -> bool:
        """Replay the hand a diagnostic is about, at its line; False if it is in no hand."""
        for game in self.index.games:
            if game.path != diagnostic.path or diagnostic.game not in (game.id, None):
                continue
            for i, hand in enumerate(game.hands):
                for position, step in enumerate(hand.steps):
                    if step.line == diagnostic.line:
                        self.push_screen(ReplayScreen(game, i, position))
                        return True
        return False

    def action_players(self) -> None:
        if not isinstance(self.screen, PlayersScreen):
            self.push_screen(PlayersScreen())

    def action_help(self) -> None:
        if not isinstance(self.screen, BrowseHelpScreen):
            self.push_screen(BrowseHelpScreen())

    def action_goto_hand(self) -> None:
        """Ask for a hand number, then replay that hand of the current game."""
        screen = self.screen
        if not isinstance(screen, HandsScreen | ReplayScreen):
            self.notify("open a game first", timeout=2)
            return
        game = screen.game

        def chosen(number: int | None) -> None:
            if number is None:
                return
            for i, hand in enumerate(game.hands):
                if hand.number == number:
                    self.open_hand(game, i)
                    return
            self.notify(f"{game.id} has no hand {number}", severity="warning", timeout=3)

        self.push_screen(GoToHandScreen(len(game.hands)), chosen)

    def get_system_commands(self, screen: Screen) -> Iterable[SystemCommand]:
        yield from super().get_system_commands(screen)
        yield SystemCommand("Games", "The list of every game", self.action_games)
        yield SystemCommand("Players", "Player statistics", self.action_players)
        yield SystemCommand("Diagnostics", "Every diagnostic of the logs", self.action_diagnostics)
        yield SystemCommand("Help", "Every key of every screen", self.action_help)
        if isinstance(screen, HandsScreen | ReplayScreen):
            yield SystemCommand("Go to hand…", "Replay hand N of this game", self.action_goto_hand)
        if isinstance(screen, ReplayScreen):
            yield SystemCommand("Next hand", "Replay the next hand", screen.action_next_hand)
            yield SystemCommand(
                "Previous hand", "Replay the previous hand", screen.action_previous_hand
            )
            yield SystemCommand("Next raise", "Step to the next raise", screen.action_next_raise)
            yield SystemCommand(
                "Toggle reveal", "Onlooker's view or every card", screen.action_toggle_reveal
            )

    def action_games(self) -> None:
        while len(self.screen_stack) > 2 and not isinstance(self.screen, GamesScreen):
            self.pop_screen()

    def action_diagnostics(self) -> None:
        self.show_diagnostics(None)
