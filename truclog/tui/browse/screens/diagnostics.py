"""Diagnostics: what the validator found, with a jump to the event it is about."""

from __future__ import annotations

from typing import ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.widgets import DataTable, Header, Static

from truclog.diagnostic import Diagnostic
from truclog.tui.browse.screens.base import BrowseScreen, row_table
from truclog.tui.widgets.footer import KeysFooter


def diagnostic_row(d: Diagnostic) -> tuple[str | Text, ...]:
    """A diagnostic's row: where, its code (red for an error), its hand and its message."""
    style = "bold red" if d.severity == "error" else "yellow"
    where = f"{d.path}:{d.line}" if d.line else d.path
    return (
        Text(where),
        Text(d.code, style=style),
        Text("" if d.hand is None else str(d.hand)),
        Text(d.message),
    )


class DiagnosticsScreen(BrowseScreen):
    """A list of diagnostics; enter opens the replay at the event of one inside a game."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter", "open", "Show event", id="diagnostics.open"),
        Binding("escape", "app.pop_screen", "Back", id="diagnostics.back"),
    ]

    def __init__(self, diagnostics: list[Diagnostic], title: str) -> None:
        super().__init__()
        self.diagnostics = diagnostics
        self.title_text = title

    def compose(self) -> ComposeResult:
        yield Header()
        count = len(self.diagnostics)
        heading = f"{self.title_text}: {count} diagnostic{'s' * (count != 1)}"
        if not count:
            heading += " · nothing to report"
        yield Static(Text(heading, style="bold"), id="diagnostics-heading")
        table = row_table("diagnostics-table", ("where", "code", "hand", "message"))
        table.add_rows(diagnostic_row(d) for d in self.diagnostics)
        yield table
        yield KeysFooter()

    def on_mount(self) -> None:
        """Puts the cursor in the list."""
        self.sub_title = "diagnostics"
        self.query_one(DataTable).focus()

    def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        """Enter or a click on a row replays the event it is about."""
        self.action_open()

    def action_open(self) -> None:
        row = self.query_one(DataTable).cursor_row
        if 0 <= row < len(self.diagnostics):
            diagnostic = self.diagnostics[row]
            if not self.browse.open_diagnostic(diagnostic):
                self.notify("this diagnostic is not inside a hand of a game", timeout=3)
