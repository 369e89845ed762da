"""The note and marks of one step, typed in a dialog: they go to the log's notes file."""

from __future__ import annotations

from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Input, Label, Static

from truclog.record.recorder import COMMON_MARKS

Typed = tuple[str, list[str]]
"""A note (empty: none) and marks."""


def split_marks(text: str) -> list[str]:
    """Marks typed with commas between them, each once.

    >>> split_marks("bluff?, review,, bluff?")
    ['bluff?', 'review']
    """
    return list(dict.fromkeys(mark.strip() for mark in text.split(",") if mark.strip()))


class AnnotateScreen(ModalScreen[Typed | None]):
    """Type a step's note and marks; Enter keeps them, Escape gives up."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "cancel", "Cancel", id="annotate.cancel")
    ]

    def __init__(self, title: str, note: str, marks: tuple[str, ...], shown: str) -> None:
        super().__init__()
        self.title_text = title
        self.note = note
        self.marks = marks
        self.shown = shown  # what the log's own line says, which cannot be changed here

    def compose(self) -> ComposeResult:
        with Vertical(id="annotate-box"):
            yield Label(self.title_text, id="annotate-title")
            if self.shown:
                yield Static(self.shown, id="annotate-log")
            yield Label("Note")
            yield Input(self.note, placeholder="your note (empty: none)", id="annotate-note")
            yield Label("Marks, with commas between them")
            yield Input(
                ", ".join(self.marks),
                placeholder=", ".join(COMMON_MARKS),
                id="annotate-marks",
            )
            yield Static(
                "Enter keeps them (in the log's notes file), Escape gives up.",
                id="annotate-help",
            )

    def on_input_submitted(self, event: Input.Submitted) -> None:
        """Enter in either field closes the dialog with the note and the marks typed."""
        event.stop()
        note = self.query_one("#annotate-note", Input).value.strip()
        marks = split_marks(self.query_one("#annotate-marks", Input).value)
        self.dismiss((note, marks))

    def action_cancel(self) -> None:
        self.dismiss(None)
