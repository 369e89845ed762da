"""The replay of one hand, event by event: the table beside the event list."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.reactive import reactive
from textual.widgets import DataTable, Header, Static

from truclog.diagnostic import Diagnostic
from truclog.engine.actions import Raise
from truclog.errors import TruclogError
from truclog.record.annotations import NOTES, Annotation
from truclog.replay import Hand
from truclog.terminal import printable
from truclog.tui.browse.asof import AsOfCounted, AsOfPanel, AsOfReady
from truclog.tui.browse.catalog import GameEntry
from truclog.tui.browse.index import Frame, hand_frames
from truclog.tui.browse.judged import JudgedDecision, decision_marks, decision_text, decisions
from truclog.tui.browse.messages import GameGrew
from truclog.tui.browse.review import AnswerNote, RaiseNote, answer_notes, raise_notes
from truclog.tui.browse.screens.annotate import AnnotateScreen
from truclog.tui.browse.screens.base import BrowseScreen
from truclog.tui.browse.transcript import describe_step, hand_text
from truclog.tui.browse.worth import WorthChart
from truclog.tui.widgets import TableView
from truclog.tui.widgets.footer import KeysFooter
from truclog.validate.checker import CheckedGame, Step

ONLOOKER, EVERYTHING = "", "*"
"""The views besides a player's seat: what an onlooker knew, and every card."""


def step_row(
    step: Step,
    diagnostics: Sequence[Diagnostic] = (),
    strength: RaiseNote | None = None,
    answer: AnswerNote | None = None,
    annotations: Sequence[Annotation] = (),
    decision: JudgedDecision | None = None,
) -> tuple[Text, Text]:
    """The event list row of a step: line number and description, styled by what happened,
    with a raise's strength (``✗ bluff`` below the threshold), an answer's review, a
    decision's grade mark and points lost, and ``✎`` and the marks of its notes."""
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
    if strength is not None and strength.strength is not None:
        text.append(f"  {strength.strength:.2f}", style="bold cyan")
        if strength.bluff:
            text.append(" ✗ bluff", style="bold red")
    elif strength is not None:
        text.append("  (hand unknown)", style="dim")
    if answer is not None:
        text.append_text(answer_marks(answer))
    if decision is not None:
        text.append_text(decision_marks(decision))
    if warnings:
        text.append(f"  ⚠ {' '.join(warnings)}", style="yellow")
    if any(a.note for a in annotations):
        text.append("  ✎", style="cyan")
    for mark in dict.fromkeys(m for a in annotations for m in a.marks):
        text.append(f"  #{mark}", style="bold magenta")
    return Text(str(step.line), style="dim", justify="right"), text


def notes_text(annotations: Sequence[Annotation]) -> Text:
    """The notes and marks of a step: the log's, then yours (its notes file's)."""
    text = Text()
    for annotation in annotations:
        if text:
            text.append("\n")
        mine = annotation.source == NOTES
        text.append("your note  " if mine else "note  ", style="bold cyan")
        text.append(annotation.note or "")
        for mark in annotation.marks:
            text.append(f"  #{mark}", style="bold magenta")
    return text


def answer_marks(answer: AnswerNote) -> Text:
    """An answer's review in the event list: green when sound (right), red when not."""
    review = answer.review
    text = Text("  ")
    if review is None or review.sound is None:
        return text.append(answer.marks(), style="dim")
    marks = answer.marks().split(", ", 1)
    text.append(marks[0], style="bold green" if review.sound else "bold red")
    text.append(", ")
    good = review.right
    return text.append(marks[1], style="dim" if good is None else "green" if good else "red")


