"""The recorder's commands as a list to tap: a phone's screen has no room for the footer."""

from __future__ import annotations

from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Label, OptionList
from textual.widgets.option_list import Option

COMMANDS = (
    ("deal", "Deal: the cards of the next hand"),
    ("undo", "Undo the last entry"),
    ("note", "Note on the last line"),
    ("mark", "Mark the last line"),
    ("edit", "Edit the line picked in the log"),
    ("sheet", "Score sheet"),
    ("abandon", "Abandon the game"),
    ("new_game", "New game in this log"),
    ("help", "Help: entries and keys"),
    ("quit", "Quit"),
)


class MenuScreen(ModalScreen[str | None]):
    """Every command of the recording screen; gives the one tapped (an action's name)."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "dismiss(None)", "Close", id="menu.close")
    ]

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog menu"):
            yield Label("Menu", classes="dialog-title")
            yield OptionList(*(Option(text, id=name) for name, text in COMMANDS), id="commands")

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        """Closes with the id of the entry chosen."""
        event.stop()
        self.dismiss(event.option.id)
