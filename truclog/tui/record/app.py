"""``truclog record``: the Textual recorder for a game at the table.

The app opens on the start screen (or, resuming, straight on the game) and
records through a :class:`~truclog.record.Recorder`, so every line shown as
recorded is already on disk.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from typing import ClassVar

from textual.app import App, SystemCommand
from textual.binding import Binding, BindingType
from textual.filter import LineFilter
from textual.screen import Screen

from truclog.diagnostic import score_words
from truclog.record.recorder import Clock, Recorder, local_now
from truclog.tui.record.lines import event_text
from truclog.tui.record.screens.help import RecordHelpScreen
from truclog.tui.record.screens.record import RecordScreen
from truclog.tui.record.screens.start import Setup, StartScreen
from truclog.tui.widgets.shown import SHOWN


class RecordApp(App[None]):
    """Record games of Le Truc into a truclog/1 log."""

    CSS_PATH = "record.tcss"
    TITLE = "truclog record"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("ctrl+q", "quit", "Quit", id="app.quit", priority=True),
        Binding("f1", "help", "Help", id="app.help"),
    ]

    def get_line_filters(self) -> Sequence[LineFilter]:
        """Textual's line filters, then :data:`SHOWN`: text from logs drawn, never obeyed."""
        return [*super().get_line_filters(), SHOWN]

    def __init__(
        self,
        recorder: Recorder | None = None,
        setup: Setup | None = None,
        *,
        me: str | None = None,
        clock: Clock | None = local_now,
        rng: random.Random | None = None,
        history: Sequence[str] | None = None,
    ) -> None:
        """``history``: the logs whose hands the HUD counts (empty: the folder of the
        log being recorded); ``None`` shows no HUD."""
        super().__init__()
        self.history = history
        self.recorder = recorder
        self.setup = setup or Setup()
        self.me = me
        self.clock = clock
        self.rng = rng
        self.failures: list[str] = []
        """What the disk refused during the session (the command then exits with 1)."""

    def on_mount(self) -> None:
        """Goes on with the game being resumed, or asks for the game to start."""
        if self.recorder is not None and self.recorder.state is not None:
            self.open_game(self.recorder, self.me)
        else:
            self.push_screen(StartScreen(self.setup, self.recorder, self.rng), self.started)

    def started(self, started: tuple[Recorder, str | None] | None) -> None:
        """Records the game the start screen set up; quits when it was given up."""
        if started is None:
            self.exit()
            return
        self.open_game(*started)

    def open_game(self, recorder: Recorder, me: str | None) -> None:
        """Record into ``recorder``: a game just started, or resumed (its repairs said)."""
        self.recorder, self.me = recorder, me or recorder.me
        said = self.report_resume(recorder)
        self.push_screen(RecordScreen(recorder, self.me, " ".join(said), self.history))

    def report_resume(self, recorder: Recorder) -> list[str]:
        """Tell what opening the log repaired or completed; returns it, for the message line."""
        said = []
        if recorder.repaired:
            said.append(
                f"The last line was cut short by a crash: its {len(recorder.repaired)} bytes "
                f"were moved to {recorder.path.name}.torn and the log repaired."
            )
            self.notify(said[-1], title="Log repaired", severity="warning", timeout=10)
        if recorder.completed:
            lines = "; ".join(event_text(e).plain for e in recorder.completed)
            said.append(f"Written on resuming: {lines}.")
            self.notify(said[-1], title="Log completed", timeout=10)
        state = recorder.state
        if state is not None and (said or state.history):
            score = score_words(state.score)
            said.append(f"Resumed at hand {state.hand_no}, score {score}.")
            self.notify(said[-1], title="Resumed")
        return said

    def get_system_commands(self, screen: Screen[object]) -> Iterable[SystemCommand]:
        """The command palette: Textual's commands, the recorder's entries while recording, and the
        help."""
        yield from super().get_system_commands(screen)
        if isinstance(screen, RecordScreen):
            yield SystemCommand("Undo", "Take back the last entry", screen.action_undo)
            yield SystemCommand("Note", "A note on the last line of the log", screen.action_note)
            yield SystemCommand("Deal", "Record the next deal", screen.action_deal)
            yield SystemCommand("Edit", "Change the line picked in the log", screen.action_edit)
            yield SystemCommand("Score sheet", "The hands of this game", screen.action_sheet)
            yield SystemCommand(
                "Share this hand", "Its replay as one HTML file to send", screen.action_share
            )
            yield SystemCommand("Abandon game", "End the game here", screen.action_abandon)
            yield SystemCommand("New game", "Another game in this log", screen.action_new_game)
        yield SystemCommand("Recorder help", "Entries and keys", self.action_help)

    def action_help(self) -> None:
        if not isinstance(self.screen, RecordHelpScreen):
            self.push_screen(RecordHelpScreen())

    def on_unmount(self) -> None:
        """Closes the log (and lets go of its lock)."""
        if self.recorder is not None:
            self.recorder.close()
