"""A player's costliest answers: the accepts and folds that gave the most points away in
hindsight, most first; enter replays the hand at that answer."""

from __future__ import annotations

from typing import ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.widgets import DataTable, Header, Static

from truclog.terminal import printable
from truclog.tui.browse.costly import CostlyAnswer, GivenAway
from truclog.tui.browse.index import hand_frames
from truclog.tui.browse.review import answer_notes
from truclog.tui.browse.screens.base import BrowseScreen, row_table
from truclog.tui.widgets.footer import KeysFooter

COLUMNS = ("given", "game", "hand", "answer", "sound", "right", "accept", "fold")


def answer_row(answer: CostlyAnswer) -> tuple[Text, ...]:
    """Points given, where, what was answered, and the judgements with the worths from
    the answerer's chances."""
    sound = Text("sound", style="green") if answer.sound else Text("unsound", style="red")
    right = Text("right", style="green") if answer.right else Text("wrong", style="red")
    return (
        Text(str(answer.points_given), style="bold", justify="right"),
        Text(answer.game),
        Text(str(answer.hand), justify="right"),
        Text(f"{answer.kind} {answer.to}"),
        sound,
        right,
        Text(f"{answer.accept_worth:+.2f}", justify="right"),
        Text(f"{answer.fold_worth:+.0f}", justify="right"),
    )


class CostlyAnswersScreen(BrowseScreen):
    """A player's answers that gave points away, the costliest first."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter", "replay", "Replay", id="answers.replay"),
        Binding("escape", "app.pop_screen", "Back", id="answers.back"),
    ]

    def __init__(self, player: str, given: GivenAway | None) -> None:
        super().__init__()
        self.player = player
        self.answers = given.costliest if given is not None else []
        self.given = given

    def compose(self) -> ComposeResult:
        yield Header()
        yield Static(self.heading(), id="answers-heading")
        table = row_table("answers-table", COLUMNS)
        table.add_rows(answer_row(answer) for answer in self.answers)
        yield table
        yield KeysFooter()

    def on_mount(self) -> None:
        """Names the player in the title and puts the cursor in the list."""
        self.sub_title = printable(f"{self.player}'s costliest answers")
        self.query_one(DataTable).focus()

    def heading(self) -> Text:
        """How many of the player's answers gave points away and how many points, and how many are
        listed."""
        given = self.given
        if given is None or not given.answers:
            return Text(f"{self.player}: no answer gave points away", style="bold")
        text = Text(
            f"{self.player}: {given.answers} answers gave {given.points} points away",
            style="bold",
        )
        if len(given.costliest) < given.answers:
            text.append(f" · the {len(given.costliest)} costliest", style="yellow")
        text.append(" · accept, fold: worth on average from the answerer's cards", style="dim")
        return text

    def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        """Enter or a click on an answer replays its hand at that answer."""
        self.action_replay()

    def action_replay(self) -> None:
        """Replay the hand of the answer under the cursor, at that answer."""
        row = self.query_one(DataTable).cursor_row
        if not 0 <= row < len(self.answers):
            return
        answer = self.answers[row]
        catalog = self.browse.catalog
        shown = next((p for p, read in catalog.reading.items() if read == answer.path), answer.path)
        entry = catalog.entry_at(shown, answer.line)
        game = catalog.open(entry) if entry is not None else None
        hands = game.hands if game is not None else []
        hand = next((i for i, h in enumerate(hands) if h.number == answer.hand), None)
        if game is None or hand is None:
            self.notify("this answer's game cannot be read again from its log", severity="error")
            return
        answers = sorted(answer_notes(hand_frames(game, game.hands[hand])))
        position = answers[answer.nth] if answer.nth < len(answers) else 0
        self.browse.open_hand(game, hand, position, entry)
