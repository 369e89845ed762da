"""Small dialogs of the recorder: the cards of a deal, a line of text, a yes/no question."""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from textual import events
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Grid, Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Input, Label, Static

from truclog.engine.cards import RANKS, UNSEEN, Card
from truclog.engine.notation import deal_cards
from truclog.errors import TruclogError


class DealScreen(ModalScreen[dict[str, list[Card | None]] | None]):
    """The cards you can see in a new deal: one line per player, blank when unseen.
    Typed, or tapped on the buttons of ranks (suits are optional)."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "cancel", "Cancel", id="deal.cancel")
    ]

    def __init__(self, title: str, players: Sequence[str]) -> None:
        super().__init__()
        self.title_text = title
        self.players = list(players)
        self.line = 0  # the player's line the rank buttons write to

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Label(self.title_text, classes="dialog-title")
            yield Static(
                "Cards as 7h Q 9s (rank, suit optional, ?? unseen), or tapped below; leave "
                "a line blank when you did not see them. Enter (or OK) records the deal.",
                classes="dialog-help",
            )
            for i, player in enumerate(self.players):
                yield Label(player)
                yield Input(placeholder="?? ?? ??", id=f"cards-{i}")
            with Grid(classes="deal-keys"):
                for rank in RANKS:
                    yield Button("10" if rank == "T" else rank, id=f"rank-{rank}", compact=True)
                yield Button(UNSEEN, id="rank-unseen", compact=True)
                yield Button("⌫", id="rank-back", compact=True)
                yield Button("OK", id="deal-ok", variant="primary", compact=True)
            yield Static("", id="deal-error", classes="refused")

    def on_descendant_focus(self, event: events.DescendantFocus) -> None:
        """The rank buttons type into the player's line last focused."""
        name = str(event.widget.id)
        if name.startswith("cards-"):
            self.line = int(name.removeprefix("cards-"))

    def on_button_pressed(self, event: Button.Pressed) -> None:
        """OK deals; a rank button adds that card (or an unseen one) to the line, up to three; back
        takes the last card off, from the line before when this one is empty."""
        event.stop()
        name = str(event.button.id)
        if name == "deal-ok":
            self.submit()
            return
        if name == "rank-back" and not self.line_words() and self.line > 0:
            self.line -= 1  # back from an empty line: the card before is on the line before
        line = self.query_one(f"#cards-{self.line}", Input)
        words = self.line_words()
        if name == "rank-back":
            words = words[:-1]
        elif len(words) < 3:
            words.append(UNSEEN if name == "rank-unseen" else str(event.button.label))
        line.value = " ".join(words)
        if len(words) == 3 and self.line + 1 < len(self.players):
            self.line += 1  # this player's three cards are in: the next player's line

    def line_words(self) -> list[str]:
        """The cards typed on the current line."""
        return self.query_one(f"#cards-{self.line}", Input).value.split()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        """Enter on any line deals."""
        event.stop()
        self.submit()

    def submit(self) -> None:
        """Closes with the cards dealt, or says why the lines are not a deal."""
        texts = [self.query_one(f"#cards-{i}", Input).value for i in range(len(self.players))]
        try:
            cards = deal_cards(texts, self.players)
        except TruclogError as exc:
            self.query_one("#deal-error", Static).update(str(exc))
            return
        self.dismiss(cards)

    def action_cancel(self) -> None:
        self.dismiss(None)


class TextScreen(ModalScreen[str | None]):
    """One line of text (a note); Enter keeps it, Escape gives up."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "cancel", "Cancel", id="text.cancel")
    ]

    def __init__(self, title: str, value: str = "", placeholder: str = "") -> None:
        super().__init__()
        self.title_text = title
        self.value = value
        self.placeholder = placeholder

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Label(self.title_text, classes="dialog-title")
            yield Input(self.value, placeholder=self.placeholder, id="text")

    def on_input_submitted(self, event: Input.Submitted) -> None:
        """Closes with the text typed."""
        event.stop()
        self.dismiss(event.value)

    def action_cancel(self) -> None:
        self.dismiss(None)


class ConfirmScreen(ModalScreen[bool]):
    """A yes/no question; y or Enter on Yes confirms."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("y", "answer(True)", "Yes", id="confirm.yes"),
        Binding("n,escape", "answer(False)", "No", id="confirm.no"),
    ]

    def __init__(self, question: str) -> None:
        super().__init__()
        self.question = question

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Label(self.question, classes="dialog-title")
            with Horizontal(classes="buttons"):
                yield Button("Yes", id="yes", variant="error")
                yield Button("No", id="no", variant="primary")

    def on_button_pressed(self, event: Button.Pressed) -> None:
        """Closes with True for yes, False for no."""
        self.dismiss(event.button.id == "yes")

    def action_answer(self, answer: bool) -> None:
        self.dismiss(answer)
