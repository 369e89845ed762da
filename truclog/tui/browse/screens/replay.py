"""The replay of one hand, event by event: the table beside the event list."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.reactive import reactive
from textual.widgets import DataTable, Footer, Header, Static

from truclog.actions import Action, Deal, Raise
from truclog.errors import TruclogError
from truclog.events import Event, event_to_action
from truclog.tui.browse.index import Frame, hand_frames
from truclog.tui.browse.screens.base import BrowseScreen
from truclog.tui.widgets import TableView
from truclog.validate import CheckedGame, Diagnostic, Step


def describe_step(step: Step) -> str:
    """One line for the event list: the action in words, or what the line claims."""
    action = step.action if step.action is not None else _action_of(step.event)
    if isinstance(action, Deal):
        return f"{action.dealer} deals" + (f" hand {action.hand}" if action.hand else "")
    if action is not None:
        return str(action)
    event = step.event
    kind = getattr(event, "type", "?")
    if kind == "result":
        winner = getattr(event, "winner", None)
        points = getattr(event, "points", 0)
        return f"result: {winner} scores {points}" if winner else "result: drawn hand"
    if kind == "game_end":
        if getattr(event, "abandoned", False):
            return "game abandoned"
        winner = getattr(event, "winner", None)
        return f"game over: {winner} wins" if winner else "game over"
    return str(kind)


def _action_of(event: Event | None) -> Action | None:
    """The action a line names, for lines the validator skipped without reading one."""
    if event is None:
        return None
    try:
        return event_to_action(event)
    except TruclogError:
        return None


def step_row(step: Step, diagnostics: Sequence[Diagnostic] = ()) -> tuple[Text, Text]:
    """The event list row of a step: line number and description, styled by what happened."""
    text = Text(describe_step(step))
    warnings = [d.code for d in diagnostics if d.severity != "error"]
    if step.error is not None:
        text.stylize("bold red")
        text.append(f"  ✗ {step.error.code}", style="bold red")
    elif not step.checked:
        text.stylize("dim italic")
        text.append("  (skipped)", style="dim")
    elif isinstance(step.action, Raise):
        text.stylize("bold magenta")
    if warnings:
        text.append(f"  ⚠ {' '.join(warnings)}", style="yellow")
    if getattr(step.event, "note", None):
        text.append("  ✎", style="cyan")
    return Text(str(step.line), style="dim", justify="right"), text


def diagnostics_text(diagnostics: list[Diagnostic]) -> Text:
    text = Text()
    for d in diagnostics:
        if text:
            text.append("\n")
        style = "bold red" if d.severity == "error" else "bold yellow"
        text.append(f"{d.severity} {d.code} at line {d.line}: ", style=style)
        text.append(d.message)
        if d.legal:
            text.append(f"\nlegal here: {', '.join(d.legal)}", style="dim")
    return text


class ReplayScreen(BrowseScreen):
    """A hand replayed one event at a time, from its own start state."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("right", "forward", "Step", id="replay.forward"),
        Binding("left", "back", "Step back", id="replay.back"),
        Binding("l,down", "forward", "Step", show=False, id="replay.forward_more"),
        Binding("h,up", "back", "Step back", show=False, id="replay.back_more"),
        Binding("home", "start", "Start", show=False, id="replay.start"),
        Binding("end", "end", "End", show=False, id="replay.end"),
        Binding("r", "next_raise", "Next raise", id="replay.next_raise"),
        Binding("n", "next_hand", "Next hand", id="replay.next_hand"),
        Binding("p", "previous_hand", "Prev hand", id="replay.previous_hand"),
        Binding("pagedown", "next_hand", "Next hand", show=False, id="replay.next_hand_page"),
        Binding("pageup", "previous_hand", "Prev hand", show=False, id="replay.previous_hand_page"),
        Binding("g", "app.goto_hand", "Hand N", id="replay.goto"),
        Binding("v", "toggle_reveal", "Reveal", id="replay.reveal"),
        Binding("escape", "app.pop_screen", "Back", id="replay.exit"),
    ]

    reveal: reactive[bool] = reactive(False, init=False)

    def __init__(self, game: CheckedGame, hand: int, position: int = 0) -> None:
        super().__init__()
        self.game = game
        self.hand = hand
        self.position = position
        self.frames: list[Frame] = []

    def compose(self) -> ComposeResult:
        yield Header()
        yield Static(id="replay-title")
        with Horizontal(id="replay-body"):
            with Vertical(id="replay-left"):
                yield TableView(id="replay-table")
                yield Static(id="replay-note")
                yield Static(id="replay-diagnostic")
            events: DataTable[Any] = DataTable(id="replay-events", cursor_type="row")
            events.can_focus = False  # the screen's keys step; a click on an event jumps to it
            events.add_column("line", key="line")
            events.add_column("event", key="event")
            yield events
        yield Footer()

    def on_mount(self) -> None:
        self.sub_title = f"replay of {self.game.id}"
        self.load_hand(self.hand, self.position)

    @property
    def events(self) -> DataTable[Any]:
        return self.query_one("#replay-events", DataTable)

    @property
    def frame(self) -> Frame | None:
        return self.frames[self.position] if self.frames else None

    def load_hand(self, hand: int, position: int = 0) -> None:
        """Show hand ``hand`` (0-based in the game) at event ``position`` (negative from the end)."""
        self.hand = hand
        self.frames = hand_frames(self.game, self.game.hands[hand]) if self.game.hands else []
        self.position = position % len(self.frames) if self.frames else 0
        table = self.events
        table.clear()
        for i, frame in enumerate(self.frames):
            table.add_row(*step_row(frame.step, frame.diagnostics), key=str(i))
        self.show()

    def go(self, position: int) -> None:
        if self.frames:
            self.position = max(0, min(position, len(self.frames) - 1))
            self.show()

    def show(self) -> None:
        """Draw the current moment: title, table, note, diagnostics, event cursor."""
        frame = self.frame
        title = self.query_one("#replay-title", Static)
        if frame is None:
            title.update(Text(f"{self.game.id}: no hands", style="bold"))
            return
        number = self.game.hands[self.hand].number
        view = "everything the log reveals" if self.reveal else "what an onlooker knew"
        title.update(
            Text.assemble(
                (f"{self.game.id}", "bold"),
                f" · hand {number} ({self.hand + 1} of {len(self.game.hands)})",
                f" · event {self.position + 1} of {len(self.frames)}",
                f" · line {frame.step.line}",
                (f" · {view}", "italic cyan"),
            )
        )
        self.query_one(TableView).show(frame.state, self.reveal, frame.later)
        note = getattr(frame.step.event, "note", None)
        self.query_one("#replay-note", Static).update(
            Text.assemble(("note  ", "bold cyan"), note) if note else ""
        )
        diagnostics = list(frame.diagnostics)
        error = frame.step.error
        if error is not None and not any(
            (d.line, d.code) == (error.line, error.code) for d in diagnostics
        ):
            diagnostics.insert(0, error)
        panel = self.query_one("#replay-diagnostic", Static)
        panel.update(diagnostics_text(diagnostics))
        panel.set_class(bool(diagnostics), "-shown")
        if self.events.cursor_row != self.position:
            self.events.move_cursor(row=self.position)

    def watch_reveal(self) -> None:
        self.show()

    def on_data_table_row_highlighted(self, event: DataTable.RowHighlighted) -> None:
        row = event.cursor_row
        if row != self.position and row == self.events.cursor_row:
            self.go(row)

    def action_forward(self) -> None:
        self.go(self.position + 1)

    def action_back(self) -> None:
        self.go(self.position - 1)

    def action_start(self) -> None:
        self.go(0)

    def action_end(self) -> None:
        self.go(len(self.frames) - 1)

    def action_next_raise(self) -> None:
        for i in range(self.position + 1, len(self.frames)):
            step = self.frames[i].step
            if isinstance(step.action, Raise) and step.applied:
                self.go(i)
                return
        self.notify("no further raise in this hand", timeout=2)

    def action_next_hand(self) -> None:
        self.jump_to_hand(self.hand + 1)

    def action_previous_hand(self) -> None:
        self.jump_to_hand(self.hand - 1)

    def jump_to_hand(self, hand: int) -> None:
        """Show another hand of the game (0-based), from its start."""
        if 0 <= hand < len(self.game.hands):
            self.load_hand(hand)
        else:
            self.notify("no such hand in this game", timeout=2)

    def action_toggle_reveal(self) -> None:
        self.reveal = not self.reveal
