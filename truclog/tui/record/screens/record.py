"""The recording screen: the table and scoreboard, the log so far, the legal entries, the entry line."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Grid, Horizontal, Vertical
from textual.screen import Screen
from textual.widgets import Button, Footer, Header, Input, Label, OptionList, Static
from textual.widgets.option_list import Option

from truclog.engine.actions import Action
from truclog.engine.cards import Card
from truclog.engine.notation import deal_for
from truclog.errors import TruclogError
from truclog.format.events import Event, event_to_action
from truclog.record.recorder import COMMON_MARKS, DiskError, Recorder
from truclog.terminal import printable
from truclog.tui.record.commands import (
    HINT,
    Choice,
    CommandError,
    Request,
    entry_keys,
    legal_choices,
    parse_command,
)
from truclog.tui.record.hud import Hud
from truclog.tui.record.lines import event_text, status_text
from truclog.tui.record.screens.help import RecordHelpScreen
from truclog.tui.record.screens.menu import MenuScreen
from truclog.tui.record.screens.prompts import ConfirmScreen, DealScreen, TextScreen
from truclog.tui.record.screens.sheet import SheetScreen
from truclog.tui.record.screens.start import StartScreen, setup_after
from truclog.tui.widgets import TableView

if TYPE_CHECKING:
    from truclog.replay import Game


class RecordScreen(Screen[None]):
    """Record one game after another into the recorder's log."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("ctrl+z", "undo", "Undo", id="record.undo", priority=True),
        Binding("ctrl+n", "note", "Note", id="record.note", priority=True),
        Binding("ctrl+k", "mark", "Mark", id="record.mark", priority=True),
        Binding("ctrl+e", "edit", "Edit", id="record.edit", priority=True),
        Binding("f2", "deal", "Deal", id="record.deal"),
        Binding("f6", "sheet", "Sheet", id="record.sheet"),
        Binding("f7", "share", "Share", id="record.share", show=False),  # help, palette
        Binding("f8", "abandon", "Abandon", id="record.abandon"),
        Binding("f1", "help", "Help", id="record.help"),
        Binding("f10", "commands", "Menu", id="record.commands", show=False),
        Binding("down,up", "menu", "Legal now", id="record.menu", show=False),
        Binding("escape", "entry", "Entry line", id="record.entry", show=False),
    ]

    # a phone: one column; 24 rows: a one-row entry line (Screen declares these without
    # ClassVar, so mypy refuses one here)
    HORIZONTAL_BREAKPOINTS = [(0, "-narrow"), (70, "-wide")]  # noqa: RUF012
    VERTICAL_BREAKPOINTS = [(0, "-short"), (32, "-tall")]  # noqa: RUF012

    def __init__(
        self,
        recorder: Recorder,
        me: str | None = None,
        opening: str = "",
        history: Sequence[str] | None = None,
    ) -> None:
        """``history``: the logs the HUD counts (empty: the log's folder); ``None``: no HUD."""
        super().__init__()
        self.recorder = recorder
        self.history = history
        self.me = me
        self.opening = opening  # what opening the log repaired or completed
        self.choices: list[Choice] = []

    def compose(self) -> ComposeResult:
        yield Header()
        with Horizontal(id="main"):
            with Vertical(id="board"):
                yield TableView(id="table")
                yield Static(id="status")
                if self.history is not None:
                    yield Hud(self.recorder, self.history, id="hud")
                yield Label("Legal now", classes="panel-title")
                yield OptionList(id="choices")
                yield Grid(id="taps")  # a phone: a button for each legal entry
            with Vertical(id="log"):
                yield Label("Log", classes="panel-title")
                yield OptionList(id="events")
        yield Static(id="message")
        with Horizontal(id="marks"):
            for n, mark in enumerate(COMMON_MARKS):
                yield Button(mark, id=f"mark-{n}", classes="mark", compact=True)
        yield Input(placeholder=HINT, id="entry")
        with Horizontal(id="phone-bar"):  # a phone: the footer's commands, by taps
            yield Button("Undo", id="tap-undo", classes="command")
            yield Button("Menu", id="tap-menu", classes="command", variant="primary")
        yield Footer()

    def on_mount(self) -> None:
        """Shows the game and puts the cursor on the entry line, with the opening message if any."""
        self.sub_title = printable(self.recorder.path.name)
        self.refresh_game()
        self.query_one("#entry", Input).focus()
        if self.opening:
            self.say(self.opening)

    # --- drawing ------------------------------------------------------------

    def refresh_game(self) -> None:
        """Draws the game again after a change: the table, the status, the log's events and what is
        legal now."""
        state = self.recorder.state
        if state is None:
            return
        self.query_one("#table", TableView).show(state, reveal=True)
        self.query_one("#status", Static).update(status_text(self.recorder))
        for hud in self.query(Hud):
            hud.follow()
        events = self.query_one("#events", OptionList)
        events.clear_options()
        events.add_options([event_text(e.event) for e in self.recorder.game_entries])
        events.highlighted = events.option_count - 1
        self.choices = [] if self.recorder.over else legal_choices(state, self.me)
        menu = self.query_one("#choices", OptionList)
        menu.clear_options()
        menu.add_options(
            [Option(Text(f"{c.keys:<8} {c.label}"), id=str(i)) for i, c in enumerate(self.choices)]
        )
        self.show_taps()

    def show_taps(self) -> None:
        """The legal entries again as large buttons (shown on a phone)."""
        taps = self.query_one("#taps", Grid)
        taps.remove_children()
        taps.mount_all(
            Button(c.label, name=str(i), classes="tap") for i, c in enumerate(self.choices)
        )

    def say(self, message: str, refused: bool = False) -> None:
        """Shows ``message`` under the table; a refusal is marked and rings the bell."""
        box = self.query_one("#message", Static)
        box.set_class(refused, "refused")
        box.update(Text(("refused: " if refused else "") + message))
        if refused:
            self.app.bell()

    def refuse_entry(self, reason: str) -> None:
        """Say why an entry was refused and select it, so typing replaces it."""
        self.say(reason, refused=True)
        entry = self.query_one("#entry", Input)
        entry.focus()
        entry.select_all()

    def refuse(self, exc: TruclogError, entry: bool = False) -> None:
        """Show what the recorder refused; a disk that failed is also kept for the exit status."""
        if isinstance(exc, DiskError):
            failures = getattr(self.app, "failures", None)
            if failures is not None:
                failures.append(exc.message)
            self.refresh_game()  # an entry may be on disk though the lines after it are not
        if entry:
            self.refuse_entry(exc.message)
        else:
            self.say(exc.message, refused=True)

    def recorded(self, event: Event) -> None:
        """Show what was written: the event, and the lines the recorder added after it."""
        self.refresh_game()
        entries = self.recorder.entries
        at = max(i for i, entry in enumerate(entries) if entry.event is event)
        written = " → ".join(event_text(entry.event).plain for entry in entries[at:])
        self.say(f"recorded (line {at + 1} on disk): {written}")

    # --- entering -----------------------------------------------------------

    def on_input_submitted(self, event: Input.Submitted) -> None:
        """Enters what was typed on the entry line."""
        if event.input.id != "entry" or not event.value.strip():
            return
        event.stop()
        self.enter(event.value)

    def enter(self, text: str) -> None:
        """Carry out one typed entry."""
        state = self.recorder.state
        if state is None:
            return
        words = text.split()
        allowed = {"new", "u", "undo", "?", "help", "e", "edit", "sheet", "s", "show"}
        allowed |= {"n", "note", "m", "mark"}
        if self.recorder.over and words[0].lower() not in allowed:
            self.refuse_entry(
                "the game is over: s NAME CARDS for cards shown, new for another game, u to undo"
            )
            return
        try:
            command = parse_command(text, state, self.me)
        except CommandError as exc:
            self.refuse_entry(exc.message)
            return
        if isinstance(command, Request):
            self.request(command)
        else:
            self.record(command)

    def record(self, action: Action) -> bool:
        """Records ``action`` into the log; False, and the reason shown, when the recorder refuses
        it."""
        try:
            event = self.recorder.record(action)
        except TruclogError as exc:
            self.refuse(exc, entry=True)
            return False
        self.query_one("#entry", Input).clear()
        self.recorded(event)
        return True

    def request(self, request: Request) -> None:
        """Does what an entry asked for that records no action: a note, a mark, the deal
        form, undo, abandon, a new game, an edit, the sheet or the help."""
        self.query_one("#entry", Input).clear()
        if request.kind == "note":
            if request.text:
                self.add_note(request.text, None)
            else:
                self.action_note()
        elif request.kind == "mark":
            if request.text:
                self.toggle_mark(request.text, None)
            else:
                self.action_mark()
        elif request.kind == "deal-form":
            self.action_deal()
        elif request.kind == "undo":
            self.action_undo()
        elif request.kind == "abandon":
            self.action_abandon()
        elif request.kind == "new-game":
            self.action_new_game()
        elif request.kind == "edit":
            self.action_edit()
        elif request.kind == "sheet":
            self.action_sheet()
        else:
            self.action_help()

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        """Picking a legal action in the menu records it (or asks what it needs first)."""
        if event.option_list.id != "choices":
            return
        event.stop()
        self.choose(self.choices[event.option_index])

    def choose(self, choice: Choice) -> None:
        """Record a legal entry picked in the menu (or open what it needs more of)."""
        entry = self.query_one("#entry", Input)
        if choice.action is not None:
            self.record(choice.action)
        elif choice.keys == "d":
            self.action_deal()
            return
        else:
            entry.value = choice.keys.split()[0] + " "
            entry.cursor_position = len(entry.value)
        entry.focus()

    # --- actions ------------------------------------------------------------

    def action_deal(self) -> None:
        state = self.recorder.state
        if state is None or self.recorder.over:
            self.say("no deal is due: the game is over", refused=True)
            return
        try:
            deal_for(state, {})
        except CommandError as exc:
            self.say(exc.message, refused=True)
            return
        players = [self.me] if self.me else list(state.players)
        dealer = self.recorder.next_dealer
        title = f"{dealer} deals — the cards you can see"

        def done(cards: dict[str, list[Card | None]] | None) -> None:
            if cards is not None:
                self.record(deal_for(state, cards))
            self.query_one("#entry", Input).focus()

        self.app.push_screen(DealScreen(title, players), done)

    def action_undo(self) -> None:
        try:
            removed = self.recorder.undo()
        except TruclogError as exc:
            self.refuse(exc)
            return
        self.refresh_game()
        what = "; ".join(event_text(e).plain for e in removed)
        self.say(f"undone: {what} (kept in {self.recorder.path.name}.undone)")

    def picked(self) -> int:
        """The line picked in the log list (index in the log), else the last line."""
        entries = self.recorder.entries
        events = self.query_one("#events", OptionList)
        if events.has_focus and events.highlighted is not None:
            return len(entries) - len(self.recorder.game_entries) + events.highlighted
        return len(entries) - 1

    def action_menu(self) -> None:
        """Arrows from the entry line go to the menu of legal entries."""
        menu = self.query_one("#choices", OptionList)
        if self.query_one("#entry", Input).has_focus and menu.option_count:
            menu.focus()
            menu.highlighted = menu.highlighted or 0

    def action_entry(self) -> None:
        self.query_one("#entry", Input).focus()

    def action_edit(self) -> None:
        """Change the line picked in the log list (or the last entry); the rest is checked."""
        entries = self.recorder.entries
        at = self.picked()
        while at >= 0 and entries[at].auto:
            at -= 1  # from a result line, the entry that decided it
        action = event_to_action(entries[at].event) if at >= 0 else None
        if action is None:
            self.say("pick a deal, raise, answer, card or show in the log list to edit it", True)
            return
        players = self.recorder.state_at(at).players

        def done(text: str | None) -> None:
            if text:
                self.edit(at, text)
            self.query_one("#entry", Input).focus()

        line = event_text(entries[at].event).plain
        title = f"Edit line {at + 1}: {line} (the rest of the game is checked again)"
        self.app.push_screen(TextScreen(title, entry_keys(action, players)), done)

    def edit(self, at: int, text: str) -> None:
        """Replaces log line ``at`` with the entry ``text``, as the state there allows; the lines
        replaced are kept aside."""
        try:
            command = parse_command(text, self.recorder.state_at(at), self.me)
            if isinstance(command, Request):
                raise CommandError(f"'{text}' is not an entry that can replace a line")
            changed = self.recorder.edit(at, command)
        except TruclogError as exc:
            self.refuse(exc)
            return
        self.refresh_game()
        kept = f" (the old lines are kept in {self.recorder.path.name}.undone)" if changed else ""
        self.say(f"line {at + 1} is now: {event_text(self.recorder.entries[at].event).plain}{kept}")

    def action_sheet(self) -> None:
        self.app.push_screen(SheetScreen(self.recorder))

    def action_share(self) -> None:
        """Write the hand in play (or the last one) as a replay page, from your seat if set."""
        state = self.recorder.state
        if state is None or not state.hand_no:
            self.say("no hand to share yet: deal first", refused=True)
            return
        from truclog.tui.widgets.share import share_hand

        path = self.recorder.path
        share_hand(self.app, lambda: last_game(path), state.hand_no, self.me)

    def action_note(self) -> None:
        entries = self.recorder.entries
        if not entries:
            return
        at = self.picked()
        old = entries[at].event.note or ""

        def done(text: str | None) -> None:
            if text is not None:
                self.add_note(text, at)
            self.query_one("#entry", Input).focus()

        line = event_text(entries[at].event).plain
        self.app.push_screen(TextScreen(f"Note on line {at + 1}: {line}", old), done)

    def add_note(self, text: str, at: int | None) -> None:
        """Records the note ``text`` on line ``at`` (None: the last one entered)."""
        try:
            event = self.recorder.note(text, at)
        except TruclogError as exc:
            self.refuse(exc)
            return
        self.refresh_game()
        self.say(f"note recorded: {event_text(event).plain}")

    def action_mark(self) -> None:
        """Type a mark for the line picked in the log list (or the last entry): it goes
        on, or off if the line has it already."""
        entries = self.recorder.entries
        if not entries:
            return
        at = self.picked()

        def done(text: str | None) -> None:
            if text:
                self.toggle_mark(text.strip(), at)
            self.query_one("#entry", Input).focus()

        line = event_text(entries[at].event).plain
        title = f"Mark line {at + 1}: {line} (e.g. {', '.join(COMMON_MARKS)}; again: off)"
        self.app.push_screen(TextScreen(title, ""), done)

    def on_button_pressed(self, event: Button.Pressed) -> None:
        """A mark button: one tap puts its mark on the picked line (the last entry), or
        takes it off."""
        button = event.button
        if button.has_class("tap"):
            event.stop()
            self.choose(self.choices[int(str(button.name))])
        elif button.id in ("tap-undo", "tap-menu"):
            event.stop()
            if button.id == "tap-undo":
                self.action_undo()
            else:
                self.action_commands()
        elif button.has_class("mark"):
            event.stop()
            self.toggle_mark(str(button.label), None)
            self.query_one("#entry", Input).focus()

    def action_commands(self) -> None:
        """The menu of every command (a phone's footer)."""

        def done(name: str | None) -> None:
            if name == "quit":
                self.app.exit()
            elif name:
                getattr(self, f"action_{name}")()

        self.app.push_screen(MenuScreen(), done)

    def toggle_mark(self, mark: str, at: int | None) -> None:
        """Puts ``mark`` on line ``at``, or takes it off if it is there (None: the line picked in
        the log, else the last one entered)."""
        entries = self.recorder.entries
        if at is None:
            at = (
                self.picked() if self.query_one("#events").has_focus else self.recorder.last_entered
            )
        had = at is not None and mark in (entries[at].event.marks or ())
        try:
            event = self.recorder.mark(mark, at, on=not had)
        except TruclogError as exc:
            self.refuse(exc)
            return
        self.refresh_game()
        self.say(f"{'mark taken off' if had else 'marked'}: {event_text(event).plain}")

    def action_abandon(self) -> None:
        if self.recorder.over:
            self.say("the game is already over", refused=True)
            return

        def done(yes: bool | None) -> None:
            if yes:
                try:
                    event = self.recorder.abandon()
                except TruclogError as exc:
                    self.refuse(exc)
                    return
                self.recorded(event)
            self.query_one("#entry", Input).focus()

        self.app.push_screen(ConfirmScreen("Abandon this game? (y/n)"), done)

    def action_new_game(self) -> None:
        """Starts another game in the same log once this one is over."""
        if not self.recorder.over:
            self.say("the game is still in progress: abandon it first (f8)", refused=True)
            return

        def done(started: tuple[Recorder, str | None] | None) -> None:
            if started is not None:
                self.me = started[1] or self.recorder.me
            self.refresh_game()
            self.query_one("#entry", Input).focus()

        self.app.push_screen(StartScreen(setup_after(self.recorder, self.me), self.recorder), done)

    def action_help(self) -> None:
        self.app.push_screen(RecordHelpScreen())


def last_game(path: Path) -> Game:
    """The game being recorded: the last of the log (the recorder appends)."""
    from collections import deque

    from truclog.replay import read_games

    last = deque(read_games(path), maxlen=1)
    if not last:
        raise TruclogError(f"{path}: no game to share")
    return last[0]