def diagnostics_text(diagnostics: list[Diagnostic]) -> Text:
    """The diagnostics of an event, each with its code and line, and the actions that were legal
    there."""
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
        Binding("v", "view", "View", id="replay.view"),
        Binding("c", "copy", "Copy", id="replay.copy"),
        Binding("i", "as_of", "Stats so far", id="replay.as_of"),
        Binding("a", "annotate", "Note", id="replay.annotate"),
        Binding("w", "worth", "Graph", id="replay.worth"),
        Binding("s", "share", "Share", id="replay.share"),
        Binding("escape", "app.pop_screen", "Back", id="replay.exit"),
    ]

    hand: reactive[int] = reactive(0, init=False)
    position: reactive[int] = reactive(0, init=False)
    view: reactive[str] = reactive(ONLOOKER, init=False)
    """``ONLOOKER``, ``EVERYTHING``, or the name of the player whose seat is shown."""

    def __init__(
        self, game: CheckedGame, hand: int, position: int = 0, entry: GameEntry | None = None
    ) -> None:
        super().__init__()
        self.game = game
        self.entry = entry
        self.set_reactive(ReplayScreen.hand, hand)
        self.set_reactive(ReplayScreen.position, position)
        self.frames: list[Frame] = []
        self.strengths: dict[int, RaiseNote] = {}
        self.answers: dict[int, AnswerNote] = {}
        self.decisions: dict[int, JudgedDecision] = {}
        self.noted: Hand | None = None
        """The hand shown, with its notes and marks (of its lines and of the notes file)."""

    def compose(self) -> ComposeResult:
        yield Header()
        yield Static(id="replay-title")
        with Horizontal(id="replay-body"):
            with Vertical(id="replay-left"):
                yield TableView(id="replay-table")
                yield Static(id="replay-note")
                yield Static(id="replay-answer")
                yield Static(id="replay-review")
                yield WorthChart(id="replay-worth")
                yield Static(id="replay-diagnostic")
                yield AsOfPanel(id="replay-asof")
            events: DataTable[Any] = DataTable(id="replay-events", cursor_type="row")
            events.can_focus = False  # the screen's keys step; a click on an event jumps to it
            events.add_column("line", key="line")
            events.add_column("event", key="event")
            yield events
        yield KeysFooter()

    def on_mount(self) -> None:
        """Opens the hand at its position, from ``--me``'s seat when they played, and starts the as-
        of counts."""
        self.sub_title = printable(f"replay of {self.game.id}")
        me = self.browse.me
        if me and me in self.game.players:
            self.set_reactive(ReplayScreen.view, me)
        self.load_hand(self.hand, self.position)
        self.browse.as_of.start()

    @property
    def events(self) -> DataTable[Any]:
        """The list of the hand's events."""
        return self.query_one("#replay-events", DataTable)

    @property
    def frame(self) -> Frame | None:
        """The event shown, if the hand has any."""
        return self.frames[self.position] if self.frames else None

    def load_hand(self, hand: int, position: int = 0) -> None:
        """Show hand ``hand`` (0-based in the game) at event ``position`` (negative from the end)."""
        self.set_reactive(ReplayScreen.hand, hand)
        game = self.game
        self.frames = hand_frames(game, game.hands[hand]) if game.hands else []
        threshold = self.browse.bluff_threshold
        self.strengths = raise_notes(self.frames, threshold)
        self.answers = answer_notes(self.frames)
        self.set_reactive(ReplayScreen.position, position % len(self.frames) if self.frames else 0)
        self.show_as_of()
        self.noted = self.browse.notes.hand(game, hand) if game.hands else None
        self.decisions = decisions(self.noted) if self.noted is not None else {}
        self.fill_events()
        self.show()

    def fill_events(self) -> None:
        """The event list, a row per step, the cursor kept where it is."""
        table, answers = self.events, self.answers
        table.clear()
        table.add_rows(
            step_row(
                f.step,
                f.diagnostics,
                self.strengths.get(i),
                answers.get(i),
                self.notes_at(i),
                self.decisions.get(i),
            )
            for i, f in enumerate(self.frames)
        )

    def notes_at(self, position: int) -> list[Annotation]:
        """The notes and marks of the step at ``position`` (0-based; its step is one more)."""
        return self.noted.annotations_at(position + 1) if self.noted is not None else []

    def watch_hand(self, hand: int) -> None:
        """Opens the hand chosen."""
        self.load_hand(hand)

    def watch_position(self) -> None:
        """Shows the table at the new position."""
        self.show()

    def watch_view(self) -> None:
        """Shows the table from the new point of view."""
        self.show()

    def go(self, position: int) -> None:
        """Moves to the event at ``position``, kept within the hand."""
        if self.frames:
            self.position = max(0, min(position, len(self.frames) - 1))

    def view_words(self) -> str:
        """The point of view in words: every card, an onlooker's, or a seat's."""
        if self.view == EVERYTHING:
            return "everything the log reveals"
        if self.view == ONLOOKER:
            return "what an onlooker knew"
        return f"{self.view}'s seat"

    def show(self) -> None:
        """Draw the current moment: title, table, note, diagnostics, event cursor."""
        frame = self.frame
        title = self.query_one("#replay-title", Static)
        if frame is None:
            title.update(Text.assemble((self.game.id, "bold"), ": no hands"))
            return
        number = self.game.hands[self.hand].number
        title.update(
            Text.assemble(
                (f"{self.game.id}", "bold"),
                f" · hand {number} ({self.hand + 1}/{len(self.game.hands)})",
                f" · event {self.position + 1}/{len(self.frames)}",
                f" · line {frame.step.line}",
                (f" · {self.view_words()}", "italic cyan"),
            )
        )
        seat = self.view if self.view not in (ONLOOKER, EVERYTHING) else None
        self.query_one(TableView).show(frame.state, self.view == EVERYTHING, frame.later, seat)
        self.query_one("#replay-note", Static).update(notes_text(self.notes_at(self.position)))
        answer = self.answers.get(self.position)
        self.query_one("#replay-answer", Static).update(
            Text("\n".join(answer.lines())) if answer is not None else ""
        )
        self.show_review(seat)
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

    def show_review(self, seat: str | None) -> None:
        """The review of the decision at this step, and the hand's worth to the player
        whose seat is shown (else to you, else to the first player)."""
        decision = self.decisions.get(self.position)
        review = self.query_one("#replay-review", Static)
        review.update(decision_text(decision) if decision is not None else "")
        players = self.game.players
        me = self.browse.me
        player = seat or (me if me in players else players[0] if players else "")
        chart = self.query_one("#replay-worth", WorthChart)
        chart.chart(self.decisions.values(), player, self.position)

    def action_worth(self) -> None:
        """Show or hide the analysis graph."""
        chart = self.query_one("#replay-worth", WorthChart)
        chart.display = not chart.display

    def show_as_of(self) -> None:
        """Each player's rates over the hands before this one, once counted."""
        panel = self.query_one(AsOfPanel)
        as_of = self.browse.as_of.as_of
        if as_of is None or not self.game.hands:
            panel.waiting()
            return
        entry, game = self.entry, self.game
        catalog = self.browse.catalog
        path = catalog.reading.get(entry.path, entry.path) if entry is not None else game.path
        number = game.hands[self.hand].number
        counts = [as_of.before(p, path, game.line, number) for p in game.players]
        panel.show_counts(counts, f"as of hand {number}: earlier hands only")

    def on_as_of_counted(self, message: AsOfCounted) -> None:
        """Shows how far the as-of counts have got."""
        self.query_one(AsOfPanel).waiting(message.hands, message.total)

    def on_as_of_ready(self, message: AsOfReady) -> None:
        """Shows the players' statistics before this hand."""
        self.show_as_of()

    def action_as_of(self) -> None:
        """Show or hide the statistics as of this hand."""
        panel = self.query_one(AsOfPanel)
        panel.display = not panel.display

    def on_data_table_row_highlighted(self, event: DataTable.RowHighlighted) -> None:
        """Moving the cursor in the event list moves the replay to that event."""
        row = event.cursor_row
        if row != self.position and row == self.events.cursor_row:
            self.go(row)

    def on_game_grew(self, message: GameGrew) -> None:
        """The game's log grew: the same hand and event again, with the new lines."""
        self.game, self.entry = message.game, message.entry
        if self.game.hands:
            self.load_hand(min(self.hand, len(self.game.hands) - 1), self.position)

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
            self.hand = hand
        else:
            self.notify("no such hand in this game", timeout=2)

    def action_view(self) -> None:
        """The next view: onlooker, each player's seat, everything revealed."""
        views = [ONLOOKER, *self.game.players, EVERYTHING]
        self.view = (
            views[(views.index(self.view) + 1) % len(views)] if self.view in views else ONLOOKER
        )

    def action_annotate(self) -> None:
        """Your note and marks on this step, kept in the log's notes file."""
        frame = self.frame
        if frame is None or self.noted is None:
            return
        self.noted = self.browse.notes.hand(self.game, self.hand)  # as on disk now
        self.fill_events()
        self.show()
        hand, step = self.noted.number, self.position + 1
        notes = self.notes_at(self.position)
        mine = next((a for a in notes if a.source == NOTES), None)
        shown = notes_text([a for a in notes if a.source != NOTES])
        title = f"Hand {hand}, line {frame.step.line}: {describe_step(frame.step)}"

        def typed(answer: tuple[str, list[str]] | None) -> None:
            if answer is None:
                return
            try:
                self.browse.notes.write(self.game, hand, step, answer[0], answer[1], mine)
            except TruclogError as exc:
                self.notify(exc.message, severity="error", markup=False)
                return
            self.noted = self.browse.notes.hand(self.game, self.hand)
            self.fill_events()
            self.show()
            self.notify("kept in the log's notes file", timeout=2)

        note, marks = (mine.note or "", mine.marks) if mine is not None else ("", ())
        self.app.push_screen(AnnotateScreen(title, note, marks, shown.plain), typed)

    def action_copy(self) -> None:
        """Copy the hand as text (as ``truclog show`` prints it)."""
        if not self.game.hands:
            return
        text = hand_text(self.game, self.hand, self.browse.bluff_threshold)
        self.app.copy_to_clipboard(text)
        lines = text.count("\n")
        self.notify(
            f"hand {self.game.hands[self.hand].number} copied as text ({lines} lines)",
            markup=False,
            timeout=3,
        )

    def action_share(self) -> None:
        """Write the hand's replay page (from the seat shown, if a player's) as one HTML file."""
        if not self.game.hands:
            return
        from truclog.replay import Game
        from truclog.tui.widgets.share import share_hand

        game = self.game
        seat = self.view if self.view in game.players else None
        notes = self.browse.notes

        def load() -> Game:  # in the worker: with the notes file as it is on disk now
            return Game(game, notes.of(game.path))

        share_hand(self.app, load, game.hands[self.hand].number, seat)
