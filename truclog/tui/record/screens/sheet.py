"""The score sheet of the current game, hand by hand (``truclog record --sheet LOG`` prints it)."""

from __future__ import annotations

from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Label, Static

from truclog.record.recorder import Recorder
from truclog.record.sheet import sheet_text


class SheetScreen(ModalScreen[None]):
    """Hands, dealers, raises, who scored, the points and the running score."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,f6,q", "dismiss", "Close", id="sheet.close")
    ]

    def __init__(self, recorder: Recorder) -> None:
        super().__init__()
        self.recorder = recorder

    def compose(self) -> ComposeResult:
        state = self.recorder.state
        with VerticalScroll(classes="dialog sheet"):
            yield Label("Score sheet", classes="dialog-title")
            yield Static(sheet_text(state) if state else "No game yet.", id="sheet")
            yield Static(
                f"To print it: truclog record --sheet {self.recorder.path.name}",
                classes="dialog-help",
            )

    def on_click(self) -> None:
        """A click anywhere closes the sheet."""
        self.dismiss(None)
